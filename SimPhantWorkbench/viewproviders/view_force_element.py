"""View provider of force elements: the registry kind's icon in the tree and, for point
elements, a zigzag line between the two points that follows the bodies (playback,
moving a part). An end stop draws its range on its joint: for an angle an arc about the
joint's z axis from the lower to the upper limit in the joint's frame on body 1 (angle 0
along its x axis), for a slide a bar along that z axis, ticks at the limits; a pointer on
body 2 (its joint frame's x axis, or a tick at its origin for a slide) shows where the
joint is. Both follow the bodies and hide with the markers.

Double-click opens the task panel (``taskpanels.task_force_element``).
"""
import math

from ..document.base import find_study, study_bodies
from ..document.bodies import body_of_object
from ..document.joints import reference_of
from ..document.massprops import ancestors
from .view_base import VPBase, markers_module
from .view_joint import joint_shapes, joint_world_frames

__all__ = ["VPForceElement", "zigzag", "stop_range_lines", "stop_pointer_lines"]

#: colour of the spring line
SPRING = (0.1, 0.45, 0.1)
#: colours of an end stop's range and of its pointer
STOP_RANGE = (0.85, 0.45, 0.0)
STOP_POINTER = (0.7, 0.1, 0.1)
#: an end stop's arc: its segments per radian; its reach past a limit that is missing
ARC_SEGMENTS_PER_RAD = 12
OPEN_SIDE = math.pi / 2


def zigzag(p1, p2, amplitude, coils=8):
    """Points [mm] of a zigzag from ``p1`` to ``p2`` (3-tuples): straight ends, ``coils``
    zigzags of ``amplitude`` across in between."""
    d = [b - a for a, b in zip(p1, p2)]
    n = math.sqrt(sum(c * c for c in d))
    if n < 1e-12:
        return [tuple(p1), tuple(p2)]
    u = [c / n for c in d]
    # a direction across the line, in the x-z plane when it can be (planar mechanisms)
    ref = (0.0, 1.0, 0.0) if abs(u[1]) < 0.9 else (1.0, 0.0, 0.0)
    v = (u[1] * ref[2] - u[2] * ref[1], u[2] * ref[0] - u[0] * ref[2],
         u[0] * ref[1] - u[1] * ref[0])
    vn = math.sqrt(sum(c * c for c in v))
    v = [c / vn for c in v]
    pts = [tuple(p1)]
    k = 2 * coils
    for i in range(k + 1):
        s = 0.2 + 0.6 * i / k
        side = 0.0 if i in (0, k) else (amplitude if i % 2 else -amplitude)
        pts.append(tuple(a + s * dc + side * vc for a, dc, vc in zip(p1, d, v)))
    pts.append(tuple(p2))
    return pts


def stop_range_lines(dof, lower, upper, size):
    """Polylines [mm] of an end stop's range in its joint's frame on body 1: for
    ``dof`` "rotation" an arc of radius ``size`` about z from ``lower`` to ``upper``
    [rad] (angle 0 on x), for "translation" a bar along z from ``lower`` to ``upper``
    [m]; a tick across at each limit there is (``None``: no limit; the range then
    reaches ``OPEN_SIDE`` rad, or ``size``, past the other one)."""
    tick = 0.15 * size
    if dof == "translation":
        lo = (upper * 1000.0 - size) if lower is None else lower * 1000.0
        hi = (lower * 1000.0 + size) if upper is None else upper * 1000.0
        lines = [[(0.0, 0.0, lo), (0.0, 0.0, hi)]]
        lines += [[(-tick, 0.0, z), (tick, 0.0, z)] for z, on in ((lo, lower is not None),
                                                                  (hi, upper is not None)) if on]
        return lines
    lo = upper - OPEN_SIDE if lower is None else lower
    hi = lower + OPEN_SIDE if upper is None else upper
    hi = min(hi, lo + 2.0 * math.pi)                     # a range past a turn: one turn
    n = max(2, int(math.ceil((hi - lo) * ARC_SEGMENTS_PER_RAD)))
    arc = [(size * math.cos(lo + (hi - lo) * i / n), size * math.sin(lo + (hi - lo) * i / n),
            0.0) for i in range(n + 1)]
    lines = [arc]
    for a, on in ((lo, lower is not None), (hi, upper is not None)):
        if on:
            c, s = math.cos(a), math.sin(a)
            lines.append([((size - tick) * c, (size - tick) * s, 0.0),
                          ((size + tick) * c, (size + tick) * s, 0.0)])
    return lines


def stop_pointer_lines(dof, size):
    """The pointer [mm] in the joint's frame on body 2: its x axis out to past the arc
    (an angle), or a tick across its origin (a slide)."""
    if dof == "translation":
        return [[(-0.25 * size, 0.0, 0.0), (0.25 * size, 0.0, 0.0)]]
    return [[(0.0, 0.0, 0.0), (1.25 * size, 0.0, 0.0)]]


def _line_marker(color=SPRING, width=2.0):
    from pivy import coin
    Marker = markers_module().Marker

    class Lines(Marker):
        def __init__(self):
            super().__init__()
            mat = coin.SoMaterial()
            mat.diffuseColor.setValue(*color)
            mat.emissiveColor.setValue(*color)
            style = coin.SoDrawStyle()
            style.lineWidth.setValue(width)
            self.coords = coin.SoCoordinate3()
            self.lines = coin.SoLineSet()
            for node in (mat, style, self.coords, self.lines):
                self.body.addChild(node)

        def set_points(self, pts):
            self.set_lines([pts])

        def set_lines(self, lines):
            """Polylines (lists of 3-tuples), in the marker's frame."""
            pts = [list(p) for line in lines for p in line]
            self.coords.point.setValues(0, len(pts), pts)
            self.coords.point.setNum(len(pts))
            self.lines.numVertices.setValues(0, len(lines), [len(line) for line in lines])
            self.lines.numVertices.setNum(len(lines))

    return Lines()


class VPForceElement(VPBase):
    def _spec(self):
        from ..solver.forces import FORCE_TYPES
        return FORCE_TYPES.get(str(getattr(self.Object, "Kind", "")))

    def icon_name(self):
        spec = self._spec()
        return spec.icon if spec is not None else super().icon_name()

    def _refs(self):
        refs = []
        for which in ("Reference1", "Reference2"):
            ref = reference_of(getattr(self.Object, which))
            if ref is None or not ref[1]:
                return None
            refs.append(ref)
        return refs

    def _joint_shapes(self):
        """The shape objects of the bodies of the end stop's joint (None otherwise)."""
        joint = getattr(self.Object, "Joint", None) \
            if str(getattr(self.Object, "Kind", "")) == "joint_stop" else None
        return None if joint is None else self.cached("stop_shapes",
                                                      lambda: joint_shapes(joint))

    def depends_on(self):
        names = set()
        objs = [obj for obj, _ in self._refs() or []] or list(self._joint_shapes() or [])
        for obj in objs:
            names.add(obj.Name)
            names.update(a.Name for a in ancestors(obj))
        return names

    def part_shapes(self):
        def shapes():
            study = find_study(self.Object)
            bodies = study_bodies(study) if study else []
            found = [body_of_object(bodies, obj) for obj, _ in self._refs() or []]
            return [b.ShapeObject for b in found if b is not None]
        # a point element's bodies, an end stop's joint's
        return self.cached("shapes", shapes) or list(self._joint_shapes() or [])

    def update_markers(self):
        spec = self._spec()
        if spec is not None and str(self.Object.Kind) == "joint_stop":
            return self._update_stop()
        refs = self._refs() if spec is not None and spec.attach == "points" else None
        if refs is None:
            for m in self.markers:
                m.show(False)
            return
        from ..document.references import reference_frame
        if not self.markers:
            self.set_markers([_line_marker()])
        p1, p2 = (reference_frame(obj, sub).point * 1000.0 for obj, sub in refs)
        self.markers[0].set_points(zigzag(tuple(p1), tuple(p2), 0.08 * self.study_size()))
        self.markers[0].show(True)

    def _update_stop(self):
        """The range on body 1's joint frame and the pointer on body 2's (see the module
        docstring); limits as the solver gets them (``force_element_params``)."""
        from ..document.elements import force_element_params
        # cached until a SimPhant object changes (not per playback frame)
        _, params, _, joint = self.cached("stop_params",
                                          lambda: force_element_params(self.Object))
        if len(self.markers) != 2:
            self.set_markers([_line_marker(STOP_RANGE, 3.0), _line_marker(STOP_POINTER, 3.0)])
        size = 1.4 * self.study_size()          # outside the joint's triads
        dof = params.get("dof", "rotation")
        f1, f2 = joint_world_frames(joint, self._joint_shapes())
        self.markers[0].set_lines(stop_range_lines(dof, params.get("lower"),
                                                   params.get("upper"), size))
        self.markers[0].set_placement(f1)
        self.markers[1].set_lines(stop_pointer_lines(dof, size))
        self.markers[1].set_placement(f2)
        for m in self.markers:
            m.show(True)

    def task_panel(self, obj):
        from ..taskpanels.task_force_element import TaskForceElement
        return TaskForceElement(obj)
