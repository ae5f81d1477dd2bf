"""One command per joint kind, generated from the solver registry ``JOINT_TYPES``.

A kind added to the registry gets its command (``SimPhant_Joint_<kind>``), menu
text, tooltip (the spec's ``doc`` and what its references need) and icon (the
spec's ``icon``; the generic joint icon while that file does not exist)
without touching this module. The commands sit in a toolbar drop-down
(``SimPhant_Joints``), as the Assembly workbench groups its joints.

Each command opens the joint task panel; a vertex, edge or face picked on each
of two bodies before (the selection) fills its references.
"""
import FreeCADGui

from ..document import picking
from ..document.base import study_bodies
from ..solver import JOINT_TYPES
from ..gui import common
from ..gui.common import Command, active_study
from ..gui.translation import QT_TRANSLATE_NOOP, translate

GROUP = "SimPhant_Joints"


def command_name(kind):
    return "SimPhant_Joint_" + kind


class JointCommand(Command):
    def __init__(self, kind):
        spec = JOINT_TYPES[kind]
        self.kind = kind
        self.name = command_name(kind)
        self.icon = spec.icon
        self.menu = translate("SimPhant", "%s joint") % translate("SimPhant", spec.label)
        self.tooltip = "%s.\n%s" % (translate("SimPhant", spec.doc), picking.needs_text(kind))

    def active(self):
        study = active_study()
        return study is not None and len(study_bodies(study)) >= 2 and not common.in_edit()

    def run(self):
        from ..taskpanels.task_joint import TaskJoint
        study = active_study()
        preselected = [(obj, sub) for obj, sub in common.selected_elements() if sub][:2]
        panel = TaskJoint(study, kind=self.kind)
        FreeCADGui.Control.showDialog(panel)
        for obj, sub in preselected:
            panel.picked(obj, sub)


class JointGroup:
    """Toolbar drop-down of all joint commands (the first is the default)."""

    def GetCommands(self):
        return tuple(command_name(k) for k in JOINT_TYPES)

    def GetDefaultCommand(self):
        return list(JOINT_TYPES).index("revolute") if "revolute" in JOINT_TYPES else 0

    def GetResources(self):
        return {"MenuText": QT_TRANSLATE_NOOP("SimPhant_Joints", "Joints"),
                "ToolTip": QT_TRANSLATE_NOOP("SimPhant_Joints", "Add a joint between two bodies "
                                             "of the active study: pick a vertex, edge or face "
                                             "on each"),
                "Pixmap": common.icon_path("Joint.svg")}

    def IsActive(self):
        return active_study() is not None


def commands():
    return [JointCommand(k) for k in JOINT_TYPES]
