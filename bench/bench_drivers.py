"""Cost of drivers: the slider-crank of the model zoo (``solver/zoo.py``) run free (its crank
given the motor's speed at t0) and driven by a motor at constant speed (the driver row
joins the crank pivot's block: 6 rows instead of 5), dynamic (RK4, dt 1 ms) and in
kinematic analysis (Newton per output sample); and a 16-link revolute chain with and
without a motor on its first joint (block size 5 -> 6 for the whole chain).

    tools/run_python.sh bench/bench_drivers.py [--repeat N]

Writes ``bench/results/drivers_<date>.json`` (medians of N runs after a warm-up run, wall
seconds) and prints them.
"""
import argparse
import datetime
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (HERE, ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

import numpy as np  # noqa: E402

from SimPhantWorkbench.solver.drivers import MotionFunction  # noqa: E402
from SimPhantWorkbench.solver.zoo import chain, slider_crank  # noqa: E402

OMEGA = 2 * math.pi


def free_crank():
    """The slider-crank without its motor, the crank spun at OMEGA."""
    return slider_crank(omega=OMEGA, driven=False)[0]


def driven_crank():
    return slider_crank(omega=OMEGA)[0]


def driven_chain(n=16):
    m, _bodies, joints = chain(n)
    m.add_driver(joints[0], MotionFunction("ramp", value=0.0, rate=1.0))
    return m


CASES = {
    "slider_crank_free_rk4": (free_crank, lambda m: m.simulate(t_end=2.0, dt=1e-3, output_dt=0.01)),
    "slider_crank_motor_rk4": (driven_crank, lambda m: m.simulate(t_end=2.0, dt=1e-3,
                                                                  output_dt=0.01)),
    "slider_crank_motor_kinematic": (driven_crank, lambda m: m.kinematic(2.0, 0.01)),
    "chain16_free_rk4": (lambda: chain(16)[0], lambda m: m.simulate(t_end=1.0, dt=1e-3,
                                                                    output_dt=0.01)),
    "chain16_motor_rk4": (driven_chain, lambda m: m.simulate(t_end=1.0, dt=1e-3,
                                                             output_dt=0.01)),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    out = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
           "repeat": args.repeat, "cases": {}}
    for name, (build, run) in CASES.items():
        run(build())                                  # warm-up (compiles)
        times = []
        for _ in range(args.repeat):
            m = build()
            t0 = time.perf_counter()
            run(m)
            times.append(time.perf_counter() - t0)
        out["cases"][name] = {"median_s": float(np.median(times)), "times_s": times}
        print("%-32s %8.4f s (median of %d)" % (name, np.median(times), args.repeat))
    c = out["cases"]
    out["ratios"] = {
        "slider_crank_motor_over_free": c["slider_crank_motor_rk4"]["median_s"]
        / c["slider_crank_free_rk4"]["median_s"],
        "chain16_motor_over_free": c["chain16_motor_rk4"]["median_s"]
        / c["chain16_free_rk4"]["median_s"],
    }
    for k, v in out["ratios"].items():
        print("%-32s %8.3f" % (k, v))
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    path = os.path.join(HERE, "results", "drivers_%s.json"
                        % datetime.datetime.now().strftime("%Y-%m-%d_%H%M"))
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
