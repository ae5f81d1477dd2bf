"""What the joint panel computes headless (``SimPhantWorkbench.document.picking``): picked elements
resolved to study bodies, and preview frames equal to the ones the factory gives."""
import math

import numpy as np
import pytest

import FreeCAD
import Part

from SimPhantWorkbench import factory
from SimPhantWorkbench.document import picking
from SimPhantWorkbench.document.units import global_placement
from SimPhantWorkbench.document.base import study_bodies
from SimPhantWorkbench.solver import JOINT_TYPES, ModelError

from helpers_doc import element_name


def _same(a, b, tol=1e-9):
    pa = tuple(a.Base) + tuple(a.Rotation.Q)
    pb = tuple(b.Base) + tuple(b.Rotation.Q)
    return all(abs(x - y) <= tol for x, y in zip(pa, pb))


@pytest.fixture
def hinge(doc):
    """A fixed pin (cylinder along y) and an arm with a boss, the arm inside an App::Part."""
    pin = doc.addObject("Part::Cylinder", "Pin")
    pin.Radius, pin.Height = 6, 20
    pin.Placement = FreeCAD.Placement(FreeCAD.Vector(0, -5, 0),
                                      FreeCAD.Rotation(FreeCAD.Vector(1, 0, 0), -90))
    part = doc.addObject("App::Part", "Holder")
    part.Placement.Base = FreeCAD.Vector(0, 0, 0)
    arm = doc.addObject("Part::Feature", "Arm")
    arm.Shape = Part.makeBox(150, 10, 10, FreeCAD.Vector(0, -5, -5)).fuse(
        Part.makeCylinder(9, 10, FreeCAD.Vector(0, -5, 0), FreeCAD.Vector(0, 1, 0))
    ).removeSplitter()
    part.addObject(arm)
    loose = doc.addObject("Part::Box", "Loose")
    doc.recompute()
    study = factory.make_study(doc)
    factory.make_body(study, pin, fixed=True)
    factory.make_body(study, arm)
    edge = element_name(arm, "Edge", (0, 5, 0), curve="Circle")
    return dict(doc=doc, study=study, pin=pin, arm=arm, part=part, loose=loose, edge=edge,
                face="Face1")


def test_pick_on_a_body_and_through_a_container(hinge):
    bodies = study_bodies(hinge["study"])
    body, obj, sub = picking.resolve_pick(bodies, hinge["pin"], "Face1")
    assert body.ShapeObject == hinge["pin"] and (obj, sub) == (hinge["pin"], "Face1")
    # the 3D view reports the container and a path to the element
    body, obj, sub = picking.resolve_pick(bodies, hinge["part"], "Arm.%s" % hinge["edge"])
    assert body.ShapeObject == hinge["arm"]
    assert (obj, sub) == (hinge["arm"], hinge["edge"])


def test_refused_picks_say_why(hinge):
    bodies = study_bodies(hinge["study"])
    with pytest.raises(ModelError, match="not on a body of the study.*'Loose'"):
        picking.resolve_pick(bodies, hinge["loose"], "Face1")
    with pytest.raises(ModelError, match="pick a vertex, an edge, a face or a datum"):
        picking.resolve_pick(bodies, hinge["pin"], "")


def test_preview_frames_are_the_factory_frames(hinge):
    study, pin, arm = hinge["study"], hinge["pin"], hinge["arm"]
    bodies = study_bodies(study)
    for kind, reverse, offset in (("revolute", False, 0.0), ("cylindrical", True, 3.0),
                                  ("fixed", False, 0.0)):
        f1, f2 = picking.joint_frames(kind, (pin, "Face1"), (arm, hinge["edge"]), bodies,
                                      offset=offset, reverse=reverse)
        j = factory.make_joint(study, kind, (pin, "Face1"), (arm, hinge["edge"]),
                               offset=offset, reverse=reverse)
        assert _same(f1, global_placement(pin).multiply(j.Frame1)), kind
        assert _same(f2, global_placement(arm).multiply(j.Frame2)), kind
        hinge["doc"].removeObject(j.Name)


def test_preview_explains_invalid_combinations(hinge):
    bodies = study_bodies(hinge["study"])
    pin, arm = hinge["pin"], hinge["arm"]
    with pytest.raises(ModelError, match="needs an axis"):
        picking.joint_frames("revolute", (pin, "Vertex1"), (arm, "Vertex1"), bodies)
    with pytest.raises(ModelError, match="two different bodies"):
        picking.joint_frames("spherical", (pin, "Vertex1"), (pin, "Face1"), bodies)
    with pytest.raises(ModelError, match="unknown joint type"):
        picking.joint_frames("hinge", (pin, "Face1"), (arm, "Vertex1"), bodies)


def test_hover_frame_and_needs_text():
    for kind, spec in JOINT_TYPES.items():
        text = picking.needs_text(kind)
        assert text.startswith(spec.label)
        if "axis" in spec.needs:
            assert "axis" in text


def test_hover_frame_of_a_circle(hinge):
    pl, has_axis, kind = picking.reference_frame_placement(hinge["arm"], hinge["edge"])
    assert kind == "circle" and has_axis
    assert (pl.Base - FreeCAD.Vector(0, 5, 0)).Length < 1e-9
    z = pl.Rotation.multVec(FreeCAD.Vector(0, 0, 1))
    assert abs(abs(z.y) - 1.0) < 1e-12


def test_the_gap_between_the_frames_a_joint_would_get(hinge):
    bodies = study_bodies(hinge["study"])
    pin, arm = hinge["pin"], hinge["arm"]
    far_edge = element_name(arm, "Edge", (0, -5, 0), curve="Circle")   # the boss's other face
    assert picking.joint_gap("revolute", (pin, "Face1"), (arm, hinge["edge"]), bodies) \
        == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    distance, angle, axial = picking.joint_gap("revolute", (pin, "Face1"), (arm, far_edge),
                                               bodies)
    assert distance == pytest.approx(10.0) and angle == pytest.approx(0.0, abs=1e-9)
    assert abs(axial) == pytest.approx(10.0)
    # a cylindrical joint lets the frames slide along the axis; an offset closes the gap
    assert picking.joint_gap("cylindrical", (pin, "Face1"), (arm, far_edge), bodies)[0] \
        == pytest.approx(0.0, abs=1e-9)
    assert picking.joint_gap("revolute", (pin, "Face1"), (arm, far_edge), bodies,
                             offset=axial)[0] == pytest.approx(0.0, abs=1e-9)
    end = element_name(arm, "Face", (150, 0, 0))               # the arm's end, normal x
    distance, angle, _ = picking.joint_gap("revolute", (pin, "Face1"), (arm, end), bodies)
    assert angle == pytest.approx(90.0) and distance == pytest.approx(150.0)   # largest row


def test_frame_gap_evaluates_the_rows_of_each_kind():
    from SimPhantWorkbench.solver.dof import frame_gap
    I = np.eye(3)
    apart = ((np.zeros(3), I), (np.array([0.001, -0.002, 0.003]), I))
    assert frame_gap("spherical", *apart) == pytest.approx((0.003, 0.0))
    along_z = ((np.zeros(3), I), (np.array([0.0, 0.0, 0.5]), I))
    assert frame_gap("prismatic", *along_z) == (0.0, 0.0)
    assert frame_gap("revolute", *along_z) == (0.5, 0.0)
    assert frame_gap("distance", *along_z, length=0.4) == pytest.approx((0.1, 0.0))
    c, s = math.cos(0.1), math.sin(0.1)
    tilted = ((np.zeros(3), I), (np.zeros(3), np.array([[1, 0, 0], [0, c, -s], [0, s, c]])))
    assert frame_gap("revolute", *tilted) == pytest.approx((0.0, 0.1))
    other_way = (tilted[0], (np.zeros(3), tilted[1][1].T))
    assert frame_gap("revolute", *other_way) == pytest.approx((0.0, 0.1))
    assert frame_gap("spherical", *tilted) == (0.0, 0.0)
