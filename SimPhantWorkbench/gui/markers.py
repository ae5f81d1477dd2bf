"""Coin (pivy) markers drawn by the view providers and the joint panel's preview.

Joint frames are triads (x red, y green, z blue, z longest), forces arrows,
torques double-headed arrows, bodies' centres of gravity the usual quartered
ball. They live only in the scene graph (never in the document's geometry),
are sized from the model's bounding box and drawn on top of the solids
(``SoAnnotation``), so a pin inside its hole stays visible.

A marker's geometry (the triad or ball of one size) is built once and shared
by every marker of that size, under a separator that caches its rendering:
during playback only the markers' transforms change, so Coin replays the
cached geometry instead of tessellating spheres, cylinders and cones again
for every marker in every frame.
"""
import math

from pivy import coin

import FreeCAD

__all__ = ["Marker", "Triad", "Arrow", "CogMarker", "set_transform", "model_size", "marker_size"]

RED = (0.85, 0.15, 0.15)
GREEN = (0.15, 0.65, 0.15)
BLUE = (0.15, 0.35, 0.9)
FORCE = (0.85, 0.1, 0.1)
TORQUE = (0.6, 0.1, 0.7)

#: marker length as a fraction of the model's bounding-box diagonal
SIZE_FRACTION = 0.15


#: a bounding box larger than this [mm] is unbounded geometry (a datum plane, the
#: face FreeCAD gives a datum coordinate system), not the size of a part
_UNBOUNDED = 1e9


def _finite_box(shape):
    """Bounding box of ``shape`` without its unbounded pieces (datum planes)."""
    box = shape.BoundBox
    if box.DiagonalLength < _UNBOUNDED:
        return box
    box = FreeCAD.BoundBox()
    for piece in list(shape.Edges) + list(shape.Vertexes):
        if piece.BoundBox.DiagonalLength < _UNBOUNDED:
            box.add(piece.BoundBox)
    return box


def model_size(objs):
    """Diagonal [mm] of the bounding box of ``objs``' shapes (100 when there is none)."""
    box = FreeCAD.BoundBox()
    for o in objs:
        shape = getattr(o, "Shape", None)
        try:
            if shape is not None and not shape.isNull():
                piece = _finite_box(shape)
                if piece.isValid():
                    box.add(piece)
        except Exception:  # noqa: BLE001 - objects without a usable shape
            continue
    if not box.isValid() or box.DiagonalLength <= 0.0:
        return 100.0
    return box.DiagonalLength


def marker_size(objs):
    return SIZE_FRACTION * model_size(objs)


_shared = {}     # (kind, size, options) -> SoSeparator of the geometry, render-cached


def _shared_geometry(key, build):
    """The geometry ``build(separator)`` makes for ``key``, made once and shared."""
    node = _shared.get(key)
    if node is None:
        if len(_shared) > 256:        # many model sizes seen: start again (markers keep theirs)
            _shared.clear()
        node = coin.SoSeparator()
        node.renderCaching.setValue(coin.SoSeparator.ON)
        build(node)
        _shared[key] = node
    return node


def set_transform(node, placement, fields=None):
    """Put a FreeCAD ``Placement`` (mm) into an ``SoTransform`` (``fields``: its
    translation and rotation fields, looked up once -- pivy's lookup is slow)."""
    translation, rotation = fields or (node.translation, node.rotation)
    b = placement.Base
    translation.setValue(b.x, b.y, b.z)
    q = placement.Rotation.Q      # (x, y, z, w), as Coin's SbRotation
    rotation.setValue(q[0], q[1], q[2], q[3])


def _material(color, transparency=0.0):
    m = coin.SoMaterial()
    m.diffuseColor.setValue(*color)
    m.emissiveColor.setValue(*(0.35 * c for c in color))
    m.transparency.setValue(transparency)
    return m


def _arrow_along_y(length, radius, color, head=True, double=False):
    """An arrow from the origin along +y (Coin's cylinder/cone axis)."""
    sep = coin.SoSeparator()
    sep.addChild(_material(color))
    head_len = min(0.3 * length, 6.0 * radius) if head else 0.0
    shaft = length - head_len * (2 if double else 1)
    t = coin.SoTranslation()
    t.translation.setValue(0, shaft / 2.0, 0)
    sep.addChild(t)
    cyl = coin.SoCylinder()
    cyl.radius.setValue(radius)
    cyl.height.setValue(max(shaft, 1e-6))
    sep.addChild(cyl)
    for k in range(2 if double else (1 if head else 0)):
        t2 = coin.SoTranslation()
        t2.translation.setValue(0, (shaft / 2.0 + head_len / 2.0) if k == 0 else head_len, 0)
        sep.addChild(t2)
        cone = coin.SoCone()
        cone.bottomRadius.setValue(2.6 * radius)
        cone.height.setValue(head_len)
        sep.addChild(cone)
    return sep


def _rotation_y_to(axis):
    """``SoRotation`` turning +y onto ``axis`` (3 numbers)."""
    r = coin.SoRotation()
    v = FreeCAD.Vector(*axis)
    if v.Length < 1e-12:
        return r
    rot = FreeCAD.Rotation(FreeCAD.Vector(0, 1, 0), v)
    q = rot.Q
    r.rotation.setValue(q[0], q[1], q[2], q[3])
    return r


class Marker:
    """A marker: ``root`` (add it to a scene graph) with a transform and a switch."""

    def __init__(self):
        self.root = coin.SoAnnotation()
        self.switch = coin.SoSwitch()
        self._which = self.switch.whichChild
        self._which.setValue(coin.SO_SWITCH_ALL)
        self._on = True
        self.transform = coin.SoTransform()
        self._fields = (self.transform.translation, self.transform.rotation)
        self.root.addChild(self.switch)
        complexity = coin.SoComplexity()
        complexity.value.setValue(0.25)         # coarse spheres, cylinders and cones: cheap
        self.switch.addChild(complexity)
        self.switch.addChild(self.transform)
        self.body = coin.SoSeparator()
        self.switch.addChild(self.body)
        self.size = None

    def show(self, on=True):
        if bool(on) != self._on:
            self._on = bool(on)
            self._which.setValue(coin.SO_SWITCH_ALL if on else coin.SO_SWITCH_NONE)

    @property
    def visible(self):
        return self._which.getValue() == coin.SO_SWITCH_ALL

    def set_placement(self, placement):
        set_transform(self.transform, placement, self._fields)

    def placement(self):
        """The marker's placement (mm), read back from the scene graph."""
        t = self._fields[0].getValue()
        q = self._fields[1].getValue().getValue()
        return FreeCAD.Placement(FreeCAD.Vector(t[0], t[1], t[2]),
                                 FreeCAD.Rotation(q[0], q[1], q[2], q[3]))


class Triad(Marker):
    """A joint frame: x red, y green, z blue (z longer: it is the joint axis)."""

    def __init__(self, size, axis_only=False, transparency=0.0):
        super().__init__()
        self.axis_only = axis_only
        self.transparency = transparency
        self.resize(size)

    def resize(self, size):
        if self.size is not None and abs(size - self.size) <= 1e-9 * max(1.0, size):
            return
        self.size = size
        self.body.removeAllChildren()
        self.body.addChild(_shared_geometry(("triad", size, self.axis_only, self.transparency),
                                            self._build))

    def _build(self, body):
        size = self.size
        r = size * 0.04
        ball = coin.SoSeparator()
        ball.addChild(_material((0.95, 0.95, 0.95), self.transparency))
        s = coin.SoSphere()
        s.radius.setValue(2.2 * r)
        ball.addChild(s)
        body.addChild(ball)
        axes = [((0, 0, 1), BLUE, 1.0)]
        if not self.axis_only:
            axes += [((1, 0, 0), RED, 0.6), ((0, 1, 0), GREEN, 0.6)]
        for axis, color, frac in axes:
            sep = coin.SoSeparator()
            sep.addChild(_rotation_y_to(axis))
            sep.addChild(_arrow_along_y(size * frac, r, color))
            body.addChild(sep)


class Arrow(Marker):
    """A force (single head, pointing at the point of application) or a torque
    (double head, from the point) arrow along a world direction."""

    def __init__(self, size, torque=False):
        super().__init__()
        self.torque = torque
        self.direction = None
        self.resize(size)

    def resize(self, size):
        if self.size is not None and abs(size - self.size) <= 1e-9 * max(1.0, size):
            return
        self.size = size
        self._rebuild()

    def set_direction(self, direction):
        d = tuple(float(c) for c in direction)
        if d != self.direction:
            self.direction = d
            self._rebuild()

    def _rebuild(self):
        self.body.removeAllChildren()
        d = self.direction or (0.0, 0.0, 0.0)
        n = math.sqrt(sum(c * c for c in d))
        if n < 1e-15:   # zero load: a small ball at the point
            sep = coin.SoSeparator()
            sep.addChild(_material(TORQUE if self.torque else FORCE))
            s = coin.SoSphere()
            s.radius.setValue(0.06 * self.size)
            sep.addChild(s)
            self.body.addChild(sep)
            return
        u = [c / n for c in d]
        sep = coin.SoSeparator()
        if not self.torque:      # the tip touches the point of application
            t = coin.SoTranslation()
            t.translation.setValue(*(-c * self.size for c in u))
            sep.addChild(t)
        sep.addChild(_rotation_y_to(u))
        sep.addChild(_arrow_along_y(self.size, 0.03 * self.size, TORQUE if self.torque else FORCE,
                                    double=self.torque))
        self.body.addChild(sep)


class CogMarker(Marker):
    """Centre of gravity: a ball with alternate black and white octants."""

    def __init__(self, size, color=(0.1, 0.1, 0.1)):
        super().__init__()
        self.color = color
        self.resize(size)

    def resize(self, size):
        if self.size is not None and abs(size - self.size) <= 1e-9 * max(1.0, size):
            return
        self.size = size
        self.body.removeAllChildren()
        self.body.addChild(_shared_geometry(("cog", size, tuple(self.color)), self._build))

    def _build(self, body):
        size = self.size
        r = 0.12 * size
        white = coin.SoSeparator()
        white.addChild(_material((1.0, 1.0, 1.0)))
        s = coin.SoSphere()
        s.radius.setValue(r)
        white.addChild(s)
        body.addChild(white)
        dark = coin.SoSeparator()
        dark.addChild(_material(self.color))
        coords = coin.SoCoordinate3()
        pts = []
        faces = []
        # four dark octants (quarter discs in the three coordinate planes)
        for (a, b) in ((0, 1), (1, 2), (2, 0)):
            for quad in (0, 2):
                base = len(pts)
                pts.append((0.0, 0.0, 0.0))
                for k in range(9):
                    ang = (quad + k / 8.0) * math.pi / 2.0
                    p = [0.0, 0.0, 0.0]
                    p[a] = 1.02 * r * math.cos(ang)
                    p[b] = 1.02 * r * math.sin(ang)
                    pts.append(tuple(p))
                for k in range(8):
                    faces += [base, base + 1 + k, base + 2 + k, -1]
        coords.point.setValues(0, len(pts), pts)
        dark.addChild(coords)
        hints = coin.SoShapeHints()
        hints.vertexOrdering.setValue(coin.SoShapeHints.UNKNOWN_ORDERING)
        dark.addChild(hints)
        fs = coin.SoIndexedFaceSet()
        fs.coordIndex.setValues(0, len(faces), faces)
        dark.addChild(fs)
        body.addChild(dark)
