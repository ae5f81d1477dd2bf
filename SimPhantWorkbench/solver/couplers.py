"""Couplers: constraints between the coordinates of two joints (gears, belts, racks and
pinions, screws; Haug 1989 ch. 9; docs/theory.md, "Couplers").

A coupler is one constraint row in a block of its own between two bodies, like a
joint, from one of two primitives (``joints``, evaluated in ``kernels``):

``GEAR``    ``Phi = wrap(c1 psi_i + c2 psi_j - c0)``, ``psi_b = atan2(d . y_b, d . x_b)``
            the angle of the centre line ``d = P_j - P_i`` in the plane of gear ``b``
            (its joint frame: z = its axis). Measured from the centre line, the pitch
            circles roll on each other whether the centres are fixed or orbit (a
            planet carrier needs no row of its own).
``ASLIDE``  ``Phi = wrap(c1 theta + c2 s - c0)``, ``theta`` the angle of ``x_j`` about
            ``z_i`` (the ``ANGLE`` primitive) and ``s = a_i . d`` (``DOT2`` along axis
            ``a`` of frame i: x for a rack, z for a screw).

``wrap`` maps to (-pi, pi]: the angles are measured modulo 2 pi, so the coefficient
``c1`` of an angle is a whole number (a tooth count); a gear ratio ``N2/N1`` is kept as
the fraction ``p/q`` (``c1 = q = N1``, ``c2 = +-p = N2``): ``Phi`` is the mesh phase
(one tooth = 2 pi), continuous over any number of turns. ``c0`` makes ``Phi = 0`` at
the geometry of t0.

Adding a coupler kind means adding one ``CouplerSpec`` here: ``Model.add_coupler``,
the solver arrays, the document objects and the tests read ``COUPLER_TYPES``.
"""
import math
from collections import OrderedDict, namedtuple
from fractions import Fraction

import numpy as np

from .errors import ModelError
from .joints import PRIM_ASLIDE, PRIM_GEAR, X, Z

__all__ = ["CouplerSpec", "COUPLER_TYPES", "coupler_spec", "coupler_kinds", "Coupler",
           "make_coupler", "MAX_TEETH"]

#: largest denominator of a gear ratio (the tooth count of the first gear): the mesh
#: phase of a pair with ``N1`` teeth on gear 1 repeats every 2 pi / N1 of its turn
MAX_TEETH = 10000
#: relative tolerance of a ratio against the nearest fraction with ``MAX_TEETH``
RATIO_TOL = 1e-9
#: |cos| between two axes that must be parallel (or normal: |cos| below 1 - this)
AXIS_TOL = 1e-6

CouplerSpec = namedtuple("CouplerSpec", [
    "name",       # persisted identifier (stored in documents: never rename)
    "label",      # UI text
    "prim",       # its row primitive (joints.PRIM_GEAR or PRIM_ASLIDE)
    "joints",     # per coupled joint, the joint kinds it accepts (1 or 2 joints)
    "param",      # its parameter: "ratio" (N2/N1), "radius" [m] or "lead" [m]
    "doc",        # one-line description (tooltip)
    "icon",       # icon file name in resources/icons
])

_ROTATING = ("revolute", "cylindrical")
_SLIDING = ("prismatic", "cylindrical")

COUPLER_TYPES = OrderedDict((s.name, s) for s in [
    CouplerSpec("gear", "Gear pair", PRIM_GEAR, (_ROTATING, _ROTATING), "ratio",
                "External gear pair: the gears turn in opposite senses, gear 2 at 1/ratio "
                "of gear 1's rate (ratio = N2/N1, tooth counts or pitch radii)",
                "Coupler_Gear.svg"),
    CouplerSpec("belt", "Belt / chain / internal gear", PRIM_GEAR, (_ROTATING, _ROTATING),
                "ratio", "Belt, chain or internal gear: the two wheels turn in the same "
                "sense, wheel 2 at 1/ratio of wheel 1's rate (ratio = N2/N1 or r2/r1)", "Coupler_Belt.svg"),
    CouplerSpec("rack_pinion", "Rack and pinion", PRIM_ASLIDE, (_ROTATING, _SLIDING), "radius",
                "Pinion (joint 1) on a rack (joint 2): the pinion turns by s / radius "
                "about its joint axis as the rack moves by s along its joint axis (pitch "
                "radius [m]; its sign sets the sense)",
                "Coupler_RackPinion.svg"),
    CouplerSpec("screw", "Screw", PRIM_ASLIDE, (_ROTATING + ("prismatic",),), "lead",
                "Screw along one cylindrical joint: body 2 advances by lead per turn "
                "about the joint axis (lead [m]; negative: left-handed)", "Coupler_Screw.svg"),
    CouplerSpec("lead_screw", "Lead screw", PRIM_ASLIDE, (_ROTATING, _SLIDING), "lead",
                "Screw on a revolute joint (joint 1) driving a nut on a slider joint along its "
                "axis (joint 2): the nut advances by lead per turn of the screw relative to it "
                "(lead [m]; negative: left-handed)", "Coupler_LeadScrew.svg"),
])


def coupler_kinds():
    return list(COUPLER_TYPES)


def coupler_spec(kind):
    try:
        return COUPLER_TYPES[kind]
    except (KeyError, TypeError):
        raise ModelError("unknown coupler kind %r; valid kinds: %s"
                         % (kind, ", ".join(COUPLER_TYPES))) from None


class Coupler:
    """A coupler (``Model.add_coupler``): one row between ``body1`` (side i) and
    ``body2`` (side j) with the frames (world, at t0) and coefficients of its primitive."""

    length = None

    def __init__(self, model, name, kind, joints, value, body1, body2, frame1, frame2,
                 coefficients, axis):
        self.model = model
        self.name = name
        self.kind = kind
        self.joints = list(joints)
        self.value = float(value)       # ratio, radius or lead as given
        self.body1 = body1
        self.body2 = body2
        self.frame1 = frame1
        self.frame2 = frame2
        #: (c1, c2, c0) of the row (module docstring)
        self.coefficients = tuple(float(c) for c in coefficients)
        self.axis = axis                # frame-i axis of an ASLIDE row's slide
        self.index = None

    @property
    def spec(self):
        return COUPLER_TYPES[self.kind]

    @property
    def rows(self):
        return ((self.spec.prim, self.axis, 0),)

    def __repr__(self):
        return "<Coupler %r %s: %s>" % (self.name, self.kind,
                                        ", ".join(j.name for j in self.joints))


def _wrap(a):
    return a - 2.0 * math.pi * math.floor(a / (2.0 * math.pi) + 0.5)


def _gear_side(joint, other):
    """The body of ``joint`` that is the gear: the side ``other`` does not share, else
    the moving side when the other is ground, else body 2; and its frame."""
    sides = ((joint.body1, joint.frame1), (joint.body2, joint.frame2))
    shared = [b for b in (other.body1, other.body2)] if other is not None else []
    free = [s for s in sides if s[0] not in shared]
    if len(free) == 1:
        return free[0]
    moving = [s for s in sides if not s[0].is_ground]
    return moving[0] if len(moving) == 1 else sides[1]


def _center_angles(f1, f2):
    """``psi_i, psi_j`` of the ``GEAR`` primitive at frames ``f1``, ``f2`` (world)."""
    d = f2[0] - f1[0]
    return tuple(math.atan2(d @ R[:, 1], d @ R[:, 0]) for R in (f1[1], f2[1]))


def _ratio_fraction(ratio, what):
    frac = Fraction(ratio).limit_denominator(MAX_TEETH)
    if frac <= 0 or abs(float(frac) - ratio) > RATIO_TOL * ratio:
        raise ModelError("%s: the ratio %r is not a ratio of whole numbers (tooth counts) "
                         "with at most %d teeth on gear 1; give N2/N1"
                         % (what, ratio, MAX_TEETH))
    return frac.numerator, frac.denominator


def _gear(kind, what, j1, j2, ratio, scale):
    b1, f1 = _gear_side(j1, j2)
    b2, f2 = _gear_side(j2, j1)
    if b1 is b2:
        raise ModelError("%s: joints %r and %r turn the same body %r; a gear pair "
                         "couples two bodies" % (what, j1.name, j2.name, b1.name))
    z1, z2 = f1[1][:, 2], f2[1][:, 2]
    cos = float(z1 @ z2)
    if abs(cos) < 1.0 - AXIS_TOL:
        raise ModelError("%s: the axes of joints %r and %r are not parallel (angle %.3g "
                         "degrees)" % (what, j1.name, j2.name,
                                       math.degrees(math.acos(max(-1.0, min(1.0, cos))))))
    d = f2[0] - f1[0]
    if np.linalg.norm(d - (d @ z1) * z1) <= 1e-9 * scale:
        raise ModelError("%s: the axes of joints %r and %r coincide; a gear pair needs "
                         "two distinct centres" % (what, j1.name, j2.name))
    p, q = _ratio_fraction(ratio, what)
    sense = 1.0 if kind == "gear" else -1.0
    c1, c2 = float(q), sense * math.copysign(1.0, cos) * p
    psi = _center_angles(f1, f2)
    return b1, b2, f1, f2, (c1, c2, _wrap(c1 * psi[0] + c2 * psi[1])), 0


def _aslide_c0(f1, f2, axis, c1, c2):
    R1, R2 = f1[1], f2[1]
    x2 = R2[:, 0]
    theta = math.atan2(x2 @ R1[:, 1], x2 @ R1[:, 0])
    return _wrap(c1 * theta + c2 * (R1[:, axis] @ (f2[0] - f1[0])))


def _rack_pinion(what, pinion, rack, radius):
    bp, fp = _gear_side(pinion, rack)
    br, fr = _gear_side(rack, pinion)
    if bp is br:
        raise ModelError("%s: joints %r and %r move the same body %r"
                         % (what, pinion.name, rack.name, bp.name))
    z = fp[1][:, 2]
    x = rack.frame1[1][:, 2]
    if abs(float(x @ z)) > AXIS_TOL:
        raise ModelError("%s: the rack's slide (joint %r) is not normal to the pinion's "
                         "axis (joint %r)" % (what, rack.name, pinion.name))
    R = np.column_stack([x, np.cross(z, x), z])
    fr = (np.array(fr[0], dtype=float), R)
    c1, c2 = 1.0, 1.0 / radius
    return br, bp, fr, fp, (c1, c2, _aslide_c0(fr, fp, X, c1, c2)), X


def _screw(what, joint, lead):
    f1, f2 = joint.frame1, joint.frame2
    return joint.body1, joint.body2, f1, f2, _screw_law(f1, f2, lead), Z


def _screw_law(fi, fj, lead):
    """``(c1, c2, c0)`` of a right-handed screw between frames i and j: the angle of j
    about their z axis minus 2 pi times the slide along it per ``lead``."""
    c1, c2 = 1.0, -2.0 * math.pi / lead
    return c1, c2, _aslide_c0(fi, fj, Z, c1, c2)


def _lead_screw(what, screw, nut, lead):
    """The screw's body and frame (side j) and the nut's (side i), frame i's z along the
    nut's slide (its joint's frame 1): ``theta - 2 pi s / lead`` of the screw relative to the
    nut, right-handed about either direction of the axis, as the one-joint screw."""
    bs, fs = _gear_side(screw, nut)
    bn, fn = _gear_side(nut, screw)
    if bs is bn:
        raise ModelError("%s: joints %r and %r move the same body %r"
                         % (what, screw.name, nut.name, bs.name))
    z = nut.frame1[1][:, 2]
    if abs(float(fs[1][:, 2] @ z)) < 1.0 - AXIS_TOL:
        raise ModelError("%s: the nut's slide (joint %r) is not along the screw's axis "
                         "(joint %r)" % (what, nut.name, screw.name))
    x = fn[1][:, 0] - (fn[1][:, 0] @ z) * z
    if np.linalg.norm(x) < 0.5:
        x = fn[1][:, 1] - (fn[1][:, 1] @ z) * z
    x = x / np.linalg.norm(x)
    fi = (np.array(fn[0], dtype=float), np.column_stack([x, np.cross(z, x), z]))
    return bn, bs, fi, fs, _screw_law(fi, fs, lead), Z


def make_coupler(model, kind, joints, value, name, scale):
    """The ``Coupler`` of ``Model.add_coupler`` (checked; ``ModelError`` naming it)."""
    spec = coupler_spec(kind)
    what = "coupler %r (%s)" % (name, spec.name)
    if len(joints) != len(spec.joints):
        raise ModelError("%s: couples %d joint(s), got %d"
                         % (what, len(spec.joints), len(joints)))
    for j, kinds in zip(joints, spec.joints):
        if j.kind not in kinds:
            raise ModelError("%s: joint %r is %s; this coupler needs a %s joint there"
                             % (what, j.name, j.kind, " or ".join(kinds)))
    if len(joints) == 2 and joints[0] is joints[1]:
        raise ModelError("%s: couples joint %r with itself" % (what, joints[0].name))
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
            or not math.isfinite(value) or value == 0.0 or (spec.param == "ratio" and value < 0):
        raise ModelError("%s: %s must be a finite %s number, got %r"
                         % (what, spec.param, "positive" if spec.param == "ratio" else "non-zero",
                            value))
    value = float(value)
    if spec.name in ("gear", "belt"):
        parts = _gear(spec.name, what, joints[0], joints[1], value, scale)
    elif spec.name == "rack_pinion":
        parts = _rack_pinion(what, joints[0], joints[1], value)
    elif spec.name == "lead_screw":
        parts = _lead_screw(what, joints[0], joints[1], value)
    else:
        parts = _screw(what, joints[0], value)
    b1, b2, f1, f2, coef, axis = parts
    return Coupler(model, name, spec.name, joints, value, b1, b2, f1, f2, coef, axis)
