"""Importing FreeCAD 1.x Assemblies (``assembly_import``) on FreeCAD 0.20.

FreeCAD 0.20 has no Assembly module, so the documents here carry the objects
and properties a 1.x Assembly has, with the same names, types and value formats
(see the module docstring of ``SimPhantWorkbench.assembly_import``): an
``App::Part`` assembly (``Type`` "Assembly") with a "Joints" group of
``App::FeaturePython`` joints (``JointType`` enumeration, ``Reference1``/
``Reference2`` as ``(root, [element_path, vertex_path])`` XLinkSub values --
``App::PropertyXLinkSub``: 0.20 has no ``...Hidden`` variant -- ``Placement1``/
``Placement2``, ``Offset1``/``Offset2``, ``Detach1``/``Detach2``, ``Distance``,
``Activated`` (1.0) or ``Suppressed`` (1.1)) and grounded joints
(``ObjectToGround``, ``Placement``).

The joint coordinate systems (JCS) are set as 1.x stores them: relative to the
JCS owner, whose global placement the tests take from FreeCAD itself
(``getSubObject(path, retType=3)``), independent of the importer's path walk.

``fixtures/assembly_make_fixture.py`` saves ``build_pendulum``'s document as
``fixtures/assembly_pendulum.FCStd``.
"""
import math
import os
import shutil

import numpy as np
import pytest

import FreeCAD
import Part

from helpers_doc import docs, reopen, zero_crossings  # noqa: F401 (fixture)
from SimPhantWorkbench import assembly_import, conversion, factory, runner
from SimPhantWorkbench.assembly_import import import_assembly, study_from_assembly
from SimPhantWorkbench.document.base import study_bodies, study_joints
from SimPhantWorkbench.solver import ModelError

V = FreeCAD.Vector
G = 9.80665
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "assembly_pendulum.FCStd")

#: JointObject.JointTypes of FreeCAD 1.0/1.1, in order
TYPES_1X = ["Fixed", "Revolute", "Cylindrical", "Slider", "Ball", "Distance", "Parallel",
            "Perpendicular", "Angle", "RackPinion", "Screw", "Gears", "Belt"]


def pl(x=0.0, y=0.0, z=0.0, axis=(0, 0, 1), angle=0.0):
    return FreeCAD.Placement(V(x, y, z), FreeCAD.Rotation(V(*axis), angle))


# ============================================================================ 1.x-like documents

class Assembly:
    """Builds an Assembly the way FreeCAD 1.x stores it (see the module docstring)."""

    def __init__(self, doc, placement=None, version="1.0", name="Assembly"):
        self.doc = doc
        self.version = version
        self.obj = doc.addObject("App::Part", name)
        self.obj.Type = "Assembly"
        if placement is not None:
            self.obj.Placement = placement
        self.group = doc.addObject("App::DocumentObjectGroup", "Joints")
        self.obj.addObject(self.group)

    def add(self, obj, parent=None, placement=None):
        (parent or self.obj).addObject(obj)
        if placement is not None:
            obj.Placement = placement
        return obj

    def part(self, name, placement=None, parent=None):
        return self.add(self.doc.addObject("App::Part", name), parent, placement)

    def box(self, name, size=(40.0, 20.0, 10.0), placement=None, parent=None):
        box = self.doc.addObject("Part::Box", name)
        box.Length, box.Width, box.Height = size
        return self.add(box, parent, placement)

    def cylinder(self, name, radius, height, placement=None, parent=None):
        cyl = self.doc.addObject("Part::Cylinder", name)
        cyl.Radius, cyl.Height = radius, height
        return self.add(cyl, parent, placement)

    def owner_global(self, path):
        """Global placement of the object at ``path`` (FreeCAD's own path walk)."""
        self.doc.recompute()
        return self.obj.getSubObject(path + ".", retType=3)

    def ground(self, obj, label="GroundedJoint"):
        g = self.doc.addObject("App::FeaturePython", "GroundedJoint")
        g.addProperty("App::PropertyLink", "ObjectToGround", "Ground", "The object to ground")
        g.addProperty("App::PropertyPlacement", "Placement", "Ground", "Where it is grounded")
        g.ObjectToGround = obj
        g.Placement = obj.Placement
        g.Label = label
        self.group.addObject(g)
        return g

    def joint(self, jtype, side1, side2, label=None, distance=0.0, on=True):
        """A joint; ``side = (path, element, world JCS)``, path from the assembly to the
        JCS owner ("BasePart.Base"), or ``None`` for a missing reference."""
        j = self.doc.addObject("App::FeaturePython", "Joint")
        j.addProperty("App::PropertyEnumeration", "JointType", "Joint", "The type of the joint")
        j.JointType = TYPES_1X
        j.JointType = jtype
        for k in (1, 2):
            group = "Joint Connector %d" % k
            j.addProperty("App::PropertyXLinkSub", "Reference%d" % k, group, "reference")
            j.addProperty("App::PropertyPlacement", "Placement%d" % k, group, "JCS")
            j.addProperty("App::PropertyBool", "Detach%d" % k, group, "detach")
            j.addProperty("App::PropertyPlacement", "Offset%d" % k, group, "offset")
        j.addProperty("App::PropertyFloat", "Distance", "Joint", "distance")
        j.addProperty("App::PropertyFloat", "Distance2", "Joint", "distance 2")
        if self.version == "1.0":
            j.addProperty("App::PropertyBool", "Activated", "Joint", "active")
            j.Activated = on
        else:
            j.addProperty("App::PropertyBool", "Suppressed", "Base", "suppressed")
            j.Suppressed = not on
            # 1.1 (FreeCAD PR #24403): an Angle joint's angle in its own quantity property
            j.addProperty("App::PropertyAngle", "Angle", "Joint", "angle")
        j.Distance = distance
        for k, side in ((1, side1), (2, side2)):
            if side is None:
                continue
            path, element, world = side
            sub = "%s.%s" % (path, element) if path else element
            setattr(j, "Reference%d" % k, (self.obj, [sub, sub]))
            setattr(j, "Placement%d" % k, self.owner_global(path).inverse().multiply(world))
        j.Label = label or jtype
        self.group.addObject(j)
        return j


def frame_of(world):
    """(origin [m], R) of a world Placement in mm."""
    return conversion.placement_to_frame(world)


def assert_frame(frame, world, tol=1e-12):
    p, R = frame
    p_exp, R_exp = frame_of(world)
    np.testing.assert_allclose(p, p_exp, atol=tol)
    np.testing.assert_allclose(R, R_exp, atol=tol)


def joint_data_of(study, label):
    """Conversion data of the SimPhant joint made of the Assembly joint ``label``."""
    conv = conversion.convert(study)
    return next(jd for jd in conv.joints if jd.obj.Label == label + "_joint"), conv


def rod_period(radius, length, density=None):
    """Compound pendulum hinged at the centre of one end: T = 2 pi sqrt(I_O / (m g d))."""
    m = math.pi * radius ** 2 * length          # the density cancels
    i_o = m * (3 * radius ** 2 + length ** 2) / 12.0 + m * (length / 2) ** 2
    return 2 * math.pi * math.sqrt(i_o / (m * G * length / 2))


# ============================================================================ model documents

def build_pendulum(doc, kind="Revolute", version="1.0", theta0=2.0):
    """A rod hanging from a grounded base by a revolute (or ball) joint.

    Assembly placed at (100, -50, 30) mm, turned 30 deg about z; the base box in a
    ``BasePart`` (App::Part, grounded); the rod (Part::Cylinder r 2, L 200) directly in
    the assembly, its top centre at the assembly origin (the pivot), tilted ``theta0`` deg
    about the assembly's y. The JCS (both sides): at the pivot, z along the assembly's y --
    a rotation the user set (the rod's circular edge would give the rod axis).
    """
    asm = Assembly(doc, placement=pl(100, -50, 30, (0, 0, 1), 30), version=version)
    base_part = asm.part("BasePart", placement=pl(0, 0, 5))
    asm.box("Base", placement=pl(-20, -10, 0), parent=base_part)
    length = 200.0
    rod = asm.cylinder("Rod", 2.0, length)
    rod.Placement = pl(0, 0, 0, (0, 1, 0), theta0).multiply(pl(0, 0, -length))
    asm.ground(base_part)
    world = asm.obj.Placement.multiply(pl(0, 0, 0, (1, 0, 0), -90))
    joint = asm.joint(kind, ("BasePart.Base", "Face6", world), ("Rod", "Edge1", world),
                      label="Hinge")
    doc.recompute()
    return dict(asm=asm, base_part=base_part, rod=rod, joint=joint, jcs=world,
                period=rod_period(2e-3, length * 1e-3) * (1 + math.radians(theta0) ** 2 / 16))


def build_mechanism(doc, version="1.0"):
    """One grounded part and one part per supported joint type, plus unsupported joints.

    Every supported joint connects ``GroundPart.Ground`` to its own part; the JCSs are
    solved (the two sides coincide; Distance plane-plane: 5 mm apart along z).
    """
    asm = Assembly(doc, placement=pl(10, 20, 30, (1, 1, 0), 25), version=version)
    gp = asm.part("GroundPart", placement=pl(0, 0, -5, (0, 0, 1), 15))
    ground = asm.box("Ground", size=(400.0, 400.0, 10.0), placement=pl(-200, -200, -10),
                     parent=gp)
    asm.ground(gp)
    a = asm.box("A", placement=pl(-150, -150, 0, (0, 0, 1), 10))
    b = asm.cylinder("B", 10.0, 30.0, placement=pl(-100, -150, 0))
    c = asm.cylinder("C", 8.0, 40.0, placement=pl(-50, -150, 0, (1, 0, 0), 90))
    d = asm.box("D", placement=pl(0, -150, 0))
    e = asm.box("E", placement=pl(50, -150, 0, (0, 1, 0), 30))
    f = asm.box("F", placement=pl(100, -150, 5))
    h = asm.box("H", placement=pl(-150, 100, 30))          # vertex 30 mm above a ground vertex
    i = asm.box("I", placement=pl(-100, 100, 0, (0, 0, 1), 40))
    k = asm.box("K", placement=pl(0, 100, 0))
    m = asm.box("M", placement=pl(50, 100, 0))
    n = asm.cylinder("N", 5.0, 30.0, placement=pl(100, 100, 0, (1, 0, 0), 60))
    o = asm.box("O", placement=pl(150, 100, 0))
    doc.recompute()
    W = asm.obj.Placement.multiply       # assembly coordinates -> world
    cases = {}

    def both(jtype, label, part, element, local, distance=0.0, ground_element="Face6"):
        world = W(local)
        joint = asm.joint(jtype, ("GroundPart.Ground", ground_element, world),
                          (part.Name, element, world), label=label, distance=distance)
        cases[label] = dict(joint=joint, part=part, world1=world, world2=world)

    both("Fixed", "Weld", a, "Face5", pl(-130, -140, 0, (0, 0, 1), 20))
    both("Revolute", "Hinge", b, "Edge1", pl(-100, -150, 0))
    both("Cylindrical", "Sleeve", c, "Face1", pl(-50, -150, 20, (1, 0, 0), 90))
    both("Slider", "Rail", d, "Edge1", pl(20, -150, 0, (0, 1, 0), 90))
    both("Ball", "Socket", e, "Vertex1", pl(50, -150, 0))
    # Distance plane-plane: the ground's top face and F's bottom face, 5 mm apart
    w1, w2 = W(pl(110, -140, 0)), W(pl(110, -140, 5))
    cases["Gap"] = dict(joint=asm.joint("Distance", ("GroundPart.Ground", "Face6", w1),
                                        ("F", "Face5", w2), label="Gap", distance=5.0),
                        part=f, world1=w1, world2=w2)
    # Distance vertex-vertex: a ground vertex and H's first vertex (above it)
    gv = asm.obj.getSubObject("GroundPart.Ground.Vertex2", retType=0).Point
    hv = W(pl(-150, 100, 30)).Base
    w1, w2 = FreeCAD.Placement(gv, FreeCAD.Rotation()), FreeCAD.Placement(hv, FreeCAD.Rotation())
    cases["Tether"] = dict(joint=asm.joint("Distance", ("GroundPart.Ground", "Vertex2", w1),
                                           ("H", "Vertex1", w2), label="Tether",
                                           distance=(hv - gv).Length),
                           part=h, world1=w1, world2=w2, length=(hv - gv).Length)
    # Distance vertex-vertex 0: a ball joint
    w = FreeCAD.Placement(W(pl(-100, 100, 0)).Base, FreeCAD.Rotation())
    cases["Touch"] = dict(joint=asm.joint("Distance", ("GroundPart.Ground", "Vertex1", w),
                                          ("I", "Vertex1", w), label="Touch", distance=0.0),
                          part=i, world1=w, world2=w)
    # orientation joints: JCS z axes parallel, perpendicular, 60 deg apart (1.0 keeps an
    # Angle joint's angle in Distance, deg), and an Angle of 0 deg (a parallel joint in 1.x)
    both("Parallel", "Level", k, "Face5", pl(10, 110, 0))
    for jtype, label, part, turn, distance in (("Perpendicular", "Square", m, 90.0, 0.0),
                                               ("Angle", "Tilt", n, 60.0, 60.0),
                                               ("Angle", "Flat", o, 0.0, 0.0)):
        w1 = W(pl(part.Placement.Base.x + 10, 110, 0))
        w2 = w1.multiply(pl(0, 0, 0, (1, 0, 0), turn))
        cases[label] = dict(joint=asm.joint(jtype, ("GroundPart.Ground", "Face6", w1),
                                            (part.Name, "Face1", w2), label=label,
                                            distance=distance),
                            part=part, world1=w1, world2=w2)
    # unsupported: Distance sub-cases, coupling joints without radii, a switched-off joint
    unsupported = {}
    for jtype, part in (("RackPinion", d), ("Screw", e), ("Gears", f), ("Belt", h)):
        world = W(pl(0, 0, 0))
        unsupported[jtype] = asm.joint(jtype, ("GroundPart.Ground", "Face6", world),
                                       (part.Name, "Face1", world), label="My" + jtype)
    world = W(pl(-100, -150, 0))
    unsupported["edge-face"] = asm.joint("Distance", ("GroundPart.Ground", "Edge1", world),
                                         ("B", "Face1", world), label="EdgeGap", distance=2.0)
    unsupported["off"] = asm.joint("Revolute", ("GroundPart.Ground", "Face6", world),
                                   ("B", "Edge1", world), label="Spare", on=False)
    doc.recompute()
    return dict(asm=asm, ground_part=gp, ground=ground, cases=cases, unsupported=unsupported)


def build_slider(doc, alpha=30.0):
    """A block on a grounded guide, sliding along an axis ``alpha`` deg from the vertical."""
    asm = Assembly(doc, placement=pl(0, 0, 0, (0, 0, 1), 60))
    guide = asm.box("Guide", size=(200.0, 20.0, 20.0), placement=pl(-100, -10, -20))
    block = asm.box("Block", size=(20.0, 20.0, 20.0), placement=pl(0, 0, 0, (0, 1, 0), alpha))
    asm.ground(guide)
    world = asm.obj.Placement.multiply(pl(0, 0, 0, (0, 1, 0), alpha))
    asm.joint("Slider", ("Guide", "Edge1", world), ("Block", "Edge1", world), label="Chute")
    doc.recompute()
    axis = world.Rotation.multVec(V(0, 0, 1))
    return dict(asm=asm, guide=guide, block=block, axis=np.array(tuple(axis)))


# ============================================================================ type mapping, frames

@pytest.fixture(scope="module")
def mechanism():
    doc = FreeCAD.newDocument("AssemblyMechanism")
    try:
        m = build_mechanism(doc)
        m["report"] = import_assembly(m["asm"].obj)
        m["conv"] = conversion.convert(m["report"].study)
        yield m
    finally:
        FreeCAD.closeDocument(doc.Name)


EXPECTED_KINDS = {"Weld": "fixed", "Hinge": "revolute", "Sleeve": "cylindrical",
                  "Rail": "prismatic", "Socket": "spherical", "Gap": "planar",
                  "Tether": "distance", "Touch": "spherical", "Level": "parallel",
                  "Square": "perpendicular", "Tilt": "angle", "Flat": "parallel"}


@pytest.mark.parametrize("label", sorted(EXPECTED_KINDS))
def test_every_supported_type_maps_to_its_kind_with_the_assembly_frames(mechanism, label):
    case = mechanism["cases"][label]
    jd = next(jd for jd in mechanism["conv"].joints if jd.obj.Label == label + "_joint")
    assert jd.kind == EXPECTED_KINDS[label]
    assert jd.obj.FrameSource == "Placements"
    assert jd.body1.ShapeObject == mechanism["ground_part"] and jd.body1.Fixed
    assert jd.body2.ShapeObject == case["part"] and not jd.body2.Fixed
    # side 1: exactly the Assembly's JCS 1 in world coordinates
    assert_frame(jd.frame1, case["world1"])
    p2, R2 = jd.frame2
    p_exp, R_exp = frame_of(case["world2"])
    np.testing.assert_allclose(R2, R_exp, atol=1e-12)
    if label == "Gap":   # planar: side 2 sits Distance (5 mm) ahead of side 1's plane
        np.testing.assert_allclose(p2, p_exp - 5e-3 * jd.frame1[1][:, 2], atol=1e-12)
        assert jd.obj.Offset.Value == pytest.approx(5.0)
        assert np.dot(jd.frame1[1][:, 2], p2 - jd.frame1[0]) == pytest.approx(0.0, abs=1e-12)
    else:
        np.testing.assert_allclose(p2, p_exp, atol=1e-12)
    # an Angle joint keeps the Assembly's angle (deg) between the JCS z axes
    if label == "Tilt":
        assert jd.obj.Angle.Value == pytest.approx(60.0)
        assert jd.angle == pytest.approx(math.radians(60.0))
        assert math.degrees(math.acos(R2[:, 2] @ jd.frame1[1][:, 2])) == pytest.approx(60.0)
    else:
        assert jd.angle is None
    if label == "Tether":
        assert jd.length == pytest.approx(case["length"] * 1e-3, abs=1e-12)
        np.testing.assert_allclose(jd.point2, p_exp, atol=1e-12)


def test_the_frames_move_with_the_bodies(mechanism):
    """Frame1/Frame2 (read-only, body-local) map back to the Assembly's world JCSs."""
    for label, case in mechanism["cases"].items():
        joint = mechanism["report"].joints[case["joint"].Name]
        g1 = conversion.global_placement(joint.Reference1[0]).multiply(joint.Frame1)
        assert (g1.Base - case["world1"].Base).Length < 1e-9, label
        assert g1.Rotation.isSame(case["world1"].Rotation, 1e-12), label


def test_grounded_parts_become_fixed_bodies_once(mechanism):
    report = mechanism["report"]
    bodies = study_bodies(report.study)
    shapes = [b.ShapeObject.Name for b in bodies]
    assert len(shapes) == len(set(shapes)) == 13          # ground + 12 parts, each once
    fixed = [b.ShapeObject for b in bodies if b.Fixed]
    assert fixed == [mechanism["ground_part"]]
    assert report.bodies["GroundPart"].Fixed


def test_unsupported_types_are_skipped_with_warnings_naming_them(mechanism):
    report = mechanism["report"]
    skipped = dict(report.skipped)
    # coupling joints with no radius or pitch (Distance 0): skipped, saying why
    for jtype, reason in (("Gears", "its radii must be positive"),
                          ("Belt", "its radii must be positive"),
                          ("RackPinion", "its pitch radius is 0"), ("Screw", "its pitch is 0")):
        assert reason in skipped["My" + jtype]
        assert any("Assembly joint 'My%s' is skipped" % jtype in w for w in report.warnings)
    assert not report.couplers
    assert "a Distance joint between a line edge and a cylinder face is not supported" \
        in skipped["EdgeGap"]
    assert "deactivated" in skipped["Spare"]
    imported = sorted(j.Label for j in study_joints(report.study))
    assert imported == sorted(label + "_joint" for label in EXPECTED_KINDS)
    assert not any("not solved" in w for w in report.warnings)


LIMITS_WARNING = ("Assembly joint 'Hinge': its rotation limits are imported as the compliant "
                  "end stop 'Hinge_rotation_stop' (stiffness 1000 N*mm/deg, exponent 1.5, "
                  "damping 1 N*mm*s/deg): edit its law to suit the part")


def add_angle_limits(joint, value_type="Float"):
    """FreeCAD 1.x joints carry limits (the ``Limits`` group: switches and values; 1.0 keeps
    the values in floats, 1.1 in angle quantities, PR #24403): the minimum angle switched
    on, the maximum off."""
    for name, kind in (("EnableAngleMin", "Bool"), ("EnableAngleMax", "Bool"),
                       ("AngleMin", value_type), ("AngleMax", value_type)):
        joint.addProperty("App::Property" + kind, name, "Limits", name)
    joint.EnableAngleMin, joint.AngleMin, joint.AngleMax = True, -30.0, 45.0


@pytest.mark.parametrize("version, value_type", [("1.0", "Float"), ("1.1", "Angle")])
def test_joint_limits_become_end_stops(docs, version, value_type):
    """The minimum angle switched on (-30 deg), the maximum off: one end stop on the
    hinge's rotation with that lower limit and no upper one, named in a warning (its law
    is a default to edit)."""
    doc = docs()
    p = build_pendulum(doc, version=version)
    add_angle_limits(p["joint"], value_type)
    report = import_assembly(p["asm"].obj)
    (stop,) = report.stops[p["joint"].Name]
    assert (stop.Kind, stop.Dof, stop.Label) == ("joint_stop", "rotation",
                                                 "Hinge_rotation_stop")
    assert stop.Joint == report.joints[p["joint"].Name]
    assert (stop.EnableLower, stop.EnableUpper) == (True, False)
    e = conversion.convert(report.study).force_map[stop.Name]
    assert e.params["lower"] == pytest.approx(math.radians(-30.0))
    assert e.params["upper"] is None
    assert [w for w in report.warnings if "limits" in w] == [LIMITS_WARNING]
    assert len(study_joints(report.study)) == 1


def test_limits_on_a_dof_the_joint_lacks_are_named_and_refused_in_strict_mode(docs):
    doc = docs()
    p = build_pendulum(doc)
    add_angle_limits(p["joint"])
    for name, kind in (("EnableLengthMax", "Bool"), ("LengthMax", "Float")):
        p["joint"].addProperty("App::Property" + kind, name, "Limits", name)
    p["joint"].EnableLengthMax, p["joint"].LengthMax = True, 12.0
    report = import_assembly(p["asm"].obj)
    assert ("Assembly joint 'Hinge': its limits (length <= 12 mm) are not imported: a SimPhant "
            "revolute joint has no such degree of freedom") in report.warnings
    with pytest.raises(ModelError, match="Hinge.*length <= 12 mm"):
        import_assembly(p["asm"].obj, strict=True)


def test_strict_mode_fails_before_changing_the_document(docs):
    doc = docs()
    m = build_mechanism(doc)
    before = sorted(o.Name for o in doc.Objects)
    with pytest.raises(ModelError) as err:
        study_from_assembly(m["asm"].obj, strict=True)
    message = str(err.value)
    assert message.startswith("Assembly 'Assembly' cannot be imported (strict mode)")
    for label in ("MyGears", "MyRackPinion", "MyBelt", "EdgeGap"):
        assert "Assembly joint '%s'" % label in message
    assert "Spare" not in message            # switched off on purpose: not a problem
    assert sorted(o.Name for o in doc.Objects) == before


def test_angle_joints_read_their_angle_and_become_parallel_at_0_and_180_deg(docs):
    """1.1 keeps an Angle joint's angle in its own ``Angle`` property (1.0: ``Distance``);
    |angle| folded into [0, 180] deg, and 180 deg (like 0) is a parallel joint."""
    doc = docs()
    asm = Assembly(doc, version="1.1")
    gp = asm.box("Ground", size=(100.0, 100.0, 10.0), placement=pl(0, 0, -10))
    asm.ground(gp)
    made = {}
    for i, (label, value, turn) in enumerate((("Sharp", -45.0, 45.0), ("Wide", 315.0, 45.0),
                                              ("Back", 180.0, 180.0))):
        part = asm.box("P%d" % i, placement=pl(30 * i, 0, 0))
        w1 = pl(30 * i, 0, 0)
        j = asm.joint("Angle", ("Ground", "Face6", w1),
                      (part.Name, "Face5", w1.multiply(pl(0, 0, 0, (0, 1, 0), turn))),
                      label=label)
        assert j.getTypeIdOfProperty("Angle") == "App::PropertyAngle"
        j.Angle = value                                          # deg
        made[label] = j
    doc.recompute()
    report = import_assembly(asm.obj, strict=True)
    conv = conversion.convert(report.study)
    got = {jd.obj.Label[:-len("_joint")]: (jd.kind, jd.angle) for jd in conv.joints}
    assert got["Sharp"] == ("angle", pytest.approx(math.radians(45.0)))
    assert got["Wide"] == ("angle", pytest.approx(math.radians(45.0)))
    assert got["Back"] == ("parallel", None)
    assert not report.warnings


def test_version_1_1_suppressed_joints_are_skipped(docs):
    doc = docs()
    p = build_pendulum(doc, version="1.1")
    asm = p["asm"]
    spare = asm.joint("Revolute", ("BasePart.Base", "Face6", p["jcs"]), ("Rod", "Edge1", p["jcs"]),
                      label="Spare", on=False)
    assert spare.Suppressed
    report = import_assembly(asm.obj)
    assert [j.Label for j in study_joints(report.study)] == ["Hinge_joint"]
    assert report.skipped == [("Spare", "it is suppressed")]


# ============================================================================ motion

def _measured_period(result, name, pivot, direction):
    x = (result.position(name) - pivot) @ direction
    crossings = zero_crossings(result.t, x)
    assert len(crossings) >= 4
    return 2.0 * np.mean(np.diff(crossings))


def _run(study, **overrides):
    settings = dict(t_end=2.0, dt=1e-3, output_dt=1e-3)
    settings.update(overrides)
    return runner.run_study(study, **settings)


@pytest.mark.parametrize("kind", ["Revolute", "Ball"])
def test_pendulum_assembly_swings_with_the_compound_pendulum_period(docs, kind):
    """Rod hinged (or balled) at the centre of its top end to a grounded base, assembly
    moved and turned: T = 2 pi sqrt(I_O / (m g d)) (1 + theta0^2 / 16), in the plane."""
    doc = docs()
    p = build_pendulum(doc, kind=kind)
    study = study_from_assembly(p["asm"].obj)
    jd, _ = joint_data_of(study, "Hinge")
    assert jd.kind == {"Revolute": "revolute", "Ball": "spherical"}[kind]
    assert_frame(jd.frame1, p["jcs"])
    assert_frame(jd.frame2, p["jcs"])
    # the picked edge alone would give another axis: the user's JCS rotation is kept
    from SimPhantWorkbench.document.references import reference_frame
    assert abs(np.dot(reference_frame(p["rod"], "Edge1").axis, jd.frame1[1][:, 2])) < 0.1
    r = _run(study)
    name = runner.result_key(study, p["rod"])
    pivot = np.array(tuple(p["jcs"].Base)) * 1e-3
    rot = p["asm"].obj.Placement.Rotation
    swing = np.array(tuple(rot.multVec(V(1, 0, 0))))
    T = _measured_period(r, name, pivot, swing)
    assert T == pytest.approx(p["period"], rel=2e-5)
    # the top centre stays at the pivot; the motion stays in the swing plane
    top = r.point_position(name, np.array([0.0, 0.0, 0.1]))      # rod axes, from the CoG
    assert np.abs(top - pivot).max() < 1e-7
    normal = np.array(tuple(rot.multVec(V(0, 1, 0))))
    assert np.abs((r.position(name) - pivot) @ normal).max() < 1e-9


def test_a_flipped_jcs_pair_is_a_solved_joint(docs):
    """JCS 2 turned 180 deg about x (1.x's "reverse"): no warning, same pendulum."""
    doc = docs()
    p = build_pendulum(doc)
    p["joint"].Placement2 = p["joint"].Placement2.multiply(pl(0, 0, 0, (1, 0, 0), 180))
    report = import_assembly(p["asm"].obj)
    assert not any("not solved" in w for w in report.warnings)
    jd, _ = joint_data_of(report.study, "Hinge")
    np.testing.assert_allclose(jd.frame2[1][:, 2], -jd.frame1[1][:, 2], atol=1e-12)
    r = _run(report.study)
    rot = p["asm"].obj.Placement.Rotation
    T = _measured_period(r, runner.result_key(report.study, p["rod"]),
                         np.array(tuple(p["jcs"].Base)) * 1e-3,
                         np.array(tuple(rot.multVec(V(1, 0, 0)))))
    assert T == pytest.approx(p["period"], rel=2e-5)


def test_slider_assembly_slides_down_its_axis_with_g_cos_alpha(docs):
    alpha = 30.0
    doc = docs()
    s = build_slider(doc, alpha)
    study = study_from_assembly(s["asm"].obj)
    jd, _ = joint_data_of(study, "Chute")
    assert jd.kind == "prismatic"
    r = _run(study, t_end=0.5, output_dt=0.01)
    name = runner.result_key(study, s["block"])
    e = s["axis"]
    assert e[2] == pytest.approx(math.cos(math.radians(alpha)), abs=1e-12)
    expected = -0.5 * G * e[2] * r.t[:, None] ** 2 * e
    np.testing.assert_allclose(r.position(name) - r.position(name)[0], expected, atol=1e-9)
    R = r.rotation_matrix(name)
    assert np.abs(R - R[0]).max() < 1e-8          # no rotation (solver drift only)


# ============================================================================ bad input

def test_reference_to_a_part_outside_the_assembly_is_skipped_or_refused(docs):
    doc = docs()
    p = build_pendulum(doc)
    stray = doc.addObject("Part::Box", "Stray")          # at the document root
    doc.recompute()
    j = p["asm"].joint("Fixed", ("BasePart.Base", "Face6", p["jcs"]), None, label="Outside")
    j.Reference2 = (stray, ["Face1", "Face1"])
    report = import_assembly(p["asm"].obj)
    reason = dict(report.skipped)["Outside"]
    assert "Reference2: 'Stray.Face1' is outside assembly 'Assembly'" in reason
    assert [j.Label for j in study_joints(report.study)] == ["Hinge_joint"]
    with pytest.raises(ModelError, match="Assembly joint 'Outside': Reference2: 'Stray.Face1' "
                                         "is outside assembly 'Assembly'"):
        study_from_assembly(p["asm"].obj, strict=True)


def test_missing_references_are_skipped_naming_the_joint(docs):
    doc = docs()
    p = build_pendulum(doc)
    p["asm"].joint("Revolute", ("BasePart.Base", "Face6", p["jcs"]), None, label="Half")
    p["asm"].joint("Revolute", ("Rod", "Edge1", p["jcs"]), ("Rod", "Edge2", p["jcs"]),
                   label="Self")
    report = import_assembly(p["asm"].obj)
    skipped = dict(report.skipped)
    assert skipped["Half"] == "Reference2 is empty (the joint lost its part)"
    assert skipped["Self"] == "both references are on part 'Rod'"
    assert any(w.startswith("Assembly joint 'Half' is skipped") for w in report.warnings)


def test_assembly_without_grounded_part_warns_that_everything_falls(docs):
    doc = docs()
    p = build_pendulum(doc)
    doc.removeObject(p["asm"].group.Group[0].Name)          # the grounded joint
    report = import_assembly(p["asm"].obj)
    assert any("has no grounded part: every body falls freely" in w for w in report.warnings)
    assert not any(b.Fixed for b in study_bodies(report.study))
    r = _run(report.study, t_end=0.2, output_dt=0.05)      # both fall together
    z = r.position(runner.result_key(report.study, p["rod"]))[:, 2]
    assert z[-1] - z[0] == pytest.approx(-0.5 * G * 0.2 ** 2, rel=1e-6)


def test_assembly_without_joints_warns(docs):
    doc = docs()
    asm = Assembly(doc)
    lone = asm.box("Lone")
    asm.ground(lone)
    report = import_assembly(asm.obj)
    assert any("has no joints" in w and "nothing moves" in w for w in report.warnings)
    assert [b.ShapeObject for b in study_bodies(report.study)] == [lone]


def test_parts_not_connected_to_ground_are_reported(docs):
    doc = docs()
    p = build_pendulum(doc)
    asm = p["asm"]
    left = asm.box("Left", placement=pl(0, 300, 0))
    right = asm.box("Right", placement=pl(40, 300, 0))
    w = asm.obj.Placement.multiply(pl(40, 300, 0))
    asm.joint("Fixed", ("Left", "Face2", w), ("Right", "Face1", w), label="Pair")
    report = import_assembly(asm.obj)
    assert any("'Left', 'Right' not connected to a grounded part" in m for m in report.warnings)
    assert left.Name in report.bodies and right.Name in report.bodies


def test_two_joints_on_the_same_pair_are_both_imported(docs):
    """Two coaxial hinges (redundant rows) on one pair: both kept, the period unchanged."""
    doc = docs()
    p = build_pendulum(doc)
    asm = p["asm"]
    second = p["jcs"].multiply(pl(0, 0, 1.5))              # 1.5 mm along the hinge axis
    asm.joint("Revolute", ("BasePart.Base", "Face6", second), ("Rod", "Edge1", second),
              label="Hinge2")
    report = import_assembly(asm.obj)
    labels = sorted(j.Label for j in study_joints(report.study))
    assert labels == ["Hinge2_joint", "Hinge_joint"]
    r = _run(report.study)
    name = runner.result_key(report.study, p["rod"])
    rot = asm.obj.Placement.Rotation
    T = _measured_period(r, name, np.array(tuple(p["jcs"].Base)) * 1e-3,
                         np.array(tuple(rot.multVec(V(1, 0, 0)))))
    assert T == pytest.approx(p["period"], rel=2e-5)


def test_not_an_assembly_is_refused(docs):
    doc = docs()
    box = doc.addObject("Part::Box", "Box")
    with pytest.raises(ModelError, match="'Box' is not a FreeCAD Assembly"):
        study_from_assembly(box)


def test_unsolved_assembly_joint_is_reported(docs):
    doc = docs()
    p = build_pendulum(doc)
    p["joint"].Placement2 = p["joint"].Placement2.multiply(pl(0, 3, 0))
    report = import_assembly(p["asm"].obj)
    assert any("Assembly joint 'Hinge': its coordinate systems are 3 mm apart; the Assembly "
               "is not solved" in w for w in report.warnings)


# ======================================================================= containers, reuse, files

def test_links_bodies_and_origin_datums_resolve_the_jcs_owner(docs, partdesign):
    """JCS owners: a PartDesign Body in an App::Part (1.0 path with the feature, 1.x path
    without) and one directly in the assembly, an App::Link to a box, and the assembly's
    Origin axis (always grounded)."""
    doc = docs()
    asm = Assembly(doc, placement=pl(5, 6, 7, (1, 0, 0), 20))
    holder = asm.part("Holder", placement=pl(0, 100, 0, (0, 0, 1), 35))
    body = doc.addObject("PartDesign::Body", "Body")
    prim = doc.addObject("PartDesign::AdditiveBox", "AdditiveBox")
    body.addObject(prim)
    prim.Length, prim.Width, prim.Height = 40, 30, 20
    holder.addObject(body)
    body.Placement = pl(10, 0, 0, (0, 1, 0), 15)
    loose = doc.addObject("PartDesign::Body", "Loose")       # a Body directly in the assembly
    cyl = doc.addObject("PartDesign::AdditiveCylinder", "AdditiveCylinder")
    loose.addObject(cyl)
    asm.add(loose, placement=pl(0, 0, 80, (0, 1, 0), 25))
    source = doc.addObject("Part::Box", "Source")           # linked from outside the assembly
    source.Placement = pl(500, 0, 0)
    link = asm.add(doc.addObject("App::Link", "Link"), placement=pl(0, -100, 0, (0, 0, 1), 50))
    link.LinkedObject = source
    doc.recompute()
    W = asm.obj.Placement.multiply
    w_a, w_b, w_c = W(pl(0, 50, 0, (1, 0, 0), 30)), W(pl(0, -50, 0)), W(pl(0, 0, 0))
    w_d = W(pl(0, 0, 80, (0, 1, 0), 70))
    a = asm.joint("Revolute", ("Holder.Body", "Face6", w_a), ("Link", "Face1", w_a), label="A")
    a.Reference1 = (asm.obj, ["Holder.Body.AdditiveBox.Face6"] * 2)    # 1.0 path, feature kept
    asm.joint("Fixed", ("Link", "Face2", w_b), ("Holder.Body", "Face5", w_b), label="B")
    origin = asm.obj.Origin
    z_axis = [f for f in origin.OriginFeatures if f.Role == "Z_Axis"][0]
    asm.joint("Revolute", ("%s.%s" % (origin.Name, z_axis.Name), "", w_c),
              ("Link", "Vertex1", w_c), label="C")
    asm.joint("Cylindrical", ("Loose", "Face1", w_d), ("Link", "Face3", w_d), label="D")
    report = import_assembly(asm.obj)
    parts = {j.Label[:-6]: (j.Reference1[0], j.Reference2[0])
             for j in study_joints(report.study)}
    assert parts["A"] == (holder, link) and parts["B"] == (link, holder)
    assert parts["C"] == (z_axis, link) and parts["D"] == (loose, link)
    assert report.bodies[z_axis.Name].Fixed and not report.bodies[holder.Name].Fixed
    assert not any("no grounded part" in w for w in report.warnings)
    conv = conversion.convert(report.study)
    frames = {jd.obj.Label[:-6]: jd for jd in conv.joints}
    for label, world in (("A", w_a), ("B", w_b), ("C", w_c), ("D", w_d)):
        assert_frame(frames[label].frame1, world, tol=1e-11)
        assert_frame(frames[label].frame2, world, tol=1e-11)
    plan = assembly_import.plan_assembly(asm.obj)
    owners = {jp.source.Label: (jp.ref1.owner, jp.ref2.owner) for jp in plan.joints}
    assert owners == {"A": (body, link), "B": (link, body), "C": (z_axis, link),
                      "D": (loose, link)}


def test_an_existing_study_keeps_its_bodies(docs):
    doc = docs()
    p = build_pendulum(doc)
    study = factory.make_study(doc, "Mine")
    mine = factory.make_body(study, p["rod"], density=2700.0)
    out = study_from_assembly(p["asm"].obj, study=study)
    assert out == study
    bodies = study_bodies(study)
    assert len(bodies) == 2 and mine in bodies and mine.Density == 2700.0
    assert [j.Label for j in study_joints(study)] == ["Hinge_joint"]


def test_imported_joints_keep_their_frames_across_save_and_reopen(docs, tmp_path):
    doc = docs()
    p = build_pendulum(doc)
    study = study_from_assembly(p["asm"].obj)
    before = [(jd.frame1, jd.frame2) for jd in conversion.convert(study).joints]
    name = study.Name
    doc2 = reopen(doc, tmp_path / "imported.FCStd")
    study2 = doc2.getObject(name)
    joint = study_joints(study2)[0]
    assert joint.FrameSource == "Placements"
    after = [(jd.frame1, jd.frame2) for jd in conversion.convert(study2).joints]
    for (f1, f2), (g1, g2) in zip(before, after):
        for f, g in ((f1, g1), (f2, g2)):
            np.testing.assert_allclose(f[0], g[0], atol=1e-12)
            np.testing.assert_allclose(f[1], g[1], atol=1e-12)


def test_the_saved_assembly_fixture_imports_and_swings(docs, tmp_path):
    """``fixtures/assembly_pendulum.FCStd`` (``assembly_make_fixture.py``): the pendulum
    saved by FreeCAD 0.20 with the 1.x property formats, reopened and imported."""
    path = tmp_path / "assembly_pendulum.FCStd"
    shutil.copy(FIXTURE, path)
    before = set(FreeCAD.listDocuments())
    doc = FreeCAD.openDocument(str(path))
    try:
        asm = doc.getObject("Assembly")
        joint = doc.getObject("Joint")
        assert joint.getTypeIdOfProperty("Reference1") == "App::PropertyXLinkSub"
        assert list(joint.Reference1[1]) == ["BasePart.Base.Face6", "BasePart.Base.Face6"]
        study = study_from_assembly(asm)
        r = _run(study)
        name = runner.result_key(study, doc.getObject("Rod"))
        rot = asm.Placement.Rotation
        world = asm.Placement.multiply(pl(0, 0, 0, (1, 0, 0), -90))
        T = _measured_period(r, name, np.array(tuple(world.Base)) * 1e-3,
                             np.array(tuple(rot.multVec(V(1, 0, 0)))))
        assert T == pytest.approx(rod_period(2e-3, 0.2) * (1 + math.radians(2.0) ** 2 / 16),
                                  rel=2e-5)
    finally:
        for name in set(FreeCAD.listDocuments()) - before:
            FreeCAD.closeDocument(name)


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
        jd = conversion.joint_data(joint)
        # the saved pendulum's hinge: the pin's circle (centre (2, 0, 0) mm, axis y) and
        # the rod's top vertex at the same point, which takes the circle's axis
        assert jd.kind == "revolute"
        assert jd.body1.ShapeObject.Name == "Pin" and jd.body1.Fixed
        assert jd.body2.ShapeObject.Name == "Rod" and not jd.body2.Fixed
        for point, R in (jd.frame1, jd.frame2):
            np.testing.assert_allclose(point, (0.002, 0.0, 0.0), atol=1e-12)
            np.testing.assert_allclose(abs(R[:, 2] @ (0.0, 1.0, 0.0)), 1.0, atol=1e-12)
            np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-12)
        np.testing.assert_allclose(jd.frame2[1], jd.frame1[1], atol=1e-12)
    finally:
        for name in set(FreeCAD.listDocuments()) - before:
            FreeCAD.closeDocument(name)


def test_the_module_imports_without_the_assembly_module():
    import importlib
    mod = importlib.import_module("SimPhantWorkbench.assembly_import")
    assert mod.JOINT_KIND_MAP["Slider"] == "prismatic"
    assert set(mod.UNSUPPORTED_TYPES) | set(mod.JOINT_KIND_MAP) | set(mod.COUPLER_KIND_MAP) \
        | {"Distance", "Angle"} == set(TYPES_1X)
    # importing it pulls in none of the 1.x Assembly modules (absent on 0.20): seen in a
    # fresh interpreter, since an earlier test that opened a 1.x Assembly loads them here
    import subprocess
    import sys
    code = ("import sys, FreeCAD, SimPhantWorkbench.assembly_import; print(sorted("
            "{'Assembly', 'AssemblyApp', 'UtilsAssembly', 'JointObject'} & set(sys.modules)))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout
