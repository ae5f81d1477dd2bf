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

``FrameSource`` says where the frames come from: ``"References"`` (the
default, and the only behaviour of documents saved before it existed) computes
them from the picked elements as above; ``"Placements"`` takes ``Placement1``/
``Placement2`` as given -- each side's joint frame in the local frame of its
body's shape object (mm), as an importer (``assembly_import``) or a script
sets them. The references then only name the bodies (an element is optional);
``Reverse`` and ``Offset`` apply the same way to both sources.
"""
from ..document.joints import update_joint_properties
from ..document.links import REFERENCE_TYPE
from .base import SIGNATURES_PROPERTY, BaseProxy, prop

__all__ = ["Joint", "FRAME_SOURCES"]

TYPE = "SimPhant::Joint"

#: Where the joint frames come from (stored in documents: never rename).
FRAME_SOURCES = ("References", "Placements")


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
        prop(REFERENCE_TYPE, "Reference1", "Joint",
             "Vertex, edge or face of the first body that defines joint frame 1"),
        prop(REFERENCE_TYPE, "Reference2", "Joint",
             "Vertex, edge or face of the second body that defines joint frame 2"),
        SIGNATURES_PROPERTY,
        prop("App::PropertyDistance", "Offset", "Joint",
             "Offset of side 2 from side 1 along the joint axis at assembly", default=0.0),
        prop("App::PropertyBool", "Reverse", "Joint",
             "Flip the joint axis (direction of Offset and of positive motion)", default=False),
        prop("App::PropertyLength", "Length", "Joint",
             "Distance joints: the kept distance (0 = the distance at the start)", default=0.0),
        # (added with the angle joint; older documents get the default)
        prop("App::PropertyAngle", "Angle", "Joint",
             "Angle joints: the kept angle between the joint z axes of the two sides "
             "(0 = the angle at the start)", default=0.0),
        # computed on recompute (read-only)
        prop("App::PropertyPlacement", "Frame1", "Joint frames",
             "Joint frame 1 in the local frame of body 1's shape object (computed)",
             read_only=True, output=True),
        prop("App::PropertyPlacement", "Frame2", "Joint frames",
             "Joint frame 2 in the local frame of body 2's shape object (computed)",
             read_only=True, output=True),
        # explicit frames (added after 0.1; older documents get the defaults: References)
        prop("App::PropertyEnumeration", "FrameSource", "Joint frames",
             "Where the joint frames come from: References (computed from the picked vertex, "
             "edge or face) or Placements (Placement1/Placement2 as given)",
             default="References", values=FRAME_SOURCES),
        prop("App::PropertyPlacement", "Placement1", "Joint frames",
             "Joint frame 1 in the local frame of body 1's shape object; used when FrameSource "
             "is Placements"),
        prop("App::PropertyPlacement", "Placement2", "Joint frames",
             "Joint frame 2 in the local frame of body 2's shape object; used when FrameSource "
             "is Placements"),
    )

    def execute(self, obj):
        """Recompute the joint frames from the references (cheap; never simulates)."""
        update_joint_properties(obj)
