"""The script both the GUI test of a profile without numba (tests/gui) and the Addon
Manager tier (tests/addon) run in FreeCAD: activate the workbench, read the dependency
dialog, the Solve command's state and tooltip (its own and the toolbar action's), open the
bundled slider-crank (``EXAMPLES``), try to solve it from a script and through the Solve
command's job."""

DIALOG = r'''
import os, time
import FreeCAD, FreeCADGui
from PySide import QtGui
res = {}
try:
    FreeCADGui.activateWorkbench("SimPhantWorkbench")
    res["active"] = FreeCADGui.activeWorkbench().name()
    for _ in range(50):
        QtGui.QApplication.processEvents()
        time.sleep(0.02)
    from SimPhantWorkbench.gui import dependencies
    from SimPhantWorkbench.commands import cmd_run
    d = dependencies.last_dialog()
    res["dialog"] = d is not None and d.isVisible()
    res["title"] = d.windowTitle() if d else ""
    res["text"] = d.findChild(QtGui.QPlainTextEdit, "report").toPlainText() if d else ""
    res["buttons"] = [b.text() for b in d.findChildren(QtGui.QPushButton)] if d else []
    if d is not None and SHOTS:
        d.grab().save(os.path.join(SHOTS, "dependencies_%s.png" % os.path.basename(TMP)))
    solve = cmd_run.Solve()
    res["solve_tip"] = solve.GetResources()["ToolTip"]
    doc = FreeCAD.openDocument(os.path.join(EXAMPLES, "slider_crank.FCStd"))
    FreeCADGui.Selection.clearSelection()
    res["objects"] = len(doc.Objects)
    res["solve_active"] = solve.IsActive()
    res["check_active"] = cmd_run.CheckModel().IsActive()
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
    from SimPhantWorkbench.gui import common, solve_job
    shown = []
    common.message_hook = lambda kind, title, text: shown.append((kind, title, text))
    job = solve_job.start(studies(doc)[0])          # what the Solve command runs
    common.message_hook = None
    res["job_state"] = job.state
    res["job_message"] = shown[-1][2] if shown else ""
    if d is not None:
        d.close()
finally:
    finish(res)
'''
