"""The Check model command in the real FreeCAD GUI (under Xvfb) shows the DOF report of
the selected study: on the bundled slider-crank (a planar loop of spatial revolutes) the
mobility, the redundant rows by joint label and the joint kinds that remove them; the
document is left as it was. On the bundled four-bar with two drivers that disagree, it
shows the text of the run's error: the two drivers, not the loop."""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import json, os, traceback
    import FreeCAD, FreeCADGui
    res = {}
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.document.base import is_type
        doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
        FreeCADGui.updateGui()
        study = [o for o in doc.Objects if is_type(o, "SimPhant::Study")][0]
        before = [(o.Name, tuple(o.Placement.Base), tuple(o.Placement.Rotation.Q))
                  for o in doc.Objects if hasattr(o, "Placement")]
        seen = []
        common.message_hook = lambda kind, title, text: seen.append([kind, title, text])
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(study)
        res["active"] = FreeCADGui.isCommandActive("SimPhant_Check")
        FreeCADGui.runCommand("SimPhant_Check")
        FreeCADGui.updateGui()
        res["messages"] = list(seen)
        after = [(o.Name, tuple(o.Placement.Base), tuple(o.Placement.Rotation.Q))
                 for o in doc.Objects if hasattr(o, "Placement")]
        res["unchanged"] = before == after
        res["joints"] = [o.Label for o in study.Group if is_type(o, "SimPhant::Joint")]

        # the four-bar with two drivers that disagree: Check model and the run, same text
        import shutil
        from SimPhantWorkbench import factory, runner
        path = os.path.join(TMP, "four_bar.FCStd")
        shutil.copy(os.path.join(ROOT, "examples", "four_bar.FCStd"), path)
        bar = FreeCAD.openDocument(path)
        FreeCADGui.updateGui()
        study = [o for o in bar.Objects if is_type(o, "SimPhant::Study")][0]
        factory.make_driver(study, bar.getObject("JointA"), "rotation", "constant",
                            name="HoldCrank", Angle="0 deg")
        factory.make_driver(study, bar.getObject("JointD"), "rotation", "constant",
                            name="HoldRocker", Angle="5 deg")
        del seen[:]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(study)
        FreeCADGui.runCommand("SimPhant_Check")
        FreeCADGui.updateGui()
        res["conflict_messages"] = list(seen)
        try:
            runner.run_study(study, t_end=0.05)
        except Exception as exc:
            res["conflict_run"] = str(exc)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, _proc = run_gui_script(tmp_path_factory.mktemp("check_gui"), "check_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_check_shows_the_dof_report_of_the_study(gui):
    assert gui["active"]
    assert len(gui["messages"]) == 1
    kind, title, text = gui["messages"][0]
    assert kind == "info" and "check" in title
    lines = text.splitlines()
    assert "DOF: -2 (Gruebler: 6 x 3 moving bodies - 20 constraint equations)" in lines
    assert "Mobility: 1 (rank of the constraint Jacobian 17 of 20 equations at t = 0)" in lines
    redundant = [l for l in lines if l.startswith("Redundant: ")]
    assert len(redundant) == 1
    assert any(j + " rows " in redundant[0] for j in gui["joints"])
    suggestions = [l for l in lines if l.startswith("Suggestion: replace ")]
    assert suggestions and all(any(l.startswith("Suggestion: replace %s (" % j)
                                   for j in gui["joints"]) for l in suggestions)


def test_check_leaves_the_document_as_it_was(gui):
    assert gui["unchanged"]


def test_check_names_the_two_drivers_that_conflict_as_the_run_does(gui):
    (kind, _title, text), = gui["conflict_messages"]
    run = gui["conflict_run"]
    assert "HoldCrank (0 mm, " in run and "conflicts with HoldRocker (0 mm, 5 deg off" in run
    solver_text = run.split("Study 'Study': ", 1)[1]
    assert "Warning: not assembled (%s): analysed at the given positions" % solver_text \
        in text.splitlines()
