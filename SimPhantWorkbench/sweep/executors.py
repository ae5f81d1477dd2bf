"""Where the variants run: in this process, or on Dask (a local cluster or a scheduler).

An executor takes batches of solver tasks (``solver.batch.Task``) and returns
futures of ``solver.batch.run_batch``'s lists. No FreeCAD here and none on the
workers: a Dask worker needs this package's solver (numpy, scipy, numba).

* ``InProcess``: runs each batch when it is submitted (the reference, and the
  fallback without Dask).
* ``DaskExecutor``: ``dask.distributed``, started by ``start()`` when the first
  variant needs simulating (a rerun served by the cache starts nothing), in the
  background while the caller converts the next variants (``ready``, ``wait``).
  Without an address it runs a scheduler in this process and one single-threaded
  worker process per core, started as ``python -m distributed.cli.dask_worker``
  (not by ``multiprocessing``, which would re-import the caller's script in each
  worker: a script without ``if __name__ == "__main__":`` would start sweeps
  there); a worker process that ends while starting is started again
  (``WORKER_START_ATTEMPTS``). This embedded cluster listens on 127.0.0.1 only and talks TLS with a
  certificate made for this run (``distributed.Security.temporary``) that only
  this process and its workers hold: no other process can submit work to it.
  With ``scheduler`` it connects to an existing scheduler (``connect_timeout``;
  a refused connection fails at once). Either way the workers' solver sources
  are compared with this process's at connect (``solver.batch.solver_digest``)
  and every task carries the digest, so a worker running another SimPhant
  refuses the work instead of returning its numbers (``InfrastructureError``).

A worker lost mid-task has its tasks rescheduled by Dask itself
(``distributed.scheduler.allowed-failures`` times); a batch that still fails
comes back as an exception, which the engine retries and then reports as an
infrastructure failure, apart from the model's own failures.
"""
import asyncio
import concurrent.futures
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from ..solver import ModelError
from ..solver.batch import run_batch, solver_digest

__all__ = ["InProcess", "DaskExecutor", "make_executor", "dask_available", "default_workers",
           "python_executable", "check_address", "InfrastructureError", "dashboard_problem",
           "CONNECT_TIMEOUT", "WORKER_START_TIMEOUT", "WORKER_START_ATTEMPTS"]

#: seconds to reach a scheduler (``--connect-timeout``)
CONNECT_TIMEOUT = 10.0
#: seconds the embedded cluster's worker processes may take to start
WORKER_START_TIMEOUT = 120.0
#: seconds past those a start may take before the caller stops waiting for it
START_MARGIN = 10.0
#: starts of an embedded-cluster worker process that ends while starting, before the start
#: fails: workers that register over TLS at the same moment sometimes lose that first
#: connection (seen with Dask 2024.12 on Python 3.13 and OpenSSL 3.5, about one start in
#: five with two workers); started again, a worker registers
WORKER_START_ATTEMPTS = 3


class InfrastructureError(RuntimeError):
    """The cluster cannot do the work: unreachable, no workers, other solver sources."""


def dask_available():
    """``distributed`` importable, and ``cryptography`` for the embedded cluster's TLS."""
    try:
        import cryptography  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def dashboard_problem():
    """None when Dask can serve its dashboard here, else why not (naming the package)."""
    try:
        import distributed.dashboard.core  # noqa: F401
    except ImportError as exc:
        return "the Dask dashboard needs bokeh (%s; make setup installs it)" % exc
    except Exception as exc:  # noqa: BLE001 - bokeh's own import problems
        return "the Dask dashboard cannot start: %s: %s" % (type(exc).__name__, exc)
    return None


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


def check_address(address):
    """``(address, host, port)`` of a scheduler address (``tcp://HOST:PORT``, ``tls://...``,
    ``HOST:PORT``); ``ModelError`` (bad input) naming it when it is malformed."""
    text = str(address).strip()
    what = "scheduler address %r" % (address,)
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in ("tcp", "tls"):
        raise ModelError("%s: the protocol must be tcp:// or tls://, got %s://" % (what, scheme))
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 \
            or any(c.isspace() or c in "/?#@" for c in host):
        raise ModelError("%s: expected tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)" % what)
    return "%s://%s" % (scheme, rest), host, int(port)


class InProcess:
    """Runs batches here, one after the other, when they are submitted."""

    name = "in-process"
    workers = 1
    dashboard = None
    dashboard_note = None
    started = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def start(self):
        self.started = True

    def ready(self):
        return True

    def wait(self):
        pass

    def worker_count(self):
        return 1

    def connected(self):
        return True

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


class _WorkerProcesses:
    """The embedded cluster's worker processes (``dask worker`` command lines)."""

    def __init__(self, address, n, security):
        self.dir = tempfile.mkdtemp(prefix="simphant-dask-")     # mode 0700
        cert = os.path.join(self.dir, "cert.pem")
        key = os.path.join(self.dir, "key.pem")
        for path, text in ((cert, security.tls_worker_cert), (key, security.tls_worker_key)):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(text)
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
        exe = python_executable() or sys.executable
        self.cmds = [[exe, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                      "--nworkers", "1", "--host", "127.0.0.1", "--no-dashboard",
                      "--memory-limit", "0", "--death-timeout", "60",
                      "--local-directory", os.path.join(self.dir, "w%d" % k),
                      "--name", "simphant-%d" % k,
                      "--tls-ca-file", cert, "--tls-cert", cert, "--tls-key", key]
                     for k in range(n)]
        self.logs = [open(os.path.join(self.dir, "worker%d.log" % k), "ab") for k in range(n)]
        self.attempts = [0] * n
        self.procs = [None] * n
        for k in range(n):
            self._spawn(k)

    def _spawn(self, k):
        self.attempts[k] += 1
        self.logs[k].write(b"--- start %d of worker simphant-%d\n" % (self.attempts[k], k))
        self.logs[k].flush()
        self.procs[k] = subprocess.Popen(self.cmds[k], env=self.env, stdin=subprocess.DEVNULL,
                                         stdout=self.logs[k], stderr=subprocess.STDOUT)

    def check(self):
        """Start again a worker process that ended while starting (``WORKER_START_ATTEMPTS``
        starts in all); ``InfrastructureError`` with its log once it has used them. Returns
        the number started again now."""
        again = 0
        for k, p in enumerate(self.procs):
            if p.poll() is None:
                continue
            if self.attempts[k] < WORKER_START_ATTEMPTS:
                self._spawn(k)
                again += 1
                continue
            with open(os.path.join(self.dir, "worker%d.log" % k), "rb") as fh:
                tail = fh.read().decode("utf-8", "replace").strip().splitlines()[-8:]
            raise InfrastructureError("a worker process of the local cluster ended at start "
                                      "%d times (last exit %s): %s"
                                      % (self.attempts[k], p.returncode, " | ".join(tail)))
        return again

    def alive(self):
        return all(p.poll() is None for p in self.procs)

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + 10.0
        for p in self.procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for log in self.logs:
            log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def ignore_broken_pipes():
    """Ignore SIGPIPE in this process, as Python itself does when it starts; from the main
    thread only (Python's rule for signal handlers), else nothing.

    A Dask connection closed by its peer (a worker that ended) is then an error Dask
    handles (EPIPE). FreeCAD 1.x leaves SIGPIPE at its default, which ends the process:
    the user's FreeCAD would close on the first write to such a connection."""
    if not hasattr(signal, "SIGPIPE") \
            or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGPIPE) == signal.SIG_DFL:
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)


class DaskExecutor:
    """``dask.distributed``: an embedded cluster or an existing scheduler/client."""

    name = "dask"

    def __init__(self, scheduler=None, workers=None, client=None,
                 connect_timeout=CONNECT_TIMEOUT):
        try:
            import distributed
        except ImportError:
            raise InfrastructureError("Dask is not installed (python3-distributed, or pip "
                                      "install distributed); run with the in-process "
                                      "executor instead") from None
        self._distributed = distributed
        self.scheduler = check_address(scheduler)[0] if scheduler else None
        self.requested_workers = workers
        self.client = client
        self.connect_timeout = float(connect_timeout)
        self._own_client = client is None
        self.cluster = None
        self.processes = None
        self.dashboard = None
        self.dashboard_note = None
        self._tag = uuid.uuid4().hex[:8]
        self._count = 0
        self._thread = None
        self._start_error = None
        self._t0 = None
        self._limit = None
        self.started = client is not None

    def __enter__(self):
        return self

    def start(self):
        """Connect, or start the local cluster, in the background (see ``ready``)."""
        if self.started:
            return
        self.started = True
        ignore_broken_pipes()
        # however Dask behaves, the caller waits no longer than this for the start
        self._t0 = time.monotonic()
        self._limit = self.connect_timeout + 3.0 if self.scheduler \
            else WORKER_START_TIMEOUT + START_MARGIN
        self._thread = threading.Thread(target=self._start, name="simphant-dask-start",
                                        daemon=True)
        self._thread.start()

    def _start(self):
        try:
            if self.scheduler:
                self._connect()
            else:
                self._launch()
            self._check_versions()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            self._start_error = exc

    def _connect(self):
        address, host, port = check_address(self.scheduler)
        t0 = time.monotonic()
        try:                  # a refused connection fails at once, not after the timeout
            socket.create_connection((host, port), timeout=self.connect_timeout).close()
            self.client = self._distributed.Client(address, timeout=self.connect_timeout)
        except (OSError, asyncio.TimeoutError) as exc:
            raise InfrastructureError(
                "cannot reach the Dask scheduler %s after %.1f s (timeout %g s): %s"
                % (address, time.monotonic() - t0, self.connect_timeout,
                   exc or type(exc).__name__)) from None
        try:
            self.dashboard = self.client.dashboard_link
        except Exception:  # noqa: BLE001 - a scheduler without a dashboard
            self.dashboard = None

    def _launch(self):
        d = self._distributed
        try:
            security = d.Security.temporary()
        except ImportError:
            raise InfrastructureError("the local Dask cluster needs cryptography for its TLS "
                                      "(python3-cryptography); run in this process instead "
                                      "(--workers 1)") from None
        self.dashboard_note = dashboard_problem()
        # the scheduler's HTTP server (the dashboard with bokeh, else its status pages) on
        # localhost only, on a free port
        self.cluster = d.LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                                      protocol="tls://", security=security,
                                      dashboard_address="127.0.0.1:0")
        self.client = d.Client(self.cluster, security=security)
        if self.dashboard_note is None:
            self.dashboard = self.cluster.dashboard_link
        n = self.requested_workers or default_workers()
        self.processes = _WorkerProcesses(self.cluster.scheduler_address, n, security)
        deadline = time.monotonic() + WORKER_START_TIMEOUT
        settled = 0
        while settled < 2:             # all registered and alive on two polls in a row
            self.processes.check()
            if time.monotonic() > deadline:
                raise InfrastructureError("the local cluster's %d workers did not start "
                                          "within %g s" % (n, WORKER_START_TIMEOUT))
            time.sleep(0.1)
            up = self.worker_count() >= n and self.processes.alive()
            settled = settled + 1 if up else 0

    def _check_versions(self):
        """``InfrastructureError`` when a connected worker runs other solver sources."""
        if self.worker_count() == 0:
            return                    # checked per task (``Task.solver``) when they come
        try:
            digests = self.client.run(solver_digest)
        except ImportError as exc:
            raise InfrastructureError("the Dask workers cannot import SimPhant (%s): put this "
                                      "checkout on their PYTHONPATH" % exc) from None
        mine = solver_digest()
        other = sorted(w for w, dg in digests.items() if dg != mine)
        if other:
            raise InfrastructureError(
                "%d of %d Dask workers run other SimPhant solver sources than this process "
                "(%s): %s; give them this checkout (solver %s)"
                % (len(other), len(digests), ", ".join(sorted({digests[w][:12] for w in other})),
                   ", ".join(other), mine[:12]))

    def ready(self):
        """True once the cluster is up (or failed): the caller converts variants meanwhile."""
        return self.started and (self._thread is None or not self._thread.is_alive())

    def wait(self):
        """Block until the cluster is up; raise what starting it raised."""
        if not self.started:
            self.start()
        if self._thread is not None:
            while self._thread.is_alive():
                self._thread.join(0.2)          # short joins: Ctrl-C stays responsive
                waited = time.monotonic() - self._t0
                if waited > self._limit and self.scheduler:
                    raise InfrastructureError(
                        "cannot reach the Dask scheduler %s after %.1f s (timeout %g s): no "
                        "answer" % (self.scheduler, waited, self.connect_timeout))
                if waited > self._limit:
                    raise InfrastructureError("the local Dask cluster did not start within "
                                              "%.0f s" % waited)
            self._thread = None
        if self._start_error is not None:
            exc, self._start_error = self._start_error, None
            raise exc

    def __exit__(self, *exc):
        if self._thread is not None:
            self._thread.join(2.0)              # a start that hangs is left to its thread
            self._thread = None
        try:
            if self._own_client and self.client is not None:
                self.client.close()
        finally:
            if self.processes is not None:
                self.processes.close()
            if self.cluster is not None:
                self.cluster.close()
        return False

    def worker_count(self):
        """Workers the scheduler knows now (0 when not connected)."""
        if self.client is None:
            return 0
        try:
            return len(self.client.scheduler_info()["workers"])
        except Exception:  # noqa: BLE001 - informative only
            return 0

    @property
    def workers(self):
        """Worker count for sizing batches: the cluster's (a scheduler is connected to
        first, which is quick), else the number the local cluster will start."""
        if self.scheduler or self.client is not None:
            self.wait()
            return max(1, self.worker_count())
        return self.requested_workers or default_workers()

    def connected(self):
        """False when the scheduler connection is lost."""
        return self.client is None or self.client.status == "running"

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


def make_executor(executor=None, scheduler=None, workers=None, client=None,
                  connect_timeout=CONNECT_TIMEOUT):
    """The executor to use: ``"dask"`` (default when Dask is installed), ``"in-process"``,
    or an executor object (``InProcess``'s methods) used as it is."""
    if executor is not None and not isinstance(executor, str):
        return executor
    if client is not None or scheduler:
        return DaskExecutor(scheduler=scheduler, workers=workers, client=client,
                            connect_timeout=connect_timeout)
    if executor is None:
        executor = "dask" if dask_available() and (workers or default_workers()) > 1 \
            else "in-process"
    if executor == "dask":
        return DaskExecutor(workers=workers, connect_timeout=connect_timeout)
    if executor in ("in-process", "serial"):
        return InProcess()
    raise ModelError("executor must be 'dask' or 'in-process', got %r" % (executor,))
