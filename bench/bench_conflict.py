"""Cost of naming the smallest set of conflicting drivers (``assembly.minimal_conflict``)
when an assembly fails: the failing ``Model.simulate`` call (compile, assembly, diagnosis)
with the search and without it (``CONFLICT_MAX_BODIES`` set to -1, so the message names
the left null space), alternated in pairs so that load from other processes hits both.

    tools/run_python.sh bench/bench_conflict.py [--repeat N] [--json FILE]

Models: the test zoo's four-bar with drivers on its crank and rocker pivots that disagree
(0 and 0.1 rad), and parallelogram chains of 5, 20, 29 and 40 cells with the first and
last crank driven likewise (11, 41, 59 and 81 moving bodies; 81 is above the search's
limit of 60). Per model: the median time of each side and the median of the per-pair
ratios; JSON (default bench/results/conflict.json).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from SimPhantWorkbench.solver import AssemblyError, assembly  # noqa: E402
from SimPhantWorkbench.solver.zoo import four_bar, parallelogram_chain  # noqa: E402


def driven_four_bar():
    m, _links, joints = four_bar()
    m.add_driver(joints[0], 0.0, name="first")
    m.add_driver(joints[3], 0.1, name="last")
    return m


def driven_chain(cells):
    def build():
        m, _cranks, _couplers, _joints = parallelogram_chain(cells)
        m.add_driver("G0", 0.0, name="first")
        m.add_driver("G%d" % cells, 0.1, name="last")
        return m
    return build


def failing(build, search):
    """Seconds of the failing simulate call, and the elements the error names."""
    m = build()
    saved = assembly.CONFLICT_MAX_BODIES
    if not search:
        assembly.CONFLICT_MAX_BODIES = -1
    try:
        t0 = time.perf_counter()
        try:
            m.simulate(t_end=0.01, dt=1e-3)
        except AssemblyError as exc:
            return time.perf_counter() - t0, list(exc.joints)
        raise RuntimeError("the model assembled")
    finally:
        assembly.CONFLICT_MAX_BODIES = saved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "conflict.json"))
    args = ap.parse_args()
    cases = [("four_bar", driven_four_bar)] + [
        ("parallelogram_chain_%d" % c, driven_chain(c)) for c in (5, 20, 29, 40)]
    out = dict(python=sys.version.split()[0], machine=platform.machine(),
               load=os.getloadavg(), repeat=args.repeat, cases={})
    for name, build in cases:
        failing(build, True)                      # warm-up (kernels, caches)
        on, off, ratios = [], [], []
        named = None
        for _ in range(args.repeat):
            t_on, named = failing(build, True)
            t_off, named_off = failing(build, False)
            on.append(t_on)
            off.append(t_off)
            ratios.append(t_on / t_off)
        row = dict(bodies=len(build().bodies), search_s=statistics.median(on),
                   null_space_s=statistics.median(off), ratio=statistics.median(ratios),
                   named_with_search=named, named_without=named_off)
        out["cases"][name] = row
        print("%-26s %3d bodies  search %.4f s  null space %.4f s  ratio %.2f  names %s (of %d)"
              % (name, row["bodies"], row["search_s"], row["null_space_s"], row["ratio"],
                 ",".join(named), len(named_off)))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
