"""ParameterStudy: a parameter study of a motion study, with its specification and results.

Lives in the Study it sweeps. ``Specification`` is the study's specification
as JSON (``sweep.spec``: design variables, design, metrics, settings,
objective); ``ResultsFile`` (an ``App::PropertyFileIncluded``) holds the
results table of the last run as CSV (``sweep.outputs``), so it is saved inside
the ``.FCStd``. ``sweep.run_parameter_study`` runs it and fills the rest; ``sweep.stored_spec`` and
``sweep.stored_rows`` read them back.
"""
from .base import BaseProxy, prop

__all__ = ["ParameterStudy"]

TYPE = "SimPhant::ParameterStudy"


class ParameterStudy(BaseProxy):
    """Proxy of a parameter study (``SimPhant::ParameterStudy``)."""

    Type = TYPE

    PROPERTIES = (
        prop("App::PropertyString", "Specification", "Parameter study",
             "Design variables, design, metrics, settings and objective (JSON)"),
        prop("App::PropertyFileIncluded", "ResultsFile", "Results",
             "Results of the last run, one row per variant (CSV)", read_only=True),
        prop("App::PropertyInteger", "Variants", "Results", "Number of variants",
             read_only=True),
        prop("App::PropertyInteger", "Succeeded", "Results", "Variants simulated",
             read_only=True),
        prop("App::PropertyInteger", "Failed", "Results", "Variants that failed",
             read_only=True),
        prop("App::PropertyInteger", "BestVariant", "Results",
             "Best variant by the objective (-1: none)", default=-1, read_only=True),
        prop("App::PropertyFloat", "WallTime", "Results", "Duration of the last run [s]",
             read_only=True),
    )
