"""The Result archive in a document: written without compression now; an archive deflated
as earlier versions wrote it (``np.savez_compressed``) still loads, validated, to the same
values, also from a saved and reopened document; playback uses it."""
import zipfile

import numpy as np
import pytest

from helpers_doc import docs, pendulum, reopen  # noqa: F401
from SimPhantWorkbench import playback, runner
from SimPhantWorkbench.document.base import study_result


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
