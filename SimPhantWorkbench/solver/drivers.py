"""Drivers: prescribed motions of joints (rheonomic constraints, Haug 1989 ch. 3.3;
Nikravesh 1988 ch. 3.5; docs/theory.md, "Drivers").

A driver adds one row ``Phi = theta(q) - theta_d(t)`` to its joint: the joint's
relative rotation ``theta`` about the joint z axis (``rotation``: the angle of joint
frame 2's x axis from joint frame 1's x axis, right-handed about frame 1's z axis)
or its translation ``x = (P_2 - P_1) . z_1`` along it (``translation``). The row
sits in the joint's own block of the Schur complement; its time terms enter the
velocity equation (``nu = theta_d'``) and ``gamma`` (``+ theta_d''``).

Body drivers have a block of their own: a point on a trajectory (``point``), an angle
between two body vectors (``angle``), a body vector along a prescribed direction
``u(t)`` (``direction``: two rows ``b_k . u(t) = 0`` with the body axes ``b_k`` normal
to the vector, ``u, u', u''`` tabulated in three slots; docs/theory.md).

Two registries, one spec per kind:

* ``DRIVER_TYPES``: what is driven (the row primitive, the joints that have that
  degree of freedom, units);
* ``FUNCTION_TYPES``: the prescribed motion ``theta_d(t)`` with its first and
  second derivatives, analytic where known (constant, ramp, smooth steps,
  harmonic); expressions in ``t`` and Python callables are differentiated
  numerically (complex step where the callable accepts complex numbers, central
  differences otherwise).
"""
import math
import numbers
from collections import OrderedDict, namedtuple

import numpy as np

from .errors import ModelError
from .joints import PRIM_ANGLE, PRIM_DIR, PRIM_DOT2, PRIM_POINT, X, Y, Z

__all__ = ["DriverSpec", "DRIVER_TYPES", "driver_spec", "driver_kinds", "FunctionSpec",
           "FUNCTION_TYPES", "function_spec", "MotionFunction", "Driver", "make_motion",
           "check_driver_joint", "drivable_kinds", "joint_driver_kinds",
           "split_trajectory", "DriverRow", "body_driver_kinds", "ShiftedMotion",
           "DirectionMotion", "direction_series"]

DriverSpec = namedtuple("DriverSpec", [
    "name",         # persisted identifier (stored in documents: never rename)
    "label",        # UI text
    "rows",         # its constraint rows: (primitive, axis_i, axis_j) each
    "target",       # "joint" (rows in the joint's block) or "body" (a block of its own,
                    # between the body and ground)
    "joints",       # joint kinds that have this degree of freedom
    "unit",         # SI unit of the driven coordinate
    "rate_unit",    # ... of its rate
    "effort",       # what its multiplier is: "torque" or "force"
    "effort_unit",  # ... in SI
    "doc",          # one-line description (tooltip)
    "icon",         # icon file name in resources/icons
    "slots",        # per row, its first time-value slot (None: row k reads slot k, one
                    # (f, f', f'') each); a driver has one slot per motion
    "series",       # None (effort = -lambda per row), or f(system, i, t, Y, lam) ->
                    # (effort, power) arrays (n, number of motions) of driver i
    "components",   # names of its prescribed functions when it has several ("x", "y",
                    # "z": a trajectory, a direction), None: one
], defaults=(None, None, None))

DRIVER_ROTATION = "rotation"
DRIVER_TRANSLATION = "translation"
DRIVER_POINT = "point"
DRIVER_ANGLE = "angle"
DRIVER_DIRECTION = "direction"
TARGET_JOINT = "joint"
TARGET_BODY = "body"

DRIVER_TYPES = OrderedDict((s.name, s) for s in [
    DriverSpec(DRIVER_ROTATION, "Rotation driver (motor)", ((PRIM_ANGLE, 0, 0),), TARGET_JOINT,
               ("revolute", "cylindrical"), "rad", "rad/s", "torque", "N m",
               "Prescribes the joint's rotation about its z axis (a motor)",
               "Driver_Rotation.svg"),
    DriverSpec(DRIVER_TRANSLATION, "Translation driver (actuator)", ((PRIM_DOT2, Z, 0),),
               TARGET_JOINT, ("prismatic", "cylindrical"), "m", "m/s", "force", "N",
               "Prescribes the joint's translation along its z axis (a linear actuator)",
               "Driver_Translation.svg"),
    DriverSpec(DRIVER_POINT, "Point trajectory driver",
               ((PRIM_POINT, X, 0), (PRIM_POINT, Y, 0), (PRIM_POINT, Z, 0)), TARGET_BODY, (),
               "m", "m/s", "force", "N",
               "Moves a point of a body along a prescribed trajectory x(t), y(t), z(t) "
               "(world axes)", "Driver_Point.svg", components=("x", "y", "z")),
    DriverSpec(DRIVER_ANGLE, "Angle driver", ((PRIM_ANGLE, 0, 0),), TARGET_BODY, (),
               "rad", "rad/s", "torque", "N m",
               "Prescribes the angle from a vector of body 1 to a vector of body 2 about an "
               "axis of body 1 (body 1 may be ground: the orientation of a body vector)",
               "Driver_Angle.svg"),
    # two rows b_k . u(t) = 0 (b_1, b_2 = the body axes normal to the driven vector a):
    # a parallel to u(t); both read u, u', u'' from the driver's 3 slots (x, y, z)
    DriverSpec(DRIVER_DIRECTION, "Direction driver", ((PRIM_DIR, 0, X), (PRIM_DIR, 0, Y)),
               TARGET_BODY, (), "1", "1/s", "torque", "N m",
               "Points a vector of a body along a prescribed direction u(t) (world axes or "
               "those of a second body)", "Driver_Direction.svg",
               slots=(0, 0), series=lambda *a: direction_series(*a),
               components=("x", "y", "z")),
])


def driver_kinds():
    return list(DRIVER_TYPES)


def joint_driver_kinds():
    """The driver kinds that act on a joint (what documents and GUI commands offer)."""
    return [k for k, s in DRIVER_TYPES.items() if s.target == TARGET_JOINT]


def body_driver_kinds():
    """The driver kinds that act on bodies (point, angle, direction: a block of their own)."""
    return [k for k, s in DRIVER_TYPES.items() if s.target == TARGET_BODY]


def driver_spec(kind):
    try:
        return DRIVER_TYPES[kind]
    except (KeyError, TypeError):
        raise ModelError("unknown driver kind %r; valid kinds: %s"
                         % (kind, ", ".join(DRIVER_TYPES))) from None


def check_driver_joint(what, joint_name, joint_kind, driver_kind):
    """``ModelError`` naming the driver (``what``) and the joint when a joint of
    ``joint_kind`` has no degree of freedom of ``driver_kind``; returns the spec."""
    spec = driver_spec(driver_kind)
    if joint_kind not in spec.joints:
        raise ModelError("%s: joint %r is %s and has no %s degree of freedom to drive "
                         "(a %s driver needs a %s joint)"
                         % (what, joint_name, joint_kind, spec.name, spec.name,
                            " or ".join(spec.joints)))
    return spec


def drivable_kinds(joint_kind):
    """Driver kinds that a joint of ``joint_kind`` accepts (registry order)."""
    return [s.name for s in DRIVER_TYPES.values() if joint_kind in s.joints]


# --------------------------------------------------------------------------- time functions
def _constant(t, value):
    return np.full_like(t, value), np.zeros_like(t), np.zeros_like(t)


def _ramp(t, value, rate):
    return value + rate * t, np.full_like(t, rate), np.zeros_like(t)


def _step(t, t0, value0, t1, value1, order):
    """ADAMS-style STEP (cubic) / STEP5 (quintic) from (t0, value0) to (t1, value1)."""
    span = t1 - t0
    x = np.clip((t - t0) / span, 0.0, 1.0)
    inside = (t > t0) & (t < t1)
    dh = value1 - value0
    if order == 3:
        s, ds, dds = x * x * (3 - 2 * x), 6 * x * (1 - x), 6 - 12 * x
    else:
        s = x ** 3 * (10 - 15 * x + 6 * x * x)
        ds = 30 * x * x * (1 - x) ** 2
        dds = 60 * x * (1 - x) * (1 - 2 * x)
    return (value0 + dh * s, np.where(inside, dh * ds / span, 0.0),
            np.where(inside, dh * dds / span ** 2, 0.0))


def _step3(t, t0, value0, t1, value1):
    return _step(t, t0, value0, t1, value1, 3)


def _step5(t, t0, value0, t1, value1):
    return _step(t, t0, value0, t1, value1, 5)


def _harmonic(t, amplitude, frequency, phase, offset):
    w = 2.0 * math.pi * frequency
    a = w * t + phase
    return (offset + amplitude * np.sin(a), amplitude * w * np.cos(a),
            -amplitude * w * w * np.sin(a))


FunctionSpec = namedtuple("FunctionSpec", [
    "name",       # persisted identifier
    "label",      # UI text
    "params",     # parameter names, in call order
    "kinds",      # per parameter: "value" (driven unit), "rate" (unit/s), "time" (s),
                  # "frequency" (Hz), "angle" (rad, a phase)
    "evaluate",   # f(t array, *params) -> (f, f', f'') arrays
    "doc",
])

FUNCTION_TYPES = OrderedDict((s.name, s) for s in [
    FunctionSpec("constant", "Constant", ("value",), ("value",), _constant,
                 "Holds the joint at a fixed value"),
    FunctionSpec("ramp", "Constant rate", ("value", "rate"), ("value", "rate"), _ramp,
                 "value + rate t: a motor at constant speed, an actuator at constant velocity"),
    FunctionSpec("step", "Smooth step (cubic)", ("t0", "value0", "t1", "value1"),
                 ("time", "value", "time", "value"), _step3,
                 "Cubic step from value0 at t0 to value1 at t1 (continuous velocity)"),
    FunctionSpec("step5", "Smooth step (quintic)", ("t0", "value0", "t1", "value1"),
                 ("time", "value", "time", "value"), _step5,
                 "Quintic step from value0 at t0 to value1 at t1 (continuous acceleration)"),
    FunctionSpec("harmonic", "Harmonic", ("amplitude", "frequency", "phase", "offset"),
                 ("value", "frequency", "angle", "value"), _harmonic,
                 "offset + amplitude sin(2 pi frequency t + phase)"),
    FunctionSpec("expression", "Expression in t", ("text",), ("text",), None,
                 "Any expression in t (math functions allowed); derivatives numerical"),
])


def function_spec(kind):
    try:
        return FUNCTION_TYPES[kind]
    except (KeyError, TypeError):
        raise ModelError("unknown driver function %r; valid functions: %s"
                         % (kind, ", ".join(FUNCTION_TYPES))) from None


#: steps of the numerical derivatives: complex step (first derivative), and the
#: central differences of the first derivative (second) or of the value (fallback),
#: relative to max(1, |t|)
COMPLEX_STEP = 1e-20
FD_STEP_1 = 1e-6
FD_STEP_2 = 1e-4


def _scalar(value, what):
    try:
        v = float(np.asarray(value, dtype=float).reshape(()))
    except (TypeError, ValueError):
        raise ModelError("%s must give one number, got %r" % (what, value)) from None
    if not math.isfinite(v):
        raise ModelError("%s must be finite, got %r" % (what, value))
    return v


class MotionFunction:
    """A prescribed motion ``f(t)`` with ``values(t) -> (n, 3)`` rows ``(f, f', f'')``.

    Built from a ``FUNCTION_TYPES`` kind and its parameters (``MotionFunction("ramp",
    value=0.0, rate=6.28)``), or with ``make_motion`` from a number or callables.
    """

    def __init__(self, kind, what="driver", **params):
        self.spec = function_spec(kind)
        self.kind = self.spec.name
        self.what = what
        missing = [p for p in self.spec.params if p not in params]
        extra = [p for p in params if p not in self.spec.params]
        if missing or extra:
            raise ModelError("%s: function %r takes %s, got %s"
                             % (what, kind, ", ".join(self.spec.params), ", ".join(params)))
        self.params = OrderedDict()
        for p in self.spec.params:
            if p == "text":
                self.params[p] = str(params[p]).strip()
            else:
                self.params[p] = _scalar(params[p], "%s: parameter %r" % (what, p))
        self._callables = None
        if self.kind == "expression":
            self._callables = (_expression(self.params["text"], what), None, None)
        elif self.kind in ("step", "step5") and not self.params["t1"] > self.params["t0"]:
            raise ModelError("%s: a step needs t1 > t0, got t0=%g, t1=%g"
                             % (what, self.params["t0"], self.params["t1"]))

    @classmethod
    def from_callables(cls, position, velocity=None, acceleration=None, what="driver"):
        self = cls.__new__(cls)
        self.spec = None
        self.kind = "callable"
        self.what = what
        self.params = OrderedDict()
        self._callables = (position, velocity, acceleration)
        return self

    def values(self, times):
        """(n, 3): f, f', f'' at ``times`` [s]."""
        t = np.atleast_1d(np.asarray(times, dtype=float))
        if self._callables is None:
            args = list(self.params.values())
            out = self.spec.evaluate(t, *args)
            return np.column_stack([np.broadcast_to(np.asarray(o, dtype=float), t.shape)
                                    for o in out])
        return np.array([self._at(float(x)) for x in t]).reshape(len(t), 3)

    def value_at(self, t):
        return self.values([t])[0]

    def _call(self, fn, t, name):
        try:
            return _scalar(fn(t), "%s: its %s function at t=%g" % (self.what, name, t))
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - report the user's function failure
            raise ModelError("%s: its %s function failed at t=%g: %s"
                             % (self.what, name, t, exc)) from exc

    def _rate(self, t):
        pos, vel, _acc = self._callables
        if vel is not None:
            return self._call(vel, t, "velocity")
        return _derivative(pos, t, lambda x: self._call(pos, x, "position"))

    def _at(self, t):
        pos, vel, acc = self._callables
        f = self._call(pos, t, "position")
        fd = self._rate(t)
        if acc is not None:
            fdd = self._call(acc, t, "acceleration")
        else:
            h = FD_STEP_2 * max(1.0, abs(t))
            if vel is not None:
                fdd = (self._call(vel, t + h, "velocity") - self._call(vel, t - h, "velocity")) \
                    / (2 * h)
            elif _complex_ok(pos, t):
                fdd = (_complex_step(pos, t + h) - _complex_step(pos, t - h)) / (2 * h)
            else:
                fdd = (self._call(pos, t + h, "position") - 2 * f
                       + self._call(pos, t - h, "position")) / (h * h)
        return f, fd, fdd

    def __reduce__(self):
        """Pickled as its kind and parameters (an expression as its text), so a model with
        drivers travels to another process like one with text time functions."""
        if self.kind == "callable":
            return object.__reduce__(self)
        return (_rebuild_motion, (self.kind, self.what, dict(self.params)))

    def describe(self):
        """Plain data (kind and parameters) for fingerprints; None for Python callables."""
        if self.kind == "callable":
            return None
        return [self.kind] + [v if isinstance(v, str) else float(v).hex()
                              for v in self.params.values()]

    def __repr__(self):
        return "MotionFunction(%r, %s)" % (self.kind, dict(self.params))


class ShiftedMotion:
    """A motion plus a constant: ``offset + f(t)`` (the derivatives those of ``f``); a point
    trajectory given as the displacement from the point's start."""

    def __init__(self, motion, offset):
        self.motion = motion
        self.offset = float(offset)
        self.kind = motion.kind
        self.what = motion.what

    def values(self, times):
        out = np.array(self.motion.values(times), dtype=float)
        out[:, 0] += self.offset
        return out

    def value_at(self, t):
        return self.values([t])[0]

    def describe(self):
        inner = self.motion.describe()
        return None if inner is None else ["shifted", self.offset.hex()] + inner

    def __repr__(self):
        return "ShiftedMotion(%r, %r)" % (self.motion, self.offset)


def _rebuild_motion(kind, what, params):
    return MotionFunction(kind, what=what, **params)


def _complex_ok(fn, t):
    try:
        v = complex(np.asarray(fn(complex(t, COMPLEX_STEP))).reshape(()))
    except Exception:  # noqa: BLE001 - any failure means: no complex step
        return False
    return math.isfinite(v.imag)


def _complex_step(fn, t):
    return complex(np.asarray(fn(complex(t, COMPLEX_STEP))).reshape(())).imag / COMPLEX_STEP


def _derivative(fn, t, real_call):
    if _complex_ok(fn, t):
        return _complex_step(fn, t)
    h = FD_STEP_1 * max(1.0, abs(t))
    return (real_call(t + h) - real_call(t - h)) / (2 * h)


def _expression(text, what):
    """A scalar function of t from text, through the safe parser of ``expressions``."""
    from .expressions import TimeFunction
    if not text:
        raise ModelError("%s: the expression is empty" % what)
    padded = "%s, 0, 0" % text
    try:
        fn = TimeFunction(padded, what)
    except ModelError as exc:
        msg = str(exc).replace(repr(padded), repr(text))
        if "comma-separated" in msg:
            msg = "%s: the expression %r must give one value (no commas at its top level)" \
                % (what, text)
        raise ModelError(msg) from None
    return lambda t: fn(t)[0]


def make_motion(position, velocity=None, acceleration=None, what="driver"):
    """A ``MotionFunction`` from ``add_driver``'s arguments: a number (constant), a
    ``MotionFunction``, an expression text, or a callable (with optional callables for
    its derivatives)."""
    if isinstance(position, (MotionFunction, ShiftedMotion)):
        if velocity is not None or acceleration is not None:
            raise ModelError("%s: velocity=/acceleration= only go with a callable position" % what)
        return position
    if isinstance(position, str):
        if velocity is not None or acceleration is not None:
            raise ModelError("%s: velocity=/acceleration= only go with a callable position" % what)
        return MotionFunction("expression", what=what, text=position)
    if isinstance(position, numbers.Real) and not isinstance(position, bool):
        if velocity is not None or acceleration is not None:
            raise ModelError("%s: velocity=/acceleration= only go with a callable position; "
                             "for a constant rate use MotionFunction('ramp', value=..., rate=...)"
                             % what)
        return MotionFunction("constant", what=what, value=position)
    if callable(position):
        for name, fn in (("velocity", velocity), ("acceleration", acceleration)):
            if fn is not None and not callable(fn):
                raise ModelError("%s: %s= must be a callable of t, got %r" % (what, name, fn))
        return MotionFunction.from_callables(position, velocity, acceleration, what)
    raise ModelError("%s: position= must be a number [rad or m], a callable of t, an expression "
                     "text or a MotionFunction, got %r" % (what, position))


class Driver:
    """A prescribed motion of a joint (``Model.add_driver``) or of a body point
    (``Model.add_point_driver``): one ``MotionFunction`` per constraint row."""

    def __init__(self, model, name, kind, joint, motions, body=None, local_point=None,
                 entry=None):
        self.model = model
        self.name = name
        self.kind = kind
        self.joint = joint            # the driven joint, or None (body drivers)
        self.body = body              # the driven body of a body driver
        self.local_point = local_point
        #: body drivers: (body1, body2, frame1, frame2) of their own block, frames
        #: (point, rotation) in world at t0 as a joint's
        self.entry = entry
        self.motions = list(motions)
        self.index = None

    @property
    def spec(self):
        return DRIVER_TYPES[self.kind]

    @property
    def rows(self):
        return self.spec.rows

    @property
    def nrows(self):
        """Constraint rows the driver adds (what diagnostics count)."""
        return len(self.spec.rows)

    @property
    def nslots(self):
        """Time-value slots (one per motion) the driver has in the load table."""
        return len(self.motions)

    def row_slot(self, k):
        """The slot (of this driver's) from which row ``k`` reads its time values."""
        slots = self.spec.slots
        return k if slots is None else slots[k]

    @property
    def motion(self):
        """The motion of a one-row driver."""
        return self.motions[0]

    def row_values(self, k, times):
        """(n, 3): value, rate and second derivative of row ``k`` at ``times``."""
        return self.motions[k].values(times)

    def values(self, times):
        """(n, 3) of a one-motion driver; (n, motions, 3) of one with several."""
        if self.nslots == 1:
            return self.motions[0].values(times)
        return np.stack([m.values(times) for m in self.motions], axis=1)

    def value_at(self, t):
        return self.values([t])[0]

    def __repr__(self):
        on = self.joint.name if self.joint is not None else self.body.name
        return "<Driver %r %s on %s>" % (self.name, self.kind, on)


class DriverRow:
    """Row ``k`` of a driver as a source of the load table (``System.load_table``)."""

    def __init__(self, driver, k):
        self.driver = driver
        self.k = k

    @property
    def is_timed(self):
        return self.driver.motions[self.k].kind != "constant"

    def values(self, times):
        return self.driver.row_values(self.k, times)


def split_trajectory(trajectory, velocity=None, acceleration=None, what="driver"):
    """Three ``MotionFunction`` objects (x, y, z) from a trajectory: 3 component
    specifications (numbers, callables, texts, MotionFunctions), or a callable
    ``f(t) -> 3 numbers`` (with optional callables of its derivatives)."""
    if callable(trajectory) and not isinstance(trajectory, MotionFunction):
        def comp(fn, c):
            return None if fn is None else (lambda t, fn=fn, c=c: np.asarray(fn(t))[c])
        return [MotionFunction.from_callables(comp(trajectory, c), comp(velocity, c),
                                              comp(acceleration, c), what) for c in range(3)]
    try:
        parts = list(trajectory)
    except TypeError:
        raise ModelError("%s: the trajectory must be 3 components or a callable of t, got %r"
                         % (what, trajectory)) from None
    if len(parts) != 3:
        raise ModelError("%s: the trajectory must have 3 components (x, y, z), got %d"
                         % (what, len(parts)))
    if velocity is not None or acceleration is not None:
        raise ModelError("%s: velocity=/acceleration= only go with a callable trajectory" % what)
    return [make_motion(p, what="%s (%s)" % (what, "xyz"[c])) for c, p in enumerate(parts)]


# --------------------------------------------------------------------------- direction driver
#: smallest length of a prescribed direction vector (it is normalised)
MIN_DIRECTION = 1e-9


class DirectionMotion:
    """Component ``c`` (x, y, z) of the unit direction ``u = d / |d|`` of a direction
    driver, with its time derivatives, from the three motions of ``d(t)``:
    ``n = |d|``, ``n' = u . d'``, ``u' = (d' - n' u) / n``,
    ``n'' = (d' . d' + d . d'' - n'^2) / n``, ``u'' = (d'' - 2 n' u' - n'' u) / n``."""

    def __init__(self, motions, c, what, cache=None):
        self.parts = list(motions)
        self.c = c
        self.what = what
        self.kind = "constant" if all(m.kind == "constant" for m in self.parts) \
            else "direction"
        #: the last table, shared by the three components (the load table asks each
        #: for the same times in turn)
        self._cache = {} if cache is None else cache

    def unit_values(self, times):
        """(n, 3 components, 3 derivatives): u, u', u''."""
        t = np.atleast_1d(np.asarray(times, dtype=float))
        key = t.tobytes()
        if self._cache.get("key") != key:
            self._cache.clear()      # (not kept when the evaluation fails)
            out = self._unit_values(t)
            self._cache.update(key=key, values=out)
        return self._cache["values"]

    def _unit_values(self, t):
        D = np.stack([m.values(t) for m in self.parts], axis=1)      # (n, comp, deriv)
        d, d1, d2 = D[:, :, 0], D[:, :, 1], D[:, :, 2]
        n = np.sqrt((d * d).sum(axis=1))
        bad = ~(n > MIN_DIRECTION)
        if bad.any():
            raise ModelError("%s: the prescribed direction is a zero vector at t=%g"
                             % (self.what, t[np.nonzero(bad)[0][0]]))
        u = d / n[:, None]
        n1 = (u * d1).sum(axis=1)
        u1 = (d1 - n1[:, None] * u) / n[:, None]
        n2 = ((d1 * d1).sum(axis=1) + (d * d2).sum(axis=1) - n1 * n1) / n
        u2 = (d2 - 2.0 * n1[:, None] * u1 - n2[:, None] * u) / n[:, None]
        return np.stack([u, u1, u2], axis=2)

    def values(self, times):
        return self.unit_values(times)[:, self.c, :].copy()

    def value_at(self, t):
        return self.values([t])[0]

    def describe(self):
        parts = [m.describe() for m in self.parts]
        return None if None in parts else ["direction", self.c] + parts

    def __repr__(self):
        return "DirectionMotion(%r, %d)" % (self.parts, self.c)


def direction_motions(direction, velocity=None, acceleration=None, what="driver"):
    """The three ``DirectionMotion`` slots (x, y, z of the unit direction) of a direction
    driver from ``direction``: 3 components (numbers, callables, texts,
    MotionFunctions) or a callable ``f(t) -> 3 numbers``."""
    parts = split_trajectory(direction, velocity, acceleration, what)
    cache = {}
    return [DirectionMotion(parts, c, what, cache) for c in range(3)]


def _quat_rotate(q, v):
    """Vectors ``v`` (n, 3) rotated by quaternions ``q`` (n, 4) = (w, x, y, z), normalised."""
    q = q / np.linalg.norm(q, axis=1)[:, None]
    w, u = q[:, :1], q[:, 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def direction_series(system, i, t, Y, lam):
    """Effort and power columns (n, 3) of direction driver ``i`` of ``system``: the torque
    [N m] (world axes) it applies to its body, ``-sum_k lambda_k b_k x c``, and
    ``torque * (w_j - w_i)`` per axis (summed: the driver's power [W])."""
    S = system.S
    nb = S.nb
    n = len(t)
    d = system.drivers[i]
    rows = system.driver_rows[i]
    s = int(system.row_joint[rows[0]])
    bi, bj = int(S.jnt_slot[s, 0]), int(S.jnt_slot[s, 1])
    Y = np.asarray(Y, dtype=float).reshape(n, 13 * nb)
    u = np.stack([d.row_values(c, t)[:, 0] for c in range(3)], axis=1) @ S.jnt_frame[s, 0].T

    def world(b, v, omega=False):
        if b >= nb:     # ground
            return np.zeros((n, 3)) if omega else np.broadcast_to(v, (n, 3))
        q = Y[:, 7 * b + 3:7 * b + 7]
        if omega:
            v = Y[:, 7 * nb + 6 * b + 3:7 * nb + 6 * b + 6]
        return _quat_rotate(q, np.broadcast_to(v, (n, 3)))

    c = world(bi, u)
    torque = np.zeros((n, 3))
    for r in rows:
        b = world(bj, S.jnt_frame[s, 1][:, int(S.row_aj[r])])
        torque -= lam[:, r][:, None] * np.cross(b, c)
    return torque, torque * (world(bj, None, True) - world(bi, None, True))
