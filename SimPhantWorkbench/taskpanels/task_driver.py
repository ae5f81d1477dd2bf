"""Driver panel: what is driven and its motion, checked as you type.

The driven joint is shown; ``DriverType`` (the joint driver kinds of the registry
``DRIVER_TYPES``) and ``Function`` (``FUNCTION_TYPES``) are chosen from lists; the
parameter fields are the properties of ``objects.driver.PARAMETER_PROPERTIES``, those
the chosen kind and function do not use greyed out: angles in deg and lengths in mm
(quantity boxes), speeds in rpm or mm/s, times in s, ms or us (``TimeBox``), frequency
in Hz, the expression in t (SI). Every change is validated with ``document.elements.driver_data`` -- the one
validation the factory and the conversion use -- on the values in the panel; the
message appears at the bottom and OK is refused while it is not "OK". Nothing is
written before OK (one undo step).
"""

from PySide import QtGui

from ..gui.common import icon_path
from ..document.elements import driver_data
from ..objects.driver import PARAMETER_PROPERTIES
from ..document.base import find_study, study_joints
from ..solver import JOINT_TYPES
from ..solver.drivers import DRIVER_TYPES, FUNCTION_TYPES, joint_driver_kinds
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import (CheckedPanel, Form, TimeBox, number_box, quantity_box, quantity_value,
                      wrapped_label)

__all__ = ["TaskDriver"]

#: the properties of a Driver the validation reads (copied from the object, then overridden)
_PROPS = ("Label", "Joint", "DriverType", "Function", "Angle", "Speed", "EndAngle",
          "AngleAmplitude", "Distance", "Velocity", "EndDistance", "DistanceAmplitude",
          "StartTime", "EndTime", "Frequency", "Phase", "Expression")
#: parameter field: property -> (row label, unit of a quantity box, "time": a time field
#: (s, ms, us), or None: a plain number)
_FIELDS = (("Angle", QT_TRANSLATE_NOOP("SimPhant", "Angle"), "deg"),
           ("EndAngle", QT_TRANSLATE_NOOP("SimPhant", "End angle"), "deg"),
           ("AngleAmplitude", QT_TRANSLATE_NOOP("SimPhant", "Angle amplitude"), "deg"),
           ("Speed", QT_TRANSLATE_NOOP("SimPhant", "Speed [rpm]"), None),
           ("Distance", QT_TRANSLATE_NOOP("SimPhant", "Distance"), "mm"),
           ("EndDistance", QT_TRANSLATE_NOOP("SimPhant", "End distance"), "mm"),
           ("DistanceAmplitude", QT_TRANSLATE_NOOP("SimPhant", "Distance amplitude"), "mm"),
           ("Velocity", QT_TRANSLATE_NOOP("SimPhant", "Velocity [mm/s]"), None),
           ("StartTime", QT_TRANSLATE_NOOP("SimPhant", "Start time"), "time"),
           ("EndTime", QT_TRANSLATE_NOOP("SimPhant", "End time"), "time"),
           ("Frequency", QT_TRANSLATE_NOOP("SimPhant", "Frequency [Hz]"), None),
           ("Phase", QT_TRANSLATE_NOOP("SimPhant", "Phase"), "deg"))


def _number(value):
    return float(getattr(value, "Value", value))


class TaskDriver(CheckedPanel):
    props = _PROPS
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant driver")

    def __init__(self, obj):
        super().__init__(obj)
        spec = DRIVER_TYPES.get(str(obj.DriverType))
        joint = obj.Joint
        f = Form(translate("SimPhant", "Driver '%s'") % obj.Label,
                 icon_path(spec.icon if spec is not None else "Driver_Rotation.svg"))
        f.group(translate("SimPhant", "Driven joint"))
        kind = JOINT_TYPES.get(str(joint.JointType)) if joint is not None else None
        self.joint_label = wrapped_label("%s (%s)" % (joint.Label, translate("SimPhant",
                                                                            kind.label))
                                         if kind is not None else "-")
        f.row(translate("SimPhant", "Joint"), self.joint_label)
        self.kind = QtGui.QComboBox()
        for k in joint_driver_kinds():
            s = DRIVER_TYPES[k]
            self.kind.addItem(translate("SimPhant", "%s (%s joints)")
                              % (translate("SimPhant", s.label), ", ".join(s.joints)), k)
        self.kind.setCurrentIndex(max(0, self.kind.findData(str(obj.DriverType))))
        self.kind.currentIndexChanged.connect(self.check)
        f.row(translate("SimPhant", "Driven"), self.kind)
        f.group(translate("SimPhant", "Motion"))
        self.function = QtGui.QComboBox()
        for name, fs in FUNCTION_TYPES.items():
            self.function.addItem(translate("SimPhant", fs.label), name)
        self.function.setCurrentIndex(max(0, self.function.findData(str(obj.Function))))
        self.function.currentIndexChanged.connect(self.check)
        f.row(translate("SimPhant", "Function"), self.function)
        self.fields = {}
        for prop, label, unit in _FIELDS:
            value = _number(getattr(obj, prop))
            if unit == "time":
                box = TimeBox(value, minimum=-1e9)
                box.valueChanged.connect(self.check)
            elif unit is not None:
                box = quantity_box(unit, value)
                box.valueChanged.connect(self.check)
            else:
                box = number_box(value)
                box.valueChanged.connect(self.check)
            self.fields[prop] = box
            f.row(translate("SimPhant", label), box, translate(
                "SimPhant", "the value, the start or the offset, by the function")
                if prop in ("Angle", "Distance") else None)
        self.expression = QtGui.QLineEdit(str(obj.Expression))
        self.expression.textChanged.connect(self.check)
        self.fields["Expression"] = self.expression
        f.row(translate("SimPhant", "Expression in t [s]"), self.expression,
              translate("SimPhant", "SI (rad or m), e.g. 0.5*sin(2*pi*t)"))
        self.finish_form(f)

    def used(self):
        """The parameter properties of the chosen kind and function."""
        kind, fn = self.kind.currentData(), self.function.currentData()
        return {PARAMETER_PROPERTIES[(kind, p)][0] for p in FUNCTION_TYPES[fn].params}

    def values(self):
        """{property: value} of the panel (the kind, the function and every field)."""
        out = {"DriverType": self.kind.currentData(), "Function": self.function.currentData()}
        for prop, w in self.fields.items():
            if isinstance(w, QtGui.QLineEdit):
                out[prop] = w.text()
            elif isinstance(w, QtGui.QDoubleSpinBox):
                out[prop] = w.value()
            else:
                out[prop] = quantity_value(w)
        return out

    def check(self, *args):
        """Grey out the fields not used, validate the panel's values; returns the error
        text ("" if fine)."""
        used = self.used()
        for prop, w in self.fields.items():
            w.setEnabled(prop in used)
        return super().check()

    def validate_probe(self, probe):
        driver_data(probe, study_joints(find_study(self.obj)))
