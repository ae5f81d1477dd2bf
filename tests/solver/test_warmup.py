"""The kernels are compiled once per block size, cached on disk and reused by a new process;
their preparation time is reported apart from the solve."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from SimPhantWorkbench.solver import JOINT_TYPES, Model, kernels, warmup

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def _pendulum(kind):
    m = Model(gravity=(0, 0, -9.81))
    b = m.add_body("b", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(0.5, 0, 0))
    m.add_joint(kind, m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
    return m


@pytest.mark.parametrize("bs", kernels.BLOCK_SIZES)
def test_every_block_size_has_a_warmup_joint(bs):
    kind = warmup.warmup_kind(bs)
    assert kind is not None and kernels.block_size(len(JOINT_TYPES[kind].rows)) == bs
    m = warmup._warmup_model(bs, Model)   # what the warm-up runs for that size
    assert [j.kind for j in m.joints] == [kind]
    assert warmup.model_block_size(m) == bs
    assert m.compile().block_size == bs


def test_model_block_size_is_the_largest_joints():
    m = _pendulum("spherical")
    b2 = m.add_body("b2", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(1.0, 0, 0))
    m.add_joint("revolute", m.bodies[0], b2, point=(0.8, 0, 0), axis=(0, 1, 0))
    assert warmup.model_block_size(m) == m.compile().block_size == 5


def test_simulate_reports_the_kernel_preparation_apart():
    m = _pendulum("revolute")
    bs = warmup.model_block_size(m)
    warmup._ready.difference_update({(bs, False), (bs, True)})      # as in a new process
    r1 = m.simulate(t_end=0.01, dt=1e-3)
    assert r1.settings["compile_time"] > 0.0
    assert bs in warmup.ready_sizes()
    assert (bs, True) not in warmup._ready     # a fixed-step run leaves the evaluator alone
    r2 = m.simulate(t_end=0.01, dt=1e-3)
    assert r2.settings["compile_time"] == 0.0
    # not part of the solver's own wall time: that starts after the preparation
    assert r2.settings["wall_time"] > 0.0
    # an adaptive run prepares the evaluator of the SciPy methods first, once
    r3 = m.simulate(t_end=0.01, dt=1e-3, method="RK45")
    assert r3.settings["compile_time"] > 0.0
    assert (bs, True) in warmup._ready
    assert m.simulate(t_end=0.01, dt=1e-3, method="RK45").settings["compile_time"] == 0.0


_FIXED_STEP_CHILD = """
import json, sys
sys.path.insert(0, %r)
from SimPhantWorkbench.solver import Model
m = Model(gravity=(0, 0, -9.81))
b = m.add_body("b", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(0.5, 0, 0))
m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
m.simulate(t_end=0.01, dt=1e-3)
print(json.dumps(sorted(k for k in sys.modules if k.startswith("scipy.integrate"))))
"""


def test_a_fixed_step_run_does_not_load_the_adaptive_machinery():
    """Memory: scipy.integrate (and what it imports, ~20 MB) is for the SciPy methods."""
    out = subprocess.run([sys.executable, "-c", _FIXED_STEP_CHILD % ROOT], capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


_CHILD = """
import json, sys
sys.path.insert(0, %r)
from SimPhantWorkbench.solver import Model, warmup
warmup.ensure(5, model_class=Model)
hits, misses = warmup.compile_counts()
print(json.dumps(dict(hits=hits, misses=misses, path=warmup.cache_path())))
"""


def _child(code, env=None):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=900)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(JIT_OFF, reason="numba's JIT is disabled: there is nothing to cache")
def test_a_second_process_loads_the_kernels_instead_of_compiling():
    code = _CHILD % ROOT
    _child(code)                       # compiles if the cache is cold, else loads
    second = _child(code)
    assert second["misses"] == 0, second
    assert second["hits"] > 0, second


@pytest.mark.skipif(JIT_OFF, reason="numba's JIT is disabled: there is nothing to cache")
def test_kernels_cache_to_the_user_cache_when_the_package_dir_is_not_writable(tmp_path):
    """An add-on installed where the user cannot write: numba falls back to the user's
    cache directory. (A file named ``__pycache__`` blocks the in-tree cache even for root.)"""
    pkg = tmp_path / "addon"
    for room in ("deps", "solver"):        # the solver and the room below it
        shutil.copytree(os.path.join(ROOT, "SimPhantWorkbench", room),
                        pkg / "SimPhantWorkbench" / room,
                        ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "SimPhantWorkbench" / "__init__.py").write_text("")
    (pkg / "SimPhantWorkbench" / "solver" / "__pycache__").write_text("not a directory")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    code = ("import json, sys\nsys.path.insert(0, %r)\n"
            "from SimPhantWorkbench.solver import warmup\n"
            "print(json.dumps(dict(path=warmup.cache_path())))\n" % str(pkg))
    path = _child(code, env)["path"]
    assert path is not None
    assert os.path.realpath(path).startswith(os.path.realpath(str(home)))
    assert os.access(path, os.W_OK)


def test_cached_kernels_of_other_sources_are_dropped(tmp_path):
    """numba keys a cached kernel on its own file's time stamp; an edit of forces.py or
    blocks.py (compiled into the kernels) must not leave the old code in the cache."""
    from SimPhantWorkbench.solver import kernels
    # at import the cache next to the kernels was stamped with today's sources
    for d in kernels.cache_dirs():
        with open(os.path.join(d, kernels.CACHE_STAMP)) as fh:
            assert fh.read().strip() == kernels.sources_digest()
    stale = ["kernels.evaluate-700.py311.nbi", "kernels.evaluate-700.py311.1.nbc",
             "blocks.chol-606.py311.nbi", "forces.apply_forces-380.py311.nbi"]
    keep = ["other.f-1.py311.nbi", "kernels.cpython-311.pyc"]
    for name in stale + keep:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / kernels.CACHE_STAMP).write_text("made from other sources\n")
    assert sorted(kernels.drop_stale_cache([str(tmp_path)], "abc")) == sorted(stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(keep + [kernels.CACHE_STAMP])
    assert (tmp_path / kernels.CACHE_STAMP).read_text().strip() == "abc"
    # the same sources again: nothing is dropped
    (tmp_path / stale[0]).write_bytes(b"x")
    assert kernels.drop_stale_cache([str(tmp_path)], "abc") == []
    assert (tmp_path / stale[0]).exists()


def test_time_waiting_for_another_threads_preparation_is_compile_time(monkeypatch):
    """A solve that waits while the background warm-up prepares kernels reports that
    wait as compile time, not as solve time."""
    import threading
    import time
    monkeypatch.setattr(warmup, "_run_part", lambda bs, adaptive, model_class: None)
    monkeypatch.setattr(warmup, "_ready", set())
    held = threading.Event()

    def other():
        with warmup._lock:
            held.set()
            time.sleep(0.4)
    t = threading.Thread(target=other)
    t.start()
    held.wait()
    sec = warmup.ensure(5)
    t.join()
    assert sec >= 0.35, sec
    assert warmup.ensure(5) == 0.0


@pytest.mark.skipif(JIT_OFF, reason="numba's JIT is disabled: there is nothing to cache")
def test_kernels_compiled_next_to_the_sources_prefill_another_cache(tmp_path):
    """A read-only install: numba caches in another folder (here NUMBA_CACHE_DIR), and
    the kernels its owner compiled next to the sources are copied there and loaded, not
    compiled again."""
    first = _child(_CHILD % ROOT)                  # the sources' own cache holds size 5
    assert first["path"] and os.path.realpath(first["path"]).startswith(ROOT)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "user-cache"))
    second = _child(_CHILD % ROOT, env)
    assert os.path.realpath(second["path"]).startswith(str(tmp_path))
    assert second["misses"] == 0 and second["hits"] > 0, second
    assert any(n.endswith(".nbc") for n in os.listdir(second["path"]))
    # with the marker of the inlined loop the owner compiled (make setup): users run it
    assert warmup.INLINED_MARKER % 5 in os.listdir(second["path"])


@pytest.mark.skipif(JIT_OFF, reason="numba's JIT is disabled: there is one loop only")
def test_a_run_takes_the_inlined_loop_only_when_it_is_ready_or_cached(tmp_path, monkeypatch):
    """A first solve runs the plain fixed-step loop (quick to compile) unless the inlined
    one is ready in this process or numba's cache holds it (its marker, written when it
    was compiled from today's sources by this numba, says so)."""
    m = _pendulum("revolute")
    bs = warmup.model_block_size(m)

    def new_process():
        warmup._ready.discard((bs, warmup.INLINED))
    monkeypatch.setattr(warmup, "_ready", set(warmup._ready))
    monkeypatch.setattr(warmup, "cache_path", lambda: str(tmp_path))
    new_process()
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert r.settings["kernels"] == "plain"
    assert (bs, warmup.INLINED) not in warmup._ready      # not compiled by the run
    # preparing it marks the cache as holding it
    warmup.ensure_inlined(bs, Model)
    marker = tmp_path / (warmup.INLINED_MARKER % bs)
    assert marker.read_text().split()[0] == kernels.sources_digest()
    assert m.simulate(t_end=0.01, dt=1e-3).settings["kernels"] == "inlined"
    # a new process finds the marker: loads the inlined loop (time told as preparation)
    new_process()
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert r.settings["kernels"] == "inlined" and r.settings["compile_time"] > 0.0
    r = m.simulate(t_end=0.01, dt=1e-3)
    assert r.settings["kernels"] == "inlined" and r.settings["compile_time"] == 0.0
    # a marker of other sources or another numba does not count
    new_process()
    marker.write_text(marker.read_text().replace(kernels.sources_digest(), "0" * 64))
    assert m.simulate(t_end=0.01, dt=1e-3).settings["kernels"] == "plain"
    marker.unlink()
    assert m.simulate(t_end=0.01, dt=1e-3).settings["kernels"] == "plain"
    # an adaptive run has no fixed-step loop
    assert m.simulate(t_end=0.01, dt=1e-3, method="RK45").settings["kernels"] is None


def test_the_plain_and_the_inlined_loops_give_the_same_motion():
    """One evaluation, compiled two ways: the four-bar loop (redundant rows) under
    gravity, a spring-damper and a load (every stage of the evaluation has work) moves
    the same in both."""
    from SimPhantWorkbench.solver import zoo
    m, links = zoo.crank_rocker()
    p = tuple(float(x) for x in links[1].position)
    m.add_spring(links[1], p, m.ground, (p[0], p[1], p[2] + 0.3), stiffness=50.0,
                 damping=0.5)
    m.add_force(links[0], lambda t: (0.0, 0.0, 2.0 * t), point=p)
    runs = {}
    for kind in ("plain", "inlined"):
        with warmup.use_kernels(kind):
            runs[kind] = m.simulate(t_end=0.5, dt=1e-3, output_dt=0.01)
        assert runs[kind].settings["kernels"] == kind
    a, b = runs["plain"], runs["inlined"]
    scale = max(1.0, float(abs(a.states).max()))
    assert float(abs(a.states - b.states).max()) <= 1e-9 * scale
    assert float(abs(a.states).max()) > 0.0


def test_the_inlined_evaluator_inlines_every_hot_stage():
    """``evaluate_inlined`` and the stages it calls see the inlined variants of the
    stages; the plain ``evaluate`` and the stages themselves stay plain functions."""
    inl = getattr(kernels.evaluate_inlined, "py_func", kernels.evaluate_inlined).__globals__
    plain = getattr(kernels.evaluate, "py_func", kernels.evaluate).__globals__
    for stage in kernels.HOT_STAGES:
        name = getattr(stage, "py_func", stage).__name__
        if not JIT_OFF:
            assert inl[name].targetoptions.get("inline") == "always", name
        assert inl[name] is not stage and plain[name] is stage, name
        # a stage's own calls of other stages go to their inlined variants too
        inner = getattr(inl[name], "py_func", inl[name]).__globals__
        for other in kernels.HOT_STAGES:
            oname = getattr(other, "py_func", other).__name__
            assert inner[oname] is inl[oname], (name, oname)
    def space(kernel):
        return getattr(kernel, "py_func", kernel).__globals__
    assert space(kernels.integrate_fixed_inlined)["evaluate"] is kernels.evaluate_inlined
    assert space(kernels.integrate_fixed)["evaluate"] is kernels.evaluate


_INLINED_CHILD = """
import json, sys
sys.path.insert(0, %r)
from SimPhantWorkbench.solver import Model, warmup
m = Model(gravity=(0, 0, -9.81))
b = m.add_body("b", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(0.5, 0, 0))
m.add_joint("revolute", m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))
r = m.simulate(t_end=0.01, dt=1e-3)
hits, misses = warmup.compile_counts()
print(json.dumps(dict(kernels=r.settings["kernels"], hits=hits, misses=misses)))
"""


@pytest.mark.skipif(JIT_OFF, reason="numba's JIT is disabled: there is nothing to cache")
def test_after_setup_a_new_process_runs_the_inlined_loop_without_compiling():
    """``python -m SimPhantWorkbench.solver`` (make setup) prepares the inlined loop of
    every block size too: a later process finds it in the cache and uses it."""
    out = subprocess.run([sys.executable, "-m", "SimPhantWorkbench.solver"], cwd=ROOT,
                         capture_output=True, text=True, timeout=3000)
    assert out.returncode == 0, out.stderr
    child = _child(_INLINED_CHILD % ROOT)
    assert child == dict(kernels="inlined", hits=child["hits"], misses=0), child
    assert child["hits"] > 0


def test_setup_prepares_every_part_of_every_block_size(monkeypatch):
    """``ensure_all`` (make setup, the workbench's first activation): the plain kernels
    with the adaptive evaluator, then the inlined loop, size by size."""
    calls = []
    monkeypatch.setattr(warmup, "ensure", lambda bs, adaptive=False, model_class=None:
                        calls.append((bs, adaptive)) or 1.0)
    monkeypatch.setattr(warmup, "ensure_inlined", lambda bs, model_class:
                        calls.append((bs, warmup.INLINED)) or 2.0)
    assert warmup.ensure_all(Model) == {bs: 3.0 for bs in kernels.BLOCK_SIZES}
    assert calls == [(bs, part) for bs in kernels.BLOCK_SIZES for part in (True, "inlined")]


def test_the_inlined_marker_follows_the_sources_without_hashing_them_each_run(tmp_path,
                                                                          monkeypatch):
    """The marker's digest is computed again when a kernel source changes (its size or
    modification time), and only then: a fixed-step run asks for it until the inlined
    loop is loaded."""
    for name in kernels.CACHE_SOURCES:
        shutil.copy2(os.path.join(os.path.dirname(kernels.__file__), name), tmp_path / name)
    monkeypatch.setattr(kernels, "__file__", str(tmp_path / "kernels.py"))
    monkeypatch.setattr(warmup, "_marker_memo", [None, None])
    calls = []
    digest = kernels.sources_digest
    monkeypatch.setattr(kernels, "sources_digest", lambda: calls.append(1) or digest())
    first = warmup._marker_text()
    assert first.split()[0] == digest()
    assert warmup._marker_text() == first and len(calls) == 1
    with open(tmp_path / kernels.CACHE_SOURCES[-1], "a") as fh:
        fh.write("\n# edited\n")
    edited = warmup._marker_text()
    assert edited != first and edited.split()[0] == digest() and len(calls) == 2


def test_another_pythons_marker_does_not_count(monkeypatch, tmp_path):
    """Two FreeCAD versions (each its own Python) may share one ``Mod`` folder: numba keeps
    each Python's kernels apart (``....py311.nbi``, ``....py313.nbi``), and so does the
    inlined loop's marker. Another Python's marker would make this one's first solve
    compile the inlined loop in the foreground, told as "first use on this computer";
    writing this one's leaves the other's alone (no compile back and forth)."""
    import sys
    monkeypatch.setattr(warmup, "cache_path", lambda: str(tmp_path))
    bs = kernels.BLOCK_SIZES[0]
    ours = warmup.INLINED_MARKER % bs
    assert ours.endswith(".py%d%d.ready" % sys.version_info[:2])
    other = ours.replace(".py%d%d." % sys.version_info[:2], ".py%d%d." % (
        sys.version_info[0], sys.version_info[1] + 2))
    (tmp_path / other).write_text(warmup._marker_text() + "\n")
    assert not warmup.inlined_cached(bs)
    (tmp_path / ours).write_text(warmup._marker_text() + "\n")
    assert warmup.inlined_cached(bs)
    assert (tmp_path / other).read_text().strip() == warmup._marker_text()
