"""Having the numba kernels ready before a solve: compile (first use) or load them.

numba compiles one specialisation of the kernels per joint block size
(``kernels.BLOCK_SIZES``; the size is a compile-time constant, see
``kernels``), half a minute each, and keeps it in its on-disk cache
(``cache=True``): next to the sources in ``__pycache__`` when that directory is
writable, else in the user's cache directory (numba's fallback, e.g.
``~/.cache/numba``; ``NUMBA_CACHE_DIR`` overrides both). A new process then
loads the compiled code from there in well under a second.

``ensure(block_size, adaptive, model_class)`` makes one block size ready in this
process by running a tiny model of ``model_class`` (``Model``: passed in, so that this
module, which ``simulate`` calls, imports neither the model nor the simulation) with a
joint of that size through everything ``simulate`` calls (``System`` set-up, assembly,
the fixed-step loop and the output pass; with ``adaptive`` also the evaluator the SciPy
methods call and the mechanism check's reaction kernel), so that no kernel is compiled in the middle
of a real run and the time it takes can be reported apart from the solve (``simulate``
records it as ``settings["compile_time"]``). A fixed-step run does not load the
adaptive evaluator (each loaded kernel holds its machine code in memory).
``ensure_all(model_class)`` does every block size and all parts: ``make setup`` runs
it (``python -m SimPhantWorkbench.solver``) and the workbench starts it in the
background when it is first activated.

The fixed-step loop comes twice (``kernels``): ``integrate_fixed`` calls the stages of
an evaluation, ``integrate_fixed_inlined`` has them inlined, faster per step (up to 3x
on small models) but another half-minute or more to compile. ``ensure`` prepares the
first, which is all a first solve waits for; ``ensure_inlined`` the second (the
workbench does it in the background after the first; ``make setup`` too). ``fixed_step_kernel`` gives a run the
inlined loop when this process has it, or numba's cache holds it (a marker file next to
the cache, ``INLINED_MARKER``, written when it was compiled from today's sources), and
the plain loop otherwise: a fresh install's first solve never waits for the inlined
compile.

Thread-safe: a solve that needs a block size another thread is preparing waits
for it instead of compiling it a second time.
"""
import threading
import time

from . import jit, kernel_cache, kernel_times, kernels, reactions
from .joints import JOINT_TYPES

__all__ = ["ensure", "ensure_all", "ensure_inlined", "fixed_step_kernel", "use_kernels",
           "INLINED_MARKER", "model_block_size", "kinds_block_size", "warmup_kind", "busy",
           "progress", "ready_sizes", "compile_counts", "kernels_compiled", "cache_path"]

_lock = threading.RLock()
#: the inlined loop's preparation has locks of its own, one per block size: a solve
#: waiting for the plain kernels never waits for it, and one that finds it cached waits
#: only for its loading by another thread
_inlined_locks = {bs: threading.RLock() for bs in kernels.BLOCK_SIZES}
_ready = set()
#: ``(block_size, INLINED)`` in ``_ready``: the inlined fixed-step loop is ready
INLINED = "inlined"
INLINED_MARKER = kernel_cache.INLINED_MARKER
_prefilled = []
#: kernel specialisations compiled (not loaded) by the preparations of this process
_compiled = [0]
#: ``active``: this thread is running a warm-up model (whose own ``simulate``
#: must not ask for one again)
_local = threading.local()
#: (block size, perf_counter at start) of the preparation under way, else None
_busy = [None]


def model_block_size(model):
    """The joint block size ``System`` will use for ``model``."""
    return kernels.block_size(max([len(j.spec.rows) for j in model.joints], default=1))


def kinds_block_size(kinds):
    """The joint block size of a model with joints of these registry kinds (unknown
    kinds ignored): what a document's study needs, before it is converted."""
    return kernels.block_size(max([len(JOINT_TYPES[k].rows) for k in kinds
                                   if k in JOINT_TYPES], default=1))


def warmup_kind(block_size):
    """The first joint kind of the registry whose rows need ``block_size`` (None if none)."""
    for name, spec in JOINT_TYPES.items():
        if kernels.block_size(len(spec.rows)) == block_size:
            return name
    return None


def _warmup_model(block_size, model_class):
    kind = warmup_kind(block_size)
    m = model_class(gravity=(0.0, 0.0, -9.81))
    b = m.add_body("warmup", mass=1.0, inertia=(0.04, 0.1, 0.1), position=(0.5, 0.0, 0.0))
    if kind is not None:
        spec = JOINT_TYPES[kind]
        kw = dict(point=(0.0, 0.0, 0.0))
        if "axis" in spec.needs:
            kw["axis"] = (0.0, 1.0, 0.0)
        if "axis2" in spec.needs:
            kw["axis2"] = (1.0, 0.0, 0.0)
        if "point2" in spec.needs:
            kw["point2"] = (0.5, 0.0, 0.0)
        m.add_joint(kind, m.ground, b, **kw)
    # a time-dependent load: the load table path of the loops
    m.add_force(b, lambda t: (0.0, 0.0, t), point=(0.6, 0.0, 0.0))
    # a spring: the force-element outputs of the Result (force_outputs), so that a
    # solve never compiles one while the inlined loop compiles in the background
    m.add_spring(b, (0.6, 0.0, 0.0), m.ground, (0.6, 0.0, 0.1), stiffness=10.0)
    return m


def _run_part(block_size, adaptive, model_class):
    model = _warmup_model(block_size, model_class)
    # the fixed-step loop (integrate_fixed), assembly and the Result (post_process)
    with use_kernels("plain"):
        model.simulate(t_end=2e-3, dt=1e-3, method="rk4", output_dt=1e-3)
    if adaptive:
        # the evaluator the SciPy methods call once per derivative (System.evaluate);
        # called directly: importing scipy.integrate costs ~20 MB a fixed-step run
        # does not need
        system = model.compile()
        system.evaluate(0.0, system.y0)
        # and the reaction rule at one state, as the mechanism check runs it (a tree
        # does not need the rule: run with the system's own arrays, no random vectors)
        kernels.reaction_flags_at(system.y0, system.S, system.W,
                                  reactions.reaction_work(system))


def ensure(block_size, adaptive=False, model_class=None):
    """Compile or load the kernels for ``block_size`` in this process (with
    ``adaptive`` also the evaluator of the SciPy methods), running a tiny model of
    ``model_class`` (``Model``; needed unless they are ready); seconds spent, waiting for
    another thread preparing them included (0.0 when they were ready already)."""
    parts = [(block_size, False)] + ([(block_size, True)] if adaptive else [])
    if all(p in _ready for p in parts) or getattr(_local, "active", False):
        return 0.0
    t0 = time.perf_counter()
    with _lock:
        if not _prefilled and jit.AVAILABLE:
            # a read-only install's kernels, compiled next to the sources by its owner
            _prefilled.append(kernel_cache.prefill())
        todo = [p for p in parts if p not in _ready]
        _local.active = True
        try:
            for _bs, part_adaptive in todo:
                _prepare_part(block_size, part_adaptive, model_class)
        finally:
            _local.active = False
            _busy[0] = None
        return time.perf_counter() - t0


_marker_memo = [None, None]     # (the sources' stat stamps, the marker text for them)


def _marker_text():
    """The inlined loop's marker: the kernel sources' digest and numba's version. The
    digest is computed again only when a source's size or modification time changed (a
    stat per file, not a hash, on each fixed-step run until the loop is loaded)."""
    import os
    import numba
    here = os.path.dirname(os.path.abspath(kernels.__file__))
    stamps = []
    for name in kernels.CACHE_SOURCES:
        st = os.stat(os.path.join(here, name))
        stamps.append((st.st_mtime_ns, st.st_size))
    stamps = tuple(stamps)
    if _marker_memo[0] != stamps:
        _marker_memo[1] = "%s numba %s" % (kernels.sources_digest(), numba.__version__)
        _marker_memo[0] = stamps
    return _marker_memo[1]


def inlined_cached(block_size, directory=None):
    """True when numba's cache (``directory``, default ``cache_path()``) holds the
    inlined fixed-step loop for ``block_size``, compiled from today's sources by this
    numba (its marker says so)."""
    import os
    directory = directory or cache_path()
    if not directory or not jit.AVAILABLE:
        return False
    try:
        with open(os.path.join(directory, INLINED_MARKER % block_size)) as fh:
            return fh.read().strip() == _marker_text()
    except OSError:
        return False


def use_kernels(kind):
    """Context manager: the fixed-step runs of this thread use the ``"plain"`` or the
    ``"inlined"`` loop whatever is ready (``None``: the usual choice). For the
    preparation of the inlined loop itself, benchmarks and tests."""
    import contextlib

    @contextlib.contextmanager
    def chosen():
        before = getattr(_local, "kernels", None)
        _local.kernels = kind
        try:
            yield
        finally:
            _local.kernels = before
    if kind not in (None, "plain", INLINED):
        raise ValueError("kernels: 'plain', 'inlined' or None, not %r" % (kind,))
    return chosen()


def fixed_step_kernel(block_size, model_class):
    """``(kernel, name, seconds)``: the fixed-step loop a run of ``block_size`` uses,
    ``kernels.integrate_fixed_inlined`` ("inlined") when it is ready in this process or
    numba's cache holds it (then loaded now, in ``seconds``), else
    ``kernels.integrate_fixed`` ("plain"), whose kernels ``ensure`` prepared."""
    kind = getattr(_local, "kernels", None)
    seconds = 0.0
    if kind is None:
        if (block_size, INLINED) in _ready:
            kind = INLINED
        elif inlined_cached(block_size):
            # numba's cache has it: loading (here, or by the thread that holds its
            # lock) takes a fraction of a second
            try:
                seconds = ensure_inlined(block_size, model_class)
                kind = INLINED
            except Exception:  # noqa: BLE001 - the plain loop gives the same result
                kind = "plain"
        else:
            kind = "plain"
    if kind == INLINED:
        return kernels.integrate_fixed_inlined, INLINED, seconds
    return kernels.integrate_fixed, "plain", seconds


def ensure_inlined(block_size, model_class):
    """Compile or load the inlined fixed-step loop for ``block_size`` in this process
    (after ``ensure``'s kernels, which it runs on), and mark numba's cache as holding
    it; seconds spent (0.0 when it was ready)."""
    import os
    if (block_size, INLINED) in _ready or getattr(_local, "active", False):
        return 0.0
    ensure(block_size, model_class=model_class)
    t0 = time.perf_counter()
    with _inlined_locks[block_size]:
        if (block_size, INLINED) in _ready:
            return time.perf_counter() - t0
        counts = compile_counts()
        _local.active = True
        try:
            with use_kernels(INLINED):
                _warmup_model(block_size, model_class).simulate(
                    t_end=2e-3, dt=1e-3, method="rk4", output_dt=1e-3)
        finally:
            _local.active = False
        _ready.add((block_size, INLINED))
        made = compile_counts()[1] - counts[1]
        _compiled[0] += made
        directory = cache_path()
        if made:
            kernel_times.record(directory, block_size, INLINED, time.perf_counter() - t0, made)
        if directory:
            try:
                with open(os.path.join(directory, INLINED_MARKER % block_size), "w") as fh:
                    fh.write(_marker_text() + "\n")
            except OSError:
                pass        # a read-only cache: the next process compiles it again
        return time.perf_counter() - t0


def _prepare_part(block_size, adaptive, model_class):
    """One part, timed; a compile's time and kernel count are kept (``kernel_times``)."""
    counts = compile_counts()
    t0 = time.perf_counter()
    _busy[0] = dict(block_size=block_size, adaptive=adaptive, t0=t0, counts=counts)
    _run_part(block_size, adaptive, model_class)
    _ready.add((block_size, adaptive))
    made = compile_counts()[1] - counts[1]
    _compiled[0] += made
    if made:
        kernel_times.record(cache_path(), block_size, adaptive, time.perf_counter() - t0, made)


def ensure_all(model_class, report=None):
    """``ensure`` every block size with tiny models of ``model_class`` (``Model``);
    ``{block_size: seconds}``. ``report(block_size, seconds, compiled)`` is called after
    each (``compiled``: the kernels were compiled, not loaded from the cache)."""
    out = {}
    for bs in kernels.BLOCK_SIZES:
        before = compile_counts()[1]
        out[bs] = ensure(bs, adaptive=True, model_class=model_class)
        out[bs] += ensure_inlined(bs, model_class=model_class)
        if report is not None:
            report(bs, out[bs], compile_counts()[1] > before)
    return out


def kernels_compiled():
    """How many kernel specialisations the preparations of this process compiled rather
    than loaded from the cache (a counter: cheap to read before and after a run)."""
    return _compiled[0]


def busy():
    """``(block_size, seconds so far)`` of a preparation under way, else None."""
    b = _busy[0]
    if b is None:
        return None
    return b["block_size"], time.perf_counter() - b["t0"]


def progress():
    """The preparation under way, else None: a dict with ``block_size``, ``adaptive``,
    ``elapsed`` [s], ``compiling`` (True once a kernel was compiled rather than loaded
    from the cache), ``kernels`` (specialisations compiled so far) and ``estimate``
    (``(seconds, kernels)`` a compile of this part took on this computer, or None)."""
    b = _busy[0]
    if b is None:
        return None
    made = compile_counts()[1] - b["counts"][1]
    return dict(block_size=b["block_size"], adaptive=b["adaptive"],
                elapsed=time.perf_counter() - b["t0"], compiling=made > 0, kernels=made,
                estimate=kernel_times.estimate(cache_path(), b["block_size"], b["adaptive"]))


def ready_sizes():
    """Block sizes whose fixed-step kernels are ready in this process."""
    return sorted(bs for bs, adaptive in _ready if not adaptive)


def _dispatchers():
    if not jit.AVAILABLE:
        return
    from numba.core.dispatcher import Dispatcher
    from . import blocks
    for module in (kernels, blocks):
        for obj in vars(module).values():
            if isinstance(obj, Dispatcher):
                yield obj


def compile_counts():
    """``(loaded from the on-disk cache, compiled)``: kernel specialisations this
    process got each way so far (numba's per-dispatcher cache statistics)."""
    hits = misses = 0
    for d in _dispatchers():
        st = d.stats
        for _attempt in range(3):       # another thread may be compiling: retry a resize
            try:
                h, m = sum(list(st.cache_hits.values())), sum(list(st.cache_misses.values()))
                break
            except RuntimeError:
                h = m = 0
        hits += h
        misses += m
    return hits, misses


def cache_path():
    """The directory numba caches the kernels in (None if it cannot cache them)."""
    cache = getattr(kernels.integrate_fixed, "_cache", None)
    try:
        return cache._cache_path
    except AttributeError:
        return None
