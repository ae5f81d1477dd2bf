"""``simphant run`` renders animation.gif in a second process (``viewer.gif_job``) while it
writes the other files; when that process fails, the run renders the animation itself."""
import io
import os
import sys

import pytest
from PIL import Image

from SimPhantWorkbench.run import Run
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
    its frames, drawn by the child, which was started before the solve."""
    events = []
    real_spawn = gif_job.GifJob.spawn.__func__
    real_go = gif_job.GifJob.go
    real_run = Run.execute

    def spawn(cls):
        events.append("spawn")
        return real_spawn(cls)

    def go(self, *a):
        events.append("go")
        return real_go(self, *a)

    def execute(*a, **kw):
        events.append("solve")
        return real_run(*a, **kw)

    def refuse(*a, **kw):
        raise AssertionError("rendered in the CLI's own process")

    monkeypatch.setattr(gif_job.GifJob, "spawn", classmethod(spawn))
    monkeypatch.setattr(gif_job.GifJob, "go", go)
    monkeypatch.setattr(Run, "execute", execute)
    monkeypatch.setattr(files, "write_animation", refuse)
    code, _, err = run_cli("run", MODEL, "--out", tmp_path / "out", "--t-end", "0.2",
                           "--frames", "4")
    assert code == 0, err
    assert events == ["spawn", "solve", "go"]
    assert _frames(tmp_path / "out" / "animation.gif") == 4


def test_a_waiting_child_exits_quietly_when_the_run_ends_without_it():
    """A failed or cancelled run closes the child's input: it renders nothing."""
    job = gif_job.GifJob.spawn()
    job.proc.stdin.close()
    assert job.proc.wait(timeout=120) == 0
    job.log.seek(0)
    assert job.log.read() == b""
    job.kill()


def test_a_failed_run_stops_the_waiting_child(tmp_path, monkeypatch):
    jobs = []
    real_spawn = gif_job.GifJob.spawn.__func__

    def spawn(cls):
        jobs.append(real_spawn(cls))
        return jobs[-1]

    monkeypatch.setattr(gif_job.GifJob, "spawn", classmethod(spawn))
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["run", MODEL, "--out", str(tmp_path / "out"), "--t-end", "0.2"],
                    progress=lambda t, t_end: t < 0.05, stdout=out, stderr=err)   # cancelled
    assert code == cli.EXIT_CANCELLED, err.getvalue()
    assert len(jobs) == 1 and jobs[0].proc.poll() is not None
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("code", ["import sys; sys.exit(3)",
                                  "import sys; sys.stdin.read(); sys.exit(3)"],
                         ids=["gone before", "fails after"])
def test_a_failed_second_process_falls_back_to_rendering_here(tmp_path, monkeypatch, code):
    """The child is gone before the run sends it the files, or takes them and fails:
    the run renders the animation itself."""
    rendered = []
    real = files.write_animation

    def spawn(cls):
        import subprocess
        import tempfile
        job = cls(subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE))
        job.log = tempfile.TemporaryFile()
        if "read" not in code:
            job.proc.wait()
        return job

    def write_animation(*a, **kw):
        rendered.append(a)
        return real(*a, **kw)

    monkeypatch.setattr(gif_job.GifJob, "spawn", classmethod(spawn))
    monkeypatch.setattr(files, "write_animation", write_animation)
    code_, _, err = run_cli("run", MODEL, "--out", tmp_path / "out", "--t-end", "0.2",
                            "--frames", "4")
    assert code_ == 0, err
    assert len(rendered) == 1
    assert _frames(tmp_path / "out" / "animation.gif") == 4
