"""Files of a parameter study: the results table, plots of each metric against each variable.

``results.csv``      one row per variant: variant, status, the variables, the
                     metrics (SI; NaN when not available), message, error class,
                     model fingerprint, cached, worker, simulation time [s],
                     kernels loaded by the task. Floats are written with ``repr``
                     (exact round trip).
``results.parquet``  the same table, when pyarrow is installed.
``<metric>.png``     the metric against each variable (one panel per variable);
                     failed variants are marked on the axis in red.
"""
import csv
import math
import os

import numpy as np

from ..output.plots import figure
from ..output.tables import safe_name

__all__ = ["write_csv", "read_csv", "write_parquet", "plot_metric", "write_all", "PLOT_DPI"]

PLOT_DPI = 100
_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")


def _cell(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv(outcome, path):
    """Write ``outcome``'s rows to ``path`` (via a temporary file: never half-written)."""
    cols = outcome.columns
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in outcome.rows:
            w.writerow([_cell(r[c]) for c in cols])
    os.replace(tmp, path)
    return path


def read_csv(path):
    """The rows of a ``results.csv`` as dicts (numbers as floats where they parse)."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        for k, v in r.items():
            if k in ("status", "message", "error", "key", "worker"):
                continue
            try:
                r[k] = float(v)
            except (TypeError, ValueError):
                pass
    return rows


def write_parquet(outcome, path):
    """``results.parquet`` if pyarrow (and pandas) are installed; returns the path or None."""
    try:
        import pyarrow  # noqa: F401
        import pandas  # noqa: F401
    except ImportError:
        return None
    outcome.table().to_parquet(path, index=False)
    return path


def plot_metric(outcome, metric, path):
    """``metric`` against each design variable, one panel per variable."""
    names = outcome.spec.variable_names
    fig = figure((4.2 * len(names) + 0.8, 3.8), dpi=PLOT_DPI)
    axes = np.atleast_1d(fig.subplots(1, len(names), squeeze=False)[0])
    ok = [r for r in outcome.rows if r["status"] == "ok" and not math.isnan(r[metric])]
    bad = [r for r in outcome.rows if r["status"] == "failed"]
    grid = outcome.spec.design == "grid"
    for ax, var in zip(axes, names):
        x = np.array([r[var] for r in ok])
        y = np.array([r[metric] for r in ok])
        others = [n for n in names if n != var]
        groups = {}
        for r in ok:
            groups.setdefault(tuple(r[n] for n in others), []).append((r[var], r[metric]))
        if grid and 1 < len(groups) <= len(_COLORS):
            # a grid: one line per combination of the other variables
            for k, (key, pts) in enumerate(sorted(groups.items())):
                pts.sort()
                label = ", ".join("%s = %g" % kv for kv in zip(others, key))
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=_COLORS[k],
                        ms=4, lw=1.0, label=label)
        else:
            order = np.argsort(x, kind="stable")
            if grid and len(x) > 1:
                ax.plot(x[order], y[order], "-", color="#1f77b4", lw=1.0, alpha=0.6)
            ax.plot(x, y, "o", color="#1f77b4", ms=4, label="ok (%d)" % len(ok))
        if bad:
            lo = np.nanmin(y) if len(y) else 0.0
            ax.plot([r[var] for r in bad], [lo] * len(bad), "x", color="#d62728", ms=7,
                    label="failed (%d)" % len(bad))
        ax.set_xlabel(var)
        ax.set_ylabel(metric)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="x-small")
    text = next(m.text for m in outcome.spec.metrics if m.name == metric)
    fig.suptitle("%s = %s" % (metric, text), fontsize="medium")
    fig.tight_layout()
    fig.savefig(path, dpi=PLOT_DPI, format="png")
    return path


def plot_name(metric):
    return "%s.png" % safe_name(metric)


def write_all(outcome, out_dir, plots=True):
    """``results.csv`` (+ ``results.parquet``) and one plot per metric; the file names."""
    os.makedirs(out_dir, exist_ok=True)
    names = [os.path.basename(write_csv(outcome, os.path.join(out_dir, "results.csv")))]
    pq = write_parquet(outcome, os.path.join(out_dir, "results.parquet"))
    if pq:
        names.append(os.path.basename(pq))
    if plots:
        for m in outcome.spec.metric_names:
            names.append(os.path.basename(plot_metric(outcome, m,
                                                      os.path.join(out_dir, plot_name(m)))))
    return names

