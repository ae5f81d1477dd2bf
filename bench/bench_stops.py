"""End stops through repeated impacts: SimPhant's compliant stops against MuJoCo's joint
limits on a 16-link revolute chain, per-step time and rebound height at equal accuracy.

Mechanism: the revolute chain of ``SimPhantWorkbench/solver/zoo.py`` (``bench/models.py``
for MuJoCo: bars of 1 m, 1 kg, released horizontal), every joint limited to
``[-LIMIT, LIMIT]``. SimPhant: an end stop on every joint, the linear contact law
``k p`` with damping ``c`` (full at ``d_max``), RK4. MuJoCo: ``limited="true"`` with
``solreflimit="-K -B"`` (its direct stiffness and damping, accelerations per unit
penetration and rate) of the same ``k``, ``c`` per unit inertia of the last bar about
its joint, RK4. The two contact models differ (MuJoCo's soft constraint acts in
acceleration, scaled by each limit's effective inertia), so each engine is measured
against its own reference (its run at the smallest step): the *rebound height* is the
tip's highest point over ``[T_REBOUND, T_END]`` (the chain, folded onto its limits on
the way down, swings through the bottom and up the other side), and *at equal accuracy* means the largest step whose
rebound height is within ``TOL`` of that reference.

Per step size: the median per-step time of each engine over ``--pairs`` paired runs
(SimPhant, MuJoCo, SimPhant, ...: load hits both alike), their ratio, the rebound heights
and the number of limit contacts. JSON: ``bench/results/stops_<date>.json``.

``tools/run_python.sh bench/bench_stops.py [--pairs 3] [--dts 4e-4,2e-4,1e-4,5e-5]``
(MuJoCo via ``bench/install_deps.sh``; without it the MuJoCo columns are empty).
"""
import argparse
import datetime
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
DEPS = os.path.join(HERE, ".deps")
for _p in (ROOT, HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)
if os.path.isdir(DEPS) and DEPS not in sys.path:
    sys.path.append(DEPS)
os.environ.setdefault("MUJOCO_GL", "disable")
try:
    import mujoco
except Exception:       # noqa: BLE001 (any import failure: no MuJoCo columns)
    mujoco = None

import models  # noqa: E402
from SimPhantWorkbench.solver import zoo  # noqa: E402

N = 16
LIMIT = 0.3                 # rad, either way
K = 2.0e3                   # N m / rad
C = 2.0                     # N m s / rad
D_MAX = 0.01                # rad
T_END = 3.5
T_REBOUND = 2.0
TOL = 1e-3                  # m, rebound height against the engine's own reference
I_LAST = models.MASS / 3.0    # the last bar about its joint: m L^2 / 3 [kg m^2]


def simphant(dt):
    m, bodies, joints = zoo.chain(N)
    for j in joints:
        m.add_joint_stop(j, lower=-LIMIT, upper=LIMIT, stiffness=K, exponent=1.0,
                         damping=C, penetration=D_MAX)
    r = m.simulate(t_end=T_END, dt=dt, method="rk4", output_dt=max(dt, 1e-3))
    tip = r.point_position(bodies[-1], (0.5, 0.0, 0.0))[:, 2]
    late = r.t >= T_REBOUND
    return dict(per_step=r.settings["wall_time"] / r.settings["steps"],
                rebound=float(tip[late].max()), contacts=len(r.stop_events()),
                warnings=len([w for w in r.warnings if "end stop" in w]))


def mujoco_xml(dt):
    xml = models.chain_mjcf(N, "revolute", dt)
    limit = (' limited="true" range="%r %r" solreflimit="%r %r"'
             % (-LIMIT, LIMIT, -K / I_LAST, -C / I_LAST))
    return xml.replace(' damping="0" armature="0"/>', ' damping="0" armature="0"%s/>' % limit)


def mujoco_run(dt):
    m = mujoco.MjModel.from_xml_string(mujoco_xml(dt))
    d = mujoco.MjData(m)
    n = int(round(T_END / dt))
    every = max(1, int(round(1e-3 / dt)))
    bid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, "link%d" % (N - 1))
    wall, high, contacts, was = 0.0, -np.inf, 0, np.zeros(N, dtype=bool)
    done = 0
    while done < n:
        k = min(every, n - done)
        w0 = time.perf_counter()
        mujoco.mj_step(m, d, k)
        wall += time.perf_counter() - w0
        done += k
        mujoco.mj_forward(m, d)
        past = np.zeros(N, dtype=bool)         # the joints whose limit is active
        lim = d.efc_type[:d.nefc] == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT
        past[d.efc_id[:d.nefc][lim]] = True
        contacts += int(np.sum(past & ~was))
        was = past
        if d.time >= T_REBOUND:
            tip = d.xpos[bid] + d.xmat[bid].reshape(3, 3) @ np.array(models.CHAIN_TIP_MJ_LOCAL)
            high = max(high, float(tip[2]))
    return dict(per_step=wall / n, rebound=high, contacts=contacts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--dts", default="4e-4,2e-4,1e-4,5e-5")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    dts = sorted((float(x) for x in a.dts.split(",")), reverse=True)
    rows = []
    for dt in dts:
        sp, mj = [], []
        for _ in range(a.pairs):
            sp.append(simphant(dt))
            if mujoco is not None:
                mj.append(mujoco_run(dt))
        row = dict(dt=dt, simphant_per_step=float(np.median([s["per_step"] for s in sp])),
                   simphant_rebound=sp[0]["rebound"], simphant_contacts=sp[0]["contacts"],
                   simphant_step_warnings=sp[0]["warnings"])
        if mj:
            row.update(mujoco_per_step=float(np.median([s["per_step"] for s in mj])),
                       mujoco_rebound=mj[0]["rebound"], mujoco_contacts=mj[0]["contacts"],
                       ratio_median=float(np.median([s["per_step"] / m["per_step"]
                                                     for s, m in zip(sp, mj)])))
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = dict(date=datetime.datetime.now(datetime.timezone.utc).isoformat(), N=N,
               limit=LIMIT, k=K, c=C, d_max=D_MAX, t_end=T_END, t_rebound=T_REBOUND, tol=TOL,
               mujoco=getattr(mujoco, "__version__", None), rows=rows)
    for eng in ("simphant", "mujoco"):
        key = eng + "_rebound"
        if rows and key in rows[-1]:
            ref = rows[-1][key]
            ok = [r for r in rows[:-1] if abs(r[key] - ref) <= TOL]
            if ok:
                best = max(ok, key=lambda r: r["dt"])
                out[eng + "_equal_accuracy"] = dict(
                    dt=best["dt"], per_step=best[eng + "_per_step"],
                    per_simulated_second=best[eng + "_per_step"] / best["dt"])
    os.makedirs(RESULTS, exist_ok=True)
    path = a.json or os.path.join(RESULTS, "stops_%s.json"
                                  % datetime.date.today().isoformat())
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1)
    print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
