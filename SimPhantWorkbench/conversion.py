"""THE document -> solver conversion (the one place where units and conventions change).

FreeCAD side: lengths in mm, angles in degrees, ``FreeCAD.Rotation`` with
quaternion ``.Q = (x, y, z, w)``, Quantity properties with units, placements
relative to the parent container. Solver side: SI (m, kg, s, N, rad), world
coordinates, quaternions scalar first ``(w, x, y, z)``.

Conventions fixed here:

* A body's own frame is the global placement of its shape object; the solver
  body is given that orientation, its CoG position and its inertia tensor about
  the CoG in world axes. ``c_local`` (the CoG in the object's frame, mm) ties
  the two: ``object base = r_cog - A c_local``.
* Joint frames come from the picked references (``references.reference_frame``);
  side 2's z axis is aligned with side 1's when they are anti-parallel. A joint
  whose ``FrameSource`` is ``"Placements"`` gives its frames explicitly instead
  (``Placement1``/``Placement2``, each in its body's shape-object frame), used
  as they are.
* Solver entities are named after the document objects' Labels (made unique
  with the object Name when Labels collide), so solver messages name them.

``convert(study)`` returns a ``Conversion`` holding the solver ``Model`` and
the mappings between document objects and solver bodies, joints and loads.
"""
import contextlib
import math
from collections import namedtuple

import numpy as np

import FreeCAD

from .massprops import M_PER_MM, ancestors, container_placement
from .objects.base import is_type
from .objects.study import (find_study, study_bodies, study_joints, study_loads,
                            study_members)
from .solver import JOINT_TYPES, Model, ModelError
from .solver.expressions import TimeFunction, format_vector_function
from .solver.rotations import matrix_to_quat, orthonormal_frame, quat_to_matrix

__all__ = [
    "M_PER_MM", "quantity_si", "vector_array", "rotation_to_quat", "quat_to_rotation",
    "rotation_to_matrix", "matrix_to_rotation", "placement_to_frame", "frame_to_placement",
    "container_placement", "global_placement", "parse_time_function", "format_vector_function",
    "BodyData", "body_data", "reused_body_data", "ancestors", "body_of_object", "reference_of", "JointData",
    "joint_data", "frame_source",
    "joint_local_frames", "update_body_properties", "update_joint_properties", "gravity_vector",
    "simulation_settings", "analysis_mode", "check_enumerations", "Conversion", "convert",
    "FORCE_UNITS", "force_geometry", "force_element_params", "driver_data", "driver_motion",
    "solver_names",
]

KG_M2_TO_KG_MM2 = 1e6
#: largest load magnitude accepted [N or N m]: far beyond any machine, well inside the
#: floating-point range the integration needs
MAX_LOAD = 1e30
_PARALLEL_TOL = 1e-6     # 1 - |cos| below which two axes count as parallel


# ============================================================================ units, frames

def quantity_si(value, unit):
    """A Quantity (or a number already in ``unit``, or a text like "2 s") as float in ``unit``."""
    if isinstance(value, str):
        value = FreeCAD.Units.Quantity(value)
    if hasattr(value, "getValueAs"):
        v = value.getValueAs(unit)
        return float(getattr(v, "Value", v))
    return float(value)


def vector_array(v):
    """A ``FreeCAD.Vector`` (or 3-sequence) as a float array (3,), unit unchanged."""
    return np.array([v[0], v[1], v[2]], dtype=float)


def rotation_to_quat(rot):
    """``FreeCAD.Rotation`` -> solver quaternion ``(w, x, y, z)``."""
    x, y, z, w = rot.Q
    return np.array([w, x, y, z], dtype=float)


def quat_to_rotation(q):
    """Solver quaternion ``(w, x, y, z)`` -> ``FreeCAD.Rotation``."""
    w, x, y, z = (float(c) for c in q)
    return FreeCAD.Rotation(x, y, z, w)


def rotation_to_matrix(rot):
    """``FreeCAD.Rotation`` -> 3x3 rotation matrix (columns: the rotated x, y, z axes)."""
    return quat_to_matrix(rotation_to_quat(rot))


def matrix_to_rotation(A):
    """3x3 rotation matrix -> ``FreeCAD.Rotation``."""
    return quat_to_rotation(matrix_to_quat(np.asarray(A, dtype=float)))


def placement_to_frame(pl):
    """``FreeCAD.Placement`` (mm) -> (origin [m] (3,), rotation matrix (3, 3))."""
    return vector_array(pl.Base) * M_PER_MM, rotation_to_matrix(pl.Rotation)


def frame_to_placement(point_m, R):
    """(origin [m], rotation matrix) -> ``FreeCAD.Placement`` (mm)."""
    p = np.asarray(point_m, dtype=float) / M_PER_MM
    return FreeCAD.Placement(FreeCAD.Vector(*p), matrix_to_rotation(R))


def global_placement(obj):
    """Global placement of a shape object (Part feature, PartDesign Body, App::Part, App::Link)."""
    return container_placement(obj).multiply(obj.Placement)


# ============================================================================ time functions

# The expression language of time functions lives in the pure solver package
# (``solver.expressions``), so a converted model pickles (the function travels
# as its text) and runs where FreeCAD is not installed.

def parse_time_function(text, what):
    """Compile a vector expression of time ``t`` [s] into ``f(t) -> (3,) array``.

    See ``solver.expressions.TimeFunction`` (three comma-separated components,
    numbers, ``t``, arithmetic and math functions; checked at t = 0). The
    result pickles as its text.
    """
    return TimeFunction(text, what)


# ============================================================================ bodies

BodyData = namedtuple("BodyData", [
    "obj",          # the SimPhant Body object
    "shape",        # its shape object
    "fixed",        # bool
    "mass_props",   # massprops.MassProperties (SI, world)
    "placement",    # global placement of the shape object (mm)
    "frame",        # (origin m, rotation 3x3) of the body's own frame, world
    "cog_local",    # (3,) CoG in the shape object's frame [mm]
    "velocity",     # (3,) m/s, world
    "omega",        # (3,) rad/s, world
])


def _label(obj):
    return "%s '%s'" % (_kind_word(obj), obj.Label)


def _kind_word(obj):
    for t, word in (("SimPhant::Body", "Body"), ("SimPhant::Joint", "Joint"),
                    ("SimPhant::Force", "Force"), ("SimPhant::Torque", "Torque"),
                    ("SimPhant::Driver", "Driver"),
                    ("SimPhant::Study", "Study"), ("SimPhant::Result", "Result")):
        if is_type(obj, t):
            return word
    return "Object"


def _body_mass_properties(body):
    """Mass properties of a Body's shape object (MassOverride > Density > material > default)."""
    from . import massprops
    shape = body.ShapeObject
    if shape is None:
        raise ModelError("%s has no shape object" % _label(body))
    mass = float(body.MassOverride) if body.MassOverride > 0.0 else None
    density = float(body.Density) if body.Density > 0.0 else None
    if body.MassOverride < 0.0 or not math.isfinite(body.MassOverride):
        raise ModelError("%s: MassOverride must be >= 0 kg, got %r" % (_label(body),
                                                                        body.MassOverride))
    if body.Density < 0.0 or not math.isfinite(body.Density):
        raise ModelError("%s: Density must be >= 0 kg/m^3, got %r" % (_label(body), body.Density))
    try:
        mp = massprops.mass_properties(shape, density=density, mass=mass)
    except ModelError as exc:
        raise ModelError("%s: %s" % (_label(body), exc)) from None
    except Exception as exc:  # noqa: BLE001 - FreeCAD/OCC failures on odd objects
        raise ModelError("%s: cannot compute the mass properties of '%s': %s"
                         % (_label(body), shape.Label, exc)) from None
    return mp


def _warn_default_density(body, mp):
    if mp.density_source == "default":
        FreeCAD.Console.PrintWarning(
            "SimPhant: %s: '%s' has no material and the body no Density; using the default "
            "density %g kg/m^3 (mass %.6g kg). Set the body's Density or MassOverride.\n"
            % (_label(body), body.ShapeObject.Label, mp.density, mp.mass))


#: ``{body Name: BodyData}`` while ``reused_body_data`` is active, else None
_BODY_DATA = [None]


@contextlib.contextmanager
def reused_body_data():
    """Within the block ``body_data`` evaluates each Body once (its mass properties
    integrate the solids: milliseconds per body), for work that reads bodies
    repeatedly from a document it does not change (the viewer's scene)."""
    outer = _BODY_DATA[0]
    if outer is None:
        _BODY_DATA[0] = {}
    try:
        yield
    finally:
        if outer is None:
            _BODY_DATA[0] = None


def body_data(body, warn=True):
    """Evaluate a SimPhant Body object (fresh mass properties and placement; inside
    ``reused_body_data`` once per body).

    A fixed body needs no mass: when its object has no solid (a datum, a
    sketch used as ground) ``mass_props`` and ``cog_local`` are ``None``.
    """
    memo = _BODY_DATA[0]
    if memo is not None:
        if body.Name not in memo:
            memo[body.Name] = _evaluate_body(body, warn)
        return memo[body.Name]
    return _evaluate_body(body, warn)


def _evaluate_body(body, warn):
    shape = body.ShapeObject
    if shape is None:
        raise ModelError("%s has no shape object" % _label(body))
    pl = global_placement(shape)
    if not all(math.isfinite(x) for x in tuple(pl.Base) + tuple(pl.Rotation.Q)):
        raise ModelError("%s: the placement of '%s' is not finite (NaN or Inf): %s"
                         % (_label(body), shape.Label, pl))
    for prop in ("InitialVelocity", "InitialAngularVelocity"):
        if not all(math.isfinite(x) for x in getattr(body, prop)):
            raise ModelError("%s: %s must be finite, got %s"
                             % (_label(body), prop, tuple(getattr(body, prop))))
    try:
        mp = _body_mass_properties(body)
    except ModelError:
        if not body.Fixed:
            raise
        mp = None
    if warn and mp is not None and not body.Fixed:
        _warn_default_density(body, mp)
    origin, R = placement_to_frame(pl)
    cog_local = None if mp is None \
        else R.T @ (np.asarray(mp.cog, dtype=float) - origin) / M_PER_MM
    v = vector_array(body.InitialVelocity) * M_PER_MM
    w = np.radians(vector_array(body.InitialAngularVelocity))
    return BodyData(body, shape, bool(body.Fixed), mp, pl, (origin, R), cog_local, v, w)


def update_body_properties(body):
    """Refresh a Body's read-only mass properties (its ``execute``)."""
    bd = body_data(body, warn=True)
    mp = bd.mass_props
    if mp is None:  # a fixed body without solid: no mass needed
        body.Mass = 0.0
        body.Volume = 0.0
        body.DensityUsed = 0.0
        body.DensitySource = "none (fixed body without solid)"
        return
    body.Mass = float(mp.mass)
    body.Volume = float(mp.volume) / M_PER_MM ** 3
    body.DensityUsed = float(mp.density)
    body.DensitySource = str(mp.density_source)
    body.CoG = FreeCAD.Vector(*(np.asarray(mp.cog) / M_PER_MM))
    body.PrincipalMoments = FreeCAD.Vector(*(np.asarray(mp.principal_moments) * KG_M2_TO_KG_MM2))
    body.PrincipalAxes = matrix_to_rotation(mp.principal_axes)


def body_of_object(bodies, obj):
    """The Body (of ``bodies``) whose shape object is ``obj`` or contains it, else ``None``."""
    if obj is None:
        return None
    chain = [obj] + ancestors(obj)
    for candidate in chain:
        for b in bodies:
            if b.ShapeObject is not None and b.ShapeObject == candidate:
                return b
    return None


# ============================================================================ joints

def reference_of(value):
    """Normalise an XLinkSub value to ``(obj, subname)`` or ``None`` when empty."""
    if not value:
        return None
    obj, subs = value[0], value[1] if len(value) > 1 else ""
    if obj is None:
        return None
    if isinstance(subs, (list, tuple)):
        subs = [s for s in subs if s]
        if len(subs) > 1:
            raise ModelError("'%s': pick one element, not %d (%s)"
                             % (obj.Label, len(subs), ", ".join(subs)))
        subs = subs[0] if subs else ""
    return obj, subs


JointData = namedtuple("JointData", [
    "obj",       # the SimPhant Joint object
    "kind",      # registry name
    "body1",     # SimPhant Body objects of side 1 and 2
    "body2",
    "frame1",    # (point m, R 3x3) world, t0
    "frame2",
    "point2",    # point of body 2 [m] (distance-type joints) or None
    "length",    # kept distance [m] or None
])


def _side_reference(joint, which, bodies, empty_hint):
    """(what, body, obj, subname) of one side of a joint: the reference in
    property ``which`` and the study Body it lies on (errors name the joint)."""
    what = "%s: %s" % (_label(joint), which)
    try:
        ref = reference_of(getattr(joint, which))
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    if ref is None:
        raise ModelError("%s is empty: %s" % (what, empty_hint))
    obj, sub = ref
    body = body_of_object(bodies, obj)
    if body is None:
        raise ModelError("%s: '%s' is not the shape of a body of this study; add a body for it "
                         "first" % (what, obj.Label))
    return what, body, obj, sub


def _reference_frame(joint, which, bodies):
    from .references import reference_frame
    what, body, obj, sub = _side_reference(joint, which, bodies,
                                           "pick a vertex, edge or face of a body")
    if not sub:
        raise ModelError("%s: pick a vertex, edge or face of '%s', not the whole object"
                         % (what, obj.Label))
    try:
        rf = reference_frame(obj, sub)
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    except Exception as exc:  # noqa: BLE001 - FreeCAD/OCC failures on odd references
        raise ModelError("%s: '%s.%s' cannot be used: %s" % (what, obj.Label, sub, exc)) from None
    return body, rf


def _aligned(a, b):
    """1 - |cos| of the angle between unit vectors a and b is below the tolerance."""
    return 1.0 - abs(float(np.dot(a, b))) < _PARALLEL_TOL


def joint_data(joint, bodies=None):
    """World joint frames (t0) of a Joint object from its references.

    Side 1 from ``Reference1``, side 2 from ``Reference2``. The z axis of a side
    is its reference's axis; a side without an axis (vertex, sphere) takes the
    other side's. When both have axes and they are anti-parallel, side 2's is
    turned to side 1's; parallel axes give both sides the same frame. A kind
    whose spec needs an axis fails when neither reference has one. ``Reverse``
    flips both z axes; ``Offset`` moves side 2's point by ``-offset z`` so that
    assembly leaves side 2's reference ``offset`` ahead of side 1's along z.

    With ``FrameSource == "Placements"`` the references only name the bodies
    and the frames are ``Placement1``/``Placement2`` mapped to world by their
    bodies' shape-object placements, unchanged (no axis alignment); ``Reverse``
    and ``Offset`` then act as above.
    """
    study = find_study(joint)
    if bodies is None:
        if study is None:
            raise ModelError("%s is not in a study" % _label(joint))
        bodies = study_bodies(study)
    kind = joint.JointType
    try:
        spec = JOINT_TYPES[kind]
    except KeyError:
        raise ModelError("%s: unknown joint type %r; valid types: %s"
                         % (_label(joint), kind, ", ".join(JOINT_TYPES))) from None
    if frame_source(joint) == "Placements":
        body1, (p1, R1), label1 = _placement_frame(joint, "Reference1", "Placement1", bodies)
        body2, (p2, R2), label2 = _placement_frame(joint, "Reference2", "Placement2", bodies)
        _check_joint_bodies(joint, body1, body2, label1, label2)
        has_axis = True
    else:
        body1, body2, (p1, R1), (p2, R2), has_axis = _reference_frames(joint, kind, spec, bodies)
    if joint.Reverse:
        flip = np.diag([1.0, -1.0, -1.0])     # 180 deg about x: z -> -z, right-handed
        R1 = R1 @ flip
        R2 = R2 @ flip
    offset = quantity_si(joint.Offset, "m")
    if offset != 0.0:
        if not has_axis:
            raise ModelError("%s: Offset needs a joint axis, but neither reference has one"
                             % _label(joint))
        p2 = p2 - offset * R1[:, 2]
    point2 = None
    length = None
    if "point2" in spec.needs:
        point2 = p2
        L = quantity_si(joint.Length, "m")
        length = L if L > 0.0 else None
    return JointData(joint, kind, body1, body2, (p1, R1), (p2, R2), point2, length)


def _check_joint_bodies(joint, body1, body2, label1, label2):
    if body1 == body2:
        raise ModelError("%s: both references are on body '%s' ('%s' and '%s'); a joint "
                         "connects two different bodies" % (_label(joint), body1.Label,
                                                            label1, label2))
    if body1.Fixed and body2.Fixed:
        raise ModelError("%s: both bodies ('%s' and '%s') are fixed; a joint needs a moving "
                         "body" % (_label(joint), body1.Label, body2.Label))


def frame_source(joint):
    """``"References"`` or ``"Placements"``: where a Joint's frames come from.

    Joints saved before ``FrameSource`` existed (not yet restored) count as
    ``"References"``.
    """
    return str(getattr(joint, "FrameSource", "References"))


def _placement_frame(joint, which, placement_name, bodies):
    """Body and world frame (t0) of one side of a joint with explicit frames.

    The side's reference only names the body (its element is not needed);
    the frame is ``Placement1``/``Placement2`` in the local frame of that
    body's shape object.
    """
    what, body, obj, sub = _side_reference(joint, which, bodies,
                                           "it names the body of this side of the joint")
    world = global_placement(body.ShapeObject).multiply(getattr(joint, placement_name))
    label = "%s.%s" % (obj.Label, sub) if sub else obj.Label
    return body, placement_to_frame(world), label


def _reference_frames(joint, kind, spec, bodies):
    """Bodies and world frames (t0) of a joint from its picked references.

    Returns ``(body1, body2, frame1, frame2, has_axis)``; see ``joint_data``.
    """
    body1, rf1 = _reference_frame(joint, "Reference1", bodies)
    body2, rf2 = _reference_frame(joint, "Reference2", bodies)
    _check_joint_bodies(joint, body1, body2, rf1.label, rf2.label)
    p1, p2 = np.array(rf1.point, dtype=float), np.array(rf2.point, dtype=float)
    a1 = None if rf1.axis is None else np.array(rf1.axis, dtype=float)
    a2 = None if rf2.axis is None else np.array(rf2.axis, dtype=float)

    if kind == "universal":
        if a1 is None or a2 is None:
            raise ModelError("%s: a universal joint needs an axis on both sides (the cross axes); "
                             "'%s' and '%s' give %s and %s"
                             % (_label(joint), rf1.label, rf2.label, rf1.kind, rf2.kind))
        if abs(float(np.dot(a1, a2))) > 1e-3:
            raise ModelError("%s: the cross axes of a universal joint must be perpendicular "
                             "(angle %.3f deg)" % (_label(joint),
                                                   math.degrees(math.acos(np.clip(
                                                       abs(np.dot(a1, a2)), -1, 1)))))
        y = a2 - np.dot(a1, a2) * a1
        y /= np.linalg.norm(y)
        R1 = np.column_stack([a1, y, np.cross(a1, y)])
        R2 = R1.copy()
    else:
        if a1 is None and a2 is None:
            if "axis" in spec.needs:
                raise ModelError("%s: a %s joint needs an axis, but neither reference has one "
                                 "('%s' is a %s, '%s' a %s); pick an edge or a face"
                                 % (_label(joint), spec.label.lower(), rf1.label, rf1.kind,
                                    rf2.label, rf2.kind))
            R1 = np.eye(3)
            R2 = np.eye(3)
        else:
            z1 = a1 if a1 is not None else a2
            z2 = a2 if a2 is not None else a1
            if np.dot(z1, z2) < 0.0:
                z2 = -z2       # a pin and its hole: keep the mechanism as modelled
            R1 = orthonormal_frame(z1)
            R2 = R1.copy() if (_aligned(z1, z2) or kind == "fixed") \
                else orthonormal_frame(z2, x_hint=R1[:, 0])
    return body1, body2, (p1, R1), (p2, R2), a1 is not None or a2 is not None


def joint_local_frames(jd):
    """The two joint frames of ``jd`` in their bodies' local frames, as mm Placements."""
    out = []
    for body, (p, R) in ((jd.body1, jd.frame1), (jd.body2, jd.frame2)):
        g = global_placement(body.ShapeObject)
        out.append(g.inverse().multiply(frame_to_placement(p, R)))
    return tuple(out)


def update_joint_properties(joint):
    """Refresh a Joint's read-only local frames (its ``execute``)."""
    jd = joint_data(joint)
    f1, f2 = joint_local_frames(jd)
    joint.Frame1 = f1
    joint.Frame2 = f2


# ============================================================================ study settings

def gravity_vector(study):
    """Gravity [m/s^2], world: ``GravityAcceleration`` times the unit ``GravityDirection``."""
    g = quantity_si(study.GravityAcceleration, "m/s^2")
    d = vector_array(study.GravityDirection)
    n = np.linalg.norm(d)
    if g == 0.0:
        return np.zeros(3)
    if not math.isfinite(g) or not n > 0.0:
        raise ModelError("%s: GravityDirection must be a non-zero vector when "
                         "GravityAcceleration is not zero" % _label(study))
    return g * d / n


#: Study settings checked before a run: (property, lower bound, bound included, what 0
#: means, when the setting is used)
_STUDY_SETTINGS = (
    ("EndTime", 0.0, False, None, "always"),
    ("TimeStep", 0.0, True, "0 = unlimited (adaptive methods)", "always"),
    ("OutputInterval", 0.0, True, "0 = automatic", "always"),
    ("RelativeTolerance", 0.0, False, None, "adaptive"),
    ("AbsoluteTolerance", 0.0, False, None, "adaptive"),
    ("TimeConstant", 0.0, True, "0 = automatic", "TimeConstant"),
    ("DampingRatio", 0.0, False, None, "TimeConstant"),
    ("BaumgarteAlpha", 0.0, True, None, "Baumgarte"),
    ("BaumgarteBeta", 0.0, True, None, "Baumgarte"),
)


def _check_study_settings(study):
    """Each setting in use finite and in range; a negative value is never taken as
    "automatic" (``ModelError`` naming the study and the property)."""
    from .solver import METHODS
    info = METHODS.get(str(study.Integrator))
    used = {"always", str(study.Stabilisation)}
    if info is not None and not info.fixed_step:
        used.add("adaptive")
    for name, low, inclusive, zero, when in _STUDY_SETTINGS:
        if when not in used:
            continue
        v = float(getattr(study, name))
        if math.isfinite(v) and (v >= low if inclusive else v > low):
            continue
        bound = ">= %g" % low if inclusive else "> %g" % low
        raise ModelError("%s: %s must be finite and %s%s, got %r"
                         % (_label(study), name, bound, " (%s)" % zero if zero else "", v))


def analysis_mode(study):
    """The solver analysis of a study: "kinematic" when its ``AnalysisMode`` is Kinematic,
    else "dynamic" (also for documents older than that property)."""
    return "kinematic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic" \
        else "dynamic"


def simulation_settings(study, **overrides):
    """Keyword arguments of ``Model.simulate`` from a Study's properties (SI).

    ``overrides`` replace any of them (``t_end``, ``dt``, ``method``,
    ``output_dt``, ``rtol``, ``atol``, ``time_constant``, ``damping_ratio``,
    ``baumgarte``, ...).
    """
    _check_study_settings(study)
    s = dict(t_end=float(study.EndTime), method=str(study.Integrator),
             rtol=float(study.RelativeTolerance), atol=float(study.AbsoluteTolerance))
    from .solver import METHODS
    info = METHODS.get(s["method"])
    dt = float(study.TimeStep)
    s["dt"] = dt if (dt > 0.0 or (info is not None and info.fixed_step)) else None
    out = float(study.OutputInterval)
    s["output_dt"] = out if out > 0.0 else None
    if study.Stabilisation == "Baumgarte":
        s["baumgarte"] = (float(study.BaumgarteAlpha), float(study.BaumgarteBeta))
    else:
        tc = float(study.TimeConstant)
        s["time_constant"] = tc if tc > 0.0 else None
        s["damping_ratio"] = float(study.DampingRatio)
    if "baumgarte" in overrides or "time_constant" in overrides:
        s.pop("baumgarte", None)
    s.update(overrides)
    return s


# ============================================================================ the model

class Conversion:
    """A study converted to a solver ``Model``, with the mappings both ways.

    Attributes
    ----------
    study : the Study object
    model : solver ``Model``
    bodies : list of ``BodyData`` (all bodies, study order)
    moving : list of ``BodyData`` of the moving bodies, in solver (result) order
    joints : list of ``JointData`` (study order = solver order)
    body_map : dict Body object Name -> solver ``Body`` (``model.ground`` for fixed bodies)
    joint_map : dict Joint object Name -> solver ``Joint``
    load_map : dict Force/Torque object Name -> solver ``Load``
    """

    def __init__(self, study):
        self.study = study
        self.model = None
        self.bodies = []
        self.moving = []
        self.joints = []
        self.body_map = {}
        self.joint_map = {}
        self.load_map = {}
        self.force_map = {}     # ForceElement object Name -> solver ForceElement
        self.driver_map = {}

    def solver_body(self, body_obj):
        return self.body_map[body_obj.Name]

    def solver_joint(self, joint_obj):
        return self.joint_map[joint_obj.Name]

    def body_object(self, solver_name):
        """The document Body object of a solver body name."""
        for bd in self.bodies:
            sb = self.body_map[bd.obj.Name]
            if not sb.is_ground and sb.name == solver_name:
                return bd.obj
        raise KeyError(solver_name)


def solver_names(objs):
    """``{object Name: solver name}`` of the study members ``objs`` (see ``_unique_names``):
    the names their bodies, joints, force elements or drivers have in the result."""
    return _unique_names(objs)


def _unique_names(objs):
    """Solver names: Labels, with the object Name added where Labels collide."""
    labels = [o.Label for o in objs]
    return {o.Name: (o.Label if labels.count(o.Label) == 1 else "%s (%s)" % (o.Label, o.Name))
            for o in objs}


def _check_bodies(study, bodies):
    if not bodies:
        raise ModelError("%s has no bodies: add a body for each solid that moves or is fixed"
                         % _label(study))
    seen = {}
    for b in bodies:
        shape = b.ShapeObject
        if shape is None:
            raise ModelError("%s has no shape object" % _label(b))
        if shape.Name in seen:
            raise ModelError("Bodies '%s' and '%s' use the same object '%s'"
                             % (seen[shape.Name].Label, b.Label, shape.Label))
        seen[shape.Name] = b
    for b in bodies:
        for anc in ancestors(b.ShapeObject):
            if anc.Name in seen:
                raise ModelError("%s: '%s' lies inside '%s', the shape of body '%s'; its mass "
                                 "would count twice" % (_label(b), b.ShapeObject.Label,
                                                        anc.Label, seen[anc.Name].Label))
    if all(b.Fixed for b in bodies):
        raise ModelError("%s: all bodies are fixed; nothing can move" % _label(study))


def check_enumerations(study):
    """``ModelError`` naming the object and the property when the study or one of its
    members holds an enumeration value this version does not know (e.g. a JointType
    of a newer SimPhant): such a model is never run with a substitute."""
    from .objects.base import enumeration_problems
    for obj in [study] + list(study.Group):
        problems = enumeration_problems(obj)
        if problems:
            raise ModelError("%s: %s" % (_label(obj), "; ".join(problems)))


def convert(study):
    """Build the solver ``Model`` of a Study; ``ModelError`` naming the object at fault."""
    check_enumerations(study)
    conv = Conversion(study)
    bodies = study_bodies(study)
    _check_bodies(study, bodies)
    model = Model(gravity=gravity_vector(study))
    conv.model = model

    names = _unique_names(bodies)
    for b in bodies:
        bd = body_data(b)
        conv.bodies.append(bd)
        if bd.fixed:
            conv.body_map[b.Name] = model.ground
            continue
        mp = bd.mass_props
        try:
            sb = model.add_body(names[b.Name], mass=float(mp.mass),
                                inertia=np.asarray(mp.inertia, dtype=float),
                                position=np.asarray(mp.cog, dtype=float),
                                orientation=rotation_to_quat(bd.placement.Rotation),
                                velocity=bd.velocity, angular_velocity=bd.omega)
        except ModelError as exc:
            raise ModelError("%s: %s" % (_label(b), exc)) from None
        conv.body_map[b.Name] = sb
        conv.moving.append(bd)

    joints = study_joints(study)
    jnames = _unique_names(joints)
    for j in joints:
        jd = joint_data(j, bodies)
        try:
            sj = model.add_joint(jd.kind, conv.body_map[jd.body1.Name],
                                 conv.body_map[jd.body2.Name], frame1=jd.frame1,
                                 frame2=jd.frame2, point2=jd.point2, length=jd.length,
                                 name=jnames[j.Name])
        except ModelError as exc:
            raise ModelError("%s: %s" % (_label(j), exc)) from None
        conv.joints.append(jd)
        conv.joint_map[j.Name] = sj

    loads = study_loads(study)
    lnames = _unique_names(loads)
    for ld in loads:
        conv.load_map[ld.Name] = _add_load(conv, ld, bodies, lnames[ld.Name])

    elements = study_members(study, "SimPhant::ForceElement")
    fnames = _unique_names(elements)
    for fe in elements:
        conv.force_map[fe.Name] = _add_force_element(conv, fe, bodies, fnames[fe.Name])
    from .objects.study import study_drivers
    drivers = study_drivers(study)
    dnames = _unique_names(drivers)
    conv.driver_map = {}
    for d in drivers:
        conv.driver_map[d.Name] = _add_driver(conv, d, joints, dnames[d.Name])
    return conv


#: a driver's parameter units (``objects.driver.PARAMETER_PROPERTIES``) -> SI factor
_DRIVER_UNITS = {"deg": ("rad", None), "mm": ("m", None), "rpm": (None, 2.0 * math.pi / 60.0),
                 "mm/s": (None, M_PER_MM), "s": (None, 1.0), "Hz": (None, 1.0)}


def driver_motion(driver, what=None):
    """The solver ``MotionFunction`` of a Driver object (its Function and the properties
    of that function's parameters for its DriverType, in SI)."""
    from .objects.driver import PARAMETER_PROPERTIES
    from .solver.drivers import MotionFunction, function_spec
    what = what or _label(driver)
    kind = str(driver.DriverType)
    spec = function_spec(str(driver.Function))
    params = {}
    for p in spec.params:
        name, unit = PARAMETER_PROPERTIES[(kind, p)]
        value = getattr(driver, name)
        if unit == "text":
            params[p] = str(value)
            continue
        si, factor = _DRIVER_UNITS[unit]
        params[p] = quantity_si(value, si) if si else float(value) * factor
    try:
        return MotionFunction(spec.name, what=what, **params)
    except ModelError as exc:
        raise ModelError(str(exc) if str(exc).startswith(what) else "%s: %s" % (what, exc)) \
            from None


def driver_data(driver, joints=None):
    """Check a Driver object: its joint is a joint of its study that has the driven
    degree of freedom, its motion is valid. Returns ``(joint object, MotionFunction)``;
    ``ModelError`` naming the driver (and the joint) otherwise. The one validation the
    factory, the conversion and the GUI use."""
    from .solver.drivers import check_driver_joint
    what = _label(driver)
    joint = driver.Joint
    if joint is None or not is_type(joint, "SimPhant::Joint"):
        raise ModelError("%s has no joint: set Joint to a SimPhant joint" % what)
    if joints is None:
        study = find_study(driver)
        joints = study_joints(study) if study is not None else []
    if joint not in joints:
        raise ModelError("%s: joint '%s' is not in this study" % (what, joint.Label))
    check_driver_joint(what, joint.Label, str(joint.JointType), str(driver.DriverType))
    return joint, driver_motion(driver, what)


def _add_driver(conv, driver, joints, name):
    """Add a Driver object to ``conv.model`` (its joint must be in the study)."""
    what = _label(driver)
    joint, motion = driver_data(driver, joints)
    try:
        return conv.model.add_driver(conv.joint_map[joint.Name], motion,
                                     kind=str(driver.DriverType), name=name)
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None


def _add_load(conv, load, bodies, name):
    what = _label(load)
    body = load.Body
    if body is None:
        raise ModelError("%s has no body" % what)
    if body not in bodies:
        raise ModelError("%s: body '%s' is not in this study" % (what, body.Label))
    if body.Fixed:
        raise ModelError("%s: body '%s' is fixed; a load needs a moving body"
                         % (what, body.Label))
    sb = conv.body_map[body.Name]
    torque = is_type(load, "SimPhant::Torque")
    text = (load.TorqueFunction if torque else load.ForceFunction).strip()
    unit = "N m" if torque else "N"
    if text:
        value = parse_time_function(text, what)
        at0 = value(0.0)
    else:
        value = at0 = vector_array(load.Torque if torque else load.Force)
    largest = float(np.max(np.abs(at0)))
    if not math.isfinite(largest) or largest > MAX_LOAD:
        raise ModelError("%s: %s (%s) %s is beyond any physical load (components at most "
                         "%.3g %s)" % (what, "the value at t = 0" if text else "the value",
                                       ", ".join("%.3g" % c for c in at0), unit, MAX_LOAD,
                                       unit))
    frame = str(load.Frame).lower()
    try:
        if torque:
            return conv.model.add_torque(sb, value, frame=frame, name=name)
        point = None
        try:
            ref = reference_of(load.Reference)
        except ModelError as exc:
            raise ModelError("%s: Reference: %s" % (what, exc)) from None
        if ref is not None and ref[1]:
            from .references import reference_frame
            obj, sub = ref
            if body_of_object([body], obj) is None:
                raise ModelError("%s: the point '%s.%s' is not on body '%s'"
                                 % (what, obj.Label, sub, body.Label))
            try:
                point = np.asarray(reference_frame(obj, sub).point, dtype=float)
            except ModelError as exc:
                raise ModelError("%s: Reference: %s" % (what, exc)) from None
            except Exception as exc:  # noqa: BLE001 - FreeCAD/OCC failures
                raise ModelError("%s: Reference '%s.%s' cannot be used: %s"
                                 % (what, obj.Label, sub, exc)) from None
        return conv.model.add_force(sb, value, point=point, frame=frame, name=name)
    except ModelError as exc:
        if str(exc).startswith(what):
            raise
        raise ModelError("%s: %s" % (what, exc)) from None


# ============================================================================ force elements

#: document units of force-element values given as plain numbers, per geometry
#: ("points" and "translation": N/mm, N s/mm, mm; "rotation": N mm/deg, N mm s/deg, deg)
FORCE_UNITS = {
    "points": {"stiffness": "N/mm", "damping": "N*s/mm", "length": "mm", "rate": "mm/s",
               "force": "N"},
    "translation": {"stiffness": "N/mm", "damping": "N*s/mm", "length": "mm", "rate": "mm/s",
                    "force": "N"},
    "rotation": {"stiffness": "N*mm/deg", "damping": "N*mm*s/deg", "length": "deg",
                 "rate": "deg/s", "force": "N*m"},
}
#: the SI units the solver takes, per geometry
_FORCE_SI = {
    "points": {"stiffness": "N/m", "damping": "N*s/m", "length": "m", "rate": "m/s"},
    "translation": {"stiffness": "N/m", "damping": "N*s/m", "length": "m", "rate": "m/s"},
    "rotation": {"stiffness": "N*m/rad", "damping": "N*m*s/rad", "length": "rad",
                 "rate": "rad/s"},
}


def force_geometry(obj):
    """"points", "rotation" or "translation": what a force element acts on."""
    from .solver.forces import FORCE_TYPES
    spec = FORCE_TYPES.get(obj.Kind)
    if spec is not None and spec.attach == "points":
        return "points"
    return str(obj.Dof)


def _force_quantity(text, geometry, what_unit, what):
    """A quantity text ("10 N/mm") -> SI float of the geometry's unit ``what_unit``."""
    target = _FORCE_SI[geometry][what_unit]
    text = str(text).strip()
    try:
        q = FreeCAD.Units.Quantity(text if text else "0")
    except Exception as exc:  # noqa: BLE001 - report any malformed input
        raise ModelError("%s: %r is not a quantity (%s)" % (what, text, exc)) from None
    if q.Value == 0.0:
        return 0.0
    if q.Unit == FreeCAD.Units.Quantity("1").Unit:
        q = FreeCAD.Units.Quantity("%r %s" % (q.Value, FORCE_UNITS[geometry][what_unit]))
    if q.Unit != FreeCAD.Units.Quantity("1 " + target).Unit:
        raise ModelError("%s: %r has the wrong unit for a %s element (e.g. %s)"
                         % (what, text, geometry, FORCE_UNITS[geometry][what_unit]))
    return quantity_si(q, target)


def _force_table(text, geometry, x_unit, what):
    """Table text 'x, f; x, f; ...' (x in the document unit ``x_unit`` of the geometry,
    f in N or N m) -> (n, 2) SI array."""
    rows = []
    for part in str(text).replace("\n", ";").split(";"):
        if not part.strip():
            continue
        try:
            x, f = (float(c) for c in part.replace(" ", ",").split(",") if c.strip())
        except ValueError:
            raise ModelError("%s: row %r is not 'x, force'" % (what, part.strip())) from None
        rows.append((x, f))
    scale = quantity_si("1 " + FORCE_UNITS[geometry][x_unit], _FORCE_SI[geometry][x_unit])
    tab = np.array(rows, dtype=float).reshape(-1, 2)
    tab[:, 0] *= scale
    return tab


def force_element_params(obj, bodies=None):
    """(kind, solver parameters (SI), points (X1, X2) or None, joint object or None) of a
    ForceElement object; validated by ``solver.forces.check_element`` (the one check
    the factory, the conversion and the GUI use). ``ModelError`` names the object."""
    from .solver.forces import FORCE_TYPES, ScalarTimeFunction, check_element
    what = "Force element '%s'" % obj.Label
    spec = FORCE_TYPES.get(obj.Kind)
    if spec is None:
        raise ModelError("%s: unknown kind %r" % (what, obj.Kind))
    geometry = force_geometry(obj)
    names = {p.name for p in spec.params}
    params = {}
    for key in ("stiffness", "damping"):
        if key in names:
            table = getattr(obj, key.capitalize() + "Table").strip()
            if table:
                params[key] = _force_table(table, geometry,
                                           "length" if key == "stiffness" else "rate",
                                           "%s: %sTable" % (what, key.capitalize()))
            else:
                params[key] = _force_quantity(getattr(obj, key.capitalize()), geometry, key,
                                              "%s: %s" % (what, key.capitalize()))
    if "free_length" in names or "rest" in names:
        value = None
        if not obj.FreeLengthFromStart:
            value = _force_quantity(obj.FreeLength, geometry, "length", what + ": FreeLength")
        params["free_length" if "free_length" in names else "rest"] = value
    if "preload" in names:
        params["preload"] = float(obj.Preload)
    if "force" in names:
        params["force"] = float(obj.Force)
    if "dof" in names:
        params["dof"] = str(obj.Dof)
    if "value" in names:
        text = obj.ValueFunction.strip()
        params["value"] = ScalarTimeFunction(text, what) if text else float(obj.Value)
    points = joint = None
    joint_name = joint_kind = None
    if spec.attach == "points":
        from .references import reference_frame
        if bodies is None:
            bodies = study_bodies(find_study(obj))
        pts, owners = [], []
        for which in ("Reference1", "Reference2"):
            try:
                ref = reference_of(getattr(obj, which))
            except ModelError as exc:
                raise ModelError("%s: %s: %s" % (what, which, exc)) from None
            if ref is None or not ref[1]:
                raise ModelError("%s: %s is empty: pick a vertex, circle or face of a body"
                                 % (what, which))
            body = body_of_object(bodies, ref[0])
            if body is None:
                raise ModelError("%s: %s: '%s' is not the shape of a body of this study"
                                 % (what, which, ref[0].Label))
            try:
                pts.append(np.asarray(reference_frame(ref[0], ref[1]).point, dtype=float))
            except ModelError as exc:
                raise ModelError("%s: %s: %s" % (what, which, exc)) from None
            owners.append(body)
        if owners[0] == owners[1]:
            raise ModelError("%s: both points are on body '%s'" % (what, owners[0].Label))
        points = (pts[0], pts[1], owners[0], owners[1])
    else:
        joint = obj.Joint
        if joint is None or not is_type(joint, "SimPhant::Joint"):
            raise ModelError("%s: Joint is empty: pick the joint it acts on" % what)
        joint_name, joint_kind = joint.Label, str(joint.JointType)
    try:
        check_element(obj.Kind, obj.Label, params, joint_name=joint_name, joint_kind=joint_kind,
                      points=None if points is None else points[:2])
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    return obj.Kind, params, points, joint


def _add_force_element(conv, obj, bodies, name):
    kind, params, points, joint = force_element_params(obj, bodies)
    m = conv.model
    try:
        if points is not None:
            X1, X2, b1, b2 = points
            args = (conv.body_map[b1.Name], X1, conv.body_map[b2.Name], X2)
            if kind == "spring_damper":
                return m.add_spring(*args, stiffness=params["stiffness"],
                                    damping=params["damping"],
                                    free_length=params["free_length"],
                                    preload=params["preload"], name=name)
            if kind == "damper":
                return m.add_damper(*args, damping=params["damping"], name=name)
            return m.add_contractile_force(*args, force=params["force"], name=name)
        if joint.Name not in conv.joint_map:
            raise ModelError("joint '%s' is not in this study" % joint.Label)
        sj = conv.joint_map[joint.Name]
        if kind == "joint_spring":
            return m.add_joint_spring(sj, stiffness=params["stiffness"],
                                      damping=params["damping"], rest=params["rest"],
                                      dof=params["dof"], name=name)
        return m.add_joint_actuator(sj, params["value"], dof=params["dof"], name=name)
    except ModelError as exc:
        what = "Force element '%s'" % obj.Label
        if str(exc).startswith(what):
            raise
        raise ModelError("%s: %s" % (what, exc)) from None
