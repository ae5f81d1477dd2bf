"""Outdated results (``freshness``): a change of what is simulated after a run marks its
result outdated and names what changed; labels, playback and reset do not; a new run
clears it; the status survives save and reopen."""
import json
import shutil

import pytest

import FreeCAD

from helpers_doc import reopen, vec
from SimPhantWorkbench import freshness, playback, runner
from SimPhantWorkbench.document.base import studies, study_result

ROOT = __file__.rsplit("/tests/", 1)[0]


def _open(tmp_path, name, end=0.05):
    path = tmp_path / (name + ".FCStd")
    shutil.copy("%s/examples/%s.FCStd" % (ROOT, name), str(path))
    doc = FreeCAD.openDocument(str(path))
    doc.UndoMode = 1
    study = studies(doc)[0]
    study.EndTime = end
    study.OutputInterval = 0.01
    runner.run_study(study)
    return doc, study


@pytest.fixture
def crank(tmp_path):
    before = set(FreeCAD.listDocuments())
    doc, study = _open(tmp_path, "driven_slider_crank")
    yield doc, study
    for name in set(FreeCAD.listDocuments()) - before:
        FreeCAD.closeDocument(name)


def _moved(obj, dx=1.0):
    pl = FreeCAD.Placement(obj.Placement)
    pl.Base = pl.Base + vec(dx, 0, 0)
    return pl


#: (what is edited, edit(doc), words the reason holds)
EDITS = [
    ("a moving body's placement", lambda d: setattr(d.getObject("Crank").ShapeObject,
                                                    "Placement",
                                                    _moved(d.getObject("Crank").ShapeObject)),
     "moved since the run: 'Crank link'"),
    ("the fixed body's placement", lambda d: setattr(d.getObject("Rail").ShapeObject,
                                                     "Placement",
                                                     _moved(d.getObject("Rail").ShapeObject)),
     "joint 'SliderGuide'"),
    ("a density", lambda d: setattr(d.getObject("ConnectingRod"), "Density", 2000.0),
     "body 'ConnectingRod'"),
    ("an initial velocity", lambda d: setattr(d.getObject("Slider"), "InitialVelocity",
                                              vec(0, 0, 0.001)), "body 'Slider'"),
    ("a joint's offset", lambda d: setattr(d.getObject("CrankPin"), "Offset", 0.5),
     "joint 'CrankPin'"),
    ("the driver's speed", lambda d: setattr(d.getObject("Motor"), "Speed",
                                             d.getObject("Motor").Speed * 1.01),
     "driver 'Motor'"),
    ("the end time", lambda d: setattr(studies(d)[0], "EndTime", 0.06),
     "the study's settings"),
    ("the time step", lambda d: setattr(studies(d)[0], "TimeStep", 0.0005),
     "the study's settings"),
    ("gravity", lambda d: setattr(studies(d)[0], "GravityAcceleration", 9.0), "gravity"),
    ("the driver deleted", lambda d: d.removeObject("Motor"), "driver 'Motor' (removed)"),
]


@pytest.mark.parametrize("what,edit,words", EDITS, ids=[e[0] for e in EDITS])
def test_a_change_of_the_model_outdates_the_result_and_undo_brings_it_back(crank, what, edit,
                                                                           words):
    doc, study = crank
    res_obj = study_result(study)
    assert freshness.status(study) == (False, "")
    doc.openTransaction("edit")
    edit(doc)
    doc.commitTransaction()
    doc.recompute()
    status = freshness.refresh(study)
    assert status.outdated is True, what
    assert words in status.reason, status.reason
    assert res_obj.Outdated and res_obj.OutdatedReason == status.reason
    doc.undo()
    doc.recompute()
    assert freshness.refresh(study) == (False, "")
    assert not res_obj.Outdated and res_obj.OutdatedReason == ""


def test_labels_visibility_and_playback_leave_the_result_up_to_date(crank):
    doc, study = crank
    for obj in list(study.Group) + [doc.getObject("Crank").ShapeObject]:
        obj.Label = obj.Label + " renamed"
        obj.Visibility = not obj.Visibility
    assert freshness.refresh(study) == (False, "")
    playback.apply_frame(study, 3)               # bodies at a pose of the result
    assert freshness.refresh(study) == (False, "")
    playback.reset(study)
    assert freshness.refresh(study) == (False, "")


def test_a_body_moved_from_a_playback_pose_or_an_edit_there_outdates_it(crank):
    doc, study = crank
    crank_shape = doc.getObject("Crank").ShapeObject
    playback.apply_frame(study, 3)
    crank_shape.Placement = _moved(crank_shape, 0.01)     # nowhere in the result
    st = freshness.status(study)
    assert st.outdated and st.reason.startswith("moved since the run: 'Crank link'")
    playback.apply_frame(study, 3)
    st = freshness.refresh(study, edited=True)            # e.g. a stiffness typed meanwhile
    assert st.outdated and "reset them to compare" in st.reason
    playback.reset(study)                                 # compared again: nothing changed
    assert freshness.refresh(study) == (False, "")


def test_a_new_run_clears_the_mark(crank):
    doc, study = crank
    doc.getObject("Motor").Speed = doc.getObject("Motor").Speed * 2
    assert freshness.refresh(study).outdated
    runner.run_study(study)
    res_obj = study_result(study)
    assert not res_obj.Outdated and res_obj.OutdatedReason == ""
    assert freshness.status(study) == (False, "")


def test_a_run_with_overrides_is_compared_with_the_same_overrides(crank):
    doc, study = crank
    runner.run_study(study, t_end=0.03)
    assert json.loads(study_result(study).ModelStamp)["overrides"] == {"t_end": 0.03}
    assert freshness.status(study) == (False, "")         # EndTime 0.05 was not run
    study.EndTime = 0.2
    assert freshness.status(study) == (False, "")         # nor is this one
    study.TimeStep = 0.0005
    assert freshness.status(study).outdated


def test_force_element_changes_outdate_the_result(tmp_path):
    doc, study = _open(tmp_path, "quarter_car", end=0.02)
    try:
        assert freshness.status(study) == (False, "")
        doc.getObject("Tyre").Stiffness = "300 N/mm"
        assert freshness.status(study) == (True, "changed since the run: force element 'Tyre'")
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_the_status_survives_save_and_reopen(crank, tmp_path):
    doc, study = crank
    doc = reopen(doc, tmp_path / "fresh.FCStd")
    study = studies(doc)[0]
    assert not study_result(study).Outdated
    assert freshness.status(study) == (False, "")        # the same model (on 1.x: round-off)
    doc.getObject("Motor").Speed = doc.getObject("Motor").Speed * 2
    reason = freshness.refresh(study).reason
    doc = reopen(doc, tmp_path / "outdated.FCStd")
    study = studies(doc)[0]
    res_obj = study_result(study)
    assert res_obj.Outdated and res_obj.OutdatedReason == reason == \
        "changed since the run: driver 'Motor'"
    assert freshness.status(study) == (True, reason)


def test_a_result_stored_without_a_stamp_cannot_tell(crank):
    doc, study = crank
    res_obj = study_result(study)
    res_obj.ModelStamp = ""                               # a result of an older SimPhant
    doc.getObject("Motor").Speed = doc.getObject("Motor").Speed * 2
    assert freshness.refresh(study) == (None, "")
    assert not res_obj.Outdated
