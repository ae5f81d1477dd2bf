"""The Loads to FEM command in the real FreeCAD GUI (under Xvfb): on the bundled
slider-crank, with the connecting rod selected and the instant of peak wrist-pin
force, it creates a FEM Analysis, runs CalculiX and leaves FEM's result object with
von Mises stresses and FEM's post-processing pipeline showing them; one undo removes everything it
created; the line it ran is in the Python console's history. Without CalculiX it
explains what to install and creates nothing."""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    from PySide import QtGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import runner
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.commands import cmd_fem
        from SimPhantWorkbench.document.base import is_type
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        study.EndTime = 0.5
        runner.run_study(study)
        seen = []
        common.message_hook = lambda kind, title, text: seen.append([kind, title, text])
        asked = []

        def ask(st, body):
            asked.append(body.Name)
            return body, "peak:reaction(WristPin)", 6.0
        cmd_fem.LoadsToFEM.ask = staticmethod(ask)
        # without CalculiX on the PATH: explained, nothing created
        path = os.environ["PATH"]
        os.environ["PATH"] = "/nonexistent"
        names0 = sorted(o.Name for o in doc.Objects)
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.getObject("RodLink"))
        FreeCADGui.runCommand("SimPhant_LoadsToFEM")
        os.environ["PATH"] = path
        res["missing"] = list(seen)
        res["missing_unchanged"] = sorted(o.Name for o in doc.Objects) == names0
        del seen[:]
        res["active"] = FreeCADGui.isCommandActive("SimPhant_LoadsToFEM")
        FreeCADGui.runCommand("SimPhant_LoadsToFEM")
        FreeCADGui.updateGui()
        res["asked"] = asked
        res["messages"] = seen
        new = [o for o in doc.Objects if o.Name not in names0]
        res["created"] = [[o.Name, o.TypeId] for o in new]
        results = [o for o in new if o.isDerivedFrom("Fem::FemResultObject")]
        res["von_mises"] = [max(r.vonMises) for r in results]
        res["analysis"] = [o.Name for o in new if o.isDerivedFrom("Fem::FemAnalysis")]
        res["pipelines"] = [[o.Name, o.ViewObject.Visibility] for o in new
                            if o.isDerivedFrom("Fem::FemPostPipeline")]
        res["in_analysis"] = sorted(o.Name for a in res["analysis"]
                                    for o in doc.getObject(a).Group)
        res["undo_names"] = list(doc.UndoNames)
        FreeCADGui.SendMsgToActiveView("ViewFit")
        FreeCADGui.updateGui()
        if SHOTS:
            for o in doc.Objects:
                if hasattr(o, "ViewObject") and o.ViewObject and o not in new:
                    o.ViewObject.Visibility = False
            FreeCADGui.SendMsgToActiveView("ViewFit")
            FreeCADGui.updateGui()
            QtGui.QGuiApplication.primaryScreen().grabWindow(0).save(
                os.path.join(SHOTS, "loads_to_fem.png"))
        doc.undo()
        FreeCADGui.updateGui()
        res["after_undo"] = sorted(o.Name for o in doc.Objects) == names0
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, _proc = run_gui_script(tmp_path_factory.mktemp("fem_gui"), "fem_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_without_calculix_the_command_explains_and_creates_nothing(gui):
    assert len(gui["missing"]) == 1
    kind, _title, text = gui["missing"][0]
    assert kind == "warning" and "CalculiX" in text and "make setup" in text
    assert gui["missing_unchanged"]


def test_command_creates_the_analysis_runs_calculix_and_shows_von_mises(gui):
    assert gui["active"]
    assert gui["asked"] == ["ConnectingRod"]              # the selected shape's body
    assert len(gui["analysis"]) == 1
    assert gui["von_mises"] and gui["von_mises"][0] > 0
    assert len(gui["pipelines"]) == 1 and gui["pipelines"][0][1]     # FEM's pipeline, shown
    assert [k for k, _t, _x in gui["messages"]] == ["info"]
    assert "peak von Mises" in gui["messages"][0][2]
    created = {name for name, _type in gui["created"]}
    assert set(gui["in_analysis"]) <= created
    assert "Loads to FEM" in gui["undo_names"]


def test_undo_removes_everything_the_command_created(gui):
    assert gui["after_undo"]
