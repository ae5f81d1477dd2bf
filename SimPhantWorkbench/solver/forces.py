"""Force-element registry: springs, dampers, contractile forces, joint springs and actuators.

Every force element acts along one scalar *coordinate* ``x`` of the model
(Nikravesh 1988, ch. 4 "force elements"; Haug 1989, ch. 11; docs/theory.md):

``GEOM_POINTS``      ``x = L = |d|``, ``d = P2 - P1`` (two body points),
                     ``x_dot = u . d_dot``, ``u = d / L``; the scalar force ``f``
                     acts as ``+f u`` at ``P2`` and ``-f u`` at ``P1``
                     (``f > 0`` pushes the points apart, ``f < 0`` pulls).
``GEOM_JOINT_ROT``   ``x = theta``, the angle of joint frame 2's x axis relative
                     to frame 1's x axis, right-handed about frame 1's z axis;
                     ``x_dot = (w2 - w1) . z1``; torque ``+f z1`` on body 2 and
                     ``-f z1`` on body 1.
``GEOM_JOINT_TRANS`` ``x = s = (P2 - P1) . z1``;
                     ``x_dot = d_dot . z1 + d . (w1 x z1)``; force ``+f z1`` at
                     ``P2`` on body 2 and ``-f z1`` at the same world point on
                     body 1 (so ``f`` does the work ``f ds`` exactly).

and every element has one scalar law (``element_force``)::

    f = f0 + u(t) - K(x - x0) - C(x_dot)

with ``K(delta) = k delta`` or a piecewise-linear table (force vs deflection),
``C(v) = c v`` or a table (force vs velocity), ``f0`` a constant (preload or a
contractile force, conservative: potential ``-f0 delta``) and ``u(t)`` the
actuator input (constant ``fa`` or a function of time through the load table).
Angles in the torsional law are wrapped: ``delta = wrap(theta - theta0)`` in
``(-pi, pi]``.

The end stop (``joint_stop``) has its own law, Adams' IMPACT function (MSC Adams
Solver reference, IMPACT and BISTOP; docs/theory.md): with the penetration
``p = x - x_max`` past its upper limit (``p = x_min - x`` past its lower one) and
its rate ``p_dot``, the stop pushes back with

    F = max(0, k p^e + STEP(p, 0, 0, d_max, c_max) p_dot)      (p > 0; else 0)

(``STEP`` Adams' cubic step; the damping grows from zero at first touch to ``c_max``
at the penetration ``d_max``, so the force is continuous at contact; the ``max``
keeps the stop from pulling when it is left faster than it springs back). Its
coordinate is the *unwrapped* joint angle: the kernel carries the last evaluated
angle (``Workspace.frc_out``) and adds the wrapped change, so a stop at 170 deg of
a joint that turns several times is met at 170 deg and not at -190 deg.

An end stop's ``law`` is ``"compliant"`` (the IMPACT law alone) or ``"impulsive"``:
Newton's restitution ``e`` at each impact, the impact located in the step and the
velocity jump of the whole constrained system solved (``solver.impacts``); an approach
slower than ``rest_speed`` is handed to the IMPACT law, which then holds the body.

Adding a kind means adding one ``ForceSpec`` to ``FORCE_TYPES`` (its geometry and
which parameters it takes); the solver arrays, the validation, the FreeCAD
properties and the GUI commands read the table.

The kernels here are compiled into ``kernels.build_forces``; numba keys the cached
kernels on ``kernels.py``'s time stamp only, so ``kernels.drop_stale_cache`` drops
them when this file (or ``blocks.py``, ``joints.py``, ``vec3.py``) changed since they
were made.
"""
import math
import numbers
from collections import OrderedDict, namedtuple

import numpy as np
from .jit import njit

from .errors import ModelError
from .vec3 import cross, frame_axis, rot, rot_t

#: the trapezoidal rule (``np.trapz`` before NumPy 2.0, ``np.trapezoid`` since)
_trapezoid = getattr(np, "trapezoid", None) or np.trapz

__all__ = ["GEOM_POINTS", "GEOM_JOINT_ROT", "GEOM_JOINT_TRANS", "ForceSpec", "ParamSpec",
           "FORCE_TYPES", "force_spec", "force_kinds", "ForceElement", "check_element",
           "JOINT_DOFS", "apply_forces", "impact_force", "add_wrench", "GEOM_CONTACT",
           "check_bounds", "element_potential", "table_integral",
           "cumtrapz", "stop_force", "stop_events", "stop_penetrations", "restart_coordinates",
           "STOP_LAWS", "OUT_X", "OUT_XDOT", "OUT_F", "OUT_PD", "OUT_PW", "OUT_ED", "OUT_EW",
           "NOUT", "NSAMPLED", "LAW_HOOKS", "LawHooks"]

TWO_PI = 2.0 * math.pi

GEOM_POINTS = 0
GEOM_JOINT_ROT = 1
GEOM_JOINT_TRANS = 2
#: a contact between two bodies' solids (``solver.contact``): no scalar coordinate; its
#: ``frc_out`` row holds the largest penetration, the power over the normal force and
#: the normal force
GEOM_CONTACT = 3

#: columns of ``SystemArrays.frc_par``: the linear law's, then the end stop's (``PAR_STOP``
#: 1.0 marks a stop; lower and upper limit, -inf / +inf when absent; stiffness, exponent,
#: maximum damping, penetration of full damping). ``PAR_X0`` is the coordinate at t0 for a
#: stop (where its unwrapped angle starts).
PAR_K, PAR_C, PAR_X0, PAR_F0, PAR_FA = range(5)
PAR_STOP, PAR_LO, PAR_HI, PAR_SK, PAR_SE, PAR_SC, PAR_SD = range(5, 12)
NPAR = 12
#: an end stop's laws (``law`` parameter; stored in documents: never rename)
STOP_LAWS = ("compliant", "impulsive")
#: columns of ``Workspace.frc_out`` (last evaluation): coordinate, its rate, force; the
#: power the element dissipates (its damping's, an end stop's beyond its elastic part) and
#: its actuator's power; then the energy it dissipated and the actuator work since the
#: run's start, summed by the fixed-step loop over each step's stages with the method's
#: own weights (``kernels.accumulate_work``)
OUT_X, OUT_XDOT, OUT_F, OUT_PD, OUT_PW, OUT_ED, OUT_EW = range(7)
NOUT = 7
#: the columns ``kernels.force_outputs`` samples (up to the powers); a contact's own
#: outputs (``contact.NCOUT``) follow them where the output array has the room
NSAMPLED = OUT_PW + 1

#: the laws whose module brings their own parameter check and fingerprint row: law ->
#: ``LawHooks`` (``contact`` registers its own when the solver package is imported, so that
#: this module, which it builds on, does not import it)
LawHooks = namedtuple("LawHooks", ["check", "row"])
LAW_HOOKS = {}

#: rigid-joint DOF each joint kind offers to joint force elements (about / along joint z)
JOINT_DOFS = {
    "revolute": ("rotation",),
    "prismatic": ("translation",),
    "cylindrical": ("rotation", "translation"),
}

#: a parameter: name, unit kind ("stiffness", "damping", "length", "force", "angle",
#: "choice", "value"; the app layer maps them to per-geometry units), default, doc
ParamSpec = namedtuple("ParamSpec", ["name", "unit", "default", "doc"])

ForceSpec = namedtuple("ForceSpec", [
    "name",      # persisted identifier (stored in documents: never rename)
    "label",     # UI text
    "attach",    # "points" (two body points), "joint" or "bodies" (two bodies' solids)
    "params",    # tuple of ParamSpec
    "doc",       # one-line description (tooltip)
    "icon",      # icon file name in resources/icons
    "law",       # "linear": f0 + u(t) - K - C; "stop": the end stop's own law (IMPACT,
                 # or impulsive: ``solver.impacts``); "contact": ``solver.contact``
], defaults=("linear",))

_P = ParamSpec
FORCE_TYPES = OrderedDict((s.name, s) for s in [
    ForceSpec("spring_damper", "Spring-damper", "points", (
        _P("stiffness", "stiffness", 0.0, "k, or a table of force vs deflection"),
        _P("damping", "damping", 0.0, "c, or a table of force vs rate of length change"),
        _P("free_length", "length", None, "L0 (default: the distance at t0)"),
        _P("preload", "force", 0.0, "constant force pushing the points apart"),
    ), "Translational spring and damper between two body points", "Spring.svg"),
    ForceSpec("damper", "Damper", "points", (
        _P("damping", "damping", 0.0, "c, or a table of force vs rate of length change"),
    ), "Damper on the rate of change of the distance of two body points", "Damper.svg"),
    ForceSpec("contractile", "Contractile force", "points", (
        _P("force", "force", 0.0, "constant magnitude pulling the points together"),
    ), "Force of constant magnitude along the line of two body points", "Contractile.svg"),
    ForceSpec("joint_spring", "Joint spring-damper", "joint", (
        _P("stiffness", "stiffness", 0.0, "k, or a table of force/torque vs deflection"),
        _P("damping", "damping", 0.0, "c, or a table of force/torque vs rate"),
        _P("rest", "length", None, "rest angle/slide (default: the value at t0)"),
        _P("dof", "choice", "rotation", "rotation about or translation along the joint z axis"),
    ), "Torsional or linear spring and damper on a joint's axis", "JointSpring.svg"),
    ForceSpec("joint_actuator", "Joint actuator", "joint", (
        _P("value", "value", 0.0, "force/moment, constant or a function of time"),
        _P("dof", "choice", "rotation", "rotation about or translation along the joint z axis"),
    ), "Prescribed moment about or force along a joint's z axis", "JointActuator.svg"),
    ForceSpec("joint_stop", "End stop", "joint", (
        _P("lower", "length", None, "lower limit of the angle/slide (none: no lower stop)"),
        _P("upper", "length", None, "upper limit of the angle/slide (none: no upper stop)"),
        _P("stiffness", "stiffness", 1e6, "k of the contact law k p^e (p: penetration)"),
        _P("exponent", "value", 1.5, "e of the contact law k p^e (>= 1)"),
        _P("damping", "damping", 0.0, "maximum damping c_max, reached at the penetration "
                                      "d_max"),
        _P("penetration", "length", 1e-4, "d_max: penetration at which the damping is "
                                          "full"),
        _P("dof", "choice", "rotation", "rotation about or translation along the joint z axis"),
        _P("law", "choice", "compliant", "compliant (the contact law alone) or impulsive "
                                         "(Newton's restitution at each impact)"),
        _P("restitution", "value", 0.5, "impulsive: coefficient of restitution e in [0, 1] "
                                        "(rebound speed / impact speed)"),
        _P("rest_speed", "rate", 1e-3, "impulsive: impacts slower than this rest on the "
                                       "stop, held by its contact law"),
    ), "End stop (joint limit) on a joint's angle or slide", "JointStop.svg", "stop"),
    ForceSpec("contact", "Contact", "bodies", (
        _P("stiffness", "stiffness", 1e7, "k of the normal law k p^e (p: penetration)"),
        _P("exponent", "value", 1.5, "e of the normal law k p^e (>= 1; 1.5: Hertz)"),
        _P("damping", "damping", 0.0, "impact law: maximum damping c_max, reached at the "
                                      "penetration d_max"),
        _P("penetration", "length", 1e-4, "impact law: d_max, penetration at which the "
                                          "damping is full"),
        _P("law", "choice", "impact", "impact (Adams' IMPACT) or hunt_crossley "
                                      "(k p^e (1 + 3 (1 - e_r) / (2 v0) p_dot))"),
        _P("restitution", "value", 1.0, "hunt_crossley: coefficient of restitution e_r "
                                        "of an impact at v0"),
        _P("impact_speed", "rate", 1.0, "hunt_crossley: the impact speed v0 of e_r"),
        _P("mu_static", "value", 0.0, "static friction coefficient (below the stiction "
                                      "speed)"),
        _P("mu_dynamic", "value", 0.0, "dynamic friction coefficient (above the friction "
                                       "speed)"),
        _P("stiction_speed", "rate", 1e-4, "sliding speed of full static friction"),
        _P("friction_speed", "rate", 1e-3, "sliding speed from which the friction is "
                                           "dynamic"),
    ), "Contact (normal force and friction) between two bodies' convex solids",
        "Contact.svg", "contact"),
])
del _P


def force_kinds():
    """Names of all registered force-element kinds, in registry order."""
    return list(FORCE_TYPES)


def force_spec(kind):
    """The ``ForceSpec`` of ``kind``; ``ModelError`` listing the valid kinds otherwise."""
    try:
        return FORCE_TYPES[kind]
    except (KeyError, TypeError):
        raise ModelError("unknown force element kind %r; valid kinds: %s"
                         % (kind, ", ".join(FORCE_TYPES))) from None


# --------------------------------------------------------------------------- validation
def _table(value, what):
    """A law table: (n, 2) rows (abscissa, force), n >= 2, abscissae strictly increasing."""
    try:
        t = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError("%s: expected a number or a table of (x, force) rows" % what) from None
    if t.ndim != 2 or t.shape[1] != 2 or t.shape[0] < 2:
        raise ModelError("%s: a table needs at least 2 rows of (x, force), got shape %s"
                         % (what, t.shape))
    if not np.all(np.isfinite(t)):
        raise ModelError("%s: table values must be finite" % what)
    if np.any(np.diff(t[:, 0]) <= 0.0):
        raise ModelError("%s: table abscissae must be strictly increasing (monotonic), got %s"
                         % (what, np.array2string(t[:, 0], precision=6)))
    return t


def _law(value, what, name):
    """A linear coefficient (finite, >= 0) or a table; returns (coefficient, table or None)."""
    if isinstance(value, bool):
        raise ModelError("%s: %s must be a number or a table, got %r" % (what, name, value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v) or v < 0.0:
            raise ModelError("%s: %s must be finite and non-negative, got %r" % (what, name, value))
        return v, None
    return 0.0, _table(value, "%s %s" % (what, name))


def real_param(value, what, name, allow_none=False):
    """``value`` as a finite float (``None`` passes with ``allow_none``); ``ModelError``
    naming ``what``'s parameter ``name`` otherwise."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ModelError("%s: %s must be a finite number, got %r" % (what, name, value))
    return float(value)


def check_element(kind, name, params, joint_name=None, joint_kind=None, points=None):
    """Validate one force element (SI values) and return its normalised parameters.

    The one validation used by ``Model``, the factory, the conversion and the GUI.
    ``params`` maps parameter names of the kind's spec to values; ``points`` is
    ``(X1, X2)`` in world coordinates at t0 for point elements; joint elements
    give the joint's name and kind. Raises ``ModelError`` naming the element.
    """
    spec = force_spec(kind)
    what = "%s %r" % (spec.label.lower(), name)
    unknown = set(params) - {p.name for p in spec.params}
    if unknown:
        raise ModelError("%s: unknown parameter(s) %s; %s takes %s" % (
            what, ", ".join(sorted(unknown)), kind, ", ".join(p.name for p in spec.params)))
    out = {p.name: params.get(p.name, p.default) for p in spec.params}
    if spec.law == "stop":
        _check_stop(out, what)
    if spec.law in LAW_HOOKS:            # a law with checks of its own (``contact``)
        LAW_HOOKS[spec.law].check(out, what)
        return out
    for key in ("stiffness", "damping"):
        if key in out and spec.law != "stop":
            out[key] = _law(out[key], what, key)
    for key in ("preload", "force"):
        if key in out:
            out[key] = real_param(out[key], what, key)
    if kind == "contractile" and out["force"] < 0.0:
        raise ModelError("%s: force must be non-negative (it pulls the points together), got %r"
                         % (what, out["force"]))
    if spec.attach == "points":
        if points is None:
            raise ModelError("%s: needs two body points" % what)
        X1, X2 = (np.asarray(p, dtype=float) for p in points)
        dist = float(np.linalg.norm(X2 - X1))
        if "free_length" in out:
            L0 = real_param(out["free_length"], what, "free_length", allow_none=True)
            if L0 is None:
                L0 = dist
            if L0 < 0.0:
                raise ModelError("%s: free_length must be non-negative, got %r" % (what, L0))
            out["free_length"] = L0
        # coincident points: only a zero-free-length spring has a defined force (k d)
        if dist < 1e-12 and (kind != "spring_damper" or out["free_length"] > 0.0
                             or out["damping"] != (0.0, None)):
            raise ModelError("%s: its two points coincide at t0: the line of action is "
                             "undefined; give two distinct points" % what)
    else:
        if joint_kind is None:
            raise ModelError("%s: needs a joint" % what)
        dof = out["dof"]
        if dof not in ("rotation", "translation"):
            raise ModelError("%s: dof must be 'rotation' or 'translation', got %r" % (what, dof))
        if dof not in JOINT_DOFS.get(joint_kind, ()):
            offers = [k for k, v in JOINT_DOFS.items() if dof in v]
            raise ModelError("%s: joint %r (%s) has no %s degree of freedom about its axis; "
                             "a %s element needs a %s joint"
                             % (what, joint_name, joint_kind, dof, dof, " or ".join(offers)))
        if "rest" in out:
            out["rest"] = real_param(out["rest"], what, "rest", allow_none=True)
        if "value" in out:
            v = out["value"]
            if not callable(v):
                out["value"] = real_param(v, what, "value")
    return out


def check_bounds(out, what, bounds):
    """``out[key]`` (in place) a finite number above ``low`` (``strict``) or not below it,
    for each ``(key, low, strict)`` of ``bounds``; ``ModelError`` naming ``what``."""
    for key, low, strict in bounds:
        v = real_param(out[key], what, key)
        if v < low or (strict and v == low):
            raise ModelError("%s: %s must be %s %g, got %r"
                             % (what, key, ">" if strict else ">=", low, v))
        out[key] = v


def _check_stop(out, what):
    """Normalise an end stop's parameters in ``out`` (in place)."""
    for key in ("lower", "upper"):
        out[key] = real_param(out[key], what, key, allow_none=True)
    if out["lower"] is None and out["upper"] is None:
        raise ModelError("%s: give a lower or an upper limit (or both)" % what)
    if out["lower"] is not None and out["upper"] is not None and out["lower"] >= out["upper"]:
        raise ModelError("%s: lower limit %r must be below the upper limit %r"
                         % (what, out["lower"], out["upper"]))
    check_bounds(out, what, (("stiffness", 0.0, True), ("exponent", 1.0, False),
                             ("damping", 0.0, False), ("penetration", 0.0, True)))
    if out["law"] not in STOP_LAWS:
        raise ModelError("%s: law must be one of %s, got %r"
                         % (what, ", ".join(STOP_LAWS), out["law"]))
    e = real_param(out["restitution"], what, "restitution")
    if not 0.0 <= e <= 1.0:
        raise ModelError("%s: restitution must be in [0, 1], got %r" % (what, e))
    out["restitution"] = e
    v = real_param(out["rest_speed"], what, "rest_speed")
    if v <= 0.0:
        raise ModelError("%s: rest_speed must be > 0, got %r" % (what, v))
    out["rest_speed"] = v


class ForceElement:
    """A force element of the model. Created by ``Model.add_spring`` & co."""

    def __init__(self, model, name, kind, params, body1=None, body2=None, points=None,
                 joint=None, shapes=None):
        self.model = model
        self.name = name
        self.kind = kind
        self.params = params      # normalised by check_element
        self.body1 = body1
        self.body2 = body2
        self.points = points      # (X1, X2) world at t0 (point elements)
        self.joint = joint
        self.shapes = shapes      # (shape1, shape2) of a contact (``solver.contact``)
        self.index = None

    @property
    def spec(self):
        return FORCE_TYPES[self.kind]

    @property
    def geometry(self):
        if self.spec.attach == "bodies":
            return GEOM_CONTACT
        if self.spec.attach == "points":
            return GEOM_POINTS
        return GEOM_JOINT_ROT if self.params["dof"] == "rotation" else GEOM_JOINT_TRANS

    @property
    def is_impulsive(self):
        """Whether the element is an end stop with the impulsive law (``solver.impacts``)."""
        return self.spec.law == "stop" and self.params["law"] == "impulsive"

    @property
    def is_timed(self):
        return callable(self.params.get("value"))

    def value_at(self, t):
        try:
            v = float(self.params["value"](t))
        except Exception as exc:  # noqa: BLE001 - report the user's function failure
            raise ModelError("joint actuator %r: its function failed at t=%g: %s"
                             % (self.name, t, exc)) from exc
        if not math.isfinite(v):
            raise ModelError("joint actuator %r: its function returned %r at t=%g"
                             % (self.name, v, t))
        return v

    def coefficients(self):
        """(par row [k, c, x0, f0, fa, stop columns], stiffness table or None, damping table
        or None); x0 of the element must be set (``x0``)."""
        p = self.params
        stop = self.spec.law != "linear"     # its own law (columns from PAR_STOP on; a
        #                                      contact's in ``SystemArrays.cnt_par``)
        k, ktab = (0.0, None) if stop else p.get("stiffness", (0.0, None))
        c, ctab = (0.0, None) if stop else p.get("damping", (0.0, None))
        f0 = p.get("preload", 0.0)
        if self.kind == "contractile":
            f0 = -p["force"]
        fa = 0.0
        if self.kind == "joint_actuator" and not self.is_timed:
            fa = p["value"]
        row = np.zeros(NPAR)
        row[:PAR_STOP] = (k, c, self.x0, f0, fa)
        if self.spec.law == "stop":
            row[PAR_STOP:] = (1.0, -np.inf if p["lower"] is None else p["lower"],
                              np.inf if p["upper"] is None else p["upper"], p["stiffness"],
                              p["exponent"], p["damping"], p["penetration"])
        return row, ktab, ctab

    def description(self, floats, name=lambda entity: entity.name):
        """Plain data of everything that determines the element's force (``floats(a)``: exact
        text of numbers; ``name(entity)``: the name of the element, its joint or bodies), for
        model fingerprints; ``None`` when its input is an arbitrary Python callable (only
        text functions can be described)."""
        par, ktab, ctab = self.coefficients()
        value = None
        if self.is_timed:
            fn = self.params["value"]
            if not isinstance(fn, ScalarTimeFunction):
                return None
            value = ["function", fn.text]
        if self.shapes is not None:
            where = [name(self.body1), name(self.body2)] + [
                [s.kind, floats(s.points.ravel()), floats(s.planes.ravel())]
                for s in self.shapes] + [floats(LAW_HOOKS[self.spec.law].row(self.params))]
        elif self.joint is not None:
            where = [name(self.joint)]
        else:
            where = [name(self.body1), name(self.body2), floats(self.points[0]),
                     floats(self.points[1])]
        out = [name(self), self.kind, self.geometry, where, floats(par),
               None if ktab is None else floats(ktab), None if ctab is None else floats(ctab),
               value]
        if self.is_impulsive:
            out.append(["impulsive", floats([self.params["restitution"],
                                             self.params["rest_speed"]])])
        return out

    def __repr__(self):
        return "<ForceElement %r %s>" % (self.name, self.kind)


def joint_coordinate(frame1, frame2, geometry):
    """Joint angle (about z1, x1 -> x2) or slide ((P2 - P1) . z1) of two world frames."""
    (P1, R1), (P2, R2) = frame1, frame2
    if geometry == GEOM_JOINT_ROT:
        x1, z1, x2 = R1[:, 0], R1[:, 2], R2[:, 0]
        return math.atan2(float(np.dot(np.cross(x1, x2), z1)), float(np.dot(x1, x2)))
    return float(np.dot(P2 - P1, R1[:, 2]))


# --------------------------------------------------------------------------- kernels
JIT = dict(cache=True, nogil=True, boundscheck=False, _nrt=False,
            fastmath={"contract", "reassoc", "nsz", "arcp"})
#: ``apply_forces`` is inlined into its one caller (``kernels.build_forces``) by numba:
#: left to LLVM, the end stop's branch made it too large to inline, and each evaluation
#: of a model with force elements paid a call passing the model's and workspace's arrays
JIT_INLINE = dict(JIT, inline="always")


@njit(**JIT)
def _interp(tx, ty, s, n, v):
    """Piecewise-linear table ``tx/ty[s:s+n]`` at ``v``, extrapolated linearly past its ends."""
    lo = s
    if v >= tx[s + n - 1]:
        lo = s + n - 2
    elif v > tx[s]:
        hi = s + n - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if tx[mid] <= v:
                lo = mid
            else:
                hi = mid
    return ty[lo] + (ty[lo + 1] - ty[lo]) * (v - tx[lo]) / (tx[lo + 1] - tx[lo])


@njit(**JIT)
def element_force(S, W, i, x, xdot):
    """The scalar law ``f = f0 + u(t) - K(x - x0) - C(x_dot)`` of element ``i`` and its
    damping part ``C(x_dot)``: ``(f, C)``."""
    delta = x - S.frc_par[i, PAR_X0]
    if S.frc_geom[i] == GEOM_JOINT_ROT:      # wrap into (-pi, pi]
        two_pi = 2.0 * math.pi
        delta = delta - two_pi * math.floor((delta + math.pi) / two_pi)
    f = S.frc_par[i, PAR_F0] + S.frc_par[i, PAR_FA] + W.frc_u[i]
    n = S.frc_ktab[i, 1]
    if n > 0:
        f -= _interp(S.frc_tabx, S.frc_taby, S.frc_ktab[i, 0], n, delta)
    else:
        f -= S.frc_par[i, PAR_K] * delta
    n = S.frc_ctab[i, 1]
    if n > 0:
        damp = _interp(S.frc_tabx, S.frc_taby, S.frc_ctab[i, 0], n, xdot)
    else:
        damp = S.frc_par[i, PAR_C] * xdot
    return f - damp, damp


@njit(**JIT)
def stop_elastic(par, x):
    """The elastic part ``-+k p^e`` of an end stop's force (``stop_force``) at its
    coordinate ``x``, summed over the limits it is past."""
    f = 0.0
    pen = par[PAR_LO] - x
    if pen > 0.0:
        f += par[PAR_SK] * pen ** par[PAR_SE]
    pen = x - par[PAR_HI]
    if pen > 0.0:
        f -= par[PAR_SK] * pen ** par[PAR_SE]
    return f


@njit(**JIT)
def stop_force(par, x, xdot):
    """The end stop's force on its coordinate ``x`` (rate ``xdot``) from its ``frc_par``
    row: Adams' IMPACT law at each limit it is past, pushing back only."""
    f = 0.0
    for side in range(2):
        if side == 0:
            pen = par[PAR_LO] - x
            rate = -xdot
        else:
            pen = x - par[PAR_HI]
            rate = xdot
        if pen > 0.0:
            push = impact_force(pen, rate, par[PAR_SK], par[PAR_SE], par[PAR_SC], par[PAR_SD])
            if push > 0.0:
                f += push if side == 0 else -push
    return f


@njit(**JIT)
def impact_force(pen, rate, k, e, c, d):
    """Adams' IMPACT law at the penetration ``pen > 0`` and its rate: ``k pen^e +
    STEP(pen, 0, 0, d, c) rate`` (before the ``max(0, .)`` of its callers)."""
    step = 1.0
    if pen < d:     # STEP(p, 0, 0, d, 1) = a^2 (3 - 2 a), a = p / d
        a = pen / d
        step = a * a * (3.0 - 2.0 * a)
    return k * pen ** e + step * c * rate


@njit(**JIT)
def add_wrench(S, W, b, f0, f1, f2, s0, s1, s2, t0, t1, t2):
    """World force f at world offset s from body b's CoG plus a world torque t -> Q[b]
    (force world, torque in the body frame); ground (b = nb) takes nothing."""
    if b < S.nb:
        A = W.A
        W.Q[b, 0] += f0
        W.Q[b, 1] += f1
        W.Q[b, 2] += f2
        m0, m1, m2 = cross(s0, s1, s2, f0, f1, f2)
        n0, n1, n2 = rot_t(A, b, m0 + t0, m1 + t1, m2 + t2)
        W.Q[b, 3] += n0
        W.Q[b, 4] += n1
        W.Q[b, 5] += n2


@njit(**JIT_INLINE)
def apply_forces(S, W):
    """Add every force element's generalised force to ``W.Q`` at the current state
    (``W.A``, ``W.r``, ``W.vel``, ``W.omega_w``); coordinate, rate and force go to
    ``W.frc_out``."""
    A = W.A
    F = S.jnt_frame
    for i in range(S.frc_geom.shape[0]):
        geom = S.frc_geom[i]
        if geom == GEOM_CONTACT:        # ``contact.apply_contacts``
            continue
        k = S.frc_joint[i]
        if geom == GEOM_JOINT_ROT:
            # the angle of x2 about z1 (both joint frames' x axes, z1 the joint axis)
            bi = S.jnt_slot[k, 0]
            bj = S.jnt_slot[k, 1]
            e0, e1, e2 = frame_axis(A, bi, F, k, 0, 2)
            x10, x11, x12 = frame_axis(A, bi, F, k, 0, 0)
            x20, x21, x22 = frame_axis(A, bj, F, k, 1, 0)
            c0, c1, c2 = cross(x10, x11, x12, x20, x21, x22)
            x = math.atan2(c0 * e0 + c1 * e1 + c2 * e2, x10 * x20 + x11 * x21 + x12 * x22)
            xdot = ((W.omega_w[bj, 0] - W.omega_w[bi, 0]) * e0
                    + (W.omega_w[bj, 1] - W.omega_w[bi, 1]) * e1
                    + (W.omega_w[bj, 2] - W.omega_w[bi, 2]) * e2)
        else:
            if geom == GEOM_POINTS:
                bi = S.frc_slot[i, 0]
                bj = S.frc_slot[i, 1]
                U = S.frc_point
                iu = i
            else:
                bi = S.jnt_slot[k, 0]
                bj = S.jnt_slot[k, 1]
                U = S.jnt_anchor
                iu = k
            # lever arms s = A u (world) of the two points
            si0, si1, si2 = rot(A, bi, U[iu, 0, 0], U[iu, 0, 1], U[iu, 0, 2])
            sj0, sj1, sj2 = rot(A, bj, U[iu, 1, 0], U[iu, 1, 1], U[iu, 1, 2])
            d0 = W.r[bj, 0] + sj0 - W.r[bi, 0] - si0
            d1 = W.r[bj, 1] + sj1 - W.r[bi, 1] - si1
            d2 = W.r[bj, 2] + sj2 - W.r[bi, 2] - si2
            wi0 = W.omega_w[bi, 0]
            wi1 = W.omega_w[bi, 1]
            wi2 = W.omega_w[bi, 2]
            wj0 = W.omega_w[bj, 0]
            wj1 = W.omega_w[bj, 1]
            wj2 = W.omega_w[bj, 2]
            # d_dot = v_j + w_j x s_j - v_i - w_i x s_i
            vj0, vj1, vj2 = cross(wj0, wj1, wj2, sj0, sj1, sj2)
            vi0, vi1, vi2 = cross(wi0, wi1, wi2, si0, si1, si2)
            dd0 = W.vel[bj, 0] + vj0 - W.vel[bi, 0] - vi0
            dd1 = W.vel[bj, 1] + vj1 - W.vel[bi, 1] - vi1
            dd2 = W.vel[bj, 2] + vj2 - W.vel[bi, 2] - vi2
            if geom == GEOM_POINTS:
                x = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
                inv = 1.0 / x if x > 1e-300 else 0.0
                e0 = d0 * inv
                e1 = d1 * inv
                e2 = d2 * inv
                xdot = e0 * dd0 + e1 * dd1 + e2 * dd2
            else:
                # joint z1 (world), s = d . z1, s_dot = d_dot . z1 + d . (w_i x z1)
                e0, e1, e2 = frame_axis(A, bi, F, k, 0, 2)
                x = d0 * e0 + d1 * e1 + d2 * e2
                we0, we1, we2 = cross(wi0, wi1, wi2, e0, e1, e2)
                xdot = dd0 * e0 + dd1 * e1 + dd2 * e2 + d0 * we0 + d1 * we1 + d2 * we2
        if S.frc_par[i, PAR_STOP] != 0.0:
            if geom == GEOM_JOINT_ROT:  # unwrapped: the last angle plus the wrapped change
                prev = W.frc_out[i, OUT_X]
                dx = x - prev
                x = prev + dx - TWO_PI * math.floor((dx + math.pi) / TWO_PI)
            f = stop_force(S.frc_par[i], x, xdot)
            W.frc_out[i, OUT_PD] = (stop_elastic(S.frc_par[i], x) - f) * xdot
            W.frc_out[i, OUT_PW] = 0.0
        else:
            f, damp = element_force(S, W, i, x, xdot)
            W.frc_out[i, OUT_PD] = damp * xdot
            W.frc_out[i, OUT_PW] = (S.frc_par[i, PAR_FA] + W.frc_u[i]) * xdot
        if geom == GEOM_JOINT_ROT:
            # torque f z1 on body j, -f z1 on body i (there the frame's own z: A_i^T z1)
            if bj < S.nb:
                n0, n1, n2 = rot_t(A, bj, f * e0, f * e1, f * e2)
                W.Q[bj, 3] += n0
                W.Q[bj, 4] += n1
                W.Q[bj, 5] += n2
            if bi < S.nb:
                W.Q[bi, 3] -= f * F[k, 0, 0, 2]
                W.Q[bi, 4] -= f * F[k, 0, 1, 2]
                W.Q[bi, 5] -= f * F[k, 0, 2, 2]
        else:                           # f e at P_j on body j; -f e on body i
            add_wrench(S, W, bj, f * e0, f * e1, f * e2, sj0, sj1, sj2, 0.0, 0.0, 0.0)
            if geom == GEOM_POINTS:     # at P_i
                add_wrench(S, W, bi, -f * e0, -f * e1, -f * e2, si0, si1, si2, 0.0, 0.0, 0.0)
            else:                       # at the world point P_j, as a point of body i
                add_wrench(S, W, bi, -f * e0, -f * e1, -f * e2, si0 + d0, si1 + d1, si2 + d2,
                     0.0, 0.0, 0.0)
        W.frc_out[i, OUT_X] = x
        W.frc_out[i, OUT_XDOT] = xdot
        W.frc_out[i, OUT_F] = f


# --------------------------------------------------------------------------- energy
def table_integral(tab, d):
    """Integral from 0 to ``d`` (array) of the piecewise-linear, linearly extrapolated
    table ``tab`` (n, 2): exact (the trapezoid rule on every kink in between)."""
    xs, ys = tab[:, 0], tab[:, 1]

    def f(v):
        v = np.asarray(v, dtype=float)
        lo = np.clip(np.searchsorted(xs, v, side="right") - 1, 0, len(xs) - 2)
        return ys[lo] + (ys[lo + 1] - ys[lo]) * (v - xs[lo]) / (xs[lo + 1] - xs[lo])

    d = np.atleast_1d(np.asarray(d, dtype=float))
    out = np.zeros(d.shape)
    for m, dm in enumerate(d):
        a, b = (0.0, dm) if dm >= 0.0 else (dm, 0.0)
        nodes = np.concatenate([[a], xs[(xs > a) & (xs < b)], [b]])
        val = _trapezoid(f(nodes), nodes) if len(nodes) > 1 else 0.0
        out[m] = val if dm >= 0.0 else -val
    return out


def _stop_potential(par, x):
    """An end stop's potential ``k p^(e+1) / (e+1)`` at its (unwrapped) coordinates ``x``,
    summed over the limits it is past."""
    x = np.asarray(x, dtype=float)
    k, e = par[PAR_SK], par[PAR_SE]
    pot = np.zeros(x.shape)
    for (_side, pen) in stop_penetrations(par, x):
        pot += k * np.maximum(pen, 0.0) ** (e + 1.0) / (e + 1.0)
    return pot


def element_potential(par, ktab, geom, x):
    """Potential energy [J] of an element's conservative part at coordinates ``x`` (n,):
    ``integral K(delta) ddelta - f0 delta``, zero at ``delta = 0``; an end stop's
    ``k p^(e+1) / (e+1)`` at the penetration ``p`` past a limit."""
    if par[PAR_STOP] != 0.0:
        return _stop_potential(par, x)
    delta = np.asarray(x, dtype=float) - par[PAR_X0]
    if geom == GEOM_JOINT_ROT:
        delta = (delta + np.pi) % (2.0 * np.pi) - np.pi
    if ktab is not None:
        V = table_integral(ktab, delta)
    else:
        V = 0.5 * par[PAR_K] * delta * delta
    return V - par[PAR_F0] * delta


# --------------------------------------------------------------------------- flat arrays
def force_arrays(model, joint_pos, ncols):
    """The ``frc_`` arrays of ``SystemArrays`` for ``model.force_elements`` and the list of
    elements with a time-dependent input (their load-table columns start at ``ncols``).
    ``joint_pos[j]`` is the system position of model joint ``j``; ground is slot ``nb``."""
    elems = list(getattr(model, "force_elements", []))
    nb = len(model.bodies)
    nf = len(elems)
    geom = np.zeros(nf, dtype=np.int64)
    slot = np.full((nf, 2), nb, dtype=np.int64)
    point = np.zeros((nf, 2, 3))
    joint = np.zeros(nf, dtype=np.int64)
    par = np.zeros((nf, NPAR))
    ktab = np.zeros((nf, 2), dtype=np.int64)
    ctab = np.zeros((nf, 2), dtype=np.int64)
    tcol = -np.ones(nf, dtype=np.int64)
    tabx, taby = [0.0, 1.0], [0.0, 0.0]      # never empty (numba typing)
    timed = []
    for i, e in enumerate(elems):
        geom[i] = e.geometry
        row, kt, ct = e.coefficients()
        par[i] = row
        for dst, t in ((ktab, kt), (ctab, ct)):
            if t is not None:
                dst[i] = (len(tabx), len(t))
                tabx.extend(t[:, 0])
                taby.extend(t[:, 1])
        if e.joint is not None:
            joint[i] = joint_pos[e.joint.index]
        elif e.shapes is not None:      # ``contact.contact_arrays``
            for side, body in enumerate((e.body1, e.body2)):
                if not body.is_ground:
                    slot[i, side] = body.index
        else:
            for side, (body, X) in enumerate(((e.body1, e.points[0]), (e.body2, e.points[1]))):
                if body.is_ground:
                    point[i, side] = X
                else:
                    slot[i, side] = body.index
                    point[i, side] = body.A_principal.T @ (np.asarray(X) - body.position)
        if e.is_timed:
            tcol[i] = ncols + len(timed)
            timed.append(e)
    arrays = dict(frc_geom=geom, frc_slot=slot, frc_point=point, frc_joint=joint, frc_par=par,
                  frc_ktab=ktab, frc_ctab=ctab, frc_tabx=np.array(tabx),
                  frc_taby=np.array(taby), frc_tcol=tcol)
    return arrays, timed


def cumtrapz(t, p):
    """Cumulative integral of samples ``p`` over ``t``: on each interval the quadratic
    through it and a neighbouring sample (``h/12 (-p0 + 8 p1 + 5 p2)``, third order)
    where the neighbouring intervals are equal, else the trapezoid rule."""
    t = np.asarray(t, dtype=float)
    p = np.asarray(p, dtype=float)
    out = np.zeros(len(t))
    if len(t) < 2:
        return out
    h = np.diff(t)
    inc = 0.5 * (p[1:] + p[:-1]) * h
    if len(t) >= 3:
        same = np.abs(h[1:] - h[:-1]) <= 1e-9 * np.maximum(h[1:], h[:-1])
        # interval k (k >= 1) from samples k-1, k, k+1
        k = np.nonzero(same)[0] + 1
        inc[k] = h[k] / 12.0 * (-p[k - 1] + 8.0 * p[k] + 5.0 * p[k + 1])
        if same[0]:     # the first interval from samples 0, 1, 2
            inc[0] = h[0] / 12.0 * (5.0 * p[0] + 8.0 * p[1] - p[2])
    out[1:] = np.cumsum(inc)
    return out


def element_potentials(system, out, contact_pot=None):
    """(n, nf): the potential of each element's conservative part at the output samples,
    from ``kernels.force_outputs``' ``out`` (n, nf, >= 3); a contact's is its own output
    (``contact_pot`` (n, nf): the contacts' ``contact.CO_POT`` column). (The energy each
    dissipated and its actuator's work are summed in the run, ``kernels.accumulate_work``.)"""
    elems = system.model.force_elements
    pot = np.zeros((out.shape[0], len(elems)))
    for i, e in enumerate(elems):
        if e.shapes is not None:
            pot[:, i] = contact_pot[:, i]
            continue
        par, ktab, _ctab = e.coefficients()
        pot[:, i] = element_potential(par, ktab, system.S.frc_geom[i], out[:, i, OUT_X])
    return pot


def restart_coordinates(S, W):
    """Start the end stops' unwrapped angles over again at their values at t0 (before a
    pass over the states from t0: the run, or each post-processing pass over the
    output samples)."""
    W.frc_out[:, OUT_X] = S.frc_par[:, PAR_X0]


#: columns of ``stop_events``' rows; ``EVT_REBOUND``: the speed after an impulsive
#: stop's impact (``NO_REBOUND`` for a contact of the compliant law)
EVT_TIME, EVT_ELEMENT, EVT_SIDE, EVT_SPEED, EVT_REBOUND = range(5)
NEVT = 5
NO_REBOUND = -1.0
#: ``EVT_SIDE``: the lower or the upper limit
SIDE_LOWER, SIDE_UPPER = 0, 1


def stop_penetrations(par, x):
    """An end stop's penetrations ``(SIDE_LOWER, x_min - x)`` and ``(SIDE_UPPER,
    x - x_max)`` at its (unwrapped) coordinates ``x`` (positive past the limit); ``par``
    its ``frc_par`` row."""
    x = np.asarray(x, dtype=float)
    return (SIDE_LOWER, par[PAR_LO] - x), (SIDE_UPPER, x - par[PAR_HI])


def stop_events(par, t, out, impacts=None, skip=()):
    """Contacts of the end stops over the output samples, (m, ``NEVT``) rows [time,
    element index, side (``SIDE_LOWER`` / ``SIDE_UPPER``), impact speed, rebound speed]
    in time order, from ``kernels.force_outputs``' ``out`` (n, nf, 3) and the elements'
    ``frc_par`` rows: a contact starts where the penetration turns positive between two
    samples; its time is interpolated linearly between them, its speed is the rate of
    penetration at the sample before (the approach, free of the stop's force), its
    rebound ``NO_REBOUND``. The elements ``skip`` (impulsive stops) are left out; their
    ``impacts`` rows (located in the run, ``solver.impacts``) are merged in."""
    rows = [] if impacts is None else [tuple(r) for r in impacts]
    t = np.asarray(t, dtype=float)
    for i in np.nonzero(par[:, PAR_STOP] != 0.0)[0]:
        if i in skip:
            continue
        x, xdot = out[:, i, OUT_X], out[:, i, OUT_XDOT]
        for (side, pen), rate in zip(stop_penetrations(par[i], x), (-xdot, xdot)):
            m = np.nonzero((pen[:-1] <= 0.0) & (pen[1:] > 0.0))[0]
            frac = -pen[m] / (pen[m + 1] - pen[m])
            for k, fr in zip(m, frac):
                rows.append((t[k] + fr * (t[k + 1] - t[k]), i, side, rate[k], NO_REBOUND))
    ev = np.array(sorted(rows), dtype=float).reshape(-1, NEVT)
    return ev


class ScalarTimeFunction:
    """A scalar function of time ``t`` [s] from its text (``solver.expressions`` language,
    one component); pickles as its text."""

    def __init__(self, text, what="function"):
        from .expressions import TimeFunction
        self.text = str(text).strip()
        self._f = TimeFunction("0, 0, (%s)" % self.text, what)

    def __call__(self, t):
        return float(self._f(t)[2])

    def __repr__(self):
        return "ScalarTimeFunction(%r)" % self.text
