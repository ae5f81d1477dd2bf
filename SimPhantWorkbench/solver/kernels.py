"""Jitted kernels: the system evaluator and the fixed-step loops.

The formulation is written down in docs/theory.md (Haug 1989, Nikravesh 1988,
Shabana, Baumgarte 1972). Data flow: the model is
frozen into flat arrays (``SystemArrays``, MuJoCo-style prefixes ``body_``,
``jnt_``, ``row_``, ``cpl_``, ``load_``), scratch space lives in ``Workspace``,
and ``evaluate`` maps ``(t, Y)`` to ``dY/dt``:

* state ``Y = [q, q_dot]``, ``q = [r (3), quaternion (w, x, y, z)]`` per body
  (7N), ``q_dot = [v (world, 3), omega_b (body frame, 3)]`` per body (6N);
* forces ``Q = Q_e + Q_v``: gravity, point loads, torques and the gyroscopic
  term ``Q_v = -omega_b x (J omega_b)`` (Euler's equations in the body frame);
* joint rows ``Phi``, Jacobian ``Phi_q`` (rotational columns act on the body
  frame ``omega_b``) and ``gamma`` (world-frame ``omega``), with
  Baumgarte ``gamma* = gamma - 2 alpha Phi_dot - beta^2 Phi``;
* Tikhonov-regularised Schur complement
  ``(Phi_q M^-1 Phi_q^T + E) lambda = Phi_q M^-1 Q - gamma*``,
  assembled and factorised block-sparse (see ``sparse``), with ``E`` per row
  relative to that row's diagonal at t0 (i.e. Tikhonov on the row-equilibrated
  constraints, so rows of different units and scales are softened alike), the
  solution refined to the unregularised one (``solve_multipliers``), then
  ``q_ddot = M^-1 (Q - Phi_q^T lambda)``.

Ground is the extra body slot ``nb`` (identity rotation, at rest).
"""
import math
from collections import namedtuple

import numpy as np

from . import blocks, jit
from .contact import apply_contacts
from .forces import NSAMPLED, OUT_ED, OUT_EW, OUT_PD, OUT_PW, apply_forces
from .jit import njit
from .joints import (PRIM_ANGLE, PRIM_ASLIDE, PRIM_DIR, PRIM_DIST, PRIM_DOT1, PRIM_DOT2,
                     PRIM_GEAR, PRIM_POINT)
from .vec3 import cross as _cross, frame_axis as _frame_axis, rot as _rot, rot_t as _rot_t

__all__ = ["BLOCK_SIZES", "block_size", "SystemArrays", "Workspace", "evaluate", "integrate_fixed",
           "post_process", "constraint_rows", "set_loads", "LOAD_KINDS", "LOAD_FRAMES",
           "ReactionWork", "NREACT", "factor_geometric", "min_norm_multipliers",
           "reaction_flags", "reaction_flags_at", "joint_reaction"]

#: No NRT reference counting (``_nrt=False``): the kernels never allocate, they
#: only index arrays the caller owns, and the reference counting of the ~60
#: arrays in ``SystemArrays``/``Workspace`` at every kernel call cost about a
#: quarter of an evaluation.
_JIT = dict(cache=True, nogil=True, boundscheck=False, _nrt=False)
#: Hot linear-algebra kernels may contract to FMA and reassociate sums (no
#: assumptions about NaN/Inf, so non-finite states are still detected).
_FAST = dict(_JIT, fastmath={"contract", "reassoc", "nsz", "arcp"})
#: The stages of an evaluation are plain kernels: ``evaluate`` calls them, and so do
#: the reaction rule, ``post_process`` and ``System``. The fixed-step loop has a second
#: evaluator, ``evaluate_inlined``, into which they are inlined (numba's IR inlining;
#: ``HOT_STAGES``, end of this module): a call between jitted functions passes every
#: array of ``SystemArrays`` and ``Workspace`` as separate flattened arguments (about
#: 600 words), which cost more than a whole evaluation of a small model (N = 1: 3.8 ->
#: 1.4 us per RK4 step). Inlining costs compile time (block size 5: 35 s of CPU on top
#: of the plain kernels' 49 s, which it used to triple when every caller inlined the
#: stages), so a first solve runs ``integrate_fixed`` while ``integrate_fixed_inlined``
#: is compiled in the background (``warmup``).
_INL = dict(_FAST, inline="always")

#: Rows per joint block: every joint's rows are padded to the model's block size
#: (padding rows have zero Jacobian, unit diagonal in the Schur complement and
#: lambda = 0). The size travels as the LENGTH of the tuple ``S.bsize``, so it is
#: a compile-time constant: numba compiles one specialisation per block size and
#: every block loop below has a constant trip count that LLVM unrolls.
BLOCK_SIZES = (3, 5, 6)


def block_size(max_rows):
    """Smallest supported block size holding ``max_rows`` rows."""
    for b in BLOCK_SIZES:
        if max_rows <= b:
            return b
    raise ValueError("a joint with %d rows exceeds the largest block (%d)"
                     % (max_rows, BLOCK_SIZES[-1]))

SystemArrays = namedtuple("SystemArrays", [
    "nb", "nj", "nrows",
    "body_minv", "body_inertia", "body_inertia_inv",
    "gravity",
    "jnt_slot", "jnt_anchor", "jnt_frame", "jnt_length", "jnt_row0", "jnt_nrow", "jnt_ntrans",
    "jnt_point",
    "row_prim", "row_ai", "row_aj", "row_scale", "row_drv", "row_par",
    "blk_row", "blk_col", "col_ptr", "col_ids", "row_ptr", "row_ids",
    "upd_ptr", "upd_a", "upd_c",
    "cpl_blk", "cpl_k", "cpl_l", "cpl_sk", "cpl_sl", "cpl_body", "cpl_first", "fill_ids",
    "load_kind", "load_body", "load_point", "load_frame", "load_tab",
    "alpha", "beta", "row_eps", "row_eps_inv", "refine_max", "refine_warm", "refine_skip",
    "bsize",
    # force elements (solver/forces.py)
    "frc_geom", "frc_slot", "frc_point", "frc_joint", "frc_par", "frc_ktab", "frc_ctab",
    "frc_tabx", "frc_taby", "frc_tcol",
    # contacts (solver/contact.py)
    "cnt_elem", "cnt_slot", "cnt_par", "cnt_ptr", "cnt_pts", "cnt_pln", "cnt_bnd",
])

Workspace = namedtuple("Workspace", [
    "A", "r", "vel", "omega_w", "omega_b",
    "Q", "afree", "acc",
    "phi", "phidot", "gamma", "J", "blk", "chol_dinv", "rhs", "lam", "res",
    "load_val", "dY", "ksum", "Yt", "stats",
    "frc_u", "frc_out", "cnt_out",
])

#: ``Workspace.stats`` slots, accumulated over evaluations until the caller resets
#: them: constraint solves, their refinement steps in all, the most steps one solve
#: took, the solves that stopped at ``refine_max`` steps, and the Cholesky pivots
#: that had to be lifted; then a flag: 1 when the next constraint solve starts from zero
#: (``solve_multipliers``).
STAT_SOLVES, STAT_REFINE_SUM, STAT_REFINE_MAX, STAT_REFINE_LIMIT, STAT_LIFTED, \
    STAT_COLD = range(6)
NSTATS = 6

#: Iterative refinement stops when the constraint residual (E^-1 norm) is below
#: this fraction of the right-hand side's: nothing is left to gain in double precision.
REFINE_TOL = 1e-15
#: ... and after its first step when that step converged faster than this (then
#: the next correction would be below REFINE_FAST^2 of the first one).
REFINE_FAST = 1e-6
#: No refinement step is taken when the residual of the first solve (E^-1 norm) is
#: already below ``S.refine_skip`` of the right-hand side's: at most this, and less
#: for a badly conditioned ``C`` (``REFINE_SKIP_ERROR``). Where the refinement
#: matters (mass ratios, small inertias) the residual is 1e-10 ... 1e-5.
REFINE_SKIP = 1e-11
#: The multipliers after a skip are off by up to C's condition times the residual;
#: measured (revolute chains of 8 to 256 links, in RK4 runs) 0.04 ... 0.2 times the
#: square root of the condition of the row-scaled ``C`` (1e4 ... 2e10). So the skip
#: needs a residual below ``REFINE_SKIP_ERROR / sqrt(cond)`` too, which keeps the
#: multipliers within about 2e-10 of the exact ones (``System.set_regularization``
#: estimates the condition; ``tests/solver/test_refinement_skip.py``).
REFINE_SKIP_ERROR = 1e-9

TWO_PI = 2.0 * math.pi

#: State entries below this in magnitude are set to zero after every fixed step. A damped
#: mode seeded by round-off (an out-of-plane motion of a planar mechanism with joint
#: dampers) decays geometrically through the range of normal floating-point numbers into
#: the subnormal ones, where every operation costs tens of times more: a chain of 16
#: links with a spring-damper on every joint had state entries of 1e-201 after 8 s and
#: its evaluations took 1.7x as long. In SI units 1e-100 (m, rad, m/s) is no motion; its
#: products with one another stay normal numbers.
STATE_FLUSH = 1e-100

#: ``load_kind``: a force at a body point or a pure torque (``LOAD_KINDS``), and
#: ``load_frame``: components in world axes or in the body's (``LOAD_FRAMES``)
LOAD_FORCE, LOAD_TORQUE = range(2)
LOAD_WORLD, LOAD_BODY = range(2)
LOAD_KINDS = {"force": LOAD_FORCE, "torque": LOAD_TORQUE}
#: ``Workspace.load_val`` columns after the value (x, y, z) of an applied load: the power
#: it puts in at the last evaluation, and its work since the run's start
#: (``accumulate_work``); a driver's slot holds (f, f', f'') in the first three and
#: the driver's power and work in the same two columns (``driver_powers``)
LOAD_POWER, LOAD_WORK = 3, 4
NLOADCOL = 5
LOAD_FRAMES = {"world": LOAD_WORLD, "body": LOAD_BODY}

#: ``method`` of ``integrate_fixed`` (``integrators.METHODS[...].kernel_id``)
METHOD_EULER, METHOD_SYMPLECTIC_EULER, METHOD_RK4 = range(3)


# --------------------------------------------------------------------------- small algebra
@njit(inline="always")
def _frame_vec(A, b, F, k, x, y, z):
    """World direction of the vector (x, y, z) of joint ``k``'s frame on side 0 (body ``b``)."""
    v0 = F[k, 0, 0, 0] * x + F[k, 0, 0, 1] * y + F[k, 0, 0, 2] * z
    v1 = F[k, 0, 1, 0] * x + F[k, 0, 1, 1] * y + F[k, 0, 1, 2] * z
    v2 = F[k, 0, 2, 0] * x + F[k, 0, 2, 1] * y + F[k, 0, 2, 2] * z
    return _rot(A, b, v0, v1, v2)


@njit(inline="always")
def _dot1_gamma(a0, a1, a2, b0, b1, b2, wi0, wi1, wi2, wj0, wj1, wj2, wij, wii, wjj, phi):
    """gamma of a DOT1 row a_i . b_j (a fixed in body i, b in body j, omega world):
    -[(w_i x (w_i x a)).b + 2 (w_i x a).(w_j x b) + a.(w_j x (w_j x b))], expanded with
    (u x (u x a)).b = (u.a)(u.b) - |u|^2 a.b and (u x a).(v x b) = (u.v)(a.b) - (u.b)(v.a);
    ``wij``, ``wii``, ``wjj`` = w_i.w_j, |w_i|^2, |w_j|^2 and ``phi`` = a.b."""
    ia = wi0 * a0 + wi1 * a1 + wi2 * a2
    ib = wi0 * b0 + wi1 * b1 + wi2 * b2
    ja = wj0 * a0 + wj1 * a1 + wj2 * a2
    jb = wj0 * b0 + wj1 * b1 + wj2 * b2
    return -(ia * ib + ja * jb - 2.0 * ib * ja + (2.0 * wij - wii - wjj) * phi)


@njit(inline="always")
def _angle_parts(A, bi, bj, F, k, wi0, wi1, wi2, wj0, wj1, wj2, wij, wii, wjj):
    """ANGLE: theta = atan2(s, c), s = x_j . y_i, c = x_j . x_i (the angle of x_j about
    z_i): theta, its rotational Jacobian vectors g_i, g_j (world), theta_dot and gamma."""
    xa0, xa1, xa2 = _frame_axis(A, bi, F, k, 0, 0)
    ya0, ya1, ya2 = _frame_axis(A, bi, F, k, 0, 1)
    b0, b1, b2 = _frame_axis(A, bj, F, k, 1, 0)
    c = xa0 * b0 + xa1 * b1 + xa2 * b2
    s = ya0 * b0 + ya1 * b1 + ya2 * b2
    n2 = c * c + s * s
    phi = math.atan2(s, c)
    us0, us1, us2 = _cross(b0, b1, b2, ya0, ya1, ya2)
    uc0, uc1, uc2 = _cross(b0, b1, b2, xa0, xa1, xa2)
    gj0 = (c * us0 - s * uc0) / n2
    gj1 = (c * us1 - s * uc1) / n2
    gj2 = (c * us2 - s * uc2) / n2
    sd = us0 * (wj0 - wi0) + us1 * (wj1 - wi1) + us2 * (wj2 - wi2)
    cd = uc0 * (wj0 - wi0) + uc1 * (wj1 - wi1) + uc2 * (wj2 - wi2)
    pd = (c * sd - s * cd) / n2
    ib = wi0 * b0 + wi1 * b1 + wi2 * b2
    jb = wj0 * b0 + wj1 * b1 + wj2 * b2
    ix = wi0 * xa0 + wi1 * xa1 + wi2 * xa2
    jx = wj0 * xa0 + wj1 * xa1 + wj2 * xa2
    iy = wi0 * ya0 + wi1 * ya1 + wi2 * ya2
    jy = wj0 * ya0 + wj1 * ya1 + wj2 * ya2
    ww = 2.0 * wij - wii - wjj
    qc = ix * ib + jx * jb - 2.0 * ib * jx + ww * c
    qs = iy * ib + jy * jb - 2.0 * ib * jy + ww * s
    gam = (2.0 * pd * (c * cd + s * sd) - (c * qs - s * qc)) / n2
    return phi, -gj0, -gj1, -gj2, gj0, gj1, gj2, pd, gam


@njit(inline="always")
def _dot2_parts(a0, a1, a2, on_j, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
                dd0, dd1, dd2, dc0, dc1, dc2, w0, w1, w2):
    """DOT2 ``a . d`` with ``a`` fixed in body i (``on_j`` False) or body j, ``w`` that
    body's world omega: Phi, the rotational Jacobian vectors g_i, g_j (world; the
    translational columns are -a, +a), Phi_dot and gamma =
    -[d_cent . a + 2 d_dot . (w x a) + d . (w x (w x a))]."""
    phi = a0 * d0 + a1 * d1 + a2 * d2
    if on_j:
        gi0, gi1, gi2 = _cross(a0, a1, a2, si0, si1, si2)
        gj0, gj1, gj2 = _cross(a0, a1, a2, d0 - sj0, d1 - sj1, d2 - sj2)
    else:
        gi0, gi1, gi2 = _cross(a0, a1, a2, d0 + si0, d1 + si1, d2 + si2)
        gj0, gj1, gj2 = _cross(sj0, sj1, sj2, a0, a1, a2)
    wa0, wa1, wa2 = _cross(w0, w1, w2, a0, a1, a2)
    pd = (wa0 * d0 + wa1 * d1 + wa2 * d2) + (a0 * dd0 + a1 * dd1 + a2 * dd2)
    wd = w0 * d0 + w1 * d1 + w2 * d2
    wa = w0 * a0 + w1 * a1 + w2 * a2
    gam = -((dc0 * a0 + dc1 * a1 + dc2 * a2) + 2.0 * (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)
            + wd * wa - (w0 * w0 + w1 * w1 + w2 * w2) * phi)
    return phi, gi0, gi1, gi2, gj0, gj1, gj2, pd, gam


@njit(inline="always")
def _center_angle(A, b, F, k, side, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
                  dd0, dd1, dd2, dc0, dc1, dc2, w0, w1, w2):
    """psi = atan2(d . y, d . x), x, y the frame axes of ``side`` (body ``b``, world
    omega ``w``): psi, its translational column on side j (side i: the opposite), g_i,
    g_j (world), psi_dot and gamma (the chain rule of atan2 on two DOT2 rows)."""
    x0, x1, x2 = _frame_axis(A, b, F, k, side, 0)
    y0, y1, y2 = _frame_axis(A, b, F, k, side, 1)
    on_j = side == 1
    c, ci0, ci1, ci2, cj0, cj1, cj2, cd, cg = _dot2_parts(
        x0, x1, x2, on_j, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
        dd0, dd1, dd2, dc0, dc1, dc2, w0, w1, w2)
    s, zi0, zi1, zi2, zj0, zj1, zj2, sd, sg = _dot2_parts(
        y0, y1, y2, on_j, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
        dd0, dd1, dd2, dc0, dc1, dc2, w0, w1, w2)
    n = 1.0 / (c * c + s * s)
    pd = (c * sd - s * cd) * n
    gam = ((c * sg - s * cg) + 2.0 * pd * (c * cd + s * sd)) * n
    return (math.atan2(s, c), (c * y0 - s * x0) * n, (c * y1 - s * x1) * n,
            (c * y2 - s * x2) * n, (c * zi0 - s * ci0) * n, (c * zi1 - s * ci1) * n,
            (c * zi2 - s * ci2) * n, (c * zj0 - s * cj0) * n, (c * zj1 - s * cj1) * n,
            (c * zj2 - s * cj2) * n, pd, gam)


@njit(inline="always")
def _finish_row(W, r, alpha, beta2, phi, pd, gam, trans, ri0, ri1, ri2, rj0, rj1, rj2,
                fi3, fi4, fi5, fj3, fj4, fj5):
    """Store row ``r``'s rotational Jacobian columns, Phi, Phi_dot, gamma* and its
    Schur right-hand side ``Phi_q M^-1 Q - gamma*`` (in ``W.rhs``); ``trans`` is the
    translational columns' part of ``Phi_q M^-1 Q`` (their owner stores the columns),
    ``f`` the free rotational accelerations of the two sides (zero for the ground)."""
    J = W.J
    J[r, 0, 3] = ri0
    J[r, 0, 4] = ri1
    J[r, 0, 5] = ri2
    J[r, 1, 3] = rj0
    J[r, 1, 4] = rj1
    J[r, 1, 5] = rj2
    gstar = gam - 2.0 * alpha * pd - beta2 * phi
    W.phi[r] = phi
    W.phidot[r] = pd
    W.gamma[r] = gstar
    W.rhs[r] = (trans - gstar + ri0 * fi3 + ri1 * fi4 + ri2 * fi5
                + rj0 * fj3 + rj1 * fj4 + rj2 * fj5)


@njit(inline="always")
def _free_acc(W, b, nb):
    """Body ``b``'s accelerations without constraint forces (zero for the ground)."""
    if b < nb:
        return (W.afree[b, 0], W.afree[b, 1], W.afree[b, 2], W.afree[b, 3], W.afree[b, 4],
                W.afree[b, 5])
    return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0


# --------------------------------------------------------------------------- bodies and forces
# Hot loops index arrays element-wise (no slicing): in numba every array view
# costs a reference-count round trip, which dominated the first version.
@njit(**_FAST)
def update_bodies(Y, S, W):
    """Unpack Y into rotation matrices, positions, velocities."""
    nb = S.nb
    off = 7 * nb
    A = W.A
    for b in range(nb):
        p = 7 * b
        qw = Y[p + 3]
        qx = Y[p + 4]
        qy = Y[p + 5]
        qz = Y[p + 6]
        # the rotation of the normalised quaternion, 2 / |q|^2 in place of 2 (no root)
        n = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
        x = qx * n
        y = qy * n
        z = qz * n
        A[b, 0, 0] = 1.0 - (qy * y + qz * z)
        A[b, 0, 1] = qx * y - qw * z
        A[b, 0, 2] = qx * z + qw * y
        A[b, 1, 0] = qx * y + qw * z
        A[b, 1, 1] = 1.0 - (qx * x + qz * z)
        A[b, 1, 2] = qy * z - qw * x
        A[b, 2, 0] = qx * z - qw * y
        A[b, 2, 1] = qy * z + qw * x
        A[b, 2, 2] = 1.0 - (qx * x + qy * y)
        v = off + 6 * b
        for c in range(3):
            W.r[b, c] = Y[p + c]
            W.vel[b, c] = Y[v + c]
            W.omega_b[b, c] = Y[v + 3 + c]
        for c in range(3):
            W.omega_w[b, c] = (A[b, c, 0] * W.omega_b[b, 0] + A[b, c, 1] * W.omega_b[b, 1]
                               + A[b, c, 2] * W.omega_b[b, 2])


@njit(**_FAST)
def build_forces(S, W):
    """Q per body: [force (world), torque about the CoG (body frame)], then M^-1 Q."""
    nb = S.nb
    A = W.A
    for b in range(nb):
        m = 1.0 / S.body_minv[b]
        for c in range(3):
            W.Q[b, c] = m * S.gravity[c]
        Jw0 = S.body_inertia[b, 0] * W.omega_b[b, 0]
        Jw1 = S.body_inertia[b, 1] * W.omega_b[b, 1]
        Jw2 = S.body_inertia[b, 2] * W.omega_b[b, 2]
        gx, gy, gz = _cross(W.omega_b[b, 0], W.omega_b[b, 1], W.omega_b[b, 2], Jw0, Jw1, Jw2)
        W.Q[b, 3] = -gx
        W.Q[b, 4] = -gy
        W.Q[b, 5] = -gz
    for i in range(S.load_kind.shape[0]):
        b = S.load_body[i]
        f0 = W.load_val[i, 0]
        f1 = W.load_val[i, 1]
        f2 = W.load_val[i, 2]
        if S.load_frame[i] == LOAD_WORLD:   # world -> body components
            fb0, fb1, fb2 = _rot_t(A, b, f0, f1, f2)
        else:
            fb0 = f0
            fb1 = f1
            fb2 = f2
        if S.load_kind[i] == LOAD_FORCE:   # force at a body point
            fw0, fw1, fw2 = _rot(A, b, fb0, fb1, fb2)
            W.Q[b, 0] += fw0
            W.Q[b, 1] += fw1
            W.Q[b, 2] += fw2
            tx, ty, tz = _cross(S.load_point[i, 0], S.load_point[i, 1], S.load_point[i, 2],
                                fb0, fb1, fb2)
            W.Q[b, 3] += tx
            W.Q[b, 4] += ty
            W.Q[b, 5] += tz
            W.load_val[i, LOAD_POWER] = (fw0 * W.vel[b, 0] + fw1 * W.vel[b, 1]
                                         + fw2 * W.vel[b, 2] + tx * W.omega_b[b, 0]
                                         + ty * W.omega_b[b, 1] + tz * W.omega_b[b, 2])
        else:                      # pure torque
            W.Q[b, 3] += fb0
            W.Q[b, 4] += fb1
            W.Q[b, 5] += fb2
            W.load_val[i, LOAD_POWER] = (fb0 * W.omega_b[b, 0] + fb1 * W.omega_b[b, 1]
                                         + fb2 * W.omega_b[b, 2])
    if S.frc_geom.shape[0] > 0:
        apply_forces(S, W)
    if S.cnt_elem.shape[0] > 0:
        apply_contacts(S, W)
    for b in range(nb):
        mi = S.body_minv[b]
        for c in range(3):
            W.afree[b, c] = W.Q[b, c] * mi
            W.afree[b, 3 + c] = W.Q[b, 3 + c] * S.body_inertia_inv[b, c]


# --------------------------------------------------------------------------- joints
@njit(**_FAST)
def constraint_rows(S, W):
    """Phi, Phi_q (per row: side i and side j, [trans | rot(body frame)]), Phi_dot,
    gamma* and the Schur right-hand side Phi_q M^-1 Q - gamma* (in ``W.rhs``).

    Row primitives (see ``joints``), with P = r + s, s = A u, d = P_j - P_i,
    omega world-frame, d_dot = v_j + w_j x s_j - v_i - w_i x s_i and
    d_cent = w_j x (w_j x s_j) - w_i x (w_i x s_i):

    POINT c: Phi = (P_i - P_j)_c;  rows [e_c, A_i^T (s_i x e_c) | -e_c, -A_j^T (s_j x e_c)];
             gamma = (-w_i x (w_i x s_i) + w_j x (w_j x s_j))_c
    DOT1:    Phi = a_i . b_j - c (c = ``S.row_par[r, 2]``);  rot rows A_i^T (a x b), A_j^T (b x a);
             gamma = -[(w_i x (w_i x a)) . b + 2 (w_i x a) . (w_j x b) + a . (w_j x (w_j x b))]
    DOT2:    Phi = a_i . d;  [-a, A_i^T (a x (d + s_i)) | a, A_j^T (s_j x a)];
             gamma = -[d_cent . a + 2 d_dot . (w_i x a) + d . (w_i x (w_i x a))]
    DIST:    Phi = (d.d - L^2) / 2L;  [-d/L, A_i^T (d x s_i)/L | d/L, A_j^T (s_j x d)/L];
             gamma = -(d_dot . d_dot + d . d_cent) / L
    ANGLE:   Phi = atan2(s, c), s = x_j . y_i, c = x_j . x_i (angle of x_j about z_i);
             g = (c (x_j x y_i) - s (x_j x x_i)) / (c^2 + s^2), rot rows -A_i^T g, A_j^T g;
             gamma = -(c s_q - s c_q) / n^2 + 2 theta_dot (c c_dot + s s_dot) / n^2 with
             s_q, c_q the velocity-quadratic parts of s'' and c'' (those of DOT1)

    DIR:     Phi = b_j . c, c = A_i F_i u(t) (u unit, tabulated with u', u'' in the
             load slots row_drv, +1, +2); rot rows -A_i^T g, A_j^T g with g = b x c;
             Phi_dot = g . (w_j - w_i) + b . c_t (c_t = A_i F_i u');
             gamma = DOT1's (a = c) - 2 ((w_j - w_i) x b) . c_t - b . c_tt

    GEAR:    Phi = wrap(c1 psi_i + c2 psi_j - c0) (``S.row_par[r]``), psi_b = atan2(S, C),
             S = y_b . d, C = x_b . d (DOT2 rows with the axis on body b): psi_q =
             (C S_q - S C_q) / n^2, gamma_psi = (C gamma_S - S gamma_C) / n^2
             + 2 psi_dot (C C_dot + S S_dot) / n^2 (``_center_angle``)
    ASLIDE:  Phi = wrap(c1 theta + c2 a_i . d - c0): ANGLE's and DOT2's terms combined

    Driver rows (``S.row_drv[r] >= 0``, see ``drivers``) subtract the prescribed
    motion f(t) whose (f, f', f'') sit in ``W.load_val[row_drv[r]]``:
    Phi -= f (wrapped to (-pi, pi] for ANGLE), Phi_dot -= f', gamma += f''.
    """
    nb = S.nb
    alpha = S.alpha
    beta2 = S.beta * S.beta
    A = W.A
    F = S.jnt_frame
    U = S.jnt_anchor
    J = W.J
    for k in range(S.nj):
        bi = S.jnt_slot[k, 0]
        bj = S.jnt_slot[k, 1]
        si0, si1, si2 = _rot(A, bi, U[k, 0, 0], U[k, 0, 1], U[k, 0, 2])
        sj0, sj1, sj2 = _rot(A, bj, U[k, 1, 0], U[k, 1, 1], U[k, 1, 2])
        d0 = W.r[bj, 0] + sj0 - W.r[bi, 0] - si0
        d1 = W.r[bj, 1] + sj1 - W.r[bi, 1] - si1
        d2 = W.r[bj, 2] + sj2 - W.r[bi, 2] - si2
        wi0 = W.omega_w[bi, 0]
        wi1 = W.omega_w[bi, 1]
        wi2 = W.omega_w[bi, 2]
        wj0 = W.omega_w[bj, 0]
        wj1 = W.omega_w[bj, 1]
        wj2 = W.omega_w[bj, 2]
        sdi0, sdi1, sdi2 = _cross(wi0, wi1, wi2, si0, si1, si2)
        sdj0, sdj1, sdj2 = _cross(wj0, wj1, wj2, sj0, sj1, sj2)
        dd0 = W.vel[bj, 0] + sdj0 - W.vel[bi, 0] - sdi0
        dd1 = W.vel[bj, 1] + sdj1 - W.vel[bi, 1] - sdi1
        dd2 = W.vel[bj, 2] + sdj2 - W.vel[bi, 2] - sdi2
        ci0, ci1, ci2 = _cross(wi0, wi1, wi2, sdi0, sdi1, sdi2)
        cj0, cj1, cj2 = _cross(wj0, wj1, wj2, sdj0, sdj1, sdj2)
        dc0 = cj0 - ci0
        dc1 = cj1 - ci1
        dc2 = cj2 - ci2
        wii = wi0 * wi0 + wi1 * wi1 + wi2 * wi2
        wjj = wj0 * wj0 + wj1 * wj1 + wj2 * wj2
        wij = wi0 * wj0 + wi1 * wj1 + wi2 * wj2
        # the two sides' free accelerations, read once per joint (the ground: none)
        fi0, fi1, fi2, fi3, fi4, fi5 = _free_acc(W, bi, nb)
        fj0, fj1, fj2, fj3, fj4, fj5 = _free_acc(W, bj, nb)
        rstart = S.jnt_row0[k]
        if S.jnt_point[k]:
            # the joint starts with the three POINT rows x, y, z: done together
            for c in range(3):
                r = rstart + c
                if c == 0:
                    phi = -d0
                    gam = dc0
                    pd = -dd0
                elif c == 1:
                    phi = -d1
                    gam = dc1
                    pd = -dd1
                else:
                    phi = -d2
                    gam = dc2
                    pd = -dd2
                # translational columns +-e_c are constant: filled once (System)
                ri0, ri1, ri2 = _cross(U[k, 0, 0], U[k, 0, 1], U[k, 0, 2],
                                       A[bi, c, 0], A[bi, c, 1], A[bi, c, 2])
                rj0, rj1, rj2 = _cross(A[bj, c, 0], A[bj, c, 1], A[bj, c, 2],
                                       U[k, 1, 0], U[k, 1, 1], U[k, 1, 2])
                if c == 0:
                    trans = fi0 - fj0
                elif c == 1:
                    trans = fi1 - fj1
                else:
                    trans = fi2 - fj2
                dv = S.row_drv[r]
                if dv >= 0:
                    # point driver: Phi = P - f(t) (side j is the world origin)
                    phi -= W.load_val[dv, 0]
                    pd -= W.load_val[dv, 1]
                    gam += W.load_val[dv, 2]
                _finish_row(W, r, alpha, beta2, phi, pd, gam, trans, ri0, ri1, ri2,
                            rj0, rj1, rj2, fi3, fi4, fi5, fj3, fj4, fj5)
            rstart += 3
        for r in range(rstart, S.jnt_row0[k] + S.jnt_nrow[k]):
            prim = S.row_prim[r]
            # t = translational columns (world), r = rotational columns (body frame),
            # pd = Phi_dot = Phi_q q_dot (each primitive has it in closed form).
            # POINT rows always come as the x, y, z triple handled above.
            if prim == PRIM_DOT1:
                a0, a1, a2 = _frame_axis(A, bi, F, k, 0, S.row_ai[r])
                b0, b1, b2 = _frame_axis(A, bj, F, k, 1, S.row_aj[r])
                phi = a0 * b0 + a1 * b1 + a2 * b2
                gi0, gi1, gi2 = _cross(a0, a1, a2, b0, b1, b2)
                gj0 = -gi0
                gj1 = -gi1
                gj2 = -gi2
                pd = gi0 * (wi0 - wj0) + gi1 * (wi1 - wj1) + gi2 * (wi2 - wj2)
                gam = _dot1_gamma(a0, a1, a2, b0, b1, b2, wi0, wi1, wi2, wj0, wj1, wj2,
                                  wij, wii, wjj, phi)
                phi -= S.row_par[r, 2]      # cos(theta) of an angle joint, else 0
                # no translational columns and never a driver's row: finished here
                ri0, ri1, ri2 = _rot_t(A, bi, gi0, gi1, gi2)
                rj0, rj1, rj2 = _rot_t(A, bj, gj0, gj1, gj2)
                _finish_row(W, r, alpha, beta2, phi, pd, gam, 0.0, ri0, ri1, ri2,
                            rj0, rj1, rj2, fi3, fi4, fi5, fj3, fj4, fj5)
                continue
            elif prim == PRIM_DOT2:
                a0, a1, a2 = _frame_axis(A, bi, F, k, 0, S.row_ai[r])
                phi = a0 * d0 + a1 * d1 + a2 * d2
                ti0 = -a0
                ti1 = -a1
                ti2 = -a2
                tj0 = a0
                tj1 = a1
                tj2 = a2
                gi0, gi1, gi2 = _cross(a0, a1, a2, d0 + si0, d1 + si1, d2 + si2)
                gj0, gj1, gj2 = _cross(sj0, sj1, sj2, a0, a1, a2)
                wa0, wa1, wa2 = _cross(wi0, wi1, wi2, a0, a1, a2)
                pd = (wa0 * d0 + wa1 * d1 + wa2 * d2) + (a0 * dd0 + a1 * dd1 + a2 * dd2)
                # d . (w_i x (w_i x a)) = (w_i.d)(w_i.a) - |w_i|^2 a.d
                wd = wi0 * d0 + wi1 * d1 + wi2 * d2
                wa = wi0 * a0 + wi1 * a1 + wi2 * a2
                gam = -((dc0 * a0 + dc1 * a1 + dc2 * a2)
                        + 2.0 * (dd0 * wa0 + dd1 * wa1 + dd2 * wa2)
                        + wd * wa - wii * phi)
            elif prim == PRIM_ANGLE:
                phi, gi0, gi1, gi2, gj0, gj1, gj2, pd, gam = _angle_parts(
                    A, bi, bj, F, k, wi0, wi1, wi2, wj0, wj1, wj2, wij, wii, wjj)
                ti0 = 0.0
                ti1 = 0.0
                ti2 = 0.0
                tj0 = 0.0
                tj1 = 0.0
                tj2 = 0.0
            elif prim == PRIM_GEAR or prim == PRIM_ASLIDE:
                # couplers: Phi = wrap(c1 A + c2 B - c0) of two parts A, B (``couplers``)
                if prim == PRIM_GEAR:       # A, B: the centre-line angles of the two gears
                    pa, ua0, ua1, ua2, ai0, ai1, ai2, aj0, aj1, aj2, pda, gma = _center_angle(
                        A, bi, F, k, 0, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
                        dd0, dd1, dd2, dc0, dc1, dc2, wi0, wi1, wi2)
                    pb, ub0, ub1, ub2, bi0, bi1, bi2, bj0, bj1, bj2, pdb, gmb = _center_angle(
                        A, bj, F, k, 1, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
                        dd0, dd1, dd2, dc0, dc1, dc2, wj0, wj1, wj2)
                else:                       # A: ANGLE, B: DOT2 along frame-i axis a
                    pa, ai0, ai1, ai2, aj0, aj1, aj2, pda, gma = _angle_parts(
                        A, bi, bj, F, k, wi0, wi1, wi2, wj0, wj1, wj2, wij, wii, wjj)
                    ua0 = 0.0
                    ua1 = 0.0
                    ua2 = 0.0
                    ub0, ub1, ub2 = _frame_axis(A, bi, F, k, 0, S.row_ai[r])
                    pb, bi0, bi1, bi2, bj0, bj1, bj2, pdb, gmb = _dot2_parts(
                        ub0, ub1, ub2, False, d0, d1, d2, si0, si1, si2, sj0, sj1, sj2,
                        dd0, dd1, dd2, dc0, dc1, dc2, wi0, wi1, wi2)
                c1 = S.row_par[r, 0]
                c2 = S.row_par[r, 1]
                phi = c1 * pa + c2 * pb - S.row_par[r, 2]
                phi -= TWO_PI * math.floor(phi / TWO_PI + 0.5)
                tj0 = c1 * ua0 + c2 * ub0
                tj1 = c1 * ua1 + c2 * ub1
                tj2 = c1 * ua2 + c2 * ub2
                ti0 = -tj0
                ti1 = -tj1
                ti2 = -tj2
                gi0 = c1 * ai0 + c2 * bi0
                gi1 = c1 * ai1 + c2 * bi1
                gi2 = c1 * ai2 + c2 * bi2
                gj0 = c1 * aj0 + c2 * bj0
                gj1 = c1 * aj1 + c2 * bj1
                gj2 = c1 * aj2 + c2 * bj2
                pd = c1 * pda + c2 * pdb
                gam = c1 * gma + c2 * gmb
            elif prim == PRIM_DIR:
                # direction driver: c = A_i F_i u(t) with u, u', u'' (unit, in body i's
                # driver frame) in the load slots dv, dv + 1, dv + 2 (x, y, z)
                dv = S.row_drv[r]
                c0, c1, c2 = _frame_vec(A, bi, F, k, W.load_val[dv, 0], W.load_val[dv + 1, 0],
                                        W.load_val[dv + 2, 0])
                p0, p1, p2 = _frame_vec(A, bi, F, k, W.load_val[dv, 1], W.load_val[dv + 1, 1],
                                        W.load_val[dv + 2, 1])
                q0, q1, q2 = _frame_vec(A, bi, F, k, W.load_val[dv, 2], W.load_val[dv + 1, 2],
                                        W.load_val[dv + 2, 2])
                b0, b1, b2 = _frame_axis(A, bj, F, k, 1, S.row_aj[r])
                phi = b0 * c0 + b1 * c1 + b2 * c2
                ti0 = 0.0
                ti1 = 0.0
                ti2 = 0.0
                tj0 = 0.0
                tj1 = 0.0
                tj2 = 0.0
                gj0, gj1, gj2 = _cross(b0, b1, b2, c0, c1, c2)
                gi0 = -gj0
                gi1 = -gj1
                gi2 = -gj2
                pd = (gj0 * (wj0 - wi0) + gj1 * (wj1 - wi1) + gj2 * (wj2 - wi2)
                      + (b0 * p0 + b1 * p1 + b2 * p2))
                # DOT1's velocity terms with a = c, then c's own: 2 ((w_j - w_i) x b) . u'
                # and b . u'' (world)
                x0, x1, x2 = _cross(wj0 - wi0, wj1 - wi1, wj2 - wi2, b0, b1, b2)
                gam = _dot1_gamma(c0, c1, c2, b0, b1, b2, wi0, wi1, wi2, wj0, wj1, wj2,
                                  wij, wii, wjj, phi) \
                    - 2.0 * (x0 * p0 + x1 * p1 + x2 * p2) - (b0 * q0 + b1 * q1 + b2 * q2)
            else:  # PRIM_DIST
                L = S.jnt_length[k]
                il = 1.0 / L
                phi = 0.5 * (d0 * d0 + d1 * d1 + d2 * d2 - L * L) * il
                ti0 = -d0 * il
                ti1 = -d1 * il
                ti2 = -d2 * il
                tj0 = -ti0
                tj1 = -ti1
                tj2 = -ti2
                x0, x1, x2 = _cross(d0, d1, d2, si0, si1, si2)
                gi0 = x0 * il
                gi1 = x1 * il
                gi2 = x2 * il
                x0, x1, x2 = _cross(sj0, sj1, sj2, d0, d1, d2)
                gj0 = x0 * il
                gj1 = x1 * il
                gj2 = x2 * il
                pd = (d0 * dd0 + d1 * dd1 + d2 * dd2) * il
                gam = -((dd0 * dd0 + dd1 * dd1 + dd2 * dd2)
                        + (d0 * dc0 + d1 * dc1 + d2 * dc2)) * il
            dv = S.row_drv[r]
            if dv >= 0 and prim != PRIM_DIR:    # (DIR rows have their time terms inside)
                # driver row: Phi = (geometric value) - f(t), Phi_dot - f', gamma + f''
                phi -= W.load_val[dv, 0]
                if prim == PRIM_ANGLE:
                    phi -= TWO_PI * math.floor(phi / TWO_PI + 0.5)
                pd -= W.load_val[dv, 1]
                gam += W.load_val[dv, 2]
            # rotational columns in the body frame: A^T g
            ri0, ri1, ri2 = _rot_t(A, bi, gi0, gi1, gi2)
            rj0, rj1, rj2 = _rot_t(A, bj, gj0, gj1, gj2)
            J[r, 0, 0] = ti0
            J[r, 0, 1] = ti1
            J[r, 0, 2] = ti2
            J[r, 1, 0] = tj0
            J[r, 1, 1] = tj1
            J[r, 1, 2] = tj2
            trans = (ti0 * fi0 + ti1 * fi1 + ti2 * fi2) + (tj0 * fj0 + tj1 * fj1 + tj2 * fj2)
            _finish_row(W, r, alpha, beta2, phi, pd, gam, trans, ri0, ri1, ri2,
                        rj0, rj1, rj2, fi3, fi4, fi5, fj3, fj4, fj5)
        for r in range(S.jnt_row0[k] + S.jnt_nrow[k], S.jnt_row0[k + 1]):
            W.rhs[r] = 0.0      # padding rows: lambda = 0 (rhs 0, unit diagonal)


# --------------------------------------------------------------------------- Schur complement
@njit(**_FAST)
def assemble_schur(S, W):
    """blk <- block pattern of Phi_q M^-1 Phi_q^T + eps I (lower triangles of the
    diagonal blocks). Each coupling adds J_k,side M_body^-1 J_l,side^T; the first
    coupling of a block assigns instead of adding, and fill-in blocks (no
    coupling) are zeroed."""
    B = len(S.bsize)
    blk = W.blk
    J = W.J
    for p in range(S.fill_ids.shape[0]):
        b = S.fill_ids[p]
        for a in range(B):
            for c in range(B):
                blk[b, a, c] = 0.0
    for q in range(S.cpl_blk.shape[0]):
        b = S.cpl_blk[q]
        k = S.cpl_k[q]
        l = S.cpl_l[q]
        sk = S.cpl_sk[q]
        sl = S.cpl_sl[q]
        body = S.cpl_body[q]
        first = S.cpl_first[q]
        ok = B * k
        ol = B * l
        minv = S.body_minv[body]
        # rotational columns: all rows (padding rows are zero), unrolled with every
        # operand in a local (the compiler cannot tell that stores to blk leave J alone)
        blocks.couple_for(S.bsize, blk, b, J, ok, sk, ol, sl, S.body_inertia_inv[body, 0],
                          S.body_inertia_inv[body, 1], S.body_inertia_inv[body, 2], first,
                          k == l)
        # translational columns: only the rows that have them (first in a joint)
        if S.jnt_point[k] == 2 and S.jnt_point[l] == 2:
            # both joints translate through their POINT rows only (+e_c on side i,
            # -e_c on side j): that part is +-minv on the diagonal
            m = minv if sk == sl else -minv
            for a in range(3):
                blk[b, a, a] += m
            continue
        ntk = S.jnt_ntrans[k]
        ntl = S.jnt_ntrans[l]
        for a in range(ntk):
            ra = ok + a
            m0 = J[ra, sk, 0] * minv
            m1 = J[ra, sk, 1] * minv
            m2 = J[ra, sk, 2] * minv
            cmax = min(a + 1, ntl) if k == l else ntl
            for cc in range(cmax):
                rc = ol + cc
                blk[b, a, cc] += m0 * J[rc, sl, 0] + m1 * J[rc, sl, 1] + m2 * J[rc, sl, 2]
    for k in range(S.nj):
        for a in range(B):
            blk[k, a, a] += S.row_eps[B * k + a]


@njit(**_FAST)
def factor_schur(S, W):
    """In-place left-looking block Cholesky of ``blk`` (lower triangles of the
    diagonal blocks); the reciprocals of the diagonal of L go to ``W.chol_dinv``.
    Returns the number of pivots that had to be lifted (0 for a positive
    definite matrix). The dense block operations are the unrolled ones of
    ``blocks``, of the block size only (``<kernel>_for(S.bsize, ...)``)."""
    B = len(S.bsize)
    blk = W.blk
    dinv = W.chol_dinv
    bad = 0
    for k in range(S.nj):
        ok = B * k
        for u in range(S.upd_ptr[k], S.upd_ptr[k + 1]):
            blocks.syrk_for(S.bsize, blk, k, S.upd_a[u])
        bad += blocks.chol_for(S.bsize, blk, k, dinv, S.row_eps, ok)
        for p in range(S.col_ptr[k], S.col_ptr[k + 1]):
            b = S.col_ids[p]
            for u in range(S.upd_ptr[b], S.upd_ptr[b + 1]):
                blocks.gemm_for(S.bsize, blk, b, S.upd_a[u], S.upd_c[u])
            blocks.trsm_for(S.bsize, blk, b, k, dinv, ok)
    return bad


@njit(**_FAST)
def solve_schur(S, W, x):
    """Solve L L^T x = x in place with the factor in ``blk`` (and ``1/diag`` in
    ``W.chol_dinv``)."""
    B = len(S.bsize)
    blk = W.blk
    dinv = W.chol_dinv
    for k in range(S.nj):
        o = B * k
        for p in range(S.row_ptr[k], S.row_ptr[k + 1]):
            b = S.row_ids[p]
            blocks.fwd_off_for(S.bsize, blk, b, x, o, B * S.blk_col[b])
        blocks.fwd_diag_for(S.bsize, blk, k, dinv, x, o)
    for k in range(S.nj - 1, -1, -1):
        o = B * k
        for p in range(S.col_ptr[k], S.col_ptr[k + 1]):
            b = S.col_ids[p]
            blocks.bwd_off_for(S.bsize, blk, b, x, o, B * S.blk_row[b])
        blocks.bwd_diag_for(S.bsize, blk, k, dinv, x, o)


# --------------------------------------------------------------------------- constraint forces
@njit(inline="always")
def _column_sums(J, x, r0, r1, c):
    """sum of J[r, side, c:c + 3] x[r] over rows r0 .. r1 - 1, side 0 then side 1."""
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    b0 = 0.0
    b1 = 0.0
    b2 = 0.0
    for r in range(r0, r1):
        xr = x[r]
        a0 += J[r, 0, c] * xr
        a1 += J[r, 0, c + 1] * xr
        a2 += J[r, 0, c + 2] * xr
        b0 += J[r, 1, c] * xr
        b1 += J[r, 1, c + 1] * xr
        b2 += J[r, 1, c + 2] * xr
    return a0, a1, a2, b0, b1, b2


@njit(inline="always")
def _sub_scaled(S, acc, b, f0, f1, f2, t0, t1, t2):
    """acc[b] -= M_b^-1 (f, t), force f (world) and torque t (body frame); nothing for
    the ground."""
    if b < S.nb:
        mi = S.body_minv[b]
        acc[b, 0] -= f0 * mi
        acc[b, 1] -= f1 * mi
        acc[b, 2] -= f2 * mi
        acc[b, 3] -= t0 * S.body_inertia_inv[b, 0]
        acc[b, 4] -= t1 * S.body_inertia_inv[b, 1]
        acc[b, 5] -= t2 * S.body_inertia_inv[b, 2]


@njit(**_FAST)
def apply_multipliers(S, W, x, acc):
    """acc <- acc - M^-1 Phi_q^T x (per body: [translation (world), rotation (body)]).

    Rotational columns are read from all ``B`` rows of a joint's block (a padding row's
    are zero), both sides in one pass; translational columns from the joint's first
    ``jnt_ntrans`` rows only (the others have none); a joint whose only translating rows
    are its POINT rows has the columns +-e_c there, so its force is +-x itself
    (``jnt_point == 2``)."""
    B = len(S.bsize)
    J = W.J
    for k in range(S.nj):
        r0 = B * k
        g0, g1, g2, h0, h1, h2 = _column_sums(J, x, r0, r0 + B, 3)
        if S.jnt_point[k] == 2:
            f0 = x[r0]
            f1 = x[r0 + 1]
            f2 = x[r0 + 2]
            e0 = -f0
            e1 = -f1
            e2 = -f2
        else:
            f0, f1, f2, e0, e1, e2 = _column_sums(J, x, r0, r0 + S.jnt_ntrans[k], 0)
        _sub_scaled(S, acc, S.jnt_slot[k, 0], f0, f1, f2, g0, g1, g2)
        _sub_scaled(S, acc, S.jnt_slot[k, 1], e0, e1, e2, h0, h1, h2)


@njit(**_FAST)
def constraint_residual(S, W, acc, g, res):
    """res <- Phi_q acc - g on the constraint rows (0 on padding rows); returns its
    squared norm weighted by E^-1, sum res_r^2 / eps_r (the rows' own scales)."""
    nb = S.nb
    J = W.J
    rho = 0.0
    for k in range(S.nj):
        bi = S.jnt_slot[k, 0]
        bj = S.jnt_slot[k, 1]
        r0 = S.jnt_row0[k]
        r1 = r0 + S.jnt_nrow[k]
        for r in range(r0, r1):
            v = -g[r]
            if bi < nb:
                v += (J[r, 0, 0] * acc[bi, 0] + J[r, 0, 1] * acc[bi, 1] + J[r, 0, 2] * acc[bi, 2]
                      + J[r, 0, 3] * acc[bi, 3] + J[r, 0, 4] * acc[bi, 4]
                      + J[r, 0, 5] * acc[bi, 5])
            if bj < nb:
                v += (J[r, 1, 0] * acc[bj, 0] + J[r, 1, 1] * acc[bj, 1] + J[r, 1, 2] * acc[bj, 2]
                      + J[r, 1, 3] * acc[bj, 3] + J[r, 1, 4] * acc[bj, 4]
                      + J[r, 1, 5] * acc[bj, 5])
            res[r] = v
            rho += v * v * S.row_eps_inv[r]
        for r in range(r1, S.jnt_row0[k + 1]):
            res[r] = 0.0
    return rho


@njit(**_FAST)
def solve_multipliers(S, W, acc, g, b, lam):
    """Constraint forces without regularisation bias (docs/theory.md, "Solving for
    the multipliers").

    On entry ``blk`` holds the Cholesky factor of ``C + E`` (``C = Phi_q M^-1
    Phi_q^T``, ``E = diag(row_eps)``), ``acc`` the accelerations without constraint
    forces and ``b`` the right-hand side ``b = Phi_q acc - g`` (left as it is). On
    exit ``lam`` solves ``C lam = b`` (the E-weighted least-norm solution when rows
    are redundant and ``b`` is consistent) and ``acc <- acc - M^-1 Phi_q^T lam``,
    so that ``Phi_q acc = g``.

    Iterative refinement on the factorised regularised matrix,
    ``lam <- lam + (C + E)^-1 (b - C lam) = (C + E)^-1 (b + E lam)`` (the proximal
    point iteration): every step multiplies the error along an eigenvector of
    ``E^-1/2 C E^-1/2`` with eigenvalue ``mu`` by ``1 / (1 + mu)``, so the
    Tikhonov bias ``~ eps / mu`` of the plain solve disappears in one or two steps
    wherever ``mu >> 1``, while directions with ``mu << 1`` (redundant rows, or rows
    that are dependent only to round-off or to the constraint violation) stay
    filtered as before. The residual ``b - C lam`` is ``Phi_q acc - g`` and costs one
    pass over the rows.

    The first solve starts from zero, ``lam_0 = (C + E)^-1 b``, or, with
    ``S.refine_warm`` (a model without redundant rows: its solution is unique), from
    the multipliers ``lam`` holds on entry (the previous evaluation's),
    ``lam_0 = (C + E)^-1 (b + E lam_prev)``: one refinement step taken from there,
    free, which leaves the bias times the change of the multipliers since then. A solve
    that needed more than one step (directions with ``mu`` too small for one step to
    converge, as at large mass or inertia ratios: there the part of ``lam_prev`` left
    would lag behind the motion and drift its energy) makes the next one start from zero
    (``W.stats[STAT_COLD]``), as does every solve without ``S.refine_warm``. Its
    residual is ``b - C lam_0 = E (lam_0 - lam_prev)`` (``E lam_0`` from zero), exact
    for the regularised solve: when that is below ``S.refine_skip`` of ``b`` (E^-1
    norms: ``REFINE_SKIP``, less for a badly conditioned ``C``) ``lam_0`` is the
    answer and no step is taken. After the first step the
    next residual is ``E delta_1``: if that is below ``REFINE_FAST`` of the first
    (a well-conditioned ``C``: the common case, one extra forward/backward solve
    in all) the solve ends there. Otherwise steps go on with the true residual
    while it falls by at least 4x (what is left then is round-off or the
    inconsistent part of ``b`` of a redundant set of rows) and is above
    ``REFINE_TOL``, at most ``S.refine_max`` steps; ``refine_max = 0`` gives the
    plain regularised solve (from zero). Returns the number of steps.
    """
    res = W.res
    eps = S.row_eps
    ieps = S.row_eps_inv
    n = S.nrows
    rho_b = 0.0
    warm = S.refine_max > 0 and S.refine_warm != 0 and W.stats[STAT_COLD] == 0.0
    for r in range(n):
        x = b[r]
        rho_b += x * x * ieps[r]
        if warm:
            p = lam[r]
            if not abs(p) <= 1e300:     # (left by a failed evaluation: start from zero)
                p = 0.0
            res[r] = p
            x += eps[r] * p
        lam[r] = x
    solve_schur(S, W, lam)
    steps = 0
    rho = 0.0
    rho_next = 0.0
    if S.refine_max > 0:
        # the residual of the regularised solve, b - C lam_0 = E (lam_0 - lam_prev)
        for r in range(n):
            e = eps[r] * (lam[r] - res[r]) if warm else eps[r] * lam[r]
            res[r] = e
            rho += e * e * ieps[r]
        if rho > S.refine_skip * S.refine_skip * rho_b:
            solve_schur(S, W, res)
            for r in range(n):
                d = res[r]
                lam[r] += d
                rho_next += eps[r] * d * d     # = |E delta|^2_E^-1, the next residual
            steps = 1
    apply_multipliers(S, W, lam, acc)
    if steps == 0 or rho_next <= REFINE_FAST * REFINE_FAST * rho:
        # the biased directions converge at a rate below REFINE_FAST: what is left
        # (below REFINE_FAST^2 of the first correction) is not worth another solve
        if S.refine_max > 0:
            W.stats[STAT_COLD] = 0.0
        return steps
    W.stats[STAT_COLD] = 1.0     # the next solve starts from zero
    while steps < S.refine_max:
        rho_new = constraint_residual(S, W, acc, g, res)
        if not rho_new <= 0.25 * rho or rho_new <= REFINE_TOL * REFINE_TOL * rho_b:
            break
        rho = rho_new
        solve_schur(S, W, res)
        for r in range(n):
            lam[r] += res[r]
        apply_multipliers(S, W, res, acc)
        steps += 1
    return steps


# --------------------------------------------------------------------------- evaluator
@njit(**_FAST)
def evaluate(t, Y, S, W):
    """The System Evaluator: dY/dt into ``W.dY``; lambda, Phi, Phi_dot kept in W.

    Returns the number of lifted Cholesky pivots (0 normally).
    """
    nb = S.nb
    update_bodies(Y, S, W)
    build_forces(S, W)
    bad = 0
    acc = W.acc
    for b in range(nb):
        for c in range(6):
            acc[b, c] = W.afree[b, c]
    if S.nrows > 0:
        constraint_rows(S, W)      # also the right-hand side (in W.rhs)
        assemble_schur(S, W)
        bad = factor_schur(S, W)
        # lambda and q_ddot = M^-1 (Q - Phi_q^T lambda), with Phi_q q_ddot = gamma*
        steps = solve_multipliers(S, W, acc, W.gamma, W.rhs, W.lam)
        st = W.stats
        st[STAT_SOLVES] += 1.0
        st[STAT_REFINE_SUM] += steps
        if steps > st[STAT_REFINE_MAX]:
            st[STAT_REFINE_MAX] = steps
        if steps >= S.refine_max:
            st[STAT_REFINE_LIMIT] += 1.0
        st[STAT_LIFTED] += bad
    dY = W.dY
    off = 7 * nb
    for b in range(nb):
        p = 7 * b
        v = off + 6 * b
        qw = Y[p + 3]
        qx = Y[p + 4]
        qy = Y[p + 5]
        qz = Y[p + 6]
        wx = Y[v + 3]
        wy = Y[v + 4]
        wz = Y[v + 5]
        dY[p] = Y[v]
        dY[p + 1] = Y[v + 1]
        dY[p + 2] = Y[v + 2]
        # q_dot = 1/2 q (x) (0, omega_b)   (docs/theory.md, Nikravesh 1988)
        dY[p + 3] = -0.5 * (qx * wx + qy * wy + qz * wz)
        dY[p + 4] = 0.5 * (qw * wx + qy * wz - qz * wy)
        dY[p + 5] = 0.5 * (qw * wy + qz * wx - qx * wz)
        dY[p + 6] = 0.5 * (qw * wz + qx * wy - qy * wx)
        for c in range(6):
            dY[v + c] = acc[b, c]
    return bad


# --------------------------------------------------------------------------- fixed-step loops
@njit(**_JIT)
def _normalize_quats(Y, nb):
    for b in range(nb):
        p = 7 * b + 3
        n = 1.0 / math.sqrt(Y[p] ** 2 + Y[p + 1] ** 2 + Y[p + 2] ** 2 + Y[p + 3] ** 2)
        for c in range(4):
            Y[p + c] *= n


@njit(**_JIT)
def _flush_state(Y):
    """Set the entries of ``Y`` below ``STATE_FLUSH`` to zero; False if one is not finite
    (one pass without an exit inside, so that it vectorises)."""
    ok = True
    for i in range(Y.shape[0]):
        y = Y[i]
        ok &= math.isfinite(y)
        Y[i] = 0.0 if abs(y) < STATE_FLUSH else y
    return ok


@njit(**_JIT)
def set_loads(S, W, tab, row):
    for i in range(S.load_tab.shape[0]):
        col = S.load_tab[i]
        if col >= 0:
            for c in range(3):
                W.load_val[i, c] = tab[row, col, c]
    for i in range(S.frc_tcol.shape[0]):
        col = S.frc_tcol[i]
        if col >= 0:
            W.frc_u[i] = tab[row, col, 0]


@njit(**_JIT)
def _violation(S, W):
    m = 0.0
    for r in range(S.nrows):
        v = abs(W.phi[r]) * S.row_scale[r]
        if not v <= m:   # also catches NaN
            m = v
    return m


@njit(**_JIT)
def driver_powers(S, W):
    """The power each driver's constraint force puts into the bodies at the last
    evaluation, ``-lambda_r (Phi_q v)_r`` summed over its rows, into the
    ``LOAD_POWER`` column of the driver's first slot (``W.load_val`` after the loads;
    the other slots of a multi-slot driver get their rows' share, a direction driver's
    rows all read its first slot)."""
    nb = S.nb
    J = W.J
    for i in range(S.load_kind.shape[0], W.load_val.shape[0]):
        W.load_val[i, LOAD_POWER] = 0.0
    for k in range(S.nj):
        bi = S.jnt_slot[k, 0]
        bj = S.jnt_slot[k, 1]
        for r in range(S.jnt_row0[k], S.jnt_row0[k] + S.jnt_nrow[k]):
            dv = S.row_drv[r]
            if dv < 0:
                continue
            jv = 0.0
            if bi < nb:
                jv += (J[r, 0, 0] * W.vel[bi, 0] + J[r, 0, 1] * W.vel[bi, 1]
                       + J[r, 0, 2] * W.vel[bi, 2] + J[r, 0, 3] * W.omega_b[bi, 0]
                       + J[r, 0, 4] * W.omega_b[bi, 1] + J[r, 0, 5] * W.omega_b[bi, 2])
            if bj < nb:
                jv += (J[r, 1, 0] * W.vel[bj, 0] + J[r, 1, 1] * W.vel[bj, 1]
                       + J[r, 1, 2] * W.vel[bj, 2] + J[r, 1, 3] * W.omega_b[bj, 0]
                       + J[r, 1, 4] * W.omega_b[bj, 1] + J[r, 1, 5] * W.omega_b[bj, 2])
            W.load_val[dv, LOAD_POWER] -= W.lam[r] * jv


@njit(**_JIT)
def accumulate_work(S, W, w):
    """Add ``w`` times the powers of the last evaluation to the work since the run's
    start: each force element's dissipated energy and actuator work
    (``forces.OUT_ED``, ``OUT_EW``), each applied load's and each driver slot's work
    (``LOAD_WORK``; the drivers' powers from ``driver_powers``)."""
    for i in range(S.frc_geom.shape[0]):
        W.frc_out[i, OUT_ED] += w * W.frc_out[i, OUT_PD]
        W.frc_out[i, OUT_EW] += w * W.frc_out[i, OUT_PW]
    if W.load_val.shape[0] > S.load_kind.shape[0]:
        driver_powers(S, W)
    for i in range(W.load_val.shape[0]):
        W.load_val[i, LOAD_WORK] += w * W.load_val[i, LOAD_POWER]


@njit(**_JIT)
def work_values(S, W, dst):
    """The work since the run's start into ``dst`` (2 nf + n_loads + n_driver_slots):
    the elements' dissipated energies, their actuator work, the loads' work, the drivers'
    work per slot (``accumulate_work``)."""
    nf = S.frc_geom.shape[0]
    for i in range(nf):
        dst[i] = W.frc_out[i, OUT_ED]
        dst[nf + i] = W.frc_out[i, OUT_EW]
    for i in range(W.load_val.shape[0]):
        dst[2 * nf + i] = W.load_val[i, LOAD_WORK]


@njit(**_JIT)
def integrate_fixed(method, Y, tstart, nsub, hsub, S, W, tab, out_Y, viol_limit):
    """Advance ``Y`` (in place) over ``len(nsub)`` output intervals.

    Interval ``k`` starts at ``tstart[k]`` and is ``nsub[k]`` steps of size
    ``hsub[k]``; the state at its end goes to ``out_Y[k]``. ``tab[m]`` holds the
    tabulated load values at the m-th distinct time of the chunk: per interval
    ``tstart + j h / 2`` for ``j = 0 .. 2 nsub`` (step starts, midpoints, ends).

    The powers of the force elements, loads and drivers are summed over the steps with the
    method's weights (``accumulate_work``: RK4's quadrature h/6 (1, 2, 2, 1) of the
    stages, the step start for the Euler methods); when ``out_Y`` has more columns than
    ``Y``, the work since the run's start follows each state there (``work_values``).

    State entries below ``STATE_FLUSH`` are set to zero after each step.

    Returns ``(status, intervals_done, t, violation)``; status 0 = ok,
    1 = non-finite state, 2 = constraint violation above ``viol_limit``
    (``t`` is then the time at which it was detected).
    """
    n = Y.shape[0]
    nb = S.nb
    off = 7 * nb
    ksum = W.ksum
    Yt = W.Yt
    dY = W.dY
    row = 0
    t = tstart[0] if tstart.shape[0] > 0 else 0.0
    nstage = 4 if method == METHOD_RK4 else 1
    for k in range(nsub.shape[0]):
        h = hsub[k]
        hh = 0.5 * h
        for s in range(nsub[k]):
            t = tstart[k] + s * h
            # one evaluation per stage, at one call site (the evaluator is inlined here
            # once): stage 0 at (t, Y), RK4's stages 1, 2 at t + h/2 and 3 at t + h
            # (the stage-0 evaluation reads Y itself; ``ksum`` gathers k1 + 2 k2 + 2 k3)
            for stage in range(nstage):
                Ys = Yt
                if stage == 0:
                    Ys = Y
                    set_loads(S, W, tab, row)
                    ts = t
                elif stage == 1:
                    for i in range(n):
                        ksum[i] = dY[i]
                        Yt[i] = Y[i] + hh * dY[i]
                    set_loads(S, W, tab, row + 1)
                    ts = t + hh
                elif stage == 2:
                    for i in range(n):
                        ksum[i] += 2.0 * dY[i]
                        Yt[i] = Y[i] + hh * dY[i]
                else:
                    for i in range(n):
                        ksum[i] += 2.0 * dY[i]
                        Yt[i] = Y[i] + h * dY[i]
                    set_loads(S, W, tab, row + 2)
                    ts = t + h
                evaluate(ts, Ys, S, W)
                if stage == 0:
                    viol = _violation(S, W)
                    if not viol <= viol_limit:
                        return 2, k, t, viol
                if nstage == 1:
                    accumulate_work(S, W, h)
                elif stage == 0 or stage == 3:
                    accumulate_work(S, W, h / 6.0)
                else:
                    accumulate_work(S, W, h / 3.0)
            if method == METHOD_EULER:
                for i in range(n):
                    Y[i] += h * dY[i]
            elif method == METHOD_SYMPLECTIC_EULER:   # v first, then q with the new v
                for i in range(off, n):
                    Y[i] += h * dY[i]
                for b in range(nb):
                    p = 7 * b
                    v = off + 6 * b
                    for c in range(3):
                        Y[p + c] += h * Y[v + c]
                    qw = Y[p + 3]
                    qx = Y[p + 4]
                    qy = Y[p + 5]
                    qz = Y[p + 6]
                    wx = Y[v + 3]
                    wy = Y[v + 4]
                    wz = Y[v + 5]
                    Y[p + 3] += -0.5 * h * (qx * wx + qy * wy + qz * wz)
                    Y[p + 4] += 0.5 * h * (qw * wx + qy * wz - qz * wy)
                    Y[p + 5] += 0.5 * h * (qw * wy + qz * wx - qx * wz)
                    Y[p + 6] += 0.5 * h * (qw * wz + qx * wy - qy * wx)
            else:                # classical RK4
                h6 = h / 6.0
                for i in range(n):
                    Y[i] += h6 * (ksum[i] + dY[i])
            _normalize_quats(Y, nb)
            row += 2
            if not _flush_state(Y):
                return 1, k, t + h, np.inf
        row += 1
        for i in range(n):
            out_Y[k, i] = Y[i]
        if out_Y.shape[1] > n:
            work_values(S, W, out_Y[k, n:])
        t = tstart[k] + nsub[k] * h
    return 0, nsub.shape[0], t, 0.0


# --------------------------------------------------------------------------- reactions
#: ``ReactionWork``: what the reaction rule needs per output sample
#: (``reactions.reaction_work``, which holds its constants): ``G`` the system's arrays
#: with geometric weights in place of the masses and ``delta`` x the row weights as
#: ``row_eps`` (see ``min_norm_multipliers``), ``steps`` of refinement, ``zs`` random
#: vectors over the rows (none: the rule is off, the multipliers are unique), ``scale``
#: the length [m] that turns a torque into a force, ``tol`` what a self-stress of norm 1
#: must change for a component to count as indeterminate, scratch (``zero``, ``work``,
#: ``s``, ``zbuf`` over the rows, ``vf`` per body, ``hit`` per joint and component) and
#: ``flags`` the counts of samples per joint and component.
ReactionWork = namedtuple("ReactionWork", ["G", "steps", "zs", "scale", "tol", "zero", "work",
                                           "s", "zbuf", "vf", "hit", "flags"])
#: reaction components of ``ReactionWork.flags``: force x, y, z and torque x, y, z in world
#: axes (torque about body 2's joint point), then the same in joint frame 1's axes (torque
#: about its origin, body 1's joint point)
NREACT = 12


@njit(**_FAST)
def factor_geometric(G, W):
    """Assemble and factorise ``C_V + E = Phi_q V Phi_q^T + delta diag(w)`` of ``G`` at
    the Jacobian in ``W.J``."""
    assemble_schur(G, W)
    factor_schur(G, W)


@njit(**_FAST)
def _times_c(G, W, x, zero, vf, out):
    """out <- C_V x = Phi_q V Phi_q^T x (``out`` may be ``x``)."""
    for b in range(G.nb):
        for c in range(6):
            vf[b, c] = 0.0
    apply_multipliers(G, W, x, vf)              # vf = -V Phi_q^T x
    constraint_residual(G, W, vf, zero, out)    # out = -C_V x
    for r in range(G.nrows):
        out[r] = -out[r]


@njit(**_FAST)
def min_norm_multipliers(S, W, R, lam):
    """lam <- the multipliers of least weighted norm ``sum_r w_r lam_r^2`` whose
    generalised force ``Phi_q^T lam`` is the constraint force of the evaluation just
    made, ``f = Q - M acc`` (docs/theory.md, "Reactions of redundant joints"; ``R.G``
    factorised by ``factor_geometric``).

    ``(C_V + E) lam = Phi_q V f`` is the Tikhonov-regularised least-squares problem
    ``min |Phi_q^T lam - f|_V^2 + delta |lam|_w^2``; ``R.steps`` steps of
    iterated Tikhonov leave ``(delta / (sigma^2 + delta))^(1 + steps)`` of the
    value along each direction the force determines (singular value ``sigma`` of the
    weighted Jacobian): nothing of it at regular configurations, a continuous share
    near a singular one; the directions no force sees (self-stresses,
    ``Phi_q^T s = 0``) get nothing."""
    G = R.G
    vf = R.vf
    work = R.work
    for b in range(S.nb):
        m = 1.0 / S.body_minv[b]
        for c in range(3):
            vf[b, c] = (W.Q[b, c] - m * W.acc[b, c]) * G.body_minv[b]
            vf[b, 3 + c] = ((W.Q[b, 3 + c] - S.body_inertia[b, c] * W.acc[b, 3 + c])
                            * G.body_inertia_inv[b, c])
    for r in range(S.nrows):
        lam[r] = 0.0
    for _ in range(1 + R.steps):
        constraint_residual(G, W, vf, R.zero, work)   # Phi_q V (f - Phi_q^T lam)
        solve_schur(G, W, work)
        for r in range(S.nrows):
            lam[r] += work[r]
        apply_multipliers(G, W, work, vf)


@njit(**_FAST)
def self_stress(R, W, z, s):
    """s <- the part of ``z`` (a vector over the rows) that no generalised force sees:
    ``z`` less its projection on the range of ``Phi_q`` (weights ``w``), by iterated
    Tikhonov on the factor of ``factor_geometric``, so that ``Phi_q^T s = 0`` up to
    ``(delta / (sigma^2 + delta))^(1 + steps)`` of ``z`` along each direction
    (the same filter as ``min_norm_multipliers``)."""
    G = R.G
    work = R.work
    for r in range(G.nrows):
        s[r] = z[r]
    for _ in range(1 + R.steps):
        _times_c(G, W, s, R.zero, R.vf, work)
        solve_schur(G, W, work)
        for r in range(G.nrows):
            s[r] -= work[r]


@njit(**_FAST)
def joint_reaction(S, W, k, x):
    """Force and torque (world axes, the torque about body 2's joint point) that the rows
    of joint ``k`` with multipliers ``x`` exert on its body 2. Driver rows are left out:
    a driver's effort is reported on its own."""
    A = W.A
    bj = S.jnt_slot[k, 1]
    f0 = 0.0
    f1 = 0.0
    f2 = 0.0
    t0 = 0.0
    t1 = 0.0
    t2 = 0.0
    for r in range(S.jnt_row0[k], S.jnt_row0[k + 1]):
        if S.row_drv[r] >= 0:
            continue    # a driver's effort is reported on its own, not as reaction
        lr = x[r]
        f0 -= W.J[r, 1, 0] * lr
        f1 -= W.J[r, 1, 1] * lr
        f2 -= W.J[r, 1, 2] * lr
        t0 -= W.J[r, 1, 3] * lr
        t1 -= W.J[r, 1, 4] * lr
        t2 -= W.J[r, 1, 5] * lr
    # body-frame torque about the CoG -> world, then about the anchor P_j
    tw0, tw1, tw2 = _rot(A, bj, t0, t1, t2)
    s0, s1, s2 = _rot(A, bj, S.jnt_anchor[k, 1, 0], S.jnt_anchor[k, 1, 1],
                      S.jnt_anchor[k, 1, 2])
    x0, x1, x2 = _cross(s0, s1, s2, f0, f1, f2)
    return f0, f1, f2, tw0 - x0, tw1 - x1, tw2 - x2


@njit(**_FAST)
def _joint_axes_reaction(S, W, k, f0, f1, f2, t0, t1, t2):
    """A joint reaction (world axes, torque about body 2's point) in joint frame 1's
    axes, the torque about its origin (body 1's point): ``R_1^T F`` and
    ``R_1^T (T + (P_2 - P_1) x F)``."""
    A = W.A
    F = S.jnt_frame
    U = S.jnt_anchor
    bi = S.jnt_slot[k, 0]
    bj = S.jnt_slot[k, 1]
    p0, p1, p2 = _rot(A, bi, U[k, 0, 0], U[k, 0, 1], U[k, 0, 2])
    q0, q1, q2 = _rot(A, bj, U[k, 1, 0], U[k, 1, 1], U[k, 1, 2])
    x0, x1, x2 = _cross(W.r[bj, 0] + q0 - W.r[bi, 0] - p0, W.r[bj, 1] + q1 - W.r[bi, 1] - p1,
                        W.r[bj, 2] + q2 - W.r[bi, 2] - p2, f0, f1, f2)
    t0 += x0
    t1 += x1
    t2 += x2
    a0, a1, a2 = _frame_axis(A, bi, F, k, 0, 0)
    b0, b1, b2 = _frame_axis(A, bi, F, k, 0, 1)
    c0, c1, c2 = _frame_axis(A, bi, F, k, 0, 2)
    return (a0 * f0 + a1 * f1 + a2 * f2, b0 * f0 + b1 * f1 + b2 * f2,
            c0 * f0 + c1 * f1 + c2 * f2, a0 * t0 + a1 * t1 + a2 * t2,
            b0 * t0 + b1 * t1 + b2 * t2, c0 * t0 + c1 * t1 + c2 * t2)


@njit(**_FAST)
def reaction_flags(S, W, R):
    """Add 1 to ``R.flags[k, c]`` for each reaction component (``NREACT``) that some
    self-stress of the rows changes at the current state (``R.G`` factorised by
    ``factor_geometric``): for each random vector ``z`` of ``R.zs``, its self-stress part
    ``s`` (``self_stress``) and the reaction ``s`` exerts through each joint; a component
    counts when that exceeds ``R.tol`` of ``|z|_w`` (a torque: of
    ``R.scale |z|_w``). A random ``z`` has a part along every self-stress (with
    probability 1), so every component some self-stress changes is found."""
    nj = S.nj
    hit = R.hit
    s = R.s
    z = R.zbuf
    G = R.G
    for k in range(nj):
        for c in range(NREACT):
            hit[k, c] = 0.0
    for i in range(R.zs.shape[0]):
        zn = 0.0
        for r in range(S.nrows):
            z[r] = R.zs[i, r]
            zn += (z[r] * G.row_scale[r]) ** 2
        zn = math.sqrt(zn)
        self_stress(R, W, z, s)
        for k in range(nj):
            f0, f1, f2, t0, t1, t2 = joint_reaction(S, W, k, s)
            g0, g1, g2, u0, u1, u2 = _joint_axes_reaction(S, W, k, f0, f1, f2, t0, t1, t2)
            tsc = R.scale * zn
            hit[k, 0] = max(hit[k, 0], abs(f0) / zn)
            hit[k, 1] = max(hit[k, 1], abs(f1) / zn)
            hit[k, 2] = max(hit[k, 2], abs(f2) / zn)
            hit[k, 3] = max(hit[k, 3], abs(t0) / tsc)
            hit[k, 4] = max(hit[k, 4], abs(t1) / tsc)
            hit[k, 5] = max(hit[k, 5], abs(t2) / tsc)
            hit[k, 6] = max(hit[k, 6], abs(g0) / zn)
            hit[k, 7] = max(hit[k, 7], abs(g1) / zn)
            hit[k, 8] = max(hit[k, 8], abs(g2) / zn)
            hit[k, 9] = max(hit[k, 9], abs(u0) / tsc)
            hit[k, 10] = max(hit[k, 10], abs(u1) / tsc)
            hit[k, 11] = max(hit[k, 11], abs(u2) / tsc)
    for k in range(nj):
        for c in range(NREACT):
            if hit[k, c] > R.tol:
                R.flags[k, c] += 1.0


@njit(**_JIT)
def reaction_flags_at(Y, S, W, R):
    """``reaction_flags`` at the state ``Y`` (positions only matter): what the mechanism
    check reports before a run."""
    update_bodies(Y, S, W)
    constraint_rows(S, W)
    factor_geometric(R.G, W)
    reaction_flags(S, W, R)


# --------------------------------------------------------------------------- results
@njit(**_JIT)
def _row_joint(S, r):
    """The joint (system position) that owns row ``r`` (every joint has ``B`` rows)."""
    return r // len(S.bsize)


@njit(**_JIT)
def post_process(times, Ys, S, W, tab, acc, lam, phi_max, phidot_max, react, jres, R):
    """Evaluate each output sample once more for accelerations, multipliers,
    constraint residuals and joint reactions (force and torque on the joint's second
    body about its anchor, world axes).
    ``jres[k]`` gets joint ``k``'s largest |Phi| over the samples: [length rows (m),
    angle rows (rad)]. With random vectors in ``R.zs`` (a model whose multipliers can
    be non-unique, ``reactions.reaction_work``) the multipliers are those of least norm
    (``min_norm_multipliers``) and ``R.flags`` counts the samples at which each
    reaction component is indeterminate (``reaction_flags``)."""
    nb = S.nb
    rule = R.zs.shape[0] > 0
    for m in range(times.shape[0]):
        set_loads(S, W, tab, m)
        evaluate(times[m], Ys[m], S, W)
        if rule:
            factor_geometric(R.G, W)
            min_norm_multipliers(S, W, R, W.lam)
            reaction_flags(S, W, R)
        for b in range(nb):
            for c in range(6):
                acc[m, b, c] = W.acc[b, c]
        pm = 0.0
        pdm = 0.0
        for r in range(S.nrows):
            lam[m, r] = W.lam[r]
            pm = max(pm, abs(W.phi[r]))
            pdm = max(pdm, abs(W.phidot[r]))
        phi_max[m] = pm
        phidot_max[m] = pdm
        for r in range(S.nrows):
            prim = S.row_prim[r]
            if prim >= 0:
                a = 1 if (prim == PRIM_DOT1 or prim == PRIM_ANGLE or prim == PRIM_DIR
                          or prim == PRIM_GEAR or prim == PRIM_ASLIDE) else 0
                v = abs(W.phi[r])
                k = _row_joint(S, r)
                if not v <= jres[k, a]:
                    jres[k, a] = v
        for k in range(S.nj):
            f0, f1, f2, t0, t1, t2 = joint_reaction(S, W, k, W.lam)
            react[m, k, 0] = f0
            react[m, k, 1] = f1
            react[m, k, 2] = f2
            react[m, k, 3] = t0
            react[m, k, 4] = t1
            react[m, k, 5] = t2


@njit(**_JIT)
def force_outputs(times, Ys, S, W, tab, out):
    """Coordinate, rate and force of every force element at each output sample:
    ``out[m, i] = [x, x_dot, f]`` (``forces.apply_forces``; with ``forces.NSAMPLED``
    columns also the powers ``forces.OUT_PD``, ``OUT_PW``), followed by a contact's
    ``W.cnt_out`` row where ``out`` has the columns for it (``contact.apply_contacts``)."""
    ncol = min(out.shape[2], NSAMPLED)
    for m in range(times.shape[0]):
        set_loads(S, W, tab, m)
        update_bodies(Ys[m], S, W)
        build_forces(S, W)
        for i in range(S.frc_geom.shape[0]):
            for c in range(ncol):
                out[m, i, c] = W.frc_out[i, c]
        if out.shape[2] > NSAMPLED:
            for c in range(S.cnt_elem.shape[0]):
                for k in range(W.cnt_out.shape[1]):
                    out[m, S.cnt_elem[c], NSAMPLED + k] = W.cnt_out[c, k]


# --------------------------------------------------------------------------- inlined evaluator
#: the stages ``evaluate_inlined`` inlines (each call of one in another goes to its
#: inlined variant too): what one evaluation runs at every stage of every step
HOT_STAGES = (update_bodies, build_forces, constraint_rows, assemble_schur, factor_schur,
              solve_multipliers, solve_schur, apply_multipliers, constraint_residual)
_inlined_stages = jit.variants(HOT_STAGES, "_inlined", **_INL)
#: ``evaluate`` with ``HOT_STAGES`` inlined
evaluate_inlined = jit.variants((evaluate,), "_inlined", bind=_inlined_stages,
                                **_FAST)["evaluate"]
#: ``integrate_fixed`` on ``evaluate_inlined``: the same loop, faster per step
integrate_fixed_inlined = jit.variants((integrate_fixed,), "_inlined",
                                       bind={"evaluate": evaluate_inlined},
                                       **_JIT)["integrate_fixed"]


# --------------------------------------------------------------------------- on-disk cache
#: the sources the kernels here are compiled from: numba keys a cached kernel on the
#: time stamp of its own file only, but these kernels also compile in the jitted code
#: of ``blocks``, ``forces`` and the row constants of ``joints``
CACHE_SOURCES = ("kernels.py", "blocks.py", "forces.py", "contact.py", "joints.py", "vec3.py")
#: file next to numba's cache holding the SHA-256 of ``CACHE_SOURCES`` it was made from
CACHE_STAMP = "simphant-kernels.sha256"
_CACHED_MODULES = ("kernels.", "blocks.", "forces.", "contact.")


def sources_digest():
    """SHA-256 (hex) of ``CACHE_SOURCES`` as they are now."""
    import hashlib
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for name in CACHE_SOURCES:
        with open(os.path.join(here, name), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def cache_dirs():
    """The directories numba caches the kernels of this module and ``blocks`` in."""
    if not jit.AVAILABLE:
        return []
    from numba.core.dispatcher import Dispatcher
    out = set()
    for obj in list(globals().values()) + list(vars(blocks).values()):
        if isinstance(obj, Dispatcher):
            try:
                out.add(obj._cache._cache_path)
            except AttributeError:      # caching off for this dispatcher
                pass
    return sorted(out)


def drop_stale_cache(dirs=None, digest=None):
    """Remove cached kernels made from other sources than today's (``CACHE_STAMP``
    differs or is missing: an edited ``forces.py`` would otherwise keep its old law in
    a cached ``build_forces``); returns the files removed."""
    import os
    digest = digest or sources_digest()
    removed = []
    for d in cache_dirs() if dirs is None else dirs:
        stamp = os.path.join(d, CACHE_STAMP)
        try:
            with open(stamp) as fh:
                if fh.read().strip() == digest:
                    continue
        except OSError:
            pass
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            if name.startswith(_CACHED_MODULES) and name.endswith((".nbi", ".nbc")):
                try:
                    os.remove(os.path.join(d, name))
                    removed.append(name)
                except OSError:
                    pass
        try:
            with open(stamp, "w") as fh:
                fh.write(digest + "\n")
        except OSError:
            pass
    return removed


drop_stale_cache()
