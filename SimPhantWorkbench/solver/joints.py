"""Joint registry: every joint kind is a list of primitive constraint rows.

A joint connects body *i* (``body1``) and body *j* (``body2``). Each side carries
one joint frame fixed in its body: an anchor point ``P`` and three unit axes
``x, y, z`` (for an assembled joint the two frames coincide at t0). Every
kinematic joint is a stack of four scalar primitives (Haug 1989, ch. 9;
Nikravesh 1988, ch. 7; docs/theory.md), whose
``Phi``, Jacobian and ``gamma`` are implemented once, in ``kernels.constraint_rows``:

``POINT c``   ``Phi = (P_i - P_j)_c``                     (spherical rows)
``DOT1 a b``  ``Phi = a_i . b_j - c``   a, b frame axes    (dot-1; ``c = cos(theta)`` of an
              ``angle`` joint's angle, 0 for every other kind)
``DOT2 a``    ``Phi = a_i . d``,    ``d = P_j - P_i``      (dot-2)
``DIST``      ``Phi = (d . d - L^2) / (2 L)``              (distance, ADAMS GCON DM)
``ANGLE``     ``Phi = atan2(x_j . y_i, x_j . x_i)``       (relative angle about z_i;
              only as a driver row, see ``drivers``, which subtracts theta_d(t))
``DIR b``     ``Phi = b_j . c(t)``, ``c = A_i u(t)``       (direction driver row: a
              time-varying unit vector u(t) of body i's driver frame normal to
              frame axis b of body j; only as a driver row, see ``drivers``)
``GEAR``      ``Phi = wrap(c1 psi_i + c2 psi_j - c0)``, ``psi_b = atan2(d . y_b, d . x_b)``
              (gear pairs and belts; only as a coupler row, see ``couplers``)
``ASLIDE a``  ``Phi = wrap(c1 theta + c2 a_i . d - c0)``, theta as ``ANGLE`` (racks and
              screws; only as a coupler row, see ``couplers``)

Axes are indexed 0 = x, 1 = y, 2 = z of the joint frame of that side. Adding a
joint kind means adding one ``JointSpec`` here; the solver dispatch, the
FreeCAD property enumeration, the GUI command list and the parametrised tests
all read ``JOINT_TYPES``.
"""
import math
from collections import OrderedDict, namedtuple

from .errors import ModelError

__all__ = ["PRIM_POINT", "PRIM_DOT1", "PRIM_DOT2", "PRIM_DIST", "PRIM_ANGLE", "PRIM_DIR",
           "PRIM_GEAR", "PRIM_ASLIDE", "PRIM_PAD",
           "ROTATION_PRIMS", "ANGULAR_PRIMS", "JointSpec", "NEEDS", "ANGLE_MARGIN",
           "check_joint_angle",
           "JOINT_TYPES", "joint_spec", "joint_kinds"]

PRIM_POINT = 0
PRIM_DOT1 = 1
PRIM_DOT2 = 2
PRIM_DIST = 3
PRIM_ANGLE = 4   # driver row: relative rotation about z_i (drivers.DRIVER_TYPES)
PRIM_DIR = 5     # driver row: body j axis normal to a prescribed direction u(t) of body i
PRIM_GEAR = 6    # coupler row: gear mesh phase (couplers.COUPLER_TYPES)
PRIM_ASLIDE = 7  # coupler row: rotation angle + slide (rack and pinion, screw)
PRIM_PAD = -1    # padding row of a fixed-size joint block (no constraint)

X, Y, Z = 0, 1, 2

#: primitives without translational columns whose residual is an angle [rad]
ROTATION_PRIMS = (PRIM_DOT1, PRIM_ANGLE, PRIM_DIR)
#: primitives whose residual is an angle [rad] (with or without translational columns)
ANGULAR_PRIMS = ROTATION_PRIMS + (PRIM_GEAR, PRIM_ASLIDE)

JointSpec = namedtuple("JointSpec", [
    "name",        # persisted identifier (stored in documents: never rename)
    "label",       # UI text
    "rows",        # tuple of (primitive, axis_i, axis_j)
    "needs",       # geometry the kind needs: subset of {"axis", "axis2", "point2"}
    "doc",         # one-line description (tooltip)
    "icon",        # icon file name in resources/icons
])

#: ``needs`` entries: "axis" the joint z axis (side 1; side 2 too unless "axis2"),
#: "axis2" a second axis on side 2 (the universal joint's cross axis y, else side 2's
#: z axis), "point2" a point of body 2 apart from side 1's (the joint keeps a length),
#: "angle" the joint keeps an angle between the z axes of its two sides (a parameter
#: of the joint; its DOT1 row subtracts its cosine)
NEEDS = ("axis", "axis2", "point2", "angle")

#: an ``angle`` joint's angle must lie this far [rad] inside (0, pi): at 0 and pi its
#: row's gradient (the sine) vanishes; there the ``parallel`` kind holds the axes
ANGLE_MARGIN = math.radians(1.0)

_POINT = ((PRIM_POINT, X, 0), (PRIM_POINT, Y, 0), (PRIM_POINT, Z, 0))
_ALIGN_Z = ((PRIM_DOT1, Z, X), (PRIM_DOT1, Z, Y))      # z_i parallel to z_j
_NO_TWIST = ((PRIM_DOT1, X, Y),)                        # x_i perpendicular to y_j

JOINT_TYPES = OrderedDict((s.name, s) for s in [
    JointSpec("fixed", "Fixed", _POINT + _ALIGN_Z + _NO_TWIST, (),
              "Welds the two bodies together (removes 6 DOF)", "Joint_Fixed.svg"),
    JointSpec("revolute", "Revolute", _POINT + _ALIGN_Z, ("axis",),
              "Hinge: rotation about the joint z axis (removes 5 DOF)", "Joint_Revolute.svg"),
    JointSpec("prismatic", "Prismatic", _ALIGN_Z + _NO_TWIST + ((PRIM_DOT2, X, 0), (PRIM_DOT2, Y, 0)),
              ("axis",), "Slider: translation along the joint z axis (removes 5 DOF)",
              "Joint_Prismatic.svg"),
    JointSpec("cylindrical", "Cylindrical", _ALIGN_Z + ((PRIM_DOT2, X, 0), (PRIM_DOT2, Y, 0)),
              ("axis",), "Rotation about and translation along the joint z axis (removes 4 DOF)",
              "Joint_Cylindrical.svg"),
    JointSpec("spherical", "Spherical", _POINT, (),
              "Ball joint: the two anchor points coincide (removes 3 DOF)", "Joint_Spherical.svg"),
    JointSpec("planar", "Planar", _ALIGN_Z + ((PRIM_DOT2, Z, 0),), ("axis",),
              "Body 2 slides on the plane normal to the joint z axis (removes 3 DOF)",
              "Joint_Planar.svg"),
    JointSpec("universal", "Universal", _POINT + ((PRIM_DOT1, X, Y),), ("axis", "axis2"),
              "Cardan joint: cross axes x (body 1) and y (body 2) stay perpendicular "
              "(removes 4 DOF)", "Joint_Universal.svg"),
    JointSpec("distance", "Distance", ((PRIM_DIST, 0, 0),), ("point2",),
              "Keeps the distance between two points constant (removes 1 DOF)",
              "Joint_Distance.svg"),
    JointSpec("revolute_spherical", "Revolute-spherical", ((PRIM_DOT2, Z, 0), (PRIM_DIST, 0, 0)),
              ("axis", "point2"),
              "Point of body 2 on a circle about the joint z axis of body 1 (removes 2 DOF)",
              "Joint_RevoluteSpherical.svg"),
    JointSpec("parallel", "Parallel", _ALIGN_Z, ("axis",),
              "The joint z axes of the two bodies stay parallel (removes 2 DOF)",
              "Joint_Parallel.svg"),
    JointSpec("perpendicular", "Perpendicular", ((PRIM_DOT1, Z, Z),), ("axis", "axis2"),
              "The joint z axes of the two bodies stay perpendicular (removes 1 DOF)",
              "Joint_Perpendicular.svg"),
    JointSpec("angle", "Angle", ((PRIM_DOT1, Z, Z),), ("axis", "axis2", "angle"),
              "The joint z axes of the two bodies keep a constant angle (removes 1 DOF)",
              "Joint_Angle.svg"),
])


def check_joint_angle(angle, what):
    """``angle`` [rad] as a float if an ``angle`` joint can hold it, else ``ModelError``
    naming ``what``: finite and at least ``ANGLE_MARGIN`` inside (0, pi)."""
    try:
        a = float(angle)
    except (TypeError, ValueError):
        raise ModelError("%s: angle must be a number [rad], got %r" % (what, angle)) from None
    if not (math.isfinite(a) and ANGLE_MARGIN <= a <= math.pi - ANGLE_MARGIN):
        raise ModelError("%s: angle %.4g deg is not between %g and %g deg; an angle joint "
                         "cannot hold axes (nearly) parallel or anti-parallel (its row is "
                         "singular there): use a parallel joint"
                         % (what, math.degrees(a), math.degrees(ANGLE_MARGIN),
                            180.0 - math.degrees(ANGLE_MARGIN)))
    return a


def joint_kinds():
    """Names of all registered joint kinds, in registry order."""
    return list(JOINT_TYPES)


def joint_spec(kind):
    """The ``JointSpec`` of ``kind``; ``ModelError`` (a ValueError) listing the valid kinds otherwise."""
    try:
        return JOINT_TYPES[kind]
    except (KeyError, TypeError):
        raise ModelError("unknown joint kind %r; valid kinds: %s"
                         % (kind, ", ".join(JOINT_TYPES))) from None
