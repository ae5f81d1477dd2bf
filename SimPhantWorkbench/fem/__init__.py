"""Loads to FEM: a body's loads at an instant of a motion study handed to FreeCAD FEM.

Document side (FreeCAD, no Qt). ``loads`` reads the loads (joint reactions,
gravity, inertia) in the body's frame, ``meshload`` puts them on a mesh (no
FreeCAD), ``analysis`` builds FEM's objects and meshes, ``solve`` writes them
into FEM's CalculiX input, runs it and reads the results, ``handoff`` is the
one entry point (``loads_to_fem``) the console, the command line, the GUI
command and the sweep metric call.
"""
from .analysis import tools_problem
from .handoff import StressReport, loads_to_fem, report_lines
from .loads import body_loads, choose_instant

__all__ = ["loads_to_fem", "StressReport", "report_lines", "body_loads", "choose_instant",
           "tools_problem"]
