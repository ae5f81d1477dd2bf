"""The block-sparse Schur complement solve equals a dense full-KKT solve.

Dense reference (docs/theory.md), WITHOUT any regularisation:
    [ M      Phi_q^T ] [q_ddot]   [ Q     ]
    [ Phi_q  0       ] [lambda] = [ gamma*]
solved with np.linalg.solve (or least squares when rows are redundant):
SimPhant regularises its factorisation and refines the result, so it must
agree to 1e-10 relative whatever the Tikhonov eps.

``test_whole_right_hand_side_against_an_independent_reference`` builds every input of
that system without the kernels' workspace: Q from Newton-Euler (gravity, loads in world
and body axes, gyroscopic term), Phi_q, Phi_dot and gamma by finite differences of Phi,
and gamma* = gamma - 2 alpha Phi_dot - beta^2 Phi.
"""
import numpy as np
import pytest

from SimPhantWorkbench.solver import Model
from SimPhantWorkbench.solver.sparse import analyse

from SimPhantWorkbench.solver.rotations import quat_to_matrix
from SimPhantWorkbench.solver.zoo import bricard, chain, four_bar

from .helpers import flow, random_inertia, random_rotation, retract


def _dense_kkt(sysm, Y):
    sysm.evaluate(0.0, Y)
    S, W = sysm.S, sysm.W
    nb = S.nb
    act = sysm.active_rows          # rows without the block padding
    Q = W.Q.reshape(-1).copy()
    gamma_star = W.gamma[act].copy()
    _, J, _ = sysm.constraint_state(Y)
    Mdiag = 1.0 / sysm.mass_matrix_inverse().reshape(-1)
    n, m = 6 * nb, J.shape[0]
    K = np.zeros((n + m, n + m))
    K[:n, :n] = np.diag(Mdiag)
    K[:n, n:] = J.T
    K[n:, :n] = J
    sol = np.linalg.lstsq(K, np.concatenate([Q, gamma_star]), rcond=1e-13)[0]
    return sol[:n], sol[n:]


def _random_tree_with_loops(rng, nb=6, loops=2):
    m = Model(gravity=(0.3, -9.0, 1.0))
    bodies = [m.add_body("b%d" % i, mass=rng.uniform(0.2, 5.0), inertia=random_inertia(rng),
                         position=rng.normal(size=3), orientation=random_rotation(rng),
                         velocity=rng.normal(size=3), angular_velocity=rng.normal(size=3))
              for i in range(nb)]
    kinds = ["revolute", "spherical", "universal", "cylindrical", "prismatic", "planar", "fixed",
             "distance", "revolute_spherical"]
    everyone = [m.ground] + bodies
    pairs = [(everyone[rng.integers(0, i + 1)], bodies[i]) for i in range(nb)]
    for _ in range(loops):
        a, b = rng.choice(nb, size=2, replace=False)
        pairs.append((bodies[a], bodies[b]))
    for n, (b1, b2) in enumerate(pairs):
        kind = kinds[n % len(kinds)]
        f1 = (rng.normal(size=3), random_rotation(rng))
        f2 = (rng.normal(size=3), random_rotation(rng))
        kw = dict(frame1=f1, frame2=f2)
        if kind in ("distance", "revolute_spherical"):
            kw["point2"] = f2[0]
        m.add_joint(kind, b1, b2, **kw)
    return m


@pytest.mark.parametrize("seed", range(6))
def test_schur_equals_dense_kkt_random_trees(seed):
    """Trees of mixed joints at random unassembled poses (well-posed): 1e-10 relative,
    for any eps (the refinement removes the Tikhonov bias)."""
    rng = np.random.default_rng(seed)
    m = _random_tree_with_loops(rng, nb=4 + seed, loops=0)
    for eps in (1e-6, 1e-9, 1e-12):
        sysm = m.compile(alpha=3.0, beta=4.0, regularization=eps)
        Y = sysm.y0
        dY = sysm.evaluate(0.0, Y)
        acc = dY[7 * sysm.nb:]
        lam = sysm.W.lam[sysm.active_rows].copy()
        acc_ref, lam_ref = _dense_kkt(sysm, Y)
        assert np.linalg.norm(acc - acc_ref) <= 1e-10 * np.linalg.norm(acc_ref), eps
        assert np.linalg.norm(lam - lam_ref) <= 1e-10 * np.linalg.norm(lam_ref), eps


@pytest.mark.parametrize("seed", range(6))
def test_schur_solves_the_kkt_with_random_loops(seed):
    """With loops of random joints at random (unassembled) poses the rows are often
    redundant or inconsistent: the accelerations must still satisfy the dynamics
    exactly, and the refined solve satisfies the constraint equations at least as
    well as the plain regularised one."""
    rng = np.random.default_rng(100 + seed)
    m = _random_tree_with_loops(rng, nb=4 + seed, loops=1 + seed % 2)
    sysm = m.compile(alpha=3.0, beta=4.0)
    Y = sysm.y0
    acc = sysm.evaluate(0.0, Y)[7 * sysm.nb:]
    act = sysm.active_rows
    lam = sysm.W.lam[act].copy()
    Q = sysm.W.Q.reshape(-1).copy()
    _, J, _ = sysm.constraint_state(Y)
    Minv = sysm.mass_matrix_inverse().reshape(-1)
    r_dyn = np.linalg.norm(acc / Minv + J.T @ lam - Q) / np.linalg.norm(Q)
    assert r_dyn < 1e-10
    gamma_star = sysm.W.gamma[act].copy()
    r_kin = np.linalg.norm(J @ acc - gamma_star)
    from SimPhantWorkbench.solver import kernels
    kernels.evaluate(0.0, Y, sysm.S._replace(refine_max=0), sysm.W)
    acc_plain = sysm.W.acc.reshape(-1).copy()
    assert r_kin <= 1.0001 * np.linalg.norm(J @ acc_plain - gamma_star)


@pytest.mark.parametrize("maker", [lambda: chain(12)[0], lambda: four_bar()[0],
                                   lambda: bricard()[0]], ids=["chain", "four_bar", "bricard"])
def test_schur_equals_dense_kkt_benchmark_models(maker):
    m = maker()
    sysm = m.compile(alpha=10.0, beta=10.0)
    dY = sysm.evaluate(0.0, sysm.y0)
    act = sysm.active_rows
    lam = sysm.W.lam[act].copy()
    acc_ref, lam_ref = _dense_kkt(sysm, sysm.y0)
    acc = dY[7 * sysm.nb:]
    assert np.linalg.norm(acc - acc_ref) <= 1e-10 * np.linalg.norm(acc_ref)
    # redundant loops: lambda is not unique, the constraint forces Phi_q^T lambda are
    _, J, _ = sysm.constraint_state(sysm.y0)
    assert np.linalg.norm(J.T @ (lam - lam_ref)) <= 1e-10 * np.linalg.norm(J.T @ lam_ref)


def test_pattern_of_a_chain_has_no_fill():
    """A chain gives a block-tridiagonal Schur complement: n diagonal and n-1 off-diagonal blocks."""
    n = 40
    pat = analyse([(i - 1, i) for i in range(n)], n)
    assert len(pat.blk_row) == n + (n - 1)
    # each off-diagonal block couples neighbours of the chain only
    orig = pat.order
    assert all(abs(int(orig[r]) - int(orig[c])) == 1
               for r, c in zip(pat.blk_row[n:], pat.blk_col[n:]))
    # eliminated from both ends alternately, so consecutive eliminations are independent
    assert list(orig[:4]) == [0, n - 1, 1, n - 2]


def test_pattern_of_a_loop_and_a_star():
    # closed loop of 6 joints through 5 bodies and ground: some fill, but far from dense
    loop = [(-1, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, -1)]
    pat = analyse(loop, 5)
    nblocks = len(pat.blk_row)
    assert 6 + 5 <= nblocks <= 6 + 9
    # a hub body with 8 spokes: every pair of its joints couples (clique), no more
    star = [(0, i) for i in range(1, 9)] + [(-1, 0)]
    pat = analyse(star, 9)
    assert len(pat.blk_row) == 9 + 9 * 8 // 2


def test_schur_is_linear_in_n_for_chains():
    """Work lists grow linearly along a chain (no hidden quadratic term)."""
    sizes = []
    for n in (16, 64, 256):
        pat = analyse([(i - 1, i) for i in range(n)], n)
        sizes.append(len(pat.upd_a) + len(pat.cpl_blk) + len(pat.blk_row))
    assert sizes[2] / sizes[1] == pytest.approx(4.0, rel=0.02)
    assert sizes[1] / sizes[0] == pytest.approx(4.0, rel=0.05)


def _independent_rhs(model, sysm, Y, alpha, beta, h=1e-6, hg=1e-4):
    """Q (6 nb), Phi, Phi_q, Phi_dot, gamma* of state Y computed from the model data,
    Newton-Euler and finite differences of Phi only (not from the kernels' Q, J, gamma)."""
    nb = sysm.nb
    Q = np.zeros(6 * nb)
    A = [quat_to_matrix(Y[7 * b + 3:7 * b + 7]) for b in range(nb)]
    for body in model.bodies:
        b = body.index
        w_b = Y[7 * nb + 6 * b + 3:7 * nb + 6 * b + 6]
        J = np.asarray(body.moments, dtype=float)          # principal (R_pu = I here)
        Q[6 * b:6 * b + 3] = body.mass * np.asarray(model.gravity)
        Q[6 * b + 3:6 * b + 6] = -np.cross(w_b, J * w_b)
    for ld in model.loads:
        b = ld.body.index
        val = np.asarray(ld.value, dtype=float)
        v_w = val if ld.frame == "world" else A[b] @ val
        if ld.kind == "torque":
            Q[6 * b + 3:6 * b + 6] += A[b].T @ v_w
        else:
            Q[6 * b:6 * b + 3] += v_w
            Q[6 * b + 3:6 * b + 6] += A[b].T @ np.cross(A[b] @ ld.local_point, v_w)

    def phi_at(y):
        return sysm.constraint_state(y)[0]

    phi = phi_at(Y)
    Jq = np.zeros((len(phi), 6 * nb))
    for b in range(nb):
        for c in range(6):
            e = np.zeros(6)
            e[c] = 1.0
            Jq[:, 6 * b + c] = (phi_at(retract(Y, nb, b, e, h)) - phi_at(retract(Y, nb, b, e, -h))) / (2 * h)
    v = Y[7 * nb:]
    phidot = (phi_at(flow(Y, nb, h)) - phi_at(flow(Y, nb, -h))) / (2 * h)
    # gamma = -(d^2/dt^2) Phi along the motion with constant v, omega_b (q_ddot = 0)
    gamma = -(phi_at(flow(Y, nb, hg)) - 2.0 * phi + phi_at(flow(Y, nb, -hg))) / hg ** 2
    gamma_star = gamma - 2.0 * alpha * phidot - beta ** 2 * phi
    return Q, phi, Jq, v, gamma_star


@pytest.mark.parametrize("seed", range(3))
def test_whole_right_hand_side_against_an_independent_reference(seed):
    """Accelerations of a loaded tree at a random unassembled, moving state equal the dense
    KKT solve of independently built Q and gamma* (finite differences: 1e-5 relative)."""
    rng = np.random.default_rng(200 + seed)
    m = _random_tree_with_loops(rng, nb=3 + seed, loops=0)
    for i, body in enumerate(m.bodies):
        m.add_torque(body, rng.normal(size=3), frame="world" if i % 2 else "body")
        m.add_force(body, rng.normal(size=3), local_point=rng.normal(size=3) * 0.3,
                    frame="body" if i % 2 else "world")
    alpha, beta = 3.0, 4.0
    sysm = m.compile(alpha=alpha, beta=beta, regularization=1e-12)
    Y = sysm.y0
    acc = sysm.evaluate(0.0, Y)[7 * sysm.nb:]
    Q, phi, Jq, v, gamma_star = _independent_rhs(m, sysm, Y, alpha, beta)
    assert np.abs(phi).max() > 1e-2 and np.abs(gamma_star).max() > 1e-2
    # the Jacobian the kernels use is the derivative of Phi
    _, J_kernel, _ = sysm.constraint_state(Y)
    np.testing.assert_allclose(J_kernel, Jq, atol=1e-7 * np.abs(Jq).max())
    Mdiag = 1.0 / sysm.mass_matrix_inverse().reshape(-1)
    n, mrows = len(Mdiag), len(phi)
    K = np.zeros((n + mrows, n + mrows))
    K[:n, :n] = np.diag(Mdiag)
    K[:n, n:] = Jq.T
    K[n:, :n] = Jq
    sol = np.linalg.solve(K, np.concatenate([Q, gamma_star]))
    assert np.linalg.norm(acc - sol[:n]) <= 1e-5 * np.linalg.norm(sol[:n])
