"""Shared fixtures of the headless FreeCAD tests (``tests/app``).

Run with ``tools/run_python.sh -m pytest tests/app``. Without FreeCAD every
test module here is reported as skipped (with the reason), not silently dropped.
"""
import itertools

import pytest

try:
    import FreeCAD
    _NO_FREECAD = None
except ImportError as exc:  # plain Python: nothing here can run
    FreeCAD = None
    _NO_FREECAD = str(exc)


class _SkippedModule(pytest.File):
    """A test module that cannot be imported without FreeCAD: one skip report."""

    def collect(self):
        pytest.skip("FreeCAD is not importable (%s); run the tests with tools/run_python.sh"
                    % _NO_FREECAD, allow_module_level=True)


def pytest_pycollect_makemodule(module_path, parent):
    if FreeCAD is None:
        return _SkippedModule.from_parent(parent, path=module_path)
    return None


if FreeCAD is not None:
    from SimPhantWorkbench.document.headless import start
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


@pytest.fixture(scope="module")
def cluster():
    """A ``dask.distributed`` LocalCluster of 2 worker processes (one thread each, tcp on
    localhost: a user's own cluster) and its client; shut down after the module."""
    distributed = pytest.importorskip("distributed")
    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 host="127.0.0.1", dashboard_address="127.0.0.1:0")
    client = distributed.Client(c)
    try:
        yield c, client
    finally:
        client.close()
        c.close()
