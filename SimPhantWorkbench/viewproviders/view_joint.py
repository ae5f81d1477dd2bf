"""View provider of a Joint: tree icon of its kind, its two frames drawn as triads.

Each frame is ``Frame1``/``Frame2`` (stored in the local frame of the body's
shape object) carried by that shape object's current global placement, so the
triads move with the bodies during playback.
"""
import FreeCAD

from ..document.bodies import body_of_object
from ..document.joints import reference_of
from ..document.units import global_placement
from ..document.massprops import ancestors
from ..document.base import find_study, study_bodies
from ..solver import JOINT_TYPES
from ..gui.translation import translate
from .view_base import VPBase, markers_module

__all__ = ["VPJoint", "joint_world_frames"]


def joint_shapes(joint):
    """The shape objects of the bodies on the two sides of a joint."""
    study = find_study(joint)
    bodies = study_bodies(study) if study else []
    out = []
    for which in ("Reference1", "Reference2"):
        ref = reference_of(getattr(joint, which))
        body = body_of_object(bodies, ref[0]) if ref else None
        if body is None or body.ShapeObject is None:
            raise ValueError(translate("SimPhant", "%s: %s is not on a body")
                             % (joint.Label, which))
        out.append(body.ShapeObject)
    return out


def joint_world_frames(joint, shapes=None):
    """World placements (mm) of a joint's two frames at the bodies' current poses."""
    shapes = shapes or joint_shapes(joint)
    return [global_placement(s).multiply(f) for s, f in zip(shapes, (joint.Frame1,
                                                                     joint.Frame2))]


class VPJoint(VPBase):
    def icon_name(self):
        spec = JOINT_TYPES.get(str(getattr(self.Object, "JointType", "")))
        return spec.icon if spec is not None else super().icon_name()

    def updateData(self, obj, prop):
        if prop == "JointType":
            try:
                self.ViewObject.signalChangeIcon()
            except Exception:  # noqa: BLE001 - older FreeCAD
                pass
        self.refresh()

    def depends_on(self):
        names = set()
        for which in ("Reference1", "Reference2"):
            ref = reference_of(getattr(self.Object, which))
            if ref is not None:
                names.add(ref[0].Name)
                names.update(a.Name for a in ancestors(ref[0]))
        study = find_study(self.Object)
        for b in study_bodies(study) if study else []:
            if b.ShapeObject is not None and b.ShapeObject.Name in names:
                names.add(b.ShapeObject.Name)
        return names

    def part_shapes(self):
        return self.cached("shapes", lambda: joint_shapes(self.Object))

    def update_markers(self):
        Triad = markers_module().Triad
        size = self.study_size()
        if not self.markers:
            self.set_markers([Triad(size), Triad(0.7 * size)])
        f1, f2 = joint_world_frames(self.Object, self.part_shapes())
        for marker, pl, s in zip(self.markers, (f1, f2), (size, 0.7 * size)):
            marker.resize(s)
            marker.set_placement(pl)
            marker.show(True)

    def task_panel(self, obj):
        from ..taskpanels.task_joint import TaskJoint
        return TaskJoint(find_study(obj), joint=obj)
