"""The specification form of the parameter-study panel (``task_parameter_study``).

The design (grid, lhs, uniform, normal, sobol, halton, saltelli, or the optimiser with
its sampler, trials and trials in flight; count and seed for samples), the variables
table (``OBJECT.PROPERTY[.COMPONENT]`` picked from the study's numeric properties or
typed; values, start/stop/count or a sampled range), the metrics table (quantity,
object, component, reducer from ``solver.metrics``' tables, or a free expression with
arithmetic), the objectives (one: the best variant; two: a Pareto front) and their
constraints, the end time and the per-variant timeout, and where it runs (this
process, the local cores through Dask, or a Dask scheduler's address) with the result
cache. The specification is checked by the sweep's own ``spec_from_dict``; its message
is shown under the fields.
"""
import json

from PySide import QtGui

from ..document.base import DRIVERS, is_type, study_bodies
from ..gui.common import icon_path
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..output.quantities import format_time, parse_time
from ..solver import ModelError
from ..solver.metrics import COMPONENTS, QUANTITIES, REDUCERS, parse_metric
from ..sweep.spec import DESIGNS, SAMPLERS
from .widgets import (FlowRow, choose_item, fit_side_pane, form_layout, format_value,
                      labelled, wrapped_label)

__all__ = ["SpecForm", "numeric_targets", "metric_text", "VAR_COLUMNS", "MET_COLUMNS"]

VAR_COLUMNS = (QT_TRANSLATE_NOOP("SimPhant", "Target"), QT_TRANSLATE_NOOP("SimPhant", "Name"),
               QT_TRANSLATE_NOOP("SimPhant", "Values"), QT_TRANSLATE_NOOP("SimPhant", "Start"),
               QT_TRANSLATE_NOOP("SimPhant", "Stop"), QT_TRANSLATE_NOOP("SimPhant", "Count"),
               QT_TRANSLATE_NOOP("SimPhant", "Low"), QT_TRANSLATE_NOOP("SimPhant", "High"),
               QT_TRANSLATE_NOOP("SimPhant", "Rel"))
_VAR_KEYS = ("target", "name", "values", "start", "stop", "count", "low", "high", "rel")
MET_COLUMNS = (QT_TRANSLATE_NOOP("SimPhant", "Name"), QT_TRANSLATE_NOOP("SimPhant", "Quantity"),
               QT_TRANSLATE_NOOP("SimPhant", "Object"), QT_TRANSLATE_NOOP("SimPhant", "Component"),
               QT_TRANSLATE_NOOP("SimPhant", "Reducer"), QT_TRANSLATE_NOOP("SimPhant", "Arguments"),
               QT_TRANSLATE_NOOP("SimPhant", "Expression"))
_NUMERIC = ("App::PropertyFloat", "App::PropertyInteger", "App::PropertyLength",
            "App::PropertyDistance", "App::PropertyQuantity", "App::PropertyAngle",
            "App::PropertySpeed", "App::PropertyAcceleration", "App::PropertyForce",
            "App::PropertyMass", "App::PropertyDensity", "App::PropertyPercent",
            "App::PropertyVector", "App::PropertyVectorDistance", "App::PropertyTime",
            "App::PropertyPressure", "App::PropertyStiffness")
#: where a sweep runs: (label, executor)
RUN_PLACES = ((QT_TRANSLATE_NOOP("SimPhant", "In this process"), "in-process"),
              (QT_TRANSLATE_NOOP("SimPhant", "Local cores (Dask)"), "dask"),
              (QT_TRANSLATE_NOOP("SimPhant", "Dask scheduler"), "scheduler"))


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


def _time(text):
    """A time field's seconds ("500 ms", "2": ``parse_time``), None when empty, else the
    text (the sweep's validation names it)."""
    try:
        return parse_time(text) if text.strip() else None
    except ValueError:
        return text.strip()


def _num(text):
    text = text.strip()
    if not text:
        return None
    try:
        v = float(text)
    except ValueError:
        return text                     # the sweep's validation names it
    return int(v) if v.is_integer() and "." not in text and "e" not in text.lower() else v


def _row(*widgets):
    """A row of widgets that wraps in a narrow pane; a text (translated by the caller)
    becomes a label kept on one line with the widget after it."""
    items, widgets = [], list(widgets)
    while widgets:
        w = widgets.pop(0)
        items.append(labelled(w, widgets.pop(0)) if isinstance(w, str) and widgets else w)
    return FlowRow(items)


class SpecForm:
    """Mixin of the panel: the specification form, ``spec_dict`` and ``validate``."""

    def _spec_form(self, spec, dask):
        w = QtGui.QWidget()
        w.setWindowTitle(self.obj.Label)        # the icon says what it is; short: a narrow pane
        w.setWindowIcon(QtGui.QIcon(icon_path("ParameterStudy.svg")))
        lay = QtGui.QVBoxLayout(w)
        self.targets = numeric_targets(self.study)
        self.objects = [o.Name for o in self.study.Group
                        if any(is_type(o, t) for t in ("SimPhant::Body", "SimPhant::Joint",
                                                       "SimPhant::ForceElement") + DRIVERS)]
        lay.addWidget(self._design_fields())
        lay.addWidget(wrapped_label(translate("SimPhant", "Design variables (values in the "
                                              "property's unit, as the property editor shows "
                                              "them)")))
        self.var_table = self._table(VAR_COLUMNS, translate(
            "SimPhant", "Target: OBJECT.PROPERTY[.COMPONENT] (pick or type). Grid: Values '1, "
            "2, 3' or Start/Stop/Count. Sampled designs and the optimiser: Low/High or Rel (+- "
            "fraction of the document's value)"), 0, 220)
        lay.addWidget(self.var_table)
        lay.addLayout(self._add_remove(self.add_variable, self.var_table))
        lay.addWidget(wrapped_label(translate("SimPhant", "Metrics (SI units)")))
        self.met_table = self._table(MET_COLUMNS, translate(
            "SimPhant", "A reducer of a result signal ('at' takes a time [s], 'percentile' a q, "
            "'first_crossing' a level and a direction), or an Expression with arithmetic: "
            "max(spring_force(Suspension)) / 1000"), 1, 130)
        lay.addWidget(self.met_table)
        lay.addLayout(self._add_remove(self.add_metric, self.met_table))
        lay.addWidget(self._goal_fields())
        lay.addWidget(self._run_fields(dask))
        self.error = wrapped_label()
        self.error.setStyleSheet("color: #a40000")
        lay.addWidget(self.error)
        lay.addLayout(self._run_buttons())
        fit_side_pane(w)
        if spec is not None:
            self._fill(spec)
        self._objectives(spec.objectives if spec is not None else [])
        for signal in (self.design.currentIndexChanged, self.count.valueChanged,
                       self.seed.textChanged, self.t_end.textChanged, self.timeout.textChanged,
                       self.objective.currentIndexChanged, self.objective2.currentIndexChanged,
                       self.constraints.textChanged, self.sampler.currentIndexChanged,
                       self.trials.valueChanged, self.var_table.itemChanged,
                       self.executor.currentIndexChanged, self.scheduler.textChanged,
                       self.use_cache.toggled):
            signal.connect(self.validate)
        self.met_table.itemChanged.connect(self._metrics_changed)
        return w

    def _table(self, columns, tip, wide, width):
        t = QtGui.QTableWidget(0, len(columns))
        t.setHorizontalHeaderLabels([translate("SimPhant", c) for c in columns])
        t.setToolTip(tip)
        t.setMinimumHeight(110)
        t.setColumnWidth(wide, width)
        t.horizontalHeader().setStretchLastSection(True)
        return t

    def _design_fields(self):
        box = QtGui.QWidget()
        top = form_layout(box, margins=False)
        self.design = QtGui.QComboBox()
        self.design.addItems(list(DESIGNS))
        self.count = QtGui.QSpinBox()
        self.count.setRange(1, 100000)
        self.count.setValue(10)
        self.seed = QtGui.QLineEdit()
        self.seed.setPlaceholderText(translate("SimPhant", "none"))
        top.addRow(translate("SimPhant", "Design"),
                   _row(self.design, translate("SimPhant", "samples"), self.count,
                        translate("SimPhant", "seed"), self.seed))
        self.sampler = QtGui.QComboBox()
        self.sampler.addItems(list(SAMPLERS))
        self.trials = QtGui.QSpinBox()
        self.trials.setRange(1, 100000)
        self.trials.setValue(40)
        self.parallel = QtGui.QSpinBox()
        self.parallel.setRange(0, 1024)
        self.parallel.setSpecialValueText(translate("SimPhant", "workers"))
        top.addRow(translate("SimPhant", "Optimiser"),
                   _row(self.sampler, translate("SimPhant", "trials"), self.trials,
                        translate("SimPhant", "in flight"), self.parallel))
        return box

    def _goal_fields(self):
        box = QtGui.QWidget()
        form = form_layout(box, margins=False)
        self.objective = QtGui.QComboBox()
        self.objective2 = QtGui.QComboBox()
        self.objective2.setToolTip(translate("SimPhant", "A second objective: the Pareto front "
                                             "of both"))
        form.addRow(translate("SimPhant", "Best variant"),
                    _row(self.objective, translate("SimPhant", "and"), self.objective2))
        self.constraints = QtGui.QLineEdit()
        self.constraints.setPlaceholderText(translate("SimPhant", "e.g. travel <= 0.14; "
                                                      "peak_force < 3000"))
        form.addRow(translate("SimPhant", "Constraints"), self.constraints)
        self.t_end = QtGui.QLineEdit()
        self.t_end.setPlaceholderText(translate("SimPhant", "the study's (%s)")
                                      % format_time(self.study.EndTime))
        self.timeout = QtGui.QLineEdit()
        self.timeout.setPlaceholderText(translate("SimPhant", "none"))
        form.addRow(translate("SimPhant", "End time"),
                    _row(self.t_end, translate("SimPhant", "timeout per variant"),
                         self.timeout))
        return box

    def _run_fields(self, dask):
        box = QtGui.QWidget()
        form = form_layout(box, margins=False)
        self.executor = QtGui.QComboBox()
        for label, data in RUN_PLACES:
            if dask or data == "in-process":
                self.executor.addItem(translate("SimPhant", label), data)
        self.workers = QtGui.QSpinBox()
        self.workers.setRange(1, 256)
        from ..sweep.executors import default_workers
        self.workers.setValue(default_workers())
        self.scheduler = QtGui.QLineEdit()
        self.scheduler.setPlaceholderText(translate("SimPhant", "tcp://host:8786"))
        form.addRow(translate("SimPhant", "Run"),
                    _row(self.executor, translate("SimPhant", "workers"), self.workers,
                         self.scheduler))
        self.use_cache = QtGui.QCheckBox(translate("SimPhant", "Cache results in"))
        self.cache_dir = QtGui.QLineEdit(self._default_cache())
        self.use_cache.setToolTip(translate("SimPhant", "Finished variants are kept under their "
                                            "fingerprint: a rerun simulates only what is new"))
        form.addRow("", _row(self.use_cache, self.cache_dir))
        return box

    def _default_cache(self):
        import os
        path = self.doc.FileName
        base = os.path.splitext(path)[0] if path else os.path.join(
            os.path.expanduser("~"), self.doc.Name)
        return base + "_sweep_cache"

    def _run_buttons(self):
        box = QtGui.QVBoxLayout()
        self.run_button = QtGui.QPushButton(QtGui.QIcon(icon_path("Solve.svg")),
                                            translate("SimPhant", "Run"))
        self.cancel_button = QtGui.QPushButton(translate("SimPhant", "Cancel run"))
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel_run)
        box.addLayout(_row(self.run_button, self.cancel_button))
        self.bar = QtGui.QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setValue(0)
        box.addWidget(self.bar)
        self.status = wrapped_label()
        box.addWidget(self.status)
        return box

    def _fill(self, spec):
        """The fields of a stored specification."""
        self.design.setCurrentIndex(list(DESIGNS).index(spec.design))
        if spec.count:
            self.count.setValue(spec.count)
        if spec.seed is not None:
            self.seed.setText(str(spec.seed))
        opt = spec.optimize or {}
        if opt:
            self.sampler.setCurrentIndex(list(SAMPLERS).index(opt["sampler"]))
            self.trials.setValue(opt["trials"])
            self.parallel.setValue(opt.get("parallel", 0))
            if opt.get("seed") is not None:
                self.seed.setText(str(opt["seed"]))
        for v in spec.variables:
            self.add_variable(v.to_dict())
        for m in spec.metrics:
            self.add_metric(m)
        if "t_end" in spec.settings:
            self.t_end.setText(format_time(spec.settings["t_end"]))
        if spec.timeout is not None:
            self.timeout.setText(format_time(spec.timeout))
        self.constraints.setText("; ".join("%s %s %r" % c for c in spec.constraints))

    def _add_remove(self, add, table):
        a = QtGui.QPushButton(translate("SimPhant", "Add"))
        r = QtGui.QPushButton(translate("SimPhant", "Remove"))
        a.clicked.connect(lambda: (add(), self.validate()))
        r.clicked.connect(lambda: (table.removeRow(max(0, table.currentRow()))
                                   if table.rowCount() else None, self._metrics_changed()))
        return FlowRow((a, r), stretch=False)

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
        """Add a row to the metrics table (``m``: a ``Metric`` or None for a default); an
        expression that is not one reducer of a signal goes into the Expression column."""
        t = self.met_table
        t.blockSignals(True)
        r = t.rowCount()
        t.insertRow(r)
        if m is None:
            m = parse_metric("max(speed(%s))" % self.objects[0] if self.objects
                             else "max(energy_drift)", "metric%d" % (r + 1))
        t.setItem(r, 0, QtGui.QTableWidgetItem(m.name))
        simple = m if m.simple else parse_metric("max(energy_drift)")
        t.setCellWidget(r, 1, self._combo(list(QUANTITIES), simple.quantity))
        t.setCellWidget(r, 2, self._combo(self.objects, simple.target or "", editable=True))
        t.setCellWidget(r, 3, self._combo([""] + list(COMPONENTS), simple.component or ""))
        t.setCellWidget(r, 4, self._combo(list(REDUCERS), simple.reducer))
        t.setItem(r, 5, QtGui.QTableWidgetItem(", ".join(
            json.dumps(a) if isinstance(a, str) else repr(a) for a in simple.args)))
        t.setItem(r, 6, QtGui.QTableWidgetItem("" if m.simple else m.text))
        for c in range(1, 5):               # an expression replaces the fields
            t.cellWidget(r, c).setEnabled(m.simple)
        t.blockSignals(False)
        return r

    def _metrics_changed(self, *args):
        if not hasattr(self, "objective"):
            return
        self._objectives([self.objective.currentData(), self.objective2.currentData()])
        self.validate()

    def _objectives(self, objectives):
        """List "(none)" and minimize / maximize of every metric in both objective combos;
        choose ``objectives`` (``(sense, metric)`` pairs) where they are there."""
        items = [(translate("SimPhant", "(none)"), None)]
        for r in range(self.met_table.rowCount()):
            item = self.met_table.item(r, 0)
            name = item.text().strip() if item else ""
            if name:
                items += [(translate("SimPhant", "minimize %s") % name, ("minimize", name)),
                          (translate("SimPhant", "maximize %s") % name, ("maximize", name))]
        keys = list(objectives or []) + [None, None]
        for box, key in ((self.objective, keys[0]), (self.objective2, keys[1])):
            box.blockSignals(True)
            box.clear()
            for text, data in items:
                box.addItem(text, data)
            choose_item(box, key)
            box.blockSignals(False)

    # ------------------------------------------------------------------ the specification
    def _variables_dict(self):
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
        return variables

    def _metrics_dict(self):
        metrics = {}
        t = self.met_table
        for r in range(t.rowCount()):
            item = t.item(r, 0)
            name = (item.text().strip() if item else "") or "metric%d" % (r + 1)
            expression = t.item(r, 6).text().strip() if t.item(r, 6) else ""
            args = t.item(r, 5).text() if t.item(r, 5) else ""
            metrics[name] = expression or metric_text(
                t.cellWidget(r, 1).currentText(), t.cellWidget(r, 2).currentText().strip(),
                t.cellWidget(r, 3).currentText(), t.cellWidget(r, 4).currentText(), args)
        return metrics

    def _goals_dict(self, d):
        goals = [b.currentData() for b in (self.objective, self.objective2) if b.currentData()]
        if goals:
            objective = {}
            for sense, name in goals:
                objective.setdefault(sense, []).append(name)
            if len(goals) == 1:
                objective = {goals[0][0]: goals[0][1]}
            constraints = [c.strip() for c in self.constraints.text().split(";") if c.strip()]
            if constraints:
                objective["constraints"] = constraints
            d["objective"] = objective
        if d.get("design") == "optimize":
            del d["design"]
            opt = {"sampler": self.sampler.currentText(), "trials": self.trials.value()}
            if self.parallel.value():
                opt["parallel"] = self.parallel.value()
            if "seed" in d:
                opt["seed"] = d.pop("seed")
            d["optimize"] = opt

    def spec_dict(self):
        """The specification the fields describe (a dict, as ``Spec.to_dict``)."""
        d = {"design": self.design.currentText(), "variables": self._variables_dict(),
             "metrics": self._metrics_dict()}
        if d["design"] not in ("grid", "optimize"):
            d["count"] = self.count.value()
        seed = _num(self.seed.text())
        if seed is not None:
            d["seed"] = seed
        t_end = _time(self.t_end.text())
        if t_end is not None:
            d["settings"] = {"t_end": t_end}
        timeout = _time(self.timeout.text())
        if timeout is not None:
            d["timeout"] = timeout
        self._goals_dict(d)
        return d

    def run_problem(self):
        """What is wrong with where the sweep would run ("" when nothing)."""
        from ..sweep.executors import check_address
        if self.executor.currentData() == "scheduler":
            try:
                check_address(self.scheduler.text())
            except ModelError as exc:
                return str(exc)
        if self.use_cache.isChecked() and not self.cache_dir.text().strip():
            return translate("SimPhant", "the result cache needs a directory")
        return ""

    def validate(self, *args):
        """The sweep's validation of the fields: its message under them ("" when valid)."""
        from ..sweep.spec import spec_from_dict
        design = self.design.currentText()
        self.count.setEnabled(design not in ("grid", "optimize"))
        for w in (self.sampler, self.trials, self.parallel):
            w.setEnabled(design == "optimize")
        place = self.executor.currentData()
        self.scheduler.setEnabled(place == "scheduler")
        self.workers.setEnabled(place == "dask")
        self.cache_dir.setEnabled(self.use_cache.isChecked())
        try:
            spec_from_dict(self.spec_dict(), translate("SimPhant", "Parameter study '%s'")
                           % self.obj.Label)
            text = self.run_problem()
        except ModelError as exc:
            text = str(exc)
        except Exception as exc:  # noqa: BLE001 - a malformed metric row
            text = "%s: %s" % (type(exc).__name__, exc)
        self.error.setText(text)
        self.error.setVisible(bool(text))
        self.run_button.setEnabled(not text and not self.running)
        return text

    def run_kwargs(self):
        """Where and how ``sweep.execute`` runs, from the Run fields."""
        place = self.executor.currentData()
        kwargs = dict(progress=self._progress)
        if place == "scheduler":
            kwargs["scheduler"] = self.scheduler.text().strip()
        elif place == "dask":
            kwargs.update(executor="dask", workers=self.workers.value())
        else:
            kwargs.update(executor="in-process", batch_size=1)   # progress after each variant
        if self.use_cache.isChecked():
            kwargs["cache_dir"] = self.cache_dir.text().strip()
        return kwargs
