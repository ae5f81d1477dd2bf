"""Hostile-but-fair input: crafted documents and results, foreign files in the output
directory, faults injected half-way. Each case must end with a clear error naming the
object at fault (or a correct run), and nothing outside the run's own manifest may change:
the folder is hashed before and after."""
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
import tracemalloc
import zipfile

import numpy as np
import pytest

import FreeCAD

from helpers_doc import all_placements, docs, pendulum  # noqa: F401
from SimPhantWorkbench import cli, factory, outdir, playback, result_check, runner
from SimPhantWorkbench.objects.base import is_type
from SimPhantWorkbench.objects.study import study_result
from SimPhantWorkbench.solver import ModelError

T_END = "0.05"


def run_cli(*argv, progress=None):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], progress=progress, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def tree_hashes(root):
    """``{relative path: sha256}`` of every file under ``root`` (hidden ones included)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(str(root)):
        for f in filenames:
            full = os.path.join(dirpath, f)
            with open(full, "rb") as fh:
                out[os.path.relpath(full, str(root))] = hashlib.sha256(fh.read()).hexdigest()
    return out


def changed(before, after):
    return {k for k in set(before) | set(after) if before.get(k) != after.get(k)}


def manifest_files(out):
    with open(os.path.join(str(out), "run.json")) as fh:
        return set(json.load(fh)["files"])


def assert_only_manifest_changed(root, out, before):
    """Every file that changed under ``root`` is one the run's manifest in ``out`` lists."""
    after = tree_hashes(root)
    rel = os.path.relpath(str(out), str(root))
    allowed = {os.path.normpath(os.path.join(rel, f)) for f in manifest_files(out)}
    assert changed(before, after) <= allowed, changed(before, after) - allowed


def edit_fcstd(src, dst, xml=None, replace=None):
    """Copy the .FCStd ``src`` to ``dst`` with ``Document.xml`` passed through ``xml(text)``
    and members replaced by ``replace`` ({name: bytes})."""
    replace = replace or {}
    with zipfile.ZipFile(str(src)) as zin, \
            zipfile.ZipFile(str(dst), "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Document.xml" and xml is not None:
                data = xml(data.decode("utf-8")).encode("utf-8")
            if info.filename in replace:
                data = replace[info.filename]
            zout.writestr(info, data)
    return str(dst)


def object_data_start(xml, name):
    """Offset of ``<Object name="...">`` inside ``<ObjectData>``."""
    return xml.index('<Object name="%s"' % name, xml.index("<ObjectData"))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A saved pendulum (fixed Pin, Rod on a revolute Hinge) with a Force on the rod."""
    folder = tmp_path_factory.mktemp("model")
    doc = FreeCAD.newDocument("HostileModel")
    try:
        p = pendulum(doc)
        factory.make_force(p["study"], p["link"], (0.0, 0.0, -0.01), name="Push")
        path = str(folder / "swing.FCStd")
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path


@pytest.fixture
def work(tmp_path, model):
    """A folder with a copy of the model; returns (folder, model path)."""
    path = str(tmp_path / "swing.FCStd")
    with open(model, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    return tmp_path, path


# ============================================================================ the CLI's files

def test_rerunning_a_result_document_into_its_own_folder_is_refused(work):
    """Item 1: the previous run's result document is the input; it must not be removed."""
    root, model = work
    out = root / "out"
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    result_doc = out / "swing_result.FCStd"
    before = tree_hashes(root)
    code, _, err = run_cli("run", result_doc, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == cli.EXIT_INPUT, err
    assert "swing_result.FCStd" in err and "choose another output directory" in err
    assert tree_hashes(root) == before
    # into another folder it runs, and the input stays
    code, _, err = run_cli("run", result_doc, "--out", root / "again", "--t-end", T_END,
                           "--no-animation")
    assert code == 0, err
    assert tree_hashes(root)["out/swing_result.FCStd"] == before["out/swing_result.FCStd"]


def test_a_foreign_run_json_removes_nothing(work):
    """Item 1: a run.json the run did not write lists another file: that file stays."""
    root, model = work
    out = root / "out"
    out.mkdir()
    (out / "victim.txt").write_text("precious")
    (root / "outside.txt").write_text("precious too")
    (out / "run.json").write_text(json.dumps({"files": ["victim.txt", "../outside.txt"],
                                              "run_id": "x", "sha256": {"victim.txt": "0" * 64}}))
    before = tree_hashes(root)
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    assert (out / "victim.txt").read_text() == "precious"
    assert (root / "outside.txt").read_text() == "precious too"
    assert_only_manifest_changed(root, out, before)


def test_only_unchanged_files_of_the_previous_run_are_removed(work):
    root, model = work
    out = root / "out"
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    info = json.load(open(out / "run.json"))
    assert set(info["sha256"]) == set(info["files"]) - {"run.json"} and info["run_id"]
    (out / "body_Rod_body.csv").write_text("edited by hand")     # no longer the run's file
    os.symlink(model, out / "link.FCStd")
    info["sha256"]["link.FCStd"] = outdir.file_sha256(model)       # a symlink is never removed
    json.dump(info, open(out / "run.json", "w"))
    other = root / "other.FCStd"
    doc = FreeCAD.openDocument(model)
    try:
        body = next(o for o in doc.Objects if is_type(o, "SimPhant::Body") and not o.Fixed)
        body.Label = "Arm"
        doc.saveAs(str(other))
    finally:
        FreeCAD.closeDocument(doc.Name)
    code, _, err = run_cli("run", other, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    files = set(os.listdir(out))
    assert "swing_result.FCStd" not in files                  # proved the previous run's
    assert (out / "body_Rod_body.csv").read_text() == "edited by hand"
    assert os.path.islink(out / "link.FCStd") and os.path.exists(model)
    assert {"body_Arm.csv", "other_result.FCStd"} <= files


def test_partial_folders_of_interrupted_runs_are_removed(work):
    root, model = work
    out = root / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    host = __import__("socket").gethostname()
    stale = out / (outdir.STAGING_PREFIX + "dead")
    stale.mkdir()
    (stale / ".owner.json").write_text(json.dumps(dict(pid=dead.pid, host=host)))
    (stale / "energy.csv").write_text("half")
    old = out / (outdir.STAGING_PREFIX + "old")
    old.mkdir()
    (old / "x.csv").write_text("half")
    os.utime(old, (time.time() - 2 * outdir.STALE_AGE,) * 2)
    busy = out / (outdir.STAGING_PREFIX + "busy")          # a run in progress: kept
    busy.mkdir()
    (busy / ".owner.json").write_text(json.dumps(dict(pid=os.getpid(), host=host)))
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    assert not stale.exists() and not old.exists() and busy.exists()
    assert "left by an interrupted run" in err
    assert [n for n in os.listdir(out) if n.startswith(".")] == [busy.name]


def test_an_unwritable_output_is_reported_before_the_run(work):
    root, model = work
    (root / "afile").write_text("x")
    calls = []
    code, _, err = run_cli("run", model, "--out", root / "afile" / "out", "--t-end", T_END,
                           progress=lambda t, te: calls.append(t))
    assert code == cli.EXIT_INPUT and "cannot write to the output directory" in err
    assert calls == []                       # the simulation never started


# ============================================================================ documents

@pytest.mark.parametrize("prop,old,new", [("JointType", "revolute", "screw"),
                                          ("Integrator", "rk4", "magic")])
def test_unknown_enumeration_values_are_kept_and_refused(work, prop, old, new):
    """Item 2: a value a newer version wrote is not replaced by item 0."""
    root, model = work
    bad = edit_fcstd(model, root / "newer.FCStd",
                     xml=lambda x: x.replace('<Enum value="%s"/>' % old, '<Enum value="%s"/>' % new))
    before = tree_hashes(root)
    code, _, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END, "--no-animation")
    assert code == cli.EXIT_INPUT, err
    owner = "Joint 'Hinge'" if prop == "JointType" else "Study 'Study'"
    assert "%s: %s '%s' is not known to this version" % (owner, prop, new) in err
    assert tree_hashes(root) == before and not (root / "out").exists()
    doc = FreeCAD.openDocument(bad)
    try:
        obj = doc.getObject("Hinge" if prop == "JointType" else "Study")
        assert getattr(obj, prop) == new                      # visible, not substituted
        study = doc.getObject("Study")
        with pytest.raises(ModelError, match="'%s' is not known" % new):
            runner.run_study(study, t_end=0.01)
        assert study_result(study) is None
        obj.Document.saveAs(str(root / "resaved.FCStd"))      # the value survives a save
    finally:
        FreeCAD.closeDocument(doc.Name)
    doc = FreeCAD.openDocument(str(root / "resaved.FCStd"))
    try:
        assert getattr(doc.getObject("Hinge" if prop == "JointType" else "Study"), prop) == new
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_an_enumeration_index_out_of_range_is_refused(work):
    root, model = work

    def out_of_range(x):
        i = x.index('name="JointType"')
        j = x.index("<Integer value=", i)
        k = x.index("/>", j)
        return x[:j] + '<Integer value="42" CustomEnum="true"' + x[k:]
    bad = edit_fcstd(model, root / "bad.FCStd", xml=out_of_range)
    code, _, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT and "Joint 'Hinge': JointType has no value" in err


@pytest.mark.parametrize("where", ["Push", "Study", "Body001"])
def test_a_truncated_document_is_refused(work, where):
    """Item 3: Document.xml cut off (before the Force's data, in the study...)."""
    root, model = work
    bad = edit_fcstd(model, root / "cut.FCStd",
                     xml=lambda x: x[:object_data_start(x, where) + 150])
    before = tree_hashes(root)
    code, _, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "cut.FCStd' is damaged: its Document.xml is cut off" in err
    assert "has no bodies" not in err
    assert tree_hashes(root) == before


def test_a_member_whose_data_is_missing_is_named(work):
    """Item 3: well-formed XML, but the Force's data block is gone."""
    root, model = work

    def drop(x):
        i = object_data_start(x, "Push")
        j = x.index("</Object>", i) + len("</Object>")
        return x[:i] + '<Object name="Push"></Object>' + x[j:]
    bad = edit_fcstd(model, root / "lost.FCStd", xml=drop)
    code, _, err = run_cli("run", bad, "--out", root / "out", "--t-end", T_END)
    assert code == cli.EXIT_INPUT, err
    assert "damaged" in err and "'Push'" in err, err


def test_the_legacy_fixture_still_passes_the_document_check():
    from SimPhantWorkbench.document_check import document_problems
    path = os.path.join(os.path.dirname(__file__), "fixtures", "study_v0_1.FCStd")
    doc = FreeCAD.openDocument(path)
    try:
        assert document_problems(doc, path) == []
    finally:
        FreeCAD.closeDocument(doc.Name)
