"""SimPhant: rigid multibody dynamics for FreeCAD.

``SimPhantWorkbench.solver`` is the pure physics package (no FreeCAD needed);
the other modules form the FreeCAD application layer and import FreeCAD.
"""
__version__ = "0.1.0"
