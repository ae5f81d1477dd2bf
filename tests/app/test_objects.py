"""Document objects: declarative properties, idempotence across save/reopen, factory checks."""
import importlib
import math
import re

import pytest

import FreeCAD
import Part

from helpers_doc import (assert_public_api, docs, element_name, pendulum, reopen,  # noqa: F401
                         vec)
from SimPhantWorkbench import factory
from SimPhantWorkbench.objects import base, study
from SimPhantWorkbench.solver import JOINT_TYPES, METHODS, ModelError

MODULES = ["SimPhantWorkbench.objects", "SimPhantWorkbench.objects.base",
           "SimPhantWorkbench.objects.study", "SimPhantWorkbench.objects.body",
           "SimPhantWorkbench.objects.joint", "SimPhantWorkbench.objects.load",
           "SimPhantWorkbench.objects.result", "SimPhantWorkbench.factory",
           "SimPhantWorkbench.conversion", "SimPhantWorkbench.runner",
           "SimPhantWorkbench.playback", "SimPhantWorkbench.document.result_check",
           "SimPhantWorkbench.document.file_check", "SimPhantWorkbench.output.outdir"]

PROXIES = {  # Type -> (module path, class): stored in .FCStd files, never renamed
    "SimPhant::Study": ("SimPhantWorkbench.objects.study", "Study"),
    "SimPhant::Body": ("SimPhantWorkbench.objects.body", "Body"),
    "SimPhant::Joint": ("SimPhantWorkbench.objects.joint", "Joint"),
    "SimPhant::Force": ("SimPhantWorkbench.objects.load", "Force"),
    "SimPhant::Torque": ("SimPhantWorkbench.objects.load", "Torque"),
    "SimPhant::Result": ("SimPhantWorkbench.objects.result", "Result"),
}


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports_with_its_public_api(name):
    assert_public_api(importlib.import_module(name))


def test_proxy_paths_are_the_public_ones():
    for type_name, (module, cls) in PROXIES.items():
        proxy = getattr(importlib.import_module(module), cls)
        assert proxy.Type == type_name
        assert proxy.__module__ == module


def _full_study(doc):
    p = pendulum(doc)
    f = factory.make_force(p["study"], p["rod"], "0, 0, 0.01*sin(2*pi*t)", name="Push",
                           ref=(p["rod"], element_name(p["rod"], "Vertex", (2, 0, -200))))
    tq = factory.make_torque(p["study"], p["link"], (0, 0.001, 0), frame="body", name="Twist")
    p.update(force=f, torque=tq)
    return p


def _specs(obj):
    return type(obj.Proxy).PROPERTIES


def _round_numbers(text):
    """Numbers in ``text`` to 12 significant digits, tiny ones to 0 (FreeCAD 0.20 writes
    doubles with 16 digits or 16 decimals, so computed values are not bit-exact across
    save/reopen)."""
    def fmt(m):
        v = float(m.group(0))
        return "%.12g" % (0.0 if abs(v) < 1e-12 else v)
    return re.sub(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", fmt, text)


def _snapshot(obj):
    """Property name -> (type, group, value as text, editor mode) of every declared property."""
    out = {}
    for spec in _specs(obj):
        assert spec.name in obj.PropertiesList, "%s lacks %s" % (obj.Label, spec.name)
        value = getattr(obj, spec.name)
        if spec.type == "App::PropertyFileIncluded":
            value = bool(value)
        out[spec.name] = (obj.getTypeIdOfProperty(spec.name), obj.getGroupOfProperty(spec.name),
                          _round_numbers(str(value)), sorted(obj.getEditorMode(spec.name)))
    return out


def test_declared_properties_exist_with_types_groups_and_modes(docs):
    doc = docs()
    p = _full_study(doc)
    for obj in (p["study"], p["ground"], p["link"], p["joint"], p["force"], p["torque"]):
        for spec in _specs(obj):
            assert obj.getTypeIdOfProperty(spec.name) == spec.type
            assert obj.getGroupOfProperty(spec.name) == spec.group
            mode = obj.getEditorMode(spec.name)
            assert ("ReadOnly" in mode) == spec.read_only, (obj.Label, spec.name)
            assert ("Hidden" in mode) == spec.hidden, (obj.Label, spec.name)


def test_enumerations_come_from_the_solver_registries(docs):
    doc = docs()
    p = _full_study(doc)
    assert p["study"].getEnumerationsOfProperty("Integrator") == list(METHODS)
    assert p["joint"].getEnumerationsOfProperty("JointType") == list(JOINT_TYPES)
    assert p["study"].Integrator == "rk4"
    assert p["joint"].JointType == "revolute"


def test_ensure_properties_is_idempotent(docs):
    doc = docs()
    p = _full_study(doc)
    for obj in (p["study"], p["link"], p["joint"], p["force"], p["torque"]):
        before = _snapshot(obj)
        assert base.ensure_properties(obj, _specs(obj)) == []
        obj.Proxy.onDocumentRestored(obj)
        assert _snapshot(obj) == before


def test_properties_survive_save_and_reopen_unchanged(docs, tmp_path):
    doc = docs()
    p = _full_study(doc)
    p["study"].EndTime = 1.25
    p["study"].Integrator = "DOP853"
    p["joint"].Offset = 1.5
    names = [p[k].Name for k in ("study", "ground", "link", "joint", "force", "torque")]
    before = {n: (doc.getObject(n).Proxy.Type, _snapshot(doc.getObject(n))) for n in names}
    doc2 = reopen(doc, tmp_path / "objects.FCStd")
    for n in names:
        obj = doc2.getObject(n)
        assert obj.Proxy.Type == before[n][0]
        assert type(obj.Proxy).__module__ == PROXIES[obj.Proxy.Type][0]
        assert base.ensure_properties(obj, _specs(obj)) == []   # nothing was missing
        assert _snapshot(obj) == before[n][1]
    # and a second round trip changes nothing either
    doc3 = reopen(doc2, tmp_path / "objects2.FCStd")
    for n in names:
        assert _snapshot(doc3.getObject(n)) == before[n][1]


def test_properties_missing_in_an_older_document_are_added_on_restore(docs, tmp_path):
    doc = docs()
    s = factory.make_study(doc)
    s.EndTime = 3.0
    s.removeProperty("DampingRatio")          # as if saved by a version without it
    s.removeProperty("BaumgarteBeta")
    name = s.Name
    doc2 = reopen(doc, tmp_path / "old.FCStd")
    s2 = doc2.getObject(name)
    assert s2.DampingRatio == 1.0 and s2.BaumgarteBeta == 50.0
    assert s2.EndTime == 3.0                  # existing values kept


def test_enumeration_keeps_selection_when_its_items_change(docs):
    doc = docs()
    s = factory.make_study(doc)
    s.Integrator = "Radau"
    s.Integrator = ["rk4", "Radau"]           # an older document's shorter list
    s.Integrator = "Radau"
    s.Proxy.onDocumentRestored(s)
    assert s.getEnumerationsOfProperty("Integrator") == list(METHODS)
    assert s.Integrator == "Radau"


def test_study_groups_its_objects(docs):
    doc = docs()
    p = _full_study(doc)
    st = p["study"]
    assert study.study_bodies(st) == [p["ground"], p["link"]]
    assert study.study_joints(st) == [p["joint"]]
    assert study.study_loads(st) == [p["force"], p["torque"]]
    assert study.find_study(p["joint"]) == st


def test_body_shows_computed_mass_properties(docs):
    doc = docs()
    box = doc.addObject("Part::Box", "Box")
    box.Length, box.Width, box.Height = 10.0, 20.0, 30.0
    box.Placement.Base = vec(100, 0, 0)
    doc.recompute()
    st = factory.make_study(doc)
    b = factory.make_body(st, box, density=1000.0)
    assert b.Mass == pytest.approx(6e-3, rel=1e-12)
    assert b.Volume.getValueAs("mm^3") == pytest.approx(6000.0)
    assert b.DensitySource == "argument" and b.DensityUsed == pytest.approx(1000.0)
    assert (b.CoG - vec(105, 10, 15)).Length < 1e-9
    moments = sorted([b.PrincipalMoments.x, b.PrincipalMoments.y, b.PrincipalMoments.z])
    m = 6e-3
    expect = sorted([m * (20 ** 2 + 30 ** 2) / 12, m * (10 ** 2 + 30 ** 2) / 12,
                     m * (10 ** 2 + 20 ** 2) / 12])         # kg mm^2
    assert moments == pytest.approx(expect, rel=1e-9)
    # updated on recompute after a model edit
    box.Height = 60.0
    doc.recompute()
    assert b.Mass == pytest.approx(12e-3, rel=1e-12)


def test_body_principal_axes_follow_a_turned_box(docs):
    """PrincipalMoments ascend and PrincipalAxes (a rotation: columns = the axes, world)
    turn with the box: the smallest moment is about the box's longest edge (z, 30 mm),
    the largest about its shortest (x, 10 mm)."""
    doc = docs()
    box = doc.addObject("Part::Box", "Box")
    box.Length, box.Width, box.Height = 10.0, 20.0, 30.0
    turn = FreeCAD.Rotation(vec(1, 1, 0), 30)
    box.Placement = FreeCAD.Placement(vec(5, -7, 2), turn)
    doc.recompute()
    st = factory.make_study(doc)
    b = factory.make_body(st, box, density=1000.0)
    m = 6e-3
    pm = b.PrincipalMoments
    assert (pm.x, pm.y, pm.z) == pytest.approx((m * (10 ** 2 + 20 ** 2) / 12,
                                                m * (10 ** 2 + 30 ** 2) / 12,
                                                m * (20 ** 2 + 30 ** 2) / 12), rel=1e-9)
    axes = b.PrincipalAxes
    for column, edge in ((vec(1, 0, 0), vec(0, 0, 1)), (vec(0, 1, 0), vec(0, 1, 0)),
                         (vec(0, 0, 1), vec(1, 0, 0))):
        assert abs(axes.multVec(column).dot(turn.multVec(edge))) == pytest.approx(1.0, abs=1e-9)
    assert abs(axes.multVec(vec(1, 0, 0)).dot(vec(0, 0, 1))) < 0.99     # really turned


def test_default_density_warns_naming_the_object(docs, monkeypatch):
    doc = docs()
    box = doc.addObject("Part::Box", "Anvil")
    doc.recompute()
    st = factory.make_study(doc)
    warnings = []
    monkeypatch.setattr(FreeCAD.Console, "PrintWarning", warnings.append)
    b = factory.make_body(st, box)
    b.touch()
    doc.recompute()
    assert b.DensitySource == "default"
    # once, when the body is made (not again at each recompute)
    assert len([w for w in warnings if "Anvil" in w and "density" in w]) == 1, warnings


def test_mass_override_wins(docs):
    doc = docs()
    box = doc.addObject("Part::Box", "Box")
    doc.recompute()
    st = factory.make_study(doc)
    b = factory.make_body(st, box, density=1000.0, mass=2.5)
    assert b.Mass == pytest.approx(2.5) and b.DensitySource == "override-mass"


@pytest.mark.parametrize("what", ["wire", "mesh", "empty", "flat"])
def test_make_body_rejects_objects_without_a_solid(docs, what):
    doc = docs()
    if what == "wire":
        obj = doc.addObject("Part::Feature", "Sketchy")
        obj.Shape = Part.Wire(Part.makeCircle(5.0))
    elif what == "mesh":
        import Mesh
        obj = doc.addObject("Mesh::Feature", "Meshy")
        obj.Mesh = Mesh.Mesh([vec(0, 0, 0), vec(1, 0, 0), vec(0, 1, 0)])
    elif what == "empty":
        obj = doc.addObject("Part::Feature", "Nothing")
    else:
        obj = doc.addObject("Part::Feature", "Flat")
        obj.Shape = Part.Solid(Part.Shell([Part.makePlane(10, 10)]))
    st = factory.make_study(doc)
    n_before = len(doc.Objects)
    with pytest.raises(ModelError, match=obj.Label):
        factory.make_body(st, obj)
    assert len(doc.Objects) == n_before and st.Group == []


def test_make_body_rejects_the_same_object_twice(docs):
    doc = docs()
    box = doc.addObject("Part::Box", "Box")
    doc.recompute()
    st = factory.make_study(doc)
    factory.make_body(st, box)
    with pytest.raises(ModelError, match="'Box' is already body"):
        factory.make_body(st, box)


def test_joint_frames_are_stored_in_body_local_frames(docs):
    doc = docs()
    p = pendulum(doc)
    j = p["joint"]
    # pin: circle centre at its local origin, axis = local z (the pin's axis)
    assert tuple(j.Frame1.Base) == pytest.approx((0, 0, 0), abs=1e-9)
    assert (j.Frame1.Rotation.multVec(vec(0, 0, 1)) - vec(0, 0, 1)).Length < 1e-9
    # rod: the top rim vertex, in the rod's frame (origin at its bottom centre)
    assert tuple(j.Frame2.Base) == pytest.approx((2, 0, 200), abs=1e-9)
    # the frames move with the bodies: same world frame at t0
    g1 = p["pin"].Placement.multiply(j.Frame1)
    g2 = p["rod"].Placement.multiply(j.Frame2)
    assert (g1.Base - g2.Base).Length < 1e-9
    assert g1.Rotation.isSame(g2.Rotation, 1e-12)


@pytest.mark.parametrize("tilt", [180.0, 181.0])
def test_anti_parallel_pin_and_hole_do_not_flip(docs, tilt):
    """Axes exactly opposite (180 deg), or nearly so in a model not yet assembled
    (181 deg): the wheel's joint frame takes the pin's direction, not the reverse."""
    doc = docs()
    pin = doc.addObject("Part::Cylinder", "Pin")
    pin.Radius, pin.Height = 2.0, 20.0
    wheel = doc.addObject("Part::Cylinder", "Wheel")         # axis -z: anti-parallel
    wheel.Radius, wheel.Height = 30.0, 5.0
    wheel.Placement = FreeCAD.Placement(vec(0, 0, 10), FreeCAD.Rotation(vec(1, 0, 0), tilt))
    doc.recompute()
    st = factory.make_study(doc)
    factory.make_body(st, pin, fixed=True)
    factory.make_body(st, wheel)
    e1 = element_name(pin, "Edge", (0, 0, 0), curve="Circle")
    e2 = element_name(wheel, "Edge", (0, 0, 10), curve="Circle")
    j = factory.make_joint(st, "revolute", (pin, e1), (wheel, e2))
    z1 = pin.Placement.multiply(j.Frame1).Rotation.multVec(vec(0, 0, 1))
    z2 = wheel.Placement.multiply(j.Frame2).Rotation.multVec(vec(0, 0, 1))
    assert abs(z1.getAngle(z2) - math.radians(tilt - 180.0)) < 1e-9


def test_reverse_and_offset(docs):
    doc = docs()
    p = pendulum(doc)
    j = p["joint"]
    z = p["pin"].Placement.multiply(j.Frame1).Rotation.multVec(vec(0, 0, 1))
    j.Reverse = True
    j.Offset = 5.0
    doc.recompute()
    z_rev = p["pin"].Placement.multiply(j.Frame1).Rotation.multVec(vec(0, 0, 1))
    assert (z_rev + z).Length < 1e-9
    g2 = p["rod"].Placement.multiply(j.Frame2).Base
    assert (g2 - (vec(2, 0, 0) - z_rev * 5.0)).Length < 1e-9


@pytest.mark.parametrize("case", ["not_a_body", "same_body", "both_fixed", "no_axis", "bad_kind"])
def test_make_joint_rejects_bad_references(docs, case):
    doc = docs()
    a = doc.addObject("Part::Box", "BoxA")
    b = doc.addObject("Part::Box", "BoxB")
    b.Placement.Base = vec(10, 0, 0)
    stranger = doc.addObject("Part::Box", "Stranger")
    doc.recompute()
    st = factory.make_study(doc)
    factory.make_body(st, a, fixed=True)
    factory.make_body(st, b, fixed=(case == "both_fixed"))
    v = element_name(a, "Vertex", (10, 0, 0))
    w = element_name(b, "Vertex", (10, 0, 0))
    kind, r1, r2, match = {
        "not_a_body": ("spherical", (a, v), (stranger, "Vertex1"), "Stranger"),
        "same_body": ("spherical", (a, v), (a, "Vertex1"), "both references are on body"),
        "both_fixed": ("spherical", (a, v), (b, w), "both bodies .* are fixed"),
        "no_axis": ("revolute", (a, v), (b, w), "needs an axis"),
        "bad_kind": ("hinge", (a, v), (b, w), "unknown joint type 'hinge'"),
    }[case]
    n_before = len(doc.Objects)
    with pytest.raises(ModelError, match=match):
        factory.make_joint(st, kind, r1, r2, name="J1")
    assert len(doc.Objects) == n_before


def test_time_functions_are_parsed_safely():
    from SimPhantWorkbench.document.elements import parse_time_function
    f = parse_time_function("0, 0, 10*sin(2*pi*t)", "Force 'F'")
    assert f(0.25) == pytest.approx([0, 0, 10.0])
    g = parse_time_function(["1", "t**2", "3 if t < 1 else 0"], "Force 'F'")
    assert g(2.0) == pytest.approx([1, 4, 0])
    for bad in ("__import__('os').system('true'), 0, 0", "t.real, 0, 0",
                "().__class__, 0, 0", "open('x'), 0, 0", "1, 2", "[x for x in (1,)], 0, 0",
                "'a', 0, 0", "lambda: 0, 0, 0"):
        with pytest.raises(ModelError, match="Force 'F'"):
            parse_time_function(bad, "Force 'F'")
    with pytest.raises(ModelError, match="fails at t = 0"):
        parse_time_function("1/t, 0, 0", "Force 'F'")
    with pytest.raises(ModelError):
        parse_time_function("9**9**9, 0, 0", "Force 'F'")   # overflows, does not hang


def test_make_force_stores_constant_or_function(docs):
    doc = docs()
    p = pendulum(doc)
    f1 = factory.make_force(p["study"], p["link"], (1.0, 2.0, 3.0))
    assert tuple(f1.Force) == (1.0, 2.0, 3.0) and f1.ForceFunction == "" and f1.Frame == "World"
    f2 = factory.make_force(p["study"], p["rod"], ["0", "0", "5*t"], frame="body")
    assert f2.ForceFunction == "0, 0, 5*t" and f2.Frame == "Body" and f2.Body == p["link"]
    with pytest.raises(ModelError, match="fixed"):
        factory.make_force(p["study"], p["pin"], (1, 0, 0))
    with pytest.raises(ModelError, match="not allowed|unknown name"):
        factory.make_torque(p["study"], p["rod"], "os, 0, 0")
