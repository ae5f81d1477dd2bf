"""The benchmark's naive dense NumPy solver (``bench/naive_numpy.py``) and SimPhant agree:
same trajectories to 1e-8 and the same Tikhonov eps per row to 1e-9 relative (so the speed
comparison in ``make bench`` is between two implementations of one formulation). The
checks live in ``bench/test_naive.py``; this runs them in ``make test``."""
import importlib.util
import os

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "bench")


def _checks():
    spec = importlib.util.spec_from_file_location("simphant_bench_naive_checks",
                                                  os.path.join(BENCH, "test_naive.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


NAIVE = _checks()


@pytest.mark.parametrize("case", NAIVE.CASES, ids=lambda c: "-".join(str(x) for x in c))
def test_naive_numpy_solver_matches_simphant(case):
    res = NAIVE.compare(case)
    assert res["eps_rel_diff_vs_simphant"] < 1e-9, res
    assert res["max_abs_state_diff"] < NAIVE.TOL, res
    assert res["ok"], res
