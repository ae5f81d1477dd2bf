"""README.md cannot rot: the console example of "Scripting from the FreeCAD Python console"
runs headless and does what it says; "Main job" names every option and every file of
``simphant run``."""
import contextlib
import io
import os
import re

import numpy as np
import pytest

import FreeCAD

from SimPhantWorkbench import cli, output
from SimPhantWorkbench.solver import METHODS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def section(title):
    """The text of the README section ``## title`` (up to the next ``## `` heading)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), text, re.S | re.M)
    assert m, "README.md has no section '## %s'" % title
    return m.group(1)


def code_block(text, language="python"):
    m = re.search(r"^```%s\n(.*?)^```" % language, text, re.S | re.M)
    assert m, "no ```%s block" % language
    return m.group(1)


@pytest.fixture
def console_example():
    before = set(FreeCAD.listDocuments())
    code = code_block(section("Scripting from the FreeCAD Python console"))
    namespace = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)      # noqa: S102 - our README
    yield namespace, out.getvalue()
    for name in set(FreeCAD.listDocuments()) - before:
        FreeCAD.closeDocument(name)


def test_console_example_runs_and_does_what_it_says(console_example):
    ns, printed = console_example
    r, rod, study = ns["r"], ns["rod"], ns["study"]
    assert r.t[-1] == pytest.approx(2.0) and len(r.t) == 201
    # the hinge holds: the rod swings about the y axis through the origin
    arm = ns["a"]
    cog = r.position(arm)
    radius = np.linalg.norm(cog[:, [0, 2]], axis=1)
    assert np.ptp(radius) < 1e-6 and cog[:, 2].min() < -0.1       # it swung down
    assert np.abs(r.energy()["total"] - r.energy()["total"][0]).max() < 1e-6
    # reset restored the start placement exactly
    assert tuple(rod.Placement.Base) == (0.0, 0.0, 0.0)
    assert tuple(rod.Placement.Rotation.Q) == (0.0, 0.0, 0.0, 1.0)
    for what in ("arm: 0.324 kg", "largest hinge force", "energy drift", "at 0.25 s:"):
        assert what in printed
    from SimPhantWorkbench import runner
    assert runner.get_result(study).t[-1] == pytest.approx(2.0)


def test_main_job_section_names_every_option_and_file():
    text = section("Main job")
    assert "make demo" in text and "bin/simphant run MODEL.FCStd" in text
    run = cli.build_parser().commands["run"]
    options = set(re.findall(r"--[a-z][a-z-]*", run.format_help())) - {"--help", "--debug"}
    assert {"--t-end", "--dt", "--method", "--out", "--no-animation"} <= options
    missing = sorted(o for o in options if o not in text)
    assert not missing, "README 'Main job' does not mention %s" % missing
    for name in ("body_<name>.csv", "reactions.csv", "joints.csv", "energy.csv", "positions.png",
                 "energy.png", "reactions.png", "joints.png", "animation.gif",
                 "<model name>_result.FCStd",
                 "summary.txt", "run.json"):
        assert "`%s`" % name in text, name
    # the files output.write_all writes are all in the table
    for name in ("reactions.csv", "joints.csv", "energy.csv", "positions.png", "energy.png",
                 "reactions.png", "joints.png", "animation.gif"):
        assert name in output.__doc__
    for method in METHODS:
        assert "`%s`" % method in text, method
