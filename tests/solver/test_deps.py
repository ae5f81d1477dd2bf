"""The dependency check (``SimPhantWorkbench.deps``) on real and planted installations.

Each case runs the check in a fresh Python whose ``sys.path`` holds planted packages
in front of (or behind) the distribution's: a numba too old, a numba and llvmlite that
do not match, a scipy that pip put next to its own numpy and that fails to import on
the numpy this Python loads, a copy of numpy that is shadowed. Numpy and scipy
themselves are the machine's (Debian's).
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from SimPhantWorkbench import deps
from SimPhantWorkbench.deps import versions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_RUN = """
import json, sys
sys.path[:0] = %(front)r
sys.path += %(back)r
from SimPhantWorkbench import deps
r = deps.check()
ctx = deps.Context("/py/python3", %(target)r, "0.20.2", True)
print(json.dumps(dict(report=r.to_dict(), reason=r.reason(), fixes=deps.fixes(r, ctx),
                      text=deps.report_text(r, ctx))))
"""


def _run_check(front=(), back=(), target="/no/target"):
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", _RUN % dict(front=[str(p) for p in front],
                                                            back=[str(p) for p in back],
                                                            target=str(target))],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["by_name"] = {f["name"]: f for f in out["report"]["findings"]
                      if f["kind"] != "shadowed"}
    return out


def _plant(folder, name, version, requires=(), body=""):
    """A package ``name`` with ``__version__`` and pip's dist-info (Requires-Dist)."""
    pkg = folder / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(body) + "\n__version__ = %r\n" % version)
    info = folder / ("%s-%s.dist-info" % (name, version))
    info.mkdir()
    # a folded License field with an all-blank line, as scipy's wheels have, before the
    # requirements
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
                                   "License: Copyright\n         \n         more text\n%s\n"
                                   "the description\n"
                                   % (name, version, "".join("Requires-Dist: %s\n" % r
                                                             for r in requires)))
    return pkg


def _numba_pair(folder, numba, llvmlite, llvm_spec):
    _plant(folder, "llvmlite", llvmlite)
    _plant(folder, "numba", numba, ["llvmlite%s" % llvm_spec, "numpy<2.6,>=1.22"])


def _loaded_numpy():
    import numpy
    return numpy.__version__


def test_version_helpers():
    assert versions.parse("2.0.0rc1") == (2, 0, 0) and versions.parse("x") == ()
    assert versions.satisfies("1.24.2", ">=1.22,<2.6")
    assert not versions.satisfies("1.24.2", ">=1.26.4,<2.7")
    assert not versions.satisfies("0.57.1", ">=0.61")
    assert versions.satisfies("0.50.0", "<0.51,>=0.50.0dev0")
    assert not versions.satisfies("0.51", "<0.51")
    assert versions.satisfies("1.2.7", "==1.2.*") and not versions.satisfies("1.3", "==1.2.*")
    lines = ["llvmlite<0.51,>=0.50.0dev0", "numpy<2.6,>=1.22", "pytest; extra == 'test'"]
    assert versions.requirement_spec(lines, "numpy") == "<2.6,>=1.22"
    assert versions.requirement_spec(lines, "pytest") is None
    assert versions.requirement_spec(["numpy (>=1.19.5)"], "numpy") == ">=1.19.5"


def test_pins_agree_with_the_requirement_files():
    def pins(name):
        with open(os.path.join(ROOT, name)) as fh:
            return tuple(tuple(line.strip().split("==")) for line in fh
                         if "==" in line and not line.startswith("#"))
    assert pins("requirements-freecad.txt") == deps.TESTED_PINS
    assert pins("requirements-viewer.txt") == deps.VIEWER_PINS
    req = {r.name: r for r in deps.REQUIREMENTS}
    for name, version in deps.TESTED_PINS:
        assert versions.satisfies(version, versions.spec_text(req[name].minimum,
                                                              req[name].below)), name


def test_missing_numba_is_named_with_the_command_that_installs_it(tmp_path):
    out = _run_check(target=tmp_path / "T")     # no Addon Manager folder: no numba
    numba = out["by_name"]["numba"]
    assert numba["severity"] == "error" and numba["kind"] == "missing"
    assert out["report"]["ok"] is False and "numba is missing" in out["reason"]
    assert out["by_name"]["numpy"]["severity"] == "ok"
    assert out["by_name"]["scipy"]["severity"] == "ok"
    (names, cmds), = out["fixes"]
    assert names == "numba, llvmlite"
    cmd = cmds[-1]
    assert cmd.startswith("/py/python3 -m pip install ") and "--no-deps" in cmd
    assert "--target %s" % (tmp_path / "T") in cmd
    assert "numba==0.68.1 llvmlite==0.50.0" in cmd
    assert "cannot solve" in out["text"] and cmd in out["text"]


def test_numba_older_than_the_tested_range_is_an_error(tmp_path):
    _numba_pair(tmp_path, "0.57.1", "0.40.1", "<0.41,>=0.40.0dev0")
    out = _run_check(front=[tmp_path])
    numba = out["by_name"]["numba"]
    assert numba["kind"] == "too old" and numba["severity"] == "error", numba
    assert "0.57.1" in numba["problem"] and deps.REQUIREMENTS[2].minimum in numba["problem"]
    assert "numba 0.57.1 is too old" in out["reason"]
    llvm = out["by_name"]["llvmlite"]
    assert llvm["kind"] == "too old"
    assert any("numba==0.68.1" in c for _n, cmds in out["fixes"] for c in cmds)


def test_numba_newer_than_tested_is_a_warning_only(tmp_path):
    _numba_pair(tmp_path, "0.70.0", "0.50.3", "<0.52,>=0.50")
    out = _run_check(front=[tmp_path])
    assert out["by_name"]["numba"]["severity"] == "warning"
    assert out["by_name"]["numba"]["kind"] == "too new"
    assert out["report"]["ok"] is True and out["fixes"] == []


def test_numba_and_llvmlite_that_do_not_match(tmp_path):
    _numba_pair(tmp_path, "0.68.1", "0.44.0", "<0.51,>=0.50.0dev0")
    out = _run_check(front=[tmp_path])
    numba = out["by_name"]["numba"]
    assert numba["kind"] == "mismatch" and numba["severity"] == "error", numba
    assert "llvmlite <0.51,>=0.50.0dev0" in numba["problem"] and "0.44.0" in numba["problem"]


def test_scipy_built_for_a_newer_numpy_is_named_with_both_versions(tmp_path):
    """What pip does on a distribution without scipy: scipy (and a newer numpy) in the
    Addon Manager's folder, while the distribution's older numpy is loaded first."""
    target = tmp_path / "AdditionalPythonPackages"
    target.mkdir()
    newer = "%d.0" % (versions.parse(_loaded_numpy())[0] + 1)
    _plant(target, "scipy", "1.17.1", ["numpy<%d.7,>=%s" % (int(newer[0]), newer)],
           body="import numpy._simphant_not_there  # as numpy.exceptions on numpy 1.24\n")
    out = _run_check(front=[target], target=target)
    scipy = out["by_name"]["scipy"]
    assert scipy["severity"] == "error" and scipy["kind"] == "mismatch", scipy
    assert "scipy 1.17.1 needs numpy" in scipy["problem"]
    assert ">=%s" % newer in scipy["problem"] and _loaded_numpy() in scipy["problem"]
    assert "_simphant_not_there" in scipy["problem"]        # the import error itself
    cmds = dict(out["fixes"])["scipy"]       # (numba is missing too: no Addon folder here)
    assert cmds[0].startswith("rm -rf ") and str(target / "scipy") in cmds[0]
    assert str(target / "scipy-1.17.1.dist-info") in cmds[0]
    assert cmds[1].endswith("apt-get install python3-scipy")


def test_scipy_that_imports_but_declares_another_numpy(tmp_path):
    newer = "%d.0" % (versions.parse(_loaded_numpy())[0] + 1)
    _plant(tmp_path, "scipy", "9.0.0", ["numpy>=%s" % newer])
    (tmp_path / "scipy" / "linalg.py").write_text("")
    (tmp_path / "scipy" / "integrate.py").write_text("")
    out = _run_check(front=[tmp_path])
    assert out["by_name"]["scipy"]["kind"] == "mismatch"
    assert out["report"]["ok"] is False


def test_shadowed_numpy_copy_is_reported(tmp_path):
    _plant(tmp_path, "numpy", "2.4.6")
    out = _run_check(back=[tmp_path])
    shadowed = [f for f in out["report"]["findings"] if f["kind"] == "shadowed"]
    assert shadowed and shadowed[0]["version"] == "2.4.6"
    assert "is not used" in shadowed[0]["problem"]
    assert out["by_name"]["numpy"]["version"] == _loaded_numpy()


def test_require_solver_raises_with_the_advice(monkeypatch):
    from SimPhantWorkbench.deps import probe as check_mod
    bad = deps.Report("3.11.0", "/py", [deps.Finding("numba", "error", "missing", None, None,
                                                      "not installed for this Python")])
    monkeypatch.setattr(check_mod, "_cached", [bad])
    with pytest.raises(deps.DependencyError) as info:
        deps.require_solver(lambda r: "ADVICE for %s" % r.errors[0].name)
    assert "numba" in str(info.value) and "ADVICE for numba" in str(info.value)
    assert isinstance(info.value, ImportError)


def test_addon_target_folders():
    assert deps.addon_target("/u", "0", path=[]) == os.path.join(
        "/u", "AdditionalPythonPackages")
    assert deps.addon_target("/u", "1", path=[]) == os.path.join(
        "/u", "AdditionalPythonPackages", "py%d%d" % sys.version_info[:2])
    assert deps.addon_target("/u", "1", path=["/x/AdditionalPythonPackages/"]) == \
        "/x/AdditionalPythonPackages"


def test_the_solver_imports_without_numba_and_refuses_to_run():
    """Without numba the registries still import (the workbench builds its commands),
    and a kernel call raises DependencyError instead of running pure Python."""
    code = ("import sys; sys.modules['numba'] = None\n"
            "from SimPhantWorkbench.solver import Model, jit, JOINT_TYPES\n"
            "from SimPhantWorkbench.solver.forces import FORCE_TYPES\n"
            "assert not jit.AVAILABLE and JOINT_TYPES and FORCE_TYPES\n"
            "m = Model(); b = m.add_body('b', mass=1.0, inertia=(1, 1, 1), "
            "position=(1, 0, 0))\n"
            "m.add_joint('revolute', m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))\n"
            "from SimPhantWorkbench.deps import DependencyError\n"
            "try:\n    m.simulate(t_end=0.01, dt=1e-3)\nexcept DependencyError as e:\n"
            "    print('REFUSED', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "REFUSED" in proc.stdout and "needs numba" in proc.stdout
