"""Where an evaluation of the revolute chain goes: each stage of the evaluator timed alone.

For each N, the chain of ``SimPhantWorkbench/solver/zoo.py`` (bars of 1 m, 1 kg) is run
for 0.3 s (RK4, dt = 1 ms) to a moving state; then, in one process and in turn, a
compiled loop calls one stage of the inlined evaluator ``reps`` times on that state
(``kernels._inlined_stages``: bodies, forces, constraint rows, Schur assembly,
factorisation, the two triangular solves, the multipliers' forces), the whole evaluation,
and a 2 s ``simulate`` of the same chain whose per-step time / 4 is the RK4 stage's share
in a run (the fixed-step loop around the evaluations included: ``loop`` = that minus
one evaluation). ``--repeat`` rounds; the table gives medians, ns per call.

A stage called alone runs on warm caches with the data of the last evaluation, and the
processor overlaps consecutive calls of it; so the stages do not add up exactly to an
evaluation. Read the shares and compare runs of this script, not single numbers.

Run ``tools/run_python.sh bench/bench_stages.py [--sizes 16,32] [--repeat 7]``. Writes
``bench/results/stages_<date>.json`` and ``bench/results/latest_stages.json``.
"""
import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from numba import njit  # noqa: E402

from SimPhantWorkbench.solver import Model, kernels as K, warmup  # noqa: E402
from SimPhantWorkbench.solver.zoo import chain  # noqa: E402

RESULTS = os.path.join(HERE, "results")
STAGES = ("bodies", "forces", "rows", "schur", "factor", "solve", "apply", "evaluate")
_I = K._inlined_stages
_upd = _I["update_bodies"]
_frc = _I["build_forces"]
_rows = _I["constraint_rows"]
_asm = _I["assemble_schur"]
_fac = _I["factor_schur"]
_sol = _I["solve_schur"]
_app = _I["apply_multipliers"]
_ev = K.evaluate_inlined


@njit(boundscheck=False, _nrt=False)
def _loop(which, reps, Y, S, W):
    for _ in range(reps):
        if which == 0:
            _upd(Y, S, W)
        elif which == 1:
            _frc(S, W)
        elif which == 2:
            _rows(S, W)
        elif which == 3:
            _asm(S, W)
        elif which == 4:
            _fac(S, W)
        elif which == 5:
            for r in range(S.nrows):
                W.res[r] = W.rhs[r]
            _sol(S, W, W.res)
        elif which == 6:
            _app(S, W, W.lam, W.acc)
        else:
            _ev(0.0, Y, S, W)
    return 0


def measure(n, repeat, reps):
    m, _, _ = chain(n)
    warmup.ensure_inlined(warmup.model_block_size(m), Model)
    sysm = m.compile()
    res = m.simulate(t_end=0.3, dt=1e-3, method="rk4", output_dt=0.05)
    Y = np.ascontiguousarray(res.states[-1][:sysm.y0.shape[0]])
    S, W = sysm.S, sysm.W
    _ev(0.0, Y, S, W)
    for i in range(len(STAGES)):
        _loop(i, 10, Y, S, W)
    samples = {name: [] for name in STAGES + ("step/4",)}
    for _ in range(repeat):
        for i, name in enumerate(STAGES):
            t = time.perf_counter()
            _loop(i, reps, Y, S, W)
            samples[name].append((time.perf_counter() - t) / reps * 1e9)
        r = m.simulate(t_end=2.0, dt=1e-3, method="rk4", output_dt=1e-2)
        if r.settings.get("kernels") != "inlined":
            raise RuntimeError("the run did not use the inlined loop: %s" % r.settings)
        samples["step/4"].append(r.settings["wall_time"] / r.settings["steps"] * 1e9 / 4)
    med = {k: float(np.median(v)) for k, v in samples.items()}
    med["loop"] = med["step/4"] - med["evaluate"]
    return dict(median_ns=med, samples_ns=samples)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="16,32", help="chain lengths, comma-separated")
    ap.add_argument("--repeat", type=int, default=7, help="rounds of samples")
    ap.add_argument("--reps", type=int, default=4000, help="calls per sample")
    ap.add_argument("--out", default=None, help="JSON file (default bench/results/stages_...)")
    args = ap.parse_args(argv)
    out = dict(date=datetime.datetime.utcnow().isoformat(timespec="seconds"),
               loadavg_start=os.getloadavg(), repeat=args.repeat, reps=args.reps, sizes={})
    cols = STAGES + ("step/4", "loop")
    print("%5s " % "N" + " ".join("%9s" % c for c in cols))
    for n in (int(x) for x in args.sizes.split(",")):
        row = out["sizes"][str(n)] = measure(n, args.repeat, args.reps)
        print("%5d " % n + " ".join("%9.0f" % row["median_ns"][c] for c in cols), flush=True)
    out["loadavg_end"] = os.getloadavg()
    os.makedirs(RESULTS, exist_ok=True)
    path = args.out or os.path.join(
        RESULTS, "stages_%s.json" % datetime.datetime.utcnow().strftime("%Y-%m-%d_%H%M"))
    for p in (path, os.path.join(RESULTS, "latest_stages.json")):
        with open(p, "w") as f:
            json.dump(out, f, indent=1)
    print("written", path)


if __name__ == "__main__":
    main()
