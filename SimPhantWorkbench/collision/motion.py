"""A body's pose between the output samples of a result, and how fast its points move.

A result holds poses, velocities and angular velocities at its output samples only.
Between two samples ``t_k``, ``t_k+1`` (``h = t_k+1 - t_k``, ``s = (t - t_k) / h``) the
interference checks move a body along

* its CoG: the cubic Hermite curve through the two positions with the two velocities
  (exact for motion at constant acceleration, error O(h^4) otherwise);
* its rotation: the constant angular velocity that turns ``A_k`` into ``A_k+1``
  (spherical linear interpolation; exact for rotation about a fixed axis at constant
  rate).

The CoG velocity on the segment lies in the convex hull of the Bezier control points of
the Hermite curve's derivative, ``(v_k, 3 (p_k+1 - p_k) / h - v_k - v_k+1, v_k+1)``,
so ``speed_bound`` is rigorous: no point of a solid of radius ``rho`` about its CoG moves
faster than ``|v_cog|max + |omega| rho`` there, and the relative motion of two solids
no faster than the sum for the difference of their CoG curves.
"""
import math

import numpy as np
from scipy.spatial.transform import Rotation

from .geometry import world_box

__all__ = ["Trajectory"]


class Trajectory:
    """The motion of one body over a result's samples ``t`` (n,).

    ``pos`` (n, 3) [m], ``A`` (n, 3, 3) (body frame -> world), ``vel`` (n, 3) [m/s]
    (``None``: the chords between the positions). A fixed body: ``Trajectory.fixed(t)``
    (pose identity, its solid in world axes).
    """

    def __init__(self, t, pos, A, vel=None):
        self.t = np.asarray(t, dtype=float)
        self.pos = np.asarray(pos, dtype=float).reshape(-1, 3)
        self.A = np.asarray(A, dtype=float).reshape(-1, 3, 3)
        n = len(self.t)
        if len(self.pos) != n or len(self.A) != n:
            raise ValueError("trajectory: %d times, %d positions, %d rotations"
                             % (n, len(self.pos), len(self.A)))
        h = np.diff(self.t)
        if vel is None:
            chord = np.diff(self.pos, axis=0) / np.maximum(h, 1e-300)[:, None]
            vel = np.concatenate([chord[:1], 0.5 * (chord[1:] + chord[:-1]), chord[-1:]]) \
                if n > 1 else np.zeros((n, 3))
        self.vel = np.asarray(vel, dtype=float).reshape(-1, 3)
        if n > 1:
            rel = Rotation.from_matrix(np.einsum("kji,kjl->kil", self.A[:-1], self.A[1:]))
            #: per segment the rotation vector (body axes of A_k) taking A_k to A_k+1
            self.turn = rel.as_rotvec()
            #: angular speed on each segment [rad/s]
            self.omega = np.linalg.norm(self.turn, axis=1) / np.maximum(h, 1e-300)
        else:
            self.turn = np.zeros((0, 3))
            self.omega = np.zeros(0)
        self.is_fixed = False
        self._memo = {}             # boxes and swept boxes, per body-frame box
        #: poses between the samples already asked for, by time (every pair of bodies
        #: the body is in asks for many of the same times)
        self._poses = {}

    @classmethod
    def fixed(cls, t):
        n = len(t)
        traj = cls(t, np.zeros((n, 3)), np.broadcast_to(np.eye(3), (n, 3, 3)),
                   np.zeros((n, 3)))
        traj.is_fixed = True
        return traj

    def segment(self, time):
        """Index k of the segment [t_k, t_k+1] holding ``time`` (clipped to the run)."""
        k = int(np.searchsorted(self.t, time, side="right")) - 1
        return min(max(k, 0), max(len(self.t) - 2, 0))

    def pose(self, time, k=None):
        """(r (3,), A (3, 3)) at ``time`` [s] on segment ``k`` (default: the one holding it)."""
        if len(self.t) == 1 or self.is_fixed:
            return self.pos[0], self.A[0]
        k = self.segment(time) if k is None else k
        h = self.t[k + 1] - self.t[k]
        s = 0.0 if h <= 0.0 else min(max((time - self.t[k]) / h, 0.0), 1.0)
        if s == 0.0:
            return self.pos[k], self.A[k]
        if s == 1.0:
            return self.pos[k + 1], self.A[k + 1]
        pose = self._poses.get(time)
        if pose is None:
            pose = self._poses[time] = self._between(k, h, s)
        return pose

    def _between(self, k, h, s):
        """The pose at ``s`` (0 < s < 1) of segment ``k`` (length ``h``)."""
        p0, p1 = self.pos[k], self.pos[k + 1]
        m0, m1 = h * self.vel[k], h * self.vel[k + 1]
        s2, s3 = s * s, s * s * s
        r = ((2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0
             + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * m1)
        return r, self.A[k] @ turn_matrix(s * self.turn[k])

    def kernel_arrays(self):
        """``(t, pos, vel, A, turn, fixed)``: contiguous float copies for the compiled
        probe (``probe.hull_between``), made once."""
        if "kernel" not in self._memo:
            c = np.ascontiguousarray
            turn = self.turn if len(self.turn) else np.zeros((1, 3))
            self._memo["kernel"] = (c(self.t, dtype=float), c(self.pos, dtype=float),
                                    c(self.vel, dtype=float), c(self.A, dtype=float),
                                    c(turn, dtype=float), bool(self.is_fixed))
        return self._memo["kernel"]

    def boxes(self, lo, hi):
        """(lo, hi) (n, 3) world axis-aligned boxes at the samples around the body-frame
        box ``lo``..``hi`` (they hold every point of it)."""
        key = ("boxes", tuple(lo), tuple(hi))
        if key not in self._memo:
            self._memo[key] = world_box(self.pos, self.A, lo, hi)
        return self._memo[key]

    def axis_speeds(self, radius):
        """(n - 1, 3): per segment and world axis, a bound on that component of the
        velocity of any point within ``radius`` of the frame's origin: the largest
        component of the CoG velocity's Bezier control points plus
        ``|e x omega| radius`` (the world angular velocity ``omega = A_k turn / h`` is
        constant on a segment; ``e x omega`` has the norm of omega's part across
        the axis ``e``)."""
        if len(self.t) < 2 or self.is_fixed:
            return np.zeros((max(len(self.t) - 1, 0), 3))
        h = np.diff(self.t)
        w = np.einsum("kij,kj->ki", self.A[:-1], self.turn) \
            / np.where(h > 0, h, 1.0)[:, None]
        across = np.sqrt(np.maximum((w * w).sum(axis=1)[:, None] - w * w, 0.0))
        return np.abs(self.all_velocity_controls()).max(axis=1) + across * radius

    def swept_boxes(self, lo, hi):
        """(lo, hi) (n - 1, 3): per segment a world axis-aligned box holding the
        body-frame box ``lo``..``hi`` at every instant of the segment: a face
        coordinate ``x`` known at both ends whose rate is at most ``S``
        (``axis_speeds`` of the box's farthest corner) stays below
        ``(x_k + x_k+1 + S h) / 2`` in between."""
        key = ("swept", tuple(lo), tuple(hi))
        if key not in self._memo:
            blo, bhi = self.boxes(lo, hi)
            corner = float(np.linalg.norm(np.maximum(np.abs(lo), np.abs(hi))))
            reach = self.axis_speeds(corner) * np.diff(self.t)[:, None]
            self._memo[key] = (
                np.minimum(np.minimum(blo[:-1], blo[1:]), 0.5 * (blo[:-1] + blo[1:] - reach)),
                np.maximum(np.maximum(bhi[:-1], bhi[1:]), 0.5 * (bhi[:-1] + bhi[1:] + reach)))
        return self._memo[key]

    def all_velocity_controls(self):
        """(n - 1, 3, 3): ``velocity_controls`` of every segment."""
        if "controls" not in self._memo:
            h = np.diff(self.t)[:, None]
            v0, v1 = self.vel[:-1], self.vel[1:]
            mid = np.where(h > 0, 3.0 * np.diff(self.pos, axis=0) / np.where(h > 0, h, 1.0)
                           - v0 - v1, v0)
            self._memo["controls"] = np.stack([v0, mid, v1], axis=1)
        return self._memo["controls"]

    def velocity_controls(self, k):
        """(3, 3): the Bezier control points of the CoG velocity on segment ``k``."""
        h = self.t[k + 1] - self.t[k]
        v0, v1 = self.vel[k], self.vel[k + 1]
        mid = 3.0 * (self.pos[k + 1] - self.pos[k]) / h - v0 - v1 if h > 0 else v0
        return np.stack([v0, mid, v1])


def turn_matrix(rotvec):
    """The rotation matrix of the rotation vector ``rotvec`` (axis times angle [rad]):
    Rodrigues' formula ``I + sin(a) K + (1 - cos(a)) K^2``, K the cross-product matrix
    of the unit axis (its Taylor series below 1e-4 rad)."""
    x, y, z = (float(c) for c in rotvec)
    a2 = x * x + y * y + z * z
    if a2 < 1e-8:
        s, c = 1.0 - a2 / 6.0, 0.5 - a2 / 24.0           # sin(a)/a, (1 - cos(a))/a^2
    else:
        a = math.sqrt(a2)
        s, c = math.sin(a) / a, (1.0 - math.cos(a)) / a2
    return np.array([[1.0 - c * (y * y + z * z), c * x * y - s * z, c * x * z + s * y],
                     [c * x * y + s * z, 1.0 - c * (x * x + z * z), c * y * z - s * x],
                     [c * x * z - s * y, c * y * z + s * x, 1.0 - c * (x * x + y * y)]])


def speed_bounds(traj_a, radius_a, traj_b, radius_b, segments=None):
    """``speed_bound`` of every segment, (n - 1,), or of the ``segments`` (indices) only."""
    n = len(traj_a.t) - 1
    if n <= 0:
        return np.zeros(0)
    k = np.arange(n) if segments is None else np.asarray(segments, dtype=np.int64)
    dv = np.zeros((len(k), 3, 3))
    if not traj_a.is_fixed:
        dv = dv + traj_a.all_velocity_controls()[k]
    if not traj_b.is_fixed:
        dv = dv - traj_b.all_velocity_controls()[k]
    v = np.linalg.norm(dv, axis=2).max(axis=1)
    if not traj_a.is_fixed:
        v = v + traj_a.omega[k] * radius_a
    if not traj_b.is_fixed:
        v = v + traj_b.omega[k] * radius_b
    return v


def speed_bound(traj_a, radius_a, traj_b, radius_b, k):
    """Bound [m/s] on the relative speed of any point of solid a (radius ``radius_a``
    about its frame's origin) with respect to any point of solid b on segment ``k``."""
    if traj_a.is_fixed and traj_b.is_fixed:
        return 0.0
    va = 0.0 if traj_a.is_fixed else traj_a.velocity_controls(k)
    vb = 0.0 if traj_b.is_fixed else traj_b.velocity_controls(k)
    dv = np.zeros((3, 3)) + va - vb
    wa = 0.0 if traj_a.is_fixed else traj_a.omega[k] * radius_a
    wb = 0.0 if traj_b.is_fixed else traj_b.omega[k] * radius_b
    return float(np.linalg.norm(dv, axis=1).max()) + wa + wb


__all__ += ["speed_bound", "speed_bounds", "turn_matrix"]
