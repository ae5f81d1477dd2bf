"""The scene in a PyVista plotter: actors posed at a result sample, off-screen frames.

``SceneRenderer`` adds one actor per mesh (in its body's own frame; a sample
only sets each actor's user matrix ``[A r; 0 1]``), one triad per joint frame,
optional CoG trails and the time as text, and frames the camera on the whole
motion, looking along the direction in which the bodies move least. VTK draws
with a depth buffer and lights: what the hand-written rasteriser of
``output.animation.render_animation`` (kept as the fallback without VTK) approximates.

Off-screen rendering needs an OpenGL context: Debian's VTK opens one on an X
display. ``ensure_display`` starts a private ``Xvfb`` when there is no display
(and VTK is not built for EGL/OSMesa), so the CLI and the tests render on a
headless machine.
"""
import atexit
import math
import os
import shutil
import subprocess
import sys

import numpy as np

from ..output import frame_indices
from ..output.animation import view_angles
from ..output.plots import display_title
from .video import video_indices

__all__ = ["ensure_display", "SceneRenderer", "offscreen_plotter", "render_frames",
           "video_indices", "world_to_pixel", "BACKGROUND", "TRIAD_COLORS"]

BACKGROUND = "white"
TRIAD_COLORS = ((0.85, 0.1, 0.1), (0.1, 0.65, 0.1), (0.1, 0.25, 0.9))    # x, y, z
TRAIL_COLOR = (0.25, 0.25, 0.25)
#: triad axis length as a fraction of the scene's diagonal
TRIAD_SCALE = 0.06
_VIEW_ANGLE = 30.0          # VTK's default camera view angle [deg]
_xvfb = None


def _needs_x():
    from vtkmodules.vtkRenderingCore import vtkRenderWindow
    import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (registers the OpenGL factory)
    name = vtkRenderWindow().GetClassName()
    return "EGL" not in name and "OSOpenGL" not in name and "Win32" not in name \
        and "Cocoa" not in name


def ensure_display():
    """Make sure VTK can open an OpenGL context; start a private Xvfb if needed.

    Returns the display used (or ``""`` when VTK needs none). Raises
    ``RuntimeError`` when there is no display and no ``Xvfb`` to start.
    """
    global _xvfb
    if sys.platform != "linux" or os.environ.get("DISPLAY") or not _needs_x():
        return os.environ.get("DISPLAY", "")
    exe = shutil.which("Xvfb")
    if exe is None:
        raise RuntimeError("VTK needs an X display to render and there is none (no DISPLAY "
                           "and no Xvfb: apt install xvfb)")
    r, w = os.pipe()
    proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", "1920x1080x24",
                             "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as fh:
        number = fh.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start (needed by VTK to render off-screen)")
    _xvfb = proc
    atexit.register(_stop_xvfb)
    os.environ["DISPLAY"] = ":" + number
    return os.environ["DISPLAY"]


def _stop_xvfb():
    """Close VTK's windows on our Xvfb, then stop it (a window left open would make Xlib
    abort the process when its server goes away)."""
    global _xvfb
    if _xvfb is None:
        return
    if "pyvista" in sys.modules and sys.modules["pyvista"] is not None:
        try:
            from pyvista.plotting.plotter import close_all
            close_all()
        except Exception:  # noqa: BLE001 - closing is best effort
            pass
    if _xvfb.poll() is None:
        _xvfb.terminate()
        try:
            _xvfb.wait(5)
        except subprocess.TimeoutExpired:
            _xvfb.kill()
    _xvfb = None


def _rgb(color):
    import matplotlib.colors as mcolors
    return tuple(float(c) for c in mcolors.to_rgb(color or "#cccccc"))


def _pose_matrix(r, A):
    M = np.eye(4)
    M[:3, :3] = A
    M[:3, 3] = r
    return M


def _polydata(points, triangles):
    import pyvista as pv
    faces = np.hstack([np.full((len(triangles), 1), 3, dtype=np.int64),
                       np.asarray(triangles, dtype=np.int64)]).ravel()
    return pv.PolyData(np.asarray(points, dtype=float), faces)


def _triad(size):
    import pyvista as pv
    pts = np.array([[0, 0, 0], [size, 0, 0], [0, 0, 0], [0, size, 0], [0, 0, 0], [0, 0, size]],
                   dtype=float)
    poly = pv.PolyData(pts, lines=np.array([2, 0, 1, 2, 2, 3, 2, 4, 5]))
    poly.cell_data["rgb"] = (np.array(TRIAD_COLORS) * 255).astype(np.uint8)
    return poly


class SceneRenderer:
    """A ``Scene`` and a ``Result`` in a PyVista plotter (off-screen or a window's).

    ``show(i)`` poses everything at sample ``i``. Attributes: ``actors``
    (``{mesh label: actor}``), ``triads`` (``{joint name: actor}``), ``trails``
    (``{body name: PolyData}``), ``indices`` (the samples used to frame the camera).
    """

    def __init__(self, plotter, scene, result, triads=True, trails=False, title=None,
                 show_time=True):
        scene.check(result)
        self.plotter = plotter
        self.scene = scene
        self.result = result
        self.index = 0
        self.indices = frame_indices(len(result.t), 60)
        if len(self.indices) == 0:
            raise ValueError("the result has no samples")
        lo, hi = scene.bounds(result, self.indices)
        self.lo, self.hi = lo, hi
        self.diagonal = float(np.linalg.norm(hi - lo)) or 1.0
        plotter.set_background(BACKGROUND)
        self.actors = {}
        self._moving = []
        for m in scene.meshes:
            if len(m.triangles) == 0:
                continue
            actor = plotter.add_mesh(_polydata(m.points, m.triangles), color=_rgb(m.color),
                                     smooth_shading=False, specular=0.2, name="mesh:" + m.label,
                                     reset_camera=False)
            self.actors[m.label] = actor
            if m.name is not None:
                self._moving.append((m, actor))
        size = TRIAD_SCALE * self.diagonal
        self.triads = {}
        for j in scene.joints:
            actor = plotter.add_mesh(_triad(size), scalars="rgb", rgb=True, line_width=3,
                                     name="triad:" + j.name, reset_camera=False,
                                     lighting=False)
            self.triads[j.name] = actor
        self.trails = {}            # made when first shown (an animation without them
        self._trail_actors = {}     # skips a PyVista actor per body)
        self.set_triads_visible(triads)
        self.set_trails_visible(trails)
        self._time_text = None
        if show_time:
            self._time_text = plotter.add_text("", position="upper_left", font_size=10,
                                               color="black", name="time")
        title = display_title(scene.title if title is None else title)
        if title:
            plotter.add_text(title, position="upper_right", font_size=10, color="black",
                             name="title")
        self.reset_camera()
        self.show(0)

    # ------------------------------------------------------------------ options
    def set_triads_visible(self, on):
        for a in self.triads.values():
            a.SetVisibility(bool(on))

    def _make_trails(self):
        import pyvista as pv
        for name in self.result.body_names:
            p0 = self.result.position(name)[:1]
            poly = pv.PolyData(np.vstack([p0, p0]), lines=np.array([2, 0, 1]))
            self.trails[name] = poly
            self._trail_actors[name] = self.plotter.add_mesh(
                poly, color=TRAIL_COLOR, line_width=2, name="trail:" + name,
                reset_camera=False, lighting=False)

    def set_trails_visible(self, on):
        if on and not self._trail_actors:
            self._make_trails()
        for a in self._trail_actors.values():
            a.SetVisibility(bool(on))
        if on and hasattr(self, "_time_text"):    # (not while __init__ builds it)
            self.show(self.index)           # the trails were not kept up while hidden

    def reset_camera(self):
        """Frame the whole motion, seen along the direction in which the bodies move least:
        the corners of its bounding box, projected on the view plane, fill the window."""
        elev, azim = view_angles(self.result, self.scene.meshes)
        e, a = math.radians(elev), math.radians(azim)
        d = np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])
        up = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.95 else np.array([0.0, 1.0, 0.0])
        right = np.cross(-d, up)
        right /= np.linalg.norm(right)
        up = np.cross(right, -d)
        centre = 0.5 * (self.lo + self.hi)
        corners = np.array([[x, y, z] for x in (self.lo[0], self.hi[0])
                            for y in (self.lo[1], self.hi[1])
                            for z in (self.lo[2], self.hi[2])]) - centre
        w, h = self.plotter.window_size
        half = max(np.abs(corners @ up).max(), np.abs(corners @ right).max() * h / max(w, 1))
        half = 1.12 * max(half, 1e-6)
        tan = math.tan(math.radians(_VIEW_ANGLE / 2.0))
        distance = half / tan + (corners @ d).max()
        cam = self.plotter.camera
        cam.focal_point = tuple(centre)
        cam.position = tuple(centre + distance * d)
        cam.up = tuple(up)
        cam.view_angle = _VIEW_ANGLE
        self.plotter.renderer.ResetCameraClippingRange()

    # ------------------------------------------------------------------ posing
    def show(self, i):
        """Pose every body, triad and trail at sample ``i``; return the time [s]."""
        r = self.result
        i = int(i)
        self.index = i
        for m, actor in self._moving:
            actor.user_matrix = _pose_matrix(*r.pose(m.name, i))
        for j in self.scene.joints:
            self.triads[j.name].user_matrix = _pose_matrix(*j.pose(r, i))
        for name, poly in self.trails.items():
            if not self._trail_actors[name].GetVisibility():
                continue                    # hidden: updated when shown (set_trails_visible)
            pts = r.position(name)[:i + 1]
            if len(pts) < 2:
                pts = np.vstack([pts, pts])
            poly.points = pts
            poly.lines = np.concatenate([[len(pts)], np.arange(len(pts))])
        if self._time_text is not None:
            self._time_text.SetText(2, "t = %.3f s" % r.t[i])      # 2: upper left corner
        self.plotter.renderer.ResetCameraClippingRange()
        return float(r.t[i])

    def image(self, i):
        """The RGB image (h, w, 3) uint8 of sample ``i``."""
        self.show(i)
        self.plotter.render()
        return np.asarray(self.plotter.screenshot(return_img=True))[..., :3].copy()


def offscreen_plotter(size):
    """An off-screen ``pyvista.Plotter`` of ``size`` = (width, height) pixels."""
    ensure_display()
    import pyvista as pv
    plotter = pv.Plotter(off_screen=True, window_size=tuple(int(s) for s in size))
    # no multisampling: a third less time per frame in a software OpenGL (Xvfb), and the
    # flat-shaded parts look the same at these sizes
    plotter.ren_win.SetMultiSamples(0)
    return plotter


def render_frames(result, scene, indices, size=(640, 480), triads=True, trails=False,
                  title=None):
    """Yield the RGB image (h, w, 3) of every sample of ``indices``, rendered off-screen."""
    plotter = offscreen_plotter(size)
    try:
        renderer = SceneRenderer(plotter, scene, result, triads=triads, trails=trails,
                                 title=title)
        for i in indices:
            yield renderer.image(i)
    finally:
        plotter.close()


def world_to_pixel(plotter, point):
    """(column, row) of the image pixel where the world ``point`` [m] is drawn (row 0 on top)."""
    from vtkmodules.vtkRenderingCore import vtkCoordinate
    c = vtkCoordinate()
    c.SetCoordinateSystemToWorld()
    c.SetValue(*[float(x) for x in point])
    x, y = c.GetComputedDoubleDisplayValue(plotter.renderer)
    h = plotter.window_size[1]
    return x, h - 1 - y
