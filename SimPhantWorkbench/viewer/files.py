"""The viewer's files beside a run's outputs, and the run's animation and video.

``simphant run`` writes ``result.npz`` (``Result.save``) and ``scene.npz``
(``Scene.save``) into its output directory; ``simphant view DIR`` reads them
back (``load_view_files``) without FreeCAD. ``write_animation`` renders the
run's ``animation.gif`` with VTK when PyVista is there and falls back to the
Matplotlib rasteriser of ``output.render_animation`` otherwise;
``write_run_video`` writes ``--video`` (MP4 or GIF, real time).
"""
import os

from .. import output
from ..viewer.scene import RESULT_FILE, SCENE_FILE, Scene

__all__ = ["write_view_files", "load_view_files", "write_animation", "write_run_video",
           "ANIMATION_VTK_SIZE", "VIDEO_SIZE", "VIDEO_FPS"]

#: animation.gif rendered by VTK [px] (width, height)
ANIMATION_VTK_SIZE = (480, 360)
#: --video: size [px] and frames per second
VIDEO_SIZE = (960, 720)
VIDEO_FPS = 30


def write_view_files(out_dir, result, scene=None):
    """Write ``result.npz`` (and ``scene.npz`` when ``scene`` is given); return their names."""
    names = [RESULT_FILE]
    result.save(os.path.join(out_dir, RESULT_FILE))
    if scene is not None:
        scene.save(os.path.join(out_dir, SCENE_FILE))
        names.append(SCENE_FILE)
    return names


def load_view_files(path):
    """(Result, Scene) from a directory written by ``simphant run`` (or the two files'
    directory), both checked as untrusted input before anything draws them
    (``solver.result_file.read_result_file``: sizes before decompressing, shapes,
    finite states, rigid rotations; ``Scene.load``: sizes, finite points, triangle
    indices). Raises ``ValueError`` saying what is missing or wrong."""
    from ..solver import ModelError
    from ..solver.result_file import read_result_file
    if not os.path.isdir(path):
        raise ValueError("'%s' is not a directory (give the output directory of "
                         "'simphant run')" % path)
    res_path = os.path.join(path, RESULT_FILE)
    scene_path = os.path.join(path, SCENE_FILE)
    for p, what in ((res_path, "result"), (scene_path, "tessellated bodies")):
        if not os.path.isfile(p):
            raise ValueError("'%s' has no %s (%s): run 'simphant run --out %s' first (without "
                             "--no-animation, which skips the tessellation)"
                             % (path, what, os.path.basename(p), path))
    try:
        result = read_result_file(res_path, "'%s'" % res_path)
        scene = Scene.load(scene_path)
    except (OSError, KeyError, ValueError, ModelError) as exc:
        raise ValueError("cannot read '%s': %s" % (path, exc)) from None
    scene.check(result)
    return result, scene


def _vtk_problem():
    """Why VTK cannot render here (``None`` if it can)."""
    from . import missing_reason
    reason = missing_reason()
    if reason is not None:
        return reason
    try:
        from .render import ensure_display
        ensure_display()
    except Exception as exc:  # noqa: BLE001 - no display, no Xvfb
        return str(exc)
    return None


def write_animation(result, scene, path, frames=output.ANIMATION_FRAMES, title="",
                    renderer="auto"):
    """Write ``animation.gif``: about ``frames`` samples, real-time frame durations.

    ``renderer``: ``"vtk"``, ``"matplotlib"`` (``output.render_animation``) or
    ``"auto"`` (VTK when it can render here). Returns ``(renderer used, frame count,
    why VTK was not used or None)``.
    """
    why = None
    if renderer in ("auto", "vtk"):
        why = _vtk_problem()
        if why is None:
            from .render import render_frames
            from .video import write_gif
            idx = output.frame_indices(len(result.t), frames)
            if len(idx) == 0:
                raise ValueError("nothing to animate (no samples)")
            step = (result.t[idx[-1]] - result.t[idx[0]]) / (len(idx) - 1) if len(idx) > 1 \
                else 1.0
            n = write_gif(render_frames(result, scene, idx, ANIMATION_VTK_SIZE, title=title),
                          path, 1.0 / max(step, 1e-3))
            return "vtk", n, None
        if renderer == "vtk":
            raise RuntimeError("VTK cannot render: %s" % why)
    n = output.render_animation(result, scene.meshes, path, frames, title)
    return "matplotlib", n, why


def write_run_video(result, scene, path, fps=VIDEO_FPS, size=VIDEO_SIZE, speed=1.0, title=""):
    """Write an MP4 (or GIF) of the run at ``fps``, ``speed`` times real time, rendered by
    VTK. Returns ``(path written, frame count)``; raises ``RuntimeError`` without VTK."""
    from .render import render_frames, video_indices
    from .video import write_video
    why = _vtk_problem()
    if why is not None:
        raise RuntimeError("the video needs PyVista/VTK: %s" % why)
    idx = video_indices(result, fps, speed)
    return write_video(render_frames(result, scene, idx, size, title=title), path, fps)

