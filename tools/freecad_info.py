# Run by tools/setup_env.sh inside freecadcmd: prints where FreeCAD keeps user
# modules and Addon-Manager Python packages, and which Python it embeds.
import os
import sys

import FreeCAD

user = FreeCAD.getUserAppDataDir()
base = os.path.join(user, "AdditionalPythonPackages")
# FreeCAD 0.20 appends <user>/AdditionalPythonPackages to sys.path; newer
# releases use a per-Python-version subdirectory. Take what FreeCAD put on
# sys.path if it did, else the versioned directory of the newer releases.
pypkg = None
for p in sys.path:
    if "AdditionalPythonPackages" in p:
        pypkg = p.rstrip("/")
if pypkg is None:
    if FreeCAD.Version()[0] == "0":
        pypkg = base
    else:
        pypkg = os.path.join(base, "py%d%d" % sys.version_info[:2])
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
