"""The goals of a specification: ``[objective]`` (objectives and constraints) and
``[optimize]`` (the optimiser's sampler, trials, seed and parallel trials).

``objectives(table, metric names)`` returns ``([(sense, metric)], constraints)``, a
constraint being ``(metric, op, bound)`` read from ``"METRIC <= NUMBER"`` (or ``>=``,
``<``, ``>``); ``optimize_table`` checks ``[optimize]``.
"""
import re

from ..solver import ModelError
from .values import MAX_TRIALS, check_seed, finite, positive_int

__all__ = ["objectives", "constraints", "optimize_table", "SAMPLERS"]

#: Optuna samplers of ``[optimize]``
SAMPLERS = ("tpe", "cmaes", "random", "nsga2")
_CONSTRAINT = re.compile(r"^\s*(.+?)\s*(<=|>=|<|>)\s*(\S+)\s*$")


def constraints(items, mnames):
    """``[(metric, op, bound)]`` of constraint texts ``"METRIC <= NUMBER"``."""
    if isinstance(items, str):
        items = [items]
    out = []
    for text in items or ():
        m = _CONSTRAINT.match(str(text))
        what = "constraint %r" % (text,)
        if not m:
            raise ModelError("%s: expected METRIC <= NUMBER (or >=, <, >)" % what)
        name, op, bound = m.groups()
        if name not in mnames:
            raise ModelError("%s: %r is not a metric; metrics: %s" % (what, name,
                                                                       ", ".join(mnames)))
        try:
            value = float(bound)
        except ValueError:
            raise ModelError("%s: %r is not a number" % (what, bound)) from None
        out.append((name, op, finite(value, what + ": the bound")))
    return out


def objectives(objective, mnames):
    """([(sense, metric)], constraints) of an ``[objective]`` table."""
    if not objective:
        return [], []
    if not isinstance(objective, dict):
        raise ModelError("objective must be a table {minimize = METRIC} or {maximize = "
                         "METRIC} (lists for several), got %r" % (objective,))
    unknown = sorted(set(objective) - {"minimize", "maximize", "constraints"})
    if unknown:
        raise ModelError("objective: unknown key(s) %s; valid: minimize, maximize, constraints"
                         % ", ".join(unknown))
    out = []
    for sense in ("minimize", "maximize"):
        names = objective.get(sense) or []
        for metric in [names] if isinstance(names, str) else names:
            if metric not in mnames:
                raise ModelError("objective: %r is not a metric; metrics: %s"
                                 % (metric, ", ".join(mnames)))
            if any(metric == o[1] for o in out):
                raise ModelError("objective: %r is named twice" % metric)
            out.append((sense, metric))
    if not out:
        raise ModelError("objective: give minimize = METRIC or maximize = METRIC")
    return out, constraints(objective.get("constraints"), mnames)


def optimize_table(opt, design, count, n_objectives):
    """The ``[optimize]`` table, checked (a dict with sampler, trials, seed, parallel)."""
    if not isinstance(opt, dict):
        raise ModelError("optimize must be a table (sampler, trials, seed, parallel)")
    unknown = sorted(set(opt) - {"sampler", "trials", "seed", "parallel"})
    if unknown:
        raise ModelError("optimize: unknown key(s) %s; valid: sampler, trials, seed, parallel"
                         % ", ".join(unknown))
    if design not in (None, "optimize") or count is not None:
        raise ModelError("optimize: the optimiser chooses the variants; give no design or "
                         "count (trials = N in [optimize])")
    if not n_objectives:
        raise ModelError("optimize: needs an [objective] (minimize or maximize a metric)")
    sampler = opt.get("sampler", "tpe" if n_objectives == 1 else "nsga2")
    if sampler not in SAMPLERS:
        raise ModelError("optimize: sampler must be one of %s, got %r"
                         % (", ".join(SAMPLERS), sampler))
    if sampler == "cmaes" and n_objectives > 1:
        raise ModelError("optimize: CMA-ES optimises one objective; for several use nsga2 "
                         "or tpe")
    out = dict(sampler=sampler, trials=positive_int(opt.get("trials"), "optimize: trials",
                                              MAX_TRIALS))
    if opt.get("seed") is not None:
        out["seed"] = check_seed(opt["seed"], "optimize: seed")
    if opt.get("parallel") is not None:
        out["parallel"] = positive_int(opt["parallel"], "optimize: parallel", 1024)
    return out

