"""Moving one body so that a joint's two frames meet the joint ("Align").

FreeCAD's Assembly moves a part into place when a joint is made; ``align_motion``
computes that move for any joint kind of the registry from the kind's rows alone
(``joints.JOINT_TYPES``, evaluated by ``dof.frame_residuals``): the smallest rigid
motion of one side's frame that brings every row's residual to zero.

The motion is parametrised by a rotation vector ``theta`` about the moved frame's
origin and a translation ``t`` of that origin; among all motions that meet the rows it
is the one with the smallest ``|theta|^2 + |t / scale|^2`` near the current pose
(``scale`` a length of the model). A revolute therefore swings its z axis onto the other
side's by the smallest angle (no needless turn about z) and moves the origin straight
onto the other's; a prismatic or cylindrical joint moves the origin onto the axis by
the shortest way, keeping the position along it; a planar joint moves along the normal
only; a spherical joint only translates.

The minimum is found by Newton steps of least norm (the Moore-Penrose pseudo-inverse of
the rows' Jacobian) until the rows are met, then by the projection iteration
``x <- J^+ (J x - Phi)`` that converges to the point of the solution set nearest to the
start (the Gauss-Newton method for minimum-norm solutions of underdetermined systems:
Ben-Israel, "A Newton-Raphson method for the solution of systems of equations",
J. Math. Anal. Appl. 15 (1966) 243-252; Nocedal and Wright, Numerical Optimization,
2nd ed., 2006, sec. 11.1). Rows whose axis pairs are satisfied by opposite axes (z
parallel or anti-parallel) are met by the nearer of the two, as the solver's rows are.
"""
import numpy as np

from .dof import frame_residuals
from .errors import ModelError
from .rotations import quat_from_axis_angle, quat_to_matrix

__all__ = ["align_motion", "rotation_vector_matrix", "ALIGN_TOLERANCE"]

#: residual of every row after alignment [m and sine of an angle]
ALIGN_TOLERANCE = 1e-12
_MAX_TURN = 0.5           # rad per Newton step
_FD_STEP = 1e-7


def rotation_vector_matrix(theta):
    """Rotation matrix of the rotation vector ``theta`` (axis x angle [rad])."""
    theta = np.asarray(theta, dtype=float)
    angle = float(np.linalg.norm(theta))
    if angle == 0.0:
        return np.eye(3)
    return quat_to_matrix(quat_from_axis_angle(theta / angle, angle))


def _moved(frame, x, scale):
    p, R = np.asarray(frame[0], dtype=float), np.asarray(frame[1], dtype=float)
    return p + x[3:] * scale, rotation_vector_matrix(x[:3]) @ R


def _residual(kind, frame1, frame2, length, move, x, scale, angle=None):
    f1, f2 = (frame1, _moved(frame2, x, scale)) if move == 2 else \
        (_moved(frame1, x, scale), frame2)
    return np.array([v for _, v in frame_residuals(kind, f1, f2, length, angle)])


def _jacobian(fun, x, r):
    J = np.empty((len(r), len(x)))
    for k in range(len(x)):
        e = np.zeros(len(x))
        e[k] = _FD_STEP
        J[:, k] = (fun(x + e) - fun(x - e)) / (2.0 * _FD_STEP)
    return J


def _limited(step):
    turn = float(np.linalg.norm(step[:3]))
    return step * (_MAX_TURN / turn) if turn > _MAX_TURN else step


def align_motion(kind, frame1, frame2, length=None, move=2, scale=1.0, iterations=100,
                 angle=None):
    """The smallest rigid motion of side ``move`` (1 or 2) that makes the frames meet
    joint ``kind``.

    Parameters
    ----------
    kind : str
        A kind of ``joints.JOINT_TYPES``.
    frame1, frame2 : (point (3,) m, rotation (3, 3) columns x, y, z)
        The joint frames in world axes, as ``dof.frame_residuals`` takes them.
    length : float or None
        Distance a distance row keeps [m] (``None``: no distance row).
    angle : float or None
        Angle [rad] between the z axes an angle joint keeps (``None``: no angle row).
    move : 1 or 2
        The side whose body moves; the other stays.
    scale : float
        Length [m] that weighs a translation against a rotation of 1 rad.

    Returns
    -------
    (R (3, 3), b (3,))
        The motion ``x -> R x + b`` of world points [m] of the moved body.

    Raises
    ------
    ModelError
        No motion meets the rows (the Newton iteration does not converge).
    """
    if move not in (1, 2):
        raise ValueError("move must be 1 or 2, not %r" % (move,))

    def fun(x):
        return _residual(kind, frame1, frame2, length, move, x, scale, angle)

    x = np.zeros(6)
    r = fun(x)
    if r.size:
        x = _solve(fun, x, r, iterations)
    Q = rotation_vector_matrix(x[:3])
    pivot = np.asarray((frame2 if move == 2 else frame1)[0], dtype=float)
    return Q, pivot + x[3:] * scale - Q @ pivot


def _newton(fun, x, iterations):
    """Least-norm Newton steps from ``x`` until the rows are met; ``None`` if they are not."""
    r = fun(x)
    for it in range(iterations):
        if np.abs(r).max() < ALIGN_TOLERANCE:
            return x
        J = _jacobian(fun, x, r)
        step = -np.linalg.pinv(J, rcond=1e-10) @ r
        if np.linalg.norm(step) < 1e-14:
            # a stationary point of the rows (an axis exactly at 90 deg): step off it
            step = np.full(6, 1e-3) * np.cos(np.arange(6) + it)
        x = x + _limited(step)
        r = fun(x)
    return x if np.abs(r).max() < 1e-10 else None


def _solve(fun, x, r, iterations):
    """Rows met (``_newton``), then the nearest such pose: steps against the part of ``x``
    tangent to the solution set (the null space of the rows' Jacobian), each followed by
    Newton steps back onto it, halved until ``|x|`` decreases."""
    x = _newton(fun, x, iterations)
    if x is None:
        raise ModelError("the frames cannot be aligned (no motion meets the joint's "
                         "constraints after %d iterations)" % iterations)
    for _ in range(iterations):
        r = fun(x)
        J = _jacobian(fun, x, r)
        tangent = x - np.linalg.pinv(J, rcond=1e-10) @ (J @ x)
        if np.linalg.norm(tangent) < 1e-12:
            break
        alpha = 1.0
        while alpha > 1e-6:
            y = _newton(fun, x - alpha * tangent, 20)
            if y is not None and np.linalg.norm(y) < np.linalg.norm(x) - 1e-15:
                x = y
                break
            alpha *= 0.5
        else:
            break
    return x
