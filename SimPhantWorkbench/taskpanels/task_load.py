"""Force / Torque panel: constant value or function of t (checked as you type), point, axes.

The function text is validated live with ``document.elements.parse_time_function``
(the parser the solver conversion uses); its error appears under the field.
The point of a force is the CoG or a vertex, edge or face of the body picked in
the 3D view while the panel is open.
"""
import FreeCADGui
from PySide import QtGui

from ..document import picking
from ..gui.common import UNRESOLVED, icon_path, obj_expr
from ..document.elements import parse_time_function
from ..document.joints import reference_of
from ..document.base import is_type
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import Form, PickObserver, PropertyPanel, quantity_value, wrapped_label

__all__ = ["TaskLoad"]


class TaskLoad(PropertyPanel):
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant load")

    def __init__(self, load):
        super().__init__(load)
        self.torque = is_type(load, "SimPhant::Torque")
        unit = "N*m" if self.torque else "N"
        kind = translate("SimPhant", "Torque") if self.torque else translate("SimPhant", "Force")
        f = Form("%s '%s'" % (kind, load.Label),
                 icon_path("Torque.svg" if self.torque else "Force.svg"))
        f.group(translate("SimPhant", "Value"))
        f.row(translate("SimPhant", "On body"),
              wrapped_label(load.Body.Label if load.Body else "-"))
        self.mode_const = QtGui.QRadioButton(translate("SimPhant", "Constant"))
        self.mode_func = QtGui.QRadioButton(translate("SimPhant", "Function of time t [s]"))
        text = (load.TorqueFunction if self.torque else load.ForceFunction).strip()
        (self.mode_func if text else self.mode_const).setChecked(True)
        f.row("", self.mode_const)
        v = load.Torque if self.torque else load.Force
        self.value = f.vector("%s [%s]" % (kind, unit.replace("*", " ")), unit, (v.x, v.y, v.z),
                              kind)
        f.row("", self.mode_func)
        self.func = QtGui.QLineEdit(text)
        self.func.setPlaceholderText(translate("SimPhant", "e.g. 0, 0, 10*sin(2*pi*t)"))
        self.func_error = f.row("x, y, z [%s]" % unit.replace("*", " "), self.func, " ")
        self.func.textChanged.connect(self.check_function)
        self.mode_func.toggled.connect(self.check_function)
        self.frame = QtGui.QComboBox()
        self.frame.addItem(translate("SimPhant", "World axes"), "World")
        self.frame.addItem(translate("SimPhant", "Body axes (turning with the body)"), "Body")
        self.frame.setCurrentIndex(0 if str(load.Frame) == "World" else 1)
        f.row(translate("SimPhant", "Components in"), self.frame)
        self.ref = None
        if not self.torque:
            f.group(translate("SimPhant", "Point of application"))
            ref = reference_of(load.Reference)
            self.ref = (ref[0], ref[1]) if ref and ref[1] else None
            self.point_label = wrapped_label()
            f.row(translate("SimPhant", "Point"), self.point_label)
            cog = QtGui.QPushButton(translate("SimPhant", "Use the centre of gravity"))
            cog.clicked.connect(self.use_cog)
            f.row("", cog)
            self.observer = PickObserver(self.pick_point)
            FreeCADGui.Selection.clearSelection()
            FreeCADGui.Selection.addObserver(self.observer, UNRESOLVED)
            self._show_point()
        f.finish()
        self.form = f.widget
        self.check_function()

    def check_function(self, *args):
        """Validate the function text as it is typed; returns the error text ("" if fine)."""
        if not self.mode_func.isChecked():
            self.func_error.setText("")
            return ""
        try:
            parse_time_function(self.func.text(), "function")
            self.func_error.setStyleSheet("color: #4e9a06")
            self.func_error.setText(translate("SimPhant", "OK"))
            return ""
        except Exception as exc:  # noqa: BLE001 - shown under the field
            self.func_error.setStyleSheet("color: #a40000")
            self.func_error.setText(str(exc))
            return str(exc)

    def _show_point(self):
        if self.ref is None:
            self.point_label.setText(translate("SimPhant", "the centre of gravity (pick a vertex, "
                                               "edge or face of the body in the 3D view to "
                                               "change it)"))
        else:
            self.point_label.setText(translate("SimPhant", "%s.%s (pick another element to "
                                               "change it)") % (self.ref[0].Label, self.ref[1]))

    def pick_point(self, obj, sub):
        body = self.obj.Body
        try:
            _, ref_obj, ref_sub = picking.resolve_pick([body], obj, sub)
        except Exception as exc:  # noqa: BLE001 - explained
            self.point_label.setText(translate("SimPhant", "Refused: %s") % exc)
            return
        self.ref = (ref_obj, ref_sub)
        self._show_point()

    def use_cog(self):
        self.ref = None
        self._show_point()

    def validate(self):
        return self.check_function()

    def assignments(self):
        name = "Torque" if self.torque else "Force"
        func = self.func.text().strip() if self.mode_func.isChecked() else ""
        out = [(name, "App.Vector(%r, %r, %r)" % tuple(quantity_value(b) for b in self.value)),
               (name + "Function", repr(func)),
               ("Frame", repr(self.frame.currentData()))]
        if not self.torque:
            out.append(("Reference", "None" if self.ref is None
                        else "(%s, [%r])" % (obj_expr(self.ref[0]), self.ref[1])))
        return out

    def cleanup(self):
        if not self.torque:
            FreeCADGui.Selection.removeObserver(self.observer)
