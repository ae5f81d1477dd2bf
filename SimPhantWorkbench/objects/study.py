"""Study: the container of a motion study (like FEM's Analysis).

An ``App::DocumentObjectGroupPython`` holding the Bodies, Joints, Loads and the
Result of one simulation set-up, plus the simulation settings.

Gravity is set as FEM does it: a magnitude (``GravityAcceleration``, a
Quantity) and a direction vector (``GravityDirection``).
"""
from ..document.base import (find_study, has_result, study_bodies, study_drivers,
                             study_joints, study_loads, study_members, study_result)
from .base import BaseProxy, prop

# The member queries live in ``document.base`` (the document side reads studies without
# the proxy classes); they are importable from here as before.
__all__ = ["Study", "STABILISATION_MODES", "ANALYSIS_MODES", "study_members", "study_bodies",
           "study_joints", "study_drivers", "has_result", "study_loads", "study_result",
           "find_study"]

TYPE = "SimPhant::Study"   # == document.base.STUDY

#: Constraint stabilisation (Baumgarte) set-ups: physical (time constant and
#: damping ratio) or the raw constants alpha, beta.
STABILISATION_MODES = ("TimeConstant", "Baumgarte")

#: Analysis modes: integrate the equations of motion (Dynamic), or solve the motion of a
#: fully driven mechanism from its constraints, then its forces (Kinematic).
ANALYSIS_MODES = ("Dynamic", "Kinematic")


def _methods():
    from ..solver import METHODS
    return list(METHODS)


class Study(BaseProxy):
    """Proxy of a SimPhant study (``SimPhant::Study``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyAcceleration", "GravityAcceleration", "Gravity",
             "Magnitude of the gravitational acceleration", default="9806.65 mm/s^2"),
        prop("App::PropertyVector", "GravityDirection", "Gravity",
             "Direction of gravity, world axes (normalised when used)", default=(0.0, 0.0, -1.0)),
        prop("App::PropertyFloat", "EndTime", "Time", "Simulated time span [s]", default=2.0),
        prop("App::PropertyEnumeration", "AnalysisMode", "Time",
             "Dynamic: integrate the equations of motion. Kinematic: every degree of freedom "
             "is driven; positions, velocities and accelerations from the constraints, then "
             "reactions and driver efforts (TimeStep and the integrator are not used)",
             default="Dynamic", values=ANALYSIS_MODES),
        prop("App::PropertyFloat", "TimeStep", "Time",
             "Integration step [s] of the fixed-step integrators; maximum step of the adaptive "
             "ones (0 = unlimited)", default=1e-3),
        prop("App::PropertyFloat", "OutputInterval", "Time",
             "Interval between stored result frames [s] (0 = automatic: at most 1000 frames)",
             default=0.01),
        prop("App::PropertyEnumeration", "Integrator", "Integrator",
             "Integration method (fixed step: euler, symplectic_euler, rk4; adaptive SciPy "
             "methods use the tolerances)", default="rk4", values=_methods),
        prop("App::PropertyFloat", "RelativeTolerance", "Integrator",
             "Relative tolerance of the adaptive integrators", default=1e-8),
        prop("App::PropertyFloat", "AbsoluteTolerance", "Integrator",
             "Absolute tolerance of the adaptive integrators", default=1e-10),
        prop("App::PropertyEnumeration", "Stabilisation", "Stabilisation",
             "How the constraint drift correction is set: TimeConstant (time constant and damping "
             "ratio) or Baumgarte (alpha, beta)", default="TimeConstant",
             values=STABILISATION_MODES),
        prop("App::PropertyFloat", "TimeConstant", "Stabilisation",
             "Time constant of the constraint error decay [s] (0 = automatic: max(0.02 s, "
             "5 steps))", default=0.0),
        prop("App::PropertyFloat", "DampingRatio", "Stabilisation",
             "Damping ratio of the constraint error decay (1 = critical)", default=1.0),
        prop("App::PropertyFloat", "BaumgarteAlpha", "Stabilisation",
             "Baumgarte alpha [1/s] (velocity term 2 alpha Phi_dot), used when Stabilisation "
             "is Baumgarte", default=50.0),
        prop("App::PropertyFloat", "BaumgarteBeta", "Stabilisation",
             "Baumgarte beta [1/s] (position term beta^2 Phi), used when Stabilisation is "
             "Baumgarte", default=50.0),
    )
