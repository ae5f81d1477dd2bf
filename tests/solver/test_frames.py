"""Frames of loads and rotations against closed forms, on bodies turned about general axes.

Every check here would pass by accident on a body whose frame coincides with the
world (or turns about one coordinate axis only), so the orientations are general
and the bodies spin: a world torque taken as a body one, a quaternion rate with
the world instead of the body angular velocity, a flipped gyroscopic term each
change the numbers below by O(1).

Newton-Euler in the body (principal) frame, world-frame ``v``:

    m a = F_world,     J alpha_b = T_b - omega_b x (J omega_b),     alpha_w = A alpha_b
"""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_to_matrix


def _rodrigues(axis, angle):
    """Rotation matrix about ``axis`` by ``angle`` (independent of the quaternion code)."""
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


MOMENTS = np.array([0.5, 1.0, 1.4])
AXIS0, ANGLE0 = (1.0, 2.0, -0.5), 1.3          # a general initial orientation
A0 = _rodrigues(AXIS0, ANGLE0)
W0_WORLD = np.array([0.3, -0.7, 1.1])           # rad/s, world


def _spinning_body(gravity=(0.0, 0.0, 0.0)):
    m = Model(gravity=gravity)
    b = m.add_body("b", mass=2.0, inertia=MOMENTS, position=(0.1, -0.2, 0.3),
                   orientation=quat_from_axis_angle(AXIS0, ANGLE0), angular_velocity=W0_WORLD)
    return m, b


def _alpha_world(torque_body):
    """Closed-form world angular acceleration at t0 of the spinning body."""
    w_b = A0.T @ W0_WORLD
    return A0 @ ((torque_body - np.cross(w_b, MOMENTS * w_b)) / MOMENTS)


def _first_sample(m):
    return m.simulate(t_end=1e-3, dt=1e-3, output_dt=1e-3, method="rk4")


@pytest.mark.parametrize("frame", ["world", "body"])
def test_torque_on_a_turned_spinning_body(frame):
    """A torque in world or in body axes on a body turned about (1, 2, -0.5): the
    angular acceleration is A J^-1 (T_b - w_b x J w_b) with T_b = A^T T (world) or T."""
    T = np.array([0.2, -0.4, 0.5])
    m, b = _spinning_body()
    m.add_torque(b, T, frame=frame)
    r = _first_sample(m)
    T_b = A0.T @ T if frame == "world" else T
    np.testing.assert_allclose(r.angular_acceleration(b)[0], _alpha_world(T_b), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(r.acceleration(b)[0], 0.0, atol=1e-14)
    # the torque-free part alone would differ by O(1)
    assert np.linalg.norm(_alpha_world(T_b) - _alpha_world(np.zeros(3))) > 0.3


def test_world_and_body_torques_add_in_their_own_frames():
    """The rotated body of the audit: a world torque about z on a body whose x axis
    points along world z (no spin): alpha = (0, 0, T/J_x), not T along body z."""
    q = quat_from_axis_angle((0.0, 1.0, 0.0), -math.pi / 2)    # body x -> world z
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("b", mass=1.0, inertia=(2.0, 3.0, 1.5), orientation=q)
    m.add_torque(b, (0.0, 0.0, 1.0))
    r = _first_sample(m)
    np.testing.assert_allclose(r.angular_acceleration(b)[0], (0.0, 0.0, 0.5), atol=1e-12)
    # plus a body torque about body y (world y here): adds 0.4 / 3 about world y
    m.add_torque(b, (0.0, 0.4, 0.0), frame="body")
    r = _first_sample(m)
    np.testing.assert_allclose(r.angular_acceleration(b)[0], (0.0, 0.4 / 3.0, 0.5), atol=1e-12)


@pytest.mark.parametrize("frame", ["world", "body"])
def test_force_at_a_body_point_on_a_turned_spinning_body(frame):
    """A force at a body point: a = F_w / m and the moment (A p) x F_w about the CoG."""
    F = np.array([0.7, -0.2, 0.4])
    p_local = np.array([0.3, -0.1, 0.25])
    m, b = _spinning_body()
    m.add_force(b, F, local_point=p_local, frame=frame)
    r = _first_sample(m)
    F_w = F if frame == "world" else A0 @ F
    T_b = A0.T @ np.cross(A0 @ p_local, F_w)
    np.testing.assert_allclose(r.acceleration(b)[0], F_w / 2.0, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(r.angular_acceleration(b)[0], _alpha_world(T_b), rtol=1e-12,
                               atol=1e-12)


def test_body_frame_torque_on_a_tensor_inertia_body_uses_the_user_axes():
    """Inertia given as a world tensor whose principal axes differ from the body frame:
    a body-frame torque is in the user's axes. World Euler equation at t0:
    I alpha = A_u T_b + T_w - w x (I w)."""
    A_p = _rodrigues((0.3, -1.0, 0.5), 1.1)
    I_w = A_p @ np.diag([0.02, 0.05, 0.06]) @ A_p.T
    A_u = _rodrigues((1.0, 0.2, 0.1), 0.4)
    w = np.array([0.5, -1.0, 2.0])
    T_b = np.array([0.01, 0.02, -0.03])
    T_w = np.array([-0.02, 0.0, 0.01])
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("b", mass=1.0, inertia=I_w, orientation=A_u, angular_velocity=w)
    m.add_torque(b, T_b, frame="body")
    m.add_torque(b, T_w, frame="world")
    r = _first_sample(m)
    alpha = np.linalg.solve(I_w, A_u @ T_b + T_w - np.cross(w, I_w @ w))
    np.testing.assert_allclose(r.angular_acceleration(b)[0], alpha, rtol=1e-9, atol=1e-12)
    # body-frame outputs are in the user's axes too
    np.testing.assert_allclose(r.angular_velocity(b, frame="body")[0], A_u.T @ w, atol=1e-12)
    np.testing.assert_allclose(r.rotation_matrix(b)[0], A_u, atol=1e-12)


def test_axisymmetric_body_precesses_at_the_closed_form_rate():
    """Torque-free body with J = (I1, I1, I3): omega_b turns about body z at
    Omega = (I3 - I1) w3 / I1 (omega_1 = w cos Omega t, omega_2 = w sin Omega t)."""
    I1, I3 = 0.6, 1.0
    w_perp, w3 = 0.6, 3.0
    q0 = quat_from_axis_angle((0.2, -1.0, 0.7), 0.9)
    A = quat_to_matrix(q0)
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("top", mass=1.0, inertia=(I1, I1, I3), orientation=q0,
                   angular_velocity=A @ np.array([w_perp, 0.0, w3]))
    r = m.simulate(t_end=2.0, dt=1e-3, method="rk4", output_dt=0.05)
    Om = (I3 - I1) * w3 / I1
    expected = np.column_stack([w_perp * np.cos(Om * r.t), w_perp * np.sin(Om * r.t),
                                np.full_like(r.t, w3)])
    np.testing.assert_allclose(r.angular_velocity(b, frame="body"), expected, atol=1e-9)
    # the angular momentum stays fixed in space
    H = np.einsum("nij,nj->ni", r.rotation_matrix(b),
                  np.array([I1, I1, I3]) * r.angular_velocity(b, frame="body"))
    np.testing.assert_allclose(H, np.tile(H[0], (len(r.t), 1)), atol=1e-9)


def test_spherical_top_turns_about_its_fixed_world_axis():
    """Equal moments, no torque: omega is constant in space and in the body, and
    A(t) = Rot(omega_w, |omega| t) A0 -- with the body, not the world, angular velocity
    in the quaternion rate (the two only agree when A0 commutes with the rotation)."""
    q0 = quat_from_axis_angle(AXIS0, ANGLE0)
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("ball", mass=1.0, inertia=(0.3, 0.3, 0.3), orientation=q0,
                   angular_velocity=W0_WORLD)
    r = m.simulate(t_end=1.5, dt=1e-3, method="rk4", output_dt=0.1)
    speed = np.linalg.norm(W0_WORLD)
    for k, t in enumerate(r.t):
        np.testing.assert_allclose(r.rotation_matrix(b)[k], _rodrigues(W0_WORLD, speed * t) @ A0,
                                   atol=1e-10)
    np.testing.assert_allclose(r.angular_velocity(b), np.tile(W0_WORLD, (len(r.t), 1)), atol=1e-12)
    # a point of the body moves on a circle about the axis: its velocity is w x s
    p = np.array([0.1, 0.2, -0.3])
    s = np.einsum("nij,j->ni", r.rotation_matrix(b), p)
    np.testing.assert_allclose(r.point_velocity(b, p), np.cross(W0_WORLD, s), atol=1e-12)
    np.testing.assert_allclose(r.point_position(b, p), r.position(b) + s, atol=1e-12)


def test_an_evaluation_sees_the_rotation_of_the_normalised_quaternion():
    """RK4's stages evaluate at quaternions a little off unit length: the rotation (and
    with it every joint row and force) is that of q / |q|. A pendulum on a general axis
    with a point load: scaling its quaternion by 1.3 leaves the accelerations alone."""
    from SimPhantWorkbench.solver import kernels
    m = Model(gravity=(0.0, 0.0, -9.81))
    b = m.add_body("bob", mass=2.0, inertia=MOMENTS, position=(0.4, -0.2, 0.3),
                   orientation=quat_from_axis_angle(AXIS0, ANGLE0), angular_velocity=W0_WORLD)
    m.add_joint("spherical", m.ground, b, point=(0.0, 0.0, 0.0))
    m.add_force(b, (0.5, -1.0, 2.0), point=(0.1, 0.2, -0.1))
    s = m.compile(alpha=50.0, beta=50.0, regularization=1e-12)
    Y = s.y0.copy()
    kernels.evaluate(0.0, Y, s.S, s.W)
    acc = s.W.dY[7:13].copy()
    Y[3:7] *= 1.3
    kernels.evaluate(0.0, Y, s.S, s.W)
    np.testing.assert_allclose(s.W.dY[7:13], acc, rtol=1e-10, atol=1e-10)
    assert np.abs(acc).max() > 0.1
