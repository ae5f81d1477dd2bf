"""Shared fixtures of the headless FreeCAD tests (``tests/app``).

Run with ``tools/run_python.sh -m pytest tests/app``. Without FreeCAD the
tests here are skipped at collection.
"""
import itertools
import os
import sys

import pytest

try:
    import FreeCAD
except ImportError:  # plain Python: nothing here can run
    FreeCAD = None

collect_ignore_glob = [] if FreeCAD is not None else ["test_*.py"]


def _add_freecad_mod_dirs():
    """Make FreeCAD's Python workbench packages (``PartDesign``, ...) importable.

    ``import FreeCAD`` as a library does not run FreeCAD's start-up, which puts
    ``<resource dir>/Mod/*`` on ``sys.path``; creating a ``PartDesign::Body``
    then fails with "No module named 'PartDesign'". Appended at the end, so the
    compiled modules (``Part.so``) keep priority over the same-named folders.
    """
    for base in (FreeCAD.getResourceDir(), FreeCAD.getHomePath()):
        mod = os.path.join(base, "Mod")
        if os.path.isdir(mod) and mod not in sys.path:
            sys.path.append(mod)


if FreeCAD is not None:
    _add_freecad_mod_dirs()

_counter = itertools.count(1)


@pytest.fixture
def doc():
    """A fresh FreeCAD document, closed after the test."""
    document = FreeCAD.newDocument("SimPhantTest%d" % next(_counter))
    try:
        yield document
    finally:
        FreeCAD.closeDocument(document.Name)


@pytest.fixture
def partdesign():
    """Skip the test when PartDesign objects cannot be created."""
    try:
        import PartDesign  # noqa: F401  (registers the Python side of PartDesign)
    except ImportError as exc:
        pytest.skip("PartDesign is not importable: %s" % exc)
