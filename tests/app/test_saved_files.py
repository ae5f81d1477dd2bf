"""Documents SimPhant saves keep what their file had: parts linked from other files stay
linked from wherever the copy is saved, and the view data (GuiDocument.xml) survives saves
without the GUI; the nothing-lost check names unresolved links, objects that became
invalid and missing view data.

FreeCAD's ``saveAs`` into another folder keeps a link's path relative to the old folder
(``<XLink file="parts.FCStd"/>``), so the copy's linked parts are Invalid when reopened;
``simphant run`` writes its result document elsewhere, so it re-points those paths
(``document.fcstd.repoint_links``) and checks the written file.
"""
import os
import shutil
import subprocess
import zipfile

import pytest

import FreeCAD
import Part

from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import factory
from SimPhantWorkbench.document import fcstd, inventory
from SimPhantWorkbench.document.opening import ModelFile, ModelFileError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
EXAMPLE = os.path.join(ROOT, "examples", "pendulum.FCStd")
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
V = FreeCAD.Vector


def members(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def close_all():
    for name in list(FreeCAD.listDocuments()):
        FreeCAD.closeDocument(name)


@pytest.fixture
def linked_model(tmp_path):
    """``model/parts.FCStd`` (a bar) and ``model/model.FCStd``: a study with a fixed post and
    a moving body made of an App::Link to the bar, joined by a ball joint; nothing open
    afterwards. Returns the model's path."""
    folder = tmp_path / "model"
    folder.mkdir()
    parts = FreeCAD.newDocument("Parts")
    bar = parts.addObject("Part::Feature", "Bar")
    bar.Shape = Part.makeBox(100, 10, 10)
    parts.saveAs(str(folder / "parts.FCStd"))
    model = FreeCAD.newDocument("Model")
    model.saveAs(str(folder / "model.FCStd"))
    post = model.addObject("Part::Box", "Post")
    post.Placement.Base = V(-10, 0, -10)
    link = model.addObject("App::Link", "BarLink")
    link.LinkedObject = bar
    model.recompute()
    study = factory.make_study(model)
    study.EndTime = 0.05
    factory.make_body(study, post, fixed=True)
    factory.make_body(study, link, density=1000)
    factory.make_joint(study, "spherical", (post, "Vertex8"), (link, "Vertex2"))
    model.save()
    path = model.FileName
    close_all()
    assert [f for _, _, f in fcstd.linked_files(path)] == ["parts.FCStd"]
    yield path
    close_all()


def _reopened_state(path):
    """Open ``path`` (nothing else open): the states of its objects after a recompute and
    the file the link shows."""
    close_all()
    doc = FreeCAD.openDocument(path)
    try:
        doc.recompute()
        link = doc.getObject("BarLink")
        linked = link.LinkedObject
        return ({o.Name: o.State for o in doc.Objects if o.State != ["Up-to-date"]},
                linked.Document.FileName if linked is not None else None)
    finally:
        close_all()


def test_freecads_own_save_as_elsewhere_loses_the_linked_part_and_the_check_says_so(
        linked_model, tmp_path):
    elsewhere = tmp_path / "out" / "deep"
    elsewhere.mkdir(parents=True)
    doc = FreeCAD.openDocument(linked_model)
    copy = str(elsewhere / "copy.FCStd")
    doc.saveAs(copy)
    lost = inventory.saved_losses(doc, copy, str(elsewhere))
    assert len(lost) == 1 and lost[0].startswith("BarLink (LinkedObject) links to "
                                                 "'parts.FCStd', which is not there")
    states, linked = _reopened_state(copy)
    assert "Invalid" in states["BarLink"] and linked is None


def test_the_result_document_of_simphant_run_keeps_the_linked_parts(linked_model, tmp_path):
    out = tmp_path / "out" / "deep"
    done = subprocess.run([LAUNCHER, "run", linked_model, "--out", str(out),
                           "--no-animation"], cwd="/", capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    result = str(out / "model_result.FCStd")
    assert [f for _, _, f in fcstd.linked_files(result)] == ["../../model/parts.FCStd"]
    states, linked = _reopened_state(result)
    assert states == {} and linked == os.path.join(os.path.dirname(linked_model),
                                                   "parts.FCStd")
    # what else the file holds is what FreeCAD wrote: only the link paths were rewritten
    model = members(linked_model)
    assert set(members(result)) >= set(model) - {"GuiDocument.xml"}


def test_links_are_repointed_for_where_the_copy_will_live(linked_model, tmp_path):
    """``ModelFile.save_as(path, target)``: written at ``path`` (the CLI's staging folder),
    the links lead from ``target``'s folder; the rest of Document.xml is unchanged."""
    staging = tmp_path / "out" / ".staging"
    staging.mkdir(parents=True)
    with ModelFile(FreeCAD, linked_model) as model:
        written = str(staging / "r.FCStd")
        model.save_as(written, target=str(tmp_path / "out" / "r.FCStd"))
        plain = str(tmp_path / "plain.FCStd")
        model.doc.saveAs(plain)
    assert [f for _, _, f in fcstd.linked_files(written)] == ["../model/parts.FCStd"]
    def objects(xml):              # the document's own properties name its file
        return xml[xml.index(b"<Objects "):]

    assert objects(members(written)["Document.xml"]) == objects(
        members(plain)["Document.xml"]).replace(b'file="parts.FCStd"',
                                                b'file="../model/parts.FCStd"')


def test_save_as_refuses_a_copy_whose_link_leads_nowhere(linked_model, tmp_path,
                                                         monkeypatch):
    """Were the links not re-pointed, the CLI would refuse the result, naming the link."""
    monkeypatch.setattr("SimPhantWorkbench.document.opening.repoint_links",
                        lambda *args: [])
    with ModelFile(FreeCAD, linked_model) as model:
        (tmp_path / "out").mkdir()
        with pytest.raises(ModelFileError, match=r"r\.FCStd': the written file is not whole: "
                           r"BarLink \(LinkedObject\) links to 'parts\.FCStd', which is not "
                           r"there .*; nothing written"):
            model.save_as(str(tmp_path / "out" / "r.FCStd"))


def test_save_as_refuses_a_document_with_an_object_that_became_invalid(tmp_path):
    path = str(tmp_path / "pendulum.FCStd")
    shutil.copy(EXAMPLE, path)
    with ModelFile(FreeCAD, path) as model:
        box = model.doc.addObject("Part::Box", "Broken")
        model.doc.recompute()
        box.Length = 0.0                       # no box: its recompute fails
        model.doc.recompute()
        assert "Invalid" in box.State
        with pytest.raises(ModelFileError, match=r"Broken \(Part::Box\): became invalid"):
            model.save_as(str(tmp_path / "copy.FCStd"))
        assert not os.path.exists(tmp_path / "copy.FCStd")


def test_the_check_names_missing_view_data(tmp_path):
    path = str(tmp_path / "pendulum.FCStd")
    shutil.copy(EXAMPLE, path)
    doc = FreeCAD.openDocument(path)
    try:
        bare = str(tmp_path / "bare.FCStd")
        doc.saveAs(bare)
        fcstd.rewrite_members(bare, lambda m: {n: d for n, d in m.items()
                                               if n != "GuiDocument.xml"})
        assert inventory.saved_losses(doc, bare, str(tmp_path), view_data=True) == [
            "the view data (GuiDocument.xml: visibility, colours) is not in the file"]
        assert inventory.saved_losses(doc, bare, str(tmp_path)) == []
    finally:
        FreeCAD.closeDocument(doc.Name)


def _with_view_data(path, gui):
    fcstd.rewrite_members(path, lambda m: dict(m, **gui))


def test_headless_saves_keep_the_view_data_of_documents_with_simphant_objects(tmp_path):
    gui = fcstd.gui_members(EXAMPLE)
    assert "GuiDocument.xml" in gui
    # a SimPhant model saved by a script, without the GUI
    path = str(tmp_path / "pendulum.FCStd")
    shutil.copy(EXAMPLE, path)
    doc = FreeCAD.openDocument(path)
    doc.getObject("Study").EndTime = 1.5
    doc.saveAs(str(tmp_path / "saved_as.FCStd"))
    doc.save()
    FreeCAD.closeDocument(doc.Name)
    for saved in ("saved_as.FCStd", "pendulum.FCStd"):
        assert fcstd.gui_members(str(tmp_path / saved)) == gui, saved
    # an Assembly document (made in the GUI) imported into a study by a script
    from SimPhantWorkbench.assembly_import import study_from_assembly
    asm = str(tmp_path / "assembly.FCStd")
    shutil.copy(os.path.join(FIXTURES, "assembly_pendulum.FCStd"), asm)
    _with_view_data(asm, gui)
    doc = FreeCAD.openDocument(asm)
    study_from_assembly(doc.getObject("Assembly"))
    doc.saveAs(str(tmp_path / "imported.FCStd"))
    FreeCAD.closeDocument(doc.Name)
    assert fcstd.gui_members(str(tmp_path / "imported.FCStd")) == gui


def test_model_file_saves_put_the_view_data_back_by_themselves(tmp_path, monkeypatch):
    """``ModelFile.save_as`` (the CLI's result document) keeps the model's view data even
    where the document observer of headless saves does not act."""
    monkeypatch.setattr(fcstd.keep_view_data(FreeCAD), "wanted", lambda doc: False)
    gui = fcstd.gui_members(EXAMPLE)
    with ModelFile(FreeCAD, EXAMPLE) as model:
        model.doc.saveAs(str(tmp_path / "plain.FCStd"))            # the observer is off
        model.save_as(str(tmp_path / "result.FCStd"))
    assert fcstd.gui_members(str(tmp_path / "plain.FCStd")) == {}
    assert fcstd.gui_members(str(tmp_path / "result.FCStd")) == gui


def test_documents_without_simphant_objects_are_saved_as_freecad_saves_them(docs, tmp_path):
    doc = docs()
    doc.addObject("Part::Box", "Box")
    path = str(tmp_path / "plain.FCStd")
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    _with_view_data(path, fcstd.gui_members(EXAMPLE))
    doc = FreeCAD.openDocument(path)
    doc.saveAs(str(tmp_path / "again.FCStd"))
    FreeCAD.closeDocument(doc.Name)
    assert fcstd.gui_members(str(tmp_path / "again.FCStd")) == {}


@pytest.mark.fc1
def test_the_result_of_an_assembly_of_linked_parts_reopens_whole_and_solves(tmp_path):
    """``fixtures/fc1_linked.FCStd`` (FreeCAD 1.0's Assembly: parts linked from
    ``fc1_linked_parts.FCStd``, no study) through ``simphant run --out`` another folder:
    the result document reopens with every object valid, its links leading to the model's
    parts file, and the Assembly still solves."""
    from SimPhantWorkbench import runner
    folder = tmp_path / "model"
    folder.mkdir()
    for name in ("fc1_linked.FCStd", "fc1_linked_parts.FCStd"):
        shutil.copy(os.path.join(FIXTURES, name), str(folder / name))
    out = tmp_path / "out" / "deep"
    done = subprocess.run([LAUNCHER, "run", str(folder / "fc1_linked.FCStd"), "--out",
                           str(out), "--no-animation", "--t-end", "0.2"], cwd="/",
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "imported Assembly 'Assembly' into a study for this run" in done.stderr
    result = str(out / "fc1_linked_result.FCStd")
    assert [f for _, _, f in fcstd.linked_files(result)] == \
        ["../../model/fc1_linked_parts.FCStd"] * 2
    close_all()
    doc = FreeCAD.openDocument(result)
    try:
        doc.recompute()
        assert [(o.Name, o.State) for o in doc.Objects if "Invalid" in o.State] == []
        for name in ("LinkA", "LinkB"):
            linked = doc.getObject(name).LinkedObject
            assert linked.Document.FileName == str(folder / "fc1_linked_parts.FCStd")
        assert doc.getObject("Assembly").solve() == 0
        assert len(runner.get_result(doc.getObject("Study")).t) == 21
    finally:
        close_all()


def test_undo_after_save_as_gives_back_the_replaced_result(tmp_path):
    """Save As renames the document's transient folder, where the Result's arrays and the
    copies undo keeps of them live; the undo steps taken before still find them (a link
    from the old name, removed with the document)."""
    import numpy as np
    from helpers_doc import pendulum
    from SimPhantWorkbench import runner
    doc = FreeCAD.newDocument("UndoSaveAs")
    doc.UndoMode = 1
    study = pendulum(doc)["study"]
    first = runner.run_study(study, t_end=0.1, output_dt=0.02)
    second = runner.run_study(study, t_end=0.1, output_dt=0.01)
    old = doc.TransientDir
    doc.saveAs(str(tmp_path / "saved.FCStd"))
    assert doc.TransientDir != old and os.path.islink(old)
    doc.undo()
    assert np.array_equal(runner.get_result(study).t, first.t)
    doc.redo()
    assert np.array_equal(runner.get_result(study).t, second.t)
    FreeCAD.closeDocument(doc.Name)
    assert not os.path.lexists(old)
