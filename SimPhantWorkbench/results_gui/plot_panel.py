"""The plot panel: curves of any result quantity against time, in a Qt widget.

``PlotPanel(study)`` (or ``PlotPanel(result=...)``) reads the study's stored
Result, so it works on a reopened document without solving again. On its left:
the quantity (``quantities.QUANTITIES``), the frame, the components (x, y, z,
magnitude...), the units (FreeCAD's unit schema preference by default) and the
bodies / joints / force elements / drivers to plot (several at once; "From selection" takes the objects
selected in the tree or the 3-D view, "Add picked vertex" a vertex of a body
for the point quantities). On its right: a Matplotlib canvas (Qt backend,
through FreeCAD's PySide) with axis labels in the chosen units, a legend with
the objects' labels, a cursor line at the playback time, a dotted line at each end
stop contact (``Result.stop_events()``), labelled with the element, and a shaded band
over each interval of interference of the check on show (``set_spans``).

For the playback: ``set_time(t)`` moves the cursor; clicking the plot calls
the ``time_clicked`` listeners (and emits the ``timeClicked`` Qt signal) with
the time clicked. ``export_png``/``export_svg``/``export_csv`` write what is
shown. ``open_plot_panel(study)`` docks a panel in FreeCAD's main window.
"""
import csv

import numpy as np
from PySide import QtCore, QtGui      # FreeCAD's PySide (QtGui holds the widgets), before
from matplotlib.backends.backend_qt5agg import FigureCanvasQTAgg  # Matplotlib picks its binding
from matplotlib.figure import Figure

from ..output import quantities as Q
from ..output.events import draw_event_marks, draw_span_marks, result_events
from ..gui.translation import QT_TRANSLATE_NOOP, translate

__all__ = ["PlotPanel", "open_plot_panel", "panels_of", "targets_of", "element_labels",
           "show_time"]

_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#7f7f7f")
_STYLES = ("-", "--", "-.", ":")
_PREFERENCE = "preference"
#: exported plots: size [inch] and resolution [dots per inch]
EXPORT_SIZE = (8.0, 5.0)
EXPORT_DPI = 100
_open = []


#: what the list calls each kind of target
_KIND_LABELS = {"body": QT_TRANSLATE_NOOP("SimPhant", "Body"),
                "joint": QT_TRANSLATE_NOOP("SimPhant", "Joint"),
                "point": QT_TRANSLATE_NOOP("SimPhant", "Point"),
                "element": QT_TRANSLATE_NOOP("SimPhant", "Force element"),
                "driver": QT_TRANSLATE_NOOP("SimPhant", "Driver")}
#: target kind -> the quantity "From selection" switches to
_DEFAULT_QUANTITY = {"body": "position", "joint": "reaction_force", "element": "element_force",
                     "driver": "driver_effort"}


def member_targets(study, result):
    """``{document object Name: (panel key, Target)}`` of the study's force elements and
    drivers that ``result`` has (by their solver names,
    ``document.conversion.solver_names``)."""
    from ..document.conversion import solver_names
    from ..document.base import study_drivers, study_members
    out = {}
    for kind, objs, names in (
            ("element", study_members(study, "SimPhant::ForceElement"),
             getattr(result, "force_names", [])),
            ("driver", study_drivers(study), getattr(result, "driver_names", []))):
        for name, key in solver_names(objs).items():
            if key in names:
                obj = study.Document.getObject(name)
                out[name] = ("%s:%s" % (kind, key), Q.Target(kind, key, obj.Label, None))
    return out


def element_labels(study, result):
    """``{result element name: document label}`` of the study's force elements (for the
    end stops' events), empty without a study."""
    if study is None:
        return {}
    return {t.key: t.label for _, t in member_targets(study, result).values()
            if t.kind == "element"}


def targets_of(study, result):
    """``{panel key: Target}`` of the study's moving bodies and joints (their result
    names) and force elements and drivers (``"element:<name>"``, ``"driver:<name>"``) in
    ``result``."""
    from .. import runner
    from ..document.base import study_bodies, study_joints
    out = {}
    for body in study_bodies(study):
        if body.Fixed:
            continue
        try:
            key = runner.result_key(study, body)
        except Exception:  # noqa: BLE001 - not in this result (added after the run)
            continue
        out[key] = Q.Target("body", key, body.Label, None)
    for joint in study_joints(study):
        try:
            key = runner.result_key(study, joint)
        except Exception:  # noqa: BLE001
            continue
        out[key] = Q.Target("joint", key, joint.Label, None)
    out.update(member_targets(study, result).values())
    return out


class PlotPanel(QtGui.QWidget):
    """See the module docstring."""

    timeClicked = QtCore.Signal(float)

    def __init__(self, study=None, result=None, parent=None, targets=None,
                 joint_frames=None):
        super().__init__(parent)
        self.study = study
        if result is None:
            from .. import runner
            if study is None:
                raise ValueError(translate("SimPhant", "PlotPanel needs a study or a result"))
            result = runner.get_result(study)
            if result is None:
                raise ValueError(translate("SimPhant", "Study '%s' has no result yet: run it "
                                           "first") % study.Label)
        self.result = result
        if targets is None:
            targets = targets_of(study, result) if study is not None else \
                {**{n: Q.Target("body", n, n, None) for n in result.body_names},
                 **{n: Q.Target("joint", n, n, None) for n in result.joint_names},
                 **{"element:" + n: Q.Target("element", n, n, None)
                    for n in getattr(result, "force_names", [])},
                 **{"driver:" + n: Q.Target("driver", n, n, None)
                    for n in getattr(result, "driver_names", [])}}
        self.targets = dict(targets)
        self.points = {}                    # label -> Target("point", ...)
        self._joint_frames = joint_frames
        self.time_clicked = []
        self.curves = []
        self.lines = []
        self.time = float(result.t[0]) if len(result.t) else 0.0
        self.events = result_events(result)           # the end stops' contacts, marked
        self.event_labels = element_labels(study, result)
        self.event_lines = []
        self.spans = []                     # [(start, end, text)]: interference, shaded
        self.span_patches = []
        self._build()
        self.setWindowTitle(translate("SimPhant", "SimPhant plot: %s") % study.Label if study
                            else translate("SimPhant", "SimPhant plot"))
        self._quantity_changed()

    # ---------------------------------------------------------- layout
    def _build(self):
        outer = QtGui.QHBoxLayout(self)
        side = QtGui.QVBoxLayout()
        if self.study is not None:
            from ..gui.outdated import note_label
            self.outdated_note = note_label(self.study)
            self.outdated_note.setMaximumWidth(290)
            side.addWidget(self.outdated_note)
            from ..gui.outdated import listeners

            def status_changed(changed=None):
                if changed == self.study:
                    self.redraw()
            listeners.append(status_changed)
            self.destroyed.connect(lambda *_: listeners.remove(status_changed)
                                   if status_changed in listeners else None)
        form = QtGui.QFormLayout()
        self.quantity_box = QtGui.QComboBox()
        for q in Q.QUANTITIES.values():
            self.quantity_box.addItem(translate("SimPhant", q.label), q.key)
        self.quantity_box.currentIndexChanged.connect(self._quantity_changed)
        form.addRow(translate("SimPhant", "Quantity"), self.quantity_box)
        self.frame_box = QtGui.QComboBox()
        self.frame_box.currentIndexChanged.connect(self.redraw)
        form.addRow(translate("SimPhant", "Frame"), self.frame_box)
        self.units_box = QtGui.QComboBox()
        self.units_box.addItem(translate("SimPhant", "Preferences (%s)")
                               % Q.preferred_unit_system(), _PREFERENCE)
        for name in Q.UNIT_SYSTEMS:
            self.units_box.addItem(name, name)
        self.units_box.currentIndexChanged.connect(self.redraw)
        form.addRow(translate("SimPhant", "Units"), self.units_box)
        side.addLayout(form)
        self.component_row = QtGui.QHBoxLayout()
        self.component_boxes = {}
        side.addLayout(self.component_row)
        side.addWidget(QtGui.QLabel(translate("SimPhant", "Objects")))
        self.object_list = QtGui.QListWidget()
        self.object_list.setSelectionMode(QtGui.QAbstractItemView.ExtendedSelection)
        self.object_list.itemSelectionChanged.connect(self.redraw)
        side.addWidget(self.object_list, 1)
        row = QtGui.QHBoxLayout()
        self.selection_button = QtGui.QPushButton(translate("SimPhant", "From selection"))
        self.selection_button.setToolTip(translate("SimPhant", "Plot the bodies / joints "
                                                   "selected in the tree or the 3-D view"))
        self.selection_button.clicked.connect(self.select_from_gui)
        row.addWidget(self.selection_button)
        self.vertex_button = QtGui.QPushButton(translate("SimPhant", "Add picked vertex"))
        self.vertex_button.setToolTip(translate("SimPhant", "Add the vertex selected in the "
                                                "3-D view as a point of its body (point "
                                                "position / velocity)"))
        self.vertex_button.clicked.connect(self.add_point_from_gui)
        row.addWidget(self.vertex_button)
        side.addLayout(row)
        row = QtGui.QHBoxLayout()
        for kind, fn in (("PNG", self._ask_png), ("SVG", self._ask_svg), ("CSV", self._ask_csv)):
            b = QtGui.QPushButton(kind + "...")
            b.setToolTip(translate("SimPhant", "Export the curves shown as %s") % kind)
            b.clicked.connect(fn)
            row.addWidget(b)
        side.addLayout(row)
        box = QtGui.QWidget()
        box.setLayout(side)
        box.setMaximumWidth(290)
        outer.addWidget(box)
        self.figure = Figure(figsize=(6.4, 4.2), dpi=100)
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumSize(320, 240)
        self.axes = self.figure.add_subplot(111)
        self.cursor = None
        self.canvas.mpl_connect("button_press_event", self._clicked)
        outer.addWidget(self.canvas, 1)

    # ---------------------------------------------------------- state
    @property
    def quantity(self):
        return self.quantity_box.currentData()

    @property
    def frame(self):
        return self.frame_box.currentData()

    @property
    def units(self):
        u = self.units_box.currentData()
        return Q.preferred_unit_system() if u == _PREFERENCE else u

    @property
    def components(self):
        return [c for c, b in self.component_boxes.items() if b.isChecked()]

    def selected_targets(self):
        return [it.data(QtCore.Qt.UserRole) for it in self.object_list.selectedItems()]

    def _all_targets(self):
        return list(self.targets.values()) + list(self.points.values())

    def _quantity_changed(self, *_):
        q = Q.QUANTITIES[self.quantity]
        selected = {t.key if t.kind != "point" else t.label
                    for t in self.selected_targets()}
        self._hold = True
        try:
            self.frame_box.clear()
            for f in q.frames:
                self.frame_box.addItem(translate("SimPhant", Q.FRAME_LABELS[f]), f)
            while self.component_row.count():
                w = self.component_row.takeAt(0).widget()
                if w is not None:
                    w.hide()
                    w.setParent(None)
            self.component_boxes = {}
            for c in q.components:
                b = QtGui.QCheckBox(c if c != "magnitude" else translate("SimPhant", "|mag|"))
                b.setChecked(c != "magnitude")
                b.toggled.connect(self.redraw)
                self.component_row.addWidget(b)
                self.component_boxes[c] = b
            self.object_list.clear()
            for t in self._all_targets():
                if t.kind != q.owner:
                    continue
                kind = translate("SimPhant", _KIND_LABELS[t.kind])
                it = QtGui.QListWidgetItem("%s: %s" % (kind, t.label))
                it.setData(QtCore.Qt.UserRole, t)
                self.object_list.addItem(it)
                if (t.key if t.kind != "point" else t.label) in selected:
                    it.setSelected(True)
            self.object_list.setEnabled(q.owner != "system")
            if q.owner != "system" and not self.object_list.selectedItems() and \
                    self.object_list.count():
                self.object_list.item(0).setSelected(True)
        finally:
            self._hold = False
        self.redraw()

    def select(self, quantity, objects=(), components=None, frame=None, units=None):
        """Show ``quantity`` for ``objects`` (result names, labels or document objects);
        ``components``/``frame``/``units`` as in ``output.quantities.curves``. Returns the
        curves."""
        k = self.quantity_box.findData(quantity)
        if k < 0:
            raise ValueError(translate("SimPhant", "unknown quantity %r") % (quantity,))
        self._hold = True
        try:
            self.quantity_box.setCurrentIndex(k)
            self._quantity_changed()
            self._hold = True
            if frame is not None:
                j = self.frame_box.findData(frame)
                if j < 0:
                    raise ValueError(translate("SimPhant", "%s has no frame %r")
                                     % (quantity, frame))
                self.frame_box.setCurrentIndex(j)
            if units is not None:
                j = self.units_box.findData(units)
                if j < 0:
                    raise ValueError(translate("SimPhant", "unknown unit system %r") % (units,))
                self.units_box.setCurrentIndex(j)
            if components is not None:
                for c, b in self.component_boxes.items():
                    b.setChecked(c in components)
            if objects:
                wanted = [self._key_of(o) for o in objects]
                self.object_list.clearSelection()
                for i in range(self.object_list.count()):
                    it = self.object_list.item(i)
                    t = it.data(QtCore.Qt.UserRole)
                    if t.key in wanted or t.label in wanted:
                        it.setSelected(True)
        finally:
            self._hold = False
        self.redraw()
        return self.curves

    def _key_of(self, obj):
        if isinstance(obj, str):
            return obj
        if self.study is not None:
            from .. import runner
            member = member_targets(self.study, self.result).get(obj.Name)
            if member is not None:
                return member[1].key
            return runner.result_key(self.study, obj)
        return getattr(obj, "Label", str(obj))

    def add_point(self, body, local_point, label=None):
        """Add a point of body ``body`` (result name), ``local_point`` [m] in its own frame
        about its CoG, to the targets of the point quantities."""
        target = self.targets.get(body)
        if target is None or target.kind != "body":
            raise ValueError(translate("SimPhant", "'%s' is not a moving body of the result")
                             % (body,))
        label = label or "%s point %d" % (target.label, len(self.points) + 1)
        self.points[label] = Q.Target("point", body, label,
                                      np.asarray(local_point, dtype=float))
        if Q.QUANTITIES[self.quantity].owner == "point":
            self._quantity_changed()
        return self.points[label]

    # ---------------------------------------------------------- FreeCAD selection
    def select_from_gui(self):
        """Select the list entries of the bodies / joints selected in FreeCAD."""
        import FreeCADGui
        keys = set()
        for sel in FreeCADGui.Selection.getSelectionEx():
            keys |= self._keys_of_document_object(sel.Object)
        if not keys:
            return []
        owner = Q.QUANTITIES[self.quantity].owner
        kinds = {self.targets[k].kind for k in keys}
        if owner not in kinds:
            for kind in ("joint", "element", "driver", "body"):
                if kind in kinds:
                    self.select(_DEFAULT_QUANTITY[kind])
                    break
        wanted = {(self.targets[k].kind, self.targets[k].key) for k in keys}
        self.object_list.clearSelection()
        for i in range(self.object_list.count()):
            it = self.object_list.item(i)
            t = it.data(QtCore.Qt.UserRole)
            if (t.kind, t.key) in wanted:
                it.setSelected(True)
        return sorted(keys)

    def _keys_of_document_object(self, obj):
        from .. import runner
        out = set()
        if self.study is None:
            return out
        member = member_targets(self.study, self.result).get(obj.Name)
        if member is not None:
            return {member[0]} & set(self.targets)
        try:
            out.add(runner.result_key(self.study, obj))
        except Exception:  # noqa: BLE001 - not a body/joint/shape of the result
            for parent in getattr(obj, "InListRecursive", ()):
                try:
                    out.add(runner.result_key(self.study, parent))
                    break
                except Exception:  # noqa: BLE001
                    continue
        return {k for k in out if k in self.targets}

    def add_point_from_gui(self):
        """Add the vertex selected in the 3-D view as a point of its (moving) body and
        show its position; returns the new ``Target`` or None."""
        import FreeCADGui
        from ..document.bodies import body_data
        from ..document.units import M_PER_MM
        for sel in FreeCADGui.Selection.getSelectionEx():
            keys = self._keys_of_document_object(sel.Object)
            bodies = [k for k in keys if self.targets[k].kind == "body"]
            if not bodies:
                continue
            for name, sub in zip(sel.SubElementNames, sel.SubObjects):
                if not name.startswith("Vertex"):
                    continue
                key = bodies[0]
                body = self._body_object(key)
                bd = body_data(body, warn=False)
                p = np.array([sub.Point.x, sub.Point.y, sub.Point.z]) * M_PER_MM
                local = bd.frame[1].T @ (p - np.asarray(bd.mass_props.cog, dtype=float))
                t = self.add_point(key, local, "%s %s" % (body.Label, name))
                self.select("point_position", [t.label])
                return t
        return None

    def _body_object(self, key):
        from .. import runner
        from ..document.base import study_bodies
        for body in study_bodies(self.study):
            if not body.Fixed and runner.result_key(self.study, body) == key:
                return body
        raise KeyError(key)

    # ---------------------------------------------------------- drawing
    def _context(self):
        if self._joint_frames is None and self.study is not None:
            from ..document.scene import joint_frames
            self._joint_frames = joint_frames(self.study, self.result)
        return {"joint_frames": self._joint_frames or {}}

    def redraw(self, *_):
        if getattr(self, "_hold", False):
            return
        q = Q.QUANTITIES[self.quantity]
        targets = self.selected_targets()
        ax = self.axes
        ax.clear()
        self.lines = []
        self.curves = []
        try:
            if q.owner == "system" or targets:
                self.curves = Q.curves(self.result, q.key, targets, self.components,
                                       self.frame, self.units, self._context())
        except ValueError as exc:
            ax.text(0.5, 0.5, str(exc), ha="center", va="center", wrap=True,
                    transform=ax.transAxes)
        comps = list(q.components)
        order = []
        for c in self.curves:
            if c.target not in order:
                order.append(c.target)
        several = len(order) > 1
        for c in self.curves:
            k = comps.index(c.component)
            if several:         # a colour per object, a line style per component
                color = _COLORS[order.index(c.target) % len(_COLORS)]
                style = _STYLES[k % len(_STYLES)]
            else:               # a colour per component, the magnitude in black
                color = "k" if c.component == "magnitude" else _COLORS[k % len(_COLORS)]
                style = ":" if c.component == "magnitude" else "-"
            line, = ax.plot(c.t, c.y, linestyle=style, color=color, label=c.label,
                            lw=1.8 if c.component == "magnitude" else 1.4)
            self.lines.append(line)
        units = []
        for c in self.curves:
            if c.unit not in units:
                units.append(c.unit)
        if not units and not callable(q.dimension):
            units = [Q.unit_of(q.dimension, self.units)[0]]
        unit = ", ".join(units) or "-"
        what = translate("SimPhant", q.label)
        frame = translate("SimPhant", Q.FRAME_LABELS[self.frame])
        if "joint" in q.frames and q.owner == "joint":
            what = translate("SimPhant", "%s on body 2, %s") % (what, frame)
        elif len(q.frames) > 1:
            what = "%s, %s" % (what, frame)
        ax.set_ylabel("%s [%s]" % (what, unit))
        ax.set_xlabel(translate("SimPhant", "time [s]"))
        if q.key == "constraint_violation":
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        if self.lines:
            ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      borderaxespad=0.0)
        if len(self.result.t):
            ax.set_xlim(self.result.t[0], self.result.t[-1])
        self.event_lines = draw_event_marks(ax, self.events, self.event_labels)
        self.span_patches = draw_span_marks(ax, self.spans)
        self.cursor = ax.axvline(self.time, color="#d62728", lw=1.0, alpha=0.8)
        title = self.study.Label if self.study is not None else ""
        title = ("%s: " % title if title else "") + translate("SimPhant", q.label)
        if self.study is not None:
            from ..gui.outdated import outdated_note
            if outdated_note(self.study):
                title += " " + translate("SimPhant", "(outdated)")
        ax.set_title(title, fontsize="medium")
        self.figure.tight_layout()
        self.canvas.draw_idle()

    def set_spans(self, spans):
        """Shade the time spans ``[(start [s], end [s], text)]`` (the intervals of
        interference; replacing those shaded) and redraw."""
        self.spans = list(spans)
        self.redraw()

    # ---------------------------------------------------------- time
    def set_time(self, t):
        """Move the cursor line to time ``t`` [s] (the playback's time)."""
        self.time = float(t)
        if self.cursor is not None:
            self.cursor.set_xdata([self.time, self.time])
            self.canvas.draw_idle()

    def _clicked(self, event):
        if event.inaxes is not self.axes or event.xdata is None or event.button != 1:
            return
        t = float(np.clip(event.xdata, self.result.t[0], self.result.t[-1]))
        self.set_time(t)
        for f in list(self.time_clicked):
            f(t)
        self.timeClicked.emit(t)

    # ---------------------------------------------------------- export
    def _save(self, path, fmt, size, dpi):
        """Save the figure at ``size`` [inch] whatever the widget's shape, then restore."""
        old = self.figure.get_size_inches().copy()
        try:
            self.figure.set_size_inches(size, forward=False)
            self.figure.tight_layout()
            self.figure.savefig(path, format=fmt, dpi=dpi)
        finally:
            self.figure.set_size_inches(old, forward=False)
            self.figure.tight_layout()
            self.canvas.draw_idle()
        return path

    def export_png(self, path, size=EXPORT_SIZE, dpi=EXPORT_DPI):
        """The plot as PNG, ``size`` [inch] at ``dpi`` (default 800 x 500 px)."""
        return self._save(path, "png", size, dpi)

    def export_svg(self, path, size=EXPORT_SIZE):
        return self._save(path, "svg", size, EXPORT_DPI)

    def export_csv(self, path):
        """The curves shown: ``time [s]`` then one column per curve, ``"<label> [unit]"``."""
        if not self.curves:
            raise ValueError(translate("SimPhant", "no curves to export: pick an object and a "
                                       "component"))
        header = ["time [s]"] + ["%s [%s]" % (c.label, c.unit) for c in self.curves]
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            for k in range(len(self.result.t)):
                w.writerow([repr(float(self.result.t[k]))]
                           + [repr(float(c.y[k])) for c in self.curves])
        return path

    def _ask(self, kind, fn):
        path, _ = QtGui.QFileDialog.getSaveFileName(
            self, translate("SimPhant", "Export plot as %s") % kind, "plot.%s" % kind.lower(),
            "%s (*.%s)" % (kind, kind.lower()))
        if path:
            fn(path)

    def _ask_png(self):
        self._ask("PNG", self.export_png)

    def _ask_svg(self):
        self._ask("SVG", self.export_svg)

    def _ask_csv(self):
        self._ask("CSV", self.export_csv)


#: the timeline playback panel open now (its ``study``, ``closed`` and ``seek(t)``), set
#: by the panel itself: a click on a plot of its study moves it
timeline = None


def show_time(study, t):
    """Show the frame of ``study``'s result nearest to time ``t`` [s] in the document: the
    timeline open on the study moves there (slider, readout), else ``playback.apply_frame``
    moves the bodies."""
    import FreeCADGui
    from .. import playback
    tl = timeline
    if tl is not None and not tl.closed and tl.study == study:
        tl.seek(t)
    else:
        playback.apply_frame(study, float(t))
    FreeCADGui.updateGui()


def panels_of(study):
    """The plot panels open now on ``study`` (the playback moves their cursor lines)."""
    return [p for p in _open if getattr(p, "study", None) == study]


def open_plot_panel(study, area="right", show_clicked_frame=True):
    """Dock a ``PlotPanel`` of ``study`` in FreeCAD's main window; returns the panel.

    The playback moves the cursor with ``panel.set_time(t)`` and listens to
    ``panel.time_clicked`` (or the ``timeClicked`` signal). With
    ``show_clicked_frame`` a click also shows that frame in the document
    (``playback.apply_frame``; ``playback.reset`` puts the parts back).
    """
    import FreeCADGui
    panel = PlotPanel(study)
    mw = FreeCADGui.getMainWindow()
    dock = QtGui.QDockWidget(translate("SimPhant", "SimPhant plot: %s") % study.Label, mw)
    dock.setObjectName("SimPhantPlot_%s" % study.Name)
    dock.setWidget(panel)
    dock.setAttribute(QtCore.Qt.WA_DeleteOnClose)
    where = {"right": QtCore.Qt.RightDockWidgetArea, "bottom": QtCore.Qt.BottomDockWidgetArea,
             "left": QtCore.Qt.LeftDockWidgetArea}[area]
    mw.addDockWidget(where, dock)
    dock.show()
    panel.dock = dock
    if show_clicked_frame:
        panel.time_clicked.append(lambda t: show_time(study, t))
    _open.append(panel)
    dock.destroyed.connect(lambda *_: _open.remove(panel) if panel in _open else None)
    from .interference_view import time_spans
    if time_spans(study):
        panel.set_spans(time_spans(study))
    panel.select_from_gui()
    return panel
