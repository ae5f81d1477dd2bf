"""The specification of a parameter study: design variables, the design, metrics, settings.

Pure data (no FreeCAD): read from TOML or JSON (``load_spec``) or built from
Python values (``make_spec``), written back as a dict (``Spec.to_dict``, what
the document object stores). A TOML specification::

    study = "Study"                 # optional: which study of the document
    design = "grid"                 # grid (full factorial; default) | lhs | uniform | normal
                                    # | sobol | halton | saltelli (Sobol' sensitivity indices)
    # count = 50                    # number of samples (saltelli: base samples N, giving
                                    # N * (variables + 2) variants)
    # seed = 1                      # random seed of the samples (an integer >= 0)
    # batch_size = 8                # variants per task (default: automatic)
    # timeout = 60                  # [s] wall clock a variant may take (else: failed)

    [settings]                      # optional: simulation settings for every variant (SI)
    t_end = 2.0

    [[variables]]
    target = "Sheet.length"         # OBJECT.PROPERTY[.COMPONENT...]; a spreadsheet alias or cell
    name = "length"                 # column name (default: the target)
    values = [200, 250, 300]        # grid: values ...
    # start = 200, stop = 300, count = 5     ... or an evenly spaced range
    # low = 200, high = 300         # sampled designs and the optimiser: a range
    # mean = 250, std = 10          # normal
    # rel = 0.05                    # sampled: +-5 % (ranges) or std 5 % (normal) of the
                                    # value the document has

    [metrics]                       # name = expression (see solver.metrics)
    period = "period(velocity(Rod).x)"
    peak = "max(reaction_force(Hinge)) / 1000"

    [keep]                          # optional: time series stored per variant (series.npz)
    swing = "joint_angle(Hinge)"

    [objective]                     # optional: which variant is best
    minimize = "peak"               # or maximize = "..."; lists: several objectives
                                    # (a Pareto front)
    constraints = ["period <= 1.2"] # optional: METRIC <= | >= | < | > NUMBER

    [optimize]                      # optional: Optuna picks the variants (then no design)
    sampler = "tpe"                 # tpe | cmaes | random | nsga2
    trials = 40
    # seed = 1, parallel = 4        # trials in flight at once (default: the workers)

Values are numbers in the unit the property stores (mm, kg/m^3, s, mm/s,
deg/s, N ...), as the property editor shows them. Sizes are checked before
anything is allocated (``MAX_VARIANTS``, ``MAX_TABLE_BYTES``); names that the
results table uses itself (``RESERVED_NAMES``) are refused.
"""
import json
import math
import os

from ..output.tables import safe_name
from ..solver import ModelError
from ..fem.metric import parse_stress_metric
from ..solver.metrics import parse_metric, parse_signal
from .clearance import parse_pair_metric
from .objective import SAMPLERS, objectives, optimize_table
from .values import (BYTES_PER_CELL, INFO_COLUMN_COUNT, MAX_NAME_LENGTH, MAX_TABLE_BYTES,
                     MAX_VARIANTS, RESERVED_NAMES, RESERVED_PLOTS, check_name, check_seed,
                     finite, positive_int)

__all__ = ["Variable", "Spec", "load_spec", "make_spec", "spec_from_dict", "DESIGNS",
           "SETTINGS", "SAMPLERS", "RESERVED_NAMES", "MAX_VARIANTS", "MAX_TABLE_BYTES",
           "MAX_NAME_LENGTH", "STUDY_SETTINGS"]

#: design kinds: full factorial grid, random and quasi-random samples, the Saltelli design
#: of Sobol' indices, and the optimiser's (``[optimize]``)
DESIGNS = ("grid", "lhs", "uniform", "normal", "sobol", "halton", "saltelli", "optimize")
#: designs whose variables are ranges (low/high or rel)
RANGE_DESIGNS = ("lhs", "uniform", "sobol", "halton", "saltelli", "optimize")

#: simulation settings a specification may set for all variants (``Model.simulate``)
SETTINGS = ("t_end", "dt", "method", "output_dt", "rtol", "atol", "time_constant",
            "damping_ratio")

#: the Study property each setting overrides (a design variable on it would be ignored)
STUDY_SETTINGS = {"EndTime": "t_end", "TimeStep": "dt", "Integrator": "method",
                  "OutputInterval": "output_dt", "RelativeTolerance": "rtol",
                  "AbsoluteTolerance": "atol", "TimeConstant": "time_constant",
                  "DampingRatio": "damping_ratio"}

_GRID_KEYS = ("values", "start", "stop", "count")
_SAMPLE_KEYS = ("low", "high", "mean", "std", "rel")


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
        what = "design variable '%s'" % self.name[:MAX_NAME_LENGTH]
        check_name(self.name, what)
        self.values = None
        self.range = None
        if values is not None or start is not None or stop is not None or count is not None:
            self._grid_values(what, values, start, stop, count)
        self.low = None if low is None else finite(low, what + " low")
        self.high = None if high is None else finite(high, what + " high")
        self.mean = None if mean is None else finite(mean, what + " mean")
        self.std = None if std is None else finite(std, what + " std")
        self.rel = None if rel is None else finite(rel, what + " rel")
        if self.std is not None and self.std < 0:
            raise ModelError("%s: std must be >= 0" % what)
        if self.rel is not None and self.rel < 0:
            raise ModelError("%s: rel must be >= 0" % what)
        if self.low is not None and self.high is not None and not self.low <= self.high:
            raise ModelError("%s: low (%g) must not exceed high (%g)" % (what, self.low,
                                                                          self.high))

    def _grid_values(self, what, values, start, stop, count):
        if values is not None:
            if start is not None or stop is not None or count is not None:
                raise ModelError("%s: give values or start/stop/count, not both" % what)
            if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") \
                    or len(values) == 0:
                raise ModelError("%s: values must be a non-empty list of numbers" % what)
            if len(values) > MAX_VARIANTS:
                raise ModelError("%s: %d values, more than the limit of %d"
                                 % (what, len(values), MAX_VARIANTS))
            self.values = [finite(v, what + " value") for v in values]
            return
        if start is None or stop is None or count is None:
            raise ModelError("%s: a range needs start, stop and count" % what)
        positive_int(count, what + ": count")
        # the values themselves are made when the design is (``grid_values``): a range
        # costs nothing until the size of the whole design is known to be sane
        self.range = (finite(start, what + " start"), finite(stop, what + " stop"), count)

    @property
    def sampled(self):
        return self.values is None and self.range is None

    @property
    def levels(self):
        """Number of grid values (without making them)."""
        return len(self.values) if self.values is not None else self.range[2]

    def grid_values(self):
        if self.values is not None:
            return list(self.values)
        import numpy as np
        return [float(v) for v in np.linspace(*self.range)]

    def check(self, design):
        """Raise ``ModelError`` when the variable does not fit ``design``."""
        what = "design variable '%s'" % self.name
        if design == "grid":
            if self.sampled:
                raise ModelError("%s: a grid design needs values (or start, stop, count)" % what)
            return
        if not self.sampled:
            raise ModelError("%s: a %s design samples its variables: give low/high, mean/std "
                             "or rel instead of values" % (what, design))
        if design in RANGE_DESIGNS:
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
        if self.range is not None:
            d.update(start=self.range[0], stop=self.range[1], count=self.range[2])
        for k in ("values", "low", "high", "mean", "std", "rel"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d

    def __repr__(self):
        return "Variable(%r)" % self.target


class Spec:
    """A complete specification (see the module docstring)."""

    def __init__(self, variables, metrics, design=None, count=None, seed=None, settings=None,
                 objective=None, study=None, batch_size=None, optimize=None, timeout=None,
                 keep=None):
        self.variables = list(variables)
        self.metrics = list(metrics)
        self.keep = list(keep or ())
        self._names()
        self.objectives, self.constraints = objectives(objective, self.metric_names)
        self.optimize = None
        if optimize is not None:
            self.optimize = optimize_table(optimize, design, count, len(self.objectives))
            design = "optimize"
        design = design or "grid"
        if design not in DESIGNS or (design == "optimize" and self.optimize is None):
            raise ModelError("design must be one of %s (or an [optimize] table), got %r"
                             % (", ".join(d for d in DESIGNS if d != "optimize"), design))
        self.design = design
        for v in self.variables:
            v.check(design)
        self.count = self._sample_count(count)
        self.seed = None if seed is None else check_seed(seed)
        self.settings = dict(settings or {})
        unknown = sorted(set(self.settings) - set(SETTINGS))
        if unknown:
            raise ModelError("unknown simulation setting(s) %s; valid: %s"
                             % (", ".join(unknown), ", ".join(SETTINGS)))
        self._check_settings_targets()
        self.study = study
        if batch_size is not None:
            positive_int(batch_size, "batch_size")
        self.batch_size = batch_size
        self.timeout = None if timeout is None else finite(timeout, "timeout")
        if self.timeout is not None and self.timeout <= 0:
            raise ModelError("timeout must be > 0 s, got %r" % timeout)
        self.check_size()

    def _names(self):
        if not self.variables:
            raise ModelError("a parameter study needs at least one design variable")
        if not self.metrics:
            raise ModelError("a parameter study needs at least one metric")
        for m in self.metrics:
            check_name(m.name, "metric '%s'" % m.name[:MAX_NAME_LENGTH])
        for k in self.keep:
            check_name(k.name, "kept series '%s'" % k.name[:MAX_NAME_LENGTH])
        names = self.variable_names
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ModelError("design variables named twice: %s" % ", ".join(dup))
        mnames = self.metric_names
        clash = sorted(set(mnames) & set(names)) + sorted({n for n in mnames
                                                           if mnames.count(n) > 1})
        if clash:
            raise ModelError("metric names must be unique and differ from the variables': %s"
                             % ", ".join(clash))
        knames = [k.name for k in self.keep]
        dup = sorted({n for n in knames if knames.count(n) > 1})
        if dup:
            raise ModelError("kept series named twice: %s" % ", ".join(dup))
        files = {}
        for name in mnames:
            f = safe_name(name).lower()
            if f in RESERVED_PLOTS:
                raise ModelError("metric '%s': its plot would be %s.png, a file the sweep "
                                 "writes itself; rename the metric" % (name, f))
            if f in files:
                raise ModelError("metrics '%s' and '%s' would write the same plot %s.png; "
                                 "rename one" % (files[f], name, safe_name(name)))
            files[f] = name

    def _sample_count(self, count):
        if self.design in ("grid", "optimize"):
            if count is not None:
                raise ModelError("count is for sampled designs; a grid has one variant per "
                                 "combination of values")
            return None
        if count is None or isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ModelError("a %s design needs count (the number of samples), got %r"
                             % (self.design, count))
        return positive_int(count, "count")

    def _check_settings_targets(self):
        for v in self.variables:
            parts = v.target.split(".")
            setting = STUDY_SETTINGS.get(parts[-1]) if len(parts) == 2 else None
            if setting in self.settings:
                raise ModelError("design variable '%s' sets %s, which the specification's "
                                 "[settings] %s overrides for every variant: remove one of "
                                 "them" % (v.name, v.target, setting))

    def check_size(self):
        """``ModelError`` when the design is too large for memory (before anything is made)."""
        n = self.size()
        what = "the %s design" % self.design
        if self.design == "grid":
            what += " (%s values)" % " x ".join(str(v.levels) for v in self.variables)
        if n > MAX_VARIANTS:
            raise ModelError("%s has %d variants, more than the limit of %d"
                             % (what, n, MAX_VARIANTS))
        columns = len(self.variables) + len(self.metrics) + INFO_COLUMN_COUNT
        if n * columns * BYTES_PER_CELL > MAX_TABLE_BYTES:
            raise ModelError("%s has %d variants x %d columns: its results table would take "
                             "about %.3g bytes, more than the limit of %.3g"
                             % (what, n, columns, n * columns * BYTES_PER_CELL,
                                MAX_TABLE_BYTES))

    @property
    def objective(self):
        """(sense, metric) of a single objective, else None."""
        return self.objectives[0] if len(self.objectives) == 1 else None

    @property
    def variable_names(self):
        return [v.name for v in self.variables]

    @property
    def metric_names(self):
        return [m.name for m in self.metrics]

    def size(self):
        """Number of variants (an int computed without making the design)."""
        if self.design == "grid":
            n = 1
            for v in self.variables:
                n *= v.levels
            return n
        if self.design == "optimize":
            return self.optimize["trials"]
        if self.design == "saltelli":
            return self.count * (len(self.variables) + 2)
        return self.count

    def points(self, nominal=None):
        """The design: an array (variants, variables) of values (``designs.points``)."""
        from .designs import points
        return points(self, nominal or {})

    def feasible(self, row):
        """True when ``row``'s metrics satisfy every constraint (NaN never does)."""
        for name, op, bound in self.constraints:
            v = row.get(name)
            if v is None or isinstance(v, str) or math.isnan(v):
                return False
            if not {"<=": v <= bound, ">=": v >= bound, "<": v < bound, ">": v > bound}[op]:
                return False
        return True

    def to_dict(self):
        d = {"design": self.design, "variables": [v.to_dict() for v in self.variables],
             "metrics": {m.name: m.text for m in self.metrics}}
        if self.design == "optimize":
            del d["design"]
            d["optimize"] = dict(self.optimize)
        for k in ("count", "seed", "study", "batch_size", "timeout"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.settings:
            d["settings"] = dict(self.settings)
        if self.keep:
            d["keep"] = {k.name: k.text for k in self.keep}
        if self.objectives:
            d["objective"] = {}
            for sense in ("minimize", "maximize"):
                names = [m for s, m in self.objectives if s == sense]
                if names:
                    d["objective"][sense] = names[0] if len(self.objectives) == 1 else names
            if self.constraints:
                d["objective"]["constraints"] = ["%s %s %r" % c for c in self.constraints]
        return d


def _parse(text, name=None):
    """A solver metric (``solver.metrics``) or one that needs the document
    (``fem.metric``: ``max_stress(Body, INSTANT)``; ``clearance``:
    ``min(clearance(A, B))``, ``interference_time(A, B)``)."""
    return parse_stress_metric(text, name) or parse_pair_metric(text, name) \
        or parse_metric(text, name)


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


def _keep(value):
    if isinstance(value, dict):
        return [parse_signal(text, name) for name, text in value.items()]
    if isinstance(value, str):
        value = [value]
    return [parse_signal(text) for text in value or ()]


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
    design, count, seed, settings, objective, study, batch_size, optimize, timeout,
    keep (``{"name": "signal"}`` or a list of signals).
    """
    keep = _keep(kwargs.pop("keep", None))
    return Spec(_variables(variables), _metrics(metrics), keep=keep, **kwargs)


_TOP_KEYS = ("study", "design", "count", "seed", "batch_size", "settings", "variables",
             "metrics", "objective", "optimize", "timeout", "keep")


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
                    design=d.get("design"), count=d.get("count"), seed=d.get("seed"),
                    settings=d.get("settings"), objective=d.get("objective"),
                    study=d.get("study"), batch_size=d.get("batch_size"),
                    optimize=d.get("optimize"), timeout=d.get("timeout"),
                    keep=_keep(d.get("keep")))
    except ModelError as exc:
        raise ModelError("%s: %s" % (where, exc)) from None
    except (TypeError, AttributeError) as exc:      # a table where a value belongs ...
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


#: largest specification file read
MAX_SPEC_BYTES = 10 * 10 ** 6


def load_spec(path):
    """Read a specification from a ``.toml`` or ``.json`` file (``ModelError`` if bad)."""
    if not os.path.isfile(path):
        raise ModelError("specification '%s' not found" % path)
    if os.path.getsize(path) > MAX_SPEC_BYTES:
        raise ModelError("specification '%s' has %d bytes, more than the limit of %d"
                         % (path, os.path.getsize(path), MAX_SPEC_BYTES))
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
