"""Importing FreeCAD 1.x Assemblies (``assembly_import``) on FreeCAD 0.20.

First part: explicit joint frames (``Joint.FrameSource = "Placements"``), which the
importer uses to keep the Assembly's joint coordinate systems exactly.
"""
import os
import shutil

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import conversion, factory
from SimPhantWorkbench.objects.study import study_joints
from SimPhantWorkbench.solver import ModelError

V = FreeCAD.Vector


def pl(x=0.0, y=0.0, z=0.0, axis=(0, 0, 1), angle=0.0):
    return FreeCAD.Placement(V(x, y, z), FreeCAD.Rotation(V(*axis), angle))


def assert_frame(frame, world, tol=1e-12):
    p, R = frame
    p_exp, R_exp = conversion.placement_to_frame(world)
    np.testing.assert_allclose(p, p_exp, atol=tol)
    np.testing.assert_allclose(R, R_exp, atol=tol)


# ============================================================================ Joint.FrameSource

def test_placement_frames_take_reverse_and_offset(docs):
    doc = docs()
    a = doc.addObject("Part::Box", "A")
    b = doc.addObject("Part::Box", "B")
    b.Placement = pl(0, 0, 10, (0, 0, 1), 30)
    doc.recompute()
    st = factory.make_study(doc)
    factory.make_body(st, a, fixed=True)
    factory.make_body(st, b)
    frame_a = pl(5, 5, 10, (1, 0, 0), 90)                   # z = -y, in A's frame
    frame_b = b.Placement.inverse().multiply(frame_a)
    j = factory.make_joint(st, "prismatic", (a, ""), (b, ""), placements=(frame_a, frame_b),
                           label="Guide")
    assert j.Label == "Guide" and j.FrameSource == "Placements"
    for got, want in ((j.Frame1, frame_a), (j.Frame2, frame_b)):
        assert (got.Base - want.Base).Length < 1e-12 and got.Rotation.isSame(want.Rotation, 1e-12)
    jd = conversion.joint_data(j)
    assert_frame(jd.frame1, frame_a)
    j.Reverse = True
    j.Offset = 4.0
    jd = conversion.joint_data(j)
    z = np.array(tuple(frame_a.Rotation.multVec(V(0, 0, 1))))
    np.testing.assert_allclose(jd.frame1[1][:, 2], -z, atol=1e-12)
    np.testing.assert_allclose(jd.frame2[0], np.array(tuple(frame_a.Base)) * 1e-3 + 4e-3 * z,
                               atol=1e-12)
    with pytest.raises(ModelError, match="placements must be two FreeCAD Placements"):
        factory.make_joint(st, "fixed", (a, ""), (b, ""), placements=(frame_a,))


def test_joints_of_older_documents_use_their_references(docs, tmp_path):
    path = tmp_path / "study_v0_1.FCStd"
    shutil.copy(os.path.join(os.path.dirname(__file__), "fixtures", "study_v0_1.FCStd"), path)
    before = set(FreeCAD.listDocuments())
    doc = FreeCAD.openDocument(str(path))
    try:
        joint = study_joints(doc.getObject("Study"))[0]
        assert joint.FrameSource == "References"
        assert conversion.frame_source(joint) == "References"
        conversion.joint_data(joint)
    finally:
        for name in set(FreeCAD.listDocuments()) - before:
            FreeCAD.closeDocument(name)
