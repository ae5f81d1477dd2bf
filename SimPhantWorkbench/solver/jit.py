"""numba's ``njit`` for the kernels, or a stand-in where numba cannot be imported.

The registries (joint, force and driver kinds) live next to their jitted kernels, and
the workbench builds its commands from them: with the stand-in, the solver package
imports without numba (the workbench activates, documents open)
and calling a kernel raises ``DependencyError`` naming what is missing instead of
running it. ``AVAILABLE`` tells which one is in use; ``IMPORT_ERROR`` why numba is not.
"""
import functools

from ..deps import DependencyError

__all__ = ["njit", "AVAILABLE", "IMPORT_ERROR"]

try:
    from numba import njit
    AVAILABLE = True
    IMPORT_ERROR = None
except Exception as exc:  # noqa: BLE001 - ImportError, or numba refusing this numpy
    AVAILABLE = False
    IMPORT_ERROR = "%s: %s" % (type(exc).__name__, exc)

    def njit(*args, **options):
        """Stand-in decorator: the function raises ``DependencyError`` when called."""
        def wrap(func):
            @functools.wraps(func)
            def unavailable(*_a, **_k):
                raise DependencyError(
                    "the solver kernel %s needs numba, which cannot be imported here (%s); "
                    "SimPhant > Check dependencies or 'simphant doctor' says how to install "
                    "it" % (func.__name__, IMPORT_ERROR))
            unavailable.py_func = func
            return unavailable
        if len(args) == 1 and callable(args[0]) and not options:
            return wrap(args[0])
        return wrap
