"""Body driver panel: the picked elements and the prescribed motions, checked as you type.

The picks of the driver's kind (``document.body_drivers.BODY_DRIVER_FORMS``) are listed
with the element each holds; the one chosen with its button takes the next vertex, edge
or face clicked in the 3D view (``document.picking.resolve_pick``, as the joint panel),
and sets the body it lies on (``pick_values``). Each motion of the kind (x, y, z or one)
has a ``Function`` (``FUNCTION_TYPES``) and the parameter fields of
``document.body_drivers.PARAMETER_STEMS``, labelled with their document units (mm, deg,
mm/s ...; ``parameter_unit``), those the function does not use greyed out. Every change is
validated with ``body_driver_data`` -- the validation the factory and the conversion use --
on the panel's values; the message names the driver and OK is refused while it is not
"OK". Nothing is written before OK (one undo step).
"""
import FreeCADGui
from PySide import QtGui

from ..document import picking
from ..document.base import find_study, study_bodies
from ..document.body_drivers import (BODY_DRIVER_FORMS, PARAMETER_STEMS, body_driver_data,
                                     motion_properties, motion_stems, motion_suffixes,
                                     parameter_unit, pick_values)
from ..document.links import reference_of
from ..gui.common import UNRESOLVED, icon_path, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from ..solver.drivers import DRIVER_TYPES, FUNCTION_TYPES
from .widgets import CheckedPanel, Form, PickObserver, number_box, wrapped_label

__all__ = ["TaskBodyDriver"]

#: the field label of each parameter stem (``PARAMETER_STEMS``), before its unit
_STEM_LABELS = {
    "Value": QT_TRANSLATE_NOOP("SimPhant", "Value"),
    "EndValue": QT_TRANSLATE_NOOP("SimPhant", "End value"),
    "Amplitude": QT_TRANSLATE_NOOP("SimPhant", "Amplitude"),
    "Rate": QT_TRANSLATE_NOOP("SimPhant", "Rate"),
    "StartTime": QT_TRANSLATE_NOOP("SimPhant", "Start time"),
    "EndTime": QT_TRANSLATE_NOOP("SimPhant", "End time"),
    "Frequency": QT_TRANSLATE_NOOP("SimPhant", "Frequency"),
    "Phase": QT_TRANSLATE_NOOP("SimPhant", "Phase"),
    "Expression": QT_TRANSLATE_NOOP("SimPhant", "Expression"),
}
#: the button of each pick property
_PICK_LABELS = {"Reference": QT_TRANSLATE_NOOP("SimPhant", "Pick the body's element"),
                "Axis": QT_TRANSLATE_NOOP("SimPhant", "Pick the axis")}


def _param_of(stem):
    """A function parameter stored in property ``stem`` (for its unit)."""
    return next(p for p, (s, _) in PARAMETER_STEMS.items() if s == stem)


class TaskBodyDriver(CheckedPanel):
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant driver")

    def __init__(self, obj):
        self.kind = str(obj.DriverType)
        self.picks = BODY_DRIVER_FORMS[self.kind].picks
        self.suffixes = motion_suffixes(self.kind)
        self.props = ("Label", "DriverType", "Body", "Body1", "Reference", "Axis",
                      "ReferenceSignatures") + tuple(
                          p for s in self.suffixes for p in motion_properties(s))
        super().__init__(obj)
        spec = DRIVER_TYPES[self.kind]
        f = Form(translate("SimPhant", "Driver '%s'") % obj.Label, icon_path(spec.icon))
        f.group(translate("SimPhant", "Driven"))
        f.row(translate("SimPhant", "Kind"), wrapped_label(translate("SimPhant", spec.label)))
        f.group(translate("SimPhant", "Picked in the 3D view"))
        self.sides = {"Body": obj.Body, "Body1": obj.Body1}
        self.refs = {}
        self.pick_labels = {}
        self.pick_buttons = QtGui.QButtonGroup()
        for i, pick in enumerate(self.picks):
            ref = reference_of(getattr(obj, pick.prop))
            self.refs[pick.prop] = (ref[0], [ref[1]]) if ref is not None and ref[1] else None
            button = QtGui.QRadioButton(translate("SimPhant", _PICK_LABELS.get(pick.prop,
                                                                              pick.prop)))
            button.setToolTip(translate("SimPhant", pick.doc))
            button.setChecked(i == 0)
            self.pick_buttons.addButton(button, i)
            self.pick_labels[pick.prop] = wrapped_label()
            f.row(button, self.pick_labels[pick.prop], translate("SimPhant", pick.doc))
        self.fields = {}
        self.functions = {}
        for suffix in self.suffixes:
            f.group(translate("SimPhant", "Motion %s") % suffix.lower() if suffix
                    else translate("SimPhant", "Motion"))
            combo = QtGui.QComboBox()
            for name, fs in FUNCTION_TYPES.items():
                combo.addItem(translate("SimPhant", fs.label), name)
            combo.setCurrentIndex(max(0, combo.findData(str(getattr(obj, "Function" + suffix)))))
            combo.currentIndexChanged.connect(self.check)
            self.functions[suffix] = combo
            f.row(translate("SimPhant", "Function"), combo)
            for stem in motion_stems():
                prop = stem + suffix
                _, unit, _ = parameter_unit(self.kind, _param_of(stem))
                if unit == "text":
                    box = QtGui.QLineEdit(str(getattr(obj, prop)))
                    box.textChanged.connect(self.check)
                    label = translate("SimPhant", "%s in t [s], SI") % translate(
                        "SimPhant", _STEM_LABELS[stem])
                else:
                    box = number_box(float(getattr(obj, prop)))
                    box.valueChanged.connect(self.check)
                    label = "%s [%s]" % (translate("SimPhant", _STEM_LABELS[stem]), unit)
                self.fields[prop] = box
                f.row(label, box)
        self._show_picks()
        self.observer = PickObserver(self.picked)
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addObserver(self.observer, UNRESOLVED)
        self.finish_form(f)

    # --- picks
    def _show_picks(self):
        for pick in self.picks:
            ref = self.refs.get(pick.prop)
            self.pick_labels[pick.prop].setText(
                "%s.%s" % (ref[0].Label, ref[1][0]) if ref is not None else "-")

    def picked(self, obj, sub):
        """A click in the 3D view: the element goes to the chosen pick (and names its body)."""
        pick = self.picks[max(0, self.pick_buttons.checkedId())]
        try:
            body, ref_obj, ref_sub = picking.resolve_pick(
                study_bodies(find_study(self.obj)), obj, sub)
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            self.status.setStyleSheet("color: #a40000")
            self.status.setText(translate("SimPhant", "Refused: %s") % exc)
            return
        for prop, value in pick_values(pick, body, ref_obj, ref_sub).items():
            (self.refs if prop == pick.prop else self.sides)[prop] = value
        self._show_picks()
        self.check()

    # --- values
    def used(self):
        """The parameter properties the chosen functions use."""
        out = set()
        for suffix, combo in self.functions.items():
            for p in FUNCTION_TYPES[combo.currentData()].params:
                out.add(PARAMETER_STEMS[p][0] + suffix)
        return out

    def values(self):
        out = dict(self.sides)
        out.update(self.refs)
        for suffix, combo in self.functions.items():
            out["Function" + suffix] = combo.currentData()
        for prop, w in self.fields.items():
            out[prop] = w.text() if isinstance(w, QtGui.QLineEdit) else w.value()
        return out

    def check(self, *args):
        used = self.used()
        for prop, w in self.fields.items():
            w.setEnabled(prop in used)
        return super().check()

    def validate_probe(self, probe):
        body_driver_data(probe, study_bodies(find_study(self.obj)))

    def assignments(self):
        out = []
        for k, v in self.values().items():
            if k in self.sides:
                out.append((k, "None" if v is None else obj_expr(v)))
            elif k in self.refs:
                out.append((k, "None" if v is None else "(%s, %r)" % (obj_expr(v[0]), v[1])))
            else:
                out.append((k, repr(v)))
        return out

    def cleanup(self):
        FreeCADGui.Selection.removeObserver(self.observer)
