"""What can be plotted from a stored result: quantities, components, frames and units.

One table (``QUANTITIES``) says, per quantity, what it belongs to (a body, a
point on a body, a joint, a force element, a driver, or the whole system), its
physical dimension (for force elements and drivers: by the target's kind, a
moment or a force, an angle or a length; ``dimension_of``), the
frames it can be given in and how it is read from a solver ``Result``. The
plot panel, its CSV export and scripts all go through ``curves``.

Units: a result is SI. ``UNIT_SYSTEMS`` lists the systems a plot can be
shown in; ``preferred_unit_system`` maps FreeCAD's unit schema preference
(Edit > Preferences > General > Units) to one of them: Standard, FEM and
"Metric small parts" to mm/deg, MKS and Building Euro to m/deg, the imperial
schemas to in/deg. Angles are shown in degrees in all of FreeCAD's schemas.

Frames: body vectors are in world axes; angular velocity also in the body's
own axes. Joint reactions are the force and torque the joint exerts on its
second body, in world axes about that body's joint point, or in the axes of
the joint frame on its first body, about that frame's origin (``JointFrame``
of ``viewer.scene``: attached to the body, so it turns with it). Joint angles and
slides (``Result.joint_position`` and its rates) are relative: joint frame 2 against
joint frame 1 (angle about frame 1's z, slide along it). Force elements: the force
(> 0 pushes apart) or moment on body 2, the coordinate (length, joint angle or slide)
and the power of ``Result.spring_force``/``spring_length``/``spring_power``; drivers:
the effort and power of ``Result.driver_effort``/``driver_power`` (a point driver's
effort has x, y, z and a magnitude, a joint driver's one value).
"""
import math
import re
from collections import namedtuple

import numpy as np

__all__ = ["Quantity", "QUANTITIES", "UNIT_SYSTEMS", "DIMENSIONS", "Curve", "Target",
           "curves", "unit_of", "dimension_of", "preferred_unit_system", "components_of",
           "TIME_UNITS", "parse_time", "format_time"]

Quantity = namedtuple("Quantity", [
    "key",          # stable name, e.g. "reaction_force"
    "label",        # what the user reads
    "owner",        # "body", "point", "joint", "element", "driver" or "system"
    "dimension",    # key of DIMENSIONS, or dimension(result, target) -> key
    "frames",       # frames it can be given in (first: default)
    "components",   # component names; "magnitude" where a vector's length makes sense
    "read",         # read(result, target, frame, context) -> (n, k) array, SI
])

#: SI unit of each dimension
DIMENSIONS = {
    "length": "m", "velocity": "m/s", "acceleration": "m/s^2", "angle": "rad",
    "angular_velocity": "rad/s", "angular_acceleration": "rad/s^2", "force": "N",
    "torque": "N m", "energy": "J", "power": "W", "violation": "m or rad",
}

_DEG = 180.0 / np.pi
_LBF = 4.4482216152605          # N
#: unit systems: dimension -> (unit name, factor from SI)
UNIT_SYSTEMS = {
    "SI": {"length": ("m", 1.0), "velocity": ("m/s", 1.0), "acceleration": ("m/s^2", 1.0),
           "angle": ("rad", 1.0), "angular_velocity": ("rad/s", 1.0),
           "angular_acceleration": ("rad/s^2", 1.0), "force": ("N", 1.0),
           "torque": ("N m", 1.0), "energy": ("J", 1.0)},
    "m, deg": {"length": ("m", 1.0), "velocity": ("m/s", 1.0), "acceleration": ("m/s^2", 1.0),
               "angle": ("deg", _DEG), "angular_velocity": ("deg/s", _DEG),
               "angular_acceleration": ("deg/s^2", _DEG), "force": ("N", 1.0),
               "torque": ("N m", 1.0), "energy": ("J", 1.0)},
    "mm, deg": {"length": ("mm", 1e3), "velocity": ("mm/s", 1e3),
                "acceleration": ("mm/s^2", 1e3), "angle": ("deg", _DEG),
                "angular_velocity": ("deg/s", _DEG), "angular_acceleration": ("deg/s^2", _DEG),
                "force": ("N", 1.0), "torque": ("N mm", 1e3), "energy": ("J", 1.0)},
    "in, deg": {"length": ("in", 1.0 / 0.0254), "velocity": ("in/s", 1.0 / 0.0254),
                "acceleration": ("in/s^2", 1.0 / 0.0254), "angle": ("deg", _DEG),
                "angular_velocity": ("deg/s", _DEG), "angular_acceleration": ("deg/s^2", _DEG),
                "force": ("lbf", 1.0 / _LBF), "torque": ("lbf in", 1.0 / (_LBF * 0.0254)),
                "energy": ("J", 1.0)},
}
for _units in UNIT_SYSTEMS.values():
    _units["power"] = ("W", 1.0)
#: FreeCAD unit schema index -> unit system
_SCHEMA_SYSTEMS = {0: "mm, deg", 1: "m, deg", 2: "in, deg", 3: "in, deg", 4: "m, deg",
                   5: "in, deg", 6: "mm, deg", 7: "in, deg", 8: "mm, deg"}


def preferred_unit_system():
    """The unit system of FreeCAD's unit schema preference ("SI" without FreeCAD)."""
    try:
        import FreeCAD
        schema = FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Units").GetInt(
            "UserSchema", 0)
    except Exception:  # noqa: BLE001 - no FreeCAD: plain SI
        return "SI"
    return _SCHEMA_SYSTEMS.get(int(schema), "mm, deg")


def unit_of(dimension, system):
    """(unit name, factor from SI) of ``dimension`` in unit system ``system``."""
    if dimension == "violation":
        return DIMENSIONS["violation"], 1.0
    try:
        return UNIT_SYSTEMS[system][dimension]
    except KeyError:
        raise ValueError("unknown unit system %r (one of %s)"
                         % (system, ", ".join(UNIT_SYSTEMS))) from None


# ============================================================================ times

#: time units a time can be typed in -> seconds (FreeCAD's own quantity parser knows
#: only "s", "min" and "h" in 0.20: "1 ms" is a syntax error there)
TIME_UNITS = {"s": 1.0, "sec": 1.0, "ms": 1e-3, "us": 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6,
              "ns": 1e-9, "min": 60.0, "h": 3600.0}
#: the units a time is shown in, largest first: (unit, seconds)
_TIME_SHOWN = (("s", 1.0), ("ms", 1e-3), ("\u00b5s", 1e-6), ("ns", 1e-9))
_TIME_TEXT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\s\d.]*)\s*$")


def parse_time(text):
    """Seconds of a typed time: a number with one of ``TIME_UNITS`` ("0.1 ms", "100 us",
    "100 \u00b5s", "2 s", "2s"), or a bare number of seconds; a decimal comma is read as a
    point. Raises ``ValueError`` naming the text."""
    m = _TIME_TEXT.match(str(text).replace(",", "."))
    unit = m.group(2) if m else None
    if unit is None or (unit and unit not in TIME_UNITS):
        raise ValueError("%r is not a time: a number with a unit of %s, e.g. 0.5 ms"
                         % (str(text), ", ".join(("s", "ms", "us", "\u00b5s"))))
    scale = TIME_UNITS[unit or "s"]
    # "100 us" is 100 / 1e6 = 1e-4 exactly, where 100 * 1e-6 is not
    return float(m.group(1)) / round(1.0 / scale) if scale < 1.0 else float(m.group(1)) * scale


def format_time(seconds, digits=9):
    """A time as text in the unit that shows it best ("1 ms", "100 \u00b5s", "2.5 s"):
    the largest of s, ms, \u00b5s, ns in which it is at least 1, with up to ``digits``
    significant digits (``parse_time`` reads it back)."""
    v = float(seconds)
    if v == 0.0 or not math.isfinite(v):
        return "%g s" % v
    for unit, scale in _TIME_SHOWN:
        if abs(v) >= scale * (1.0 - 1e-12):
            break
    return "%.*g %s" % (digits, v / scale, unit)


# ============================================================================ readers

Target = namedtuple("Target", [
    "kind",     # "body", "point", "joint", "element", "driver", "system"
    "key",      # result name of the body or joint (None for "system")
    "label",    # shown in legends
    "point",    # "point": (3,) in the body's own frame about its CoG [m]; else None
])


def _body_vector(method):
    def read(result, target, frame, ctx):
        return getattr(result, method)(target.key)
    return read


def _angular_velocity(result, target, frame, ctx):
    return result.angular_velocity(target.key, frame="body" if frame == "body" else "world")


def _euler(result, target, frame, ctx):
    return result.euler_angles(target.key)


def _point_position(result, target, frame, ctx):
    return result.point_position(target.key, target.point)


def _point_velocity(result, target, frame, ctx):
    return result.point_velocity(target.key, target.point)


def _joint_axes(result, target, ctx):
    frames = (ctx or {}).get("joint_frames", {})
    jf = frames.get(target.key)
    if jf is None:
        raise ValueError("joint '%s': its frame on the first body is not known (open the plot "
                         "from the study, or give joint_frames)" % target.label)
    n = len(result.t)
    if jf.body is None:
        return np.broadcast_to(jf.R, (n, 3, 3))
    return result.rotation_matrix(jf.body) @ jf.R


def _reaction(which):
    def read(result, target, frame, ctx):
        if frame == "joint":
            F = result.reaction_force(target.key)
            v = F if which == "force" else result.reaction_torque(target.key, about="body1")
            R = _joint_axes(result, target, ctx)
            return np.einsum("nji,nj->ni", R, v)            # R^T v per sample
        if which == "force":
            return result.reaction_force(target.key)
        return result.reaction_torque(target.key)
    return read


def _joint_coordinate(dof, method):
    def read(result, target, frame, ctx):
        return getattr(result, method)(target.key, dof)[:, None]
    return read


def _energy(result, target, frame, ctx):
    e = result.energy()
    # drift of the balance: total + dissipated - actuator, driver and load work
    drift = e["balance"] - e["balance"][0] if len(result.t) else e["balance"]
    return np.column_stack([e["kinetic"], e["potential"], e["total"], drift])


def _element_rotation(result, target):
    i = result.force_names.index(target.key)
    dofs = getattr(result, "force_dofs", None)
    return bool(dofs) and dofs[i] == "rotation"


def _element_force_dimension(result, target):
    return "torque" if _element_rotation(result, target) else "force"


def _element_coordinate_dimension(result, target):
    return "angle" if _element_rotation(result, target) else "length"


def _element_series(method):
    def read(result, target, frame, ctx):
        return getattr(result, method)(target.key)[:, None]
    return read


def _driver_effort_dimension(result, target):
    from ..solver.drivers import DRIVER_TYPES
    return DRIVER_TYPES[result.driver_kinds[result.driver_names.index(target.key)]].effort


def _driver_effort(result, target, frame, ctx):
    """(n, 4): a point driver's force x, y, z then NaN; a joint driver's NaN x, y, z
    then its effort (``curves`` leaves out the components a target has not)."""
    e = result.driver_effort(target.key)
    if e.ndim == 1:
        nan = np.full(len(e), np.nan)
        return np.column_stack([nan, nan, nan, e])
    return np.column_stack([e, np.full(len(e), np.nan)])


def _driver_power(result, target, frame, ctx):
    return result.driver_power(target.key)[:, None]


def _driver_work(result, target, frame, ctx):
    return result.driver_work(target.key)[:, None]


def dimension_of(quantity, result=None, target=None):
    """The dimension (key of ``DIMENSIONS``) of ``quantity`` for ``target`` in ``result``."""
    d = QUANTITIES[quantity].dimension
    return d(result, target) if callable(d) else d


def _violation(result, target, frame, ctx):
    v = result.constraint_violation()
    return np.column_stack([v["position"], v["velocity"]])


_XYZ = ("x", "y", "z", "magnitude")
_Q = Quantity
QUANTITIES = {q.key: q for q in (
    _Q("position", "CoG position", "body", "length", ("world",), _XYZ, _body_vector("position")),
    _Q("velocity", "CoG velocity", "body", "velocity", ("world",), _XYZ,
       _body_vector("velocity")),
    _Q("acceleration", "CoG acceleration", "body", "acceleration", ("world",), _XYZ,
       _body_vector("acceleration")),
    _Q("angular_velocity", "angular velocity", "body", "angular_velocity", ("world", "body"),
       _XYZ, _angular_velocity),
    _Q("angular_acceleration", "angular acceleration", "body", "angular_acceleration",
       ("world",), _XYZ, _body_vector("angular_acceleration")),
    _Q("euler_angles", "Euler angles (Z-Y-X)", "body", "angle", ("world",), ("x", "y", "z"),
       _euler),
    _Q("point_position", "point position", "point", "length", ("world",), _XYZ,
       _point_position),
    _Q("point_velocity", "point velocity", "point", "velocity", ("world",), _XYZ,
       _point_velocity),
    _Q("reaction_force", "reaction force", "joint", "force", ("world", "joint"), _XYZ,
       _reaction("force")),
    _Q("reaction_torque", "reaction torque", "joint", "torque", ("world", "joint"), _XYZ,
       _reaction("torque")),
    _Q("joint_angle", "joint angle", "joint", "angle", ("relative",), ("angle",),
       _joint_coordinate("angle", "joint_position")),
    _Q("joint_angle_rate", "joint angle rate", "joint", "angular_velocity", ("relative",),
       ("rate",), _joint_coordinate("angle", "joint_velocity")),
    _Q("joint_angle_acceleration", "joint angle acceleration", "joint", "angular_acceleration",
       ("relative",), ("acceleration",), _joint_coordinate("angle", "joint_acceleration")),
    _Q("joint_slide", "joint slide", "joint", "length", ("relative",), ("slide",),
       _joint_coordinate("slide", "joint_position")),
    _Q("joint_slide_rate", "joint slide rate", "joint", "velocity", ("relative",), ("rate",),
       _joint_coordinate("slide", "joint_velocity")),
    _Q("joint_slide_acceleration", "joint slide acceleration", "joint", "acceleration",
       ("relative",), ("acceleration",), _joint_coordinate("slide", "joint_acceleration")),
    _Q("element_force", "force element force / moment", "element", _element_force_dimension,
       ("element",), ("force",), _element_series("spring_force")),
    _Q("element_coordinate", "force element length / angle / slide", "element",
       _element_coordinate_dimension, ("element",), ("coordinate",),
       _element_series("spring_length")),
    _Q("element_power", "force element power", "element", "power", ("element",), ("power",),
       _element_series("spring_power")),
    _Q("driver_effort", "driver effort (torque / force)", "driver", _driver_effort_dimension,
       ("driver",), ("x", "y", "z", "effort", "magnitude"), _driver_effort),
    _Q("driver_power", "driver power", "driver", "power", ("driver",), ("power",),
       _driver_power),
    _Q("driver_work", "driver work", "driver", "energy", ("driver",), ("work",),
       _driver_work),
    _Q("energy", "energy", "system", "energy", ("world",),
       ("kinetic", "potential", "total", "drift"), _energy),
    _Q("constraint_violation", "constraint violation", "system", "violation", ("world",),
       ("position", "velocity"), _violation),
)}

#: what the frames are called in the panel
FRAME_LABELS = {"world": "world axes", "body": "body axes", "joint": "joint frame (body 1)",
                "relative": "joint frame 2 against joint frame 1",
                "element": "line point 1 -> point 2, or joint z axis, on body 2",
                "driver": "joint z axis on body 2 (point driver: world axes)"}


def components_of(quantity):
    return QUANTITIES[quantity].components


Curve = namedtuple("Curve", ["label", "t", "y", "unit", "target", "component"])


def curves(result, quantity, targets, components=None, frame=None, units="SI", context=None):
    """The curves of ``quantity`` for ``targets`` (``Target``), in ``units``.

    ``components``: names from ``QUANTITIES[quantity].components`` (default all
    but the magnitude); ``frame``: one of the quantity's frames (default its
    first). Returns a list of ``Curve`` (label "<target> <component>", time [s],
    values in the unit system's unit, the unit name).
    """
    q = QUANTITIES.get(quantity)
    if q is None:
        raise ValueError("unknown quantity %r (one of %s)" % (quantity, ", ".join(QUANTITIES)))
    frame = frame or q.frames[0]
    if frame not in q.frames:
        raise ValueError("%s is not available in frame %r (frames: %s)"
                         % (q.label, frame, ", ".join(q.frames)))
    if components is None:
        components = [c for c in q.components if c != "magnitude"]
    bad = [c for c in components if c not in q.components]
    if bad:
        raise ValueError("%s has no component %s (components: %s)"
                         % (q.label, ", ".join(bad), ", ".join(q.components)))
    if q.owner == "system":
        targets = [Target("system", None, "", None)]
    out = []
    for target in targets:
        if target.kind != q.owner:
            raise ValueError("%s is a quantity of a %s, '%s' is a %s"
                             % (q.label, q.owner, target.label, target.kind))
        data = np.asarray(q.read(result, target, frame, context), dtype=float)
        unit, factor = unit_of(dimension_of(quantity, result, target), units)
        for c in components:
            if c == "magnitude":
                y = np.linalg.norm(data[:, :3], axis=1)
            else:
                y = data[:, q.components.index(c)]
                if len(y) and np.isnan(y).all():      # a component this target has not
                    continue
            label = ("%s %s" % (target.label, c)).strip()
            out.append(Curve(label, result.t, y * factor, unit, target, c))
    return out
