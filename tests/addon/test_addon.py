"""``make test-addon``: SimPhant installed as FreeCAD's Addon Manager installs it, in a
fresh profile, then used from FreeCAD's GUI (under Xvfb).

* numba allowed (the allow-list FreeCAD fetches online): pip puts numba, llvmlite and
  its own numpy into the Addon Manager's folder; the workbench activates, the bundled
  slider-crank is solved by pressing Solve; the stored result has the right numbers;
  the first solve compiles (the dialog and the status bar say so) the plain fixed-step
  loop, the inlined one compiles in the background meanwhile, a second FreeCAD session
  loads both (and says so) and runs the inlined one -- times in ``$SIMPHANT_ADDON_TIMES``
  when set;
* numba refused (the allow-list FreeCAD ships): the workbench activates, a dialog names
  numba and the command, Solve is greyed; ``simphant doctor`` says the same, exit 5;
* a distribution without its scipy package: pip puts scipy and a newer numpy into the
  folder; where FreeCAD's own numpy is older than that scipy needs (FreeCAD 0.20 on
  Debian 12), the dialog names the mismatch, both versions and the commands.
"""
import json
import os

import pytest

from addon_env import doctor, fresh_install, run_in_gui
from dependency_dialog_script import DIALOG
from gui_scripts import SOLVE

from SimPhantWorkbench.deps import versions


def _check_solve(res):
    assert res.get("deps_ok") is True, res
    assert res["state"] == "done", res
    assert res["samples"] == 301 and abs(res["t_end"] - 3.0) < 1e-12
    assert abs(res["slider_travel"] - 0.12) < 1e-4, res["slider_travel"]   # -0.16 .. -0.04 m
    assert res["energy_drift"] < 1e-6, res["energy_drift"]


def test_installed_by_the_addon_manager_solves_from_the_gui(tmp_path):
    home, log = fresh_install(tmp_path, "online")
    assert log["missing"] == ["numba"] and log["installed"] == ["numba"], log
    assert any(n.startswith("numba-") for n in log["target_contents"])
    code, rep = doctor(home)
    assert code == 0 and rep["ok"], rep
    cold = run_in_gui(tmp_path, home, "cold", SOLVE)[0]
    _check_solve(cold)
    texts = [t for _k, t in cold["texts"]]
    assert any("compiling the solver kernels, first use on this computer" in t for t in texts)
    assert not any(t.startswith("SimPhant: loading") for t in texts)
    assert cold["compile_time"] > 1.0 and cold["ready_sizes"] == [5], cold
    # the solve waited for the compile the opened document started: counted as compiling
    assert cold["kernels_compiled"] > 0, cold
    # ... of the plain fixed-step loop only; the inlined one compiled in the background
    assert cold["kernels"] == "plain" and cold["inlined_cached"] is True, cold
    warm = run_in_gui(tmp_path, home, "warm", SOLVE)[0]
    _check_solve(warm)
    assert warm["hits_misses"][1] == 0, warm          # loaded from the cache, none compiled
    assert warm["kernels"] == "inlined", warm
    assert warm["kernels_compiled"] == 0
    assert not any("compiling" in t for _k, t in warm["texts"]), warm["texts"]
    assert warm["solve_to_stored_s"] < cold["solve_to_stored_s"]
    out = os.environ.get("SIMPHANT_ADDON_TIMES")
    if out:
        with open(out, "w") as fh:
            json.dump(dict(install=log, cold=cold, warm=warm), fh, indent=1)


def test_without_numba_the_dialog_names_it_and_the_command(tmp_path):
    home, log = fresh_install(tmp_path, "shipped")
    assert log["refused"] == ["numba"] and log["installed"] == [], log
    res = run_in_gui(tmp_path, home, "no_numba", DIALOG)[0]
    assert res["active"] == "SimPhantWorkbench" and res["dialog"], res
    assert "numba" in res["title"] or "missing" in res["title"]
    assert "numba, llvmlite:" in res["text"] and "--target %s" % log["target"] in res["text"]
    assert "numba==0.68.1 llvmlite==0.50.0" in res["text"]
    assert res["solve_tip"].startswith("Not available: numba is missing")
    assert res["objects"] > 5 and res["solve_active"] is False
    assert res["solve"].startswith("DependencyError") and "numba==0.68.1" in res["solve"]
    code, rep = doctor(home)
    assert code == 5 and not rep["ok"] and "numba==0.68.1" in rep["text"]


def test_scipy_from_pip_next_to_an_older_freecad_numpy(tmp_path):
    home, log = fresh_install(tmp_path, "online", hide_scipy=True)
    assert "scipy" in log["installed"], log
    scipy_info = [n for n in log["target_contents"] if n.startswith("scipy-")]
    assert scipy_info, log["target_contents"]
    with open(os.path.join(log["target"], scipy_info[0], "METADATA")) as fh:
        spec = versions.requirement_spec([line.split(":", 1)[1].strip() for line in fh
                                          if line.startswith("Requires-Dist:")], "numpy")
    code, rep = doctor(home)
    numpy = [f for f in rep["findings"] if f["name"] == "numpy" and f["kind"] != "shadowed"][0]
    scipy = [f for f in rep["findings"] if f["name"] == "scipy"][0]
    assert scipy["location"] == log["target"], scipy
    if versions.satisfies(numpy["version"], spec):
        # FreeCAD's numpy is new enough for pip's scipy (FreeCAD 1.x on Debian 13)
        assert code == 0 and scipy["severity"] == "ok", rep
        return
    assert code == 5 and scipy["kind"] == "mismatch", rep
    assert "needs numpy %s" % spec in scipy["problem"] and numpy["version"] in scipy["problem"]
    res = run_in_gui(tmp_path, home, "broken_scipy", DIALOG)[0]
    assert res["active"] == "SimPhantWorkbench" and res["dialog"], res
    assert "scipy" in res["text"] and "mismatch" in res["text"]
    assert "rm -rf %s" % os.path.join(log["target"], "scipy") in res["text"]
    assert "apt-get install python3-scipy" in res["text"]
    assert res["solve_tip"].startswith("Not available: scipy mismatch")
    assert res["solve"].startswith("DependencyError") and "python3-scipy" in res["solve"]


@pytest.fixture(autouse=True)
def _pip_cache():
    os.makedirs(os.environ.get("SIMPHANT_PIP_CACHE", "/var/cache/simphant/pip"), exist_ok=True)
