"""The BLAS threads of SimPhant's numerics.

OpenBLAS computes the same product or factorisation with other kernels when it
runs on one thread than on several, and the results differ in the last bits.
Whether a process's BLAS is threaded depends on its start (``OPENBLAS_NUM_THREADS``,
which Dask sets to 1 in its workers) and on what the process loaded before, so
that the same study gave results differing by an ulp in the GUI, in a script, on
the command line and in a parameter study (``numpy.linalg.eigh`` of a body's 3x3
inertia tensor already differs), and a stored result read back gave other joint
angles than it did fresh. ``one_thread()`` sets every OpenBLAS the process has
loaded to one thread and leaves it so: the solver package calls it when it is
imported, and the conversion and the runs call it again (a library loaded since,
e.g. SciPy's own OpenBLAS of a PyPI wheel, gets it too). SimPhant's matrices are
small enough that a single thread costs nothing measurable; a FreeCAD session
that has loaded SimPhant runs NumPy's BLAS on one thread.

Only OpenBLAS (the BLAS of Debian 12's and PyPI's NumPy and SciPy) needs this; other
BLAS libraries (Debian 13's NumPy uses the single-threaded reference BLAS) are left
as they are.
"""
import ctypes
import sys
import threading

import numpy.linalg  # noqa: F401  (loads NumPy's BLAS and LAPACK: NumPy 2 imports it lazily)

__all__ = ["one_thread", "openblas_libraries"]

#: the thread-count functions of OpenBLAS builds: (set, get)
_SYMBOLS = (("openblas_set_num_threads", "openblas_get_num_threads"),
            ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
            ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"))

_found = {}            # library path -> (set, get) once looked up
_lock = threading.Lock()
_scanned = [None, []]  # [len(sys.modules) at the last scan, its openblas_libraries()]


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


def one_thread():
    """Set every loaded OpenBLAS to one thread (and leave it so); cheap to call again:
    the process's libraries are read again only when a module was imported since the last
    call (an OpenBLAS arrives with an import: NumPy's, SciPy's own of a PyPI wheel), else
    only the known libraries' thread counts are checked."""
    with _lock:
        if _scanned[0] != len(sys.modules):
            _scanned[1] = openblas_libraries()
            _scanned[0] = len(sys.modules)
        for setter, getter in _scanned[1]:
            if getter() != 1:
                setter(1)
