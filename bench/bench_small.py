"""SimPhant where CAD users feel it: first use, small models, fixed cost per run.

Three parts (each can be left out):

* ``cold``   time to a ready solver in fresh processes with an empty, private
             ``NUMBA_CACHE_DIR``: ``python -m SimPhantWorkbench.solver``
             (every joint block size compiled, what ``make setup`` and the
             workbench's first activation do), then a second process that loads
             them (warm), then the first solve of a revolute chain in a third
             process (import + build + ``simulate`` of one step: its
             ``compile_time`` and total wall time);
* ``sweep``  revolute chain N = 1..32 and the closed four-bar: SimPhant RK4
             (``settings["wall_time"]``, the integration loop) vs MuJoCo RK4
             (``mj_step``), per step, ``pairs`` samples taken back to back;
             ratio = median of the per-pair ratios;
* ``fixed``  fixed cost of one ``simulate`` per N (revolute chain): ``System``
             construction (``Model.compile``), assembly, ``Result.from_run``
             (for a one-step run) and the whole ``simulate`` of one step,
             against MuJoCo's ``MjModel.from_xml_string`` + ``MjData``; medians
             of ``reps`` repetitions, in one process, interleaved.

Run ``tools/run_python.sh bench/bench_small.py [--quick] [--no-cold]`` (MuJoCo from
bench/.deps, ``make bench`` installs it). Writes ``bench/results/small_<date>.json``
and ``bench/results/latest_small.json`` and prints a table. See bench/README.md.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (HERE, ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_chain as bc  # noqa: E402  (MuJoCo import, machine info, run helpers)
import models  # noqa: E402
from SimPhantWorkbench.solver import zoo  # noqa: E402

mujoco = bc.mujoco


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def med(xs):
    xs = [x for x in xs if x is not None]
    return float(np.median(xs)) if xs else None


# ============================================================================ cold start
FIRST_SOLVE = r"""
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, %(root)r); sys.path.insert(0, %(here)r)
from SimPhantWorkbench.solver import warmup, zoo
t1 = time.perf_counter()
m = zoo.chain(%(N)d)[0]
r = m.simulate(t_end=1e-3, dt=1e-3)
t2 = time.perf_counter()
hits, misses = warmup.compile_counts()
print(json.dumps(dict(import_s=t1 - t0, solve_s=t2 - t1, in_process_s=t2 - t0,
                      compile_time=r.settings["compile_time"], cache_hits=hits,
                      cache_misses=misses)))
"""


def _run(cmd, env):
    w0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    return p, time.perf_counter() - w0


def cold_start(N=8):
    """Fresh NUMBA_CACHE_DIR: warm-up cold, warm-up again, then a first solve."""
    cache = tempfile.mkdtemp(prefix="simphant-bench-numba-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = dict(cache_dir=cache, N=N)
    try:
        # a first solve with nothing cached: what a user without the warm-up waits
        p, wall = _run([sys.executable, "-c", FIRST_SOLVE % dict(root=ROOT, here=HERE, N=N)], env)
        if p.returncode != 0:
            return dict(error=p.stderr[-2000:])
        out["first_solve_cold"] = dict(json.loads(p.stdout.strip().splitlines()[-1]),
                                       process_wall_s=wall)
        log("[small] cold first solve (one block size compiled): %.1f s" % wall)
        for label in ("warmup_cold", "warmup_warm"):
            p, wall = _run([sys.executable, "-m", "SimPhantWorkbench.solver"],
                           dict(env, PYTHONPATH=ROOT + os.pathsep + env.get("PYTHONPATH", "")))
            if p.returncode != 0:
                return dict(out, error=p.stderr[-2000:])
            out[label] = dict(process_wall_s=wall, log=p.stderr.strip().splitlines())
            log("[small] %s: %.1f s" % (label, wall))
        runs = []
        for _ in range(3):
            p, wall = _run([sys.executable, "-c", FIRST_SOLVE % dict(root=ROOT, here=HERE, N=N)],
                           env)
            if p.returncode != 0:
                return dict(out, error=p.stderr[-2000:])
            runs.append(dict(json.loads(p.stdout.strip().splitlines()[-1]), process_wall_s=wall))
        out["first_solve_after_warmup"] = dict(
            runs=runs, process_wall_s=med([r["process_wall_s"] for r in runs]),
            compile_time=med([r["compile_time"] for r in runs]),
            cache_misses=max(r["cache_misses"] for r in runs))
        log("[small] first solve after the warm-up: %.2f s (kernels %.2f s, %d compiled)"
            % (out["first_solve_after_warmup"]["process_wall_s"],
               out["first_solve_after_warmup"]["compile_time"],
               out["first_solve_after_warmup"]["cache_misses"]))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out


# ============================================================================ per-step sweep
def _sp_per_step(builder, steps, dt):
    m = builder()[0]
    r = m.simulate(t_end=steps * dt, dt=dt, output_dt=steps * dt)
    return r.settings["wall_time"] / r.settings["steps"]


def _mj_per_step(xml, steps, dt):
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.timestep = dt
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 1)
    w0 = time.perf_counter()
    mujoco.mj_step(m, d, steps)
    return (time.perf_counter() - w0) / steps


def sweep(Ns, pairs, steps, dt=1e-3):
    rows = []
    cases = [("chain", N, (lambda N=N: zoo.chain(N)[:2]),
              models.chain_mjcf(N, "revolute", dt) if mujoco else None) for N in Ns]
    cases.append(("fourbar", 3, zoo.crank_rocker,
                  models.fourbar_mjcf(dt, solref=(2 * dt, 1.0)) if mujoco else None))
    for kind, N, builder, xml in cases:
        _sp_per_step(builder, 10, dt)
        sp, mj = [], []
        for _ in range(pairs):
            sp.append(_sp_per_step(builder, steps, dt))
            if xml is not None:
                mj.append(_mj_per_step(xml, steps, dt))
        row = dict(kind=kind, N=N, simphant_per_step=med(sp), mujoco_per_step=med(mj),
                   ratio_paired=bc._paired(sp, mj) if mj else None, simphant_samples=sp,
                   mujoco_samples=mj)
        rows.append(row)
        log("[small] %s N=%d: simphant %s  mujoco %s  ratio %s" % (
            kind, N, bc.fmt_us(row["simphant_per_step"]), bc.fmt_us(row["mujoco_per_step"]),
            "%.2f" % row["ratio_paired"] if row["ratio_paired"] else "-"))
    return rows


# ============================================================================ fixed cost
def fixed_cost(Ns, reps, dt=1e-3):
    from SimPhantWorkbench.solver.assembly import assemble
    from SimPhantWorkbench.solver.result import Result
    from SimPhantWorkbench.solver.simulation import output_times
    rows = []
    for N in Ns:
        xml = models.chain_mjcf(N, "revolute", dt) if mujoco else None
        t = dict(system=[], assembly=[], result=[], simulate=[], mujoco=[])
        for _ in range(reps):
            m = zoo.chain(N)[0]
            w0 = time.perf_counter()
            system = m.compile(alpha=50.0, beta=50.0, regularization=1e-12)
            w1 = time.perf_counter()
            Y0, report = assemble(system, system.y0.copy())
            w2 = time.perf_counter()
            times = output_times(0.0, dt, dt)
            Ys = np.array([Y0, Y0])
            settings = dict(method="rk4", dt=dt, output_dt=dt, t0=0.0, t_end=dt, alpha=50.0,
                            beta=50.0, regularization=1e-12, steps=1, nfev=4, wall_time=0.0)
            w3 = time.perf_counter()
            Result.from_run(system, times, Ys, report, settings)
            w4 = time.perf_counter()
            t["system"].append(w1 - w0)
            t["assembly"].append(w2 - w1)
            t["result"].append(w4 - w3)
            m = zoo.chain(N)[0]
            w0 = time.perf_counter()
            r = m.simulate(t_end=dt, dt=dt)
            t["simulate"].append(time.perf_counter() - w0 - r.settings["wall_time"])
            if xml is not None:
                w0 = time.perf_counter()
                mm = mujoco.MjModel.from_xml_string(xml)
                mujoco.MjData(mm)
                t["mujoco"].append(time.perf_counter() - w0)
        row = dict(N=N, **{k + "_s": med(v) for k, v in t.items()})
        row["freeze_s"] = row["system_s"] + row["assembly_s"] + row["result_s"]
        row["ratio_freeze_vs_mujoco"] = (row["freeze_s"] / row["mujoco_s"]
                                         if row["mujoco_s"] else None)
        row["ratio_simulate_overhead_vs_mujoco"] = (row["simulate_s"] / row["mujoco_s"]
                                                    if row["mujoco_s"] else None)
        rows.append(row)
        log("[small] fixed N=%d: System %.3f ms, assembly %.3f ms, Result %.3f ms, simulate "
            "overhead %.3f ms; MuJoCo compile+data %s" % (
                N, 1e3 * row["system_s"], 1e3 * row["assembly_s"], 1e3 * row["result_s"],
                1e3 * row["simulate_s"],
                "%.3f ms" % (1e3 * row["mujoco_s"]) if row["mujoco_s"] else "-"))
    return rows


# ============================================================================ table
def table(res):
    L = []
    c = res.get("cold")
    if c and "error" not in c:
        L.append("first use (fresh NUMBA_CACHE_DIR, revolute chain N=%d):" % c["N"])
        L.append("  first solve, nothing cached (one block size compiled)  %6.1f s"
                 % c["first_solve_cold"]["process_wall_s"])
        L.append("  warm-up, cold: every block size compiled (make setup)   %6.1f s"
                 % c["warmup_cold"]["process_wall_s"])
        L.append("  warm-up again, new process (loads from the cache)        %6.1f s"
                 % c["warmup_warm"]["process_wall_s"])
        f = c["first_solve_after_warmup"]
        L.append("  first solve after the warm-up, new process              %6.2f s (kernels "
                 "%.2f s, %d compiled)" % (f["process_wall_s"], f["compile_time"],
                                          f["cache_misses"]))
    elif c:
        L.append("cold start failed: %s" % c["error"][-300:])
    if res.get("sweep"):
        L.append("")
        L.append("per RK4 step       N   SimPhant     MuJoCo   SimPhant/MuJoCo (paired median)")
        for r in res["sweep"]:
            L.append("  %-12s %4d %10s %10s   %s" % (
                r["kind"], r["N"], bc.fmt_us(r["simphant_per_step"]),
                bc.fmt_us(r["mujoco_per_step"]),
                "%.2f" % r["ratio_paired"] if r["ratio_paired"] else "-"))
    if res.get("fixed"):
        L.append("")
        L.append("fixed cost (ms)    N   System  assembly  Result  freeze  simulate-loop  MuJoCo"
                 "  freeze/MuJoCo")
        for r in res["fixed"]:
            L.append("  chain        %4d %8.3f %9.3f %7.3f %7.3f %14.3f %7s  %s" % (
                r["N"], 1e3 * r["system_s"], 1e3 * r["assembly_s"], 1e3 * r["result_s"],
                1e3 * r["freeze_s"], 1e3 * r["simulate_s"],
                "%.3f" % (1e3 * r["mujoco_s"]) if r["mujoco_s"] else "-",
                "%.2f" % r["ratio_freeze_vs_mujoco"] if r["ratio_freeze_vs_mujoco"] else "-"))
        L.append("  (freeze = System + assembly + Result of a one-step run; simulate-loop = a "
                 "whole one-step simulate minus its integration loop)")
    return "\n".join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer samples (about a minute "
                    "without the cold start)")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold start (~3 min)")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--no-fixed", action="store_true")
    ap.add_argument("--sizes", default="1,2,4,8,12,16,24,32")
    ap.add_argument("--fixed-sizes", default="1,2,4,8,16")
    ap.add_argument("--pairs", type=int, default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args(argv)
    pairs = args.pairs or (5 if args.quick else 15)
    steps = 100 if args.quick else 200
    reps = 7 if args.quick else 21
    t0 = time.perf_counter()
    res = dict(config=dict(pairs=pairs, steps=steps, reps=reps, quick=args.quick),
               machine=bc.machine_info())
    # the first call in this process loads the kernels (not timed)
    zoo.chain(2)[0].simulate(t_end=2e-3, dt=1e-3)
    if not args.no_cold:
        res["cold"] = cold_start()
    if not args.no_sweep:
        res["sweep"] = sweep([int(s) for s in args.sizes.split(",")], pairs, steps)
    if not args.no_fixed:
        res["fixed"] = fixed_cost([int(s) for s in args.fixed_sizes.split(",")], reps)
    res["total_bench_seconds"] = time.perf_counter() - t0
    txt = table(res)
    res["table"] = txt.splitlines()
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H%M")
    path = os.path.join(args.out, "small_%s.json" % stamp)
    for p in (path, os.path.join(args.out, "latest_small.json")):
        with open(p + ".tmp", "w") as f:
            json.dump(res, f, indent=1, default=float)
        os.replace(p + ".tmp", p)
    print(txt)
    print("\nwrote %s (total %.0f s)" % (path, res["total_bench_seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
