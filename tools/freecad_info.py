# Run by tools/setup_env.sh inside freecadcmd: prints where FreeCAD keeps user
# modules and Addon-Manager Python packages, and which Python it embeds.
import os
import sys

import FreeCAD

user = FreeCAD.getUserAppDataDir()
base = os.path.join(user, "AdditionalPythonPackages")
versioned = os.path.join(base, "py%d%d" % sys.version_info[:2])
# FreeCAD 0.20 appends <user>/AdditionalPythonPackages to sys.path; 1.x appends both
# <user>/AdditionalPythonPackages/py3XX (the Addon Manager's target for this Python) and the
# plain folder. Take the versioned folder when FreeCAD lists it, else the plain one when it
# does, else what the release would use: one answer per installation, so that running the
# setup again finds what the first run installed.
on_path = [p.rstrip("/") for p in sys.path if "AdditionalPythonPackages" in p]
if versioned in on_path:
    pypkg = versioned
elif on_path:
    pypkg = on_path[0]
elif FreeCAD.Version()[0] == "0":
    pypkg = base
else:
    pypkg = versioned
mod = os.path.join(user, "Mod")
if hasattr(FreeCAD, "getUserModDir"):
    mod = FreeCAD.getUserModDir()
lib = os.path.dirname(FreeCAD.__file__) if hasattr(FreeCAD, "__file__") else ""
if not lib:
    for p in sys.path:
        if os.path.exists(os.path.join(p, "FreeCAD.so")):
            lib = p
            break
print("SIMPHANT_PYPKG_DIR=%s" % pypkg)
print("SIMPHANT_MOD_DIR=%s" % mod.rstrip("/"))
print("SIMPHANT_FC_LIB=%s" % lib)
print("SIMPHANT_PYVER=%d.%d" % sys.version_info[:2])
