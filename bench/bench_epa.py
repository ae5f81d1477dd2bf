"""Penetration depth of two overlapping convex solids: SimPhant's EPA on their hulls
(``collision.gjk.penetration_depth``) against FCL's (``geometry._convex_proximity``:
FCL's signed distance of the two convex meshes and the projections' bound).

Pairs: two turned convex solids overlapping, each the hull of ``n`` points on an
ellipsoid (``--points``, default 40 and 400). Per repeat, the same ``--queries`` pairs
are answered by both, back to back, in alternating order (paired runs); reported: the
median time per query of each and the median of the per-repeat ratios FCL / EPA, and
the largest difference of the depths. Run ``tools/run_python.sh bench/bench_epa.py
[--repeats 7] [--queries 200]``; writes ``bench/results/epa_<date>_<time>.json`` and
``epa_latest.json``. See bench/README.md.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
from scipy.spatial.transform import Rotation

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from SimPhantWorkbench.collision import geometry, gjk  # noqa: E402
from tests.solver.test_collision_hulls import hull_solid  # noqa: E402


def pairs(n_points, n_queries, seed=3):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n_queries:
        solids = []
        for _ in range(2):
            u = rng.normal(size=(n_points, 3))
            u /= np.linalg.norm(u, axis=1)[:, None]
            solids.append(hull_solid(u * rng.uniform(0.01, 0.03, size=3)))
        a, b = solids
        poses = [(rng.normal(size=3) * 0.01, Rotation.random(random_state=rng).as_matrix())
                 for _ in range(2)]
        if gjk.penetration_depth(a.hull_points, poses[0][1], poses[0][0], b.hull_points,
                                 poses[1][1], poses[1][0])[0] > 1e-4:
            out.append((a, poses[0], b, poses[1]))
    return out


def run_epa(cases):
    return [gjk.penetration_depth(a.hull_points, pa[1], pa[0], b.hull_points, pb[1], pb[0])[0]
            for a, pa, b, pb in cases]


def run_fcl(cases):
    return [-geometry._convex_proximity(a, pa, b, pb).distance for a, pa, b, pb in cases]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--points", type=int, nargs="+", default=[40, 400])
    args = ap.parse_args()
    gjk.warm()
    rows = {}
    for n in args.points:
        cases = pairs(n, args.queries)
        d_epa, d_fcl = np.array(run_epa(cases)), np.array(run_fcl(cases))
        t = {"epa": [], "fcl": []}
        ratios = []
        for rep in range(args.repeats):
            order = ("epa", "fcl") if rep % 2 == 0 else ("fcl", "epa")
            got = {}
            for side in order:
                t0 = time.perf_counter()
                (run_epa if side == "epa" else run_fcl)(cases)
                got[side] = (time.perf_counter() - t0) / len(cases)
                t[side].append(got[side])
            ratios.append(got["fcl"] / got["epa"])
        rows[n] = dict(epa_us=1e6 * float(np.median(t["epa"])),
                       fcl_us=1e6 * float(np.median(t["fcl"])),
                       ratio_fcl_over_epa=float(np.median(ratios)),
                       max_depth_difference_m=float(np.abs(d_epa - d_fcl).max()),
                       median_depth_m=float(np.median(d_epa)),
                       epa_us_all=[1e6 * x for x in t["epa"]],
                       fcl_us_all=[1e6 * x for x in t["fcl"]])
        r = rows[n]
        print("%4d points: EPA %.1f us, FCL %.1f us per query, FCL / EPA %.2f (median of %d "
              "paired repeats); depths differ by at most %.2e m (median depth %.2e m)"
              % (n, r["epa_us"], r["fcl_us"], r["ratio_fcl_over_epa"], args.repeats,
                 r["max_depth_difference_m"], r["median_depth_m"]))
    out = dict(queries=args.queries, repeats=args.repeats, rows=rows,
               load=os.getloadavg())
    stamp = time.strftime("%Y-%m-%d_%H%M", time.gmtime())
    for name in ("epa_%s.json" % stamp, "epa_latest.json"):
        with open(os.path.join(HERE, "results", name), "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
