"""Hostile-but-fair steps through the entry points a user has: a fixed step the model's
springs cannot be followed with, and a step too small to count, end as bad input from
``simphant run`` and as a failed variant of ``simphant sweep``, naming the value at fault
and the step that would work; a distortion short of that is a warning in the summary and
in the sweep's table. (The check itself against closed forms: tests/solver/test_step_check.py
and test_step_counts.py.)"""
import pytest

import FreeCAD

from helpers_doc import docs, pendulum  # noqa: F401
from helpers_hostile import run_cli, tree_hashes
from SimPhantWorkbench import cli, factory
from SimPhantWorkbench.sweep.outputs import read_csv

#: torsion spring on the pendulum's hinge [N mm/deg]: about 208 Hz (explicit Euler at 1 ms
#: makes it grow by 1e216 over a second) and about 4.7 Hz (by 1.5)
STIFF, SOFT = 1000.0, 0.5

SPEC = """design = "grid"
[settings]
t_end = 1.0
method = "euler"
dt = 0.001
[[variables]]
name = "k"
target = "Torsion.Stiffness"
values = [%g, %g]
[metrics]
peak = "max(speed(Rod_body))"
""" % (SOFT, STIFF)


@pytest.fixture
def sprung(docs, tmp_path):
    """The pendulum with a torsion spring on its hinge, saved: (folder, path)."""
    def make(stiffness):
        doc = docs()
        p = pendulum(doc)
        factory.make_joint_spring(p["study"], p["joint"], stiffness=stiffness, name="Torsion")
        doc.recompute()
        path = str(tmp_path / ("k%g.FCStd" % stiffness))
        doc.saveAs(path)
        FreeCAD.closeDocument(doc.Name)
        return path
    return make


def test_explicit_euler_on_a_stiff_spring_is_exit_2_naming_the_step_that_works(sprung,
                                                                                 tmp_path):
    """Item 8 from the command line: 1 kg on a 10 N/mm spring with Euler went to 600 m with
    no word. Refused before any step (exit 2, no output folder) naming the frequency, the
    element and the step; a milder distortion runs and says so in the summary."""
    stiff = sprung(STIFF)
    before = tree_hashes(tmp_path)
    calls = []
    code, out, err = run_cli("run", stiff, "--method", "euler", "--dt", "0.001", "--t-end",
                             "1", "--no-animation", "--out", tmp_path / "out",
                             progress=lambda t, te: calls.append(t))
    assert code == cli.EXIT_INPUT, err
    assert "the vibration of 208.1 Hz (undamped) of force element 'Torsion' is unstable by " \
        "euler with dt = 0.001 s" in err and "use dt <= 5.7e-08 s" in err
    assert "internal error" not in err and calls == [] and out == ""
    assert tree_hashes(tmp_path) == before
    code, out, err = run_cli("run", sprung(SOFT), "--method", "euler", "--dt", "0.001",
                             "--t-end", "1", "--no-animation", "--out", tmp_path / "soft")
    assert code == 0, err
    warning = "its amplitude comes out 1.53 times the true one over t = 0 .. 1 s; use " \
        "dt <= 0.00011 s"
    assert warning in out and warning in (tmp_path / "soft" / "summary.txt").read_text()


def test_a_sweep_variant_the_step_cannot_follow_fails_naming_it(sprung, tmp_path):
    """Item 8 in a parameter study: the stiff variant fails with the refusal (the others
    run), the milder one runs with the warning in its row."""
    model = sprung(SOFT)
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 0, err
    assert "variants   1 ok, 1 failed" in out
    rows = read_csv(str(tmp_path / "o" / "results.csv"))
    assert [r["status"] for r in rows] == ["ok", "failed"]
    assert "amplitude comes out 1.53 times" in rows[0]["warnings"]
    assert "208.1 Hz (undamped) of force element 'Torsion' is unstable" in rows[1]["message"]
    assert "use dt <= 5.7e-08 s" in rows[1]["message"]


@pytest.mark.parametrize("dt,words", [("1e-300", "dt = 1e-300 s needs 1e+300 steps"),
                                      ("nan", "dt"), ("-0.001", "dt")])
def test_dt_1e_300_is_exit_2_naming_dt(sprung, tmp_path, dt, words):
    """Item 9 from the command line: dt = 1e-300 overflowed the step count ('0 steps',
    nothing moved, exit 0). Exit 2 naming dt before anything runs or is written."""
    model = sprung(SOFT)
    before = tree_hashes(tmp_path)
    calls = []
    code, out, err = run_cli("run", model, "--dt", dt, "--t-end", "1", "--no-animation",
                             "--out", tmp_path / "out", progress=lambda t, te: calls.append(t))
    assert code == cli.EXIT_INPUT, err
    assert words in err and "internal error" not in err
    assert calls == [] and tree_hashes(tmp_path) == before
