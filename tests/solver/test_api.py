"""Scripting API: loads, inertia given as a tensor, output sampling, result accessors."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model, Result
from SimPhantWorkbench.solver.rotations import (euler_zyx, quat_from_axis_angle, quat_multiply,
                                                quat_to_matrix)
from SimPhantWorkbench.solver.zoo import chain, compound_pendulum



def _free(gravity=(0, 0, 0), **kw):
    m = Model(gravity=gravity)
    b = m.add_body("b", mass=2.0, inertia=(0.5, 1.0, 1.2), **kw)
    return m, b


def test_constant_force_at_the_cog_and_gravity():
    m, b = _free(gravity=(0, 0, -9.81), position=(1, 2, 3), velocity=(0.5, 0, 0))
    m.add_force(b, (4.0, 0.0, 0.0))
    r = m.simulate(t_end=2.0, dt=1e-2, output_dt=0.5)
    t = r.t[:, None]
    expected = np.array([1, 2, 3]) + np.array([0.5, 0, 0]) * t + 0.5 * np.array([2.0, 0, -9.81]) * t ** 2
    np.testing.assert_allclose(r.position(b), expected, atol=1e-12)
    np.testing.assert_allclose(r.acceleration(b), np.tile([2.0, 0, -9.81], (len(t), 1)), atol=1e-12)
    E = r.energy()
    # work of the applied force shows up as kinetic energy; gravity's as potential
    assert E["potential"][-1] == pytest.approx(-2.0 * -9.81 * (expected[-1, 2]), rel=1e-12)


def test_force_at_an_offset_point_gives_the_moment_about_the_cog():
    q = quat_from_axis_angle((1, 1, 0), 0.7)
    m, b = _free(position=(0.2, 0, 0), orientation=q)
    F = np.array([0.0, 3.0, 1.0])
    P = np.array([0.2, 0.5, -0.1])                  # world point at t0
    m.add_force(b, F, point=P)
    r = m.simulate(t_end=0.01, dt=1e-3, output_dt=0.01)
    A = quat_to_matrix(q)
    T_body = A.T @ np.cross(P - np.array([0.2, 0, 0]), F)
    alpha_world = A @ (T_body / np.array([0.5, 1.0, 1.2]))
    np.testing.assert_allclose(r.angular_acceleration(b)[0], alpha_world, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(r.acceleration(b)[0], F / 2.0, rtol=1e-12, atol=1e-15)


def test_body_frame_force_turns_with_the_body():
    """Spinning about z at w with a body-fixed force F along body x: the CoG velocity
    is F/(m w) (sin wt, 1 - cos wt, 0)."""
    w = 3.0
    m, b = _free(angular_velocity=(0, 0, w))
    m.add_force(b, (1.0, 0.0, 0.0), frame="body")
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=0.1)
    t = r.t
    v_exp = np.column_stack([np.sin(w * t), 1 - np.cos(w * t), 0 * t]) / (2.0 * w)
    np.testing.assert_allclose(r.velocity(b), v_exp, atol=1e-10)


def test_world_torque_and_time_dependent_force():
    m, b = _free()
    m.add_torque(b, (0.0, 0.0, 0.6))                   # about the principal z axis
    m.add_force(b, lambda t: (0.0, 0.0, math.sin(t)))  # z(t) = (t - sin t)/m
    for method in ("rk4", "DOP853"):
        r = m.simulate(t_end=3.0, dt=1e-2, output_dt=0.5, method=method, rtol=1e-11, atol=1e-12)
        np.testing.assert_allclose(r.angular_velocity(b)[:, 2], 0.6 / 1.2 * r.t, atol=1e-9)
        np.testing.assert_allclose(r.position(b)[:, 2], (r.t - np.sin(r.t)) / 2.0, atol=1e-9)
        np.testing.assert_allclose(r.acceleration(b)[:, 2], np.sin(r.t) / 2.0, atol=1e-12)


def test_local_point_force_and_body_frame_torque():
    q = quat_from_axis_angle((0, 0, 1), math.pi / 2)   # body x -> world y
    m, b = _free(orientation=q)
    m.add_force(b, (0.0, 0.0, 1.0), local_point=(1.0, 0.0, 0.0))   # at body x = world y
    m.add_torque(b, (0.0, 0.0, 0.0), frame="body")
    r = m.simulate(t_end=0.001, dt=1e-3, output_dt=0.001)
    # moment of F_z at world (0, 1, 0) about the CoG: (1, 0, 0) world = -body y
    alpha_body = np.array([0.0, -1.0, 0.0]) / np.array([0.5, 1.0, 1.2])
    np.testing.assert_allclose(r.angular_acceleration(b)[0], quat_to_matrix(q) @ alpha_body,
                               atol=1e-12)


def test_inertia_tensor_input_equals_principal_moments_input():
    """The same body given by its principal moments + orientation, or by its world tensor
    with another user frame, moves identically; poses come back in the user frame."""
    q_p = quat_from_axis_angle((0.3, -1, 0.5), 1.1)       # principal axes at t0
    A_p = quat_to_matrix(q_p)
    moments = np.array([0.02, 0.05, 0.06])
    I_world = A_p @ np.diag(moments) @ A_p.T
    q_user = quat_from_axis_angle((1, 0, 0), 0.4)           # some other body frame
    A_u = quat_to_matrix(q_user)
    pos = np.array([0.0, 0.0, -0.3])
    w0 = np.array([0.5, -1.0, 8.0])

    def run(inertia, orientation):
        m = Model(gravity=(0, 0, -9.81))
        b = m.add_body("top", mass=0.7, inertia=inertia, position=pos, orientation=orientation,
                       angular_velocity=w0)
        m.add_joint("spherical", m.ground, b, point=(0, 0, 0))
        return m.simulate(t_end=1.0, dt=1e-3, output_dt=0.05), b

    r1, b1 = run(moments, q_p)
    r2, b2 = run(I_world, q_user)
    np.testing.assert_allclose(r2.position(b2), r1.position(b1), atol=1e-10)
    np.testing.assert_allclose(r2.angular_velocity(b2), r1.angular_velocity(b1), atol=1e-9)
    # user frame of run 2 = principal frame of run 1 times the constant offset
    R_pu = A_p.T @ A_u
    np.testing.assert_allclose(r2.rotation_matrix(b2), r1.rotation_matrix(b1) @ R_pu, atol=1e-10)
    np.testing.assert_allclose(r2.rotation_matrix(b2)[0], A_u, atol=1e-12)
    # a point fixed in the user frame
    p_user = np.array([0.1, 0.2, 0.3])
    np.testing.assert_allclose(r2.point_position(b2, p_user),
                               r1.point_position(b1, R_pu @ p_user), atol=1e-10)
    wb2 = r2.angular_velocity(b2, frame="body")
    np.testing.assert_allclose(np.einsum("nij,nj->ni", r2.rotation_matrix(b2), wb2),
                               r2.angular_velocity(b2), atol=1e-10)


def test_equal_moments_keep_the_user_frame_as_principal_frame():
    """A round rod (two equal moments) given as a tensor: the solver keeps the user's
    axes, so the state is reproducible under round-off changes of the tensor."""
    q = quat_from_axis_angle((1, 2, 3), 0.9)
    A = quat_to_matrix(q)
    I = A @ np.diag([0.1, 0.1, 0.002]) @ A.T
    states = []
    for noise in (0.0, 1e-19):
        m = Model()
        b = m.add_body("rod", mass=1.0, inertia=I + noise * np.eye(3)[::-1], orientation=q)
        states.append(m.compile().y0)
        np.testing.assert_allclose(b.R_pu, np.eye(3), atol=1e-12)
    np.testing.assert_array_equal(states[0], states[1])


def test_output_sampling_is_independent_of_the_step():
    m, b, j, p = compound_pendulum(theta0=0.8)
    r = m.simulate(t_end=0.1, dt=1e-3, output_dt=0.0123)
    expected_t = np.append(0.0123 * np.arange(9), 0.1)
    np.testing.assert_allclose(r.t, expected_t, atol=1e-15)
    assert r.settings["steps"] == sum(math.ceil(round(d / 1e-3, 9)) for d in np.diff(expected_t))
    fine = m.simulate(t_end=0.1, dt=1e-4, output_dt=0.0001)
    idx = np.rint(r.t / 1e-4).astype(int)
    np.testing.assert_allclose(r.position(b), fine.position(b)[idx], atol=1e-10)
    assert r.settings["step_max"] == pytest.approx(0.0123 / 13)    # 13 steps per output interval
    assert r.settings["step_min"] == pytest.approx(0.0016 / 2)     # the last, shorter interval
    coarse = m.simulate(t_end=0.1, dt=0.05, output_dt=0.01)   # output finer than the step
    assert len(coarse.t) == 11 and coarse.settings["steps"] == 10
    assert coarse.settings["step_max"] == pytest.approx(0.01)   # steps land on output times


def test_result_round_trip_and_accessors(tmp_path):
    m, bodies, joints = chain(3)
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.05)
    path = tmp_path / "r.npz"
    r.save(str(path))
    r2 = Result.load(str(path))
    assert r2.body_names == ["bar0", "bar1", "bar2"] and r2.joint_names == ["J0", "J1", "J2"]
    for acc in ("position", "quaternion", "velocity", "angular_velocity", "acceleration"):
        np.testing.assert_array_equal(getattr(r2, acc)("bar2"), getattr(r, acc)(bodies[2]))
    np.testing.assert_array_equal(r2.reaction_force("J1"), r.reaction_force(joints[1]))
    pos, A = r.pose("bar1", 4)
    np.testing.assert_array_equal(pos, r.position("bar1")[4])
    np.testing.assert_array_equal(A, r.rotation_matrix("bar1")[4])
    np.testing.assert_array_equal(r2.energy()["total"], r.energy()["total"])
    assert r2.settings["method"] == "rk4" and r2.settings["steps"] == 500
    # point velocity is the derivative of point position
    tip = (0.5, 0.0, 0.0)
    rf = m.simulate(t_end=0.2, dt=1e-4, output_dt=1e-4)
    p = rf.point_position("bar2", tip)
    v = rf.point_velocity("bar2", tip)
    np.testing.assert_allclose(np.gradient(p, rf.t, axis=0)[5:-5], v[5:-5], atol=1e-5)
    # Euler angles reproduce the rotation matrix (Z-Y-X convention)
    ang = r.euler_angles("bar1")
    A = r.rotation_matrix("bar1")
    for k in (0, 5, 10):
        tx, ty, tz = ang[k]
        Rz = quat_to_matrix(quat_from_axis_angle((0, 0, 1), tz))
        Ry = quat_to_matrix(quat_from_axis_angle((0, 1, 0), ty))
        Rx = quat_to_matrix(quat_from_axis_angle((1, 0, 0), tx))
        np.testing.assert_allclose(Rz @ Ry @ Rx, A[k], atol=1e-12)
    with pytest.raises(KeyError, match="nobody"):
        r.position("nobody")
    with pytest.raises(KeyError, match="J9"):
        r.reaction_force("J9")


def test_reactions_balance_a_hanging_body():
    """At rest, the joint carries the weight: force +m g up on the body, no torque."""
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("lamp", mass=3.0, inertia=(0.1, 0.1, 0.05), position=(0, 0, -1))
    j = m.add_joint("spherical", m.ground, b, point=(0, 0, 0))
    r = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.1)
    np.testing.assert_allclose(r.reaction_force(j), np.tile([0, 0, 3.0 * 9.81], (6, 1)), rtol=1e-7)
    np.testing.assert_allclose(r.reaction_torque(j), 0.0, atol=1e-9)
    np.testing.assert_allclose(r.position(b), np.tile([0, 0, -1.0], (6, 1)), atol=1e-12)
