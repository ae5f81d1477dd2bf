"""Parameter-study metrics of two bodies' solids along each variant's run:
``REDUCER(clearance(A, B), ...)`` (``min(clearance(A, B))`` above all) and
``interference_time(A, B)``.

``clearance(A, B)`` is the signed distance of the two bodies' solids [m]: > 0 apart,
minus the penetration depth when they overlap (``collision.geometry.proximity``), a
signal reduced as the solver's are (``solver.metrics.REDUCERS``: ``min``, ``at``,
``first_crossing`` ...). Its samples are the instants the interference check of the
pair (``collision.along``) evaluated exactly: the output samples and, between them, where
it looked for contacts and the closest approach; ``min(clearance(A, B))`` is thus the
check's smallest signed distance, found between the output samples too. For the other
reducers the output samples the check skipped (its broad phase proved them far) are
evaluated too. ``interference_time(A, B)`` is the total time [s] the solids overlap by
more than the tolerance. ``A`` and ``B`` are bodies of the study (a name or a quoted
label; one may be fixed), options ``deflection=MM`` (of the tessellation, default
``document.interference.DEFLECTION_MM``) and ``tolerance=MM`` (overlaps no deeper count
as touching; default twice the deflection)::

    min(clearance(Slider, "Crank post"))
    min_clearance(Slider, Crank, deflection=0.05)      # min(clearance(...)), spelled so
    first_crossing(clearance(Bar, Block), 0, down)     # the first contact [s]
    interference_time(Bar, Block, tolerance=0.5)

An expression holds one such term and no arithmetic (its value is computed on the client,
the solver's terms on the workers).

They need the solids, which only the client (the process with the document) has:
the workers send back the two bodies' motion with their results (``solver.batch.poses``,
no second run), and the client moves the solids it tessellated while the variant's
design was set (once for the whole sweep when no variable is geometric).
"""
import ast
import hashlib
import math

import numpy as np

from ..solver import ModelError
from ..solver.metrics import REDUCERS, parse_metric

__all__ = ["PairMetric", "PairMetrics", "parse_pair_metric", "is_pair_metric", "QUANTITIES"]

#: the pair's quantities: the signal ``clearance`` (under a reducer; ``min_clearance`` is
#: ``min(clearance(...))``) and the total time of interference
QUANTITIES = ("clearance", "interference_time")
#: options of the pair: name -> what it is
OPTIONS = {"deflection": "the tessellation's deflection [mm]",
           "tolerance": "overlaps no deeper [mm] count as touching"}

_FORMS = ("REDUCER(clearance(A, B), ...) (e.g. min(clearance(A, B)), min_clearance(A, B)) "
          "or interference_time(A, B)")


class PairMetric:
    """One metric of a pair of bodies (see the module docstring); ``kind`` "pair"."""

    kind = "pair"
    simple = False

    def __init__(self, name, text, quantity, a, b, deflection_mm=None, tolerance_mm=None,
                 reducer=None, args=()):
        self.name, self.text, self.quantity = name, text, quantity
        self.a, self.b = a, b
        self.deflection_mm, self.tolerance_mm = deflection_mm, tolerance_mm
        self.reducer, self.args = reducer, tuple(args)

    @property
    def signals(self):
        """None of the solver's (the engine checks the two bodies itself)."""
        return []

    @property
    def every_sample(self):
        """The value needs the output samples the check skipped (all reducers of
        ``clearance`` but ``min``)."""
        return self.quantity == "clearance" and self.reducer != "min"

    def value(self, report, t=None, x=None):
        """The metric's value of the pair's ``PairReport``; ``t``, ``x``: the signal's
        samples (``clearance_samples``) when ``every_sample``."""
        if self.quantity == "interference_time":
            return float(report.interference_time)
        if t is None:
            t, x = report.samples
        return float(REDUCERS[self.reducer][0](t, x, *self.args))

    def __repr__(self):
        return "PairMetric(%r, %r)" % (self.name, self.text)


def is_pair_metric(metric):
    return getattr(metric, "kind", None) == "pair"


def _target(node, what):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        return node.value
    raise ModelError("%s: the bodies are names or quoted labels, got %s"
                     % (what, ast.unparse(node)))


def _option(kw, what):
    if kw.arg not in OPTIONS:
        raise ModelError("%s: unknown option %r; valid: %s" % (what, kw.arg, ", ".join(
            "%s (%s)" % kv for kv in OPTIONS.items())))
    v, sign = kw.value, 1.0
    if isinstance(v, ast.UnaryOp) and isinstance(v.op, (ast.USub, ast.UAdd)):
        v, sign = v.operand, -1.0 if isinstance(v.op, ast.USub) else 1.0
    if not (isinstance(v, ast.Constant) and isinstance(v.value, (int, float))
            and not isinstance(v.value, bool) and math.isfinite(v.value)):
        raise ModelError("%s: %s must be a number [mm], got %s" % (what, kw.arg,
                                                                   ast.unparse(kw.value)))
    value = sign * float(v.value)
    if kw.arg == "deflection" and not value > 0:
        raise ModelError("%s: the deflection must be > 0 mm, got %g" % (what, value))
    if value < 0:
        raise ModelError("%s: the tolerance must be >= 0 mm, got %g" % (what, value))
    return value


def _uses_clearance(tree):
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id in ("clearance", "min_clearance", "interference_time")
               for n in ast.walk(tree))


def parse_pair_metric(text, name=None):
    """A ``PairMetric`` of ``text``, None for an expression without ``clearance``,
    ``min_clearance`` or ``interference_time``; ``ModelError`` for a malformed one (or
    one that does arithmetic on it)."""
    text = str(text).strip()
    name = str(name).strip() if name else text
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None                                 # the solver's parser says why
    if not _uses_clearance(tree):
        return None
    what = "metric %r" % (name if len(name) <= 60 else name[:60] + "...")
    reducer, args, call = "min", (), tree
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) \
            and tree.func.id in REDUCERS and tree.args and isinstance(tree.args[0], ast.Call) \
            and isinstance(tree.args[0].func, ast.Name) and tree.args[0].func.id == "clearance":
        call, quantity = tree.args[0], "clearance"
        # the reducer's arguments as the solver reads them, on a stand-in signal
        tree.args[0] = ast.Name("kinetic_energy", ast.Load())
        term = parse_metric(ast.unparse(tree), name).terms[0]
        reducer, args = term.reducer, term.args
    elif isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) \
            and tree.func.id in ("min_clearance", "interference_time"):
        quantity = "clearance" if tree.func.id == "min_clearance" else tree.func.id
    else:
        raise ModelError("%s: a metric of two bodies' solids is %s, alone: no arithmetic on "
                         "it, no other term beside it" % (what, _FORMS))
    if len(call.args) != 2:
        raise ModelError("%s: %s() takes two bodies: %s" % (what, call.func.id, _FORMS))
    a, b = (_target(x, what) for x in call.args)
    options = {}
    for kw in call.keywords:
        if kw.arg in options:
            raise ModelError("%s: %s given twice" % (what, kw.arg))
        options[kw.arg] = _option(kw, what)
    if a == b:
        raise ModelError("%s: a pair needs two bodies, got '%s' twice" % (what, a))
    return PairMetric(name, text, quantity, a, b, options.get("deflection"),
                      options.get("tolerance"), reducer if quantity == "clearance" else None,
                      args)


def _same_or_new(old, new):
    """``old`` when ``new`` has its very triangles (a variable that changed other shapes:
    the variants in flight then share one solid), else ``new``."""
    if old is not None and old.points.shape == new.points.shape \
            and old.triangles.shape == new.triangles.shape \
            and (old.points == new.points).all() and (old.triangles == new.triangles).all():
        return old
    return new


class PairMetrics:
    """The pair metrics of one sweep, on the client (``sweep.engine``).

    ``PairMetrics(study, metrics)`` checks, before any variant runs, that python-fcl
    imports and that each metric names two bodies of ``study`` with shapes;
    ``prepare(conv, geometric)`` tessellates their solids for a variant (again only
    when a variable is geometric) and gives the solver names of the bodies whose
    motion the worker must send back and a digest of the solids (the cache keys
    include it: a variant's shapes are not all in its model); ``evaluate(prepared,
    poses)`` the metrics' values from that motion.
    """

    def __init__(self, study, metrics):
        self.study = study
        self.metrics = [m for m in metrics if is_pair_metric(m)]
        self.solids = None
        if not self.metrics:
            return
        from ..collision import missing_reason, INSTALL_HINT
        reason = missing_reason()
        if reason is not None:
            raise ModelError("metric '%s' needs the collision library: %s. %s"
                             % (self.metrics[0].name, reason, INSTALL_HINT))
        from .targets import find_object
        self.bodies = {}
        for m in self.metrics:
            pair = [self._body(find_object(study.Document, x, "metric '%s'" % m.name), m)
                    for x in (m.a, m.b)]
            if pair[0] == pair[1]:
                raise ModelError("metric '%s': '%s' and '%s' are the same body '%s'"
                                 % (m.name, m.a, m.b, pair[0].Label))
            if pair[0].Fixed and pair[1].Fixed:
                raise ModelError("metric '%s': bodies '%s' and '%s' are both fixed: they "
                                 "never move against each other"
                                 % (m.name, pair[0].Label, pair[1].Label))
            self.bodies[m.name] = pair

    def _body(self, obj, metric):
        from ..document.base import is_type, study_bodies
        from ..document.bodies import body_of_object
        bodies = study_bodies(self.study)
        body = obj if is_type(obj, "SimPhant::Body") else body_of_object(bodies, obj)
        if body is None or body not in bodies:
            raise ModelError("metric '%s': '%s' is not a body of study '%s'"
                             % (metric.name, obj.Label, self.study.Label))
        if body.ShapeObject is None:
            raise ModelError("metric '%s': body '%s' has no shape" % (metric.name, body.Label))
        return body

    def __bool__(self):
        return bool(self.metrics)

    def prepare(self, conv, geometric):
        """``(poses, digest, prepared)`` of a variant set in the document and converted
        (``conv``): the solver names whose motion is wanted, the digest of the solids,
        and what ``evaluate`` takes."""
        from ..document.interference import DEFLECTION_MM, body_solid
        names = {}
        for pair in self.bodies.values():
            for body in pair:
                if not body.Fixed:
                    sb = conv.body_map.get(body.Name)
                    if sb is None or sb.is_ground:
                        raise ModelError("body '%s' does not move in study '%s'"
                                         % (body.Label, self.study.Label))
                    names[body.Name] = sb.name
        if self.solids is None or geometric:
            solids = {}
            for m in self.metrics:
                deflection = m.deflection_mm or DEFLECTION_MM
                for body in self.bodies[m.name]:
                    key = (body.Name, deflection)
                    if key not in solids:
                        solids[key] = _same_or_new(
                            (self.solids or {}).get(key),
                            body_solid(body, names.get(body.Name), deflection))
            self.solids = solids
        h = hashlib.sha256()
        for key in sorted(self.solids):
            s = self.solids[key]
            h.update(repr(key).encode("utf-8"))
            h.update(s.points.tobytes())
            h.update(s.triangles.tobytes())
        prepared = {}
        for m in self.metrics:
            deflection = m.deflection_mm or DEFLECTION_MM
            prepared[m.name] = [(self.solids[(b.Name, deflection)], names.get(b.Name))
                                for b in self.bodies[m.name]]
        return sorted(set(names.values())), h.hexdigest(), prepared

    def evaluate(self, prepared, poses):
        """``({name: value}, {name: message})`` of the metrics from the worker's
        ``poses`` (``solver.batch.poses``); one check per pair, deflection and
        tolerance (``min(clearance(A, B))`` and ``interference_time(A, B)`` share it)."""
        from ..collision.along import check_pair
        from ..collision.motion import Trajectory
        from ..document.interference import DEFLECTION_MM
        from ..document.units import M_PER_MM
        values, errors, checks = {}, {}, {}
        for m in self.metrics:
            try:
                (a, name_a), (b, name_b) = prepared[m.name]
                deflection = (m.deflection_mm or DEFLECTION_MM) * M_PER_MM
                tolerance = 2.0 * deflection if m.tolerance_mm is None \
                    else m.tolerance_mm * M_PER_MM
                key = (id(a), id(b), deflection, tolerance)
                if key not in checks:
                    t = poses["t"]
                    ta, tb = (Trajectory.fixed(t) if n is None else Trajectory(t, *poses[n])
                              for n in (name_a, name_b))
                    checks[key] = [check_pair(a, ta, b, tb, deflection, tolerance),
                                   (a, ta, b, tb), None]
                report, pair, samples = checks[key]
                if m.every_sample and samples is None:
                    samples = checks[key][2] = clearance_samples(report, *pair)
                values[m.name] = m.value(report, *(samples if m.every_sample else ()))
            except (KeyError, ValueError, ModelError) as exc:
                errors[m.name] = "%s: %s" % (type(exc).__name__, exc)
        return values, errors


def clearance_samples(report, a, traj_a, b, traj_b):
    """``(t, x)``: the signed distance of solids ``a``, ``b`` at the instants the check
    (``report``) evaluated and at the output samples it skipped (evaluated here), in
    time order."""
    from ..collision.geometry import proximity
    times, dist = report.samples
    skipped = traj_a.t[np.isnan(report.frames)]
    extra = [proximity(a, traj_a.pose(x), b, traj_b.pose(x)).distance for x in skipped]
    t = np.concatenate([times, skipped])
    x = np.concatenate([dist, np.asarray(extra, dtype=float)])
    order = np.argsort(t, kind="stable")
    return t[order], x[order]
