"""The summary of ``simphant run`` (stdout, ``summary.txt``) and its data (``run.json``)."""
import os

from ..output.events import count_text, event_counts, result_events
from .common import fmt

__all__ = ["analyse", "summary_lines", "interference_line"]


def analyse(run, result, path, wall_total):
    """Everything the summary reports, as plain data (also written to run.json): the
    model's facts (``run.check.model_facts``) and those of the run."""
    import numpy as np
    from ..document.base import study_joints
    from ..run.check import model_facts
    study = run.study
    e = result.energy()
    # with dampers, actuators, drivers and loads: kinetic + potential + dissipated -
    # actuator work - driver work - load work
    total = e.get("balance", e["total"])
    drift = float(np.abs(total - total[0]).max()) if len(total) else 0.0
    peak_ke = float(e["kinetic"].max()) if len(total) else 0.0
    viol = result.constraint_violation()
    s = result.settings
    info = dict(model=os.path.abspath(path))
    info.update(model_facts(run, residual=False))
    info.update(
        newton_iterations=s.get("newton_iterations"),
        method=s.get("method"), dt=s.get("dt"), t0=s.get("t0"), t_end=s.get("t_end"),
        output_dt=s.get("output_dt"), samples=len(result.t), steps=s.get("steps"),
        nfev=s.get("nfev"), solver_wall_time=s.get("wall_time"), wall_time=wall_total,
        compile_time=s.get("compile_time"), kernels_compiled=s.get("kernels_compiled"),
        energy_initial=float(total[0]) if len(total) else None,
        energy_drift_max=drift, kinetic_energy_peak=peak_ke,
        energy_drift_relative=drift / peak_ke if peak_ke > 0 else None,
        violation_position_max=float(viol["position"].max()) if len(result.t) else None,
        violation_velocity_max=float(viol["velocity"].max()) if len(result.t) else None,
        assembly=result.assembly.summary() if result.assembly is not None
        else result.assembly_summary,
        joint_labels=[j.Label for j in study_joints(study)],
        warnings=list(getattr(result, "warnings", [])),
        joint_motion=_joint_motion(result),
        drivers=_driver_info(result),
        stop_events=[[name, n, sides] for name, n, sides in event_counts(result_events(result))],
    )
    return info


def _joint_motion(result):
    """[joint, coordinate, min, max, unit] of every joint angle and slide over the run."""
    from ..output import JOINT_UNITS
    out = []
    if not getattr(result, "joint_frames", None) or not len(result.t):
        return out
    for j in result.joint_names:
        for dof in result.joint_dofs(j):
            x = result.joint_position(j, dof)
            out.append([j, dof, float(x.min()), float(x.max()), JOINT_UNITS[dof][0]])
    return out


def _driver_info(result):
    """Per driver: name, kind, peak |effort|, peak and mean power and its work over the run
    (plain data)."""
    import numpy as np
    from ..solver.drivers import DRIVER_TYPES
    out = []
    for name, kind in zip(getattr(result, "driver_names", []), getattr(result, "driver_kinds", [])):
        e, p = result.driver_effort(name), result.driver_power(name)
        if e.ndim == 2:
            e = np.linalg.norm(e, axis=1)
        spec = DRIVER_TYPES[kind]
        out.append(dict(name=name, kind=kind, effort=spec.effort, effort_unit=spec.effort_unit,
                        effort_peak=float(np.abs(e).max()) if len(e) else None,
                        power_peak=float(np.abs(p).max()) if len(p) else None,
                        power_mean=float(p.mean()) if len(p) else None,
                        work=float(result.driver_work(name)[-1]) if len(p) else None))
    return out


def summary_lines(info):
    """The human summary of ``_analyse``'s data, one string per line."""
    from ..run.check import fact_lines
    from ..solver.kernel_times import preparation_text
    L = []
    L.append("model      %s, study '%s'" % (info["model"], info["study"]))
    imported = info.get("imported_assembly")
    if imported:
        L.append("           imported from Assembly '%s' for this run (%s); saved only in %s"
                 % (imported["assembly"], imported["text"], imported["saved_in"]))
    for key, text in fact_lines(info):
        L.append("%-10s %s" % (key, text))
    dt = "adaptive" if info["dt"] is None else "dt %s" % fmt(info["dt"], "s")
    if info["method"] == "kinematic":
        dt = "positions by Newton-Raphson (%d iterations in all)" % (
            info.get("newton_iterations") or 0)
    L.append("run        %s, %s, t = %s .. %s s, %d samples every %s"
             % (info["method"], dt, fmt(info["t0"] or 0.0), fmt(info["t_end"]),
                info["samples"], fmt(info["output_dt"], "s")))
    steps = info["steps"] or 0
    span = (info["t_end"] or 0.0) - (info["t0"] or 0.0)
    L.append("steps      %d%s, %d force evaluations, %s solver wall time"
             % (steps, " (mean step %s)" % fmt(span / steps, "s") if steps else "",
                info["nfev"] or 0, fmt(info["solver_wall_time"] or 0, "s"))
             + (" (+ %s)" % preparation_text(info) if preparation_text(info) else ""))
    if info["energy_initial"] is not None:
        rel = info["energy_drift_relative"]
        line = "energy     E0 = %s, max |E - E0| = %s" % (fmt(info["energy_initial"], "J"),
                                                         fmt(info["energy_drift_max"], "J"))
        if rel is not None:
            line += " = %.3g of the peak kinetic energy (%s)" % (
                rel, fmt(info["kinetic_energy_peak"], "J"))
        terms = ((" + dissipated - actuator work" if info.get("force_elements") else "")
                 + (" - driver work" if info.get("drivers") else ""))
        if terms:
            line += " (E = kinetic + potential%s)" % terms
        if info["loads"]:
            line += "; loads do work, E is not conserved"
        L.append(line)
        L.append("violation  max |Phi| = %s (m or rad), max |Phi_dot| = %s (m/s or rad/s)"
                 % (fmt(info["violation_position_max"]), fmt(info["violation_velocity_max"])))
    for d in info.get("drivers") or []:
        if d["effort_peak"] is not None:
            line = ("driver     %s (%s): max |%s| = %s, max |power| = %s, mean power = %s"
                    % (d["name"], d["kind"], d["effort"], fmt(d["effort_peak"], d["effort_unit"]),
                       fmt(d["power_peak"], "W"), fmt(d["power_mean"], "W")))
            if d.get("work") is not None:
                line += ", work = %s" % fmt(d["work"], "J")
            L.append(line)
    assembly = (info["assembly"] or "").splitlines() or ["(no report)"]
    L.append("assembly   " + assembly[0])
    L.extend("           " + a.strip() for a in assembly[1:])
    motion = info.get("joint_motion") or []
    if motion:
        L.append("motion     " + ", ".join("%s %s %s .. %s %s" % (j, dof, fmt(lo), fmt(hi), u)
                                           for j, dof, lo, hi, u in motion[:4]))
        if len(motion) > 4:
            L.append("           and %d more joint coordinates (joints.csv)" % (len(motion) - 4))
    counts = info.get("stop_events") or []
    if counts:
        L.append("events     %d end stop contacts: %s (events.csv)"
                 % (sum(n for _, n, _ in counts), count_text(counts)))
    line = interference_line(info.get("interference"))
    if line is not None:
        L.append(line)
    for w in info.get("warnings") or []:
        L.append("warning    " + w)
    return L



def interference_line(data):
    """The summary's line of an interference check: ``collision.along.Interference.summary()``
    (or ``dict(unavailable=why)``); None without one."""
    if not data:
        return None
    if data.get("unavailable"):
        return "collisions not checked: %s" % data["unavailable"]
    mm = 1e3
    n_excluded = len(data["excluded"])
    head = "collisions %d pairs checked%s, deflection %s mm" % (
        data["pairs"], " (%d excluded: joints, fixed)" % n_excluded if n_excluded else "",
        fmt(data["deflection"] * mm))
    if not data["complete"]:
        head += " (search stopped early for some pairs: the figures are those found)"
    hits = data["interfering"]
    if hits:
        parts = ["%s - %s %s .. %s s, depth %s mm" % (
            h["a"], h["b"], fmt(h["intervals"][0][0]), fmt(h["intervals"][-1][1]),
            fmt(h["max_depth"] * mm)) for h in hits[:3]]
        more = "; and %d more pairs (interference.csv)" % (len(hits) - 3) if len(hits) > 3 else ""
        return "%s: %d interfering: %s%s" % (head, len(hits), "; ".join(parts), more)
    close = data["closest"]
    if close is None:
        return "%s: no pair to check" % head
    return "%s: none; smallest clearance %s mm (%s - %s at t = %s s)" % (
        head, fmt(max(close["min_distance"], 0.0) * mm), close["a"], close["b"],
        fmt(close["time"]))
