"""Kinematic analysis of a fully driven mechanism (Haug 1989, ch. 5; Nikravesh 1988,
ch. 3.6; docs/theory.md, "Kinematic analysis").

When the drivers take up every degree of freedom, ``Phi(q, t) = 0`` alone fixes the
motion: at each output time the positions solve ``Phi(q, t) = 0`` by Newton-Raphson
(mass-weighted least-norm steps, i.e. least squares for redundant equations,
``assembly.assemble``), started from the previous sample moved on by its velocity;
the velocities solve ``Phi_q q_dot = nu`` and the accelerations
``Phi_q q_ddot = gamma``. Inverse dynamics then gives the multipliers from
``M q_ddot + Phi_q^T lambda = Q``: with ``Phi_q`` of full column rank the
constraint-force solve of the dynamic evaluator returns exactly these
accelerations and multipliers (the Baumgarte terms vanish on a consistent state),
so the post-processing of a dynamic run (``Result.from_run``) gives the reactions
and the driver efforts, in the same ``Result``.
"""
import time as _time

import numpy as np

from . import kernels
from .assembly import assemble, correction, retract
from .blas import one_thread
from .diagnostics import driver_warnings
from .errors import AssemblyError, ModelError, SimulationCancelled, SimulationError
from .result import Result
from .simulation import check_positive, time_span, output_times

__all__ = ["kinematic", "free_dof", "run_analysis", "ANALYSES"]

#: analysis kinds: integrate the equations of motion, or solve a fully driven mechanism
ANALYSES = ("dynamic", "kinematic")


def run_analysis(model, settings, analysis="dynamic", progress=None):
    """Run ``model`` with the keyword arguments of ``Model.simulate`` (``settings``):
    a dynamic simulation, or (``analysis="kinematic"``) a kinematic analysis over the
    same ``t0``, ``t_end`` and ``output_dt`` (the integrator settings unused). What the
    runner and parameter studies call, so a study's mode means the same in both."""
    if analysis not in ANALYSES:
        raise ModelError("unknown analysis %r; valid: %s" % (analysis, ", ".join(ANALYSES)))
    one_thread()                      # the same bits in every process (solver/blas.py)
    if analysis == "dynamic":
        return model.simulate(progress=progress, **settings)
    t0 = float(settings.get("t0", 0.0) or 0.0)
    t_end = settings["t_end"]
    out = settings.get("output_dt") or (float(t_end) - t0) / 1000.0
    return model.kinematic(t_end=t_end, output_dt=out, t0=t0, progress=progress)

#: relative singular-value threshold of the rank of Phi_q (scaled rows)
RANK_TOL = 1e-8
#: Newton tolerance of the position equations (scaled |Phi|, as the assembly's) and the
#: most iterations per sample before the full assembly (step control, redundancy
#: detection, diagnosis) takes over
NEWTON_TOL = 1e-11
NEWTON_MAX = 8


def _newton(system, Y):
    """Plain Newton-Raphson on Phi(q, t) = 0 from ``Y`` (the loads/drivers already set),
    then the velocity projection Phi_q q_dot = nu. Returns (Y, iterations) or None when
    it does not converge quadratically (the caller falls back to ``assemble``). The
    redundant rows found at t0 keep their regularisation (least-squares steps)."""
    nb = system.nb
    off = 7 * nb
    res = system.residuals(Y)[0]
    it = 0
    while res.max(initial=0.0) > NEWTON_TOL:
        if it >= NEWTON_MAX:
            return None
        dq = correction(system, system.W.phi.copy())
        Yn = retract(Y, nb, dq, 1.0)
        resn = system.residuals(Yn)[0]
        if not resn.max() < res.max():
            return None
        Y, res = Yn, resn
        it += 1
    for _ in range(2):
        vres = system.residuals(Y)[1]
        if vres.max(initial=0.0) <= NEWTON_TOL:
            break
        Y = Y.copy()
        Y[off:] += correction(system, system.W.phidot.copy()).reshape(-1)
    return Y, it


def free_dof(system, Y):
    """Degrees of freedom left by all constraint rows (joints and drivers) at ``Y``:
    ``6 nb - rank(Phi_q)`` (redundant rows do not count)."""
    _phi, J, _g = system.constraint_state(Y)
    if J.shape[0] == 0:
        return 6 * system.nb
    A = J * system.S.row_scale[system.active_rows][:, None]
    A /= np.maximum(np.linalg.norm(A, axis=1), 1e-300)[:, None]
    s = np.linalg.svd(A, compute_uv=False)
    rank = int((s > RANK_TOL * max(s.max(initial=0.0), 1e-300)).sum())
    return 6 * system.nb - rank


def kinematic(model, t_end, output_dt, t0=0.0, progress=None):
    """Kinematic analysis from ``t0`` to ``t_end``, one sample every ``output_dt``:
    a ``Result`` like ``simulate``'s (positions, velocities, accelerations,
    reactions, driver efforts). Raises ``ModelError`` when degrees of freedom are
    left undriven, ``SimulationError`` (with the samples so far) when the
    position equations have no solution at some time (e.g. a driver pushes the
    mechanism past a dead point)."""
    t0, t_end = time_span(t0, t_end)
    output_dt = check_positive(output_dt, "output_dt")
    if not model.bodies:
        raise ModelError("the model has no moving bodies")
    system = model.compile(alpha=0.0, beta=0.0)
    times = output_times(t0, t_end, output_dt)
    system.set_loads(t0)
    Y, report = assemble(system, system.y0.copy())
    dof = free_dof(system, Y)
    if dof > 0:
        raise ModelError(
            "kinematic analysis needs every degree of freedom driven: %d degree(s) of freedom "
            "remain with the %d driver(s) (%s); add drivers or run a dynamic simulation"
            % (dof, len(model.drivers), ", ".join(d.name for d in model.drivers) or "none"))
    warnings = driver_warnings(system)
    nb = system.nb
    off = 7 * nb
    Ys = np.zeros((len(times), len(Y)))
    Ys[0] = Y
    done = 1
    error = None
    wall0 = _time.perf_counter()
    last = wall0
    newton = report.iterations
    for m in range(1, len(times)):
        h = times[m] - times[m - 1]
        system.set_loads(times[m - 1])
        # predictor: move on with the previous velocities and accelerations
        kernels.evaluate(float(times[m - 1]), Ys[m - 1], system.S, system.W)
        vel = Ys[m - 1][off:].reshape(nb, 6)
        dq = vel + 0.5 * h * system.W.acc
        Yp = retract(Ys[m - 1], nb, dq, h)
        Yp[off:] += h * system.W.acc.reshape(-1)
        system.set_loads(times[m])
        fast = _newton(system, Yp)
        if fast is not None:
            Ym, iters = fast
        else:
            try:
                Ym, rep = assemble(system, Yp, when="t = %.6g s" % times[m])
            except AssemblyError as exc:
                error = (SimulationError, "kinematic analysis stopped at t=%.6g s: the position "
                         "equations have no solution (%s)" % (times[m], exc), times[m])
                break
            iters = rep.iterations
        newton += iters
        Ys[m] = Ym
        done = m + 1
        if progress is not None and _time.perf_counter() - last > 0.1:
            last = _time.perf_counter()
            answer = progress(float(times[m]), float(times[-1]))
            if answer is not None and not answer:
                error = (SimulationCancelled, "kinematic analysis cancelled at t=%.6g s"
                         % times[m], times[m])
                break
    settings = dict(method="kinematic", dt=None, output_dt=output_dt, alpha=0.0, beta=0.0,
                    t0=t0, t_end=t_end, newton_iterations=int(newton),
                    redundant_rows=int(system.redundant.sum()),
                    wall_time=_time.perf_counter() - wall0, steps=done - 1, nfev=0)
    result = Result.from_run(system, times[:done], Ys[:done], report, settings)
    result.warnings = warnings
    if error is not None:
        cls, msg, t_fail = error
        raise cls(msg, time=t_fail, result=result)
    return result
