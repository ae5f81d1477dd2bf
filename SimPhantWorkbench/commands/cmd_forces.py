"""One command per force-element kind, generated from the solver registry ``FORCE_TYPES``.

A kind added to the registry gets its command (``SimPhant_Force_<kind>``), menu
text, tooltip (the spec's ``doc``) and icon (the spec's ``icon``) without
touching this module. The commands sit in a toolbar drop-down
(``SimPhant_ForceElements``).

Point elements take the two elements picked before (a vertex, a circle edge or a
face on each of two bodies); joint elements take the selected joint. The new
element is selected and its task panel opened to set its stiffness, damping or
value; the factory's validation (``solver.forces.check_element``)
rejects bad input before anything is added.
"""
import FreeCADGui

from ..document.base import is_type
from ..solver.forces import FORCE_TYPES
from ..gui import common
from ..gui.common import Command, active_study, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate

GROUP = "SimPhant_ForceElements"
IMPORT = "from SimPhantWorkbench import factory"


#: what a new element of a kind starts with besides its defaults (in document units, deg
#: or mm), to be edited in the panel that opens: an end stop needs a limit and a stiffness
_START_ARGS = {"joint_stop": ", lower=-90, upper=90, stiffness=1000",
               "contact": ", stiffness=10000"}


def command_name(kind):
    return "SimPhant_Force_" + kind


def _picked_points(study):
    """The selected elements as references on bodies of ``study`` (a click on a part in a
    container or linked from another file resolves to the body's object, as the joint
    panel's picks do), or ``(None, reason)``."""
    from ..document.base import study_bodies
    from ..document.picking import resolve_pick
    bodies = study_bodies(study)
    refs = []
    for obj, sub in [(obj, sub) for obj, sub in common.selected_elements() if sub][:3]:
        try:
            refs.append(resolve_pick(bodies, obj, sub)[1:])
        except Exception as exc:  # noqa: BLE001 - the reason is shown
            return None, str(exc)
    return refs, ""


def _picked_joint():
    for s in FreeCADGui.Selection.getSelectionEx():
        if is_type(s.Object, "SimPhant::Joint"):
            return s.Object
    return None


class ForceCommand(Command):
    def __init__(self, kind):
        spec = FORCE_TYPES[kind]
        self.kind = kind
        self.spec = spec
        self.name = command_name(kind)
        self.icon = spec.icon
        self.menu = translate("SimPhant", spec.label)
        how = (translate("SimPhant", "Select a vertex, circle or face on each of two bodies "
                         "first.") if spec.attach == "points"
               else translate("SimPhant", "Select an element of each of the two bodies "
                              "first.") if spec.attach == "bodies"
               else translate("SimPhant", "Select the joint first."))
        self.tooltip = "%s.\n%s" % (translate("SimPhant", spec.doc), how)

    def active(self):
        return active_study() is not None and not common.in_edit()

    def run(self):
        study = active_study()
        doc = study.Document
        if self.spec.attach in ("points", "bodies"):
            picks, why = _picked_points(study)
            if picks is None or len(picks) != 2:
                common.message("warning", self.title(), why or translate(
                    "SimPhant", "Select exactly two elements (a vertex, circle or face) on two "
                    "bodies of study '%s'.") % study.Label)
                return
            args = "%s, %r, (%s, %r), (%s, %r)%s" % (
                obj_expr(study), self.kind, obj_expr(picks[0][0]), picks[0][1],
                obj_expr(picks[1][0]), picks[1][1], _START_ARGS.get(self.kind, ""))
        else:
            joint = _picked_joint()
            if joint is None:
                common.message("warning", self.title(), translate(
                    "SimPhant", "Select the joint the %s acts on.") % self.title())
                return
            args = "%s, %r, joint=%s%s" % (obj_expr(study), self.kind, obj_expr(joint),
                                           _START_ARGS.get(self.kind, ""))
        common.add_and_edit(doc, self.title(), [IMPORT, "factory.make_force_element(%s)"
                                                % args], "SimPhant::ForceElement")


class ForceGroup:
    """Toolbar drop-down of all force-element commands."""

    def GetCommands(self):
        return tuple(command_name(k) for k in FORCE_TYPES)

    def GetDefaultCommand(self):
        return 0

    def GetResources(self):
        return {"MenuText": QT_TRANSLATE_NOOP("SimPhant_ForceElements", "Force elements"),
                "ToolTip": QT_TRANSLATE_NOOP("SimPhant_ForceElements", "Add a spring, damper, "
                                             "contractile force, joint spring or joint actuator "
                                             "to the active study"),
                "Pixmap": common.icon_path(FORCE_TYPES[next(iter(FORCE_TYPES))].icon)}

    def IsActive(self):
        return active_study() is not None


def commands():
    return [ForceCommand(k) for k in FORCE_TYPES]
