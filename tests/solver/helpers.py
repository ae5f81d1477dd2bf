"""Helpers of the solver tests: random rotations and inertias, finite differences along the
velocity space, pendulum angles and periods, the driven slider-crank of the energy tests.
The models themselves are in ``SimPhantWorkbench.solver.zoo``."""
import math

import numpy as np

from SimPhantWorkbench.solver.rotations import quat_from_axis_angle, quat_multiply


def random_rotation(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def gradient_fd(f, x, h=1e-7):
    """Central-difference gradient of the scalar function ``f`` at the point ``x``."""
    x = np.asarray(x, dtype=float)
    return np.array([(f(x + e) - f(x - e)) / (2 * h) for e in np.eye(len(x)) * h])


def random_inertia(rng):
    """Principal moments that satisfy the triangle inequality."""
    while True:
        m = rng.uniform(0.05, 1.0, size=3)
        if all(m[a] <= m[(a + 1) % 3] + m[(a + 2) % 3] for a in range(3)):
            return m


def retract(Y, nb, b, dv, h):
    """State moved by h along velocity-space direction dv (6,) of body b (body-frame rotation)."""
    Y = Y.copy()
    p = 7 * b
    Y[p:p + 3] += h * dv[:3]
    th = h * np.asarray(dv[3:], dtype=float)
    ang = np.linalg.norm(th)
    if ang > 0:
        Y[p + 3:p + 7] = quat_multiply(Y[p + 3:p + 7], quat_from_axis_angle(th / ang, ang))
    return Y


def jacobian_fd(phi_of, Y, nb, h=1e-6):
    """Central differences of ``phi_of(Y)`` along each body's 6 velocity-space directions
    (``retract``): the finite-difference counterpart of the constraint Jacobian."""
    cols = []
    for b in range(nb):
        for c in range(6):
            e = np.zeros(6)
            e[c] = 1.0
            cols.append((phi_of(retract(Y, nb, b, e, h)) - phi_of(retract(Y, nb, b, e, -h)))
                        / (2 * h))
    return np.column_stack(cols)


def flow(Y, nb, h):
    """State after time h of motion with constant v and constant body-frame omega."""
    Y = Y.copy()
    for b in range(nb):
        v = Y[7 * nb + 6 * b:7 * nb + 6 * b + 6]
        Y = retract(Y, nb, b, v, h)
    return Y


def swing_angle(r, b):
    """Angle of the rod from the downward vertical, positive about +y."""
    p = r.position(b)
    return np.arctan2(p[:, 0], -p[:, 2])


def period_from_crossings(t, theta):
    """Mean period from upward zero crossings (linear interpolation)."""
    s = np.nonzero((theta[:-1] < 0) & (theta[1:] >= 0))[0]
    tc = t[s] - theta[s] * (t[s + 1] - t[s]) / (theta[s + 1] - theta[s])
    return (tc[-1] - tc[0]) / (len(tc) - 1), len(tc) - 1


def system_rows(system, joint, prim, ai, aj):
    """System rows of ``joint`` with primitive ``prim`` on frame axes (ai, aj)."""
    S = system.S
    return [r for r in system.active_rows if system.joint_name_of_row(r) == joint
            and S.row_prim[r] == prim and S.row_ai[r] == ai and S.row_aj[r] == aj]


def assert_least_norm(model, result, samples, redundant=None):
    """The multipliers of ``result`` at ``samples`` are those of least weighted norm
    (force rows 1, angle rows 1/L^2) that reproduce the sample's constraint force: checked
    against the null space of Phi_q^T by a dense SVD (``redundant``: its dimension)."""
    from SimPhantWorkbench.solver.joints import ROTATION_PRIMS
    system = model.compile(alpha=result.settings["alpha"], beta=result.settings["beta"])
    rows = system.active_rows
    w = np.where(np.isin(system.S.row_prim[rows], ROTATION_PRIMS),
                 1.0 / system.length_scale ** 2, 1.0)
    masses = np.array([[b.mass] * 3 + list(b.moments) for b in model.bodies]).reshape(-1)
    for i in samples:
        Y = result.states[i]
        _phi, J, _g = system.constraint_state(Y)
        lam = result.multipliers[i]
        U, s, _ = np.linalg.svd(J * np.sqrt(1.0 / w)[:, None], full_matrices=True)
        null = U[:, int((s > 1e-10 * s[0]).sum()):]          # self-stresses (weighted)
        if redundant is not None:
            assert null.shape[1] == redundant
        lw = lam * np.sqrt(w)
        assert np.abs(null.T @ lw).max() <= 1e-8 * np.linalg.norm(lw), i
        # J^T lam is the constraint force M (a_free - a) of the sample
        system.set_loads(result.t[i])
        system.evaluate(result.t[i], Y)
        afree = system.W.afree.reshape(-1)
        f = masses * (afree - system.W.acc.reshape(-1))
        assert np.abs(J.T @ lam - f).max() <= 1e-9 * np.abs(masses * afree).max(), i


__all__ = ["random_rotation", "random_inertia", "retract", "jacobian_fd", "flow", "swing_angle",
           "period_from_crossings", "system_rows", "assert_least_norm"]


def driven_slider_crank():
    """The zoo's slider-crank (crank driven at constant speed) with a spring-damper between
    the ground and the slider and a constant actuator force along the slide: a driven
    mechanism whose motor, damper and actuator all do work. Returns ``(model, motor)``."""
    from SimPhantWorkbench.solver.zoo import slider_crank
    m, (crank, rod, slider), motor = slider_crank()
    x0 = 0.1 * math.cos(math.radians(30.0)) + math.sqrt(0.35 ** 2 - 0.05 ** 2)
    m.add_spring(m.ground, (0.7, 0.0, 0.0), slider, (x0, 0.0, 0.0), stiffness=400.0,
                 free_length=0.2, damping=3.0, name="return")
    slide = [j for j in m.joints if j.name == "slide"][0]
    m.add_joint_actuator(slide, 5.0, name="push")
    return m, motor
