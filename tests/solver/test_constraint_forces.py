"""Constraint forces without regularisation bias (docs/theory.md, "Solving for the
multipliers"): results that do not depend on the Tikhonov eps, at any mass ratio,
inertia ratio, with redundant rows and through singular configurations.
Default settings, RK4 at dt = 1 ms."""
import math

import numpy as np
import pytest
from scipy.special import ellipk

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.zoo import (bob, bricard, chain, compound_pendulum, four_bar,
                                         mass_ratio_chain, parallelogram_chain)


def _joint_gap(r, joints):
    """Largest distance between the two sides' joint points over the run [m]."""
    return max(np.linalg.norm(r.joint_point(j, "body1") - r.joint_point(j, "body2"),
                              axis=1).max() for j in joints)


def _drift(r):
    E = r.energy()["total"]
    return float(np.abs(E - E[0]).max())


# ------------------------------------------------------------------ the bob
@pytest.mark.parametrize("ratio", [1e-2, 1e-4, 1e-6, 1e-8, 1e-10])
def test_bob_with_small_inertia_keeps_energy_pivot_and_period(ratio):
    """A 1 kg bob 1 m from a revolute, rotational inertia ratio * m L^2, released
    horizontally. The plain regularised solve drifted like eps m L^2 / I (0.07 m g L
    at 1e-8 with eps = 1e-8); now every ratio is at the integrator's own error
    (2.6e-9 m g L in 10 s, the same as at 1e-2 where the constraint solve is easy)."""
    m, b, j, p = bob(ratio)
    r = m.simulate(t_end=10.0, dt=1e-3, method="rk4", output_dt=1e-3)
    mgl = p["m"] * p["g"] * p["d"]
    assert _drift(r) <= 1e-8 * mgl
    assert _joint_gap(r, [j]) <= 1e-9
    # period of a compound pendulum of inertia I_O about the pivot, released at 90 deg
    w0 = math.sqrt(mgl / p["I_O"])
    T_exact = 4.0 / w0 * ellipk(0.5)
    pos = r.position(b)
    theta = np.arctan2(pos[:, 0], -pos[:, 2])
    s = np.nonzero((theta[:-1] < 0) & (theta[1:] >= 0))[0]
    tc = r.t[s] - theta[s] * (r.t[s + 1] - r.t[s]) / (theta[s + 1] - theta[s])
    assert len(tc) >= 3
    T = (tc[-1] - tc[0]) / (len(tc) - 1)
    assert T == pytest.approx(T_exact, rel=1e-8)
    assert r.warnings == []


# ------------------------------------------------------------------ mass ratios
def _chain_run(masses):
    m, bodies, joints = mass_ratio_chain(masses)
    r = m.simulate(t_end=0.5, dt=1e-3, method="rk4", output_dt=1e-3)
    e = r.energy()
    return _drift(r) / e["kinetic"].max(), _joint_gap(r, joints), r


@pytest.mark.parametrize("arrangement", ["light_first", "alternating"])
def test_revolute_chains_with_large_mass_ratios(arrangement):
    """Neighbours differing in mass by 1e3 ... 1e9: the light link next to ground made
    the ground pivot open by 0.1 mm (1e6) to 0.1 m (1e9) before, silently."""
    def masses(k):
        return [1.0, k] if arrangement == "light_first" else [1.0, k, 1.0, k]
    ref_drift, ref_gap, _ = _chain_run(masses(1.0))
    for k in (1e3, 1e6, 1e9):
        drift, gap, r = _chain_run(masses(k))
        assert gap <= 1e-8, (k, gap)
        assert drift <= 2.0 * ref_drift, (k, drift, ref_drift)
        assert r.warnings == []


def test_heavy_link_first_is_independent_of_the_ratio():
    """Heavy link on the ground pivot, light one hanging from it (the light link moves
    faster, so the integrator's own error is larger than for equal masses: compare
    the ratios with each other)."""
    drifts = []
    for k in (1e3, 1e6, 1e9):
        drift, gap, r = _chain_run([k, 1.0])
        assert gap <= 1e-8
        assert r.warnings == []
        drifts.append(drift)
    assert max(drifts) <= 1.1 * min(drifts)


# ------------------------------------------------------------------ redundant loops
def test_bricard_mechanism_energy_and_residual():
    m, links, joints = bricard()
    r = m.simulate(t_end=10.0, dt=1e-3, method="rk4", output_dt=0.01)
    e = r.energy()
    assert e["kinetic"].max() > 1.0                       # it really moves
    assert _drift(r) <= 1e-7 * e["kinetic"].max()         # 5.5e-10 J (1.7e-6 J before)
    assert _joint_gap(r, joints) <= 1e-8
    assert r.constraint_violation()["position"].max() <= 1e-8
    assert r.settings["redundant_rows"] == 1
    assert r.warnings == []


def test_four_bar_of_revolutes_energy_and_residual():
    m, links, joints = four_bar()
    r = m.simulate(t_end=10.0, dt=1e-3, method="rk4", output_dt=0.01)
    e = r.energy()
    assert _drift(r) <= 1e-7 * e["kinetic"].max()
    assert _joint_gap(r, joints) <= 1e-8
    assert r.constraint_violation()["position"].max() <= 1e-8
    assert r.settings["redundant_rows"] == 3
    assert r.warnings == []


@pytest.mark.slow
def test_parallelogram_chain_through_the_aligned_configuration():
    """40 parallelogram cells (81 unit bars, 121 revolutes, 1 DOF, 605 rows of
    which 120 are redundant: 605 - (6 x 81 - 1)), 20 s, through the configuration
    where all bars align (the rank of Phi_q drops there): 0.08 J drift before, now ~1e-5 J of 1100 J."""
    m, cranks, couplers, joints = parallelogram_chain()
    assert len(m.bodies) == 81 and len(joints) == 121
    r = m.simulate(t_end=20.0, dt=1e-3, method="rk4", output_dt=0.01)
    e = r.energy()
    assert _drift(r) <= 1e-7 * e["kinetic"].max()
    assert _joint_gap(r, joints) <= 1e-8
    assert r.constraint_violation()["position"].max() <= 1e-8
    # the cranks pass theta = 0 (aligned) several times
    tip = r.position(cranks[0])
    theta = np.arctan2(tip[:, 2], tip[:, 0])
    assert np.count_nonzero(np.diff(np.sign(theta)) != 0) >= 4
    assert r.warnings == []


# ------------------------------------------------------------------ long runs
@pytest.mark.slow
def test_million_step_pendulum_keeps_its_energy():
    """1e6 RK4 steps (1000 s at 1 ms) of a compound pendulum swinging 1 rad.

    The drift left is RK4's own truncation error on the stabilised equations: it
    grows linearly, falls 16x with dt/2 and 14x with a softer stabilisation
    (time constant 0.1 s instead of the default 0.02 s), which is used here; with
    the default the run ends at 1.3e-7 m g d."""
    m, b, j, p = compound_pendulum(theta0=1.0)
    r = m.simulate(t_end=1000.0, dt=1e-3, method="rk4", output_dt=1.0, time_constant=0.1)
    assert r.settings["steps"] == 1000000
    mgd = p["m"] * p["g"] * p["d"]
    assert _drift(r) <= 1e-7 * mgd * (1.0 - math.cos(1.0))
    assert r.constraint_violation()["position"].max() <= 1e-8


# ------------------------------------------------------------------ independence of eps
@pytest.mark.parametrize("maker", [lambda: chain(4)[0], lambda: four_bar()[0],
                                   lambda: bricard()[0], lambda: bob(1e-2)[0]],
                         ids=["chain", "four_bar", "bricard", "bob"])
def test_trajectories_do_not_depend_on_the_regularization(maker):
    ref = maker().simulate(t_end=2.0, dt=1e-3, method="rk4", output_dt=0.01)
    for eps in (1e-4, 1e-6, 1e-8, 1e-10):
        r = maker().simulate(t_end=2.0, dt=1e-3, method="rk4", output_dt=0.01,
                             regularization=eps)
        for name in ref.body_names:
            assert np.abs(r.position(name) - ref.position(name)).max() <= 1e-9, (eps, name)


def test_refinement_can_be_switched_off_and_then_the_bias_returns():
    """``refine_max = 0`` is the plain regularised solve: with a large eps it biases
    the bob's pivot force, which is what the refinement removes."""
    from SimPhantWorkbench.solver import kernels
    m, b, j, p = bob(1e-6)
    sysm = m.compile(alpha=50.0, beta=50.0, regularization=1e-6)
    Y = sysm.y0.copy()
    # a pose at 45 degrees, swinging
    c = math.sqrt(0.5)
    Y[0:3] = (c, 0.0, -c)
    Y[7:10] = (-1.0, 0.0, -1.0)
    Y[10:13] = (0.0, math.sqrt(2.0), 0.0)
    sysm.evaluate(0.0, Y)
    lam = sysm.W.lam.copy()
    plain = sysm.S._replace(refine_max=0)
    kernels.evaluate(0.0, Y, plain, sysm.W)
    lam_plain = sysm.W.lam.copy()
    _, J, gamma = sysm.constraint_state(Y)
    Minv = sysm.mass_matrix_inverse().reshape(-1)
    C = J @ (Minv[:, None] * J.T)
    act = sysm.active_rows
    sysm.evaluate(0.0, Y)
    b_rhs = J @ (sysm.W.afree.reshape(-1)) - sysm.W.gamma[act]
    exact = np.linalg.solve(C, b_rhs)
    assert np.abs(lam[act] - exact).max() <= 1e-9 * np.abs(exact).max()
    assert np.abs(lam_plain[act] - exact).max() >= 1e-7 * np.abs(exact).max()   # 1e-6


def test_refinement_is_skipped_when_the_plain_solve_is_already_exact():
    """A feature costs only when it changes the answer: with a regularisation far below
    what double precision resolves the plain solve's residual ``E lambda_0`` meets
    ``REFINE_SKIP`` and no refinement step is taken; the multipliers are still exact.
    (At the default 1e-12 the chain skips it too, after its first evaluations:
    ``test_refinement_skip.py``; at 1e-6 it refines at every evaluation.)"""
    from SimPhantWorkbench.solver import kernels
    m, bodies, joints = chain(3)
    r_skip = m.simulate(t_end=0.05, dt=1e-3, output_dt=0.01, regularization=1e-20)
    assert r_skip.settings["refinement_steps_mean"] == 0.0
    r = m.simulate(t_end=0.05, dt=1e-3, output_dt=0.01, regularization=1e-6)
    assert r.settings["refinement_steps_mean"] >= 1.0      # at 1e-6: one step or more
    np.testing.assert_allclose(r_skip.states, r.states, rtol=0, atol=1e-12)
    sysm = m.compile(alpha=50.0, beta=50.0, regularization=1e-20)
    _, J, _g = sysm.constraint_state(r.states[-1])
    sysm.evaluate(0.0, r.states[-1])
    C = J @ (sysm.mass_matrix_inverse().reshape(-1)[:, None] * J.T)
    act = sysm.active_rows
    exact = np.linalg.solve(C, sysm.W.rhs[act])
    assert np.abs(sysm.W.lam[act] - exact).max() <= 1e-9 * np.abs(exact).max()
    assert sysm.W.stats[kernels.STAT_REFINE_SUM] == 0.0


def test_reactions_are_reported_in_model_joint_order():
    """A chain hanging at rest: joint k carries the links below it, (n - k) m g. The
    system eliminates the joints from both ends (its own order); the result gives
    each joint its own reaction."""
    n, m_link, g = 6, 2.0, 9.81
    m = Model(gravity=(0, 0, -g))
    prev = m.ground
    for k in range(n):
        b = m.add_body("L%d" % k, mass=m_link, inertia=(0.1, 0.1, 0.01),
                       position=(0, 0, -k - 0.5))
        m.add_joint("revolute", prev, b, point=(0, 0, -k), axis=(0, 1, 0), name="J%d" % k)
        prev = b
    s = m.compile()
    assert not np.array_equal(s.joint_pos, np.arange(n))      # the order is the system's
    r = m.simulate(t_end=0.01, dt=1e-3)
    for k in range(n):
        F = r.reaction_force("J%d" % k)
        np.testing.assert_allclose(F[-1], [0, 0, (n - k) * m_link * g], atol=1e-6)
