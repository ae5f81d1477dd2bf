"""A fresh FreeCAD profile without numba (what the Addon Manager leaves when it refuses
numba): the workbench still activates, a dialog names numba and the command that
installs it for this FreeCAD, the commands that need the solver are greyed out with
the reason in their tooltip, documents with studies open, a solve from a script refuses
with the same advice."""
import os

from dependency_dialog_script import DIALOG
from freecad_gui import ROOT, run_gui_script


def test_without_numba_the_workbench_activates_and_says_what_to_install(tmp_path):
    home = tmp_path / "home"
    mod = home / ".local" / "share" / "FreeCAD" / "Mod"
    mod.mkdir(parents=True)
    os.symlink(ROOT, str(mod / "SimPhant"))
    script = "EXAMPLES = %r\n" % os.path.join(ROOT, "examples") + DIALOG
    res, proc = run_gui_script(tmp_path, "no_numba", script, env=dict(HOME=str(home)))
    assert res.get("active") == "SimPhantWorkbench", proc.stderr[-3000:]
    assert res["dialog"] and res["title"] == "SimPhant: dependencies missing"
    text = res["text"]
    assert "numba" in text and "missing: not installed" in text
    target = str(home / ".local" / "share" / "FreeCAD" / "AdditionalPythonPackages")
    assert "-m pip install" in text and "--target %s" % target in text
    assert "numba==0.68.1 llvmlite==0.50.0" in text and "--no-deps" in text
    assert "Copy commands" in res["buttons"]
    assert res["solve_tip"].startswith("Not available: numba is missing")
    assert res["objects"] > 5
    assert res["solve_active"] is False and res["check_active"] is False
    if res["action_tip"] is not None:
        assert "numba is missing" in res["action_tip"]
    assert res["solve"].startswith("DependencyError") and "numba==0.68.1" in res["solve"]
    assert res["job_state"] == "error" and "numba" in res["job_message"]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
