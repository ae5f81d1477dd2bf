"""Force-element panel: the kind's parameters (from the registry spec), checked as you type.

Fields are those of the element's kind (``FORCE_TYPES[kind].params``): stiffness and
damping as quantities with units ("10 N/mm", "2 N*mm/deg") or tables, the free length
(or the value at the start), preload, contractile force, the joint DOF, the actuator
value or function of t. Every change is validated with
``document.elements.force_element_params`` -- the one validation the factory and the
conversion use -- on the values in the panel; the message appears at the bottom and
OK is refused while it is not "OK". Nothing is written before OK (one undo step).
"""

from PySide import QtGui

from ..gui.common import icon_path
from ..document.elements import FORCE_UNITS, force_element_params, force_geometry
from ..objects.force_element import DOFS
from ..document.base import find_study, study_bodies
from ..solver.contact import CONTACT_LAWS
from ..solver.forces import FORCE_TYPES, STOP_LAWS
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .widgets import CheckedPanel, Form, number_box, wrapped_label

__all__ = ["TaskForceElement"]

#: property names of the panel's text fields, per spec parameter, and the field's label
_TEXT_FIELDS = {"stiffness": ("Stiffness", "StiffnessTable",
                              QT_TRANSLATE_NOOP("SimPhant", "Stiffness")),
                "damping": ("Damping", "DampingTable", QT_TRANSLATE_NOOP("SimPhant", "Damping"))}
#: the joint degrees of freedom (``objects.force_element.DOFS``) as the list shows them
_DOF_TEXT = {"rotation": QT_TRANSLATE_NOOP("SimPhant", "rotation about the joint z axis"),
             "translation": QT_TRANSLATE_NOOP("SimPhant", "translation along the joint z axis")}
#: properties read by the validation (copied from the object, then overridden)
_PROPS = ("Kind", "Label", "Reference1", "Reference2", "Joint", "Dof", "Stiffness", "Damping",
          "StiffnessTable", "DampingTable", "FreeLengthFromStart", "FreeLength", "Preload",
          "Force", "Value", "ValueFunction", "EnableLower", "Lower", "EnableUpper", "Upper",
          "Exponent", "Penetration", "Law", "Restitution", "RestSpeed", "ContactLaw",
          "ImpactSpeed", "MuStatic", "MuDynamic", "StictionSpeed", "FrictionSpeed",
          "SampleSpacing", "Deflection")
#: an end stop's limits: (switch property, value property, label)
_LIMITS = (("EnableLower", "Lower", QT_TRANSLATE_NOOP("SimPhant", "Lower limit")),
           ("EnableUpper", "Upper", QT_TRANSLATE_NOOP("SimPhant", "Upper limit")))
#: an end stop's laws (``solver.forces.STOP_LAWS``) as the list shows them
_LAW_TEXT = {"compliant": QT_TRANSLATE_NOOP("SimPhant", "compliant (contact force law)"),
             "impulsive": QT_TRANSLATE_NOOP("SimPhant", "impulsive (coefficient of "
                                                        "restitution)")}
#: a contact's normal laws (``solver.contact.CONTACT_LAWS``) as the list shows them
_CONTACT_LAW_TEXT = {"impact": QT_TRANSLATE_NOOP("SimPhant", "impact (as the end stops)"),
                     "hunt_crossley": QT_TRANSLATE_NOOP("SimPhant", "Hunt-Crossley "
                                                                    "(restitution)")}
#: how a contact takes each solid (``document.contact_shapes.describe``)
_SHAPE_TEXT = {"sphere": QT_TRANSLATE_NOOP("SimPhant", "sphere, radius %g mm"),
               "cylinder": QT_TRANSLATE_NOOP("SimPhant", "exact cylinder, radius %g mm, "
                                                         "length %g mm"),
               "convex": QT_TRANSLATE_NOOP("SimPhant", "convex hull of its tessellation")}


class TaskForceElement(CheckedPanel):
    props = _PROPS
    title = QT_TRANSLATE_NOOP("SimPhant", "SimPhant force element")

    def __init__(self, obj):
        super().__init__(obj)
        spec = FORCE_TYPES[str(obj.Kind)]
        self.spec = spec
        names = [p.name for p in spec.params]
        target = (obj.Joint.Label if obj.Joint is not None else "-") if spec.attach == "joint" \
            else " - ".join(r[0].Label if r and r[0] is not None else "-"
                            for r in (obj.Reference1, obj.Reference2))
        label = translate("SimPhant", spec.label)
        f = Form(obj.Label, icon_path(spec.icon))       # the kind heads the group below
        f.group(label)
        f.row(translate("SimPhant", "On joint") if spec.attach == "joint"
              else translate("SimPhant", "Between"), wrapped_label(target))
        self.fields = {}
        units = FORCE_UNITS[force_geometry(obj)]
        if "dof" in names:
            self.dof = self._choice(f, translate("SimPhant", "Degree of freedom"), DOFS,
                                    _DOF_TEXT, obj.Dof)
        self.switches = {}
        if "lower" in names:
            self._stop_fields(f, obj, units)
        for key in ("stiffness", "damping"):
            if key in names:
                prop, table, text = _TEXT_FIELDS[key]
                self._text(f, prop, translate("SimPhant", text), getattr(obj, prop),
                           translate("SimPhant", "e.g. '10 %s'") % units[key])
                if spec.law != "linear":    # an end stop's or a contact's law: no tables
                    continue
                self._text(f, table, translate("SimPhant", "or a table"), getattr(obj, table),
                           translate("SimPhant", "rows 'x, force; ...' [%s, N or N m]; replaces "
                                     "%s when not empty")
                           % (units["length" if key == "stiffness" else "rate"], prop))
        if spec.law == "contact":
            self._contact_fields(f, obj, units)
        if "free_length" in names or "rest" in names:
            self.from_start = QtGui.QCheckBox(translate("SimPhant", "its value at the start"))
            self.from_start.setChecked(bool(obj.FreeLengthFromStart))
            self.from_start.toggled.connect(self.check)
            f.row(translate("SimPhant", "Free length / rest"), self.from_start)
            self._text(f, "FreeLength", translate("SimPhant", "otherwise"), obj.FreeLength)
        for key, prop, label in (("preload", "Preload", QT_TRANSLATE_NOOP("SimPhant",
                                                                          "Preload [N]")),
                                 ("force", "Force", QT_TRANSLATE_NOOP("SimPhant", "Force [N]")),
                                 ("value", "Value", QT_TRANSLATE_NOOP("SimPhant",
                                                                      "Value [N m or N]"))):
            if key in names:
                box = number_box(float(getattr(obj, prop)))
                box.valueChanged.connect(self.check)
                self.fields[prop] = box
                f.row(translate("SimPhant", label), box)
        if "value" in names:
            self._text(f, "ValueFunction", translate("SimPhant", "or a function of t [s]"),
                       obj.ValueFunction, translate("SimPhant", "e.g. 2*sin(2*pi*t); replaces "
                                                    "Value when not empty"))
        self.finish_form(f)

    def _stop_fields(self, f, obj, units):
        """An end stop's limits (a switch and a quantity each), exponent and penetration."""
        for switch, prop, label in _LIMITS:
            box = QtGui.QCheckBox(translate("SimPhant", label))
            box.setChecked(bool(getattr(obj, switch)))
            box.toggled.connect(self.check)
            self.switches[switch] = box
            f.row(translate("SimPhant", "Limit"), box)
            self._text(f, prop, translate("SimPhant", "at (e.g. '30 %s')") % units["length"],
                       getattr(obj, prop))
        self._number(f, "Exponent", translate("SimPhant", "Force exponent e (k p^e)"),
                     obj.Exponent, 1.0, 10.0)
        self._text(f, "Penetration", translate("SimPhant", "Full damping depth"),
                   obj.Penetration, translate("SimPhant", "e.g. 0.1 %s; the damping grows from "
                                              "zero at first touch") % units["length"])
        self.law = self._choice(f, translate("SimPhant", "Law"), STOP_LAWS, _LAW_TEXT, obj.Law)
        self._number(f, "Restitution", translate("SimPhant", "Coefficient of restitution e"),
                     obj.Restitution, 0.0, 1.0)
        self._text(f, "RestSpeed", translate("SimPhant", "Rests below the speed"),
                   obj.RestSpeed, translate("SimPhant", "impulsive: e.g. 1 %s; slower impacts "
                                            "are held by the contact law") % units["rate"])

    def _contact_fields(self, f, obj, units):
        """How the contact takes each solid; its exponent, full damping depth, law,
        friction and sampling."""
        from ..document.contact_shapes import describe
        #: the lines telling how the contact takes its two solids
        self.solids_seen = []
        for ref, label in ((obj.Reference1, QT_TRANSLATE_NOOP("SimPhant", "First solid")),
                           (obj.Reference2, QT_TRANSLATE_NOOP("SimPhant", "Second solid"))):
            seen = describe(ref[0]) if ref and ref[0] is not None else None
            if seen is not None:
                kind, size = seen[0], tuple(x for x in seen[1:] if x is not None)
                text = "%s: %s" % (ref[0].Label, translate("SimPhant", _SHAPE_TEXT[kind]) % size)
                self.solids_seen.append(text)
                f.row(translate("SimPhant", label), wrapped_label(text))
        self._number(f, "Exponent", translate("SimPhant", "Force exponent e (k p^e)"),
                     obj.Exponent, 1.0, 10.0)
        self._text(f, "Penetration", translate("SimPhant", "Full damping depth"),
                   obj.Penetration, translate("SimPhant", "e.g. 0.1 %s") % units["length"])
        self.contact_law = self._choice(f, translate("SimPhant", "Law"), CONTACT_LAWS,
                                        _CONTACT_LAW_TEXT, obj.ContactLaw)
        self._number(f, "Restitution", translate("SimPhant", "Coefficient of restitution e"),
                     obj.Restitution, 0.0, 1.0)
        self._text(f, "ImpactSpeed", translate("SimPhant", "at the impact speed"),
                   obj.ImpactSpeed, translate("SimPhant", "Hunt-Crossley: e.g. 1000 %s")
                   % units["rate"])
        self._number(f, "MuStatic", translate("SimPhant", "Static friction coefficient"),
                     obj.MuStatic, 0.0, 10.0)
        self._number(f, "MuDynamic", translate("SimPhant", "Dynamic friction coefficient"),
                     obj.MuDynamic, 0.0, 10.0)
        self._text(f, "StictionSpeed", translate("SimPhant", "Stiction below the speed"),
                   obj.StictionSpeed, translate("SimPhant", "e.g. 0.1 %s") % units["rate"])
        self._text(f, "FrictionSpeed", translate("SimPhant", "Dynamic friction above"),
                   obj.FrictionSpeed, translate("SimPhant", "e.g. 1 %s") % units["rate"])
        self._text(f, "SampleSpacing", translate("SimPhant", "Sample spacing on edges"),
                   obj.SampleSpacing, translate("SimPhant", "first solid: e.g. 2 %s")
                   % units["length"])
        self._text(f, "Deflection", translate("SimPhant", "Tessellation deflection"),
                   obj.Deflection, translate("SimPhant", "e.g. 0.05 %s") % units["length"])

    def _choice(self, form, label, values, texts, current):
        """A list of ``values`` (shown as the translated ``texts``), at ``current``."""
        box = QtGui.QComboBox()
        for v in values:
            box.addItem(translate("SimPhant", texts.get(v, v)), v)
        box.setCurrentIndex(list(values).index(str(current)))
        box.currentIndexChanged.connect(self.check)
        form.row(label, box)
        return box

    def _number(self, form, prop, label, value, low, high):
        box = number_box(float(value), low, high, 3)
        box.valueChanged.connect(self.check)
        self.fields[prop] = box
        form.row(label, box)

    def _text(self, form, prop, label, value, hint=None):
        edit = QtGui.QLineEdit(str(value))
        edit.textChanged.connect(self.check)
        self.fields[prop] = edit
        form.row(label, edit, hint)

    def values(self):
        """{property: value} of the panel's fields."""
        out = {}
        for prop, w in self.fields.items():
            out[prop] = w.text() if isinstance(w, QtGui.QLineEdit) else w.value()
        if hasattr(self, "dof"):
            out["Dof"] = self.dof.currentData()
        if hasattr(self, "law"):
            out["Law"] = self.law.currentData()
        if hasattr(self, "contact_law"):
            out["ContactLaw"] = self.contact_law.currentData()
        if hasattr(self, "from_start"):
            out["FreeLengthFromStart"] = self.from_start.isChecked()
        for prop, box in self.switches.items():
            out[prop] = box.isChecked()
        return out

    def validate_probe(self, probe):
        force_element_params(probe, study_bodies(find_study(self.obj)))
