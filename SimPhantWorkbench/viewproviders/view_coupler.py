"""View provider of a Coupler: the tree icon of its kind (``CouplerSpec.icon``), no markers
(the coupled joints' triads show where it acts); double-click opens its task panel
(``taskpanels.task_coupler``)."""
from ..solver.couplers import COUPLER_TYPES
from .view_base import VPBase

__all__ = ["VPCoupler"]


class VPCoupler(VPBase):
    def icon_name(self):
        spec = COUPLER_TYPES.get(str(getattr(self.Object, "CouplerType", "")))
        return spec.icon if spec is not None else super().icon_name()

    def task_panel(self, obj):
        from ..taskpanels.task_coupler import TaskCoupler
        return TaskCoupler(obj)

    def updateData(self, obj, prop):
        if prop == "CouplerType":
            try:
                self.ViewObject.signalChangeIcon()
            except Exception:  # noqa: BLE001 - older FreeCAD
                pass
