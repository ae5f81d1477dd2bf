"""Picked references as SimPhant stores them (``document.links``): plain same-document
sub-links, references of older versions (``App::PropertyXLinkSub``) migrated on restore,
and cross-document references refused or re-expressed through the document's App::Link."""
import os
import re
import shutil
import zipfile

import pytest

import FreeCAD
import Part

from helpers_doc import docs, element_name, pendulum  # noqa: F401 (fixture)
from SimPhantWorkbench import conversion, factory
from SimPhantWorkbench.document.links import LEGACY_REFERENCE_TYPES, REFERENCE_TYPE
from SimPhantWorkbench.objects import OBJECT_TYPES, proxy_class
from SimPhantWorkbench.solver import ModelError

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
V = FreeCAD.Vector

#: (object type, property) of every picked reference
REFERENCES = sorted((t, spec.name) for t in OBJECT_TYPES for spec in proxy_class(t).PROPERTIES
                    if spec.type == REFERENCE_TYPE)


def test_every_picked_reference_is_a_same_document_sub_link():
    assert REFERENCES == [("SimPhant::BodyDriver", "Axis"), ("SimPhant::BodyDriver", "Reference"),
                          ("SimPhant::Force", "Reference"),
                          ("SimPhant::ForceElement", "Reference1"),
                          ("SimPhant::ForceElement", "Reference2"),
                          ("SimPhant::Joint", "Reference1"), ("SimPhant::Joint", "Reference2")]
    assert REFERENCE_TYPE == "App::PropertyLinkSubGlobal"


def same(a, b, tol=1e-9):
    """Two placements equal to ``tol`` (mm, and quaternion components)."""
    return (a.Base - b.Base).Length <= tol and (
        max(abs(x - y) for x, y in zip(a.Rotation.Q, b.Rotation.Q)) <= tol
        or max(abs(x + y) for x, y in zip(a.Rotation.Q, b.Rotation.Q)) <= tol)


def _stored_references(path):
    """``{(object, property): (type, linked name, sub)}`` of the references in a file."""
    xml = zipfile.ZipFile(path).read("Document.xml").decode()
    out = {}
    for obj in re.finditer(r'<Object name="([^"]+)"[^>]*>(.*?)</Object>', xml, re.S):
        for prop in re.finditer(r'<Property name="(Reference[12]?)" type="([^"]+)"[^>]*>\s*'
                                r'<(?:XLink|LinkSub) (?:file="[^"]*" stamp="[^"]*" )?'
                                r'(?:name|value)="([^"]*)"(?: sub="([^"]*)")?[^>]*>'
                                r'(?:\s*<Sub value="([^"]*)"/>)?', obj.group(2)):
            out[(obj.group(1), prop.group(1))] = (prop.group(2), prop.group(3),
                                                   prop.group(4) or prop.group(5))
    return out


def test_the_references_of_a_document_of_simphant_0_1_are_migrated_on_opening(tmp_path):
    path = str(tmp_path / "study_v0_1.FCStd")
    shutil.copy(os.path.join(FIXTURES, "study_v0_1.FCStd"), path)
    stored = _stored_references(path)
    assert {v[0] for v in stored.values()} == {"App::PropertyXLinkSub"} and len(stored) == 3
    doc = FreeCAD.openDocument(path)
    try:
        for (name, prop), (_, target, sub) in stored.items():
            obj = doc.getObject(name)
            assert obj.getTypeIdOfProperty(prop) == REFERENCE_TYPE
            value = getattr(obj, prop)
            assert (value[0].Name, list(value[1])) == (target, [sub])
            assert "Touched" not in obj.State           # the migration is not an edit
        study = doc.getObject("Study")
        conv = conversion.convert(study)
        assert [jd.obj.Name for jd in conv.joints] == ["Hinge"]
        doc.save()
    finally:
        FreeCAD.closeDocument(doc.Name)
    again = _stored_references(path)
    assert {k: (REFERENCE_TYPE,) + v[1:] for k, v in stored.items()} == again


def _as_legacy(obj, prop, value=None):
    """Store ``obj.prop`` in an ``App::PropertyXLinkSub``, as older versions did."""
    value = getattr(obj, prop) if value is None else value
    group, doc = obj.getGroupOfProperty(prop), obj.getDocumentationOfProperty(prop)
    obj.removeProperty(prop)
    obj.addProperty("App::PropertyXLinkSub", prop, group, doc)
    setattr(obj, prop, value)


def test_every_kind_of_legacy_reference_is_migrated_with_its_value(docs, tmp_path):
    doc = docs()
    p = pendulum(doc)
    study, rod = p["study"], p["rod"]
    box = doc.addObject("Part::Box", "Box")
    box.Placement.Base = V(30, 0, -50)
    doc.recompute()
    factory.make_body(study, box)
    bottom = element_name(rod, "Vertex", (2, 0, -200))
    force = factory.make_force(study, rod, (0, 0, 1), ref=(rod, bottom))
    spring = factory.make_spring(study, (rod, bottom), (box, "Vertex1"), 1.0)
    frames = (p["joint"].Frame1, p["joint"].Frame2)
    names = dict(joint=p["joint"].Name, study=study.Name)
    expect = {}
    for obj, prop in ((p["joint"], "Reference1"), (p["joint"], "Reference2"),
                      (force, "Reference"), (spring, "Reference1"), (spring, "Reference2")):
        expect[(obj.Name, prop)] = (getattr(obj, prop)[0].Name, list(getattr(obj, prop)[1]))
        _as_legacy(obj, prop)
        assert obj.getTypeIdOfProperty(prop) in LEGACY_REFERENCE_TYPES
    path = str(tmp_path / "legacy.FCStd")
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    doc = FreeCAD.openDocument(path)
    for (name, prop), (target, subs) in expect.items():
        obj = doc.getObject(name)
        assert obj.getTypeIdOfProperty(prop) == REFERENCE_TYPE, (name, prop)
        assert (getattr(obj, prop)[0].Name, list(getattr(obj, prop)[1])) == (target, subs)
    joint = doc.getObject(names["joint"])
    joint.touch()
    doc.recompute()
    assert same(joint.Frame1, frames[0]) and same(joint.Frame2, frames[1])
    assert len(conversion.convert(doc.getObject(names["study"])).model.force_elements) == 1


@pytest.fixture
def linked_parts(docs, tmp_path):
    """A parts file with a bar, and a model that shows it through an App::Link (saved, so
    the link can be made): ``(model doc, link, bar of the parts doc, paths)``."""
    parts = docs("Parts")
    bar = parts.addObject("Part::Feature", "Bar")
    bar.Shape = Part.makeBox(100, 10, 10)
    parts.saveAs(str(tmp_path / "parts.FCStd"))
    model = docs("Model")
    model.saveAs(str(tmp_path / "model.FCStd"))
    link = model.addObject("App::Link", "BarLink")
    link.LinkedObject = bar
    link.Placement.Base = V(0, 0, -50)
    post = model.addObject("Part::Box", "Post")
    model.recompute()
    return model, link, bar, post


def test_a_reference_into_another_document_is_refused_naming_it(linked_parts):
    model, link, bar, post = linked_parts
    study = factory.make_study(model)
    factory.make_body(study, post, fixed=True)
    factory.make_body(study, link)
    with pytest.raises(ModelError, match=r"Reference2: 'Bar' is in document 'parts.*parts"
                       r"\.FCStd\), not in 'model'.*pick the element on the App::Link"):
        factory.make_joint(study, "spherical", (post, "Vertex1"), (bar, "Vertex1"))
    joint = factory.make_joint(study, "spherical", (post, "Vertex1"), (link, "Vertex1"))
    assert joint.Reference2[0] is link


def _legacy_cross_document_model(linked_parts, tmp_path, second_link=False):
    model, link, bar, post = linked_parts
    study = factory.make_study(model)
    factory.make_body(study, post, fixed=True)
    factory.make_body(study, link)
    joint = factory.make_joint(study, "spherical", (post, "Vertex1"), (link, "Vertex2"),
                               name="Ball")
    frame2 = joint.Frame2
    _as_legacy(joint, "Reference2", (bar, ["Vertex2"]))     # stored by an older version
    assert joint.Reference2[0] is bar
    if second_link:
        other = model.addObject("App::Link", "BarLink2")
        other.LinkedObject = bar
    model.save()
    path = model.FileName
    FreeCAD.closeDocument(model.Name)
    return path, frame2


def test_a_legacy_cross_document_reference_goes_through_the_link_that_shows_it(
        linked_parts, tmp_path):
    path, frame2 = _legacy_cross_document_model(linked_parts, tmp_path)
    doc = FreeCAD.openDocument(path)
    joint = doc.getObject("Ball")
    assert joint.getTypeIdOfProperty("Reference2") == REFERENCE_TYPE
    assert joint.Reference2[0].Name == "BarLink" and list(joint.Reference2[1]) == ["Vertex2"]
    joint.touch()
    doc.recompute()
    assert same(joint.Frame2, frame2)


def test_a_legacy_cross_document_reference_without_one_link_is_kept_and_refused(
        linked_parts, tmp_path, monkeypatch):
    path, _ = _legacy_cross_document_model(linked_parts, tmp_path, second_link=True)
    warnings = []
    monkeypatch.setattr(FreeCAD.Console, "PrintWarning", warnings.append)
    doc = FreeCAD.openDocument(path)
    joint = doc.getObject("Ball")
    assert joint.getTypeIdOfProperty("Reference2") == "App::PropertyXLinkSub"
    assert joint.Reference2[0].Name == "Bar"                  # nothing lost
    assert any("Joint 'Ball': Reference2 refers to 'Bar' of document 'parts'" in w
               and "several App::Links" in w and "'BarLink2'" in w for w in warnings), warnings
    with pytest.raises(ModelError, match=r"Joint 'Ball': Reference2: 'Bar' is in document "
                       r"'parts'"):
        conversion.convert(doc.getObject("Study"))


def test_a_reference_to_an_object_the_file_lacks_is_named_by_the_document_check(docs,
                                                                               tmp_path):
    from SimPhantWorkbench.document.file_check import document_problems
    doc = docs()
    pendulum(doc)
    path = str(tmp_path / "ghost.FCStd")
    doc.saveAs(path)
    FreeCAD.closeDocument(doc.Name)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    xml = members["Document.xml"].decode()
    assert xml.count('<LinkSub value="Rod"') == 1                   # the hinge's Reference2
    members["Document.xml"] = xml.replace('<LinkSub value="Rod"', '<LinkSub value="Ghost"')\
        .encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    doc = FreeCAD.openDocument(path)
    assert document_problems(doc, path) == [
        "Joint 'Hinge': Reference2 refers to 'Ghost', which the document could not load"]
