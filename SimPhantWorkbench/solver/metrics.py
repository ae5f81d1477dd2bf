"""Scalar metrics of a ``Result``, chosen by name: ``"max(reaction_force(Hinge))"``.

A metric is a reducer applied to a signal (a time series) of a result::

    max(reaction_force(Hinge))              largest |force| of joint Hinge [N]
    rms(speed(Slider))                      RMS speed of body Slider [m/s]
    at(position(Bob).z, 0.5)                z of Bob's CoG at t = 0.5 s [m]
    first_crossing(velocity(Bob).x, 0, "down")   time [s] vx first falls through 0
    period(velocity(Bob).x)                 oscillation period [s] (same-direction crossings)
    max(energy_drift)                       largest drift of the energy balance [J]
    max(violation)                          largest constraint violation |Phi|

Signals are ``QUANTITY(OBJECT)`` with an optional component ``.x``, ``.y``,
``.z`` or ``.norm`` (the default for vectors), or a system quantity without
object. ``OBJECT`` is a name (``Hinge``) or a quoted label
(``"Crank post"``); callers map it to the solver's body or joint name
(``Metric.resolved``). Quantities and reducers are tables (``QUANTITIES``,
``REDUCERS``): a new result quantity (a spring force, a driver's effort) is one
entry. All values SI.
"""
import ast
import math
from collections import namedtuple

import numpy as np

from .errors import ModelError

__all__ = ["Metric", "parse_metric", "QUANTITIES", "REDUCERS", "COMPONENTS"]

#: kind "body", "joint", "element" (force element), "driver" or "system"; vector: 3
#: components; fn(result, name) -> (n,) or (n, 3)
Quantity = namedtuple("Quantity", ["kind", "vector", "unit", "fn", "doc"])


def _energy_drift(r, _):
    """|B - B0| of the energy balance B = total + dissipated - actuator work - driver
    work (the total energy when nothing adds or removes energy), as the CLI's drift."""
    e = r.energy()["balance"]
    return np.abs(e - e[0]) if len(e) else e


QUANTITIES = {
    "position": Quantity("body", True, "m", lambda r, n: r.position(n), "CoG position, world"),
    "velocity": Quantity("body", True, "m/s", lambda r, n: r.velocity(n), "CoG velocity, world"),
    "speed": Quantity("body", False, "m/s",
                      lambda r, n: np.linalg.norm(r.velocity(n), axis=1), "|CoG velocity|"),
    "acceleration": Quantity("body", True, "m/s^2", lambda r, n: r.acceleration(n),
                             "CoG acceleration, world"),
    "angular_velocity": Quantity("body", True, "rad/s", lambda r, n: r.angular_velocity(n),
                                 "angular velocity, world axes"),
    "angular_speed": Quantity("body", False, "rad/s",
                              lambda r, n: np.linalg.norm(r.angular_velocity(n), axis=1),
                              "|angular velocity|"),
    "angular_acceleration": Quantity("body", True, "rad/s^2",
                                     lambda r, n: r.angular_acceleration(n),
                                     "angular acceleration, world axes"),
    "euler_angles": Quantity("body", True, "rad", lambda r, n: r.euler_angles(n),
                             "Z-Y-X angles (x, y, z)"),
    "reaction_force": Quantity("joint", True, "N", lambda r, n: r.reaction_force(n),
                               "force of the joint on its second body, world"),
    "reaction_torque": Quantity("joint", True, "N m", lambda r, n: r.reaction_torque(n),
                                "torque of the joint on its second body, world"),
    "joint_angle": Quantity("joint", False, "rad", lambda r, n: r.joint_position(n, "angle"),
                            "joint angle about frame 1's z, unwrapped"),
    "joint_angle_rate": Quantity("joint", False, "rad/s",
                                 lambda r, n: r.joint_velocity(n, "angle"), "joint angle rate"),
    "joint_slide": Quantity("joint", False, "m", lambda r, n: r.joint_position(n, "slide"),
                            "joint slide along frame 1's z"),
    "joint_slide_rate": Quantity("joint", False, "m/s",
                                 lambda r, n: r.joint_velocity(n, "slide"), "joint slide rate"),
    "spring_force": Quantity("element", False, "N or N m", lambda r, n: r.spring_force(n),
                             "force (moment) of a force element, > 0 pushing apart"),
    "spring_length": Quantity("element", False, "m or rad", lambda r, n: r.spring_length(n),
                              "length (joint angle or slide) of a force element"),
    "spring_power": Quantity("element", False, "W", lambda r, n: r.spring_power(n),
                             "power a force element delivers to the bodies"),
    "dissipated_energy": Quantity("system", False, "J", lambda r, n: r.energy()["dissipated"],
                                  "energy taken by the dampers since the start"),
    "driver_effort": Quantity("driver", False, "N m or N", lambda r, n: r.driver_effort(n),
                              "a joint driver's motor torque or actuator force"),
    "driver_power": Quantity("driver", False, "W", lambda r, n: r.driver_power(n),
                             "power a driver puts into the mechanism"),
    "kinetic_energy": Quantity("system", False, "J", lambda r, n: r.energy()["kinetic"],
                               "kinetic energy"),
    "potential_energy": Quantity("system", False, "J", lambda r, n: r.energy()["potential"],
                                 "potential energy (gravity and springs)"),
    "total_energy": Quantity("system", False, "J", lambda r, n: r.energy()["total"],
                             "total energy"),
    "energy_drift": Quantity("system", False, "J", _energy_drift,
                             "|B - B0|, B = total + dissipated - actuator and driver work"),
    "violation": Quantity("system", False, "m or rad",
                          lambda r, n: r.constraint_violation()["position"], "max |Phi|"),
    "velocity_violation": Quantity("system", False, "m/s or rad/s",
                                   lambda r, n: r.constraint_violation()["velocity"],
                                   "max |Phi_dot|"),
}

COMPONENTS = {"x": 0, "y": 1, "z": 2, "norm": None}


def _crossings(t, x, level, direction):
    """Times where ``x`` crosses ``level`` (linear interpolation); direction any/up/down."""
    d = x - level
    s = np.sign(d)
    idx = np.where(s[:-1] * s[1:] < 0)[0]
    if direction == "up":
        idx = idx[d[idx] < 0]
    elif direction == "down":
        idx = idx[d[idx] > 0]
    return t[idx] - d[idx] * (t[idx + 1] - t[idx]) / (d[idx + 1] - d[idx])


def _first_crossing(t, x, level=0.0, direction="any"):
    c = _crossings(t, x, float(level), direction)
    return float(c[0]) if len(c) else math.nan


def _period(t, x, level=0.0):
    """Mean interval between successive crossings of ``level`` in the same direction."""
    gaps = [np.diff(_crossings(t, x, float(level), d)) for d in ("up", "down")]
    gaps = np.concatenate(gaps)
    return float(gaps.mean()) if len(gaps) else math.nan


def _at(t, x, time):
    time = float(time)
    if not t[0] - 1e-12 <= time <= t[-1] + 1e-12:
        raise ModelError("at(): t = %g s is outside the run (%g .. %g s)" % (time, t[0], t[-1]))
    return float(np.interp(time, t, x))


#: name -> (function(t, x, *args), allowed keyword names, doc)
REDUCERS = {
    "max": (lambda t, x: float(x.max()), (), "largest value"),
    "min": (lambda t, x: float(x.min()), (), "smallest value"),
    "absmax": (lambda t, x: float(np.abs(x).max()), (), "largest |value|"),
    "mean": (lambda t, x: float(x.mean()), (), "mean over the samples"),
    "rms": (lambda t, x: float(np.sqrt(np.mean(x * x))), (), "root mean square"),
    "range": (lambda t, x: float(x.max() - x.min()), (), "max - min"),
    "initial": (lambda t, x: float(x[0]), (), "value at the start"),
    "final": (lambda t, x: float(x[-1]), (), "value at the end"),
    "at": (_at, ("time",), "value at a time [s] (interpolated)"),
    "first_crossing": (_first_crossing, ("level", "direction"),
                       "time [s] of the first crossing of a level (direction any/up/down); "
                       "NaN if none"),
    "period": (_period, ("level",), "mean interval [s] between crossings of a level in the "
                                    "same direction; NaN if fewer than two"),
}


class Metric:
    """A parsed metric expression (see the module docstring).

    Attributes
    ----------
    name : column name; text : the expression; reducer, quantity, component;
    target : the object named in the expression (document name or label) or None;
    args : positional arguments of the reducer after the signal (numbers or strings);
    solver_name : the solver body/joint the target maps to (``resolved``), or None.
    """

    def __init__(self, name, text, reducer, quantity, target, component, args, solver_name=None):
        self.name = name
        self.text = text
        self.reducer = reducer
        self.quantity = quantity
        self.target = target
        self.component = component
        self.args = tuple(args)
        self.solver_name = solver_name

    @property
    def kind(self):
        """"body", "joint", "element" or "system": what ``target`` must be."""
        return QUANTITIES[self.quantity].kind

    def resolved(self, solver_name):
        """A copy whose target is the solver's body or joint ``solver_name``."""
        return Metric(self.name, self.text, self.reducer, self.quantity, self.target,
                      self.component, self.args, solver_name)

    def signal(self, result):
        """(t, x): the time series the reducer reduces."""
        q = QUANTITIES[self.quantity]
        if q.kind != "system" and self.solver_name is None:
            raise ModelError("metric %r: %r is not mapped to a solver %s"
                             % (self.name, self.target, q.kind))
        x = np.asarray(q.fn(result, self.solver_name), dtype=float)
        if x.ndim == 2:
            c = COMPONENTS[self.component or "norm"]
            x = np.linalg.norm(x, axis=1) if c is None else x[:, c]
        return np.asarray(result.t, dtype=float), x

    def evaluate(self, result):
        """The metric's value (float, SI) for ``result``."""
        t, x = self.signal(result)
        if len(t) == 0:
            return math.nan
        fn = REDUCERS[self.reducer][0]
        return fn(t, x, *self.args)

    def __repr__(self):
        return "Metric(%r, %r)" % (self.name, self.text)


def _literal(node, what):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) \
            and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, (int, float)):
        return -node.operand.value
    if isinstance(node, ast.Name):
        return node.id          # up, down, any without quotes
    raise ModelError("%s: arguments must be numbers or words" % what)


def parse_metric(text, name=None):
    """Parse ``text`` (e.g. ``"max(reaction_force(Hinge).norm)"``) into a ``Metric``.

    ``name`` is its column name (default: the text). ``ModelError`` explains
    what is wrong and lists the valid reducers, quantities or components.
    """
    text = str(text).strip()
    name = str(name).strip() if name else text
    what = "metric %r" % name
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise ModelError("%s: cannot read %r: %s" % (what, text, exc.msg)) from None
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)) or not tree.args:
        raise ModelError("%s: expected REDUCER(SIGNAL, ...), e.g. max(speed(Body)); reducers: %s"
                         % (what, ", ".join(REDUCERS)))
    reducer = tree.func.id
    if reducer not in REDUCERS:
        raise ModelError("%s: unknown reducer %r; valid: %s" % (what, reducer,
                                                                ", ".join(REDUCERS)))
    _fn, keywords, _doc = REDUCERS[reducer]
    args = [_literal(a, what) for a in tree.args[1:]]
    for kw in tree.keywords:
        if kw.arg not in keywords:
            raise ModelError("%s: %s() takes %s" % (what, reducer, ", ".join(keywords) or
                                                    "no arguments after the signal"))
        pos = keywords.index(kw.arg)
        while len(args) < pos:
            args.append({"level": 0.0, "direction": "any"}.get(keywords[len(args)]))
        if len(args) > pos:
            raise ModelError("%s: %s given twice" % (what, kw.arg))
        args.append(_literal(kw.value, what))
    if len(args) > len(keywords):
        raise ModelError("%s: %s() takes at most %d argument(s) after the signal (%s)"
                         % (what, reducer, len(keywords), ", ".join(keywords)))
    if reducer == "at" and len(args) != 1:
        raise ModelError("%s: at() needs a time: at(SIGNAL, 0.5)" % what)
    for k, v in zip(keywords, args):
        if k in ("time", "level") and not isinstance(v, (int, float)):
            raise ModelError("%s: %s must be a number, got %r" % (what, k, v))
        if k == "direction" and v not in ("any", "up", "down"):
            raise ModelError("%s: direction must be any, up or down, got %r" % (what, v))
    quantity, target, component = _signal(tree.args[0], what)
    return Metric(name, text, reducer, quantity, target, component, args)


def _signal(node, what):
    component = None
    if isinstance(node, ast.Attribute):
        component = node.attr
        node = node.value
        if component not in COMPONENTS:
            raise ModelError("%s: unknown component %r; valid: %s"
                             % (what, component, ", ".join(COMPONENTS)))
    target = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        quantity = node.func.id
        if len(node.args) != 1 or node.keywords:
            raise ModelError("%s: %s() takes one object: %s(Name)" % (what, quantity, quantity))
        arg = node.args[0]
        if isinstance(arg, ast.Name):
            target = arg.id
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            target = arg.value
        else:
            raise ModelError("%s: %s() takes an object name or a quoted label" % (what, quantity))
    elif isinstance(node, ast.Name):
        quantity = node.id
    else:
        raise ModelError("%s: the signal must be QUANTITY(Object)[.x|.y|.z|.norm] or a system "
                         "quantity" % what)
    if quantity not in QUANTITIES:
        raise ModelError("%s: unknown quantity %r; valid: %s"
                         % (what, quantity, ", ".join(QUANTITIES)))
    q = QUANTITIES[quantity]
    if q.kind == "system" and target is not None:
        raise ModelError("%s: %s is a quantity of the whole model: write it without an object"
                         % (what, quantity))
    if q.kind != "system" and target is None:
        raise ModelError("%s: %s needs a %s: %s(Name)" % (what, quantity, q.kind, quantity))
    if component is not None and not q.vector:
        raise ModelError("%s: %s is a scalar; it has no component .%s" % (what, quantity,
                                                                          component))
    return quantity, target, component
