"""A study gives the same bits in every process, whatever its BLAS threads: OpenBLAS
computes e.g. the eigenvectors of a 3x3 inertia tensor with other kernels on one thread
than on several (Dask workers run with one), and the mass properties, the conversion and
the runs use one thread (``solver.blas.one_thread``)."""
import os
import subprocess
import sys

import numpy as np

import FreeCAD

from SimPhantWorkbench import runner
from SimPhantWorkbench.document.base import studies
from SimPhantWorkbench.solver import blas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "examples", "driven_slider_crank.FCStd")

SCRIPT = """
import sys
import numpy as np
import FreeCAD
from SimPhantWorkbench import runner
from SimPhantWorkbench.document.base import studies
doc = FreeCAD.openDocument(sys.argv[1])
r = runner.run_study(studies(doc)[0], t_end=0.5)
np.save(sys.argv[2], r.to_arrays()["states"])
"""


def test_a_run_gives_the_same_bits_with_one_blas_thread_as_with_several(tmp_path):
    doc = FreeCAD.openDocument(MODEL)
    try:
        here = runner.run_study(studies(doc)[0], t_end=0.5).to_arrays()["states"]
    finally:
        FreeCAD.closeDocument(doc.Name)
    for threads in ("1", "2"):
        out = tmp_path / ("states_%s.npy" % threads)
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        proc = subprocess.run([sys.executable, "-c", SCRIPT, MODEL, str(out)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        np.testing.assert_array_equal(np.load(str(out)), here)


def test_the_solver_leaves_every_openblas_on_one_thread():
    """With OpenBLAS (Debian 12's NumPy) every loaded one runs on one thread once the
    solver is imported; with another BLAS (Debian 13's NumPy uses the reference BLAS,
    single-threaded) nothing is touched."""
    libs = blas.openblas_libraries()
    with open("/proc/self/maps") as fh:
        openblas = any("openblas" in line.lower() for line in fh)
    assert bool(libs) == openblas
    for setter, _ in libs:
        setter(2)                   # as a library loaded later starts
    blas.one_thread()
    assert [get() for _, get in libs] == [1] * len(libs)


def test_one_thread_reads_the_libraries_again_only_after_an_import(monkeypatch):
    """``one_thread`` is called per body and per run: it reads /proc/self/maps (milliseconds in
    a FreeCAD process) only when a module was imported since, yet still resets a known
    library that was set back to several threads."""
    scans = []
    real = blas.openblas_libraries
    monkeypatch.setattr(blas, "openblas_libraries", lambda: scans.append(1) or real())
    monkeypatch.setattr(blas, "_scanned", [None, []])
    blas.one_thread()
    blas.one_thread()
    assert len(scans) == 1
    monkeypatch.setitem(sys.modules, "simphant_test_new_module", object())
    blas.one_thread()
    assert len(scans) == 2
    for setter, _ in real():
        setter(2)
    blas.one_thread()
    assert len(scans) == 2
    assert [get() for _, get in real()] == [1] * len(real())
