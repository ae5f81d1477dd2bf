"""Loads to FEM from the FreeCAD Python console: a body's loads at an instant of a motion
study handed to a FreeCAD FEM analysis and solved with CalculiX.

::

    from SimPhantWorkbench import stress
    report = stress.loads_to_fem(study, "ConnectingRod", "peak:reaction(WristPin)")
    print("\\n".join(stress.report_lines(report)))
    report.peak_stress            # Pa; report.peak_point: mm, body frame
    report.result                 # FEM's result object (von Mises, displacements)

The instant is a time [s], ``"frame:N"`` or ``"peak:SIGNAL"`` (a signal of the
sweep metrics, e.g. ``reaction_force(WristPin)``, ``angular_acceleration(Rod).z``).
``max_stress(study, body, instant)`` is the peak von Mises stress [Pa] alone.
See ``SimPhantWorkbench.fem`` for how the loads are built.
"""
from .fem import body_loads, loads_to_fem, report_lines, tools_problem

__all__ = ["loads_to_fem", "report_lines", "body_loads", "tools_problem", "max_stress"]


def max_stress(study, body, instant, **kwargs):
    """The peak von Mises stress [Pa] of ``body`` at ``instant`` (``loads_to_fem``'s
    arguments); the analysis stays in the document."""
    return loads_to_fem(study, body, instant, **kwargs).peak_stress
