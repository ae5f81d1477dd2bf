"""A fresh FreeCAD profile without numba (what the Addon Manager leaves when it refuses
numba): the workbench still activates, a dialog names numba and the command that
installs it for this FreeCAD, the commands that need the solver are greyed out with
the reason in their tooltip, documents with studies open and play back, Solve refuses
with the same advice."""
import os

from freecad_gui import ROOT, run_gui_script

SCRIPT = r'''
import os, time
import FreeCAD, FreeCADGui
from PySide import QtGui
res = {}
try:
    FreeCADGui.activateWorkbench("SimPhantWorkbench")
    res["active"] = FreeCADGui.activeWorkbench().name()
    for _ in range(40):
        QtGui.QApplication.processEvents()
        time.sleep(0.02)
    from SimPhantWorkbench.gui import dependencies
    d = dependencies.last_dialog()
    res["dialog_visible"] = d is not None and d.isVisible()
    res["title"] = d.windowTitle() if d else ""
    res["text"] = d.findChild(QtGui.QPlainTextEdit, "report").toPlainText() if d else ""
    res["buttons"] = [b.text() for b in d.findChildren(QtGui.QPushButton)] if d else []
    if d is not None and SHOTS:
        d.grab().save(os.path.join(SHOTS, "dependencies_dialog.png"))
    from SimPhantWorkbench.commands import cmd_run
    solve = cmd_run.Solve()
    res["solve_tip"] = solve.GetResources()["ToolTip"]
    doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
    FreeCADGui.Selection.clearSelection()
    res["objects"] = len(doc.Objects)
    res["solve_active"] = solve.IsActive()
    res["check_active"] = cmd_run.CheckModel().IsActive()
    res["new_study_active"] = FreeCADGui.Command.get("SimPhant_NewStudy").isActive() \
        if hasattr(FreeCADGui.Command, "get") else None
    actions = {a.objectName(): a for a in FreeCADGui.getMainWindow().findChildren(QtGui.QAction)}
    act = actions.get("SimPhant_Solve")
    res["action_tip"] = act.toolTip() if act is not None else None
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.document.base import studies
    try:
        runner.run_study(studies(doc)[0])
        res["solve"] = "ran"
    except ImportError as exc:
        res["solve"] = "%s: %s" % (type(exc).__name__, exc)
    d.close()
finally:
    finish(res)
'''


def test_without_numba_the_workbench_activates_and_says_what_to_install(tmp_path):
    home = tmp_path / "home"
    mod = home / ".local" / "share" / "FreeCAD" / "Mod"
    mod.mkdir(parents=True)
    os.symlink(ROOT, str(mod / "SimPhant"))
    res, proc = run_gui_script(tmp_path, "no_numba", SCRIPT, env=dict(HOME=str(home)))
    assert res.get("active") == "SimPhantWorkbench", proc.stderr[-3000:]
    assert res["dialog_visible"] and res["title"] == "SimPhant: dependencies missing"
    text = res["text"]
    assert "numba" in text and "missing: not installed" in text
    target = str(home / ".local" / "share" / "FreeCAD" / "AdditionalPythonPackages")
    assert "-m pip install" in text and "--target %s" % target in text
    assert "numba==0.68.1 llvmlite==0.50.0" in text and "--no-deps" in text
    assert "Copy commands" in res["buttons"]
    assert res["solve_tip"].startswith("Not available: numba is missing")
    assert res["objects"] > 5
    assert res["solve_active"] is False and res["check_active"] is False
    if res["action_tip"] is not None:
        assert "numba is missing" in res["action_tip"]
    assert res["solve"].startswith("DependencyError") and "numba==0.68.1" in res["solve"]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
