"""The BLAS threads of the solver's dense linear algebra.

OpenBLAS computes the same product or factorisation with other kernels when it
runs on one thread than on several, and the results differ in the last bits.
Whether a process's BLAS is threaded depends on its start (``OPENBLAS_NUM_THREADS``,
which Dask sets to 1 in its workers) and on what the process loaded before, so
that the same study gave results differing by an ulp in the GUI, in a script, on
the command line and in a parameter study (``numpy.linalg.eigh`` of a body's 3x3
inertia tensor already differs). ``single_threaded`` runs a block with one BLAS
thread and restores the previous count afterwards: the mass properties
(``document.bodies``) and the runs (``kinematics.run_analysis``) give the same bits
in every process. The matrices are small enough that a single thread costs nothing
measurable.

Only OpenBLAS (the BLAS of Debian's and PyPI's NumPy and SciPy) needs this; other
BLAS libraries are left as they are.
"""
import contextlib
import ctypes
import threading

import numpy.linalg  # noqa: F401  (loads NumPy's BLAS and LAPACK: NumPy 2 imports it lazily)

__all__ = ["single_threaded", "openblas_libraries"]

#: the thread-count functions of OpenBLAS builds: (set, get)
_SYMBOLS = (("openblas_set_num_threads", "openblas_get_num_threads"),
            ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
            ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"))

_found = {}            # library path -> (set, get) once looked up
_lock = threading.Lock()
_depth = [0, []]       # nesting depth, the counts to restore


def openblas_libraries():
    """``[(set_num_threads, get_num_threads)]`` of every OpenBLAS the process has loaded
    (read from ``/proc/self/maps``; empty elsewhere or without OpenBLAS)."""
    try:
        with open("/proc/self/maps") as fh:
            paths = {line.split()[-1] for line in fh
                     if "blas" in line.lower() or "lapack" in line.lower()}
    except OSError:
        return []
    out = []
    seen = set()
    for path in sorted(paths):
        if path not in _found:
            funcs = None
            try:
                lib = ctypes.CDLL(path)
                for set_name, get_name in _SYMBOLS:
                    if hasattr(lib, set_name) and hasattr(lib, get_name):
                        setter, getter = getattr(lib, set_name), getattr(lib, get_name)
                        setter.argtypes, setter.restype = [ctypes.c_int], None
                        getter.argtypes, getter.restype = [], ctypes.c_int
                        funcs = (setter, getter)
                        break
            except OSError:
                funcs = None
            _found[path] = funcs
        funcs = _found[path]
        # several file names (libblas.so.3, liblapack.so.3) can be one library
        if funcs is not None and ctypes.cast(funcs[0], ctypes.c_void_p).value not in seen:
            seen.add(ctypes.cast(funcs[0], ctypes.c_void_p).value)
            out.append(funcs)
    return out


@contextlib.contextmanager
def single_threaded():
    """Within the block every loaded OpenBLAS uses one thread; the previous counts come
    back afterwards (nested blocks share the outermost one)."""
    with _lock:
        if _depth[0] == 0:
            libs = openblas_libraries()
            _depth[1] = [(setter, getter()) for setter, getter in libs]
            for setter, _ in _depth[1]:
                setter(1)
        _depth[0] += 1
    try:
        yield
    finally:
        with _lock:
            _depth[0] -= 1
            if _depth[0] == 0:
                for setter, count in _depth[1]:
                    setter(count)
                _depth[1] = []
