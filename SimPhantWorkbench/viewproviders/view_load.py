"""View provider of a Force or Torque: an arrow at its point that follows the body."""
import FreeCAD

from ..document.joints import reference_of
from ..document.units import global_placement
from ..document.massprops import ancestors
from ..document.base import is_type
from .view_base import VPBase, markers_module

__all__ = ["VPLoad", "load_arrow"]


def load_value(load):
    """The load's vector as drawn (in its own axes): the constant, or the largest value of
    its function of t over the study's time span."""
    from ..document.elements import parse_time_function
    torque = is_type(load, "SimPhant::Torque")
    text = (load.TorqueFunction if torque else load.ForceFunction).strip()
    if text:
        # a function of t: the direction of its largest value over the study's time span
        fn = parse_time_function(text, load.Label)
        from ..document.base import find_study
        study = find_study(load)
        t_end = float(study.EndTime) if study is not None else 1.0
        samples = [fn(t_end * k / 50.0) for k in range(51)]
        value = FreeCAD.Vector(*max(samples, key=lambda v: float((v * v).sum())))
    else:
        value = FreeCAD.Vector(load.Torque if torque else load.Force)
    return value


def load_arrow(load, value=None):
    """``(point [mm], direction)`` of a load's arrow at the current pose (world)."""
    body = load.Body
    torque = is_type(load, "SimPhant::Torque")
    value = FreeCAD.Vector(value if value is not None else load_value(load))
    if str(load.Frame) == "Body" and body.ShapeObject is not None:
        value = global_placement(body.ShapeObject).Rotation.multVec(value)
    point = None
    ref = None if torque else reference_of(load.Reference)
    if ref is not None and ref[1]:
        from ..document.references import reference_frame
        p = reference_frame(ref[0], ref[1]).point * 1000.0
        point = FreeCAD.Vector(*p)
    if point is None:
        vp = getattr(getattr(body, "ViewObject", None), "Proxy", None)
        point = vp.cog_world() if hasattr(vp, "cog_world") else FreeCAD.Vector(body.CoG)
    return point, value


class VPLoad(VPBase):
    def depends_on(self):
        body = self.Object.Body
        shape = body.ShapeObject if body is not None else None
        if shape is None:
            return set()
        return {shape.Name} | {a.Name for a in ancestors(shape)}

    def part_shapes(self):
        body = self.Object.Body
        return [body.ShapeObject] if body is not None else []

    def update_markers(self):
        Arrow = markers_module().Arrow
        torque = is_type(self.Object, "SimPhant::Torque")
        size = self.study_size()
        if not self.markers:
            self.set_markers([Arrow(size, torque=torque)])
        arrow = self.markers[0]
        arrow.resize(size)
        point, value = load_arrow(self.Object, self.cached("value",
                                                           lambda: load_value(self.Object)))
        arrow.set_direction(value)
        arrow.set_placement(FreeCAD.Placement(point, FreeCAD.Rotation()))
        arrow.show(True)

    def task_panel(self, obj):
        from ..taskpanels.task_load import TaskLoad
        return TaskLoad(obj)
