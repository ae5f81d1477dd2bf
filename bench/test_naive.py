"""The naive NumPy solver reproduces SimPhant's trajectories (so the speed
comparison is between two implementations of the SAME formulation).

Run by ``bench_chain.py`` before it times anything (``run_checks``), by ``make test``
(``tests/solver/test_naive_reference.py``), and collectable by pytest on its own:
``tools/run_python.sh -m pytest -q bench/test_naive.py``.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import models  # noqa: E402
from SimPhantWorkbench.solver import zoo  # noqa: E402

TOL = 1e-8


def simphant_eps(sm, alpha, beta, regularization):
    """SimPhant's Tikhonov eps rule and values, in model joint/row order.

    Reads the compiled ``System``: ``S.row_eps`` (per row) or ``S.eps`` (global).
    Returns (rule, eps vector). Raises when neither exists, so a change of the
    solver's internals fails this check loudly instead of skipping the comparison."""
    sysm = sm.compile(alpha=alpha, beta=beta, regularization=regularization)
    S = sysm.S
    if hasattr(S, "row_eps"):
        rows = []
        for j in range(len(sm.joints)):           # model joint j sits at position joint_pos[j]
            s = int(sysm.joint_pos[j])
            r0 = int(S.jnt_row0[s])
            rows.append(np.asarray(S.row_eps)[r0:r0 + int(S.jnt_nrow[s])])
        return "per_row", np.concatenate(rows)
    if hasattr(S, "eps"):
        return "global", np.full(int(S.nrows), float(S.eps))
    raise AttributeError("SimPhant's compiled system has neither S.row_eps nor S.eps: "
                         "update simphant_eps")


def build(case):
    if case[0] == "chain":
        _, N, kind = case
        return zoo.chain(N, kind)[:2], models.chain_naive(N, kind)
    return zoo.crank_rocker(), models.fourbar_naive()


def compare(case, t_end=0.1, dt=1e-3, output_dt=0.01):
    """Max |Y_simphant - Y_naive| over the output samples of a short RK4 run.

    ``case`` is ("chain", N, kind) or ("fourbar",). Returns a dict.
    """
    (sm, _), nm = build(case)
    r = sm.simulate(t_end=t_end, dt=dt, method="rk4", output_dt=output_dt)
    st = r.settings
    rule, sp_eps = simphant_eps(sm, st["alpha"], st["beta"], st["regularization"])
    nm.compile(alpha=st["alpha"], beta=st["beta"], regularization=st["regularization"],
               eps_rule=rule)
    every = int(round(output_dt / dt))
    out = nm.simulate(t_end, dt, record_every=every)
    Yn = np.array(out["states"])
    Ys = r.states
    if Ys.shape != Yn.shape:
        raise AssertionError("shape mismatch %s vs %s" % (Ys.shape, Yn.shape))
    diff = float(np.max(np.abs(Ys - Yn)))
    if len(sp_eps) != len(nm.eps):
        raise AssertionError("eps vectors differ in length: SimPhant %d, naive %d"
                             % (len(sp_eps), len(nm.eps)))
    eps_rel = float(np.max(np.abs(nm.eps - sp_eps) / np.maximum(np.abs(sp_eps), 1e-300)))
    return dict(case="/".join(str(c) for c in case), t_end=t_end, dt=dt,
                max_abs_state_diff=diff, eps_rule=rule,
                eps_min=float(nm.eps.min()), eps_max=float(nm.eps.max()),
                eps_rel_diff_vs_simphant=eps_rel,
                ok=bool(diff < TOL and eps_rel < 1e-9))


CASES = [("chain", 1, "revolute"), ("chain", 4, "revolute"), ("chain", 4, "spherical"),
         ("fourbar",)]


def run_checks(cases=CASES, **kw):
    return [compare(c, **kw) for c in cases]


def test_chain_revolute():
    res = compare(("chain", 4, "revolute"))
    assert res["ok"], res


def test_chain_spherical():
    res = compare(("chain", 4, "spherical"))
    assert res["ok"], res


def test_fourbar():
    res = compare(("fourbar",))
    assert res["ok"], res


if __name__ == "__main__":
    for res in run_checks():
        print(res)
