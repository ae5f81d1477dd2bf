"""Loads: a Force at a point of a body (or its CoG) and a pure Torque.

The value is a constant vector or a function of time ``t`` [s] written as a
text expression with three comma-separated components, e.g.
``"0, 0, 10*sin(2*pi*t)"`` (only math functions and constants are allowed).
The components are in world axes or, with ``Frame = Body``, in the body's own
axes (turning with it).
"""
from ..document.elements import LOAD_FRAMES
from ..document.links import REFERENCE_TYPE
from .base import SIGNATURES_PROPERTY, BaseProxy, prop

__all__ = ["Force", "Torque", "LOAD_FRAMES"]

_COMMON_HEAD = (
    prop("App::PropertyLinkGlobal", "Body", "Load", "The SimPhant body the load acts on"),
)
_COMMON_TAIL = (
    prop("App::PropertyEnumeration", "Frame", "Load",
         "Axes of the components: World, or Body (turning with the body)", default="World",
         values=LOAD_FRAMES),
)


class Force(BaseProxy):
    """Proxy of a force (``SimPhant::Force``)."""

    Type = "SimPhant::Force"

    PROPERTIES = _COMMON_HEAD + (
        prop(REFERENCE_TYPE, "Reference", "Load",
             "Point of application: a vertex, edge or face of the body (empty = its CoG)"),
        SIGNATURES_PROPERTY,
        prop("App::PropertyVector", "Force", "Load", "Constant force [N]"),
        prop("App::PropertyString", "ForceFunction", "Load",
             "Force [N] as a function of t [s], e.g. '0, 0, 10*sin(2*pi*t)'; replaces Force "
             "when not empty"),
    ) + _COMMON_TAIL


class Torque(BaseProxy):
    """Proxy of a pure torque (``SimPhant::Torque``)."""

    Type = "SimPhant::Torque"

    PROPERTIES = _COMMON_HEAD + (
        prop("App::PropertyVector", "Torque", "Load", "Constant torque [N m]"),
        prop("App::PropertyString", "TorqueFunction", "Load",
             "Torque [N m] as a function of t [s], e.g. '0, 0, 2*cos(t)'; replaces Torque when "
             "not empty"),
    ) + _COMMON_TAIL
