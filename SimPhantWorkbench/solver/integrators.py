"""Integrator table (docs/theory.md).

Fixed-step methods run their whole time loop inside ``kernels.integrate_fixed``
(no Python per step); SciPy's adaptive methods drive the jitted evaluator
through ``scipy.integrate``'s ``OdeSolver`` classes, one call per derivative.
"""
from collections import OrderedDict, namedtuple

from .errors import ModelError

__all__ = ["METHODS", "method_info"]

MethodInfo = namedtuple("MethodInfo", ["name", "fixed_step", "kernel_id", "evals_per_step",
                                       "scipy_class", "order", "doc"])

METHODS = OrderedDict((m.name, m) for m in [
    MethodInfo("euler", True, 0, 1, None, 1, "explicit Euler, fixed step"),
    MethodInfo("symplectic_euler", True, 1, 1, None, 1,
               "semi-implicit Euler (velocities first, positions with the new velocities)"),
    MethodInfo("rk4", True, 2, 4, None, 4, "classical 4th-order Runge-Kutta, fixed step"),
    MethodInfo("RK45", False, -1, None, "RK45", 5, "SciPy Dormand-Prince 5(4), adaptive"),
    MethodInfo("DOP853", False, -1, None, "DOP853", 8, "SciPy Dormand-Prince 8(5,3), adaptive"),
    MethodInfo("Radau", False, -1, None, "Radau", 5, "SciPy implicit Radau IIA, adaptive (stiff)"),
    MethodInfo("BDF", False, -1, None, "BDF", 5, "SciPy backward differentiation, adaptive (stiff)"),
    MethodInfo("LSODA", False, -1, None, "LSODA", 12, "SciPy LSODA (switches stiff/non-stiff)"),
])

_ALIASES = {"symplectic": "symplectic_euler", "semi_implicit_euler": "symplectic_euler",
            "explicit_euler": "euler"}


def method_info(name):
    """Look up an integration method by name (case-insensitive)."""
    if isinstance(name, str):
        key = _ALIASES.get(name.lower(), name)
        for m in METHODS:
            if m.lower() == key.lower():
                return METHODS[m]
    raise ModelError("unknown integration method %r; valid methods: %s"
                     % (name, ", ".join(METHODS)))
