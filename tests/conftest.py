import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# The suite tests this checkout: import the package from it before FreeCAD's start-up puts
# its user Mod folder (where `make setup` links a checkout) on sys.path.
import SimPhantWorkbench  # noqa: E402

assert os.path.realpath(os.path.dirname(SimPhantWorkbench.__file__)) == os.path.realpath(
    os.path.join(ROOT, "SimPhantWorkbench")), "SimPhantWorkbench imported from %s, not %s" % (
    SimPhantWorkbench.__file__, ROOT)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running physics check (still run in CI)")
    config.addinivalue_line("markers", "fc1: needs FreeCAD 1.x (Assembly workbench, "
                            "ShapeMaterial); deselected on 0.x, run by make test-fc1")


FC1_REASON = ("they test what only FreeCAD 1.x has (Assembly workbench, ShapeMaterial); "
              "run by `make test-fc1`")


def _freecad_version():
    try:
        import FreeCAD
    except ImportError:
        return None
    return FreeCAD.Version()[:3]


def pytest_collection_modifyitems(config, items):
    """Below FreeCAD 1.x, leave out the tests marked ``fc1`` (not run, not skipped: they
    test what only 1.x has) and list them in the summary."""
    fc1 = [item for item in items if item.get_closest_marker("fc1") is not None]
    if not fc1:
        return
    version = _freecad_version()
    if version is not None and int(version[0]) >= 1:
        return
    items[:] = [item for item in items if item.get_closest_marker("fc1") is None]
    config.hook.pytest_deselected(items=fc1)
    config._simphant_fc1_out = (fc1, ".".join(version) if version else "none")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    out = getattr(config, "_simphant_fc1_out", None)
    if out:
        items, version = out
        terminalreporter.write_sep(
            "-", "%d FreeCAD 1.x test%s deselected on FreeCAD %s: %s"
            % (len(items), "" if len(items) == 1 else "s", version, FC1_REASON))
        for item in items:
            terminalreporter.write_line("  deselected (FreeCAD 1.x only): %s" % item.nodeid)
