"""A deliberately naive, dense NumPy implementation of the SimPhant formulation.

Written from the formulation in docs/theory.md as the "textbook" baseline of the
speed benchmark; it shares no code with ``SimPhantWorkbench/solver``:

* state ``Y = [q (7N), q_dot (6N)]``, per body ``q = [r, (qw, qx, qy, qz)]`` and
  ``q_dot = [v (world), omega_bar (body frame)]``;
* dense ``6N x 6N`` mass matrix ``M`` and its inverse, computed once;
* forces ``Q = [m g ; -omega_bar x (J omega_bar)]`` (Euler's equation,
  ``J omega_bar_dot = T_bar - omega_bar x (J omega_bar)``);
* a dense ``m x 6N`` Jacobian ``Phi_q`` assembled joint by joint (translational
  columns on ``v``, rotational columns on the body-frame ``omega_bar``),
  ``gamma`` from the world-frame ``omega``;
* Baumgarte ``gamma* = gamma - 2 alpha Phi_dot - beta^2 Phi``;
* Tikhonov-regularised Schur complement ``C = Phi_q M^-1 Phi_q^T + E``
  (eps > 0, per row or global, see ``compile``; rows of the loop-closing joints
  found redundant at t0 by a pivoted QR against the other joints' rows get eps =
  their diagonal), formed densely, LU-factorised at every
  evaluation and refined to the unregularised solution (``lambda += (C + E)^-1
  (b - C lambda)`` while the residual falls 4x per step),
  ``q_ddot = M^-1 (Q - Phi_q^T lambda)``;
* classical RK4 in a Python loop, quaternions normalised after every step.

Joints: ``"spherical"`` (3 rows: ``r_i + A_i u_i - r_j - A_j u_j``) and
``"revolute"`` (those 3 rows plus ``v_i . a_j`` and ``v_i . b_j``, where ``v_i`` is
the hinge axis fixed in body i and ``a_j``, ``b_j`` two unit axes fixed in body j,
perpendicular to the hinge at t0). Body index ``-1`` is the ground.

To reproduce SimPhant's numbers, use the same Baumgarte constants and the same
rule for eps (``NaiveModel.compile``: per row, ``regularization`` x that row's
diagonal of ``Phi_q M^-1 Phi_q^T`` at t0, or one global value).
"""
import math
import time

import numpy as np

__all__ = ["NaiveModel", "quat_to_matrix", "skew", "cross"]

GROUND = -1


def skew(u):
    return np.array([[0.0, -u[2], u[1]],
                     [u[2], 0.0, -u[0]],
                     [-u[1], u[0], 0.0]])


def cross(a, b):
    """a x b for 3-vectors (np.cross has a large per-call overhead on tiny arrays)."""
    a0, a1, a2 = a
    b0, b1, b2 = b
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def quat_to_matrix(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ])


def _perpendicular_pair(axis):
    """Two unit vectors a, b with (a, b, axis) right-handed and orthonormal.

    Convention (the same as SimPhant's joint frames, so that per-row
    regularisation acts on the same rows): a is the coordinate axis least
    aligned with the hinge, made orthogonal to it; b = axis x a.
    """
    z = np.asarray(axis, dtype=float)
    z = z / np.linalg.norm(z)
    e = np.zeros(3)
    e[int(np.argmin(np.abs(z)))] = 1.0
    a = e - (e @ z) * z
    a /= np.linalg.norm(a)
    b = cross(z, a)
    return a, b


class NaiveModel:
    """Bodies and joints, then ``compile`` and ``simulate``."""

    def __init__(self, gravity=(0.0, 0.0, -9.81)):
        self.gravity = np.asarray(gravity, dtype=float)
        self.mass = []
        self.inertia = []
        self.r0 = []
        self.quat0 = []
        self.joints = []   # dicts

    # ------------------------------------------------------------------ building
    def add_body(self, mass, inertia, position, orientation=(1.0, 0.0, 0.0, 0.0)):
        """Principal moments ``inertia`` in the body frame ``orientation`` (w, x, y, z)."""
        self.mass.append(float(mass))
        self.inertia.append(np.asarray(inertia, dtype=float))
        self.r0.append(np.asarray(position, dtype=float))
        q = np.asarray(orientation, dtype=float)
        self.quat0.append(q / np.linalg.norm(q))
        return len(self.mass) - 1

    def _body_pose0(self, b):
        if b == GROUND:
            return np.zeros(3), np.eye(3)
        return self.r0[b], quat_to_matrix(self.quat0[b])

    def add_joint(self, kind, bi, bj, point, axis=None):
        """``kind`` "spherical" or "revolute" between body indices ``bi``, ``bj``
        (``-1`` = ground); ``point`` and ``axis`` in world coordinates at t0."""
        P = np.asarray(point, dtype=float)
        ri, Ai = self._body_pose0(bi)
        rj, Aj = self._body_pose0(bj)
        jd = dict(kind=kind, bi=bi, bj=bj,
                  ui=Ai.T @ (P - ri), uj=Aj.T @ (P - rj))
        if kind == "revolute":
            v = np.asarray(axis, dtype=float)
            v = v / np.linalg.norm(v)
            a, b = _perpendicular_pair(v)
            jd.update(vi=Ai.T @ v, aj=Aj.T @ a, bj_=Aj.T @ b)
            jd["rows"] = 5
        elif kind == "spherical":
            jd["rows"] = 3
        else:
            raise ValueError("naive model: unsupported joint kind %r" % kind)
        self.joints.append(jd)
        return len(self.joints) - 1

    def compile(self, alpha, beta, regularization=1e-9, eps_rule="per_row"):
        """Dense M and M^-1, the initial state, and the Tikhonov eps (a vector, one per row).

        ``eps_rule``: ``"per_row"``: eps_r = regularization x C0_rr (each row's
        diagonal of C0 = Phi_q M^-1 Phi_q^T at t0, floored at 1e-6 x max C0_rr);
        ``"global"``: eps = regularization x max C0_rr for every row.
        """
        nb = len(self.mass)
        self.nb = nb
        self.nrows = sum(j["rows"] for j in self.joints)
        M = np.zeros((6 * nb, 6 * nb))
        for b in range(nb):
            M[6 * b:6 * b + 3, 6 * b:6 * b + 3] = self.mass[b] * np.eye(3)
            M[6 * b + 3:6 * b + 6, 6 * b + 3:6 * b + 6] = np.diag(self.inertia[b])
        self.M = M
        self.Minv = np.linalg.inv(M)     # constant: computed once
        self.alpha = float(alpha)
        self.beta = float(beta)
        Y0 = np.zeros(13 * nb)
        for b in range(nb):
            Y0[7 * b:7 * b + 3] = self.r0[b]
            Y0[7 * b + 3:7 * b + 7] = self.quat0[b]
        self.y0 = Y0
        self.eps_rule = eps_rule
        self.eps = np.zeros(self.nrows)
        if self.nrows:
            _, Phi_q, _, _ = self.constraints(Y0)
            d = np.diag(Phi_q @ self.Minv @ Phi_q.T)
            if eps_rule == "per_row":
                self.eps = float(regularization) * np.maximum(d, 1e-6 * d.max())
            elif eps_rule == "global":
                self.eps = np.full(self.nrows, float(regularization) * d.max())
            else:
                raise ValueError("eps_rule must be 'per_row' or 'global', got %r" % eps_rule)
            # redundant rows: eps = diagonal. Joints in the order added; one whose two
            # bodies are already connected closes a loop. The rows of the others (a
            # spanning tree) are independent; the closing joints' rows, made orthogonal
            # to them, go through a pivoted QR of the row-normalised Phi_q M^-1/2
            import scipy.linalg
            A = Phi_q @ np.sqrt(self.Minv)
            A = A / np.maximum(np.linalg.norm(A, axis=1), 1e-300)[:, None]
            group = {}
            closes = np.zeros(self.nrows, dtype=bool)
            r0 = 0
            for jd in self.joints:
                gi, gj = group.get(jd["bi"], jd["bi"]), group.get(jd["bj"], jd["bj"])
                if gi == gj:
                    closes[r0:r0 + jd["rows"]] = True
                else:       # merge: every member of gj's group joins gi's
                    for b in [b for b, g in group.items() if g == gj] + [jd["bj"], gj]:
                        group[b] = gi
                    group.setdefault(jd["bi"], gi)
                r0 += jd["rows"]
            tree = np.nonzero(~closes)[0]
            Q, _R = np.linalg.qr(A[tree].T)
            B = A[closes] - (A[closes] @ Q) @ Q.T
            B = B - (B @ Q) @ Q.T
            red = np.zeros(0, dtype=int)
            if len(B):
                R, piv = scipy.linalg.qr(B.T, mode="r", pivoting=True)
                dr = np.abs(np.diag(R))
                red = np.nonzero(closes)[0][piv[int((dr > 1e-8).sum()):]]
            self.eps[red] = np.maximum(d, 1e-6 * d.max())[red]
        return self

    # ------------------------------------------------------------------ kinematics
    def _unpack(self, Y):
        nb = self.nb
        off = 7 * nb
        r = [Y[7 * b:7 * b + 3] for b in range(nb)]
        A = [quat_to_matrix(Y[7 * b + 3:7 * b + 7]) for b in range(nb)]
        v = [Y[off + 6 * b:off + 6 * b + 3] for b in range(nb)]
        wb = [Y[off + 6 * b + 3:off + 6 * b + 6] for b in range(nb)]
        ww = [A[b] @ wb[b] for b in range(nb)]
        return r, A, v, wb, ww

    def constraints(self, Y, bodies=None):
        """Phi (m), dense Phi_q (m x 6N), gamma (m, no Baumgarte), Phi_dot (m)."""
        nb = self.nb
        r, A, v, wb, ww = bodies if bodies is not None else self._unpack(Y)
        zero3 = np.zeros(3)
        eye3 = np.eye(3)
        m = self.nrows
        Phi = np.zeros(m)
        Phi_q = np.zeros((m, 6 * nb))
        gamma = np.zeros(m)
        row = 0
        for jd in self.joints:
            bi, bj = jd["bi"], jd["bj"]
            if bi == GROUND:
                ri, Ai, wi = zero3, eye3, zero3
            else:
                ri, Ai, wi = r[bi], A[bi], ww[bi]
            if bj == GROUND:
                rj, Aj, wj = zero3, eye3, zero3
            else:
                rj, Aj, wj = r[bj], A[bj], ww[bj]
            si = Ai @ jd["ui"]
            sj = Aj @ jd["uj"]
            # spherical rows: Phi = r_i + A_i u_i - r_j - A_j u_j
            Phi[row:row + 3] = ri + si - rj - sj
            if bi != GROUND:
                Phi_q[row:row + 3, 6 * bi:6 * bi + 3] = eye3
                Phi_q[row:row + 3, 6 * bi + 3:6 * bi + 6] = -Ai @ skew(jd["ui"])
            if bj != GROUND:
                Phi_q[row:row + 3, 6 * bj:6 * bj + 3] = -eye3
                Phi_q[row:row + 3, 6 * bj + 3:6 * bj + 6] = Aj @ skew(jd["uj"])
            gamma[row:row + 3] = -cross(wi, cross(wi, si)) + cross(wj, cross(wj, sj))
            row += 3
            if jd["kind"] == "revolute":
                vi = Ai @ jd["vi"]
                for ax in (Aj @ jd["aj"], Aj @ jd["bj_"]):
                    Phi[row] = vi @ ax
                    if bi != GROUND:
                        Phi_q[row, 6 * bi + 3:6 * bi + 6] = Ai.T @ cross(vi, ax)
                    if bj != GROUND:
                        Phi_q[row, 6 * bj + 3:6 * bj + 6] = Aj.T @ cross(ax, vi)
                    wv = cross(wi, vi)
                    gamma[row] = -(cross(wi, wv) @ ax
                                   + 2.0 * (wv @ cross(wj, ax))
                                   + vi @ cross(wj, cross(wj, ax)))
                    row += 1
        qdot = Y[7 * nb:]
        Phi_dot = Phi_q @ qdot
        return Phi, Phi_q, gamma, Phi_dot

    # ------------------------------------------------------------------ dynamics
    def evaluate(self, t, Y):
        """dY/dt."""
        nb = self.nb
        bodies = self._unpack(Y)
        r, A, v, wb, ww = bodies
        Q = np.zeros(6 * nb)
        for b in range(nb):
            Q[6 * b:6 * b + 3] = self.mass[b] * self.gravity
            Q[6 * b + 3:6 * b + 6] = -cross(wb[b], self.inertia[b] * wb[b])
        if self.nrows:
            Phi, Phi_q, gamma, Phi_dot = self.constraints(Y, bodies)
            gstar = gamma - 2.0 * self.alpha * Phi_dot - self.beta ** 2 * Phi
            import scipy.linalg
            MinvPt = self.Minv @ Phi_q.T
            C = Phi_q @ MinvPt
            lu = scipy.linalg.lu_factor(C + np.diag(self.eps))
            rhs = Phi_q @ (self.Minv @ Q) - gstar
            lam = scipy.linalg.lu_solve(lu, rhs)
            rho_b = rhs @ (rhs / self.eps)
            rho = np.inf
            for _ in range(20):          # iterative refinement
                r = rhs - C @ lam
                rho_new = r @ (r / self.eps)
                if not rho_new <= 0.25 * rho or rho_new <= 1e-30 * rho_b:
                    break
                rho = rho_new
                lam = lam + scipy.linalg.lu_solve(lu, r)
            qdd = self.Minv @ (Q - Phi_q.T @ lam)
        else:
            qdd = self.Minv @ Q
        dY = np.empty_like(Y)
        off = 7 * nb
        for b in range(nb):
            p = 7 * b
            qw, qx, qy, qz = Y[p + 3:p + 7]
            wx, wy, wz = wb[b]
            dY[p:p + 3] = v[b]
            dY[p + 3] = -0.5 * (qx * wx + qy * wy + qz * wz)
            dY[p + 4] = 0.5 * (qw * wx + qy * wz - qz * wy)
            dY[p + 5] = 0.5 * (qw * wy + qz * wx - qx * wz)
            dY[p + 6] = 0.5 * (qw * wz + qx * wy - qy * wx)
        dY[off:] = qdd
        return dY

    def _normalize(self, Y):
        for b in range(self.nb):
            q = Y[7 * b + 3:7 * b + 7]
            q /= np.linalg.norm(q)

    def rk4_step(self, t, Y, h):
        k1 = self.evaluate(t, Y)
        k2 = self.evaluate(t + 0.5 * h, Y + 0.5 * h * k1)
        k3 = self.evaluate(t + 0.5 * h, Y + 0.5 * h * k2)
        k4 = self.evaluate(t + h, Y + h * k3)
        Yn = Y + (h / 6.0) * (k1 + 2.0 * (k2 + k3) + k4)
        self._normalize(Yn)
        return Yn

    def simulate(self, t_end, dt, nsteps=None, record_every=None):
        """RK4 from the initial state. Returns dict with the final state, the
        per-step wall times and (optionally) states every ``record_every`` steps."""
        n = int(round(t_end / dt)) if nsteps is None else int(nsteps)
        Y = self.y0.copy()
        t = 0.0
        step_times = np.empty(n)
        states = [Y.copy()] if record_every else None
        for s in range(n):
            w0 = time.perf_counter()
            Y = self.rk4_step(t, Y, dt)
            step_times[s] = time.perf_counter() - w0
            t = (s + 1) * dt
            if record_every and (s + 1) % record_every == 0:
                states.append(Y.copy())
            if not np.all(np.isfinite(Y)):
                raise FloatingPointError("naive RK4: non-finite state at t=%g" % t)
        return dict(Y=Y, t=t, steps=n, step_times=step_times,
                    wall_time=float(step_times.sum()), states=states)

    # ------------------------------------------------------------------ outputs
    def point_position(self, Y, b, local_point):
        return Y[7 * b:7 * b + 3] + quat_to_matrix(Y[7 * b + 3:7 * b + 7]) @ np.asarray(local_point)

    def energy(self, Y):
        nb = self.nb
        off = 7 * nb
        e = 0.0
        for b in range(nb):
            v = Y[off + 6 * b:off + 6 * b + 3]
            w = Y[off + 6 * b + 3:off + 6 * b + 6]
            e += 0.5 * self.mass[b] * (v @ v) + 0.5 * (w @ (self.inertia[b] * w))
            e -= self.mass[b] * (self.gravity @ Y[7 * b:7 * b + 3])
        return e

    def violation(self, Y):
        """max |Phi| (positions) and max |Phi_dot| of state Y."""
        if not self.nrows:
            return 0.0, 0.0
        Phi, _, _, Phi_dot = self.constraints(Y)
        return float(np.max(np.abs(Phi))), float(np.max(np.abs(Phi_dot)))
