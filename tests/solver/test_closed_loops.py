"""Redundant closed loops solve without singular-matrix failures, with small drift:
the Bricard mechanism (5 links, 6 revolutes, 1 DOF despite a Gruebler count of 0) and a planar four-bar in 3-D."""
import numpy as np
import pytest

from SimPhantWorkbench.solver.zoo import bricard, four_bar


def _rank_and_dof(sysm, Y):
    _, J, _ = sysm.constraint_state(Y)
    rank = np.linalg.matrix_rank(J, tol=1e-8)
    return J.shape[0], rank, J.shape[1] - rank


@pytest.mark.slow
def test_bricard_moves_with_one_dof_and_conserves_energy():
    m, links, joints = bricard()
    assert m.degrees_of_freedom() == 0        # Gruebler says it is a structure...
    r = m.simulate(t_end=10.0, dt=1e-3, method="rk4", output_dt=0.01)
    sysm = m.compile()
    for k in (0, len(r.t) // 3, len(r.t) - 1):
        rows, rank, dof = _rank_and_dof(sysm, r.states[k])
        assert (rows, rank, dof) == (30, 29, 1)   # ...but it moves with 1 DOF
    E = r.energy()
    assert E["total"][0] == pytest.approx(-29.43, abs=1e-9)
    assert np.abs(E["total"] - E["total"][0]).max() < 1e-4
    assert E["kinetic"].max() > 1.0                 # it really moves
    assert np.abs(r.position(links[2]) - r.position(links[2])[0]).max() > 0.5
    v = r.constraint_violation()
    assert v["position"].max() < 1e-7 and v["velocity"].max() < 1e-6


def test_four_bar_closed_loop():
    m, links, joints = four_bar()
    r = m.simulate(t_end=5.0, dt=1e-3, method="rk4", output_dt=0.01)
    sysm = m.compile()
    rows, rank, dof = _rank_and_dof(sysm, r.states[-1])
    assert (rows, rank, dof) == (20, 17, 1)
    E = r.energy()["total"]
    assert np.abs(E - E[0]).max() < 1e-5
    assert r.constraint_violation()["position"].max() < 1e-8
    crank = r.angular_velocity(links[0])
    assert np.abs(crank[:, 1]).max() > 0.5             # it swings about y...
    assert np.abs(crank[:, [0, 2]]).max() < 1e-6       # ...and stays planar
    # loop closure: coupler end C coincides with the rocker end C
    C_coupler = r.joint_point(joints[2], side="body1")
    C_rocker = r.joint_point(joints[2], side="body2")
    assert np.abs(C_coupler - C_rocker).max() < 1e-8


@pytest.mark.parametrize("method", ["RK45", "Radau"])
def test_redundant_loop_with_scipy_methods(method):
    m, links, joints = four_bar()
    r = m.simulate(t_end=1.0, method=method, rtol=1e-8, atol=1e-10, output_dt=0.05)
    ref = m.simulate(t_end=1.0, dt=5e-4, method="rk4", output_dt=0.05)
    assert np.abs(r.position(links[1]) - ref.position(links[1])).max() < 1e-5
