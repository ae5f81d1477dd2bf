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
