"""Orientation joints in a document: picked faces give the two z axes (an angle joint
keeps the angle between them as picked, or its ``Angle`` in deg), and bad input is
refused naming the joint."""
import math

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs, element_name  # noqa: F401 (fixture)
from SimPhantWorkbench import conversion, factory
from SimPhantWorkbench.solver import ModelError

V = FreeCAD.Vector


def _plates(doc, turn):
    """A fixed base (top face normal +z) and a plate turned ``turn`` deg about x."""
    base = doc.addObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 100, 100, 10
    base.Placement.Base = V(0, 0, -10)
    plate = doc.addObject("Part::Box", "Plate")
    plate.Length, plate.Width, plate.Height = 40, 30, 5
    plate.Placement = FreeCAD.Placement(V(20, 20, 30), FreeCAD.Rotation(V(1, 0, 0), turn))
    doc.recompute()
    study = factory.make_study(doc)
    factory.make_body(study, base, fixed=True)
    factory.make_body(study, plate)
    top = element_name(base, "Face", (50, 50, 0))
    plate_top = element_name(plate, "Face", plate.Placement.multVec(V(20, 15, 5)))
    plate_end = element_name(plate, "Face", plate.Placement.multVec(V(0, 15, 2.5)))
    return study, (base, top), (plate, plate_top), (plate, plate_end)


def _joint_of(study, joint):
    conv = conversion.convert(study)
    return conv.joint_map[joint.Name], conv


@pytest.mark.parametrize("turn", [50.0, 130.0])
def test_angle_joint_keeps_the_angle_of_the_picked_faces(docs, turn):
    study, top, plate_top, _ = _plates(docs(), turn)
    joint = factory.make_joint(study, "angle", top, plate_top, name="Tilt")
    sj, conv = _joint_of(study, joint)
    assert sj.kind == "angle"
    assert math.degrees(sj.angle) == pytest.approx(turn, abs=1e-9)   # not folded to acute
    z1, z2 = sj.frame1[1][:, 2], sj.frame2[1][:, 2]
    assert math.degrees(math.acos(z1 @ z2)) == pytest.approx(turn, abs=1e-9)


def test_angle_joint_takes_its_angle_in_degrees(docs):
    study, top, plate_top, _ = _plates(docs(), 50.0)
    joint = factory.make_joint(study, "angle", top, plate_top, angle=35.0, name="Tilt")
    assert joint.Angle.Value == pytest.approx(35.0)
    sj, _ = _joint_of(study, joint)
    assert sj.angle == pytest.approx(math.radians(35.0))
    joint.Angle = 0.4                       # deg: too close to parallel
    with pytest.raises(ModelError,
                       match=r"^Joint 'Tilt': .*angle 0\.4 deg .* use a parallel joint"):
        conversion.convert(study)


def test_perpendicular_joint_gets_the_two_face_normals(docs):
    study, top, _, plate_end = _plates(docs(), 50.0)
    joint = factory.make_joint(study, "perpendicular", top, plate_end, name="Square")
    sj, _ = _joint_of(study, joint)
    z1, z2 = sj.frame1[1][:, 2], sj.frame2[1][:, 2]
    assert abs(z1 @ z2) < 1e-12 and abs(abs(z1[2]) - 1.0) < 1e-12


def test_a_two_axis_kind_needs_an_axis_on_each_side(docs):
    study, top, (plate, _), _ = _plates(docs(), 50.0)
    corner = element_name(plate, "Vertex", plate.Placement.multVec(V(0, 0, 0)))
    with pytest.raises(ModelError, match="a perpendicular joint needs an axis on both sides"):
        factory.make_joint(study, "perpendicular", top, (plate, corner), name="Square")


def test_parallel_joint_of_parallel_faces(docs):
    study, top, _, _ = _plates(docs(), 0.0)
    plate = study.Document.getObject("Plate")
    plate_top = element_name(plate, "Face", plate.Placement.multVec(V(20, 15, 5)))
    joint = factory.make_joint(study, "parallel", top, (plate, plate_top), name="Level")
    sj, conv = _joint_of(study, joint)
    np.testing.assert_allclose(sj.frame1[1], sj.frame2[1], atol=1e-12)
    assert conv.model.degrees_of_freedom() == 4
