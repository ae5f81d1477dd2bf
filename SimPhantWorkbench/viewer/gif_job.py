"""``animation.gif`` rendered by VTK in a second process, while ``simphant run`` writes
its other files (CSV tables, plots, the result document).

Rendering the animation is most of what the command spends after the solve, and it
needs nothing but ``result.npz`` and ``scene.npz``, which the run writes first. The
second process loads them (no FreeCAD), renders with ``files.write_animation(...,
renderer="vtk")`` and exits; the run waits for it before it commits its outputs. When
the job cannot be started or fails, the run renders the animation itself, as before.

The run starts the process before it solves (``GifJob.spawn``): the child imports
NumPy, the solver's result and VTK (about a second) on the core the single-threaded
solve leaves free, then waits for one line on its standard input naming the files
(``GifJob.go``). A run that fails or is cancelled closes that input or kills the
child; on end of input it exits without rendering.

Child: ``python -m SimPhantWorkbench.viewer.gif_job RESULT SCENE GIF FRAMES TITLE``, or
``... --wait`` and then the same five values as a JSON list on one line of stdin.
"""
import json
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

    def __init__(self, proc, gif_path=None):
        self.proc = proc
        self.gif_path = gif_path

    @classmethod
    def spawn(cls):
        """Start the child now; it prepares and waits for ``go`` (OSError if it cannot
        be started)."""
        cmd = [sys.executable, "-m", "SimPhantWorkbench.viewer.gif_job", "--wait"]
        log = tempfile.TemporaryFile()          # not a pipe: a chatty child never blocks
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=log)
        except BaseException:
            log.close()
            raise
        job = cls(proc)
        job.log = log
        return job

    def go(self, result_path, scene_path, gif_path, frames, title=""):
        """Render ``gif_path`` from these files (OSError if the child is gone)."""
        self.gif_path = str(gif_path)
        line = json.dumps([str(result_path), str(scene_path), str(gif_path), int(frames),
                           str(title)]) + "\n"
        try:
            self.proc.stdin.write(line.encode("utf-8"))
        finally:
            self.proc.stdin.close()

    @classmethod
    def start(cls, result_path, scene_path, gif_path, frames, title=""):
        """``spawn`` and ``go`` at once."""
        job = cls.spawn()
        try:
            job.go(result_path, scene_path, gif_path, frames, title)
        except OSError:
            job.kill()
            raise
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
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        self.log.close()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    from ..solver import Result
    from . import files
    from ..viewer.scene import Scene
    if argv == ["--wait"]:
        try:                            # what rendering imports, while the run solves
            import pyvista  # noqa: F401
            import vtkmodules.vtkRenderingOpenGL2  # noqa: F401
            from . import render  # noqa: F401
        except ImportError:
            pass                        # said by write_animation below, if it comes to it
        line = sys.stdin.readline()
        if not line.strip():
            return 0                    # the run ended without an animation to render
        argv = json.loads(line)
    result_path, scene_path, gif_path, frames, title = argv
    result = Result.load(result_path)
    scene = Scene.load(scene_path)
    scene.check(result)
    files.write_animation(result, scene, gif_path, int(frames), title, renderer="vtk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
