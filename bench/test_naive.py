"""The naive NumPy solver reproduces SimPhant's trajectories (so the speed
comparison is between two implementations of the SAME formulation).

Run by ``bench_chain.py`` before it times anything (``run_checks``), and also
collectable by pytest: ``tools/run_python.sh -m pytest -q bench/test_naive.py``.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import models  # noqa: E402

TOL = 1e-8


def simphant_eps(sm, alpha, beta, regularization):
    """SimPhant's Tikhonov eps rule and values, in model joint/row order.

    Introspects the compiled ``System`` (the solver is being optimised while
    this benchmark exists): ``S.row_eps`` (per row) or ``S.eps`` (global).
    Returns (rule, eps vector or None)."""
    try:
        sysm = sm.compile(alpha=alpha, beta=beta, regularization=regularization)
        S = sysm.S
        if hasattr(S, "row_eps"):
            vec = np.concatenate([np.asarray(S.row_eps)[sysm.joint_rows(j)]
                                  for j in range(len(sm.joints))])
            return "per_row", vec
        if hasattr(S, "eps"):
            return "global", np.full(int(S.nrows), float(S.eps))
    except Exception:  # noqa: BLE001 - unknown solver internals: let the trajectory decide
        pass
    return "per_row", None


def build(case):
    if case[0] == "chain":
        _, N, kind = case
        return models.chain_simphant(N, kind), models.chain_naive(N, kind)
    return models.fourbar_simphant(), models.fourbar_naive()


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
    eps_rel = None
    if sp_eps is not None and len(sp_eps) == len(nm.eps):
        eps_rel = float(np.max(np.abs(nm.eps - sp_eps) / np.maximum(np.abs(sp_eps), 1e-300)))
    return dict(case="/".join(str(c) for c in case), t_end=t_end, dt=dt,
                max_abs_state_diff=diff, eps_rule=rule,
                eps_min=float(nm.eps.min()), eps_max=float(nm.eps.max()),
                eps_rel_diff_vs_simphant=eps_rel,
                ok=bool(diff < TOL and (eps_rel is None or eps_rel < 1e-9)))


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
