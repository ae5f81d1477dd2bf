"""Playback frame rate of the workbench's timeline panel, in the real FreeCAD GUI.

    tools/run_python.sh bench/bench_playback.py [--repeat 3] [--out bench/results/playback.json]

Starts FreeCAD under Xvfb (``xvfb-run freecad``) on this script, which builds
N-link chains of boxes (spherical joints, the first on a fixed base) for
N = 3 and 50, solves them (1 s, 101 frames), opens the playback task panel
and measures, each ``--repeat`` times:

* ``step``: frames per second stepping through every frame as fast as it
  goes -- ``TaskPlayback.show_frame`` (the panel's ``playback.Session`` writing
  the placements, + markers; ``apply_frame_ms``) followed by the GUI's event
  processing, which redraws the 3D view once (``events_ms``: FreeCAD's share);
* ``realtime_10x``: frames actually shown per second of wall time while the
  panel plays at 10x speed (its timer skips frames it cannot show in time).

Writes medians (and every repetition) as JSON and prints them. The machine
is shared: quote medians, compare runs made back to back.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZES = (3, 50)


def launcher(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "playback_%s.json"
                                                  % time.strftime("%Y-%m-%d_%H%M")))
    args = ap.parse_args(argv)
    env = dict(os.environ, QTWEBENGINE_DISABLE_SANDBOX="1", SIMPHANT_BENCH_OUT=args.out,
               SIMPHANT_BENCH_REPEAT=str(args.repeat))
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "freecad",
                           os.path.abspath(__file__)], env=env, capture_output=True, text=True,
                          timeout=3600)
    if not os.path.exists(args.out):
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-3000:])
        return 1
    with open(args.out) as f:
        data = json.load(f)
    for n, r in sorted(data["results"].items(), key=lambda kv: int(kv[0])):
        print("%3s bodies: step %.1f frames/s, real time 10x %.1f frames/s (medians of %d); "
              "a frame: SimPhant %.1f ms + FreeCAD events/redraw %.1f ms"
              % (n, r["step_fps_median"], r["realtime10_fps_median"], data["repeat"],
                 r["apply_frame_ms_median"], r.get("events_ms_median", float("nan"))))
    print("written", args.out)
    return 0


# ----------------------------------------------------------------------------- in FreeCAD

def chain(doc, n):
    import FreeCAD
    from SimPhantWorkbench import factory
    base = doc.addObject("Part::Box", "Base")
    base.Length, base.Width, base.Height = 10, 10, 10
    base.Placement.Base = FreeCAD.Vector(-10, 0, 0)
    links = []
    for i in range(n):
        b = doc.addObject("Part::Box", "Link%d" % i)
        b.Length, b.Width, b.Height = 20, 10, 10
        b.Placement.Base = FreeCAD.Vector(20 * i, 0, 0)
        links.append(b)
    doc.recompute()
    study = factory.make_study(doc)
    study.EndTime, study.TimeStep, study.OutputInterval = 1.0, 1e-3, 0.01
    factory.make_body(study, base, fixed=True)
    for b in links:
        factory.make_body(study, b, density=1000)

    def vertex_at(obj, x):
        for k, v in enumerate(obj.Shape.Vertexes, 1):
            if (v.Point - FreeCAD.Vector(x, 0, 0)).Length < 1e-6:
                return "Vertex%d" % k
        raise ValueError(obj.Label)
    prev = base
    for i, b in enumerate(links):
        factory.make_joint(study, "spherical", (prev, vertex_at(prev, 20 * i)),
                           (b, vertex_at(b, 20 * i)))
        prev = b
    return study


def log(text):
    """Progress lines into ``<out>.log`` when SIMPHANT_BENCH_LOG is set."""
    if not os.environ.get("SIMPHANT_BENCH_LOG"):
        return
    with open(os.environ["SIMPHANT_BENCH_OUT"] + ".log", "a") as f:
        f.write("%s %s\n" % (time.strftime("%H:%M:%S"), text))


def measure(n, repeat):
    import FreeCAD
    import FreeCADGui
    from PySide import QtGui
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.taskpanels import task_playback
    doc = FreeCAD.newDocument("Chain%d" % n)
    study = chain(doc, n)
    log("%d bodies: model built" % n)
    runner.run_study(study)
    log("%d bodies: solved" % n)
    FreeCADGui.ActiveDocument.ActiveView.viewIsometric()
    FreeCADGui.SendMsgToActiveView("ViewFit")
    app = QtGui.QApplication.instance()
    step, realtime, apply_ms, events_ms = [], [], [], []
    if os.environ.get("SIMPHANT_BENCH_PROFILE"):
        import cProfile
        import pstats
        panel = task_playback.show(study, ask_on_close=False)
        prof = cProfile.Profile()
        prof.enable()
        for i in range(panel.n):
            panel.show_frame(i)
            app.processEvents()
        prof.disable()
        panel.close(keep=False)
        with open(os.environ["SIMPHANT_BENCH_OUT"] + ".prof%d.txt" % n, "w") as f:
            pstats.Stats(prof, stream=f).sort_stats("cumulative").print_stats(40)
    for _ in range(repeat):
        panel = task_playback.show(study, ask_on_close=False)
        app.processEvents()
        t0 = time.perf_counter()
        t_apply = t_events = 0.0
        for i in range(panel.n):
            ta = time.perf_counter()
            panel.show_frame(i)
            tb = time.perf_counter()
            app.processEvents()
            t_apply += tb - ta
            t_events += time.perf_counter() - tb
        step.append(panel.n / (time.perf_counter() - t0))
        apply_ms.append(1000.0 * t_apply / panel.n)
        events_ms.append(1000.0 * t_events / panel.n)
        log("%d bodies: step %.1f frames/s (writing a frame %.1f ms)" % (n, step[-1],
                                                                         apply_ms[-1]))
        panel.show_frame(0)
        panel.speed.setValue(10.0)
        shown0 = panel.frames_shown
        t0 = time.perf_counter()
        panel.start()
        while panel.playing:
            app.processEvents()
            time.sleep(0.001)
        realtime.append((panel.frames_shown - shown0) / (time.perf_counter() - t0))
        log("%d bodies: real time 10x %.1f frames/s" % (n, realtime[-1]))
        panel.close(keep=False)
        app.processEvents()
    # the same stepping with the SimPhant markers hidden: what drawing them costs
    from SimPhantWorkbench.document.base import proxy_type
    for o in doc.Objects:
        if str(proxy_type(o)).startswith("SimPhant::"):
            o.ViewObject.Visibility = False
    panel = task_playback.show(study, ask_on_close=False)
    app.processEvents()
    t0 = time.perf_counter()
    for i in range(panel.n):
        panel.show_frame(i)
        app.processEvents()
    hidden = panel.n / (time.perf_counter() - t0)
    log("%d bodies: step with markers hidden %.1f frames/s" % (n, hidden))
    panel.close(keep=False)
    FreeCAD.closeDocument(doc.Name)
    return dict(bodies=n, frames=101, step_fps=step, realtime10_fps=realtime,
                step_fps_markers_hidden=hidden,
                apply_frame_ms=apply_ms, apply_frame_ms_median=statistics.median(apply_ms),
                events_ms=events_ms, events_ms_median=statistics.median(events_ms),
                step_fps_median=statistics.median(step),
                realtime10_fps_median=statistics.median(realtime))


def in_freecad():
    import FreeCAD
    import FreeCADGui
    out = os.environ["SIMPHANT_BENCH_OUT"]
    repeat = int(os.environ.get("SIMPHANT_BENCH_REPEAT", "3"))
    try:
        FreeCADGui.activateWorkbench("SimPhantWorkbench")
        FreeCADGui.getMainWindow().showMaximized()
        load_before = os.getloadavg()
        data = dict(benchmark="playback", freecad=".".join(FreeCAD.Version()[:3]),
                    repeat=repeat, date=time.strftime("%Y-%m-%d %H:%M"),
                    note="frames per second of the playback panel in FreeCAD under Xvfb "
                         "(software OpenGL), 1280x800 window; shared 2-core machine",
                    results={str(n): measure(n, repeat) for n in SIZES
                             if str(n) in os.environ.get("SIMPHANT_BENCH_SIZES", "3 50").split()})
        data["load_average_before_after"] = [load_before[0], os.getloadavg()[0]]
        data["commit"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                        capture_output=True, text=True).stdout.strip()
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            json.dump(data, f, indent=1)
    finally:
        for name in list(FreeCAD.listDocuments()):
            FreeCAD.closeDocument(name)
        FreeCADGui.getMainWindow().close()


if "SIMPHANT_BENCH_OUT" in os.environ and "FreeCADGui" in sys.modules:
    in_freecad()
elif __name__ == "__main__":
    sys.exit(launcher(sys.argv[1:]))
