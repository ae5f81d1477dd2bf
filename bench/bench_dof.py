"""Time the mechanism check (``Model.dof_report``) and the joint outputs of a result
(``joint_position``/``joint_velocity``/``joint_acceleration`` of every joint, reactions in
the joint frame) on the test zoo's closed loops and chains.

    tools/run_python.sh bench/bench_dof.py [--repeat N] [--json FILE]

Medians of N runs (default 5); writes JSON (default bench/results/dof.json).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from SimPhantWorkbench.solver.zoo import bricard, chain, four_bar, parallelogram_chain  # noqa: E402


def timed(fn, repeat):
    times = []
    value = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, value


def joint_outputs(r):
    for j in r.joint_names:
        for dof in r.joint_dofs(j):
            r.joint_position(j, dof)
            r.joint_velocity(j, dof)
            r.joint_acceleration(j, dof)
        r.reaction_force(j, frame="joint")
        r.reaction_torque(j, frame="joint")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "dof.json"))
    args = ap.parse_args()
    cases = [("four_bar", lambda: four_bar()[0]), ("bricard", lambda: bricard()[0]),
             ("parallelogram_chain_10", lambda: parallelogram_chain(10)[0]),
             ("parallelogram_chain_40", lambda: parallelogram_chain(40)[0]),
             ("chain_100", lambda: chain(100)[0])]
    out = {"machine": platform.machine(), "python": platform.python_version(),
           "repeat": args.repeat, "cases": {}}
    for name, build in cases:
        m = build()
        m.dof_report()                     # compile the kernels once
        med, all_, rep = timed(m.dof_report, args.repeat)
        r = m.simulate(t_end=1.0, dt=1e-3, output_dt=1e-3)
        med_j, all_j, _ = timed(lambda: joint_outputs(r), args.repeat)
        out["cases"][name] = {
            "bodies": len(m.bodies), "joints": len(m.joints), "mobility": rep.mobility,
            "gruebler": rep.gruebler, "redundant": rep.redundant,
            "suggestions": len(rep.suggestions), "singular": rep.singular,
            "dof_report_s": {"median": med, "all": all_},
            "samples": len(r.t),
            "joint_outputs_s": {"median": med_j, "all": all_j}}
        print("%-24s %4d bodies  mobility %3d  redundant %3d  dof_report %.4f s  "
              "joint outputs (%d samples) %.4f s"
              % (name, len(m.bodies), rep.mobility, rep.redundant, med, len(r.t), med_j))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
