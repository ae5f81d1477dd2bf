"""The Result archive in a document: written without compression now; an archive deflated
as earlier versions wrote it (``np.savez_compressed``) still loads, validated, to the same
values, also from a saved and reopened document; playback uses it."""
import json
import os
import shutil
import zipfile

import numpy as np
import pytest

from helpers_doc import docs, pendulum, reopen  # noqa: F401
import FreeCAD

from SimPhantWorkbench import playback, runner
from SimPhantWorkbench.document.base import studies, study_result


@pytest.fixture
def ran(docs):
    doc = docs()
    p = pendulum(doc)
    p["study"].OutputInterval = 0.01
    result = runner.run_study(p["study"], t_end=0.3)
    return doc, p, result


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {i.filename: i.compress_type for i in z.infolist()}


def _same(a, b):
    for key, value in a.to_arrays(derived=True).items():
        if key != "meta":
            np.testing.assert_array_equal(b.to_arrays(derived=True)[key], value, err_msg=key)
    name = a.body_names[0]
    np.testing.assert_array_equal(b.position(name), a.position(name))
    np.testing.assert_allclose(b.rotation_matrix(name), a.rotation_matrix(name), atol=1e-15)
    np.testing.assert_allclose(b.quaternion(name), a.quaternion(name), atol=1e-15)


def test_store_result_writes_the_archive_uncompressed(ran):
    doc, p, result = ran
    res_obj = study_result(p["study"])
    kinds = _members(res_obj.ResultFile)
    assert "states.npy" in kinds and "R_pu.npy" in kinds and "A.npy" not in kinds
    assert set(kinds.values()) == {zipfile.ZIP_STORED}
    res_obj.Proxy._cache = None
    _same(result, runner.get_result(p["study"]))


def test_an_archive_of_an_earlier_version_loads_and_plays_back(ran, tmp_path):
    doc, p, result = ran
    old = tmp_path / "earlier.npz"
    np.savez_compressed(str(old), **result.to_arrays(derived=True))  # as earlier versions did
    assert set(_members(str(old)).values()) == {zipfile.ZIP_DEFLATED}
    res_obj = study_result(p["study"])
    res_obj.ResultFile = str(old)
    res_obj.Proxy._cache = None
    _same(result, runner.get_result(p["study"]))
    study_name, rod_name = p["study"].Name, p["rod"].Name
    doc2 = reopen(doc, tmp_path / "earlier.FCStd")             # travels inside the FCStd
    st2 = doc2.getObject(study_name)
    loaded = runner.get_result(st2)
    _same(result, loaded)
    rod = doc2.getObject(rod_name)
    before = rod.Placement.copy()
    playback.apply_frame(st2, len(loaded.t) - 1)
    moved = rod.Placement
    assert (moved.Base - before.Base).Length > 1e-3          # moved to the last frame's pose
    playback.apply_frame(st2, 0)
    assert (rod.Placement.Base - before.Base).Length < 1e-9


EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "examples")


@pytest.mark.parametrize("name, mode", [(n[:-6], "Dynamic") for n in sorted(
    os.listdir(EXAMPLES)) if n.endswith(".FCStd")] + [("driven_slider_crank", "Kinematic")])
def test_every_member_of_a_result_survives_save_and_reopen_bit_for_bit(name, mode, docs,
                                                                        tmp_path):
    """Drivers (efforts, power, values, rates) and force elements included: a reopened
    document's result had lost them (read back as empty series)."""
    docs()                                   # closes what the test opens
    path = str(tmp_path / (name + ".FCStd"))
    shutil.copy(os.path.join(EXAMPLES, name + ".FCStd"), path)
    doc = FreeCAD.openDocument(path)
    study = studies(doc)[0]
    study.AnalysisMode = mode
    fresh = runner.run_study(study, t_end=0.05, output_dt=0.01).to_arrays()
    doc.save()
    FreeCAD.closeDocument(doc.Name)
    doc = FreeCAD.openDocument(path)
    stored = runner.get_result(studies(doc)[0]).to_arrays()
    assert sorted(stored) == sorted(fresh)
    for key, value in fresh.items():
        if key == "meta":
            assert json.loads(str(stored[key])) == json.loads(str(value))
        else:
            assert stored[key].shape == value.shape, key
            np.testing.assert_array_equal(stored[key], value, err_msg=key)
