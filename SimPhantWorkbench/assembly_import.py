"""Turn a FreeCAD 1.x Assembly into a SimPhant study (the scripting face of
``document.assembly``, which reads the Assembly; see its docstring for the mapping).

``study_from_assembly(assembly)`` makes one SimPhant Body per part the
Assembly's joints connect (grounded parts become fixed bodies) and one SimPhant
Joint per supported Assembly joint (labelled ``"<Assembly joint Label>_joint"``),
with the joint coordinate systems the user already placed in the Assembly as
explicit frames. ``import_assembly`` does the same and returns an
``ImportReport`` (what was created, skipped and warned about; Gears, Belt, RackPinion
and Screw joints become couplers between the imported joints, see
``document.assembly_couplers``); ``plan_assembly``
only reads.
"""
import FreeCAD

from . import factory
from .document.assembly import (COUPLER_KIND_MAP, JOINT_KIND_MAP, UNSUPPORTED_TYPES, AssemblyPlan, AssemblyRef,
                                ImportReport, JointPlan, assembly_joint_objects, coupler_label,
                                is_assembly, joint_label, joint_limits, joint_what,
                                plan_assembly, resolve_reference, STOP_LAW)
from .document.base import study_bodies, transaction
from .document.units import global_placement
from .solver import ModelError

__all__ = ["JOINT_KIND_MAP", "COUPLER_KIND_MAP", "UNSUPPORTED_TYPES", "AssemblyRef", "JointPlan", "AssemblyPlan",
           "ImportReport", "is_assembly", "assembly_joint_objects", "resolve_reference",
           "plan_assembly", "import_assembly", "study_from_assembly", "joint_label"]


def import_assembly(assembly, study=None, name="Study", strict=False):
    """Make (or extend) a SimPhant study from an Assembly; return an ``ImportReport``.

    Parameters
    ----------
    assembly : Assembly::AssemblyObject
    study : SimPhant Study, optional
        Add to this study (parts that already have a body there keep it);
        default: a new study named ``name``.
    name : str
        Name of the new study.
    strict : bool
        Raise ``ModelError`` (before changing the document) when any joint
        cannot be imported, instead of skipping it with a warning.

    Every body and joint is made through ``factory``; on failure everything
    this call created is removed again.
    """
    plan = plan_assembly(assembly, strict=strict)
    doc = assembly.Document
    created = []
    try:
        with transaction(doc, "Import Assembly '%s' into SimPhant" % assembly.Label):
            if study is None:
                study = factory.make_study(doc, name)
                created.append(study)
            report = ImportReport(study, plan)
            existing = {b.ShapeObject.Name: b for b in study_bodies(study)
                        if b.ShapeObject is not None}
            for part in plan.parts:
                fixed = part.Name in plan.grounded
                body = existing.get(part.Name)
                if body is None:
                    try:
                        body = factory.make_body(study, part, fixed=fixed)
                    except ModelError as exc:
                        raise ModelError("Assembly '%s': part '%s': %s"
                                         % (assembly.Label, part.Label, exc)) from None
                    created.append(body)
                elif fixed and not body.Fixed:
                    report.warnings.append(
                        "Assembly '%s': part '%s' is grounded but its existing body '%s' is not "
                        "fixed; left as it is" % (assembly.Label, part.Label, body.Label))
                report.bodies[part.Name] = body
            for jp in plan.joints:
                report.joints[jp.source.Name] = _make_joint(study, report, jp, created)
                _make_stops(study, report, jp, created)
            for cp in plan.couplers:
                report.couplers[cp.source.Name] = _make_coupler(study, report, cp, created)
    except Exception:
        _remove(doc, created)
        raise
    for message in report.warnings:
        FreeCAD.Console.PrintWarning("SimPhant: %s\n" % message)
    return report


def _make_joint(study, report, jp, created):
    b1, b2 = report.bodies[jp.ref1.part.Name], report.bodies[jp.ref2.part.Name]
    local1 = global_placement(b1.ShapeObject).inverse().multiply(jp.jcs1)
    local2 = global_placement(b2.ShapeObject).inverse().multiply(jp.jcs2)
    try:
        joint = factory.make_joint(
            study, jp.kind, (jp.ref1.part, jp.ref1.subname), (jp.ref2.part, jp.ref2.subname),
            offset=jp.offset, length=jp.length, angle=jp.angle, placements=(local1, local2),
            label=joint_label(jp.source))
    except ModelError as exc:
        raise ModelError("%s: %s" % (joint_what(jp.source), exc)) from None
    created.append(joint)
    return joint


def _make_stops(study, report, jp, created):
    """An end stop per DOF of the joint with limits switched on in the Assembly."""
    joint = report.joints[jp.source.Name]
    for dof, sides in joint_limits(jp.source, jp.kind)[0].items():
        label = "%s_%s_stop" % (jp.source.Label, dof)
        try:
            stop = factory.make_force_element(study, "joint_stop", joint=joint, dof=dof,
                                              label=label, **dict(sides, **STOP_LAW[dof]))
        except ModelError as exc:
            raise ModelError("%s: its limits: %s" % (joint_what(jp.source), exc)) from None
        created.append(stop)
        report.stops.setdefault(jp.source.Name, []).append(stop)
        report.warnings.append(
            "%s: its %s limits are imported as the compliant end stop '%s' (stiffness %s, "
            "exponent %g, damping %s): edit its law to suit the part"
            % (joint_what(jp.source), dof, stop.Label, STOP_LAW[dof]["stiffness"],
               STOP_LAW[dof]["exponent"], STOP_LAW[dof]["damping"]))


def _make_coupler(study, report, cp, created):
    joints = [report.joints[jp.source.Name] for jp in cp.joints]
    try:
        coupler = factory.make_coupler(study, joints[0], joints[1] if len(joints) > 1 else None,
                                       cp.kind, label=coupler_label(cp.source), **cp.values)
    except ModelError as exc:
        raise ModelError("%s: %s" % (joint_what(cp.source), exc)) from None
    created.append(coupler)
    return coupler


def _remove(doc, objs):
    for obj in reversed(objs):
        try:
            if doc.getObject(obj.Name) is not None:
                doc.removeObject(obj.Name)
        except Exception:  # noqa: BLE001 - already gone
            pass


def study_from_assembly(assembly, study=None, name="Study", strict=False):
    """A SimPhant study made from a FreeCAD 1.x Assembly (see ``import_assembly``)."""
    return import_assembly(assembly, study=study, name=name, strict=strict).study
