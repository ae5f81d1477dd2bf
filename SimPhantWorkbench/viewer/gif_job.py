"""``animation.gif`` rendered by VTK in a second process, while ``simphant run`` writes
its other files (CSV tables, plots, the result document).

Rendering the animation is most of what the command spends after the solve, and it
needs nothing but ``result.npz`` and ``scene.npz``, which the run writes first. The
second process loads them (no FreeCAD), renders with ``files.write_animation(...,
renderer="vtk")`` and exits; the run waits for it before it commits its outputs. When
the job cannot be started or fails, the run renders the animation itself, as before.

Child: ``python -m SimPhantWorkbench.viewer.gif_job RESULT SCENE GIF FRAMES TITLE``.
"""
import os
import subprocess
import sys
import tempfile

__all__ = ["GifJob", "can_spawn"]


def can_spawn():
    """True when a second process could render with VTK: ``sys.executable`` is a Python
    interpreter (not FreeCAD embedding one) and PyVista and VTK are installed (found, not
    imported: the child imports them; if it cannot render, the run falls back itself)."""
    import importlib.util
    if not os.path.basename(sys.executable or "").startswith("python"):
        return False
    for mod in ("pyvista", "vtkmodules"):
        if mod in sys.modules and sys.modules[mod] is None:        # hidden on purpose
            return False
        try:
            if importlib.util.find_spec(mod) is None:
                return False
        except (ImportError, ValueError):
            return False
    return True


class GifJob:
    """A running child that renders ``gif_path``; ``wait()`` gives ``None`` when it
    succeeded, else what went wrong (its last stderr lines)."""

    def __init__(self, proc, gif_path):
        self.proc = proc
        self.gif_path = gif_path

    @classmethod
    def start(cls, result_path, scene_path, gif_path, frames, title=""):
        cmd = [sys.executable, "-m", "SimPhantWorkbench.viewer.gif_job", str(result_path),
               str(scene_path), str(gif_path), str(int(frames)), str(title)]
        log = tempfile.TemporaryFile()          # not a pipe: a chatty child never blocks
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=log)
        except BaseException:
            log.close()
            raise
        job = cls(proc, gif_path)
        job.log = log
        return job

    def wait(self):
        self.proc.wait()
        self.log.seek(0)
        err = self.log.read()[-4000:]
        self.log.close()
        if self.proc.returncode == 0 and os.path.isfile(self.gif_path):
            return None
        text = err.decode("utf-8", "replace").strip().splitlines()
        return "exit code %s%s" % (self.proc.returncode,
                                   (": " + " / ".join(text[-3:])) if text else "")

    def kill(self):
        """Stop the child if it still runs (a failed or interrupted run)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    result_path, scene_path, gif_path, frames, title = argv
    from ..solver import Result
    from . import files
    from .scene import Scene
    result = Result.load(result_path)
    scene = Scene.load(scene_path)
    scene.check(result)
    files.write_animation(result, scene, gif_path, int(frames), title, renderer="vtk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
