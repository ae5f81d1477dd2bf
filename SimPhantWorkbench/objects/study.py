"""Study: the container of a motion study (like FEM's Analysis).

An ``App::DocumentObjectGroupPython`` holding the Bodies, Joints, Loads and the
Result of one simulation set-up, plus the simulation settings.

Gravity is set as FEM does it: a magnitude (``GravityAcceleration``, a
Quantity) and a direction vector (``GravityDirection``).
"""
from .base import BaseProxy, is_type, prop

__all__ = ["Study", "STABILISATION_MODES", "ANALYSIS_MODES", "study_members", "study_bodies",
           "study_joints", "study_drivers", "has_result",
           "study_loads", "study_result", "find_study", "study_dof_report"]

TYPE = "SimPhant::Study"

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


def find_study(obj):
    """The Study that contains ``obj`` (or ``obj`` itself if it is one), else ``None``."""
    if is_type(obj, TYPE):
        return obj
    for parent in getattr(obj, "InList", ()):
        if is_type(parent, TYPE) and obj in parent.Group:
            return parent
    return None


def study_members(study, type_name):
    """Objects of ``type_name`` (e.g. ``"SimPhant::Body"``) directly in the study, in order."""
    return [o for o in study.Group if is_type(o, type_name)]


def study_bodies(study):
    return study_members(study, "SimPhant::Body")


def study_joints(study):
    return study_members(study, "SimPhant::Joint")


def study_drivers(study):
    return study_members(study, "SimPhant::Driver")


def study_loads(study):
    return [o for o in study.Group
            if is_type(o, "SimPhant::Force") or is_type(o, "SimPhant::Torque")]


def study_result(study):
    """The study's Result object, or ``None``."""
    found = study_members(study, "SimPhant::Result")
    return found[0] if found else None


def study_dof_report(study):
    """The study's mechanism check before solving: the solver's ``DofReport``
    (mobility against Gruebler's count, redundant equations by joint with the joint
    kinds that remove them, singular, locked or over-driven mechanisms), named after
    the study; ``ModelError`` naming the object at fault if the study cannot be
    converted."""
    from ..conversion import convert
    return convert(study).model.dof_report(name=study.Label)


def has_result(study):
    """True when ``study`` (may be ``None``) holds a stored result to play back or plot."""
    res = study_result(study) if study is not None else None
    return res is not None and bool(res.ResultFile) and res.NumberOfFrames > 0
