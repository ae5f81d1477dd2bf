"""Cost per variant of the parameter-study metrics of two bodies' solids
(``min(clearance(A, B))``, ``interference_time(A, B)``, ``sweep.clearance``).

The sweep: ``examples/slider_crank_sweep.toml`` on ``examples/slider_crank.FCStd`` (15
variants, 1 s each), in this process (``executor="in-process"``: every cost lands on the
same clock). Per repeat, back to back: the specification's own metrics (``base``), then
the same with ``min(clearance(Slider, Crank))`` and ``interference_time(Slider, Crank)``
added (``pair``); the extra wall time per variant is the paired difference, next to the
variant's simulation time (``sim_time``: what evaluating the metrics on a second run of
each variant on the client, as the stress metric does, would cost on top) and the bytes
of motion a worker sends back per variant (``solver.batch.poses``). Medians over the
repeats; every repeat is kept.

Writes ``bench/results/sweep_clearance_<date>_<time>.json``. Usage:
``tools/run_python.sh bench/bench_sweep_clearance.py [--repeats N]``.
"""
import argparse
import datetime as _dt
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

PAIR = {"clear": "min(clearance(Slider, Crank))", "hit": "interference_time(Slider, Crank)"}


def _sweep(study, d):
    from SimPhantWorkbench import sweep
    from SimPhantWorkbench.sweep.spec import spec_from_dict
    t0 = time.perf_counter()
    out = sweep.execute(study, spec_from_dict(d), executor="in-process")
    wall = time.perf_counter() - t0
    assert all(r["status"] == "ok" for r in out.rows), [r["message"] for r in out.rows]
    return wall, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    import tomllib
    import FreeCAD
    from SimPhantWorkbench.solver.batch import poses
    from SimPhantWorkbench import runner
    doc = FreeCAD.openDocument(os.path.join(ROOT, "examples", "slider_crank.FCStd"))
    study = doc.getObject("Study")
    with open(os.path.join(ROOT, "examples", "slider_crank_sweep.toml"), "rb") as fh:
        base = tomllib.load(fh)
    pair = dict(base, metrics=dict(base["metrics"], **PAIR))
    _sweep(study, base)                                   # kernels loaded, caches warm
    repeats = []
    for _ in range(args.repeats):
        wb, ob = _sweep(study, base)
        wp, op = _sweep(study, pair)
        n = len(op.rows)
        repeats.append(dict(base_wall=wb, pair_wall=wp, variants=n,
                            extra_per_variant=(wp - wb) / n,
                            sim_time_per_variant=sum(r["sim_time"] for r in op.rows) / n,
                            min_clearance=min(r["clear"] for r in op.rows)))
        print(repeats[-1], flush=True)
    study.EndTime = base["settings"]["t_end"]
    result = runner.run_study(study)
    motion = poses(result, result.body_names[:2])          # two bodies
    nbytes = sum(a.nbytes for v in motion.values() for a in (v if isinstance(v, tuple) else (v,)))
    med = {k: statistics.median(r[k] for r in repeats)
           for k in ("base_wall", "pair_wall", "extra_per_variant", "sim_time_per_variant")}
    med["extra_over_sim_time"] = med["extra_per_variant"] / med["sim_time_per_variant"]
    data = dict(when=_dt.datetime.utcnow().isoformat(timespec="seconds") + "Z",
                model="examples/slider_crank.FCStd", spec="examples/slider_crank_sweep.toml",
                metrics_added=PAIR, repeats=repeats, median=med,
                poses_bytes_per_variant=nbytes, output_samples=len(result.t),
                load=os.getloadavg())
    print(json.dumps(data["median"], indent=1), "poses bytes", nbytes)
    name = "sweep_clearance_%s.json" % _dt.datetime.utcnow().strftime("%Y-%m-%d_%H%M")
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", name), "w") as fh:
        json.dump(data, fh, indent=1)
    print("wrote bench/results/" + name)
    FreeCAD.closeDocument(doc.Name)


if __name__ == "__main__":
    main()
