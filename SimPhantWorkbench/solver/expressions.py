"""Time functions written as text: ``"0, 0, 10*sin(2*pi*t)"`` -> ``f(t) -> (3,) array``.

The loads of a document store their time functions as text; the conversion
compiles them with ``TimeFunction``. A ``TimeFunction`` pickles as its text
(and recompiles when unpickled), so a ``Model`` with timed loads can be sent to
another process or machine (parameter studies on a process pool or a Dask
cluster) without FreeCAD there.

Allowed: numbers, ``t``, arithmetic (``+ - * / // % **``), comparisons,
``a if c else b``, and the functions and constants of ``math`` (sin, cos, exp,
sqrt, pi, ...) plus abs, min, max. Anything else (attributes, other names,
subscripts, lambdas...) is rejected, so text stored in a document cannot run
arbitrary code. Its work is bounded: the text length and the size and depth of its
syntax tree are limited, every value is a float (float arithmetic costs the same
whatever the numbers and overflows instead of hanging, e.g. ``9**9**9`` or
``floor(10.0)**floor(1e9)``), sequences are allowed only as the 3 top-level
components (nothing to repeat, e.g. ``(0,)*n``), and the check at t = 0 has a
time budget.
"""
import ast
import math
import time

import numpy as np

from .errors import ModelError

__all__ = ["TimeFunction", "format_vector_function"]

_MATH_NAMES = {name: getattr(math, name) for name in (
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "exp", "log", "log10", "log2", "sqrt", "hypot", "fabs", "floor", "ceil",
    "fmod", "copysign", "degrees", "radians", "pi", "e", "tau", "inf")}
_MATH_NAMES.update(abs=abs, min=min, max=max)
# math.floor/ceil return Python integers, whose arithmetic is unbounded: floats instead
_MATH_NAMES.update(floor=lambda x: float(math.floor(x)), ceil=lambda x: float(math.ceil(x)))
_FUNCTION_NAMES = {k for k, v in _MATH_NAMES.items() if callable(v)}
_ALLOWED_NODES = (ast.Expression, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.Call,
                  ast.Name, ast.Load, ast.Constant, ast.IfExp, ast.Compare, ast.BoolOp,
                  ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
                  ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or, ast.Lt, ast.LtE, ast.Gt,
                  ast.GtE, ast.Eq, ast.NotEq)


#: bounds of a time function: its text length, its syntax-tree size, and the wall time
#: its check at t = 0 may take [s]
MAX_FUNCTION_LENGTH = 4000
MAX_FUNCTION_NODES = 1000
FUNCTION_VALIDATION_BUDGET = 0.5
#: the deepest nesting of a time function's syntax tree (its compilation recurses)
MAX_FUNCTION_DEPTH = 100


def _depth(tree):
    """The nesting depth of a syntax tree, found without recursion."""
    deepest = 0
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


class _FloatValues(ast.NodeTransformer):
    """Make every value a float: integer literals, comparisons and ``not`` (bools are
    integers). Float arithmetic costs the same whatever the numbers, and overflows
    (``9**9**9``) instead of hanging; no value can be a sequence to repeat."""

    def visit_Constant(self, node):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            return node
        return ast.copy_location(ast.Constant(float(node.value)), node)

    def _as_float(self, node):
        self.generic_visit(node)
        call = ast.Call(func=ast.Name(id="_float", ctx=ast.Load()), args=[node], keywords=[])
        return ast.copy_location(call, node)

    def visit_Compare(self, node):
        return self._as_float(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return self._as_float(node)
        self.generic_visit(node)
        return node


def format_vector_function(value):
    """The text form of a vector function: a string as is, or 3 components joined by ", "."""
    if isinstance(value, str):
        return value.strip()
    parts = [str(c).strip() for c in value]
    return ", ".join(parts)


def _compile(source, what):
    if len(source) > MAX_FUNCTION_LENGTH:
        raise ModelError("%s: the function is %d characters long; at most %d are allowed"
                         % (what, len(source), MAX_FUNCTION_LENGTH))
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, MemoryError, RecursionError, ValueError) as exc:
        raise ModelError("%s: cannot read the function %r: %s"
                         % (what, source, getattr(exc, "msg", None) or exc)) from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_FUNCTION_NODES:
        raise ModelError("%s: the function %r has %d terms; at most %d are allowed"
                         % (what, source, len(nodes), MAX_FUNCTION_NODES))
    depth = _depth(tree)
    if depth > MAX_FUNCTION_DEPTH:
        raise ModelError("%s: the function %r nests %d levels deep; at most %d are allowed"
                         % (what, source, depth, MAX_FUNCTION_DEPTH))
    top = tree.body
    for node in nodes:
        if isinstance(node, (ast.Tuple, ast.List)) and node is not top:
            raise ModelError("%s: sequences are not allowed inside the function %r (only its "
                             "3 comma-separated components)" % (what, source))
        if not isinstance(node, _ALLOWED_NODES):
            raise ModelError("%s: %r is not allowed in the function %r (only numbers, t, "
                             "arithmetic and math functions)"
                             % (what, type(node).__name__, source))
        if isinstance(node, ast.Name) and node.id != "t" and node.id not in _MATH_NAMES:
            raise ModelError("%s: unknown name %r in the function %r (use t and math functions "
                             "such as sin, cos, exp, sqrt, pi)" % (what, node.id, source))
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTION_NAMES \
                    or node.keywords:
                raise ModelError("%s: only math functions can be called in %r" % (what, source))
        if isinstance(node, ast.Constant) and (isinstance(node.value, bool)
                                               or not isinstance(node.value, (int, float))):
            raise ModelError("%s: only numbers are allowed as constants in %r" % (what, source))
    body = tree.body
    if not isinstance(body, (ast.Tuple, ast.List)) or len(body.elts) != 3:
        raise ModelError("%s: the function %r must have 3 comma-separated components "
                         "(x, y, z)" % (what, source))
    try:
        tree = ast.fix_missing_locations(_FloatValues().visit(tree))
        return compile(tree, "<%s>" % what, "eval")
    except (RecursionError, MemoryError):     # a caller's deep stack: still named
        raise ModelError("%s: the function %r nests too deeply to be compiled"
                         % (what, source)) from None


class TimeFunction:
    """A vector function of time ``t`` [s] compiled from its text; ``f(t) -> (3,) array``.

    Parameters
    ----------
    text : str or 3 strings
        Three comma-separated components, e.g. ``"0, 0, 10*sin(2*pi*t)"``.
    what : str
        Names the object in error messages (``"Force 'Push'"``).

    Raises ``ModelError`` when the text is not an allowed expression or does not
    give 3 finite numbers at t = 0. ``source`` is the normalised text; equal
    texts give equal functions (``==``), and pickling keeps only the text.
    """

    def __init__(self, text, what="function"):
        self.source = format_vector_function(text)
        self.what = what
        self._code = _compile(self.source, what)
        self._namespace = {"__builtins__": {}}
        self._namespace.update(_MATH_NAMES)
        self._namespace["_float"] = float        # added by _FloatValues, not a user name
        start = time.perf_counter()
        try:
            v = self(0.0)
        except Exception as exc:  # noqa: BLE001 - report the user's expression failure
            raise ModelError("%s: the function %r fails at t = 0: %s"
                             % (what, self.source, exc)) from None
        if time.perf_counter() - start > FUNCTION_VALIDATION_BUDGET:
            raise ModelError("%s: the function %r takes too long to evaluate (more than %g s)"
                             % (what, self.source, FUNCTION_VALIDATION_BUDGET))
        if v.shape != (3,) or not np.all(np.isfinite(v)):
            raise ModelError("%s: the function %r must give 3 finite numbers, got %r at t = 0"
                             % (what, self.source, v))

    def __call__(self, t):
        self._namespace["t"] = float(t)
        return np.array(eval(self._code, self._namespace), dtype=float)  # noqa: S307 - checked AST

    def __reduce__(self):
        return (TimeFunction, (self.source, self.what))

    def __eq__(self, other):
        return isinstance(other, TimeFunction) and other.source == self.source

    def __hash__(self):
        return hash(self.source)

    def __repr__(self):
        return "TimeFunction(%r)" % self.source
