"""What a sweep returns: its rows, statistics, the best variant, the Pareto front, the
Sobol' indices, the kept time series, and the results table (pandas or NumPy).

A row is a dict per variant, in design order: ``variant``, ``status``, the variables,
the metrics, then ``INFO_COLUMNS``; with constraints also ``feasible``, with several
objectives also ``pareto`` (on the front). Statuses (``STATUSES``):

* ``ok``: simulated (a metric that could not be had is NaN; ``message`` says why);
* ``failed``: the model could not be built, assembled or integrated, or took longer than
  the timeout (``message`` says why, ``error`` names the kind): data about the design;
* ``lost``: the infrastructure failed it (a worker or the scheduler lost, a worker of
  another SimPhant, no workers): retried, then reported apart; never a "best";
* ``cancelled``: not run (the sweep was cancelled).
"""
import math

import numpy as np

__all__ = ["SweepOutcome", "STATUSES", "INFO_COLUMNS", "dominates", "candidates", "best_row",
           "pareto_rows"]

#: a variant's status (see the module docstring)
STATUSES = ("ok", "failed", "lost", "cancelled")

#: extra columns of every row, after the variables and metrics
INFO_COLUMNS = ("message", "warnings", "error", "key", "cached", "worker", "sim_time",
                "new_kernels")


def dominates(a, b):
    """True when objective vector ``a`` (all minimised) is no worse than ``b`` everywhere
    and better somewhere."""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def _number(value):
    return isinstance(value, float) and not math.isnan(value)


def candidates(spec, rows):
    """Finished rows (``status`` "ok") that satisfy ``spec``'s constraints and have a value
    of every objective. ``rows``: the outcome's, or read back from a results table."""
    names = [m for _s, m in spec.objectives]
    return [r for r in rows if r.get("status") == "ok" and spec.feasible(r)
            and all(_number(r.get(m)) for m in names)]


def best_row(spec, rows):
    """The best candidate row by ``spec``'s single objective, or None: also when variants
    were lost to the infrastructure (a best of the survivors is not the best of the
    design)."""
    objective = spec.objective
    if objective is None or any(r.get("status") == "lost" for r in rows):
        return None
    ok = candidates(spec, rows)
    if not ok:
        return None
    sense, metric = objective
    return (min if sense == "minimize" else max)(ok, key=lambda r: r[metric])


def pareto_rows(spec, rows):
    """The non-dominated candidate rows of ``spec``'s objectives (two or more)."""
    if len(spec.objectives) < 2:
        return []
    ok = candidates(spec, rows)
    vec = [[r[m] if s == "minimize" else -r[m] for s, m in spec.objectives] for r in ok]
    return [r for r, v in zip(ok, vec) if not any(dominates(w, v) for w in vec)]


class SweepOutcome:
    """The rows of a sweep (one dict per variant, in design order) and its statistics.

    ``series`` maps a variant's number to its kept time series ``{name: (t, x)}``.
    """

    def __init__(self, spec, rows, stats, series=None):
        self.spec = spec
        self.rows = rows
        self.stats = stats
        self.series = series or {}
        if spec.constraints:
            for r in rows:
                r["feasible"] = r["status"] == "ok" and spec.feasible(r)
        if len(spec.objectives) > 1:
            front = {id(r) for r in self.pareto()}
            for r in rows:
                r["pareto"] = id(r) in front

    @property
    def columns(self):
        extra = (["feasible"] if self.spec.constraints else []) + \
            (["pareto"] if len(self.spec.objectives) > 1 else [])
        return ["variant", "status"] + self.spec.variable_names + self.spec.metric_names \
            + extra + list(INFO_COLUMNS)

    def count(self, status):
        return sum(1 for r in self.rows if r["status"] == status)

    def candidates(self):
        """Finished rows that satisfy the constraints and have every objective's value."""
        return candidates(self.spec, self.rows)

    def best(self):
        """The best finished row by the specification's single objective (``best_row``)."""
        return best_row(self.spec, self.rows)

    def pareto(self):
        """The non-dominated candidate rows of several objectives (design order)."""
        return pareto_rows(self.spec, self.rows)

    def sensitivity(self):
        """Sobol' indices of each metric of a ``saltelli`` design (``sensitivity``):
        ``{metric: {"S1", "ST", "S1_conf", "ST_conf", "samples"}}``, else None."""
        if self.spec.design != "saltelli":
            return None
        from .sensitivity import sobol_indices
        n, d = self.spec.count, len(self.spec.variables)
        out = {}
        for m in self.spec.metric_names:
            y = [r[m] if r["status"] == "ok" else math.nan for r in self.rows]
            out[m] = sobol_indices(y, n, d, seed=self.spec.seed or 0)
        return out

    def table(self):
        """A pandas DataFrame if pandas is installed, else a NumPy structured array."""
        cols = self.columns
        try:
            import pandas as pd
        except ImportError:
            pd = None
        if pd is not None:
            df = pd.DataFrame([[r[c] for c in cols] for r in self.rows], columns=cols)
            df.attrs["sweep"] = dict(self.stats)
            return df
        numeric = set(self.spec.variable_names) | set(self.spec.metric_names) | {"sim_time"}
        dtype = []
        for c in cols:
            if c in numeric:
                dtype.append((c, "f8"))
            elif c in ("variant", "new_kernels"):
                dtype.append((c, "i8"))
            elif c in ("cached", "feasible", "pareto"):
                dtype.append((c, "?"))
            else:
                width = max([len(str(r[c])) for r in self.rows] + [1])
                dtype.append((c, "U%d" % width))
        return np.array([tuple(r[c] for c in cols) for r in self.rows], dtype=dtype)
