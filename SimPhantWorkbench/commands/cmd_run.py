"""Commands that run and show a study: Check, Solve, Playback, Reset."""
import FreeCADGui

from ..document.base import has_result, study_bodies, study_loads
from ..gui import common
from ..gui.common import Command, obj_expr


def _study():
    return common.selection_study()


def check_report(study):
    """The model check as text lines (raises ``ModelError`` naming the object at fault).

    Bodies, joints, loads, the Gruebler DOF count (``Model.degrees_of_freedom``),
    the mechanism check (``System.dof_report``: mobility, redundant equations by
    joint with the joint kinds that remove them, singular, locked or over-driven
    mechanisms) and the assembly residual at t0 (``System.residuals``: |Phi| relative to
    the model size) with the worst joint.
    """
    import numpy as np
    from ..document.conversion import convert
    conv = convert(study)
    model = conv.model
    bodies = study_bodies(study)
    fixed = [b.Label for b in bodies if b.Fixed]
    moving = [b.Label for b in bodies if not b.Fixed]
    lines = ["Study '%s'" % study.Label,
             "Bodies: %d moving (%s), %d fixed (%s)" % (len(moving), ", ".join(moving) or "-",
                                                        len(fixed), ", ".join(fixed) or "-"),
             "Joints: %d%s" % (len(model.joints), (": " + ", ".join(
                 "%s (%s)" % (j.name, j.kind) for j in model.joints)) if model.joints else ""),
             "Loads: %d; gravity %s m/s^2" % (len(study_loads(study)),
                                             np.round(model.gravity, 4).tolist()
                                             if hasattr(model, "gravity") else "-")]
    elements = getattr(model, "force_elements", [])
    if elements:
        lines.append("Force elements: %d: %s" % (len(elements), ", ".join(
            "%s (%s)" % (e.name, e.spec.label.lower()) for e in elements)))
    rows = sum(len(j.spec.rows) for j in model.joints)
    lines.append("DOF (Gruebler): %d = 6 x %d moving bodies - %d constraint equations"
                 % (model.degrees_of_freedom(), len(model.bodies), rows))
    system = model.compile() if model.bodies else None
    if system is not None:
        from ..solver.dof import report_lines
        rep = system.dof_report(name=study.Label)
        lines.append("Mobility: %d (rank of the constraint Jacobian %d of %d equations at t = 0)"
                     % (rep.mobility, rep.rank, rep.equations))
        for key, text in report_lines(rep.to_dict()):
            lines.append("%s: %s" % (key.capitalize(), text))
    if model.joints:
        phi, _ = system.residuals(system.y0)
        worst = int(np.argmax(phi)) if len(phi) else 0
        lines.append("Assembly residual at t = 0: max |Phi| = %.3g (relative to the model size)%s"
                     % (float(phi.max()) if len(phi) else 0.0,
                        ", worst at joint '%s'" % system.joint_name_of_row(worst)
                        if len(phi) and phi.max() > 1e-9 else ""))
        if len(phi) and phi.max() > 1e-6:
            lines.append("The joints are not assembled at t = 0: the solver moves the bodies "
                         "onto them before the run (reported in the result).")
    return lines


class CheckModel(Command):
    name = "SimPhant_Check"
    icon = "Check.svg"
    menu = "Check model"
    tooltip = ("Check the study before solving: bodies, joints, loads, degrees of freedom "
               "(mobility, redundant joints, singular or locked mechanisms) and how far the "
               "joints are from assembled")

    def active(self):
        return _study() is not None

    def run(self):
        study = _study()
        try:
            text = "\n".join(check_report(study))
            kind = "info"
        except Exception as exc:  # noqa: BLE001 - the check's message is the report
            text = "The study cannot be solved as it is:\n%s" % exc
            kind = "warning"
        self.last_report = text
        common.message(kind, "SimPhant: check '%s'" % study.Label, text)


class Solve(Command):
    name = "SimPhant_Solve"
    icon = "Solve.svg"
    menu = "Solve"
    tooltip = ("Run the motion study in the background (FreeCAD stays usable; Cancel in the "
               "progress window); the result is stored in the study")

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
    menu = "Playback"
    tooltip = "Play the study's result back on the document: time slider, play/pause, speed"

    def active(self):
        return has_result(_study()) and not common.in_edit()

    def run(self):
        study = _study()
        FreeCADGui.doCommand("from SimPhantWorkbench.taskpanels import task_playback")
        FreeCADGui.doCommand("_panel = task_playback.show(%s)" % obj_expr(study))


class ResetPlacements(Command):
    name = "SimPhant_Reset"
    icon = "Reset.svg"
    menu = "Reset placements"
    tooltip = "Put the bodies back exactly where they were when the last run started"

    def active(self):
        return has_result(_study()) and not common.in_edit()

    def run(self):
        study = _study()
        common.run_in_transaction(study.Document, "SimPhant: reset placements", [
            "from SimPhantWorkbench import playback",
            "playback.reset(%s)" % obj_expr(study)])


COMMANDS = [CheckModel(), Solve(), Playback(), ResetPlacements()]

