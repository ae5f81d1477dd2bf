"""Running many models: the work a parameter-study worker does, and model fingerprints.

``run_batch(tasks)`` simulates a list of ``Task``\\ s one after the other and
returns one plain dict per task (status, message, metric values, timings);
a failing model is recorded and the next one runs. It needs only this
package (numpy, scipy, numba): any process that can import
``SimPhantWorkbench.solver`` can run it, e.g. a Dask worker. The numba
kernels are compiled once per process (and loaded from numba's on-disk cache
in a new one); every task reports how many kernel specialisations it had to
load or compile (``new_kernels``), which is 0 for all but a process's first.

``fingerprint(model, settings)`` is a SHA-256 of everything that determines a
run (the model's bodies, joints, loads, gravity and the simulation settings),
exact to the last bit of every float: two variants with the same fingerprint
give the same result, so a cache can be keyed by it.
"""
import hashlib
import json
import os
import socket
import time
from collections import namedtuple

import numpy as np

from .errors import ModelError, SimPhantError, SimulationError
from .expressions import TimeFunction

__all__ = ["Task", "run_batch", "run_task", "fingerprint", "kernel_count", "FINGERPRINT_FORMAT"]

#: part of every fingerprint; changed when what a fingerprint covers changes
FINGERPRINT_FORMAT = "simphant-model-1"

#: index: the variant's number; key: its fingerprint; model: a solver ``Model``;
#: settings: keyword arguments of ``Model.simulate``; metrics: resolved ``Metric``\ s
Task = namedtuple("Task", ["index", "key", "model", "settings", "metrics"])


def kernel_count():
    """Number of numba kernel specialisations loaded in this process (compiled or from cache)."""
    from numba.core.dispatcher import Dispatcher
    from . import blocks, kernels
    n = 0
    for module in (kernels, blocks):
        for obj in vars(module).values():
            if isinstance(obj, Dispatcher):
                n += len(obj.signatures)
    return n


def run_task(task):
    """Simulate one task; a dict with its status ("ok" or "failed"), never an exception.

    Keys: index, key, status, error (class name or ""), message, metrics
    ({name: float}; NaN when the run failed or a metric cannot be had),
    metric_errors ({name: message}), sim_time [s] (wall clock), cpu_time [s] (this
    process's CPU time), steps, worker (host:pid), new_kernels.
    """
    k0 = kernel_count()
    t0 = time.perf_counter()
    c0 = time.process_time()
    out = dict(index=task.index, key=task.key, status="ok", error="", message="",
               metrics={m.name: float("nan") for m in task.metrics}, metric_errors={},
               sim_time=0.0, steps=0, worker="%s:%d" % (socket.gethostname(), os.getpid()))
    try:
        from .kinematics import run_analysis
        settings = dict(task.settings)
        result = run_analysis(task.model, settings, settings.pop("analysis", "dynamic"))
        out["steps"] = int(result.settings.get("steps", 0) or 0)
    except (ModelError, SimulationError) as exc:     # assembly errors are ModelErrors
        out.update(status="failed", error=type(exc).__name__, message=str(exc))
        result = None
    except Exception as exc:  # noqa: BLE001 - one bad variant must not stop the batch
        out.update(status="failed", error=type(exc).__name__,
                   message="%s: %s" % (type(exc).__name__, exc))
        result = None
    out["sim_time"] = time.perf_counter() - t0
    out["cpu_time"] = time.process_time() - c0
    if result is not None:
        for m in task.metrics:
            try:
                out["metrics"][m.name] = float(m.evaluate(result))
            except (SimPhantError, ValueError, KeyError, IndexError) as exc:
                out["metric_errors"][m.name] = str(exc)
    out["new_kernels"] = kernel_count() - k0
    return out


def run_batch(tasks):
    """``run_task`` for each task, in order; the list of their dicts."""
    return [run_task(t) for t in tasks]


# ============================================================================ fingerprints

def _floats(a):
    return [float(x).hex() for x in np.asarray(a, dtype=float).reshape(-1)]


def _load_value(load):
    v = load.value
    if isinstance(v, TimeFunction):
        return ["function", v.source]
    if callable(v):
        return None
    return ["constant", _floats(v)]


def description(model, settings):
    """The plain-data description a fingerprint hashes (floats as exact hex strings).

    ``None`` when the model has a load or an actuator whose value is an arbitrary
    Python callable (only text ``TimeFunction``\\ s can be described).
    """
    bodies = [[b.name, _floats(b.mass), _floats(b.moments), _floats(b.A_user),
               _floats(b.A_principal), _floats(b.position), _floats(b.velocity),
               _floats(b.angular_velocity)] for b in model.bodies]
    joints = [[j.name, j.kind, j.body1.name, j.body2.name, _floats(j.frame1[0]),
               _floats(j.frame1[1]), _floats(j.frame2[0]), _floats(j.frame2[1]),
               None if j.length is None else _floats(j.length)] for j in model.joints]
    loads = []
    for ld in model.loads:
        value = _load_value(ld)
        if value is None:
            return None
        loads.append([ld.name, ld.kind, ld.body.name, ld.frame, _floats(ld.local_point), value])
    elements = []
    for e in getattr(model, "force_elements", ()):
        d = e.description(_floats)
        if d is None:
            return None
        elements.append(d)
    drivers = []
    for d in getattr(model, "drivers", []):
        motions = [m.describe() for m in d.motions]
        if None in motions:
            return None
        on = d.joint.name if d.joint is not None else [
            d.entry[0].name, d.entry[1].name, _floats(d.entry[2][0]), _floats(d.entry[2][1]),
            _floats(d.entry[3][0]), _floats(d.entry[3][1])]
        drivers.append([d.name, d.kind, on, motions])
    couplers = [[c.name, c.kind, [j.name for j in c.joints], _floats(c.value),
                 _floats(c.coefficients)] for c in getattr(model, "couplers", [])]
    clean = {}
    for k, v in sorted(settings.items()):
        if isinstance(v, float):
            v = float(v).hex()
        elif isinstance(v, (tuple, list)):
            v = [float(x).hex() if isinstance(x, float) else x for x in v]
        clean[k] = v
    out = dict(format=FINGERPRINT_FORMAT, gravity=_floats(model.gravity), bodies=bodies,
               joints=joints, loads=loads, settings=clean)
    if elements:             # (models without force elements keep their fingerprints)
        out["force_elements"] = elements
    if drivers:              # (models without drivers keep their fingerprints)
        out["drivers"] = drivers
    if couplers:             # (models without couplers keep their fingerprints)
        out["couplers"] = couplers
    return out


def fingerprint(model, settings):
    """SHA-256 (hex) of ``description(model, settings)``; ``None`` if it cannot be described."""
    d = description(model, settings)
    if d is None:
        return None
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
