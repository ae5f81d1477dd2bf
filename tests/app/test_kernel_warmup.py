"""What the status bar and the solve dialog show while the solver kernels are prepared:
loading (from the cache) and compiling told apart, the ETA only from a compile measured
on this computer; the block sizes a document's studies need."""
import time

import FreeCAD  # noqa: F401 - the app layer's environment

from SimPhantWorkbench.gui import kernel_warmup
from SimPhantWorkbench.solver import kernel_times, warmup


def _busy(monkeypatch, elapsed, compiled, block_size=5, adaptive=False):
    hits, misses = warmup.compile_counts()
    monkeypatch.setattr(warmup, "_busy", [dict(block_size=block_size, adaptive=adaptive,
                                               t0=time.perf_counter() - elapsed,
                                               counts=(hits, misses - compiled))])


def test_status_text_tells_loading_from_compiling(monkeypatch, tmp_path):
    monkeypatch.setattr(warmup, "cache_path", lambda: str(tmp_path))
    assert kernel_warmup.status_text() is None          # nothing under way
    _busy(monkeypatch, 12.0, compiled=3)
    text = kernel_warmup.status_text()
    assert text.startswith("compiling the solver kernels, first use on this computer")
    assert "block size 5" in text and "12 s" in text
    assert "left" not in text and kernel_warmup.fraction() is None    # nothing measured yet
    # loading from the cache: announced only when it takes a while, and as loading
    _busy(monkeypatch, 0.2, compiled=0)
    assert kernel_warmup.status_text() is None
    _busy(monkeypatch, 3.0, compiled=0)
    text = kernel_warmup.status_text()
    assert text.startswith("loading the solver kernels from the cache") and "3 s" in text
    assert "compiling" not in text


def test_eta_comes_from_a_compile_measured_here(monkeypatch, tmp_path):
    monkeypatch.setattr(warmup, "cache_path", lambda: str(tmp_path))
    kernel_times.record(str(tmp_path), 3, False, 40.0, 20)
    _busy(monkeypatch, 10.0, compiled=5, block_size=5)
    text = kernel_warmup.status_text()        # block size 5 not measured: block 3's time
    assert "about 30 s left (40 s measured here before)" in text
    assert abs(kernel_warmup.fraction() - 5 / 20) < 1e-9
    kernel_times.record(str(tmp_path), 5, False, 60.0, 10)
    assert "about 50 s left (60 s measured here before)" in kernel_warmup.status_text()
    assert kernel_times.estimate(str(tmp_path), 5, True) is None      # adaptive: not measured
    # another numba compiles at another speed: its measurements are not used
    monkeypatch.setattr(kernel_times, "_numba_version", lambda: "0.0.1")
    assert kernel_times.estimate(str(tmp_path), 5, False) is None


def test_the_parts_a_study_needs(tmp_path):
    from SimPhantWorkbench import factory
    doc = FreeCAD.newDocument("WarmupParts")
    try:
        a = doc.addObject("Part::Box", "A")
        b = doc.addObject("Part::Box", "B")
        b.Placement.Base = FreeCAD.Vector(20, 0, 0)
        doc.recompute()
        study = factory.make_study(doc)
        assert kernel_warmup.study_parts(study) == [(3, False)]       # no joint
        factory.make_body(study, a, fixed=True)
        factory.make_body(study, b)
        factory.make_joint(study, "spherical", (a, "Vertex7"), (b, "Vertex1"))
        assert kernel_warmup.study_parts(study) == [(3, False)]
        factory.make_joint(study, "revolute", (a, "Edge6"), (b, "Edge4"))
        assert kernel_warmup.study_parts(study) == [(5, False)]
        study.Integrator = "Radau"
        assert kernel_warmup.study_parts(study) == [(5, True)]
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_a_runs_kernel_preparation_is_told_as_compiling_or_loading():
    assert kernel_times.preparation_text(dict(compile_time=0.01)) == ""
    assert kernel_times.preparation_text(dict(compile_time=0.4, kernels_compiled=0)) == \
        "0.40 s loading the solver kernels"
    assert kernel_times.preparation_text(dict(compile_time=48.04, kernels_compiled=18)) == \
        "48.0 s compiling the solver kernels (first use on this computer)"


def test_the_background_prepares_the_inlined_loop_after_the_parts_studies_need(monkeypatch):
    """The queue's parts first (a solve waits only for those), then the faster inlined
    fixed-step loop of each fixed-step size prepared, by a solve too; none for an
    adaptive-only study's size."""
    calls = []
    monkeypatch.setattr(warmup, "ensure", lambda bs, adaptive=False, model_class=None:
                        calls.append(("ensure", bs, adaptive)) or 0.0)
    monkeypatch.setattr(warmup, "ensure_inlined", lambda bs, model_class:
                        calls.append(("inlined", bs)) or 0.0)
    monkeypatch.setattr(kernel_warmup, "_state", dict(kernel_warmup._state, queue=[(5, False),
                                                      (3, True)], prepared=set(), done=[],
                                                      thread=None, error=None))
    kernel_warmup._work()
    assert calls == [("ensure", 5, False), ("ensure", 3, True), ("inlined", 5)]
    assert (5, warmup.INLINED) in kernel_warmup._state["prepared"]
    # a size a solve prepared in this process (not the background) gets its inlined loop
    monkeypatch.setattr(warmup, "ready_sizes", lambda: [5, 6])
    monkeypatch.setattr(kernel_warmup, "_start_timer", lambda: None)
    started = []
    monkeypatch.setattr(kernel_warmup.threading, "Thread", lambda **kw: started.append(kw) or
                        type("T", (), dict(start=lambda self: None,
                                           is_alive=lambda self: True))())
    kernel_warmup.request([(6, False)])
    assert kernel_warmup._inlined_todo(warmup) == [6] and len(started) == 1
    del calls[:]
    kernel_warmup._state["thread"] = None
    kernel_warmup._work()
    assert calls == [("inlined", 6)]
