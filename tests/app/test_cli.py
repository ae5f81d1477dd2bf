"""The ``simphant run`` command: files and their content, the summary, settings from the
command line, one-line errors naming the object at fault, cancel (progress hook, Ctrl-C
in the launcher, an interrupt while writing) leaving no complete-looking output."""
import hashlib
import io
import json
import os
import select
import shutil
import signal
import subprocess
import time

import numpy as np
import pytest
from PIL import Image

import FreeCAD

from SimPhantWorkbench import cli, output, runner
from SimPhantWorkbench.cli.progress import Interrupt
from SimPhantWorkbench.document.base import is_type, study_bodies, study_result

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
SAMPLES = 301                                  # slider_crank: 3 s every 0.01 s
FRAMES = 12


def example(name):
    return os.path.join(EXAMPLES, name + ".FCStd")


def run_cli(*argv, progress=None):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], progress=progress, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def sha(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def read_csv(path):
    import csv
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def listing(path):
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def study_of(doc):
    return next(o for o in doc.Objects if is_type(o, "SimPhant::Study"))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """``simphant run`` without a model (the bundled slider-crank), 12 animation frames."""
    out = tmp_path_factory.mktemp("demo") / "out"
    before = sha(cli.default_model())
    from SimPhantWorkbench.solver import warmup
    warmup._ready.clear()       # kernels prepared as in a fresh process (reported apart)
    code, stdout, stderr = run_cli("run", "--interference", "--out", out, "--frames", FRAMES)
    return dict(code=code, out=str(out), stdout=stdout, stderr=stderr, before=before)


EXPECTED_FILES = sorted([
    "body_Crank.csv", "body_ConnectingRod.csv", "body_Slider.csv", "reactions.csv", "joints.csv",
    "energy.csv", "positions.png", "energy.png", "reactions.png", "joints.png", "animation.gif",
    "slider_crank_result.FCStd",
    "summary.txt", "run.json", "result.npz", "scene.npz", "interference.csv"])


def test_run_without_model_runs_the_bundled_slider_crank_and_prints_the_summary(demo):
    assert demo["code"] == 0, demo["stderr"]
    assert cli.default_model() == example("slider_crank")
    lines = demo["stdout"].splitlines()
    starts = [line.split()[0] for line in lines if line and not line.startswith(" ")]
    model_part = ["model", "bodies", "joints", "gravity", "DOF", "mobility", "redundant"]
    assert starts[:len(model_part)] == model_part
    # one line per suggestion, and the reaction components the redundant joints share
    rest = [s for s in starts[len(model_part):] if s not in ("suggestion", "reactions")]
    assert rest[:5] == ["run", "steps", "energy", "violation", "assembly"]
    assert ("reactions  indeterminate (shared by the redundant joints, reported by the "
            "least-norm rule): CrankPivot F_z, T_x, T_y; ") in demo["stdout"]
    text = demo["stdout"]
    assert "bodies     3 moving (Crank, ConnectingRod, Slider), 2 fixed (Post, Rail)" in text
    assert ("joints     4: CrankPivot (revolute), CrankPin (revolute), WristPin (revolute), "
            "SliderGuide (prismatic)") in text
    assert "DOF        -2 (Gruebler: 6 x 3 moving bodies - 20 constraint equations)" in text
    assert "mobility   1 (rank of the constraint Jacobian 17 of 20 equations at t = 0)" in text
    # the DOF report: redundant rows by joint and the joint kinds that remove them
    labels = ("CrankPivot", "CrankPin", "WristPin", "SliderGuide")
    assert any(line.startswith("redundant  ") and any(j + " rows" in line for j in labels)
               for line in lines)
    assert any(line.startswith("suggestion replace ") for line in lines)
    assert "motion     CrankPivot angle " in text and "SliderGuide slide " in text
    assert "run        rk4, dt 0.001 s, t = 0 .. 3 s, %d samples every 0.01 s" % SAMPLES in text
    assert "steps      3000 (mean step 0.001 s)" in text
    assert "assembly   initial conditions consistent (no correction)" in text
    # no interference but between the bodies its joints connect (left out)
    assert ("collisions 5 pairs checked (5 excluded: joints, fixed), deflection 0.1 mm: "
            "none; smallest clearance 0 mm (Rail - ConnectingRod at t = ") in text
    info = json.load(open(os.path.join(demo["out"], "run.json")))
    assert info["energy_drift_relative"] < 1e-5
    assert info["dof"]["mobility"] == 1 and info["dof"]["redundant"] == 3
    assert info["dof"]["gruebler"] == -2 and len(info["dof"]["redundant_rows"]) == 3
    assert [m[:2] for m in info["joint_motion"]] == [["CrankPivot", "angle"],
                                                     ["CrankPin", "angle"],
                                                     ["WristPin", "angle"],
                                                     ["SliderGuide", "slide"]]
    # the first solve in the process loads (or compiles) the kernels: reported apart, and
    # which of the two
    from SimPhantWorkbench.solver.kernel_times import preparation_text
    assert info["compile_time"] > 0.0
    note, steps_line = preparation_text(info), text.split("steps", 1)[1].splitlines()[0]
    if note:                         # not when it was ready in well under 0.05 s
        assert "(+ %s)" % note in steps_line
        assert ("compiling" in note) == bool(info["kernels_compiled"])
    else:
        assert "solver kernels" not in steps_line and info["compile_time"] < 0.05
    assert info["violation_position_max"] < 1e-6
    assert "max |E - E0| = %.4g J" % info["energy_drift_max"] in text
    assert "simulating [" in demo["stderr"] and "100%" in demo["stderr"]
    assert demo["stdout"].rstrip().splitlines()[-1].startswith("wall time")
    # the summary is kept with the outputs
    with open(os.path.join(demo["out"], "summary.txt")) as fh:
        kept = fh.read().splitlines()
    assert kept == lines[:[x.split(" ")[0] for x in lines].index("outputs")]


def test_writes_every_file_and_nothing_else(demo):
    assert listing(demo["out"]) == EXPECTED_FILES
    info = json.load(open(os.path.join(demo["out"], "run.json")))
    assert sorted(info["files"]) == EXPECTED_FILES
    assert info["samples"] == SAMPLES and info["method"] == "rk4"
    # the input is never written
    assert sha(cli.default_model()) == demo["before"]


def test_csv_files_have_a_row_per_sample_and_the_stated_columns(demo):
    for body in ("Crank", "ConnectingRod", "Slider"):
        header, data = read_csv(os.path.join(demo["out"], "body_%s.csv" % body))
        assert tuple(header) == output.BODY_COLUMNS and data.shape == (SAMPLES, 17)
        np.testing.assert_allclose(data[:, 0], np.linspace(0, 3, SAMPLES), atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(data[:, 4:8], axis=1), 1.0, atol=1e-12)
    header, data = read_csv(os.path.join(demo["out"], "reactions.csv"))
    assert data.shape == (SAMPLES, 1 + 6 * 4) and header[1] == "CrankPivot F_x [N]"
    header, data = read_csv(os.path.join(demo["out"], "energy.csv"))
    assert tuple(header) == output.ENERGY_COLUMNS and data.shape == (SAMPLES, 6)
    np.testing.assert_allclose(data[:, 1] + data[:, 2], data[:, 3], rtol=1e-12, atol=1e-15)


def test_pngs_decode_with_their_sizes_and_the_gif_has_its_frames(demo):
    dpi = output.PLOT_DPI
    sizes = {"positions.png": output.POSITIONS_SIZE, "energy.png": output.ENERGY_SIZE,
             "reactions.png": (11.0, 0.9 + 2.2 * 4)}
    for name, (w, h) in sizes.items():
        with Image.open(os.path.join(demo["out"], name)) as im:
            im.load()
            assert im.format == "PNG" and im.size == (round(w * dpi), round(h * dpi)), name
    with Image.open(os.path.join(demo["out"], "animation.gif")) as im:
        assert im.format == "GIF" and im.n_frames == FRAMES
        assert 100 < im.size[0] <= output.ANIMATION_SIZE
        assert im.info["duration"] >= 20


def test_saved_document_reopens_with_a_result_equal_to_the_csv(demo):
    doc = FreeCAD.openDocument(os.path.join(demo["out"], "slider_crank_result.FCStd"))
    try:
        study = study_of(doc)
        assert study_result(study) is not None
        r = runner.get_result(study)
        assert len(r.t) == SAMPLES
        for body in study_bodies(study):
            if body.Fixed:
                continue
            key = runner.result_key(study, body)
            _, data = read_csv(os.path.join(demo["out"], "body_%s.csv" % key))
            np.testing.assert_array_equal(data[:, 0], r.t)
            np.testing.assert_array_equal(data[:, 1:4], r.position(key))
            np.testing.assert_array_equal(data[:, 4:8], r.quaternion(key))
            np.testing.assert_array_equal(data[:, 14:17], r.angular_velocity(key))
        _, data = read_csv(os.path.join(demo["out"], "reactions.csv"))
        np.testing.assert_array_equal(data[:, 19:22], r.reaction_force("SliderGuide"))
        _, data = read_csv(os.path.join(demo["out"], "energy.csv"))
        np.testing.assert_array_equal(data[:, 3], r.energy()["total"])
    finally:
        FreeCAD.closeDocument(doc.Name)
    # the view data (FreeCAD writes none headless) is carried over from the input
    import zipfile
    with zipfile.ZipFile(cli.default_model()) as z:
        gui = z.read("GuiDocument.xml")
    with zipfile.ZipFile(os.path.join(demo["out"], "slider_crank_result.FCStd")) as z:
        assert z.read("GuiDocument.xml") == gui and z.comment == b"FreeCAD Document"
    # the bundled model itself has no result
    doc = FreeCAD.openDocument(cli.default_model())
    try:
        assert study_result(study_of(doc)) is None
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_time_step_method_end_time_and_output_interval_are_honoured(tmp_path):
    out = tmp_path / "out"
    code, stdout, stderr = run_cli("run", example("pendulum"), "--out", out, "--t-end", "0.5",
                                   "--dt", "0.002", "--method", "symplectic_euler",
                                   "--output-dt", "0.05", "--no-animation")
    assert code == 0, stderr
    assert "run        symplectic_euler, dt 0.002 s, t = 0 .. 0.5 s, 11 samples every 0.05 s" \
        in stdout
    assert "steps      250 (mean step 0.002 s)" in stdout
    info = json.load(open(out / "run.json"))
    assert (info["method"], info["dt"], info["t_end"], info["output_dt"], info["samples"],
            info["steps"]) == ("symplectic_euler", 0.002, 0.5, 0.05, 11, 250)
    assert "animation.gif" not in listing(out)
    _, data = read_csv(out / "energy.csv")
    assert data.shape[0] == 11 and data[-1, 0] == pytest.approx(0.5)
    doc = FreeCAD.openDocument(str(out / "pendulum_result.FCStd"))
    try:
        res = study_result(study_of(doc))
        assert (res.Method, res.Steps, res.NumberOfFrames) == ("symplectic_euler", 250, 11)
        assert res.EndTime == pytest.approx(0.5)
        assert study_of(doc).EndTime == 3.0          # the study keeps its own settings
    finally:
        FreeCAD.closeDocument(doc.Name)


@pytest.fixture
def broken_density(tmp_path):
    """The pendulum with a negative density on its moving body."""
    doc = FreeCAD.openDocument(example("pendulum"))
    try:
        body = next(b for b in study_bodies(study_of(doc)) if b.Label == "Pendulum")
        body.Density = -5.0
        path = str(tmp_path / "broken.FCStd")
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path


@pytest.fixture
def no_study(tmp_path):
    doc = FreeCAD.newDocument("NoStudy")
    try:
        doc.addObject("Part::Box", "Box")
        doc.recompute()
        path = str(tmp_path / "nostudy.FCStd")
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path


@pytest.mark.parametrize("case", ["missing", "not_fcstd", "no_study", "unknown_study",
                                  "model_error", "simulation_error", "bad_method",
                                  "bad_dt", "out_is_a_file"])
def test_bad_input_fails_with_one_clear_line_and_writes_nothing(case, tmp_path, request):
    out = tmp_path / "out"
    args = {
        "missing": (["run", tmp_path / "nope.FCStd"], 2, "model file '%s' not found"
                    % (tmp_path / "nope.FCStd")),
        "not_fcstd": (["run", tmp_path / "text.FCStd"], 2, "is not a FreeCAD document"),
        "no_study": (["run", "NOSTUDY"], 2, "has no SimPhant study"),
        "unknown_study": (["run", example("pendulum"), "--study", "Nope"], 2,
                          "has no study 'Nope'; its studies: Study"),
        "model_error": (["run", "BROKEN"], 2, "Body 'Pendulum': Density must be >= 0"),
        "simulation_error": (["run", example("double_pendulum"), "--dt", "0.1",
                              "--output-dt", "0.1"], 3, "worst at joint 'Elbow'"),
        "bad_method": (["run", example("pendulum"), "--method", "leapfrog"], 2,
                       "invalid choice: 'leapfrog'"),
        "bad_dt": (["run", example("pendulum"), "--dt", "-1"], 2,
                   "--dt: must be a positive number"),
        "out_is_a_file": (["run", example("pendulum")], 2, "is not a directory"),
    }[case]
    argv, expected_code, message = args
    (tmp_path / "text.FCStd").write_text("not a zip archive\n")
    if case == "out_is_a_file":
        out.write_text("a file")
    argv = [request.getfixturevalue("no_study") if a == "NOSTUDY" else
            request.getfixturevalue("broken_density") if a == "BROKEN" else a for a in argv]
    code, stdout, stderr = run_cli(*argv, "--out", out, "--no-animation")
    assert code == expected_code, stderr
    last = stderr.strip().splitlines()[-1]
    assert message in last
    if case not in ("bad_method", "bad_dt"):
        assert last.startswith("simphant: error: ")
    assert stdout == ""
    if case != "out_is_a_file":
        assert not out.exists()
    open_docs = [d for d in FreeCAD.listDocuments() if d.startswith(("broken", "nostudy",
                                                                     "pendulum", "double"))]
    assert open_docs == []                                   # closed again


def test_cancel_from_the_progress_hook_leaves_nothing(tmp_path):
    out = tmp_path / "out"
    seen = []

    def hook(t, t_end):
        seen.append(t)
        return t < 1.0

    code, stdout, stderr = run_cli("run", example("spinning_top"), "--out", out, progress=hook)
    assert code == cli.EXIT_CANCELLED
    assert seen and seen[-1] >= 1.0
    assert "run cancelled at t = " in stderr.strip().splitlines()[-1]
    assert stdout == "" and not out.exists()


def test_cancel_keeps_the_previous_complete_outputs_untouched(demo, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(demo["out"], out)
    before = {n: sha(out / n) for n in listing(out)}
    code, _, _ = run_cli("run", "--out", out, progress=lambda t, t_end: False)
    assert code == cli.EXIT_CANCELLED
    assert {n: sha(out / n) for n in listing(out)} == before       # no staging left either


def test_an_interrupt_while_writing_outputs_leaves_nothing(tmp_path, monkeypatch):
    def interrupted(*args, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(output, "plot_reactions", interrupted)
    out = tmp_path / "out"
    code, stdout, stderr = run_cli("run", example("pendulum"), "--out", out, "--t-end", "0.1")
    assert code == cli.EXIT_CANCELLED and "cancelled" in stderr
    assert not out.exists()
    # into an existing directory: it stays as it was
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, _, _ = run_cli("run", example("pendulum"), "--out", out, "--t-end", "0.1")
    assert code == cli.EXIT_CANCELLED and listing(out) == ["notes.txt"]


def test_a_new_run_replaces_the_files_of_the_previous_one(tmp_path):
    out = tmp_path / "out"
    (tmp_path / "keep").mkdir()
    code, _, err = run_cli("run", example("pendulum"), "--out", out, "--t-end", "0.1",
                           "--no-animation")
    assert code == 0, err
    (out / "notes.txt").write_text("mine")
    assert "body_Pendulum.csv" in listing(out)
    code, _, err = run_cli("run", example("double_pendulum"), "--out", out, "--t-end", "0.1",
                           "--no-animation")
    assert code == 0, err
    files = listing(out)
    assert "body_Pendulum.csv" not in files and "pendulum_result.FCStd" not in files
    assert {"body_Upper.csv", "body_Lower.csv", "double_pendulum_result.FCStd",
            "notes.txt"} <= set(files)
    assert sorted(json.load(open(out / "run.json"))["files"] + ["notes.txt"]) == files


def test_in_place_saves_the_result_into_the_model(tmp_path):
    model = tmp_path / "swing.FCStd"
    shutil.copy(example("pendulum"), model)
    out = tmp_path / "out"
    code, stdout, err = run_cli("run", model, "--out", out, "--t-end", "0.2", "--no-animation",
                                "--in-place")
    assert code == 0, err
    assert "swing_result.FCStd" not in listing(out) and "saved in place" in stdout
    doc = FreeCAD.openDocument(str(model))
    try:
        assert study_result(study_of(doc)).NumberOfFrames == 21
    finally:
        FreeCAD.closeDocument(doc.Name)
    import zipfile
    with zipfile.ZipFile(model) as z, zipfile.ZipFile(example("pendulum")) as orig:
        assert z.read("GuiDocument.xml") == orig.read("GuiDocument.xml")


def test_default_output_directory_is_under_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("run", example("pendulum"), "--t-end", "0.05", "--no-animation")
    assert code == 0, err
    assert "pendulum_result.FCStd" in listing(tmp_path / "simphant-out" / "pendulum")


def test_launcher_runs_from_any_directory_and_ctrl_c_cancels_cleanly(tmp_path):
    """bin/simphant from another working directory; SIGINT while simulating is the runner's
    cancel: exit code 130, a clear message, no output directory."""
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [LAUNCHER, "run", example("spinning_top"), "--t-end", "600", "--no-animation",
         "--out", str(out)], cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        seen = b""
        deadline = time.monotonic() + 120
        while b"simulating [" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
        assert b"simulating [" in seen, seen.decode(errors="replace")
        proc.send_signal(signal.SIGINT)
        stdout, rest = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = (seen + rest).decode()
    assert proc.returncode == cli.EXIT_CANCELLED, stderr
    assert "run cancelled at t = " in stderr.strip().splitlines()[-1]
    assert stdout == b"" and not out.exists()


def test_launcher_version_and_usage():
    done = subprocess.run([LAUNCHER, "--version"], cwd="/", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip().startswith("SimPhant ")
    done = subprocess.run([LAUNCHER], cwd="/", capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "run" in done.stderr


def test_launcher_opens_a_partdesign_document(tmp_path, partdesign):
    """A fresh interpreter loads PartDesign objects: the CLI puts FreeCAD's Mod
    directories on sys.path. A PartDesign body falls freely for 0.2 s."""
    from SimPhantWorkbench import factory
    doc = FreeCAD.newDocument("PDFall")
    try:
        body = doc.addObject("PartDesign::Body", "Body")
        box = doc.addObject("PartDesign::AdditiveBox", "AdditiveBox")
        body.addObject(box)
        box.Length, box.Width, box.Height = 40, 30, 20
        doc.recompute()
        study = factory.make_study(doc)
        factory.make_body(study, body, density=1000, name="Falling")
        path = str(tmp_path / "pd.FCStd")
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    out = tmp_path / "out"
    done = subprocess.run([LAUNCHER, "run", path, "--t-end", "0.2", "--no-animation",
                           "--out", str(out)], cwd="/", capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    _, data = read_csv(out / "body_Falling.csv")
    assert data[-1, 0] == pytest.approx(0.2)
    assert data[-1, 3] - data[0, 3] == pytest.approx(-0.5 * 9.80665 * 0.2 ** 2, rel=1e-9)


def test_early_ctrl_c_still_cancels_when_its_exception_is_swallowed():
    """SIGINT before the first progress report raises at once; should FreeCAD catch that
    exception (it arrived inside a recompute callback), the request is kept, so the
    run stops at its first progress report instead of running to the end."""
    intr = Interrupt()
    intr.simulating = True
    with pytest.raises(KeyboardInterrupt):
        intr._handler(signal.SIGINT, None)
    assert intr.requested
    intr.integrating = True
    with pytest.raises(KeyboardInterrupt):          # a second Ctrl-C: stop now
        intr._handler(signal.SIGINT, None)


def test_run_times_take_a_unit():
    from SimPhantWorkbench.cli import build_parser
    args = build_parser().parse_args(["run", "m.FCStd", "--dt", "100us", "--output-dt", "5 ms",
                                      "--t-end", "2"])
    assert (args.dt, args.output_dt, args.t_end) == (1e-4, 5e-3, 2.0)
    for bad in ("1 kg", "0 ms"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["run", "m.FCStd", "--dt", bad])
