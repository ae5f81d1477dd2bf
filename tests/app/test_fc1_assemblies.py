"""FreeCAD 1.x Assemblies made by FreeCAD's own Assembly API, imported and simulated.

The documents ``fixtures/fc1_*.FCStd`` were made by ``fixtures/make_fc1_assemblies.py``
with FreeCAD 1.0's Assembly workbench (see its table). FreeCAD 0.20 has no Assembly
workbench: there these tests are deselected (``fc1`` marker, reported in the summary) and
run by ``make test-fc1`` on FreeCAD 1.0. The expected values come from the documents'
own shapes (volume, centre of mass, inertia) and closed forms, never from SimPhant.
"""
import math
import os
import shutil

import numpy as np
import pytest
from scipy.special import ellipk

import FreeCAD

from SimPhantWorkbench import conversion, factory, runner
from SimPhantWorkbench.assembly_import import import_assembly
from SimPhantWorkbench.solver import ModelError

pytestmark = pytest.mark.fc1

V = FreeCAD.Vector
G = 9.80665
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
M = 1e-3   # m per mm


@pytest.fixture
def fixture_doc(tmp_path):
    """Open a copy of ``fixtures/<name>.FCStd``; closed at the end."""
    opened = []

    def open_(name):
        path = tmp_path / (name + ".FCStd")
        shutil.copy(os.path.join(FIXTURES, name + ".FCStd"), path)
        doc = FreeCAD.openDocument(str(path))
        opened.append(doc.Name)
        return doc

    yield open_
    for name in opened:
        if name in FreeCAD.listDocuments():
            FreeCAD.closeDocument(name)


def kinds(report):
    conv = conversion.convert(report.study)
    return {jd.obj.Label[:-len("_joint")]: jd.kind for jd in conv.joints}


def run(study, **kw):
    settings = dict(t_end=1.0, dt=1e-3, output_dt=1e-3, method="rk4")
    settings.update(kw)
    return runner.run_study(study, **settings)


def material_point(r, key, p0):
    """World trajectory [m] of the body point that was at ``p0`` [m] at t = 0."""
    c, R = r.position(key), r.rotation_matrix(key)
    return c + np.einsum("nij,j->ni", R @ R[0].T, p0 - c[0])


def vec(v):
    return np.array([v.x, v.y, v.z]) * M


def assert_energy_kept(r, rel=1e-6):
    E = r.energy()
    drift = np.abs(E["total"] - E["total"][0]).max()
    assert drift <= rel * max(E["kinetic"].max(), 1e-12), drift


def pendulum_period(shape, pivot, axis):
    """Period [s] of the rigid ``shape`` (mm; any density) swinging about the horizontal
    ``axis`` through ``pivot`` (mm), released from rest where it is:
    T = 4 sqrt(I_O / (m g d)) K(sin(theta0 / 2))."""
    axis = axis / np.linalg.norm(axis)
    assert len(shape.Solids) == 1
    shape = shape.Solids[0]             # FreeCAD 1.x keeps a cut's result in a compound
    c = vec(shape.CenterOfMass)
    arm = c - pivot * M
    arm_perp = arm - axis * (arm @ axis)
    d = np.linalg.norm(arm_perp)
    Icg = np.array(shape.MatrixOfInertia.A).reshape(4, 4)[:3, :3] * M ** 5
    m = shape.Volume * M ** 3
    i_o = axis @ Icg @ axis + m * d ** 2
    down = np.array([0.0, 0.0, -1.0])
    theta0 = math.acos(np.clip(arm_perp @ down / d, -1, 1))
    return 4.0 * math.sqrt(i_o / (m * G * d)) * ellipk(math.sin(theta0 / 2) ** 2)


def measured_period(r, key, pivot, direction):
    x = (r.position(key) - pivot) @ direction
    idx = np.where(np.sign(x[:-1]) * np.sign(x[1:]) < 0)[0]
    t = np.array([r.t[k] - x[k] * (r.t[k + 1] - r.t[k]) / (x[k + 1] - x[k]) for k in idx])
    assert len(t) >= 3, "fewer than three zero crossings"
    return 2.0 * np.mean(np.diff(t))


# ============================================================================ pendulum

def test_pendulum_swings_with_the_large_amplitude_period(fixture_doc):
    doc = fixture_doc("fc1_pendulum")
    asm = doc.getObject("Assembly")
    assert asm.TypeId == "Assembly::AssemblyObject"
    report = import_assembly(asm, strict=True)
    assert kinds(report) == {"Hinge": "revolute"}
    assert report.bodies["Support"].Fixed and not report.bodies["Bar"].Fixed
    bar = doc.getObject("Bar")
    pivot = bar.Placement.multVec(V(10, 5, 10))            # centre of the hinge hole
    shape = bar.Shape
    T = pendulum_period(shape, vec(pivot) / M, np.array([0.0, 1.0, 0.0]))
    r = run(report.study, t_end=2.4 * T)
    key = runner.result_key(report.study, report.bodies["Bar"])
    assert measured_period(r, key, vec(pivot), np.array([1.0, 0.0, 0.0])) \
        == pytest.approx(T, rel=1e-4)
    # the hole's centre stays on the axis; the bar swings in the x-z plane
    hole = material_point(r, key, vec(pivot))
    assert np.abs(hole - vec(pivot)).max() < 1e-7
    assert np.abs(r.position(key)[:, 1] - r.position(key)[0, 1]).max() < 1e-9
    assert_energy_kept(r)


def test_pendulum_limits_become_an_end_stop_that_holds_the_swing(fixture_doc):
    """The Hinge's AngleMin/AngleMax (deg, the angle between the JCS x axes about JCS 1's z
    axis, JCS from FreeCAD's own ``UtilsAssembly.getJcsGlobalPlc``) 20 deg either side of
    where it starts: imported as an end stop on the joint angle, which starts where
    FreeCAD measures it; the bar, free to swing far wider, stays near the limits."""
    import UtilsAssembly
    doc = fixture_doc("fc1_pendulum")
    hinge = next(o for o in doc.Objects if o.Label == "Hinge")
    p1 = UtilsAssembly.getJcsGlobalPlc(hinge.Placement1, hinge.Reference1)
    p2 = UtilsAssembly.getJcsGlobalPlc(hinge.Placement2, hinge.Reference2)
    x1, z1 = p1.Rotation.multVec(V(1, 0, 0)), p1.Rotation.multVec(V(0, 0, 1))
    x2 = p2.Rotation.multVec(V(1, 0, 0))
    angle0 = math.degrees(math.atan2(x1.cross(x2).dot(z1), x1.dot(x2)))
    hinge.EnableAngleMin, hinge.AngleMin = True, angle0 - 20.0
    hinge.EnableAngleMax, hinge.AngleMax = True, angle0 + 20.0
    report = import_assembly(doc.getObject("Assembly"), strict=True)
    (stop,) = report.stops[hinge.Name]
    r = run(report.study, t_end=1.0)
    theta = np.degrees(r.spring_length(stop.Label))
    assert theta[0] == pytest.approx(angle0, abs=1e-6)
    assert r.stop_events()
    assert np.abs(theta - angle0).max() < 25.0
    hinge.EnableAngleMin = hinge.EnableAngleMax = False
    free = run(import_assembly(doc.getObject("Assembly"), name="Free").study, t_end=1.0)
    assert not free.force_names
    swing = np.degrees(free.joint_position(free.joint_names[0], "angle"))
    assert swing[0] == pytest.approx(angle0, abs=1e-6)
    assert np.abs(swing - angle0).max() > 40.0


# ============================================================================ slider-crank

def test_slider_crank_follows_the_closed_form_kinematics(fixture_doc):
    """Crank pivot O, crank pin A, wrist pin B on the line through O along x:
    x_B = r cos(th) + sqrt(L^2 - r^2 sin^2(th)), and its time derivative."""
    doc = fixture_doc("fc1_slider_crank")
    report = import_assembly(doc.getObject("Assembly"), strict=True)
    assert kinds(report) == {"CrankPivot": "revolute", "CrankPin": "revolute",
                             "WristPin": "revolute", "SliderGuide": "prismatic"}
    crank, slider = doc.getObject("Crank"), doc.getObject("Slider")
    O = vec(crank.Placement.multVec(V(10, 5, 10)))
    A0 = vec(crank.Placement.multVec(V(90, 5, 10)))
    B0 = vec(slider.Placement.multVec(V(20, 5, 10)))
    xz = [0, 2]                                          # the pins are 10 mm apart in y
    r_, L = np.linalg.norm((A0 - O)[xz]), np.linalg.norm((B0 - A0)[xz])
    assert (r_, L) == pytest.approx((0.080, 0.230), abs=1e-9)
    assert B0[2] == pytest.approx(O[2], abs=1e-9)              # no offset
    r = run(report.study, t_end=1.0)
    kc = runner.result_key(report.study, report.bodies["Crank"])
    ks = runner.result_key(report.study, report.bodies["Slider"])
    A = material_point(r, kc, A0)
    th = np.arctan2(A[:, 2] - O[2], A[:, 0] - O[0])
    assert th[0] == pytest.approx(math.radians(60.0), abs=1e-9)
    assert np.ptp(th) > 1.0                                      # it really moves
    B = material_point(r, ks, B0)
    root = np.sqrt(L ** 2 - (r_ * np.sin(th)) ** 2)
    np.testing.assert_allclose(B[:, 0] - O[0], r_ * np.cos(th) + root, atol=1e-7)
    np.testing.assert_allclose(B[:, 1:], np.broadcast_to(B0[1:], B[:, 1:].shape), atol=1e-7)
    omega = -r.angular_velocity(kc)[:, 1]                       # d th / dt (th about -y)
    v_closed = -r_ * omega * np.sin(th) * (1.0 + r_ * np.cos(th) / root)
    np.testing.assert_allclose(r.velocity(ks)[:, 0], v_closed, atol=1e-6)
    assert_energy_kept(r)


# ============================================================================ every joint kind

def test_every_importable_joint_kind_moves_as_its_joint(fixture_doc):
    doc = fixture_doc("fc1_zoo")
    report = import_assembly(doc.getObject("Assembly"))
    assert kinds(report) == {"BracketFix": "fixed", "ArmBall": "spherical",
                             "SleeveCyl": "cylindrical", "PuckOnBase": "planar",
                             "WeightRod": "distance", "TileBall": "spherical",
                             "TileParallel": "parallel", "StickBall": "spherical",
                             "StickSquare": "perpendicular", "BoomBall": "spherical",
                             "BoomAngle": "angle"}
    assert report.skipped == []
    assert not any("not solved" in w for w in report.warnings)
    r = run(report.study, t_end=0.3)
    key = {name: runner.result_key(report.study, body) for name, body in report.bodies.items()
           if not body.Fixed}
    # Cylindrical: the sleeve slides down the 30 deg shaft, s = -g cos(60 deg) t^2 / 2
    shaft = doc.getObject("Shaft")
    e = vec(shaft.Placement.Rotation.multVec(V(0, 0, 1))) / M
    assert e[2] == pytest.approx(0.5, abs=1e-12)
    c = r.position(key["Sleeve"])
    np.testing.assert_allclose(c - c[0], np.outer(-0.5 * G * e[2] * r.t ** 2, e), atol=1e-7)
    # Fixed: the bracket stays
    b = r.position(key["Bracket"])
    assert np.abs(b - b[0]).max() < 1e-8
    # Ball: the arm's corner stays at the bracket's top corner
    arm, bracket = doc.getObject("Arm"), doc.getObject("Bracket")
    corner = vec(bracket.Placement.multVec(V(20, 0, 200)))
    assert np.linalg.norm(vec(arm.Placement.multVec(V(0, 0, 0))) - corner) < 1e-9
    assert np.abs(material_point(r, key["Arm"], corner) - corner).max() < 1e-7
    assert np.ptp(r.position(key["Arm"])[:, 2]) > 1e-3                 # it falls
    # Distance vertex-vertex: 60 mm between the bracket's and the weight's corners
    weight = doc.getObject("Weight")
    w0 = vec(weight.Placement.multVec(V(10, 0, 10)))
    anchor = vec(bracket.Placement.multVec(V(0, 20, 200)))
    dist = np.linalg.norm(material_point(r, key["Weight"], w0) - anchor, axis=1)
    np.testing.assert_allclose(dist, 0.060, atol=1e-7)
    # Distance plane-plane 0 mm: the puck stays on the base, turning about z only
    p = r.position(key["Puck"])
    assert np.abs(p[:, 2] - p[0, 2]).max() < 1e-9
    Rz = r.rotation_matrix(key["Puck"])[:, :, 2]
    assert np.abs(Rz - np.array([0.0, 0.0, 1.0])).max() < 1e-9
    assert_energy_kept(r)
    _check_orientation_joints(doc, report, r, key)


def _check_orientation_joints(doc, report, r, key):
    """The bodies under the gantry, each on a ball joint at a gantry corner."""
    gantry = doc.getObject("Gantry")

    def pivot(at):
        return vec(gantry.Placement.multVec(at))

    def held(name, at):          # the ball joint holds the corner; the body moves
        p = pivot(at)
        assert np.abs(material_point(r, key[name], p) - p).max() < 1e-7
        assert np.ptp(r.position(key[name]), axis=0).max() > 1e-3

    # Parallel: the tile's y axis stays along the gantry's y; it swings about y
    held("Tile", V(0, 0, 0))
    Ry = r.rotation_matrix(key["Tile"])[:, :, 1]
    assert np.abs(Ry - Ry[0]).max() < 1e-6       # (constraint drift of 1 ms steps)
    y = gantry.Placement.Rotation.multVec(V(0, 1, 0))
    assert np.abs(np.cross(Ry[0], [y.x, y.y, y.z])).max() < 1e-9
    # Perpendicular: the stick's end-face normal (its x) stays horizontal; it rolls about it
    held("Stick", V(600, 0, 0))
    R = r.rotation_matrix(key["Stick"])
    assert np.abs(R[:, 2, 0]).max() < 1e-6
    assert np.ptp(R[:, 2, 1]) > 1e-3
    # Angle: the joint keeps the Assembly joint's angle (1.0: in Distance, deg; the angle the
    # JCS z axes have as the Assembly solved them) between the JCS z axes; the boom's axis
    # keeps its angle to the vertical while the boom rolls about it
    held("Boom", V(0, 20, 0))
    source = next(j for j in doc.Objects if j.Label == "BoomAngle")
    assert 1.0 < float(source.Distance) < 179.0
    assert report.joints[source.Name].Angle.Value == pytest.approx(float(source.Distance))
    jd = next(jd for jd in conversion.convert(report.study).joints
              if jd.obj.Label == "BoomAngle_joint")
    z1, z2 = jd.frame1[1][:, 2], jd.frame2[1][:, 2]
    assert math.degrees(math.acos(z1 @ z2)) == pytest.approx(float(source.Distance), abs=1e-6)
    x = r.rotation_matrix(key["Boom"])[:, :, 0]
    cos_z = x[:, 2] / np.linalg.norm(x, axis=1)
    np.testing.assert_allclose(cos_z, cos_z[0], atol=1e-6)
    assert np.ptp(r.rotation_matrix(key["Boom"])[:, 2, 1]) > 1e-3


# ============================================================================ Reverse, offsets

def test_reverse_offset_and_signed_distances_import_as_the_assembly_solved_them(fixture_doc):
    doc = fixture_doc("fc1_variants")
    report = import_assembly(doc.getObject("Assembly"), strict=True)
    assert kinds(report) == {"HingeRev": "revolute", "HingeOff": "revolute",
                             "DistUp": "planar", "DistDown": "planar"}
    assert not any("not solved" in w for w in report.warnings), report.warnings
    up, down, base = (doc.getObject(n) for n in ("PuckUp", "PuckDown", "Base"))
    top = base.Placement.Base.z + base.Height.Value
    gaps = sorted([up.Placement.Base.z - top, down.Placement.Base.z - top])
    assert gaps == pytest.approx([-10.0, 10.0], abs=1e-6)       # the two signs: both sides
    conv = conversion.convert(report.study)
    jd = {j.obj.Label[:-len("_joint")]: j for j in conv.joints}
    assert jd["HingeRev"].frame2[1][:, 2] @ jd["HingeRev"].frame1[1][:, 2] \
        == pytest.approx(-1.0, abs=1e-9)                          # Reverse: z flipped
    # the offset moved the joint point 5 mm along the axis of HingeOff's second JCS
    off = doc.getObject("BarOff")
    on_face = vec(off.Placement.multVec(V(10, 0, 10)))      # the hole's centre on the face
    p1, p2 = (np.asarray(jd["HingeOff"].frame1[0]), np.asarray(jd["HingeOff"].frame2[0]))
    z2 = jd["HingeOff"].frame2[1][:, 2]
    assert np.linalg.norm(p1 - p2) < 1e-9
    d = p2 - on_face
    assert abs(d @ z2) == pytest.approx(0.005, abs=1e-9)
    assert np.linalg.norm(d - (d @ z2) * z2) < 1e-9
    r = run(report.study, t_end=0.6)
    for name in ("PuckUp", "PuckDown"):
        z = r.position(runner.result_key(report.study, report.bodies[name]))[:, 2]
        assert np.abs(z - z[0]).max() < 1e-9, name
    for name in ("BarRev", "BarOff"):
        bar = doc.getObject(name)
        pivot = vec(bar.Placement.multVec(V(10, 5, 10)))
        key = runner.result_key(report.study, report.bodies[name])
        axis_pt = material_point(r, key, pivot)
        assert np.abs(axis_pt[:, [0, 2]] - pivot[[0, 2]]).max() < 1e-7, name
    assert_energy_kept(r)


# ============================================================================ containers, links

def test_body_in_a_part_and_a_link_swing_as_a_double_pendulum(fixture_doc):
    doc = fixture_doc("fc1_containers")
    report = import_assembly(doc.getObject("Assembly"), strict=True)
    assert kinds(report) == {"Hinge1": "revolute", "Hinge2": "revolute"}
    assert sorted(report.bodies) == ["BarLink", "PartA", "Support"]
    r = run(report.study, t_end=1.0)
    part = doc.getObject("PartA")
    body = doc.getObject("Body")
    hole1 = vec(part.Placement.multiply(body.Placement).multVec(V(10, 5, 10)))
    key = runner.result_key(report.study, report.bodies["PartA"])
    assert np.abs(material_point(r, key, hole1) - hole1).max() < 1e-7
    hole2 = vec(part.Placement.multiply(body.Placement).multVec(V(190, 5, 10)))
    link = doc.getObject("BarLink")
    kl = runner.result_key(report.study, report.bodies["BarLink"])
    np.testing.assert_allclose(material_point(r, kl, hole2)[:, [0, 2]],
                               material_point(r, key, hole2)[:, [0, 2]], atol=1e-7)
    assert np.ptp(r.position(kl)[:, 2]) > 0.01                          # it swings
    assert link.LinkedObject.Name == "BarSource"
    assert_energy_kept(r)


# ============================================================================ couplers

def _jcs(joint, k):
    """World coordinate system ``k`` (1, 2) of an Assembly joint, as FreeCAD computes it."""
    import UtilsAssembly
    return UtilsAssembly.getJcsGlobalPlc(getattr(joint, "Placement%d" % k),
                                         getattr(joint, "Reference%d" % k))


def _z(plc):
    return np.array(tuple(plc.Rotation.multVec(V(0, 0, 1))))


def _turn(R, n):
    """Rotation angles [rad] about the fixed unit axis ``n`` of rotation matrices ``R``
    (n x 3 x 3) relative to ``R[0]``, unwrapped."""
    rel = R @ R[0].T
    vee = np.stack([rel[:, 2, 1] - rel[:, 1, 2], rel[:, 0, 2] - rel[:, 2, 0],
                    rel[:, 1, 0] - rel[:, 0, 1]], axis=1)
    return np.unwrap(np.arctan2(0.5 * vee @ n, 0.5 * (np.trace(rel, axis1=1, axis2=2) - 1.0)))


def _matrix(rotation):
    return np.array([list(rotation.multVec(e)) for e in (V(1, 0, 0), V(0, 1, 0), V(0, 0, 1))]).T


#: the coupling joints of ``fc1_couplers``: (input part, output part); a rack or nut is
#: the output
COUPLED = {"Mesh": ("Gear1", "Gear2"), "Drive": ("Pulley1", "Pulley2"),
           "Steering": ("Pinion", "Rack"), "Steering2": ("Pinion2", "Rack2"),
           "Thread": ("Screw", "Nut")}
SLIDING = ("RackPinion", "Screw")


def _expected(source, out_from_in):
    """The output motion FreeCAD's solver gives a coupling joint for an input motion
    (closed forms of OndselSolver's rows, each angle about its own coordinate system's z
    axis): Gears phi_J = -(D / D2) phi_I, Belt +(D / D2) phi_I; RackPinion: the rack moves
    by D theta [mm] along its coordinate system's z axis for theta about the pinion's;
    Screw (2 pi z - D theta = const, z and theta of the screw relative to the nut about the
    nut's z axis): the nut moves by -D theta / (2 pi) [mm] along its z axis for the screw's
    turn theta about it."""
    d = float(source.Distance)
    if source.JointType == "RackPinion":
        return d * out_from_in
    if source.JointType == "Screw":
        return -d * out_from_in / (2.0 * math.pi)
    sign = -1.0 if source.JointType == "Gears" else 1.0
    return sign * d / float(source.Distance2) * out_from_in


def _sides(doc, label):
    """``(joint, input axis, output JCS)`` of a coupling joint (world): the input turns
    about the z axis of its coordinate system (a screw: about the nut's)."""
    source = doc.getObjectsByLabel(label)[0]
    first = source.Reference1[1][0].split(".")[0]
    jin, jout = _jcs(source, 1), _jcs(source, 2)
    if doc.getObject(first).Label != COUPLED[label][0]:
        jin, jout = jout, jin
    return source, _z(jout if source.JointType == "Screw" else jin), jout


def test_gears_belt_and_racks_follow_the_ratios_freecad_stores(fixture_doc):
    """Each coupling joint of a document made with FreeCAD 1.0's Assembly API becomes a
    coupler whose run keeps the relation FreeCAD's solver keeps (``_expected``, from the
    joint's Distance/Distance2 and its coordinate systems), to 1e-9 over 1 s of motion
    through the limits' end stops; without its screw's revolute the Screw cannot be
    coupled: skipped naming it (strict mode refuses it)."""
    doc = fixture_doc("fc1_couplers")
    asm = doc.getObject("Assembly")
    report = import_assembly(asm)
    axles = {n + "Axle": "revolute" for n in ("Gear1", "Gear2", "Pulley1", "Pulley2",
                                               "Pinion", "Pinion2", "Screw")}
    slides = {n + "Slide": "prismatic" for n in ("Rack", "Rack2", "Nut")}
    assert kinds(report) == dict(axles, **slides)
    made = {doc.getObject(n).Label: c for n, c in report.couplers.items()}
    assert {k: c.CouplerType for k, c in made.items()} == {
        "Mesh": "gear", "Drive": "belt", "Steering": "rack_pinion",
        "Steering2": "rack_pinion", "Thread": "lead_screw"}
    assert made["Mesh"].Ratio == pytest.approx(1.5) and made["Drive"].Ratio == pytest.approx(
        25.0 / 15.0)
    assert made["Thread"].Lead.Value == pytest.approx(5.0)
    assert report.skipped == []
    stops = {doc.getObject(n).Label: [s.Dof for s in v] for n, v in report.stops.items()}
    assert stops == {"Gear1Axle": ["rotation"], "RackSlide": ["translation"]}

    study = report.study
    for name in ("Gear1", "Pulley1", "Pinion", "Pinion2"):
        factory.make_torque(study, report.bodies[name], (0.0, 0.0, 2e-3))     # N m
    r = run(study, t_end=1.0, dt=2e-4, output_dt=2e-3)
    key = {name: runner.result_key(study, body) for name, body in report.bodies.items()
           if not body.Fixed}
    for label, (i, o) in COUPLED.items():
        source, axis, jout = _sides(doc, label)
        phi = _turn(r.rotation_matrix(key[i]), axis)
        assert np.ptp(phi) > 0.5, label                                   # it turns
        if source.JointType in SLIDING:
            out = (r.position(key[o]) - r.position(key[o])[0]) @ _z(jout)    # m
            np.testing.assert_allclose(out, _expected(source, phi) * M, rtol=0, atol=1e-9,
                                       err_msg=label)
        else:
            out = _turn(r.rotation_matrix(key[o]), _z(jout))
            np.testing.assert_allclose(out, _expected(source, phi), rtol=0, atol=1e-9,
                                       err_msg=label)
    # energy: until the first stop is reached the couplers' rows do no work, so what the
    # torques put in is all kinetic (through the stops' compliant contacts the balance
    # drifts by 2e-4 of the work with these steps)
    E = r.energy()
    before = r.t < min(e["time"] for e in r.stop_events())
    assert before.sum() > 50
    drift = np.abs(E["balance"][before] - E["balance"][0]).max()
    assert drift <= 1e-9 * E["load_work"][before].max(), drift
    # the limits hold as end stops: the gear's angle, the rack's slide (FreeCAD: between
    # the JCS x axes about JCS 1's z, along JCS 1's z)
    assert len({e["element"] for e in r.stop_events()}) == 2       # both stops reached
    axle = doc.getObjectsByLabel("Gear1Axle")[0]
    (gear_stop,) = report.stops[axle.Name]
    theta = np.degrees(r.spring_length(gear_stop.Label))
    assert theta.min() > axle.AngleMin - 0.5 and theta.max() < axle.AngleMax + 0.5
    assert max(theta.max() - axle.AngleMax, axle.AngleMin - theta.min()) > -0.5   # reached
    guide = doc.getObjectsByLabel("RackSlide")[0]
    (rack_stop,) = report.stops[guide.Name]
    s = r.spring_length(rack_stop.Label) / M                                 # mm
    assert s[0] == pytest.approx((_jcs(guide, 2).Base - _jcs(guide, 1).Base).dot(
        _jcs(guide, 1).Rotation.multVec(V(0, 0, 1))), abs=1e-6)
    assert s.min() > guide.LengthMin - 0.5 and s.max() < guide.LengthMax + 0.5
    assert max(s.max() - guide.LengthMax, guide.LengthMin - s.min()) > -0.5
    # a coupling joint without the joints it needs: skipped naming it, refused when strict
    doc.getObjectsByLabel("ScrewAxle")[0].Activated = False
    report = import_assembly(asm, name="NoAxle")
    assert [label for label, _reason in report.skipped] == ["ScrewAxle", "Thread"]
    assert any("Assembly joint 'Thread' is skipped: no cylindrical joint joins parts" in w
               for w in report.warnings)
    with pytest.raises(ModelError, match="Assembly joint 'Thread'"):
        import_assembly(asm, strict=True, name="Strict")


def test_the_couplers_move_as_freecads_own_solver_moves_them(fixture_doc):
    """FreeCAD 1.0's own solver turns each input by 10 deg (a Fixed joint with the task
    panel's rotation offset on the input's revolute coordinate systems, the revolute
    switched off) and moves the outputs; SimPhant's couplers give the same ratio, sign
    included: the direction a rack moves for a positive pinion turn is FreeCAD's."""
    import JointObject
    doc = fixture_doc("fc1_couplers")
    asm = doc.getObject("Assembly")
    report = import_assembly(asm)
    study = report.study
    for name in ("Gear1", "Pulley1", "Pinion", "Pinion2"):
        factory.make_torque(study, report.bodies[name], (0.0, 0.0, -1e-3))
    r = run(study, t_end=0.2)              # (the nut falls, turning the screw)
    key = {name: runner.result_key(study, body) for name, body in report.bodies.items()
           if not body.Fixed}
    before = {n: FreeCAD.Placement(doc.getObject(n).Placement)
              for pair in COUPLED.values() for n in pair}
    group = next(o for o in asm.OutList if o.TypeId == "Assembly::JointGroup")
    prefs = JointObject.Preferences.preferences()
    prefs.SetBool("SolveInJointCreation", False)
    try:
        axles = [doc.getObjectsByLabel(i + "Axle")[0] for i, _o in COUPLED.values()]
        for axle in axles:      # (while the axle holds the input, nothing is pre-placed)
            hold = group.newObject("App::FeaturePython", "Hold")
            JointObject.Joint(hold, JointObject.JointTypes.index("Fixed"))
            hold.Proxy.setJointConnectors(hold, [list(axle.Reference1), list(axle.Reference2)])
            hold.Offset2 = FreeCAD.Placement(V(), FreeCAD.Rotation(V(0, 0, 1), 10.0))
        for axle in axles:
            axle.Activated = False
    finally:
        prefs.SetBool("SolveInJointCreation", True)
    assert all(doc.getObject(n).Placement.isSame(before[n], 1e-12) for n in before)
    assert asm.solve() == 0
    for label, (i, o) in COUPLED.items():
        source, axis, jout = _sides(doc, label)
        part_in, part_out = doc.getObject(i), doc.getObject(o)
        rel = _matrix(part_in.Placement.Rotation.multiply(before[i].Rotation.inverted()))
        phi_fc = _turn(np.stack([np.eye(3), rel]), axis)[1]
        assert abs(math.degrees(phi_fc)) == pytest.approx(10.0, abs=1e-6), label
        if source.JointType in SLIDING:
            out_fc = (part_out.Placement.Base - before[o].Base).dot(
                jout.Rotation.multVec(V(0, 0, 1)))                                    # mm
            out_sp = (r.position(key[o])[-1] - r.position(key[o])[0]) @ _z(jout) / M
        else:
            rel = _matrix(part_out.Placement.Rotation.multiply(before[o].Rotation.inverted()))
            out_fc = _turn(np.stack([np.eye(3), rel]), _z(jout))[1]
            out_sp = _turn(r.rotation_matrix(key[o]), _z(jout))[-1]
        phi_sp = _turn(r.rotation_matrix(key[i]), axis)[-1]
        assert abs(phi_sp) > 0.05, label
        assert out_fc / phi_fc == pytest.approx(_expected(source, 1.0), rel=1e-6), label
        assert out_sp / phi_sp == pytest.approx(out_fc / phi_fc, rel=1e-6), label
