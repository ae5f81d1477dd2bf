"""Force elements: springs, dampers, contractile forces, joint springs and actuators.

``Kind`` is one of the solver registry's kinds (``solver.forces.FORCE_TYPES``).
Point elements (spring-damper, damper, contractile force) act between the
points of two picked elements ``Reference1``/``Reference2`` -- a vertex, the
centre of a circle or arc edge, the centre of a face -- of two different bodies.
Joint elements (joint spring-damper, joint actuator, end stop) act about (``Dof =
rotation``) or along (``translation``) the z axis of ``Joint``. An end stop limits the
joint's angle or slide at ``Lower`` and/or ``Upper`` (``EnableLower``/``EnableUpper``)
with Adams' IMPACT law: ``Stiffness`` (the force at 1 mm or 1 deg of penetration, per
mm or deg), ``Exponent``, ``Damping`` (full at ``Penetration``). Its ``Law`` is
``compliant`` (that law alone) or ``impulsive``: Newton's ``Restitution`` at each impact,
impacts slower than ``RestSpeed`` rest on the stop, held by the law above (documents of
earlier versions get ``compliant``).

A contact (``Kind = contact``) acts between the whole solids of the bodies of the two
picked elements (any vertex, edge or face of each): a sphere, or a convex solid (its
convex hull; non-convex solids are refused). Its normal law is the end stop's
(``Stiffness``, ``Exponent``, ``Damping``, ``Penetration``) or, ``ContactLaw =
hunt_crossley``, Hunt and Crossley's with ``Restitution`` at ``ImpactSpeed``; its friction
``MuStatic`` below ``StictionSpeed``, ``MuDynamic`` above ``FrictionSpeed``; the first
solid is sampled at its tessellation's vertices (``Deflection``) and every
``SampleSpacing`` along its edges.

Stiffness and damping are quantity texts with their unit ("10 N/mm",
"0.5 N*s/mm", "2 N*mm/deg", "0.1 N*mm*s/deg"), or laws given as tables
(``StiffnessTable``: "deflection, force" rows separated by ";", deflection in
mm or deg, force in N or N m; ``DampingTable``: rate in mm/s or deg/s); a
table, when not empty, replaces the coefficient.
"""
from ..document.links import REFERENCE_TYPE
from .base import SIGNATURES_PROPERTY, BaseProxy, prop

__all__ = ["ForceElement", "TYPE", "DOFS"]

TYPE = "SimPhant::ForceElement"

#: joint degrees of freedom a joint element acts on (stored in documents: never rename)
DOFS = ("rotation", "translation")


def _kinds():
    from ..solver.forces import FORCE_TYPES
    return list(FORCE_TYPES)


def _stop_laws():
    from ..solver.forces import STOP_LAWS
    return list(STOP_LAWS)


def _contact_laws():
    from ..solver.contact import CONTACT_LAWS
    return list(CONTACT_LAWS)


class ForceElement(BaseProxy):
    """Proxy of a SimPhant force element (``SimPhant::ForceElement``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyEnumeration", "Kind", "Force element",
             "Kind of force element (from the solver's force-element registry)",
             default="spring_damper", values=_kinds),
        prop(REFERENCE_TYPE, "Reference1", "Force element",
             "Point on the first body: a vertex, a circle (its centre) or a face (its centre)"),
        prop(REFERENCE_TYPE, "Reference2", "Force element",
             "Point on the second body: a vertex, a circle (its centre) or a face (its centre)"),
        SIGNATURES_PROPERTY,
        prop("App::PropertyLinkGlobal", "Joint", "Force element",
             "Joint elements: the joint whose axis the element acts about or along"),
        prop("App::PropertyEnumeration", "Dof", "Force element",
             "Joint elements: rotation about or translation along the joint z axis",
             default="rotation", values=DOFS),
        prop("App::PropertyString", "Stiffness", "Spring",
             "Stiffness with its unit, e.g. '10 N/mm' or '2 N*mm/deg'", default="0 N/mm"),
        prop("App::PropertyString", "Damping", "Spring",
             "Damping with its unit, e.g. '0.5 N*s/mm' or '0.1 N*mm*s/deg'",
             default="0 N*s/mm"),
        prop("App::PropertyString", "StiffnessTable", "Spring",
             "Nonlinear spring: 'deflection, force; ...' [mm or deg, N or N m]; replaces "
             "Stiffness when not empty"),
        prop("App::PropertyString", "DampingTable", "Spring",
             "Nonlinear damper: 'rate, force; ...' [mm/s or deg/s, N or N m]; replaces Damping "
             "when not empty"),
        prop("App::PropertyBool", "FreeLengthFromStart", "Spring",
             "Free length (rest angle/slide of a joint spring) = its value at the start",
             default=True),
        prop("App::PropertyString", "FreeLength", "Spring",
             "Free length (or rest angle/slide of a joint spring) with its unit, used when "
             "FreeLengthFromStart is false, e.g. '120 mm' or '15 deg'", default="0 mm"),
        prop("App::PropertyFloat", "Preload", "Spring",
             "Spring-damper: constant force pushing the points apart [N]", default=0.0),
        prop("App::PropertyFloat", "Force", "Contractile",
             "Contractile force: magnitude pulling the points together [N]", default=0.0),
        prop("App::PropertyFloat", "Value", "Actuator",
             "Joint actuator: moment [N m] or force [N]", default=0.0),
        prop("App::PropertyString", "ValueFunction", "Actuator",
             "Joint actuator: moment [N m] or force [N] as a function of t [s], e.g. "
             "'500*sin(2*pi*t)'; replaces Value when not empty"),
        prop("App::PropertyBool", "EnableLower", "End stop",
             "End stop: stop the joint angle/slide at its lower limit", default=False),
        prop("App::PropertyString", "Lower", "End stop",
             "End stop: lower limit of the joint angle/slide with its unit, e.g. '-30 deg' or "
             "'-10 mm' (a plain number in deg or mm)", default="0"),
        prop("App::PropertyBool", "EnableUpper", "End stop",
             "End stop: stop the joint angle/slide at its upper limit", default=False),
        prop("App::PropertyString", "Upper", "End stop",
             "End stop: upper limit of the joint angle/slide with its unit, e.g. '120 deg' or "
             "'50 mm' (a plain number in deg or mm)", default="0"),
        prop("App::PropertyFloat", "Exponent", "End stop",
             "End stop: exponent e of the contact force k p^e (p the penetration; 1.5 for "
             "Hertz contact); Stiffness is its force at a penetration of 1 mm (1 deg) per mm "
             "(deg)", default=1.5),
        prop("App::PropertyEnumeration", "Law", "End stop",
             "End stop: compliant (the contact law alone) or impulsive (Newton's restitution "
             "at each impact, for the fixed-step methods)", default="compliant",
             values=_stop_laws),
        prop("App::PropertyFloat", "Restitution", "End stop",
             "Impulsive end stop: coefficient of restitution e in [0, 1] (rebound speed / "
             "impact speed)", default=0.5),
        prop("App::PropertyString", "RestSpeed", "End stop",
             "Impulsive end stop: impacts slower than this rest on the stop, held by its "
             "contact law, e.g. '1 mm/s' or '0.5 deg/s' (a plain number in deg/s or mm/s)",
             default="1"),
        prop("App::PropertyString", "Penetration", "End stop",
             "End stop: penetration at which the damping is full (it grows from zero at "
             "first touch), e.g. '0.1 mm' or '0.05 deg'", default="0.1"),
        prop("App::PropertyEnumeration", "ContactLaw", "Contact",
             "Contact: normal law, impact (the end stop's IMPACT law) or hunt_crossley "
             "(k p^e (1 + 3 (1 - Restitution) / (2 ImpactSpeed) p_dot))", default="impact",
             values=_contact_laws),
        prop("App::PropertyString", "ImpactSpeed", "Contact",
             "Contact, hunt_crossley: the impact speed of Restitution, e.g. '1000 mm/s'",
             default="1000 mm/s"),
        prop("App::PropertyFloat", "MuStatic", "Contact",
             "Contact: static friction coefficient (below StictionSpeed)", default=0.0),
        prop("App::PropertyFloat", "MuDynamic", "Contact",
             "Contact: dynamic friction coefficient (above FrictionSpeed)", default=0.0),
        prop("App::PropertyString", "StictionSpeed", "Contact",
             "Contact: sliding speed of full static friction, e.g. '0.1 mm/s'",
             default="0.1 mm/s"),
        prop("App::PropertyString", "FrictionSpeed", "Contact",
             "Contact: sliding speed from which the friction is dynamic, e.g. '1 mm/s'",
             default="1 mm/s"),
        prop("App::PropertyString", "SampleSpacing", "Contact",
             "Contact: spacing of the first solid's sample points along its edges, e.g. "
             "'2 mm'", default="2 mm"),
        prop("App::PropertyString", "Deflection", "Contact",
             "Contact: tessellation deflection of the solids (the hull's and the sample "
             "points' distance from the true surface), e.g. '0.05 mm'", default="0.05 mm"),
    )
