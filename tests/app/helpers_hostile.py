"""What the hostile-input tests share: the CLI run in this process, folder hashes, crafted
copies of a document, and a saved pendulum model with a force (``model``, ``work``)."""
import hashlib
import io
import json
import os
import tracemalloc
import zipfile

import pytest

import FreeCAD

from helpers_doc import pendulum
from SimPhantWorkbench import cli, factory

T_END = "0.05"


def run_cli(*argv, progress=None):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], progress=progress, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def tree_hashes(root):
    """``{relative path: sha256}`` of every file under ``root`` (hidden ones included)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(str(root)):
        for f in filenames:
            full = os.path.join(dirpath, f)
            with open(full, "rb") as fh:
                out[os.path.relpath(full, str(root))] = hashlib.sha256(fh.read()).hexdigest()
    return out


def changed(before, after):
    return {k for k in set(before) | set(after) if before.get(k) != after.get(k)}


def manifest_files(out):
    with open(os.path.join(str(out), "run.json")) as fh:
        return set(json.load(fh)["files"])


def assert_only_manifest_changed(root, out, before):
    """Every file that changed under ``root`` is one the run's manifest in ``out`` lists."""
    after = tree_hashes(root)
    rel = os.path.relpath(str(out), str(root))
    allowed = {os.path.normpath(os.path.join(rel, f)) for f in manifest_files(out)}
    assert changed(before, after) <= allowed, changed(before, after) - allowed


def edit_fcstd(src, dst, xml=None, replace=None):
    """Copy the .FCStd ``src`` to ``dst`` with ``Document.xml`` passed through ``xml(text)``
    and members replaced by ``replace`` ({name: bytes})."""
    replace = replace or {}
    with zipfile.ZipFile(str(src)) as zin, \
            zipfile.ZipFile(str(dst), "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Document.xml" and xml is not None:
                data = xml(data.decode("utf-8")).encode("utf-8")
            if info.filename in replace:
                data = replace[info.filename]
            zout.writestr(info, data)
    return str(dst)


def object_data_start(xml, name):
    """Offset of ``<Object name="...">`` inside ``<ObjectData>``."""
    return xml.index('<Object name="%s"' % name, xml.index("<ObjectData"))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A saved pendulum (fixed Pin, Rod on a revolute Hinge) with a Force on the rod."""
    folder = tmp_path_factory.mktemp("model")
    doc = FreeCAD.newDocument("HostileModel")
    try:
        p = pendulum(doc)
        factory.make_force(p["study"], p["link"], (0.0, 0.0, -0.01), name="Push")
        path = str(folder / "swing.FCStd")
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    return path


@pytest.fixture
def work(tmp_path, model):
    """A folder with a copy of the model; returns (folder, model path)."""
    path = str(tmp_path / "swing.FCStd")
    with open(model, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    return tmp_path, path


def refused_within(memory, error, match, fn, *args):
    """``fn(*args)`` raises ``error`` matching ``match`` and allocates at most ``memory``
    bytes (Python's allocations, traced) on the way."""
    tracemalloc.start()
    try:
        with pytest.raises(error, match=match):
            fn(*args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < memory, peak

