"""View provider of force elements: the registry kind's icon in the tree.

Stiffness, damping, free length and actuator values are edited in the property
editor (no task panel yet).
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
