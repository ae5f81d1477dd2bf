"""Commands that run and show a study: Check, Accept current elements, Solve, Playback, Reset;
Check dependencies."""
import FreeCADGui

from ..document.base import has_result
from ..gui import common
from ..gui.common import Command, obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate


def _study():
    return common.selection_study()


def check_report(study):
    """The lines of the mechanism check of ``study`` (``run.check``: bodies, joints, loads,
    force elements, the Gruebler count, the mobility with the redundant equations by joint
    and the joint kinds that remove them, singular, locked or over-driven mechanisms, how
    far the joints are from assembled at t0), for the Check model dialog. ``ModelError``
    when the study cannot be run as it is (``run.prepare``)."""
    from ..run import prepare
    from ..run.check import fact_lines, model_facts
    facts = model_facts(prepare(study))
    return [translate("SimPhant", "Study '%s'") % study.Label] + [
        "%s: %s" % (key[0].upper() + key[1:], text) for key, text in fact_lines(facts)]


class CheckModel(Command):
    name = "SimPhant_Check"
    needs_solver = True
    icon = "Check.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_Check", "Check model")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_Check", "Check the study before solving: bodies, "
                                "joints, loads, degrees of freedom (mobility, redundant joints, "
                                "singular or locked mechanisms) and how far the joints are from "
                                "assembled")

    def active(self):
        return _study() is not None

    def run(self):
        study = _study()
        try:
            text = "\n".join(check_report(study))
            kind = "info"
        except Exception as exc:  # noqa: BLE001 - the check's message is the report
            text = translate("SimPhant", "The study cannot be solved as it is:\n%s") % exc
            kind = "warning"
        self.last_report = text
        common.message(kind, translate("SimPhant", "SimPhant: check '%s'") % study.Label, text)


def _accepting():
    """The selected objects whose references Accept current elements takes: joints, loads
    and force elements (the objects that keep signatures), and studies."""
    from ..document.base import STUDY, is_type
    from ..document.signatures import SIGNATURES
    return [o for o in common.selected_objects() if is_type(o, STUDY) or hasattr(o, SIGNATURES)]


class AcceptReferences(Command):
    name = "SimPhant_AcceptReferences"
    icon = "AcceptReferences.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_AcceptReferences", "Accept current elements")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_AcceptReferences", "When a referenced face, edge "
                                "or vertex was changed on purpose (a pin made larger) and "
                                "Check model or Solve refuses it: take the references of the "
                                "selected joints, loads and force elements (or of every member "
                                "of the selected study) as they are now, in one undo step")

    def active(self):
        return bool(_accepting()) and not common.in_edit()

    def run(self):
        from ..document.signatures import accepting_owners
        objs = _accepting()
        owners = accepting_owners(objs)
        if not owners:
            return
        common.run_in_transaction(
            owners[0].Document, translate("SimPhant", "Accept current elements of %s")
            % ", ".join(o.Label for o in owners),
            ["from SimPhantWorkbench import runner",
             "runner.accept_references([%s])" % ", ".join(obj_expr(o) for o in objs)])


class Solve(Command):
    name = "SimPhant_Solve"
    needs_solver = True
    icon = "Solve.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_Solve", "Solve")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_Solve", "Run the motion study in the background "
                                "(FreeCAD stays usable; Cancel in the progress window); the "
                                "result is stored in the study")

    def active(self):
        from ..gui.solve_job import current_job
        study = _study()
        return study is not None and current_job(study) is None and not common.in_edit()

    def run(self):
        study = _study()
        FreeCADGui.doCommand("from SimPhantWorkbench.gui import solve_job")
        FreeCADGui.doCommand("_job = solve_job.start(%s)" % obj_expr(study))


class Playback(Command):
    name = "SimPhant_Playback"
    icon = "Playback.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_Playback", "Playback")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_Playback", "Play the study's result back on the "
                                "document: time slider, play/pause, speed")

    def active(self):
        return has_result(_study()) and not common.in_edit()

    def run(self):
        study = _study()
        from ..gui.outdated import confirm_use
        if not confirm_use(study, translate("SimPhant", "Play back")):
            return
        FreeCADGui.doCommand("from SimPhantWorkbench.taskpanels import task_playback")
        FreeCADGui.doCommand("_panel = task_playback.show(%s)" % obj_expr(study))


class ResetPlacements(Command):
    name = "SimPhant_Reset"
    icon = "Reset.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_Reset", "Reset placements")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_Reset", "Put the bodies back exactly where they were "
                                "when the last run started")

    def active(self):
        return has_result(_study()) and not common.in_edit()

    def run(self):
        study = _study()
        common.run_in_transaction(study.Document, self.title(), [
            "from SimPhantWorkbench import playback",
            "playback.reset(%s)" % obj_expr(study)])


class CheckDependencies(Command):
    name = "SimPhant_CheckDependencies"
    icon = "SimPhant.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_CheckDependencies", "Check dependencies")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_CheckDependencies", "Check what the solver needs in "
                                "FreeCAD's Python (numpy, scipy, numba, llvmlite: present, "
                                "versions, agreeing) and show the commands that install what "
                                "is missing")

    def active(self):
        return True

    def run(self):
        FreeCADGui.doCommand("from SimPhantWorkbench.gui import dependencies")
        FreeCADGui.doCommand("dependencies.show_dialog(dependencies.recheck())")


COMMANDS = [CheckModel(), AcceptReferences(), Solve(), Playback(), ResetPlacements(), CheckDependencies()]

