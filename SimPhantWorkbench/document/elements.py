"""Loads, force elements and drivers of a study: their solver values (SI), validated.

Each check here is the one the factory, the conversion and the GUI share.
"""
import math

import numpy as np

import FreeCAD

from ..solver import ModelError
from ..solver.expressions import TimeFunction
from .base import find_study, is_type, object_label, study_bodies, study_joints
from .bodies import body_of_object
from .links import reference_of
from .references import reference_frame
from .signatures import verify_reference
from .units import M_PER_MM, quantity_si, vector_array

__all__ = ["MAX_LOAD", "parse_time_function", "driver_motion", "driver_data", "add_driver",
           "add_load", "FORCE_UNITS", "force_geometry", "force_element_params",
           "add_force_element", "DRIVER_PARAMETERS", "LOAD_FRAMES"]

#: largest load magnitude accepted [N or N m]: far beyond any machine, well inside the
#: floating-point range the integration needs
MAX_LOAD = 1e30

#: the frames a Force or Torque object's value is given in
LOAD_FRAMES = ("World", "Body")

#: (driver kind, function parameter) -> (property, its unit): the conversion turns
#: the unit into SI ("deg" -> rad, "mm" -> m, "rpm" -> rad/s, "mm/s" -> m/s; "s", "Hz"
#: and "text" as they are)
DRIVER_PARAMETERS = {}
for _kind, _value, _end, _amp, _rate in (
        ("rotation", "Angle", "EndAngle", "AngleAmplitude", ("Speed", "rpm")),
        ("translation", "Distance", "EndDistance", "DistanceAmplitude", ("Velocity", "mm/s"))):
    _unit = "deg" if _kind == "rotation" else "mm"
    DRIVER_PARAMETERS.update({
        (_kind, "value"): (_value, _unit), (_kind, "value0"): (_value, _unit),
        (_kind, "offset"): (_value, _unit), (_kind, "value1"): (_end, _unit),
        (_kind, "amplitude"): (_amp, _unit), (_kind, "rate"): _rate,
        (_kind, "t0"): ("StartTime", "s"), (_kind, "t1"): ("EndTime", "s"),
        (_kind, "frequency"): ("Frequency", "Hz"), (_kind, "phase"): ("Phase", "deg"),
        (_kind, "text"): ("Expression", "text"),
    })


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


# ============================================================================ drivers, loads

#: a driver's parameter units (``DRIVER_PARAMETERS``) -> SI factor
_DRIVER_UNITS = {"deg": ("rad", None), "mm": ("m", None), "rpm": (None, 2.0 * math.pi / 60.0),
                 "mm/s": (None, M_PER_MM), "s": (None, 1.0), "Hz": (None, 1.0)}


def driver_motion(driver, what=None):
    """The solver ``MotionFunction`` of a Driver object (its Function and the properties
    of that function's parameters for its DriverType, in SI)."""
    from ..solver.drivers import MotionFunction, function_spec
    what = what or object_label(driver)
    kind = str(driver.DriverType)
    spec = function_spec(str(driver.Function))
    params = {}
    for p in spec.params:
        name, unit = DRIVER_PARAMETERS[(kind, p)]
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
    from ..solver.drivers import check_driver_joint
    what = object_label(driver)
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


def add_driver(conv, driver, joints, name):
    """Add a Driver object to ``conv.model`` (its joint must be in the study)."""
    what = object_label(driver)
    joint, motion = driver_data(driver, joints)
    try:
        return conv.model.add_driver(conv.joint_map[joint.Name], motion,
                                     kind=str(driver.DriverType), name=name)
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None


def add_load(conv, load, bodies, name):
    what = object_label(load)
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
            ref = reference_of(load.Reference, load)
        except ModelError as exc:
            raise ModelError("%s: Reference: %s" % (what, exc)) from None
        if ref is not None and ref[1]:
            obj, sub = ref
            if body_of_object([body], obj) is None:
                raise ModelError("%s: the point '%s.%s' is not on body '%s'"
                                 % (what, obj.Label, sub, body.Label))
            verify_reference(load, "Reference")
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
    from ..solver.forces import FORCE_TYPES
    spec = FORCE_TYPES.get(obj.Kind)
    if spec is not None and spec.attach in ("points", "bodies"):
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


def _impact_params(obj, geometry, what):
    """The IMPACT law's stiffness, exponent, damping and penetration (SI) of an end stop or
    a contact. ``Stiffness`` is a quantity per document unit u (N/mm, N*mm/deg): the force
    at the penetration u, over u; with the exponent e the law ``k_SI p^e`` takes
    ``k_SI = Stiffness_SI u^(1 - e)`` (the same force at u)."""
    out = {}
    e = float(obj.Exponent)
    unit = quantity_si("1 " + FORCE_UNITS[geometry]["length"], _FORCE_SI[geometry]["length"])
    out["stiffness"] = _force_quantity(obj.Stiffness, geometry, "stiffness",
                                       what + ": Stiffness") * unit ** (1.0 - e)
    out["exponent"] = e
    out["damping"] = _force_quantity(obj.Damping, geometry, "damping", what + ": Damping")
    out["penetration"] = _force_quantity(obj.Penetration, geometry, "length",
                                         what + ": Penetration")
    return out


def _stop_params(obj, geometry, what):
    """An end stop's limits, law and damping (SI)."""
    out = _impact_params(obj, geometry, what)
    for key, switch, prop in (("lower", "EnableLower", "Lower"), ("upper", "EnableUpper",
                                                                  "Upper")):
        out[key] = (_force_quantity(getattr(obj, prop), geometry, "length",
                                    "%s: %s" % (what, prop)) if getattr(obj, switch) else None)
    out["law"] = str(obj.Law)
    out["restitution"] = float(obj.Restitution)
    out["rest_speed"] = _force_quantity(obj.RestSpeed, geometry, "rate", what + ": RestSpeed")
    return out


def _contact_params(obj, what):
    """A contact's normal law and friction (SI)."""
    out = _impact_params(obj, "points", what)
    out["law"] = str(obj.ContactLaw)
    out["restitution"] = float(obj.Restitution)
    out["mu_static"] = float(obj.MuStatic)
    out["mu_dynamic"] = float(obj.MuDynamic)
    for key, prop in (("impact_speed", "ImpactSpeed"), ("stiction_speed", "StictionSpeed"),
                      ("friction_speed", "FrictionSpeed")):
        out[key] = _force_quantity(getattr(obj, prop), "points", "rate",
                                   "%s: %s" % (what, prop))
    return out


def force_element_params(obj, bodies=None):
    """(kind, solver parameters (SI), points (X1, X2) or None, joint object or None) of a
    ForceElement object; validated by ``solver.forces.check_element`` (the one check
    the factory, the conversion and the GUI use). ``ModelError`` names the object."""
    from ..solver.forces import FORCE_TYPES, ScalarTimeFunction, check_element
    what = "Force element '%s'" % obj.Label
    spec = FORCE_TYPES.get(obj.Kind)
    if spec is None:
        raise ModelError("%s: unknown kind %r" % (what, obj.Kind))
    geometry = force_geometry(obj)
    names = {p.name for p in spec.params}
    params = {}
    if spec.law == "stop":
        params.update(_stop_params(obj, geometry, what))
    if spec.law == "contact":
        params.update(_contact_params(obj, what))
    for key in ("stiffness", "damping"):
        if key in names and key not in params:
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
    if spec.attach in ("points", "bodies"):
        if bodies is None:
            bodies = study_bodies(find_study(obj))
        pts, owners = [], []
        for which in ("Reference1", "Reference2"):
            try:
                ref = reference_of(getattr(obj, which), obj)
            except ModelError as exc:
                raise ModelError("%s: %s: %s" % (what, which, exc)) from None
            if ref is None or not ref[1]:
                raise ModelError("%s: %s is empty: pick a vertex, circle or face of a body"
                                 % (what, which))
            body = body_of_object(bodies, ref[0])
            if body is None:
                raise ModelError("%s: %s: '%s' is not the shape of a body of this study"
                                 % (what, which, ref[0].Label))
            verify_reference(obj, which)
            owners.append(body)
            if spec.attach == "bodies":       # the body's whole solid
                pts.append(None)
                continue
            try:
                pts.append(np.asarray(reference_frame(ref[0], ref[1]).point, dtype=float))
            except ModelError as exc:
                raise ModelError("%s: %s: %s" % (what, which, exc)) from None
        if owners[0] == owners[1]:
            raise ModelError("%s: both %s on body '%s'" % (
                what, "points are" if spec.attach == "points" else "references are",
                owners[0].Label))
        points = (pts[0], pts[1], owners[0], owners[1])
    else:
        joint = obj.Joint
        if joint is None or not is_type(joint, "SimPhant::Joint"):
            raise ModelError("%s: Joint is empty: pick the joint it acts on" % what)
        joint_name, joint_kind = joint.Label, str(joint.JointType)
    try:
        check_element(obj.Kind, obj.Label, params, joint_name=joint_name, joint_kind=joint_kind,
                      points=None if points is None or spec.attach == "bodies" else points[:2])
    except ModelError as exc:
        raise ModelError("%s: %s" % (what, exc)) from None
    return obj.Kind, params, points, joint


def add_force_element(conv, obj, bodies, name):
    from ..solver.forces import FORCE_TYPES
    kind, params, points, joint = force_element_params(obj, bodies)
    m = conv.model
    try:
        if FORCE_TYPES[kind].attach == "bodies":
            from .contact_shapes import contact_shape
            what = "Force element '%s'" % obj.Label
            b1, b2 = points[2:]
            spacing = _force_quantity(obj.SampleSpacing, "points", "length",
                                      what + ": SampleSpacing") / M_PER_MM
            deflection = _force_quantity(obj.Deflection, "points", "length",
                                         what + ": Deflection") / M_PER_MM
            shapes = [contact_shape(b, first, spacing, deflection, what)
                      for b, first in ((b1, True), (b2, False))]
            return m.add_contact(conv.body_map[b1.Name], conv.body_map[b2.Name], *shapes,
                                 name=name, **params)
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
        if FORCE_TYPES[kind].law == "stop":
            return m.add_joint_stop(sj, name=name, **params)
        return m.add_joint_actuator(sj, params["value"], dof=params["dof"], name=name)
    except ModelError as exc:
        what = "Force element '%s'" % obj.Label
        if str(exc).startswith(what):
            raise
        raise ModelError("%s: %s" % (what, exc)) from None
