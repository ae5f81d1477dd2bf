"""Parameter-study panel: design variables, metrics, the run, and its results.

Two forms in the task view:

* **Specification** -- the design (grid, lhs, uniform, normal; count and seed
  for samples), the variables table (``OBJECT.PROPERTY[.COMPONENT]`` picked
  from the study's numeric properties or typed; values, start/stop/count or a
  sampled range), the metrics table (quantity, object, component, reducer from
  ``solver.metrics``' tables), the objective, the end time, where it runs
  (this process, or local cores through Dask) and Run / Cancel with progress.
  The specification is checked by the sweep's own ``spec_from_dict``; its
  message is shown under the fields.
* **Results** -- one row per variant (status, variables, metrics, message of a
  failure) and a Matplotlib plot of a metric against a variable (line or
  scatter; a heat map against two variables of a grid), PNG/CSV export and
  "Apply best": the results are kept (as OK) and ``sweep.apply_best`` gives the
  document the best variant's values (one more undo step); it lives in
  ``parameter_study_results``.

The run happens on the GUI thread in small steps: the sweep's progress
callback (after each variant, and every 0.2 s while Dask workers compute)
updates the bar and processes pending GUI events, and answers False after
Cancel. The document's variables get their values back after the run. OK
writes the specification and the results in one transaction; Cancel writes
nothing.
"""
import json
import time

import FreeCADGui
from PySide import QtCore, QtGui

from ..gui.common import icon_path, message, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..document.base import is_type, study_bodies, transaction
from .. import sweep
from ..solver import ModelError
from ..solver.metrics import COMPONENTS, QUANTITIES, REDUCERS, parse_metric
from .parameter_study_results import ResultsPage
from .widgets import choose_item, format_value

__all__ = ["TaskParameterStudy", "numeric_targets", "metric_text"]

VAR_COLUMNS = (QT_TRANSLATE_NOOP("SimPhant", "Target"), QT_TRANSLATE_NOOP("SimPhant", "Name"),
               QT_TRANSLATE_NOOP("SimPhant", "Values"), QT_TRANSLATE_NOOP("SimPhant", "Start"),
               QT_TRANSLATE_NOOP("SimPhant", "Stop"), QT_TRANSLATE_NOOP("SimPhant", "Count"),
               QT_TRANSLATE_NOOP("SimPhant", "Low"), QT_TRANSLATE_NOOP("SimPhant", "High"),
               QT_TRANSLATE_NOOP("SimPhant", "Rel"))
_VAR_KEYS = ("target", "name", "values", "start", "stop", "count", "low", "high", "rel")
MET_COLUMNS = (QT_TRANSLATE_NOOP("SimPhant", "Name"), QT_TRANSLATE_NOOP("SimPhant", "Quantity"),
               QT_TRANSLATE_NOOP("SimPhant", "Object"), QT_TRANSLATE_NOOP("SimPhant", "Component"),
               QT_TRANSLATE_NOOP("SimPhant", "Reducer"), QT_TRANSLATE_NOOP("SimPhant", "Arguments"))
_NUMERIC = ("App::PropertyFloat", "App::PropertyInteger", "App::PropertyLength",
            "App::PropertyDistance", "App::PropertyQuantity", "App::PropertyAngle",
            "App::PropertySpeed", "App::PropertyAcceleration", "App::PropertyForce",
            "App::PropertyMass", "App::PropertyDensity", "App::PropertyPercent",
            "App::PropertyVector", "App::PropertyVectorDistance", "App::PropertyTime",
            "App::PropertyPressure", "App::PropertyStiffness")


def numeric_targets(study):
    """``OBJECT.PROPERTY[.COMPONENT]`` of the study's members, their shapes and spreadsheets."""
    objs = list(getattr(study, "Group", []))
    for b in study_bodies(study):
        shape = getattr(b, "ShapeObject", None)
        if shape is not None and shape not in objs:
            objs.append(shape)
    objs += [o for o in study.Document.Objects if o.TypeId == "Spreadsheet::Sheet"]
    out = []
    for obj in objs:
        if is_type(obj, "SimPhant::ParameterStudy"):
            continue
        for p in obj.PropertiesList:
            try:
                kind = obj.getTypeIdOfProperty(p)
                if kind not in _NUMERIC or "ReadOnly" in obj.getEditorMode(p) \
                        or "Hidden" in obj.getEditorMode(p):
                    continue
            except Exception:  # noqa: BLE001 - odd properties are skipped
                continue
            if "Vector" in kind:
                out += ["%s.%s.%s" % (obj.Name, p, c) for c in "xyz"]
            else:
                out.append("%s.%s" % (obj.Name, p))
        if obj.TypeId == "Spreadsheet::Sheet":
            for cell in obj.getUsedCells() if hasattr(obj, "getUsedCells") else ():
                alias = obj.getAlias(cell)
                value = obj.get(alias) if alias else None
                if isinstance(value, (int, float)) or hasattr(value, "Value"):
                    out.append("%s.%s" % (obj.Name, alias))
    return out


def metric_text(quantity, obj, component, reducer, args):
    """The metric expression of the table's fields: ``max(reaction_force(Hinge).x)``."""
    q = QUANTITIES[quantity]
    sig = quantity if q.kind == "system" else "%s(%s)" % (quantity, obj)
    if q.vector and component:
        sig += "." + component
    args = args.strip()
    return "%s(%s%s)" % (reducer, sig, ", " + args if args else "")


def _num(text):
    text = text.strip()
    if not text:
        return None
    try:
        v = float(text)
    except ValueError:
        return text                     # the sweep's validation names it
    return int(v) if v.is_integer() and "." not in text and "e" not in text.lower() else v


class TaskParameterStudy(ResultsPage):
    """The task panel of a ParameterStudy (see the module docstring)."""

    #: the panel open now (scripts and tests reach it here)
    current = None

    def __init__(self, pstudy):
        from ..sweep import study_of
        from ..sweep.executors import dask_available
        TaskParameterStudy.current = self
        self.obj = pstudy
        self.doc = pstudy.Document
        self.study = study_of(pstudy)
        self.outcome = None            # a run of this panel (written on OK)
        self.running = False
        self.cancel_requested = False
        self.progress_log = []
        try:
            spec = sweep.stored_spec(pstudy)
        except ModelError:
            spec = None
        self.form = [self._spec_form(spec, dask_available()), self._results_form()]
        self.rows, self.spec = [], spec
        if spec is not None and pstudy.Variants > 0:
            self.rows = sweep.stored_rows(pstudy)
        self._show_results()
        self.validate()

    # ------------------------------------------------------------------ specification form
    def _spec_form(self, spec, dask):
        w = QtGui.QWidget()
        w.setWindowTitle(translate("SimPhant", "Parameter study '%s'") % self.obj.Label)
        w.setWindowIcon(QtGui.QIcon(icon_path("ParameterStudy.svg")))
        lay = QtGui.QVBoxLayout(w)
        top = QtGui.QFormLayout()
        self.design = QtGui.QComboBox()
        from ..sweep.spec import DESIGNS
        self.design.addItems(list(DESIGNS))
        self.count = QtGui.QSpinBox()
        self.count.setRange(1, 100000)
        self.count.setValue(10)
        self.seed = QtGui.QLineEdit()
        self.seed.setPlaceholderText(translate("SimPhant", "none"))
        h = QtGui.QHBoxLayout()
        h.addWidget(self.design)
        h.addWidget(QtGui.QLabel(translate("SimPhant", "samples")))
        h.addWidget(self.count)
        h.addWidget(QtGui.QLabel(translate("SimPhant", "seed")))
        h.addWidget(self.seed)
        top.addRow(translate("SimPhant", "Design"), h)
        lay.addLayout(top)
        lay.addWidget(QtGui.QLabel(translate("SimPhant", "Design variables (values in the "
                                             "property's unit, as the property editor shows "
                                             "them)")))
        self.var_table = QtGui.QTableWidget(0, len(VAR_COLUMNS))
        self.var_table.setHorizontalHeaderLabels([translate("SimPhant", c) for c in VAR_COLUMNS])
        self.var_table.setToolTip(translate("SimPhant", "Target: OBJECT.PROPERTY[.COMPONENT] "
                                            "(pick or type). Grid: Values '1, 2, 3' or "
                                            "Start/Stop/Count. Sampled designs: Low/High or Rel "
                                            "(+- fraction of the document's value)"))
        self.var_table.setMinimumHeight(110)
        self.var_table.setColumnWidth(0, 220)
        lay.addWidget(self.var_table)
        lay.addLayout(self._add_remove(self.add_variable, self.var_table))
        lay.addWidget(QtGui.QLabel(translate("SimPhant", "Metrics (SI units)")))
        self.met_table = QtGui.QTableWidget(0, len(MET_COLUMNS))
        self.met_table.setHorizontalHeaderLabels([translate("SimPhant", c) for c in MET_COLUMNS])
        self.met_table.setToolTip(translate("SimPhant", "A reducer of a result signal: 'at' "
                                            "takes a time [s], 'first_crossing' a level and a "
                                            "direction, 'period' a level"))
        self.met_table.setMinimumHeight(110)
        self.met_table.setColumnWidth(1, 130)
        lay.addWidget(self.met_table)
        lay.addLayout(self._add_remove(self.add_metric, self.met_table))
        form = QtGui.QFormLayout()
        self.objective = QtGui.QComboBox()
        form.addRow(translate("SimPhant", "Best variant"), self.objective)
        self.t_end = QtGui.QLineEdit()
        self.t_end.setPlaceholderText(translate("SimPhant", "the study's (%g s)")
                                      % self.study.EndTime)
        form.addRow(translate("SimPhant", "End time [s]"), self.t_end)
        self.executor = QtGui.QComboBox()
        self.executor.addItem(translate("SimPhant", "In this process"), "in-process")
        if dask:
            self.executor.addItem(translate("SimPhant", "Local cores (Dask)"), "dask")
        self.workers = QtGui.QSpinBox()
        self.workers.setRange(1, 256)
        from ..sweep.executors import default_workers
        self.workers.setValue(default_workers())
        h = QtGui.QHBoxLayout()
        h.addWidget(self.executor)
        h.addWidget(QtGui.QLabel(translate("SimPhant", "workers")))
        h.addWidget(self.workers)
        form.addRow(translate("SimPhant", "Run"), h)
        lay.addLayout(form)
        self.error = QtGui.QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #a40000")
        lay.addWidget(self.error)
        h = QtGui.QHBoxLayout()
        self.run_button = QtGui.QPushButton(QtGui.QIcon(icon_path("Solve.svg")),
                                            translate("SimPhant", "Run"))
        self.cancel_button = QtGui.QPushButton(translate("SimPhant", "Cancel run"))
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel_run)
        h.addWidget(self.run_button)
        h.addWidget(self.cancel_button)
        lay.addLayout(h)
        self.bar = QtGui.QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        lay.addWidget(self.bar)
        self.status = QtGui.QLabel()
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.targets = numeric_targets(self.study)
        self.objects = [o.Name for o in self.study.Group
                        if is_type(o, "SimPhant::Body") or is_type(o, "SimPhant::Joint")]
        if spec is not None:
            self.design.setCurrentIndex(list(DESIGNS).index(spec.design))
            if spec.count:
                self.count.setValue(spec.count)
            if spec.seed is not None:
                self.seed.setText(str(spec.seed))
            for v in spec.variables:
                self.add_variable(v.to_dict())
            for m in spec.metrics:
                self.add_metric(m)
            if "t_end" in spec.settings:
                self.t_end.setText("%g" % spec.settings["t_end"])
        self._objectives(spec.objective if spec is not None else None)
        self.design.currentIndexChanged.connect(self.validate)
        self.count.valueChanged.connect(self.validate)
        self.seed.textChanged.connect(self.validate)
        self.t_end.textChanged.connect(self.validate)
        self.objective.currentIndexChanged.connect(self.validate)
        self.var_table.itemChanged.connect(self.validate)
        self.met_table.itemChanged.connect(self._metrics_changed)
        return w

    def _add_remove(self, add, table):
        h = QtGui.QHBoxLayout()
        a = QtGui.QPushButton(translate("SimPhant", "Add"))
        r = QtGui.QPushButton(translate("SimPhant", "Remove"))
        a.clicked.connect(lambda: (add(), self.validate()))
        r.clicked.connect(lambda: (table.removeRow(max(0, table.currentRow()))
                                   if table.rowCount() else None, self._metrics_changed()))
        h.addWidget(a)
        h.addWidget(r)
        h.addStretch(1)
        return h

    def _combo(self, items, current, editable=False):
        c = QtGui.QComboBox()
        c.setEditable(editable)
        c.addItems(items)
        if current is not None:
            i = c.findText(current)
            if i >= 0:
                c.setCurrentIndex(i)
            elif editable:
                c.setEditText(current)
        c.currentIndexChanged.connect(self._metrics_changed)
        if editable:
            c.editTextChanged.connect(self._metrics_changed)
        return c

    def add_variable(self, d=None):
        """Add a row to the variables table (``d``: a variable's dict, as ``Variable.to_dict``)."""
        d = d or {"target": self.targets[0] if self.targets else ""}
        t = self.var_table
        t.blockSignals(True)
        r = t.rowCount()
        t.insertRow(r)
        t.setCellWidget(r, 0, self._combo(self.targets, d.get("target"), editable=True))
        for c, key in enumerate(_VAR_KEYS[1:], 1):
            v = d.get(key)
            text = ", ".join(format_value(x) for x in v) if key == "values" and v \
                else format_value(v)
            if key == "name" and d.get("name") == d.get("target"):
                text = ""
            t.setItem(r, c, QtGui.QTableWidgetItem(text))
        t.blockSignals(False)
        return r

    def add_metric(self, m=None):
        """Add a row to the metrics table (``m``: a ``Metric`` or None for a default)."""
        t = self.met_table
        t.blockSignals(True)
        r = t.rowCount()
        t.insertRow(r)
        if m is None:
            m = parse_metric("max(speed(%s))" % self.objects[0] if self.objects
                             else "max(energy_drift)", "metric%d" % (r + 1))
        t.setItem(r, 0, QtGui.QTableWidgetItem(m.name))
        t.setCellWidget(r, 1, self._combo(list(QUANTITIES), m.quantity))
        t.setCellWidget(r, 2, self._combo(self.objects, m.target or "", editable=True))
        t.setCellWidget(r, 3, self._combo([""] + list(COMPONENTS), m.component or ""))
        t.setCellWidget(r, 4, self._combo(list(REDUCERS), m.reducer))
        t.setItem(r, 5, QtGui.QTableWidgetItem(", ".join(
            json.dumps(a) if isinstance(a, str) else repr(a) for a in m.args)))
        t.blockSignals(False)
        return r

    def _metrics_changed(self, *args):
        if not hasattr(self, "objective"):
            return
        self._objectives(self.objective.currentData())
        self.validate()

    def _objectives(self, objective):
        """List "(none)" and minimize / maximize of every metric; choose ``objective``
        (``(sense, metric)``) when it is there."""
        items = [(translate("SimPhant", "(none)"), None)]
        for r in range(self.met_table.rowCount()):
            item = self.met_table.item(r, 0)
            name = item.text().strip() if item else ""
            if name:
                items += [(translate("SimPhant", "minimize %s") % name, ("minimize", name)),
                          (translate("SimPhant", "maximize %s") % name, ("maximize", name))]
        self.objective.blockSignals(True)
        self.objective.clear()
        for text, key in items:
            self.objective.addItem(text, key)
        choose_item(self.objective, objective)
        self.objective.blockSignals(False)

    # ------------------------------------------------------------------ the specification
    def spec_dict(self):
        """The specification the fields describe (a dict, as ``Spec.to_dict``)."""
        variables = []
        t = self.var_table
        for r in range(t.rowCount()):
            d = {"target": t.cellWidget(r, 0).currentText().strip()}
            for c, key in enumerate(_VAR_KEYS[1:], 1):
                item = t.item(r, c)
                text = item.text().strip() if item else ""
                if not text:
                    continue
                if key == "name":
                    d[key] = text
                elif key == "values":
                    d[key] = [_num(x) for x in text.replace(";", ",").split(",") if x.strip()]
                else:
                    d[key] = _num(text)
            variables.append(d)
        metrics = {}
        t = self.met_table
        for r in range(t.rowCount()):
            item = t.item(r, 0)
            name = item.text().strip() if item else ""
            args = t.item(r, 5).text() if t.item(r, 5) else ""
            metrics[name or "metric%d" % (r + 1)] = metric_text(
                t.cellWidget(r, 1).currentText(), t.cellWidget(r, 2).currentText().strip(),
                t.cellWidget(r, 3).currentText(), t.cellWidget(r, 4).currentText(), args)
        d = {"design": self.design.currentText(), "variables": variables, "metrics": metrics}
        if d["design"] != "grid":
            d["count"] = self.count.value()
        seed = _num(self.seed.text())
        if seed is not None:
            d["seed"] = seed
        t_end = _num(self.t_end.text())
        if t_end is not None:
            d["settings"] = {"t_end": t_end}
        obj = self.objective.currentData()
        if obj:
            d["objective"] = {obj[0]: obj[1]}
        return d

    def validate(self, *args):
        """The sweep's validation of the fields: its message under them ("" when valid)."""
        from ..sweep.spec import spec_from_dict
        self.count.setEnabled(self.design.currentText() != "grid")
        try:
            spec_from_dict(self.spec_dict(), translate("SimPhant", "Parameter study '%s'")
                           % self.obj.Label)
            text = ""
        except ModelError as exc:
            text = str(exc)
        except Exception as exc:  # noqa: BLE001 - a malformed metric row
            text = "%s: %s" % (type(exc).__name__, exc)
        self.error.setText(text)
        self.error.setVisible(bool(text))
        self.run_button.setEnabled(not text and not self.running)
        return text

    # ------------------------------------------------------------------ run
    def run(self, wait=True):
        """Run the specification (keeps the GUI alive; Cancel stops it). The outcome or None."""
        from ..sweep import execute
        from ..sweep.spec import spec_from_dict
        problem = self.validate()
        if problem or self.running:
            return None
        spec = spec_from_dict(self.spec_dict())
        executor = self.executor.currentData()
        kwargs = dict(executor=executor, progress=self._progress)
        if executor == "dask":
            kwargs["workers"] = self.workers.value()
        else:
            kwargs["batch_size"] = 1            # progress (and Cancel) after each variant
        self.running = True
        self.cancel_requested = False
        self.progress_log = []
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(translate("SimPhant", "Starting %d variants ...") % spec.size())
        self.t0 = time.perf_counter()
        try:
            outcome = execute(self.study, spec, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown; the sweep restored the document
            message("error", translate("SimPhant", "SimPhant: parameter study"), str(exc))
            outcome = None
        finally:
            self.running = False
            self.cancel_button.setEnabled(False)
            self.validate()
        if outcome is None:
            return None
        self.outcome = outcome
        self.spec = spec
        self.rows = outcome.rows
        s = outcome.stats
        self.status.setText(translate("SimPhant", "%d variants: %d ok, %d failed, %d not run; "
                                      "%.1f s (%s). OK keeps the results.")
                            % (len(outcome.rows), outcome.count("ok"), outcome.count("failed"),
                               outcome.count("cancelled"), s["wall_time"],
                               s.get("executor") or executor))
        self.bar.setValue(1000 if not s.get("cancelled") else self.bar.value())
        self._show_results()
        return outcome

    def _progress(self, p):
        self.progress_log.append(p)
        self.bar.setValue(int(1000 * p.done / max(1, p.total)))
        eta = translate("SimPhant", "remaining ~%.0f s") % p.eta if p.eta is not None \
            else translate("SimPhant", "remaining: estimating")
        self.status.setText(translate("SimPhant", "%d of %d variants (%d failed, %d from the "
                                      "cache)   elapsed %.1f s   %s")
                            % (p.done, p.total, p.failed, p.cached, p.elapsed, eta))
        QtGui.QApplication.processEvents(QtCore.QEventLoop.AllEvents, 20)
        return not self.cancel_requested

    def cancel_run(self):
        self.cancel_requested = True
        self.status.setText(translate("SimPhant", "Cancelling ..."))

    # ------------------------------------------------------------------ OK / Cancel
    def getStandardButtons(self):
        return int(QtGui.QDialogButtonBox.Ok | QtGui.QDialogButtonBox.Cancel)

    def accept(self):
        if self.running:
            return False
        problem = self.validate()
        if problem:
            message("warning", translate("SimPhant", "SimPhant parameter study"), problem)
            return False
        from ..sweep import store_outcome
        title = translate("SimPhant", "Edit %s") % self.obj.Label
        try:
            with transaction(self.doc, title):
                FreeCADGui.doCommand("_obj = %s" % obj_expr(self.obj))
                FreeCADGui.doCommand("_obj.Specification = %r"
                                     % json.dumps(self.spec_dict(), indent=1))
                if self.outcome is not None:
                    store_outcome(self.obj, self.outcome)
        except Exception as exc:  # noqa: BLE001 - aborted: the document is unchanged
            message("error", title, str(exc))
            return False
        self._close()
        return True

    def reject(self):
        if self.running:
            self.cancel_run()
            return False
        self._close()
        return True

    def _close(self):
        if TaskParameterStudy.current is self:
            TaskParameterStudy.current = None
        FreeCADGui.Control.closeDialog()
        gdoc = FreeCADGui.getDocument(self.doc.Name)
        if gdoc is not None and gdoc.getInEdit() is not None:
            gdoc.resetEdit()
