"""Run inside freecadcmd with a fresh HOME: install SimPhant's Python dependencies the way
FreeCAD's Addon Manager does for an add-on cloned into ``<user data>/Mod/SimPhant``.

What the Addon Manager does (FreeCAD 0.20's ``AddonManager``/``addonmanager_workers`` and
1.x's ``addonmanager_installer_gui``/``addonmanager_dependency_installer``, read, not
copied):

* 0.20 reads package.xml with ``FreeCAD.Metadata``; every ``<depend>`` that is not a
  FreeCAD workbench or add-on is a required Python package (no ``optional``). 1.x reads
  ``type="python"`` depends and leaves the optional ones unticked.
* A package is missing when ``__import__(name)`` raises ImportError.
* A missing package that is not in the allow-list is refused ("cannot be installed
  automatically"). ``SIMPHANT_AM_ALLOW=shipped`` uses the list FreeCAD ships (no numba);
  ``online`` adds numba, as the list FreeCAD fetches online did when this was reproduced.
* Each allowed missing package: ``<python> -m pip install --disable-pip-version-check
  --target <folder> NAME`` with its dependencies (pip resolves them); the folder is
  ``<user data>/AdditionalPythonPackages`` on 0.20, its ``py3XX`` folder on 1.x; the
  Python is the Addon Manager preference, else ``python3`` next to FreeCAD, else on PATH.

Writes what it did as JSON to ``$SIMPHANT_AM_LOG``.
"""
import json
import os
import platform
import shutil
import subprocess
import sys

import FreeCAD

XML = os.environ["SIMPHANT_AM_XML"]
ALLOW = os.environ.get("SIMPHANT_AM_ALLOW", "online")
LOG = os.environ["SIMPHANT_AM_LOG"]
AM_DIR = os.path.join(FreeCAD.getResourceDir(), "Mod", "AddonManager")
major = int(FreeCAD.Version()[0])


def required_python_deps():
    if major == 0:
        return [d["package"] for d in FreeCAD.Metadata(XML).Depend]
    sys.path.insert(0, AM_DIR)
    import addonmanager_metadata as amm
    md = amm.MetadataReader.from_file(XML)
    return [d.package for d in md.depend
            if d.dependency_type in (amm.DependencyType.python, amm.DependencyType.automatic)
            and not d.optional]


def allow_list():
    names = set()
    with open(os.path.join(AM_DIR, "ALLOWED_PYTHON_PACKAGES.txt")) as fh:
        for line in fh:
            if line.strip() and not line.startswith("#"):
                names.add(line.strip().lower())
    if ALLOW == "online":
        names.add("numba")
    return names


def python_exe():
    pref = FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Addons").GetString(
        "PythonExecutableForPip", "")
    candidates = [pref, os.path.join(FreeCAD.getHomePath(), "bin", "python3"),
                  os.path.join(FreeCAD.getHomePath(), "bin", "python"),
                  shutil.which("python3"), shutil.which("python")]
    return next(c for c in candidates if c and os.path.exists(c))


def target():
    base = os.path.join(FreeCAD.getUserAppDataDir(), "AdditionalPythonPackages")
    if major == 0:
        return base
    major_minor = platform.python_version_tuple()[:2]
    return os.path.join(base, "py%s%s" % tuple(major_minor))


def main():
    log = dict(freecad=".".join(FreeCAD.Version()[:3]), target=target(), python=python_exe(),
               required=required_python_deps(), missing=[], refused=[], installed=[],
               failed=[])
    allowed = allow_list()
    for dep in log["required"]:
        try:
            __import__(dep)
            continue
        except ImportError:
            log["missing"].append(dep)
        if dep.lower() not in allowed:
            log["refused"].append(dep)
            continue
        os.makedirs(log["target"], exist_ok=True)
        proc = subprocess.run([log["python"], "-m", "pip", "install",
                               "--disable-pip-version-check", "--target", log["target"], dep],
                              capture_output=True, text=True)
        (log["installed"] if proc.returncode == 0 else log["failed"]).append(dep)
        if proc.returncode:
            log.setdefault("errors", {})[dep] = proc.stderr[-3000:]
    log["target_contents"] = sorted(os.listdir(log["target"])) if os.path.isdir(
        log["target"]) else []
    with open(LOG, "w") as fh:
        json.dump(log, fh, indent=1)


main()
