"""View provider of a Study: claims its members; context menu Solve / Set active / Edit."""
from .view_base import VPBase

__all__ = ["VPStudy"]


class VPStudy(VPBase):
    def claimChildren(self):
        return list(getattr(self.Object, "Group", []))

    def task_panel(self, obj):
        from ..taskpanels.task_study import TaskStudy
        return TaskStudy(obj)

    def onDelete(self, vobj, subelements):
        return True

    def canDragObjects(self):
        return False

    def canDropObjects(self):
        return False
