"""Fixed and planar joints against closed-form motions and reactions.

* A welded pair moves as one rigid body with the summed mass and inertia (parallel-axis
  theorem), and the weld carries what Newton-Euler demands of the second body.
* A block held on a frictionless tilted plane by a planar joint slides down the slope
  at g sin(theta), spins at its initial rate about the plane normal, and the plane
  pushes it with m g cos(theta) along the normal.

Reactions are checked against Newton-Euler of the second body (force and torque about
its joint point), so they test the reported frame and reference point, not only
magnitudes.
"""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_to_matrix

G = np.array([0.0, 0.0, -9.81])


def _euler_torque(r, body, moments):
    """Torque about the CoG, world axes, (n, 3), that moves ``body`` as the result says:
    I alpha + w x (I w), with I = A diag(moments) A^T."""
    A = r.rotation_matrix(body)
    w = r.angular_velocity(body)
    alpha = r.angular_acceleration(body)
    I_w = np.einsum("nij,j,nkj->nik", A, np.asarray(moments, dtype=float), A)
    return np.einsum("nij,nj->ni", I_w, alpha) + np.cross(w, np.einsum("nij,nj->ni", I_w, w))


def _pair(gravity=G):
    """Two bodies welded at a point between them, turned, moving and spinning."""
    m = Model(gravity=gravity)
    q1 = quat_from_axis_angle((0.3, 1.0, -0.4), 0.7)
    q2 = quat_from_axis_angle((-1.0, 0.2, 0.5), 1.9)
    w = np.array([0.4, -1.2, 2.0])
    v1 = np.array([0.3, 0.0, 1.0])
    p1, p2 = np.array([0.0, 0.0, 0.0]), np.array([0.4, -0.1, 0.2])
    b1 = m.add_body("b1", mass=2.0, inertia=(0.02, 0.03, 0.04), position=p1, orientation=q1,
                    velocity=v1, angular_velocity=w)
    b2 = m.add_body("b2", mass=0.5, inertia=(0.01, 0.012, 0.015), position=p2, orientation=q2,
                    velocity=v1 + np.cross(w, p2 - p1), angular_velocity=w)
    weld_point = np.array([0.25, 0.0, 0.1])
    j = m.add_joint("fixed", b1, b2, point=weld_point, axis=(0.0, 0.0, 1.0), name="weld")
    return m, b1, b2, j, dict(q1=q1, q2=q2, w=w, v1=v1, p1=p1, p2=p2, weld=weld_point)


def test_welded_pair_moves_as_one_body_with_the_summed_inertia():
    m, b1, b2, j, d = _pair(gravity=(0.0, 0.0, 0.0))
    T = np.array([0.05, -0.02, 0.03])
    m.add_torque(b1, T)                       # world torque on one of the two
    r = m.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.05)

    # the same rigid body as one: CoG, summed inertia (parallel axes) in b1's frame
    M = 2.0 + 0.5
    c = (2.0 * d["p1"] + 0.5 * d["p2"]) / M
    A1, A2 = quat_to_matrix(d["q1"]), quat_to_matrix(d["q2"])
    I_world = np.zeros((3, 3))
    for mass, moments, A, p in ((2.0, (0.02, 0.03, 0.04), A1, d["p1"]),
                                (0.5, (0.01, 0.012, 0.015), A2, d["p2"])):
        s = p - c
        I_world += A @ np.diag(moments) @ A.T + mass * (s @ s * np.eye(3) - np.outer(s, s))
    one = Model(gravity=(0.0, 0.0, 0.0))
    v_c = (2.0 * d["v1"] + 0.5 * (d["v1"] + np.cross(d["w"], d["p2"] - d["p1"]))) / M
    body = one.add_body("one", mass=M, inertia=I_world, position=c, orientation=d["q1"],
                        velocity=v_c, angular_velocity=d["w"])
    one.add_torque(body, T)
    ref = one.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.05)

    cog = (2.0 * r.position(b1) + 0.5 * r.position(b2)) / M
    np.testing.assert_allclose(cog, ref.position(body), atol=1e-9)
    np.testing.assert_allclose(r.rotation_matrix(b1), ref.rotation_matrix(body), atol=1e-8)
    np.testing.assert_allclose(r.angular_velocity(b1), ref.angular_velocity(body), atol=1e-8)
    np.testing.assert_allclose(r.angular_velocity(b2), ref.angular_velocity(body), atol=1e-8)
    # b2 stays where it was in the composite frame
    rel0 = A1.T @ (d["p2"] - d["p1"])
    np.testing.assert_allclose(r.position(b2), r.point_position(b1, rel0), atol=1e-9)
    assert np.abs(r.angular_velocity(b1)[-1] - d["w"]).max() > 0.05   # the torque did act


def test_weld_reaction_is_newton_euler_of_the_second_body():
    m, b1, b2, j, d = _pair()
    r = m.simulate(t_end=0.5, dt=1e-3, method="rk4", output_dt=0.05)
    F_expected = 0.5 * (r.acceleration(b2) - G)
    np.testing.assert_allclose(r.reaction_force(j), F_expected, rtol=1e-6, atol=1e-6)
    T_cog = _euler_torque(r, b2, (0.01, 0.012, 0.015))
    P = r.joint_point(j)
    np.testing.assert_allclose(P, r.joint_point(j, side="body1"), atol=1e-9)
    T_expected = T_cog + np.cross(r.position(b2) - P, F_expected)
    np.testing.assert_allclose(r.reaction_torque(j), T_expected, rtol=1e-6, atol=1e-6)
    # about the CoG instead of the joint point would differ by (r2 - P) x F
    assert np.abs(np.cross(r.position(b2) - P, F_expected)).max() > 0.05


def _tilted_block(theta, spin, joint_offset=0.05):
    """Block on a plane through the origin tilted by theta about world y (normal
    n = (sin theta, 0, cos theta)); planar joint, no friction."""
    n = np.array([math.sin(theta), 0.0, math.cos(theta)])
    q = quat_from_axis_angle((0.0, 1.0, 0.0), theta)          # block z along n
    h = 0.1                                                   # CoG height above the plane
    m = Model(gravity=G)
    v0 = np.array([0.0, 0.4, 0.0])                           # across the slope
    b = m.add_body("block", mass=3.0, inertia=(0.02, 0.03, 0.04), position=h * n,
                   orientation=q, velocity=v0, angular_velocity=spin * n)
    j = m.add_joint("planar", m.ground, b, point=joint_offset * np.array([0.0, 1.0, 0.0]),
                    axis=n, name="slope")
    return m, b, j, n, q, h, v0


@pytest.mark.parametrize("theta", [0.3, 1.0])
def test_block_slides_down_a_tilted_plane(theta):
    spin = 2.5
    m, b, j, n, q, h, v0 = _tilted_block(theta, spin)
    r = m.simulate(t_end=1.0, dt=1e-3, method="rk4", output_dt=0.05)
    a = G - (G @ n) * n                                      # along the slope
    assert np.linalg.norm(a) == pytest.approx(9.81 * math.sin(theta))
    t = r.t[:, None]
    np.testing.assert_allclose(r.position(b), h * n + v0 * t + 0.5 * a * t ** 2, atol=1e-9)
    np.testing.assert_allclose(r.acceleration(b), np.tile(a, (len(r.t), 1)), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(r.angular_velocity(b), np.tile(spin * n, (len(r.t), 1)), atol=1e-9)
    A0 = quat_to_matrix(q)
    for k, tk in enumerate(r.t):
        turn = quat_to_matrix(quat_from_axis_angle(n, spin * tk))
        np.testing.assert_allclose(r.rotation_matrix(b)[k], turn @ A0, atol=1e-9)
    # the plane pushes along its normal with m g cos(theta); no torque about the CoG
    N = 3.0 * 9.81 * math.cos(theta) * n
    np.testing.assert_allclose(r.reaction_force(j), np.tile(N, (len(r.t), 1)), rtol=1e-6,
                               atol=1e-6)
    P = r.joint_point(j)
    T_expected = np.cross(r.position(b) - P, np.tile(N, (len(r.t), 1)))
    np.testing.assert_allclose(r.reaction_torque(j), T_expected, rtol=1e-6, atol=1e-6)
    # about the ground's joint point instead: the same wrench moved by (P2 - P1) x N
    P1 = r.joint_point(j, side="body1")
    assert np.abs(P - P1).max() > 0.1                     # the block slid away from it
    np.testing.assert_allclose(r.reaction_torque(j, about="body1"),
                               T_expected + np.cross(P - P1, np.tile(N, (len(r.t), 1))),
                               rtol=1e-6, atol=1e-6)
    # the joint point rides on the block; the ground's stays put
    np.testing.assert_allclose(r.joint_point(j, side="body1"),
                               np.tile(r.joint_point(j, side="body1")[0], (len(r.t), 1)),
                               atol=1e-15)
    np.testing.assert_allclose((P - r.joint_point(j, side="body1")) @ n, 0.0, atol=1e-9)
