"""The orientation joints made through their commands and panels (generated from the joint
registry): for each of parallel, perpendicular and angle, the command opens the joint panel,
two faces picked through the selection give the joint their normals as z axes (the angle
joint's panel shows its Angle field, with units, and only it), OK creates the joint, and the
study solves with every joint holding what it keeps while the plates swing on ball joints.
"""
import math
import textwrap

import numpy as np
import pytest

from freecad_gui import run_gui_script

SCRIPT = textwrap.dedent('''
    import os, sys, traceback
    import numpy as np
    import FreeCAD, FreeCADGui
    sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
    from gui_events import pump
    res = {"messages": []}
    V = FreeCAD.Vector

    def face_with_normal(obj, n):
        for i, f in enumerate(obj.Shape.Faces, 1):
            if f.normalAt(0, 0).sub(n).Length < 1e-9:
                return "Face%d" % i
        raise ValueError(n)

    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        from SimPhantWorkbench import factory, runner
        from SimPhantWorkbench.document.base import study_joints
        from SimPhantWorkbench.gui import common
        from SimPhantWorkbench.taskpanels.task_joint import TaskJoint
        common.message_hook = lambda kind, title, text: res["messages"].append([kind, text])
        doc = FreeCAD.newDocument("Orient")
        base = doc.addObject("Part::Box", "Base")
        base.Length, base.Width, base.Height = 400, 100, 20
        base.Placement.Base = V(-50, -50, 100)
        tilt = FreeCAD.Rotation(V(1, 0, 0), 30)
        plates = {}
        for i, kind in enumerate(("parallel", "perpendicular", "angle")):
            p = doc.addObject("Part::Box", "Plate_" + kind)
            p.Length, p.Width, p.Height = 60, 40, 8
            p.Placement = FreeCAD.Placement(V(120 * i, 0, 0), tilt)
            plates[kind] = p
        doc.recompute()
        study = factory.make_study(doc)
        factory.make_body(study, base, fixed=True)
        for kind, p in plates.items():
            factory.make_body(study, p)
            # a ball joint at the plate's far corner (explicit frames: no pick needed)
            corner = p.Placement.multVec(V(60, 40, 8))
            at = FreeCAD.Placement(corner, FreeCAD.Rotation())
            factory.make_joint(study, "spherical", (base, ""), (p, ""), placements=(
                base.Placement.inverse().multiply(at), p.Placement.inverse().multiply(at)))
        FreeCADGui.ActiveDocument = FreeCADGui.getDocument(doc.Name)
        pump()
        side_x = face_with_normal(base, V(1, 0, 0))
        top = face_with_normal(base, V(0, 0, 1))
        tilted_top = tilt.multVec(V(0, 0, 1))
        picks = {"parallel": (side_x, V(1, 0, 0)),          # x faces: parallel normals
                 "perpendicular": (top, V(1, 0, 0)),        # base's z, the plate's x
                 "angle": (top, V(0, 0, 1))}                # 30 deg apart
        res["panels"] = {}
        for kind, (base_face, local_normal) in picks.items():
            p = plates[kind]
            FreeCADGui.Selection.clearSelection()
            FreeCADGui.runCommand("SimPhant_Joint_" + kind)
            pump()
            panel = TaskJoint.current
            info = {"kind": panel.kind, "angle_shown": panel.angle.isVisibleTo(panel.form),
                    "angle_unit": str(panel.angle.property("unit"))}
            FreeCADGui.Selection.addSelection(doc.Name, base.Name, base_face)
            pump()
            FreeCADGui.Selection.addSelection(doc.Name, p.Name,
                                              face_with_normal(p, p.Placement.Rotation.multVec(
                                                  local_normal)))
            pump()
            if kind == "angle":
                panel.angle.setProperty("rawValue", 30.0)
                pump()
            f1, f2 = panel.frames()
            info["z1"] = list(f1.Rotation.multVec(V(0, 0, 1)))
            info["z2"] = list(f2.Rotation.multVec(V(0, 0, 1)))
            info["gap"] = list(panel.gap())
            info["status"] = panel.status.text()
            panel.form.grab().save(os.path.join(TMP, "panel_%s.png" % kind))
            info["ok"] = bool(panel.accept())
            pump()
            res["panels"][kind] = info
        joints = [j for j in study_joints(study) if j.JointType in picks]
        res["joints"] = {j.JointType: [j.Label, float(j.Angle.Value)] for j in joints}
        r = runner.run_study(study, t_end=0.4, dt=1e-3, output_dt=0.01, method="rk4")
        bodies = {b.ShapeObject.Name: b for b in study.Group if hasattr(b, "ShapeObject")}
        out = {}
        for kind, p in plates.items():
            R = r.rotation_matrix(runner.result_key(study, bodies[p.Name]))
            out[kind] = {"R": R.tolist(), "pos": r.position(
                runner.result_key(study, bodies[p.Name])).tolist()}
        res["run"] = out
        FreeCADGui.getMainWindow().grab().save(os.path.join(TMP, "orientation_joints.png"))
    except Exception:
        res["error"] = traceback.format_exc()
    finish(res)
''')


@pytest.fixture(scope="module")
def gui(tmp_path_factory):
    res, proc = run_gui_script(tmp_path_factory.mktemp("orient"), "orient", SCRIPT)
    assert "error" not in res, res["error"]
    return res


def test_each_orientation_command_opens_its_panel_with_its_fields(gui):
    for kind, info in gui["panels"].items():
        assert info["kind"] == kind
        assert info["angle_shown"] == (kind == "angle"), kind
        assert info["angle_unit"] in ("deg", "\u00b0")


def test_picked_faces_give_the_joint_their_normals(gui):
    p = gui["panels"]
    z1, z2 = np.array(p["parallel"]["z1"]), np.array(p["parallel"]["z2"])
    assert abs(abs(z1 @ z2) - 1.0) < 1e-12 and abs(abs(z1[0]) - 1.0) < 1e-12
    z1, z2 = np.array(p["perpendicular"]["z1"]), np.array(p["perpendicular"]["z2"])
    assert abs(z1 @ z2) < 1e-12 and abs(abs(z1[2]) - 1.0) < 1e-12
    z1, z2 = np.array(p["angle"]["z1"]), np.array(p["angle"]["z2"])
    assert math.degrees(math.acos(z1 @ z2)) == pytest.approx(30.0, abs=1e-9)
    for kind, info in p.items():
        assert info["gap"][:2] == pytest.approx([0.0, 0.0], abs=1e-9), (kind, info["status"])
        assert info["ok"], (kind, info["status"])
    assert sorted(gui["joints"]) == ["angle", "parallel", "perpendicular"]
    assert gui["joints"]["angle"][1] == pytest.approx(30.0)


def test_the_study_solves_with_each_joint_holding(gui):
    run = gui["run"]
    for kind, data in run.items():
        assert np.ptp(np.array(data["pos"]), axis=0).max() > 1e-3, kind     # it swings
    # the plate's axes at t, from those at t0 (independent of the body-frame convention)
    def axis(kind, v0):
        R = np.array(run[kind]["R"])
        return np.einsum("nij,j->ni", R, R[0].T @ np.asarray(v0, dtype=float))

    tilt = np.array([[1, 0, 0], [0, math.cos(math.radians(30)), -math.sin(math.radians(30))],
                     [0, math.sin(math.radians(30)), math.cos(math.radians(30))]])
    # (the constraint drift of a 1 ms step on these 60 mm plates stays below 1e-5; a
    # joint not holding would be off by tenths)
    np.testing.assert_allclose(axis("parallel", [1, 0, 0]), [[1, 0, 0]] * 41, atol=1e-5)
    np.testing.assert_allclose(axis("perpendicular", [1, 0, 0])[:, 2], 0.0, atol=1e-5)
    np.testing.assert_allclose(axis("angle", tilt[:, 2])[:, 2], math.cos(math.radians(30)),
                               atol=1e-5)
