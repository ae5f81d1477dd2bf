"""Impulsive end stops: impacts located in the fixed-step time loop, Newton's restitution.

An end stop with the impulsive law (``forces``: ``law="impulsive"``) is met as an
*impact*: a velocity jump in no time (Pfeiffer & Glocker 1996, ch. 7; Glocker 2001;
docs/theory.md "Impulsive end stops"). For each fixed step the time loop
(``simulation``) integrates the steps of a piece as usual, then looks at the stops'
penetrations ``p`` (positive past a limit, ``forces.stop_penetrations``) at every step
end. Where one turns positive in a step, the step is taken again from its start with
the length ``tau`` found by the Illinois variant of regula falsi on ``p(tau)`` (the
integrator's own steps from the step's start; the bracket's end before the contact is
the state kept, so the stop never acts in the step). There, with the generalised
velocities ``v`` (body translation world, rotation body frame), the mass matrix ``M``,
the constraint Jacobian ``Phi_q`` and the row ``g_q`` of the penetration's rate
``p_dot = g_q v``, the impact equations::

    M (v+ - v-) = Phi_q^T Lambda + g_q^T Lambda_n
    Phi_q (v+ - v-) = 0
    g_q v+ = -e g_q v-

give the jump of the whole constrained system (every body of a chain takes its share),
solved through ``[Phi_q; g_q] M^-1 [Phi_q; g_q]^T [Lambda; Lambda_n] = [0; -(1 + e) g_q v-]``
(least squares: redundant rows are consistent). The step is then finished from the
impact's time. An approach slower than the stop's ``rest_speed`` is no impact: the
stop's contact law (the IMPACT force of the compliant stop, with its stiffness and
damping) takes the body from there and carries a body resting on it -- no sequence of
ever smaller impacts (Zeno). Each impact is recorded: time, element, side, impact
speed, rebound speed and the kinetic energy it took, which is added to the stop's
dissipated energy in the run (``System.work_state``): the steps taken again from a
step's start begin with the work at that start.
"""
import numpy as np

from . import kernels
from .errors import SimulationError
from .forces import (EVT_REBOUND, EVT_SIDE, EVT_SPEED, NEVT, OUT_ED, OUT_X, OUT_XDOT,
                     stop_penetrations)

__all__ = ["ImpactStops", "impact_jump", "MAX_IMPACTS_PER_STEP"]

#: the most impacts a stop may take within one output piece's step before the run stops
#: (impacts faster than ``rest_speed`` cannot accumulate without end)
MAX_IMPACTS_PER_STEP = 1000
#: the event time is located to this fraction of a step
LOCATE_RTOL = 1e-10
#: and the penetration at the state kept to this (m or rad)
LOCATE_ATOL = 1e-13
#: a step that starts on a stop, leaving it, is searched for its return on this many
#: points (a rebound shorter than 1/LOCATE_GRID of a step is taken by the contact law)
LOCATE_GRID = 8


def impact_jump(minv, jac, row, v, e):
    """The velocity jump ``v+ - v-`` of the impact equations (module docstring) for the
    generalised velocities ``v`` (n,), the diagonal ``minv`` (n,) of ``M^-1``, the
    constraint Jacobian ``jac`` (m, n), the rate row ``row`` (n,) of the penetration and
    the restitution ``e``; returns ``(dv, residual)``, ``residual`` the error of
    ``g_q v+ = -e g_q v-`` (not zero when the constraints keep the coordinate from
    moving: the stop's joint is driven or locked)."""
    G = np.vstack([jac, row[None, :]])
    K = (G * minv) @ G.T
    b = np.zeros(len(G))
    approach = float(row @ v)
    b[-1] = -(1.0 + e) * approach
    lam = np.linalg.lstsq(K, b, rcond=None)[0]
    dv = minv * (G.T @ lam)
    return dv, float(row @ (v + dv)) + e * approach


class ImpactStops:
    """The impulsive stops of a system and the impacts of a run (``advance``)."""

    def __init__(self, system, stepper, kernel_id, violation_limit):
        self.system = system
        self.stepper = stepper
        self.kernel_id = kernel_id
        self.violation_limit = violation_limit
        elems = [e for e in system.model.force_elements if e.is_impulsive]
        self.index = np.array([e.index for e in elems], dtype=np.int64)
        self.names = [e.name for e in elems]
        self.restitution = np.array([e.params["restitution"] for e in elems])
        self.rest_speed = np.array([e.params["rest_speed"] for e in elems])
        self.par = system.S.frc_par[self.index]
        #: (stop, side) handed to the contact law at a slow approach, until it leaves
        self.held = np.zeros((len(elems), 2), dtype=bool)
        self.events = []          # rows [time, element, side, speed, rebound]
        self.losses = []          # (time, element, kinetic energy the impact took [J])
        self.steps = 0

    # ------------------------------------------------------------------ pieces
    def _table(self, t0, n, h):
        sysm = self.system
        if not sysm.has_timed_inputs:
            return np.zeros((1, 0, 3))
        ts = t0 + h * np.arange(n)
        return sysm.load_table((ts[:, None] + 0.5 * h * np.arange(3)).ravel())

    def _step(self, Y, t0, n, h, out):
        """``n`` steps of ``h`` from ``(t0, Y)`` (Y in place), each end to ``out``."""
        S, W = self.system.S, self.system.W
        status, ndone, t_stop, _viol = self.stepper(
            self.kernel_id, Y, t0 + h * np.arange(n), np.ones(n, dtype=np.int64),
            np.full(n, h), S, W, self._table(t0, n, h), out, self.violation_limit)
        self.steps += int(ndone)
        return status, int(ndone), t_stop

    def _coordinates(self, Ys, times):
        """(x, xdot) (m, nstops) of the stops' coordinates at the states ``Ys``."""
        S, W = self.system.S, self.system.W
        Ys = np.ascontiguousarray(Ys, dtype=float)
        tab = self.system.load_table(times) if self.system.has_timed_inputs else \
            np.zeros((len(Ys), 0, 3))
        out = np.zeros((len(Ys), S.frc_geom.shape[0], 3))
        kernels.force_outputs(np.asarray(times, dtype=float), Ys, S, W, tab, out)
        return out[:, self.index, OUT_X], out[:, self.index, OUT_XDOT]

    def _penetrations(self, x):
        """(m, nstops, 2) penetrations at the coordinates ``x`` (m, nstops)."""
        pen = np.empty(x.shape + (2,))
        for s in range(len(self.index)):
            for side, p in stop_penetrations(self.par[s], x[:, s]):
                pen[:, s, side] = p
        return pen

    # ------------------------------------------------------------------ the loop
    def advance(self, Y, ta, n, h):
        """Integrate ``(ta, Y)`` by ``n`` steps of ``h`` (``Y`` in place), with the
        impacts of the impulsive stops on the way (after one, the rest of the span in as
        many steps, ending at ``ta + n h``); ``(status, t)`` of the stepper (0: done;
        1, 2: as ``kernels.integrate_fixed``)."""
        sysm = self.system
        ny = len(Y)
        tb = ta + n * h
        impacts = 0
        while n > 0:
            Y0 = np.concatenate([Y, sysm.work_state()])
            out = np.zeros((n, len(Y0)))    # the states, then the work (System.work_state)
            status, ndone, t_stop = self._step(Y, ta, n, h, out)
            if ndone == 0:
                return status, t_stop
            states_work = np.vstack([Y0[None, :], out[:ndone]])
            states = states_work[:, :ny]
            times = ta + h * np.arange(ndone + 1)
            x, _xdot = self._coordinates(states, times)
            pen = self._penetrations(x)
            cross = (pen[:-1] <= 0.0) & (pen[1:] > 0.0)
            cross[0] &= ~self.held
            steps = np.nonzero(cross.any(axis=(1, 2)))[0]
            if not len(steps):
                self._release(pen[1:])
                return status, t_stop
            j = int(steps[0])
            self._release(pen[1:j + 1])
            Y[:] = states[j]
            sysm.set_work_state(states_work[j, ny:])
            self.steps -= ndone - j
            t_event = self._impact(Y, times[j], h, cross[j])
            impacts += 1
            if impacts > MAX_IMPACTS_PER_STEP * max(1, n):
                raise SimulationError("integration stopped at t=%.6g s: the impulsive end "
                                      "stop(s) %s took more than %d impacts in a step (raise "
                                      "their rest_speed)" % (t_event, ", ".join(
                                          repr(s) for s in self.names), MAX_IMPACTS_PER_STEP),
                                      time=t_event)
            n -= j
            ta = t_event
            h = (tb - ta) / n
        return 0, tb

    def _release(self, pen):
        """Forget a slow approach's hold once the stop was left at a step end."""
        if len(pen):
            self.held &= ~(pen <= 0.0).any(axis=0)

    def _locate(self, Y, t0, h, mask):
        """The state just before the first contact of the (stop, side) ``mask`` within the
        step ``(t0, Y, h)``: ``(tau, state)`` by the Illinois method on the largest
        penetration among them after a step of ``tau`` from ``Y``; the work
        (``System.work_state``) is left at the one of that state."""
        ny = len(Y)
        sysm = self.system
        work0 = sysm.work_state()

        def f(tau):
            Yt = Y.copy()
            sysm.set_work_state(work0)
            if tau > 0.0:
                self._step(Yt, t0, 1, tau, np.zeros((1, ny)))
            x, xdot = self._coordinates(Yt[None, :], [t0 + tau])
            pen = self._penetrations(x)[0][mask]
            rate = np.stack([-xdot[0], xdot[0]], axis=-1)[mask]      # of the penetrations
            return float(pen.max()), np.concatenate([Yt, sysm.work_state()]), \
                float(rate.max())

        a = 0.0
        fa, Ya, rate = f(a)
        b, fb = h, f(h)[0]
        if rate < 0.0:
            # a step starting on the stop and leaving it (just after an impact) may come
            # back within the step: the contact is the later root; bracket it on a grid
            for k in range(1, LOCATE_GRID):
                c = h * k / LOCATE_GRID
                fc, Yc, _ = f(c)
                if fc > 0.0:
                    b, fb = c, fc
                    break
                a, fa, Ya = c, fc, Yc
        side = 0
        for _ in range(100):
            if b - a <= LOCATE_RTOL * h or -fa <= LOCATE_ATOL:
                break
            c = (a * fb - b * fa) / (fb - fa)
            if not a < c < b:
                c = 0.5 * (a + b)
            fc, Yc, _ = f(c)
            if fc > 0.0:
                b, fb = c, fc
                if side == -1:      # Illinois: halve the stale end's value
                    fa *= 0.5
                side = -1
            else:
                a, fa, Ya = c, fc, Yc
                if side == 1:
                    fb *= 0.5
                side = 1
        sysm.set_work_state(Ya[ny:])
        return a, Ya[:ny]

    def _impact(self, Y, t0, h, mask):
        """Locate the first contact in the step ``(t0, Y, h)``, apply its impulse (or hand
        a slow approach to the contact law) and record it; ``Y`` becomes the state after
        it; returns its time."""
        tau, Ya = self._locate(Y, t0, h, mask)
        t = t0 + tau
        Y[:] = Ya
        x, xdot = self._coordinates(Y[None, :], [t])
        pen = self._penetrations(x)[0]
        # the (stop, side) of the contact: the one of the mask closest to its limit
        cand = np.argwhere(mask)
        s, side = cand[int(np.argmax(pen[mask]))]
        sign = -1.0 if side == 0 else 1.0
        speed = sign * float(xdot[0, s])
        if speed < self.rest_speed[s]:
            self.held[s, side] = True
            return t
        self.jump(Y, t, s, side)
        return t

    def _rate_row(self, Y, t, s, sign):
        """``g_q``: the rate of the penetration per generalised velocity (it is linear in
        them: the coordinate rates at the state with unit velocities)."""
        nb = self.system.nb
        nv = 6 * nb
        Ys = np.repeat(Y[None, :], nv, axis=0)
        Ys[:, 7 * nb:13 * nb] = np.eye(nv)
        _x, xdot = self._coordinates(Ys, np.full(nv, t))
        self._coordinates(Y[None, :], [t])      # the unwrapped angle back at Y
        return sign * xdot[:, s]

    def jump(self, Y, t, s, side):
        """The impact of stop ``s`` (its index among the impulsive stops) on its limit
        ``side`` at the state ``(t, Y)``: ``Y``'s velocities jump (in place) by the
        solution of the impact equations; the event is recorded (its row returned)."""
        sysm = self.system
        nb = sysm.nb
        sign = -1.0 if side == 0 else 1.0
        v = Y[7 * nb:13 * nb].copy()
        _phi, jac, _gamma = sysm.constraint_state(Y)
        minv = sysm.mass_matrix_inverse().ravel()
        row = self._rate_row(Y, t, s, sign)
        speed = float(row @ v)
        e = self.restitution[s]
        dv, residual = impact_jump(minv, jac, row, v, e)
        if abs(residual) > 1e-6 * max(speed, 1e-12):
            raise SimulationError(
                "integration stopped at t=%.6g s: end stop %r cannot rebound: its joint's "
                "coordinate is held by the other constraints (a driven or locked joint)"
                % (t, self.names[s]), time=t)
        Y[7 * nb:13 * nb] = v + dv
        mass = 1.0 / minv
        loss = 0.5 * float(np.sum(mass * (v * v - (v + dv) ** 2)))
        sysm.W.frc_out[self.index[s], OUT_ED] += loss
        row_ev = np.zeros(NEVT)
        row_ev[:EVT_SIDE] = (t, self.index[s])
        row_ev[EVT_SIDE] = side
        row_ev[EVT_SPEED] = speed
        row_ev[EVT_REBOUND] = -float(row @ (v + dv))
        self.events.append(row_ev)
        self.losses.append((t, int(self.index[s]), loss))
        return row_ev

    def event_rows(self):
        """(m, ``forces.NEVT``) rows of the impacts so far."""
        return np.array(self.events, dtype=float).reshape(-1, NEVT)
