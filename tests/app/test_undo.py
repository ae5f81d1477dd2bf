"""Undo and redo of every change SimPhant makes to a document, on FreeCAD 0.20 and 1.x.

``undo_cases.py`` runs in a FreeCAD process of its own (FreeCAD 1.0 died in undo: undoing
the creation of a Python feature holding an ``App::PropertyXLinkSub`` left the document
corrupt, saving it then wrote a cut-off file, closing it crashed). For every factory
function, every run, playback and parameter-study change and the Assembly import: after
undo the document is the one before (every file of its serialised ``.FCStd``, every object
and property), after redo the changed one, saved after redo or after undo it reopens with
exactly those objects and properties and passes the document check, and every document
closes (the process ends normally).
"""
import json
import subprocess
import sys

import pytest

import undo_cases
from helpers_doc import docs, pendulum  # noqa: F401 (fixture)
from SimPhantWorkbench import factory, runner
from SimPhantWorkbench.objects import OBJECT_TYPES, proxy_class

CASES = list(undo_cases.all_cases())
REFUSED = {"make_joint refused"}


@pytest.fixture(scope="module")
def undo_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("undo")
    out = tmp / "undo.json"
    proc = subprocess.run([sys.executable, undo_cases.__file__, str(out), str(tmp)],
                          capture_output=True, encoding="utf-8", errors="replace",
                          timeout=1200)
    results = json.loads(out.read_text()) if out.exists() else {}
    return proc, results


def _case(undo_run, name):
    proc, results = undo_run
    case = results.get("cases", {}).get(name)
    assert case is not None, "FreeCAD ended (exit %s) in case %r before %r ran: %s" % (
        proc.returncode, results.get("running"), name, (proc.stdout + proc.stderr)[-3000:])
    assert "error" not in case, case.get("error")
    return case


@pytest.mark.parametrize("name", [n for n in CASES if n not in REFUSED])
def test_undo_restores_redo_repeats_and_both_save_whole(undo_run, name):
    case = _case(undo_run, name)
    assert case["changed"] and case["undo_steps"] == 1
    assert case["undo"] == [] and case["invalid_after_undo"] == []
    assert case["redo"] == [] and case["undo_after_save"] == []
    assert case["reopen_after"] == []
    assert case["reopen_undone"] == []
    assert case["closed"]


def test_a_refused_change_leaves_no_undo_step_and_the_document_as_it_was(undo_run):
    case = _case(undo_run, "make_joint refused")
    assert case["undo_steps"] == 0 and not case["changed"]
    assert case["reopen_after"] == []


def test_every_case_ran_and_every_document_closed_cleanly(undo_run):
    proc, results = undo_run
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert results["running"] is None and results["names"] == CASES


def test_every_factory_function_has_an_undo_case():
    covered = {name.split(" ")[0] for name in CASES}
    assert set(factory.__all__) <= covered, sorted(set(factory.__all__) - covered)


def test_no_simphant_object_stores_a_link_that_freecad_1_cannot_undo():
    """``App::PropertyXLink*`` (undo of their creation corrupts FreeCAD 1.0 documents)."""
    for type_name in OBJECT_TYPES:
        for spec in proxy_class(type_name).PROPERTIES:
            assert "XLink" not in spec.type, (type_name, spec.name, spec.type)


def test_the_snapshot_sees_a_changed_property_and_a_removed_object(doc):
    """The comparison the cases rely on is not blind."""
    box = doc.addObject("Part::Box", "Box")
    doc.recompute()
    a = undo_cases.snapshot(doc)
    box.Length = 11.0
    doc.recompute()
    assert any(line.startswith("Box.Length") for line in
               undo_cases.differences(a, undo_cases.snapshot(doc)))
    c = undo_cases.content(doc)
    box.Width = 3.0
    assert undo_cases.content_differences(c, undo_cases.content(doc))
    doc.removeObject("Box")
    assert undo_cases.differences(a, undo_cases.snapshot(doc))[0].startswith("objects")


def test_a_document_without_undo_leaves_no_transaction_open_for_the_next(docs):
    """Headless documents have undo off; SimPhant's changes to one must not leave FreeCAD's
    application-wide transaction open, which would gather every later change of a document
    with undo on into one step that is never committed."""
    pendulum(docs())                                          # UndoMode 0
    doc = docs()
    doc.UndoMode = 1
    study = pendulum(doc)["study"]
    runner.run_study(study, t_end=0.02)
    runner.run_study(study, t_end=0.02)
    assert doc.UndoNames[:3] == ["SimPhant: store result of 'Study'"] * 2 \
        + ["Add SimPhant joint"]
    assert not doc.HasPendingTransaction
