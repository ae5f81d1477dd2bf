"""View provider of a Driver or a BodyDriver: the tree icon of its kind (``DriverSpec.icon``);
double-click opens its task panel (``taskpanels.task_driver``, ``task_body_driver``).

A joint driver has no markers (the driven joint's triads show where it acts); a body driver
shows each picked element (``BODY_DRIVER_FORMS``) where it is now: a ball at a driven point,
a double arrow along a vector or an axis."""
import FreeCAD

from ..document.base import is_type
from ..document.body_drivers import BODY_DRIVER, BODY_DRIVER_FORMS
from ..document.links import reference_of
from ..document.massprops import ancestors
from ..solver.drivers import DRIVER_TYPES
from .view_base import VPBase, markers_module

__all__ = ["VPDriver"]


class VPDriver(VPBase):
    def icon_name(self):
        spec = DRIVER_TYPES.get(str(getattr(self.Object, "DriverType", "")))
        return spec.icon if spec is not None else super().icon_name()

    def task_panel(self, obj):
        if is_type(obj, BODY_DRIVER):
            from ..taskpanels.task_body_driver import TaskBodyDriver
            return TaskBodyDriver(obj)
        from ..taskpanels.task_driver import TaskDriver
        return TaskDriver(obj)

    def updateData(self, obj, prop):
        if prop == "DriverType":
            try:
                self.ViewObject.signalChangeIcon()
            except Exception:  # noqa: BLE001 - older FreeCAD
                pass
        super().updateData(obj, prop)

    # --- markers of a body driver
    def _picks(self):
        if not is_type(self.Object, BODY_DRIVER):
            return ()
        form = BODY_DRIVER_FORMS.get(str(self.Object.DriverType))
        return form.picks if form is not None else ()

    def _bodies(self):
        return [b for b in (getattr(self.Object, "Body", None), getattr(self.Object, "Body1",
                                                                        None))
                if b is not None and b.ShapeObject is not None]

    def depends_on(self):
        names = set()
        for pick in self._picks():
            ref = reference_of(getattr(self.Object, pick.prop))
            if ref is not None:
                names |= {ref[0].Name} | {a.Name for a in ancestors(ref[0])}
        for b in self._bodies():
            names |= {b.ShapeObject.Name} | {a.Name for a in ancestors(b.ShapeObject)}
        return names

    def part_shapes(self):
        return [b.ShapeObject for b in self._bodies()]

    def update_markers(self):
        from ..document.references import reference_frame
        picks = self._picks()
        if not picks:
            return
        Arrow = markers_module().Arrow
        size = self.study_size()
        if len(self.markers) != len(picks):
            self.set_markers([Arrow(size, torque=True) for _ in picks])
        for pick, arrow in zip(picks, self.markers):
            ref = reference_of(getattr(self.Object, pick.prop))
            if ref is None or not ref[1]:
                arrow.show(False)
                continue
            rf = reference_frame(*ref)
            arrow.resize(size)
            axis = rf.axis if pick.gives == "axis" and rf.axis is not None else (0.0, 0.0, 0.0)
            arrow.set_direction(axis)
            arrow.set_placement(FreeCAD.Placement(FreeCAD.Vector(*(rf.point * 1000.0)),
                                                  FreeCAD.Rotation()))
            arrow.show(True)
