"""The two fixed-step loops: per-step time of the plain and the inlined one, and what
each took to compile here.

``kernels.integrate_fixed`` calls the stages of an evaluation; a first solve runs it
while ``kernels.integrate_fixed_inlined`` (the stages inlined) compiles in the
background (``solver/warmup.py``). This measures what that costs per step, paired in one
process (plain, inlined, plain, ... on the same model, so that load from other processes
hits both sides alike): the revolute chain of ``solver/zoo.py`` (bars of 1 m, 1 kg,
released horizontal), RK4, dt = 1 ms, a sample every 10 steps; a sample is
``settings["wall_time"] / settings["steps"]`` of one ``simulate``. Per size: the median of
each side and of the per-pair ratios plain / inlined. The compile times are those
measured on this computer (``simphant-compile-times.json`` next to numba's cache:
``<block size>-fixed`` is the plain loop with everything a run needs, ``-inlined`` the
inlined loop on top). JSON: ``bench/results/loops_<date>.json`` and ``loops_latest.json``.

    tools/run_python.sh bench/bench_loops.py [--pairs 15] [--steps 2000] [--sizes 1,4,16]
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from SimPhantWorkbench.solver import kernel_times, warmup, zoo  # noqa: E402


def per_step(model, kind, steps):
    with warmup.use_kernels(kind):
        r = model.simulate(t_end=steps * 1e-3, dt=1e-3, method="rk4", output_dt=1e-2)
    assert r.settings["kernels"] == kind
    return r.settings["wall_time"] / r.settings["steps"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--sizes", default="1,2,4,8,16,32")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    out = dict(date=datetime.datetime.now().isoformat(timespec="seconds"),
               commit=subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                     capture_output=True, text=True).stdout.strip(),
               machine=dict(cpu=platform.processor() or platform.machine(),
                            cores=os.cpu_count(), load_before=os.getloadavg()),
               compile_times=kernel_times.load(warmup.cache_path()), sizes={})
    for n in sizes:
        model = zoo.chain(n)[0]
        for kind in ("plain", "inlined"):         # prepared (compiled or loaded) first
            per_step(model, kind, 10)
        plain, inlined = [], []
        for _ in range(args.pairs):
            plain.append(per_step(model, "plain", args.steps))
            inlined.append(per_step(model, "inlined", args.steps))
        ratio = np.array(plain) / np.array(inlined)
        row = dict(plain_us=1e6 * float(np.median(plain)),
                   inlined_us=1e6 * float(np.median(inlined)),
                   ratio_plain_over_inlined=float(np.median(ratio)),
                   ratio_quartiles=[float(q) for q in np.percentile(ratio, [25, 75])])
        out["sizes"][str(n)] = row
        print("N=%3d  plain %.2f us  inlined %.2f us  plain/inlined %.2f" % (
            n, row["plain_us"], row["inlined_us"], row["ratio_plain_over_inlined"]),
            file=sys.stderr, flush=True)
    out["machine"]["load_after"] = os.getloadavg()
    results = os.path.join(HERE, "results")
    os.makedirs(results, exist_ok=True)
    name = "loops_%s.json" % datetime.datetime.now().strftime("%Y-%m-%d_%H%M")
    for fn in (name, "loops_latest.json"):
        with open(os.path.join(results, fn), "w") as fh:
            json.dump(out, fh, indent=1)
    print(os.path.join("bench", "results", name))


if __name__ == "__main__":
    main()
