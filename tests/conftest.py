import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running physics check (still run in CI)")
    config.addinivalue_line("markers", "fc1: needs FreeCAD 1.x (its Assembly workbench); "
                            "deselected on FreeCAD 0.x, run by make test-fc1")
