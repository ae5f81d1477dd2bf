"""Undo and redo of every document change SimPhant makes, in a FreeCAD process of its own.

``python3 undo_cases.py OUT.json TMPDIR`` runs each case of ``CASES`` on a fresh document
with undo on: the document before the change (``content``: every file of its serialised
``.FCStd``, byte by byte; ``snapshot``: every object and property) must come back after
undo, and the changed document after redo, also across saves under new names (FreeCAD
renames the document's transient folder); the document saved after undo and the one saved
after redo must reopen with exactly those objects and properties, and every document must
close. The results are written to ``OUT.json`` after each case, so a crash
(FreeCAD 1.0 dies on some undos) leaves the cases done so far and names the one it died
in; ``test_undo.py`` reads them. ``snapshot`` and ``differences`` are also used by the GUI
test of the commands (``tests/gui/test_undo_gui.py``).
"""
import hashlib
import io
import json
import os
import re
import sys
import traceback
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(HERE, "fixtures")
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples")


# ----------------------------------------------------------------------------- comparing

def _is_object(v):
    return hasattr(v, "TypeId") and hasattr(v, "Name") and hasattr(v, "Document")


def _file_hash(path):
    if not path or not os.path.isfile(path):
        return ""
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]


def _float(x):
    """A float as a save and a reopen keep it: FreeCAD writes vectors with about 10
    significant digits; values below 1e-9 (mm, or a unit vector's component) are zero."""
    x = round(float(x), 9)
    return "%.10g" % (0.0 if x == 0.0 else x)


def _quaternion(q):
    """q and -q are one rotation (a reopened Placement may come back with either)."""
    q = [round(float(c), 9) for c in q]
    first = next((c for c in reversed(q) if c != 0.0), 1.0)       # w first, then z, y, x
    return [_float(c if first > 0 else -c) for c in q]


def value_key(v):
    """A comparable, JSON-able form of a property value (objects by Name, floats as
    ``_float``, rotations as ``_quaternion``)."""
    import FreeCAD
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return _float(v)
    if _is_object(v):
        return "obj:%s" % v.Name
    if isinstance(v, (list, tuple)):
        return [value_key(x) for x in v]
    if isinstance(v, dict):
        return {str(k): value_key(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, FreeCAD.Vector):
        return value_key(tuple(v))
    if isinstance(v, FreeCAD.Placement):
        return value_key(tuple(v.Base)) + _quaternion(v.Rotation.Q)
    if isinstance(v, FreeCAD.Rotation):
        return _quaternion(v.Q)
    if isinstance(v, FreeCAD.Units.Quantity):
        return [value_key(float(v.Value)), str(v.Unit)]
    if isinstance(v, FreeCAD.Matrix):
        return value_key(tuple(v.A))
    if type(v).__name__ in ("Shape", "Solid", "Compound", "Face", "Shell", "Wire", "Edge",
                            "Vertex", "CompSolid") and hasattr(v, "isNull"):
        if v.isNull():
            return "shape:null"
        return ["shape", v.ShapeType, len(v.Vertexes), len(v.Edges), len(v.Faces),
                "%.9g" % v.Volume, value_key(tuple(v.BoundBox.Center))]
    uuid = getattr(v, "UUID", None)
    return "%s:%s" % (type(v).__name__, uuid) if uuid is not None else type(v).__name__


#: property types that are FreeCAD's caches, not document content: FreeCAD 1.x keeps the
#: sub-shapes of an App::Link read so far in a ``Part::PropertyShapeCache`` (any read of a
#: linked shape fills it, undo does not empty it, it is not saved)
TRANSIENT_CACHES = ("Part::PropertyShapeCache",)


def _proxy_name(obj):
    proxy = getattr(obj, "Proxy", None)
    if proxy is None:
        return None
    return getattr(proxy, "Type", None) or "%s.%s" % (type(proxy).__module__,
                                                      type(proxy).__name__)


def snapshot(doc):
    """``{object Name: {"": [type, label, proxy], property: [type, value]}}`` of ``doc``, in
    document order."""
    out = {}
    for obj in doc.Objects:
        entry = {"": [obj.TypeId, obj.Label, _proxy_name(obj)]}
        for name in obj.PropertiesList:
            ptype = obj.getTypeIdOfProperty(name)
            if name == "Proxy" or ptype in TRANSIENT_CACHES:
                continue
            try:
                value = getattr(obj, name)
            except Exception as exc:  # noqa: BLE001 - an unreadable property is a finding
                entry[name] = [ptype, "unreadable: %s" % exc]
                continue
            if ptype == "App::PropertyFileIncluded":
                value = "file:" + _file_hash(value)
            entry[name] = [ptype, value_key(value)]
        out[obj.Name] = entry
    out[""] = [o.Name for o in doc.Objects]
    return json.loads(json.dumps(out))


def differences(a, b, limit=12):
    """What differs between two snapshots, as short lines (empty when equal)."""
    lines = []
    if a.get("") != b.get(""):
        lines.append("objects %s -> %s" % (a.get(""), b.get("")))
    for name in sorted(set(a) | set(b)):
        if name == "":
            continue
        pa, pb = a.get(name), b.get(name)
        if pa is None or pb is None:
            continue
        for prop in sorted(set(pa) | set(pb)):
            if pa.get(prop) != pb.get(prop):
                lines.append("%s.%s: %s -> %s" % (name, prop, str(pa.get(prop))[:120],
                                                   str(pb.get(prop))[:120]))
    return lines[:limit]


def content(doc):
    """Every file of the document's serialised ``.FCStd`` (``dumpContent``), by name."""
    with zipfile.ZipFile(io.BytesIO(doc.dumpContent())) as z:
        return {name: z.read(name) for name in sorted(z.namelist())}


_TOUCHED = re.compile(rb' Touched="1"')
_STATUS = re.compile(rb' status="([0-9]+)"')


def _status(match):
    status = int(match.group(1)) & ~1
    return b' status="%d"' % status if status else b""


def _untouched(xml):
    """An XML member as far as it holds objects, without their recompute marks: an undo or
    a redo touches what it changes (the ``Touched`` flag of objects and bit 0 of a
    property's status); the document's own properties (file name, dates) are left out."""
    start = xml.find(b"<Objects ")
    xml = _TOUCHED.sub(b"", xml[start:] if start >= 0 else xml)
    return _STATUS.sub(_status, xml)


def content_differences(a, b, limit=12):
    """The members of two ``content`` dumps that differ, apart from the recompute marks
    (``_untouched``), with the first differing lines of an XML member."""
    import difflib
    lines = []
    for name in sorted(set(a) | set(b)):
        if name.endswith(".xml") and name in a and name in b:
            if _untouched(a[name]) == _untouched(b[name]):
                continue
        elif a.get(name) == b.get(name):
            continue
        if name.endswith(".xml") and name in a and name in b:
            diff = difflib.unified_diff(a[name].decode("utf-8", "replace").splitlines(),
                                        b[name].decode("utf-8", "replace").splitlines(),
                                        lineterm="", n=0)
            lines.append("%s: %s" % (name, " | ".join(list(diff)[2:8])))
        else:
            lines.append("%s: %s" % (name, "missing" if name not in a or name not in b
                                     else "differs"))
    return lines[:limit]


def invalid_objects(doc):
    return ["%s (%s)" % (o.Name, ", ".join(o.State)) for o in doc.Objects
            if "Invalid" in o.State]


# ----------------------------------------------------------------------------- models

def pendulum_model(doc):
    """The pendulum of ``helpers_doc`` plus a box in a rotated ``App::Part`` (a body in a
    container) and a free box."""
    import FreeCAD
    from helpers_doc import pendulum
    m = pendulum(doc)
    m["study"].EndTime, m["study"].OutputInterval = 0.2, 0.02
    holder = doc.addObject("App::Part", "Holder")
    holder.Placement = FreeCAD.Placement(FreeCAD.Vector(60, 0, 0),
                                         FreeCAD.Rotation(FreeCAD.Vector(0, 0, 1), 30))
    block = doc.addObject("Part::Box", "Block")
    block.Length, block.Width, block.Height = 20.0, 10.0, 10.0
    block.Placement.Base = FreeCAD.Vector(0, 0, -30)
    holder.addObject(block)
    free = doc.addObject("Part::Box", "Free")
    free.Placement.Base = FreeCAD.Vector(-80, 0, -30)
    doc.recompute()
    m.update(holder=holder, block=block, free=free, doc=doc)
    return m


def with_block_body(doc):
    from SimPhantWorkbench import factory
    m = pendulum_model(doc)
    m["block_body"] = factory.make_body(m["study"], m["block"])
    return m


def _parts_only(doc):
    import FreeCAD
    from helpers_doc import element_name
    rod = doc.addObject("Part::Cylinder", "Rod")
    rod.Radius, rod.Height = 2.0, 200.0
    rod.Placement.Base = FreeCAD.Vector(0, 0, -200)
    pin = doc.addObject("Part::Cylinder", "Pin")
    pin.Radius, pin.Height = 1.0, 10.0
    pin.Placement = FreeCAD.Placement(FreeCAD.Vector(2, 0, 0),
                                      FreeCAD.Rotation(FreeCAD.Vector(1, 0, 0), -90))
    doc.recompute()
    return dict(doc=doc, rod=rod, pin=pin,
                edge=element_name(pin, "Edge", (2, 0, 0), curve="Circle"),
                vertex=element_name(rod, "Vertex", (2, 0, 0)))


def ran_model(doc):
    from SimPhantWorkbench import runner
    m = pendulum_model(doc)
    runner.run_study(m["study"], t_end=0.2, dt=1e-3, output_dt=0.02)
    return m


def moved_model(doc):
    """A run, then its last frame shown (the bodies moved)."""
    from SimPhantWorkbench import playback
    m = ran_model(doc)
    playback.apply_frame(m["study"], 0.2)
    return m


def _vertex(obj, point):
    from helpers_doc import element_name
    return (obj, element_name(obj, "Vertex", point))


# ----------------------------------------------------------------------------- the cases

def _one_transaction_study(m):
    """What the Assembly import does: a study, two bodies and a joint in one transaction."""
    from SimPhantWorkbench import factory
    from SimPhantWorkbench.document.base import transaction
    doc = m["doc"]
    with transaction(doc, "Study, bodies and joint"):
        study = factory.make_study(doc)
        factory.make_body(study, m["pin"], fixed=True)
        factory.make_body(study, m["rod"])
        factory.make_joint(study, "revolute", (m["pin"], m["edge"]), (m["rod"], m["vertex"]))


def _refused_joint(m):
    from SimPhantWorkbench import factory
    from SimPhantWorkbench.solver import ModelError
    try:
        factory.make_joint(m["study"], "revolute", (m["rod"], "Vertex1"),
                           (m["rod"], "Vertex2"))
    except ModelError:
        return
    raise AssertionError("a joint with both references on one body was made")


def _spec():
    from SimPhantWorkbench import sweep
    return sweep.make_spec({"Rod_body.Density": [1000.0, 2000.0]},
                           {"peak": "max(speed(Rod_body))"}, settings={"t_end": 0.1})


def _factory_cases():
    from SimPhantWorkbench import factory as f
    rod_bottom = (2.0, 0.0, -200.0)
    return {
        "make_study": (pendulum_model, lambda m: f.make_study(m["doc"], "Study2")),
        "make_body": (pendulum_model, lambda m: f.make_body(m["study"], m["free"], density=2700)),
        "make_body in an App::Part": (pendulum_model, lambda m: f.make_body(m["study"], m["block"])),
        "make_joint": (with_block_body, lambda m: f.make_joint(
            m["study"], "spherical", _vertex(m["rod"], rod_bottom), (m["block"], "Vertex1"))),
        "make_joint with placements": (with_block_body, lambda m: f.make_joint(
            m["study"], "fixed", (m["rod"], ""), (m["block"], ""),
            placements=(m["rod"].Placement, m["block"].Placement))),
        "make_joint refused": (pendulum_model, _refused_joint),
        "study, bodies and joint in one transaction": (_parts_only, _one_transaction_study),
        "make_force": (pendulum_model, lambda m: f.make_force(m["study"], m["rod"], (0, 0, 1),
                                                      ref=_vertex(m["rod"], rod_bottom))),
        "make_torque": (pendulum_model, lambda m: f.make_torque(m["study"], m["rod"], "0, 0, sin(t)")),
        "make_result": (pendulum_model, lambda m: f.make_result(m["study"])),
        "make_parameter_study": (pendulum_model, lambda m: f.make_parameter_study(m["study"],
                                                                          _spec())),
        "make_force_element": (with_block_body, lambda m: f.make_force_element(
            m["study"], "spring_damper", _vertex(m["rod"], rod_bottom),
            (m["block"], "Vertex1"), stiffness=1.0)),
        "make_spring": (with_block_body, lambda m: f.make_spring(
            m["study"], _vertex(m["rod"], rod_bottom), (m["block"], "Vertex1"), 1.0,
            damping=0.1)),
        "make_damper": (with_block_body, lambda m: f.make_damper(
            m["study"], _vertex(m["rod"], rod_bottom), (m["block"], "Vertex1"), 0.1)),
        "make_contractile_force": (with_block_body, lambda m: f.make_contractile_force(
            m["study"], _vertex(m["rod"], rod_bottom), (m["block"], "Vertex1"), 2.0)),
        "make_joint_spring": (pendulum_model, lambda m: f.make_joint_spring(m["study"], m["joint"],
                                                                    1.0, damping=0.1)),
        "make_joint_actuator": (pendulum_model, lambda m: f.make_joint_actuator(m["study"], m["joint"],
                                                                        "0.1*sin(t)")),
        "make_driver": (pendulum_model, lambda m: f.make_driver(m["study"], m["joint"], Speed=60)),
        "make_body_driver": (pendulum_model, lambda m: f.make_body_driver(
            m["study"], "point", m["rod"], _vertex(m["rod"], rod_bottom), FunctionZ="ramp",
            RateZ=10.0)),
        "make_coupler": (open_copy("gear_train.FCStd", EXAMPLES), _second_gear_pair),
    }


def open_copy(name, folder=FIXTURES):
    def build(doc_unused, tmp):
        import shutil
        import FreeCAD
        path = os.path.join(tmp, "case_" + name)
        shutil.copy(os.path.join(folder, name), path)
        doc = FreeCAD.openDocument(path)
        return dict(doc=doc)
    build.opens = True
    return build


def ran_slider_crank(doc_unused, tmp):
    """A copy of the bundled slider-crank, its study run for 0.1 s."""
    import shutil
    import FreeCAD
    from SimPhantWorkbench import runner
    from SimPhantWorkbench.document.base import studies
    path = os.path.join(tmp, "case_slider_crank.FCStd")
    shutil.copy(os.path.join(ROOT, "examples", "slider_crank.FCStd"), path)
    doc = FreeCAD.openDocument(path)
    study = studies(doc)[0]
    runner.run_study(study, t_end=0.1, dt=1e-3, output_dt=0.01)
    return dict(doc=doc, study=study, rod=doc.getObject("RodLink"))


ran_slider_crank.opens = True

#: the Loads to FEM case: the connecting rod at frame 5, a coarse mesh (seconds)
FEM_ARGS = ("ConnectingRod", "frame:5", 10.0)


def _second_gear_pair(m):
    """A second gear coupler between the bundled gear train's two hinges."""
    from SimPhantWorkbench import factory
    from SimPhantWorkbench.document.base import studies, study_joints
    study = studies(m["doc"])[0]
    hinges = [j for j in study_joints(study) if str(j.JointType) == "revolute"]
    factory.make_coupler(study, hinges[0], hinges[1], "gear", Ratio=42 / 18)


def with_parameter_study(doc):
    """The pendulum model with a parameter study of two variants (``_spec``)."""
    from SimPhantWorkbench import factory
    m = pendulum_model(doc)
    m["pstudy"] = factory.make_parameter_study(m["study"], _spec())
    return m


def _run_parameter_study(m):
    from SimPhantWorkbench import sweep
    sweep.run_parameter_study(m["pstudy"], executor="in-process")


def ran_parameter_study(doc):
    """``with_parameter_study``, run once (its results table stored)."""
    m = with_parameter_study(doc)
    _run_parameter_study(m)
    return m


def _edited_crankshaft(tmp, **edit):
    """The crankshaft of ``crankshaft_links`` linked into its assembly (the files in ``tmp``,
    where the case saves the assembly: the links find the parts), falling under a force on
    its journal's face (the revolute removed: a joint on a changed face is in error after
    the recompute, a state undo does not bring back), the part file then edited
    (``crankshaft_links.crankshaft_shape`` arguments ``edit``)."""
    import crankshaft_links
    from SimPhantWorkbench import factory
    from SimPhantWorkbench.document.base import transaction
    doc, part_doc, study = crankshaft_links.build(tmp)
    with transaction(doc, "Remove the joint"):    # no "Delete" step left open (GUI)
        doc.removeObject("CrankPin")
    link = doc.getObject("Crank_1")
    body = [o for o in study.Group if getattr(o, "ShapeObject", None) is link][0]
    face = crankshaft_links.cylinder_face(part_doc.getObject("CrankshaftSolid").Shape,
                                          crankshaft_links.JOURNAL_R, 0.0)
    force = factory.make_force(study, body, (0.0, 0.0, 1.0),
                               ref=(link, "CrankshaftSolid." + face))
    crankshaft_links.set_crankshaft(part_doc, **edit)
    doc.recompute()
    return dict(doc=doc, study=study, force=force)


def renumbered_crankshaft(doc_unused, tmp):
    """``_edited_crankshaft`` with the faces renumbered: a run re-points the force's
    reference."""
    return _edited_crankshaft(tmp, pin_first=False)


def enlarged_journal(doc_unused, tmp):
    """``_edited_crankshaft`` with the journal made thicker on purpose: a run refuses the
    force's reference until the element is accepted."""
    return _edited_crankshaft(tmp, journal_radius=27.0)


renumbered_crankshaft.opens = enlarged_journal.opens = True


def _import_assembly(m):
    from SimPhantWorkbench.assembly_import import import_assembly
    import_assembly(m["doc"].getObject("Assembly"))


def _run_cases():
    from SimPhantWorkbench import playback, runner, stress, sweep
    from SimPhantWorkbench.run import prepare
    import FreeCAD
    cases = {
        "run_study (store a result)": (pendulum_model, lambda m: runner.run_study(
            m["study"], t_end=0.1, dt=1e-3, output_dt=0.02)),
        "run_study again (replace the result)": (ran_model, lambda m: runner.run_study(
            m["study"], t_end=0.1, dt=1e-3, output_dt=0.01)),
        "playback.apply_frame": (ran_model, lambda m: playback.apply_frame(m["study"], 0.2)),
        "playback.reset": (moved_model, lambda m: playback.reset(m["study"])),
        "sweep.apply_variant": (pendulum_model, lambda m: sweep.apply_variant(
            m["study"], {"Rod_body.Density": 1500.0})),
        "sweep.run_parameter_study (store the results)": (with_parameter_study,
                                                          _run_parameter_study),
        "sweep.run_parameter_study again (replace the results)": (ran_parameter_study,
                                                                  _run_parameter_study),
        "run.prepare (re-point a renumbered load reference)": (
            renumbered_crankshaft, lambda m: prepare(m["study"])),
        "runner.accept_references (a deliberately changed element)": (
            enlarged_journal, lambda m: runner.accept_references(m["force"])),
        "stress.loads_to_fem": (ran_slider_crank, lambda m: stress.loads_to_fem(
            m["study"], FEM_ARGS[0], FEM_ARGS[1], mesh_size=FEM_ARGS[2])),
    }
    major = int(FreeCAD.Version()[0])
    fixture = "fc1_containers.FCStd" if major >= 1 else "assembly_pendulum.FCStd"
    cases["import_assembly (%s)" % fixture] = (open_copy(fixture), _import_assembly)
    if major >= 1:
        cases["import_assembly (fc1_slider_crank.FCStd)"] = (
            open_copy("fc1_slider_crank.FCStd"), _import_assembly)
    return cases


def all_cases():
    """``{name: (build(doc) -> model dict, change(model))}``."""
    cases = dict(_factory_cases())
    cases.update(_run_cases())
    return cases


# ----------------------------------------------------------------------------- one case

def _fresh(name, build, tmp):
    """The document of a case before its change, with undo on from the start."""
    import FreeCAD
    if getattr(build, "opens", False):
        model = build(None, tmp)
        model["doc"].UndoMode = 1
    else:
        doc = FreeCAD.newDocument("Undo_" + name[:20])
        doc.UndoMode = 1
        model = build(doc)
    model["doc"].recompute()
    return model


def reopened(path, want):
    """Differences of the document saved at ``path`` from the snapshot ``want``, its
    invalid objects and what the document check finds."""
    import FreeCAD
    from SimPhantWorkbench.document.file_check import document_problems
    doc = FreeCAD.openDocument(path)
    try:
        return differences(want, snapshot(doc)) + invalid_objects(doc) \
            + document_problems(doc, path)
    finally:
        FreeCAD.closeDocument(doc.Name)


def run_case(name, build, change, tmp):
    """Undo, redo, save and reopen one change (see the module docstring); a dict of what
    was seen. The document is saved under a new name after undo and again after redo:
    FreeCAD renames its transient folder then, which undo steps taken before must
    survive (``document.fcstd.keep_transient_files``)."""
    import FreeCAD
    safe = "".join(c if c.isalnum() else "_" for c in name)
    model = _fresh(safe, build, tmp)
    doc = model["doc"]
    out = {}
    before_c, before_s = content(doc), snapshot(doc)
    undo0 = doc.UndoCount
    change(model)
    after_c, after_s = content(doc), snapshot(doc)
    out["undo_steps"] = doc.UndoCount - undo0
    out["changed"] = after_s != before_s
    undone = os.path.join(tmp, safe + "_undone.FCStd")
    if out["undo_steps"]:
        doc.undo()
        out["undo"] = content_differences(before_c, content(doc)) \
            + differences(before_s, snapshot(doc))
        out["invalid_after_undo"] = invalid_objects(doc)
        doc.saveAs(undone)
        doc.redo()
        out["redo"] = content_differences(after_c, content(doc)) \
            + differences(after_s, snapshot(doc))
    after = os.path.join(tmp, safe + "_after.FCStd")
    doc.saveAs(after)
    if out["undo_steps"]:
        doc.undo()                      # after the second rename too
        out["undo_after_save"] = differences(before_s, snapshot(doc))
    FreeCAD.closeDocument(doc.Name)
    out["closed"] = True
    out["reopen_after"] = reopened(after, after_s)
    if out["undo_steps"]:
        out["reopen_undone"] = reopened(undone, before_s)
    return out


def main(out_path, tmp, only=None):
    sys.path.insert(0, HERE)
    sys.path.insert(0, ROOT)
    import FreeCAD
    results = {"version": ".".join(FreeCAD.Version()[:3]), "cases": {}, "running": None}
    cases = all_cases()
    for name, (build, change) in cases.items():
        if only and name not in only:
            continue
        results["running"] = name
        _write(out_path, results)
        try:
            results["cases"][name] = run_case(name, build, change, tmp)
        except Exception:  # noqa: BLE001 - recorded; the next case runs
            results["cases"][name] = {"error": traceback.format_exc()}
        for doc_name in list(FreeCAD.listDocuments()):
            FreeCAD.closeDocument(doc_name)
    results["running"] = None
    results["names"] = list(cases)
    _write(out_path, results)


def _write(path, results):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(results, fh, indent=1)
    os.replace(tmp, path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], set(sys.argv[3:]) or None)
