"""Hostile-but-fair input: crafted documents and results, foreign files in the output
directory, faults injected half-way. Each case must end with a clear error naming the
object at fault (or a correct run), and nothing outside the run's own manifest may change:
the folder is hashed before and after."""
import json
import os
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest

import FreeCAD

from helpers_doc import all_placements, docs, pendulum  # noqa: F401
from SimPhantWorkbench import cli, factory, playback, runner
from SimPhantWorkbench.output import outdir
from SimPhantWorkbench.document import result_check
from SimPhantWorkbench.document.base import is_type, study_result
from SimPhantWorkbench.solver import ModelError, result_file

from helpers_hostile import (T_END, assert_only_manifest_changed, edit_fcstd,  # noqa: F401
                             model, object_data_start, refused_within, run_cli, tree_hashes,
                             work)


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
    info["signature"] = outdir.manifest_signature(info, outdir.manifest_key())
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
                     xml=lambda x: x.replace('<Enum value="%s"/>' % old,
                                             '<Enum value="%s"/>' % new))
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
    assert "damaged: Study 'Study': its member 'Push' did not load" in err, err


def test_the_legacy_fixture_still_passes_the_document_check():
    from SimPhantWorkbench.document.file_check import document_problems
    path = os.path.join(os.path.dirname(__file__), "fixtures", "study_v0_1.FCStd")
    doc = FreeCAD.openDocument(path)
    try:
        assert document_problems(doc, path) == []
    finally:
        FreeCAD.closeDocument(doc.Name)


# ============================================================================ stored results

@pytest.fixture
def ran(docs):
    """A pendulum run for 0.1 s (11 frames) and saved: (doc, parts, result)."""
    doc = docs()
    p = pendulum(doc)
    p["study"].OutputInterval = 0.01
    result = runner.run_study(p["study"], t_end=0.1)
    return doc, p, result


def crafted_npz(path, arrays):
    np.savez_compressed(str(path), **arrays)
    return str(path)


def put_result_file(res_obj, path):
    res_obj.ResultFile = str(path)
    res_obj.Proxy._cache = None


def placements_unchanged(doc, before):
    return all_placements(doc) == before


@pytest.mark.parametrize("key,index", [("anchors", (3, 0, 1, 1)), ("R_pu", (0, 2, 2)),
                                       ("t", (4,)), ("states", (2, 3))])
def test_non_finite_result_arrays_are_refused_naming_the_result(ran, tmp_path, key, index):
    """Item 4: NaN in Result.npz never reaches a placement."""
    doc, p, result = ran
    arrays = result.to_arrays()
    arrays[key] = arrays[key].copy()
    arrays[key][index] = np.nan
    res_obj = study_result(p["study"])
    put_result_file(res_obj, crafted_npz(tmp_path / "nan.npz", arrays))
    before = all_placements(doc)
    with pytest.raises(result_check.ResultError, match="Result 'Result' of study 'Study'.*NaN"):
        playback.apply_frame(p["study"], 5)
    assert placements_unchanged(doc, before)
    playback.reset(p["study"])                         # needs only InitialPlacements


@pytest.mark.parametrize("damage", ["not rigid", "not unit", "not rigid (format 1)", "frames",
                                    "body names", "dtype", "shape", "garbage", "pickle",
                                    "missing member", "missing member (format 1)"])
def test_damaged_results_are_refused_naming_the_result(ran, tmp_path, damage):
    doc, p, result = ran
    arrays = result.to_arrays(derived=damage.endswith("(format 1)"))
    if damage == "not rigid":
        arrays["R_pu"] = arrays["R_pu"] * 2.0
    elif damage == "not unit":                   # the rotations come from the quaternions
        arrays["states"] = arrays["states"].copy()
        arrays["states"][4, 3:7] *= 1.5
    elif damage == "not rigid (format 1)":
        arrays["A"] = arrays["A"] * 2.0
    elif damage == "frames":
        arrays = {k: (v[:5] if v.ndim and v.shape[0] == 11 else v) for k, v in arrays.items()}
    elif damage == "body names":
        meta = json.loads(str(arrays["meta"]))
        meta["body_names"] = ["Rod_body", "Ghost"]
        arrays["meta"] = np.array(json.dumps(meta))
    elif damage == "dtype":
        arrays["react"] = arrays["react"].astype(np.float32)
    elif damage == "shape":
        arrays["R_pu"] = arrays["R_pu"][:, :, :2]
    elif damage == "pickle":
        arrays["react"] = np.array([object()], dtype=object)
    elif damage == "missing member":
        del arrays["acc"]
    elif damage == "missing member (format 1)":
        del arrays["vel"]
    res_obj = study_result(p["study"])
    path = tmp_path / "bad.npz"
    if damage == "garbage":
        path.write_bytes(b"PK\x03\x04 this is not a result")
    elif damage == "pickle":
        np.savez(str(path), **arrays)                # an object array: pickled
    else:
        crafted_npz(path, arrays)
    put_result_file(res_obj, path)
    before = all_placements(doc)
    with pytest.raises(result_check.ResultError, match="Result 'Result' of study 'Study'"):
        playback.apply_frame(p["study"], -1)
    with pytest.raises(result_check.ResultError):
        runner.get_result(p["study"])
    assert placements_unchanged(doc, before)
    playback.reset(p["study"])
    assert placements_unchanged(doc, before)


def test_a_decompression_bomb_is_refused_before_decompressing(ran, tmp_path, monkeypatch):
    """Item 4: members declare (and hold) far more data than the limit: refused from their
    headers, without allocating it."""
    doc, p, result = ran
    n = 200000                                      # about 120 MB of zeros, ~120 kB zipped
    arrays = result.to_arrays()
    big = {k: np.zeros((n,) + v.shape[1:]) if v.ndim and v.shape[0] == 11 else v
           for k, v in arrays.items()}
    big["t"] = np.arange(n, dtype=float)
    path = crafted_npz(tmp_path / "bomb.npz", big)
    del big
    assert os.path.getsize(path) < 2e6
    monkeypatch.setattr(result_file, "MAX_RESULT_BYTES", 16 * 1024 ** 2)
    res_obj = study_result(p["study"])
    put_result_file(res_obj, path)
    refused_within(4e6, result_check.ResultError, "more than the limit", runner.get_result,
                   p["study"])


def test_a_member_lying_about_its_size_is_refused(ran, tmp_path):
    doc, p, result = ran
    path = crafted_npz(tmp_path / "r.npz", result.to_arrays())
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i.filename) for i in z.infolist()}
    members["anchors.npy"] = members["anchors.npy"] + b"\0" * 10 ** 6   # more than its header
    liar = tmp_path / "liar.npz"
    with zipfile.ZipFile(str(liar), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    put_result_file(study_result(p["study"]), liar)
    with pytest.raises(result_check.ResultError, match="'anchors'.*damaged"):
        runner.get_result(p["study"])


def test_an_edited_mapping_never_moves_a_fixed_support(ran):
    """Item 4: ShapeObjects edited to name the fixed Pin."""
    doc, p, result = ran
    res_obj = study_result(p["study"])
    res_obj.ShapeObjects = [p["pin"].Name]
    before = all_placements(doc)
    with pytest.raises(result_check.ResultError, match="Result 'Result'.*'Pin'"):
        playback.apply_frame(p["study"], 5)
    with pytest.raises(result_check.ResultError, match="'Pin'"):
        playback.reset(p["study"])
    assert placements_unchanged(doc, before)


def test_non_finite_initial_placements_are_refused(ran):
    doc, p, result = ran
    playback.apply_frame(p["study"], -1)
    res_obj = study_result(p["study"])
    res_obj.InitialPlacements = [FreeCAD.Placement(FreeCAD.Vector(float("nan"), 0, 0),
                                                   FreeCAD.Rotation())]
    before = all_placements(doc)
    with pytest.raises(result_check.ResultError, match="initial placement of 'Rod'"):
        playback.reset(p["study"])
    with pytest.raises(result_check.ResultError, match="initial placement of 'Rod'"):
        playback.apply_frame(p["study"], 0)
    assert placements_unchanged(doc, before)


def test_reset_needs_only_the_initial_placements(ran, tmp_path):
    doc, p, result = ran
    start = all_placements(doc)
    playback.apply_frame(p["study"], -1)
    assert all_placements(doc) != start
    res_obj = study_result(p["study"])
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"nothing useful")
    put_result_file(res_obj, garbage)
    with pytest.raises(result_check.ResultError, match="Result 'Result' of study 'Study'"):
        playback.apply_frame(p["study"], 0)
    playback.reset(p["study"])
    assert all_placements(doc) == start


def test_a_fault_while_storing_keeps_the_previous_result_whole(ran, monkeypatch):
    """Item 5: an error after the result file was replaced leaves the old result."""
    doc, p, result = ran
    study = p["study"]
    res_obj = study_result(study)
    old = dict(frames=res_obj.NumberOfFrames, end=res_obj.EndTime, steps=res_obj.Steps,
               initial=[tuple(pl.Base) for pl in res_obj.InitialPlacements])
    playback.apply_frame(study, -1)          # the next run starts elsewhere
    from SimPhantWorkbench.objects import result as result_module

    def broken(self, obj, result):
        raise OSError("disk full")
    monkeypatch.setattr(result_module.Result, "remember", broken)
    with pytest.raises(OSError, match="disk full"):
        runner.run_study(study, t_end=0.05)
    monkeypatch.undo()
    res_obj.Proxy._cache = None
    stored = runner.get_result(study)
    assert len(stored.t) == old["frames"] == res_obj.NumberOfFrames == 11
    assert res_obj.EndTime == old["end"] and res_obj.Steps == old["steps"]
    assert [tuple(pl.Base) for pl in res_obj.InitialPlacements] == old["initial"]
    np.testing.assert_array_equal(stored.states, result.states)


# ============================================================================ expressions

_HOSTILE_EXPRESSIONS = ["floor(10.0)**floor(1e9), 0, 0", "(0,)*floor(1e8), 0, 0",
                        "[0]*floor(1e8), 0, 0",
                        "**".join(["((t>=0)+(t>=0))"] * 7) + ", 0, 0",
                        "ceil(1e300)**ceil(1e300), 0, 0", "t" + "+t" * 3000 + ", 0, 0"]


def test_time_functions_bound_their_work():
    """Item 6: each is refused quickly without allocating much. Run in a child process
    so that an unbounded evaluation fails the test by a timeout instead of hanging it."""
    code = ("import json, sys, tracemalloc\n"
            "from SimPhantWorkbench.document.elements import parse_time_function\n"
            "from SimPhantWorkbench.solver import ModelError\n"
            "out = []\n"
            "for e in json.loads(sys.argv[1]):\n"
            "    tracemalloc.start()\n"
            "    try:\n"
            "        parse_time_function(e, \"Force 'F'\"); out.append(['accepted', 0])\n"
            "    except ModelError as exc:\n"
            "        out.append([str(exc), tracemalloc.get_traced_memory()[1]])\n"
            "    tracemalloc.stop()\n"
            "print(json.dumps(out))\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(_HOSTILE_EXPRESSIONS)],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for expr, (message, peak) in zip(_HOSTILE_EXPRESSIONS, json.loads(done.stdout)):
        assert message.startswith("Force 'F'"), (expr, message)
        assert peak < 5e6, (expr, peak)


# ============================================================================ weaker spots

def test_a_result_too_big_for_memory_is_bad_input_naming_the_setting(work, docs):
    """Item 7: the result size is estimated before anything is allocated."""
    root, model = work
    code, _, err = run_cli("run", model, "--out", root / "out", "--output-dt", "1e-12")
    assert code == cli.EXIT_INPUT, err
    assert "output_dt 1e-12 s" in err and "result frames" in err and "internal" not in err
    doc = docs()
    p = pendulum(doc)
    p["study"].EndTime = 1e12
    p["study"].OutputInterval = 0.01
    before = all_placements(doc)
    with pytest.raises(ModelError, match="Study 'Study': EndTime 1e\\+12 s with "
                                         "OutputInterval 0.01 s"):
        runner.run_study(p["study"])
    assert all_placements(doc) == before and study_result(p["study"]) is None


@pytest.mark.parametrize("prop", ["OutputInterval", "TimeConstant", "EndTime", "TimeStep"])
def test_negative_settings_are_not_taken_as_automatic(docs, prop):
    doc = docs()
    p = pendulum(doc)
    setattr(p["study"], prop, -1.0)
    with pytest.raises(ModelError, match="Study 'Study': %s must be finite and" % prop):
        runner.run_study(p["study"], t_end=0.01) if prop != "EndTime" else \
            runner.run_study(p["study"])


def test_non_finite_initial_velocity_is_refused(docs):
    doc = docs()
    p = pendulum(doc)
    box = doc.addObject("Part::Box", "Box")
    doc.recompute()
    with pytest.raises(ModelError, match="Body for 'Box': velocity.*finite"):
        factory.make_body(p["study"], box, velocity=(float("nan"), 0, 0))
    assert [o.Label for o in p["study"].Group].count("Box_body") == 0
    p["link"].InitialAngularVelocity = FreeCAD.Vector(float("inf"), 0, 0)
    with pytest.raises(ModelError,
                       match="Body 'Rod_body': InitialAngularVelocity must be finite"):
        runner.run_study(p["study"], t_end=0.01)


def test_a_non_finite_shape_placement_is_named_as_such(docs):
    doc = docs()
    p = pendulum(doc)
    p["rod"].Placement = FreeCAD.Placement(FreeCAD.Vector(float("nan"), 0, 0),
                                           FreeCAD.Rotation())
    with pytest.raises(ModelError,
                       match="Body 'Rod_body': the placement of 'Rod' is not finite"):
        runner.run_study(p["study"], t_end=0.01)


def test_two_elements_in_one_reference_name_the_joint(docs):
    doc = docs()
    p = pendulum(doc)
    p["joint"].Reference1 = (p["pin"], ["Edge1", "Edge2"])
    with pytest.raises(ModelError, match="Joint 'Hinge': Reference1: 'Pin': pick one element"):
        runner.run_study(p["study"], t_end=0.01)


def test_an_absurd_load_is_refused_naming_it(work, docs):
    doc = docs()
    p = pendulum(doc)
    factory.make_force(p["study"], p["link"], (1e300, 0, 0), name="Huge")
    with pytest.raises(ModelError,
                       match="Force 'Huge': the value \\(1e\\+300, 0, 0\\) N is beyond any"):
        runner.run_study(p["study"], t_end=0.01)
    factory.make_torque(p["study"], p["link"], "0, 0, 1e40*cos(t)", name="Twist")
    doc.removeObject(doc.getObjectsByLabel("Huge")[0].Name)
    with pytest.raises(ModelError,
                       match="Torque 'Twist': the value at t = 0 \\(0, 0, 1e\\+40\\) N m is"):
        runner.run_study(p["study"], t_end=0.01)


def test_two_loads_with_the_same_name_are_refused(docs):
    doc = docs()
    p = pendulum(doc)
    factory.make_force(p["study"], p["link"], (0, 0, 1), name="Push")
    with pytest.raises(ModelError, match="already has an object named 'Push'"):
        factory.make_force(p["study"], p["link"], (0, 0, 2), name="Push")
    assert [o.Label for o in p["study"].Group].count("Push") == 1


def test_ctrl_c_before_the_first_progress_report_stops_at_once(work, monkeypatch):
    """Item 7: a cancel while compiling/assembling does not run the whole study first."""
    import signal
    root, model = work
    from SimPhantWorkbench.run import pipeline
    real = pipeline.run_analysis

    def interrupted(*args, **kw):
        os.kill(os.getpid(), signal.SIGINT)         # Ctrl-C before the integration starts
        return real(*args, **kw)
    monkeypatch.setattr(pipeline, "run_analysis", interrupted)
    calls = []
    code, out, err = run_cli("run", model, "--out", root / "out", "--t-end", T_END,
                             progress=lambda t, te: calls.append(t))
    assert code == cli.EXIT_CANCELLED, err
    assert calls == [] and out == "" and not (root / "out").exists()
    assert "before the integration started; nothing written" in err


def test_the_cli_replaces_a_crafted_stored_result_without_reading_it(tmp_path, docs):
    """A document whose stored Result holds NaN arrays and a bomb-sized member: the CLI
    runs the study again, never loads the old arrays, and changes only its own files."""
    doc = docs()
    p = pendulum(doc)
    p["study"].OutputInterval = 0.01
    result = runner.run_study(p["study"], t_end=0.05)
    arrays = result.to_arrays()
    arrays["anchors"] = np.full_like(arrays["anchors"], np.nan)
    arrays["junk"] = np.zeros(50 * 1024 ** 2 // 8)                # 50 MB, ~50 kB zipped
    put_result_file(study_result(p["study"]), crafted_npz(tmp_path / "crafted.npz", arrays))
    model = str(tmp_path / "crafted.FCStd")
    doc.saveAs(model)
    before = tree_hashes(tmp_path)
    out = tmp_path / "out"
    code, _, err = run_cli("run", model, "--out", out, "--t-end", T_END, "--no-animation")
    assert code == 0, err
    assert_only_manifest_changed(tmp_path, out, before)
    assert tree_hashes(tmp_path)["crafted.FCStd"] == before["crafted.FCStd"]
    saved = FreeCAD.openDocument(str(out / "crafted_result.FCStd"))
    try:
        study = next(o for o in saved.Objects if is_type(o, "SimPhant::Study"))
        stored = runner.get_result(study)
        assert np.isfinite(stored.position(stored.body_names[0])).all()
    finally:
        FreeCAD.closeDocument(saved.Name)
