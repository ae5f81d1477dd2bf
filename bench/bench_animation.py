"""Time the run's animation.gif with both renderers (VTK and the Matplotlib fallback) and a
--video, on the output directory of ``simphant run`` (its result.npz and scene.npz).

    tools/run_python.sh bench/bench_animation.py [DIR] [--repeat N] [--json FILE]

DIR defaults to out/demo (``make demo``). Medians of N runs (default 3) in a fresh
directory each; writes JSON (default bench/results/animation.json).
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

from SimPhantWorkbench import output  # noqa: E402
from SimPhantWorkbench.viewer import files, render  # noqa: E402


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=os.path.join(ROOT, "out", "demo"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "animation.json"))
    args = ap.parse_args()
    result, scene = files.load_view_files(args.dir)
    render.ensure_display()
    out = {"dir": os.path.abspath(args.dir), "samples": len(result.t),
           "frames": output.ANIMATION_FRAMES, "machine": platform.machine(),
           "python": platform.python_version(), "repeat": args.repeat}
    with tempfile.TemporaryDirectory() as tmp:
        for renderer in ("vtk", "matplotlib"):
            path = os.path.join(tmp, renderer + ".gif")
            med, all_ = timed(lambda: files.write_animation(result, scene, path,
                                                            renderer=renderer), args.repeat)
            out["animation_%s_s" % renderer] = {"median": med, "all": all_,
                                                "bytes": os.path.getsize(path)}
            print("animation.gif %-10s median %.2f s  (%s)" % (renderer, med,
                                                               ", ".join("%.2f" % t for t in all_)))
        path = os.path.join(tmp, "video.mp4")
        med, all_ = timed(lambda: files.write_run_video(result, scene, path), args.repeat)
        out["video_mp4_960x720_30fps_s"] = {"median": med, "all": all_,
                                            "frames": len(render.video_indices(result, 30))}
        print("video.mp4 960x720 30 fps  median %.2f s  (%d frames)"
              % (med, out["video_mp4_960x720_30fps_s"]["frames"]))
    out["ratio_vtk_over_matplotlib"] = (out["animation_vtk_s"]["median"]
                                        / out["animation_matplotlib_s"]["median"])
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)
    print("ratio vtk / matplotlib: %.2f; written %s" % (out["ratio_vtk_over_matplotlib"],
                                                        args.json))


if __name__ == "__main__":
    main()
