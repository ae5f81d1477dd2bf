"""Align and Set offset in the joint panel, on an assembly of parts linked from other files
(the project's own fixture, ``tests/app/linked_assembly.py``), everything by clicks through
the real selection path (``Gui.Selection.addSelection`` with the assembly's top-level object
and the sub-element path through the ``App::Link``):

* OK on frames that do not meet asks (Align / Keep / Cancel) -- the real dialog;
* Set offset keeps the measured gap along the axis as the joint's Offset;
* Align moves the linked part (its App::Link's Placement in the assembly, never the part's
  file) so that the revolute's frames meet, in one undo step that Undo takes back; Cancel
  takes it back too;
* the aligned crank then turns about the pivot as the closed form says."""
import math
import os
import textwrap

import numpy as np
import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import numpy as np
    import FreeCAD, FreeCADGui
    from PySide import QtCore, QtGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    import linked_assembly as LA
    res = {"messages": [], "dialog": []}

    def select(doc, obj, sub):
        FreeCADGui.Selection.clearSelection()
        FreeCADGui.Selection.addSelection(doc.Name, obj.Name, sub)
        pump()

    def pl(obj):
        return list(obj.Placement.Base) + list(obj.Placement.Rotation.Q)

    def answer_dialog(button):
        def click():
            box = QtGui.QApplication.activeModalWidget()
            if box is None:
                QtCore.QTimer.singleShot(100, click)
                return
            res["dialog"].append(box.text())
            for b in box.buttons():
                if b.text() == button:
                    b.click()
        QtCore.QTimer.singleShot(200, click)

    def open_panel(doc, model, first, second):
        FreeCADGui.runCommand("SimPhant_Joint_revolute")
        pump()
        panel = TaskJoint.current
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, first)
        pump()
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, second)
        pump()
        return panel

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.document.base import study_bodies, study_joints
        from SimPhantWorkbench.document.references import reference_frame
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        doc = LA.build(TMP, datums=True)
        FreeCAD.setActiveDocument(doc.Name)
        FreeCADGui.ActiveDocument = FreeCADGui.getDocument(doc.Name)
        FreeCADGui.ActiveDocument.ActiveView.viewIsometric()
        model = doc.getObject("Model")
        crank_link = doc.getObject("Crank_1")
        part = crank_link.LinkedObject
        res["part_before"] = pl(part)
        res["start"] = pl(crank_link)
        FreeCADGui.runCommand("SimPhant_NewStudy")
        pump()
        study = common.active_study(doc)
        select(doc, model, "Ground_1.Sketch.Edge1")
        FreeCADGui.runCommand("SimPhant_AddFixedBody")
        pump()
        select(doc, model, "Crank_1.Bar.Face2")
        FreeCADGui.runCommand("SimPhant_AddBody")
        pump()
        doc.commitTransaction() if doc.HasPendingTransaction else None

        # 1. Set offset, then OK on the still misaligned frames: the real dialog, "Keep"
        panel = open_panel(doc, model, "Ground_1.LCS_Pivot.", "Crank_1.LCS_Tip.")
        res["gap_before"] = panel.gap_label.text()
        res["buttons_shown"] = [panel.align_button.isVisibleTo(panel.form),
                                panel.gap_offset.isVisibleTo(panel.form)]
        panel.form.grab().save(os.path.join(TMP, "misaligned_panel.png"))
        panel.gap_offset.click()
        pump()
        res["offset_set"] = panel.offset_mm()
        res["gap_after_offset"] = panel.gap_label.text()
        answer_dialog("Keep")
        res["kept"] = bool(panel.accept())
        pump()
        joint = study_joints(study)[0]
        res["stored_offset"] = float(joint.Offset.Value)
        res["crank_after_keep"] = pl(crank_link)
        res["undo_names_after_keep"] = list(doc.UndoNames[:2])
        doc.undo()                                   # the joint goes
        pump()
        res["joints_after_undo"] = len(study_joints(study))

        # 2. Cancel in the dialog keeps the panel open; Cancel of the panel takes Align back
        common.message_hook = lambda kind, title, text: (
            res["messages"].append([kind, text]), "cancel")[1]
        panel = open_panel(doc, model, "Ground_1.LCS_Pivot.", "Crank_1.LCS_Tip.")
        res["cancelled_ok"] = bool(panel.accept())
        res["panel_open_after_cancel"] = not panel.closed
        panel.align_button.click()
        pump()
        res["moved_in_panel"] = pl(crank_link)
        res["gap_in_panel"] = panel.gap_label.text()
        panel.reject()
        pump()
        res["after_panel_cancel"] = pl(crank_link)
        res["undo_names_after_cancel"] = list(doc.UndoNames[:1])

        # 3. Align, Undo (one step), Align again, OK: no question asked
        common.message_hook = lambda kind, title, text: res["messages"].append([kind, text])
        panel = open_panel(doc, model, "Ground_1.LCS_Pivot.", "Crank_1.LCS_Tip.")
        panel.align_button.click()
        pump()
        res["aligned"] = pl(crank_link)
        res["undo_names_after_align"] = list(doc.UndoNames[:1])
        doc.undo()
        pump()
        panel.update()
        res["after_undo"] = pl(crank_link)
        res["gap_after_undo"] = panel.gap_label.text()
        panel.align_button.click()
        pump()
        res["gap_aligned"] = panel.gap_label.text()
        shot = os.path.join(TMP, "align_panel.png")
        panel.form.grab().save(shot)
        view_shot = os.path.join(TMP, "align_view.png")
        FreeCADGui.ActiveDocument.ActiveView.fitAll()
        FreeCADGui.ActiveDocument.ActiveView.saveImage(view_shot, 640, 480, "White")
        res["shots"] = [shot, view_shot, os.path.join(TMP, "misaligned_panel.png")]
        if SHOTS:
            import shutil
            for f in res["shots"]:
                shutil.copy(f, SHOTS)
        n = len(res["messages"])
        res["accepted"] = bool(panel.accept())
        pump()
        res["asked_on_aligned_ok"] = [m for m in res["messages"][n:] if m[0] == "choice"]
        res["part_after"] = pl(part)
        joint = study_joints(study)[0]
        factory.make_driver(study, joint, function="ramp", name="Motor", Speed=60)
        crank = [b for b in study_bodies(study) if not b.Fixed][0]
        r = runner.run_study(study, t_end=0.5, dt=1e-3, output_dt=0.01)
        A = r.rotation_matrix(crank.Label)
        p0 = np.array(reference_frame(crank_link, "LCS_Pivot.").point)
        local = A[0].T @ (p0 - r.position(crank.Label)[0])
        res["t"] = [float(x) for x in r.t]
        res["end_path"] = r.point_position(crank.Label, local).tolist()
        res["tip"] = list(reference_frame(crank_link, "LCS_Tip.").point)

        # 4. datum line, plane and point picked whole through the link, in the panel
        FreeCADGui.runCommand("SimPhant_Joint_revolute")
        pump()
        panel = TaskJoint.current
        origin = part.Origin.Name
        FreeCADGui.Selection.addSelection(doc.Name, model.Name, "Crank_1.%s." % origin)
        pump()
        res["origin_refusal"] = panel.refusal.text()
        for first, second, kind in (("Ground_1.LCS_Pivot.", "Crank_1.Line_Tip.", "revolute"),
                                    ("Ground_1.LCS_Pivot.", "Crank_1.Plane_Top.", "planar"),
                                    ("Ground_1.LCS_Pivot.", "Crank_1.Point_Tip.", "spherical")):
            panel.kind_box.setCurrentIndex(panel.kind_box.findData(kind))
            panel.repick(0)
            select(doc, model, first)          # a fresh click: the selection cleared first
            select(doc, model, second)
            res["datum_" + kind] = [[r[1].Name, r[2]] for r in panel.refs] + [
                panel.update(), panel.gap_label.text()]
        panel.reject()
        pump()
    except Exception:
        res["error"] = traceback.format_exc()
    finally:
        finish(res)
''')

PIVOT = np.array([20.0, 30.0, 10.0])


@pytest.fixture(scope="module")
def align(tmp_path_factory):
    res, _ = run_gui_script(tmp_path_factory.mktemp("align_gui"), "align_gui", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_ok_on_misaligned_frames_asks_and_set_offset_stores_the_gap(align):
    assert align["gap_before"].startswith("Not aligned") and "(5 mm along the axis)" \
        in align["gap_before"]
    assert align["buttons_shown"] == [True, True]
    assert align["offset_set"] == pytest.approx(5.0, abs=1e-9)
    assert "(0 mm along the axis)" in align["gap_after_offset"]
    assert len(align["dialog"]) == 1 and "Not aligned" in align["dialog"][0]
    assert "Align the body now" in align["dialog"][0]
    assert align["kept"] and align["stored_offset"] == pytest.approx(5.0, abs=1e-9)
    assert align["crank_after_keep"] == align["start"]        # Keep moves nothing
    assert align["joints_after_undo"] == 0


def test_cancel_in_the_question_stays_in_the_panel_and_cancel_takes_align_back(align):
    assert not align["cancelled_ok"] and align["panel_open_after_cancel"]
    assert any(kind == "choice" for kind, _ in align["messages"])
    assert align["moved_in_panel"] != align["start"]
    assert align["gap_in_panel"].startswith("Aligned")
    assert np.allclose(align["after_panel_cancel"], align["start"], atol=1e-12)
    assert not align["undo_names_after_cancel"] or \
        not align["undo_names_after_cancel"][0].startswith("Align")


def test_align_moves_the_link_in_one_undo_step(align):
    assert align["undo_names_after_align"] == ["Align 'Crank_1_body' to joint"]
    assert np.allclose(align["after_undo"], align["start"], atol=1e-12)
    assert align["gap_after_undo"].startswith("Not aligned")
    assert align["gap_aligned"].startswith("Aligned")
    assert align["accepted"] and align["asked_on_aligned_ok"] == []
    assert align["part_after"] == align["part_before"]        # the linked file untouched
    assert np.allclose(np.array(align["tip"]) * 1e3, PIVOT, atol=1e-9)
    for shot in align["shots"]:
        assert os.path.getsize(shot) > 1000


def test_datum_lines_planes_and_points_are_picked_through_the_link(align):
    assert "datum coordinate system, line, plane or point" in align["origin_refusal"]
    for kind, datum in (("revolute", "Line_Tip."), ("planar", "Plane_Top."),
                        ("spherical", "Point_Tip.")):
        refs = align["datum_" + kind]
        assert refs[:2] == [["Ground_1", "LCS_Pivot."], ["Crank_1", datum]], refs
        assert refs[2] and refs[3].startswith("Aligned"), refs        # the tip is on the pivot


def test_the_aligned_crank_turns_about_the_pivot_as_the_closed_form(align):
    t = np.array(align["t"])
    path = np.array(align["end_path"]) * 1e3 - PIVOT
    theta = 2.0 * math.pi * t                                 # 60 rpm ramp, Speed = 60
    assert len(t) == 51
    # the crank's pivot LCS, 100 mm along the bar and 5 mm below its tip's LCS
    assert np.allclose(np.linalg.norm(path[:, :2], axis=1), 100.0, atol=1e-6)
    assert np.allclose(path[:, 2], -5.0, atol=1e-9)
    cos = path[:, :2] @ path[0, :2] / 100.0 ** 2
    assert np.allclose(cos, np.cos(theta), atol=1e-6)
