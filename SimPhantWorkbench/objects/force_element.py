"""Force elements: springs, dampers, contractile forces, joint springs and actuators.

``Kind`` is one of the solver registry's kinds (``solver.forces.FORCE_TYPES``).
Point elements (spring-damper, damper, contractile force) act between the
points of two picked elements ``Reference1``/``Reference2`` -- a vertex, the
centre of a circle or arc edge, the centre of a face -- of two different bodies.
Joint elements (joint spring-damper, joint actuator) act about (``Dof =
rotation``) or along (``translation``) the z axis of ``Joint``.

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
    )
