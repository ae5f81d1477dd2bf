"""Coupler panel: the coupled joints, the coupler type and its value, checked as you type.

``CouplerType`` (the registry ``COUPLER_TYPES``) is chosen from a list; the joints are
chosen among the study's joints; the value fields are ``Ratio`` (N2/N1), ``Radius`` and
``Lead`` (mm, quantity boxes), those the chosen type does not use greyed out. Every
change is validated with ``document.couplers.coupler_data`` -- the one validation the
factory and the conversion use -- on the values in the panel; the message appears at the
bottom and OK is refused while it is not "OK". Nothing is written before OK (one undo
step).
"""

from PySide import QtGui

from ..gui.common import icon_path, obj_expr
from ..document.base import find_study, study_joints
from ..document.couplers import COUPLER_VALUE_PROPERTIES, coupler_data
from ..solver.couplers import COUPLER_TYPES
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import CheckedPanel, Form, number_box, quantity_box, quantity_value

__all__ = ["TaskCoupler"]

_PROPS = ("Label", "CouplerType", "Joint1", "Joint2", "Ratio", "Radius", "Lead")


def _number(value):
    return float(getattr(value, "Value", value))


class TaskCoupler(CheckedPanel):
    props = _PROPS
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant coupler")

    def __init__(self, obj):
        super().__init__(obj)
        spec = COUPLER_TYPES.get(str(obj.CouplerType))
        f = Form(translate("SimPhant", "Coupler '%s'") % obj.Label,
                 icon_path(spec.icon if spec is not None else "Coupler_Gear.svg"))
        f.group(translate("SimPhant", "Coupling"))
        self.kind = QtGui.QComboBox()
        for k, s in COUPLER_TYPES.items():
            self.kind.addItem(translate("SimPhant", s.label), k)
        self.kind.setCurrentIndex(max(0, self.kind.findData(str(obj.CouplerType))))
        self.kind.currentIndexChanged.connect(self.check)
        f.row(translate("SimPhant", "Type"), self.kind)
        self.joints = study_joints(find_study(obj))
        self.joint_boxes = []
        for k in (1, 2):
            box = QtGui.QComboBox()
            box.addItem("-", "")
            for j in self.joints:
                box.addItem("%s (%s)" % (j.Label, j.JointType), j.Name)
            current = getattr(obj, "Joint%d" % k)
            box.setCurrentIndex(max(0, box.findData(current.Name if current is not None else "")))
            box.currentIndexChanged.connect(self.check)
            self.joint_boxes.append(box)
            f.row(translate("SimPhant", "Joint %d") % k, box)
        f.group(translate("SimPhant", "Value"))
        self.ratio = number_box(float(obj.Ratio), 0.0, 1e6, 9)
        self.ratio.valueChanged.connect(self.check)
        f.row(translate("SimPhant", "Ratio N2/N1"), self.ratio,
              translate("SimPhant", "tooth counts or pitch radii"))
        self.fields = {"Ratio": self.ratio}
        for prop, label in (("Radius", QT_TRANSLATE_NOOP("SimPhant", "Pitch radius")),
                            ("Lead", QT_TRANSLATE_NOOP("SimPhant", "Lead"))):
            box = quantity_box("mm", _number(getattr(obj, prop)))
            box.valueChanged.connect(self.check)
            self.fields[prop] = box
            f.row(translate("SimPhant", label), box)
        self.finish_form(f)

    def _joint(self, k):
        name = self.joint_boxes[k].currentData()
        return next((j for j in self.joints if j.Name == name), None)

    def values(self):
        """{property: value} of the panel (type, joints, values)."""
        out = {"CouplerType": self.kind.currentData(), "Joint1": self._joint(0),
               "Joint2": self._joint(1), "Ratio": self.ratio.value()}
        for prop in ("Radius", "Lead"):
            out[prop] = quantity_value(self.fields[prop])
        return out

    def check(self, *args):
        """Grey out what the chosen type does not use, validate; returns the error text."""
        spec = COUPLER_TYPES[self.kind.currentData()]
        used = COUPLER_VALUE_PROPERTIES[spec.param][0]
        for prop, w in self.fields.items():
            w.setEnabled(prop == used)
        self.joint_boxes[1].setEnabled(len(spec.joints) > 1)
        return super().check()

    def validate_probe(self, probe):
        coupler_data(probe, study_joints(find_study(self.obj)))

    def assignments(self):
        out = []
        for k, v in self.values().items():
            if k.startswith("Joint"):
                out.append((k, "None" if v is None else obj_expr(v)))
            else:
                out.append((k, repr(v)))
        return out
