"""Where this FreeCAD keeps add-on Python packages, and the dependency advice for it.

``deps`` (FreeCAD-free) checks the Python and words the fixes; this module supplies
what only FreeCAD knows: its user data folder (the Addon Manager's package folder is
``AdditionalPythonPackages`` there, ``py3XX`` inside it on 1.x), its version, and the
Python executable the Addon Manager's preference names for pip.
"""
import os
import shutil

from .. import deps

__all__ = ["context", "advice", "report_text"]

_ADDON_PREFS = "User parameter:BaseApp/Preferences/Addons"


def context(FreeCAD=None):
    """The ``deps.Context`` of this FreeCAD."""
    if FreeCAD is None:
        import FreeCAD
    version = FreeCAD.Version()
    try:
        preferred = FreeCAD.ParamGet(_ADDON_PREFS).GetString("PythonExecutableForPip", "")
    except Exception:  # noqa: BLE001 - no parameter store (a bare library start)
        preferred = ""
    target = deps.addon_target(FreeCAD.getUserAppDataDir(), version[0])
    apt = bool(shutil.which("apt-get")) and os.path.isdir("/usr/lib/python3/dist-packages")
    return deps.Context(deps.python_for_pip(preferred or None), target,
                        ".".join(version[:3]), apt)


def advice(report):
    """The commands fixing ``report``'s errors here, as text (``deps.require_solver``'s
    ``advice``)."""
    lines = []
    for name, cmds in deps.fixes(report, context()):
        lines.append("%s: %s" % (name, "  then  ".join(c for c in cmds if c)))
    return "\n".join(lines)


def report_text(report=None, optional=True):
    """The whole report for this FreeCAD (``report``: a ``deps.check()`` made here)."""
    return deps.report_text(report or deps.check(optional=optional), context(), optional)
