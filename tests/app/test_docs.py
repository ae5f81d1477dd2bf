"""The README and the pages under docs/ cannot rot: the examples of docs/scripting.md run
headless as printed and do what they say; docs/command-line.md names every option and
file of ``simphant run`` and ``simphant view`` and every option of ``simphant fem``; the
README keeps its quick start and links every page; every link of the README and the pages
reaches a file (and a heading); the paths of the package they name exist; the number of
bundled models they give is the number of models in examples/."""
import contextlib
import glob
import io
import os
import re

import numpy as np
import pytest

import FreeCAD

from SimPhantWorkbench import cli, output
from SimPhantWorkbench.solver import METHODS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
#: the README, the pages and the other READMEs they link
DOCUMENTS = [os.path.join(ROOT, "README.md")] + PAGES + [
    os.path.join(ROOT, "examples", "README.md"), os.path.join(ROOT, "bench", "README.md")]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
        return fh.read()


def section(path, title):
    """The text of section ``## title`` of ``path`` (up to the next ``## `` heading)."""
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), read(path), re.S | re.M)
    assert m, "%s has no section '## %s'" % (path, title)
    return m.group(1)


def code_block(text, language="python"):
    m = re.search(r"^```%s\n(.*?)^```" % language, text, re.S | re.M)
    assert m, "no ```%s block" % language
    return m.group(1)


def run_example(text, name):
    namespace = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, name, "exec"), namespace)      # noqa: S102 - our documentation
    return namespace, out.getvalue()


# ---------------------------------------------------------------------------- examples

@pytest.fixture
def console_example():
    before = set(FreeCAD.listDocuments())
    code = code_block(section("docs/scripting.md", "Scripting from the FreeCAD Python console"))
    yield run_example(code, "docs/scripting.md")
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
    for what in ("arm: 0.324 kg", "largest hinge force", "energy drift", "at 0.25 s:",
                 "Status(outdated=True, reason=\"changed since the run: the study's settings\")"):
        assert what in printed
    from SimPhantWorkbench import runner
    assert runner.get_result(study).t[-1] == pytest.approx(2.0)


def test_solver_example_runs_and_does_what_it_says():
    code = code_block(section("docs/scripting.md", "The solver without FreeCAD"))
    ns, _ = run_example(code, "docs/scripting.md")
    r, link, hinge = ns["r"], ns["link"], ns["hinge"]
    assert r.t[-1] == pytest.approx(5.0) and len(r.t) == 501
    cog = r.position(link)
    assert np.ptp(np.linalg.norm(cog[:, [0, 2]], axis=1)) < 1e-6      # about the hinge
    E = r.energy()["total"]
    assert np.abs(E - E[0]).max() < 1e-6          # [J]; m g d = 19.6 J
    # the hinge carries the link's weight at the bottom of its swing, and more
    assert np.linalg.norm(r.reaction_force(hinge), axis=1).max() > 9.81


# ---------------------------------------------------------------------------- the command line

def test_the_command_line_page_names_every_option_and_file():
    text = read("docs/command-line.md")
    assert "make demo" in text and "bin/simphant run MODEL.FCStd" in text
    parser = cli.build_parser()
    for command, must in (("run", {"--t-end", "--dt", "--method", "--out", "--no-animation"}),
                          ("view", {"--time", "--screenshot"}),
                          ("fem", {"--body", "--at", "--mesh-size"})):
        options = set(re.findall(r"--[a-z][a-z-]*", parser.commands[command].format_help())) \
            - {"--help", "--debug"}
        assert must <= options
        missing = sorted(o for o in options if o not in text)
        assert not missing, "docs/command-line.md does not mention %s" % missing
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


# ---------------------------------------------------------------------------- README and links

def test_the_readme_keeps_its_quick_start_and_links_every_page():
    readme = read("README.md")
    quick = code_block(section("README.md", "Quick start (fresh Debian machine, nothing but "
                                            "this repository)"), "")
    assert [line.split()[:2] for line in quick.splitlines()] == [["make", "demo"],
                                                                 ["make", "test"]]
    targets = re.findall(r"^([a-z][a-z0-9-]*):", read("Makefile"), re.M)
    assert {"demo", "test", "test-fc1", "translations"} <= set(targets)
    for page in PAGES:
        assert "](docs/%s)" % os.path.basename(page) in readme, page


def _slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _links(path):
    text = re.sub(r"^```.*?^```", "", read(path), flags=re.S | re.M)
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: os.path.relpath(p, ROOT))
def test_every_link_reaches_a_file_and_a_heading(path):
    bad = []
    for link in _links(path):
        if re.match(r"[a-z]+://", link):
            continue
        target, _, anchor = link.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target \
            else path
        if not os.path.exists(target):
            bad.append("%s: no file" % link)
        elif anchor and target.endswith(".md"):
            headings = re.findall(r"^#+ (.+)$", read(target), re.M)
            if anchor not in {_slug(h) for h in headings}:
                bad.append("%s: no heading" % link)
    assert not bad, bad


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: os.path.relpath(p, ROOT))
def test_the_package_paths_they_name_exist(path):
    names = set(re.findall(r"SimPhantWorkbench/[\w/]+(?:\.\w+)?", read(path)))
    missing = sorted(n for n in names if not os.path.exists(os.path.join(ROOT, n)))
    assert not missing, missing


def test_the_number_of_bundled_models_is_that_of_the_examples():
    words = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven",
             12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen"}
    n = len(glob.glob(os.path.join(ROOT, "examples", "*.FCStd")))
    word = words[n]
    assert "%s bundled models" % word in read("docs/command-line.md")
    assert "%s example documents" % word in read("README.md")
    assert read("examples/README.md").startswith("# SimPhant examples\n\n%s models"
                                                 % word.capitalize())
