"""Cost of the interference check along a result next to the solve of the same study.

The study: the 50-body CAD chain of ``bench_outputs.py`` (50 aluminium links, each a
``Part::MultiFuse`` of a box and two bosses, hinged end to end in slabs 10 mm apart,
released horizontal; RK4, dt = 1 ms, 10 s, 1001 output samples). In one process, per
repeat: ``runner.run_study`` (the solve: ``settings["wall_time"]``), then
``document.interference.check_study`` (every pair of bodies not hinged together, default
deflection); the ratio check / solve is taken within the repeat (paired), the JSON keeps
every repeat and the medians, with the exact queries (``PairReport.queries``), the
distances of convex hulls (``PairReport.hull_queries``, 0 on versions without) and FCL's
own calls (``fcl.distance``, ``fcl.collide``, counted by wrapping them) and what the
check found (pairs, interfering pairs, smallest clearance: the same for any version).

A/B: ``--base COMMIT`` checks COMMIT out under ``bench/.ab/`` (as ``bench_ab.py``) and
runs this same script on that tree and on this checkout in turn, one fresh process per
repeat and side (base, head, base, head, ...); ``--tree DIR`` (used by ``--base``) runs
the code of ``DIR`` in this process.

Writes ``bench/results/interference_<date>_<time>[_<tag>].json`` and
``interference_latest.json``. Usage: ``tools/run_python.sh bench/bench_interference.py
[--repeats N] [--base COMMIT] [--tag NAME] [--profile]``.
"""
import argparse
import datetime as _dt
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _tree_from_argv(argv):
    if "--tree" in argv:
        return os.path.abspath(argv[argv.index("--tree") + 1])
    return ROOT


TREE = _tree_from_argv(sys.argv)
for p in (os.path.join(ROOT, "examples"), HERE, TREE):
    if p in sys.path:
        sys.path.remove(p)
    sys.path.insert(0, p)

import numpy as np  # noqa: E402


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def git(*args, cwd=ROOT):
    try:
        return subprocess.run(["git", "-C", cwd] + list(args), capture_output=True, text=True,
                              timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001
        return None


class FclCounter:
    """Counts ``fcl.distance`` and ``fcl.collide`` calls while installed."""

    def __init__(self):
        import fcl
        self.fcl = fcl
        self.counts = dict(distance=0, collide=0)
        self.orig = dict(distance=fcl.distance, collide=fcl.collide)

    def __enter__(self):
        for name, fn in self.orig.items():
            def wrapped(*a, _fn=fn, _name=name, **kw):
                self.counts[_name] += 1
                return _fn(*a, **kw)
            setattr(self.fcl, name, wrapped)
        return self

    def __exit__(self, *exc):
        for name, fn in self.orig.items():
            setattr(self.fcl, name, fn)


def one_repeat(path, profile=False):
    """Solve and interference check of the study at ``path``: a dict of timings."""
    import FreeCAD
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.document.interference import check_study
    doc = FreeCAD.openDocument(path)
    try:
        study = [o for o in doc.Objects if getattr(o, "Proxy", None) is not None
                 and type(o.Proxy).__name__ == "Study"][0]
        result = runner.run_study(study)
        log("[interference] solved in %.3f s" % result.settings["wall_time"])
        out = dict(solve=float(result.settings["wall_time"]), samples=len(result.t))
        prof = None
        if profile:
            import cProfile
            prof = cProfile.Profile()
        with FclCounter() as counter:
            t0 = time.perf_counter()
            if prof is not None:
                prof.enable()
            check = check_study(study)
            if prof is not None:
                prof.disable()
            out["interference"] = time.perf_counter() - t0
        out.update(pairs=len(check.reports), excluded=len(check.excluded),
                   queries=check.queries, fcl_distance=counter.counts["distance"],
                   hull_queries=getattr(check, "hull_queries", 0),
                   fcl_collide=counter.counts["collide"],
                   interfering=len(check.interfering()),
                   min_distance=check.closest().min_distance,
                   complete=check.complete,
                   ratio=out["interference"] / out["solve"])
        if prof is not None:
            import io
            import pstats
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(35)
            log(s.getvalue())
            s = io.StringIO()
            pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(25)
            log(s.getvalue())
        return out
    finally:
        FreeCAD.closeDocument(doc.Name)


def medians(runs):
    keys = [k for k, v in runs[0].items() if isinstance(v, (int, float))
            and not isinstance(v, bool)]
    return {k: float(np.median([r[k] for r in runs])) for k in keys}


def in_process(args):
    """The repeats of this process (the code of ``--tree``), as a dict."""
    import bench_outputs
    with tempfile.TemporaryDirectory(prefix="simphant-bench-interf-") as tmp:
        path = os.path.join(tmp, "chain.FCStd")
        if args.document:
            path = args.document
        else:
            bench_outputs.build_document(path, n=args.links)
        log("[interference] document built")
        runs = []
        for r in range(args.repeats):
            runs.append(one_repeat(path, profile=args.profile and r == 0))
            log("[interference] %s: solve %.3f s, check %.3f s (x%.2f), %d pairs, %d queries"
                % (os.path.basename(TREE), runs[-1]["solve"], runs[-1]["interference"],
                   runs[-1]["ratio"], runs[-1]["pairs"], runs[-1]["queries"]))
    import SimPhantWorkbench
    return dict(tree=TREE, commit=git("rev-parse", "HEAD", cwd=TREE), runs=runs,
                package=os.path.dirname(os.path.abspath(SimPhantWorkbench.__file__)),
                median=medians(runs))


def side_home(tree):
    """A HOME for a process running ``tree``: FreeCAD's user Mod link to ``tree`` (its
    start-up imports the workbench from there) and this HOME's Python packages."""
    home = tree.rstrip("/") + "-home"
    share = os.path.join(home, ".local", "share", "FreeCAD")
    os.makedirs(os.path.join(share, "Mod"), exist_ok=True)
    links = {os.path.join(share, "Mod", "SimPhant"): tree,
             os.path.join(share, "AdditionalPythonPackages"): os.path.join(
                 os.path.expanduser("~"), ".local", "share", "FreeCAD",
                 "AdditionalPythonPackages")}
    for link, target in links.items():
        if not os.path.islink(link):
            os.symlink(target, link)
    return home


def ab(args):
    """Base and head in turn, one fresh process per repeat and side."""
    sys.path.insert(0, HERE)
    import bench_ab
    sha, tree = bench_ab.base_tree(args.base)
    sides = dict(base=tree, head=ROOT)
    runs = dict(base=[], head=[])
    with tempfile.TemporaryDirectory(prefix="simphant-bench-interf-") as tmp:
        path = os.path.join(tmp, "chain.FCStd")
        import bench_outputs
        bench_outputs.build_document(path, n=args.links)
        for r in range(args.repeats):
            for side in ("base", "head"):
                cmd = [sys.executable, os.path.abspath(__file__), "--child", "--repeats", "1",
                       "--tree", sides[side], "--document", path]
                env = dict(os.environ)
                env["PYTHONPATH"] = sides[side] + os.pathsep + env.get("PYTHONPATH", "")
                if side == "base":
                    env["HOME"] = side_home(tree)
                p = subprocess.run(cmd, capture_output=True, text=True, env=env)
                if p.returncode != 0:
                    raise RuntimeError("%s side failed:\n%s" % (side, p.stderr[-3000:]))
                got = json.loads(p.stdout.strip().splitlines()[-1])
                runs[side] += got["runs"]
                log("[ab] %s: solve %.3f s, check %.3f s (x%.2f)"
                    % (side, got["runs"][0]["solve"], got["runs"][0]["interference"],
                       got["runs"][0]["ratio"]))
    return dict(base=dict(commit=sha, tree=tree, runs=runs["base"],
                          median=medians(runs["base"])),
                head=dict(commit=git("rev-parse", "HEAD"), runs=runs["head"],
                          median=medians(runs["head"])),
                head_over_base_check=float(np.median(
                    [h["interference"] / b["interference"]
                     for h, b in zip(runs["head"], runs["base"])])))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--base", help="A/B against this commit (a worktree under bench/.ab)")
    ap.add_argument("--tree", help="run the code of this checkout (used by --base)")
    ap.add_argument("--document", help="use this saved chain document (used by --base)")
    ap.add_argument("--child", action="store_true", help="print the JSON, write no file")
    ap.add_argument("--profile", action="store_true",
                    help="cProfile the first check (printed to stderr)")
    ap.add_argument("--links", type=int, default=50, help="links of the chain (50)")
    ap.add_argument("--tag", default="")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    data = ab(args) if args.base else in_process(args)
    if args.child:
        print(json.dumps(data))
        return 0
    data.update(date=_dt.datetime.now().isoformat(timespec="seconds"),
                git_commit=git("rev-parse", "HEAD"), dirty=bool(git("status", "--porcelain")),
                nproc=os.cpu_count(), loadavg_start=load0, loadavg_end=os.getloadavg(),
                repeats=args.repeats, tag=args.tag)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    stamp = _dt.datetime.now().strftime("%Y-%m-%d_%H%M")
    name = "interference_%s%s.json" % (stamp, "_" + args.tag if args.tag else "")
    for fname in (name, "interference_latest.json"):
        with open(os.path.join(HERE, "results", fname), "w") as fh:
            json.dump(data, fh, indent=1)
    log("[interference] wrote bench/results/%s" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
