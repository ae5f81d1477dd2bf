"""A/B per-step benchmark: this checkout against an older commit, paired in one run.

``make bench BENCH_BASE=<commit>`` (or ``tools/run_python.sh bench/bench_ab.py --base
<commit>``) checks the base commit out into a ``git worktree`` under ``bench/.ab/``
(detached, kept for the next run) with a numba cache of its own
(``NUMBA_CACHE_DIR`` in that worktree), starts one long-lived worker process per
tree (the base, this checkout, and with ``--mujoco`` MuJoCo), and asks them in turn
for a timing sample of the same mechanism: base, head, MuJoCo, base, head, ... so
that load from other processes hits every side of a pair alike.

Mechanism: the revolute chain of ``SimPhantWorkbench/solver/zoo.py`` (bars of 1 m, 1 kg,
released horizontal; built with the public ``Model`` API that every commit has), RK4,
dt = 1 ms, one output sample every 10 steps; ``--forces`` adds two sides: each
tree's chain with a torsional spring-damper on every joint.
A SimPhant sample is ``settings["wall_time"] / settings["steps"]`` of one
``simulate`` (the integration loop; building and post-processing are not timed), a
MuJoCo sample ``mj_step(m, d, steps)`` on the same chain (MJCF of ``models.py``).

Per size: median per-step time of each side and the median of the per-pair ratios
head / base, head / MuJoCo and (springs) head+springs / head. JSON: ``bench/results/ab_<base>_<date>.json`` and
``bench/results/latest_ab.json``. See bench/README.md, "A/B against an older commit".
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
AB_DIR = os.path.join(HERE, ".ab")
RESULTS = os.path.join(HERE, "results")
DEPS = os.path.join(HERE, ".deps")
SIZES = (1, 2, 4, 8, 16, 32, 64, 256)

#: the worker run in each tree: reads one JSON request per line on stdin and answers
#: one JSON line; only the public Model API (present in every commit benchmarked)
WORKER = r"""
import json, math, sys, time
import numpy as np
from SimPhantWorkbench.solver import Model

def chain(n, forces):
    m = Model(gravity=(0.0, 0.0, -9.81))
    r = 0.02
    inertia = (0.5 * r * r, (3 * r * r + 1.0) / 12.0, (3 * r * r + 1.0) / 12.0)
    prev = m.ground
    for i in range(n):
        b = m.add_body("bar%d" % i, mass=1.0, inertia=inertia, position=(i + 0.5, 0.0, 0.0))
        j = m.add_joint("revolute", prev, b, point=(float(i), 0.0, 0.0), axis=(0.0, 1.0, 0.0))
        if forces:
            m.add_joint_spring(j, stiffness=10.0, damping=0.5)
        prev = b
    return m

try:    # trees with two fixed-step loops: time the one every later solve runs
    from SimPhantWorkbench.solver import warmup
    ensure_inlined = warmup.ensure_inlined
except (ImportError, AttributeError):
    ensure_inlined = None

models = {}
for line in sys.stdin:
    req = json.loads(line)
    key = (req["N"], req["forces"])
    try:
        if key not in models:
            models[key] = chain(*key)
            if ensure_inlined is not None:
                ensure_inlined(warmup.model_block_size(models[key]), Model)
            models[key].simulate(t_end=2e-3, dt=1e-3, method="rk4", output_dt=1e-3)
        m = models[key]
        steps = req["steps"]
        r = m.simulate(t_end=steps * 1e-3, dt=1e-3, method="rk4", output_dt=1e-2)
        out = dict(per_step=r.settings["wall_time"] / r.settings["steps"],
                   kernels=r.settings.get("kernels"))
    except Exception as exc:  # noqa: BLE001 - the parent records it
        out = dict(error="%s: %s" % (type(exc).__name__, exc))
    print(json.dumps(out), flush=True)
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def git(*args, cwd=ROOT):
    return subprocess.run(["git", "-C", cwd] + list(args), capture_output=True, text=True,
                          check=True).stdout.strip()


def base_tree(commit):
    """A detached worktree of ``commit`` under bench/.ab (made once, reused)."""
    sha = git("rev-parse", "--verify", commit + "^{commit}")
    path = os.path.join(AB_DIR, sha[:12])
    if not os.path.isdir(path):
        os.makedirs(AB_DIR, exist_ok=True)
        log("[ab] git worktree add --detach %s %s" % (path, sha[:12]))
        git("worktree", "add", "--detach", path, sha)
    return sha, path


def _env(tree, cache):
    """The environment of a worker importing the solver of ``tree``: this process's
    PYTHONPATH with this checkout replaced by ``tree``, and its own numba cache."""
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
             if p and os.path.abspath(p) != ROOT and not p.startswith(os.path.join(ROOT, "tools"))]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree] + parts))
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    else:
        env.pop("NUMBA_CACHE_DIR", None)
    return env


class Worker:
    """A SimPhant worker process of one tree."""

    def __init__(self, label, tree, cache=None):
        self.label = label
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=tree,
                                     env=_env(tree, cache), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def sample(self, N, steps, forces=False):
        self.proc.stdin.write(json.dumps(dict(N=N, steps=steps, forces=forces)) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("worker %s died" % self.label)
        out = json.loads(line)
        self.kernels = out.get("kernels")       # the fixed-step loop that ran, if told
        return out.get("per_step"), out.get("error")

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:  # noqa: BLE001
            self.proc.kill()


class MujocoSide:
    """MuJoCo's RK4 on the same chain, in this process."""

    def __init__(self):
        if os.path.isdir(DEPS) and DEPS not in sys.path:
            sys.path.append(DEPS)
        os.environ.setdefault("MUJOCO_GL", "disable")
        if HERE not in sys.path:
            sys.path.insert(0, HERE)
        import mujoco
        import models
        self.mujoco = mujoco
        self.models = models
        self.version = mujoco.__version__
        self.cache = {}

    def sample(self, N, steps, forces=False):
        if forces:
            return None, "no spring model"
        mj = self.mujoco
        if N not in self.cache:
            m = mj.MjModel.from_xml_string(self.models.chain_mjcf(N, "revolute", 1e-3))
            self.cache[N] = (m, mj.MjData(m))
        m, d = self.cache[N]
        mj.mj_resetData(m, d)
        w0 = time.perf_counter()
        mj.mj_step(m, d, steps)
        return (time.perf_counter() - w0) / steps, None

    def close(self):
        pass


def steps_for(N, budget=0.25):
    """Steps per sample: about ``budget`` seconds of SimPhant at ~1.2 us per link-step."""
    return int(min(10000, max(200, budget / (1.5e-6 + 1.2e-6 * N))))


def run(args):
    if args.base_tree:
        # a checkout of the base with a compiled cache of its own (next to its sources)
        path = os.path.abspath(args.base_tree)
        sha = git("rev-parse", "--verify", args.base + "^{commit}", cwd=path)
        if git("rev-parse", "HEAD", cwd=path) != sha:
            raise SystemExit("--base-tree %s is not at %s" % (path, args.base))
        base_w = Worker("base", path)
    else:
        sha, path = base_tree(args.base)
        base_w = Worker("base", path, os.path.join(path, ".numba-cache"))
    head = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--", "SimPhantWorkbench/solver")
    head_w = Worker("head", ROOT)
    workers = [base_w, head_w]
    # (label, worker, with springs): one timing sample of each per pair, in this order
    sides = [("base", base_w, False), ("head", head_w, False)]
    mujoco_version = None
    if args.mujoco:
        try:
            mj = MujocoSide()
            sides.append(("mujoco", mj, False))
            workers.append(mj)
            mujoco_version = mj.version
        except Exception as exc:  # noqa: BLE001
            log("[ab] MuJoCo unavailable (%s): without it" % exc)
    if args.forces:
        sides += [("base+springs", base_w, True), ("head+springs", head_w, True)]
    out = dict(base=sha, head=head, head_solver_dirty=bool(dirty), base_tree=path,
               date=datetime.datetime.now().isoformat(timespec="seconds"),
               loadavg_start=os.getloadavg(), pairs=args.pairs, mujoco=mujoco_version,
               sizes={})
    try:
        for N in args.sizes:
            steps = steps_for(N)
            samples = {label: [] for label, _, _ in sides}
            errors = {}
            for label, w, forces in sides:        # first sample of each side: not counted
                _, err = w.sample(N, steps, forces)
                if err:
                    errors[label] = err
            for _ in range(args.pairs):
                for label, w, forces in sides:
                    if label in errors:
                        samples[label].append(None)
                        continue
                    v, err = w.sample(N, steps, forces)
                    samples[label].append(v)
                    if err:
                        errors[label] = err
            row = dict(steps=steps, samples=samples, errors=errors,
                       kernels={label: getattr(w, "kernels", None) for label, w, _ in sides})
            for label, _, _ in sides:
                xs = [x for x in samples[label] if x is not None]
                row[label] = float(np.median(xs)) if xs else None
            for num, den in (("head", "base"), ("head", "mujoco"), ("head+springs", "head"),
                             ("head+springs", "base+springs")):
                pairs = [x / y for x, y in zip(samples.get(num, []), samples.get(den, []))
                         if x and y]
                row[num + "/" + den] = float(np.median(pairs)) if pairs else None
                row[num + "/" + den + "_range"] = [min(pairs), max(pairs)] if pairs else None
            out["sizes"][str(N)] = row
            log("[ab] N=%-4d base %s  head %s  mujoco %s  head/base %s  head/mujoco %s  "
                "springs/bare %s  springs head/base %s" % (
                    N, _us(row.get("base")), _us(row.get("head")), _us(row.get("mujoco")),
                    _x(row.get("head/base")), _x(row.get("head/mujoco")),
                    _x(row.get("head+springs/head")), _x(row.get("head+springs/base+springs"))))
    finally:
        for w in workers:
            w.close()
    out["loadavg_end"] = os.getloadavg()
    return out


def _us(v):
    return "%8.2f us" % (v * 1e6) if v else "       -   "


def _x(v):
    return "%.3f" % v if v else "-"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the commit to compare with (any git revision)")
    ap.add_argument("--base-tree", default=None,
                    help="an existing checkout at the base commit whose numba cache is "
                         "compiled (it is used as it is; default: a worktree under bench/.ab)")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="chain sizes, comma separated (default %(default)s)")
    ap.add_argument("--pairs", type=int, default=9, help="timing samples per side and size")
    ap.add_argument("--forces", action="store_true",
                    help="also this checkout's chain with a spring-damper on every joint "
                         "(ratio to the bare chain, paired)")
    ap.add_argument("--mujoco", action="store_true", help="MuJoCo as a third side")
    ap.add_argument("--out", default=None, help="JSON file (default bench/results/ab_...)")
    args = ap.parse_args(argv)
    args.sizes = [int(x) for x in args.sizes.split(",") if x]
    out = run(args)
    os.makedirs(RESULTS, exist_ok=True)
    path = args.out or os.path.join(RESULTS, "ab_%s_%s.json" % (
        out["base"][:7], datetime.datetime.now().strftime("%Y-%m-%d_%H%M")))
    for p in (path, os.path.join(RESULTS, "latest_ab.json")):
        with open(p, "w") as fh:
            json.dump(out, fh, indent=1)
    log("[ab] written %s" % path)


if __name__ == "__main__":
    main()
