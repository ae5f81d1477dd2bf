"""Datum lines, planes and points (PartDesign's, and an ``App::Origin``'s axes and planes)
picked whole as joint references, through the ``App::Link`` of a part in another file as a
click reports them: the frame each gives (a line: its origin and direction; a plane: its
origin and normal; a point: its position, no axis), and joints made on them."""
import math

import numpy as np
import pytest

import FreeCAD

import linked_assembly as LA
from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import factory
from SimPhantWorkbench.document import picking
from SimPhantWorkbench.document.base import study_bodies
from SimPhantWorkbench.document.references import reference_frame
from SimPhantWorkbench.solver import ModelError

A = math.radians(LA.CRANK_ANGLE)
BAR_X = np.array([math.cos(A), math.sin(A), 0.0])          # the crank's x in world
TIP = np.array(LA.PIVOT) + LA.BAR_LENGTH * BAR_X + [0, 0, 5]


@pytest.fixture
def assembly(docs, tmp_path):  # noqa: F811
    docs()
    doc = LA.build(str(tmp_path), datums=True)
    study = factory.make_study(doc)
    factory.make_body(study, doc.getObject("Ground_1"), fixed=True)
    factory.make_body(study, doc.getObject("Crank_1"))
    return doc, study


def _origin_feature(link, role):
    origin = link.LinkedObject.Origin
    feature = next(f for f in origin.OriginFeatures if f.Role == role)
    return "%s.%s." % (origin.Name, feature.Name)


def test_datum_line_plane_and_point_give_their_frames_through_the_link(assembly):
    doc, _ = assembly
    crank = doc.getObject("Crank_1")
    line = reference_frame(crank, "Line_Tip.")
    assert line.kind == "line" and np.allclose(line.point, TIP * 1e-3, atol=1e-12)
    assert np.allclose(line.axis, [0, 0, 1], atol=1e-12)
    along = reference_frame(crank, "Line_Along.")
    assert np.allclose(along.axis, BAR_X, atol=1e-12)
    assert np.allclose(along.point, (np.array(LA.PIVOT) + 50 * BAR_X) * 1e-3, atol=1e-12)
    plane = reference_frame(crank, "Plane_Top.")
    assert plane.kind == "plane" and np.allclose(plane.axis, [0, 0, 1], atol=1e-12)
    assert np.allclose(plane.point, TIP * 1e-3, atol=1e-12)
    # a click on a datum's own edge or face (FreeCAD 1.x reports one) gives the datum's
    for sub, kind in (("Line_Tip.Edge1", "line"), ("Plane_Top.Face1", "plane")):
        rf = reference_frame(crank, sub)
        assert rf.kind == kind and np.allclose(rf.point, TIP * 1e-3, atol=1e-12), sub
    point = reference_frame(crank, "Point_Tip.")
    assert point.kind == "vertex" and point.axis is None
    assert np.allclose(point.point, TIP * 1e-3, atol=1e-12)


@pytest.mark.parametrize("role, axis", [("X_Axis", BAR_X), ("Y_Axis", [-math.sin(A),
                                                                      math.cos(A), 0]),
                                        ("Z_Axis", [0, 0, 1])])
def test_the_origin_axes_of_a_linked_part_are_lines_through_its_origin(assembly, role, axis):
    doc, _ = assembly
    crank = doc.getObject("Crank_1")
    rf = reference_frame(crank, _origin_feature(crank, role))
    assert rf.kind == "line"
    assert np.allclose(rf.point, np.array(LA.PIVOT) * 1e-3, atol=1e-12)
    assert np.allclose(rf.axis, axis, atol=1e-12)


def test_the_origin_xy_plane_is_a_plane_with_normal_z(assembly):
    doc, _ = assembly
    crank = doc.getObject("Crank_1")
    rf = reference_frame(crank, _origin_feature(crank, "XY_Plane"))
    assert rf.kind == "plane" and np.allclose(rf.axis, [0, 0, 1], atol=1e-12)
    assert np.allclose(rf.point, np.array(LA.PIVOT) * 1e-3, atol=1e-12)


def test_picks_of_datums_resolve_and_make_joints(assembly):
    doc, study = assembly
    model = doc.getObject("Model")
    bodies = study_bodies(study)
    body, obj, sub = picking.resolve_pick(bodies, model, "Crank_1.Line_Tip.")
    assert (body.ShapeObject.Name, obj.Name, sub) == ("Crank_1", "Crank_1", "Line_Tip.")
    ground, crank = doc.getObject("Ground_1"), doc.getObject("Crank_1")
    # a revolute on the ground's LCS and the crank's datum line through its tip
    f1, f2 = picking.joint_frames("revolute", (ground, "LCS_Pivot."), (crank, "Line_Tip."),
                                  bodies)
    assert np.allclose(f2.Rotation.multVec(FreeCAD.Vector(0, 0, 1)), FreeCAD.Vector(0, 0, 1))
    assert np.allclose(tuple(f2.Base), TIP, atol=1e-9)
    # a spherical joint needs only points: a datum point on the crank
    joint = factory.make_joint(study, "spherical", (ground, "LCS_Pivot."),
                               (crank, "Point_Tip."))
    assert np.allclose(tuple(joint.Frame2.Base), (LA.BAR_LENGTH, 0, 5), atol=1e-9)
    # a revolute needs an axis: two datum points have none
    with pytest.raises(ModelError, match="needs an axis"):
        picking.joint_frames("revolute", (crank, "Point_Tip."), (ground, "Sketch.Vertex1"),
                             bodies)
    # a planar joint on a datum plane: its normal is the joint axis
    f1, _ = picking.joint_frames("planar", (crank, "Plane_Top."), (ground, "LCS_Pivot."),
                                 bodies)
    assert np.allclose(f1.Rotation.multVec(FreeCAD.Vector(0, 0, 1)), FreeCAD.Vector(0, 0, 1))


def test_an_origin_that_is_not_a_datum_is_refused_with_the_reason(assembly):
    doc, study = assembly
    model = doc.getObject("Model")
    origin = doc.getObject("Crank_1").LinkedObject.Origin.Name
    with pytest.raises(ModelError, match="datum coordinate system, line, plane or point"):
        picking.resolve_pick(study_bodies(study), model, "Crank_1.%s." % origin)
