"""Parameter-study benchmark: a 120-variant sweep of the slider-crank, Dask's overhead and a
rerun from the cache.

1. **Speed-up**: the 120 variants (slider density x crank speed, the bundled
   ``examples/slider_crank.FCStd`` as it is: 3 s, RK4, dt 1 ms) run

   * ``serial``: one after the other in this process (``executor="in-process"``:
     set the variables, convert, simulate - the loop a script would write);
   * ``dask``: ``sweep.execute(workers=N)`` as ``simphant sweep`` does it: the
     embedded cluster (a scheduler here and N ``dask worker`` processes over TLS)
     started and stopped by the sweep (start-up included);
   * ``dask-running``: the same on a cluster started beforehand (as with
     ``--scheduler``), so the start-up is not counted.

   Repeated back to back (serial, dask, dask-running, serial, ...); the
   speed-up is the median of the per-repeat ratios.

2. **Overhead per task**: one converted model whose run takes about 50 ms of CPU,
   sent as separate tasks (batch size 1, and the automatic batch size) through
   the Dask executor of a running cluster: overhead = (workers x wall time -
   summed run times in the workers) / summed run times, i.e. the share of the
   workers' time not spent simulating.

3. **Rerun from the cache**: the same 120 variants run once with a cache
   directory, then again (``simphant sweep``'s rerun): every variant from the
   cache, no cluster started (the default executor, Dask on N workers); the
   rerun's wall time against the first run's.

Writes ``bench/results/sweep_<date>.json`` and ``bench/results/sweep_latest.json``
and prints a summary. ``--quick``: 40 variants, one repeat.

    tools/run_python.sh bench/bench_sweep.py [--quick] [--repeats R] [--workers N]
"""
import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import FreeCAD  # noqa: E402

from SimPhantWorkbench.document.headless import add_mod_dirs  # noqa: E402

add_mod_dirs(FreeCAD)
import Part  # noqa: E402,F401

from SimPhantWorkbench import sweep  # noqa: E402
from SimPhantWorkbench.document.conversion import convert
from SimPhantWorkbench.document.settings import simulation_settings  # noqa: E402
from SimPhantWorkbench.solver.batch import Task  # noqa: E402
from SimPhantWorkbench.solver.metrics import parse_metric  # noqa: E402
from SimPhantWorkbench.sweep.executors import DaskExecutor  # noqa: E402

MODEL = os.path.join(ROOT, "examples", "slider_crank.FCStd")
METRICS = {"peak_wrist_force": "max(reaction_force(WristPin))",
           "peak_slider_speed": "max(speed(Slider))"}


def load():
    return os.getloadavg()


def spec(n_density, n_speed):
    return sweep.make_spec(
        [{"target": "Slider.Density", "name": "slider_density", "start": 1000.0,
          "stop": 8000.0, "count": n_density},
         {"target": "Crank.InitialAngularVelocity.y", "name": "crank_speed", "start": -360.0,
          "stop": -1080.0, "count": n_speed}], METRICS)


def timed(fn):
    la = load()[0]
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out, la


def speedup(study, sp, repeats, workers):
    import distributed
    runs = []
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0")
    try:
        address = cluster.scheduler_address
        # warm-up: the workers of the running cluster load the kernels once
        sweep.execute(study, spec(1, workers * 2), scheduler=address, batch_size=1)
        for k in range(repeats):
            rec = {}
            for mode, kw in (("serial", dict(executor="in-process")),
                             ("dask", dict(workers=workers)),
                             ("dask-running", dict(scheduler=address))):
                wall, out, la = timed(lambda: sweep.execute(study, sp, **kw))
                ok = out.count("ok")
                rec[mode] = dict(wall=wall, ok=ok, load_1min=la,
                                 conversion=out.stats["conversion_time"],
                                 sim_time=out.stats["sim_time"],
                                 sim_cpu_time=out.stats["sim_cpu_time"],
                                 client_cpu_time=out.stats["client_cpu_time"],
                                 batch_size=out.stats["batch_size"],
                                 tasks_loading_kernels=sum(1 for r in out.rows
                                                           if r["new_kernels"] > 0))
                print("repeat %d %-13s %7.2f s  (%d ok, conversion %.2f s, simulation %.2f s; "
                      "CPU: client %.2f s, simulation %.2f s; load %.1f)"
                      % (k + 1, mode, wall, ok, rec[mode]["conversion"], rec[mode]["sim_time"],
                         rec[mode]["client_cpu_time"], rec[mode]["sim_cpu_time"], la),
                      flush=True)
            runs.append(rec)
    finally:
        cluster.close()
    res = dict(runs=runs)
    for mode in ("dask", "dask-running"):
        ratios = [r["serial"]["wall"] / r[mode]["wall"] for r in runs]
        res["speedup_" + mode.replace("-", "_")] = dict(median=statistics.median(ratios),
                                                        all=ratios)
    for mode in ("serial", "dask", "dask-running"):
        res["wall_" + mode.replace("-", "_")] = statistics.median(r[mode]["wall"] for r in runs)
    # load-independent view: CPU seconds of work. Serial: all in this process. Parallel:
    # the client's (conversion, scheduling) and the workers' simulations; on ``workers``
    # otherwise idle cores the wall time is at least max(client, (client + workers) / cores)
    bounds = []
    for r in runs:
        serial = r["serial"]["client_cpu_time"]
        client, sims = r["dask-running"]["client_cpu_time"], r["dask-running"]["sim_cpu_time"]
        bounds.append(serial / max(client, sims / workers, (client + sims) / workers))
    res["cpu_bound_speedup_running"] = dict(median=statistics.median(bounds), all=bounds)
    return res


def overhead(study, n_tasks, workers, target=0.05):
    """Dask overhead per task for a study of about ``target`` seconds."""
    import distributed
    conv = convert(study)
    settings = simulation_settings(study)
    metrics = [parse_metric(METRICS["peak_wrist_force"]).resolved("WristPin")]
    # scale the end time so one run takes about ``target`` seconds
    probe = dict(settings, t_end=0.5)
    conv.model.simulate(**probe)
    per_second = math.inf
    for _ in range(3):            # CPU time: the calibration does not depend on the load
        t0 = time.process_time()
        conv.model.simulate(**probe)
        per_second = min(per_second, (time.process_time() - t0) / 0.5)
    t_end = max(0.05, round(target / per_second, 2))
    settings = dict(settings, t_end=t_end)
    tasks = [Task(i, "bench-%d" % i, conv.model, settings, metrics) for i in range(n_tasks)]
    out = dict(t_end=t_end, tasks=n_tasks)
    for nw in sorted({1, workers}):
        cluster = distributed.LocalCluster(n_workers=nw, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address="127.0.0.1:0")
        try:
            with DaskExecutor(scheduler=cluster.scheduler_address) as ex:
                ex.wait()
                ex.client.gather([ex.submit(tasks[:1]) for _ in range(nw * 2)])   # warm-up
                for batch in (1, max(1, n_tasks // (4 * nw))):
                    la = load()[0]
                    t0 = time.perf_counter()
                    futs = [ex.submit(tasks[i:i + batch]) for i in range(0, n_tasks, batch)]
                    results = [r for f in ex.client.gather(futs) for r in f]
                    wall = time.perf_counter() - t0
                    busy = sum(r["sim_time"] for r in results)
                    cpu = sum(r["cpu_time"] for r in results)
                    frac = (nw * wall - busy) / busy
                    rec = dict(workers=nw, batch_size=batch, wall=wall, summed_sim_time=busy,
                               summed_cpu_time=cpu,
                               mean_sim_time=busy / n_tasks, overhead_fraction=frac,
                               overhead_per_task=(nw * wall - busy) / n_tasks, load_1min=la,
                               tasks_loading_kernels=sum(1 for r in results
                                                         if r["new_kernels"] > 0))
                    out["workers%d_batch%d" % (nw, batch)] = rec
                    print("overhead: %d worker(s), batch %2d: run %.1f ms/task, overhead %.2f "
                          "ms/task = %.1f %% (load %.1f)"
                          % (nw, batch, 1e3 * rec["mean_sim_time"],
                             1e3 * rec["overhead_per_task"], 100 * frac, la), flush=True)
        finally:
            cluster.close()
    return out


def cache_rerun(study, sp, workers):
    """Wall time of a sweep into a cache, then of its rerun (every variant cached)."""
    import shutil
    import tempfile
    cache = tempfile.mkdtemp(prefix="simphant_bench_cache_")
    try:
        first_wall, first, la = timed(lambda: sweep.execute(study, sp, executor="in-process",
                                                            cache_dir=cache))
        rerun_wall, rerun, la2 = timed(lambda: sweep.execute(study, sp, workers=workers,
                                                             cache_dir=cache))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    cached = sum(1 for r in rerun.rows if r["cached"])
    out = dict(first_wall=first_wall, rerun_wall=rerun_wall, cached=cached,
               variants=len(rerun.rows), rerun_executor=rerun.stats["executor"],
               rerun_conversion=rerun.stats["conversion_time"],
               rerun_per_variant=rerun_wall / len(rerun.rows), load_1min=[la, la2])
    print("cache: first run %.2f s, rerun %.2f s (%d/%d from the cache, %.1f ms per variant, "
          "executor: %s)" % (first_wall, rerun_wall, cached, len(rerun.rows),
                             1e3 * out["rerun_per_variant"], out["rerun_executor"]), flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="40 variants, one repeat")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    repeats = args.repeats or (1 if args.quick else 3)
    doc = FreeCAD.openDocument(MODEL)
    study = doc.getObject("Study")
    sp = spec(8, 5) if args.quick else spec(12, 10)
    started = time.gmtime()
    info = dict(date=time.strftime("%Y-%m-%dT%H:%M:%SZ", started), machine=platform.node(),
                cpus=os.cpu_count(), python=platform.python_version(), variants=sp.size(),
                workers=args.workers, repeats=repeats, load_before=load())
    import dask
    import distributed
    info["dask"] = dask.__version__
    info["distributed"] = distributed.__version__
    print("%d variants, %d workers, %d repeat(s); load %.2f %.2f %.2f"
          % ((sp.size(), args.workers, repeats) + tuple(info["load_before"])), flush=True)
    info["speedup"] = speedup(study, sp, repeats, args.workers)
    info["overhead"] = overhead(study, 20 if args.quick else 60, args.workers)
    info["cache"] = cache_rerun(study, sp, args.workers)
    info["load_after"] = load()
    su = info["speedup"]
    print("speed-up (median): %.2fx with the cluster start, %.2fx on a running cluster; "
          "serial %.1f s, dask %.1f s, dask-running %.1f s; CPU-time bound on idle cores %.2fx"
          % (su["speedup_dask"]["median"], su["speedup_dask_running"]["median"],
             su["wall_serial"], su["wall_dask"], su["wall_dask_running"],
             su["cpu_bound_speedup_running"]["median"]))
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    stamp = time.strftime("%Y-%m-%d_%H%M", started) + ("_quick" if args.quick else "")
    for name in ("sweep_%s.json" % stamp, "sweep_latest%s.json" % ("_quick" if args.quick
                                                                    else "")):
        with open(os.path.join(HERE, "results", name), "w") as fh:
            json.dump(info, fh, indent=1, default=float)
    FreeCAD.closeDocument(doc.Name)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
