"""View provider of a ParameterStudy: tree icon; double-click opens its panel
(variables, metrics, run, results table and plot)."""
from .view_base import VPBase

__all__ = ["VPParameterStudy"]


class VPParameterStudy(VPBase):
    icon = "ParameterStudy.svg"

    def task_panel(self, obj):
        from ..taskpanels.task_parameter_study import TaskParameterStudy
        return TaskParameterStudy(obj)
