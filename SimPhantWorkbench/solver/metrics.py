"""Scalar metrics of a ``Result``, chosen by name: ``"max(reaction_force(Hinge))"``.

A metric is a reducer applied to a signal (a time series) of a result::

    max(reaction_force(Hinge))              largest |force| of joint Hinge [N]
    rms(speed(Slider))                      RMS speed of body Slider [m/s]
    at(position(Bob).z, 0.5)                z of Bob's CoG at t = 0.5 s [m]
    first_crossing(velocity(Bob).x, 0, "down")   time [s] vx first falls through 0
    period(velocity(Bob).x)                 oscillation period [s] (same-direction crossings)
    percentile(spring_force(Tyre), 95)      the 95th percentile of a force element's force [N]
    max(energy_drift)                       largest drift of the energy balance [J]
    max(violation)                          largest constraint violation |Phi|

or arithmetic on such terms and numbers (``+ - * / **``, parentheses, and the
functions ``abs``, ``sqrt``, ``log``, ``exp``, ``min(a, b, ...)``,
``max(a, b, ...)``)::

    max(spring_force(Suspension)) / 1000                the peak force in kN
    max(acceleration(Body).z) / min(acceleration(Body).z)
    2 * max(reaction_force(Hinge)) - min(reaction_force(Hinge))

Signals are ``QUANTITY(OBJECT)`` with an optional component ``.x``, ``.y``,
``.z`` or ``.norm`` (the default for vectors), or a system quantity without
object. ``OBJECT`` is a name (``Hinge``) or a quoted label
(``"Crank post"``); callers map it to the solver's body, joint, force element or
driver name (``Metric.resolved``). Quantities and reducers are tables
(``QUANTITIES``, ``REDUCERS``): a new result quantity (a spring force, a driver's
effort) is one entry. ``parse_signal`` reads a signal alone (the time series a
parameter study keeps per variant). All values SI.
"""
import ast
import math
import operator
from collections import namedtuple

import numpy as np

from .errors import ModelError

__all__ = ["Metric", "Signal", "Term", "parse_metric", "parse_signal", "QUANTITIES",
           "REDUCERS", "COMPONENTS", "FUNCTIONS", "MAX_EXPRESSION_LENGTH"]

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
    "driver_work": Quantity("driver", False, "J", lambda r, n: r.driver_work(n),
                            "work a driver has put into the mechanism since the start"),
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
    """Times where ``x`` crosses ``level`` (linear interpolation); direction any/up/down.

    A crossing is a change of side between two samples off the level; samples exactly on
    it in between (a signal that reaches the level at a sample on its way through) put
    the crossing at the first of them, and a signal that only touches the level and
    turns back does not cross."""
    d = x - level
    s = np.sign(d)
    off = np.nonzero(s)[0]
    idx = off[:-1][s[off[:-1]] * s[off[1:]] < 0]
    if direction == "up":
        idx = idx[d[idx] < 0]
    elif direction == "down":
        idx = idx[d[idx] > 0]
    # the next sample is on the other side or on the level (then the crossing is there)
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


def _percentile(t, x, q):
    return float(np.percentile(x, float(q)))


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
    "percentile": (_percentile, ("q",), "the q-th percentile of the samples (q in 0..100)"),
    "median": (lambda t, x: float(np.median(x)), (), "median of the samples"),
    "std": (lambda t, x: float(np.std(x)), (), "standard deviation of the samples"),
    "integral": (lambda t, x: float(np.sum(0.5 * (x[1:] + x[:-1]) * np.diff(t))), (),
                 "integral over time (trapezoids) [unit x s]"),
}



#: functions of metric values an expression may use: name -> (function, arity or None)
FUNCTIONS = {"abs": (abs, 1), "sqrt": (math.sqrt, 1), "log": (math.log, 1),
             "exp": (math.exp, 1), "min": (min, None), "max": (max, None)}

#: bounds of an expression: characters, nodes and nesting (a hostile spec stays cheap)
MAX_EXPRESSION_LENGTH = 2000
MAX_NODES = 200
MAX_DEPTH = 40

#: arithmetic of expressions: AST operator -> (symbol, function)
_OPS = {ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub),
        ast.Mult: ("*", operator.mul), ast.Div: ("/", operator.truediv),
        ast.Pow: ("**", operator.pow)}
_BINARY = dict(_OPS.values())


class Signal:
    """A time series of a result: ``QUANTITY(OBJECT)[.COMPONENT]`` or a system quantity.

    Attributes
    ----------
    name : what it is called (a column or key name; default the text)
    quantity, target (the object named, document name or label; None for a system
    quantity), component; solver_name : the solver body, joint, force element or
    driver the target maps to (``resolved``), or None.
    """

    def __init__(self, quantity, target, component, solver_name=None, name=None):
        self.quantity = quantity
        self.target = target
        self.component = component
        self.solver_name = solver_name
        self.name = name or self.text

    @property
    def kind(self):
        """"body", "joint", "element", "driver" or "system": what ``target`` must be."""
        return QUANTITIES[self.quantity].kind

    @property
    def text(self):
        q = QUANTITIES[self.quantity]
        sig = self.quantity if q.kind == "system" else "%s(%s)" % (self.quantity,
                                                                   _target_text(self.target))
        return sig + ("." + self.component if self.component else "")

    def resolved(self, solver_name):
        return Signal(self.quantity, self.target, self.component, solver_name, self.name)

    def values(self, result):
        """(t, x): the samples of the signal in ``result``."""
        q = QUANTITIES[self.quantity]
        if q.kind != "system" and self.solver_name is None:
            raise ModelError("signal %r: %r is not mapped to a solver %s"
                             % (self.name, self.target, q.kind))
        x = np.asarray(q.fn(result, self.solver_name), dtype=float)
        if x.ndim == 2:
            c = COMPONENTS[self.component or "norm"]
            x = np.linalg.norm(x, axis=1) if c is None else x[:, c]
        return np.asarray(result.t, dtype=float), x

    def __repr__(self):
        return "Signal(%r)" % self.text


def _target_text(target):
    return target if target.isidentifier() else '"%s"' % target.replace('"', '\\"')


class Term:
    """A reducer applied to a signal: ``max(reaction_force(Hinge))``."""

    def __init__(self, reducer, signal, args):
        self.reducer = reducer
        self.signal = signal
        self.args = tuple(args)

    def resolved(self, names):
        name = _solver_name(self.signal, names)
        return Term(self.reducer, self.signal.resolved(name), self.args)

    def evaluate(self, result):
        t, x = self.signal.values(result)
        if len(t) == 0:
            return math.nan
        return REDUCERS[self.reducer][0](t, x, *self.args)


def _solver_name(signal, names):
    if signal.kind == "system":
        return None
    if isinstance(names, str):
        return names
    return names.get((signal.kind, signal.target), signal.solver_name)


class Metric:
    """A parsed metric expression (see the module docstring).

    Attributes
    ----------
    name : column name; text : the expression; terms : its ``Term``\\ s (reducer of a
    signal), in the order written. A metric of one term (``simple``) also answers
    ``reducer``, ``quantity``, ``target``, ``component``, ``args``, ``kind`` and
    ``solver_name`` of that term (None for an expression).
    """

    def __init__(self, name, text, tree):
        self.name = name
        self.text = text
        self.tree = tree
        self.terms = []
        _collect_terms(tree, self.terms)

    @property
    def simple(self):
        return self.tree[0] == "term"

    def _single(self, attr, of_signal):
        if self.tree[0] != "term":
            return None
        return getattr(self.tree[1].signal if of_signal else self.tree[1], attr)

    reducer = property(lambda self: self._single("reducer", False))
    args = property(lambda self: self._single("args", False))
    quantity = property(lambda self: self._single("quantity", True))
    target = property(lambda self: self._single("target", True))
    component = property(lambda self: self._single("component", True))
    kind = property(lambda self: self._single("kind", True))
    solver_name = property(lambda self: self._single("solver_name", True))

    @property
    def signals(self):
        """The signals of its terms (one per term, in order)."""
        return [t.signal for t in self.terms]

    def resolved(self, names):
        """A copy whose signals name solver entities: ``names`` is one solver name for every
        signal with an object, or ``{(kind, target): solver name}``."""
        return Metric(self.name, self.text, _map_tree(self.tree,
                                                      lambda term: term.resolved(names)))

    def evaluate(self, result):
        """The metric's value (float, SI) for ``result``; ``ModelError`` for arithmetic
        that has no value (a division by zero, the root of a negative number)."""
        try:
            return float(_evaluate(self.tree, result))
        except (ArithmeticError, ValueError) as exc:
            if isinstance(exc, ModelError):
                raise
            raise ModelError("metric %r: %s" % (self.name, exc)) from None

    def __repr__(self):
        return "Metric(%r, %r)" % (self.name, self.text)


def _collect_terms(node, out):
    if node[0] == "term":
        out.append(node[1])
    elif node[0] == "neg":
        _collect_terms(node[1], out)
    elif node[0] == "bin":
        _collect_terms(node[2], out)
        _collect_terms(node[3], out)
    elif node[0] == "fn":
        for a in node[2]:
            _collect_terms(a, out)


def _map_tree(node, fn):
    if node[0] == "term":
        return ("term", fn(node[1]))
    if node[0] == "neg":
        return ("neg", _map_tree(node[1], fn))
    if node[0] == "bin":
        return ("bin", node[1], _map_tree(node[2], fn), _map_tree(node[3], fn))
    if node[0] == "fn":
        return ("fn", node[1], [_map_tree(a, fn) for a in node[2]])
    return node


def _evaluate(node, result):
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "term":
        return node[1].evaluate(result)
    if kind == "neg":
        return -_evaluate(node[1], result)
    if kind == "bin":
        return _BINARY[node[1]](_evaluate(node[2], result), _evaluate(node[3], result))
    fn = FUNCTIONS[node[1]][0]
    return float(fn(*[_evaluate(a, result) for a in node[2]]))


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


def _parse_tree(text, what):
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ModelError("%s: the expression has %d characters, more than %d"
                         % (what, len(text), MAX_EXPRESSION_LENGTH))
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        raise ModelError("%s: cannot read %r: %s" % (what, text, exc.msg)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ModelError("%s: the expression is nested too deeply" % what) from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ModelError("%s: the expression is too long (more than %d parts)"
                         % (what, MAX_NODES))
    return tree


def parse_metric(text, name=None):
    """Parse ``text`` (e.g. ``"max(reaction_force(Hinge).norm)"``, or arithmetic on such
    terms) into a ``Metric``.

    ``name`` is its column name (default: the text). ``ModelError`` explains
    what is wrong and lists the valid reducers, quantities, components or functions.
    """
    text = str(text).strip()
    name = str(name).strip() if name else text
    what = "metric %r" % _short(name)
    tree = _expression(_parse_tree(text, what), what, 0)
    metric = Metric(name, text, tree)
    if not metric.terms:
        raise ModelError("%s: expected REDUCER(SIGNAL, ...), e.g. max(speed(Body)), or "
                         "arithmetic on such terms; reducers: %s" % (what, ", ".join(REDUCERS)))
    return metric


def parse_signal(text, name=None):
    """Parse a signal alone (``"position(Bob).z"``, ``"kinetic_energy"``) into a ``Signal``."""
    text = str(text).strip()
    name = str(name).strip() if name else text
    what = "signal %r" % _short(name)
    quantity, target, component = _signal(_parse_tree(text, what), what)
    return Signal(quantity, target, component, name=name)


def _short(text, n=60):
    return text if len(text) <= n else text[:n] + "..."


def _is_signal(node):
    if isinstance(node, ast.Attribute):
        node = node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in QUANTITIES
    return isinstance(node, ast.Name) and node.id in QUANTITIES


def _expression(node, what, depth):
    """The evaluation tree of an expression node (see ``Metric``)."""
    if depth > MAX_DEPTH:
        raise ModelError("%s: the expression is nested too deeply" % what)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return ("num", float(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _expression(node.operand, what, depth + 1)
        return ("neg", inner) if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return ("bin", _OPS[type(node.op)][0], _expression(node.left, what, depth + 1),
                _expression(node.right, what, depth + 1))
    if _is_signal(node):
        raise ModelError("%s: %s is a signal, not a number: reduce it, e.g. max(%s); "
                         "reducers: %s" % (what, ast.unparse(node), ast.unparse(node),
                                           ", ".join(REDUCERS)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        fname = node.func.id
        if fname in REDUCERS and node.args and _is_signal(node.args[0]):
            return ("term", _term(node, what))
        if fname in FUNCTIONS:
            return _function(node, what, depth)
        arg = node.args[0] if len(node.args) == 1 else None
        if isinstance(arg, ast.Name) or (isinstance(arg, ast.Constant)
                                         and isinstance(arg.value, str)):
            raise ModelError("%s: unknown quantity %r; valid: %s"
                             % (what, fname, ", ".join(QUANTITIES)))
        raise ModelError("%s: unknown reducer or function %r; reducers: %s; functions: %s"
                         % (what, fname, ", ".join(REDUCERS), ", ".join(FUNCTIONS)))
    if isinstance(node, ast.Name):
        raise ModelError("%s: unknown name %r: a metric is REDUCER(SIGNAL, ...), e.g. "
                         "max(speed(Body)), or arithmetic on such terms" % (what, node.id))
    raise ModelError("%s: expected REDUCER(SIGNAL, ...), e.g. max(speed(Body)), numbers and "
                     "+ - * / **; reducers: %s" % (what, ", ".join(REDUCERS)))


def _function(node, what, depth):
    fname = node.func.id
    arity = FUNCTIONS[fname][1]
    if node.keywords or not node.args or (arity is not None and len(node.args) != arity):
        raise ModelError("%s: %s() takes %s" % (what, fname, "%d value(s)" % arity if arity
                                                else "one or more values"))
    return ("fn", fname, [_expression(a, what, depth + 1) for a in node.args])


def _term(tree, what):
    """A ``Term`` of a reducer call ``tree`` whose first argument is a signal."""
    reducer = tree.func.id
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
    if reducer in ("at", "percentile") and len(args) != 1:
        raise ModelError("%s: %s() needs a %s: %s(SIGNAL, %s)"
                         % (what, reducer, keywords[0], reducer,
                            "0.5" if reducer == "at" else "95"))
    for k, v in zip(keywords, args):
        if k in ("time", "level", "q") and (isinstance(v, str) or not math.isfinite(v)):
            raise ModelError("%s: %s must be a number, got %r" % (what, k, v))
        if k == "q" and not 0.0 <= v <= 100.0:
            raise ModelError("%s: the percentile q must be in 0 .. 100, got %r" % (what, v))
        if k == "direction" and v not in ("any", "up", "down"):
            raise ModelError("%s: direction must be any, up or down, got %r" % (what, v))
    quantity, target, component = _signal(tree.args[0], what)
    return Term(reducer, Signal(quantity, target, component), args)
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
