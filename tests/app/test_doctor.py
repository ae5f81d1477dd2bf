"""``simphant doctor``: the check in FreeCAD's Python (freecadcmd), with no set-up first."""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXE = os.path.join(ROOT, "bin", "simphant")


def _doctor(home=None, *args):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if home is not None:
        env["HOME"] = str(home)
    proc = subprocess.run([EXE, "doctor"] + list(args), capture_output=True, text=True,
                          env=env, timeout=600)
    return proc


def test_doctor_in_this_setup_finds_everything():
    proc = _doctor(None, "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["ok"] and rep["checked"].startswith("FreeCAD's Python")
    names = {f["name"]: f for f in rep["findings"]}
    assert all(names[n]["severity"] in ("ok", "warning")
               for n in ("numpy", "scipy", "numba", "llvmlite"))


def test_doctor_in_a_fresh_profile_names_numba_and_exits_4(tmp_path):
    proc = _doctor(tmp_path, "--json")
    assert proc.returncode == 5, proc.stdout + proc.stderr
    rep = json.loads(proc.stdout)
    numba = [f for f in rep["findings"] if f["name"] == "numba"][0]
    assert numba["kind"] == "missing" and not rep["ok"]
    target = os.path.join(str(tmp_path), ".local", "share", "FreeCAD",
                          "AdditionalPythonPackages")
    assert "--target %s" % target in rep["text"] and "numba==0.68.1" in rep["text"]
    text = _doctor(tmp_path)
    assert text.returncode == 5 and "numba, llvmlite:" in text.stdout
    assert "Traceback" not in text.stderr
