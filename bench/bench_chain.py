"""SimPhant speed benchmark: N-link pendulum chains and a closed four-bar.

Engines, side by side in the same process:

* ``simphant``  the solver (numba, block-sparse Schur complement), RK4;
* ``naive``     ``bench/naive_numpy.py``: the same formulation with dense
                matrices and np.linalg.solve, RK4 loop in Python (checked
                against SimPhant to 1e-8 first, ``bench/test_naive.py``);
* ``mujoco``    MuJoCo's RK4 on the same mechanisms (MJCF from ``bench/models.py``),
                minimal coordinates (hinge/ball joints).

Run with ``make bench`` (installs MuJoCo into bench/.deps first) or
``tools/run_python.sh bench/bench_chain.py [--quick]``. Writes
``bench/results/chain_<date>.json`` and ``bench/results/latest.json``
(``--quick``: ``..._quick.json`` and ``latest_quick.json``) and prints a table.
See bench/README.md.
"""
import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
DEPS = os.path.join(HERE, ".deps")
# Appended, never prepended: nothing in .deps may shadow Debian's numpy/scipy.
if os.path.isdir(DEPS) and DEPS not in sys.path:
    sys.path.append(DEPS)
os.environ.setdefault("MUJOCO_GL", "disable")

import models  # noqa: E402
from SimPhantWorkbench.solver import zoo  # noqa: E402
import test_naive  # noqa: E402

try:
    import mujoco  # noqa: E402
    MUJOCO_ERROR = None
except Exception as exc:  # noqa: BLE001 - report, run without it
    mujoco = None
    MUJOCO_ERROR = "%s: %s" % (type(exc).__name__, exc)

TARGETS = dict(
    ratio_vs_mujoco_N64=1.0,        # SimPhant/MuJoCo per step <= 1 at N = 64
    ratio_vs_mujoco_N256=0.25,      # >= 4x faster at N = 256
    cost_exponent=1.1,              # slope of log t vs log N, N = 16..256
    speedup_vs_naive_N64=500.0,     # >= 500x faster than naive NumPy at N = 64
    first_step_seconds=2.0,         # second process: import + build N=64 + one step
    spring_overhead_N64=1.3,        # N = 64 chain with a spring-damper on every joint / without
)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def median(xs):
    xs = [x for x in xs if x is not None]
    return float(np.median(xs)) if xs else None


# ============================================================================ machine
def machine_info():
    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import scipy

    def git(*args):
        try:
            return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True,
                                  text=True, timeout=20).stdout.strip()
        except Exception:  # noqa: BLE001
            return None

    dirty = git("status", "--porcelain", "--", "SimPhantWorkbench/solver")
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return dict(
        date=datetime.datetime.now().isoformat(timespec="seconds"),
        hostname=platform.node(), nproc=os.cpu_count(), cpu_model=cpu,
        python=sys.version.split()[0], executable=sys.executable,
        numpy=np.__version__, numpy_file=np.__file__, scipy=scipy.__version__,
        numba=numba.__version__,
        mujoco=(mujoco.__version__ if mujoco else None), mujoco_error=MUJOCO_ERROR,
        blas_threads_env={k: os.environ.get(k) for k in
                          ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_CORETYPE")},
        git_commit=git("rev-parse", "HEAD"),
        solver_tree_dirty=bool(dirty), solver_dirty_files=(dirty.splitlines() if dirty else []),
        loadavg_start=load,
        solver_source_mtime=solver_mtime(),
    )


def solver_mtime():
    """Newest modification time of the solver's .py files (to detect edits during a run)."""
    d = os.path.join(ROOT, "SimPhantWorkbench", "solver")
    try:
        return max(os.path.getmtime(os.path.join(d, f)) for f in os.listdir(d) if f.endswith(".py"))
    except (OSError, ValueError):
        return None


# ============================================================================ SimPhant
def simphant_run(builder, t_end, dt, tip_local, output_dt, baumgarte=None):
    model, bodies = builder()
    kw = {}
    if baumgarte is not None:
        kw["baumgarte"] = baumgarte
    r = model.simulate(t_end=t_end, dt=dt, method="rk4", output_dt=output_dt, **kw)
    st = r.settings
    E = r.energy()["total"]
    viol = r.constraint_violation()
    return dict(
        wall=float(st["wall_time"]), steps=int(st["steps"]),
        per_step=float(st["wall_time"]) / int(st["steps"]),
        tip=r.point_position(bodies[-1], tip_local)[-1].tolist(),
        energy_drift_max=float(np.max(np.abs(E - E[0]))),
        energy_drift_end=float(E[-1] - E[0]),
        violation_max=float(np.max(viol["position"])),
        velocity_violation_max=float(np.max(viol["velocity"])),
        alpha=st["alpha"], beta=st["beta"], regularization=st.get("regularization"),
        t_end=float(r.t[-1]),
    )


# ============================================================================ naive
class NaiveStepper:
    """Advances one naive-NumPy trajectory in slices (so its timing can be interleaved
    with the other engines' repeats); records per-step wall times and, every
    ``record_every`` steps, the state."""

    def __init__(self, model_builder, alpha, beta, regularization, eps_rule, dt, total_steps,
                 record_every):
        self.m = model_builder().compile(alpha=alpha, beta=beta, regularization=regularization,
                                         eps_rule=eps_rule)
        self.dt = dt
        self.total = int(total_steps)
        self.every = int(record_every)
        self.Y = self.m.y0.copy()
        self.done = 0
        self.step_times = []
        self.states = [self.Y.copy()]

    def advance(self, k):
        m, h = self.m, self.dt
        for _ in range(min(k, self.total - self.done)):
            w0 = time.perf_counter()
            self.Y = m.rk4_step(self.done * h, self.Y, h)
            self.step_times.append(time.perf_counter() - w0)
            self.done += 1
            if self.done % self.every == 0:
                self.states.append(self.Y.copy())
        if not np.all(np.isfinite(self.Y)):
            raise FloatingPointError("naive RK4: non-finite state")

    def result(self, full, tip_body, tip_local):
        st = np.array(self.step_times)
        res = dict(steps=self.done, wall=float(st.sum()), per_step=float(np.median(st)),
                   per_step_mean=float(np.mean(st)), per_step_min=float(np.min(st)),
                   full_run=bool(full), t_end=self.done * self.dt)
        # where a naive evaluation spends its time: the per-joint Python assembly of
        # Phi_q/gamma versus the dense algebra (C = Phi_q M^-1 Phi_q^T + eps, solve)
        reps = 3 if res["per_step"] < 1.0 else 1
        ta, te = [], []
        for _ in range(reps):
            w0 = time.perf_counter()
            self.m.constraints(self.Y)
            ta.append(time.perf_counter() - w0)
            w0 = time.perf_counter()
            self.m.evaluate(0.0, self.Y)
            te.append(time.perf_counter() - w0)
        res["eval_s"] = float(np.median(te))
        res["eval_assembly_s"] = float(np.median(ta))
        res["eval_dense_and_rest_s"] = float(np.median(te) - np.median(ta))
        if full:
            m = self.m
            E = np.array([m.energy(y) for y in self.states])
            viol = [m.violation(y)[0] for y in self.states]
            res.update(tip=m.point_position(self.Y, tip_body, tip_local).tolist(),
                       energy_drift_max=float(np.max(np.abs(E - E[0]))),
                       energy_drift_end=float(E[-1] - E[0]),
                       violation_max=float(np.max(viol)))
        return res


def naive_probe_per_step(model_builder, alpha, beta, regularization, dt, eps_rule, nprobe=2):
    m = model_builder().compile(alpha=alpha, beta=beta, regularization=regularization,
                                eps_rule=eps_rule)
    out = m.simulate(nprobe * dt, dt, nsteps=nprobe)
    return float(np.min(out["step_times"]))


# ============================================================================ MuJoCo
def mujoco_run(xml, t_end, dt, nsteps=None, chunk=10, tip=None, violation=None):
    """Step a fresh MjData with mj_step(m, d, k) in chunks; time only mj_step.

    ``tip(m, d)`` and ``violation(m, d)`` are evaluated after each chunk (untimed,
    after mj_forward), with the energy (mj_energyPos + mj_energyVel)."""
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.timestep = dt
    d = mujoco.MjData(m)
    n = int(round(t_end / dt)) if nsteps is None else int(nsteps)
    full = nsteps is None

    def observe():
        mujoco.mj_forward(m, d)
        mujoco.mj_energyPos(m, d)
        mujoco.mj_energyVel(m, d)
        e = float(d.energy[0] + d.energy[1])
        v = violation(m, d) if violation is not None else 0.0
        return e, v

    E0, v0 = observe()
    energies = [E0]
    viols = [v0]
    wall = 0.0
    done = 0
    while done < n:
        k = min(chunk, n - done)
        w0 = time.perf_counter()
        mujoco.mj_step(m, d, k)
        wall += time.perf_counter() - w0
        done += k
        if full:
            e, v = observe()
            energies.append(e)
            viols.append(v)
    if not np.all(np.isfinite(d.qpos)):
        raise FloatingPointError("MuJoCo state became non-finite")
    res = dict(wall=wall, steps=n, per_step=wall / n, full_run=full, nv=int(m.nv),
               t_end=float(d.time))
    if full:
        mujoco.mj_forward(m, d)
        E = np.array(energies)
        res.update(tip=tip(m, d).tolist() if tip is not None else None,
                   energy_drift_max=float(np.max(np.abs(E - E[0]))),
                   energy_drift_end=float(E[-1] - E[0]),
                   violation_max=float(np.max(viols)))
    return res


def mj_point(m, d, body, local):
    bid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, body)
    return d.xpos[bid] + d.xmat[bid].reshape(3, 3) @ np.asarray(local, dtype=float)


def mujoco_probe_per_step(xml, dt, nprobe=3):
    m = mujoco.MjModel.from_xml_string(xml)
    m.opt.timestep = dt
    d = mujoco.MjData(m)
    mujoco.mj_step(m, d, 1)
    w0 = time.perf_counter()
    mujoco.mj_step(m, d, nprobe)
    return (time.perf_counter() - w0) / nprobe


# ============================================================================ helpers
def dist(a, b):
    if a is None or b is None:
        return None
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)))


def loglog_slope(Ns, ts):
    pts = [(n, t) for n, t in zip(Ns, ts) if t is not None and n >= 16]
    if len(pts) < 2:
        return None
    x = np.log([p[0] for p in pts])
    y = np.log([p[1] for p in pts])
    return float(np.polyfit(x, y, 1)[0])


# ============================================================================ chain
def _paired(sp_t, mj_t):
    """Median of the ratios of samples taken back to back (robust to load bursts)."""
    r = [a / b for a, b in zip(sp_t, mj_t) if a and b]
    return float(np.median(r)) if r else None


def bench_chain(kind, Ns, cfg, results):
    """Per N: one full-length run per engine for the accuracy numbers (tip error vs a
    dt/ref_div reference, energy drift, constraint violation), then ``pairs`` short
    timing samples (``sample_steps`` steps each) taken back to back SimPhant, MuJoCo,
    naive slice, SimPhant, MuJoCo, ... Per-step times are medians over the samples;
    SimPhant/MuJoCo ratios are medians of the per-pair ratios."""
    dt, t_end, ref_div = cfg["dt"], cfg["t_end"], cfg["ref_div"]
    full_steps = int(round(t_end / dt))
    pairs = cfg["pairs"]
    sample_steps = min(full_steps, cfg["sample_steps"])
    every = max(1, int(round(cfg["output_dt"] / dt)))
    rows = []
    for N in Ns:
        log("[bench] chain %s N=%d" % (kind, N))
        row = dict(kind=kind, N=N, dt=dt, t_end=t_end, pairs=pairs, sample_steps=sample_steps,
                   loadavg_before=os.getloadavg())
        builder = (lambda N=N: zoo.chain(N, kind)[:2])
        xml = models.chain_mjcf(N, kind, dt) if mujoco else None
        mj_tip = (lambda m, d, N=N: mj_point(m, d, "link%d" % (N - 1), models.CHAIN_TIP_MJ_LOCAL))

        # ---- SimPhant: full-length run (accuracy) and its dt/ref_div reference
        try:
            sp = simphant_run(builder, t_end, dt, models.CHAIN_TIP_LOCAL, cfg["output_dt"])
        except Exception as exc:  # noqa: BLE001
            row["simphant_error"] = "%s: %s" % (type(exc).__name__, exc)
            log("[bench]   SimPhant failed: %s" % row["simphant_error"])
            rows.append(row)
            continue
        sp["per_step_full_run"] = sp.pop("per_step")
        w0 = time.perf_counter()
        ref = simphant_run(builder, t_end, dt / ref_div, models.CHAIN_TIP_LOCAL, cfg["output_dt"],
                           baumgarte=(sp["alpha"], sp["beta"]))
        sp["ref"] = dict(dt=dt / ref_div, tip=ref["tip"], wall=time.perf_counter() - w0,
                         per_step=ref["per_step"])
        sp["tip_error"] = dist(sp["tip"], ref["tip"])

        # ---- MuJoCo: full-length run when affordable, its reference, the sample length
        mj, mj_sample = None, sample_steps
        if mujoco:
            per = mujoco_probe_per_step(xml, dt)
            mj_sample = int(min(sample_steps, max(3, cfg["mujoco_budget"] / (per * pairs))))
            if per * full_steps <= cfg["mujoco_full_budget"]:
                mj = mujoco_run(xml, t_end, dt, tip=mj_tip)
                mj["per_step_full_run"] = mj.pop("per_step")
                if per * full_steps * ref_div <= cfg["mujoco_ref_budget"]:
                    w0 = time.perf_counter()
                    mref = mujoco_run(models.chain_mjcf(N, kind, dt / ref_div), t_end, dt / ref_div,
                                      tip=mj_tip, chunk=10 * ref_div)
                    mj["ref"] = dict(dt=dt / ref_div, tip=mref["tip"],
                                     wall=time.perf_counter() - w0, per_step=mref["per_step"])
                    mj["tip_error"] = dist(mj["tip"], mref["tip"])
                    # how far apart the two converged solutions are (formulation check)
                    row["converged_tip_diff_simphant_vs_mujoco"] = dist(ref["tip"], mref["tip"])
            else:
                mj = dict(full_run=False, nv=None)
        else:
            row["mujoco_error"] = MUJOCO_ERROR

        # ---- naive NumPy: a full run when affordable, else a few steps; stepped in slices
        stepper, naive_full = None, False
        if cfg["naive"]:
            reg = sp["regularization"] or 1e-9
            nb = (lambda N=N: models.chain_naive(N, kind))
            per = naive_probe_per_step(nb, sp["alpha"], sp["beta"], reg, dt, cfg["eps_rule"])
            nsteps = full_steps
            naive_full = per * full_steps <= cfg["naive_full_budget"]
            if not naive_full:
                nsteps = int(min(full_steps, max(cfg["naive_min_steps"],
                                                 cfg["naive_limited_budget"] / per)))
            stepper = NaiveStepper(nb, sp["alpha"], sp["beta"], reg, cfg["eps_rule"], dt, nsteps,
                                   every)

        # ---- timing samples, back to back
        sp_t, mj_t = [], []
        for i in range(pairs):
            sp_t.append(simphant_run(builder, sample_steps * dt, dt, models.CHAIN_TIP_LOCAL,
                                     sample_steps * dt)["per_step"])
            if mujoco:
                mj_t.append(mujoco_run(xml, mj_sample * dt, dt, nsteps=mj_sample,
                                       chunk=mj_sample)["per_step"])
            if stepper is not None:
                stepper.advance(int(math.ceil((stepper.total - stepper.done) / (pairs - i))))
        row["loadavg_after"] = os.getloadavg()

        sp["per_step"] = median(sp_t)
        sp["per_step_samples"] = sp_t
        sp["per_sim_second"] = sp["per_step"] / dt
        sp["steps"] = full_steps
        row["simphant"] = sp
        if mj is not None:
            mj["per_step"] = median(mj_t)
            mj["per_step_samples"] = mj_t
            mj["sample_steps"] = mj_sample
            mj["per_sim_second"] = mj["per_step"] / dt
            mj["steps"] = full_steps if mj["full_run"] else mj_sample
            mj["ratio_simphant_over_mujoco_paired"] = _paired(sp_t, mj_t)
        row["mujoco"] = mj

        nv = None
        if stepper is not None:
            if naive_full and stepper.done < stepper.total:
                stepper.advance(stepper.total - stepper.done)
            nv = stepper.result(naive_full, N - 1, models.CHAIN_TIP_LOCAL)
            if nv["full_run"]:
                nv["tip_error"] = dist(nv["tip"], ref["tip"])   # vs SimPhant's dt/8 reference
                nv["tip_diff_vs_simphant"] = dist(nv["tip"], sp["tip"])
        row["naive"] = nv
        rows.append(row)
        log("[bench]   simphant %s  mujoco %s  naive %s" % (
            fmt_us(sp["per_step"]), fmt_us(mj and mj["per_step"]),
            fmt_us(nv and nv["per_step"])))
    results["chain"][kind] = rows


# ============================================================================ four-bar
def bench_fourbar(cfg, results):
    dt, t_end, ref_div = cfg["dt"], cfg["t_end"], cfg["ref_div"]
    pairs = cfg["pairs"]
    full_steps = int(round(t_end / dt))
    sample_steps = min(full_steps, cfg["sample_steps"])
    log("[bench] four-bar")
    tipl = models.fourbar_tip_local()

    def sp_once(dt_, t_end_, output_dt, baumgarte=None):
        m, bs = zoo.crank_rocker()
        kw = {} if baumgarte is None else dict(baumgarte=baumgarte)
        r = m.simulate(t_end=t_end_, dt=dt_, method="rk4", output_dt=output_dt, **kw)
        E = r.energy()["total"]
        v = r.constraint_violation()
        st = r.settings
        return dict(wall=st["wall_time"], steps=st["steps"], per_step=st["wall_time"] / st["steps"],
                    tip=r.point_position(bs[1], tipl)[-1].tolist(),
                    energy_drift_max=float(np.max(np.abs(E - E[0]))),
                    energy_drift_end=float(E[-1] - E[0]),
                    violation_max=float(np.max(v["position"])), alpha=st["alpha"],
                    beta=st["beta"], regularization=st.get("regularization"))

    out = dict(dt=dt, t_end=t_end, pairs=pairs, sample_steps=sample_steps,
               description=models.__doc__.split("Four-bar:")[1].strip())
    D = np.array(models.FOURBAR_POINTS["D"])
    D_local = D - np.array(models.FOURBAR_POINTS["C"])
    # MuJoCo's equality constraints are soft (reference acceleration of a spring-damper
    # with time constant solref[0], which must be >= 2 dt): run the stiffest allowed
    # setting (the comparable one) and MuJoCo's default for information.
    mj_variants = [("mujoco", (2.0 * dt, 1.0)), ("mujoco_default_solref", None)]
    mj_tip = (lambda m, d: mj_point(m, d, models.FOURBAR_TIP_MJ_BODY, models.fourbar_tip_mj_local()))
    mj_viol = (lambda m, d: float(np.linalg.norm(mj_point(m, d, "rocker", D_local) - D)))

    sp = sp_once(dt, t_end, cfg["output_dt"])
    sp["per_step_full_run"] = sp.pop("per_step")
    ref = sp_once(dt / ref_div, t_end, cfg["output_dt"], baumgarte=(sp["alpha"], sp["beta"]))
    sp["ref"] = dict(dt=dt / ref_div, tip=ref["tip"])
    sp["tip_error"] = dist(sp["tip"], ref["tip"])
    out["simphant"] = sp
    for name, solref in mj_variants:
        if not mujoco:
            out[name] = None
            out["mujoco_error"] = MUJOCO_ERROR
            continue
        mj = mujoco_run(models.fourbar_mjcf(dt, solref=solref), t_end, dt, tip=mj_tip,
                        violation=mj_viol)
        mj["per_step_full_run"] = mj.pop("per_step")
        # reference: the same (compliant) MuJoCo model, same solref, at dt / ref_div
        mref = mujoco_run(models.fourbar_mjcf(dt / ref_div, solref=solref), t_end, dt / ref_div,
                          tip=mj_tip, violation=mj_viol, chunk=10 * ref_div)
        mj["ref"] = dict(dt=dt / ref_div, tip=mref["tip"])
        mj["tip_error"] = dist(mj["tip"], mref["tip"])
        mj["tip_diff_vs_simphant_ref"] = dist(mj["tip"], ref["tip"])
        mj["constraint"] = ("equality connect, solref=%s, default solimp=(0.9, 0.95, 0.001)"
                            % ("(%g, 1)" % solref[0] if solref else "default (0.02, 1)"))
        out[name] = mj

    stepper = None
    if cfg["naive"]:
        every = max(1, int(round(cfg["output_dt"] / dt)))
        stepper = NaiveStepper(models.fourbar_naive, sp["alpha"], sp["beta"],
                               sp["regularization"] or 1e-9, cfg["eps_rule"], dt, full_steps, every)

    samples = {"simphant": []}
    samples.update({name: [] for name, _ in mj_variants})
    for i in range(pairs):
        samples["simphant"].append(sp_once(dt, sample_steps * dt, sample_steps * dt)["per_step"])
        if mujoco:
            for name, solref in mj_variants:
                samples[name].append(mujoco_run(models.fourbar_mjcf(dt, solref=solref),
                                                sample_steps * dt, dt, nsteps=sample_steps,
                                                chunk=sample_steps)["per_step"])
        if stepper is not None:
            stepper.advance(int(math.ceil((stepper.total - stepper.done) / (pairs - i))))
    for name in samples:
        if out.get(name):
            out[name]["per_step"] = median(samples[name])
            out[name]["per_step_samples"] = samples[name]
            if name != "simphant":
                out[name]["ratio_simphant_over_mujoco_paired"] = _paired(samples["simphant"],
                                                                         samples[name])
    if stepper is not None:
        stepper.advance(stepper.total - stepper.done)
        nv = stepper.result(True, 1, tipl)
        nv["tip_error"] = dist(nv["tip"], ref["tip"])
        nv["tip_diff_vs_simphant"] = dist(nv["tip"], sp["tip"])
        out["naive"] = nv
    results["fourbar"] = out
    log("[bench]   simphant %s  mujoco %s  naive %s" % (
        fmt_us(sp["per_step"]), fmt_us(out.get("mujoco") and out["mujoco"]["per_step"]),
        fmt_us(out.get("naive") and out["naive"]["per_step"])))


# ============================================================================ first step
FIRST_STEP_CODE = r"""
import time, json, sys
t0 = time.perf_counter()
sys.path.insert(0, %(root)r)
sys.path.insert(0, %(here)r)
from SimPhantWorkbench.solver import Model, zoo
t1 = time.perf_counter()
m, bodies = zoo.chain(64, "revolute")[:2]
t2 = time.perf_counter()
r = m.simulate(t_end=1e-3, dt=1e-3, method="rk4", output_dt=1e-3)
t3 = time.perf_counter()
assert r.settings["steps"] == 1
print(json.dumps(dict(import_s=t1 - t0, build_s=t2 - t1, step_s=t3 - t2, in_process_s=t3 - t0)))
"""


def first_step(repeats=3):
    """Median of ``repeats`` fresh interpreters, after one priming run (not counted) that
    makes sure numba's on-disk cache matches the solver source as it is now (it is
    rewritten when someone edits the kernels while the benchmark runs)."""
    code = FIRST_STEP_CODE % dict(root=ROOT, here=HERE)
    env = dict(os.environ)
    runs = []
    priming = None
    for i in range(repeats + 1):
        w0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           timeout=600)
        wall = time.perf_counter() - w0
        if p.returncode != 0:
            return dict(error=p.stderr[-2000:])
        d = json.loads(p.stdout.strip().splitlines()[-1])
        d["process_wall_s"] = wall
        if i == 0:
            priming = d
        else:
            runs.append(d)
    return dict(runs=runs, priming_run=priming,
                process_wall_s=median([r["process_wall_s"] for r in runs]),
                in_process_s=median([r["in_process_s"] for r in runs]),
                import_s=median([r["import_s"] for r in runs]),
                step_s=median([r["step_s"] for r in runs]))


# ============================================================================ derived
def bench_force_elements(cfg, results, N=64):
    """Per-RK4-step cost of the N-link revolute chain with a torsional spring-damper on
    every joint, relative to the same chain without them (paired samples, median)."""
    def build(springs):
        m, bodies = zoo.chain(N, "revolute")[:2]
        if springs:
            for j in m.joints:
                m.add_joint_spring(j, stiffness=5.0, damping=0.05)
        return m

    dt, steps = cfg["dt"], cfg["sample_steps"]
    plain, sprung = build(False), build(True)
    for m in (plain, sprung):                       # warm-up (compile or load the cache)
        m.simulate(t_end=2 * dt, dt=dt, output_dt=dt)
    ratios, t_plain, t_sprung = [], [], []
    for _ in range(max(cfg["pairs"], 5)):
        per = []
        for m in (plain, sprung):
            r = m.simulate(t_end=steps * dt, dt=dt, output_dt=steps * dt)
            per.append(float(r.settings["wall_time"]) / int(r.settings["steps"]))
        t_plain.append(per[0])
        t_sprung.append(per[1])
        ratios.append(per[1] / per[0])
    results["force_elements"] = dict(
        N=N, elements=N, kind="joint_spring (k, c) on every revolute joint", dt=dt,
        steps_per_sample=steps, per_step_plain=median(t_plain),
        per_step_with_springs=median(t_sprung), per_step_plain_samples=t_plain,
        per_step_with_springs_samples=t_sprung, ratio_samples=ratios,
        ratio_with_over_without=median(ratios))
    log("[bench] chain N=%d with %d joint spring-dampers: %.1f us/step vs %.1f us/step "
        "without, ratio %.3f (median of %d pairs)" % (
            N, N, 1e6 * median(t_sprung), 1e6 * median(t_plain), median(ratios), len(ratios)))


def derive(results):
    der = {}
    for kind, rows in results["chain"].items():
        Ns = [r["N"] for r in rows]
        sp = [r["simphant"]["per_step"] if r.get("simphant") else None for r in rows]
        mj = [r["mujoco"]["per_step"] if r.get("mujoco") else None for r in rows]
        nv = [r["naive"]["per_step"] if r.get("naive") else None for r in rows]
        spmin = [min(r["simphant"]["per_step_samples"]) if r.get("simphant") else None
                 for r in rows]
        der[kind] = dict(
            # median over back-to-back pairs of sample(SimPhant) / sample(MuJoCo)
            ratio_simphant_over_mujoco={str(r["N"]): (r["mujoco"].get(
                "ratio_simphant_over_mujoco_paired") if r.get("mujoco") else None) for r in rows},
            # ratio of the two medians (for comparison)
            ratio_of_medians={str(N): (s / m if s and m else None) for N, s, m in zip(Ns, sp, mj)},
            speedup_vs_naive={str(N): (n / s if s and n else None) for N, s, n in zip(Ns, sp, nv)},
            simphant_cost_exponent=loglog_slope(Ns, sp),
            simphant_cost_exponent_fastest_sample=loglog_slope(Ns, spmin),
            mujoco_cost_exponent=loglog_slope(Ns, mj),
            naive_cost_exponent=loglog_slope(Ns, nv),
        )
    fb = results.get("fourbar")
    if fb:
        der["fourbar"] = dict(
            ratio_simphant_over_mujoco=(fb["mujoco"]["ratio_simphant_over_mujoco_paired"]
                                        if fb.get("mujoco") else None),
            ratio_simphant_over_mujoco_default_solref=(
                fb["mujoco_default_solref"]["ratio_simphant_over_mujoco_paired"]
                if fb.get("mujoco_default_solref") else None),
            speedup_vs_naive=(fb["naive"]["per_step"] / fb["simphant"]["per_step"]
                              if fb.get("naive") else None))
    rv = der.get("revolute", {})
    fs = results.get("first_step") or {}
    got = dict(
        ratio_vs_mujoco_N64=rv.get("ratio_simphant_over_mujoco", {}).get("64"),
        ratio_vs_mujoco_N256=rv.get("ratio_simphant_over_mujoco", {}).get("256"),
        cost_exponent=rv.get("simphant_cost_exponent"),
        speedup_vs_naive_N64=rv.get("speedup_vs_naive", {}).get("64"),
        first_step_seconds=fs.get("process_wall_s"),
        spring_overhead_N64=(results.get("force_elements") or {}).get("ratio_with_over_without"),
    )
    targets = {}
    for k, lim in TARGETS.items():
        v = got[k]
        if v is None:
            met = None
        elif k.startswith("speedup"):
            met = v >= lim
        else:
            met = v <= lim
        targets[k] = dict(value=v, target=("<= %g" % lim if not k.startswith("speedup")
                                           else ">= %g" % lim), met=met)
    der["targets"] = targets
    results["derived"] = der


# ============================================================================ output
def fmt_us(s):
    if s is None:
        return "-"
    us = s * 1e6
    if us >= 1e5:
        return "%.0f ms" % (us / 1e3)
    if us >= 1e4:
        return "%.1f ms" % (us / 1e3)
    if us >= 1e3:
        return "%.2f ms" % (us / 1e3)
    return "%.1f us" % us


def fmt_e(x):
    return "-" if x is None else "%.1e" % x


def table(results):
    out = []
    hdr = ("%-9s %5s %-9s %11s %10s %6s %9s %9s %9s %9s"
           % ("chain", "N", "engine", "per step", "per sim s", "steps", "tip err", "E drift",
              "max|Phi|", "vs ref"))
    for kind, rows in results["chain"].items():
        out.append(hdr)
        out.append("-" * len(hdr))
        for r in rows:
            for eng in ("simphant", "mujoco", "naive"):
                e = r.get(eng)
                if not e:
                    continue
                steps = "%d" % e["steps"] + ("" if e.get("full_run", True) else "*")
                out.append("%-9s %5d %-9s %11s %10s %6s %9s %9s %9s %9s" % (
                    kind, r["N"], eng, fmt_us(e["per_step"]),
                    fmt_us(e["per_step"] / r["dt"]).replace(" us", " us"), steps,
                    fmt_e(e.get("tip_error")), fmt_e(e.get("energy_drift_max")),
                    fmt_e(e.get("violation_max")) if eng != "mujoco" else "-",
                    fmt_e(r.get("converged_tip_diff_simphant_vs_mujoco")) if eng == "mujoco" else ""))
        out.append("")
    fb = results.get("fourbar")
    if fb:
        out.append("four-bar (dt %g, t_end %g s):" % (fb["dt"], fb["t_end"]))
        for eng in ("simphant", "mujoco", "mujoco_default_solref", "naive"):
            e = fb.get(eng)
            if not e:
                continue
            out.append("  %-21s per step %10s  tip err %s  E drift %s  max|Phi| %s%s" % (
                eng, fmt_us(e["per_step"]), fmt_e(e.get("tip_error")),
                fmt_e(e.get("energy_drift_max")), fmt_e(e.get("violation_max")),
                ("  tip vs SimPhant ref %s" % fmt_e(e.get("tip_diff_vs_simphant_ref")))
                if eng.startswith("mujoco") else ""))
        out.append("  (mujoco: connect with solref=(2 dt, 1), the stiffest MuJoCo allows; "
                   "tip err vs the same engine at dt/%d)" % results["config"]["ref_div"])
        out.append("")
    der = results.get("derived", {})
    for kind in results["chain"]:
        d = der.get(kind, {})
        out.append("%s: SimPhant/MuJoCo per step (median of paired samples): %s" % (kind, ", ".join(
            "N=%s %s" % (k, "-" if v is None else "%.3g" % v)
            for k, v in d.get("ratio_simphant_over_mujoco", {}).items())))
        out.append("%s: (ratio of the medians: %s)" % (kind, ", ".join(
            "N=%s %s" % (k, "-" if v is None else "%.3g" % v)
            for k, v in d.get("ratio_of_medians", {}).items())))
        out.append("%s: speed-up vs naive NumPy: %s" % (kind, ", ".join(
            "N=%s %s" % (k, "-" if v is None else "%.0fx" % v)
            for k, v in d.get("speedup_vs_naive", {}).items())))
        out.append("%s: cost exponent (N=16..256) SimPhant %s, MuJoCo %s, naive %s" % (
            kind, *("-" if d.get(k) is None else "%.2f" % d[k] for k in
                    ("simphant_cost_exponent", "mujoco_cost_exponent", "naive_cost_exponent"))))
    fs = results.get("first_step")
    if fs:
        if "error" in fs:
            out.append("first step in a second process: FAILED: %s" % fs["error"])
        else:
            out.append("first step in a second process (N=64, median of %d): %.2f s process wall "
                       "(%.2f s in-process: import %.2f s, step %.2f s); priming run %.2f s"
                       % (len(fs["runs"]), fs["process_wall_s"], fs["in_process_s"],
                          fs["import_s"], fs["step_s"], fs["priming_run"]["process_wall_s"]))
    out.append("")
    out.append("targets (revolute chain):")
    for k, t in der.get("targets", {}).items():
        v = t["value"]
        out.append("  %-22s %-10s target %-8s %s" % (
            k, "-" if v is None else "%.3g" % v, t["target"],
            {True: "MET", False: "NOT MET", None: "n/a"}[t["met"]]))
    c = results["config"]
    out.append("(per step: median of %d timing samples of %d steps, taken back to back with the "
               "other engines; * = no full-length run, only that many steps timed (naive: median "
               "over single steps); tip err: |tip - tip of the same engine at dt/%d| after %g s "
               "(naive: vs SimPhant's dt/%d run); E drift: max |E(t) - E(0)| [J]; max|Phi| over "
               "samples every %g s; 'vs ref': |tip SimPhant(dt/%d) - tip MuJoCo(dt/%d)| [m])"
               % (c["pairs"], c["sample_steps"], c["ref_div"], c["t_end"], c["ref_div"],
                  c["output_dt"], c["ref_div"], c["ref_div"]))
    return "\n".join(out)


# ============================================================================ main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="short runs (t_end 0.2 s, 4 samples of 100 steps, smaller budgets; ~1.5 min)")
    ap.add_argument("--sizes", type=str, default="1,4,16,64,256")
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--t-end", type=float, default=None)
    ap.add_argument("--pairs", type=int, default=None,
                    help="timing samples per engine and N (default 10, quick 4)")
    ap.add_argument("--no-naive", action="store_true")
    ap.add_argument("--no-spherical", action="store_true")
    ap.add_argument("--no-fourbar", action="store_true")
    ap.add_argument("--no-first-step", action="store_true")
    ap.add_argument("--no-forces", action="store_true",
                    help="skip the force-element overhead case (N = 64 chain with springs)")
    ap.add_argument("--only-forces", action="store_true",
                    help="run only the force-element overhead case")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args(argv)

    quick = args.quick
    cfg = dict(
        dt=args.dt,
        t_end=args.t_end if args.t_end else (0.2 if quick else 1.0),
        pairs=args.pairs if args.pairs else (4 if quick else 10),
        sample_steps=100 if quick else 200,        # steps per timing sample
        ref_div=8,
        output_dt=0.01,
        mujoco_budget=5.0 if quick else 30.0,      # s of MuJoCo timing samples per (kind, N)
        mujoco_full_budget=5.0 if quick else 15.0,  # full-length MuJoCo run if below this
        mujoco_ref_budget=20.0 if quick else 80.0,  # its dt/ref_div reference if below this
        naive=not args.no_naive,
        naive_full_budget=3.0 if quick else 20.0,  # full run if estimated below this
        naive_limited_budget=2.0 if quick else 8.0,
        naive_min_steps=3,
        quick=quick,
        sizes=[int(s) for s in args.sizes.split(",") if s.strip()],
    )
    t_start = time.perf_counter()
    results = dict(config=cfg, machine=machine_info(), chain={})
    log("[bench] %s, %s cores, numpy %s, mujoco %s" % (
        results["machine"]["cpu_model"], results["machine"]["nproc"], np.__version__,
        results["machine"]["mujoco"] or "unavailable (%s)" % MUJOCO_ERROR))

    # ---- warm-up: the first call JIT-compiles or loads numba's cache
    w0 = time.perf_counter()
    zoo.chain(2, "revolute")[0].simulate(t_end=2e-3, dt=1e-3, output_dt=1e-3)
    results["warmup_first_call_s"] = time.perf_counter() - w0
    zoo.chain(2, "spherical")[0].simulate(t_end=2e-3, dt=1e-3, output_dt=1e-3)
    zoo.crank_rocker()[0].simulate(t_end=2e-3, dt=1e-3, output_dt=1e-3)
    log("[bench] warm-up (first SimPhant call in this process): %.2f s"
        % results["warmup_first_call_s"])

    # ---- the naive solver must reproduce SimPhant (else the comparison is meaningless)
    checks = test_naive.run_checks(test_naive.CASES + [("chain", 16, "revolute")], t_end=0.05)
    results["naive_consistency"] = checks
    cfg["eps_rule"] = checks[0]["eps_rule"]   # SimPhant's Tikhonov rule, mirrored by the naive solver
    worst = max(c["max_abs_state_diff"] for c in checks)
    log("[bench] naive vs SimPhant, max |dY| over %d short runs: %.2e (%s)"
        % (len(checks), worst, "ok" if all(c["ok"] for c in checks) else "MISMATCH"))
    if not all(c["ok"] for c in checks):
        log("[bench] WARNING: the naive NumPy solver does not reproduce SimPhant; see JSON")

    kinds = ["revolute"] + ([] if args.no_spherical else ["spherical"])
    for kind in ([] if args.only_forces else kinds):
        bench_chain(kind, cfg["sizes"], cfg, results)
    if not (args.no_fourbar or args.only_forces):
        bench_fourbar(cfg, results)
    if not args.no_forces:
        bench_force_elements(cfg, results)
    if not (args.no_first_step or args.only_forces):
        log("[bench] first step in a fresh process")
        results["first_step"] = first_step(3)
    derive(results)
    results["total_bench_seconds"] = time.perf_counter() - t_start
    try:
        results["machine"]["loadavg_end"] = os.getloadavg()
    except OSError:
        pass
    changed = solver_mtime() != results["machine"]["solver_source_mtime"]
    results["machine"]["solver_source_changed_during_run"] = changed
    if changed:
        log("[bench] NOTE: the solver's source changed while the benchmark ran; the numbers are "
            "for the code imported at the start (commit %s%s)" % (
                results["machine"]["git_commit"],
                ", with local changes" if results["machine"]["solver_tree_dirty"] else ""))

    txt = table(results)
    results["table"] = txt.splitlines()
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H%M")
    suffix = "_quick" if quick else ""
    path = os.path.join(args.out, "chain_%s%s.json" % (stamp, suffix))
    for p in (path, os.path.join(args.out, "latest%s.json" % suffix)):
        tmp = p + ".tmp"
        with open(tmp, "w") as f:
            json.dump(results, f, indent=1, default=float)
        os.replace(tmp, p)
    print(txt)
    print("\nwrote %s (total %.0f s)" % (path, results["total_bench_seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
