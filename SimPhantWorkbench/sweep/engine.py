"""Running a parameter study: variants converted here, simulated by an executor.

For each variant of the design the client (this process, the one with FreeCAD)
sets the design variables in the document, recomputes it when a variable is
geometric, prepares the study through the run pipeline (``run.prepare``: the
study's checks and its conversion into a pure solver ``Model``) and hands it, in
batches, to the executor (``executors``): the workers need only the solver.
Conversion of the next variants goes on while earlier batches run. With an
``[optimize]`` table the variants come from the optimiser (``optimize``), a few
trials in flight at a time, on the same executor.

* A variant that cannot be converted or simulated (bad geometry, an assembly
  or integration error, the timeout) is recorded as ``failed`` with its message;
  the sweep goes on. Its warnings (a default density, the run's diagnostics) are in
  its ``warnings``.
* A batch the infrastructure loses (a worker killed, the scheduler gone, a worker
  of another SimPhant) is submitted again up to ``retries`` times; then its
  variants are ``lost``, apart from the model's failures. A scheduler without
  workers for ``worker_timeout`` seconds, or a lost scheduler connection, ends
  the sweep: the variants not run are ``lost`` with the reason
  (``stats["infrastructure"]``).
* ``progress(state)`` may return False to cancel; Ctrl-C (KeyboardInterrupt)
  cancels too. Finished variants are kept (and cached), the others are
  ``cancelled``.
* With a cache directory (``cache.Cache``), each finished variant is stored under
  its fingerprint (``solver.batch.fingerprint``: the solver's sources, the converted
  model and the simulation settings); a rerun finds it and does not simulate again.
  When every variant comes from the cache no cluster is started.
* Metrics that need the document (``fem.metric``: ``max_stress``) are evaluated
  here, on a run of the variant of its own, while its design is set; the workers
  evaluate the others. Metrics of two bodies' solids (``clearance``:
  ``min(clearance(A, B))``, ``interference_time(A, B)``) are evaluated here too, from
  the motion the worker sends back with the variant's result and the solids
  tessellated while its design was set.
* The document is restored: every design variable gets its original value
  back (and the document is recomputed) whatever happens.
"""
import math
import queue
import time
from collections import namedtuple
from hashlib import sha256

from ..document.bodies import body_of_object, density_warning
from ..document.massprops import solid_property_cache
from ..document.base import DRIVERS, is_type, proxy_type, require_study, study_bodies
from ..fem.metric import is_document_metric
from ..document.signatures import check_references, unchecked
from ..run import prepare, recompute_touched, result_size, study_error
from ..solver import ModelError
from ..solver.batch import Task, VersionMismatch, fingerprint, solver_digest
from ..solver.metrics import Metric
from .cache import Cache
from .clearance import PairMetrics
from .executors import CONNECT_TIMEOUT, InfrastructureError, make_executor
from .outcome import INFO_COLUMNS, STATUSES, SweepOutcome
from .targets import find_object, resolve_target

__all__ = ["Progress", "SweepOutcome", "execute", "STATUSES", "INFO_COLUMNS", "RETRIES",
           "WORKER_TIMEOUT", "MAX_SERIES_BYTES"]

#: what ``progress`` is called with: variants finished (ok + failed + lost), failed, from
#: the cache, total, seconds since the start, estimated seconds to go (None early on),
#: lost to the infrastructure, a note (e.g. waiting for workers) and the address of the
#: Dask dashboard once the cluster is up (else "")
Progress = namedtuple("Progress", ["done", "failed", "cached", "total", "elapsed", "eta",
                                   "lost", "note", "dashboard"], defaults=(0, "", ""))

#: submissions of a batch after the infrastructure lost it
RETRIES = 2
#: seconds a scheduler may have no worker while variants wait, before the sweep stops
WORKER_TIMEOUT = 60.0
#: bytes the kept time series of all variants may take in this process
MAX_SERIES_BYTES = 2 * 10 ** 9

_KINDS = {"joint": (("SimPhant::Joint",), "a SimPhant joint", "a joint"),
          "element": (("SimPhant::ForceElement",), "a SimPhant force element",
                      "a spring, damper or actuator"),
          "driver": (DRIVERS, "a SimPhant driver", "a driver")}


def _signal_objects(study, named):
    """``{(kind, target): document object}`` of the signals of ``named`` (pairs of what
    names them and their signals), checked before anything runs."""
    out = {}
    for what, signals in named:
        for sig in signals:
            if sig.kind == "system":
                continue
            obj = find_object(study.Document, sig.target, what)
            if sig.kind in _KINDS:
                type_ids, noun, needs = _KINDS[sig.kind]
                if proxy_type(obj) not in type_ids:
                    raise ModelError("%s: '%s' is not %s (%s needs %s)"
                                     % (what, obj.Label, noun, sig.quantity, needs))
            else:
                body = obj if is_type(obj, "SimPhant::Body") \
                    else body_of_object(study_bodies(study), obj)
                if body is None or body not in study_bodies(study):
                    raise ModelError("%s: '%s' is not a body of study '%s'"
                                     % (what, obj.Label, study.Label))
                if body.Fixed:
                    raise ModelError("%s: body '%s' is fixed; it has no motion"
                                     % (what, body.Label))
                obj = body
            out[(sig.kind, sig.target)] = obj
    return out


def _solver_names(objects, conv, study):
    """``{(kind, target): solver name}`` in this variant's conversion."""
    maps = {"joint": conv.joint_map, "element": conv.force_map, "driver": conv.driver_map}
    out = {}
    for (kind, target), obj in objects.items():
        if kind in maps:
            out[(kind, target)] = maps[kind][obj.Name].name
            continue
        sb = conv.body_map.get(obj.Name)
        if sb is None or sb.is_ground:
            raise ModelError("'%s' is not a moving body of study '%s'" % (obj.Label,
                                                                        study.Label))
        out[(kind, target)] = sb.name
    return out


def _document_metrics(study, metrics, run, row):
    """Metrics that need the document (``fem.metric``: a CalculiX run per variant) are
    evaluated here, on the client, while the variant's design is set: on a run of the
    variant of its own. A failure leaves the metric NaN with its message."""
    wanted = [m for m in metrics if is_document_metric(m)]
    if not wanted:
        return
    conv = run.conversion
    keys = {name: b.name for name, b in conv.body_map.items()}
    keys.update({b.ShapeObject.Name: keys[b.Name] for b in study_bodies(study)
                 if b.Name in keys and b.ShapeObject is not None})
    keys.update({name: j.name for name, j in conv.joint_map.items()})
    errors = []
    try:
        result = run.execute()
    except ModelError as exc:
        errors = ["%s: %s" % (m.name, exc) for m in wanted]
        wanted = []
    for m in wanted:
        try:
            row[m.name] = float(m.evaluate(study, result, keys))
        except ModelError as exc:
            errors.append("%s: %s" % (m.name, exc))
    if errors:
        row["message"] = "; ".join(errors)


def _invalid_objects(doc):
    return {o.Name for o in doc.Objects if "Invalid" in o.State}


def _auto_batch(n, workers):
    """Variants per task: about 4 tasks per worker (load balance) and at most 50."""
    return max(1, min(50, int(math.ceil(n / float(4 * max(1, workers))))))


class _Fixed:
    """The variants of a fixed design (every point known at the start)."""

    def __init__(self, points):
        self.points = points
        self.n = len(points)

    def may_ask(self, in_flight):
        return True

    def ask(self, index):
        return self.points[index]

    def tell(self, row):
        pass


class _Sweep:
    """One run of ``execute`` (see the module docstring)."""

    def __init__(self, study, spec, progress, cache_dir, retries, worker_timeout):
        require_study(study)
        self.study, self.spec, self.progress = study, spec, progress
        self.doc = study.Document
        self.t_start = time.perf_counter()
        self.cpu0 = time.process_time()
        recompute_touched(study)
        self.targets = [resolve_target(self.doc, v.target) for v in spec.variables]
        named = [("metric '%s'" % m.name, m.signals) for m in spec.metrics] + \
            [("kept series '%s'" % k.name, [k]) for k in spec.keep]
        self.objects = _signal_objects(study, named)
        self.pairs = PairMetrics(study, spec.metrics)
        self.prepared = {}              # variant -> its solids (``PairMetrics.prepare``)
        self.nominal = {v.name: t.get() for v, t in zip(spec.variables, self.targets)}
        self.geometric = any(t.geometric for t in self.targets)
        self.cache = Cache(cache_dir) if cache_dir else None
        self.retries, self.worker_timeout = retries, worker_timeout
        self.rows, self.series, self.pending, self.buffer = [], {}, {}, []
        self.done_queue = queue.Queue()
        self.counts = dict(done=0, failed=0, cached=0, run_done=0, lost=0)
        self.cancelled = False
        self.abort = None               # why the infrastructure ended the sweep
        self.no_workers_since = None
        self.note = ""
        self.series_checked = not spec.keep
        self.invalid_before = _invalid_objects(self.doc)
        self.solver = solver_digest()
        self.stats = dict(variants=spec.size(), executor="", workers=0, batch_size=0,
                          batches=0, retried=0, conversion_time=0.0, sim_time=0.0,
                          sim_cpu_time=0.0, wall_time=0.0, client_cpu_time=0.0,
                          cancelled=False, lost=0, infrastructure="", dashboard="",
                          damaged_cache_entries=0)

    # ------------------------------------------------------------------ rows, progress
    def new_row(self, i, values):
        row = dict(variant=i, status="cancelled")
        row.update({v.name: float(x) for v, x in zip(self.spec.variables, values)})
        row.update({m.name: math.nan for m in self.spec.metrics})
        row.update(message="", warnings="", error="", key="", cached=False, worker="",
                   sim_time=0.0, new_kernels=0)
        self.rows.append(row)
        return row

    def report(self):
        if self.progress is None:
            return
        c = self.counts
        elapsed = time.perf_counter() - self.t_start
        eta = None
        if c["run_done"] > 0 and c["done"]:
            eta = elapsed / c["done"] * (self.source.n - c["done"])
        ex = self.ex
        dashboard = (ex.dashboard or "") if ex.started and ex.ready() else ""
        answer = self.progress(Progress(c["done"], c["failed"], c["cached"], self.source.n,
                                        elapsed, eta, c["lost"], self.note, dashboard))
        if answer is not None and not answer:
            self.cancelled = True

    def finish(self, row, cached=False):
        c = self.counts
        c["done"] += 1
        c["failed"] += row["status"] == "failed"
        c["lost"] += row["status"] == "lost"
        c["cached"] += cached
        c["run_done"] += not cached
        self.source.tell(row)
        self.report()

    def fail(self, i, message, error, status="failed"):
        self.rows[i].update(status=status, message=message, error=error)
        self.finish(self.rows[i])

    # ------------------------------------------------------------------ one variant
    def prepare_variant(self, i):
        """Set variant i in the document and convert it; a Task (or None when done)."""
        row = self.rows[i]
        t0 = time.perf_counter()
        try:
            # references are checked before the variants (``execute``): a variant changes
            # the geometry on purpose
            with unchecked():
                for t, v in zip(self.targets, self.spec.variables):
                    t.set(row[v.name])
                if self.geometric:
                    self.doc.recompute()
                    bad = sorted(_invalid_objects(self.doc) - self.invalid_before)
                    if bad:
                        labels = ", ".join("'%s'" % self.doc.getObject(b).Label for b in bad)
                        raise ModelError("recomputing the document failed at %s" % labels)
                run = prepare(self.study, recompute=False, **self.spec.settings)
            conv = run.conversion
            settings = run.solver_settings()
            names = _solver_names(self.objects, conv, self.study)
            poses, digest, prepared = self.pairs.prepare(conv, self.geometric) \
                if self.pairs else ((), "", None)
        except ModelError as exc:
            self.fail(i, str(study_error(exc, self.study)), type(exc).__name__)
            return None
        except Exception as exc:  # noqa: BLE001 - FreeCAD's own errors: this variant only
            self.fail(i, "Study '%s': %s: %s" % (self.study.Label, type(exc).__name__, exc),
                      type(exc).__name__)
            return None
        finally:
            self.stats["conversion_time"] += time.perf_counter() - t0
        self.check_series_size(conv, settings)
        row["warnings"] = "; ".join(filter(None, (density_warning(bd) for bd in conv.moving)))
        row["key"] = fingerprint(conv.model, settings) or ""
        if digest and row["key"]:       # the solids are not all in the model
            row["key"] = sha256((row["key"] + digest).encode("ascii")).hexdigest()
        if self.from_cache(row):
            return None
        _document_metrics(self.study, self.spec.metrics, run, row)
        self.prepared[i] = prepared
        return Task(i, row["key"], conv.model, settings,
                    [m.resolved(names) for m in self.spec.metrics if isinstance(m, Metric)],
                    [k.resolved(names.get((k.kind, k.target))) for k in self.spec.keep],
                    self.spec.timeout, self.solver, poses)

    def check_series_size(self, conv, settings):
        """``ModelError`` (the whole sweep) when the kept series would not fit in memory."""
        if self.series_checked:
            return
        self.series_checked = True
        frames = result_size(conv, settings)[0]
        nbytes = self.source.n * frames * (len(self.spec.keep) + 1) * 8
        if nbytes > MAX_SERIES_BYTES:
            raise _SweepStop(ModelError(
                "[keep]: %d variants x %d samples x %d series would take about %.3g bytes, "
                "more than the limit of %.3g: keep fewer series, raise the output interval "
                "or run fewer variants" % (self.source.n, frames, len(self.spec.keep) + 1,
                                           nbytes, MAX_SERIES_BYTES)))

    def from_cache(self, row):
        if self.cache is None or not row["key"]:
            return False
        entry = self.cache.get(row["key"], self.spec.metrics, self.spec.keep)
        if entry is None:
            return False
        row.update(status=entry["status"], message=entry.get("message", ""),
                   error=entry.get("error", ""), cached=True,
                   warnings=entry.get("warnings", "") or row["warnings"],
                   sim_time=float(entry.get("sim_time", 0.0)))
        for m in self.spec.metrics:
            value = entry.get("metrics", {}).get(m.name, {}).get("value")
            row[m.name] = math.nan if value is None else float(value)
        if entry["series"]:
            self.series[row["variant"]] = entry["series"]
        self.finish(row, cached=True)
        return True

    def store(self, res):
        """The worker's result ``res`` of one variant into its row (and the cache)."""
        row = self.rows[res["index"]]
        prior = row["message"]        # of the metrics evaluated here (_document_metrics)
        message = res["message"]
        if res["status"] == "failed":
            message = "Study '%s': %s" % (self.study.Label, message)
        warnings = [w for w in (row["warnings"],) + tuple(res.get("warnings", ())) if w]
        row.update(status=res["status"], message=message, error=res["error"],
                   worker=res["worker"], sim_time=res["sim_time"],
                   new_kernels=res["new_kernels"], warnings="; ".join(warnings))
        prepared = self.prepared.pop(res["index"], None)
        if res["status"] == "ok":
            if self.pairs:
                values, errors = self.pairs.evaluate(prepared, res.get("poses", {}))
                res["metrics"].update(values)
                res["metric_errors"].update(errors)
            for name, value in res["metrics"].items():
                row[name] = value
            if res["metric_errors"]:
                row["message"] = "; ".join("%s: %s" % kv
                                           for kv in sorted(res["metric_errors"].items()))
            if prior:
                row["message"] = "; ".join(x for x in (row["message"], prior) if x)
            if res.get("series"):
                self.series[row["variant"]] = res["series"]
        self.stats["sim_time"] += res["sim_time"]
        self.stats["sim_cpu_time"] += res.get("cpu_time", 0.0)
        if self.cache is not None and row["key"]:
            texts = {k.name: k.text for k in self.spec.keep}
            series = {n: (texts[n], t, x) for n, (t, x) in res.get("series", {}).items()}
            self.cache.put(row["key"], row, self.spec.metrics, series)
        self.finish(row)


class _SweepStop(Exception):
    """Raised inside the loop to end the sweep with ``error`` (restoring the document)."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


class _Runner(_Sweep):
    """The loop: variants prepared here, batches on the executor, results collected."""

    def __init__(self, study, spec, ex, progress, cache_dir, batch_size, retries,
                 worker_timeout):
        super().__init__(study, spec, progress, cache_dir, retries, worker_timeout)
        self.ex = ex
        if spec.design == "optimize":
            from .optimize import Optimizer
            self.source = Optimizer(spec, self.nominal, ex.workers)
            self.bsize = 1
        else:
            self.source = _Fixed(spec.points(self.nominal))
            self.bsize = batch_size or spec.batch_size or _auto_batch(self.source.n,
                                                                      ex.workers)
        self.stats["batch_size"] = self.bsize

    def in_flight(self):
        return len(self.buffer) + sum(len(tasks) for tasks, _a in self.pending.values())

    def submit(self, tasks, attempt=0):
        fut = self.ex.submit(tasks)
        self.pending[fut] = (tasks, attempt)
        self.stats["batches"] += 1
        fut.add_done_callback(self.done_queue.put)

    def submit_ready(self, force=False):
        """Submit full batches while the executor is up (all that is left with ``force``)."""
        while self.buffer and (len(self.buffer) >= self.bsize or force):
            if not force and not self.ex.ready():
                return                               # convert on meanwhile
            if not self.ex.ready():
                self.wait_for_executor()
            batch, self.buffer = self.buffer[:self.bsize], self.buffer[self.bsize:]
            self.submit(batch)

    def wait_for_executor(self):
        try:
            self.ex.wait()
        except InfrastructureError as exc:
            raise _SweepStop(exc) from None

    def collect(self, fut):
        tasks, attempt = self.pending.pop(fut)
        try:
            results = fut.result()
        except Exception as exc:  # noqa: BLE001 - lost workers, cancelled futures ...
            if self.cancelled:
                return
            fatal = isinstance(exc, VersionMismatch)
            if not fatal and attempt < self.retries and self.ex.connected():
                self.stats["retried"] += 1
                self.submit(tasks, attempt + 1)
                return
            message = "lost to the infrastructure after %d attempt(s): %s: %s" \
                % (attempt + 1, type(exc).__name__, exc)
            for t in tasks:
                self.fail(t.index, message, type(exc).__name__, status="lost")
            if fatal:
                self.abort = str(exc)
            return
        for res in results:
            self.store(res)

    def drain(self, block):
        while True:
            try:
                fut = self.done_queue.get(block=block, timeout=0.2 if block else None)
            except queue.Empty:
                if block:
                    self.watch()
                    self.report()        # a tick: the ETA moves, a cancel is seen
                return
            if fut in self.pending:
                self.collect(fut)
            block = False

    def watch(self):
        """Stop the sweep when the scheduler is gone or has had no worker for too long."""
        if not (self.ex.started and self.ex.ready()):
            return
        if not self.ex.connected():
            self.abort = "the connection to the Dask scheduler was lost"
            return
        if self.ex.worker_count() > 0:
            self.no_workers_since, self.note = None, ""
            return
        now = time.monotonic()
        self.no_workers_since = self.no_workers_since or now
        waited = now - self.no_workers_since
        where = self.ex.scheduler or "the scheduler"
        self.note = "waiting for Dask workers on %s (%.0f s): start one with 'dask worker " \
                    "%s --nthreads 1'" % (where, waited, where)
        if waited > self.worker_timeout:
            self.abort = "no Dask worker connected to %s within %g s: start workers with " \
                         "'dask worker %s --nthreads 1'" % (where, self.worker_timeout, where)

    def loop(self):
        i = 0
        while i < self.source.n and not self.cancelled and not self.abort:
            if not self.source.may_ask(self.in_flight()):
                self.submit_ready(force=True)
                self.drain(block=True)
                continue
            self.new_row(i, self.source.ask(i))
            task = self.prepare_variant(i)
            if task is not None:
                self.buffer.append(task)
                self.ex.start()
            self.submit_ready(force=self.spec.design == "optimize")
            self.drain(block=False)
            i += 1
        if not self.cancelled and not self.abort:
            self.submit_ready(force=True)
        while self.pending and not self.cancelled and not self.abort:
            self.drain(block=True)

    def run(self):
        """Run the loop; the rows and statistics."""
        try:
            self.report()
            self.loop()
        except KeyboardInterrupt:
            self.cancelled = True
        except _SweepStop as stop:
            if not isinstance(stop.error, InfrastructureError):
                raise stop.error from None
            self.abort = str(stop.error)
        if self.ex.started and self.ex.ready():
            self.stats["executor"] = self.ex.describe()
            self.stats["workers"] = self.ex.worker_count()
        elif not self.ex.started:
            self.stats["executor"] = "none (every variant from the cache)" \
                if self.rows else "none"
        self.stats["dashboard"] = getattr(self.ex, "dashboard", None) or ""
        self.stats["dashboard_note"] = getattr(self.ex, "dashboard_note", None) or ""
        if self.cancelled or self.abort:
            for fut in list(self.pending):          # keep what has finished meanwhile
                if fut.done() and not fut.cancelled():
                    self.collect(fut)
            self.ex.cancel(self.pending)
            self.stats["cancelled"] = self.cancelled
        self.close_rows()

    def close_rows(self):
        """Rows of the variants not run (a fixed design has a row for every variant)."""
        if self.spec.design != "optimize":
            for i in range(len(self.rows), self.source.n):
                self.new_row(i, self.source.ask(i))
        for row in self.rows:
            if row["status"] == "cancelled" and self.abort:
                row.update(status="lost", message=self.abort, error="Infrastructure")
            elif row["status"] == "cancelled" and not row["message"]:
                row["message"] = "not run: the sweep was cancelled"
        if self.abort:
            self.stats["infrastructure"] = self.abort
        self.stats["lost"] = sum(1 for r in self.rows if r["status"] == "lost")
        if self.cache is not None:
            self.stats["damaged_cache_entries"] = self.cache.damaged


def execute(study, spec, executor=None, scheduler=None, workers=None, client=None,
            cache_dir=None, progress=None, batch_size=None, connect_timeout=CONNECT_TIMEOUT,
            worker_timeout=WORKER_TIMEOUT, retries=RETRIES):
    """Run ``spec`` on ``study``; a ``SweepOutcome``. See the module docstring.

    Parameters
    ----------
    executor : "dask" | "in-process", optional
        Default: Dask on all local cores when it is installed.
    scheduler : str, optional
        Address of an existing Dask scheduler ("tcp://host:8786").
    workers : int, optional
        Worker processes of the embedded local cluster (default: all cores).
    client : distributed.Client, optional
        An existing Dask client to use (not closed at the end).
    cache_dir : str, optional
        Directory of the result cache (see ``cache.Cache``).
    progress : callable(Progress) -> bool, optional
        Return False to cancel.
    batch_size : int, optional
        Variants per task (default: the specification's, else automatic).
    connect_timeout, worker_timeout : float, seconds
        To reach a scheduler; that a scheduler may have no worker while variants wait.
    retries : int
        Submissions of a batch again after the infrastructure lost it.
    """
    try:
        check_references(study)   # variants change geometry on purpose: not compared
    except ModelError as exc:
        raise study_error(exc, study) from None
    ex = make_executor(executor, scheduler=scheduler, workers=workers, client=client,
                       connect_timeout=connect_timeout)
    with ex:
        runner = _Runner(study, spec, ex, progress, cache_dir, batch_size, retries,
                         worker_timeout)
        for t in runner.targets:
            t.remember()
        try:
            with solid_property_cache():
                runner.run()
        finally:
            _restore(runner)
            if runner.cache is not None:
                runner.cache.close()
    return SweepOutcome(spec, runner.rows, runner.stats, runner.series)


def _restore(runner):
    for t in runner.targets:
        t.restore()
    if runner.geometric:
        runner.doc.recompute()
    else:
        for t in runner.targets:
            t.obj.purgeTouched()
    runner.stats["wall_time"] = time.perf_counter() - runner.t_start
    runner.stats["client_cpu_time"] = time.process_time() - runner.cpu0
