"""numba's ``njit`` for the kernels, or a stand-in where numba cannot be imported.

The registries (joint, force and driver kinds) live next to their jitted kernels, and
the workbench builds its commands from them: with the stand-in, the solver package
imports without numba (the workbench activates, documents open)
and calling a kernel raises ``DependencyError`` naming what is missing instead of
running it. ``AVAILABLE`` tells which one is in use; ``IMPORT_ERROR`` why numba is not.
"""
import functools
import types

from ..deps import DependencyError

__all__ = ["njit", "overload", "AVAILABLE", "IMPORT_ERROR", "variants"]

try:
    from numba import njit
    from numba.extending import overload
    AVAILABLE = True
    IMPORT_ERROR = None
except Exception as exc:  # noqa: BLE001 - ImportError, or numba refusing this numpy
    AVAILABLE = False
    IMPORT_ERROR = "%s: %s" % (type(exc).__name__, exc)

    def overload(func, **_options):
        """Stand-in: without numba there is no jitted code to give an implementation."""
        return lambda typer: typer

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


def variants(kernels, suffix, bind=None, **options):
    """Second dispatchers of the Python code of ``kernels`` (dispatchers), compiled with
    ``options``: ``{name: dispatcher}``, each named ``name + suffix`` (numba caches it
    apart from the first one). Inside them a call to another of ``kernels``, or to a name
    of ``bind`` (``{name: dispatcher}``), goes to that variant instead of the original:
    e.g. the stages of an evaluation compiled ``inline="always"`` once more, for an
    evaluator that inlines them, while the originals stay plain functions."""
    made, spaces = {}, []
    for kernel in kernels:
        py = getattr(kernel, "py_func", kernel)      # a plain function under NUMBA_DISABLE_JIT
        space = dict(py.__globals__)
        clone = types.FunctionType(py.__code__, space, py.__name__ + suffix, py.__defaults__,
                                   py.__closure__)
        clone.__qualname__ = py.__qualname__ + suffix
        clone.__doc__ = py.__doc__
        clone.__module__ = py.__module__
        made[py.__name__] = njit(**options)(clone)
        spaces.append(space)
    for space in spaces:        # numba reads a kernel's globals when it compiles it
        space.update(made)
        space.update(bind or {})
    return made
