"""Small widget helpers shared by the task panels (Quantity spin boxes with units) and
what makes every panel fit FreeCAD's side pane at its default width (about 190-260 px):
``form_layout`` (rows whose field does not fit go under their label), ``FlowRow`` (a row
of fields or buttons that wraps onto more lines), ``WrapButton`` (a push button whose
long text wraps) and ``fit_side_pane`` (fields may shrink below the width their range or
longest item asks)."""
import importlib
import types
import weakref

import FreeCADGui
from PySide import QtCore, QtGui

# the shiboken of the PySide FreeCAD runs with (PySide2 on 0.20, PySide2 or 6 on 1.x)
shiboken = importlib.import_module(
    "shiboken" + QtGui.QWidget.__module__.split(".")[0][len("PySide"):])

from ..gui.common import claim_new, close_task, run_in_transaction
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..output.quantities import TIME_UNITS, format_time, parse_time

__all__ = ["TimeBox", "quantity_box", "quantity_value", "set_quantity", "number_box",
           "refill_combo", "choose_item", "format_value", "form_layout", "FlowRow",
           "WrapButton", "labelled", "wrapped_label", "fit_side_pane", "Form", "PropertyPanel",
           "CheckedPanel"]

#: the narrowest a field may get, in average character widths (its range or its longest
#: item would ask for much more: a spin box of +-1e12 with 6 decimals asks ~200 px)
FIELD_CHARS = 7
#: a field beside its label needs this many characters, else it goes under the label
FIELD_ROOM = 18


def _released_when_deleted(box):
    """Let go of ``box``'s Python wrapper when Qt deletes the widget.

    A ``Gui::QuantitySpinBox`` is made by C++ (``UiLoader.createWidget``); PySide does not
    learn when C++ deletes it (with its task panel), and while Python still refers to the
    wrapper (a closed panel not yet collected), the wrapper stays registered for the
    widget's address. The next spin box C++ allocates at that address is then handed that
    dead wrapper: "Internal C++ object (QAbstractSpinBox) already deleted", and the panel
    fails to open. Releasing the wrapper on ``destroyed`` leaves nothing to hand out."""
    ref = weakref.ref(box)

    def release(*args):
        wrapper = ref()
        if wrapper is not None:
            shiboken.invalidate(wrapper)

    box.destroyed.connect(release)


def quantity_box(unit, value=0.0, minimum=-1e12, maximum=1e12, tooltip="", read_only=False):
    """A ``Gui::QuantitySpinBox`` (FreeCAD's unit-aware spin box) showing ``value`` in ``unit``."""
    box = FreeCADGui.UiLoader().createWidget("Gui::QuantitySpinBox")
    _released_when_deleted(box)
    box.setProperty("unit", unit)
    box.setProperty("minimum", minimum)
    box.setProperty("maximum", maximum)
    box.setProperty("rawValue", float(value))
    if tooltip:
        box.setToolTip(tooltip)
    if read_only:
        box.setReadOnly(True)
        box.setButtonSymbols(QtGui.QAbstractSpinBox.NoButtons)
    return box


def quantity_value(box):
    """The value of a quantity box in its unit (float)."""
    v = box.property("rawValue")
    return float(v if v is not None else 0.0)


def set_quantity(box, value):
    box.setProperty("rawValue", float(value))


def number_box(value=0.0, minimum=-1e12, maximum=1e12, decimals=6, suffix="", tooltip=""):
    """A plain number field (``QDoubleSpinBox``) showing ``value``."""
    box = QtGui.QDoubleSpinBox()
    box.setRange(minimum, maximum)
    box.setDecimals(decimals)
    box.setValue(float(value))
    if suffix:
        box.setSuffix(suffix)
    if tooltip:
        box.setToolTip(tooltip)
    return box


class _NarrowForm(QtCore.QObject):
    """Puts every field of a form under its label while the form is no wider than its
    widest label and its widest field (at least ``FIELD_ROOM`` characters) side by side
    (a side pane at its default width), beside it otherwise. (``WrapLongRows`` alone
    does not: its minimum width is that of a label and a field side by side.)"""

    def __init__(self, form, widget):
        super().__init__(widget)
        self.form = form
        widget.installEventFilter(self)

    def side_by_side(self, widget):
        """The width a label and a field of the form need side by side (px)."""
        rows = range(self.form.rowCount())
        widths = {role: [item.minimumSize().width() if role == QtGui.QFormLayout.FieldRole
                         else item.sizeHint().width()
                         for item in (self.form.itemAt(r, role) for r in rows) if item]
                  for role in (QtGui.QFormLayout.LabelRole, QtGui.QFormLayout.FieldRole)}
        field = max(widths[QtGui.QFormLayout.FieldRole] + [
            widget.fontMetrics().averageCharWidth() * FIELD_ROOM])
        margins = self.form.contentsMargins()
        return max(widths[QtGui.QFormLayout.LabelRole] or [0]) + field \
            + max(0, self.form.horizontalSpacing()) + margins.left() + margins.right()

    def eventFilter(self, widget, event):
        if event.type() == QtCore.QEvent.Resize:
            policy = QtGui.QFormLayout.WrapAllRows \
                if widget.width() <= self.side_by_side(widget) \
                else QtGui.QFormLayout.WrapLongRows
            if self.form.rowWrapPolicy() != policy:
                self.form.setRowWrapPolicy(policy)
        return False


def form_layout(widget, margins=True):
    """A ``QFormLayout`` laying out ``widget`` for a side pane: in a narrow pane every
    field goes under its label (``_NarrowForm``), in a wide one beside it unless it does
    not fit; fields take the width there is."""
    form = QtGui.QFormLayout(widget)
    if not margins:
        form.setContentsMargins(0, 0, 0, 0)
    form.setRowWrapPolicy(QtGui.QFormLayout.WrapLongRows)
    form.setFieldGrowthPolicy(QtGui.QFormLayout.AllNonFixedFieldsGrow)
    _NarrowForm(form, widget)
    return form


def fit_side_pane(widget):
    """Let every field in ``widget`` shrink to ``FIELD_CHARS`` characters (a combo box
    then elides its text; its list still shows whole items): a panel is then as narrow
    as its labels and buttons, not as wide as its widest range. Returns ``widget``."""
    chars = widget.fontMetrics().averageCharWidth() * FIELD_CHARS
    for box in widget.findChildren(QtGui.QComboBox):
        box.setSizeAdjustPolicy(QtGui.QComboBox.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(FIELD_CHARS)
    for kind in (QtGui.QAbstractSpinBox, QtGui.QLineEdit):
        for box in widget.findChildren(kind):
            if not isinstance(box.parent(), (QtGui.QAbstractSpinBox, QtGui.QComboBox)):
                box.setMinimumWidth(chars)
    return widget


class FlowRow(QtGui.QLayout):
    """A row of widgets that wraps onto more lines when the pane is narrow (as text
    does; ``whole``: all on one line or one per line, as the x, y, z of a vector). An
    item asks for ``item_width`` px (default: its size hint) on a line; the width left
    on a line is shared by its items (not labels) when ``stretch``. Its minimum width
    is that of its widest item."""

    def __init__(self, widgets=(), item_width=None, stretch=True, whole=False, parent=None):
        super().__init__(parent)
        self.items = []
        self.item_width = item_width
        self.stretch = stretch
        self.whole = whole
        self.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            self.addWidget(QtGui.QLabel(w) if isinstance(w, str) else w)

    def addItem(self, item):
        self.items.append(item)

    def count(self):
        return len(self.items)

    def itemAt(self, i):
        return self.items[i] if 0 <= i < len(self.items) else None

    def takeAt(self, i):
        return self.items.pop(i) if 0 <= i < len(self.items) else None

    def expandingDirections(self):
        return QtCore.Qt.Orientations(0)

    def hasHeightForWidth(self):
        return True

    def heightForWidth(self, width):
        return self._place(QtCore.QRect(0, 0, width, 0), False)

    def setGeometry(self, rect):
        super().setGeometry(rect)
        self._place(rect, True)

    def sizeHint(self):
        items = self._visible()
        gap = self.spacing() * max(0, len(items) - 1)
        return QtCore.QSize(sum(self._want(i) for i in items) + gap,
                            max([i.sizeHint().height() for i in items] or [0]))

    def minimumSize(self):
        items = self._visible()
        return QtCore.QSize(max([i.minimumSize().width() for i in items] or [0]),
                            max([i.minimumSize().height() for i in items] or [0]))

    def spacing(self):
        s = super().spacing()
        return s if s >= 0 else 6

    def _visible(self):
        return [i for i in self.items if not i.isEmpty()]

    def _want(self, item):
        hint = item.sizeHint().width()
        if self.item_width is not None and not isinstance(item.widget(), QtGui.QLabel):
            hint = self.item_width
        return max(item.minimumSize().width(), hint)

    def _lines(self, width):
        items = self._visible()
        if self.whole and sum(self._want(i) for i in items) \
                + self.spacing() * (len(items) - 1) > width:
            return [[(item, min(self._want(item), width))] for item in items]
        lines, line, used = [], [], 0
        for item in items:
            want = min(self._want(item), width)
            if line and used + self.spacing() + want > width:
                lines.append(line)
                line, used = [], 0
            used += (self.spacing() if line else 0) + want
            line.append((item, want))
        return lines + ([line] if line else [])

    def _place(self, rect, apply):
        """Lay the items out in ``rect`` (when ``apply``); returns the height used."""
        y = rect.y()
        for line in self._lines(rect.width()):
            grow = [i for i, _ in line if not isinstance(i.widget(), QtGui.QLabel)]
            spare = rect.width() - sum(w for _, w in line) - self.spacing() * (len(line) - 1)
            extra = spare // len(grow) if self.stretch and grow and spare > 0 else 0
            height = max(i.sizeHint().height() for i, _ in line)
            x = rect.x()
            for item, want in line:
                w = want + (extra if item in grow else 0)
                if apply:
                    item.setGeometry(QtCore.QRect(x, y + (height - item.sizeHint().height())
                                                  // 2, w, item.sizeHint().height()))
                x += w + self.spacing()
            y += height + self.spacing()
        return max(0, y - rect.y() - self.spacing())


def wrapped_label(text=""):
    """A label whose text wraps onto more lines in a narrow pane."""
    label = QtGui.QLabel(text)
    label.setWordWrap(True)
    return label


def labelled(text, widget):
    """``widget`` with the label ``text`` before it, kept together on one line (an item of
    a ``FlowRow``)."""
    pair = QtGui.QWidget()
    h = QtGui.QHBoxLayout(pair)
    h.setContentsMargins(0, 0, 0, 0)
    h.addWidget(QtGui.QLabel(text))
    h.addWidget(widget, 1)
    return pair


class WrapButton(QtGui.QPushButton):
    """A push button whose text wraps onto more lines in a narrow pane."""

    def __init__(self, text="", parent=None):
        super().__init__(parent)
        self.label = QtGui.QLabel(text, self)
        self.label.setWordWrap(True)
        self.label.setAttribute(QtCore.Qt.WA_TransparentForMouseEvents)
        lay = QtGui.QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.label)
        # a push button does not shrink below its size hint (``Minimum``); this one may
        policy = QtGui.QSizePolicy(QtGui.QSizePolicy.Preferred, QtGui.QSizePolicy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def setText(self, text):
        self.label.setText(text)

    def text(self):
        return self.label.text()

    def sizeHint(self):
        return self.layout().sizeHint()

    def minimumSizeHint(self):
        return self.layout().minimumSize()

    def hasHeightForWidth(self):
        return True

    def heightForWidth(self, width):
        return self.layout().totalHeightForWidth(width)


class TimeBox(QtGui.QDoubleSpinBox):
    """A time field: typed in s, ms, us or \u00b5s ("0.1 ms", "100 us", a bare number is
    seconds; ``output.quantities.parse_time``) and shown in the unit that fits with
    enough digits ("1 ms", not "0.00 s"; ``format_time``). ``value()`` is in seconds.
    (FreeCAD's ``Gui::QuantitySpinBox`` on 0.20 knows no "ms" or "us": it kept the
    number and dropped the unit.) The arrows step by one of the unit shown."""

    def __init__(self, value=0.0, minimum=0.0, maximum=1e9, tooltip=""):
        super().__init__()
        self.setDecimals(15)
        # the value changes on Return or leaving the field, never halfway: "5 kg" must not
        # become the 5 s of its first keystroke
        self.setKeyboardTracking(False)
        self.setRange(minimum, maximum)
        self.setValue(float(value))
        self.setToolTip((tooltip + "\n" if tooltip else "")
                        + translate("SimPhant", "Units: s, ms, us (%s); e.g. 0.5 ms")
                        % "\u00b5s")

    def textFromValue(self, value):
        return format_time(value)

    def valueFromText(self, text):
        try:
            return parse_time(text)
        except ValueError:
            return self.value()

    def validate(self, text, pos):
        try:
            v = parse_time(text)
        except ValueError:
            return QtGui.QValidator.Intermediate, text, pos
        ok = self.minimum() <= v <= self.maximum()
        return (QtGui.QValidator.Acceptable if ok else QtGui.QValidator.Intermediate), text, pos

    def fixup(self, text):
        return format_time(self.value())

    def stepBy(self, steps):
        unit = format_time(self.value()).split()[-1]
        self.setValue(self.value() + steps * TIME_UNITS.get(unit, 1.0))


def push_button(text, tooltip, slot):
    """A push button with a tooltip whose ``clicked`` calls ``slot()``."""
    button = QtGui.QPushButton(text)
    button.setToolTip(tooltip)
    button.clicked.connect(lambda *a: slot())
    return button


def refill_combo(box, items):
    """Fill the combo box ``box`` with ``(text, key)`` items, keeping the current key."""
    box.blockSignals(True)
    keep = box.currentData()
    box.clear()
    for text, key in items:
        box.addItem(text, key)
    choose_item(box, keep)
    box.blockSignals(False)


def choose_item(box, key):
    """Make the item of ``key`` current in the combo box ``box`` (the first item when there
    is none): items are told apart by their keys, never by the text shown."""
    same = (lambda k: tuple(k) if isinstance(k, list) else k)    # Qt gives tuples back as lists
    keys = [same(box.itemData(i)) for i in range(box.count())]
    key = same(key)
    box.setCurrentIndex(keys.index(key) if key in keys else 0)


def format_value(v):
    """A table cell's text: "" for None, 6 significant digits for a float."""
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.6g" % v
    return str(v)


class Form:
    """A form layout with a title, an icon and rows; ``widget`` is the panel's form."""

    def __init__(self, title, icon):
        self.widget = QtGui.QWidget()
        self.widget.setWindowTitle(title)
        self.widget.setWindowIcon(QtGui.QIcon(icon))
        self.outer = QtGui.QVBoxLayout(self.widget)
        self.layout = None
        self.group(None)

    def group(self, title):
        box = QtGui.QGroupBox(title) if title else QtGui.QWidget()
        self.layout = form_layout(box)
        self.outer.addWidget(box)
        return box

    def row(self, label, widget, hint=None):
        """A row of ``widget`` after ``label`` (none: the row is the widget's alone),
        with ``hint`` (a wrapped grey text, returned) under it."""
        if hint:
            col = QtGui.QWidget()
            v = QtGui.QVBoxLayout(col)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(widget)
            lab = wrapped_label(hint)
            lab.setStyleSheet("color: #555")
            v.addWidget(lab)
            widget = col
        if label:
            self.layout.addRow(label, widget)
        else:
            self.layout.addRow(widget)
        return lab if hint else None

    def flow(self, label, widgets, item_width=None, whole=True):
        """A row of several ``widgets`` (a ``FlowRow``: all on one line, or one per line
        when the pane is narrow; ``whole=False``: as many on a line as fit)."""
        w = QtGui.QWidget()
        FlowRow(widgets, item_width=item_width, whole=whole, parent=w)
        self.layout.addRow(label, w)
        return w

    def vector(self, label, unit, values, tooltip=""):
        boxes = [quantity_box(unit, v, tooltip="%s %s" % (tooltip, axis))
                 for axis, v in zip("xyz", values)]
        self.flow(label, boxes, item_width=self.widget.fontMetrics().averageCharWidth() * 12)
        return boxes

    def finish(self):
        self.outer.addStretch(1)
        fit_side_pane(self.widget)


class PickObserver:
    """Selection observer of a panel that takes picks in the 3D view: each element clicked
    (top-level object and path, as ``UNRESOLVED`` reports it) goes to ``callback(obj,
    subname)`` once the selection has settled."""

    def __init__(self, callback):
        self.callback = callback

    def addSelection(self, doc, obj_name, sub, pnt):
        import FreeCAD
        obj = FreeCAD.getDocument(doc).getObject(obj_name)
        if obj is not None and sub:
            QtCore.QTimer.singleShot(0, lambda: self.callback(obj, sub))


class PropertyPanel:
    """Task panel that writes properties only on OK, in one transaction (Cancel: no change).
    On an object a command has just added (``gui.common.claim_new``), OK writes into that
    command's undo step and Cancel takes the object back out.
    ``title`` (marked ``QT_TRANSLATE_NOOP("SimPhant", ...)``) heads its messages."""

    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant")
    #: the property panel open now (scripts and tests reach it here)
    current = None

    def __init__(self, obj):
        PropertyPanel.current = self
        self.obj = obj
        self.doc = obj.Document
        self.created = claim_new(obj)

    def getStandardButtons(self):
        return int(QtGui.QDialogButtonBox.Ok | QtGui.QDialogButtonBox.Cancel)

    def assignments(self):
        """``[(property, python expression)]`` to write on OK (subclasses)."""
        return []

    def validate(self):
        """Text of what is wrong, or "" (subclasses)."""
        return ""

    def accept(self):
        problem = self.validate()
        if problem:
            from ..gui.common import message
            message("warning", translate("SimPhant", self.title), problem)
            return False
        from ..gui.common import obj_expr
        lines = ["_obj = %s" % obj_expr(self.obj)]
        lines += ["_obj.%s = %s" % (p, e) for p, e in self.assignments()]
        lines.append("_obj.recompute()")
        ok = run_in_transaction(self.doc, translate("SimPhant", "Edit %s") % self.obj.Label,
                                lines)
        if ok:
            self._close()
        return ok

    def reject(self):
        self._close(keep=False)
        return True

    def _close(self, keep=True):
        self.cleanup()
        close_task(self, keep)

    def cleanup(self):
        pass


class CheckedPanel(PropertyPanel):
    """A ``PropertyPanel`` whose fields are checked as they change by the object's one
    validation function, run on a stand-in of the object (its ``props`` with the
    panel's ``values()`` on top); the verdict shows in ``self.status``, OK is refused
    while it is not "OK", and OK writes ``values()``."""

    #: the object's properties the validation reads
    props = ()

    def values(self):
        """``{property: value}`` the panel holds now (subclasses)."""
        raise NotImplementedError

    def finish_form(self, form):
        """End ``form`` (a ``Form``) with the "Check" row showing the verdict, make it
        the panel's widget and check the values it opens with."""
        self.status = wrapped_label()
        form.row(translate("SimPhant", "Check"), self.status)
        form.finish()
        self.form = form.widget
        self.check()

    def validate_probe(self, probe):
        """Run the object's validation on ``probe``; raises on bad values (subclasses)."""
        raise NotImplementedError

    def check(self, *args):
        """Validate the panel's values; returns the error text ("" if fine)."""
        probe = types.SimpleNamespace(Proxy=getattr(self.obj, "Proxy", None),
                                      **{p: getattr(self.obj, p) for p in self.props})
        for k, v in self.values().items():
            setattr(probe, k, v)
        try:
            self.validate_probe(probe)
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            self.status.setStyleSheet("color: #a40000")
            self.status.setText(str(exc))
            return str(exc)
        self.status.setStyleSheet("color: #4e9a06")
        self.status.setText(translate("SimPhant", "OK"))
        return ""

    def validate(self):
        return self.check()

    def assignments(self):
        return [(k, repr(v)) for k, v in self.values().items()]
