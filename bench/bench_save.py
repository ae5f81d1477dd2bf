"""Cost of the checked save next to FreeCAD's own: the document of ``bench_outputs`` (a
50-link CAD chain) with its stored result (10 s, 1001 samples), opened through
``document.opening.ModelFile``, then saved back to back, alternately,
``--repeats`` times each:

* **freecad**: ``doc.saveAs`` and the view data put back (what ``ModelFile.save_as`` did
  before the save was checked);
* **checked**: ``ModelFile.save_as`` (``saveCopy`` to a temporary file, view data, zip CRCs,
  ``Document.xml`` and the object inventory checked, then moved into place).

Reports the median of each and the median of the paired ratios checked / freecad, and the
file size. Writes ``bench/results/save_<date>_<time>.json`` and ``save_latest.json``.
Usage: ``tools/run_python.sh bench/bench_save.py [--repeats N]``.
"""
import argparse
import datetime as _dt
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for p in (ROOT, HERE, os.path.join(ROOT, "examples")):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_outputs import N_LINKS, build_document, git, log, median  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args(argv)
    import FreeCAD
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.cli.common import import_freecad
    from SimPhantWorkbench.document.opening import ModelFile, restore_gui_members
    import_freecad()
    tmp = tempfile.mkdtemp(prefix="simphant_bench_save_")
    path = os.path.join(tmp, "chain%d.FCStd" % N_LINKS)
    build_document(path)
    with ModelFile(FreeCAD, path) as model:
        runner.run_study(model.study())
        model.save_as(os.path.join(tmp, "warm.FCStd"))            # first-use costs
        times = dict(freecad=[], checked=[])
        for k in range(args.repeats):
            for how in ("freecad", "checked") if k % 2 == 0 else ("checked", "freecad"):
                target = os.path.join(tmp, "%s%d.FCStd" % (how, k))
                t0 = time.perf_counter()
                if how == "checked":
                    model.save_as(target)
                else:
                    model.doc.saveAs(target)
                    restore_gui_members(target, model.gui)
                times[how].append(time.perf_counter() - t0)
            log("save %d: freecad %.3f s, checked %.3f s"
                % (k, times["freecad"][-1], times["checked"][-1]))
        size = os.path.getsize(os.path.join(tmp, "checked0.FCStd"))
    res = dict(date=_dt.datetime.now().isoformat(timespec="seconds"),
               git_commit=git("rev-parse", "HEAD"), dirty=bool(git("status", "--porcelain")),
               nproc=os.cpu_count(), loadavg_start=os.getloadavg(), links=N_LINKS,
               fcstd_bytes=size, runs=times,
               median=dict(freecad=median(times["freecad"]), checked=median(times["checked"]),
                           ratio=median([c / f for c, f in zip(times["checked"],
                                                               times["freecad"])])))
    os.makedirs(args.out, exist_ok=True)
    name = "save_%s.json" % _dt.datetime.now().strftime("%Y-%m-%d_%H%M")
    for fname in (name, "save_latest.json"):
        with open(os.path.join(args.out, fname), "w") as fh:
            json.dump(res, fh, indent=1)
    print(json.dumps(res["median"], indent=1))
    log("wrote %s" % os.path.join(args.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
