"""First solve after an Addon Manager install, from FreeCAD's GUI: cold and warm.

The procedure of ``make test-addon`` (``tests/addon``), timed: a fresh profile, SimPhant
installed as FreeCAD's Addon Manager installs it (``am_install.py``: package.xml's
depends, pip into AdditionalPythonPackages), FreeCAD started under Xvfb, the workbench
activated, the bundled slider-crank opened and Solve pressed at once (the command);
the time from pressing Solve to the result stored in the study:

* ``cold``: the first FreeCAD session of the profile, nothing compiled (the kernels the
  study needs compile in the background from the moment the document opens);
* ``warm``: a second session of the same profile (the kernels load from the cache).

``kernels`` is the fixed-step loop the solve ran (``plain`` cold: the inlined one compiles
in the background after the solve's kernels; ``inlined`` warm), ``solve_to_inlined_s``
the time from Solve until the background had the inlined loop (the session is kept open
until then, as a user keeps FreeCAD open).

``--repeat N`` fresh profiles (default 1). Each entry also has the solve's
``compile_time`` (kernel preparation, waiting included), the solver's own
``wall_time``, the machine's load average before and after, and what the status bar and
the Solve dialog said, and the CPU time FreeCAD's process used from Solve to the stored
result (all threads: what the wall time comes to where the compile has a core to itself,
i.e. on an idle machine). Writes ``bench/results/first_solve_<date>.json`` and
``first_solve_latest.json``.

    tools/run_python.sh bench/bench_first_solve.py [--repeat N]
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "addon"))
sys.path.insert(0, ROOT)

from addon_env import fresh_install, run_in_gui  # noqa: E402
from gui_scripts import SOLVE  # noqa: E402


def _keep(res):
    keys = ("solve_to_stored_s", "solve_to_stored_cpu_s", "compile_time", "kernels_compiled", "wall_time", "activate_s", "state",
            "hits_misses", "ready_sizes", "slider_travel", "energy_drift", "kernels",
            "solve_to_inlined_s", "inlined_cached")
    out = {k: res.get(k) for k in keys}
    out["texts"] = res.get("texts", [])[:40]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    runs = []
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="simphant-first-solve-") as tmp:
            home, log = fresh_install(tmp, "online")
            entry = dict(install=dict(k for k in log.items() if k[0] != "target_contents"))
            for name in ("cold", "warm"):
                load0 = os.getloadavg()
                res = run_in_gui(tmp, home, name, SOLVE)[0]
                entry[name] = dict(_keep(res), load_before=load0, load_after=os.getloadavg())
                print("run %d %s: Solve -> stored %.1f s (CPU %.1f s; compile_time %.1f s, "
                      "solve %.2f s), load %.1f -> %.1f"
                      % (i + 1, name, res["solve_to_stored_s"], res["solve_to_stored_cpu_s"],
                         res["compile_time"], res["wall_time"], load0[0], os.getloadavg()[0]),
                      file=sys.stderr)
            runs.append(entry)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", ROOT, "status", "--porcelain"],
                                capture_output=True, text=True).stdout.strip())
    data = dict(date=datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), commit=commit,
                dirty=dirty, machine=dict(cpus=os.cpu_count(), python=platform.python_version(),
                                          processor=platform.processor()),
                runs=runs)
    stamp = datetime.datetime.utcnow().strftime("%Y-%m-%d_%H%M")
    for name in ("first_solve_%s.json" % stamp, "first_solve_latest.json"):
        with open(os.path.join(HERE, "results", name), "w") as fh:
            json.dump(data, fh, indent=1)
    print(json.dumps([{k: (v["solve_to_stored_s"], v["compile_time"]) for k, v in r.items()
                       if k in ("cold", "warm")} for r in runs]))


if __name__ == "__main__":
    main()
