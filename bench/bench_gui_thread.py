"""What Solve costs FreeCAD's GUI thread on a designer-sized assembly: the parts of an
engine (a block, a crankshaft, four pistons and four connecting rods, each a filleted solid
in a file of its own) linked into an assembly as Assembly4 links them, each link a body of
the study. Solve runs ``run.prepare`` (recompute, reading the document, references, mass
properties, the conversion) and ``Run.commit`` (storing the result, one undo step) on the
GUI thread; only ``Run.execute`` runs in the worker. Times the three, median of
``--repeat`` rounds, the first round (cold: nothing read yet) apart; and ``prepare`` again
after a part file's solid moved (its recompute through the links).

    tools/run_python.sh bench/bench_gui_thread.py [--repeat N] [--json FILE]

JSON (default bench/results/gui_thread.json): per phase the median and every sample [s],
the load average before and after.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import FreeCAD  # noqa: E402
import Part  # noqa: E402

from SimPhantWorkbench import factory  # noqa: E402
from SimPhantWorkbench import run as pipeline  # noqa: E402

V = FreeCAD.Vector


def _fillet(shape, radius, edges):
    """``shape`` with ``edges`` rounded, or fewer of them where OCC refuses."""
    for n in (len(edges), len(edges) // 2, len(edges) // 4):
        try:
            return shape.makeFillet(radius, edges[:n]) if n else shape
        except Part.OCCError:
            continue
    return shape


def _lines(shape):
    return [e for e in shape.Edges if type(e.Curve).__name__ == "Line"]


def block():
    b = Part.makeBox(420, 200, 300)
    return _fillet(b, 8, b.Edges)


def crankshaft():
    s = Part.makeCylinder(25, 400, V(0, 0, 0), V(1, 0, 0))
    for k in range(4):
        s = s.fuse(Part.makeBox(20, 60, 90, V(40 + 90 * k, -30, -30)))
    s = s.removeSplitter()
    return _fillet(s, 3, _lines(s))


def piston():
    c = Part.makeCylinder(40, 60).cut(Part.makeCylinder(32, 52, V(0, 0, -1)))
    c = c.cut(Part.makeCylinder(10, 100, V(-50, 0, 20), V(1, 0, 0)))
    return _fillet(c, 2, [e for e in c.Edges if type(e.Curve).__name__ == "Circle"][:2])


def rod():
    s = Part.makeCylinder(20, 12).fuse(Part.makeCylinder(14, 12, V(0, 150, 0)))
    s = s.fuse(Part.makeBox(12, 150, 12, V(-6, 0, 0))).removeSplitter()
    return _fillet(s, 1.5, _lines(s)[:8])


def build(folder):
    """The part files and the assembly with its study; returns (study, part documents)."""
    parts = [("Block", block()), ("Crankshaft", crankshaft())]
    parts += [("Piston%d" % i, piston()) for i in range(4)]
    parts += [("Rod%d" % i, rod()) for i in range(4)]
    sources = []
    for name, shape in parts:
        doc = FreeCAD.newDocument(name)
        part = doc.addObject("App::Part", name + "Part")
        solid = doc.addObject("Part::Feature", name + "Solid")
        solid.Shape = shape
        part.addObject(solid)
        doc.recompute()
        doc.saveAs(os.path.join(folder, name + ".FCStd"))
        sources.append(part)
    doc = FreeCAD.newDocument("engine")
    doc.saveAs(os.path.join(folder, "engine.FCStd"))
    doc.UndoMode = 1
    model = doc.addObject("App::Part", "Model")
    links = []
    for i, src in enumerate(sources):
        link = doc.addObject("App::Link", src.Name[:-4] + "_1")
        link.LinkedObject = src
        link.Placement.Base = V(0, 0, 500 * i)
        model.addObject(link)
        links.append(link)
    doc.recompute()
    study = factory.make_study(doc)
    study.EndTime = 0.5
    factory.make_body(study, links[0], fixed=True)
    for link in links[1:]:
        factory.make_body(study, link, density=7850.0)
    doc.recompute()
    doc.save()
    return study, [s.Document for s in sources]


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "gui_thread.json"))
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    study, part_docs = build(tempfile.mkdtemp(prefix="simphant-engine-"))
    first, run = timed(lambda: pipeline.prepare(study))
    run.execute()                                   # kernels loaded before the rounds
    samples = {"prepare": [], "execute": [], "commit": [], "prepare_after_part_edit": []}
    crank = part_docs[1].getObject("CrankshaftSolid")
    for k in range(args.repeat):
        dt, run = timed(lambda: pipeline.prepare(study))
        samples["prepare"].append(dt)
        dt, result = timed(run.execute)
        samples["execute"].append(dt)
        dt, _ = timed(lambda: run.commit(result))
        samples["commit"].append(dt)
        crank.Placement.Base = V(0, 0, k + 1)       # an edit in a part file
        dt, _ = timed(lambda: pipeline.prepare(study))
        samples["prepare_after_part_edit"].append(dt)
    out = dict(bodies=10, parts_in_files=10, first_prepare=first,
               median={k: statistics.median(v) for k, v in samples.items()}, samples=samples,
               load_before=load0, load_after=os.getloadavg(), python=platform.python_version(),
               freecad=".".join(FreeCAD.Version()[:3]))
    for k, v in out["median"].items():
        print("%-24s %.4f s" % (k, v))
    print("first prepare            %.4f s" % first)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
