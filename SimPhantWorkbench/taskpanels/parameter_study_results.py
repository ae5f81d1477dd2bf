"""The results page of the parameter-study panel: one row per variant (status, the
variables, the metrics, why a variant failed or was lost) and a Matplotlib plot of a metric
against a variable (line or scatter; a heat map against two variables of a grid, failed
cells crossed out) or, with two objectives, the Pareto front: every finished variant in the
plane of the objectives, the non-dominated ones joined. PNG/CSV export and "Apply best": the
results are kept (as OK) and ``sweep.apply_best`` gives the document the best variant's
values (one more undo step). The best variant and the front are the sweep's own
(``sweep.outcome.best_row``, ``pareto_rows``), also for results read back from the document.

``ResultsPage`` is a part of ``task_parameter_study.TaskParameterStudy``: it reads the
panel's ``obj`` (the ParameterStudy), ``spec``, ``rows`` and ``outcome`` and calls its
``accept``.
"""
import math

import FreeCADGui
from PySide import QtGui

from ..gui.common import icon_path, message, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..sweep.outcome import best_row, pareto_rows
from .widgets import (FlowRow, choose_item, fit_side_pane, format_value, labelled,
                      refill_combo)

__all__ = ["ResultsPage", "PLOT_KINDS"]

#: plot kinds of the results page: key -> what the list shows
PLOT_KINDS = {"line": QT_TRANSLATE_NOOP("SimPhant", "line"),
              "scatter": QT_TRANSLATE_NOOP("SimPhant", "scatter"),
              "heat map": QT_TRANSLATE_NOOP("SimPhant", "heat map"),
              "Pareto front": QT_TRANSLATE_NOOP("SimPhant", "Pareto front")}
#: the results table's own columns (the others are the variables' and metrics' names)
_RESULT_COLUMNS = {"variant": QT_TRANSLATE_NOOP("SimPhant", "variant"),
                   "status": QT_TRANSLATE_NOOP("SimPhant", "status"),
                   "feasible": QT_TRANSLATE_NOOP("SimPhant", "feasible"),
                   "pareto": QT_TRANSLATE_NOOP("SimPhant", "pareto"),
                   "message": QT_TRANSLATE_NOOP("SimPhant", "message")}
#: an objective's axis of the Pareto plot, by its sense
_OBJECTIVE_AXES = {"minimize": QT_TRANSLATE_NOOP("SimPhant", "%s (minimize)"),
                   "maximize": QT_TRANSLATE_NOOP("SimPhant", "%s (maximize)")}


class ResultsPage:
    """The results form and what it does (see the module docstring)."""

    def _results_form(self):
        from matplotlib.backends.backend_qt5agg import FigureCanvasQTAgg
        from matplotlib.figure import Figure
        w = QtGui.QWidget()
        w.setWindowTitle(translate("SimPhant", "Results"))
        w.setWindowIcon(QtGui.QIcon(icon_path("Result.svg")))
        lay = QtGui.QVBoxLayout(w)
        self.table = QtGui.QTableWidget(0, 0)
        self.table.setEditTriggers(QtGui.QAbstractItemView.NoEditTriggers)
        self.table.setMinimumHeight(140)
        lay.addWidget(self.table)
        pairs = []
        self.plot_metric = QtGui.QComboBox()
        self.plot_x = QtGui.QComboBox()
        self.plot_y = QtGui.QComboBox()
        self.plot_kind = QtGui.QComboBox()
        refill_combo(self.plot_kind, [(translate("SimPhant", text), key)
                                      for key, text in PLOT_KINDS.items()])
        for label, box in ((QT_TRANSLATE_NOOP("SimPhant", "Metric"), self.plot_metric),
                           (QT_TRANSLATE_NOOP("SimPhant", "vs"), self.plot_x),
                           (QT_TRANSLATE_NOOP("SimPhant", "and"), self.plot_y),
                           (QT_TRANSLATE_NOOP("SimPhant", "as"), self.plot_kind)):
            pairs.append(labelled(translate("SimPhant", label), box))
            box.currentIndexChanged.connect(self._replot)
        lay.addLayout(FlowRow(pairs))
        self.figure = Figure(figsize=(5, 3.4), dpi=100)
        self.figure.set_layout_engine("tight") if hasattr(self.figure, "set_layout_engine") \
            else self.figure.set_tight_layout(True)
        self.axes = self.figure.add_subplot(111)
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumHeight(260)
        lay.addWidget(self.canvas)
        self.png_button = QtGui.QPushButton(translate("SimPhant", "Export PNG ..."))
        self.csv_button = QtGui.QPushButton(translate("SimPhant", "Export CSV ..."))
        self.best_button = QtGui.QPushButton(translate("SimPhant", "Apply best"))
        self.best_button.setToolTip(translate("SimPhant", "Keep the results (OK), then give the "
                                              "document the best variant's values (one undo "
                                              "step)"))
        self.png_button.clicked.connect(lambda: self._export_dialog("png"))
        self.csv_button.clicked.connect(lambda: self._export_dialog("csv"))
        self.best_button.clicked.connect(self.apply_best)
        lay.addLayout(FlowRow((self.png_button, self.csv_button, self.best_button)))
        return fit_side_pane(w)

    def columns(self):
        spec = self.spec
        extra = (["feasible"] if spec.constraints else []) + \
            (["pareto"] if len(spec.objectives) > 1 else [])
        return ["variant", "status"] + spec.variable_names + spec.metric_names + extra + \
            ["message"]

    def _show_results(self):
        spec = self.spec
        has = bool(self.rows) and spec is not None
        cols = self.columns() if has else []
        self.table.clear()
        self.table.setColumnCount(len(cols))
        self.table.setHorizontalHeaderLabels([translate("SimPhant", _RESULT_COLUMNS[c])
                                              if c in _RESULT_COLUMNS else c for c in cols])
        self.table.setRowCount(len(self.rows) if has else 0)
        for r, row in enumerate(self.rows if has else ()):
            for c, col in enumerate(cols):
                v = row.get(col, "")
                text = "%d" % v if col == "variant" else format_value(v)
                item = QtGui.QTableWidgetItem(text)
                if row.get("status") in ("failed", "lost"):
                    item.setForeground(QtGui.QBrush(QtGui.QColor("#a40000")))
                if col == "message" and v:
                    item.setToolTip(str(v))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        metrics = spec.metric_names if has else []
        variables = spec.variable_names if has else []
        refill_combo(self.plot_metric, [(m, m) for m in metrics])
        refill_combo(self.plot_x, [(v, v) for v in variables])
        refill_combo(self.plot_y, [(translate("SimPhant", "(none)"), "")]
                     + [(v, v) for v in variables[1:] + variables[:1]])
        if has and len(spec.objectives) > 1:
            self.plot_kind.blockSignals(True)
            choose_item(self.plot_kind, "Pareto front")
            self.plot_kind.blockSignals(False)
        for b in (self.png_button, self.csv_button):
            b.setEnabled(has)
        self.best_button.setEnabled(self.best() is not None)
        self._replot()

    def best(self):
        """The best finished row of the shown results by the objective, or None."""
        if self.spec is None or not self.rows:
            return None
        return best_row(self.spec, self.rows)

    def pareto(self):
        """The rows of the Pareto front of the shown results (two or more objectives)."""
        if self.spec is None or not self.rows:
            return []
        return pareto_rows(self.spec, self.rows)

    def select_plot(self, metric, x, y=None, kind="line"):
        """Plot ``metric`` against variable ``x`` (and ``y`` for a heat map)."""
        for box, key in ((self.plot_metric, metric), (self.plot_x, x),
                         (self.plot_y, y or ""), (self.plot_kind, kind)):
            box.blockSignals(True)
            choose_item(box, key)
            box.blockSignals(False)
        return self._replot()

    def plot_data(self):
        """What the plot shows: dict(kind, x, y[, z]) or None."""
        metric, x = self.plot_metric.currentData(), self.plot_x.currentData()
        y = self.plot_y.currentData() or ""
        kind = self.plot_kind.currentData()
        if kind == "Pareto front":
            return self._pareto_data()
        if not metric or not x:
            return None
        ok = [r for r in self.rows if r.get("status") == "ok"]
        if kind == "heat map" and y not in ("", x):
            xs = sorted({r[x] for r in self.rows})
            ys = sorted({r[y] for r in self.rows})
            z = [[math.nan] * len(xs) for _ in ys]
            for r in ok:
                z[ys.index(r[y])][xs.index(r[x])] = r[metric]
            return dict(kind=kind, metric=metric, xname=x, yname=y, x=xs, y=ys, z=z)
        ok = sorted(ok, key=lambda r: r[x])
        failed = [r[x] for r in self.rows if r.get("status") == "failed"]
        return dict(kind="scatter" if kind == "heat map" else kind, metric=metric, xname=x,
                    x=[r[x] for r in ok], y=[r[metric] for r in ok], failed=failed)

    def _pareto_data(self):
        spec = self.spec
        if spec is None or len(spec.objectives) < 2 or not self.rows:
            return None
        (s1, m1), (s2, m2) = spec.objectives[:2]
        ok = [r for r in self.rows if r.get("status") == "ok"]
        front = sorted(self.pareto(), key=lambda r: r[m1])
        return dict(kind="Pareto front", xname=translate("SimPhant", _OBJECTIVE_AXES[s1]) % m1,
                    yname=translate("SimPhant", _OBJECTIVE_AXES[s2]) % m2,
                    x=[r[m1] for r in ok], y=[r[m2] for r in ok],
                    front_x=[r[m1] for r in front], front_y=[r[m2] for r in front],
                    front=[int(r["variant"]) for r in front])

    def _replot(self, *args):
        self.figure.clear()
        ax = self.axes = self.figure.add_subplot(111)
        self.colorbar = None
        d = self.plot_data()
        if d is None:
            ax.text(0.5, 0.5, translate("SimPhant", "Run the study to see its results"),
                    ha="center", va="center", transform=ax.transAxes, color="#555")
        elif d["kind"] == "heat map":
            self._plot_heat(ax, d)
        elif d["kind"] == "Pareto front":
            ax.plot(d["x"], d["y"], "o", color="#9ab", ms=5,
                    label=translate("SimPhant", "variants"))
            ax.plot(d["front_x"], d["front_y"], "o-", color="#1f77b4", ms=6,
                    label=translate("SimPhant", "Pareto front (%d)") % len(d["front"]))
            ax.set_xlabel(d["xname"])
            ax.set_ylabel(d["yname"])
            ax.grid(True, alpha=0.3)
            ax.legend(loc="best", fontsize=8)
        else:
            self._plot_line(ax, d)
        self.canvas.draw_idle()
        return d

    def _plot_heat(self, ax, d):
        import numpy as np
        z = np.array(d["z"], dtype=float)
        xs, ys = np.array(d["x"]), np.array(d["y"])
        # one cell per grid value (evenly spaced whatever the values), labelled
        im = ax.pcolormesh(np.arange(len(xs) + 1) - 0.5, np.arange(len(ys) + 1) - 0.5,
                           np.ma.masked_invalid(z), cmap="viridis", shading="flat")
        self.colorbar = self.figure.colorbar(im, ax=ax, label=d["metric"])
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(["%g" % v for v in xs])
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels(["%g" % v for v in ys])
        finite = np.isfinite(z).any()
        lo, hi = (np.nanmin(z), np.nanmax(z)) if finite else (0, 1)
        for i in range(len(ys)):
            for j in range(len(xs)):
                if not np.isfinite(z[i, j]):
                    ax.plot([j], [i], "x", color="#a40000", ms=12, mew=2)
                elif len(xs) * len(ys) <= 64:
                    dark = (z[i, j] - lo) < 0.5 * (hi - lo)
                    ax.text(j, i, "%.4g" % z[i, j], ha="center", va="center", fontsize=8,
                            color="white" if dark else "black")
        ax.set_xlabel(d["xname"])
        ax.set_ylabel(d["yname"])

    def _plot_line(self, ax, d):
        style = "o-" if d["kind"] == "line" else "o"
        ax.plot(d["x"], d["y"], style, color="#1f77b4", label=d["metric"])
        if d["failed"]:
            lo = min(d["y"]) if d["y"] else 0.0
            ax.plot(d["failed"], [lo] * len(d["failed"]), "x", color="#a40000",
                    ms=9, label=translate("SimPhant", "failed"))
        b = self.best()
        if b is not None:
            ax.plot([b[d["xname"]]], [b[d["metric"]]], "o", ms=12, mfc="none",
                    mec="#4e9a06", mew=2, label=translate("SimPhant", "best"))
        ax.set_xlabel(d["xname"])
        ax.set_ylabel(d["metric"])
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=8)

    # ------------------------------------------------------------------ exports, best
    def export_png(self, path, dpi=100):
        self.figure.savefig(path, dpi=dpi)
        return path

    def export_csv(self, path):
        """The results table as CSV (the sweep's format: every column)."""
        from ..sweep.outputs import write_csv
        if self.outcome is not None:
            return write_csv(self.outcome, path)
        import shutil
        shutil.copyfile(self.obj.ResultsFile, path)
        return path

    def _export_dialog(self, kind):
        flt = translate("SimPhant", "PNG image (*.png)") if kind == "png" \
            else translate("SimPhant", "CSV table (*.csv)")
        path, _ = QtGui.QFileDialog.getSaveFileName(FreeCADGui.getMainWindow(),
                                                    translate("SimPhant", "Export"),
                                                    "%s.%s" % (self.obj.Name, kind), flt)
        if path:
            (self.export_png if kind == "png" else self.export_csv)(path)

    def apply_best(self):
        """Keep the results (as OK: one undo step, the panel closes), then give the document
        the best variant's values with ``sweep.apply_best`` (one more undo step).

        Returns the best row, or None (nothing written)."""
        row = self.best()
        if row is None:
            message("warning", translate("SimPhant", "SimPhant: apply best"),
                    translate("SimPhant", "No best variant: choose a best variant (objective) "
                              "and run the study."))
            return None
        if not self.accept():
            return None
        try:
            FreeCADGui.doCommand("from SimPhantWorkbench import sweep")
            FreeCADGui.doCommand("sweep.apply_best(%s)" % obj_expr(self.obj))
        except Exception as exc:  # noqa: BLE001 - apply_variant aborted its transaction
            message("error", translate("SimPhant", "SimPhant: apply best"), str(exc))
            return None
        return row
