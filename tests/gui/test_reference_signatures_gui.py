"""References that survive model edits, in the real FreeCAD GUI (under Xvfb): a crankshaft of
its own file linked into an assembly swings on its crank pin. The part's faces renumbered:
Check model re-points the revolute's reference and says so first. The pin's radius
changed: Check model names the joint, the reference and what changed; the joint's panel
refuses OK until the pin is picked again (a click through the link), which takes the new
signature, and Check model is then content. The pin made larger on purpose: Check model and
the joint panel say how to accept it, and Accept current elements on the joint does (one
undo step), after which Check model is content."""
import textwrap

import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import FreeCAD, FreeCADGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    import crankshaft_links as CL
    res = {"messages": []}

    def check(study):
        del res["messages"][:]
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(study)
        FreeCADGui.runCommand("SimPhant_Check")
        pump()
        return list(res["messages"])

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.document import signatures
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        common.message_hook = lambda kind, title, text: res["messages"].append([kind, text])
        doc, part_doc, study = CL.build(TMP)
        FreeCAD.setActiveDocument(doc.Name)
        FreeCADGui.ActiveDocument = FreeCADGui.getDocument(doc.Name)
        joint = doc.getObject("CrankPin")
        res["before"] = joint.Reference2[1][0]

        CL.set_crankshaft(part_doc, pin_first=False)      # faces renumbered
        doc.recompute()
        res["renumbered_check"] = check(study)
        res["after_renumbering"] = joint.Reference2[1][0]
        res["undo_names"] = list(doc.UndoNames)

        # the pin made thinner, and the faces numbered back: the name designates the journal
        CL.set_crankshaft(part_doc, pin_first=True, pin_radius=18.0)
        doc.recompute()
        res["changed_check"] = check(study)

        joint.ViewObject.Proxy.doubleClicked(joint.ViewObject)
        pump()
        panel = TaskJoint.current
        res["panel_status"] = panel.status.text()
        res["ok_refused"] = not panel.accept()
        pump()
        panel.repick(1)
        pin = "CrankshaftSolid." + CL.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                                    18.0, CL.PIN_X)
        FreeCADGui.Selection.addSelection(doc.Name, "Model", "Crank_1." + pin)
        pump()
        res["repicked_status"] = panel.status.text()
        res["accepted"] = bool(panel.accept())
        pump()
        res["stored"] = joint.Reference2[1][0]
        res["radius"] = signatures.stored_signature(joint, "Reference2")["radius"]
        res["final_check"] = check(study)

        # the pin made larger on purpose: Check model and the joint panel say how to accept
        # it; Accept current elements on the joint selected in the tree does, in one step
        CL.set_crankshaft(part_doc, pin_first=True, pin_radius=21.0)
        doc.recompute()
        res["enlarged_check"] = check(study)
        joint.ViewObject.Proxy.doubleClicked(joint.ViewObject)
        pump()
        res["enlarged_panel"] = TaskJoint.current.status.text()
        TaskJoint.current.reject()
        pump()
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(joint)
        undo0 = doc.UndoCount
        res["accept_active"] = FreeCADGui.isCommandActive("SimPhant_AcceptReferences")
        FreeCADGui.runCommand("SimPhant_AcceptReferences")
        pump()
        res["accept_step"] = [doc.UndoCount - undo0, doc.UndoNames[0],
                              signatures.stored_signature(joint, "Reference2")["radius"]]
        res["accepted_check"] = check(study)
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, _ = run_gui_script(tmp_path_factory.mktemp("signatures_gui"), "signatures_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_check_model_re_points_a_renumbered_reference_and_says_so_first(gui):
    (kind, text), = gui["renumbered_check"]
    assert kind == "info"
    lines = text.splitlines()
    assert lines[1] == ("References: Joint 'CrankPin': Reference2 re-pointed from "
                        "'Crank_1.%s' to 'Crank_1.%s' (the model was edited and the element "
                        "renumbered)" % (gui["before"], gui["after_renumbering"]))
    assert gui["after_renumbering"] != gui["before"]
    assert gui["undo_names"][0].startswith("SimPhant: re-point CrankPin Reference2")


def test_check_model_names_the_joint_and_what_changed_instead_of_assembly_failures(gui):
    (kind, text), = gui["changed_check"]
    assert kind == "warning"
    assert "Joint 'CrankPin': Reference2 'Crank_1.%s' was a cylinder r=20 mm at (60, 0, 45) " \
           "mm, axis (0, 0, 1); it is now a cylinder r=25 mm at (0, 0, 15) mm" \
           % gui["after_renumbering"] in text      # the name now designates the journal
    assert "re-pick it" in text and "assembled" not in text


def test_the_joint_panel_refuses_the_changed_reference_until_it_is_picked_again(gui):
    assert "Cannot keep this reference" in gui["panel_status"]
    assert "it is now a cylinder r=25 mm" in gui["panel_status"]
    assert gui["ok_refused"]
    assert gui["repicked_status"].startswith("Ready")
    assert gui["accepted"]
    assert gui["radius"] == pytest.approx(18.0)
    (kind, text), = gui["final_check"]
    assert kind == "info" and "re-pointed" not in text


def test_a_pin_enlarged_on_purpose_is_accepted_from_the_gui(gui):
    (kind, text), = gui["enlarged_check"]
    assert kind == "warning" and "it is now a cylinder r=21 mm" in text
    assert "if the change was deliberate, accept the element as it is now (select the " \
           "object and use SimPhant > Accept current elements" in text
    assert "SimPhant > Accept current elements" in gui["enlarged_panel"]
    assert gui["accept_active"]
    assert gui["accept_step"][:2] == [1, "Accept current elements of CrankPin"]
    assert gui["accept_step"][2] == pytest.approx(21.0, abs=1e-9)
    (kind, text), = gui["accepted_check"]
    assert kind == "info" and "re-pointed" not in text
