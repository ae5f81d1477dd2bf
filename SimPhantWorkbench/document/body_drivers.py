"""Body drivers of a study: a point on a trajectory, an angle between two body vectors, a
body vector along a prescribed direction (the kinds of ``solver.drivers.DRIVER_TYPES``
whose target is "body"), read from their document objects in SI.

A BodyDriver object holds ``DriverType`` (one of those kinds), ``Body`` (the driven body),
``Body1`` (the other side: the angle is measured from it, the direction is given in its
axes; empty: ground, world axes), the elements picked on the bodies (``BODY_DRIVER_FORMS``:
which reference, on which body, whether it gives a point or an axis) and one prescribed
motion per function of the kind (``DriverSpec.components``: x, y, z of a trajectory or a
direction; one for an angle), each a ``FUNCTION_TYPES`` function with its parameters in
properties named after the component (``motion_properties``).

Units in the document: the kind's SI unit in document units (``DOCUMENT_UNITS``: mm and
mm/s for a point, deg and deg/s for an angle, plain numbers for a direction), times in s,
frequencies in Hz, phases in deg; an ``Expression`` is in SI (m, rad) as a joint driver's.
A point's trajectory is its displacement from where it is at the start (0 holds it), an
angle starts at 0 (the picked vector of ``Body`` is the vector of ``Body1`` it is measured
from), a direction is absolute (the factory starts it at the picked vector's direction).

``body_driver_data`` is the one validation the factory, the conversion and the panel use;
``add_body_driver`` adds the solver driver (``BODY_DRIVER_FORMS[kind].add``).
"""
from collections import namedtuple

import numpy as np

from ..solver import ModelError
from .base import find_study, is_type, object_label, study_bodies
from .joints import picked_frame
from .units import quantity_si

__all__ = ["BODY_DRIVER", "DOCUMENT_UNITS", "PARAMETER_STEMS", "Pick", "BodyDriverForm",
           "BODY_DRIVER_FORMS", "motion_suffixes", "motion_stems", "motion_properties",
           "parameter_unit", "BodyDriverData", "body_driver_data", "body_driver_motions", "add_body_driver",
           "default_values", "pick_values"]

#: proxy Type of a body driver object
BODY_DRIVER = "SimPhant::BodyDriver"

#: SI unit of a driven coordinate or of its rate -> its unit in the document
DOCUMENT_UNITS = {"m": "mm", "m/s": "mm/s", "rad": "deg", "rad/s": "deg/s", "1": "1",
                  "1/s": "1/s"}

#: function parameter (``FUNCTION_TYPES``) -> (property stem, its unit: "value" and "rate"
#: are the driver kind's, the others fixed)
PARAMETER_STEMS = {
    "value": ("Value", "value"), "value0": ("Value", "value"), "offset": ("Value", "value"),
    "value1": ("EndValue", "value"), "amplitude": ("Amplitude", "value"),
    "rate": ("Rate", "rate"), "t0": ("StartTime", "s"), "t1": ("EndTime", "s"),
    "frequency": ("Frequency", "Hz"), "phase": ("Phase", "deg"), "text": ("Expression", "text"),
}

#: a picked reference of a body driver: its property, the property naming the body it
#: must lie on ("Body", or "Body1": a fixed body when Body1 is empty), what it gives
#: ("point" or "axis") and what it is (messages, tooltips); the first is on the driven body
Pick = namedtuple("Pick", ["prop", "body", "gives", "doc"])

#: per body driver kind: its picks, ``add(conv, data, name)`` -> the solver driver, and
#: ``start(obj, bodies)`` -> the property values a new one starts with (or None)
BodyDriverForm = namedtuple("BodyDriverForm", ["picks", "add", "start"])


def motion_suffixes(kind):
    """Property suffixes of the motions of ``kind``: ("X", "Y", "Z"), or ("",)."""
    from ..solver.drivers import driver_spec
    comps = driver_spec(kind).components
    return tuple(c.upper() for c in comps) if comps else ("",)


def motion_stems():
    """The parameter property stems (``PARAMETER_STEMS``), each once, in order."""
    stems = []
    for stem, _ in PARAMETER_STEMS.values():
        if stem not in stems:
            stems.append(stem)
    return stems


def motion_properties(suffix):
    """Property names of one motion: Function and each parameter stem, with ``suffix``."""
    return ["Function" + suffix] + [s + suffix for s in motion_stems()]


def parameter_unit(kind, param):
    """``(property stem, document unit, SI unit)`` of function parameter ``param`` of a
    driver of ``kind`` ("text": an expression, SI)."""
    from ..solver.drivers import driver_spec
    spec = driver_spec(kind)
    stem, unit = PARAMETER_STEMS[param]
    si = {"value": spec.unit, "rate": spec.rate_unit, "deg": "rad"}.get(unit, unit)
    return stem, DOCUMENT_UNITS.get(si, unit), si


def _to_si(value, unit, si):
    if unit == si:
        return float(value)
    return float(value) * quantity_si("1 " + unit, si)


def body_driver_motions(obj, what=None):
    """The ``MotionFunction`` of each motion of a BodyDriver (its Function and the
    properties of that function's parameters, in SI)."""
    from ..solver.drivers import MotionFunction, function_spec
    what = what or object_label(obj)
    kind = str(obj.DriverType)
    out = []
    for suffix in motion_suffixes(kind):
        label = "%s (%s)" % (what, suffix.lower()) if suffix else what
        fn = function_spec(str(getattr(obj, "Function" + suffix)))
        params = {}
        for p in fn.params:
            stem, unit, si = parameter_unit(kind, p)
            value = getattr(obj, stem + suffix)
            params[p] = str(value) if unit == "text" else _to_si(value, unit, si)
        try:
            out.append(MotionFunction(fn.name, what=label, **params))
        except ModelError as exc:
            raise ModelError(str(exc) if str(exc).startswith(what) else "%s: %s" % (label, exc)) \
                from None
    return out


BodyDriverData = namedtuple("BodyDriverData", [
    "obj",       # the BodyDriver object
    "kind",      # driver kind
    "body",      # the driven Body object
    "body1",     # the Body object of the other side, or None (ground, world axes)
    "frames",    # {reference property: RefFrame (world, t0, m)}
    "motions",   # MotionFunction per component
])


def _study_body(obj, prop, bodies, what):
    body = getattr(obj, prop)
    if body is None:
        return None
    if not is_type(body, "SimPhant::Body") or body not in bodies:
        raise ModelError("%s: %s '%s' is not a body of this study"
                         % (what, prop, getattr(body, "Label", body)))
    return body


def body_driver_data(obj, bodies=None):
    """Check a BodyDriver object: its bodies are bodies of its study (the driven one
    moving), each picked element lies on the body it belongs to and gives what the kind
    needs, its motions are valid. Returns ``BodyDriverData``; ``ModelError`` naming the
    driver otherwise."""
    what = object_label(obj)
    kind = str(obj.DriverType)
    try:
        form = BODY_DRIVER_FORMS[kind]
    except KeyError:
        raise ModelError("%s: unknown body driver type %r; valid types: %s"
                         % (what, kind, ", ".join(BODY_DRIVER_FORMS))) from None
    if bodies is None:
        study = find_study(obj)
        bodies = study_bodies(study) if study is not None else []
    body = _study_body(obj, "Body", bodies, what)
    if body is None:
        raise ModelError("%s has no body: set Body to the SimPhant body it drives" % what)
    if body.Fixed:
        raise ModelError("%s: body '%s' is fixed; a driver moves a moving body"
                         % (what, body.Label))
    body1 = _study_body(obj, "Body1", bodies, what)
    if body1 is not None and body1 == body:
        raise ModelError("%s: Body and Body1 are the same body '%s'" % (what, body.Label))
    frames = {}
    for pick in form.picks:
        owner, rf = picked_frame(obj, pick.prop, bodies)
        wanted = body if pick.body == "Body" else body1
        if (owner != wanted) if wanted is not None else not owner.Fixed:
            raise ModelError("%s: %s '%s' is on body '%s', not on %s (%s)"
                             % (what, pick.prop, rf.label, owner.Label,
                                "body '%s'" % wanted.Label if wanted is not None
                                else "a fixed body", pick.doc))
        if pick.gives == "axis" and rf.axis is None:
            raise ModelError("%s: %s '%s' is a %s and has no direction (%s): pick a straight "
                             "or circular edge or a face" % (what, pick.prop, rf.label, rf.kind,
                                                              pick.doc))
        frames[pick.prop] = rf
    return BodyDriverData(obj, kind, body, body1, frames, body_driver_motions(obj, what))


def _point(rf):
    return np.asarray(rf.point, dtype=float)


def _axis(rf):
    return np.asarray(rf.axis, dtype=float)


def _ground_or(conv, body):
    return conv.model.ground if body is None else conv.body_map[body.Name]


def _add_point(conv, d, name):
    from ..solver.drivers import ShiftedMotion
    p = _point(d.frames["Reference"])
    return conv.model.add_point_driver(
        conv.body_map[d.body.Name], [ShiftedMotion(m, p[c]) for c, m in enumerate(d.motions)],
        point=p, name=name)


def _add_angle(conv, d, name):
    return conv.model.add_angle_driver(_ground_or(conv, d.body1), conv.body_map[d.body.Name],
                                       axis=_axis(d.frames["Axis"]),
                                       vector1=_axis(d.frames["Reference"]),
                                       position=d.motions[0], name=name)


def _add_direction(conv, d, name):
    return conv.model.add_direction_driver(conv.body_map[d.body.Name],
                                           _axis(d.frames["Reference"]), d.motions,
                                           body1=None if d.body1 is None
                                           else conv.body_map[d.body1.Name], name=name)


def _start_direction(obj, bodies):
    """A new direction driver holds its vector's direction at the start (in Body1's axes
    when set)."""
    from .units import global_placement, rotation_to_matrix
    _, rf = picked_frame(obj, "Reference", bodies)
    if rf.axis is None:
        return {}
    a = _axis(rf)
    if obj.Body1 is not None and obj.Body1.ShapeObject is not None:
        a = rotation_to_matrix(global_placement(obj.Body1.ShapeObject).Rotation).T @ a
    return {"Value" + s: float(round(c, 12)) for s, c in zip(motion_suffixes("direction"), a)}


BODY_DRIVER_FORMS = {
    "point": BodyDriverForm(
        (Pick("Reference", "Body", "point", "the driven point: a vertex, or the centre of an "
              "edge or face of the body"),), _add_point, None),
    "angle": BodyDriverForm(
        (Pick("Reference", "Body", "axis", "the vector of the body whose angle is driven: an "
              "edge or face of the body, projected onto the plane normal to the axis"),
         Pick("Axis", "Body1", "axis", "the axis of the angle: an edge or face of Body1, or of "
              "a fixed body when Body1 is empty")),
        _add_angle, None),
    "direction": BodyDriverForm(
        (Pick("Reference", "Body", "axis", "the vector of the body that is pointed: an edge "
              "or face of the body"),), _add_direction, _start_direction),
}


def pick_values(pick, body, obj, sub):
    """The properties a pick of element ``sub`` of ``obj`` (on study Body ``body``) sets for
    ``pick``: its reference and the body it names (a fixed body as Body1 is ground: None)."""
    side = body if pick.body == "Body" or not body.Fixed else None
    return {pick.prop: (obj, [sub]), pick.body: side}


def default_values(obj):
    """Property values a new body driver of its kind starts with (``BodyDriverForm.start``)."""
    form = BODY_DRIVER_FORMS.get(str(obj.DriverType))
    if form is None or form.start is None:
        return {}
    study = find_study(obj)
    return form.start(obj, study_bodies(study) if study is not None else [])


def add_body_driver(conv, obj, bodies, name):
    """Add a BodyDriver object to ``conv.model`` (``ModelError`` naming it)."""
    what = object_label(obj)
    d = body_driver_data(obj, bodies)
    try:
        return BODY_DRIVER_FORMS[d.kind].add(conv, d, name)
    except ModelError as exc:
        raise ModelError(str(exc) if str(exc).startswith(what) else "%s: %s" % (what, exc)) \
            from None
