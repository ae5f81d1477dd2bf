"""Cost of everything after the solve: building the Result, storing it in the
document, the CLI's files; and the peak memory of a long run next to MuJoCo.

Cases
=====
* **study** (in process): a 50-body CAD document (a chain of 50 aluminium links,
  ``Part::MultiFuse`` of a box and two bosses, as ``examples/make_examples.py``
  builds them, hinged end to end, released horizontal), 10 s at dt = 1 ms, one
  output sample per 10 steps (1001 samples), RK4, through ``runner.run_study``:
  the stages convert, solve (the integration loop, ``settings["wall_time"]``),
  ``Result.from_run`` (post-processing), ``store_result``, the interference check of
  every pair of links not hinged together (``document.interference.check_study``,
  default deflection), ``doc.saveAs``.
  Ratios to the solve, median over ``--repeats`` runs (paired: each ratio is
  taken within one run).
* **cli** (in process): ``simphant run`` (``cli.main``) on the same document
  saved to a file, with a timestamped stderr: the stages solve (to the end of the
  progress bar), tessellation, each written file (body CSVs, reactions.csv,
  energy.csv, the plots, result.npz/scene.npz, animation.gif, the result
  document), and the whole command; the outputs (CSV, plots, GIF, npz) over the
  solve; the real-time factor (simulated / whole-command wall time). The GIF renders
  in a second process while the CSVs, plots and document are written, so its stage
  is only the wait at the end; ``files_after_solve`` (all after the progress bar but
  the tessellation and the document) is the wall time the files cost.
* **memory** (one fresh process each): the 256-link revolute chain
  (``zoo.chain``), 10 s at 1 ms, 1001 samples; peak RSS
  (``VmHWM``) of SimPhant (``Model.simulate``; also the RSS after a 1-step
  run, i.e. Python + NumPy + SciPy + numba + the loaded kernels) and of MuJoCo
  (``models.chain_mjcf``, ``mj_step`` with qpos, qvel, qacc, xpos, xquat copied
  out at the same 1001 samples).

Writes ``bench/results/outputs_<date>_<time>.json`` and ``outputs_latest.json``.
Usage: ``make bench-outputs`` or ``tools/run_python.sh bench/bench_outputs.py
[--repeats N] [--no-cli] [--no-memory]``.
"""
import argparse
import datetime as _dt
import io
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (ROOT, HERE, os.path.join(ROOT, "examples")):
    if p not in sys.path:
        sys.path.insert(0, p)

import numpy as np  # noqa: E402

N_LINKS = 50
T_END = 10.0
DT = 1e-3
OUTPUT_DT = 1e-2
CHAIN_N = 256
#: the study case also times ``document.interference.check_study`` (every pair of links
#: but those hinged together; --no-interference leaves it out)
INTERFERENCE = True


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def median(xs):
    xs = [x for x in xs if x is not None]
    return float(np.median(xs)) if xs else None


def git(*args):
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True,
                              timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001
        return None


# ============================================================================ the document

def build_document(path, n=N_LINKS):
    """The n-link CAD chain saved at ``path``; returns nothing (the document is closed)."""
    import FreeCAD
    import example_parts as mx
    from SimPhantWorkbench import factory
    doc = mx.new_document("BenchChain%d" % n)
    length = 100.0
    pin = mx.y_cylinder(doc, "Pin", 0.0, 0.0, -20.0, 20.0, 6.0)
    pin.Label = "Pin"
    links = []
    for i in range(n):
        y0 = i * mx.THICKNESS
        links.append(mx.make_link(doc, "Link%d" % i, "Link %d" % i, (i * length, 0.0),
                                  ((i + 1) * length, 0.0), y0))
    doc.recompute()
    study = mx.new_study(doc, end_time=T_END, time_step=DT, output_interval=OUTPUT_DT)
    factory.make_body(study, pin, fixed=True, name="Support")
    prev = pin
    for i, link in enumerate(links):
        factory.make_body(study, link, density=mx.ALUMINIUM, name="B%d" % i)
        y = i * mx.THICKNESS
        factory.make_joint(study, "revolute", mx.hinge(prev, i * length, 0.0, y),
                           mx.hinge(link, i * length, 0.0, y), name="J%d" % i)
        prev = link
    doc.recompute()
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)


# ============================================================================ study stages

def study_once(path, out_dir):
    """Stage times [s] of one ``runner.run_study`` on the document at ``path``."""
    import FreeCAD
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.run import pipeline
    from SimPhantWorkbench.solver import result as result_mod
    doc = FreeCAD.openDocument(path)
    times = {}
    orig_from_run = result_mod.Result.from_run.__func__
    orig_store = pipeline.store_result
    orig_convert = pipeline.convert

    def from_run(cls, *a, **kw):
        t0 = time.perf_counter()
        r = orig_from_run(cls, *a, **kw)
        times["result_build"] = time.perf_counter() - t0
        return r

    def store(*a, **kw):
        t0 = time.perf_counter()
        r = orig_store(*a, **kw)
        times["store_result"] = time.perf_counter() - t0
        return r

    def convert(*a, **kw):
        t0 = time.perf_counter()
        r = orig_convert(*a, **kw)
        times["convert"] = time.perf_counter() - t0
        return r

    result_mod.Result.from_run = classmethod(from_run)
    pipeline.store_result = store          # the names the run pipeline calls
    pipeline.convert = convert
    try:
        study = [o for o in doc.Objects if getattr(o, "Proxy", None) is not None
                 and type(o.Proxy).__name__ == "Study"][0]
        t0 = time.perf_counter()
        result = runner.run_study(study)
        times["run_study"] = time.perf_counter() - t0
        times["solve"] = float(result.settings["wall_time"])
        times["samples"] = len(result.t)
        times["steps"] = int(result.settings.get("steps", 0))
        if INTERFERENCE:
            from SimPhantWorkbench.document.interference import check_study
            t0 = time.perf_counter()
            check = check_study(study)
            times["interference"] = time.perf_counter() - t0
            times["interference_pairs"] = len(check.reports)
            times["interference_queries"] = check.queries
            times["interference_found"] = len(check.interfering())
            times["interference_min_distance"] = check.closest().min_distance
        t0 = time.perf_counter()
        doc.saveAs(os.path.join(out_dir, "saved.FCStd"))
        times["save"] = time.perf_counter() - t0
        times["fcstd_bytes"] = os.path.getsize(os.path.join(out_dir, "saved.FCStd"))
    finally:
        result_mod.Result.from_run = classmethod(orig_from_run)
        pipeline.store_result = orig_store
        pipeline.convert = orig_convert
        FreeCAD.closeDocument(doc.Name)
    for k in ("result_build", "store_result", "save", "interference"):
        if k in times:
            times[k + "_over_solve"] = times[k] / times["solve"]
    return times


# ============================================================================ the CLI

class StampedStream(io.TextIOBase):
    """A text stream that records (time, line) of everything written to it."""

    def __init__(self):
        self.lines = []
        self._buf = ""

    def write(self, s):
        self._buf += s
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            self.lines.append((time.perf_counter(), line))
        return len(s)


def cli_once(path, out_dir, extra=()):
    """Stage times [s] of one in-process ``simphant run``."""
    from SimPhantWorkbench import cli
    err = StampedStream()
    out = io.StringIO()
    t0 = time.perf_counter()
    code = cli.main(["run", path, "--out", out_dir] + list(extra), stdout=out, stderr=err)
    t1 = time.perf_counter()
    if code != 0:
        raise RuntimeError("simphant run failed (%d): %s" % (code, "\n".join(
            line for _, line in err.lines)))
    with open(os.path.join(out_dir, "run.json")) as fh:
        info = json.load(fh)
    solve = info.get("solver_wall_time")
    # stages from the stderr marks: each "writing X" lasts until the next mark
    marks = [(ts, line) for ts, line in err.lines
             if line.startswith("writing ") or line.startswith("tessellating")]
    end_bar = None
    for ts, line in err.lines:
        if line.startswith("tessellating") or line.startswith("writing "):
            break
        end_bar = ts
    stages = {}
    for k, (ts, line) in enumerate(marks):
        nxt = marks[k + 1][0] if k + 1 < len(marks) else t1
        name = line[len("writing "):] if line.startswith("writing ") else "tessellation"
        key = "body CSVs" if name.startswith("body_") and name.endswith(".csv") else name
        stages[key] = stages.get(key, 0.0) + (nxt - ts)
    total = t1 - t0
    doc_stage = sum(v for k, v in stages.items() if k.endswith(".FCStd"))
    outputs = sum(v for k, v in stages.items() if not k.endswith(".FCStd")
                  and k != "tessellation")
    after = total - (end_bar - t0) if end_bar else None
    res = dict(total=total, stages=stages, outputs=outputs, document=doc_stage,
               after_solve=after,
               files_after_solve=(after - doc_stage - stages.get("tessellation", 0.0))
               if after is not None else None,
               until_first_output=(marks[0][0] - t0) if marks else None,
               end_of_progress=(end_bar - t0) if end_bar else None,
               run_json_solve=solve, realtime_factor=T_END / total,
               files={n: os.path.getsize(os.path.join(out_dir, n)) for n in os.listdir(out_dir)
                      if os.path.isfile(os.path.join(out_dir, n))})
    return res


# ============================================================================ memory

_MEM_SIMPHANT = r"""
import json, sys, time
sys.path[:0] = [%(root)r, %(here)r]
from SimPhantWorkbench.solver import zoo
def hwm():
    # peak RSS of this process image [MB] (VmHWM; ru_maxrss would include a forking parent's)
    with open("/proc/self/status") as fh:
        return [int(l.split()[1]) for l in fh if l.startswith("VmHWM")][0] / 1024.0
m, bodies = zoo.chain(%(n)d)[:2]
m.simulate(t_end=%(dt)r, dt=%(dt)r)
base = hwm()
m, bodies = zoo.chain(%(n)d)[:2]
t0 = time.perf_counter()
r = m.simulate(t_end=%(t_end)r, dt=%(dt)r, output_dt=%(out)r)
wall = time.perf_counter() - t0
q = [r.position(b).sum() + r.rotation_matrix(b).sum() for b in bodies[:1]]
print(json.dumps(dict(peak_mb=hwm(),
                      baseline_mb=base, samples=len(r.t), wall=wall,
                      solve=r.settings["wall_time"])))
"""

_MEM_MUJOCO = r"""
import json, os, sys, time
os.environ["MUJOCO_GL"] = "disable"
sys.path[:0] = [%(here)r]
sys.path.append(os.path.join(%(here)r, ".deps"))
import numpy as np
import mujoco
def hwm():
    # peak RSS of this process image [MB] (VmHWM; ru_maxrss would include a forking parent's)
    with open("/proc/self/status") as fh:
        return [int(l.split()[1]) for l in fh if l.startswith("VmHWM")][0] / 1024.0
m = mujoco.MjModel.from_xml_string(%(mjcf)r)
m.opt.timestep = %(dt)r
d = mujoco.MjData(m)
mujoco.mj_step(m, d, 1)
base = hwm()
d = mujoco.MjData(m)
k = int(round(%(out)r / %(dt)r))
n = int(round(%(t_end)r / %(out)r)) + 1
store = dict(t=np.zeros(n), qpos=np.zeros((n, m.nq)), qvel=np.zeros((n, m.nv)),
             qacc=np.zeros((n, m.nv)), xpos=np.zeros((n, m.nbody, 3)),
             xquat=np.zeros((n, m.nbody, 4)))
t0 = time.perf_counter()
for i in range(n):
    if i:
        mujoco.mj_step(m, d, k)
    store["t"][i] = d.time
    store["qpos"][i] = d.qpos
    store["qvel"][i] = d.qvel
    store["qacc"][i] = d.qacc
    store["xpos"][i] = d.xpos
    store["xquat"][i] = d.xquat
wall = time.perf_counter() - t0
print(json.dumps(dict(peak_mb=hwm(),
                      baseline_mb=base, samples=n, wall=wall)))
"""

#: the floor every SimPhant process has: numba's runtime once its CPU target is up (one
#: trivial kernel compiled: LLVM, numba's NumPy support), numpy and scipy.linalg (which
#: numba's NumPy support imports)
_MEM_NUMBA = r"""
import json
import numpy as np
import numba
@numba.njit(cache=False)
def f(x):
    return x.sum() + 1.0
f(np.ones(3))
import scipy.linalg
with open("/proc/self/status") as fh:
    peak = [int(l.split()[1]) for l in fh if l.startswith("VmHWM")][0] / 1024.0
print(json.dumps(dict(peak_mb=peak)))
"""


def memory_case(n=CHAIN_N):
    import models
    params = dict(root=ROOT, here=HERE, n=n, dt=DT, t_end=T_END, out=OUTPUT_DT,
                  mjcf=models.chain_mjcf(n, dt=DT))
    out = {}
    for name, code in (("simphant", _MEM_SIMPHANT), ("mujoco", _MEM_MUJOCO),
                       ("numba", _MEM_NUMBA)):
        p = subprocess.run([sys.executable, "-c", code % params], capture_output=True,
                           text=True, env=dict(os.environ, MUJOCO_GL="disable"))
        if p.returncode != 0:
            log("memory %s failed: %s" % (name, p.stderr[-2000:]))
            out[name] = dict(error=p.stderr[-2000:])
            continue
        out[name] = json.loads(p.stdout.strip().splitlines()[-1])
        log("memory %s: %s" % (name, out[name]))
    if "peak_mb" in out.get("simphant", {}) and "peak_mb" in out.get("mujoco", {}):
        out["peak_ratio"] = out["simphant"]["peak_mb"] / out["mujoco"]["peak_mb"]
        out["growth_simphant_mb"] = out["simphant"]["peak_mb"] - out["simphant"]["baseline_mb"]
        out["growth_mujoco_mb"] = out["mujoco"]["peak_mb"] - out["mujoco"]["baseline_mb"]
    if "peak_mb" in out.get("simphant", {}) and "peak_mb" in out.get("numba", {}):
        # what SimPhant adds above a bare numba process, against MuJoCo's whole peak
        out["increment_over_numba_mb"] = out["simphant"]["peak_mb"] - out["numba"]["peak_mb"]
        if "peak_mb" in out.get("mujoco", {}):
            out["increment_over_mujoco_peak"] = (out["increment_over_numba_mb"]
                                                 / out["mujoco"]["peak_mb"])
    return out


# ============================================================================ main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-study", action="store_true")
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--no-interference", action="store_true",
                    help="leave the interference check out of the study case")
    ap.add_argument("--gif-pairs", type=int, default=3,
                    help="CLI runs with the animation in a second process vs in the run's "
                         "own process, back to back (0: none)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--tag", default="")
    args = ap.parse_args(argv)
    global INTERFERENCE
    INTERFERENCE = not args.no_interference
    import FreeCAD  # noqa: F401
    res = dict(date=_dt.datetime.now().isoformat(timespec="seconds"),
               git_commit=git("rev-parse", "HEAD"), dirty=bool(git("status", "--porcelain")),
               nproc=os.cpu_count(), loadavg_start=os.getloadavg(),
               case=dict(links=N_LINKS, t_end=T_END, dt=DT, output_dt=OUTPUT_DT,
                         chain_n=CHAIN_N), tag=args.tag)
    import SimPhantWorkbench
    from SimPhantWorkbench import output as _outputs
    res["simphant_package"] = os.path.realpath(os.path.dirname(SimPhantWorkbench.__file__))
    res["animation_frames_default"] = _outputs.ANIMATION_FRAMES
    tmp = tempfile.mkdtemp(prefix="simphant_bench_")
    path = os.path.join(tmp, "chain%d.FCStd" % N_LINKS)
    t0 = time.perf_counter()
    build_document(path)
    log("document built in %.1f s" % (time.perf_counter() - t0))
    # warm-up (kernels, matplotlib, first-use costs): not counted
    log("warm-up")
    study_once(path, tmp)
    if not args.no_study:
        runs = []
        for k in range(args.repeats):
            runs.append(study_once(path, tmp))
            log("study %d: %s" % (k, {a: round(b, 4) if isinstance(b, float) else b
                                      for a, b in runs[-1].items()}))
        res["study"] = dict(runs=runs, median={
            k: median([r[k] for r in runs]) for k in runs[0]})
    if not args.no_cli:
        runs = []
        for k in range(args.repeats + 1):
            out_dir = os.path.join(tmp, "cli%d" % k)
            r = cli_once(path, out_dir)
            if k == 0:
                continue                    # warm-up (matplotlib fonts, Pillow)
            solve = None
            with open(os.path.join(out_dir, "run.json")) as fh:
                info = json.load(fh)
            r["run_json"] = {k2: v for k2, v in info.items() if not isinstance(v, (list, dict))}
            solve = _find_number(info, ("solver_wall_time",))
            r["solve"] = solve
            if solve:
                r["outputs_over_solve"] = r["outputs"] / solve
                r["files_after_solve_over_solve"] = r["files_after_solve"] / solve
                r["after_solve_over_solve"] = r["after_solve"] / solve
            runs.append(r)
            log("cli %d: total %.2f s, outputs %.2f s, solve %s, stages %s"
                % (k, r["total"], r["outputs"], solve,
                   {a: round(b, 3) for a, b in r["stages"].items()}))
        med = {k: median([r.get(k) for r in runs]) for k in
               ("total", "outputs", "document", "solve", "outputs_over_solve",
                "after_solve", "files_after_solve", "after_solve_over_solve",
                "files_after_solve_over_solve", "realtime_factor", "until_first_output",
                "end_of_progress")}
        med["stages"] = {k: median([r["stages"].get(k) for r in runs])
                         for k in runs[0]["stages"]}
        res["cli"] = dict(runs=runs, median=med)
        if args.gif_pairs:
            res["gif_process"] = gif_process_pairs(path, tmp, args.gif_pairs)
    if not args.no_memory:
        res["memory"] = memory_case()
    os.makedirs(args.out, exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y-%m-%d_%H%M")
    name = "outputs_%s%s.json" % (stamp, ("_" + args.tag) if args.tag else "")
    for fname in (name, "outputs_latest.json"):
        with open(os.path.join(args.out, fname), "w") as fh:
            json.dump(res, fh, indent=1)
    print(json.dumps({k: v.get("median", v) if isinstance(v, dict) else v
                      for k, v in res.items() if k in ("study", "cli", "memory")}, indent=1))
    log("wrote %s" % os.path.join(args.out, name))
    return 0


def gif_process_pairs(path, tmp, pairs):
    """``simphant run`` back to back with the animation in a second process and in the
    run's own process (``gif_job.can_spawn`` patched to False): paired ratios of the wall
    time after the solve and of the whole command."""
    from SimPhantWorkbench.viewer import gif_job
    real = gif_job.can_spawn
    out = dict(after_solve_ratio=[], total_ratio=[], spawned=[], in_process=[])
    try:
        for k in range(pairs):
            pair = {}
            for mode in ("spawned", "in_process"):
                gif_job.can_spawn = real if mode == "spawned" else (lambda: False)
                r = cli_once(path, os.path.join(tmp, "gif_%s_%d" % (mode, k)))
                pair[mode] = r
                out[mode].append(dict(total=r["total"], after_solve=r["after_solve"]))
            out["after_solve_ratio"].append(pair["spawned"]["after_solve"]
                                            / pair["in_process"]["after_solve"])
            out["total_ratio"].append(pair["spawned"]["total"] / pair["in_process"]["total"])
            log("gif pair %d: spawned %.2f s, in process %.2f s after the solve"
                % (k, pair["spawned"]["after_solve"], pair["in_process"]["after_solve"]))
    finally:
        gif_job.can_spawn = real
    out["median_after_solve_ratio"] = median(out["after_solve_ratio"])
    out["median_total_ratio"] = median(out["total_ratio"])
    out["loadavg_end"] = os.getloadavg()
    return out


def _find_number(info, keys):
    for k in keys:
        if isinstance(info.get(k), (int, float)):
            return float(info[k])
    for v in info.values():
        if isinstance(v, dict):
            x = _find_number(v, keys)
            if x is not None:
                return x
    return None


if __name__ == "__main__":
    sys.exit(main())
