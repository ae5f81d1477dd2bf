"""The distance of two solids' convex hulls at an instant between two output samples,
the two poses and GJK in one numba call.

The search along a result (``along``) probes many instants between the samples; per
instant it needs both solids' poses (``motion.Trajectory.pose``: the cubic Hermite curve
of the CoG, the constant-rate rotation from one sample's attitude to the next) and the
distance of the two hulls (``gjk.hull_distance``). ``hull_between`` does both in
compiled code, with the same formulas as ``Trajectory.pose`` (Rodrigues' formula of the
turn so far, its Taylor series below 1e-4 rad), so that a probe is one call instead of
a dozen small NumPy operations.

Pure: NumPy and numba only.
"""
import math

import numpy as np
from numba import njit

from .gjk import hull_distance as _hull_gjk

__all__ = ["hull_between", "warm"]


@njit(cache=True)
def _pose(t, pos, vel, A, turn, fixed, k, time, R, r):
    """Fill ``R`` (3, 3), ``r`` (3,) with the pose at ``time`` on segment ``k``
    (``Trajectory.pose``)."""
    if fixed or t.shape[0] == 1:
        R[:, :] = A[0]
        r[:] = pos[0]
        return
    h = t[k + 1] - t[k]
    s = 0.0
    if h > 0.0:
        s = min(max((time - t[k]) / h, 0.0), 1.0)
    if s == 0.0 or s == 1.0:
        j = k if s == 0.0 else k + 1
        R[:, :] = A[j]
        r[:] = pos[j]
        return
    s2 = s * s
    s3 = s2 * s
    c00 = 2.0 * s3 - 3.0 * s2 + 1.0
    c10 = (s3 - 2.0 * s2 + s) * h
    c01 = -2.0 * s3 + 3.0 * s2
    c11 = (s3 - s2) * h
    for j in range(3):
        r[j] = c00 * pos[k, j] + c10 * vel[k, j] + c01 * pos[k + 1, j] + c11 * vel[k + 1, j]
    x = s * turn[k, 0]
    y = s * turn[k, 1]
    z = s * turn[k, 2]
    a2 = x * x + y * y + z * z
    if a2 < 1e-8:
        sa = 1.0 - a2 / 6.0
        ca = 0.5 - a2 / 24.0
    else:
        a = math.sqrt(a2)
        sa = math.sin(a) / a
        ca = (1.0 - math.cos(a)) / a2
    M = np.empty((3, 3))
    M[0, 0] = 1.0 - ca * (y * y + z * z)
    M[0, 1] = ca * x * y - sa * z
    M[0, 2] = ca * x * z + sa * y
    M[1, 0] = ca * x * y + sa * z
    M[1, 1] = 1.0 - ca * (x * x + z * z)
    M[1, 2] = ca * y * z - sa * x
    M[2, 0] = ca * x * z - sa * y
    M[2, 1] = ca * y * z + sa * x
    M[2, 2] = 1.0 - ca * (x * x + y * y)
    for i in range(3):
        for j in range(3):
            R[i, j] = A[k, i, 0] * M[0, j] + A[k, i, 1] * M[1, j] + A[k, i, 2] * M[2, j]


@njit(cache=True)
def _hull_between(t, k, time, va, pos_a, vel_a, A_a, turn_a, fixed_a,
                  vb, pos_b, vel_b, A_b, turn_b, fixed_b):
    Ra = np.empty((3, 3))
    ra = np.empty(3)
    Rb = np.empty((3, 3))
    rb = np.empty(3)
    _pose(t, pos_a, vel_a, A_a, turn_a, fixed_a, k, time, Ra, ra)
    _pose(t, pos_b, vel_b, A_b, turn_b, fixed_b, k, time, Rb, rb)
    return _hull_gjk(va, Ra, ra, vb, Rb, rb)


def hull_between(a, traj_a, b, traj_b, k, time):
    """``gjk.hull_distance`` of solids ``a``, ``b`` (their ``hull_points``) at the poses
    of ``traj_a``, ``traj_b`` at ``time`` on segment ``k``: ``(lower, upper, point_a,
    point_b)``."""
    t, pa, va, Aa, wa, fa = traj_a.kernel_arrays()
    _t, pb, vb, Ab, wb, fb = traj_b.kernel_arrays()
    return _hull_between(t, int(k), float(time), a.hull_points, pa, va, Aa, wa, fa,
                         b.hull_points, pb, vb, Ab, wb, fb)


def warm():
    """Compile the kernel into numba's on-disk cache (or load it)."""
    p = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    t = np.array([0.0, 1.0])
    pos = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    A = np.ascontiguousarray(np.broadcast_to(np.eye(3), (2, 3, 3)))
    turn = np.array([[0.0, 0.0, 0.5]])
    _hull_between(t, 0, 0.5, p, pos, pos.copy(), A, turn, False,
                  p, pos + 3.0, pos.copy(), A.copy(), turn.copy(), True)


if __name__ == "__main__":
    warm()
