"""What docs/command-line.md promises about ``simphant run`` beyond the outputs: exit code 1 and
``--debug`` for internal errors, a second Ctrl-C stopping at once, ``--study`` by name
and by label, the launcher through a symlink, ``--in-place`` keeping FreeCAD's backup."""
import hashlib
import io
import os
import shutil
import signal
import subprocess

import pytest

import FreeCAD

from helpers_doc import pendulum
from SimPhantWorkbench.run import Run
from SimPhantWorkbench import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
PENDULUM = os.path.join(ROOT, "examples", "pendulum.FCStd")


def run_cli(*argv, progress=None):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], progress=progress, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def sha(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def test_internal_error_is_exit_code_1_with_the_traceback_only_under_debug(tmp_path,
                                                                          monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("kaboom in the runner")

    monkeypatch.setattr(Run, "execute", broken)
    out = tmp_path / "out"
    code, stdout, err = run_cli("run", PENDULUM, "--out", out, "--no-animation")
    assert code == cli.EXIT_INTERNAL == 1
    assert err.rstrip().endswith("simphant: internal error: RuntimeError: kaboom in the runner "
                                 "(run with --debug for the traceback)")
    assert "Traceback" not in err and stdout == "" and not out.exists()
    code, stdout, err = run_cli("run", PENDULUM, "--out", out, "--no-animation", "--debug")
    assert code == 1
    assert "Traceback (most recent call last)" in err and "in broken" in err
    assert "simphant: internal error: RuntimeError: kaboom" in err.strip().splitlines()[-1]
    assert not out.exists()


def _sigint_in_progress(times):
    """A progress hook that sends this process ``times`` SIGINTs at its first call."""
    calls = []

    def progress(t, t_end):
        calls.append(t)
        if len(calls) == 1:
            for _ in range(times):
                os.kill(os.getpid(), signal.SIGINT)
        return True

    return progress, calls


def test_one_ctrl_c_cancels_at_the_next_report_and_a_second_stops_at_once(tmp_path):
    out = tmp_path / "out"
    handler_before = signal.getsignal(signal.SIGINT)
    progress, calls = _sigint_in_progress(1)
    code, stdout, err = run_cli("run", PENDULUM, "--out", out, "--no-animation",
                                "--t-end", "30", progress=progress)
    assert code == cli.EXIT_CANCELLED
    assert "run cancelled at t = " in err.strip().splitlines()[-1]        # the runner's cancel
    assert len(calls) == 1 and not out.exists()

    progress, calls = _sigint_in_progress(2)
    code, stdout, err = run_cli("run", PENDULUM, "--out", out, "--no-animation",
                                "--t-end", "30", progress=progress)
    assert code == cli.EXIT_CANCELLED
    assert err.strip().splitlines()[-1] == "simphant: run cancelled; nothing written"
    assert "at t = " not in err and len(calls) == 1 and not out.exists()
    # the handler is put back afterwards
    assert signal.getsignal(signal.SIGINT) == handler_before


@pytest.fixture
def two_studies(tmp_path):
    """A document with two pendulum studies: 'Study' (2 s) and 'Study001' labelled
    'Short swing' (0.1 s)."""
    doc = FreeCAD.newDocument("TwoStudies")
    try:
        first = pendulum(doc)["study"]
        second = pendulum(doc)["study"]
        second.Label = "Short swing"
        for st, t_end in ((first, 0.2), (second, 0.1)):
            st.EndTime = t_end
            st.OutputInterval = 0.01
        path = str(tmp_path / "two.FCStd")
        doc.saveAs(path)
        names = (first.Name, second.Name)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path, names


def test_study_is_chosen_by_name_or_by_label(two_studies, tmp_path):
    path, (first, second) = two_studies
    assert (first, second) == ("Study", "Study001")
    code, stdout, err = run_cli("run", path, "--out", tmp_path / "none", "--no-animation")
    assert code == cli.EXIT_INPUT
    assert "has 2 studies (Study, Short swing); choose one with --study" in err
    for wanted, label, t_end in (("Study001", "Short swing", "0.1"),
                                 ("Short swing", "Short swing", "0.1"),
                                 ("Study", "Study", "0.2")):
        out = tmp_path / ("out_" + wanted.replace(" ", "_"))
        code, stdout, err = run_cli("run", path, "--study", wanted, "--out", out,
                                    "--no-animation")
        assert code == 0, err
        assert "study '%s'" % label in stdout.splitlines()[0]
        assert "t = 0 .. %s s" % t_end in stdout


def test_launcher_works_through_a_symlink(tmp_path):
    link = tmp_path / "bin" / "sp"
    link.parent.mkdir()
    os.symlink(LAUNCHER, str(link))
    out = tmp_path / "out"
    done = subprocess.run([str(link), "run", PENDULUM, "--t-end", "0.05", "--no-animation",
                           "--out", str(out)], cwd=str(tmp_path), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "pendulum_result.FCStd" in os.listdir(str(out))


def test_in_place_keeps_freecads_backup_of_the_model(tmp_path):
    model = tmp_path / "swing.FCStd"
    shutil.copy(PENDULUM, str(model))
    before = sha(str(model))
    code, stdout, err = run_cli("run", model, "--out", tmp_path / "out", "--t-end", "0.05",
                                "--no-animation", "--in-place")
    assert code == 0, err
    # FreeCAD's backup policy: swing.FCStd1 (0.20), swing.<date-time>.FCBak (1.x default)
    backups = [n for n in os.listdir(str(tmp_path))
               if n == "swing.FCStd1" or (n.startswith("swing.") and n.endswith(".FCBak"))]
    assert len(backups) == 1, os.listdir(str(tmp_path))
    backup = tmp_path / backups[0]
    assert sha(str(backup)) == before and sha(str(model)) != before
