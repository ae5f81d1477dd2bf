"""Rotation conventions used throughout SimPhant.

Quaternions are scalar first, ``(w, x, y, z)``, unit length, and map body-frame
vectors to the world frame: ``x_world = A(q) @ x_body`` (Euler parameters,
Nikravesh 1988, ch. 6; docs/theory.md). Angular velocity ``omega_b`` is in the body frame and the
quaternion rate is ``q_dot = 1/2 q (x) (0, omega_b)``.

The functions here are plain NumPy (used at model set-up and for results); the
jitted equivalents used inside the integration loop live in ``kernels``.
"""
import math

import numpy as np

__all__ = [
    "quat_to_matrix", "matrix_to_quat", "matrices_to_quats", "quat_multiply", "quat_normalize",
    "quat_from_axis_angle", "euler_zyx", "skew", "orthonormal_frame",
    "as_rotation_matrix",
]


def quat_normalize(q):
    q = np.asarray(q, dtype=float)
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    return q / n


def quat_to_matrix(q):
    """Rotation matrix of unit quaternion(s) ``q = (w, x, y, z)``; shape (..., 3, 3)."""
    q = quat_normalize(q)
    w, x, y, z = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    A = np.empty(q.shape[:-1] + (3, 3))
    A[..., 0, 0] = 1.0 - 2.0 * (y * y + z * z)
    A[..., 0, 1] = 2.0 * (x * y - w * z)
    A[..., 0, 2] = 2.0 * (x * z + w * y)
    A[..., 1, 0] = 2.0 * (x * y + w * z)
    A[..., 1, 1] = 1.0 - 2.0 * (x * x + z * z)
    A[..., 1, 2] = 2.0 * (y * z - w * x)
    A[..., 2, 0] = 2.0 * (x * z - w * y)
    A[..., 2, 1] = 2.0 * (y * z + w * x)
    A[..., 2, 2] = 1.0 - 2.0 * (x * x + y * y)
    return A


def matrix_to_quat(A):
    """Unit quaternion ``(w, x, y, z)`` with ``w >= 0`` of a rotation matrix (Shepperd's method)."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = np.asarray(A, dtype=float).tolist()
    tr = a00 + a11 + a22
    if tr >= a00 and tr >= a11 and tr >= a22:     # the first largest, as argmax
        s = 2.0 * math.sqrt(max(1.0 + tr, 0.0))
        q = (0.25 * s, (a21 - a12) / s, (a02 - a20) / s, (a10 - a01) / s)
    elif a00 >= a11 and a00 >= a22:
        s = 2.0 * math.sqrt(max(1.0 + a00 - a11 - a22, 0.0))
        q = ((a21 - a12) / s, 0.25 * s, (a01 + a10) / s, (a02 + a20) / s)
    elif a11 >= a22:
        s = 2.0 * math.sqrt(max(1.0 + a11 - a00 - a22, 0.0))
        q = ((a02 - a20) / s, (a01 + a10) / s, 0.25 * s, (a12 + a21) / s)
    else:
        s = 2.0 * math.sqrt(max(1.0 + a22 - a00 - a11, 0.0))
        q = ((a10 - a01) / s, (a02 + a20) / s, (a12 + a21) / s, 0.25 * s)
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    if q[0] < 0.0:
        n = -n
    return np.array(q) / n


def matrices_to_quats(A):
    """``matrix_to_quat`` of many rotation matrices at once: (..., 3, 3) -> (..., 4),
    unit, ``w >= 0``; the same branch of Shepperd's method per matrix."""
    A = np.asarray(A, dtype=float)
    a00, a11, a22 = A[..., 0, 0], A[..., 1, 1], A[..., 2, 2]
    tr = a00 + a11 + a22
    k = np.argmax(np.stack((tr, a00, a11, a22)), axis=0)
    d21, d02, d10 = A[..., 2, 1] - A[..., 1, 2], A[..., 0, 2] - A[..., 2, 0], \
        A[..., 1, 0] - A[..., 0, 1]
    s01, s02, s12 = A[..., 0, 1] + A[..., 1, 0], A[..., 0, 2] + A[..., 2, 0], \
        A[..., 1, 2] + A[..., 2, 1]
    diag = np.choose(k, (tr, a00 - a11 - a22, a11 - a00 - a22, a22 - a00 - a11))
    s = 2.0 * np.sqrt(np.maximum(1.0 + diag, 0.0))
    q = np.empty(A.shape[:-2] + (4,))
    big = 0.25 * s
    with np.errstate(divide="ignore", invalid="ignore"):
        q[..., 0] = np.choose(k, (big, d21 / s, d02 / s, d10 / s))
        q[..., 1] = np.choose(k, (d21 / s, big, s01 / s, s02 / s))
        q[..., 2] = np.choose(k, (d02 / s, s01 / s, big, s12 / s))
        q[..., 3] = np.choose(k, (d10 / s, s02 / s, s12 / s, big))
    q[q[..., 0] < 0.0] *= -1.0
    return q / np.sqrt(np.sum(q * q, axis=-1, keepdims=True))


def quat_multiply(p, q):
    """Hamilton product ``p (x) q`` of scalar-first quaternions."""
    pw, px, py, pz = p
    qw, qx, qy, qz = q
    return np.array([
        pw * qw - px * qx - py * qy - pz * qz,
        pw * qx + px * qw + py * qz - pz * qy,
        pw * qy - px * qz + py * qw + pz * qx,
        pw * qz + px * qy - py * qx + pz * qw,
    ])


def quat_from_axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    h = 0.5 * angle
    return np.concatenate(([math.cos(h)], math.sin(h) * axis))


def skew(u):
    """``skew(u) @ x == cross(u, x)``."""
    return np.array([[0.0, -u[2], u[1]], [u[2], 0.0, -u[0]], [-u[1], u[0], 0.0]])


def euler_zyx(A):
    """Z-Y-X Tait-Bryan angles ``(theta_x, theta_y, theta_z)`` of rotation matrices, for display.

    ``theta_z = atan(A21/A11)``, ``theta_y = asin(-A31)``,
    ``theta_x = atan(A32/A33)`` (1-based indices), evaluated with atan2 so the
    quadrant is kept. Works on arrays of shape (..., 3, 3).
    """
    A = np.asarray(A, dtype=float)
    tz = np.arctan2(A[..., 1, 0], A[..., 0, 0])
    ty = np.arcsin(np.clip(-A[..., 2, 0], -1.0, 1.0))
    tx = np.arctan2(A[..., 2, 1], A[..., 2, 2])
    return np.stack([tx, ty, tz], axis=-1)


def orthonormal_frame(z, x_hint=None):
    """Right-handed orthonormal frame (columns x, y, z) whose z column is ``z``.

    ``x_hint`` (optional) fixes the x direction (projected off z); without it
    the x axis is chosen deterministically from the coordinate axis least
    aligned with z.
    """
    z = np.asarray(z, dtype=float)
    z = z / np.linalg.norm(z)
    if x_hint is not None:
        x = np.asarray(x_hint, dtype=float)
        x = x - np.dot(x, z) * z
        if np.linalg.norm(x) < 1e-9:
            x_hint = None
    if x_hint is None:
        e = np.zeros(3)
        e[int(np.argmin(np.abs(z)))] = 1.0
        x = e - np.dot(e, z) * z
    x = x / np.linalg.norm(x)
    y = np.cross(z, x)
    return np.column_stack([x, y, z])


def as_rotation_matrix(rot, what="orientation"):
    """Accept a quaternion ``(w, x, y, z)`` or a 3x3 rotation matrix; return the matrix.

    Raises ``ValueError`` naming ``what`` when the input is neither.
    """
    R = np.asarray(rot, dtype=float)
    if R.shape == (4,):
        n = np.linalg.norm(R)
        if not np.isfinite(n) or n < 1e-12:
            raise ValueError("%s: quaternion has zero or non-finite length" % what)
        return quat_to_matrix(R / n)
    if R.shape == (3, 3):
        if not np.all(np.isfinite(R)):
            raise ValueError("%s: rotation matrix has non-finite entries" % what)
        if np.abs(R.T @ R - np.eye(3)).max() > 1e-6 or np.linalg.det(R) < 0.0:
            raise ValueError("%s: 3x3 matrix is not a proper rotation (orthonormal, det +1)" % what)
        # Re-orthonormalise (keeps user round-off from accumulating).
        u, _, vt = np.linalg.svd(R)
        return u @ vt
    raise ValueError("%s: expected a quaternion (w, x, y, z) or a 3x3 rotation matrix, got shape %s"
                     % (what, R.shape))
