"""Parameter studies one can trust at scale: force-element and driver metrics equal to hand
runs bit for bit, the documented Python example run as a script without a main guard, a cache
and workers that never serve another solver's numbers, infrastructure failures reported
apart from the model's (exit 4), connection options, SIGTERM, no cluster for a rerun from
the cache, the dashboard's address, and the optimiser against a dense grid."""
import io
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

import FreeCAD

from helpers_doc import docs  # noqa: F401
from SimPhantWorkbench import cli, sweep
from SimPhantWorkbench.run import prepare
from SimPhantWorkbench.solver.metrics import parse_metric
from SimPhantWorkbench.sweep.outputs import read_csv

distributed = pytest.importorskip("distributed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
SIMPHANT = os.path.join(ROOT, "bin", "simphant")
RUN_PYTHON = os.path.join(ROOT, "tools", "run_python.sh")


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def example():
    opened = []

    def open_example(name):
        doc = FreeCAD.openDocument(os.path.join(EXAMPLES, name + ".FCStd"))
        opened.append(doc.Name)
        return doc
    yield open_example
    for name in opened:
        FreeCAD.closeDocument(name)


def hand_run(study, metrics, kind_maps, **settings):
    """The metrics of one run through the run pipeline, as a user would script it."""
    run = prepare(study, **settings)
    result = run.execute()
    conv = run.conversion
    out = {}
    for name, text in metrics.items():
        m = parse_metric(text, name)
        names = {}
        for sig in m.signals:
            if sig.kind != "system":
                obj = study.Document.getObject(sig.target)
                names[(sig.kind, sig.target)] = kind_maps[sig.kind](conv)[obj.Name].name
        out[name] = m.resolved(names).evaluate(result)
    return out


KINDS = {"element": lambda c: c.force_map, "driver": lambda c: c.driver_map,
         "body": lambda c: c.body_map, "joint": lambda c: c.joint_map}

ELEMENT_METRICS = {
    "peak_force": "max(spring_force(Suspension))",
    "force_p95": "percentile(spring_force(Suspension), 95)",
    "travel": "range(spring_length(Suspension))",
    "power_rms": "rms(spring_power(Suspension))",
    "tyre_kN": "max(spring_force(Tyre)) / 1000",
    "ratio": "max(spring_force(Tyre)) / max(spring_force(Suspension))",
    "dissipated": "final(dissipated_energy)",
    "body_acc": "max(acceleration(Sprung).z)",
}


def test_force_element_metrics_of_every_family_match_three_hand_runs_bit_for_bit(example):
    """A sweep over the quarter-car's suspension stiffness, every metric family of a force
    element (and arithmetic on them): the very bits of three hand runs."""
    doc = example("quarter_car")
    study = doc.getObject("Study")
    stiffness = [15.0, 20.0, 30.0]                      # [N/mm], as the property shows it
    out = sweep.execute(study, {"Suspension.Stiffness": stiffness}, ELEMENT_METRICS,
                        settings={"t_end": 0.4}, executor="in-process")
    assert [r["status"] for r in out.rows] == ["ok"] * 3, [r["message"] for r in out.rows]
    assert doc.getObject("Suspension").Stiffness == "20.0 N/mm"
    for k, row in zip(stiffness, out.rows):
        doc.getObject("Suspension").Stiffness = "%r N/mm" % k
        hand = hand_run(study, ELEMENT_METRICS, KINDS, t_end=0.4)
        for name in ELEMENT_METRICS:
            assert row[name] == hand[name], (k, name, row[name], hand[name])
    doc.getObject("Suspension").Stiffness = "20.0 N/mm"
    peaks = [r["peak_force"] for r in out.rows]
    assert all(np.isfinite(peaks)) and peaks[0] != peaks[2]
    assert out.rows[0]["ratio"] == pytest.approx(
        out.rows[0]["tyre_kN"] * 1000 / out.rows[0]["peak_force"], rel=1e-15)


def test_driver_and_torsional_element_metrics_match_hand_runs(example):
    crank = example("driven_slider_crank")
    study = crank.getObject("Study")
    metrics = {"torque": "absmax(driver_effort(Motor))", "power": "mean(driver_power(Motor))",
               "torque_p90": "percentile(driver_effort(Motor), 90)"}
    out = sweep.execute(study, {"Slider.Density": [2000.0, 7800.0]}, metrics,
                        settings={"t_end": 0.5}, executor="in-process")
    assert [r["status"] for r in out.rows] == ["ok", "ok"], [r["message"] for r in out.rows]
    for density, row in zip((2000.0, 7800.0), out.rows):
        crank.getObject("Slider").Density = density
        hand = hand_run(study, metrics, KINDS, t_end=0.5)
        assert all(row[m] == hand[m] for m in metrics), (row, hand)
    assert out.rows[1]["torque"] > out.rows[0]["torque"]        # a heavier slider
    door = example("door")
    study = door.getObject("Study")
    metrics = {"spring_moment": "absmax(spring_force(HingeSpring))",
               "swing": "range(spring_length(HingeSpring))"}
    out = sweep.execute(study, {"HingeSpring.Damping": [0.0, 500.0]}, metrics,
                        settings={"t_end": 0.5}, executor="in-process")
    assert [r["status"] for r in out.rows] == ["ok", "ok"], [r["message"] for r in out.rows]
    door.getObject("HingeSpring").Damping = "500.0 N*mm*s/deg"
    hand = hand_run(study, metrics, KINDS, t_end=0.5)
    assert all(out.rows[1][m] == hand[m] for m in metrics)


def python_example():
    """The Python example of the parameter-studies page."""
    path = os.path.join(ROOT, "docs", "parameter-studies.md")
    text = open(path, encoding="utf-8").read()
    text = text.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"^```python\n(.*?)^```", text, re.S | re.M).group(1)


def test_the_documented_example_runs_as_a_script_without_a_main_guard(tmp_path):
    """The parameter-studies page's Python example, exactly as printed, run as a headless
    script: it has no ``if __name__ == "__main__":`` and starts the embedded cluster, whose
    workers must not run the script again (they used to, restarting without end)."""
    code = python_example()
    assert "__main__" not in code and "workers=2" in code
    script = tmp_path / "example_sweep.py"
    script.write_text(code)
    run = subprocess.run([RUN_PYTHON, str(script)], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = [ln for ln in run.stdout.splitlines() if " ok " in ln]
    assert len(lines) == 3, run.stdout
    assert "bootstrapping" not in run.stderr and "Traceback" not in run.stderr


def test_the_cache_serves_no_result_of_another_solver(docs, tmp_path, monkeypatch):
    from SimPhantWorkbench.solver import batch
    from helpers_doc import pendulum
    doc = docs()
    p = pendulum(doc)
    cache = str(tmp_path / "cache")
    kw = dict(settings={"t_end": 0.3}, executor="in-process", cache_dir=cache)
    first = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 2000.0]},
                          {"v": "max(speed(Rod_body))"}, **kw)
    again = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 2000.0]},
                          {"v": "max(speed(Rod_body))"}, **kw)
    assert [r["cached"] for r in again.rows] == [True, True]
    # another solver (the sources differ): other keys, nothing from the cache
    monkeypatch.setattr(batch, "_DIGEST", ["another solver"])
    other = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 2000.0]},
                          {"v": "max(speed(Rod_body))"}, **kw)
    assert [r["cached"] for r in other.rows] == [False, False]
    assert {r["key"] for r in other.rows}.isdisjoint({r["key"] for r in first.rows})


def test_the_solver_digest_follows_every_solver_source(tmp_path):
    """An edit of any solver file (not only the kernels') gives another digest."""
    import shutil
    src = os.path.join(ROOT, "SimPhantWorkbench")
    digests = []
    for edit in (None, "integrators.py", "metrics.py"):
        copy = tmp_path / ("copy_%s" % edit)
        shutil.copytree(src, copy / "SimPhantWorkbench",
                        ignore=shutil.ignore_patterns("__pycache__"))
        if edit:
            with open(copy / "SimPhantWorkbench" / "solver" / edit, "a") as fh:
                fh.write("\n# edited\n")
        code = ("import sys; sys.path.insert(0, %r); from SimPhantWorkbench.solver.batch import "
                "solver_digest; print(solver_digest())" % str(copy))
        run = subprocess.run([RUN_PYTHON, "-c", code], capture_output=True, text=True,
                             timeout=300, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        digests.append(run.stdout.strip().splitlines()[-1])
    assert len(set(digests)) == 3 and all(len(d) == 64 for d in digests)


def test_workers_of_another_solver_are_refused(docs, cluster, tmp_path):
    c, client = cluster
    client.run(exec, "from SimPhantWorkbench.solver import batch; "
                     "batch._DIGEST[:] = ['0' * 64]")
    try:
        refused_at_connect_and_per_task(c, docs, tmp_path)
    finally:                     # the workers' own digest again, for the module's other tests
        client.run(exec, "from SimPhantWorkbench.solver import batch; batch._DIGEST[:] = []")


def refused_at_connect_and_per_task(c, docs, tmp_path):
    from SimPhantWorkbench.solver.batch import Task, VersionMismatch, run_batch
    from SimPhantWorkbench.sweep.executors import InfrastructureError
    from helpers_doc import pendulum
    doc = docs()
    p = pendulum(doc)
    with pytest.raises(InfrastructureError, match="other SimPhant solver sources"):
        sweep.execute(p["study"], {"Rod_body.Density": [1000.0]}, {"v": "max(speed(Rod_body))"},
                      scheduler=c.scheduler_address, settings={"t_end": 0.1})
    # a worker that joins later: every task carries the client's digest
    with pytest.raises(VersionMismatch, match="other SimPhant solver sources"):
        run_batch([Task(0, "k", None, {}, [], solver="f" * 64)])
    # the command line: exit 4, the message names the workers
    doc.saveAs(str(tmp_path / "p.FCStd"))
    FreeCAD.closeDocument(doc.Name)
    spec = tmp_path / "s.toml"
    spec.write_text('[[variables]]\ntarget = "Rod_body.Density"\nvalues = [1000]\n'
                    '[metrics]\nv = "max(speed(Rod_body))"\n[settings]\nt_end = 0.1\n')
    code, out, err = run_cli("sweep", tmp_path / "p.FCStd", spec, "--out", tmp_path / "o",
                             "--scheduler", c.scheduler_address)
    assert code == 4 and "other SimPhant solver sources" in err, err


def start_scheduler(tmp_path, workers=0):
    """A ``dask scheduler`` (and ``workers`` workers) as separate programs on localhost."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = "tcp://127.0.0.1:%d" % port
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    for k in range(workers):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--host", "127.0.0.1", "--no-dashboard", "--local-directory",
             str(tmp_path / ("w%d" % k))], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL))
    try:
        client = distributed.Client(address, timeout=60)
        if workers:
            client.wait_for_workers(workers, timeout=120)
        client.close()
    except BaseException:
        stop(procs)                     # nothing left running when the start fails
        raise
    return address, procs


def stop(procs):
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()


SPEC = '''
[[variables]]
name = "density"
target = "Rod_body.Density"
start = 1000
stop = 2000
count = %(count)d
[metrics]
v = "max(speed(Rod_body))"
[objective]
maximize = "v"
[settings]
t_end = %(t_end)s
'''


def saved_pendulum(docs, tmp_path, count=4, t_end=0.2):
    from helpers_doc import pendulum
    doc = docs()
    pendulum(doc)
    model = tmp_path / "p.FCStd"
    doc.saveAs(str(model))
    FreeCAD.closeDocument(doc.Name)         # the command line opens the file itself
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC % dict(count=count, t_end=t_end))
    return model, spec


def test_a_killed_scheduler_is_an_infrastructure_failure_with_a_non_zero_exit(docs, tmp_path):
    model, spec = saved_pendulum(docs, tmp_path, count=24, t_end=3.0)
    address, procs = start_scheduler(tmp_path, workers=1)
    out_dir = tmp_path / "out"
    try:
        sweep_proc = subprocess.Popen(
            [SIMPHANT, "sweep", model, spec, "--out", out_dir, "--scheduler", address,
             "--batch-size", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 300
        while time.time() < deadline:
            line = sweep_proc.stderr.readline()
            if not line or re.search(r"\] [1-9]\d*/24 done", line):
                break
        procs[0].kill()                                    # the scheduler
        out, err = sweep_proc.communicate(timeout=300)
    finally:
        stop(procs)
    assert sweep_proc.returncode == 4, out + err
    rows = read_csv(str(out_dir / "results.csv"))
    status = [r["status"] for r in rows]
    assert status.count("ok") >= 1 and status.count("lost") >= 1 and "failed" not in status
    lost = [r for r in rows if r["status"] == "lost"]
    assert all("scheduler" in r["message"] or "infrastructure" in r["message"] for r in lost)
    assert "best       none" in out and "lost to the infrastructure" in err


def test_lost_batches_are_retried_then_reported_apart_and_never_pick_a_best(docs):
    """An executor whose workers keep dying for some batches (KilledWorker): those variants
    are retried, then ``lost``; the model's own failures stay ``failed``; no best."""
    from helpers_doc import pendulum
    from SimPhantWorkbench.sweep.executors import InProcess

    class KilledWorker(Exception):
        pass

    class Flaky(InProcess):
        attempts = []

        def submit(self, tasks):
            self.attempts.append([t.index for t in tasks])
            if any(t.index % 2 for t in tasks):
                import concurrent.futures
                fut = concurrent.futures.Future()
                fut.set_exception(KilledWorker("worker died 3 times"))
                return fut
            return super().submit(tasks)

    doc = docs()
    p = pendulum(doc)
    out = sweep.execute(p["study"], {"Rod_body.Density": [1000.0, 1200.0, -5.0, 1400.0]},
                        {"v": "max(speed(Rod_body))"}, objective={"maximize": "v"},
                        settings={"t_end": 0.1}, executor=Flaky(), batch_size=1)
    assert [r["status"] for r in out.rows] == ["ok", "lost", "failed", "lost"]
    assert Flaky.attempts.count([1]) == 3                 # the first try and two retries
    assert "lost to the infrastructure after 3 attempt(s): KilledWorker" in out.rows[1]["message"]
    assert out.best() is None and out.stats["lost"] == 2 and out.stats["retried"] == 4


def test_a_scheduler_without_workers_stops_with_a_hint(docs, tmp_path):
    model, spec = saved_pendulum(docs, tmp_path, count=3)
    address, procs = start_scheduler(tmp_path, workers=0)
    try:
        t0 = time.monotonic()
        code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o",
                                 "--scheduler", address, "--worker-timeout", "3")
        elapsed = time.monotonic() - t0
    finally:
        stop(procs)
    assert code == 4 and elapsed < 60, (code, elapsed)
    assert "waiting for Dask workers" in err and "dask worker %s" % address in err
    assert "no Dask worker connected to %s within 3 s" % address in out
    rows = read_csv(str(tmp_path / "o" / "results.csv"))
    assert [r["status"] for r in rows] == ["lost"] * 3


def test_connection_failures_name_their_time_and_bad_addresses_are_bad_input(docs, tmp_path):
    model, spec = saved_pendulum(docs, tmp_path)
    with socket.socket() as s:                     # a port with nothing listening: refused
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--scheduler",
                             "tcp://127.0.0.1:%d" % port)
    assert code == 4 and time.monotonic() - t0 < 20, err
    assert re.search(r"cannot reach the Dask scheduler tcp://127.0.0.1:%d after 0\.\d s" % port,
                     err), err
    # a server that accepts the connection and never answers: the timeout, measured
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)
    try:
        t0 = time.monotonic()
        code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--scheduler",
                                 "tcp://127.0.0.1:%d" % silent.getsockname()[1],
                                 "--connect-timeout", "2")
        elapsed = time.monotonic() - t0
    finally:
        silent.close()
    assert code == 4 and 2 <= elapsed < 30, (err, elapsed)
    said = float(re.search(r"after (\d+\.\d) s \(timeout 2 s\)", err).group(1))
    assert 1.9 <= said <= elapsed + 0.1
    for bad in ("tcp://nowhere", "http://127.0.0.1:8786", "tcp://127.0.0.1:99999", "::::"):
        code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--scheduler",
                                 bad)
        assert code == 2 and "scheduler address" in err, (bad, err)


def test_sigterm_is_handled_like_ctrl_c(docs, tmp_path):
    model, spec = saved_pendulum(docs, tmp_path, count=12, t_end=10.0)
    out_dir = tmp_path / "out"
    proc = subprocess.Popen([SIMPHANT, "sweep", model, spec, "--out", out_dir, "--workers", "1",
                             "--batch-size", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line or re.search(r"\] [1-9]\d*/12 done", line):
            break
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "sweep cancelled" in err
    status = [r["status"] for r in read_csv(str(out_dir / "results.csv"))]
    assert len(status) == 12 and status.count("ok") >= 1 and status.count("cancelled") >= 1


def test_a_rerun_from_the_cache_starts_no_cluster_and_skipped_files_say_why(
        docs, tmp_path, monkeypatch):
    from SimPhantWorkbench.sweep import executors
    model, spec = saved_pendulum(docs, tmp_path)
    monkeypatch.setitem(sys.modules, "pyarrow", None)            # import pyarrow fails
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "1")
    assert code == 0 and "results.parquet not written: it needs pyarrow" in err
    started = []
    monkeypatch.setattr(executors.DaskExecutor, "_start",
                        lambda self: started.append(self) or self._launch())
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "2")
    assert code == 0 and "4 from the cache" in out, out + err
    assert "ran on     none (every variant from the cache)" in out and not started


def test_the_dashboard_address_is_printed_when_dask_can_serve_it(docs, tmp_path, monkeypatch):
    from SimPhantWorkbench.sweep import executors
    model, spec = saved_pendulum(docs, tmp_path, count=2)
    if executors.dashboard_problem() is None:          # bokeh (make setup installs it)
        code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers",
                                 "2", "--no-cache")
        assert code == 0, err
        assert re.search(r"Dask dashboard http://127\.0\.0\.1:\d+/status", err), err
        assert re.search(r"dashboard  http://127\.0\.0\.1:\d+/status", out)
    # without bokeh: the summary says why there is none, naming the package
    monkeypatch.setattr(executors, "dashboard_problem",
                        lambda: "the Dask dashboard needs bokeh (No module named 'bokeh')")
    code, out, err = run_cli("sweep", model, spec, "--out", tmp_path / "o", "--workers", "2",
                             "--no-cache")
    assert code == 0 and "Dask dashboard http" not in err, err
    assert "dashboard  none: the Dask dashboard needs bokeh" in out


PROBE = r"""
import asyncio, json, sys
import distributed
from distributed.core import rpc
from distributed.protocol.pickle import dumps
marker = sys.argv[1]


def touch():
    open(marker, "a").write("ran ")
    return "ran"


async def attempt(kind, address, cert):
    security = (distributed.Security(tls_ca_file=cert[0], tls_client_cert=cert[0],
                                     tls_client_key=cert[1], require_encryption=True)
                if cert else distributed.Security())
    if kind == "scheduler":
        async with distributed.Client(address, security=security, asynchronous=True,
                                      timeout=5) as c:
            return await c.run(touch)
    r = rpc(address, timeout=5, connection_args=security.get_connection_args("client"))
    try:
        return await r.run(function=dumps(touch))
    finally:
        await r.close_rpc()


for kind, address, cert in json.loads(sys.argv[2]):
    try:
        print("RAN", asyncio.run(asyncio.wait_for(attempt(kind, address, cert), 20)))
    except Exception as exc:
        print("REFUSED", type(exc).__name__)
"""


def test_the_embedded_cluster_refuses_other_processes(docs, tmp_path):
    """Its scheduler and workers talk TLS with a certificate of this run only: another local
    process without it cannot run code on the workers, neither through the scheduler nor
    by calling a worker directly, over TLS or plain TCP. The same probe with the run's
    certificate does run its code (so the refusals are the transport's, not the probe's)."""
    import json
    from SimPhantWorkbench.sweep.executors import DaskExecutor
    marker = tmp_path / "ran.txt"
    with DaskExecutor(workers=1) as ex:
        ex.start()
        ex.wait()
        address = ex.cluster.scheduler_address
        workers = list(ex.client.scheduler_info()["workers"])
        assert address.startswith("tls://127.0.0.1:")
        assert len(workers) == 1 and workers[0].startswith("tls://127.0.0.1:"), workers
        targets = [("scheduler", address)] + [("worker", w) for w in workers]
        foreign = [(kind, scheme + a[len("tls://"):], None) for kind, a in targets
                   for scheme in ("tls://", "tcp://")]
        cert = [os.path.join(ex.processes.dir, n) for n in ("cert.pem", "key.pem")]
        own = [(kind, a, cert) for kind, a in targets]
        run = subprocess.run([sys.executable, "-c", PROBE, str(marker),
                              json.dumps(foreign + own)],
                             capture_output=True, text=True, timeout=300)
        lines = [ln.split()[0] for ln in run.stdout.splitlines()]
        assert lines == ["REFUSED"] * len(foreign) + ["RAN"] * len(own), \
            run.stdout + run.stderr
    assert marker.read_text() == "ran " * len(own)


def test_a_worker_that_ends_while_starting_is_started_again_then_given_up(tmp_path, monkeypatch):
    """A worker process that ends at start (workers registering over TLS at once sometimes
    lose that connection) is started again; one that always ends fails the start after
    WORKER_START_ATTEMPTS tries, with its log."""
    from SimPhantWorkbench.sweep import executors
    python = executors.python_executable() or sys.executable
    wrapper = tmp_path / "python-once"         # ends at its first start, then runs Python
    wrapper.write_text("#!/bin/sh\n"
                       "if mkdir %s/started 2>/dev/null; then echo ended early; exit 3; fi\n"
                       "exec %s \"$@\"\n" % (tmp_path, python))
    wrapper.chmod(0o755)
    monkeypatch.setattr(executors, "python_executable", lambda: str(wrapper))
    with executors.DaskExecutor(workers=2) as ex:
        ex.start()
        ex.wait()
        assert ex.worker_count() == 2
        logs = [open(os.path.join(ex.processes.dir, "worker%d.log" % k)).read()
                for k in range(2)]
        early = [k for k in range(2) if "ended early" in logs[k]]
        assert len(early) == 1 and ex.processes.attempts[early[0]] >= 2, logs
        assert "--- start 2 of worker simphant-%d" % early[0] in logs[early[0]]
        assert ex.client.submit(lambda: 41 + 1).result(timeout=60) == 42
    wrapper.write_text("#!/bin/sh\necho cannot start; exit 3\n")
    with pytest.raises(executors.InfrastructureError,
                       match=r"a worker process of the local cluster ended at start 3 times "
                             r"\(last exit 3\): .*cannot start"):
        with executors.DaskExecutor(workers=1) as ex:
            ex.wait()


def test_a_connection_closed_by_its_peer_does_not_end_a_process_that_runs_dask():
    """FreeCAD 1.x leaves SIGPIPE at its default: a write to a connection a worker closed
    would end the user's FreeCAD. Starting Dask ignores it, as Python does by itself."""
    code = ("import signal, socket\n"
            "signal.signal(signal.SIGPIPE, signal.SIG_DFL)       # as in FreeCAD 1.x\n"
            "from SimPhantWorkbench.sweep import executors\n"
            "ex = executors.DaskExecutor(scheduler='tcp://127.0.0.1:1', connect_timeout=1)\n"
            "try:\n"
            "    ex.wait()\n"
            "except executors.InfrastructureError:\n"
            "    pass\n"
            "a, b = socket.socketpair()\n"
            "b.close()\n"
            "try:\n"
            "    for _ in range(100):\n"
            "        a.send(b'x' * 65536)\n"
            "except BrokenPipeError:\n"
            "    print('EPIPE')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert run.returncode == 0 and "EPIPE" in run.stdout, (run.returncode, run.stderr[-2000:])


# ------------------------------------------------------------------------------ optimiser

QC_SETTINGS = {"t_end": 1.0}
PEAK = {"acc": "max(acceleration(Sprung).z)", "travel": "range(spring_length(Suspension))"}


def grid_optimum(study, low, high, n):
    """The damping [N s/mm] of least peak acceleration: a dense grid, refined by the
    parabola through the best point and its neighbours."""
    cs = list(np.linspace(low, high, n))
    out = sweep.execute(study, {"Suspension.Damping": cs}, PEAK, settings=QC_SETTINGS,
                        executor="in-process")
    acc = np.array([r["acc"] for r in out.rows])
    k = int(np.argmin(acc))
    assert 0 < k < n - 1, "the optimum is not inside the grid"
    a, b, c = acc[k - 1:k + 2]
    h = cs[1] - cs[0]
    return cs[k] + 0.5 * h * (a - c) / (a - 2 * b + c), out.rows


def test_the_optimiser_finds_the_damping_of_least_peak_acceleration(example):
    """TPE finds the damping within 1 % in 40 trials; CMA-ES (two variables: it needs two)
    within 2.5 % there, its peak acceleration within 0.1 % of the least."""
    doc = example("quarter_car")
    study = doc.getObject("Study")
    c_best, rows = grid_optimum(study, 3.5, 5.7, 45)
    acc_best = min(r["acc"] for r in rows)
    for sampler, tol in (("tpe", 0.01), ("cmaes", 0.025)):
        variables = [{"target": "Suspension.Damping", "name": "c", "low": 0.5, "high": 8.0}]
        if sampler == "cmaes":                  # CMA-ES needs two variables: a neutral one
            variables.append({"target": "Tyre.Damping", "name": "tyre_c", "low": 0.0,
                              "high": 1e-9})
        out = sweep.execute(study, variables, PEAK, objective={"minimize": "acc"},
                            optimize={"sampler": sampler, "trials": 40, "seed": 3},
                            settings=QC_SETTINGS, executor="in-process")
        assert len(out.rows) <= 40 and out.count("ok") == len(out.rows)
        best = out.best()
        assert abs(best["c"] - c_best) <= tol * c_best, (sampler, best["c"], c_best)
        assert best["acc"] <= acc_best * 1.001, (sampler, best["acc"], acc_best)
    assert doc.getObject("Suspension").Damping == "1.5 N*s/mm"


def test_the_optimiser_respects_a_constraint_and_runs_on_the_cluster(example, cluster):
    """Least travel subject to peak acceleration <= 2.3 m/s^2: the travel falls with the
    damping, so the optimum lies on the constraint; every trial runs on the cluster."""
    c, client = cluster
    doc = example("quarter_car")
    study = doc.getObject("Study")
    out = sweep.execute(study, [{"target": "Suspension.Damping", "name": "c", "low": 2.0,
                                 "high": 8.0}], PEAK,
                        objective={"minimize": "travel", "constraints": ["acc <= 2.3"]},
                        optimize={"sampler": "tpe", "trials": 30, "seed": 5, "parallel": 2},
                        settings=QC_SETTINGS, scheduler=c.scheduler_address)
    best = out.best()
    assert best["acc"] <= 2.3 and best["feasible"]
    assert len({r["worker"] for r in out.rows}) == 2
    feasible = [r for r in out.rows if r["feasible"]]
    assert best["travel"] == min(r["travel"] for r in feasible)
    assert any(not r["feasible"] and r["travel"] < best["travel"] for r in out.rows)
    # on the constraint (its edge is near 5.14 N s/mm): 5 % more damping than the optimum
    # breaks it. (Which trials the sampler draws near the edge depends on the order in
    # which the two workers finish, so the check is a run of its own, not one of them.)
    above = sweep.execute(study, {"Suspension.Damping": [1.05 * best["c"]]}, PEAK,
                          settings=QC_SETTINGS, executor="in-process")
    assert above.rows[0]["acc"] > 2.3, (best["c"], above.rows[0]["acc"])


def test_a_pareto_front_of_two_conflicting_metrics_is_non_dominated(example, tmp_path):
    doc = example("quarter_car")
    study = doc.getObject("Study")
    out = sweep.execute(study, [{"target": "Suspension.Damping", "name": "c", "low": 3.0,
                                 "high": 7.0}], PEAK,
                        objective={"minimize": ["acc", "travel"]},
                        optimize={"sampler": "tpe", "trials": 24, "seed": 2},
                        settings=QC_SETTINGS, executor="in-process")
    front = out.pareto()
    assert len(front) >= 3 and all(r["pareto"] for r in front)
    for a in front:
        for b in out.rows:
            assert not (b["acc"] <= a["acc"] and b["travel"] <= a["travel"]
                        and (b["acc"] < a["acc"] or b["travel"] < a["travel"]))
    for r in out.rows:
        if not r["pareto"]:
            assert any(f["acc"] <= r["acc"] and f["travel"] <= r["travel"] for f in front)
    # past the damping of least acceleration the two conflict: the front lies there
    assert min(r["c"] for r in front) > 4.0
    from SimPhantWorkbench.sweep.outputs import write_all
    names, _notes = write_all(out, str(tmp_path))
    assert {"pareto_front.png", "pareto_front.csv"} <= set(names)
    assert len(read_csv(str(tmp_path / "pareto_front.csv"))) == len(front)


def test_a_start_that_never_returns_is_given_up(monkeypatch):
    """Whatever Dask does inside (a handshake that never ends), the sweep waits for a
    scheduler no longer than its connect timeout and a few seconds."""
    import threading
    from SimPhantWorkbench.sweep import executors
    hang = threading.Event()
    monkeypatch.setattr(executors.DaskExecutor, "_connect", lambda self: hang.wait(600))
    t0 = time.monotonic()
    with pytest.raises(executors.InfrastructureError,
                       match=r"cannot reach the Dask scheduler tcp://127.0.0.1:1 after "
                             r"\d+\.\d s \(timeout 1 s\): no answer"):
        with executors.DaskExecutor(scheduler="tcp://127.0.0.1:1", connect_timeout=1.0) as ex:
            ex.wait()
    hang.set()
    assert time.monotonic() - t0 < 20
