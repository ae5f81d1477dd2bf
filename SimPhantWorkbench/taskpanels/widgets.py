"""Small widget helpers shared by the task panels (Quantity spin boxes with units)."""
import importlib
import types
import weakref

import FreeCADGui
from PySide import QtGui

# the shiboken of the PySide FreeCAD runs with (PySide2 on 0.20, PySide2 or 6 on 1.x)
shiboken = importlib.import_module(
    "shiboken" + QtGui.QWidget.__module__.split(".")[0][len("PySide"):])

from ..gui.common import claim_new, close_task, run_in_transaction
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..output.quantities import TIME_UNITS, format_time, parse_time

__all__ = ["TimeBox", "quantity_box", "quantity_value", "set_quantity", "refill_combo", "choose_item",
           "format_value", "Form", "PropertyPanel", "CheckedPanel"]


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
        self.layout = QtGui.QFormLayout(box)
        self.outer.addWidget(box)
        return box

    def row(self, label, widget, hint=None):
        if hint:
            col = QtGui.QWidget()
            v = QtGui.QVBoxLayout(col)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(widget)
            lab = QtGui.QLabel(hint)
            lab.setWordWrap(True)
            lab.setStyleSheet("color: #555")
            v.addWidget(lab)
            self.layout.addRow(label, col)
            return lab
        self.layout.addRow(label, widget)
        return None

    def vector(self, label, unit, values, tooltip=""):
        w = QtGui.QWidget()
        h = QtGui.QHBoxLayout(w)
        h.setContentsMargins(0, 0, 0, 0)
        boxes = []
        for axis, v in zip("xyz", values):
            b = quantity_box(unit, v, tooltip="%s %s" % (tooltip, axis))
            boxes.append(b)
            h.addWidget(b)
        self.layout.addRow(label, w)
        return boxes

    def finish(self):
        self.outer.addStretch(1)


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
        self.status = QtGui.QLabel()
        self.status.setWordWrap(True)
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
