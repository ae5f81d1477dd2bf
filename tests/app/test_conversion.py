"""Document -> solver conversion: units, rotation order, CoG offsets, containers, settings."""
import math

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs, element_name, free_box, pendulum, vec  # noqa: F401 (fixture)
from SimPhantWorkbench import conversion, factory
from SimPhantWorkbench.solver import ModelError


def _box_world_inertia(m, size_m, R):
    a, b, c = size_m
    I_local = np.diag([m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                       m * (a * a + b * b) / 12])
    return R @ I_local @ R.T


def test_rotation_conversion_is_scalar_first():
    rot = FreeCAD.Rotation(vec(1, 2, 3), 70.0)
    q = conversion.rotation_to_quat(rot)
    x, y, z, w = rot.Q
    assert tuple(q) == (w, x, y, z)
    A = conversion.rotation_to_matrix(rot)
    for axis in (vec(1, 0, 0), vec(0, 1, 0), vec(0, 0, 1), vec(0.3, -2, 5)):
        assert A @ np.array(axis) == pytest.approx(np.array(rot.multVec(axis)), abs=1e-12)
    back = conversion.matrix_to_rotation(A)
    assert back.isSame(rot, 1e-14)
    assert conversion.quat_to_rotation(q).isSame(rot, 1e-15)


def test_quantities_to_si():
    assert conversion.quantity_si(FreeCAD.Units.Quantity("9806.65 mm/s^2"), "m/s^2") \
        == pytest.approx(9.80665)
    assert conversion.quantity_si("2.5 mm", "m") == pytest.approx(2.5e-3)
    assert conversion.quantity_si(3.0, "m") == 3.0


def test_rotated_off_cog_body_gives_solver_pose_mass_and_inertia(docs):
    """A box (origin at a corner) rotated in FreeCAD: the solver gets its CoG in m, the
    object's rotation as the body frame (w, x, y, z), and the inertia in world axes."""
    doc = docs()
    rot = FreeCAD.Rotation(vec(1, 1, 0.2), 35.0)
    box = free_box(doc, placement=FreeCAD.Placement(vec(100, -20, 50), rot), size=(40, 20, 10))
    st = factory.make_study(doc)
    body = factory.make_body(st, box, density=2000.0)
    conv = conversion.convert(st)
    sb = conv.solver_body(body)
    R = conversion.rotation_to_matrix(rot)
    cog = (np.array([100, -20, 50]) + R @ np.array([20, 10, 5])) * 1e-3
    m = 2000.0 * 40e-3 * 20e-3 * 10e-3
    assert sb.mass == pytest.approx(m, rel=1e-12)
    assert sb.position == pytest.approx(cog, abs=1e-12)
    assert sb.A_user == pytest.approx(R, abs=1e-12)           # body frame = object frame
    assert conv.moving[0].cog_local == pytest.approx([20, 10, 5], abs=1e-9)   # mm
    # inertia: the principal frame and moments rebuild the world tensor
    I_solver = sb.A_principal @ np.diag(sb.moments) @ sb.A_principal.T
    assert I_solver == pytest.approx(_box_world_inertia(m, (0.04, 0.02, 0.01), R),
                                     rel=1e-9, abs=1e-15)
    assert sb.name == box.Label + "_body"


def test_initial_velocities_in_document_units(docs):
    doc = docs()
    box = free_box(doc)
    st = factory.make_study(doc)
    b = factory.make_body(st, box, density=1000.0, velocity=(100.0, "2 m/s", 0.0),
                          angular_velocity=(0.0, 0.0, 180.0))
    assert tuple(b.InitialVelocity) == pytest.approx((100.0, 2000.0, 0.0))
    sb = conversion.convert(st).solver_body(b)
    assert sb.velocity == pytest.approx([0.1, 2.0, 0.0])
    assert sb.angular_velocity == pytest.approx([0.0, 0.0, math.pi])


def test_a_thrown_box_moves_in_si_units_end_to_end(docs):
    """Document units in, SI out: 100 mm/s and 2 m/s, a spin of 180 deg/s about z, and
    gravity 10 m/s^2 along an unnormalised (3, 0, -4): after a run the CoG follows
    r0 + v0 t + g t^2 / 2 [m] and the box turns at pi rad/s."""
    from SimPhantWorkbench import runner
    doc = docs()
    box = free_box(doc)
    st = factory.make_study(doc)
    st.GravityAcceleration = "10 m/s^2"
    st.GravityDirection = vec(3, 0, -4)
    st.EndTime, st.TimeStep, st.OutputInterval = 0.5, 1e-3, 0.1
    b = factory.make_body(st, box, density=1000.0, velocity=(100.0, "2 m/s", 0.0),
                          angular_velocity=(0.0, 0.0, 180.0))
    r = runner.run_study(st)
    name = runner.result_key(st, b)
    t = r.t[:, None]
    r0 = r.position(name)[0]
    np.testing.assert_allclose(r.position(name), r0 + np.array([0.1, 2.0, 0.0]) * t
                               + 0.5 * np.array([6.0, 0.0, -8.0]) * t ** 2, atol=1e-9)
    np.testing.assert_allclose(r.angular_velocity(name), np.tile([0, 0, math.pi], (len(t), 1)),
                               atol=1e-9)


def test_gravity_from_magnitude_and_direction(docs):
    doc = docs()
    st = factory.make_study(doc)
    assert conversion.gravity_vector(st) == pytest.approx([0, 0, -9.80665])
    st.GravityAcceleration = "10 m/s^2"
    st.GravityDirection = vec(3, 0, -4)
    assert conversion.gravity_vector(st) == pytest.approx([6.0, 0.0, -8.0])
    st.GravityDirection = vec(0, 0, 0)
    with pytest.raises(ModelError, match="Study 'Study'"):
        conversion.gravity_vector(st)


def test_simulation_settings_from_study(docs):
    doc = docs()
    st = factory.make_study(doc)
    s = conversion.simulation_settings(st)
    assert s["t_end"] == 2.0 and s["dt"] == 1e-3 and s["method"] == "rk4"
    assert s["output_dt"] == 0.01 and s["time_constant"] is None and s["damping_ratio"] == 1.0
    st.OutputInterval = 0.0
    st.Stabilisation = "Baumgarte"
    st.BaumgarteAlpha, st.BaumgarteBeta = 10.0, 20.0
    st.Integrator = "RK45"
    st.TimeStep = 0.0
    s = conversion.simulation_settings(st, t_end=0.5)
    assert s["output_dt"] is None and s["baumgarte"] == (10.0, 20.0)
    assert "time_constant" not in s and s["dt"] is None and s["t_end"] == 0.5


def test_body_inside_an_app_part_uses_global_placement(docs):
    doc = docs()
    part = doc.addObject("App::Part", "Assembly")
    part.Placement = FreeCAD.Placement(vec(0, 100, 0), FreeCAD.Rotation(vec(0, 0, 1), 90))
    box = free_box(doc, placement=FreeCAD.Placement(vec(10, 0, 0), FreeCAD.Rotation()),
                   size=(20, 20, 20))
    part.addObject(box)
    doc.recompute()
    st = factory.make_study(doc)
    b = factory.make_body(st, box, density=1000.0)
    conv = conversion.convert(st)
    # local CoG (20, 10, 10) -> in the part: (20, 10, 10) -> rotated 90 deg about z, + (0, 100, 0)
    assert conv.solver_body(b).position == pytest.approx(np.array([-10, 120, 10]) * 1e-3)
    A = conv.solver_body(b).A_user
    assert A @ np.array([1.0, 0, 0]) == pytest.approx([0, 1, 0], abs=1e-12)
    assert conv.moving[0].cog_local == pytest.approx([10, 10, 10], abs=1e-9)


def test_app_link_body(docs):
    doc = docs()
    box = free_box(doc, size=(10, 10, 10))
    link = doc.addObject("App::Link", "BoxLink")
    link.LinkedObject = box
    link.Placement = FreeCAD.Placement(vec(0, 0, 500), FreeCAD.Rotation(vec(1, 0, 0), 90))
    doc.recompute()
    st = factory.make_study(doc)
    b = factory.make_body(st, link, density=1000.0)
    conv = conversion.convert(st)
    assert conv.solver_body(b).position == pytest.approx(np.array([5, -5, 505]) * 1e-3)
    assert conv.solver_body(b).mass == pytest.approx(1.0e-3)


def test_fixed_bodies_are_ground_and_joint_frames_are_world(docs):
    doc = docs()
    p = pendulum(doc)
    conv = conversion.convert(p["study"])
    sj = conv.solver_joint(p["joint"])
    assert sj.body1.is_ground and sj.body2.name == p["link"].Label
    assert sj.kind == "revolute"
    for point, R in (sj.frame1, sj.frame2):
        assert point == pytest.approx([0.002, 0, 0], abs=1e-15)   # m
        assert abs(R[:, 2] @ np.array([0, 1.0, 0])) == pytest.approx(1.0)
    assert sj.frame1[1] == pytest.approx(sj.frame2[1])
    assert conv.body_object(sj.body2.name) == p["link"]


def test_loads_with_points_functions_and_frames(docs):
    doc = docs()
    p = pendulum(doc)
    bottom = element_name(p["rod"], "Vertex", (2, 0, -200))
    f = factory.make_force(p["study"], p["rod"], "0, 0, 3*t", ref=(p["rod"], bottom), name="Lift")
    tq = factory.make_torque(p["study"], p["link"], (0, 0.5, 0), frame="body", name="Twist")
    conv = conversion.convert(p["study"])
    lf = conv.load_map[f.Name]
    assert lf.is_timed and lf.value_at(2.0) == pytest.approx([0, 0, 6.0])
    assert lf.local_point == pytest.approx([0.002, 0, -0.1], abs=1e-12)   # from the CoG, m
    assert lf.frame == "world"
    lt = conv.load_map[tq.Name]
    assert lt.kind == "torque" and lt.frame == "body" and lt.value == pytest.approx([0, 0.5, 0])


def test_duplicate_labels_get_unique_solver_names(docs):
    doc = docs()
    a = free_box(doc, "A")
    b = free_box(doc, "B", placement=FreeCAD.Placement(vec(100, 0, 0), FreeCAD.Rotation()))
    st = factory.make_study(doc)
    ba = factory.make_body(st, a, density=1000.0, name="Twin")
    bb = factory.make_body(st, b, density=1000.0)
    bb.Label = "Twin"
    conv = conversion.convert(st)
    names = {conv.solver_body(ba).name, conv.solver_body(bb).name}
    assert len(names) == 2 and all(n.startswith("Twin") for n in names)
