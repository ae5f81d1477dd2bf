"""What the GUI needs to place joints by picking, computed by the application layer.

* ``resolve_pick`` turns a selection ``(top-level object, "Part.Body.Face3")``
  into the study Body it lies on and a reference ``(object, subname)`` the
  factory accepts, or says why it cannot be used. The selection is the one a
  click gives without resolving links: the top-level object of the document
  shown and the path from it, through ``App::Link`` objects to parts of other
  files (Assembly4, FreeCAD 1.x "Insert Component"), down to the element;
* ``body_shape_of_pick`` is the object of the study's document a selection
  designates as a body's shape (the part clicked, or the link that shows it);
* ``joint_frames`` gives the world joint frames of a joint that does not exist
  yet (kind, two references, offset, reverse) through the same
  ``joints.joint_data`` the solver conversion and the factory use, so the
  preview shows exactly the frames the joint will get;
* ``joint_gap`` says how far those frames are from meeting the joint (a pin picked
  at mid-length and a hole at its face are apart along the axis; a Solve would have
  to move the body, or fail);
* ``align_placement`` is where one of the two bodies must go for the frames to meet the
  joint (the panel's "Align", as FreeCAD's Assembly moves a part when a joint is made);
* ``reference_frame_placement`` is one picked element's frame (hover preview).

No FreeCADGui import: the functions are tested headless.
"""
import math

import numpy as np

import FreeCAD

from .bodies import body_of_object
from .joints import joint_data
from .massprops import container_placement
from .units import M_PER_MM, frame_to_placement, matrix_to_rotation
from .references import is_datum, reference_frame, split_subname
from ..solver import JOINT_TYPES, ModelError
from ..solver.alignment import align_motion
from ..solver.dof import frame_gap
from ..solver.rotations import orthonormal_frame

__all__ = ["resolve_pick", "body_shape_of_pick", "path_objects", "joint_frames", "joint_gap",
           "GAP_TOLERANCE", "align_placement", "reference_frame_placement", "needs_text"]


def path_objects(obj, subname):
    """``[(object, prefix)]`` along a selection path: ``(obj, "")`` and then each object
    the dotted path names (an ``App::Link`` itself, not what it links to), with the
    path leading to it (``"Model.Piston_1."``)."""
    path, _ = split_subname(subname or "")
    chain = [(obj, "")]
    prefix = ""
    for n in (n for n in path.split(".") if n):
        prefix += n + "."
        sub_obj = obj.getSubObject(prefix, 1)
        if sub_obj is None:
            break
        chain.append((sub_obj, prefix))
    return chain


def _is_plain_container(obj):
    """An ``App::Part`` or group (not a link): a click inside it designates what it holds."""
    if obj.isDerivedFrom("App::Link"):
        return False
    return obj.isDerivedFrom("App::Part") or obj.isDerivedFrom("App::DocumentObjectGroup")


def body_shape_of_pick(obj, subname):
    """The object of ``obj``'s document that a selection ``(obj, subname)`` designates as
    a body's shape: the first object along the path that is not a plain container
    (``App::Part``, group), and at the latest the last one before the path enters
    another document (the ``App::Link`` showing a part of another file). A click on
    ``Model.Piston_1.Body.Pad.Face3`` designates the link ``Piston_1``; one on
    ``Body.Pad.Face3`` the PartDesign Body; a tree click on an App::Part the part."""
    own = []
    for candidate, _ in path_objects(obj, subname):
        if candidate.Document is not obj.Document:
            break
        own.append(candidate)
    return next((c for c in own if not _is_plain_container(c)), own[-1])


def resolve_pick(bodies, obj, subname):
    """``(body, ref_obj, ref_sub)`` of a picked element, or ``ModelError`` saying why not.

    ``obj``/``subname`` are what FreeCAD's selection reports without resolving links:
    the top-level object and a dotted path to the element. The reference is expressed
    from the deepest object on the path that belongs to a body of ``bodies``. An element
    is a vertex, an edge or a face, or a datum coordinate system, line, plane or point
    picked whole (see
    ``references.reference_frame``).
    """
    path, element = split_subname(subname or "")
    chain = path_objects(obj, subname)
    if not element and not is_datum(chain[-1][0]):
        raise ModelError("'%s': pick a vertex, an edge, a face or a datum coordinate system, "
                         "line, plane or point, not the whole object" % obj.Label)
    if element and element.rstrip("0123456789") not in ("Vertex", "Edge", "Face"):
        raise ModelError("'%s': pick a vertex, an edge or a face, not the whole object"
                         % obj.Label)
    for candidate, used in reversed(chain):
        body = body_of_object(bodies, candidate)
        if body is not None and subname[len(used):]:     # a datum: from its container
            if candidate is not obj and body.ShapeObject is not None \
                    and body_of_object([body], candidate) is body:
                ref_obj, ref_sub = candidate, subname[len(used):]
            else:
                ref_obj, ref_sub = obj, subname
            reference_frame(ref_obj, ref_sub)          # raises for unsupported geometry
            return body, ref_obj, ref_sub
    shape = body_shape_of_pick(obj, subname)
    raise ModelError("'%s.%s' is not on a body of the study: add a body for '%s' first"
                     % (obj.Label, element or chain[-1][0].Label, shape.Label))


class _Draft:
    """A joint that does not exist yet, as ``joints.joint_data`` reads one."""

    class Proxy:
        Type = "SimPhant::Joint"

    def __init__(self, kind, ref1, ref2, offset, reverse, length, label, angle=0.0):
        self.JointType = kind
        self.Reference1 = (ref1[0], [ref1[1]]) if ref1 else None
        self.Reference2 = (ref2[0], [ref2[1]]) if ref2 else None
        self.Offset = FreeCAD.Units.Quantity(float(offset), FreeCAD.Units.Length)
        self.Reverse = bool(reverse)
        self.Length = FreeCAD.Units.Quantity(float(length or 0.0), FreeCAD.Units.Length)
        self.Angle = FreeCAD.Units.Quantity(float(angle or 0.0), FreeCAD.Units.Angle)
        self.FrameSource = "References"
        self.Label = label
        self.Name = label
        self.InList = []


def joint_frames(kind, ref1, ref2, bodies, offset=0.0, reverse=False, length=0.0,
                 label="New joint", angle=0.0):
    """World frames ``(Placement1, Placement2)`` [mm] a joint of ``kind`` would get.

    ``ref1``/``ref2`` are ``(object, subname)``; ``offset`` and ``length`` in
    mm, ``angle`` (an angle joint's) in degrees. Raises ``ModelError`` with the reason
    (missing axis, same body, both fixed, unsupported element...) exactly as creating the
    joint would.
    """
    jd = _draft_data(kind, ref1, ref2, bodies, offset, reverse, length, label, angle)
    return tuple(frame_to_placement(p, R) for p, R in (jd.frame1, jd.frame2))


def _draft_data(kind, ref1, ref2, bodies, offset, reverse, length, label, angle):
    if kind not in JOINT_TYPES:
        raise ModelError("unknown joint type %r; valid types: %s" % (kind, ", ".join(JOINT_TYPES)))
    return joint_data(_Draft(kind, ref1, ref2, offset, reverse, length, label, angle), bodies)


#: gaps below these count as none: 1 nm, 1e-9 rad
GAP_TOLERANCE = (1e-6, 1e-9)


def joint_gap(kind, ref1, ref2, bodies, offset=0.0, reverse=False, length=0.0,
              label="New joint", angle=0.0):
    """How far the frames a joint would get are from meeting its constraints, before any
    assembly: ``(distance [mm], angle [deg], axial [mm])`` -- the largest translational
    and angular residual of the kind's rows (``solver.dof.frame_gap``), and the part of
    the distance between the frames' origins along the joint axis (what ``Offset`` would
    have to add to keep the frames apart as picked). Arguments as ``joint_frames``."""
    jd = _draft_data(kind, ref1, ref2, bodies, offset, reverse, length, label, angle)
    distance, miss = frame_gap(kind, jd.frame1, jd.frame2, jd.length, jd.angle)
    (p1, R1), (p2, _) = jd.frame1, jd.frame2
    axial = float((np.asarray(p2) - np.asarray(p1)) @ R1[:, 2])
    return distance / M_PER_MM, math.degrees(miss), axial / M_PER_MM


def align_placement(kind, ref1, ref2, bodies, offset=0.0, reverse=False, length=0.0,
                    label="New joint", angle=0.0):
    """Where to put one body so that the frames a joint would get meet its constraints.

    The body of side 2 moves, or that of side 1 when side 2's body is fixed (the
    ground); it moves alone (bodies joined to it by other joints stay). The move is
    ``solver.alignment.align_motion``: the smallest rigid motion that meets the kind's
    rows. Arguments as ``joint_frames``; returns ``(body, obj, placement)``: the
    object whose ``Placement`` to set (the body's shape object: for a part linked from
    another file, the ``App::Link`` of this document, never the linked object) and its
    new ``Placement`` in its container's coordinates [mm].
    """
    jd = _draft_data(kind, ref1, ref2, bodies, offset, reverse, length, label, angle)
    move = 1 if jd.body2.Fixed else 2
    body = jd.body1 if move == 1 else jd.body2
    obj = body.ShapeObject
    R, b = align_motion(kind, jd.frame1, jd.frame2, jd.length, move=move,
                        scale=max(_frame_distance(jd), 1e-3), angle=jd.angle)
    motion = FreeCAD.Placement(FreeCAD.Vector(*(np.asarray(b) / M_PER_MM)),
                               matrix_to_rotation(R))
    container = container_placement(obj)
    placement = container.inverse().multiply(motion).multiply(container).multiply(obj.Placement)
    return body, obj, placement


def _frame_distance(jd):
    return float(np.linalg.norm(np.asarray(jd.frame1[0]) - np.asarray(jd.frame2[0])))


def reference_frame_placement(obj, subname):
    """``(Placement [mm], has_axis, kind)`` of one picked element: z along its axis."""
    rf = reference_frame(obj, subname)
    R = orthonormal_frame(rf.axis) if rf.axis is not None else orthonormal_frame((0.0, 0.0, 1.0))
    return frame_to_placement(rf.point, R), rf.axis is not None, rf.kind


_NEEDS = {
    "axis": "an axis on at least one side (a straight or circular edge, or a planar, "
            "cylindrical or conical face)",
    "axis2": "an axis on each side (for a universal joint: perpendicular to each other)",
    "angle": "optionally the angle between the two axes (Angle; 0: the angle as picked)",
    "point2": "a point on each side (any vertex, edge or face gives one)",
}


def needs_text(kind):
    """One sentence: what the references of a joint ``kind`` must provide (from the registry)."""
    spec = JOINT_TYPES[kind]
    if not spec.needs:
        return "%s: any vertex, edge or face on each of two bodies." % spec.label
    needs = [n for n in spec.needs if n != "axis" or "axis2" not in spec.needs]
    return "%s needs %s." % (spec.label, "; ".join(_NEEDS.get(n, n) for n in needs))
