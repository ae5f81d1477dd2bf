"""Running a parameter study: variants converted here, simulated by an executor.

For each variant of the design the client (this process, the one with FreeCAD)
sets the design variables in the document, recomputes it when a variable is
geometric, converts the study into a pure solver ``Model`` and hands it, in
batches, to the executor (``executors``): the workers need only the solver.
Conversion of the next variants goes on while earlier batches run.

* A variant that cannot be converted or simulated (bad geometry, an assembly
  or integration error) is recorded as ``failed`` with its message; the sweep
  goes on.
* ``progress(state)`` may return False to cancel; Ctrl-C (KeyboardInterrupt)
  cancels too. Finished variants are kept (and cached), the others are
  ``cancelled``.
* With a cache directory, each finished variant is stored under its model
  fingerprint (``solver.batch.fingerprint``: the converted model and the
  simulation settings); a rerun finds it and does not simulate again.
* The document is restored: every design variable gets its original value
  back (and the document is recomputed) whatever happens.
"""
import json
import math
import os
import queue
import tempfile
import time
from collections import namedtuple

import numpy as np

from ..document.bodies import body_of_object
from ..document.massprops import solid_property_cache
from ..document.base import is_type, require_study, study_bodies
from ..run import prepare, recompute_touched, study_error
from ..solver import ModelError
from ..solver.batch import Task, fingerprint
from .executors import make_executor
from .targets import find_object, resolve_target

__all__ = ["Progress", "SweepOutcome", "Cache", "execute", "STATUSES"]

#: a variant's status: simulated, failed (message says why), not run (cancelled)
STATUSES = ("ok", "failed", "cancelled")

#: what ``progress`` is called with: variants finished (ok + failed), failed, from
#: the cache, total, seconds since the start, estimated seconds to go (None early on)
Progress = namedtuple("Progress", ["done", "failed", "cached", "total", "elapsed", "eta"])

#: extra columns of every row, after the variables and metrics
INFO_COLUMNS = ("message", "error", "key", "cached", "worker", "sim_time", "new_kernels")


class Cache:
    """Finished variants on disk, one JSON file per model fingerprint."""

    def __init__(self, directory):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def _path(self, key):
        return os.path.join(self.directory, "%s.json" % key)

    def get(self, key, metrics):
        """The stored entry of ``key`` if it has every metric of ``metrics`` (same
        expressions), else None."""
        try:
            with open(self._path(key)) as fh:
                entry = json.load(fh)
        except (OSError, ValueError):
            return None
        if entry.get("status") == "ok":
            stored = entry.get("metrics", {})
            for m in metrics:
                if m.name not in stored or stored[m.name].get("text") != m.text:
                    return None
        return entry

    def put(self, key, row, metrics):
        """Store a finished variant (written to a temporary file, then moved in place)."""
        old = None
        try:
            with open(self._path(key)) as fh:
                old = json.load(fh)
        except (OSError, ValueError):
            pass
        stored = dict(old.get("metrics", {})) if old and old.get("status") == "ok" else {}
        for m in metrics:
            value = row.get(m.name)
            stored[m.name] = {"text": m.text,
                              "value": None if value is None or math.isnan(value) else value}
        entry = dict(status=row["status"], message=row["message"], error=row["error"],
                     metrics=stored if row["status"] == "ok" else {},
                     sim_time=row["sim_time"])
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(entry, fh)
        os.replace(tmp, self._path(key))


class SweepOutcome:
    """The rows of a sweep (one dict per variant, in design order) and its statistics."""

    def __init__(self, spec, rows, stats):
        self.spec = spec
        self.rows = rows
        self.stats = stats

    @property
    def columns(self):
        return ["variant", "status"] + self.spec.variable_names + self.spec.metric_names \
            + list(INFO_COLUMNS)

    def count(self, status):
        return sum(1 for r in self.rows if r["status"] == status)

    def best(self):
        """The best finished row by the specification's objective, or None."""
        if not self.spec.objective:
            return None
        sense, metric = self.spec.objective
        ok = [r for r in self.rows if r["status"] == "ok" and not math.isnan(r[metric])]
        if not ok:
            return None
        pick = min if sense == "minimize" else max
        return pick(ok, key=lambda r: r[metric])

    def table(self):
        """A pandas DataFrame if pandas is installed, else a NumPy structured array."""
        cols = self.columns
        try:
            import pandas as pd
        except ImportError:
            pd = None
        if pd is not None:
            df = pd.DataFrame([[r[c] for c in cols] for r in self.rows], columns=cols)
            df.attrs["sweep"] = dict(self.stats)
            return df
        numeric = set(self.spec.variable_names) | set(self.spec.metric_names) | {"sim_time"}
        dtype = []
        for c in cols:
            if c in numeric:
                dtype.append((c, "f8"))
            elif c in ("variant", "new_kernels"):
                dtype.append((c, "i8"))
            elif c == "cached":
                dtype.append((c, "?"))
            else:
                width = max([len(str(r[c])) for r in self.rows] + [1])
                dtype.append((c, "U%d" % width))
        return np.array([tuple(r[c] for c in cols) for r in self.rows], dtype=dtype)


def _resolve_metric_objects(study, metrics):
    """Document objects named by the metrics (checked before anything runs)."""
    out = {}
    for m in metrics:
        if m.kind == "system":
            continue
        obj = find_object(study.Document, m.target, "metric '%s'" % m.name)
        if m.kind == "joint" and not is_type(obj, "SimPhant::Joint"):
            raise ModelError("metric '%s': '%s' is not a SimPhant joint (%s needs a joint)"
                             % (m.name, obj.Label, m.quantity))
        if m.kind == "element" and not is_type(obj, "SimPhant::ForceElement"):
            raise ModelError("metric '%s': '%s' is not a SimPhant force element (%s needs a "
                             "spring, damper or actuator)" % (m.name, obj.Label, m.quantity))
        if m.kind == "driver" and not is_type(obj, "SimPhant::Driver"):
            raise ModelError("metric '%s': '%s' is not a SimPhant driver (%s needs a driver)"
                             % (m.name, obj.Label, m.quantity))
        if m.kind in ("body", "document"):
            body = obj if is_type(obj, "SimPhant::Body") \
                else body_of_object(study_bodies(study), obj)
            if body is None or body not in study_bodies(study):
                raise ModelError("metric '%s': '%s' is not a body of study '%s'"
                                 % (m.name, obj.Label, study.Label))
            if body.Fixed:
                raise ModelError("metric '%s': body '%s' is fixed; it has no motion"
                                 % (m.name, body.Label))
        out[m.name] = obj
    return out


def _solver_names(metrics, objects, conv, study):
    """The metrics resolved to this conversion's solver body/joint names."""
    resolved = []
    for m in metrics:
        if m.kind == "document":          # evaluated here, not by the workers
            continue
        if m.kind == "system":
            resolved.append(m)
            continue
        obj = objects[m.name]
        if m.kind == "joint":
            resolved.append(m.resolved(conv.joint_map[obj.Name].name))
            continue
        if m.kind == "element":
            resolved.append(m.resolved(conv.force_map[obj.Name].name))
        if m.kind == "driver":
            resolved.append(m.resolved(conv.driver_map[obj.Name].name))
            continue
        body = obj if is_type(obj, "SimPhant::Body") else body_of_object(study_bodies(study), obj)
        if body is None or body.Name not in conv.body_map:
            raise ModelError("metric '%s': '%s' is not a body of study '%s'"
                             % (m.name, obj.Label, study.Label))
        sb = conv.body_map[body.Name]
        if sb.is_ground:
            raise ModelError("metric '%s': body '%s' is fixed; it has no motion"
                             % (m.name, body.Label))
        resolved.append(m.resolved(sb.name))
    return resolved


def _document_metrics(study, metrics, run, row):
    """Metrics that need the document (``fem.metric``: a CalculiX run per variant) are
    evaluated here, on the client, while the variant's design is set: on a run of the
    variant of its own. A failure leaves the metric NaN with its message."""
    wanted = [m for m in metrics if m.kind == "document"]
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


def execute(study, spec, executor=None, scheduler=None, workers=None, client=None,
            cache_dir=None, progress=None, batch_size=None):
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
        Directory of the result cache (see ``Cache``).
    progress : callable(Progress) -> bool, optional
        Return False to cancel.
    batch_size : int, optional
        Variants per task (default: the specification's, else automatic).
    """
    require_study(study)
    doc = study.Document
    t_start = time.perf_counter()
    recompute_touched(study)
    targets = [resolve_target(doc, v.target) for v in spec.variables]
    metric_objects = _resolve_metric_objects(study, spec.metrics)
    nominal = {v.name: t.get() for v, t in zip(spec.variables, targets)}
    points = spec.points(nominal)
    n = len(points)
    geometric = any(t.geometric for t in targets)
    cache = Cache(cache_dir) if cache_dir else None
    rows = []
    for i, values in enumerate(points):
        row = dict(variant=i, status="cancelled")
        row.update({v.name: float(x) for v, x in zip(spec.variables, values)})
        row.update({m.name: math.nan for m in spec.metrics})
        row.update(message="", error="", key="", cached=False, worker="", sim_time=0.0,
                   new_kernels=0)
        rows.append(row)
    stats = dict(variants=n, executor="", workers=0, batch_size=0, batches=0,
                 conversion_time=0.0, sim_time=0.0, sim_cpu_time=0.0, wall_time=0.0,
                 client_cpu_time=0.0, cancelled=False)
    cpu0 = time.process_time()
    counts = dict(done=0, failed=0, cached=0, run_done=0)
    cancel = dict(requested=False)
    invalid_before = _invalid_objects(doc)

    def report():
        if progress is None:
            return
        elapsed = time.perf_counter() - t_start
        remaining = n - counts["done"]
        eta = None
        if counts["run_done"] > 0:
            eta = elapsed / counts["done"] * remaining if counts["done"] else None
        answer = progress(Progress(counts["done"], counts["failed"], counts["cached"], n,
                                   elapsed, eta))
        if answer is not None and not answer:
            cancel["requested"] = True

    def finish(row, cached=False):
        counts["done"] += 1
        if row["status"] == "failed":
            counts["failed"] += 1
        if cached:
            counts["cached"] += 1
        else:
            counts["run_done"] += 1
        report()

    def fail(i, message, error):
        rows[i].update(status="failed", message=message, error=error)
        finish(rows[i])

    def prepare_variant(i):
        """Set variant i in the document and convert it; a Task (or None when done)."""
        row = rows[i]
        t0 = time.perf_counter()
        try:
            for t, v in zip(targets, spec.variables):
                t.set(row[v.name])
            if geometric:
                doc.recompute()
                bad = sorted(_invalid_objects(doc) - invalid_before)
                if bad:
                    labels = ", ".join("'%s'" % doc.getObject(b).Label for b in bad)
                    raise ModelError("recomputing the document failed at %s" % labels)
            run = prepare(study, recompute=False, **spec.settings)
            conv = run.conversion
            settings = run.solver_settings()
            metrics = _solver_names(spec.metrics, metric_objects, conv, study)
        except ModelError as exc:
            fail(i, str(study_error(exc, study)), type(exc).__name__)
            return None
        except Exception as exc:  # noqa: BLE001 - FreeCAD's own errors: this variant only
            fail(i, "Study '%s': %s: %s" % (study.Label, type(exc).__name__, exc),
                 type(exc).__name__)
            return None
        finally:
            stats["conversion_time"] += time.perf_counter() - t0
        key = fingerprint(conv.model, settings) or ""
        row["key"] = key
        if cache is not None and key:
            entry = cache.get(key, spec.metrics)
            if entry is not None:
                row.update(status=entry["status"], message=entry.get("message", ""),
                           error=entry.get("error", ""), cached=True,
                           sim_time=float(entry.get("sim_time", 0.0)))
                for m in spec.metrics:
                    value = entry.get("metrics", {}).get(m.name, {}).get("value")
                    row[m.name] = math.nan if value is None else float(value)
                finish(row, cached=True)
                return None
        _document_metrics(study, spec.metrics, run, row)
        return Task(i, key, conv.model, settings, metrics)

    def collect(fut, indices):
        try:
            results = fut.result()
        except Exception as exc:  # noqa: BLE001 - lost workers, cancelled futures
            for i in indices:
                if rows[i]["status"] == "cancelled" and not cancel["requested"]:
                    fail(i, "the task was lost: %s: %s" % (type(exc).__name__, exc),
                         type(exc).__name__)
            return
        for res in results:
            row = rows[res["index"]]
            prior = row["message"]        # of the metrics evaluated here (_document_metrics)
            message = res["message"]
            if res["status"] == "failed":
                message = "Study '%s': %s" % (study.Label, message)
            row.update(status=res["status"], message=message, error=res["error"],
                       worker=res["worker"], sim_time=res["sim_time"],
                       new_kernels=res["new_kernels"])
            if res["status"] == "ok":
                for name, value in res["metrics"].items():
                    row[name] = value
                if res["metric_errors"]:
                    row["message"] = "; ".join("%s: %s" % kv
                                               for kv in sorted(res["metric_errors"].items()))
                if prior:
                    row["message"] = "; ".join(x for x in (row["message"], prior) if x)
            stats["sim_time"] += res["sim_time"]
            stats["sim_cpu_time"] += res.get("cpu_time", 0.0)
            if cache is not None and row["key"]:
                cache.put(row["key"], row, spec.metrics)
            finish(row)

    for t in targets:
        t.remember()
    pending = {}
    done_queue = queue.Queue()
    ex = make_executor(executor, scheduler=scheduler, workers=workers, client=client)
    try:
        with ex, solid_property_cache():
            # the number of workers may only be known once the cluster is up; the
            # batch size is then fixed from what is known at the start
            bsize = batch_size or spec.batch_size or _auto_batch(n, ex.workers)
            stats["batch_size"] = bsize

            def drain(block):
                while True:
                    try:
                        fut = done_queue.get(block=block, timeout=0.2 if block else None)
                    except queue.Empty:
                        if block:
                            report()        # a tick: the ETA moves, a cancel is seen
                        return
                    collect(fut, pending.pop(fut))
                    block = False

            def submit(tasks):
                fut = ex.submit(tasks)
                pending[fut] = [t.index for t in tasks]
                stats["batches"] += 1
                fut.add_done_callback(done_queue.put)

            try:
                report()
                buffer = []
                for i in range(n):
                    if cancel["requested"]:
                        break
                    task = prepare_variant(i)
                    if task is not None:
                        buffer.append(task)
                    while len(buffer) >= bsize and ex.ready():     # else: convert on
                        submit(buffer[:bsize])
                        buffer = buffer[bsize:]
                    drain(block=False)
                if not cancel["requested"]:
                    ex.wait()
                    while buffer:
                        submit(buffer[:bsize])
                        buffer = buffer[bsize:]
                while pending and not cancel["requested"]:
                    drain(block=True)
            except KeyboardInterrupt:
                cancel["requested"] = True
            if ex.ready():
                stats["executor"] = ex.describe()
                stats["workers"] = ex.workers
            if cancel["requested"]:
                for fut in list(pending):          # keep what has finished meanwhile
                    if fut.done() and not fut.cancelled():
                        collect(fut, pending.pop(fut))
                ex.cancel(pending)
                stats["cancelled"] = True
    finally:
        for t in targets:
            t.restore()
        if geometric:
            doc.recompute()
        else:
            for t in targets:
                t.obj.purgeTouched()
        stats["wall_time"] = time.perf_counter() - t_start
        stats["client_cpu_time"] = time.process_time() - cpu0
    for row in rows:
        if row["status"] == "cancelled" and not row["message"]:
            row["message"] = "not run: the sweep was cancelled"
    return SweepOutcome(spec, rows, stats)
