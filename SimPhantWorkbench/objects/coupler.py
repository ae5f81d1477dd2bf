"""Coupler: a gear pair, belt, rack and pinion or screw between joints of the study.

``CouplerType`` is one of the solver's coupler kinds (``solver.couplers.COUPLER_TYPES``):
``gear`` (external gear pair) and ``belt`` (belt, chain or internal gear) couple the
rotations of two revolute or cylindrical joints with parallel axes (``Ratio`` = N2/N1,
tooth counts or pitch radii r2/r1); ``rack_pinion`` couples the rotation of a pinion's
revolute joint (``Joint1``) with the slide of a rack's prismatic joint (``Joint2``) through
the pitch ``Radius``; ``screw`` couples the rotation and the slide of one cylindrical
joint (``Joint1``) through its ``Lead`` (negative: left-handed), ``lead_screw`` the
rotation of a screw's revolute joint (``Joint1``) with the slide of a nut's prismatic joint
along it (``Joint2``).
"""
from .base import BaseProxy, prop

__all__ = ["Coupler", "TYPE", "VALUE_PROPERTIES"]

TYPE = "SimPhant::Coupler"

#: the property holding each coupler kind's parameter (``CouplerSpec.param``)
VALUE_PROPERTIES = {"ratio": "Ratio", "radius": "Radius", "lead": "Lead"}


def _kinds():
    from ..solver.couplers import coupler_kinds
    return coupler_kinds()


class Coupler(BaseProxy):
    """Proxy of a SimPhant coupler (``SimPhant::Coupler``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyEnumeration", "CouplerType", "Coupler",
             "gear (external pair), belt (belt, chain, internal gear), rack_pinion, screw "
             "(one cylindrical joint), lead_screw (a screw's revolute and a nut's slider)",
             default="gear", values=_kinds),
        prop("App::PropertyLinkGlobal", "Joint1", "Coupler",
             "Gear 1's joint (gear, belt), the pinion's joint (rack_pinion), the screw's "
             "cylindrical joint (screw), the screw's revolute joint (lead_screw)"),
        prop("App::PropertyLinkGlobal", "Joint2", "Coupler",
             "Gear 2's joint (gear, belt), the rack's prismatic joint (rack_pinion), the "
             "nut's prismatic joint along the screw (lead_screw); unused by a screw"),
        prop("App::PropertyFloat", "Ratio", "Coupler",
             "Gear, belt: N2/N1 (tooth counts) or r2/r1 (pitch radii); gear 2 turns at "
             "1/Ratio of gear 1's rate", default=1.0),
        prop("App::PropertyDistance", "Radius", "Coupler",
             "Rack and pinion: pitch radius; the pinion turns by s/Radius as the rack moves by "
             "s along its joint axis (negative: the other sense)", default=10.0),
        prop("App::PropertyDistance", "Lead", "Coupler",
             "Screw: advance of body 2 per turn about the joint axis; lead screw: advance of "
             "the nut per turn of the screw (negative: left-handed)",
             default=1.0),
    )
