"""Consistent initial conditions: project q onto Phi(q) = 0 and v onto Phi_q v = 0.

Positions: Newton iterations with the mass-weighted least-norm correction
``dq = -M^-1 Phi_q^T (Phi_q M^-1 Phi_q^T + eps I)^-1 Phi`` (the least-squares
solution when rows are redundant), applied as ``r += dr`` and the quaternion
retraction ``q <- q (x) exp(dtheta_b / 2)``, with step halving when the
residual grows. Velocities: one mass-weighted projection
``v <- v - M^-1 Phi_q^T (Phi_q M^-1 Phi_q^T + eps I)^-1 Phi_q v``.

Both reuse the block-sparse Schur machinery of ``kernels``.
"""
import math

import numpy as np

from . import kernels
from .errors import AssemblyError

__all__ = ["assemble", "AssemblyReport"]


class AssemblyReport:
    """What the projection changed, per body: translation [m], rotation [rad],
    change of the CoG velocity [m/s] and of the angular velocity [rad/s]; the
    residuals before and after; Newton iterations."""

    def __init__(self, names):
        self.body_names = list(names)
        self.translation = np.zeros(len(names))
        self.rotation = np.zeros(len(names))
        self.velocity_change = np.zeros(len(names))
        self.angular_velocity_change = np.zeros(len(names))
        self.residual_before = 0.0
        self.residual_after = 0.0
        self.velocity_residual_before = 0.0
        self.velocity_residual_after = 0.0
        self.iterations = 0

    @property
    def corrected(self):
        return bool(self.translation.max(initial=0.0) > 0.0 or self.rotation.max(initial=0.0) > 0.0
                    or self.velocity_change.max(initial=0.0) > 0.0
                    or self.angular_velocity_change.max(initial=0.0) > 0.0)

    def summary(self):
        if not self.corrected:
            return "initial conditions consistent (no correction)"
        lines = ["initial conditions projected onto the joints (%d Newton iterations; "
                 "max |Phi| %.3g -> %.3g, max |Phi_dot| %.3g -> %.3g):"
                 % (self.iterations, self.residual_before, self.residual_after,
                    self.velocity_residual_before, self.velocity_residual_after)]
        for i, n in enumerate(self.body_names):
            if self.translation[i] or self.rotation[i] or self.velocity_change[i] \
                    or self.angular_velocity_change[i]:
                lines.append("  %s: moved %.4g m, turned %.4g deg, velocity changed by %.4g m/s "
                             "and %.4g rad/s"
                             % (n, self.translation[i], math.degrees(self.rotation[i]),
                                self.velocity_change[i], self.angular_velocity_change[i]))
        return "\n".join(lines)

    def __repr__(self):
        return self.summary()


def _correction(system, x):
    """-M^-1 Phi_q^T (C + eps I)^-1 x, per body (nb, 6); x is overwritten."""
    S, W = system.S, system.W
    kernels.assemble_schur(S, W)
    kernels.factor_schur(S, W)
    kernels.solve_schur(S, W, x)
    dq = np.zeros((S.nb, 6))
    for k in range(S.nj):
        r = slice(S.jnt_row0[k], S.jnt_row0[k + 1])
        for side in range(2):
            b = S.jnt_slot[k, side]
            if b < S.nb:
                dq[b] -= W.J[r, side].T @ x[r]
    minv = np.concatenate([np.repeat(S.body_minv[:, None], 3, axis=1), S.body_inertia_inv],
                          axis=1)
    return dq * minv


def _retract(Y, nb, dq, step):
    Y = Y.copy()
    for b in range(nb):
        p = 7 * b
        Y[p:p + 3] += step * dq[b, :3]
        th = step * dq[b, 3:]
        ang = np.linalg.norm(th)
        if ang > 0.0:
            ax = th / ang
            dqq = np.concatenate(([math.cos(0.5 * ang)], math.sin(0.5 * ang) * ax))
            q = Y[p + 3:p + 7]
            w0, x0, y0, z0 = q
            w1, x1, y1, z1 = dqq
            qn = np.array([
                w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
                w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
                w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
                w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1,
            ])
            Y[p + 3:p + 7] = qn / np.linalg.norm(qn)
    return Y


def _residual(system, Y):
    S, W = system.S, system.W
    kernels.update_bodies(Y, S, W)
    kernels.constraint_rows(S, W)
    return np.abs(W.phi * S.row_scale)


def assemble(system, Y, tol=1e-11, max_iter=60):
    """Return a consistent copy of ``Y`` and an ``AssemblyReport``.

    Raises ``AssemblyError`` naming the joints whose constraints stay violated.
    """
    S = system.S
    nb = S.nb
    report = AssemblyReport(system.body_names)
    Y = np.array(Y, dtype=float)
    if S.nrows == 0:
        return Y, report
    Y0 = Y.copy()
    res = _residual(system, Y)
    report.residual_before = float(res.max())
    it = 0
    while res.max() > tol and it < max_iter:
        it += 1
        dq = _correction(system, system.W.phi.copy())
        step = 1.0
        while True:
            Yn = _retract(Y, nb, dq, step)
            resn = _residual(system, Yn)
            if resn.max() < res.max() or step < 1e-4:
                break
            step *= 0.5
        if not resn.max() < res.max():
            break
        Y, res = Yn, resn
    report.iterations = it
    report.residual_after = float(res.max())
    if res.max() > max(1e3 * tol, 1e-8):
        bad = sorted({system.joint_name_of_row(r) for r in np.nonzero(res > 1e-6)[0]})
        if not bad:
            bad = sorted({system.joint_name_of_row(r) for r in [int(np.argmax(res))]})
        raise AssemblyError(
            "the joints cannot be assembled at t0 (residual %.3g after %d iterations); "
            "failing: %s" % (res.max(), it, ", ".join(bad)), joints=bad)
    # velocities
    for b in range(nb):
        p = 7 * b
        report.translation[b] = np.linalg.norm(Y[p:p + 3] - Y0[p:p + 3])
        dot = abs(float(np.dot(Y[p + 3:p + 7], Y0[p + 3:p + 7])))
        report.rotation[b] = 2.0 * math.acos(min(1.0, dot))
    off = 7 * nb
    for _ in range(2):
        kernels.update_bodies(Y, S, system.W)
        kernels.constraint_rows(S, system.W)
        pd = system.W.phidot.copy()
        vres = float(np.abs(pd * S.row_scale).max())
        if _ == 0:
            report.velocity_residual_before = vres
        if vres <= tol:
            break
        dv = _correction(system, pd)
        Y[off:] += dv.reshape(-1)
    kernels.update_bodies(Y, S, system.W)
    kernels.constraint_rows(S, system.W)
    report.velocity_residual_after = float(np.abs(system.W.phidot * S.row_scale).max())
    dvel = (Y[off:] - Y0[off:]).reshape(nb, 6)
    report.velocity_change = np.linalg.norm(dvel[:, :3], axis=1)
    report.angular_velocity_change = np.linalg.norm(dvel[:, 3:], axis=1)
    return Y, report
