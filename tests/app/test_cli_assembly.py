"""``simphant run`` on a document with a FreeCAD Assembly and no SimPhant study: the Assembly
is imported into a study for that run (as the GUI's Import FreeCAD Assembly does), the
summary and run.json say so, the study is saved only into the result document, and the
numbers are those of importing first and running the saved study.

FreeCAD 0.20 has no Assembly workbench: there the documents carry the objects and
properties of a 1.x Assembly (``test_assembly_import``, ``fixtures/assembly_pendulum``); the
FreeCAD 1.0 documents ``fixtures/fc1_*.FCStd`` (made by FreeCAD's Assembly API) run in
``make test-fc1``.
"""
import hashlib
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench.assembly_import import study_from_assembly
from SimPhantWorkbench.document import inventory

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
FAST = ["--no-animation", "--t-end", "0.1", "--dt", "1e-3", "--output-dt", "0.01"]


def simphant(*args):
    return subprocess.run([LAUNCHER, "run"] + [str(a) for a in args] + FAST, cwd="/",
                          capture_output=True, text=True, timeout=600)


def sha(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def arrays(out):
    with np.load(os.path.join(out, "result.npz"), allow_pickle=False) as z:
        return {k: z[k] for k in z.files if k != "meta"}         # meta: wall times


def copy_fixture(name, tmp_path):
    path = str(tmp_path / name)
    shutil.copy(os.path.join(FIXTURES, name), path)
    return path


def _is_study(entry):
    return entry.proxy == ("SimPhantWorkbench.objects.study", "Study")


def test_an_assembly_without_a_study_is_imported_for_the_run_only(tmp_path):
    model = copy_fixture("assembly_pendulum.FCStd", tmp_path)
    digest, before = sha(model), inventory.file_inventory(model)
    assert not any(_is_study(e) for e in before.values())
    out = tmp_path / "out"
    done = simphant(model, "--out", out)
    assert done.returncode == 0, done.stderr
    assert "imported Assembly 'Assembly' into a study for this run (2 bodies, 1 joints)" \
        in done.stderr
    assert ("imported from Assembly 'Assembly' for this run (2 bodies, 1 joints); saved only "
            "in assembly_pendulum_result.FCStd") in done.stdout
    info = json.loads((out / "run.json").read_text())
    assert info["imported_assembly"]["assembly"] == "Assembly"
    assert (info["imported_assembly"]["bodies"], info["imported_assembly"]["joints"]) == (2, 1)
    assert info["joints"] == [["Hinge_joint", "revolute"]]
    assert sha(model) == digest                                     # the model is not written
    saved = inventory.file_inventory(str(out / "assembly_pendulum_result.FCStd"))
    assert [n for n, e in saved.items() if _is_study(e)] == ["Study"]
    assert all(saved.get(n) == e for n, e in before.items())


def test_the_imports_warnings_are_printed(docs, tmp_path):
    from test_assembly_import import LIMITS_WARNING, add_angle_limits, build_pendulum
    doc = docs()
    add_angle_limits(build_pendulum(doc)["joint"])
    path = str(tmp_path / "limits.FCStd")
    doc.saveAs(path)
    done = simphant(path, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "simphant: warning: " + LIMITS_WARNING in done.stderr
    info = json.loads((tmp_path / "out" / "run.json").read_text())
    assert LIMITS_WARNING in info["imported_assembly"]["warnings"]


def test_in_place_is_refused_for_an_imported_study(tmp_path):
    model = copy_fixture("assembly_pendulum.FCStd", tmp_path)
    digest = sha(model)
    done = simphant(model, "--in-place", "--out", tmp_path / "out")
    assert done.returncode == 2
    assert "--in-place:" in done.stderr and "saved only into the result document" \
        in done.stderr
    assert sha(model) == digest and not (tmp_path / "out").exists()


@pytest.fixture
def two_assemblies(docs, tmp_path):
    from test_assembly_import import build_pendulum, build_slider
    doc = docs()
    build_pendulum(doc)
    build_slider(doc)
    names = [o.Label for o in doc.Objects if getattr(o, "Type", "") == "Assembly"]
    path = str(tmp_path / "two.FCStd")
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    return path, names


def test_several_assemblies_need_assembly_naming_one(two_assemblies, tmp_path):
    path, names = two_assemblies
    assert len(names) == 2
    done = simphant(path, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert "has no SimPhant study and 2 Assemblies (%s); choose one with --assembly" \
        % ", ".join(names) in done.stderr
    done = simphant(path, "--assembly", "Nothing", "--out", tmp_path / "out")
    assert done.returncode == 2 and "has no Assembly 'Nothing'" in done.stderr
    done = simphant(path, "--assembly", names[1], "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    info = json.loads((tmp_path / "out" / "run.json").read_text())
    assert info["imported_assembly"]["assembly"] == names[1]
    assert [k for _, k in info["joints"]] == ["prismatic"]           # the slider's


def test_assembly_is_refused_for_a_document_with_a_study(tmp_path):
    model = os.path.join(ROOT, "examples", "pendulum.FCStd")
    done = simphant(model, "--assembly", "Assembly", "--out", tmp_path / "out")
    assert done.returncode == 2 and "--assembly:" in done.stderr and "has a SimPhant study" \
        in done.stderr


def test_a_document_without_study_or_assembly_says_what_it_lacks(docs, tmp_path):
    doc = docs()
    doc.addObject("Part::Box", "Box")
    path = str(tmp_path / "plain.FCStd")
    doc.saveAs(path)
    done = simphant(path, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert "has no SimPhant study and no FreeCAD Assembly to make one from" in done.stderr


#: the files a fixture's App::Links show its parts from (copied beside it)
LINKED_FILES = {"fc1_linked.FCStd": ["fc1_linked_parts.FCStd"]}


def _same_numbers_as_importing_first(fixture, tmp_path):
    model = copy_fixture(fixture, tmp_path)
    for name in LINKED_FILES.get(fixture, []):
        copy_fixture(name, tmp_path)
    done = simphant(model, "--out", tmp_path / "direct")
    assert done.returncode == 0, done.stderr
    doc = FreeCAD.openDocument(model)
    try:
        study_from_assembly(doc.getObject("Assembly"))
        imported = str(tmp_path / "imported.FCStd")
        doc.saveAs(imported)
    finally:
        FreeCAD.closeDocument(doc.Name)
    done = simphant(imported, "--out", tmp_path / "first")
    assert done.returncode == 0, done.stderr
    direct, first = arrays(tmp_path / "direct"), arrays(tmp_path / "first")
    assert sorted(direct) == sorted(first)
    # equal to round-off: the saved study's joint frames come back from the file as
    # FreeCAD writes placements (rounded in the last digit); none of these runs is chaotic
    for key in direct:
        scale = max(1.0, float(np.abs(first[key]).max())) if first[key].size else 1.0
        np.testing.assert_allclose(direct[key], first[key], rtol=1e-9, atol=1e-12 * scale,
                                   err_msg=key)
    a = json.loads((tmp_path / "direct" / "run.json").read_text())
    b = json.loads((tmp_path / "first" / "run.json").read_text())
    assert a["joints"] == b["joints"] and a["moving_bodies"] == b["moving_bodies"]
    assert "imported_assembly" in a and "imported_assembly" not in b


def test_running_an_assembly_gives_the_numbers_of_importing_it_first(tmp_path):
    _same_numbers_as_importing_first("assembly_pendulum.FCStd", tmp_path)


@pytest.mark.fc1
@pytest.mark.parametrize("fixture", ["fc1_pendulum", "fc1_slider_crank", "fc1_zoo",
                                     "fc1_variants", "fc1_containers", "fc1_linked",
                                     "fc1_couplers"])
def test_freecad_1_assemblies_run_with_the_numbers_of_importing_them_first(fixture, tmp_path):
    _same_numbers_as_importing_first(fixture + ".FCStd", tmp_path)
