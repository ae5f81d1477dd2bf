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
from ..gui.common import Command, active_study, add_and_edit, obj_expr

GROUP = "SimPhant_ForceElements"
IMPORT = "from SimPhantWorkbench import factory"


def command_name(kind):
    return "SimPhant_Force_" + kind


def _picked_points():
    return [(s.Object, sub) for s in FreeCADGui.Selection.getSelectionEx()
            for sub in s.SubElementNames if sub][:3]


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
        self.menu = spec.label
        how = ("Select a vertex, circle or face on each of two bodies first."
               if spec.attach == "points" else "Select the joint first.")
        self.tooltip = "%s.\n%s" % (spec.doc, how)

    def active(self):
        return active_study() is not None and not common.in_edit()

    def run(self):
        study = active_study()
        doc = study.Document
        if self.spec.attach == "points":
            picks = _picked_points()
            if len(picks) != 2:
                common.message("warning", self.menu, "Select exactly two elements (a vertex, "
                               "circle or face) on two bodies of study '%s'." % study.Label)
                return
            args = "%s, %r, (%s, %r), (%s, %r)" % (obj_expr(study), self.kind,
                                                    obj_expr(picks[0][0]), picks[0][1],
                                                    obj_expr(picks[1][0]), picks[1][1])
        else:
            joint = _picked_joint()
            if joint is None:
                common.message("warning", self.menu, "Select the joint the %s acts on."
                               % self.spec.label.lower())
                return
            args = "%s, %r, joint=%s" % (obj_expr(study), self.kind, obj_expr(joint))
        add_and_edit(doc, "Add SimPhant " + self.spec.label.lower(),
                     [IMPORT, "factory.make_force_element(%s)" % args], "SimPhant::ForceElement")


class ForceGroup:
    """Toolbar drop-down of all force-element commands."""

    def GetCommands(self):
        return tuple(command_name(k) for k in FORCE_TYPES)

    def GetDefaultCommand(self):
        return 0

    def GetResources(self):
        return {"MenuText": "Force elements", "ToolTip": "Add a spring, damper, contractile "
                "force, joint spring or joint actuator to the active study",
                "Pixmap": common.icon_path(FORCE_TYPES[next(iter(FORCE_TYPES))].icon)}

    def IsActive(self):
        return active_study() is not None


def commands():
    return [ForceCommand(k) for k in FORCE_TYPES]
