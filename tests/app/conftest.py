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

#: FreeCAD major version; the ``fc1`` tests need 1.x (its Assembly workbench)
FREECAD_MAJOR = int(FreeCAD.Version()[0]) if FreeCAD is not None else 0
FC1_REASON = ("need FreeCAD 1.x (the Assembly workbench made their documents); "
              "run by `make test-fc1`")


def pytest_collection_modifyitems(config, items):
    """On FreeCAD 0.x, leave out the tests marked ``fc1`` (not run, not skipped: they
    test what only 1.x has) and say so in the summary."""
    if FREECAD_MAJOR >= 1:
        return
    out = [item for item in items if item.get_closest_marker("fc1") is not None]
    if out:
        items[:] = [item for item in items if item.get_closest_marker("fc1") is None]
        config.hook.pytest_deselected(items=out)
        config._simphant_fc1_out = out


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    out = getattr(config, "_simphant_fc1_out", None)
    if out:
        terminalreporter.write_sep(
            "-", "%d FreeCAD 1.x test%s deselected on FreeCAD %s: %s"
            % (len(out), "" if len(out) == 1 else "s", ".".join(FreeCAD.Version()[:3]),
               FC1_REASON))
        for item in out:
            terminalreporter.write_line("  deselected (FreeCAD 1.x only): %s" % item.nodeid)


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
