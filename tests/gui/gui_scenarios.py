"""Runs inside the real FreeCAD GUI (``freecad gui_scenarios.py`` under Xvfb).

Drives the SimPhant workbench the way a user does -- commands, selections,
task panels, Solve, playback -- and writes what it observed as JSON to
``$SIMPHANT_GUI_OUT/results.json`` (screenshots next to it, or into
``$SIMPHANT_SCREENSHOT_DIR`` when set). ``test_gui_workflow.py`` runs it once
and checks the observations; every step records its error instead of
stopping the others.
"""
import json
import os
import time
import traceback
import xml.etree.ElementTree as ET

import sys

import FreeCAD
import FreeCADGui
from PySide import QtCore, QtGui

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gui_events import pump  # noqa: E402

OUT = os.environ["SIMPHANT_GUI_OUT"]
SHOTS = os.environ.get("SIMPHANT_SCREENSHOT_DIR") or OUT
R = {"errors": {}}
messages = []


def step(name):
    def deco(fn):
        def run():
            try:
                fn()
                R.setdefault("steps_ok", []).append(name)
            except Exception:  # noqa: BLE001 - recorded, the other steps go on
                R["errors"][name] = traceback.format_exc()
        run.name = name
        STEPS.append(run)
        return fn
    return deco


STEPS = []


def pl_tuple(pl):
    return tuple(pl.Base) + tuple(pl.Rotation.Q)


def pl_close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol * max(1.0, abs(x)) for x, y in zip(pl_tuple(a), pl_tuple(b)))


def hook(kind, title, text):
    messages.append((kind, title, text))
    return answers.pop(0) if (kind == "question" and answers) else (kind == "question")


answers = []


def content(doc):
    """The document's serialised content: every file of its .FCStd archive, byte by byte
    (not the archive itself, whose entries carry the time of the dump)."""
    if not hasattr(doc, "dumpContent"):
        return None
    import io
    import zipfile
    with zipfile.ZipFile(io.BytesIO(doc.dumpContent())) as z:
        return {name: z.read(name) for name in sorted(z.namelist())}


def select(obj, sub=None):
    FreeCADGui.Selection.clearSelection()
    if sub is None:
        FreeCADGui.Selection.addSelection(obj)
    else:
        FreeCADGui.Selection.addSelection(obj.Document.Name, obj.Name, sub)
    pump()


def view_fit():
    v = FreeCADGui.ActiveDocument.ActiveView
    v.viewIsometric()
    FreeCADGui.SendMsgToActiveView("ViewFit")
    pump(0.2)


def grab_window(name):
    """The whole screen (main window, task panel, 3D view, dialogs), as a user sees it."""
    report = FreeCADGui.getMainWindow().findChild(QtGui.QDockWidget, "Report view")
    if report is not None:
        report.hide()            # warnings (default density) open it; not what is shown here
    pump(0.4)
    screen = QtGui.QGuiApplication.primaryScreen()
    screen.grabWindow(0).save(os.path.join(SHOTS, name))


def widen_combo_view(width=430):
    mw = FreeCADGui.getMainWindow()
    dock = mw.findChild(QtGui.QDockWidget, "Combo View")
    if dock is not None:
        mw.resizeDocks([dock], [width], QtCore.Qt.Horizontal)


# ----------------------------------------------------------------------------- model

S = {}


@step("activate")
def _activate():
    mw = FreeCADGui.getMainWindow()
    mw.resize(1280, 800)
    mw.showMaximized()
    pump(0.2)
    widen_combo_view()
    FreeCADGui.activateWorkbench("SimPhantWorkbench")
    R["active_workbench"] = FreeCADGui.activeWorkbench().name()
    from SimPhantWorkbench import commands
    from SimPhantWorkbench.gui import common
    common.message_hook = hook
    names = sorted(commands.all_commands()) + ["SimPhant_Joints"]
    listed = set(FreeCADGui.listCommands())
    R["commands"] = {n: n in listed for n in names}
    icons = {}
    for n, cmd in commands.all_commands().items():
        res = cmd.GetResources()
        path = res["Pixmap"]
        try:
            root = ET.parse(path).getroot()
            ok = root.tag.endswith("svg") and root.get("width") == "64" \
                and root.get("height") == "64"
        except Exception:  # noqa: BLE001
            ok = False
        icons[n] = {"path": path, "exists": os.path.isfile(path), "svg64": ok,
                    "menu": res["MenuText"], "tooltip": res["ToolTip"]}
    R["icons"] = icons
    R["toolbars"] = [list(names) for _, names in commands.TOOLBARS]


@step("model")
def _model():
    import Part
    doc = FreeCAD.newDocument("GuiFlow")
    S["doc"] = doc
    pin = doc.addObject("Part::Cylinder", "Pin")            # fixed pin along y, y in [-5, 15]
    pin.Radius, pin.Height = 6, 20
    pin.Placement = FreeCAD.Placement(FreeCAD.Vector(0, -5, 0), FreeCAD.Rotation(
        FreeCAD.Vector(1, 0, 0), -90))
    base = doc.addObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 40, 30, 10
    base.Placement.Base = FreeCAD.Vector(-20, 5, -60)
    arm_shape = Part.makeBox(150, 10, 10, FreeCAD.Vector(0, -5, -5)).fuse(
        Part.makeCylinder(9, 10, FreeCAD.Vector(0, -5, 0), FreeCAD.Vector(0, 1, 0)))
    arm = doc.addObject("Part::Feature", "Arm")
    arm.Shape = arm_shape.removeSplitter()
    loose = doc.addObject("Part::Box", "Loose")
    loose.Placement.Base = FreeCAD.Vector(60, 40, 0)
    extra = [doc.addObject("Part::Box", n) for n in ("BoxA", "BoxB")]
    for k, b in enumerate(extra):
        b.Placement.Base = FreeCAD.Vector(-80, 30 * k, 0)
    doc.recompute()
    S.update(pin=pin, arm=arm, base=base, loose=loose, extra=extra)
    # the arm's circular edge at y = +5 (centre on the pin axis)
    for i, e in enumerate(arm.Shape.Edges, 1):
        c = getattr(e, "Curve", None)
        if isinstance(c, Part.Circle) and abs(c.Radius - 9) < 1e-6 and abs(c.Center.y - 5) < 1e-6:
            S["arm_edge"] = "Edge%d" % i
    S["pin_face"] = "Face1"
    R["arm_edge"] = S["arm_edge"]
    FreeCADGui.ActiveDocument.ActiveView.setAnimationEnabled(False)
    view_fit()


@step("new_study")
def _new_study():
    doc = S["doc"]
    FreeCADGui.runCommand("SimPhant_NewStudy")
    pump()
    from SimPhantWorkbench.gui import common
    study = common.active_study(doc)
    S["study"] = study
    R["study_created"] = study is not None
    view = FreeCADGui.ActiveDocument.ActiveView
    R["study_active_in_view"] = view.getActiveObject(common.ACTIVE_KEY) == study
    study.EndTime = 2.0
    study.TimeStep = 2e-5
    study.OutputInterval = 0.01
    doc.recompute()


@step("bodies")
def _bodies():
    doc = S["doc"]
    from SimPhantWorkbench.document.base import study_bodies
    study = S["study"]
    select(S["pin"])
    R["add_body_inactive_on_study"] = None
    FreeCADGui.runCommand("SimPhant_AddFixedBody")
    select(S["arm"])
    FreeCADGui.runCommand("SimPhant_AddBody")
    # several at once, one undo step
    FreeCADGui.Selection.clearSelection()
    for b in S["extra"]:
        FreeCADGui.Selection.addSelection(b)
    undo0 = doc.UndoCount
    n0 = len(study_bodies(study))
    FreeCADGui.runCommand("SimPhant_AddBody")
    pump()
    R["multi_body_added"] = len(study_bodies(study)) - n0
    R["multi_body_undo_steps"] = doc.UndoCount - undo0
    doc.undo()
    pump()
    R["after_undo_bodies"] = [b.Label for b in study_bodies(study)]
    FreeCADGui.Selection.clearSelection()
    bodies = study_bodies(study)
    S["pin_body"] = [b for b in bodies if b.ShapeObject == S["pin"]][0]
    S["arm_body"] = [b for b in bodies if b.ShapeObject == S["arm"]][0]
    R["fixed_flags"] = {b.Label: b.Fixed for b in bodies}
    R["tree_icons"] = {b.Label: os.path.basename(b.ViewObject.Proxy.getIcon()) for b in bodies}
    R["study_claims"] = [o.Name for o in S["study"].ViewObject.Proxy.claimChildren()]
    for o in [S["base"], S["loose"]] + S["extra"]:      # not part of the mechanism
        o.ViewObject.Visibility = False


@step("joint_panel")
def _joint_panel():
    doc = S["doc"]
    from SimPhantWorkbench import factory
    from SimPhantWorkbench.document.base import study_joints
    from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
    study, pin, arm = S["study"], S["pin"], S["arm"]
    R["joint_cmd_active"] = FreeCADGui.Command.get("SimPhant_Joint_revolute").isActive() \
        if hasattr(FreeCADGui, "Command") else None
    FreeCADGui.runCommand("SimPhant_Joint_revolute")
    pump()
    panel = TaskJoint.current
    R["joint_panel_open"] = bool(FreeCADGui.Control.activeDialog())
    # a refused pick: an element of an object that is no body
    ok = FreeCADGui.Selection.addSelection(doc.Name, S["loose"].Name, "Face1")
    pump()
    R["refused_selected"] = bool(FreeCADGui.Selection.getSelectionEx())
    R["refusal_text"] = panel.refusal.text()
    FreeCADGui.Selection.clearSelection()
    # hover preview
    panel.hover(pin, S["pin_face"])
    R["hover_visible"] = panel.hover_triad.visible
    R["hover_placement"] = pl_tuple(panel.hover_triad.placement())
    panel.hover(None, "")
    FreeCADGui.Selection.addSelection(doc.Name, pin.Name, S["pin_face"])
    pump()
    R["after_first_pick_status"] = panel.status.text()
    FreeCADGui.Selection.addSelection(doc.Name, arm.Name, S["arm_edge"])
    pump()
    R["panel_refs"] = [None if r is None else "%s.%s" % (r[1].Name, r[2]) for r in panel.refs]
    R["panel_ready"] = panel.update()
    R["side_triads_visible"] = [t.visible for t in panel.side_triads]
    view_fit()
    grab_window("gui_joint_panel.png")
    undo0 = doc.UndoCount
    accepted = panel.accept()
    pump()
    R["joint_accepted"] = bool(accepted)
    R["joint_undo_steps"] = doc.UndoCount - undo0
    joints = study_joints(study)
    R["joints_after_panel"] = [j.Label for j in joints]
    j = joints[0]
    ref = factory.make_joint(study, "revolute", (pin, S["pin_face"]), (arm, S["arm_edge"]),
                             name="RefJoint")
    R["frame1_matches"] = pl_close(j.Frame1, ref.Frame1)
    R["frame2_matches"] = pl_close(j.Frame2, ref.Frame2)
    R["frame_panel"] = [pl_tuple(j.Frame1), pl_tuple(j.Frame2)]
    R["frame_factory"] = [pl_tuple(ref.Frame1), pl_tuple(ref.Frame2)]
    doc.openTransaction("Remove RefJoint")   # (outside one FreeCAD leaves "Delete" open)
    doc.removeObject(ref.Name)
    doc.commitTransaction()
    doc.recompute()
    S["joint"] = j
    R["joint_tree_icon"] = os.path.basename(j.ViewObject.Proxy.getIcon())
    from SimPhantWorkbench.viewproviders.view_joint import joint_world_frames
    vp = j.ViewObject.Proxy
    f1, f2 = joint_world_frames(j)
    R["triad_at_frame"] = pl_close(vp.markers[0].placement(), f1, 1e-6) \
        and pl_close(vp.markers[1].placement(), f2, 1e-6)
    R["triad_size"] = vp.markers[0].size
    from SimPhantWorkbench.gui.markers import model_size
    R["model_size"] = model_size([pin, arm, S["base"]])


@step("joint_cancel")
def _joint_cancel():
    doc = S["doc"]
    from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
    before = content(doc)
    undo0 = doc.UndoCount
    names0 = [o.Name for o in doc.Objects]
    FreeCADGui.runCommand("SimPhant_Joint_spherical")
    pump()
    panel = TaskJoint.current
    # reverse order this time: the arm first, then the base block's vertex
    FreeCADGui.Selection.addSelection(doc.Name, S["arm"].Name, S["arm_edge"])
    pump()
    FreeCADGui.Selection.addSelection(doc.Name, S["pin"].Name, "Edge1")
    pump()
    R["cancel_panel_ready"] = panel.update()
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("prismatic"))
    R["kind_changed_ready"] = panel.update()
    # Esc in the task view cancels (as in every FreeCAD task dialog)
    mw = FreeCADGui.getMainWindow()
    views = [w for w in mw.findChildren(QtGui.QWidget)
             if w.metaObject().className() == "Gui::TaskView::TaskView"]
    R["task_views"] = len(views)
    if views:
        for kind in (QtCore.QEvent.KeyPress, QtCore.QEvent.KeyRelease):
            QtGui.QApplication.sendEvent(views[0], QtGui.QKeyEvent(
                kind, QtCore.Qt.Key_Escape, QtCore.Qt.NoModifier))
        pump(0.1)
    R["esc_closed"] = not FreeCADGui.Control.activeDialog()
    if not R["esc_closed"]:
        panel.reject()
    pump()
    R["cancel_dialog_closed"] = not FreeCADGui.Control.activeDialog()
    R["cancel_same_objects"] = [o.Name for o in doc.Objects] == names0
    R["cancel_same_undo"] = doc.UndoCount == undo0
    after = content(doc)
    R["cancel_same_content"] = (after == before) if before is not None else None
    if before is not None and after != before:
        R["cancel_changed_files"] = [n for n in set(before) | set(after)
                                     if before.get(n) != after.get(n)]
    R["gate_removed"] = FreeCADGui.Selection.addSelection(doc.Name, S["loose"].Name, "Face1") \
        is not False
    FreeCADGui.Selection.clearSelection()


@step("triad_shot")
def _shot_triads():
    view_fit()
    FreeCADGui.ActiveDocument.ActiveView.saveImage(
        os.path.join(SHOTS, "gui_joint_triads.png"), 1000, 700, "White")


@step("loads")
def _loads():
    doc = S["doc"]
    from SimPhantWorkbench.document.base import study_loads
    from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
    select(S["arm"], "Vertex1")
    FreeCADGui.runCommand("SimPhant_AddForce")
    pump()
    loads = study_loads(S["study"])
    R["force_created"] = len(loads) == 1
    panel = PropertyPanel.current
    panel.mode_func.setChecked(True)
    panel.func.setText("0, 0, sin(")
    R["func_error_bad"] = panel.func_error.text()
    panel.func.setText("0, 0, -2*sin(2*pi*t)")
    R["func_error_good"] = panel.func_error.text()
    panel.use_cog()
    R["force_panel_ok"] = bool(panel.accept())
    pump()
    force = loads[0]
    R["force_function"] = force.ForceFunction
    R["force_reference"] = str(force.Reference)
    R["force_marker_visible"] = force.ViewObject.Proxy.markers[0].visible
    select(S["arm"])
    FreeCADGui.runCommand("SimPhant_AddTorque")
    pump()
    panel = PropertyPanel.current
    panel.value[1].setProperty("rawValue", 0.0)
    R["torque_panel_ok"] = bool(panel.accept())
    R["loads"] = [o.Label for o in study_loads(S["study"])]
    del doc


@step("panels")
def _panels():
    from SimPhantWorkbench.taskpanels.widgets import PropertyPanel, quantity_value
    study = S["study"]
    FreeCADGui.ActiveDocument.setEdit(study.Name)
    pump()
    panel = PropertyPanel.current
    R["study_panel_method_hint"] = panel.method_hint.text()
    R["study_panel_end"] = quantity_value(panel.end)
    panel.accept()
    pump()
    FreeCADGui.ActiveDocument.setEdit(S["arm_body"].Name)
    pump()
    panel = PropertyPanel.current
    R["body_panel_mass"] = quantity_value(panel.mass_ro)
    R["arm_mass"] = S["arm_body"].Mass
    panel.reject()
    pump()
    R["no_dialog_after_panels"] = not FreeCADGui.Control.activeDialog()


@step("check")
def _check():
    select(S["study"])
    messages.clear()
    FreeCADGui.runCommand("SimPhant_Check")
    R["check_message"] = messages[-1][2] if messages else ""
    FreeCADGui.Selection.clearSelection()


@step("solve")
def _solve():
    from SimPhantWorkbench.gui import solve_job
    study = S["study"]
    arm = S["arm"]
    S["pl0"] = FreeCAD.Placement(arm.Placement)
    ticks = []
    timer = QtCore.QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), solve_job.current_job()
                                                is not None)))
    timer.start()
    select(study)
    t0 = time.perf_counter()
    FreeCADGui.runCommand("SimPhant_Solve")
    R["solve_returned_after"] = time.perf_counter() - t0
    job = solve_job.current_job(study)
    R["job_started"] = job is not None
    shot = False
    while job is not None and job.is_running():
        QtGui.QApplication.processEvents(QtCore.QEventLoop.AllEvents, 20)
        time.sleep(0.005)
        if not shot and job.t > 0.3 * (job.t_end or 1):
            shot = True
            grab_window("gui_solve_progress.png")
        if time.perf_counter() - t0 > 600:
            break
    timer.stop()
    during = [t for t, running in ticks if running]
    R["ticks_during_solve"] = len(during)
    R["max_tick_gap"] = max((b - a for a, b in zip(during, during[1:])), default=None)
    R["solve_state"] = job.state if job else None
    R["solve_wall"] = time.perf_counter() - t0
    R["solve_error"] = str(job.error) if job and job.error else ""
    from SimPhantWorkbench import runner
    res = runner.get_result(study)
    R["result_frames"] = len(res.t) if res is not None else 0
    R["placement_unchanged_by_solve"] = pl_tuple(arm.Placement) == pl_tuple(S["pl0"])


@step("playback")
def _playback():
    doc = S["doc"]
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.taskpanels.task_playback import TaskPlayback
    study, arm = S["study"], S["arm"]
    res_obj = runner.result_object(study)
    init = {n: FreeCAD.Placement(p) for n, p in zip(res_obj.ShapeObjects,
                                                     res_obj.InitialPlacements)}
    select(study)
    undo0 = doc.UndoCount
    FreeCADGui.runCommand("SimPhant_Playback")
    pump()
    panel = TaskPlayback.current
    R["playback_open"] = bool(FreeCADGui.Control.activeDialog())
    for _ in range(20):
        panel.step(1)
    pump()
    mid = panel.n // 3
    panel.slider.setValue(mid)
    pump()
    R["playback_index"] = panel.index
    R["playback_moved"] = pl_tuple(arm.Placement) != pl_tuple(init[arm.Name])
    vp = S["joint"].ViewObject.Proxy
    from SimPhantWorkbench.viewproviders.view_joint import joint_world_frames
    R["triad_follows"] = pl_close(vp.markers[1].placement(), joint_world_frames(S["joint"])[1],
                                  1e-6)
    R["cog_marker_follows"] = pl_close(
        S["arm_body"].ViewObject.Proxy.markers[0].placement(),
        FreeCAD.Placement(S["arm_body"].ViewObject.Proxy.cog_world(), FreeCAD.Rotation()), 1e-6)
    view_fit()
    grab_window("gui_timeline.png")
    # play in real time for a moment
    panel.start()
    pump(0.6)
    panel.pause()
    R["played_frames"] = panel.index
    R["undo_steps_during_playback"] = doc.UndoCount - undo0
    # Reset in the panel: bit-exact start pose
    panel.reset()
    R["reset_bit_exact"] = pl_tuple(arm.Placement) == pl_tuple(init[arm.Name])
    panel.show_frame(mid)
    # close: keep the pose (one undo step)
    answers.append(True)
    panel.reject()
    pump()
    R["kept_pose_moved"] = pl_tuple(arm.Placement) != pl_tuple(init[arm.Name])
    R["undo_steps_after_keep"] = doc.UndoCount - undo0
    R["undo_name_after_keep"] = [doc.UndoNames[0], "SimPhant: playback of '%s'" % study.Label]
    # the Reset command
    select(study)
    FreeCADGui.runCommand("SimPhant_Reset")
    pump()
    R["reset_command_bit_exact"] = pl_tuple(arm.Placement) == pl_tuple(init[arm.Name])
    # playback closed with "No": back to the pose before the panel opened
    # (opened by a double click on the Result this time: outside a command)
    before = pl_tuple(arm.Placement)
    names = list(doc.UndoNames)
    res_obj.ViewObject.Proxy.doubleClicked(res_obj.ViewObject)
    pump()
    panel = TaskPlayback.current
    panel.slider.setValue(panel.n - 1)
    panel.reset()
    panel.step(3)
    answers.append(False)
    panel.reject()
    pump()
    R["discard_pose_bit_exact"] = pl_tuple(arm.Placement) == before
    R["discard_closed"] = [panel.closed, bool(FreeCADGui.Control.activeDialog())]
    R["discard_leaves_the_undo_history"] = [list(doc.UndoNames) == names, doc.RedoCount,
                                            [n for n in doc.UndoNames if "frame" in n]]
    # No also where a script left a transaction of the document open (FreeCAD's "Delete"
    # after an object removed outside any) that the playback step joins in the command
    doc.openTransaction("Add scratch")
    scratch = doc.addObject("Part::Box", "Scratch")
    doc.commitTransaction()
    doc.removeObject(scratch.Name)
    pending = doc.HasPendingTransaction
    before = pl_tuple(arm.Placement)
    select(study)
    FreeCADGui.runCommand("SimPhant_Playback")
    pump()
    panel = TaskPlayback.current
    panel.slider.setValue(panel.n // 2)
    answers.append(False)
    panel.reject()
    pump()
    R["discard_in_an_open_transaction"] = [pending, pl_tuple(arm.Placement) == before,
                                           panel.closed]
    doc.commitTransaction()


@step("joint_edit")
def _joint_edit():
    doc = S["doc"]
    from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
    j = S["joint"]
    # double-click = setEdit of the view provider
    j.ViewObject.Proxy.doubleClicked(j.ViewObject)
    pump()
    panel = TaskJoint.current
    R["edit_panel_joint"] = panel.joint.Name if panel.joint is not None else None
    R["edit_panel_refs"] = [None if r is None else "%s.%s" % (r[1].Name, r[2])
                            for r in panel.refs]
    panel.kind_box.setCurrentIndex(panel.kind_box.findData("cylindrical"))
    undo0 = doc.UndoCount
    R["edit_accepted"] = bool(panel.accept())
    pump()
    R["edit_kind"] = str(j.JointType)
    R["edit_icon"] = os.path.basename(j.ViewObject.Proxy.getIcon())
    R["edit_undo_steps"] = doc.UndoCount - undo0
    doc.undo()
    pump()
    R["edit_undone_kind"] = str(j.JointType)
    R["no_dialog_after_edit"] = not FreeCADGui.Control.activeDialog()


@step("context_menu")
def _context_menu():
    menus = {}
    for key in ("study", "joint", "arm_body"):
        obj = S[key]
        menu = QtGui.QMenu()
        obj.ViewObject.Proxy.setupContextMenu(obj.ViewObject, menu)
        menus[key] = [a.text() for a in menu.actions()]
    R["context_menus"] = menus


@step("new_registry_kind")
def _new_kind():
    from SimPhantWorkbench.commands import cmd_joints
    from SimPhantWorkbench.solver import joints
    spec = joints.JOINT_TYPES["spherical"]._replace(name="ball_test", label="Ball test",
                                                     icon="Joint_BallTest.svg")
    joints.JOINT_TYPES["ball_test"] = spec
    try:
        cmds = {c.name: c for c in cmd_joints.commands()}
        cmd = cmds.get("SimPhant_Joint_ball_test")
        res = cmd.GetResources() if cmd else {}
        R["new_kind_command"] = {"exists": cmd is not None, "menu": res.get("MenuText"),
                                 "icon": os.path.basename(res.get("Pixmap", "")),
                                 "in_group": "SimPhant_Joint_ball_test"
                                 in cmd_joints.JointGroup().GetCommands()}
    finally:
        del joints.JOINT_TYPES["ball_test"]


@step("solve_cancel_and_failure")
def _solve_cancel_fail():
    doc = S["doc"]
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.gui import solve_job
    study, arm = S["study"], S["arm"]
    res_obj = runner.result_object(study)
    frames0, file0 = res_obj.NumberOfFrames, open(res_obj.ResultFile, "rb").read()
    pl0 = pl_tuple(arm.Placement)
    undo0 = doc.UndoCount
    job = solve_job.start(study)
    pump(0.3)
    job.cancel()
    R["cancel_state"] = job.wait(120)
    R["cancel_result_unchanged"] = (res_obj.NumberOfFrames == frames0
                                    and open(res_obj.ResultFile, "rb").read() == file0)
    R["cancel_placement_unchanged"] = pl_tuple(arm.Placement) == pl0
    R["cancel_undo_unchanged"] = doc.UndoCount == undo0
    # an integration failure half-way (an absurd torque from t = 1 s)
    torque = [o for o in study.Group if o.Name.startswith("Torque")][0]
    torque.TorqueFunction = "0, (1e7 if t > 1.0 else 0), 0"
    doc.recompute()
    messages.clear()
    answers.append(False)           # do not keep the partial result
    job = solve_job.start(study)
    R["fail_state"] = job.wait(300)
    R["fail_message"] = messages[-1][2] if messages else ""
    R["fail_result_unchanged"] = res_obj.NumberOfFrames == frames0
    answers.append(True)            # keep it this time
    job = solve_job.start(study)
    job.wait(300)
    R["fail_kept_frames"] = res_obj.NumberOfFrames
    torque.TorqueFunction = ""
    doc.recompute()


@step("example_document")
def _example():
    """A document saved without view providers (by a script) gets them when opened."""
    from SimPhantWorkbench.viewproviders.view_base import VPBase
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "examples", "slider_crank.FCStd")
    doc = FreeCAD.openDocument(path)
    pump(0.3)
    from SimPhantWorkbench.document.base import proxy_type
    objs = [o for o in doc.Objects if str(proxy_type(o)).startswith("SimPhant::")]
    R["example_vps"] = {o.Name: isinstance(getattr(o.ViewObject, "Proxy", None), VPBase)
                        for o in objs}
    R["example_markers"] = {o.Name: [m.visible for m in getattr(o.ViewObject.Proxy, "markers",
                                                                 [])] for o in objs}
    view_fit()
    FreeCADGui.ActiveDocument.ActiveView.saveImage(
        os.path.join(SHOTS, "gui_slider_crank.png"), 1000, 700, "White")
    FreeCAD.closeDocument(doc.Name)
    FreeCAD.setActiveDocument(S["doc"].Name)


@step("other_commands")
def _other():
    from SimPhantWorkbench.gui import common
    R["import_active"] = bool(FreeCADGui.Command.get("SimPhant_ImportAssembly").isActive()) \
        if hasattr(FreeCADGui, "Command") else None
    select(S["study"])
    FreeCADGui.runCommand("SimPhant_SetActiveStudy")
    R["set_active_ok"] = common.active_study(S["doc"]) == S["study"]
    # Import Assembly runs where FreeCAD has Assembly (1.x); on 0.20 it is inactive
    R["freecad_version"] = ".".join(FreeCAD.Version()[:2])


def main():
    for run in STEPS:
        run()
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(R, f, indent=1, default=str)


try:
    main()
finally:
    for name in list(FreeCAD.listDocuments()):
        FreeCAD.closeDocument(name)
    FreeCADGui.getMainWindow().close()
