"""View provider of force elements: the registry kind's icon in the tree.

Double-click opens the task panel (``taskpanels.task_force_element``).
"""
from .view_base import VPBase

__all__ = ["VPForceElement"]


class VPForceElement(VPBase):
    icon = "Spring.svg"

    def icon_name(self):
        from ..solver.forces import FORCE_TYPES
        spec = FORCE_TYPES.get(str(getattr(self.Object, "Kind", "")))
        return spec.icon if spec is not None else self.icon

    def depends_on(self):
        return set()

    def task_panel(self, obj):
        from ..taskpanels.task_force_element import TaskForceElement
        return TaskForceElement(obj)
