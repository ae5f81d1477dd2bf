"""What SimPhant needs from the Python it runs in: checked, explained, fixed.

The bottom room: standard library only at import time, no solver, no FreeCAD, so
that every entry point -- the workbench at load, its Check dependencies command,
``simphant doctor``, the run pipeline before a solve -- can ask before anything
imports numba. ``check`` inspects this Python (``probe.py``); ``advice`` turns a
report into the commands that fix it for this FreeCAD (``advice.py``); ``versions``
compares version numbers.
"""
from .advice import (Context, addon_target, fixes, optional_commands, python_for_pip,
                     report_text)
from .probe import (OPTIONAL, PYTHON_MIN, REQUIREMENTS, TESTED_PINS, VIEWER_PINS,
                    DependencyError, Finding, Report, check, require_solver)

__all__ = ["check", "require_solver", "DependencyError", "Report", "Finding", "REQUIREMENTS",
           "OPTIONAL", "PYTHON_MIN", "TESTED_PINS", "VIEWER_PINS", "Context", "addon_target",
           "python_for_pip", "fixes", "optional_commands", "report_text"]
