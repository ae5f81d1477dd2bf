"""Running a model: settings check, assembly, the time loop, results."""
import math
import time as _time

import numpy as np

from . import kernels, stability, warmup
from .assembly import assemble as _assemble, diagnose
from .impacts import ImpactStops
from .diagnostics import driver_warnings, run_warnings
from .errors import ModelError, SimulationCancelled, SimulationError
from .forces import OUT_X, PAR_STOP
from .integrators import method_info
from .result import Result

__all__ = ["simulate", "output_times", "baumgarte_constants", "check_positive", "time_span",
           "check_counts", "MAX_STEPS", "MAX_SAMPLES"]

#: Fixed-step integration runs in chunks of about this much wall time between
#: progress reports (and cancel checks).
CHUNK_SECONDS = 0.1
#: the most steps a run may take (1e10 steps of the smallest model take hours)
MAX_STEPS = 10 ** 10
#: the most output samples a run may store (each a whole state vector)
MAX_SAMPLES = 10 ** 7
#: the largest piece of an output interval one kernel call integrates (between two
#: progress reports and cancel checks), in evaluations of a one-body model; a model of
#: ``nb`` bodies gets ``PIECE_EVALUATIONS / nb`` steps (at least 16)
PIECE_EVALUATIONS = 2 ** 14


def check_positive(value, what):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ModelError("%s must be a positive number, got %r" % (what, value)) from None
    if not math.isfinite(v) or v <= 0.0:
        raise ModelError("%s must be finite and positive, got %r" % (what, value))
    return v


def time_span(t0, t_end):
    """``(t0, t_end)`` as floats: ``t0`` finite, ``t_end`` positive and after it."""
    t0 = float(t0)
    if not math.isfinite(t0):
        raise ModelError("t0 must be finite, got %r" % (t0,))
    t_end = check_positive(t_end, "t_end")
    if t_end <= t0:
        raise ModelError("t_end (%g) must be after t0 (%g)" % (t_end, t0))
    return t0, t_end


def baumgarte_constants(baumgarte=None, time_constant=None, damping_ratio=1.0, dt=None):
    """(alpha, beta) from explicit constants or a time constant and damping ratio.

    ``beta = 1/time_constant`` is the natural frequency of the constraint error
    dynamics ``Phi'' + 2 alpha Phi' + beta^2 Phi = 0`` and
    ``alpha = damping_ratio * beta``.
    """
    if baumgarte is not None:
        try:
            alpha, beta = (float(x) for x in baumgarte)
        except (TypeError, ValueError):
            raise ModelError("baumgarte must be (alpha, beta), got %r" % (baumgarte,)) from None
        if not (math.isfinite(alpha) and math.isfinite(beta)) or alpha < 0 or beta < 0:
            raise ModelError("baumgarte constants must be finite and >= 0, got %r" % (baumgarte,))
        return alpha, beta
    if time_constant is None:
        time_constant = max(0.02, 5.0 * dt) if dt else 0.02
    tc = check_positive(time_constant, "time_constant")
    zeta = float(damping_ratio)
    if not math.isfinite(zeta) or zeta < 0.0:
        raise ModelError("damping_ratio must be finite and >= 0, got %r" % (damping_ratio,))
    return zeta / tc, 1.0 / tc


def check_counts(t0, t_end, dt, output_dt):
    """``ModelError`` unless a run over ``t0 .. t_end`` with steps ``dt`` (or None) and
    samples every ``output_dt`` is representable: at most ``MAX_STEPS`` steps, at most
    ``MAX_SAMPLES`` samples, and a step that advances the time in floating point."""
    span = t_end - t0
    samples = span / output_dt
    if not math.isfinite(samples) or samples > MAX_SAMPLES:
        raise ModelError("output_dt = %g s gives %.3g output samples over t = %g .. %g s; at "
                         "most %.0e are stored (choose a larger output_dt)"
                         % (output_dt, samples, t0, t_end, MAX_SAMPLES))
    if dt is None:
        return
    steps = span / dt
    if not math.isfinite(steps) or steps > MAX_STEPS:
        raise ModelError("dt = %g s needs %.3g steps over t = %g .. %g s; at most %.0e "
                         "(choose a larger dt)" % (dt, steps, t0, t_end, MAX_STEPS))
    t_max = max(abs(t0), abs(t_end))
    if t_max + dt == t_max or t_max + 0.5 * dt == t_max:
        raise ModelError("dt = %g s is below the resolution of the time near t = %g s "
                         "(floating point): the time would not advance (choose a larger dt)"
                         % (dt, t_max))


def output_times(t0, t_end, output_dt):
    """Output sample times t0, t0 + output_dt, ..., always ending exactly at t_end."""
    n = int(math.floor((t_end - t0) / output_dt + 1e-9))
    ts = t0 + output_dt * np.arange(n + 1)
    if n == 0 or t_end - ts[-1] > 1e-9 * max(1.0, abs(t_end)):
        ts = np.append(ts, t_end)
    else:
        ts[-1] = t_end
    return ts


def simulate(model, t_end, dt=None, method="rk4", output_dt=None, rtol=1e-8, atol=1e-10,
             t0=0.0, baumgarte=None, time_constant=None, damping_ratio=1.0, regularization=1e-12,
             assemble=True, progress=None, violation_limit=0.5):
    info = method_info(method)
    t0, t_end = time_span(t0, t_end)
    if info.fixed_step:
        if dt is None:
            raise ModelError("method %r needs a step dt" % info.name)
        dt = check_positive(dt, "dt")
    elif dt is not None:
        dt = check_positive(dt, "dt")
    if output_dt is None:
        output_dt = max(dt or 0.0, (t_end - t0) / 1000.0)
    output_dt = check_positive(output_dt, "output_dt")
    check_counts(t0, t_end, dt, output_dt)
    if not info.fixed_step:
        rtol = check_positive(rtol, "rtol")
        atol = check_positive(atol, "atol")
    regularization = check_positive(regularization, "regularization")
    violation_limit = check_positive(violation_limit, "violation_limit")
    if not model.bodies:
        raise ModelError("the model has no moving bodies")
    impulsive = [e for e in getattr(model, "force_elements", ()) if e.is_impulsive]
    if impulsive and not info.fixed_step:
        raise ModelError("end stop %r has the impulsive law: its impacts are located in the "
                         "steps of a fixed-step method (rk4, euler, symplectic_euler), not of "
                         "%s; choose one, or the compliant law" % (impulsive[0].name, info.name))
    alpha, beta = baumgarte_constants(baumgarte, time_constant, damping_ratio, dt)

    # compile (first use) or load the kernels for this model's block size first, so
    # that their time is reported apart from the solve's
    compiled0 = warmup.kernels_compiled()
    block_size = warmup.model_block_size(model)
    compile_time = warmup.ensure(block_size, adaptive=not info.fixed_step,
                                 model_class=type(model))
    # the inlined loop when it is ready or cached, else the plain one ensure prepared
    stepper, stepper_name, loading = warmup.fixed_step_kernel(block_size, type(model)) \
        if info.fixed_step else (None, None, 0.0)
    compile_time += loading
    kernels_compiled = warmup.kernels_compiled() - compiled0    # 0: loaded from the cache
    system = model.compile(alpha=alpha, beta=beta, regularization=regularization)
    Y0 = system.y0.copy()
    report = None
    system.set_loads(t0)       # time-dependent values (drivers) at t0 for the assembly
    if assemble:
        Y0, report = _assemble(system, Y0)      # also finds the redundant rows
    elif system.find_redundant_rows(Y0):
        system.set_regularization(regularization)
    step_warnings = []
    if info.fixed_step:
        step_warnings, refusal = stability.step_check(system, Y0, t0, t_end, dt, info.name)
        if refusal is not None:
            raise ModelError(refusal)
    times = output_times(t0, t_end, output_dt)
    settings = dict(method=info.name, dt=dt, output_dt=output_dt, rtol=rtol, atol=atol,
                    alpha=alpha, beta=beta, regularization=regularization,
                    t0=t0, t_end=t_end, compile_time=compile_time,
                    kernels_compiled=kernels_compiled, kernels=stepper_name)
    settings["redundant_rows"] = int(system.redundant.sum())
    system.W.stats[:] = 0.0
    system.set_work_state(np.zeros(system.nwork))
    wall0 = _time.perf_counter()
    if impulsive:
        run = _ImpactRun(system, info, times, Y0, dt, violation_limit, progress, stepper)
    elif info.fixed_step:
        run = _FixedStepRun(system, info, times, Y0, dt, violation_limit, progress, stepper)
    else:
        run = _ScipyRun(system, info, times, Y0, dt, rtol, atol, violation_limit, progress)
    try:
        run.run()
    finally:
        settings["wall_time"] = _time.perf_counter() - wall0
        settings["steps"] = run.steps
        settings["nfev"] = run.nfev
        if info.fixed_step:
            # every output time is a step end: steps are dt or a little shorter
            # (much shorter when output_dt < dt)
            settings["step_max"] = float(run.hsub.max()) if len(run.hsub) else dt
            settings["step_min"] = float(run.hsub.min()) if len(run.hsub) else dt
        stats = system.W.stats.copy()
        nsolve = max(stats[kernels.STAT_SOLVES], 1.0)
        settings["refinement_steps_mean"] = float(stats[kernels.STAT_REFINE_SUM] / nsolve)
        settings["refinement_steps_max"] = int(stats[kernels.STAT_REFINE_MAX])
    result = Result.from_run(system, times[:run.done], run.Ys[:run.done], report, settings,
                             impacts=run.impacts)
    result.warnings = run_warnings(system, result, report, stats)
    result.warnings += driver_warnings(system)
    result.warnings += step_warnings
    if info.fixed_step:
        result.warnings += stability.contact_check(system, result, dt)
    if run.error is not None:
        cls, msg, t_fail = run.error
        raise cls(msg, time=t_fail, result=result)
    return result


class _Run:
    def __init__(self, system, info, times, Y0, violation_limit, progress):
        self.system = system
        self.info = info
        self.times = times
        #: per output sample the state, then the work since t0 (``System.work_state``)
        self.ny = len(Y0)
        self.Ys = np.zeros((len(times), len(Y0) + system.nwork))
        self.Ys[0, :self.ny] = Y0
        self.done = 1
        self.steps = 0
        self.nfev = 0
        self.violation_limit = violation_limit
        self.progress = progress
        self.error = None
        self.impacts = None     # ImpactStops of a run with impulsive end stops

    def _report(self, t):
        if self.progress is None:
            return True
        answer = self.progress(float(t), float(self.times[-1]))
        if answer is not None and not answer:    # None (no answer) means go on
            self.error = (SimulationCancelled, "simulation cancelled at t=%.6g s" % t, t)
            return False
        return True

    def _violation_error(self, t, res, Y):
        """Name the joint with the largest violation (``res``: scaled |Phi| per row at the
        state ``Y``) and, when the constraints have no solution there (e.g. drivers that
        drift apart), the elements that conflict (``assembly.diagnose``)."""
        r = int(np.nanargmax(np.where(np.isfinite(res), res, np.inf)))
        text = ("integration stopped at t=%.6g s: constraint violation %.3g exceeds the limit "
                "%.3g, worst at joint %r (step too large, or the mechanism locks or is "
                "driven past a singular position)"
                % (t, res[r], self.violation_limit, self.system.joint_name_of_row(r)))
        if np.all(np.isfinite(Y)):
            self.system.set_loads(t)
            exc = diagnose(self.system, Y, "t = %.6g s" % t)
            if exc is not None:
                text += "; the constraints have no solution there: %s" % exc
        self.error = (SimulationError, text, t)

    def _nonfinite_error(self, t):
        self.error = (SimulationError,
                      "integration stopped at t=%.6g s: the state became NaN/Inf "
                      "(try a smaller step or check forces and inertia)" % t, t)


class _FixedStepRun(_Run):
    def __init__(self, system, info, times, Y0, dt, violation_limit, progress, stepper):
        super().__init__(system, info, times, Y0, violation_limit, progress)
        self.stepper = stepper      # kernels.integrate_fixed or its inlined variant
        spans = np.diff(times)
        self.nsub = np.maximum(1, np.ceil(spans / dt - 1e-9)).astype(np.int64)
        self.hsub = spans / self.nsub
        self.most = max(16, PIECE_EVALUATIONS // max(1, system.nb))
        self.plan = _pieces(times[:-1], self.nsub, self.hsub, self.most)

    def run(self):
        sysm = self.system
        Y = self.Ys[0, :self.ny].copy()
        tstart_all, nsub_all, hsub_all, ends = self.plan
        npiece = len(nsub_all)
        split = npiece > len(self.nsub)
        # the states (and work) at the pieces' ends; stored in place when no interval is cut
        scratch = np.zeros((npiece, self.Ys.shape[1])) if split else self.Ys[1:]
        k = 0
        # the first kernel call, before its speed is known: at most 2000 steps, and no
        # more evaluations than a piece (a model of many bodies reports early too)
        chunk = max(1, min(npiece, int(min(2000, self.most) // max(1, nsub_all[0]))))
        while k < npiece:
            kend = min(npiece, k + chunk)
            nsub = nsub_all[k:kend]
            hsub = hsub_all[k:kend]
            tstart = tstart_all[k:kend]
            if sysm.has_timed_inputs:
                tt = np.concatenate([ts + 0.5 * h * np.arange(2 * n + 1)
                                     for ts, n, h in zip(tstart, nsub, hsub)])
                tab = sysm.load_table(tt)
            else:
                tab = np.zeros((1, 0, 3))
            out = scratch[k:kend]
            w0 = _time.perf_counter()
            status, ndone, t_stop, _viol = self.stepper(
                self.info.kernel_id, Y, tstart, nsub, hsub, sysm.S, sysm.W, tab, out,
                self.violation_limit)
            wall = _time.perf_counter() - w0
            self.steps += int(nsub[:ndone].sum())
            self.nfev += self.info.evals_per_step * int(nsub[:ndone].sum())
            if split:                                   # the pieces that end an interval
                done = ends[k:k + ndone]
                done_mask = done >= 0
                self.Ys[done[done_mask] + 1] = scratch[k:k + ndone][done_mask]
                if done_mask.any():
                    self.done = int(done[done_mask].max()) + 2
            else:
                self.done = k + 1 + ndone
            if status == 1:
                self._nonfinite_error(t_stop)
                return
            if status == 2:
                # detected at the start of a step: if that is the last stored
                # sample, it is not a good one
                if self.done > 1 and abs(t_stop - self.times[self.done - 1]) <= 1e-12 * max(
                        1.0, abs(t_stop)):
                    self.done -= 1
                self._violation_error(t_stop, sysm.residuals(Y)[0], Y)
                return
            k = kend
            if not self._report(tstart[-1] + nsub[-1] * hsub[-1]):
                return
            # aim for CHUNK_SECONDS of work per chunk
            per = wall / len(nsub)
            chunk = max(1, min(4 * chunk, int(CHUNK_SECONDS / max(per, 1e-9))))


class _ImpactRun(_FixedStepRun):
    """The fixed-step loop of a model with impulsive end stops: each piece through
    ``ImpactStops.advance``, which locates the impacts in its steps (``impacts``)."""

    def run(self):
        sysm = self.system
        stops = self.impacts = ImpactStops(sysm, self.stepper, self.info.kernel_id,
                                           self.violation_limit)
        Y = self.Ys[0, :self.ny].copy()
        last = _time.perf_counter()
        for t0, n, h, end in zip(*self.plan):
            try:
                status, t_stop = stops.advance(Y, t0, int(n), h)
            except SimulationError as exc:
                self.error = (SimulationError, str(exc), exc.time)
                return
            finally:
                self.steps = stops.steps
                self.nfev = self.info.evals_per_step * stops.steps
            if status == 1:
                self._nonfinite_error(t_stop)
                return
            if status == 2:
                self._violation_error(t_stop, sysm.residuals(Y)[0], Y)
                return
            if end >= 0:
                self.Ys[end + 1, :self.ny] = Y
                self.Ys[end + 1, self.ny:] = sysm.work_state()
                self.done = int(end) + 2
            now = _time.perf_counter()
            if now - last > CHUNK_SECONDS:
                last = now
                if not self._report(t0 + n * h):
                    return
        self._report(self.times[-1])


def _pieces(tstart, nsub, hsub, most):
    """The output intervals (starting at ``tstart``, ``nsub`` steps of ``hsub``) cut into
    pieces of at most ``most`` steps, so that no kernel call runs unbounded between two
    cancel checks: ``(tstart, nsub, hsub, ends)`` per piece, ``ends[p]`` the interval piece
    ``p`` ends, or -1. Intervals of at most ``most`` steps stay whole (one piece each)."""
    if len(nsub) == 0 or nsub.max() <= most:
        return tstart, nsub, hsub, np.arange(len(nsub), dtype=np.int64)
    cuts = (nsub + most - 1) // most
    interval = np.repeat(np.arange(len(nsub)), cuts)
    first = np.cumsum(cuts) - cuts                      # index of each interval's first piece
    j = np.arange(len(interval)) - first[interval]       # piece number within its interval
    steps = np.minimum(most, nsub[interval] - j * most).astype(np.int64)
    h = hsub[interval]
    starts = tstart[interval] + (j * most) * h
    ends = np.where(j == cuts[interval] - 1, interval, -1).astype(np.int64)
    return starts, steps, h, ends


class _ScipyRun(_Run):
    def __init__(self, system, info, times, Y0, dt, rtol, atol, violation_limit, progress):
        super().__init__(system, info, times, Y0, violation_limit, progress)
        self.dt = dt
        self.rtol = rtol
        self.atol = atol

    def run(self):
        import scipy.integrate as si

        sysm = self.system
        cls = getattr(si, self.info.scipy_class)

        ny = self.ny
        W = sysm.W
        # the end stops' unwrapped angles at the last accepted state: each evaluation
        # unwraps about them, not about the last trial stage (a rejected step's stages may
        # lie more than half a turn away)
        x_acc = W.frc_out[:, OUT_X].copy()
        stops = bool(np.any(sysm.S.frc_par[:, PAR_STOP] != 0.0))

        def fun(t, y):      # the state's rate, then the powers (the work since t0)
            self.nfev += 1
            W.frc_out[:, OUT_X] = x_acc
            dy = sysm.evaluate(t, y[:ny])
            return np.concatenate([dy, sysm.work_rates()]) if len(y) > ny else dy

        kw = dict(rtol=self.rtol, atol=self.atol)
        if self.dt is not None:
            kw["max_step"] = self.dt
        solver = cls(fun, self.times[0], self.Ys[0].copy(), self.times[-1], **kw)
        nb = sysm.nb
        last_report = _time.perf_counter()
        while self.done < len(self.times):
            msg = solver.step()
            self.steps += 1
            if solver.status == "failed":
                self.error = (SimulationError, "integration stopped at t=%.6g s: %s (%s)"
                              % (solver.t, msg, self.info.name), solver.t)
                return
            y = solver.y
            if not np.all(np.isfinite(y)):
                self._nonfinite_error(solver.t)
                return
            if stops:
                W.frc_out[:, OUT_X] = x_acc
                sysm.evaluate(solver.t, y[:ny])
                x_acc[:] = W.frc_out[:, OUT_X]
            res = sysm.residuals(y[:ny])[0]
            if not res.max(initial=0.0) <= self.violation_limit:
                self._violation_error(solver.t, res, y[:ny])
                return
            if self.done < len(self.times) and self.times[self.done] <= solver.t:
                dense = solver.dense_output()
                while self.done < len(self.times) and self.times[self.done] <= solver.t:
                    tk = self.times[self.done]
                    yk = y if tk == solver.t else dense(tk)
                    yk = np.array(yk, dtype=float)
                    for b in range(nb):
                        q = yk[7 * b + 3:7 * b + 7]
                        yk[7 * b + 3:7 * b + 7] = q / np.linalg.norm(q)
                    self.Ys[self.done] = yk
                    self.done += 1
            now = _time.perf_counter()
            if now - last_report > CHUNK_SECONDS:
                last_report = now
                if not self._report(solver.t):
                    return
            if solver.status == "finished" and self.done < len(self.times):
                # round-off at the end: take the final state
                self.Ys[self.done:] = y
                self.done = len(self.times)
        self._report(self.times[-1])
