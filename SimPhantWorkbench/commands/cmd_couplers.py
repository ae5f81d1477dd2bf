"""One command per coupler kind, generated from the solver registry ``COUPLER_TYPES``.

``SimPhant_Coupler_<kind>`` adds a coupler of that kind between the joints selected in the
tree (two for a gear pair, a belt or a rack and pinion, in order; one for a screw), when
they are joints of the active study of the kinds the coupler needs, and opens its task
panel (``taskpanels.task_coupler``: type, joints and value, checked as you type).
"""

from ..document.base import find_study
from ..solver.couplers import COUPLER_TYPES
from ..gui import common
from ..gui.common import Command, add_and_edit, obj_expr
from ..gui.translation import translate

IMPORT = "from SimPhantWorkbench import factory"


def command_name(kind):
    return "SimPhant_Coupler_" + kind


def selected_joints(kind):
    """(joints, None) of the selected Joints of the active study that ``kind`` couples,
    else (None, the reason)."""
    spec = COUPLER_TYPES[kind]
    return common.selected_study_joints(spec.joints, translate("SimPhant", spec.label))


class CouplerCommand(Command):
    def __init__(self, kind):
        spec = COUPLER_TYPES[kind]
        self.kind = kind
        self.name = command_name(kind)
        self.icon = spec.icon
        self.menu = translate("SimPhant", spec.label)
        self.tooltip = "%s.\n%s" % (translate("SimPhant", spec.doc), translate(
            "SimPhant", "Select the joints of the active study first (%s).")
            % "; ".join(", ".join(k) for k in spec.joints))

    def active(self):
        return not common.in_edit() and selected_joints(self.kind)[0] is not None

    def run(self):
        joints, reason = selected_joints(self.kind)
        if joints is None:
            common.message("warning", self.title(), reason)
            return
        study = find_study(joints[0])
        doc = study.Document
        line = "_coupler = factory.make_coupler(%s, %s, %s, %r)" % (
            obj_expr(study), obj_expr(joints[0]),
            obj_expr(joints[1]) if len(joints) > 1 else "None", self.kind)
        add_and_edit(doc, self.title(), [IMPORT, line], "SimPhant::Coupler")


def commands():
    return [CouplerCommand(k) for k in COUPLER_TYPES]
