"""Where the variants run: in this process, or on Dask (a local cluster or a scheduler).

An executor takes batches of solver tasks (``solver.batch.Task``) and returns
futures of ``solver.batch.run_batch``'s lists. No FreeCAD here and none on the
workers: a Dask worker needs this package's solver (numpy, scipy, numba).

* ``InProcess``: runs each batch when it is submitted (the reference, and the
  fallback without Dask).
* ``DaskExecutor``: ``dask.distributed``. Without an address it starts a
  ``LocalCluster`` of worker processes on this machine (one thread each,
  listening on localhost only) and stops it when done; with ``scheduler`` it
  sends the same work to an existing scheduler. The cluster starts (or the
  client connects) in the background while the caller converts the first
  variants (``ready``, ``wait``). A worker lost mid-task has its
  tasks rescheduled by Dask itself (``distributed.scheduler.allowed-failures``
  times); a batch that still fails comes back as an exception.
"""
import concurrent.futures
import os
import shutil
import sys
import threading
import uuid

from ..solver.batch import run_batch

__all__ = ["InProcess", "DaskExecutor", "make_executor", "dask_available", "default_workers",
           "python_executable"]


def dask_available():
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def python_executable():
    """A Python interpreter for worker processes when this process is not one.

    Inside FreeCAD (``freecad``, ``freecadcmd``) ``sys.executable`` is FreeCAD's
    binary, which cannot start a worker; the Python it embeds (same version) can.
    None when ``sys.executable`` is fine.
    """
    exe = sys.executable or ""
    if os.path.basename(exe).startswith("python"):
        return None
    version = "python%d.%d" % sys.version_info[:2]
    for candidate in (os.path.join(sys.base_prefix, "bin", version), shutil.which(version),
                      os.path.join(sys.base_prefix, "bin", "python3")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def default_workers():
    """All local cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


class InProcess:
    """Runs batches here, one after the other, when they are submitted."""

    name = "in-process"
    workers = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def ready(self):
        return True

    def wait(self):
        pass

    def submit(self, tasks):
        fut = concurrent.futures.Future()
        try:
            fut.set_result(run_batch(tasks))
        except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt goes on below
            fut.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        return fut

    def cancel(self, futures):
        pass

    def describe(self):
        return "in this process"


class DaskExecutor:
    """``dask.distributed``: an embedded ``LocalCluster`` or an existing scheduler/client."""

    name = "dask"

    def __init__(self, scheduler=None, workers=None, client=None):
        try:
            import distributed
        except ImportError:
            raise RuntimeError("Dask is not installed (python3-distributed, or pip install "
                               "distributed); run with the in-process executor instead") from None
        self._distributed = distributed
        self.scheduler = scheduler
        self.requested_workers = workers
        self.client = client
        self._own_client = client is None
        self.cluster = None
        self._tag = uuid.uuid4().hex[:8]
        self._count = 0
        self._thread = None
        self._start_error = None

    def __enter__(self):
        """Connect, or start the local cluster in the background (see ``ready``)."""
        if self.client is None:
            self._thread = threading.Thread(target=self._start, name="simphant-dask-start",
                                            daemon=True)
            self._thread.start()
        return self

    def _start(self):
        d = self._distributed
        try:
            if self.scheduler:
                client = d.Client(self.scheduler, timeout="30s")
            else:
                n = self.requested_workers or default_workers()
                exe = python_executable()
                if exe is not None:
                    import multiprocessing
                    multiprocessing.set_executable(exe)
                self.cluster = d.LocalCluster(n_workers=n, threads_per_worker=1,
                                              processes=True, host="127.0.0.1",
                                              dashboard_address="127.0.0.1:0")
                client = d.Client(self.cluster)
            self.client = client
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            self._start_error = exc

    def ready(self):
        """True once the cluster is up: the caller converts variants meanwhile."""
        return self._thread is None or not self._thread.is_alive()

    def wait(self):
        """Block until the cluster is up; raise what starting it raised."""
        if self._thread is not None:
            while self._thread.is_alive():
                self._thread.join(0.2)          # short joins: Ctrl-C stays responsive
            self._thread = None
        if self._start_error is not None:
            exc, self._start_error = self._start_error, None
            if isinstance(exc, OSError):
                raise RuntimeError("cannot reach the Dask scheduler %s: %s"
                                   % (self.scheduler, exc)) from None
            raise exc

    def __exit__(self, *exc):
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._own_client and self.client is not None:
            try:
                self.client.close()
            finally:
                if self.cluster is not None:
                    self.cluster.close()
        return False

    @property
    def workers(self):
        """Worker count: the cluster's (waits for a scheduler connection, which is quick);
        while a local cluster is starting, the number it is starting."""
        if self.client is None and self.scheduler:
            self.wait()
        if self.client is None:
            return self.requested_workers or default_workers()
        try:
            return max(1, len(self.client.scheduler_info()["workers"]))
        except Exception:  # noqa: BLE001 - informative only
            return self.requested_workers or 1

    def submit(self, tasks):
        self.wait()
        self._count += 1
        key = "simphant-sweep-%s-%d" % (self._tag, self._count)
        return self.client.submit(run_batch, tasks, key=key, pure=False)

    def cancel(self, futures):
        try:
            self.client.cancel(list(futures))
        except Exception:  # noqa: BLE001 - the client may already be gone
            pass

    def describe(self):
        if self.client is None:
            return "Dask (not connected)"
        where = self.scheduler or ("local cluster" if self.cluster is not None else "client")
        return "Dask (%s, %d workers)" % (where, self.workers)


def make_executor(executor=None, scheduler=None, workers=None, client=None):
    """The executor to use: ``"dask"`` (default when Dask is installed), ``"in-process"``."""
    if client is not None or scheduler:
        return DaskExecutor(scheduler=scheduler, workers=workers, client=client)
    if executor is None:
        executor = "dask" if dask_available() and (workers or default_workers()) > 1 \
            else "in-process"
    if executor == "dask":
        return DaskExecutor(workers=workers)
    if executor in ("in-process", "serial"):
        return InProcess()
    raise ValueError("executor must be 'dask' or 'in-process', got %r" % (executor,))
