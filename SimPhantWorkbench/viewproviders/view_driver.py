"""View provider of a Driver: the tree icon of its kind (``DriverSpec.icon``), no markers
(the driven joint's triads show where it acts); double-click opens its task panel
(``taskpanels.task_driver``)."""
from ..solver.drivers import DRIVER_TYPES
from .view_base import VPBase

__all__ = ["VPDriver"]


class VPDriver(VPBase):
    def icon_name(self):
        spec = DRIVER_TYPES.get(str(getattr(self.Object, "DriverType", "")))
        return spec.icon if spec is not None else super().icon_name()

    def task_panel(self, obj):
        from ..taskpanels.task_driver import TaskDriver
        return TaskDriver(obj)

    def updateData(self, obj, prop):
        if prop == "DriverType":
            try:
                self.ViewObject.signalChangeIcon()
            except Exception:  # noqa: BLE001 - older FreeCAD
                pass
