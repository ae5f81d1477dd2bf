"""An interference check drawn in the 3-D view and marked on the timelines.

``Overlay(study, check)`` adds to the study's 3-D views, in the scene graph only (never
in the document: no property is written, nothing is saved, the bodies' colours are not
touched), for the frame the bodies show now:

* the outline of both bodies of every pair whose interval of interference holds the
  frame's time (their edges, thick, drawn on top in ``INTERFERENCE_COLOR``);
* the pair's witness points at that frame (``PairReport.frame_points``: the deepest
  point of one body in the other and its nearest point on the other's surface, kept by
  the check at every output sample where the two overlap), a ball each, joined by a line.

It follows playback: ``gui.following`` calls ``frame_changed`` after the bodies of a
document moved, and the overlay finds the frame shown (``playback.Session.frame_shown``);
bodies in no frame of the result (moved by hand) show nothing. ``time_spans(study)``
gives the intervals of the check on show, ``[(start, end, text)]``, for the timeline's
bands (``timeline.EventSlider.set_spans``) and the plots' shading
(``output.events.draw_span_marks``).

The check lives while its panel is open (``Overlay.remove`` when it closes) and belongs
to the result it checked: once another run replaces that result nothing is drawn or
marked until the check is made again. It is not stored with the result: after reopening
a document, *Check interference* computes it again.
"""
import numpy as np
from pivy import coin

import FreeCAD
import FreeCADGui

from .. import playback
from ..document.base import study_bodies
from ..document.results import get_result
from ..document.units import global_placement
from ..gui import following
from ..gui.markers import marker_size
from ..gui.translation import translate
from ..output.events import INTERFERENCE_COLOR

__all__ = ["Overlay", "overlay_of", "time_spans", "frame_changed"]

_overlays = {}          # (document Name, study Name) -> Overlay

#: the witness points' colours: the point on body A, on body B
POINT_A = (1.0, 0.55, 0.0)
POINT_B = (0.1, 0.35, 0.95)
OUTLINE_WIDTH = 3.0
#: the witness points' balls: radius as a fraction of the markers' size
BALL_SIZE = 0.08


def _rgb(color):
    c = color.lstrip("#")
    return tuple(int(c[k:k + 2], 16) / 255.0 for k in (0, 2, 4))


def _key(study):
    return (study.Document.Name, study.Name)


def overlay_of(study):
    """The overlay of ``study``'s check on show, or None."""
    ov = _overlays.get(_key(study))
    return ov if ov is not None and not ov.removed else None


def time_spans(study):
    """``[(start [s], end [s], text)]``: the intervals of interference of ``study``'s
    check on show (none without one, or once the study's result was replaced)."""
    ov = overlay_of(study)
    return [] if ov is None or not ov.current() else ov.spans()


def frame_changed(doc_name):
    """Bring the overlays of document ``doc_name`` to the frame shown now."""
    for (d, _s), ov in list(_overlays.items()):
        if d == doc_name:
            ov.update()


def _views(doc):
    gdoc = FreeCADGui.getDocument(doc.Name)
    if gdoc is None:
        return []
    try:
        views = list(gdoc.mdiViewsOfType("Gui::View3DInventor"))
    except Exception:  # noqa: BLE001 - an older Gui document
        views = []
    if not views and hasattr(gdoc.ActiveView, "getSceneGraph"):
        views = [gdoc.ActiveView]
    return views


def _edge_points(obj):
    """Polylines [(k, 3) mm] of the edges of ``obj``'s shape in the object's own frame."""
    shape = getattr(obj, "Shape", None)
    if shape is None or shape.isNull():
        return []
    local = shape.copy()
    local.Placement = FreeCAD.Placement()
    defl = max(local.BoundBox.DiagonalLength * 2e-3, 1e-3)
    lines = []
    for edge in local.Edges:
        try:
            pts = edge.discretize(Deflection=defl)
        except Exception:  # noqa: BLE001 - a degenerate edge
            continue
        if len(pts) >= 2:
            lines.append(np.array([tuple(p) for p in pts], dtype=float))
    return lines


class _Outline:
    """A body's edges on top of everything, following the body's placement."""

    def __init__(self, obj):
        self.obj = obj
        self.switch = coin.SoSwitch()
        self.switch.whichChild.setValue(coin.SO_SWITCH_NONE)
        sep = coin.SoSeparator()            # its transform and colour stay inside
        self.switch.addChild(sep)
        self.transform = coin.SoTransform()
        sep.addChild(self.transform)
        mat = coin.SoMaterial()
        mat.diffuseColor.setValue(*_rgb(INTERFERENCE_COLOR))
        mat.emissiveColor.setValue(*_rgb(INTERFERENCE_COLOR))
        sep.addChild(mat)
        style = coin.SoDrawStyle()
        style.lineWidth.setValue(OUTLINE_WIDTH)
        sep.addChild(style)
        lines = _edge_points(obj)
        coords = coin.SoCoordinate3()
        if lines:
            coords.point.setValues(0, sum(len(x) for x in lines),
                                   np.concatenate(lines).tolist())
        sep.addChild(coords)
        ls = coin.SoLineSet()
        ls.numVertices.setValues(0, len(lines), [len(x) for x in lines])
        sep.addChild(ls)

    @property
    def shown(self):
        return self.switch.whichChild.getValue() == coin.SO_SWITCH_ALL

    def pose(self):
        """(x, y, z [mm], qx, qy, qz, qw): the outline's placement now."""
        return tuple(self.transform.translation.getValue()) \
            + tuple(self.transform.rotation.getValue().getValue())

    def show(self, on):
        if on:
            pl = global_placement(self.obj)
            self.transform.translation.setValue(*tuple(pl.Base))
            q = pl.Rotation.Q
            self.transform.rotation.setValue(q[0], q[1], q[2], q[3])
        self.switch.whichChild.setValue(coin.SO_SWITCH_ALL if on else coin.SO_SWITCH_NONE)


class _Witness:
    """A pair's two witness points (balls) and the line between them."""

    def __init__(self, radius):
        self.switch = coin.SoSwitch()
        self.switch.whichChild.setValue(coin.SO_SWITCH_NONE)
        group = coin.SoSeparator()
        self.switch.addChild(group)
        self.balls = []
        for color in (POINT_A, POINT_B):
            sep = coin.SoSeparator()
            mat = coin.SoMaterial()
            mat.diffuseColor.setValue(*color)
            mat.emissiveColor.setValue(*(0.5 * c for c in color))
            sep.addChild(mat)
            move = coin.SoTranslation()
            sep.addChild(move)
            ball = coin.SoSphere()
            ball.radius.setValue(radius)
            sep.addChild(ball)
            group.addChild(sep)
            self.balls.append(move)
        line = coin.SoSeparator()
        mat = coin.SoMaterial()
        mat.diffuseColor.setValue(0.1, 0.1, 0.1)
        line.addChild(mat)
        style = coin.SoDrawStyle()
        style.lineWidth.setValue(2.0)
        line.addChild(style)
        self.coords = coin.SoCoordinate3()
        self.coords.point.setValues(0, 2, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        line.addChild(self.coords)
        line.addChild(coin.SoLineSet())
        group.addChild(line)

    @property
    def shown(self):
        return self.switch.whichChild.getValue() == coin.SO_SWITCH_ALL

    def show(self, points_mm=None):
        if points_mm is None:
            self.switch.whichChild.setValue(coin.SO_SWITCH_NONE)
            return
        for move, p in zip(self.balls, points_mm):
            move.translation.setValue(*p)
        self.coords.point.setValues(0, 2, [list(p) for p in points_mm])
        self.switch.whichChild.setValue(coin.SO_SWITCH_ALL)

    def points(self):
        """The two points [mm] drawn now."""
        return [tuple(self.coords.point[k].getValue()) for k in range(2)]


class Overlay:
    """The check ``check`` (``collision.along.Interference``) of ``study``'s result drawn in
    the study's 3-D views at the frame shown (see the module docstring)."""

    def __init__(self, study, check):
        old = overlay_of(study)
        if old is not None:
            old.remove()
        self.study, self.check = study, check
        self.doc = study.Document
        self.key = _key(study)
        self.removed = False
        self.session = playback.Session(study)
        self.t = self.session.t
        self.frame = None
        shapes = {b.Label: b.ShapeObject for b in study_bodies(study)
                  if b.ShapeObject is not None}
        self.root = coin.SoSeparator()
        self.root.setName("SimPhantInterference")
        pick = coin.SoPickStyle()
        pick.style.setValue(coin.SoPickStyle.UNPICKABLE)
        self.root.addChild(pick)
        top = coin.SoAnnotation()
        self.root.addChild(top)
        self.outlines = {}
        self.witnesses = {}
        radius = BALL_SIZE * marker_size(list(shapes.values()))
        for r in check.interfering():
            for label in (r.a, r.b):
                if label not in self.outlines and label in shapes:
                    self.outlines[label] = _Outline(shapes[label])
                    top.addChild(self.outlines[label].switch)
            self.witnesses[(r.a, r.b)] = w = _Witness(radius)
            top.addChild(w.switch)
        self.views = _views(self.doc)
        for v in self.views:
            v.getSceneGraph().addChild(self.root)
        _overlays[self.key] = self
        self.update()

    def spans(self):
        """``[(start [s], end [s], text)]`` of every interval of interference."""
        out = []
        for r in self.check.interfering():
            for iv in r.intervals:
                out.append((iv.start, iv.end, translate(
                    "SimPhant", "%s - %s interfere from %.4g s to %.4g s, up to %.4g mm deep")
                    % (r.a, r.b, iv.start, iv.end, iv.max_depth * 1e3)))
        return sorted(out)

    def current(self):
        """The study's result is still the one checked (not replaced by another run; no
        body deleted)."""
        try:
            return self.session.current() and get_result(self.study) is self.session.result
        except Exception:  # noqa: BLE001 - a damaged or removed result
            return False

    def frame_shown(self):
        """The result frame the bodies show now, or None (moved by hand, result
        replaced)."""
        if not self.current():
            return None
        return self.session.frame_shown()

    def update(self):
        """Show the outlines and witness points of the frame shown; returns it (None:
        the bodies are in no frame of the result, nothing is shown)."""
        if self.removed:
            return None
        try:
            frame = self.frame_shown()
        except Exception:  # noqa: BLE001 - a body deleted meanwhile: show nothing
            frame = None
        self.frame = frame
        time = None if frame is None else float(self.t[frame])
        lit = set()
        for r in self.check.interfering():
            inside = time is not None and any(iv.start <= time <= iv.end
                                              for iv in r.intervals)
            pts = None
            if inside:
                if frame in r.frame_points:
                    pa, pb = r.frame_points[frame]
                    pts = (tuple(np.asarray(pa) * 1e3), tuple(np.asarray(pb) * 1e3))
                lit.update((r.a, r.b))
            self.witnesses[(r.a, r.b)].show(pts)
        for label, outline in self.outlines.items():
            outline.show(label in lit)
        return frame

    def state(self):
        """What is drawn now: ``{"frame", "outlined": [labels], "poses": {label: outline
        placement (x, y, z mm, qx, qy, qz, qw)}, "points": {"A - B": [(x, y, z) mm on A,
        on B]}}`` (for scripts and tests)."""
        return dict(frame=self.frame,
                    outlined=sorted(k for k, o in self.outlines.items() if o.shown),
                    poses={k: o.pose() for k, o in self.outlines.items() if o.shown},
                    points={"%s - %s" % pair: w.points() for pair, w in self.witnesses.items()
                            if w.shown})

    def remove(self):
        """Take the overlay out of the 3-D views."""
        if self.removed:
            return
        self.removed = True
        for v in self.views:
            try:
                v.getSceneGraph().removeChild(self.root)
            except Exception:  # noqa: BLE001 - the view was closed
                pass
        if _overlays.get(self.key) is self:
            del _overlays[self.key]


following.frame_listeners.append(frame_changed)
__all__ += ["POINT_A", "POINT_B"]
