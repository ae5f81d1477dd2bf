"""Picks on parts linked from other files, as a click reports them (the assembly's
top-level object and the path through the ``App::Link``): the body they designate, the
reference stored (an element of the link, in the assembly's document), and datum
coordinate systems (LCS) picked whole as joint frames."""
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


@pytest.fixture
def assembly(docs, tmp_path):  # noqa: F811
    docs()                              # closes every document the test opens
    return LA.build(str(tmp_path))


def test_a_click_through_a_link_designates_the_link_as_the_body(assembly):
    model = assembly.getObject("Model")
    crank = assembly.getObject("Crank_1")
    assert picking.body_shape_of_pick(model, "Crank_1.Bar.Face2") is crank
    assert picking.body_shape_of_pick(model, "Ground_1.Sketch.Edge1").Name == "Ground_1"
    assert picking.body_shape_of_pick(model, "Crank_1.") is crank          # tree click
    assert picking.body_shape_of_pick(model, "") is model                  # the App::Part
    assert picking.body_shape_of_pick(crank, "Bar.Face2") is crank


def test_a_sketch_only_part_is_a_fixed_body_and_not_a_moving_one(assembly):
    study = factory.make_study(assembly)
    ground = assembly.getObject("Ground_1")
    with pytest.raises(ModelError):
        factory.make_body(study, ground)
    body = factory.make_body(study, ground, fixed=True)
    assert body.Fixed and body.Mass == 0.0


def test_picks_through_links_resolve_to_the_bodies_with_references_of_the_link(assembly):
    model = assembly.getObject("Model")
    study = factory.make_study(assembly)
    ground = factory.make_body(study, assembly.getObject("Ground_1"), fixed=True)
    crank = factory.make_body(study, assembly.getObject("Crank_1"))
    bodies = study_bodies(study)
    body, obj, sub = picking.resolve_pick(bodies, model, "Crank_1.Bar.Face2")
    assert (body, obj.Name, sub) == (crank, "Crank_1", "Bar.Face2")
    body, obj, sub = picking.resolve_pick(bodies, model, "Ground_1.LCS_Pivot.")
    assert (body, obj.Name, sub) == (ground, "Ground_1", "LCS_Pivot.")
    with pytest.raises(ModelError, match="pick a vertex, an edge, a face or a datum"):
        picking.resolve_pick(bodies, model, "Crank_1.Bar.")


def test_a_datum_coordinate_system_gives_its_world_frame(assembly):
    crank = assembly.getObject("Crank_1")
    assembly.getObject("Model").Placement.Base = FreeCAD.Vector(0, 0, 7)
    assembly.recompute()
    rf = reference_frame(crank, "LCS_Tip.")
    a = math.radians(LA.CRANK_ANGLE)
    tip = np.array(LA.PIVOT) + [LA.BAR_LENGTH * math.cos(a), LA.BAR_LENGTH * math.sin(a), 12]
    assert rf.kind == "frame"
    assert np.allclose(rf.point, tip * 1e-3, atol=1e-12)
    assert np.allclose(rf.rotation[:, 0], [math.cos(a), math.sin(a), 0], atol=1e-12)
    assert np.allclose(rf.axis, [0, 0, 1], atol=1e-12)


def test_a_joint_between_two_lcs_takes_their_frame(assembly):
    study = factory.make_study(assembly)
    factory.make_body(study, assembly.getObject("Ground_1"), fixed=True)
    factory.make_body(study, assembly.getObject("Crank_1"))
    pivot = FreeCAD.Vector(*LA.PIVOT)
    joint = factory.make_joint(study, "fixed", (assembly.getObject("Ground_1"), "LCS_Pivot."),
                               (assembly.getObject("Crank_1"), "LCS_Pivot."))
    # Frame1/Frame2 are in the bodies' own frames: the ground's is the world's, the crank's
    # is turned CRANK_ANGLE about z with its origin on the pivot
    assert (joint.Frame1.Base - pivot).Length < 1e-9 and abs(joint.Frame1.Rotation.Angle) < 1e-9
    assert joint.Frame2.Base.Length < 1e-9
    assert abs(math.degrees(joint.Frame2.Rotation.Angle) - LA.CRANK_ANGLE) < 1e-9
    assert joint.Frame2.Rotation.Axis.z < 0                        # -30 deg about z
    # with the crank's LCS first, the joint frame is that LCS's: x along the bar
    joint = factory.make_joint(study, "revolute", (assembly.getObject("Crank_1"), "LCS_Pivot."),
                               (assembly.getObject("Ground_1"), "LCS_Pivot."))
    assert joint.Frame1.Base.Length < 1e-9 and abs(joint.Frame1.Rotation.Angle) < 1e-9
    assert (joint.Frame2.Base - pivot).Length < 1e-9
    assert abs(math.degrees(joint.Frame2.Rotation.Angle) - LA.CRANK_ANGLE) < 1e-9
