"""Headless FreeCAD (``import FreeCAD`` from a plain Python) started as ``freecadcmd`` starts it.

Imported as a library, FreeCAD runs its start-up script, but finds the module
folders only next to its library (``getHomePath()/Mod``), where Debian installs
none. So no workbench's ``Init.py`` runs: types of Python workbenches (the 1.x
Assembly, ...) are not registered, their modules are not on ``sys.path``, and
FreeCAD 1.x (with the document-restore check of its security updates) refuses
to import a document object's Python class from a folder that is not a known
module folder (``FreeCAD.__ModDirs__``). A document opened that way misses
objects and proxies, and saving it loses them.

``start()`` does what FreeCAD's start-up does for the folders it missed:
``<resource dir>/Mod/*`` (the installed workbenches), ``<user data>/Mod/*``
(add-ons, as the Addon Manager installs them) and the ``AdditionalModulePaths``
configuration; each folder joins ``FreeCAD.__ModDirs__`` and ``sys.path``, and
its ``Init.py`` runs. ``<resource dir>/Ext`` (FreeCAD's ``freecad`` package)
joins ``sys.path``. Idempotent; inside ``freecad``/``freecadcmd`` it changes
nothing (their start-up already did it all).

``tools/run_python.sh``, ``bin/simphant`` and the tests' FreeCAD fixture call it.
"""
import os
import sys
import traceback

__all__ = ["start", "module_dirs", "add_mod_dirs"]

_started = False


def _real(path):
    return os.path.realpath(path.rstrip("/")) if path else ""


def _package_subdir(folder):
    """The workbench folder an add-on's ``package.xml`` names (``<subdirectory>``), as
    FreeCAD 1.x reads it; the folder itself when there is none."""
    xml = os.path.join(folder, "package.xml")
    if not os.path.isfile(xml):
        return folder
    try:
        import xml.etree.ElementTree as ET
        root = ET.parse(xml).getroot()
    except Exception:  # noqa: BLE001 - a broken package.xml: FreeCAD falls back too
        return folder
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "subdirectory" and (el.text or "").strip():
            sub = os.path.normpath(os.path.join(folder, el.text.strip()))
            if os.path.isdir(sub):
                return sub
    return folder


def module_dirs(FreeCAD):
    """The module folders FreeCAD's start-up would initialise, in its order (installed
    workbenches, then add-ons, which replace installed ones of the same name, then the
    ``AdditionalModulePaths``); each is a real path."""
    found = {}
    user = FreeCAD.getUserAppDataDir()
    user_mod = FreeCAD.getUserModDir() if hasattr(FreeCAD, "getUserModDir") \
        else os.path.join(user, "Mod")
    bases = []
    for base in (FreeCAD.getHomePath(), FreeCAD.getResourceDir()):
        mod = _real(os.path.join(base, "Mod"))
        if os.path.isdir(mod) and mod not in bases:
            bases.append(mod)
    bases.append(_real(user_mod))
    for mod in bases:
        if not os.path.isdir(mod):
            continue
        for name in sorted(os.listdir(mod)):
            folder = os.path.join(mod, name)
            if os.path.isdir(folder) and name not in ("__pycache__", "CVS"):
                found[name.lower()] = _real(_package_subdir(folder))
    for extra in (FreeCAD.ConfigGet("AdditionalModulePaths") or "").split(";"):
        if extra and os.path.isdir(extra):
            found[_real(extra)] = _real(extra)
    return list(found.values())


def _run_init(FreeCAD, folder):
    path = os.path.join(folder, "Init.py")
    if not os.path.isfile(path):
        return
    console = FreeCAD.Console
    scope = {"__name__": "__simphant_init__", "__builtins__": __builtins__,
             "FreeCAD": FreeCAD, "App": FreeCAD, "os": os, "sys": sys,
             "Log": console.PrintLog, "Msg": console.PrintMessage,
             "Err": console.PrintError, "Wrn": console.PrintWarning}
    try:
        with open(path, encoding="utf-8") as fh:
            code = compile(fh.read(), path, "exec")
        exec(code, scope)  # noqa: S102 - what FreeCAD's own start-up does with Init.py
    except Exception as exc:  # noqa: BLE001 - as FreeCAD: report and go on
        console.PrintLog(traceback.format_exc())
        console.PrintError("During initialization the error \"%s\" occurred in %s\n"
                           % (exc, path))


def start(FreeCAD=None):
    """Run FreeCAD's module start-up for the module folders it did not find (see the
    module docstring). Returns the folders it initialised (none the second time)."""
    global _started
    if FreeCAD is None:
        import FreeCAD
    if _started:
        return []
    _started = True
    known = getattr(FreeCAD, "__ModDirs__", None)
    if not isinstance(known, list):
        known = list(known or [])
        FreeCAD.__ModDirs__ = known
    known_real = {_real(d) for d in known}
    ext = _real(os.path.join(FreeCAD.getResourceDir(), "Ext"))
    if os.path.isdir(ext) and ext not in {_real(p) for p in sys.path}:
        sys.path.append(ext)
    add_mod_dirs(FreeCAD)
    on_path = {_real(p) for p in sys.path}
    new = [d for d in module_dirs(FreeCAD) if d not in known_real]
    for folder in new:
        known.append(folder)            # allowed origin of restored Python objects (1.x)
        if folder not in on_path:
            sys.path.append(folder)     # after PYTHONPATH: the caller's modules keep priority
    for folder in new:
        _run_init(FreeCAD, folder)
    return new


def add_mod_dirs(FreeCAD):
    """Put FreeCAD's ``<resource dir>/Mod`` on ``sys.path`` so its Python workbench
    packages (``PartDesign``, ...) import. Appended at the end, so the compiled modules
    (``Part.so``) keep priority over the same-named folders. Part of ``start``."""
    for base in (FreeCAD.getResourceDir(), FreeCAD.getHomePath()):
        mod = os.path.join(base, "Mod")
        if os.path.isdir(mod) and mod not in sys.path:
            sys.path.append(mod)
