"""The summary of ``simphant run`` (stdout, ``summary.txt``) and its data (``run.json``)."""
import os

from .common import fmt

__all__ = ["analyse", "summary_lines"]


#: above this many moving bodies the Jacobian's rank (a dense SVD) is not computed
_RANK_MAX_BODIES = 200


def _dof_report(model):
    """The model's ``DofReport`` at t0 (solver/dof.py), or None if it cannot be had."""
    if len(model.bodies) > _RANK_MAX_BODIES:
        return None
    try:
        return model.dof_report()
    except Exception:  # noqa: BLE001 - informative only
        return None


def analyse(study, conv, result, path, wall_total):
    """Everything the summary reports, as plain data (also written to run.json)."""
    import numpy as np
    from ..document.base import study_bodies, study_joints, study_loads
    bodies = study_bodies(study)
    model = conv.model
    drivers = list(getattr(model, "drivers", []))
    rows = sum(len(j.spec.rows) for j in model.joints) + sum(d.nrows for d in drivers)
    e = result.energy()
    # with dampers, actuators and drivers: kinetic + potential + dissipated - actuator
    # work - driver work
    total = e.get("balance", e["total"])
    drift = float(np.abs(total - total[0]).max()) if len(total) else 0.0
    peak_ke = float(e["kinetic"].max()) if len(total) else 0.0
    viol = result.constraint_violation()
    s = result.settings
    rep = _dof_report(model)
    info = dict(
        model=os.path.abspath(path), study=study.Label,
        moving_bodies=list(result.body_names),
        fixed_bodies=[b.Label for b in bodies if b.Fixed],
        joints=[[j.name, j.kind] for j in model.joints],
        loads=[o.Label for o in study_loads(study)],
        gruebler_dof=model.degrees_of_freedom(), constraint_equations=rows,
        newton_iterations=s.get("newton_iterations"),
        jacobian_rank=None if rep is None else rep.rank,
        mobility=None if rep is None else rep.mobility,
        dof=None if rep is None else rep.to_dict(),
        method=s.get("method"), dt=s.get("dt"), t0=s.get("t0"), t_end=s.get("t_end"),
        output_dt=s.get("output_dt"), samples=len(result.t), steps=s.get("steps"),
        nfev=s.get("nfev"), solver_wall_time=s.get("wall_time"), wall_time=wall_total,
        compile_time=s.get("compile_time"),
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
        force_elements=[[n, k] for n, k in zip(getattr(result, "force_names", []),
                                               getattr(result, "force_kinds", []))],
        drivers=_driver_info(result),
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
    """Per driver: name, kind, peak |effort| and peak and mean power (plain data)."""
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
                        power_mean=float(p.mean()) if len(p) else None))
    return out


def summary_lines(info):
    """The human summary of ``_analyse``'s data, one string per line."""
    L = []
    L.append("model      %s, study '%s'" % (info["model"], info["study"]))
    mov, fix = info["moving_bodies"], info["fixed_bodies"]
    L.append("bodies     %d moving (%s)%s" % (len(mov), ", ".join(mov),
                                            ", %d fixed (%s)" % (len(fix), ", ".join(fix))
                                            if fix else ""))
    js = info["joints"]
    L.append("joints     %d%s" % (len(js), (": " + ", ".join("%s (%s)" % (n, k) for n, k in js))
                                  if js else ""))
    if info["loads"]:
        L.append("loads      %s" % ", ".join(info["loads"]))
    if info.get("force_elements"):
        L.append("elements   %s (forces in forces.csv, forces.png)" % ", ".join(
            "%s (%s)" % (n, k) for n, k in info["force_elements"]))
    dof = "DOF        %d (Gruebler: 6 x %d bodies - %d constraint equations)" % (
        info["gruebler_dof"], len(mov), info["constraint_equations"])
    if info["mobility"] is not None and info["mobility"] != info["gruebler_dof"]:
        dof += "; mobility %d (%d redundant equations, closed loops)" % (
            info["mobility"], info["constraint_equations"] - info["jacobian_rank"])
    L.append(dof)
    if info.get("dof"):
        from ..solver.dof import report_lines
        for key, text in report_lines(info["dof"]):
            L.append("           %s: %s" % (key, text))
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
             + (" (+ %s compiling/loading the solver kernels, first use only)"
                % fmt(info["compile_time"], "s") if info.get("compile_time") else ""))
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
            L.append("driver     %s (%s): max |%s| = %s, max |power| = %s, mean power = %s"
                     % (d["name"], d["kind"], d["effort"], fmt(d["effort_peak"], d["effort_unit"]),
                        fmt(d["power_peak"], "W"), fmt(d["power_mean"], "W")))
    assembly = (info["assembly"] or "").splitlines() or ["(no report)"]
    L.append("assembly   " + assembly[0])
    L.extend("           " + a.strip() for a in assembly[1:])
    motion = info.get("joint_motion") or []
    if motion:
        L.append("motion     " + ", ".join("%s %s %s .. %s %s" % (j, dof, fmt(lo), fmt(hi), u)
                                           for j, dof, lo, hi, u in motion[:4]))
        if len(motion) > 4:
            L.append("           and %d more joint coordinates (joints.csv)" % (len(motion) - 4))
    for w in info.get("warnings") or []:
        L.append("warning    " + w)
    return L
