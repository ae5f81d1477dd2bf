"""The refinement of the constraint multipliers runs only where it changes the answer
(``kernels.solve_multipliers``): a model without redundant rows starts the solve from
the previous evaluation's multipliers, and no refinement step is taken when the residual
of that solve is below ``REFINE_SKIP`` of the right-hand side. References: the exact
multipliers of the unregularised system (dense ``numpy.linalg`` solve), and for redundant
rows the E-weighted least-norm solution (pseudo-inverse)."""
import numpy as np
import pytest

from SimPhantWorkbench.solver import kernels
from SimPhantWorkbench.solver.zoo import bob, chain, four_bar, mass_ratio_chain


def _dense(sysm, Y):
    """C = Phi_q M^-1 Phi_q^T and b = Phi_q M^-1 Q - gamma* at Y (active rows)."""
    _, J, _g = sysm.constraint_state(Y)
    sysm.evaluate(0.0, Y)
    act = sysm.active_rows
    Minv = sysm.mass_matrix_inverse().reshape(-1)
    return J @ (Minv[:, None] * J.T), sysm.W.rhs[act].copy(), act


def _sequence(model, states):
    """Evaluate the states one after another in one system, as a fixed-step run does:
    per state the multipliers, the exact ones and the refinement steps taken."""
    sysm = model.compile()
    other = model.compile()       # for the reference (its evaluations leave sysm alone)
    out = []
    for Y in states:
        C, b, act = _dense(other, Y)
        exact = np.linalg.solve(C, b)
        before = sysm.W.stats[kernels.STAT_REFINE_SUM]
        sysm.evaluate(0.0, Y)
        steps = sysm.W.stats[kernels.STAT_REFINE_SUM] - before
        out.append((sysm.W.lam[act].copy(), exact, steps))
    return sysm, out


def _trajectory(model, t_end=0.1, dt=5e-4):
    return model.simulate(t_end=t_end, dt=dt, method="rk4", output_dt=dt).states


def _relerr(lam, exact):
    return np.abs(lam - exact).max() / np.abs(exact).max()


@pytest.mark.parametrize("n", [1, 8, 32])
def test_the_chain_skips_the_refinement_and_keeps_exact_multipliers(n):
    """Consecutive states 0.5 ms apart (an RK4 stage at dt = 1 ms): after the first
    evaluation no refinement step is taken, and the multipliers are the exact ones to
    1e-10 (the refined solve: 1e-16 ... 3e-14, the plain regularised one from zero
    2.5e-12 ... 3e-10)."""
    m = chain(n)[0]
    states = _trajectory(m)[-12:]
    sysm, seq = _sequence(m, states)
    assert sysm.S.refine_warm == 1
    assert sum(steps for _lam, _ex, steps in seq[1:]) == 0
    assert sysm.W.stats[kernels.STAT_COLD] == 0.0      # the next solve starts warm too
    for lam, exact, _steps in seq:
        assert _relerr(lam, exact) <= 1e-10


def test_the_chain_trajectory_with_the_skip_is_that_of_the_refined_solve():
    """RK4 over 0.5 s of a 16-link chain: the loop with the skip (default) against the
    same loop refining at every evaluation (started from zero: ``refine_warm = 0``, and a
    regularisation of 1e-8 whose residual never meets ``REFINE_SKIP``)."""
    m = chain(16)[0]

    def run(sysm, S):
        Y = sysm.y0.copy()
        steps = 500
        out = np.zeros((1, Y.size))
        sysm.W.stats[:] = 0.0
        st = kernels.integrate_fixed(kernels.METHOD_RK4, Y, np.zeros(1),
                                     np.array([steps], dtype=np.int64), np.array([1e-3]),
                                     S, sysm.W, np.zeros((1 + 2 * steps, 0, 3)), out, 1e9)
        assert st[0] == 0
        return out[0], sysm.W.stats[kernels.STAT_REFINE_SUM] / sysm.W.stats[kernels.STAT_SOLVES]

    fast = m.compile()
    Y_fast, mean_fast = run(fast, fast.S)
    ref = m.compile(regularization=1e-8)
    Y_ref, mean_ref = run(ref, ref.S._replace(refine_warm=0))
    assert mean_fast <= 0.01          # the first evaluation only
    assert mean_ref >= 1.0            # every evaluation
    assert np.abs(Y_fast - Y_ref).max() <= 1e-10


@pytest.mark.parametrize("make, soft", [(lambda: mass_ratio_chain([1.0, 1e9])[0], True),
                                        (lambda: mass_ratio_chain([1.0, 1e6, 1.0, 1e6])[0], True),
                                        (lambda: bob(1e-8)[0], False)],
                         ids=["light_first_1e9", "alternating_1e6", "bob_1e-8"])
def test_mass_and_inertia_ratios_still_get_the_refinement(make, soft):
    """Where the Tikhonov bias is large (the plain solve's constraint residual from zero:
    2e-3 of b at 1e9, 7e-8 for the bob; from the previous multipliers still 6e-6 and
    4e-10) the refinement runs at every evaluation: the residual ``C lam - b`` is that of
    the dense solve (which is no better than round-off times C's condition, 1e12 at 1e9),
    and the
    multipliers are those of the solve refined from zero. At the mass ratios (``soft``)
    one step does not converge, so every solve after the first starts from zero (the
    bob's converges in one step at some states): the part of the previous
    multipliers along the soft directions would lag behind the motion (the energy of
    the 1e-10 bob drifted 25x more, ``test_constraint_forces.py``)."""
    m = make()
    states = _trajectory(m, t_end=0.02)[-6:]
    sysm, seq = _sequence(m, states)
    assert sysm.S.refine_warm == 1
    other = m.compile()
    cold = m.compile()
    act = sysm.active_rows
    eps = sysm.S.row_eps[act]
    for Y, (lam, exact, steps) in zip(states, seq):
        assert steps >= 1
        C, b, _act = _dense(other, Y)

        def residual(x):     # E^-1 norms, relative to b's
            r = C @ x - b
            return np.sqrt(np.sum(r * r / eps) / np.sum(b * b / eps))
        # (within 100x of the dense solve's: 10-20x with Debian 13's reference BLAS; far
        # below round-off times C's condition, and 600x below the unrefined 6e-6)
        assert residual(lam) <= max(100.0 * residual(exact), 1e-8)
        kernels.evaluate(0.0, Y, cold.S._replace(refine_warm=0), cold.W)
        assert _relerr(lam, cold.W.lam[act]) <= 1e-12
    if soft:
        assert sysm.W.stats[kernels.STAT_COLD] == 1.0


def test_redundant_rows_start_from_zero_and_keep_the_least_norm_multipliers():
    """A four-bar of revolutes (3 redundant rows): the multipliers are not unique, the
    solve gives the E-weighted least-norm ones at every evaluation (a start from the
    previous multipliers would carry their share of the null space along)."""
    m = four_bar()[0]
    states = _trajectory(m, t_end=0.05)[-8:]
    sysm = m.compile()
    other = m.compile()
    assert sysm.redundant.sum() == 3 and sysm.S.refine_warm == 0
    act = sysm.active_rows
    eps = sysm.S.row_eps[act]
    for Y in states:
        C, b, _act = _dense(other, Y)
        sysm.evaluate(0.0, Y)
        lam = sysm.W.lam[act]
        # least lam^T E lam subject to C lam = b (b is consistent: C's range)
        Ei = 1.0 / eps
        least = Ei * (C @ (np.linalg.pinv(C @ (Ei[:, None] * C), rcond=1e-10) @ b))
        assert np.abs(C @ least - b).max() <= 1e-8 * np.abs(b).max()
        assert _relerr(lam, least) <= 1e-6


def _scaled(sysm, C, act):
    """C with rows and columns scaled by the diagonal the regularisation is relative to."""
    d = np.sqrt(sysm._diag[act])
    return C / d[:, None] / d[None, :]


@pytest.mark.parametrize("n", [8, 64])
def test_the_condition_estimate_is_that_of_the_dense_matrix(n):
    """``System.scaled_condition`` (power and inverse iteration on the block factor)
    against the dense eigenvalues of the row-scaled ``C`` (1e4 ... 1e8 for these chains)."""
    m = chain(n)[0]
    sysm = m.compile()
    C, _b, act = _dense(m.compile(), sysm.y0)
    ev = np.linalg.eigvalsh(_scaled(sysm, C, act))
    cond = ev[-1] / ev[0]
    assert 0.5 * cond <= sysm.scaled_condition(sysm.y0) <= 1.05 * cond
    assert sysm.S.refine_skip == pytest.approx(
        min(kernels.REFINE_SKIP, kernels.REFINE_SKIP_ERROR / np.sqrt(sysm.scaled_condition(sysm.y0))))


@pytest.mark.parametrize("n, steps", [(64, 5), (256, 5), (256, 50)])
def test_long_chains_keep_the_multipliers_within_2e_10_of_the_dense_solve(n, steps):
    """In a fixed-step RK4 run the multipliers of the last evaluation against a dense
    solve at its state. With the skip below ``REFINE_SKIP`` alone the error was up to
    C's condition times the residual: 7e-11 (64 links), 4.6e-9 (256 links, 5 steps);
    the skip tolerance scaled by the condition (``S.refine_skip``) refines there."""
    m = chain(n)[0]
    sysm = m.compile()
    assert sysm.S.refine_skip < kernels.REFINE_SKIP
    Y = sysm.y0.copy()
    out = np.zeros((1, Y.size))
    st = kernels.integrate_fixed(kernels.METHOD_RK4, Y, np.zeros(1),
                                 np.array([steps], dtype=np.int64), np.array([1e-3]),
                                 sysm.S, sysm.W, np.zeros((1 + 2 * steps, 0, 3)), out, 1e9)
    assert st[0] == 0
    act = sysm.active_rows
    lam = sysm.W.lam[act].copy()
    C, b, _act = _dense(m.compile(), sysm.W.Yt.copy())
    assert _relerr(lam, np.linalg.solve(C, b)) <= 2e-10


def test_short_chains_keep_the_full_skip_tolerance():
    """Up to 4 links the condition leaves ``REFINE_SKIP`` as it is; 8 links (condition
    2e4) skip below 7e-12, 32 links (5e6) below 4e-13, which the residuals of a chain in
    motion (1e-15 ... 2e-13 in 0.1 s) stay under
    (``test_the_chain_skips_the_refinement_and_keeps_exact_multipliers``)."""
    for n in (1, 2, 4):
        assert chain(n)[0].compile().S.refine_skip == kernels.REFINE_SKIP
    assert 5e-12 <= chain(8)[0].compile().S.refine_skip < kernels.REFINE_SKIP
    assert 3e-13 <= chain(32)[0].compile().S.refine_skip < 5e-13
