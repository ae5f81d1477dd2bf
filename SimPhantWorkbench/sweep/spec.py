"""The specification of a parameter study: design variables, the design, metrics, settings.

Pure data (no FreeCAD): read from TOML or JSON (``load_spec``) or built from
Python values (``make_spec``), written back as a dict (``Spec.to_dict``, what
the document object stores). A TOML specification::

    study = "Study"                 # optional: which study of the document
    design = "grid"                 # grid (full factorial; default) | lhs | uniform | normal
    # count = 50                    # number of samples (lhs, uniform, normal)
    # seed = 1                      # random seed of the samples
    # batch_size = 8                # variants per task (default: automatic)

    [settings]                      # optional: simulation settings for every variant (SI)
    t_end = 2.0

    [[variables]]
    target = "Sheet.length"         # OBJECT.PROPERTY[.COMPONENT...]; a spreadsheet alias or cell
    name = "length"                 # column name (default: the target)
    values = [200, 250, 300]        # grid: values ...
    # start = 200, stop = 300, count = 5     ... or an evenly spaced range
    # low = 200, high = 300         # lhs / uniform: a range
    # mean = 250, std = 10          # normal
    # rel = 0.05                    # sampled: +-5 % (lhs, uniform) or std 5 % (normal) of the
                                    # value the document has

    [metrics]                       # name = expression (see solver.metrics)
    period = "period(velocity(Rod).x)"
    peak = "max(reaction_force(Hinge))"

    [objective]                     # optional: which variant is best
    minimize = "peak"               # or maximize = "..."

Values are numbers in the unit the property stores (mm, kg/m^3, s, mm/s,
deg/s, N ...), as the property editor shows them.
"""
import json
import math
import os

import numpy as np

from ..solver import ModelError
from ..solver.metrics import parse_metric
from ..fem.metric import parse_stress_metric

__all__ = ["Variable", "Spec", "load_spec", "make_spec", "DESIGNS", "SETTINGS"]

#: design kinds: full factorial grid, or samples
DESIGNS = ("grid", "lhs", "uniform", "normal")

#: simulation settings a specification may set for all variants (``Model.simulate``)
SETTINGS = ("t_end", "dt", "method", "output_dt", "rtol", "atol", "time_constant",
            "damping_ratio")

_GRID_KEYS = ("values", "start", "stop", "count")
_SAMPLE_KEYS = ("low", "high", "mean", "std", "rel")


def _number(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise ModelError("%s must be a finite number, got %r" % (what, value))
    return float(value)


class Variable:
    """One design variable: a numeric property ``target`` and the values it takes.

    Grid variables have ``values`` (explicit, or from ``start``/``stop``/
    ``count``); sampled variables a range ``low``/``high``, a ``mean``/``std``
    or a relative spread ``rel`` around the document's value.
    """

    def __init__(self, target, name=None, values=None, start=None, stop=None, count=None,
                 low=None, high=None, mean=None, std=None, rel=None):
        if not isinstance(target, str) or target.count(".") < 1 or not target.strip():
            raise ModelError("design variable %r: the target is OBJECT.PROPERTY (e.g. "
                             "'Rod.Height', 'Bob_body.Density', 'Sheet.length')" % (target,))
        self.target = target.strip()
        self.name = str(name).strip() if name else self.target
        what = "design variable '%s'" % self.name
        self.values = None
        if values is not None or start is not None or stop is not None or count is not None:
            if values is not None:
                if start is not None or stop is not None or count is not None:
                    raise ModelError("%s: give values or start/stop/count, not both" % what)
                if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") \
                        or len(values) == 0:
                    raise ModelError("%s: values must be a non-empty list of numbers" % what)
                self.values = [_number(v, what + " value") for v in values]
            else:
                if start is None or stop is None or count is None:
                    raise ModelError("%s: a range needs start, stop and count" % what)
                if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                    raise ModelError("%s: count must be a positive integer, got %r"
                                     % (what, count))
                self.values = [float(v) for v in np.linspace(_number(start, what + " start"),
                                                             _number(stop, what + " stop"),
                                                             count)]
        self.low = None if low is None else _number(low, what + " low")
        self.high = None if high is None else _number(high, what + " high")
        self.mean = None if mean is None else _number(mean, what + " mean")
        self.std = None if std is None else _number(std, what + " std")
        self.rel = None if rel is None else _number(rel, what + " rel")
        if self.std is not None and self.std < 0:
            raise ModelError("%s: std must be >= 0" % what)
        if self.rel is not None and self.rel < 0:
            raise ModelError("%s: rel must be >= 0" % what)
        if self.low is not None and self.high is not None and not self.low <= self.high:
            raise ModelError("%s: low (%g) must not exceed high (%g)" % (what, self.low,
                                                                          self.high))

    @property
    def sampled(self):
        return self.values is None

    def check(self, design):
        """Raise ``ModelError`` when the variable does not fit ``design``."""
        what = "design variable '%s'" % self.name
        if design == "grid":
            if self.values is None:
                raise ModelError("%s: a grid design needs values (or start, stop, count)" % what)
            return
        if self.values is not None:
            raise ModelError("%s: a %s design samples its variables: give low/high, mean/std "
                             "or rel instead of values" % (what, design))
        if design in ("lhs", "uniform"):
            ok = (self.low is not None and self.high is not None) or self.rel is not None
            if not ok:
                raise ModelError("%s: a %s design needs low and high (or rel)" % (what, design))
        else:
            ok = (self.mean is not None or self.rel is not None) and \
                 (self.std is not None or self.rel is not None)
            if not ok:
                raise ModelError("%s: a normal design needs mean and std (or rel, around the "
                                 "document's value)" % what)

    def bounds(self, nominal):
        """(low, high) of a range design; ``rel`` spreads around ``nominal``."""
        if self.low is not None and self.high is not None:
            return self.low, self.high
        d = abs(nominal) * self.rel
        return nominal - d, nominal + d

    def normal(self, nominal):
        """(mean, std) of a normal design; ``rel`` takes the std relative to the mean."""
        mean = self.mean if self.mean is not None else nominal
        std = self.std if self.std is not None else abs(mean) * self.rel
        return mean, std

    def to_dict(self):
        d = {"target": self.target, "name": self.name}
        for k in ("values", "low", "high", "mean", "std", "rel"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d

    def __repr__(self):
        return "Variable(%r)" % self.target


class Spec:
    """A complete specification (see the module docstring)."""

    def __init__(self, variables, metrics, design="grid", count=None, seed=None, settings=None,
                 objective=None, study=None, batch_size=None):
        if design not in DESIGNS:
            raise ModelError("design must be one of %s, got %r" % (", ".join(DESIGNS), design))
        self.design = design
        self.variables = list(variables)
        if not self.variables:
            raise ModelError("a parameter study needs at least one design variable")
        names = [v.name for v in self.variables]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ModelError("design variables named twice: %s" % ", ".join(dup))
        for v in self.variables:
            v.check(design)
        if design != "grid":
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ModelError("a %s design needs count (the number of samples), got %r"
                                 % (design, count))
        elif count is not None:
            raise ModelError("count is for sampled designs; a grid has one variant per "
                             "combination of values")
        self.count = count
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ModelError("seed must be an integer, got %r" % (seed,))
        self.seed = seed
        self.metrics = list(metrics)
        if not self.metrics:
            raise ModelError("a parameter study needs at least one metric")
        mnames = [m.name for m in self.metrics]
        clash = sorted(set(mnames) & set(names)) + sorted({n for n in mnames
                                                           if mnames.count(n) > 1})
        if clash:
            raise ModelError("metric names must be unique and differ from the variables': %s"
                             % ", ".join(clash))
        self.settings = dict(settings or {})
        unknown = sorted(set(self.settings) - set(SETTINGS))
        if unknown:
            raise ModelError("unknown simulation setting(s) %s; valid: %s"
                             % (", ".join(unknown), ", ".join(SETTINGS)))
        self.objective = None
        if objective:
            if not isinstance(objective, dict) or len(objective) != 1 \
                    or next(iter(objective)) not in ("minimize", "maximize"):
                raise ModelError("objective must be {minimize = METRIC} or {maximize = METRIC}, "
                                 "got %r" % (objective,))
            sense, metric = next(iter(objective.items()))
            if metric not in mnames:
                raise ModelError("objective: %r is not a metric; metrics: %s"
                                 % (metric, ", ".join(mnames)))
            self.objective = (sense, metric)
        self.study = study
        if batch_size is not None and (isinstance(batch_size, bool)
                                       or not isinstance(batch_size, int) or batch_size < 1):
            raise ModelError("batch_size must be a positive integer, got %r" % (batch_size,))
        self.batch_size = batch_size

    @property
    def variable_names(self):
        return [v.name for v in self.variables]

    @property
    def metric_names(self):
        return [m.name for m in self.metrics]

    def size(self):
        """Number of variants."""
        if self.design == "grid":
            return int(np.prod([len(v.values) for v in self.variables]))
        return self.count

    def points(self, nominal=None):
        """The design: an array (variants, variables) of values.

        ``nominal`` maps variable names to the document's current values (for
        ``rel``). A grid is the full factorial product, the first variable
        varying slowest. Samples are reproducible for a given ``seed``.
        """
        nominal = nominal or {}
        if self.design == "grid":
            grids = np.meshgrid(*[np.asarray(v.values) for v in self.variables], indexing="ij")
            return np.column_stack([g.reshape(-1) for g in grids])
        n, d = self.count, len(self.variables)
        rng = np.random.default_rng(self.seed)
        if self.design == "lhs":
            from scipy.stats import qmc
            unit = qmc.LatinHypercube(d=d, seed=rng).random(n)
        elif self.design == "uniform":
            unit = rng.random((n, d))
        else:
            z = rng.standard_normal((n, d))
            cols = []
            for k, v in enumerate(self.variables):
                mean, std = v.normal(nominal.get(v.name, 0.0))
                cols.append(mean + std * z[:, k])
            return np.column_stack(cols)
        cols = []
        for k, v in enumerate(self.variables):
            lo, hi = v.bounds(nominal.get(v.name, 0.0))
            cols.append(lo + (hi - lo) * unit[:, k])
        return np.column_stack(cols)

    def to_dict(self):
        d = {"design": self.design, "variables": [v.to_dict() for v in self.variables],
             "metrics": {m.name: m.text for m in self.metrics}}
        for k in ("count", "seed", "study", "batch_size"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.settings:
            d["settings"] = dict(self.settings)
        if self.objective:
            d["objective"] = {self.objective[0]: self.objective[1]}
        return d


def _parse(text, name=None):
    """A solver metric (``solver.metrics``) or one that needs the document
    (``fem.metric``: ``max_stress(Body, INSTANT)``)."""
    return parse_stress_metric(text, name) or parse_metric(text, name)


def _metrics(value):
    if isinstance(value, dict):
        return [_parse(text, name) for name, text in value.items()]
    if isinstance(value, str):
        value = [value]
    out = []
    for m in value or ():
        if isinstance(m, dict):
            out.append(_parse(m.get("expression") or m.get("metric"), m.get("name")))
        else:
            out.append(_parse(m))
    return out


def _variables(value):
    """Variables from a list of dicts/Variables or a dict {target: values}."""
    if isinstance(value, dict):
        return [v if isinstance(v, Variable) else Variable(t, values=v)
                for t, v in value.items()]
    out = []
    for v in value or ():
        if isinstance(v, Variable):
            out.append(v)
        elif isinstance(v, dict):
            unknown = set(v) - {"target", "name"} - set(_GRID_KEYS) - set(_SAMPLE_KEYS)
            if unknown:
                raise ModelError("design variable %r: unknown key(s) %s"
                                 % (v.get("name") or v.get("target"),
                                    ", ".join(sorted(unknown))))
            if "target" not in v:
                raise ModelError("design variable %r has no target (OBJECT.PROPERTY)" % (v,))
            out.append(Variable(**v))
        else:
            raise ModelError("a design variable is a table with a target, got %r" % (v,))
    return out


def make_spec(variables, metrics, **kwargs):
    """A ``Spec`` from Python values.

    ``variables``: ``{"Rod.Height": [100, 200]}``, or a list of ``Variable`` or
    dicts (``{"target": ..., "low": ..., "high": ...}``). ``metrics``:
    ``{"name": "max(speed(Rod))"}`` or a list of expressions. ``kwargs``:
    design, count, seed, settings, objective, study, batch_size.
    """
    return Spec(_variables(variables), _metrics(metrics), **kwargs)


_TOP_KEYS = ("study", "design", "count", "seed", "batch_size", "settings", "variables",
             "metrics", "objective")


def spec_from_dict(d, where="specification"):
    """A ``Spec`` from the dict a TOML/JSON file holds (or ``Spec.to_dict`` wrote)."""
    if not isinstance(d, dict):
        raise ModelError("%s: expected a table at the top level" % where)
    unknown = sorted(set(d) - set(_TOP_KEYS))
    if unknown:
        raise ModelError("%s: unknown key(s) %s; valid: %s" % (where, ", ".join(unknown),
                                                               ", ".join(_TOP_KEYS)))
    try:
        return Spec(_variables(d.get("variables")), _metrics(d.get("metrics")),
                    design=d.get("design", "grid"), count=d.get("count"), seed=d.get("seed"),
                    settings=d.get("settings"), objective=d.get("objective"),
                    study=d.get("study"), batch_size=d.get("batch_size"))
    except ModelError as exc:
        raise ModelError("%s: %s" % (where, exc)) from None


def _read_toml(path):
    try:
        import tomllib as toml_reader              # Python >= 3.11
        with open(path, "rb") as fh:
            return toml_reader.load(fh)
    except ImportError:
        pass
    try:
        import tomli as toml_reader
        with open(path, "rb") as fh:
            return toml_reader.load(fh)
    except ImportError:
        import toml
        with open(path) as fh:
            return toml.load(fh)


def load_spec(path):
    """Read a specification from a ``.toml`` or ``.json`` file (``ModelError`` if bad)."""
    if not os.path.isfile(path):
        raise ModelError("specification '%s' not found" % path)
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext == ".json":
            with open(path) as fh:
                data = json.load(fh)
        elif ext == ".toml":
            data = _read_toml(path)
        else:
            raise ModelError("specification '%s': expected a .toml or .json file" % path)
    except ModelError:
        raise
    except Exception as exc:  # noqa: BLE001 - parser errors of either format
        raise ModelError("cannot read the specification '%s': %s" % (path, exc)) from None
    return spec_from_dict(data, "specification '%s'" % path)
