"""One command per joint driver kind, generated from the solver registry ``DRIVER_TYPES``
(``joint_driver_kinds``; the body drivers have theirs in ``cmd_body_drivers``).

``SimPhant_Driver_<kind>`` adds a driver of that kind (a motor at constant speed, an
actuator at constant velocity, both 0 until edited) to the joint selected in the tree
or in the 3D view (one of its frames' bodies' elements is not enough: the joint
object itself), when the joint has that degree of freedom, and opens its task panel
(``taskpanels.task_driver``: function and values, checked as you type).
"""

from ..document.base import find_study
from ..solver.drivers import DRIVER_TYPES, joint_driver_kinds
from ..gui import common
from ..gui.common import Command, obj_expr
from ..gui.translation import translate

IMPORT = "from SimPhantWorkbench import factory"


def command_name(kind):
    return "SimPhant_Driver_" + kind


def selected_joint(kind):
    """(joint, None) of the selected Joint of the active study that ``kind`` can drive,
    else (None, the reason)."""
    spec = DRIVER_TYPES[kind]
    joints, reason = common.selected_study_joints((spec.joints,),
                                                  translate("SimPhant", spec.label))
    return (joints[0] if joints else None), reason


class DriverCommand(Command):
    def __init__(self, kind):
        spec = DRIVER_TYPES[kind]
        self.kind = kind
        self.name = command_name(kind)
        self.icon = spec.icon
        self.menu = translate("SimPhant", spec.label)
        self.tooltip = "%s.\n%s" % (translate("SimPhant", spec.doc), translate(
            "SimPhant", "Select a joint of the active study first (%s).")
            % ", ".join(spec.joints))

    def active(self):
        return not common.in_edit() and selected_joint(self.kind)[0] is not None

    def run(self):
        joint, reason = selected_joint(self.kind)
        if joint is None:
            common.message("warning", self.title(), reason)
            return
        study = find_study(joint)
        doc = study.Document
        line = "_driver = factory.make_driver(%s, %s, %r, 'ramp')" % (
            obj_expr(study), obj_expr(joint), self.kind)
        common.add_and_edit(doc, self.title(), [IMPORT, line], "SimPhant::Driver")


def commands():
    return [DriverCommand(k) for k in joint_driver_kinds()]
