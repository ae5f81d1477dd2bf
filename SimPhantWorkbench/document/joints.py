"""SimPhant Joint objects: their bodies and world joint frames at t0 (SI).

Joint frames come from the picked references (``references.reference_frame``);
side 2's z axis is aligned with side 1's when they are anti-parallel. A joint
whose ``FrameSource`` is ``"Placements"`` gives its frames explicitly instead
(``Placement1``/``Placement2``, each in its body's shape-object frame), used as
they are.
"""
import math
from collections import namedtuple

import numpy as np

from ..solver import JOINT_TYPES, ModelError
from ..solver.rotations import orthonormal_frame
from .base import find_study, object_label, study_bodies
from .bodies import body_of_object
from .links import reference_of
from .references import reference_frame
from .signatures import verify_reference
from .units import frame_to_placement, global_placement, placement_to_frame, quantity_si

__all__ = ["reference_of", "picked_frame", "JointData", "joint_data", "frame_source", "joint_local_frames",
           "update_joint_properties"]

_PARALLEL_TOL = 1e-6     # 1 - |cos| below which two axes count as parallel


JointData = namedtuple("JointData", [
    "obj",       # the SimPhant Joint object
    "kind",      # registry name
    "body1",     # SimPhant Body objects of side 1 and 2
    "body2",
    "frame1",    # (point m, R 3x3) world, t0
    "frame2",
    "point2",    # point of body 2 [m] (distance-type joints) or None
    "length",    # kept distance [m] or None
    "angle",     # kept angle between the z axes [rad] (angle joints) or None
])


def _side_reference(joint, which, bodies, empty_hint):
    """(what, body, obj, subname) of one side of a joint: the reference in
    property ``which`` and the study Body it lies on (errors name the joint)."""
    what = "%s: %s" % (object_label(joint), which)
    try:
        ref = reference_of(getattr(joint, which), joint)
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    if ref is None:
        raise ModelError("%s is empty: %s" % (what, empty_hint))
    obj, sub = ref
    body = body_of_object(bodies, obj)
    if body is None:
        raise ModelError("%s: '%s' is not the shape of a body of this study; add a body for it "
                         "first" % (what, obj.Label))
    return what, body, obj, sub


def picked_frame(joint, which, bodies):
    """``(body, RefFrame)`` of the element picked in ``joint``'s reference property
    ``which`` (any object with picked references: joints, body drivers), checked against
    its signature; ``ModelError`` naming the object and the property."""
    what, body, obj, sub = _side_reference(joint, which, bodies,
                                           "pick a vertex, edge or face of a body")
    if not sub:
        raise ModelError("%s: pick a vertex, edge or face of '%s', not the whole object"
                         % (what, obj.Label))
    verify_reference(joint, which)
    try:
        rf = reference_frame(obj, sub)
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    except Exception as exc:  # noqa: BLE001 - FreeCAD/OCC failures on odd references
        raise ModelError("%s: '%s.%s' cannot be used: %s" % (what, obj.Label, sub, exc)) from None
    return body, rf


def _datum_x(rf1, rf2):
    """The x axis of the first side picked as a datum coordinate system (its frame is the
    joint frame), else ``None`` (x then follows from z)."""
    rotation = rf1.rotation if rf1.rotation is not None else rf2.rotation
    return None if rotation is None else np.asarray(rotation)[:, 0]


def _aligned(a, b):
    """1 - |cos| of the angle between unit vectors a and b is below the tolerance."""
    return 1.0 - abs(float(np.dot(a, b))) < _PARALLEL_TOL


def joint_data(joint, bodies=None):
    """World joint frames (t0) of a Joint object from its references.

    Side 1 from ``Reference1``, side 2 from ``Reference2``. The z axis of a side
    is its reference's axis; a side without an axis (vertex, sphere) takes the
    other side's. When both have axes and they point apart (negative dot product),
    side 2's is turned (except an angle joint's, whose angle is the picked axes');
    parallel axes give both sides the same frame. A kind
    whose spec needs an axis fails when neither reference has one. ``Reverse``
    flips both z axes; ``Offset`` moves side 2's point by ``-offset z`` so that
    assembly leaves side 2's reference ``offset`` ahead of side 1's along z.

    With ``FrameSource == "Placements"`` the references only name the bodies
    and the frames are ``Placement1``/``Placement2`` mapped to world by their
    bodies' shape-object placements, unchanged (no axis alignment); ``Reverse``
    and ``Offset`` then act as above.
    """
    study = find_study(joint)
    if bodies is None:
        if study is None:
            raise ModelError("%s is not in a study" % object_label(joint))
        bodies = study_bodies(study)
    kind = joint.JointType
    try:
        spec = JOINT_TYPES[kind]
    except KeyError:
        raise ModelError("%s: unknown joint type %r; valid types: %s"
                         % (object_label(joint), kind, ", ".join(JOINT_TYPES))) from None
    if frame_source(joint) == "Placements":
        body1, (p1, R1), label1 = _placement_frame(joint, "Reference1", "Placement1", bodies)
        body2, (p2, R2), label2 = _placement_frame(joint, "Reference2", "Placement2", bodies)
        _check_joint_bodies(joint, body1, body2, label1, label2)
        has_axis = True
    else:
        body1, body2, (p1, R1), (p2, R2), has_axis = _reference_frames(joint, kind, spec, bodies)
    if joint.Reverse:
        flip = np.diag([1.0, -1.0, -1.0])     # 180 deg about x: z -> -z, right-handed
        R1 = R1 @ flip
        R2 = R2 @ flip
    offset = quantity_si(joint.Offset, "m")
    if offset != 0.0:
        if not has_axis:
            raise ModelError("%s: Offset needs a joint axis, but neither reference has one"
                             % object_label(joint))
        p2 = p2 - offset * R1[:, 2]
    point2 = None
    length = None
    angle = None
    if "point2" in spec.needs:
        point2 = p2
        L = quantity_si(joint.Length, "m")
        length = L if L > 0.0 else None
    if "angle" in spec.needs:
        a = quantity_si(getattr(joint, "Angle", 0.0), "deg")
        angle = math.radians(a) if a != 0.0 else None
    return JointData(joint, kind, body1, body2, (p1, R1), (p2, R2), point2, length, angle)


def _check_joint_bodies(joint, body1, body2, label1, label2):
    if body1 == body2:
        raise ModelError("%s: both references are on body '%s' ('%s' and '%s'); a joint "
                         "connects two different bodies" % (object_label(joint), body1.Label,
                                                            label1, label2))
    if body1.Fixed and body2.Fixed:
        raise ModelError("%s: both bodies ('%s' and '%s') are fixed; a joint needs a moving "
                         "body" % (object_label(joint), body1.Label, body2.Label))


def frame_source(joint):
    """``"References"`` or ``"Placements"``: where a Joint's frames come from.

    Joints saved before ``FrameSource`` existed (not yet restored) count as
    ``"References"``.
    """
    return str(getattr(joint, "FrameSource", "References"))


def _placement_frame(joint, which, placement_name, bodies):
    """Body and world frame (t0) of one side of a joint with explicit frames.

    The side's reference only names the body (its element is not needed);
    the frame is ``Placement1``/``Placement2`` in the local frame of that
    body's shape object.
    """
    what, body, obj, sub = _side_reference(joint, which, bodies,
                                           "it names the body of this side of the joint")
    world = global_placement(body.ShapeObject).multiply(getattr(joint, placement_name))
    label = "%s.%s" % (obj.Label, sub) if sub else obj.Label
    return body, placement_to_frame(world), label


def _reference_frames(joint, kind, spec, bodies):
    """Bodies and world frames (t0) of a joint from its picked references.

    Returns ``(body1, body2, frame1, frame2, has_axis)``; see ``joint_data``.
    """
    body1, rf1 = picked_frame(joint, "Reference1", bodies)
    body2, rf2 = picked_frame(joint, "Reference2", bodies)
    _check_joint_bodies(joint, body1, body2, rf1.label, rf2.label)
    p1, p2 = np.array(rf1.point, dtype=float), np.array(rf2.point, dtype=float)
    a1 = None if rf1.axis is None else np.array(rf1.axis, dtype=float)
    a2 = None if rf2.axis is None else np.array(rf2.axis, dtype=float)

    if "axis2" in spec.needs and (a1 is None or a2 is None):
        raise ModelError("%s: a %s joint needs an axis on both sides (%s); '%s' and '%s' give "
                         "%s and %s" % (object_label(joint), spec.label.lower(),
                                        "the cross axes" if kind == "universal"
                                        else "the two joint z axes",
                                        rf1.label, rf2.label, rf1.kind, rf2.kind))
    if kind == "universal":
        if abs(float(np.dot(a1, a2))) > 1e-3:
            raise ModelError("%s: the cross axes of a universal joint must be perpendicular "
                             "(angle %.3f deg)" % (object_label(joint),
                                                   math.degrees(math.acos(np.clip(
                                                       abs(np.dot(a1, a2)), -1, 1)))))
        y = a2 - np.dot(a1, a2) * a1
        y /= np.linalg.norm(y)
        R1 = np.column_stack([a1, y, np.cross(a1, y)])
        R2 = R1.copy()
    else:
        if a1 is None and a2 is None:
            if "axis" in spec.needs:
                raise ModelError("%s: a %s joint needs an axis, but neither reference has one "
                                 "('%s' is a %s, '%s' a %s); pick an edge or a face"
                                 % (object_label(joint), spec.label.lower(), rf1.label, rf1.kind,
                                    rf2.label, rf2.kind))
            R1 = np.eye(3)
            R2 = np.eye(3)
        else:
            z1 = a1 if a1 is not None else a2
            z2 = a2 if a2 is not None else a1
            if np.dot(z1, z2) < 0.0 and "angle" not in spec.needs:
                z2 = -z2       # a pin and its hole: keep the mechanism as modelled
                # (an angle joint keeps the angle between the axes as picked: not turned)
            R1 = orthonormal_frame(z1, x_hint=_datum_x(rf1, rf2))
            R2 = R1.copy() if (_aligned(z1, z2) or kind == "fixed") \
                else orthonormal_frame(z2, x_hint=R1[:, 0])
    return body1, body2, (p1, R1), (p2, R2), a1 is not None or a2 is not None


def joint_local_frames(jd):
    """The two joint frames of ``jd`` in their bodies' local frames, as mm Placements."""
    out = []
    for body, (p, R) in ((jd.body1, jd.frame1), (jd.body2, jd.frame2)):
        g = global_placement(body.ShapeObject)
        out.append(g.inverse().multiply(frame_to_placement(p, R)))
    return tuple(out)


def update_joint_properties(joint):
    """Refresh a Joint's read-only local frames (its ``execute``)."""
    jd = joint_data(joint)
    f1, f2 = joint_local_frames(jd)
    joint.Frame1 = f1
    joint.Frame2 = f2
