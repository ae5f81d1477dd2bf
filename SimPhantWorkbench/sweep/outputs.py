"""Files of a parameter study: the results table, plots, the Pareto front, Sobol' indices.

``results.csv``       one row per variant: variant, status, the variables, the
                      metrics (SI; NaN when not available), feasible (with
                      constraints), pareto (several objectives), message, warnings,
                      error class, model fingerprint, cached, worker, simulation time
                      [s], kernels loaded by the task. Floats are written with ``repr``
                      (exact round trip).
``results.parquet``   the same table, when pyarrow is installed (else ``write_all``
                      says it was skipped and why).
``<metric>.png``      the metric against each variable (one panel per variable);
                      failed variants are marked on the axis in red.
``pareto_front.png``  several objectives: every finished variant and the Pareto front
                      (the first two objectives); ``pareto_front.csv`` lists the front.
``sensitivity.csv``   a ``saltelli`` design: Sobol' indices S1, ST (and their 95 %
``sensitivity.png``   half-widths) of each metric for each variable, and their bars.
``series.npz``        the ``[keep]`` time series: ``<variant>/t`` and ``<variant>/<name>``
                      for each variant that ran.
"""
import csv
import math
import os

import numpy as np

from ..output.plots import figure
from ..output.tables import safe_name

__all__ = ["write_csv", "read_csv", "write_parquet", "plot_metric", "plot_pareto",
           "write_sensitivity", "write_series", "write_all", "output_names", "PLOT_DPI"]

PLOT_DPI = 100
_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")


def _cell(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv(outcome, path, rows=None):
    """Write ``outcome``'s rows (or ``rows`` of it) to ``path`` (via a temporary file: never
    half-written)."""
    cols = outcome.columns
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in outcome.rows if rows is None else rows:
            w.writerow([_cell(r[c]) for c in cols])
    os.replace(tmp, path)
    return path


def read_csv(path):
    """The rows of a ``results.csv`` as dicts (numbers as floats where they parse)."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        for k, v in r.items():
            if k in ("status", "message", "warnings", "error", "key", "worker"):
                continue
            try:
                r[k] = float(v)
            except (TypeError, ValueError):
                pass
    return rows


def write_parquet(outcome, path):
    """``results.parquet``: (the path, None), or (None, why it was skipped)."""
    try:
        import pyarrow  # noqa: F401
        import pandas  # noqa: F401
    except ImportError as exc:
        return None, "results.parquet not written: it needs pyarrow and pandas (%s; pip " \
                     "install pyarrow)" % exc
    tmp = path + ".tmp"
    outcome.table().to_parquet(tmp, index=False)
    os.replace(tmp, path)
    return path, None


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


def plot_pareto(outcome, path):
    """Every finished variant in the plane of the first two objectives, the Pareto front
    drawn over them (infeasible variants hollow)."""
    (s1, m1), (s2, m2) = outcome.spec.objectives[:2]
    fig = figure((6.0, 4.6), dpi=PLOT_DPI)
    ax = fig.subplots()
    ok = [r for r in outcome.rows if r["status"] == "ok"]
    feas = [r for r in ok if r.get("feasible", True)]
    infeas = [r for r in ok if not r.get("feasible", True)]
    ax.plot([r[m1] for r in feas], [r[m2] for r in feas], "o", color="#9ab", ms=5,
            label="variants (%d)" % len(feas))
    if infeas:
        ax.plot([r[m1] for r in infeas], [r[m2] for r in infeas], "o", mfc="none",
                color="#d62728", ms=5, label="infeasible (%d)" % len(infeas))
    front = sorted(outcome.pareto(), key=lambda r: r[m1])
    ax.plot([r[m1] for r in front], [r[m2] for r in front], "o-", color="#1f77b4", ms=6,
            lw=1.2, label="Pareto front (%d)" % len(front))
    ax.set_xlabel("%s (%s)" % (m1, s1))
    ax.set_ylabel("%s (%s)" % (m2, s2))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=PLOT_DPI, format="png")
    return path


def write_sensitivity(outcome, csv_path, png_path):
    """``sensitivity.csv`` and ``sensitivity.png`` of a ``saltelli`` design."""
    indices = outcome.sensitivity()
    names = outcome.spec.variable_names
    tmp = csv_path + ".tmp"
    with open(tmp, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["metric", "variable", "S1", "S1_conf", "ST", "ST_conf", "samples"])
        for metric, d in indices.items():
            for k, var in enumerate(names):
                w.writerow([metric, var] + [_cell(float(d[c][k])) for c in
                                            ("S1", "S1_conf", "ST", "ST_conf")]
                           + [d["samples"]])
    os.replace(tmp, csv_path)
    metrics = list(indices)
    fig = figure((4.2 * len(metrics) + 0.8, 3.8), dpi=PLOT_DPI)
    axes = np.atleast_1d(fig.subplots(1, len(metrics), squeeze=False)[0])
    x = np.arange(len(names))
    for ax, metric in zip(axes, metrics):
        d = indices[metric]
        ax.bar(x - 0.2, d["S1"], 0.4, yerr=d["S1_conf"], color="#1f77b4", label="first order")
        ax.bar(x + 0.2, d["ST"], 0.4, yerr=d["ST_conf"], color="#ff7f0e", label="total")
        ax.set_xticks(x)
        ax.set_xticklabels(names, rotation=20, fontsize="small")
        ax.set_title(metric, fontsize="medium")
        ax.set_ylim(min(0.0, float(np.nanmin(d["S1"])) - 0.05) if np.isfinite(d["S1"]).any()
                    else 0.0, 1.05)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize="x-small")
    fig.suptitle("Sobol' sensitivity indices (%d base samples)" % outcome.spec.count,
                 fontsize="medium")
    fig.tight_layout()
    fig.savefig(png_path, dpi=PLOT_DPI, format="png")
    return csv_path, png_path


def write_series(outcome, path):
    """``series.npz``: each variant's kept series, written one array at a time."""
    import zipfile
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for variant in sorted(outcome.series):
            series = outcome.series[variant]
            t = next(iter(series.values()))[0] if series else np.zeros(0)
            for name, arr in [("t", t)] + [(n, x) for n, (_t, x) in series.items()]:
                with zf.open("%d/%s.npy" % (variant, name), "w", force_zip64=True) as fh:
                    np.lib.format.write_array(fh, np.asarray(arr, dtype=float),
                                              allow_pickle=False)
    os.replace(tmp, path)
    return path


def plot_name(metric):
    return "%s.png" % safe_name(metric)


def output_names(spec, stem):
    """Every file name ``simphant sweep`` may write into its directory for ``spec`` (the
    inputs must be none of them)."""
    names = ["results.csv", "results.parquet", "sweep.json", "%s_sweep.FCStd" % stem,
             "series.npz", "pareto_front.png", "pareto_front.csv", "sensitivity.csv",
             "sensitivity.png"] + [plot_name(m) for m in spec.metric_names]
    return names


def write_all(outcome, out_dir, plots=True):
    """Every file of the outcome (see the module docstring): (file names, notes on what was
    skipped)."""
    os.makedirs(out_dir, exist_ok=True)
    names = [os.path.basename(write_csv(outcome, os.path.join(out_dir, "results.csv")))]
    notes = []
    pq, why = write_parquet(outcome, os.path.join(out_dir, "results.parquet"))
    if pq:
        names.append(os.path.basename(pq))
    else:
        notes.append(why)
    if len(outcome.spec.objectives) > 1:
        names.append(os.path.basename(write_csv(
            outcome, os.path.join(out_dir, "pareto_front.csv"), outcome.pareto())))
        if plots:
            names.append(os.path.basename(plot_pareto(
                outcome, os.path.join(out_dir, "pareto_front.png"))))
    if outcome.spec.design == "saltelli":
        files = write_sensitivity(outcome, os.path.join(out_dir, "sensitivity.csv"),
                                  os.path.join(out_dir, "sensitivity.png"))
        names += [os.path.basename(f) for f in files]
    if outcome.spec.keep:
        names.append(os.path.basename(write_series(outcome,
                                                   os.path.join(out_dir, "series.npz"))))
    if plots:
        for m in outcome.spec.metric_names:
            names.append(os.path.basename(plot_metric(outcome, m,
                                                      os.path.join(out_dir, plot_name(m)))))
    return names, notes
