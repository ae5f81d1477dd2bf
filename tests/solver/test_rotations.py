"""Rotation helpers against independent constructions (Rodrigues' formula, matrix
products), on random rotations from a fixed seed."""
import math

import numpy as np
import pytest

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.rotations import (as_rotation_matrix, euler_zyx, matrix_to_quat,
                                                orthonormal_frame, quat_from_axis_angle,
                                                quat_multiply, quat_to_matrix)

from .helpers import random_rotation

SEED = 20261130


def _rodrigues(axis, angle):
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def _elementary(axis, angle):
    c, s = math.cos(angle), math.sin(angle)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _random_axis_angles(n):
    rng = np.random.default_rng(SEED)
    return [(rng.normal(size=3), rng.uniform(-math.pi, math.pi)) for _ in range(n)]


def test_quaternion_matrix_is_rodrigues_rotation():
    for axis, angle in _random_axis_angles(20):
        q = quat_from_axis_angle(axis, angle)
        assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-15)
        np.testing.assert_allclose(quat_to_matrix(q), _rodrigues(axis, angle), atol=1e-14)
        # scalar first: a rotation by angle has w = cos(angle / 2)
        assert q[0] == pytest.approx(math.cos(0.5 * angle), abs=1e-15)


def test_hamilton_product_composes_rotations():
    """A(p (x) q) = A(p) A(q): q applied first (body-fixed composition)."""
    rng = np.random.default_rng(SEED + 1)
    for _ in range(20):
        p, q = random_rotation(rng), random_rotation(rng)
        np.testing.assert_allclose(quat_to_matrix(quat_multiply(p, q)),
                                   quat_to_matrix(p) @ quat_to_matrix(q), atol=1e-14)


@pytest.mark.parametrize("angle", [0.3, 2.0, math.pi - 1e-3, math.pi])
def test_matrix_to_quaternion_round_trip_on_every_branch(angle):
    """Shepperd's method has four branches (largest of trace, A11, A22, A33): rotations
    by small and by near-half-turn angles about x, y, z and random axes reach them all."""
    rng = np.random.default_rng(SEED + 2)
    axes = [(1, 0, 0), (0, 1, 0), (0, 0, 1)] + [rng.normal(size=3) for _ in range(5)]
    for axis in axes:
        A = _rodrigues(axis, angle)
        q = matrix_to_quat(A)
        assert q[0] >= 0.0
        np.testing.assert_allclose(quat_to_matrix(q), A, atol=1e-13)
        q_ref = quat_from_axis_angle(axis, angle)
        np.testing.assert_allclose(abs(np.dot(q, q_ref)), 1.0, atol=1e-13)


def test_euler_angles_of_random_rotations_rebuild_the_matrix():
    """Z-Y-X (A = Rz(theta_z) Ry(theta_y) Rx(theta_x)) with elementary matrices built
    here, for random rotations, and the angles of a known product come back."""
    rng = np.random.default_rng(SEED + 3)
    mats = np.array([quat_to_matrix(random_rotation(rng)) for _ in range(50)])
    angles = euler_zyx(mats)
    assert angles.shape == (50, 3)
    for A, (tx, ty, tz) in zip(mats, angles):
        rebuilt = _elementary("z", tz) @ _elementary("y", ty) @ _elementary("x", tx)
        np.testing.assert_allclose(rebuilt, A, atol=1e-12)
    for tx, ty, tz in rng.uniform([-3.1, -1.5, -3.1], [3.1, 1.5, 3.1], size=(20, 3)):
        A = _elementary("z", tz) @ _elementary("y", ty) @ _elementary("x", tx)
        np.testing.assert_allclose(euler_zyx(A), (tx, ty, tz), atol=1e-12)


def test_result_euler_angles_of_a_tumbling_body_rebuild_its_matrix():
    rng = np.random.default_rng(SEED + 4)
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("b", mass=1.0, inertia=(0.3, 0.5, 0.6), orientation=random_rotation(rng),
                   angular_velocity=(1.0, -2.0, 1.5))
    r = m.simulate(t_end=2.0, dt=1e-3, output_dt=0.1)
    A = r.rotation_matrix(b)
    for k, (tx, ty, tz) in enumerate(r.euler_angles(b)):
        rebuilt = _elementary("z", tz) @ _elementary("y", ty) @ _elementary("x", tx)
        np.testing.assert_allclose(rebuilt, A[k], atol=1e-12)


def test_result_quaternions_are_continuous_and_match_the_matrices():
    """Quaternions of a body spinning through many turns: q and -q are the same
    rotation, the series keeps one sign (no jumps between samples)."""
    m = Model(gravity=(0, 0, 0))
    b = m.add_body("wheel", mass=1.0, inertia=(0.3, 0.3, 0.5),
                   orientation=quat_from_axis_angle((1, 1, 0), 0.5), angular_velocity=(0, 0, 9.0))
    r = m.simulate(t_end=3.0, dt=1e-3, output_dt=0.02)
    q = r.quaternion(b)
    np.testing.assert_allclose(quat_to_matrix(q), r.rotation_matrix(b), atol=1e-12)
    assert q[0, 0] >= 0.0
    assert np.linalg.norm(np.diff(q, axis=0), axis=1).max() < 0.2    # 9 rad/s x 0.02 s / 2


def test_orthonormal_frame_is_right_handed_with_the_given_z():
    rng = np.random.default_rng(SEED + 5)
    for _ in range(20):
        z = rng.normal(size=3)
        hint = rng.normal(size=3)
        for R in (orthonormal_frame(z), orthonormal_frame(z, x_hint=hint)):
            np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-14)
            assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-14)
            np.testing.assert_allclose(R[:, 2], z / np.linalg.norm(z), atol=1e-15)
        R = orthonormal_frame(z, x_hint=hint)
        assert np.dot(R[:, 0], hint) > 0.0 and abs(np.dot(R[:, 1], hint)) < 1e-12


def test_as_rotation_matrix_accepts_quaternions_and_matrices():
    A = _rodrigues((1, -2, 3), 0.8)
    np.testing.assert_allclose(as_rotation_matrix(A), A, atol=1e-15)
    q = matrix_to_quat(A)
    np.testing.assert_allclose(as_rotation_matrix(2.0 * q), A, atol=1e-14)   # normalised
    with pytest.raises(ValueError, match="not a proper rotation"):
        as_rotation_matrix(-A)
