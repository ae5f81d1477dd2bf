"""View provider of force elements: the registry kind's icon in the tree and, for point
elements, a zigzag line between the two points that follows the bodies (playback,
moving a part).

Double-click opens the task panel (``taskpanels.task_force_element``).
"""
import math

from ..document.joints import reference_of
from ..document.massprops import ancestors
from .view_base import VPBase, markers_module

__all__ = ["VPForceElement", "zigzag"]

#: colour of the spring line
SPRING = (0.1, 0.45, 0.1)


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


def _line_marker():
    from pivy import coin
    Marker = markers_module().Marker

    class SpringLine(Marker):
        def __init__(self):
            super().__init__()
            mat = coin.SoMaterial()
            mat.diffuseColor.setValue(*SPRING)
            mat.emissiveColor.setValue(*SPRING)
            style = coin.SoDrawStyle()
            style.lineWidth.setValue(2.0)
            self.coords = coin.SoCoordinate3()
            self.lines = coin.SoLineSet()
            for node in (mat, style, self.coords, self.lines):
                self.body.addChild(node)

        def set_points(self, pts):
            self.coords.point.setValues(0, len(pts), [list(p) for p in pts])
            self.coords.point.setNum(len(pts))
            self.lines.numVertices.setValue(len(pts))

    return SpringLine()


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

    def depends_on(self):
        names = set()
        for obj, _ in self._refs() or []:
            names.add(obj.Name)
            names.update(a.Name for a in ancestors(obj))
        return names

    def update_markers(self):
        spec = self._spec()
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

    def task_panel(self, obj):
        from ..taskpanels.task_force_element import TaskForceElement
        return TaskForceElement(obj)
