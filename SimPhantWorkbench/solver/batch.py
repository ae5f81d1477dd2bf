"""Running many models: the work a parameter-study worker does, and model fingerprints.

``run_batch(tasks)`` simulates a list of ``Task``\\ s one after the other and
returns one plain dict per task (status, message, metric values, kept time
series, warnings, timings); a failing model is recorded and the next one runs.
It needs only this package (numpy, scipy, numba): any process that can import
``SimPhantWorkbench.solver`` can run it, e.g. a Dask worker. The numba
kernels are compiled once per process (and loaded from numba's on-disk cache
in a new one); every task reports how many kernel specialisations it had to
load or compile (``new_kernels``), which is 0 for all but a process's first.

``solver_digest()`` is the SHA-256 of this package's sources: a task carries the
client's, and a worker running other sources refuses the batch
(``VersionMismatch``) instead of returning numbers of another solver.
``fingerprint(model, settings)`` is a SHA-256 of everything that determines a
run (the solver's sources, the model's bodies, joints, loads, gravity and the
simulation settings), exact to the last bit of every float: two variants with
the same fingerprint give the same result, so a cache can be keyed by it.
"""
import hashlib
import json
import math
import os
import socket
import time
from collections import namedtuple

import numpy as np

from .errors import ModelError, SimPhantError, SimulationCancelled, SimulationError
from .expressions import TimeFunction

__all__ = ["Task", "run_batch", "run_task", "poses", "fingerprint", "kernel_count", "FINGERPRINT_FORMAT",
           "solver_digest", "VersionMismatch", "description", "description_parts",
           "comparable", "ENTITY_SECTIONS"]

#: part of every fingerprint; changed when what a fingerprint covers changes
#: (2: the solver's sources are part of it)
FINGERPRINT_FORMAT = "simphant-model-2"

#: index: the variant's number; key: its fingerprint; model: a solver ``Model``;
#: settings: keyword arguments of ``Model.simulate``; metrics: resolved ``Metric``\ s;
#: keep: resolved ``metrics.Signal``\ s whose samples come back; timeout: wall-clock
#: seconds the run may take (None: no limit); solver: the client's ``solver_digest()``
#: (None: not checked); poses: solver body names whose motion comes back (``poses``)
Task = namedtuple("Task", ["index", "key", "model", "settings", "metrics", "keep", "timeout",
                           "solver", "poses"], defaults=((), None, None, ()))


class VersionMismatch(RuntimeError):
    """A worker runs other solver sources than the client that sent the task."""


_DIGEST = []


def solver_digest():
    """SHA-256 (hex) of the solver's sources: the name and bytes of every ``.py`` file of
    this package (a superset of the kernels' ``kernels.CACHE_SOURCES``: the integrators,
    the results and the metrics change numbers too), taken once per process."""
    if not _DIGEST:
        here = os.path.dirname(os.path.abspath(__file__))
        h = hashlib.sha256()
        for name in sorted(f for f in os.listdir(here) if f.endswith(".py")):
            with open(os.path.join(here, name), "rb") as fh:
                h.update(b"%s\0%s\0" % (name.encode("utf-8"), fh.read()))
        _DIGEST.append(h.hexdigest())
    return _DIGEST[0]


def kernel_count():
    """Number of numba kernel specialisations loaded in this process (compiled or from cache)."""
    from . import blocks, jit, kernels
    if not jit.AVAILABLE:
        return 0
    from numba.core.dispatcher import Dispatcher
    n = 0
    for module in (kernels, blocks):
        for obj in vars(module).values():
            if isinstance(obj, Dispatcher):
                n += len(obj.signatures)
    return n


def run_task(task):
    """Simulate one task; a dict with its status ("ok" or "failed"), never an exception.

    Keys: index, key, status, error (class name, "Timeout" or ""), message, metrics
    ({name: float}; NaN when the run failed or a metric cannot be had),
    metric_errors ({name: message}), series ({name: (t, x)} of ``task.keep``), poses
    (``poses(result, task.poses)``), warnings
    (the run's), sim_time [s] (wall clock), cpu_time [s] (this process's CPU time),
    steps, worker (host:pid), new_kernels.
    """
    k0 = kernel_count()
    t0 = time.perf_counter()
    c0 = time.process_time()
    out = dict(index=task.index, key=task.key, status="ok", error="", message="",
               metrics={m.name: float("nan") for m in task.metrics}, metric_errors={},
               series={}, poses={}, warnings=[], sim_time=0.0, steps=0,
               worker="%s:%d" % (socket.gethostname(), os.getpid()))
    result = _simulate(task, out, t0)
    out["sim_time"] = time.perf_counter() - t0
    out["cpu_time"] = time.process_time() - c0
    if result is not None:
        out["warnings"] = [str(w) for w in getattr(result, "warnings", ())]
        for m in task.metrics:
            try:
                out["metrics"][m.name] = float(m.evaluate(result))
            except (SimPhantError, ArithmeticError, ValueError, KeyError, IndexError) as exc:
                out["metric_errors"][m.name] = str(exc)
        for sig in task.keep:
            try:
                out["series"][sig.name] = sig.values(result)
            except (SimPhantError, ValueError, KeyError, IndexError) as exc:
                out["metric_errors"][sig.name] = str(exc)
        try:
            out["poses"] = poses(result, task.poses)
        except (SimPhantError, ValueError, KeyError, IndexError) as exc:
            out["metric_errors"]["poses"] = str(exc)
    out["new_kernels"] = kernel_count() - k0
    return out


def poses(result, names):
    """The motion of bodies ``names`` in ``result``: ``{"t": (n,), name: (position (n, 3),
    rotation matrices (n, 3, 3), CoG velocity (n, 3))}`` (empty without names), what
    the client needs to move the bodies' solids along the run (a few hundred bytes per
    body and output sample)."""
    if not names:
        return {}
    out = {"t": np.asarray(result.t, dtype=float)}
    for name in names:
        out[name] = (np.asarray(result.position(name), dtype=float),
                     np.asarray(result.rotation_matrix(name), dtype=float),
                     np.asarray(result.velocity(name), dtype=float))
    return out


def _until(deadline):
    """A progress callback that cancels the run at the wall-clock ``deadline``."""
    return lambda t, t_end: time.perf_counter() < deadline


def _simulate(task, out, t0):
    """The task's run (a ``Result``), or None with the failure written into ``out``."""
    progress = _until(t0 + float(task.timeout)) if task.timeout else None
    try:
        from .kinematics import run_analysis
        settings = dict(task.settings)
        result = run_analysis(task.model, settings, settings.pop("analysis", "dynamic"),
                              progress=progress)
        out["steps"] = int(result.settings.get("steps", 0) or 0)
        return result
    except SimulationCancelled as exc:               # only the timeout cancels here
        out.update(status="failed", error="Timeout",
                   message="stopped by the timeout of %g s at t = %.6g s"
                           % (task.timeout, exc.time if exc.time is not None else 0.0))
    except (ModelError, SimulationError) as exc:     # assembly errors are ModelErrors
        out.update(status="failed", error=type(exc).__name__, message=str(exc))
    except Exception as exc:  # noqa: BLE001 - one bad variant must not stop the batch
        out.update(status="failed", error=type(exc).__name__,
                   message="%s: %s" % (type(exc).__name__, exc))
    return None


def run_batch(tasks):
    """``run_task`` for each task, in order; the list of their dicts.

    ``VersionMismatch`` (nothing run) when a task was sent by a client whose solver
    sources differ from this process's."""
    mine = solver_digest()
    for t in tasks:
        if t.solver is not None and t.solver != mine:
            raise VersionMismatch(
                "the worker %s:%d runs other SimPhant solver sources (%s) than the client "
                "(%s): give the workers the client's SimPhant checkout"
                % (socket.gethostname(), os.getpid(), mine[:12], t.solver[:12]))
    return [run_task(t) for t in tasks]


# ============================================================================ fingerprints

def _floats(a):
    return [float(x).hex() for x in np.asarray(a, dtype=float).reshape(-1)]


def _load_value(load):
    v = load.value
    if isinstance(v, TimeFunction):
        return ["function", v.source]
    if callable(v):
        return None
    return ["constant", _floats(v)]


def description(model, settings, solver=True, name=None):
    """The plain-data description a fingerprint hashes (floats as exact hex strings).

    ``None`` when the model has a load or an actuator whose value is an arbitrary
    Python callable (only text ``TimeFunction``\\ s can be described).
    ``solver=False`` leaves the solver's sources out (what the model is, not which
    SimPhant runs it); ``name(entity)`` gives the name a body, joint, load, force
    element, driver or coupler has in the description (default: its solver name).
    """
    nm = name or _solver_name
    bodies = [[nm(b), _floats(b.mass), _floats(b.moments), _floats(b.A_user),
               _floats(b.A_principal), _floats(b.position), _floats(b.velocity),
               _floats(b.angular_velocity)] for b in model.bodies]
    joints = [[nm(j), j.kind, nm(j.body1), nm(j.body2), _floats(j.frame1[0]),
               _floats(j.frame1[1]), _floats(j.frame2[0]), _floats(j.frame2[1]),
               None if j.length is None else _floats(j.length)]
              # an angle joint's angle (other joints keep their description as it was)
              + ([] if j.angle is None else [_floats(j.angle)]) for j in model.joints]
    loads = []
    for ld in model.loads:
        value = _load_value(ld)
        if value is None:
            return None
        loads.append([nm(ld), ld.kind, nm(ld.body), ld.frame, _floats(ld.local_point), value])
    elements = []
    for e in getattr(model, "force_elements", ()):
        d = e.description(_floats, nm)
        if d is None:
            return None
        elements.append(d)
    drivers = []
    for d in getattr(model, "drivers", []):
        motions = [m.describe() for m in d.motions]
        if None in motions:
            return None
        on = nm(d.joint) if d.joint is not None else [
            nm(d.entry[0]), nm(d.entry[1]), _floats(d.entry[2][0]), _floats(d.entry[2][1]),
            _floats(d.entry[3][0]), _floats(d.entry[3][1])]
        drivers.append([nm(d), d.kind, on, motions])
    couplers = [[nm(c), c.kind, [nm(j) for j in c.joints], _floats(c.value),
                 _floats(c.coefficients)] for c in getattr(model, "couplers", [])]
    clean = {}
    for k, v in sorted(settings.items()):
        if isinstance(v, float):
            v = float(v).hex()
        elif isinstance(v, (tuple, list)):
            v = [float(x).hex() if isinstance(x, float) else x for x in v]
        clean[k] = v
    out = dict(format=FINGERPRINT_FORMAT, gravity=_floats(model.gravity), bodies=bodies,
               joints=joints, loads=loads, settings=clean)
    if solver:
        out["solver"] = solver_digest()
    if elements:             # (models without force elements keep their fingerprints)
        out["force_elements"] = elements
    if drivers:              # (models without drivers keep their fingerprints)
        out["drivers"] = drivers
    if couplers:             # (models without couplers keep their fingerprints)
        out["couplers"] = couplers
    return out


def _solver_name(entity):
    return entity.name


def _digest(data):
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: the sections of a description whose entries are lists named by their first item
ENTITY_SECTIONS = ("bodies", "joints", "loads", "force_elements", "drivers", "couplers")


#: significant digits a ``comparable`` description keeps, and the smallest magnitude (SI) a
#: list of floats is rounded against: what round-off (a document saved and reopened) moves
#: stays below both
COMPARABLE_DIGITS = 10
COMPARABLE_FLOOR = 1e-5


def _hex_float(x):
    if not isinstance(x, str) or "0x" not in x:
        return None
    try:
        return float.fromhex(x)
    except ValueError:
        return None


def _rounded(values):
    """A list of floats rounded to ``COMPARABLE_DIGITS`` significant digits of its largest
    entry (at least ``COMPARABLE_FLOOR``), as text."""
    scale = max([abs(v) for v in values if math.isfinite(v)] + [COMPARABLE_FLOOR])
    quantum = 10.0 ** (math.floor(math.log10(scale)) - COMPARABLE_DIGITS + 1)
    return ["%.*g" % (COMPARABLE_DIGITS + 1, round(v / quantum) * quantum + 0.0)
            if math.isfinite(v) else repr(v) for v in values]


def _comparable(item):
    if isinstance(item, list):
        floats = [_hex_float(x) for x in item]
        if item and None not in floats:
            return _rounded(floats)
        return [_comparable(x) for x in item]
    if isinstance(item, dict):
        return {k: _comparable(v) for k, v in item.items()}
    value = _hex_float(item)
    return item if value is None else _rounded([value])[0]


def comparable(d):
    """A ``description`` in the form two descriptions of one model compare equal in,
    also after round-off: each body's principal moments and axes become its inertia
    tensor (the axes of equal moments are free: round-off turns them), and every list of
    floats is rounded (``COMPARABLE_DIGITS``) against its largest entry."""
    out = dict(d)
    bodies = []
    for b in d.get("bodies", []):
        moments = np.array([float.fromhex(x) for x in b[2]])
        axes = np.array([float.fromhex(x) for x in b[4]]).reshape(3, 3)
        tensor = axes @ np.diag(moments) @ axes.T
        bodies.append(b[:2] + [_floats(tensor)] + [b[3]] + b[5:])
    if "bodies" in d:
        out["bodies"] = bodies
    return _comparable(out)


def description_parts(d):
    """``{part: SHA-256 (hex, 16 digits)}`` of a ``description``: one part per named entry
    of ``ENTITY_SECTIONS`` (``"joints/<name>"``) and one per other section
    (``"gravity"``, ``"settings"`` ...), so that two descriptions can say which of
    their parts differ."""
    parts = {}
    for key, value in d.items():
        if key in ENTITY_SECTIONS:
            for entry in value:
                parts["%s/%s" % (key, entry[0])] = _digest(entry)[:16]
        else:
            parts[key] = _digest(value)[:16]
    return parts


def fingerprint(model, settings):
    """SHA-256 (hex) of ``description(model, settings)``; ``None`` if it cannot be described."""
    d = description(model, settings)
    return None if d is None else _digest(d)
