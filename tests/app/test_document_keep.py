"""A document SimPhant opens and saves keeps every object of every workbench.

A model holding an Assembly (FreeCAD 1.x: the document made by FreeCAD's Assembly API,
``fixtures/fc1_pendulum.FCStd``; 0.20: the same objects as 1.x stores them, see
``test_assembly_import``), a PartDesign Body with a Sketch and a Pad, and a SimPhant study
imported from the Assembly goes through ``bin/simphant run --in-place`` (a fresh
interpreter, as a user runs it), through the result document the CLI writes, and through
``runner.run_study`` + save, and is compared object by object with what it held
(``inventory``: names, type ids, Python classes). A document FreeCAD could not load whole
is never saved: the CLI refuses and names what would be lost.
"""
import hashlib
import os
import shutil
import subprocess
import sys

import pytest

import FreeCAD

from helpers_doc import PROBE_MODULE, docs  # noqa: F401 (fixture)
from SimPhantWorkbench import runner
from SimPhantWorkbench.document import headless, inventory
from SimPhantWorkbench.assembly_import import study_from_assembly
from SimPhantWorkbench.document.base import is_type

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join(ROOT, "bin", "simphant")
RUN_PYTHON = os.path.join(ROOT, "tools", "run_python.sh")
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
FC1 = int(FreeCAD.Version()[0]) >= 1


def sha(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def add_sketch_and_pad(doc):
    """A PartDesign Body (away from the Assembly) with a rectangle Sketch padded 5 mm."""
    import Part
    import Sketcher  # noqa: F401  (the Sketcher types)
    body = doc.addObject("PartDesign::Body", "Body")
    body.Placement.Base = FreeCAD.Vector(0, 500, 0)
    sketch = body.newObject("Sketcher::SketchObject", "Sketch")
    pts = [FreeCAD.Vector(*p) for p in ((0, 0, 0), (30, 0, 0), (30, 20, 0), (0, 20, 0))]
    for a, b in zip(pts, pts[1:] + pts[:1]):
        sketch.addGeometry(Part.LineSegment(a, b), False)
    for i in range(4):
        sketch.addConstraint(Sketcher.Constraint("Coincident", i, 2, (i + 1) % 4, 1))
    pad = body.newObject("PartDesign::Pad", "Pad")
    pad.Profile = sketch
    pad.Length = 5
    doc.recompute()
    assert pad.Shape.isValid() and pad.Shape.Volume == pytest.approx(30 * 20 * 5)
    return body


def mixed_model(tmp_path):
    """Save the mixed model (see the module docstring) to ``tmp_path/model.FCStd``; return
    its path and its inventory (the file's, before anything ran)."""
    path = str(tmp_path / "model.FCStd")
    if FC1:
        shutil.copy(os.path.join(FIXTURES, "fc1_pendulum.FCStd"), path)
        doc = FreeCAD.openDocument(path)
    else:
        from test_assembly_import import build_pendulum
        doc = FreeCAD.newDocument("MixedModel")
        build_pendulum(doc)
    try:
        add_sketch_and_pad(doc)
        asm = doc.getObject("Assembly")
        study = study_from_assembly(asm)
        study.EndTime, study.TimeStep = 0.05, 1e-3
        doc.recompute()
        joints = {o.Name: o.JointType for o in doc.Objects if hasattr(o, "JointType")}
        assert joints
        doc.saveAs(path)
    finally:
        FreeCAD.closeDocument(doc.Name)
    before = inventory.file_inventory(path)
    before = Model(before, joints)
    types = {e.type for e in before.objects.values()}
    assert {"PartDesign::Body", "Sketcher::SketchObject", "PartDesign::Pad"} <= types
    assert any(e.proxy and e.proxy[1] == "Study" for e in before.objects.values())
    if FC1:
        assert "Assembly::AssemblyObject" in types and "Assembly::JointGroup" in types
        assert ("JointObject", "Joint") in {e.proxy for e in before.objects.values()}
    return path, before


class Model:
    def __init__(self, objects, joints):
        self.objects = objects      # file inventory before anything ran
        self.joints = joints        # Assembly joint Name -> JointType


def assert_keeps(path, before):
    """``path`` holds every object of ``before`` (names, types, Python classes), and the
    reopened document has them all, with the Assembly's joints and a valid Pad."""
    saved = inventory.file_inventory(path)
    for name, entry in before.objects.items():
        assert saved.get(name) == entry, "%s: %s -> %s" % (name, entry, saved.get(name))
    doc = FreeCAD.openDocument(path)
    try:
        assert inventory.lost_objects(before.objects, doc) == []
        assert {o.Name: o.JointType for o in doc.Objects if hasattr(o, "JointType")} \
            == before.joints
        assert doc.getObject("Pad").Shape.Volume == pytest.approx(30 * 20 * 5)
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_simphant_run_in_place_and_its_result_document_keep_every_object(tmp_path, partdesign):
    path, before = mixed_model(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([LAUNCHER, "run", path, "--in-place", "--no-animation",
                           "--out", str(out)], cwd="/", capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "saved in place" in done.stdout
    assert_keeps(path, before)
    # the in-place save added the Result and nothing else
    added = set(inventory.file_inventory(path)) - set(before.objects)
    assert added and all("Result" in n for n in added), added
    # a second run on the saved model (its Result reused), without --in-place
    done = subprocess.run([LAUNCHER, "run", path, "--no-animation", "--out", str(out)],
                          cwd="/", capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert_keeps(str(out / "model_result.FCStd"), before)


def test_run_study_and_save_keep_every_object(tmp_path, partdesign):
    path, before = mixed_model(tmp_path)
    doc = FreeCAD.openDocument(path)
    try:
        study = next(o for o in doc.Objects if is_type(o, "SimPhant::Study"))
        r = runner.run_study(study)
        assert r.t[-1] == pytest.approx(0.05)
        assert inventory.lost_objects(before.objects, doc) == []
        doc.save()
    finally:
        FreeCAD.closeDocument(doc.Name)
    assert_keeps(path, before)


# ============================================================================ refusing to save



def test_cli_refuses_to_save_a_document_whose_objects_did_not_load(tmp_path):
    """The model has a Python feature of an add-on module the CLI cannot import: the run
    fails with exit 2 naming the object and its class; the model and the outputs are not
    written."""
    from SimPhantWorkbench import factory
    addon = tmp_path / "addon"
    addon.mkdir()
    (addon / "simphant_probe_addon.py").write_text(PROBE_MODULE)
    sys.path.insert(0, str(addon))
    try:
        import simphant_probe_addon
        doc = FreeCAD.newDocument("ProbeModel")
        try:
            box = doc.addObject("Part::Box", "Block")
            probe = doc.addObject("App::FeaturePython", "Probe")
            simphant_probe_addon.Probe(probe)
            doc.recompute()
            study = factory.make_study(doc)
            study.EndTime = 0.02
            factory.make_body(study, box, density=1000)
            path = str(tmp_path / "probe.FCStd")
            doc.saveAs(path)
        finally:
            FreeCAD.closeDocument(doc.Name)
    finally:
        sys.path.remove(str(addon))
        sys.modules.pop("simphant_probe_addon", None)
    assert inventory.file_inventory(path)["Probe"].proxy == ("simphant_probe_addon", "Probe")
    digest = sha(path)
    out = tmp_path / "out"
    for extra in ([], ["--in-place"]):
        done = subprocess.run([LAUNCHER, "run", path, "--no-animation", "--out", str(out)]
                              + extra, cwd="/", capture_output=True, text=True, timeout=600)
        assert done.returncode == 2, done.stderr
        line = done.stderr.strip().splitlines()[-1]
        assert "would be lost" in line
        assert "Probe (App::FeaturePython): its Python class simphant_probe_addon.Probe " \
            "could not be loaded" in line
        assert sha(path) == digest
        assert not out.exists() or not any(out.iterdir())


@pytest.mark.fc1
def test_without_freecads_module_start_up_the_assembly_is_missing_and_not_saved(tmp_path):
    """What a library-mode FreeCAD without its module start-up does to an Assembly model:
    the Assembly does not load; the CLI (with the start-up switched off) refuses to save."""
    path = str(tmp_path / "pendulum.FCStd")
    shutil.copy(os.path.join(FIXTURES, "fc1_pendulum.FCStd"), path)
    doc = FreeCAD.openDocument(path)
    try:
        study_from_assembly(doc.getObject("Assembly")).EndTime = 0.02
        doc.save()
    finally:
        FreeCAD.closeDocument(doc.Name)
    digest = sha(path)
    code = ("import sys; import SimPhantWorkbench.document.headless as h; h.start = lambda *a: []; "
            "from SimPhantWorkbench.cli import main; sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, SIMPHANT_NO_FREECAD_STARTUP="1")
    done = subprocess.run([RUN_PYTHON, "-c", code, "run", path, "--in-place", "--no-animation",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=600, env=env, cwd="/")
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "Assembly (Assembly::AssemblyObject): not loaded" in line
    assert "Joint (App::FeaturePython): its Python class JointObject.Joint could not be " \
        "loaded" in line
    assert sha(path) == digest


def test_start_up_registers_the_installed_workbenches_once():
    """``headless.start`` ran in this process (tests/app/conftest.py): every installed
    workbench folder with an ``Init.py`` is a FreeCAD module folder and on ``sys.path``;
    a second call does nothing."""
    dirs = headless.module_dirs(FreeCAD)
    known = {os.path.realpath(d) for d in FreeCAD.__ModDirs__}
    assert dirs and set(dirs) <= known
    resource_mod = os.path.realpath(os.path.join(FreeCAD.getResourceDir(), "Mod"))
    assert os.path.join(resource_mod, "Part") in dirs
    assert all(d in {os.path.realpath(p) for p in sys.path} for d in dirs)
    assert headless.start(FreeCAD) == []
    if FC1:
        import AssemblyApp  # noqa: F401  (importable: Mod/Assembly is a module folder)
        import JointObject
        assert os.path.realpath(JointObject.__file__).startswith(resource_mod)


SCRIPT = '''
import json, os, sys
import FreeCAD                       # nothing else: tools/run_python.sh starts FreeCAD
mod = os.path.realpath(os.path.join(FreeCAD.getResourceDir(), "Mod"))
out = {"part": os.path.join(mod, "Part") in map(os.path.realpath, FreeCAD.__ModDirs__)}
if len(sys.argv) > 1:
    from SimPhantWorkbench.assembly_import import import_assembly
    doc = FreeCAD.openDocument(sys.argv[1])
    asm = doc.getObject("Assembly")
    out["assembly"] = asm.TypeId if asm is not None else None
    if asm is not None:
        out["joints"] = sorted(import_assembly(asm).joints)
print(json.dumps(out))
'''


def test_scripts_run_by_run_python_get_freecads_module_start_up(tmp_path):
    """A plain script (``import FreeCAD``, nothing else) run by ``tools/run_python.sh``
    has the workbenches started; on 1.x it opens an Assembly document and imports it."""
    import json
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    argv = [RUN_PYTHON, str(script)]
    if FC1:
        path = tmp_path / "pendulum.FCStd"
        shutil.copy(os.path.join(FIXTURES, "fc1_pendulum.FCStd"), path)
        argv.append(str(path))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["part"] is True
    if FC1:
        assert out["assembly"] == "Assembly::AssemblyObject"
        assert out["joints"] == ["Joint"]
