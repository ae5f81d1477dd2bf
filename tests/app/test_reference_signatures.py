"""References that survive model edits: a crankshaft of its own file, linked into an
assembly, swings on its crank pin; a script rewrites the part so that its faces are
numbered the other way round (what FreeCAD 0.20's topological naming does on an edit), or
changes the pin's radius. The revolute's reference follows the pin (same motion, one undo
step naming the joint and both faces), or the run is refused naming the joint, the
reference and what changed -- never a run on the journal."""
import json
import math
import os

import numpy as np
import pytest

import FreeCAD
import Part

import crankshaft_links as CL
from helpers_doc import docs  # noqa: F401 (fixture)
from SimPhantWorkbench import factory, runner
from SimPhantWorkbench.document import signatures
from SimPhantWorkbench.document.conversion import convert
from SimPhantWorkbench.run import prepare
from SimPhantWorkbench.run.check import fact_lines, model_facts
from SimPhantWorkbench.solver import ModelError

#: the CoG's distance from the pin axis [mm]: the pin and the journal have the same
#: length, so their masses are as their radii squared and the CoG lies between the axes
COG_RADIUS = CL.PIN_X * CL.JOURNAL_R ** 2 / (CL.JOURNAL_R ** 2 + CL.PIN_R ** 2)


@pytest.fixture
def crank(docs, tmp_path):  # noqa: F811
    docs()                            # closes every document the test opens
    doc, part_doc, study = CL.build(str(tmp_path), undo=True)
    return doc, part_doc, study


def _pin_sub(part_doc, radius=CL.PIN_R):
    return "CrankshaftSolid." + CL.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                                 radius, CL.PIN_X)


def _edit(doc, part_doc, **kwargs):
    """Rewrite the crankshaft and recompute the assembly, as the user's edit does."""
    CL.set_crankshaft(part_doc, **kwargs)
    doc.recompute()


def _run(study):
    return runner.run_study(study, t_end=0.2)


def _assert_swings_on_the_pin(result):
    track = np.array(CL.cog_track(result))
    assert np.abs(track - COG_RADIUS).max() < 1e-5
    z = result.position(result.body_names[0])[:, 2]
    assert np.ptp(z) < 1e-9


def test_a_reference_made_records_its_signature_in_the_parts_coordinates(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    sig = signatures.stored_signature(joint, "Reference2")
    assert sig["ref"] == "Crank_1:" + _pin_sub(part_doc)
    assert sig["kind"] == "cylinder" and sig["radius"] == pytest.approx(CL.PIN_R, abs=1e-12)
    # the crankshaft part's own coordinates, not the assembly's (the link is moved and turned)
    assert sig["point"] == pytest.approx([CL.PIN_X, 0.0, 1.5 * CL.LENGTH], abs=1e-9)
    assert abs(sig["axis"][2]) == pytest.approx(1.0, abs=1e-12)
    assert signatures.stored_signature(joint, "Reference1")["ref"].startswith("Frame_1:Bearing.")


def test_renumbered_faces_the_reference_follows_the_pin_and_the_motion_is_unchanged(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    before = _run(study)
    _assert_swings_on_the_pin(before)
    old_sub = joint.Reference2[1][0]
    _edit(doc, part_doc, pin_first=False)
    new_sub = _pin_sub(part_doc)
    assert new_sub != old_sub                      # the edit did renumber the faces
    assert signatures.check_reference(joint, "Reference2").status == "moved"
    with pytest.raises(ModelError, match="CrankPin.*Check model or Solve re-points it"):
        convert(study)                             # reading alone re-points nothing
    after = _run(study)
    assert joint.Reference2[1] == [new_sub]
    assert doc.UndoNames[1] == "SimPhant: re-point CrankPin Reference2 %s -> %s" % (
        old_sub.split(".")[-1], new_sub.split(".")[-1])
    assert np.abs(after.position(after.body_names[0])
                  - before.position(before.body_names[0])).max() < 1e-12
    _assert_swings_on_the_pin(after)
    assert signatures.stored_signature(joint, "Reference2")["ref"] == "Crank_1:" + new_sub


def test_undo_of_the_re_pointing_brings_the_old_name_and_its_signature_back(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    old = joint.Reference2[1][0]
    kept = dict(joint.ReferenceSignatures)
    _edit(doc, part_doc, pin_first=False)
    run = prepare(study)
    assert len(run.repointed) == 1 and "CrankPin" in run.repointed[0]
    assert joint.Reference2[1] != [old]
    # Check model says so first
    assert fact_lines(model_facts(run))[0] == (
        "references", "Joint 'CrankPin': Reference2 re-pointed from 'Crank_1.%s' to "
        "'Crank_1.%s' (the model was edited and the element renumbered)"
        % (old, joint.Reference2[1][0]))
    doc.undo()
    assert joint.Reference2[1] == [old]
    assert dict(joint.ReferenceSignatures) == kept
    assert signatures.check_reference(joint, "Reference2").status == "moved"
    doc.redo()
    assert signatures.check_reference(joint, "Reference2").status == "ok"


@pytest.mark.parametrize("pin_first", [True, False])
def test_a_changed_pin_is_reported_with_the_joint_and_the_document_is_left_alone(crank,
                                                                                 pin_first):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    old = joint.Reference2[1][0]
    kept = dict(joint.ReferenceSignatures)
    undo_count = doc.UndoCount
    _edit(doc, part_doc, pin_first=pin_first, pin_radius=18.0)
    now = "a cylinder r=18 mm at (60, 0, 45) mm" if pin_first else \
        "a cylinder r=25 mm at (0, 0, 15) mm"
    expected = ("Joint 'CrankPin': Reference2 'Crank_1.%s' was a cylinder r=20 mm at "
                "(60, 0, 45) mm, axis (0, 0, 1); it is now %s" % (old, now))
    for attempt in (lambda: _run(study), lambda: model_facts(prepare(study))):
        with pytest.raises(ModelError) as err:
            attempt()
        assert expected in str(err.value)
        assert "re-pick it" in str(err.value)
        assert "assembled" not in str(err.value)
    assert joint.Reference2[1] == [old]
    assert dict(joint.ReferenceSignatures) == kept
    assert doc.UndoCount == undo_count
    # a recompute says it too: the joint cannot compute its frames
    joint.touch()
    doc.recompute()
    assert "Invalid" in joint.State or "Error" in joint.State


def test_a_turned_pin_is_reported(crank):
    doc, part_doc, study = crank
    _edit(doc, part_doc, pin_first=False, pin_tilt=10.0)
    with pytest.raises(ModelError, match=r"CrankPin': Reference2 .* was a cylinder r=20 mm at "
                                         r"\(60, 0, 45\) mm, axis \(0, 0, 1\); it is now a "
                                         r"cylinder r=25 mm.* re-pick it"):
        prepare(study)
    _edit(doc, part_doc, pin_first=True, pin_tilt=10.0)
    with pytest.raises(ModelError, match=r"was a cylinder r=20 mm at \(60, 0, 45\) mm, axis "
                                         r"\(0, 0, 1\); it is now a cylinder r=20 mm at "
                                         r"\(60, 0, 45\) mm, axis \(0, -0.173648, 0.984808\)"):
        prepare(study)


def test_two_elements_matching_the_signature_are_not_guessed_between(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    old = joint.Reference2[1][0]
    _edit(doc, part_doc, pin_first=False, second_pin=True)
    with pytest.raises(ModelError, match=r"CrankPin.*several elements match it \(Face\d+, "
                                         r"Face\d+\) - re-pick it"):
        prepare(study)
    assert joint.Reference2[1] == [old]


def test_re_picking_accepts_the_changed_pin(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    _edit(doc, part_doc, pin_first=False, pin_radius=18.0)
    joint.Reference2 = (doc.getObject("Crank_1"), [_pin_sub(part_doc, 18.0)])
    assert signatures.stored_signature(joint, "Reference2")["radius"] == pytest.approx(18.0)
    assert prepare(study).repointed == []


def test_an_edit_that_keeps_the_geometry_or_moves_the_body_changes_nothing(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    before = _run(study)
    undo_names = list(doc.UndoNames)
    _edit(doc, part_doc, pin_first=True)            # rebuilt, same numbering
    link = doc.getObject("Crank_1")
    placement = link.Placement
    link.Placement = FreeCAD.Placement(placement.Base + FreeCAD.Vector(0, 0, 7),
                                       placement.Rotation)
    frame = doc.getObject("Frame_1")
    frame.Placement = FreeCAD.Placement(FreeCAD.Vector(0, 0, 7), FreeCAD.Rotation())
    doc.recompute()
    run = prepare(study)
    assert run.repointed == []
    assert list(doc.UndoNames) == undo_names
    result = run.execute()
    assert np.abs(result.position(result.body_names[0])[:, :2]
                  - before.position(before.body_names[0])[:, :2]).max() < 1e-12
    assert signatures.check_reference(joint, "Reference2").status == "ok"


def test_signatures_survive_save_and_reopen(crank, tmp_path):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    kept = dict(joint.ReferenceSignatures)
    path = doc.FileName
    doc.save()
    for name in list(FreeCAD.listDocuments()):
        if FreeCAD.getDocument(name) in (doc, part_doc):
            FreeCAD.closeDocument(name)
    doc = FreeCAD.openDocument(path)
    joint = doc.getObject("CrankPin")
    assert dict(joint.ReferenceSignatures) == kept
    assert {k: json.loads(v) for k, v in joint.ReferenceSignatures.items()} == \
        {k: json.loads(v) for k, v in kept.items()}
    part_doc = doc.getObject("Crank_1").LinkedObject.Document
    assert os.path.basename(part_doc.FileName) == "crankshaft.FCStd"
    _edit(doc, part_doc, pin_first=False)
    study = doc.getObject("Study")
    assert len(prepare(study).repointed) == 1
    assert joint.Reference2[1] == [_pin_sub(part_doc)]


def test_a_part_edited_while_the_assembly_was_closed_is_found_on_reopening(crank):
    doc, part_doc, study = crank
    path, part_path = doc.FileName, part_doc.FileName
    doc.save()
    for d in (doc, part_doc):
        FreeCAD.closeDocument(d.Name)
    part_doc = FreeCAD.openDocument(part_path)
    CL.set_crankshaft(part_doc, pin_first=False)
    part_doc.save()
    FreeCAD.closeDocument(part_doc.Name)
    doc = FreeCAD.openDocument(path)
    doc.recompute()
    part_doc = doc.getObject("Crank_1").LinkedObject.Document
    study, joint = doc.getObject("Study"), doc.getObject("CrankPin")
    assert signatures.check_reference(joint, "Reference2").status == "moved"
    assert len(prepare(study).repointed) == 1
    assert joint.Reference2[1] == [_pin_sub(part_doc)]


def test_a_document_without_signatures_runs_and_gets_them_with_its_result(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    kept = dict(joint.ReferenceSignatures)
    joint.ReferenceSignatures = {}                 # as saved by an older version
    run = prepare(study)
    assert dict(joint.ReferenceSignatures) == {}   # reading changes nothing
    run.commit(run.execute())
    assert {k: json.loads(v) for k, v in joint.ReferenceSignatures.items()} == \
        {k: json.loads(v) for k, v in kept.items()}
    assert doc.UndoNames[0] == "SimPhant: store result of 'Study'"
    doc.undo()                                     # one step: result and signatures
    assert dict(joint.ReferenceSignatures) == {}


def test_a_load_reference_is_re_pointed_too(crank):
    doc, part_doc, study = crank
    link = doc.getObject("Crank_1")
    body = [o for o in study.Group if getattr(o, "ShapeObject", None) is link][0]
    force = factory.make_force(study, body, (0.0, 0.0, 0.0),
                               ref=(link, "CrankshaftSolid." + CL.cylinder_face(
                                   part_doc.getObject("CrankshaftSolid").Shape,
                                   CL.JOURNAL_R, 0.0)))
    old = force.Reference[1][0]
    _edit(doc, part_doc, pin_first=False)
    run = prepare(study)
    assert any(force.Label in note for note in run.repointed)
    journal = "CrankshaftSolid." + CL.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                                    CL.JOURNAL_R, 0.0)
    assert journal != old and force.Reference[1] == [journal]


def test_a_parametric_part_whose_other_feature_changed_keeps_the_joint_on_the_pin(docs,  # noqa: F811
                                                                                  tmp_path):
    """FreeCAD 0.20 renumbers the faces (the reference is re-pointed); FreeCAD 1.x's element
    maps may keep the name right (then there is nothing to re-point): either way the joint
    stays on the pin, and the crankshaft swings about the pin's axis."""
    docs()
    doc, part_doc, study = CL.build(str(tmp_path), undo=True, parametric=True)
    joint = doc.getObject("CrankPin")
    solid = part_doc.getObject("CrankshaftSolid")
    old = joint.Reference2[1][0]
    _assert_about_the_pin(_run(study), solid)
    made_on = signatures.stored_signature(joint, "Reference2")
    part_doc.getObject("Hole").Radius = 12.0       # breaks through the journal's end face
    part_doc.recompute()
    doc.recompute()
    pin = _pin_sub(part_doc)
    assert pin != old                              # the pin's face has another number
    renamed = joint.Reference2[1] == [pin]         # FreeCAD 1.x's element maps followed it
    assert renamed == (FreeCAD.Version()[0] != "0")
    # the signature is still what the reference was made on, for the name it has now
    now = signatures.stored_signature(joint, "Reference2")
    assert now["ref"] == "Crank_1:" + joint.Reference2[1][0]
    assert {k: v for k, v in now.items() if k != "ref"} == \
        {k: v for k, v in made_on.items() if k != "ref"}
    run = prepare(study)
    assert joint.Reference2[1] == [pin]
    assert len(run.repointed) == (0 if renamed else 1)
    result = run.execute()
    run.commit(result)
    _assert_about_the_pin(result, solid)


def _assert_about_the_pin(result, solid):
    """The CoG keeps its distance from the pin axis (the shape's centre of mass's, in the
    assembly), and its height: a revolute on the pin."""
    com = CL.crank_placement().multVec(solid.Shape.Solids[0].CenterOfMass)
    point, axis = CL.pin_axis_world()
    d = com - point
    expected = (d - axis * d.dot(axis)).Length
    track = np.array(CL.cog_track(result))
    assert np.abs(track - expected).max() < 1e-5
    assert np.ptp(result.position(result.body_names[0])[:, 2]) < 1e-9


def _pin_in_bearing(doc):
    """One document: a fixed bearing and a pin (``Part::Cylinder`` r = 20, h = 30, both on
    the z axis) joined by a revolute on their side faces; the pin spins at 120 deg/s."""
    from helpers_doc import element_name
    study = factory.make_study(doc)
    study.EndTime = 0.05
    parts = {}
    for name in ("Bearing", "Pin"):
        c = doc.addObject("Part::Cylinder", name)
        c.Radius, c.Height = CL.PIN_R, CL.LENGTH
        parts[name] = c
    doc.recompute()
    factory.make_body(study, parts["Bearing"], fixed=True)
    factory.make_body(study, parts["Pin"], angular_velocity=(0.0, 0.0, 120.0))
    side = {n: element_name(c, "Face", (0, 0, CL.LENGTH / 2)) for n, c in parts.items()}
    factory.make_joint(study, "revolute", (parts["Bearing"], side["Bearing"]),
                       (parts["Pin"], side["Pin"]), name="Hinge")
    doc.recompute()
    return study, parts["Pin"]


def test_a_parameter_study_varying_the_referenced_geometry_runs_every_variant(docs):  # noqa: F811
    """A varied radius is no moved reference: every variant runs, the document keeps its
    references and signatures; a reference moved before the study starts stops it."""
    from SimPhantWorkbench import sweep
    doc = docs()
    study, pin = _pin_in_bearing(doc)
    joint = doc.getObject("Hinge")
    kept = (joint.Reference2[1], dict(joint.ReferenceSignatures))
    out = sweep.execute(study, {"Pin.Radius": [20.0, 18.0, 22.0]},
                        {"spin": "max(angular_velocity(Pin).z)"}, executor="in-process")
    assert [r["status"] for r in out.rows] == ["ok"] * 3, [r["message"] for r in out.rows]
    assert [r["spin"] for r in out.rows] == pytest.approx([math.radians(120.0)] * 3, rel=1e-9)
    assert (joint.Reference2[1], dict(joint.ReferenceSignatures)) == kept
    assert pin.Radius.Value == 20.0
    pin.Radius = 18.0
    doc.recompute()
    with pytest.raises(ModelError, match=r"Study 'Study': Joint 'Hinge': Reference2 'Pin\.Face"
                                         r"\d' was a cylinder r=20 mm.* r=18 mm"):
        sweep.execute(study, {"Pin.Radius": [20.0, 22.0]}, {"spin": "max(angular_velocity("
                                                               "Pin).z)"}, executor="in-process")


def test_a_variant_applied_takes_the_signatures_anew_in_its_undo_step(docs):  # noqa: F811
    from SimPhantWorkbench import sweep
    doc = docs()
    doc.UndoMode = 1
    study, pin = _pin_in_bearing(doc)
    joint = doc.getObject("Hinge")
    kept = dict(joint.ReferenceSignatures)
    sweep.apply_variant(study, {"Pin.Radius": 18.0})
    assert pin.Radius.Value == 18.0 and "Invalid" not in joint.State
    assert signatures.stored_signature(joint, "Reference2")["radius"] == pytest.approx(18.0)
    assert prepare(study).repointed == []
    doc.undo()
    doc.recompute()
    assert pin.Radius.Value == 20.0 and dict(joint.ReferenceSignatures) == kept


class _Renamer:
    """A feature of the part's document that, as it recomputes, sets the joint's reference
    to another face: what FreeCAD 1.x's element maps do when they follow an element to a
    new name (here on purpose to the wrong face, as a map that lost track would)."""

    def __init__(self, fp, joint, link, sub):
        fp.Proxy = self
        self.target = (joint, link, sub)

    def execute(self, fp):
        joint, link, sub = self.target
        joint.Reference2 = (link, [sub])

    def dumps(self):
        return None

    def loads(self, state):
        return None


def test_a_reference_renamed_during_a_recompute_keeps_what_it_was_made_on(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    pin = joint.Reference2[1][0]
    journal = "CrankshaftSolid." + CL.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                                    CL.JOURNAL_R, 0.0)
    made_on = signatures.stored_signature(joint, "Reference2")
    fp = part_doc.addObject("App::FeaturePython", "Renamer")
    _Renamer(fp, joint, doc.getObject("Crank_1"), journal)
    part_doc.recompute()
    assert joint.Reference2[1] == [journal]
    now = signatures.stored_signature(joint, "Reference2")
    assert now["ref"] == "Crank_1:" + journal and now["radius"] == made_on["radius"]
    part_doc.removeObject("Renamer")
    assert signatures.check_reference(joint, "Reference2").status == "moved"
    assert len(prepare(study).repointed) == 1
    assert joint.Reference2[1] == [pin]


def test_datums_have_no_signature(docs, tmp_path):  # noqa: F811
    """A datum's frame is its placement (its drawn line or plane resizes with the model):
    picked whole or on its edge or face, it has nothing to compare."""
    import linked_assembly as LA
    docs()
    doc = LA.build(str(tmp_path), datums=True)
    crank = doc.getObject("Crank_1")
    for sub in ("LCS_Tip.", "Line_Tip.", "Line_Tip.Edge1", "Plane_Top.Face1", "Point_Tip."):
        assert signatures.signature(crank, sub) is None, sub
    assert signatures.signature(crank, "Bar.Face2")["kind"] == "plane"


# --- a deliberate edit accepted (runner.accept_references)

def _reopen(doc, part_doc):
    path = doc.FileName
    doc.save()
    part_doc.save()
    for d in (doc, part_doc):
        FreeCAD.closeDocument(d.Name)
    return FreeCAD.openDocument(path)


def test_an_enlarged_pin_accepted_runs_on_it_and_stays_accepted_after_reopening(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    name = joint.Reference2[1][0]
    _edit(doc, part_doc, pin_first=True, pin_radius=22.0)      # same face name, on purpose
    assert joint.Reference2[1] == [name]
    with pytest.raises(ModelError, match=r"CrankPin': Reference2 .* it is now a cylinder "
                                         r"r=22 mm.* re-pick it, or, if the change was "
                                         r"deliberate, accept the element as it is now "
                                         r"\(select the object and use SimPhant > Accept current "
                                         r"elements, or runner.accept_references\(obj\)\)"):
        _run(study)
    undo_count = doc.UndoCount
    assert runner.accept_references(joint) == [joint]
    assert doc.UndoCount == undo_count + 1
    assert doc.UndoNames[0] == "SimPhant: accept current elements of CrankPin"
    sig = signatures.stored_signature(joint, "Reference2")
    assert sig["ref"] == "Crank_1:" + name and sig["radius"] == pytest.approx(22.0)
    assert sig["point"] == pytest.approx([CL.PIN_X, 0.0, 1.5 * CL.LENGTH], abs=1e-9)
    assert signatures.stored_signature(joint, "Reference1")["radius"] == \
        pytest.approx(CL.PIN_R)                                # the bearing, unchanged
    run = prepare(study)
    assert run.repointed == [] and joint.Reference2[1] == [name]
    result = run.execute()
    assert np.ptp(result.position(result.body_names[0])[:, 2]) < 1e-9   # on the pin's axis
    doc.undo()                                   # one step: the old signature is back
    assert signatures.stored_signature(joint, "Reference2")["radius"] == pytest.approx(CL.PIN_R)
    with pytest.raises(ModelError, match="CrankPin"):
        prepare(study)
    doc.redo()
    doc = _reopen(doc, part_doc)
    joint, study = doc.getObject("CrankPin"), doc.getObject("Study")
    assert signatures.stored_signature(joint, "Reference2")["radius"] == pytest.approx(22.0)
    assert signatures.check_reference(joint, "Reference2").status == "ok"
    assert prepare(study).repointed == []


def test_accepting_the_study_accepts_every_member(crank):
    doc, part_doc, study = crank
    link = doc.getObject("Crank_1")
    body = [o for o in study.Group if getattr(o, "ShapeObject", None) is link][0]
    journal = "CrankshaftSolid." + CL.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                                    CL.JOURNAL_R, 0.0)
    force = factory.make_force(study, body, (0.0, 0.0, 0.0), ref=(link, journal), name="Push")
    _edit(doc, part_doc, pin_first=True, pin_radius=22.0, journal_radius=27.0)
    with pytest.raises(ModelError, match="CrankPin.*Push|Push.*CrankPin"):
        prepare(study)
    assert runner.accept_references(study) == [doc.getObject("CrankPin"), force]
    assert doc.UndoNames[0] == "SimPhant: accept current elements of CrankPin, Push"
    assert signatures.stored_signature(force, "Reference")["radius"] == pytest.approx(27.0)
    prepare(study)


def test_accepting_an_element_that_no_longer_exists_is_refused_naming_the_joint(crank):
    doc, part_doc, study = crank
    joint = doc.getObject("CrankPin")
    part_doc.getObject("CrankshaftSolid").Shape = Part.makeCompound(
        [Part.makeLine(FreeCAD.Vector(), FreeCAD.Vector(1, 0, 0))])   # no faces left
    part_doc.recompute()
    doc.recompute()
    kept = dict(joint.ReferenceSignatures)
    undo_count = doc.UndoCount
    # (FreeCAD 1.x marks the missing element's name: 'CrankshaftSolid.?Face1')
    with pytest.raises(ModelError, match=r"Joint 'CrankPin': Reference2 'Crank_1.Crankshaft"
                                         r"Solid.\??Face\d+' no longer exists .* - re-pick "
                                         r"it"):
        runner.accept_references([joint])
    assert dict(joint.ReferenceSignatures) == kept and doc.UndoCount == undo_count
    with pytest.raises(ModelError, match="has no picked references"):
        runner.accept_references(doc.getObject("Crank_1"))


def test_a_run_reads_each_referenced_element_once(crank, monkeypatch):
    """``repair_references`` compares every reference with its signature; the conversion
    that follows in the same run does not compare them again (a recompute and a reading
    outside a run still do: the tests above)."""
    doc, part_doc, study = crank
    reads = []
    real = signatures.local_element
    monkeypatch.setattr(signatures, "local_element",
                        lambda obj, sub: reads.append(sub) or real(obj, sub))
    prepare(study)
    joint = doc.getObject("CrankPin")
    assert sorted(reads) == sorted(joint.Reference1[1] + joint.Reference2[1])
    del reads[:]
    convert(study)                                   # a reading outside a run compares
    assert len(reads) == 2
