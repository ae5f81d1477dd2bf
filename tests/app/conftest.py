"""Shared fixtures of the headless FreeCAD tests (``tests/app``).

Run with ``tools/run_python.sh -m pytest tests/app``. Without FreeCAD the
tests here are skipped at collection.
"""
import itertools

import pytest

try:
    import FreeCAD
except ImportError:  # plain Python: nothing here can run
    FreeCAD = None

collect_ignore_glob = [] if FreeCAD is not None else ["test_*.py"]


if FreeCAD is not None:
    from SimPhantWorkbench.headless import start
    start(FreeCAD)     # the module start-up of freecadcmd (PartDesign, Assembly, add-ons)

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
