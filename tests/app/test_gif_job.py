"""``simphant run`` renders animation.gif in a second process (``viewer.gif_job``) while it
writes the other files; when that process fails, the run renders the animation itself."""
import io
import os
import sys

import pytest
from PIL import Image

from SimPhantWorkbench import cli
from SimPhantWorkbench.viewer import files, gif_job

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "examples", "pendulum.FCStd")

pytestmark = pytest.mark.skipif(not gif_job.can_spawn(),
                                reason="PyVista/VTK not installed: no second process")


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _frames(path):
    with Image.open(path) as im:
        return im.n_frames


def test_the_animation_comes_from_the_second_process(tmp_path, monkeypatch):
    """This process cannot render (write_animation raises): the GIF is still there, with
    its frames, drawn by the child."""
    started = []
    real_start = gif_job.GifJob.start.__func__

    def start(cls, *a, **kw):
        started.append(a)
        return real_start(cls, *a, **kw)

    def refuse(*a, **kw):
        raise AssertionError("rendered in the CLI's own process")

    monkeypatch.setattr(gif_job.GifJob, "start", classmethod(start))
    monkeypatch.setattr(files, "write_animation", refuse)
    code, _, err = run_cli("run", MODEL, "--out", tmp_path / "out", "--t-end", "0.2",
                           "--frames", "4")
    assert code == 0, err
    assert len(started) == 1
    assert _frames(tmp_path / "out" / "animation.gif") == 4


def test_a_failed_second_process_falls_back_to_rendering_here(tmp_path, monkeypatch):
    rendered = []
    real = files.write_animation

    def start(cls, result_path, scene_path, gif_path, frames, title=""):
        import subprocess
        import tempfile
        job = cls(subprocess.Popen([sys.executable, "-c", "import sys; sys.exit(3)"]),
                  gif_path)
        job.log = tempfile.TemporaryFile()
        return job

    def write_animation(*a, **kw):
        rendered.append(a)
        return real(*a, **kw)

    monkeypatch.setattr(gif_job.GifJob, "start", classmethod(start))
    monkeypatch.setattr(files, "write_animation", write_animation)
    code, _, err = run_cli("run", MODEL, "--out", tmp_path / "out", "--t-end", "0.2",
                           "--frames", "4")
    assert code == 0, err
    assert len(rendered) == 1
    assert _frames(tmp_path / "out" / "animation.gif") == 4
