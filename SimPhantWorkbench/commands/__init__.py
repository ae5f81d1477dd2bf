"""GUI commands of the SimPhant workbench (imported only when the GUI is up).

One module per role: ``cmd_model`` (study, bodies, loads, Assembly import),
``cmd_joints`` (one command per registry joint kind, generated), ``cmd_forces``
(one per force-element kind, generated), ``cmd_drivers`` (one per registry joint driver kind,
generated), ``cmd_body_drivers`` (one per body driver kind, generated), ``cmd_couplers`` (one per registry coupler kind, generated),
``cmd_run``
(check, accept current elements, solve, playback, reset), ``results_commands`` (plots, the 3-D viewer, the
interference check, exports), ``cmd_fem`` (Loads to FEM), ``cmd_view`` (picking aids: markers selectable or shown, hide
the other parts). ``register`` adds them all to
FreeCADGui.
"""
from ..gui.translation import QT_TRANSLATE_NOOP


def _driver_kinds():
    """Joint driver kinds, then body driver kinds (``cmd_drivers``, ``cmd_body_drivers``)."""
    from ..solver.drivers import body_driver_kinds, joint_driver_kinds
    return joint_driver_kinds() + body_driver_kinds()


def _coupler_kinds():
    from ..solver.couplers import coupler_kinds
    return coupler_kinds()


#: The menu's name and the toolbars with their commands, in order (FreeCAD translates the
#: names with the context "Workbench").
MENU = QT_TRANSLATE_NOOP("Workbench", "SimPhant")
TOOLBARS = (
    (QT_TRANSLATE_NOOP("Workbench", "SimPhant model"), (
        "SimPhant_NewStudy", "SimPhant_AddBody", "SimPhant_AddFixedBody", "SimPhant_Joints",
        "SimPhant_ForceElements", "SimPhant_AddForce", "SimPhant_AddTorque",
        "SimPhant_ImportAssembly") + tuple("SimPhant_Driver_" + k for k in _driver_kinds())
        + tuple("SimPhant_Coupler_" + k for k in _coupler_kinds())),
    (QT_TRANSLATE_NOOP("Workbench", "SimPhant run"), (
        "SimPhant_Check", "SimPhant_AcceptReferences", "SimPhant_Solve", "SimPhant_Playback", "SimPhant_Reset",
        "SimPhant_NewParameterStudy")),
    (QT_TRANSLATE_NOOP("Workbench", "SimPhant results"), (
        "SimPhant_PlotResults", "SimPhant_ResultsViewer", "SimPhant_CheckInterference",
        "SimPhant_ExportResultsCSV",
        "SimPhant_ExportResultPlots", "SimPhant_ExportAnimation", "SimPhant_LoadsToFEM")),
    (QT_TRANSLATE_NOOP("Workbench", "SimPhant view"), (
        "SimPhant_MarkersSelectable", "SimPhant_ShowMarkers", "SimPhant_HideOthers",
        "SimPhant_ShowHidden")),
)

_registered = []


def all_commands():
    """Every command object, by name (joint commands generated from the registry)."""
    from . import (cmd_body_drivers, cmd_couplers, cmd_drivers, cmd_fem, cmd_forces,
                   cmd_joints, cmd_model, cmd_run, cmd_sweep, cmd_view, results_commands)
    cmds = list(cmd_model.COMMANDS) + cmd_joints.commands() + cmd_forces.commands() \
        + cmd_drivers.commands() + cmd_body_drivers.commands() + cmd_couplers.commands() \
        + list(cmd_run.COMMANDS) + list(cmd_sweep.COMMANDS) + list(cmd_fem.COMMANDS) \
        + list(cmd_view.COMMANDS)
    named = {c.name: c for c in cmds}
    named.update(results_commands.COMMANDS)
    return named


def register():
    """Register the workbench commands with FreeCADGui; return their names in toolbar order."""
    import FreeCADGui
    from . import cmd_forces, cmd_joints
    if not _registered:
        for name, cmd in all_commands().items():
            FreeCADGui.addCommand(name, cmd)
        FreeCADGui.addCommand(cmd_joints.GROUP, cmd_joints.JointGroup())
        FreeCADGui.addCommand(cmd_forces.GROUP, cmd_forces.ForceGroup())
        _registered.append(True)
        from ..gui.following import Observer
        Observer.install()
    return [n for _, names in TOOLBARS for n in names]


def menu():
    """The SimPhant menu: model commands, the joint kinds one by one, then the run commands."""
    from . import cmd_forces, cmd_joints
    from ..solver import JOINT_TYPES
    from ..solver.forces import FORCE_TYPES
    model = [n for n in TOOLBARS[0][1] if n not in (cmd_joints.GROUP, cmd_forces.GROUP)]
    joints = [cmd_joints.command_name(k) for k in JOINT_TYPES]
    forces = [cmd_forces.command_name(k) for k in FORCE_TYPES]
    return model[:3] + ["Separator"] + joints + ["Separator"] + forces + ["Separator"] \
        + model[3:] + [
        "SimPhant_SetActiveStudy", "Separator"] + list(TOOLBARS[1][1]) + [
        "Separator"] + list(TOOLBARS[2][1]) + ["Separator"] + list(TOOLBARS[3][1]) + [
        "Separator", "SimPhant_CheckDependencies"]
