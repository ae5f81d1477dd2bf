"""Edit > Undo and Edit > Redo after every command of the workbench, in the real FreeCAD GUI
(under Xvfb), on FreeCAD 0.20 and 1.x.

Each command runs on a fresh document as a user runs it (selection first, its task panel
filled and accepted). A command that adds an object and opens its task panel runs twice:
Cancel on that panel first leaves the document exactly as it was (every object and
property, the study's members) and no undo or redo step; then OK keeps the object with the
panel's values in one undo step, and Cancel on the panel the new object opens on a
double-click changes nothing. A command that changes the document makes exactly one undo step:
``Std_Undo`` gives back the document it had (every file of its serialised ``.FCStd``, every
object and property: ``tests/app/undo_cases``), ``Std_Redo`` the changed one; the
document saved after redo and after undo again reopens with exactly those objects and
properties and passes the document check, and closing it does not crash (FreeCAD 1.0
died after undoing the creation of an object holding an ``App::PropertyXLinkSub``). A
command that only reads (check, plots, the viewer, exports) leaves no undo step and the
document as it was.
"""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, shutil, sys, time, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    import undo_cases as U
    from gui_events import pump
    res = {"commands": {}, "names": []}
    messages = []

    def select(*items):
        FreeCADGui.Selection.clearSelection()
        for item in items:
            obj, sub = item if isinstance(item, tuple) else (item, None)
            if sub is None:
                FreeCADGui.Selection.addSelection(obj)
            else:
                FreeCADGui.Selection.addSelection(obj.Document.Name, obj.Name, sub)
        pump()

    active = {}

    def run(name):
        """Run a command as its toolbar button does (recording whether it was enabled)."""
        active[name] = FreeCADGui.isCommandActive(name)
        FreeCADGui.runCommand(name)
        pump(0.05)

    def toggle_twice(name):
        """Click a checkable toolbar button on and off again (a preference, no document)."""
        from PySide import QtGui
        active[name] = FreeCADGui.isCommandActive(name)
        action = [a for a in FreeCADGui.getMainWindow().findChildren(QtGui.QAction)
                  if a.objectName() == name][0]
        action.trigger()
        pump(0.05)
        action.trigger()
        pump(0.05)

    def hide_and_show(m):
        select(m["link"])
        run("SimPhant_HideOthers")
        run("SimPhant_ShowHidden")

    def console(name):
        import __main__
        return getattr(__main__, name, None)

    def new_object_panel():
        """The task panel open now on an object a command has just added, or None."""
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.taskpanels.task_parameter_study import TaskParameterStudy
        if not FreeCADGui.Control.activeDialog():
            return None
        for panel in (PropertyPanel.current, TaskParameterStudy.current):
            if panel is not None and getattr(panel, "created", None) is not None:
                return panel
        return None

    def close_extras():
        """OK on the panel of a new object; Cancel on another task panel left open; close
        plot docks and viewer windows."""
        from SimPhantWorkbench.taskpanels.widgets import PropertyPanel
        from SimPhantWorkbench.taskpanels.task_parameter_study import TaskParameterStudy
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        panel = new_object_panel()
        if panel is not None:
            res.setdefault("accepted", []).append(panel.accept())
            pump(0.05)
        if FreeCADGui.Control.activeDialog():
            for panel in (PropertyPanel.current, TaskParameterStudy.current,
                          TaskJoint.current, console("_panel")):
                if panel is not None and FreeCADGui.Control.activeDialog():
                    try:
                        panel.reject()
                    except Exception:  # noqa: BLE001 - an older panel, closed already
                        pass
            pump(0.05)
        mw = FreeCADGui.getMainWindow()
        for dock in mw.findChildren(QtGui.QDockWidget):
            if dock.objectName().startswith("SimPhantPlot_"):
                dock.close()
        for w in QtGui.QApplication.topLevelWidgets():
            if w is not mw and w.isVisible() and w.isWindow() and "Viewer" in \\
                    type(w).__name__:
                w.close()
        pump(0.05)

    # ---------------------------------------------------------------- models
    base, with_block = U.pendulum_model, U.with_block_body
    ran, moved = U.ran_model, U.moved_model

    def with_material(doc):
        """Materials on the moving part (FreeCAD 1.x: its ShapeMaterial card, whose
        getPhysicalValue marks the part Touched; 0.20: an Arch material link)."""
        m = base(doc)
        if int(FreeCAD.Version()[0]) >= 1:
            import Materials
            m["rod"].ShapeMaterial = next(
                c for c in Materials.MaterialManager().Materials.values()
                if c.Name.startswith("Steel"))
        else:
            card = doc.addObject("App::MaterialObjectPython", "Card")
            card.Material = {"Name": "Alu", "Density": "2700 kg/m^3"}
            m["rod"].addProperty("App::PropertyLink", "Material")
            m["rod"].Material = card
        doc.recompute()
        m["link"].Density = 0.0            # from the material
        doc.recompute()
        return m

    def with_slide(doc):
        from SimPhantWorkbench import factory
        from helpers_doc import element_name
        m = with_block(doc)
        m["slide"] = factory.make_joint(m["study"], "cylindrical", (m["rod"], element_name(
            m["rod"], "Edge", (0, 0, -200), curve="Circle")), (m["block"], "Vertex1"),
            name="Slide")
        return m

    # ---------------------------------------------------------------- drivers
    def rod_bottom(m):
        from helpers_doc import element_name
        return (m["rod"], element_name(m["rod"], "Vertex", (2, 0, -200)))

    def rod_side(m):
        """The rod's straight seam edge (a vector of the moving body)."""
        from helpers_doc import element_name
        return (m["rod"], element_name(m["rod"], "Edge", (2, 0, -100), curve="Line"))

    def joint_refs(m):
        """The pin's circle at the pivot (axis y), the rod's top circle (axis z): both
        axes, perpendicular (the universal joint's), points on both sides."""
        from helpers_doc import element_name
        return [(m["pin"], element_name(m["pin"], "Edge", (2, 0, 0), curve="Circle")),
                (m["rod"], element_name(m["rod"], "Edge", (0, 0, 0), curve="Circle"))]

    def joint_command(kind):
        def drive(m):
            from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
            select(*joint_refs(m))
            run("SimPhant_Joint_" + kind)
            TaskJoint.current.accept()
        return drive

    def export_dir(m):
        d = os.path.join(TMP, "export_%d" % len(os.listdir(TMP)))
        os.makedirs(d)
        QtGui.QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: d)
        return d

    def export_animation(m):
        QtGui.QDialog.exec_ = lambda self: 1
        QtGui.QFileDialog.getSaveFileName = staticmethod(
            lambda *a, **k: (os.path.join(TMP, "animation.gif"), ""))
        select(m["study"])
        run("SimPhant_ExportAnimation")

    def solve(m):
        from SimPhantWorkbench.gui.solve_job import current_job
        select(m["study"])
        run("SimPhant_Solve")
        t0 = time.perf_counter()
        while current_job(m["study"]) is not None and time.perf_counter() - t0 < 300:
            pump(0.05)

    def playback(m):
        select(m["study"])
        run("SimPhant_Playback")
        panel = console("_panel")
        panel.show_frame(len(panel.t) - 1)
        panel.close(keep=True)

    def force(kind, points):
        def drive(m):
            if points:
                select(rod_bottom(m), (m["block"], "Vertex1"))
            else:
                select(m["joint"])
            run("SimPhant_Force_" + kind)
        return drive

    def loads_to_fem(m):
        from SimPhantWorkbench.commands import cmd_fem
        body, instant, size = U.FEM_ARGS
        cmd_fem.LoadsToFEM.ask = staticmethod(
            lambda study, chosen: (study.Document.getObject(body), instant, size))
        select(m["rod"])
        run("SimPhant_LoadsToFEM")

    def check_dependencies(m):
        run("SimPhant_CheckDependencies")
        from SimPhantWorkbench.gui import dependencies
        if dependencies.last_dialog() is not None:
            dependencies.last_dialog().close()
            pump(0.05)

    from SimPhantWorkbench.solver import JOINT_TYPES
    from SimPhantWorkbench.solver.forces import FORCE_TYPES
    CASES = {
        "SimPhant_NewStudy": (base, lambda m: run("SimPhant_NewStudy")),
        "SimPhant_SetActiveStudy": (base, lambda m: (select(m["study"]),
                                                     run("SimPhant_SetActiveStudy"))),
        "SimPhant_AddBody": (base, lambda m: (select(m["free"]), run("SimPhant_AddBody"))),
        "SimPhant_AddFixedBody": (base, lambda m: (select(m["block"]),
                                                   run("SimPhant_AddFixedBody"))),
        "SimPhant_AddForce": (base, lambda m: (select(rod_bottom(m)),
                                               run("SimPhant_AddForce"))),
        "SimPhant_AddTorque": (base, lambda m: (select(m["link"]), run("SimPhant_AddTorque"))),
        "SimPhant_Driver_rotation": (base, lambda m: (select(m["joint"]),
                                                      run("SimPhant_Driver_rotation"))),
        "SimPhant_Driver_translation": (with_slide, lambda m: (
            select(m["slide"]), run("SimPhant_Driver_translation"))),
        "SimPhant_Driver_point": (base, lambda m: (select(rod_bottom(m)),
                                                   run("SimPhant_Driver_point"))),
        "SimPhant_Driver_direction": (base, lambda m: (select(rod_side(m)),
                                                       run("SimPhant_Driver_direction"))),
        "SimPhant_Driver_angle": (base, lambda m: (select(rod_side(m), joint_refs(m)[0]),
                                                   run("SimPhant_Driver_angle"))),
        "SimPhant_Coupler_gear": (with_slide, lambda m: (
            select(m["joint"], m["slide"]), run("SimPhant_Coupler_gear"))),
        "SimPhant_Coupler_belt": (with_slide, lambda m: (
            select(m["joint"], m["slide"]), run("SimPhant_Coupler_belt"))),
        "SimPhant_Coupler_rack_pinion": (with_slide, lambda m: (
            select(m["joint"], m["slide"]), run("SimPhant_Coupler_rack_pinion"))),
        "SimPhant_Coupler_screw": (with_slide, lambda m: (
            select(m["slide"]), run("SimPhant_Coupler_screw"))),
        "SimPhant_Coupler_lead_screw": (with_slide, lambda m: (
            select(m["joint"], m["slide"]), run("SimPhant_Coupler_lead_screw"))),
        "SimPhant_Check": (base, lambda m: (select(m["study"]), run("SimPhant_Check"))),
        "SimPhant_AcceptReferences": (U.enlarged_journal, lambda m: (
            select(m["force"]), run("SimPhant_AcceptReferences"))),
        "SimPhant_Solve": (with_material, solve),
        "SimPhant_Playback": (ran, playback),
        "SimPhant_Reset": (moved, lambda m: (select(m["study"]), run("SimPhant_Reset"))),
        "SimPhant_NewParameterStudy": (base, lambda m: run("SimPhant_NewParameterStudy")),
        "SimPhant_PlotResults": (ran, lambda m: (select(m["study"]),
                                                 run("SimPhant_PlotResults"))),
        "SimPhant_ResultsViewer": (ran, lambda m: (select(m["study"]),
                                                   run("SimPhant_ResultsViewer"))),
        "SimPhant_CheckInterference": (ran, lambda m: (select(m["study"]),
                                                       run("SimPhant_CheckInterference"))),
        "SimPhant_ExportResultsCSV": (ran, lambda m: (export_dir(m), select(m["study"]),
                                                      run("SimPhant_ExportResultsCSV"))),
        "SimPhant_ExportResultPlots": (ran, lambda m: (export_dir(m), select(m["study"]),
                                                       run("SimPhant_ExportResultPlots"))),
        "SimPhant_ExportAnimation": (ran, export_animation),
        "SimPhant_LoadsToFEM": (U.ran_slider_crank, loads_to_fem),
        "SimPhant_CheckDependencies": (base, check_dependencies),
        "SimPhant_MarkersSelectable": (base, lambda m: toggle_twice("SimPhant_MarkersSelectable")),
        "SimPhant_ShowMarkers": (base, lambda m: toggle_twice("SimPhant_ShowMarkers")),
        "SimPhant_HideOthers": (base, hide_and_show),
        "SimPhant_ShowHidden": (base, hide_and_show),
    }
    for kind in JOINT_TYPES:
        CASES["SimPhant_Joint_" + kind] = (base, joint_command(kind))
    for kind, spec in FORCE_TYPES.items():
        CASES["SimPhant_Force_" + kind] = (with_block, force(kind, spec.attach in ("points",
                                                                                "bodies")))
    fc1 = int(FreeCAD.Version()[0]) >= 1
    CASES["SimPhant_ImportAssembly"] = (
        U.open_copy("fc1_slider_crank.FCStd" if fc1 else "assembly_pendulum.FCStd"),
        lambda m: (select(m["doc"].getObject("Assembly")), run("SimPhant_ImportAssembly")))

    # ---------------------------------------------------------------- one command
    def activate(doc):
        FreeCAD.setActiveDocument(doc.Name)
        FreeCADGui.setActiveDocument(doc.Name)
        pump()

    def outputs():
        """Files written into TMP other than the documents."""
        return {os.path.join(d, f) for d, _, files in os.walk(TMP) for f in files
                if ".FCStd" not in f and not f.endswith((".py", ".json"))}

    def escape():
        """Esc pressed in the task view (as a user closes a task dialog)."""
        from PySide import QtCore, QtGui
        views = [w for w in FreeCADGui.getMainWindow().findChildren(QtGui.QWidget)
                 if w.metaObject().className() == "Gui::TaskView::TaskView"]
        for kind in (QtCore.QEvent.KeyPress, QtCore.QEvent.KeyRelease):
            QtGui.QApplication.sendEvent(views[0], QtGui.QKeyEvent(
                kind, QtCore.Qt.Key_Escape, QtCore.Qt.NoModifier))
        pump(0.1)

    def measure(name, build, drive):
        safe = name.replace("SimPhant_", "")
        path = os.path.join(TMP, safe + ".FCStd")
        if getattr(build, "opens", False):
            m = build(None, TMP)
        else:
            m = build(FreeCAD.newDocument(safe))
        doc = m["doc"]
        doc.recompute()
        doc.saveAs(path)       # saves later go into this file: undo steps keep their files
        activate(doc)
        if m.get("study") is not None:
            from SimPhantWorkbench.gui import common
            common.set_active_study(m["study"])
        out = {}
        active.pop(name, None)
        before_c, before_s = U.content(doc), U.snapshot(doc)
        undo0, names0 = doc.UndoCount, list(doc.UndoNames)
        files0 = outputs()
        drive(m)
        pump(0.1)
        panel = new_object_panel()
        if panel is not None:                    # Cancel first, then again and OK
            panel.reject()
            pump(0.05)
            activate(doc)
            out["cancel"] = U.content_differences(before_c, U.content(doc)) \
                + U.differences(before_s, U.snapshot(doc))
            out["cancel_history"] = [list(doc.UndoNames) == names0, doc.RedoCount,
                                     bool(FreeCADGui.Control.activeDialog())]
            drive(m)                             # Esc in the task view: as Cancel
            pump(0.1)
            escape()
            activate(doc)
            out["esc"] = U.content_differences(before_c, U.content(doc)) \\
                + U.differences(before_s, U.snapshot(doc))
            out["esc_history"] = [list(doc.UndoNames) == names0, doc.RedoCount,
                                  bool(FreeCADGui.Control.activeDialog())]
            if FreeCADGui.Control.activeDialog():
                new_object_panel().reject()
                pump(0.05)
            drive(m)
            pump(0.1)
        out["active"] = active.get(name)
        out["wrote"] = len(outputs() - files0)
        out["touched"] = [o.Name for o in doc.Objects if "Touched" in o.State]
        close_extras()
        activate(doc)
        out["steps"] = doc.UndoCount - undo0
        after_c, after_s = U.content(doc), U.snapshot(doc)
        out["changed"] = after_s != before_s
        if "cancel" in out:                      # double-click the new object, Cancel
            added = [o for o in doc.Objects if o.Name not in before_s
                     and getattr(o, "ViewObject", None) is not None
                     and hasattr(o.ViewObject.Proxy, "doubleClicked")]
            added[0].ViewObject.Proxy.doubleClicked(added[0].ViewObject)
            pump(0.05)
            reopened = bool(FreeCADGui.Control.activeDialog())
            close_extras()
            activate(doc)
            out["reedit_cancel"] = U.content_differences(after_c, U.content(doc)) \
                + U.differences(after_s, U.snapshot(doc))
            out["reedit_history"] = [reopened, doc.UndoCount - undo0]
        if out["steps"]:
            run("Std_Undo")
            out["undo"] = U.content_differences(before_c, U.content(doc)) \\
                + U.differences(before_s, U.snapshot(doc))
            out["invalid_after_undo"] = U.invalid_objects(doc)
            run("Std_Redo")
            out["redo"] = U.content_differences(after_c, U.content(doc)) \\
                + U.differences(after_s, U.snapshot(doc))
            doc.save()
            shutil.copy(path, path + ".after.FCStd")
            run("Std_Undo")
            doc.save()
            shutil.copy(path, path + ".undone.FCStd")
        else:
            out["unchanged"] = U.content_differences(before_c, after_c) \\
                + U.differences(before_s, after_s)
            doc.save()
            shutil.copy(path, path + ".after.FCStd")
        FreeCAD.closeDocument(doc.Name)
        pump()
        out["closed"] = True
        out["reopen_after"] = U.reopened(path + ".after.FCStd", after_s)
        if out["steps"]:
            out["reopen_undone"] = U.reopened(path + ".undone.FCStd", before_s)
        return out

    try:
        FreeCADGui.getMainWindow().resize(1280, 800)
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import commands
        from SimPhantWorkbench.gui import common
        common.message_hook = lambda kind, title, text: (messages.append([kind, title]),
                                                         True)[1]
        res["names"] = sorted(commands.all_commands())
        res["version"] = ".".join(FreeCAD.Version()[:3])
        for name in res["names"]:
            if name not in CASES:
                continue
            build, drive = CASES[name]
            try:
                res["commands"][name] = measure(name, build, drive)
            except Exception:  # noqa: BLE001 - recorded; the next command runs
                res["commands"][name] = {"error": traceback.format_exc()}
            for doc_name in list(FreeCAD.listDocuments()):
                FreeCAD.closeDocument(doc_name)
            pump()
        res["messages"] = messages
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')

#: commands that only read the document (no undo step, nothing changed)
READ_ONLY = {"SimPhant_SetActiveStudy", "SimPhant_Check", "SimPhant_PlotResults",
             "SimPhant_ResultsViewer", "SimPhant_CheckInterference", "SimPhant_ExportResultsCSV",
             "SimPhant_ExportResultPlots", "SimPhant_ExportAnimation",
             "SimPhant_CheckDependencies",
             # what is shown and the preferences only: no undo step (hidden, shown again)
             "SimPhant_MarkersSelectable", "SimPhant_ShowMarkers", "SimPhant_HideOthers",
             "SimPhant_ShowHidden"}


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, proc = run_gui_script(tmp_path_factory.mktemp("undo_gui"), "undo_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def _failures(res, check):
    out = {}
    for name, r in res["commands"].items():
        if "error" in r:
            out[name] = r["error"]
            continue
        problem = check(name, r)
        if problem:
            out[name] = problem
    return out


def test_every_command_of_the_workbench_is_exercised(gui):
    assert sorted(gui["commands"]) == gui["names"] and len(gui["names"]) >= 30


def _changing(name, r):
    if name in READ_ONLY or (name == "SimPhant_ImportAssembly" and
                             int(r.get("version", "1")[0]) < 1):
        return None
    if not r["active"]:
        return "not enabled when run"
    wrong = {k: r.get(k) for k in ("undo", "invalid_after_undo", "redo", "reopen_after",
                                   "reopen_undone") if r.get(k)}
    if r["steps"] != 1 or not r["changed"]:
        wrong["steps, changed"] = [r["steps"], r["changed"]]
    if not r.get("closed"):
        wrong["closed"] = False
    return wrong


#: commands that add an object and open its task panel
NEW_OBJECT_PANELS = {"SimPhant_AddForce", "SimPhant_AddTorque", "SimPhant_NewParameterStudy"}


def test_cancel_on_the_panel_of_a_new_object_leaves_the_document_as_it_was(gui):
    """Every command that adds an object and opens its panel: Cancel, and Esc in the task
    view, leave every object and property (the study's members) as before and no undo or
    redo step; OK on a third
    run keeps it (one undo step: the test above); Cancel on the panel a double-click
    opens on it changes nothing."""
    expected = NEW_OBJECT_PANELS | {n for n in gui["commands"] if n.startswith(
        ("SimPhant_Driver_", "SimPhant_Coupler_", "SimPhant_Force_"))}
    assert {n for n, r in gui["commands"].items() if "cancel" in r} == expected
    wrong = {n: {k: r[k] for k in ("cancel", "cancel_history", "esc", "esc_history",
                                   "reedit_cancel", "reedit_history")}
             for n, r in gui["commands"].items() if "cancel" in r and (
                 r["cancel"] or r["cancel_history"] != [True, 0, False] or r["esc"]
                 or r["esc_history"] != [True, 0, False] or r["reedit_cancel"]
                 or r["reedit_history"] != [True, 1])}
    assert wrong == {}
    assert gui["accepted"] and all(gui["accepted"])


def test_undo_of_every_changing_command_gives_back_the_document_and_redo_repeats_it(gui):
    for r in gui["commands"].values():
        r["version"] = gui["version"]
    assert _failures(gui, _changing) == {}


def test_a_solve_leaves_every_object_untouched(gui):
    """No part is left Touched by reading its material (FreeCAD 1.0 marks a part whose
    ShapeMaterial is asked for a value), nor the study by its new Result."""
    r = gui["commands"]["SimPhant_Solve"]
    assert r["steps"] == 1 and r["touched"] == []


def _reading(name, r):
    if name not in READ_ONLY:
        if name == "SimPhant_ImportAssembly" and int(r["version"][0]) < 1:
            # FreeCAD 0.20 has no Assembly workbench: the command is disabled
            return None if (r["active"] is False and r["steps"] == 0
                            and not r["unchanged"]) else r
        return None
    wrong = {k: r.get(k) for k in ("unchanged", "reopen_after") if r.get(k)}
    if not r["active"]:
        wrong["active"] = False
    if r["steps"] != 0 or r["changed"]:
        wrong["steps, changed"] = [r["steps"], r["changed"]]
    return wrong


def test_reading_commands_leave_no_undo_step_and_the_document_as_it_was(gui):
    for r in gui["commands"].values():
        r["version"] = gui["version"]
    assert _failures(gui, _reading) == {}
    wrote = {n: gui["commands"][n]["wrote"] for n in ("SimPhant_ExportResultsCSV",
                                                       "SimPhant_ExportResultPlots",
                                                       "SimPhant_ExportAnimation")}
    assert all(wrote.values()), wrote              # they ran, and wrote their files
