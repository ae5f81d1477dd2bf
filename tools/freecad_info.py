# Run by tools/setup_env.sh inside freecadcmd: prints where FreeCAD keeps user
# modules and Addon-Manager Python packages, and which Python it embeds.
import os
import sys

import FreeCAD

user = FreeCAD.getUserAppDataDir()
# the Addon Manager's package folder of this FreeCAD: the one it lists on sys.path, else
# what the release uses (one answer per installation, so that running the setup again
# finds what the first run installed); SimPhantWorkbench.deps holds the rule
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from SimPhantWorkbench.deps import addon_target  # noqa: E402

pypkg = addon_target(user, FreeCAD.Version()[0])
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
