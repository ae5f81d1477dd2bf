"""Joint: a kinematic joint between two bodies of a study.

``JointType`` is one of the solver registry's kinds (``solver.JOINT_TYPES``).
``Reference1``/``Reference2`` link a sub-element (vertex, edge or face) of the
shape objects of two different bodies; each yields one joint frame:

=====================  =====================================
reference              joint frame (origin, z axis)
=====================  =====================================
vertex                 the point, no axis
straight edge          mid-point, edge direction
circular edge          centre, circle normal
planar face            centre of mass of the face, normal
cylindrical face       point on the axis, axis
spherical face         centre, no axis
conical face           apex, axis
=====================  =====================================

The z axis of side 2 is aligned with side 1's when the two are anti-parallel
(a pin and its hole), so picking never flips the mechanism; ``Reverse`` flips
the joint axis of both sides, ``Offset`` shifts side 2 along it. The computed
frames are stored in each body's local frame (``Frame1``/``Frame2``, mm) so that
they move with the bodies.
"""
from .base import BaseProxy, prop

__all__ = ["Joint"]

TYPE = "SimPhant::Joint"


def _kinds():
    from ..solver import JOINT_TYPES
    return list(JOINT_TYPES)


class Joint(BaseProxy):
    """Proxy of a SimPhant joint (``SimPhant::Joint``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyEnumeration", "JointType", "Joint",
             "Kind of joint (from the solver's joint registry)", default="revolute",
             values=_kinds),
        prop("App::PropertyXLinkSub", "Reference1", "Joint",
             "Vertex, edge or face of the first body that defines joint frame 1"),
        prop("App::PropertyXLinkSub", "Reference2", "Joint",
             "Vertex, edge or face of the second body that defines joint frame 2"),
        prop("App::PropertyDistance", "Offset", "Joint",
             "Offset of side 2 from side 1 along the joint axis at assembly", default=0.0),
        prop("App::PropertyBool", "Reverse", "Joint",
             "Flip the joint axis (direction of Offset and of positive motion)", default=False),
        prop("App::PropertyLength", "Length", "Joint",
             "Distance joints: the kept distance (0 = the distance at the start)", default=0.0),
        # computed on recompute (read-only)
        prop("App::PropertyPlacement", "Frame1", "Joint frames",
             "Joint frame 1 in the local frame of body 1's shape object (computed)",
             read_only=True, output=True),
        prop("App::PropertyPlacement", "Frame2", "Joint frames",
             "Joint frame 2 in the local frame of body 2's shape object (computed)",
             read_only=True, output=True),
    )

    def execute(self, obj):
        """Recompute the joint frames from the references (cheap; never simulates)."""
        from .. import conversion
        conversion.update_joint_properties(obj)
