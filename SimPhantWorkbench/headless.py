"""Headless FreeCAD (``import FreeCAD`` from a plain Python) as FreeCAD's own start-up sets it up."""
import os
import sys

__all__ = ["add_mod_dirs"]


def add_mod_dirs(FreeCAD):
    """Put FreeCAD's ``<resource dir>/Mod`` on ``sys.path`` so its Python workbench
    packages (``PartDesign``, ...) import.

    ``import FreeCAD`` as a library does not run FreeCAD's start-up, which does
    this; documents with PartDesign objects then load with empty bodies, and
    creating a ``PartDesign::Body`` fails with "No module named 'PartDesign'".
    Appended at the end, so the compiled modules (``Part.so``) keep priority
    over the same-named folders.
    """
    for base in (FreeCAD.getResourceDir(), FreeCAD.getHomePath()):
        mod = os.path.join(base, "Mod")
        if os.path.isdir(mod) and mod not in sys.path:
            sys.path.append(mod)
