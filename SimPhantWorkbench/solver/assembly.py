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
from .joints import ANGULAR_PRIMS
from .rotations import quat_from_axis_angle, quat_multiply

__all__ = ["assemble", "AssemblyReport", "correction", "diagnose", "minimal_conflict",
           "retract"]


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


def correction(system, b):
    """The mass-weighted least-norm correction ``-M^-1 Phi_q^T x`` with
    ``Phi_q M^-1 Phi_q^T x = b``, per body (nb, 6), so that ``Phi_q dq = -b``.

    Solved like the constraint forces (``kernels.solve_multipliers``): the
    regularised factorisation refined to the unregularised solution, so a
    light body next to a heavy one, or a small moment of inertia, does not
    make the projection take many Newton steps or leave Phi_dot behind."""
    S, W = system.S, system.W
    kernels.assemble_schur(S, W)
    kernels.factor_schur(S, W)
    x = np.array(b, dtype=float)
    dq = np.zeros((S.nb, 6))
    kernels.solve_multipliers(S, W, dq, -x, x, np.zeros_like(x))     # (from zero)
    return dq


def retract(Y, nb, dq, step):
    """Y moved by ``step * dq``: r += dr, q <- q (x) exp(dtheta_b / 2)."""
    Y = Y.copy()
    for b in range(nb):
        p = 7 * b
        Y[p:p + 3] += step * dq[b, :3]
        th = step * dq[b, 3:]
        ang = np.linalg.norm(th)
        if ang > 0.0:
            q = quat_multiply(Y[p + 3:p + 7], quat_from_axis_angle(th / ang, ang))
            Y[p + 3:p + 7] = q / np.linalg.norm(q)
    return Y


def _conflicting_rows(system, Y, tol=1e-6):
    """Mask of the system rows whose constraints disagree at ``Y``: the part of the
    (scaled) residual in the left null space of ``Phi_q`` is what no correction of
    the positions can remove; the rows it involves are the conflict (e.g. both of
    two welds that hold a body at different places, though the projection may
    have satisfied one of them exactly)."""
    mask = np.zeros(system.S.nrows, dtype=bool)
    phi, J, _ = system.constraint_state(Y)
    act = system.active_rows
    scale = system.S.row_scale[act]
    A = J * scale[:, None]
    U, s, _ = np.linalg.svd(A, full_matrices=True)
    rank = int((s > 1e-8 * max(s.max(initial=0.0), 1e-300)).sum())
    N = U[:, rank:]
    inconsistent = N @ (N.T @ (phi * scale))
    mask[act] = np.abs(inconsistent) > tol
    return mask


def _joint_gaps(system, Y):
    """``{joint: (scaled residual, largest length gap [m], largest angle gap [rad])}`` of
    the joints' rows at ``Y`` (a driver's rows count as its joint)."""
    res = system.residuals(Y)[0]
    phi = np.abs(system.W.phi)
    angular = np.isin(system.S.row_prim, ANGULAR_PRIMS)
    gaps = {}
    for r in system.active_rows:
        name = system.joint_name_of_row(r)
        scaled, length, angle = gaps.get(name, (0.0, 0.0, 0.0))
        gaps[name] = (max(scaled, res[r]), length if angular[r] else max(length, phi[r]),
                      max(angle, phi[r]) if angular[r] else angle)
    return gaps


def _gap_text(gap):
    return "%.4g mm, %.4g deg" % (gap[1] * 1e3, math.degrees(gap[2]))


def _assembly_failure(system, Y0, Y, res, iterations, tol=1e-6, when="t0"):
    """The ``AssemblyError`` of a failed projection, naming the elements at fault: of the
    joints whose rows disagree (``_conflicting_rows``; else those left violated), the
    ones not met as the model places its bodies, largest gap first, and the joints they
    conflict with. A joint that holds as placed conflicts only through the others (one
    misaligned pick in a closed loop leaves every joint of the loop unmet after a
    least-squares projection, but only the misaligned one was open to start with).
    When the joints hold without the drivers and couplers, the smallest set of these
    that conflicts (``minimal_conflict``) is named instead of the whole loop."""
    rows = np.nonzero(_conflicting_rows(system, Y))[0]
    if not len(rows):
        rows = np.nonzero(res > tol)[0] if (res > tol).any() else [int(np.argmax(res))]
    conflict = {system.joint_name_of_row(r) for r in rows}
    before, after = _joint_gaps(system, Y0), _joint_gaps(system, Y)
    head = ("the joints cannot be assembled at %s (residual %.3g after %d iterations)"
            % (when, res.max(), iterations))
    found = minimal_conflict(system, Y0) if len(conflict) > 2 else None
    if found:
        gaps = ["%s (%s off as the others hold)" % (n, _gap_text(gap)) for n, gap in found]
        if len(found) == 1:
            text = "%s cannot be met with the joints %s" % (gaps[0], ", ".join(
                sorted(conflict - set(_driver_and_coupler_names(system)))))
        else:
            text = "%s conflicts with %s" % (gaps[0], gaps[1])
            if len(found) > 2:
                text += " (and %s)" % ", ".join(gaps[2:])
        return AssemblyError("%s: %s; the joints hold without %s" % (
            head, text, "it" if len(found) == 1 else "them"), joints=[n for n, _ in found])
    open_ = sorted((n for n in conflict if before[n][0] > tol), key=lambda n: -before[n][0])
    if open_:
        others = sorted(conflict - set(open_))
        text = "; ".join("%s (frames %s apart as placed)" % (n, _gap_text(before[n]))
                         for n in open_)
        if others:
            text += "; conflicting with %s, which hold as placed" % ", ".join(others)
        return AssemblyError("%s: not met: %s" % (head, text), joints=open_ + others)
    ranked = sorted(conflict, key=lambda n: -after[n][0])
    return AssemblyError("%s; failing: %s" % (head, ", ".join(
        "%s (%s apart after assembly)" % (n, _gap_text(after[n])) for n in ranked)),
        joints=ranked)


#: the conflict search runs on models of at most this many moving bodies ...
CONFLICT_MAX_BODIES = 60
#: ... and makes at most this many trial assemblies (each a few dense Newton steps)
CONFLICT_MAX_TRIALS = 40


def _driver_and_coupler_names(system):
    """The names of the drivers, then of the couplers, in model order."""
    return [d.name for d in system.drivers] + [c.name for c in system.couplers]


def _holds(system, Y0, rows, tol=1e-10, max_iter=30):
    """The state that meets the constraint rows ``rows`` (system rows) alone, found from
    ``Y0`` by the Newton iteration of ``assemble`` restricted to these rows, with the
    mass-weighted least-norm step computed densely (a least-squares step where rows are
    redundant) and the same step (``_descend``); None when the residual stops falling
    above ``tol``."""
    nb = system.nb
    act = system.active_rows
    sel = np.searchsorted(act, rows)
    scale = system.S.row_scale[rows]
    msq = np.sqrt(system.mass_matrix_inverse().reshape(-1))
    Y = Y0
    res = system.residuals(Y)[0][rows]
    for _ in range(max_iter):
        if res.max(initial=0.0) <= tol:
            return Y
        phi, J, _ = system.constraint_state(Y)
        A = J[sel] * scale[:, None] * msq[None, :]
        x = np.linalg.lstsq(A, -phi[sel] * scale, rcond=1e-10)[0]
        dq = (msq * x).reshape(nb, 6)
        Yn, resn = _descend(Y, nb, dq, res, lambda Yt: system.residuals(Yt)[0][rows])
        if not resn.max(initial=0.0) < res.max(initial=0.0):
            return None
        Y, res = Yn, resn
    return Y if res.max(initial=0.0) <= tol else None


def _descend(Y, nb, dq, res, residual):
    """The Newton step of the projections: retract ``Y`` along ``dq``, halving the step
    from 1 until ``residual`` (a function of the state) falls below ``res`` or the step
    is under 1e-4; ``(state, its residuals)`` of the last step tried (``residual`` gives
    an array of residuals, ``res`` the current one; their largest entries are compared)."""
    worst = res.max(initial=0.0)
    step = 1.0
    while True:
        Yn = retract(Y, nb, dq, step)
        resn = residual(Yn)
        if resn.max(initial=0.0) < worst or step < 1e-4:
            return Yn, resn
        step *= 0.5


def minimal_conflict(system, Y0):
    """The smallest set of drivers and couplers that cannot be met together with all the
    joints from ``Y0``, in model order (drivers, then couplers): ``[(name, gap)]``,
    ``gap`` the element's ``_joint_gaps`` entry where the joints and the other members
    hold. None when the joints alone cannot be met, the drivers and couplers can, or the
    model is too large for the search (``CONFLICT_MAX_BODIES``, ``CONFLICT_MAX_TRIALS``).

    The search of QuickXplain (Junker 2004) in its linear form, with the joints as
    background: add the candidates one at a time until the assembly fails (the last one
    added belongs to the conflict), then drop each earlier one whose removal keeps the
    failure (the deletion filter). What is left conflicts, and removing any one member
    of it lets the rest assemble."""
    if system.nb > CONFLICT_MAX_BODIES:
        return None
    rows_of = {}
    for r in system.active_rows:
        rows_of.setdefault(system.joint_name_of_row(r), []).append(int(r))
    order = _driver_and_coupler_names(system)
    candidates = [n for n in order if n in rows_of]
    background = [r for n, rs in rows_of.items() if n not in order for r in rs]
    # trials: the joints; one per candidate added, dropped, and for each member's gap
    if not candidates or 1 + 3 * len(candidates) > CONFLICT_MAX_TRIALS:
        return None
    tried = {}

    def holds(members):
        key = tuple(members)
        if key not in tried:
            rows = np.array(sorted(background + [r for n in members for r in rows_of[n]]),
                            dtype=np.int64)
            tried[key] = _holds(system, Y0, rows)
        return tried[key]

    if holds([]) is None:
        return None
    chosen = []
    for n in candidates:
        chosen.append(n)
        if holds(chosen) is None:
            break
    else:
        return None
    for n in list(chosen[:-1]):
        rest = [m for m in chosen if m != n]
        if holds(rest) is None:
            chosen = rest
    out = []
    for n in chosen:
        Y = holds([m for m in chosen if m != n])
        out.append((n, _joint_gaps(system, Y0 if Y is None else Y)[n]))
    return out


def diagnose(system, Y, when):
    """The ``AssemblyError`` of projecting ``Y`` onto the constraints at ``when`` (e.g.
    "t = 0.5 s", the loads and drivers already set for it), or None when it assembles:
    what a run that stopped on a constraint violation says about it. The system's
    redundant rows and regularisation are left as they were."""
    saved = (system.redundant.copy(), system.S)
    try:
        assemble(system, Y, when=when)
    except AssemblyError as exc:
        return exc
    finally:
        system.redundant, system.S = saved
    return None


#: scaled residual below which a row that is dependent before the projection counts as a
#: (consistent) redundant equation
REDUNDANT_RESIDUAL = 1e-6


def assemble(system, Y, tol=1e-11, max_iter=60, when="t0"):
    """Return a consistent copy of ``Y`` and an ``AssemblyReport``.

    Raises ``AssemblyError`` naming the joints whose constraints stay violated
    (``when``: the time the message gives, "t0" or e.g. "t = 0.5 s").
    """
    S = system.S
    nb = S.nb
    report = AssemblyReport(system.body_names)
    Y = np.array(Y, dtype=float)
    if S.nrows == 0:
        return Y, report
    Y0 = Y.copy()
    res = system.residuals(Y)[0]
    if system.find_redundant_rows(Y):
        # A row that is dependent at Y but not satisfied there marks a singular
        # configuration (e.g. a distance joint whose point moves across its line), not
        # a redundant equation: it keeps the small eps, so that the Newton steps can
        # leave that configuration instead of being damped away along it.
        system.redundant &= res <= REDUNDANT_RESIDUAL
        system.set_regularization(system.regularization)
    report.residual_before = float(res.max())
    it = 0
    while res.max() > tol and it < max_iter:
        it += 1
        dq = correction(system, system.W.phi.copy())
        Yn, resn = _descend(Y, nb, dq, res, lambda Yt: system.residuals(Yt)[0])
        if not resn.max() < res.max():
            break
        Y, res = Yn, resn
    report.iterations = it
    report.residual_after = float(res.max())
    if res.max() > max(1e3 * tol, 1e-8):
        raise _assembly_failure(system, Y0, Y, res, it, when=when)
    # rows that are redundant in the assembled pose get their own (large) eps
    system.find_redundant_rows(Y)
    system.set_regularization(system.regularization)
    # velocities
    for b in range(nb):
        p = 7 * b
        report.translation[b] = np.linalg.norm(Y[p:p + 3] - Y0[p:p + 3])
        dot = abs(float(np.dot(Y[p + 3:p + 7], Y0[p + 3:p + 7])))
        report.rotation[b] = 2.0 * math.acos(min(1.0, dot))
    off = 7 * nb
    for it in range(2):
        vres = system.residuals(Y)[1]
        if it == 0:
            report.velocity_residual_before = float(vres.max())
        if vres.max() <= tol:
            break
        dv = correction(system, system.W.phidot.copy())
        Y[off:] += dv.reshape(-1)
    report.velocity_residual_after = float(system.residuals(Y)[1].max())
    dvel = (Y[off:] - Y0[off:]).reshape(nb, 6)
    report.velocity_change = np.linalg.norm(dvel[:, :3], axis=1)
    report.angular_velocity_change = np.linalg.norm(dvel[:, 3:], axis=1)
    return Y, report
