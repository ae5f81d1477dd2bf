"""Frames (RGB arrays) to a video file: MP4 through ffmpeg, GIF through Pillow.

No VTK here: the CLI's renderer and the FreeCAD GUI's view capture both write
through ``write_video``. MP4 (H.264, yuv420p, so any player opens it) needs an
``ffmpeg`` program: the system's (Debian package ``ffmpeg``) or the one
``imageio-ffmpeg`` ships. Without one, ``write_video`` writes a GIF beside the
requested name and says so in its return value.
"""
import math
import os
import shutil
import subprocess

import numpy as np

__all__ = ["video_indices", "ffmpeg_exe", "write_video", "write_gif", "write_mp4", "VIDEO_FORMATS"]

VIDEO_FORMATS = (".mp4", ".gif")
_MIN_GIF_MS = 20


def video_indices(result, fps, speed=1.0):
    """Sample indices of a video at ``fps`` frames per second of playback, ``speed`` times
    real time (nearest sample to each frame time; first and last kept)."""
    t = result.t
    if len(t) == 0:
        return np.zeros(0, dtype=np.int64)
    span = float(t[-1] - t[0])
    n = max(1, int(math.floor(span / speed * fps + 1e-9)) + 1)
    times = t[0] + np.arange(n) * speed / float(fps)
    idx = np.searchsorted(t, times)
    idx = np.clip(idx, 0, len(t) - 1)
    prev = np.clip(idx - 1, 0, len(t) - 1)
    idx = np.where(np.abs(t[prev] - times) <= np.abs(t[idx] - times), prev, idx)
    if idx[-1] != len(t) - 1 and n > 1 and t[-1] - times[-1] < 0.5 * speed / fps:
        idx[-1] = len(t) - 1
    return idx


def ffmpeg_exe():
    """Path of an ``ffmpeg`` program (system first, then imageio-ffmpeg's), or ``None``."""
    exe = shutil.which("ffmpeg")
    if exe:
        return exe
    try:
        import imageio_ffmpeg
        return imageio_ffmpeg.get_ffmpeg_exe()
    except Exception:  # noqa: BLE001 - not installed or no binary
        return None


def _even(frame):
    """H.264 with yuv420p needs even width and height: repeat the last row/column."""
    h, w = frame.shape[:2]
    if h % 2:
        frame = np.concatenate([frame, frame[-1:]], axis=0)
    if w % 2:
        frame = np.concatenate([frame, frame[:, -1:]], axis=1)
    return frame


def write_mp4(frames, path, fps, exe=None):
    """Write ``frames`` (iterable of (h, w, 3) uint8, all one size) as H.264 MP4; returns
    the number of frames. Odd sizes get one repeated row/column."""
    exe = exe or ffmpeg_exe()
    if exe is None:
        raise RuntimeError("no ffmpeg found (apt install ffmpeg, or pip install imageio-ffmpeg)")
    proc = None
    n = 0
    size = None
    tmp = path + ".part.mp4"
    try:
        for frame in frames:
            frame = _even(np.ascontiguousarray(np.asarray(frame)[..., :3], dtype=np.uint8))
            if proc is None:
                size = frame.shape[:2]
                proc = subprocess.Popen(
                    [exe, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
                     "-s", "%dx%d" % (size[1], size[0]), "-r", "%g" % fps, "-i", "-",
                     "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20",
                     "-movflags", "+faststart", "-f", "mp4", tmp],
                    stdin=subprocess.PIPE, stderr=subprocess.PIPE)
            elif frame.shape[:2] != size:
                raise ValueError("frame %d is %dx%d, the first was %dx%d"
                                 % (n, frame.shape[1], frame.shape[0], size[1], size[0]))
            proc.stdin.write(frame.tobytes())
            n += 1
        if proc is None:
            raise ValueError("no frames to write")
        proc.stdin.close()
        err = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
        if proc.wait() != 0:
            raise RuntimeError("ffmpeg failed: %s" % err.strip()[-500:])
        proc = None
        os.replace(tmp, path)
        return n
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()
            for fh in (proc.stdin, proc.stderr):
                try:
                    fh.close()
                except (OSError, ValueError):
                    pass
        if os.path.exists(tmp):
            os.remove(tmp)


def write_gif(frames, path, fps):
    """Write ``frames`` as an animated GIF (one shared palette); returns the frame count."""
    from PIL import Image
    images = [Image.fromarray(np.ascontiguousarray(np.asarray(f)[..., :3], dtype=np.uint8))
              for f in frames]
    if not images:
        raise ValueError("no frames to write")
    median_cut = getattr(getattr(Image, "Quantize", Image), "MEDIANCUT")
    no_dither = getattr(getattr(Image, "Dither", Image), "NONE")
    palette = images[len(images) // 2].quantize(colors=192, method=median_cut)
    frames_p = [im.quantize(palette=palette, dither=no_dither) for im in images]
    duration = max(_MIN_GIF_MS, int(round(1000.0 / fps)))
    frames_p[0].save(path, format="GIF", save_all=True, append_images=frames_p[1:],
                     duration=duration, loop=0, optimize=False)
    return len(frames_p)


def write_video(frames, path, fps):
    """Write ``frames`` to ``path`` by its extension (``.mp4`` or ``.gif``).

    Returns ``(path written, frame count)``: an ``.mp4`` asked for without any
    ffmpeg becomes a ``.gif`` beside it.
    """
    ext = os.path.splitext(path)[1].lower()
    if ext not in VIDEO_FORMATS:
        raise ValueError("video '%s': the name must end in .mp4 or .gif" % path)
    if fps <= 0:
        raise ValueError("frame rate must be positive, got %r" % (fps,))
    if ext == ".mp4":
        exe = ffmpeg_exe()
        if exe is not None:
            return path, write_mp4(frames, path, fps, exe)
        path = os.path.splitext(path)[0] + ".gif"
    return path, write_gif(frames, path, fps)
