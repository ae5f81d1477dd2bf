"""The one headless entry point that creates SimPhant document objects.

Scripts, GUI commands and tests all create objects here (as FEM's
``ObjectsFem``). Every function validates its input first and raises
``ModelError`` naming the offending object, so a failed call adds nothing to
the document. Objects are made from the type registry (``objects.OBJECT_TYPES``,
``objects.add_object``), which also gives them their view providers when
``FreeCAD.GuiUp``.

Units follow the document: lengths in mm, angles in degrees, forces in N,
torques in N m, density in kg/m^3, mass in kg; vector components may also be
given as quantity strings ("1 m/s").

Example::

    import FreeCAD
    from SimPhantWorkbench import factory, runner
    doc = FreeCAD.ActiveDocument
    study = factory.make_study(doc)
    base = factory.make_body(study, doc.Base, fixed=True)
    rod = factory.make_body(study, doc.Rod, density=2700)
    factory.make_joint(study, "revolute", (doc.Base, "Edge1"), (doc.Rod, "Vertex2"))
    result = runner.run_study(study)
"""
import FreeCAD

from .document.base import find_study, is_type, require_study, study_bodies, study_result, \
    transaction
from .objects import add_object, proxy_class
from .solver import JOINT_TYPES, ModelError

__all__ = ["make_study", "make_body", "make_joint", "make_force", "make_torque", "make_result",
           "make_parameter_study", "make_force_element", "make_spring", "make_damper",
           "make_contractile_force", "make_joint_spring", "make_joint_actuator", "make_driver",
           "make_body_driver", "make_coupler"]


def _vector(value, unit, what):
    """A 3-vector of numbers (in ``unit``) or quantity strings -> ``FreeCAD.Vector`` in ``unit``."""
    from .document.units import quantity_si
    if value is None:
        return FreeCAD.Vector()
    try:
        comps = [quantity_si(c, unit) for c in value]
    except Exception as exc:  # noqa: BLE001 - report any malformed input
        raise ModelError("%s: expected 3 numbers [%s] or quantities, got %r (%s)"
                         % (what, unit, value, exc)) from None
    if len(comps) != 3:
        raise ModelError("%s: expected 3 components, got %r" % (what, value))
    import math
    if not all(math.isfinite(c) for c in comps):
        raise ModelError("%s: the components must be finite, got %r" % (what, value))
    return FreeCAD.Vector(*comps)


def _optional_positive(value, what):
    """A positive finite float, or 0.0 ("not set") for None."""
    import math
    if value is None:
        return 0.0
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ModelError("%s must be a number, got %r" % (what, value)) from None
    if not math.isfinite(v) or v <= 0.0:
        raise ModelError("%s must be positive and finite, got %r" % (what, value))
    return v


# ----------------------------------------------------------------------------- study

def make_study(doc, name="Study"):
    """Add a Study (the container of a motion study) to ``doc``."""
    with transaction(doc, "Add SimPhant study"):
        return add_object(doc, "SimPhant::Study", name)


def make_result(study, name="Result"):
    """Add an (empty) Result object to ``study``; ``runner.run_study`` fills it."""
    require_study(study)
    if study_result(study) is not None:
        raise ModelError("Study '%s' already has a result '%s'"
                         % (study.Label, study_result(study).Label))
    return _create(study, "Add SimPhant result", name, "SimPhant::Result", None,
                   lambda obj: None)


def make_parameter_study(study, spec, name="ParameterStudy", label=None):
    """Add a parameter study of ``study`` holding ``spec`` (a ``sweep.Spec`` or its dict).

    ``sweep.run_parameter_study`` runs it and stores the results table in it.
    """
    import json
    from .sweep.spec import Spec, spec_from_dict
    require_study(study)
    data = spec.to_dict() if isinstance(spec, Spec) else spec
    spec_from_dict(data, "Parameter study '%s'" % (label or name))     # validates
    text = json.dumps(data, indent=1)

    def fill(obj):
        obj.Specification = text

    return _create(study, "Add SimPhant parameter study", name, "SimPhant::ParameterStudy",
                   label, fill)


# ----------------------------------------------------------------------------- bodies

def make_body(study, shape_obj, fixed=False, density=None, mass=None, velocity=None,
              angular_velocity=None, name=None):
    """Add a rigid body made of ``shape_obj`` to ``study``.

    Parameters
    ----------
    shape_obj : Part feature, PartDesign Body, App::Part or App::Link
        The solid(s) the body moves.
    fixed : bool
        The body is the ground (does not move).
    density : float, optional
        Density [kg/m^3]; default: the object's material, else the default
        density (with a warning).
    mass : float, optional
        Mass [kg] overriding volume x density.
    velocity : 3 components, optional
        Initial CoG velocity [mm/s] (or quantity strings), world axes.
    angular_velocity : 3 components, optional
        Initial angular velocity [deg/s] (or quantity strings), world axes.
    name : str, optional
        Object name (and label); default ``"Body"`` labelled after the shape.
    """
    from .document.bodies import body_data
    require_study(study)
    if shape_obj is None or not hasattr(shape_obj, "Placement"):
        raise ModelError("'%s' cannot be a body: it has no placement (pick a Part feature, a "
                         "PartDesign Body, an App::Part or an App::Link)"
                         % getattr(shape_obj, "Label", shape_obj))
    if shape_obj.Document != study.Document:
        raise ModelError("'%s' is in another document than study '%s'"
                         % (shape_obj.Label, study.Label))
    for b in study_bodies(study):
        if b.ShapeObject == shape_obj:
            raise ModelError("'%s' is already body '%s' of study '%s'"
                             % (shape_obj.Label, b.Label, study.Label))
    what = "Body for '%s'" % shape_obj.Label
    density = _optional_positive(density, what + ": density")
    mass = _optional_positive(mass, what + ": mass")
    v = _vector(velocity, "mm/s", what + ": velocity")
    w = _vector(angular_velocity, "deg/s", what + ": angular velocity")

    def fill(obj):
        obj.ShapeObject = shape_obj
        obj.Fixed = bool(fixed)
        obj.Density = density
        obj.MassOverride = mass
        obj.InitialVelocity = v
        obj.InitialAngularVelocity = w
        body_data(obj, warn=False)          # validates: solid, volume, density
        obj.Proxy.execute(obj)              # fills the read-only mass properties

    return _create(study, "Add SimPhant body", name or "Body", "SimPhant::Body",
                   name or (shape_obj.Label + "_body"), fill)


# ----------------------------------------------------------------------------- joints

def _reference(ref, what, doc):
    """``(obj, "Edge3")``, ``(obj, ["Edge3"])`` -> value of a reference property
    (``document.links.REFERENCE_TYPE``); ``obj`` must be an object of ``doc`` (the study's
    document: a part linked from another file is picked on its App::Link)."""
    if ref is None:
        raise ModelError("%s: missing reference" % what)
    try:
        obj, sub = ref
    except (TypeError, ValueError):
        raise ModelError("%s: a reference is (object, 'Edge3'), got %r" % (what, ref)) from None
    if isinstance(sub, (list, tuple)):
        if len(sub) != 1:
            raise ModelError("%s: pick exactly one element of '%s', got %r"
                             % (what, getattr(obj, "Label", obj), sub))
        sub = sub[0]
    if not hasattr(obj, "Document") or not isinstance(sub, str):
        raise ModelError("%s: a reference is (object, 'Edge3'), got %r" % (what, ref))
    if obj.Document is not doc:
        from .document.links import foreign_reference_error
        raise foreign_reference_error(obj, doc, what)
    return obj, [sub]


def _joint_kind(kind):
    if kind not in JOINT_TYPES:
        raise ModelError("unknown joint type %r; valid types: %s" % (kind, ", ".join(JOINT_TYPES)))
    return kind


def make_joint(study, kind, ref1, ref2, name=None, offset=0.0, reverse=False, length=None,
               placements=None, label=None, angle=None):
    """Add a joint of registry ``kind`` between the bodies owning ``ref1`` and ``ref2``.

    Parameters
    ----------
    kind : str
        A name of ``solver.JOINT_TYPES`` ("revolute", "spherical", ...).
    ref1, ref2 : (object, "Edge3")
        Sub-elements (vertex, edge, face) of the shape objects of two different
        bodies of the study; side 1's reference gives the joint axis direction.
    offset : float or quantity
        Side 2 stands ``offset`` [mm] ahead of side 1 along the joint axis.
    reverse : bool
        Flip the joint axis.
    length : float or quantity, optional
        Distance joints: the kept distance [mm] (default: the one at the start).
    angle : float or quantity, optional
        Angle joints: the kept angle between the joint z axes [deg] (default: the one
        at the start).
    placements : (Placement, Placement), optional
        Explicit joint frames: each side's frame in the local frame of its
        body's shape object [mm] (``FrameSource = "Placements"``). The
        references then only name the bodies: ``(obj, "")`` is allowed.
    label : str, optional
        Label of the joint (default: ``name``).
    """
    from .document.joints import joint_data
    from .document.units import quantity_si
    require_study(study)
    kind = _joint_kind(kind)
    what = "Joint %s" % (repr(label or name) if (label or name) else "(%s)" % kind)
    r1 = _reference(ref1, what + " Reference1", study.Document)
    r2 = _reference(ref2, what + " Reference2", study.Document)
    if placements is not None:
        try:
            pl1, pl2 = (FreeCAD.Placement(p) for p in placements)
        except Exception:  # noqa: BLE001 - report any malformed input
            raise ModelError("%s: placements must be two FreeCAD Placements, got %r"
                             % (what, placements)) from None
    bodies = study_bodies(study)
    from .document.bodies import body_of_object
    for which, (obj, sub) in (("Reference1", r1), ("Reference2", r2)):
        if body_of_object(bodies, obj) is None:
            raise ModelError("%s %s: '%s' is not the shape of a body of study '%s'; add a body "
                             "for it first" % (what, which, obj.Label, study.Label))
    def fill(obj):
        obj.JointType = kind
        obj.Reference1 = r1
        obj.Reference2 = r2
        obj.Offset = quantity_si(offset, "mm")
        obj.Reverse = bool(reverse)
        if length is not None:
            obj.Length = quantity_si(length, "mm")
        if angle is not None:
            obj.Angle = quantity_si(angle, "deg")
        if placements is not None:
            obj.Placement1 = pl1
            obj.Placement2 = pl2
            obj.FrameSource = "Placements"
        joint_data(obj, bodies)          # validates references, bodies and axes
        obj.Proxy.execute(obj)           # fills Frame1/Frame2

    return _create(study, "Add SimPhant joint", name or "Joint", "SimPhant::Joint",
                   label or name, fill)


# ----------------------------------------------------------------------------- loads

def _load_body(study, body_or_obj, what):
    if is_type(body_or_obj, "SimPhant::Body"):
        if find_study(body_or_obj) != study:
            raise ModelError("%s: body '%s' is not in study '%s'"
                             % (what, body_or_obj.Label, study.Label))
        return body_or_obj
    from .document.bodies import body_of_object
    body = body_of_object(study_bodies(study), body_or_obj)
    if body is None:
        raise ModelError("%s: '%s' is not a body of study '%s'"
                         % (what, getattr(body_or_obj, "Label", body_or_obj), study.Label))
    return body


def _load_value(value, unit, what):
    """(constant Vector, function text): a 3-vector of numbers, or expressions of t."""
    from .document.elements import parse_time_function
    from .solver.expressions import format_vector_function
    if isinstance(value, str) or (not isinstance(value, FreeCAD.Vector) and value is not None
                                  and any(isinstance(c, str) for c in value)):
        text = format_vector_function(value)
        parse_time_function(text, what)          # validate now
        return FreeCAD.Vector(), text
    return _vector(value, unit, what), ""


def _frame(frame, what):
    from .document.elements import LOAD_FRAMES
    for f in LOAD_FRAMES:
        if isinstance(frame, str) and frame.lower() == f.lower():
            return f
    raise ModelError("%s: frame must be 'world' or 'body', got %r" % (what, frame))


def _make_load(study, body_or_obj, value, ref, frame, name, torque):
    require_study(study)
    kind = "Torque" if torque else "Force"
    what = "%s %s" % (kind, repr(name) if name else "")
    what = what.strip()
    body = _load_body(study, body_or_obj, what)
    if body.Fixed:
        raise ModelError("%s: body '%s' is fixed; a load needs a moving body"
                         % (what, body.Label))
    vec, text = _load_value(value, "N m" if torque else "N", what)
    frame = _frame(frame, what)
    r = None
    if ref is not None:
        r = _reference(ref, what + " Reference", study.Document)
        from .document.bodies import body_of_object
        if body_of_object([body], r[0]) is None:
            raise ModelError("%s: the point '%s.%s' is not on body '%s'"
                             % (what, r[0].Label, r[1][0], body.Label))
        from .document.references import reference_frame
        reference_frame(r[0], r[1][0])     # validates the element
    def fill(obj):
        obj.Body = body
        if torque:
            obj.Torque = vec
            obj.TorqueFunction = text
        else:
            obj.Force = vec
            obj.ForceFunction = text
            if r is not None:
                obj.Reference = r
        obj.Frame = frame

    return _create(study, "Add SimPhant " + kind.lower(), name or kind,
                   "SimPhant::Torque" if torque else "SimPhant::Force", name, fill)


def make_force(study, body_or_obj, force, ref=None, frame="world", name=None):
    """Add a force [N] on a body (given as its Body object or its shape object).

    ``force`` is a constant 3-vector [N], or a function of time ``t`` [s]: a
    string ``"0, 0, 10*sin(2*pi*t)"`` or three component strings. It acts at
    the point of ``ref`` ``(obj, "Vertex2")`` (a vertex, or the centre of an
    edge or face of the body), else at the CoG; ``frame`` "world" or "body".
    """
    return _make_load(study, body_or_obj, force, ref, frame, name, torque=False)


def make_torque(study, body_or_obj, torque, frame="world", name=None):
    """Add a pure torque [N m] (constant 3-vector or function of ``t``, as ``make_force``)."""
    return _make_load(study, body_or_obj, torque, None, frame, name, torque=True)


# ----------------------------------------------------------------------------- force elements

def _force_text(value, unit):
    """A number (in ``unit``) or a quantity text -> quantity text; None -> '0 unit'."""
    if value is None:
        return "0 %s" % unit
    if isinstance(value, str):
        return value
    if hasattr(value, "UserString"):
        return value.UserString
    return "%r %s" % (float(value), unit)


def _force_table_text(table):
    if table is None:
        return ""
    if isinstance(table, str):
        return table
    return "; ".join("%r, %r" % (float(x), float(f)) for x, f in table)


def make_force_element(study, kind, ref1=None, ref2=None, joint=None, stiffness=None,
                       damping=None, free_length=None, preload=0.0, force=0.0, value=0.0,
                       dof=None, name=None, label=None, lower=None, upper=None, exponent=1.5,
                       penetration=None, law=None, restitution=None, rest_speed=None,
                       contact=None):
    """Add a force element of registry ``kind`` (``solver.forces.FORCE_TYPES``).

    Point kinds take ``ref1``/``ref2`` ``(obj, "Vertex2")`` on two bodies (a vertex, a
    circle edge's centre or a face's centre); joint kinds take ``joint`` (a Joint
    object) and ``dof`` ("rotation" or "translation"; default the joint's first).
    ``stiffness``/``damping``: numbers in N/mm, N s/mm (N mm/deg, N mm s/deg about a
    joint axis), quantity texts ("10 N/mm"), or tables [(deflection mm|deg, force N|N m),
    ...] / [(rate mm/s|deg/s, force), ...]. ``free_length`` [mm or deg, or a quantity]:
    default its value at the start (the distance of the points, the joint angle or
    slide). ``preload``/``force`` [N]; ``value`` [N m or N]: a number or a function of
    ``t`` as text ("2*sin(t)"). An end stop (``joint_stop``) takes ``lower`` and/or
    ``upper`` [mm or deg, or quantities], ``stiffness`` (its force at 1 mm or 1 deg of
    penetration, per mm or deg), ``exponent``, ``damping`` and ``penetration`` (where the
    damping is full; default 0.1 mm or deg), and ``law`` ("compliant" or "impulsive"),
    ``restitution`` (e in [0, 1]) and ``rest_speed`` [mm/s or deg/s, or a quantity] of
    an impulsive stop. A contact (``contact``) takes ``ref1``/``ref2`` (any element of
    each of its two bodies: their whole solids touch), ``stiffness``, ``exponent``,
    ``damping`` and ``penetration`` as an end stop, and ``contact``: a dict of its
    object's Contact properties (``ContactLaw``, ``Restitution``, ``ImpactSpeed``,
    ``MuStatic``, ``MuDynamic``, ``StictionSpeed``, ``FrictionSpeed``, ``SampleSpacing``,
    ``Deflection``; speeds and lengths as quantity texts or numbers in mm/s and mm).
    """
    from .document.elements import FORCE_UNITS, force_element_params
    from .solver.forces import JOINT_DOFS, STOP_LAWS, force_spec
    require_study(study)
    spec = force_spec(kind)
    what = "%s %s" % (spec.label, repr(label or name) if (label or name) else "")
    what = what.strip()
    r1 = r2 = None
    if spec.attach in ("points", "bodies"):
        r1 = _reference(ref1, what + " Reference1", study.Document)
        r2 = _reference(ref2, what + " Reference2", study.Document)
        geometry = "points"
    else:
        if not is_type(joint, "SimPhant::Joint"):
            raise ModelError("%s: needs a SimPhant joint, got %r" % (what, joint))
        if find_study(joint) != study:
            raise ModelError("%s: joint '%s' is not in study '%s'"
                             % (what, joint.Label, study.Label))
        if dof is None:
            dof = JOINT_DOFS.get(str(joint.JointType), ("rotation",))[0]
        geometry = dof if dof in FORCE_UNITS else "points"
    units = FORCE_UNITS[geometry]
    if law is not None and law not in STOP_LAWS:
        raise ModelError("%s: law must be one of %s, got %r" % (what, ", ".join(STOP_LAWS), law))
    import numbers
    is_table = {k: v is not None and not isinstance(v, (str, numbers.Real))
                and not hasattr(v, "UserString") for k, v in (("s", stiffness), ("d", damping))}

    def fill(obj):
        obj.Kind = kind
        if r1 is not None:
            obj.Reference1 = r1
            obj.Reference2 = r2
        if joint is not None:
            obj.Joint = joint
        if dof is not None:
            obj.Dof = dof
        if is_table["s"]:
            obj.StiffnessTable = _force_table_text(stiffness)
        else:
            obj.Stiffness = _force_text(stiffness, units["stiffness"])
        if is_table["d"]:
            obj.DampingTable = _force_table_text(damping)
        else:
            obj.Damping = _force_text(damping, units["damping"])
        if free_length is not None:
            obj.FreeLengthFromStart = False
            obj.FreeLength = _force_text(free_length, units["length"])
        for switch, prop, limit in (("EnableLower", "Lower", lower),
                                    ("EnableUpper", "Upper", upper)):
            if limit is not None:
                setattr(obj, switch, True)
                setattr(obj, prop, _force_text(limit, units["length"]))
        obj.Exponent = float(exponent)
        if penetration is not None:
            obj.Penetration = _force_text(penetration, units["length"])
        if law is not None:
            obj.Law = law
        if restitution is not None:
            obj.Restitution = float(restitution)
        if rest_speed is not None:
            obj.RestSpeed = _force_text(rest_speed, units["rate"])
        obj.Preload = float(preload)
        obj.Force = float(force)
        if isinstance(value, str):
            obj.ValueFunction = value
        else:
            obj.Value = float(value)
        _contact_properties(obj, contact or {}, what)
        force_element_params(obj)          # the one validation (solver.forces.check_element)

    return _create(study, "Add SimPhant " + spec.label.lower(), name or spec.label.replace(
        " ", "").replace("-", ""), "SimPhant::ForceElement",
        label or name, fill)


#: a contact's properties (``make_force_element``'s ``contact``) and their document unit
_CONTACT_PROPS = {"ContactLaw": None, "Restitution": None, "MuStatic": None,
                  "MuDynamic": None, "ImpactSpeed": "mm/s", "StictionSpeed": "mm/s",
                  "FrictionSpeed": "mm/s", "SampleSpacing": "mm", "Deflection": "mm"}


def _contact_properties(obj, values, what):
    unknown = set(values) - set(_CONTACT_PROPS)
    if unknown:
        raise ModelError("%s: unknown contact properties %s; valid: %s"
                         % (what, ", ".join(sorted(unknown)), ", ".join(_CONTACT_PROPS)))
    for key, v in values.items():
        unit = _CONTACT_PROPS[key]
        if key == "ContactLaw":
            from .solver.contact import CONTACT_LAWS
            if v not in CONTACT_LAWS:
                raise ModelError("%s: ContactLaw must be one of %s, got %r"
                                 % (what, ", ".join(CONTACT_LAWS), v))
            setattr(obj, key, v)
        else:
            setattr(obj, key, float(v) if unit is None else _force_text(v, unit))


def make_spring(study, ref1, ref2, stiffness, damping=0.0, free_length=None, preload=0.0,
                name=None, label=None):
    """Add a spring-damper between two picked points (see ``make_force_element``)."""
    return make_force_element(study, "spring_damper", ref1, ref2, stiffness=stiffness,
                              damping=damping, free_length=free_length, preload=preload,
                              name=name, label=label)


def make_damper(study, ref1, ref2, damping, name=None, label=None):
    """Add a damper between two picked points [N s/mm, a quantity or a table]."""
    return make_force_element(study, "damper", ref1, ref2, damping=damping, name=name,
                              label=label)


def make_contractile_force(study, ref1, ref2, force, name=None, label=None):
    """Add a force of constant magnitude [N] pulling two picked points together."""
    return make_force_element(study, "contractile", ref1, ref2, force=force, name=name,
                              label=label)


def make_joint_spring(study, joint, stiffness, damping=0.0, rest=None, dof=None, name=None,
                      label=None):
    """Add a torsional (``dof="rotation"``: N mm/deg, N mm s/deg, rest in deg) or linear
    (``"translation"``: N/mm, N s/mm, mm) spring-damper on ``joint``'s axis."""
    return make_force_element(study, "joint_spring", joint=joint, stiffness=stiffness,
                              damping=damping, free_length=rest, dof=dof, name=name,
                              label=label)


def make_joint_actuator(study, joint, value, dof=None, name=None, label=None):
    """Add a prescribed moment [N m] about / force [N] along ``joint``'s axis: a number or
    a function of ``t`` as text."""
    return make_force_element(study, "joint_actuator", joint=joint, value=value, dof=dof,
                              name=name, label=label)


# ----------------------------------------------------------------------------- drivers

def make_driver(study, joint, driver_type=None, function="ramp", name=None, label=None,
                **values):
    """Add a driver (motor, actuator) prescribing the motion of ``joint`` (a Joint of the
    study).

    ``driver_type`` "rotation" or "translation" (default: the first the joint kind
    has: rotation for revolute and cylindrical joints); ``function`` one of
    ``solver.drivers.FUNCTION_TYPES`` (constant, ramp, step, step5, harmonic,
    expression); ``values`` set the Driver's properties of that function, in
    document units or as quantity strings: ``Angle``, ``Speed`` [rpm],
    ``EndAngle``, ``AngleAmplitude`` (rotation), ``Distance``, ``Velocity``
    [mm/s], ``EndDistance``, ``DistanceAmplitude`` (translation), ``StartTime``,
    ``EndTime`` [s], ``Frequency`` [Hz], ``Phase``, ``Expression`` (SI, in t).

    Example: a motor at 60 rpm: ``make_driver(study, hinge, function="ramp", Speed=60)``.
    """
    from .document.elements import driver_data
    from .solver.drivers import FUNCTION_TYPES, drivable_kinds, joint_driver_kinds
    require_study(study)
    what = "Driver %s" % (repr(label or name) if (label or name) else "")
    what = what.strip()
    if not is_type(joint, "SimPhant::Joint") or find_study(joint) != study:
        raise ModelError("%s: '%s' is not a joint of study '%s'"
                         % (what, getattr(joint, "Label", joint), study.Label))
    if driver_type is None:
        kinds = drivable_kinds(str(joint.JointType))
        if not kinds:
            raise ModelError("%s: joint '%s' (%s) has no rotation or translation about its "
                             "axis to drive" % (what, joint.Label, joint.JointType))
        driver_type = kinds[0]
    if driver_type not in joint_driver_kinds():
        raise ModelError("%s: unknown driver type %r; valid types: %s"
                         % (what, driver_type, ", ".join(joint_driver_kinds())))
    if function not in FUNCTION_TYPES:
        raise ModelError("%s: unknown function %r; valid functions: %s"
                         % (what, function, ", ".join(FUNCTION_TYPES)))
    known = {s.name for s in proxy_class("SimPhant::Driver").PROPERTIES} - {"Joint", "DriverType",
                                                                        "Function"}
    _check_known(values, sorted(known), what)

    def fill(obj):
        obj.Joint = joint
        obj.DriverType = driver_type
        obj.Function = function
        _set_values(obj, values, what)
        driver_data(obj)                 # validates the joint, its DOF and the motion

    return _create(study, "Add SimPhant driver", name or "Driver", "SimPhant::Driver",
                   label or name, fill)


def make_body_driver(study, driver_type, body, reference, axis=None, body1=None, name=None,
                     label=None, **values):
    """Add a body driver (``document.body_drivers``): ``driver_type`` "point" (the point
    ``reference`` of ``body`` moves by a displacement x(t), y(t), z(t) [mm] from its start,
    world axes), "angle" (the angle [deg] of ``reference``'s vector of ``body`` about
    ``axis``, an element of ``body1`` or of a fixed body, from its start) or "direction"
    (``reference``'s vector of ``body`` along a direction x(t), y(t), z(t), world axes or
    ``body1``'s; without ``values``, constant: the one it has at the start).

    ``body`` and ``body1`` are Body objects or their shape objects; ``reference`` and
    ``axis`` ``(obj, "Edge3")``. ``values`` set the driver's properties, per motion
    (suffix X, Y, Z of a point or direction, none of an angle): ``Function`` (a
    ``FUNCTION_TYPES`` name, default constant), ``Value``, ``EndValue``, ``Amplitude``
    [mm, deg or 1], ``Rate`` [mm/s, deg/s or 1/s], ``StartTime``, ``EndTime`` [s],
    ``Frequency`` [Hz], ``Phase`` [deg], ``Expression`` (SI, in t).

    Example: a point on a circle of 50 mm at 1 Hz: ``make_body_driver(study, "point", puck,
    (doc.Puck, "Vertex1"), FunctionX="harmonic", AmplitudeX=50, PhaseX=90, ValueX=-50,
    FunctionY="harmonic", AmplitudeY=50)``.
    """
    from .document.body_drivers import BODY_DRIVER, body_driver_data, default_values
    from .solver.drivers import body_driver_kinds
    require_study(study)
    what = "Driver %s" % (repr(label or name) if (label or name) else "(%s)" % driver_type)
    if driver_type not in body_driver_kinds():
        raise ModelError("%s: unknown body driver type %r; valid types: %s"
                         % (what, driver_type, ", ".join(body_driver_kinds())))
    bodies = [_load_body(study, b, what) if b is not None else None for b in (body, body1)]
    refs = [_reference(r, "%s %s" % (what, p), study.Document) if r is not None else None
            for r, p in ((reference, "Reference"), (axis, "Axis"))]
    known = {s.name for s in proxy_class(BODY_DRIVER).PROPERTIES} - {
        "DriverType", "Body", "Body1", "Reference", "Axis", "ReferenceSignatures"}
    _check_known(values, sorted(known), what)

    def fill(obj):
        obj.DriverType = driver_type
        obj.Body, obj.Body1 = bodies
        for prop, ref in zip(("Reference", "Axis"), refs):
            if ref is not None:
                setattr(obj, prop, ref)
        _set_values(obj, values or default_values(obj), what)
        body_driver_data(obj)            # validates the bodies, the picks and the motions

    return _create(study, "Add SimPhant driver", name or "Driver", BODY_DRIVER,
                   label or name, fill)


def make_coupler(study, joint1, joint2=None, coupler_type="gear", name=None, label=None,
                 **values):
    """Add a coupler between joints of ``study`` (``solver.couplers.COUPLER_TYPES``):
    ``"gear"`` (external gear pair) or ``"belt"`` (belt, chain, internal gear) between two
    revolute or cylindrical joints with parallel axes, ``Ratio`` = N2/N1; ``"rack_pinion"``
    between a pinion's revolute (``joint1``) and a rack's prismatic (``joint2``), pitch
    ``Radius``; ``"screw"`` on one cylindrical joint, ``Lead``. ``values`` set the
    Coupler's properties, in document units or as quantity strings (``Radius="20 mm"``).

    Example: ``make_coupler(study, pinion_hinge, wheel_hinge, "gear", Ratio=42 / 18)``.
    """
    from .document.couplers import coupler_data
    from .solver.couplers import COUPLER_TYPES
    require_study(study)
    what = ("Coupler %s" % (repr(label or name) if (label or name) else "")).strip()
    if coupler_type not in COUPLER_TYPES:
        raise ModelError("%s: unknown coupler type %r; valid types: %s"
                         % (what, coupler_type, ", ".join(COUPLER_TYPES)))
    for joint in (joint1, joint2):
        if joint is not None and (not is_type(joint, "SimPhant::Joint")
                                  or find_study(joint) != study):
            raise ModelError("%s: '%s' is not a joint of study '%s'"
                             % (what, getattr(joint, "Label", joint), study.Label))
    _check_known(values, ("Ratio", "Radius", "Lead"), what)

    def fill(obj):
        obj.CouplerType = coupler_type
        obj.Joint1 = joint1
        obj.Joint2 = joint2
        _set_values(obj, values, what)
        coupler_data(obj)                # validates the type, the joints and the value

    return _create(study, "Add SimPhant coupler", name or "Coupler", "SimPhant::Coupler",
                   label or name, fill)


# ----------------------------------------------------------------------------- helpers

def _check_known(values, known, what):
    """``ModelError`` naming the keys of ``values`` not in ``known`` (listed as given)."""
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ModelError("%s: unknown propert%s %s; valid: %s"
                         % (what, "y" if len(unknown) == 1 else "ies", ", ".join(unknown),
                            ", ".join(known)))


def _set_values(obj, values, what):
    """Set ``obj``'s properties from ``values`` (document units or quantity strings); a
    value FreeCAD refuses is a ``ModelError`` naming ``what`` and the property."""
    for key, value in values.items():
        try:
            setattr(obj, key, value)
        except Exception as exc:  # noqa: BLE001 - FreeCAD unit/type errors
            raise ModelError("%s: %s = %r: %s" % (what, key, value, exc)) from None


def _create(study, title, name, type_name, label, fill):
    """Add a ``proxy_cls`` object to ``study`` and ``fill`` it, in one undo step.

    If anything fails the object is removed again (undo may be off headless).
    """
    doc = study.Document
    if label:
        for other in study.Group:
            if other.Label == label:
                raise ModelError("Study '%s' already has an object named '%s'; names in a "
                                 "study are unique so that messages are unambiguous"
                                 % (study.Label, label))
    obj = None
    try:
        with transaction(doc, title):
            obj = add_object(study.Document, type_name, name, label, study)
            fill(obj)
            obj.purgeTouched()
    except Exception:
        _discard(doc, obj)
        raise
    return obj


def _discard(doc, obj):
    """Remove a half-made object (undo may be off, so abortTransaction alone is not enough)."""
    if obj is None:
        return
    try:
        if doc.getObject(obj.Name) is not None:
            doc.removeObject(obj.Name)
    except Exception:  # noqa: BLE001 - already gone
        pass
