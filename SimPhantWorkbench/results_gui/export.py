"""Exports from the FreeCAD GUI: CSV tables and PNG plots (the CLI's files) and a GIF/MP4
of FreeCAD's own 3-D view moving through the result.

``export_csv`` and ``export_plots`` write the very files ``simphant run`` writes
(``output.write_all``), from the study's stored Result. ``export_view_animation`` poses
the bodies frame by frame (``playback.frame_placements``), grabs the active 3-D
view with ``View3DInventor.saveImage`` at the size asked for, and writes the
frames at ``fps`` frames per second of playback (``speed`` times real time) as
MP4 (ffmpeg) or GIF (``viewer.video``). The placements the bodies had before
are put back exactly afterwards, also when it fails; nothing goes on the undo
stack.
"""
import os
import shutil
import tempfile

import numpy as np

from .. import output
from ..gui.translation import translate

__all__ = ["export_csv", "export_plots", "export_view_animation", "animation_summary"]


def _result(study):
    from .. import runner
    result = runner.get_result(study)
    if result is None:
        raise ValueError(translate("SimPhant", "Study '%s' has no result yet: run it first")
                         % study.Label)
    return result


def _directory(path):
    if not os.path.isdir(path):
        raise ValueError(translate("SimPhant", "'%s' is not a directory") % path)
    return path


def _write(study, directory, ext):
    result = _result(study)
    _directory(directory)
    title = "%s: %s" % (study.Document.Label, study.Label)
    from ..gui.outdated import outdated_note
    if outdated_note(study):
        title += " " + translate("SimPhant", "(outdated: the model changed after the run)")
    names = output.write_all(result, directory, None, title,
                              only=lambda name: name.endswith(ext))
    return [os.path.join(directory, n) for n in names]


def export_csv(study, directory):
    """Write the CSV tables of ``simphant run`` (``output.write_all``): ``body_<name>.csv``,
    ``reactions.csv``, ``energy.csv``, and as the model has them ``joints.csv``,
    ``forces.csv``, ``drivers.csv``, into ``directory``; returns their paths."""
    return _write(study, directory, ".csv")


def export_plots(study, directory):
    """Write the plots of ``simphant run``: ``positions.png``, ``energy.png``,
    ``reactions.png``, and as the model has them ``joints.png``, ``forces.png``,
    ``drivers.png``; returns their paths."""
    return _write(study, directory, ".png")


def animation_summary(study, fps, speed=1.0):
    """What ``export_view_animation`` at ``fps`` and ``speed`` writes of ``study``'s
    result: the text the export dialog shows ("26 frames, 1.04 s of video for 1 s of
    motion") -- a short motion at real time is a short video of few frames."""
    from ..viewer.video import video_indices
    result = _result(study)
    n = len(video_indices(result, fps, speed))
    span = float(result.t[-1] - result.t[0]) if len(result.t) else 0.0
    return translate("SimPhant", "%d frames, %.3g s of video for %.3g s of motion") % (
        n, n / float(fps), span)


def export_view_animation(study, path, size=(640, 480), fps=25, speed=1.0, view=None,
                          progress=None):
    """Record FreeCAD's 3-D view playing the study's result into ``path`` (.mp4 or .gif).

    ``size`` (width, height) [px] of the frames, ``fps`` frames per second of
    the video, ``speed`` times real time; ``view`` defaults to the active 3-D
    view of the study's document. ``progress(k, n)`` is called per frame;
    returning False stops (nothing is written). Returns ``(path written,
    frame count)``: ``.mp4`` without any ffmpeg becomes a ``.gif``.
    """
    import FreeCADGui
    from PIL import Image
    from .. import playback
    from ..viewer.video import video_indices, write_video
    result = _result(study)
    w, h = (int(s) for s in size)
    if w < 16 or h < 16:
        raise ValueError(translate("SimPhant", "frame size %dx%d is too small") % (w, h))
    if view is None:
        gdoc = FreeCADGui.getDocument(study.Document.Name)
        view = gdoc.activeView() if gdoc is not None else None
        if view is None or not hasattr(view, "saveImage"):
            raise ValueError(translate("SimPhant", "document '%s' has no 3-D view to record")
                             % study.Document.Label)
    idx = video_indices(result, fps, speed)
    tmp = tempfile.mkdtemp(prefix="simphant_frames_")
    before = None
    try:
        frames = []
        for k, i in enumerate(idx):
            placements = playback.frame_placements(study, int(i))
            if before is None:
                before = {obj: obj.Placement.copy() for obj in placements}
            for obj, pl in placements.items():
                obj.Placement = pl
            FreeCADGui.updateGui()
            png = os.path.join(tmp, "frame.png")
            view.saveImage(png, w, h, "Current")
            with Image.open(png) as im:
                frames.append(np.asarray(im.convert("RGB")))
            if progress is not None and progress(k + 1, len(idx)) is False:
                raise KeyboardInterrupt("cancelled")
        return write_video(frames, path, fps)
    finally:
        if before:
            for obj, pl in before.items():
                obj.Placement = pl
            FreeCADGui.updateGui()
        shutil.rmtree(tmp, ignore_errors=True)
