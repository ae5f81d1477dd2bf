"""A study's settings: gravity, the analysis mode and the simulation settings (SI)."""
import math

import numpy as np

from ..solver import METHODS, ModelError
from .base import object_label
from .units import quantity_si, vector_array

__all__ = ["gravity_vector", "analysis_mode", "simulation_settings", "check_study_settings"]


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


def check_study_settings(study):
    """Each setting in use finite and in range; a negative value is never taken as
    "automatic" (``ModelError`` naming the study and the property)."""
    info = METHODS.get(str(study.Integrator))
    used = {"always", str(study.Stabilisation)}
    if info is not None and not info.fixed_step:
        used.add("adaptive")
    for name, low, inclusive, zero, when in _STUDY_SETTINGS:
        if when not in used:
            continue
        v = float(getattr(study, name))
        if math.isfinite(v) and (v >= low if inclusive else v > low):
            continue
        bound = ">= %g" % low if inclusive else "> %g" % low
        raise ModelError("%s: %s must be finite and %s%s, got %r"
                         % (object_label(study), name, bound, " (%s)" % zero if zero else "", v))


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
