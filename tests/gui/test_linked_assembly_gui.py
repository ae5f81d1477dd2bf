"""A designer's own assembly in the GUI: parts in separate files linked into an assembly
(Assembly4's way: an App::Part "Model" holding App::Links), bodies and a joint made by
clicks through the real selection path (``Gui.Selection.addSelection`` with the top-level
object and the sub-element path through the link, which is what a 3-D click delivers),
the joint on the parts' datum coordinate systems, solved and checked against the closed
form of a crank turned by a motor."""
import textwrap

import numpy as np
import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import numpy as np
    import FreeCAD, FreeCADGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    import linked_assembly as LA
    res = {"messages": []}

    def select(doc, obj, sub):
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, obj.Name, sub)
        pump()

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.commands import all_commands
        from SimPhantWorkbench.document.base import study_bodies, study_joints
        from SimPhantWorkbench.document.links import REFERENCE_TYPE
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        common.message_hook = lambda kind, title, text: res["messages"].append([kind, text])
        doc = LA.build(TMP)
        FreeCAD.setActiveDocument(doc.Name)
        FreeCADGui.ActiveDocument = FreeCADGui.getDocument(doc.Name)
        model = doc.getObject("Model")
        FreeCADGui.runCommand("SimPhant_NewStudy")
        pump()
        study = common.active_study(doc)
        commands = all_commands()

        # bodies by 3-D clicks on the linked parts; the ground is a sketch-only part
        select(doc, model, "Ground_1.Sketch.Edge1")
        res["add_body_active_on_sketch"] = bool(commands["SimPhant_AddBody"].IsActive())
        FreeCADGui.runCommand("SimPhant_AddBody")          # moving: refused, with the reason
        pump()
        res["bodies_after_moving_sketch"] = len(study_bodies(study))
        select(doc, model, "Ground_1.Sketch.Edge1")
        FreeCADGui.runCommand("SimPhant_AddFixedBody")
        pump()
        select(doc, model, "Crank_1.Bar.Face2")
        FreeCADGui.runCommand("SimPhant_AddBody")
        pump()
        res["bodies"] = sorted([b.ShapeObject.Name, bool(b.Fixed)] for b in study_bodies(study))

        # the joint: one element picked before the command, the rest in its panel
        select(doc, model, "Ground_1.LCS_Pivot.")
        FreeCADGui.runCommand("SimPhant_Joint_revolute")
        pump()
        panel = TaskJoint.current
        res["after_preselection"] = [None if r is None else [r[1].Name, r[2]]
                                     for r in panel.refs]
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, "Crank_1.Bar.")
        pump()
        res["whole_part_refusal"] = panel.refusal.text()
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, "Ground_1.Sketch.Edge2")
        pump()
        res["same_body_refusal"] = panel.refusal.text()
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, "Crank_1.LCS_Tip.")
        pump()
        res["tip_gap"] = [panel.gap_label.text(), panel.gap_offset.isVisibleTo(panel.form)]
        panel.gap_offset.click()
        pump()
        res["tip_gap_offset"] = [panel.offset_mm(), panel.gap_label.text()]
        panel.offset.setProperty("rawValue", 0.0)
        pump()
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, "Crank_1.LCS_Pivot.")
        pump()
        res["pivot_gap"] = [panel.gap_label.text(), panel.gap_offset.isVisibleTo(panel.form)]
        res["panel_refs"] = [None if r is None else [r[0].Label, r[1].Name, r[2]]
                             for r in panel.refs]
        res["ready"] = panel.update()
        res["accepted"] = bool(panel.accept())
        pump()
        joint = study_joints(study)[0]
        res["stored"] = [[joint.getTypeIdOfProperty(p), getattr(joint, p)[0].Name,
                          list(getattr(joint, p)[1])] for p in ("Reference1", "Reference2")]
        factory.make_driver(study, joint, function="ramp", name="Motor", Speed=60)
        crank = [b for b in study_bodies(study) if not b.Fixed][0]
        r = runner.run_study(study, t_end=0.5, dt=1e-3, output_dt=0.01)
        A = r.rotation_matrix(crank.Label)
        rel = np.einsum("nij,kj->nik", A, A[0])          # A(t) A(0)^T
        res["t"] = [float(x) for x in r.t]
        res["rel"] = rel.tolist()
        pivot = np.array(LA.PIVOT) * 1e-3
        local = A[0].T @ (pivot - r.position(crank.Label)[0])
        res["pivot_path"] = r.point_position(crank.Label, local).tolist()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    res, _ = run_gui_script(tmp_path_factory.mktemp("linked_gui"), "linked_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_a_sketch_only_linked_part_is_refused_as_moving_body_with_the_reason(linked):
    assert linked["add_body_active_on_sketch"]
    assert linked["bodies_after_moving_sketch"] == 0
    assert any(kind == "warning" and "'Ground_1' has no solid" in text
               and "fixed body" in text for kind, text in linked["messages"]), linked["messages"]


def test_clicks_on_linked_parts_make_their_links_bodies(linked):
    assert linked["bodies"] == [["Crank_1", False], ["Ground_1", True]]


def test_the_joint_panel_takes_clicks_through_links_and_says_why_it_refuses(linked):
    assert linked["after_preselection"] == [["Ground_1", "LCS_Pivot."], None]
    assert "datum coordinate system" in linked["whole_part_refusal"]
    assert "like reference 1" in linked["same_body_refusal"]
    assert linked["panel_refs"] == [["Ground_1_body", "Ground_1", "LCS_Pivot."],
                                    ["Crank_1_body", "Crank_1", "LCS_Pivot."]]
    assert linked["ready"] and linked["accepted"]


def test_the_joint_panel_shows_whether_the_frames_meet(linked):
    text, offer = linked["tip_gap"]
    # the tip's LCS is 100 mm out along the bar and 5 mm up from the pivot's
    assert text.startswith("Not aligned") and "(5 mm along the axis)" in text, text
    assert offer
    offset, text = linked["tip_gap_offset"]
    assert abs(offset) == pytest.approx(5.0) and "(0 mm along the axis)" in text, text
    assert linked["pivot_gap"] == ["Aligned: the two frames meet the joint's constraints.",
                                   False]
    assert linked["stored"] == [["App::PropertyLinkSubGlobal", "Ground_1", ["LCS_Pivot."]],
                                ["App::PropertyLinkSubGlobal", "Crank_1", ["LCS_Pivot."]]]


def test_the_crank_turns_about_the_lcs_pivot_at_the_motor_speed(linked):
    t = np.array(linked["t"])
    rel = np.array(linked["rel"])
    theta = 2.0 * np.pi * t                                # 60 rpm
    assert len(t) == 51
    assert np.allclose(rel[:, 2], [0, 0, 1], atol=1e-9)   # about z only
    assert np.allclose(rel[:, 0, 0], np.cos(theta), atol=1e-6)
    assert np.allclose(np.abs(rel[:, 1, 0]), np.abs(np.sin(theta)), atol=1e-6)
    pivot = np.array([20.0, 30.0, 10.0]) * 1e-3
    assert np.allclose(linked["pivot_path"], pivot, atol=1e-9)
