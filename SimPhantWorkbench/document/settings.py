"""A study's settings: gravity, the analysis mode and the simulation settings (SI)."""
import math

import numpy as np

from ..solver import METHODS, ModelError
from .base import object_label
from .units import quantity_si, vector_array

__all__ = ["gravity_vector", "analysis_mode", "simulation_settings", "check_study_settings",
           "settings_problem", "study_settings_values"]


def gravity_vector(study):
    """Gravity [m/s^2], world: ``GravityAcceleration`` times the unit ``GravityDirection``."""
    g = quantity_si(study.GravityAcceleration, "m/s^2")
    d = vector_array(study.GravityDirection)
    n = np.linalg.norm(d)
    if g == 0.0:
        return np.zeros(3)
    if not math.isfinite(g) or not n > 0.0:
        raise ModelError("%s: GravityDirection must be a non-zero vector when "
                         "GravityAcceleration is not zero" % object_label(study))
    return g * d / n


#: Study settings checked before a run: (property, lower bound, bound included, what 0
#: means, when the setting is used)
_STUDY_SETTINGS = (
    ("EndTime", 0.0, False, None, "always"),
    ("TimeStep", 0.0, True, "0 = unlimited (adaptive methods)", "always"),
    ("OutputInterval", 0.0, True, "0 = automatic", "always"),
    ("RelativeTolerance", 0.0, False, None, "adaptive"),
    ("AbsoluteTolerance", 0.0, False, None, "adaptive"),
    ("TimeConstant", 0.0, True, "0 = automatic", "TimeConstant"),
    ("DampingRatio", 0.0, False, None, "TimeConstant"),
    ("BaumgarteAlpha", 0.0, True, None, "Baumgarte"),
    ("BaumgarteBeta", 0.0, True, None, "Baumgarte"),
)


def settings_problem(values):
    """What is wrong with a study's settings, or ``None``: ``values`` maps the Study
    properties (``Integrator``, ``Stabilisation``, ``EndTime``, ``TimeStep`` ...,
    ``GravityAcceleration`` [m/s^2], ``GravityDirection``) to their values. Each setting in
    use finite and in range, a negative value never taken as "automatic"; a fixed-step
    method needs a positive step; gravity needs a direction. The one check of the study
    panel (as you type) and of every run."""
    info = METHODS.get(str(values["Integrator"]))
    used = {"always", str(values["Stabilisation"])}
    if info is not None and not info.fixed_step:
        used.add("adaptive")
    for name, low, inclusive, zero, when in _STUDY_SETTINGS:
        if when not in used:
            continue
        v = float(values[name])
        if math.isfinite(v) and (v >= low if inclusive else v > low):
            continue
        bound = ">= %g" % low if inclusive else "> %g" % low
        return "%s must be finite and %s%s, got %r" % (name, bound,
                                                       " (%s)" % zero if zero else "", v)
    if info is not None and info.fixed_step and not float(values["TimeStep"]) > 0.0:
        return "TimeStep must be positive for the fixed-step method %s" % info.name
    g = float(values.get("GravityAcceleration", 0.0))
    d = vector_array(values.get("GravityDirection", (0.0, 0.0, -1.0)))
    if g != 0.0 and not (np.all(np.isfinite(d)) and np.linalg.norm(d) > 0.0):
        return "GravityDirection must be a non-zero vector when GravityAcceleration is not zero"
    return None


def study_settings_values(study):
    """The values ``settings_problem`` checks, read from a Study object."""
    values = {name: getattr(study, name) for name, *_ in _STUDY_SETTINGS}
    values.update(Integrator=str(study.Integrator), Stabilisation=str(study.Stabilisation),
                  GravityAcceleration=quantity_si(study.GravityAcceleration, "m/s^2"),
                  GravityDirection=study.GravityDirection)
    return values


def check_study_settings(study):
    """``ModelError`` naming the study and the property when ``settings_problem`` finds
    something wrong with its settings."""
    problem = settings_problem(study_settings_values(study))
    if problem is not None:
        raise ModelError("%s: %s" % (object_label(study), problem))


def analysis_mode(study):
    """The solver analysis of a study: "kinematic" when its ``AnalysisMode`` is Kinematic,
    else "dynamic" (also for documents older than that property)."""
    return "kinematic" if str(getattr(study, "AnalysisMode", "Dynamic")) == "Kinematic" \
        else "dynamic"


def simulation_settings(study, **overrides):
    """Keyword arguments of ``Model.simulate`` from a Study's properties (SI).

    ``overrides`` replace any of them (``t_end``, ``dt``, ``method``,
    ``output_dt``, ``rtol``, ``atol``, ``time_constant``, ``damping_ratio``,
    ``baumgarte``, ...).
    """
    check_study_settings(study)
    s = dict(t_end=float(study.EndTime), method=str(study.Integrator),
             rtol=float(study.RelativeTolerance), atol=float(study.AbsoluteTolerance))
    info = METHODS.get(s["method"])
    dt = float(study.TimeStep)
    s["dt"] = dt if (dt > 0.0 or (info is not None and info.fixed_step)) else None
    out = float(study.OutputInterval)
    s["output_dt"] = out if out > 0.0 else None
    if study.Stabilisation == "Baumgarte":
        s["baumgarte"] = (float(study.BaumgarteAlpha), float(study.BaumgarteBeta))
    else:
        tc = float(study.TimeConstant)
        s["time_constant"] = tc if tc > 0.0 else None
        s["damping_ratio"] = float(study.DampingRatio)
    if "baumgarte" in overrides or "time_constant" in overrides:
        s.pop("baumgarte", None)
    s.update(overrides)
    return s
