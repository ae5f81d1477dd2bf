"""View provider of a Body: a CoG marker that follows the body."""
import FreeCAD

from ..document.units import global_placement
from ..document.massprops import ancestors
from .view_base import VPBase, markers_module

__all__ = ["VPBody"]


class VPBody(VPBase):
    def icon_name(self):
        return "FixedBody.svg" if getattr(self.Object, "Fixed", False) else super().icon_name()

    def updateData(self, obj, prop):
        if prop == "CoG" and obj.ShapeObject is not None:
            # the CoG in the shape object's own frame: valid at any later pose
            self.cog_local = global_placement(obj.ShapeObject).inverse().multVec(obj.CoG)
        if prop == "Fixed":
            try:
                self.ViewObject.signalChangeIcon()
            except Exception:  # noqa: BLE001 - older FreeCAD
                pass
        self.refresh()

    def cog_world(self):
        """The body's CoG [mm] at the shape's current placement, or None before it is known."""
        obj = self.Object
        if obj.ShapeObject is None:
            return None
        local = getattr(self, "cog_local", None)
        if local is None:
            if obj.Mass <= 0.0:
                return None
            local = global_placement(obj.ShapeObject).inverse().multVec(obj.CoG)
            self.cog_local = local
        return global_placement(obj.ShapeObject).multVec(local)

    def depends_on(self):
        shape = self.Object.ShapeObject
        if shape is None:
            return set()
        return {shape.Name} | {a.Name for a in ancestors(shape)}

    def part_shapes(self):
        return [self.Object.ShapeObject]

    def update_markers(self):
        CogMarker = markers_module().CogMarker
        size = self.study_size()
        if not self.markers:
            self.set_markers([CogMarker(size)])
        marker = self.markers[0]
        marker.resize(size)
        cog = self.cog_world()
        marker.show(cog is not None)
        if cog is not None:
            marker.set_placement(FreeCAD.Placement(cog, FreeCAD.Rotation()))

    def task_panel(self, obj):
        from ..taskpanels.task_body import TaskBody
        return TaskBody(obj)
