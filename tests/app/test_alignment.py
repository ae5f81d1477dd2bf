"""Align: the smallest motion of one body that makes a joint's frames meet the joint
(``solver.alignment.align_motion``, every kind of the registry, random poses), and
``document.picking.align_placement`` on an assembly of parts linked from other files."""
import math

import numpy as np
import pytest

import FreeCAD

import linked_assembly as LA
from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import factory
from SimPhantWorkbench.document import picking
from SimPhantWorkbench.document.base import study_bodies
from SimPhantWorkbench.solver import JOINT_TYPES
from SimPhantWorkbench.solver.alignment import align_motion
from SimPhantWorkbench.solver.dof import frame_residuals
from SimPhantWorkbench.solver.rotations import quat_to_matrix


def _rotation(rng):
    q = rng.normal(size=4)
    return quat_to_matrix(q / np.linalg.norm(q))


def _frames(rng):
    return [(rng.normal(size=3) * 0.1, _rotation(rng)) for _ in range(2)]


def _apply(motion, frame):
    R, b = motion
    return R @ frame[0] + b, R @ frame[1]


def _angle(R):
    return math.acos(float(np.clip((np.trace(R) - 1.0) / 2.0, -1.0, 1.0)))


@pytest.mark.parametrize("kind", list(JOINT_TYPES))
@pytest.mark.parametrize("move", [1, 2])
def test_after_align_every_row_of_the_kind_is_met(kind, move):
    rng = np.random.default_rng(list(JOINT_TYPES).index(kind) * 10 + move)
    length = 0.05 if "point2" in JOINT_TYPES[kind].needs else None
    angle = 0.9 if "angle" in JOINT_TYPES[kind].needs else None
    for _ in range(12):
        f1, f2 = _frames(rng)
        before = max(abs(v) for _, v in frame_residuals(kind, f1, f2, length, angle))
        motion = align_motion(kind, f1, f2, length, move=move, angle=angle)
        R, b = motion
        assert np.allclose(R.T @ R, np.eye(3), atol=1e-12) and np.linalg.det(R) > 0
        g1, g2 = (f1, _apply(motion, f2)) if move == 2 else (_apply(motion, f1), f2)
        after = max(abs(v) for _, v in frame_residuals(kind, g1, g2, length, angle))
        assert before > 1e-3 and after < 1e-10, (kind, before, after)


def test_a_revolute_swings_its_axis_by_the_least_angle_and_moves_the_origin_onto_the_other():
    rng = np.random.default_rng(7)
    for _ in range(10):
        f1, f2 = _frames(rng)
        R, b = align_motion("revolute", f1, f2)
        z1, z2 = f1[1][:, 2], f2[1][:, 2]
        tilt = math.acos(abs(float(z1 @ z2)))          # to the nearer of +z1, -z1
        assert _angle(R) == pytest.approx(tilt, abs=1e-7)   # no turn about z on top
        assert np.allclose(R @ f2[0] + b, f1[0], atol=1e-12)


def test_sliding_kinds_keep_the_position_along_the_axis():
    rng = np.random.default_rng(8)
    for _ in range(10):
        f1, f2 = _frames(rng)
        z1 = f1[1][:, 2]
        for kind in ("prismatic", "cylindrical"):
            R, b = align_motion(kind, f1, f2)
            p = R @ f2[0] + b
            assert (p - f2[0]) @ z1 == pytest.approx(0.0, abs=1e-9)      # shortest way
            assert np.linalg.norm(np.cross(p - f1[0], z1)) < 1e-10       # on the axis
        R, b = align_motion("planar", f1, f2)
        moved = R @ f2[0] + b - f2[0]
        assert np.linalg.norm(np.cross(moved, z1)) < 1e-10              # along the normal
        R, b = align_motion("spherical", f1, f2)
        assert np.allclose(R, np.eye(3)) and np.allclose(b, f1[0] - f2[0], atol=1e-12)


def test_frames_that_meet_the_joint_stay_where_they_are():
    p, R0 = np.array([0.1, 0.2, 0.3]), _rotation(np.random.default_rng(3))
    # side 2's z axis turned about x by what perpendicular and angle joints keep
    turn = {"perpendicular": math.pi / 2, "angle": 0.7}
    for kind in JOINT_TYPES:
        t = turn.get(kind, 0.0)
        Rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        R, b = align_motion(kind, (p, R0), (p, R0 @ Rx), angle=0.7 if kind == "angle" else None)
        assert np.allclose(R, np.eye(3)) and np.allclose(b, 0.0), kind


@pytest.fixture
def assembly(docs, tmp_path):  # noqa: F811
    docs()
    doc = LA.build(str(tmp_path))
    doc.getObject("Model").Placement = FreeCAD.Placement(FreeCAD.Vector(3, -4, 7),
                                                         FreeCAD.Rotation(10, 20, 30))
    doc.recompute()
    study = factory.make_study(doc)
    factory.make_body(study, doc.getObject("Ground_1"), fixed=True)
    factory.make_body(study, doc.getObject("Crank_1"))
    return doc, study


def test_align_moves_the_link_in_the_assembly_and_not_the_linked_part(assembly):
    doc, study = assembly
    ground, crank = doc.getObject("Ground_1"), doc.getObject("Crank_1")
    part = crank.LinkedObject
    part_placement = FreeCAD.Placement(part.Placement)
    bodies = study_bodies(study)
    refs = (ground, "LCS_Pivot."), (crank, "LCS_Tip.")
    assert picking.joint_gap("revolute", *refs, bodies)[0] > 50.0
    body, obj, placement = picking.align_placement("revolute", *refs, bodies)
    assert body.ShapeObject is crank and obj is crank
    obj.Placement = placement
    doc.recompute()
    distance, angle, _ = picking.joint_gap("revolute", *refs, bodies)
    assert distance < 1e-9 and angle < 1e-9
    assert part.Placement == part_placement and not crank.Placement == part_placement
    # with an offset the tip's LCS stands 5 mm above the pivot's after Align
    body, obj, placement = picking.align_placement("revolute", *refs, bodies, offset=5.0)
    obj.Placement = placement
    assert picking.joint_gap("revolute", *refs, bodies, offset=5.0)[0] < 1e-9
    assert picking.joint_gap("revolute", *refs, bodies)[2] == pytest.approx(5.0, abs=1e-9)


def test_align_moves_side_1_when_side_2_is_the_ground(assembly):
    doc, study = assembly
    ground, crank = doc.getObject("Ground_1"), doc.getObject("Crank_1")
    before = FreeCAD.Placement(ground.Placement)
    refs = (crank, "LCS_Tip."), (ground, "LCS_Pivot.")
    body, obj, placement = picking.align_placement("spherical", *refs, study_bodies(study))
    assert obj is crank
    obj.Placement = placement
    assert picking.joint_gap("spherical", *refs, study_bodies(study))[0] < 1e-9
    assert ground.Placement == before


def test_a_point_on_a_circle_goes_to_the_nearest_point_of_the_circle():
    rng = np.random.default_rng(9)
    length = 0.05
    for _ in range(10):
        f1, f2 = _frames(rng)
        R, b = align_motion("revolute_spherical", f1, f2, length)
        p1, z1, p2 = f1[0], f1[1][:, 2], f2[0]
        radial = (p2 - p1) - ((p2 - p1) @ z1) * z1
        nearest = p1 + length * radial / np.linalg.norm(radial)
        assert np.allclose(R, np.eye(3), atol=1e-9)
        assert np.allclose(R @ p2 + b, nearest, atol=1e-9)


def _swing(a, b):
    """Least rotation taking unit vector ``a`` to the nearer of ``b``, ``-b``."""
    b = b if a @ b >= 0.0 else -b
    axis = np.cross(a, b)
    s = np.linalg.norm(axis)
    if s < 1e-15:
        return np.eye(3)
    angle = math.atan2(s, a @ b)
    K = np.cross(np.eye(3), axis / s)
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def test_moving_side_1_of_a_cylindrical_joint_turns_and_shifts_the_least():
    """Side 1's frame carries the axes the rows measure along: turning it changes what the
    rows ask of the shift. The least motion is the least turn of z1 onto the other axis
    and the shortest shift onto the other's line (weighed as ``align_motion`` weighs
    them); the first pose Newton's method finds that meets the rows is not."""
    rng = np.random.default_rng(11)
    scale = 0.1
    for _ in range(10):
        f1, f2 = _frames(rng)
        (p1, R1), (p2, R2) = f1, f2
        R, b = align_motion("cylindrical", f1, f2, move=1, scale=scale)
        cost = _angle(R) ** 2 + (np.linalg.norm(R @ p1 + b - p1) / scale) ** 2
        Q = _swing(R1[:, 2], R2[:, 2])                   # turn z1 onto the axis of side 2
        z = R2[:, 2]
        shift = (p2 - p1) - ((p2 - p1) @ z) * z            # then onto the line
        least = _angle(Q) ** 2 + (np.linalg.norm(shift) / scale) ** 2
        g = (R @ p1 + b, R @ R1)
        assert max(abs(v) for _, v in frame_residuals("cylindrical", g, f2)) < 1e-10
        assert cost == pytest.approx(least, abs=1e-9)
