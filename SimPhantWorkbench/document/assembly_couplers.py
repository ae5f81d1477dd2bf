"""FreeCAD 1.x Assembly's coupling joints (Gears, Belt, RackPinion, Screw) as SimPhant
couplers (``solver.couplers``).

In an Assembly these joints relate the motion of two parts that other joints already
carry: a gear turns on a revolute joint, a rack slides on a slider joint, a screw's nut on
a cylindrical joint (FreeCAD's own tool tips: "Select the same coordinate systems as the
revolute and sliding joints"). A SimPhant coupler couples those joints, so each coupling
joint is mapped to the imported joints it relies on, found by geometry: a joint of the
right kind on the same part whose axis is the coupling joint's axis (its coordinate
system's z axis through its origin). Where none is found the coupling joint is skipped
with a warning naming it (an error in strict mode); never silently.

==============  ==============================================================
Assembly type   SimPhant coupler
==============  ==============================================================
Gears           gear (opposite senses), Ratio = Distance2 / Distance (radii)
Belt            belt (same sense), Ratio = Distance2 / Distance
RackPinion      rack_pinion, Radius = +-Distance (pitch radius); the rack is the
                part on a slider (or cylindrical) joint, the pinion the part on a
                revolute about the other coordinate system's axis
Screw           screw on the cylindrical joint between the two parts along its
                axis, Lead = Distance (pitch); else lead_screw between the revolute
                joint turning one part about the axis (the screw) and the slider
                joint moving the other along it (the nut), as the Screw's tool tip
                builds it
==============  ==============================================================

Senses, as FreeCAD 1.x's solver (OndselSolver, which ``AssemblyObject.cpp`` gives the
joint's two coordinate systems I and J) has them, each angle about its own coordinate
system's z axis:

* Gears: ``phi_J = -(Distance / Distance2) phi_I``, Belt: ``+(Distance / Distance2)
  phi_I`` (``GearConstraintIJ``: the orbit angles of each centre seen from the other, the
  Belt with ``radiusJ = -Distance2``). With the two z axes parallel the gears turn in
  opposite senses and the belt's wheels in the same sense, as SimPhant's gear and belt;
  with the z axes opposite (a coordinate system picked on the other face) the senses are
  the other way round, and the import takes the other kind.
* RackPinion: ``x + Distance theta = constant`` (``RackPinConstraintIJ``), I on the rack
  with its x axis along the rack's z axis, J the pinion's: for a pinion turning by
  ``theta`` about its z axis the rack moves by ``Distance theta`` along its own z axis,
  whichever side of the pinion it lies on (``getRackPinionMarkers``). SimPhant's rack and
  pinion moves the rack by ``Radius theta`` along the slide axis of its prismatic joint
  (that joint's frame 1) for ``theta`` about the axis of the pinion's revolute (its frame
  on the pinion): ``Radius = Distance * (z_pinion . z_revolute) * (z_rack . z_slide)``.
* Screw: ``2 pi z - Distance theta = constant`` (``ScrewConstraintIJ``, I the sliding
  part's): the relative motion of the two parts is right-handed about either direction
  of the axis, as SimPhant's screw and lead screw with ``Lead = Distance``.
"""
from collections import namedtuple

import FreeCAD

__all__ = ["COUPLER_KIND_MAP", "CouplerPlan", "plan_coupler"]

#: Assembly ``JointType`` -> SimPhant coupler kind (a Screw without a cylindrical joint
#: between its parts becomes a ``lead_screw``)
COUPLER_KIND_MAP = {"Gears": "gear", "Belt": "belt", "RackPinion": "rack_pinion",
                    "Screw": "screw"}

CouplerPlan = namedtuple("CouplerPlan", [
    "source",     # the Assembly joint object
    "kind",       # SimPhant coupler kind
    "joints",     # the JointPlans it couples (1 or 2, in the coupler's order)
    "values",     # the Coupler's properties: {"Ratio": ...} or {"Radius"/"Lead": mm}
])

_MEET_TOL = 1e-3             # mm: an axis through a point
_AXIS_TOL = 1e-9             # 1 - |cos| of parallel axes

_ROTATING = ("revolute", "cylindrical")
_SLIDING = ("prismatic", "cylindrical")


def _z(pl):
    return pl.Rotation.multVec(FreeCAD.Vector(0, 0, 1))


def _on_axis(plan, jcs):
    """Whether ``plan``'s joint axis is the line of ``jcs``'s z axis."""
    z, pz = _z(jcs), _z(plan.jcs1)
    if 1.0 - abs(pz.dot(z)) > _AXIS_TOL:
        return False
    d = jcs.Base - plan.jcs1.Base
    return (d - pz * d.dot(pz)).Length <= _MEET_TOL


def _parts(plan):
    return plan.ref1.part.Name, plan.ref2.part.Name


def _carrying(plans, part, jcs, kinds):
    """The joint plans of ``kinds`` on ``part`` about the axis of ``jcs``."""
    return [p for p in plans if p.kind in kinds and part.Name in _parts(p) and _on_axis(p, jcs)]


def _one(found, what):
    if len(found) != 1:
        return None, ("%s %s" % ("no" if not found else "more than one", what))
    return found[0], None


def _side_frame(plan, part):
    """The world frame of ``plan``'s joint on ``part``'s side."""
    return plan.jcs1 if plan.ref1.part.Name == part.Name else plan.jcs2


def _sign(a, b):
    return 1.0 if a.dot(b) >= 0.0 else -1.0


def plan_coupler(joint, kind, ref1, ref2, jcs1, jcs2, plans):
    """``(CouplerPlan, None)`` of an Assembly coupling joint, or ``(None, reason)``.

    ``plans`` are the JointPlans of the Assembly's other joints; ``jcs1``, ``jcs2`` the
    world coordinate systems of its two sides (mm)."""
    distance = float(getattr(joint, "Distance", 0.0))
    if kind in ("gear", "belt"):
        radius2 = float(getattr(joint, "Distance2", 0.0))
        if not (distance > 0.0 and radius2 > 0.0):
            return None, ("its radii must be positive (Distance = %g mm, Distance2 = %g mm)"
                          % (distance, radius2))
        found = []
        for ref, jcs in ((ref1, jcs1), (ref2, jcs2)):
            j, reason = _one(_carrying(plans, ref.part, jcs, _ROTATING),
                             "revolute or cylindrical joint carries part '%s' about the "
                             "gear's axis" % ref.part.Label)
            if j is None:
                return None, reason
            found.append(j)
        if _z(jcs1).dot(_z(jcs2)) < 0.0:        # axes picked opposite: the other sense
            kind = {"gear": "belt", "belt": "gear"}[kind]
        return CouplerPlan(joint, kind, found, {"Ratio": radius2 / distance}), None
    if distance == 0.0:
        return None, "its %s is 0" % ("pitch radius" if kind == "rack_pinion" else "pitch")
    if kind == "screw":
        both = [p for p in _carrying(plans, ref1.part, jcs1, ("cylindrical",))
                if set(_parts(p)) == {ref1.part.Name, ref2.part.Name}]
        j, reason = _one(both, "cylindrical joint joins parts '%s' and '%s' along the screw's "
                         "axis" % (ref1.part.Label, ref2.part.Label))
        if j is not None:
            return CouplerPlan(joint, kind, [j], {"Lead": distance}), None
        if both:
            return None, reason
        # a lead screw, as the Screw's tool tip has it: one part turning on a revolute, the
        # other sliding along the axis
        for screw, js, nut, jn in ((ref1, jcs1, ref2, jcs2), (ref2, jcs2, ref1, jcs1)):
            turns = _carrying(plans, screw.part, js, ("revolute",))
            slides = _carrying(plans, nut.part, jn, ("prismatic",))
            if len(turns) == 1 and len(slides) == 1:
                return CouplerPlan(joint, "lead_screw", [turns[0], slides[0]],
                                   {"Lead": distance}), None
        return None, (reason + ", nor does a revolute joint turn one of them about it with a "
                      "slider joint moving the other along it")
    for rack, jr, pinion, jp in ((ref1, jcs1, ref2, jcs2), (ref2, jcs2, ref1, jcs1)):
        slides = [p for p in plans if p.kind in _SLIDING and rack.part.Name in _parts(p)
                  and 1.0 - abs(_z(p.jcs1).dot(_z(jr))) <= _AXIS_TOL]
        turns = _carrying(plans, pinion.part, jp, ("revolute",))
        if len(slides) == 1 and len(turns) == 1:
            sense = (_sign(_z(jp), _z(_side_frame(turns[0], pinion.part)))
                     * _sign(_z(jr), _z(slides[0].jcs1)))
            return CouplerPlan(joint, kind, [turns[0], slides[0]],
                               {"Radius": sense * distance}), None
    return None, ("no revolute joint carries one of its parts about its axis with a slider "
                  "joint carrying the other along the rack")
