"""BodyDriver: a prescribed motion of a body -- a point on a trajectory, an angle between
two body vectors, a body vector along a prescribed direction (``DriverType``: the body
driver kinds of ``solver.drivers.DRIVER_TYPES``).

``Body`` is the driven body, ``Body1`` the other side (empty: ground / world axes);
``Reference`` (and ``Axis`` for an angle) are elements picked on them
(``document.body_drivers.BODY_DRIVER_FORMS``). Each motion of the kind (x, y, z of a
trajectory or direction: properties suffixed ``X``, ``Y``, ``Z``; an angle: no suffix) has a
``Function`` of ``FUNCTION_TYPES`` and its parameters: ``Value``, ``EndValue``,
``Amplitude`` (mm, deg or plain numbers by kind), ``Rate`` (mm/s, deg/s, 1/s), ``StartTime``,
``EndTime`` [s], ``Frequency`` [Hz], ``Phase`` [deg], ``Expression`` (SI, in ``t``).
"""
from ..document.body_drivers import BODY_DRIVER, motion_stems, motion_suffixes
from ..document.links import REFERENCE_TYPE
from .base import SIGNATURES_PROPERTY, BaseProxy, prop

__all__ = ["BodyDriver", "TYPE"]

TYPE = BODY_DRIVER


def _kinds():
    from ..solver.drivers import body_driver_kinds
    return body_driver_kinds()


def _functions():
    from ..solver.drivers import FUNCTION_TYPES
    return list(FUNCTION_TYPES)


#: tooltip and default of each parameter stem
_STEM_PROPS = {
    "Value": ("App::PropertyFloat", "Constant value, start of a ramp or step, offset of a "
              "harmonic [mm, deg or 1 by kind]", 0.0),
    "EndValue": ("App::PropertyFloat", "Step: value at EndTime [mm, deg or 1]", 0.0),
    "Amplitude": ("App::PropertyFloat", "Harmonic: amplitude [mm, deg or 1]", 0.0),
    "Rate": ("App::PropertyFloat", "Ramp: rate [mm/s, deg/s or 1/s]", 0.0),
    "StartTime": ("App::PropertyFloat", "Step: start time [s]", 0.0),
    "EndTime": ("App::PropertyFloat", "Step: end time [s]", 1.0),
    "Frequency": ("App::PropertyFloat", "Harmonic: frequency [Hz]", 1.0),
    "Phase": ("App::PropertyFloat", "Harmonic: phase [deg]", 0.0),
    "Expression": ("App::PropertyString", "Expression: the value as a function of t [s] in SI "
                   "(m, rad or 1)", ""),
}


def _suffixes():
    from ..solver.drivers import body_driver_kinds
    out = []
    for kind in body_driver_kinds():
        for s in motion_suffixes(kind):
            if s not in out:
                out.append(s)
    return out


def _motion_props():
    out = []
    for suffix in _suffixes():
        group = "Motion %s" % suffix if suffix else "Motion"
        out.append(prop("App::PropertyEnumeration", "Function" + suffix, group,
                        "Prescribed motion%s: constant, ramp, step / step5, harmonic, expression"
                        % (" (%s)" % suffix.lower() if suffix else ""), default="constant",
                        values=_functions))
        for stem in motion_stems():
            ptype, doc, default = _STEM_PROPS[stem]
            out.append(prop(ptype, stem + suffix, group, doc, default=default))
    return tuple(out)


class BodyDriver(BaseProxy):
    """Proxy of a SimPhant body driver (``SimPhant::BodyDriver``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyEnumeration", "DriverType", "Driver",
             "What is driven: a point on a trajectory, an angle between two body vectors, a "
             "body vector along a direction", default="point", values=_kinds),
        prop("App::PropertyLinkGlobal", "Body", "Driver", "The SimPhant body that is driven"),
        prop("App::PropertyLinkGlobal", "Body1", "Driver",
             "Angle: the body the angle is measured from; direction: the body whose axes the "
             "direction is given in (empty: ground, world axes)"),
        prop(REFERENCE_TYPE, "Reference", "Driver",
             "Point driver: the driven point (vertex, edge or face centre); angle and direction "
             "drivers: the body's vector (an edge or face)"),
        prop(REFERENCE_TYPE, "Axis", "Driver",
             "Angle driver: the axis (an edge or face of Body1, or of a fixed body when Body1 "
             "is empty)"),
        SIGNATURES_PROPERTY,
    ) + _motion_props()
