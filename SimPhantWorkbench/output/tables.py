"""CSV tables of a run (``body_<name>.csv``, ``reactions.csv``, ``joints.csv``,
``forces.csv``, ``energy.csv``, ``drivers.csv``; see ``SimPhantWorkbench.output``).

One header row, names with units in brackets, ``,`` separated, numbers written
with ``repr`` (shortest exact round trip: reading them back gives the very floats
of the result).
"""
import csv
import re

import numpy as np


__all__ = ["BODY_COLUMNS", "REACTION_COMPONENTS", "JOINT_UNITS", "ENERGY_COLUMNS", "safe_name",
           "body_csv_name", "has_joint_frames", "is_rotation", "write_body_csv",
           "write_reactions_csv", "write_joints_csv", "write_forces_csv", "write_energy_csv",
           "driver_columns", "write_drivers_csv", "INTERFERENCE_COLUMNS", "interference_rows",
           "write_interference_csv"]

BODY_COLUMNS = (
    "time [s]",
    "cog_x [m]", "cog_y [m]", "cog_z [m]",
    "q_w [1]", "q_x [1]", "q_y [1]", "q_z [1]",
    "angle_x [rad]", "angle_y [rad]", "angle_z [rad]",
    "v_x [m/s]", "v_y [m/s]", "v_z [m/s]",
    "omega_x [rad/s]", "omega_y [rad/s]", "omega_z [rad/s]",
)
REACTION_COMPONENTS = ("F_x [N]", "F_y [N]", "F_z [N]", "T_x [N m]", "T_y [N m]", "T_z [N m]")
#: after the column name of a reaction component the model leaves indeterminate
INDETERMINATE = " (indeterminate)"
#: unit of a joint coordinate ("angle", "slide"), of its rate and acceleration
JOINT_UNITS = {"angle": ("rad", "rad/s", "rad/s^2"), "slide": ("m", "m/s", "m/s^2")}
ENERGY_COLUMNS = ("time [s]", "kinetic [J]", "potential [J]", "total [J]",
                  "max_abs_phi [m or rad]", "max_abs_phi_dot [m/s or rad/s]")



def safe_name(name):
    """A file-name-safe version of an object name (letters, digits, ``_ . -``)."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(name)).strip("._")
    return s or "unnamed"


def body_csv_name(result, name):
    """File name of the CSV of body ``name`` (made unique among the result's bodies)."""
    names = [safe_name(n) for n in result.body_names]
    i = result.body_names.index(name)
    s = names[i]
    if names.count(s) > 1:
        s = "%s_%d" % (s, i + 1)
    return "body_%s.csv" % s



#: line end of csv.writer's default dialect, used for every row
_CSV_EOL = csv.excel.lineterminator


def _write_table(path, header, columns):
    """Write columns (each (n,) array) under ``header``; floats as ``repr``."""
    data = np.column_stack(columns) if columns else np.zeros((0, 0))
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        # the rows as csv.writer writes them (numbers never need quoting), built in
        # one go: tolist() gives Python floats, whose repr is the shortest round trip
        if len(data):
            fh.write(_CSV_EOL.join(",".join(map(repr, row)) for row in data.tolist()))
            fh.write(_CSV_EOL)
    return path


def write_body_csv(result, name, path):
    """Pose and velocities of moving body ``name``, one row per sample (``BODY_COLUMNS``)."""
    cols = [result.t]
    cols += list(result.position(name).T)
    cols += list(result.quaternion(name).T)
    cols += list(result.euler_angles(name).T)
    cols += list(result.velocity(name).T)
    cols += list(result.angular_velocity(name).T)
    return _write_table(path, BODY_COLUMNS, cols)


def write_reactions_csv(result, path):
    """``time [s]`` then, per joint, ``"<joint> F_x [N]"`` ... ``"<joint> T_z [N m]"``, then
    the same per coupler (what it exerts on its second body, ``Result.coupler_force``)."""
    header = ["time [s]"]
    cols = [result.t]
    for j in result.joint_names:
        header += ["%s %s%s" % (j, c, INDETERMINATE if f else "")
                   for c, f in zip(REACTION_COMPONENTS, result.reaction_indeterminate(j))]
        cols += list(result.reaction_force(j).T) + list(result.reaction_torque(j).T)
    for c in getattr(result, "coupler_names", []):
        header += ["%s %s" % (c, comp) for comp in REACTION_COMPONENTS]
        cols += list(result.coupler_force(c).T) + list(result.coupler_torque(c).T)
    return _write_table(path, header, cols)


def has_joint_frames(result):
    return bool(getattr(result, "joint_frames", None))


def write_joints_csv(result, path):
    """``time [s]``; per joint coordinate ``"<joint> angle [rad]"``, ``"<joint> angle
    rate [rad/s]"``, ``"<joint> angle acceleration [rad/s^2]"`` (slides in m); then per
    joint ``"<joint> F_x (joint axes) [N]"`` ... ``"<joint> T_z (joint axes) [N m]"``:
    the reaction on its second body in its first body's joint frame (axes, and the torque
    about that frame's origin: ``Result.reaction_torque(j, frame="joint")``)."""
    header = ["time [s]"]
    cols = [result.t]
    for j in result.joint_names:
        for dof in result.joint_dofs(j):
            u, du, ddu = JOINT_UNITS[dof]
            header += ["%s %s [%s]" % (j, dof, u), "%s %s rate [%s]" % (j, dof, du),
                       "%s %s acceleration [%s]" % (j, dof, ddu)]
            cols += [result.joint_position(j, dof), result.joint_velocity(j, dof),
                     result.joint_acceleration(j, dof)]
    for j in result.joint_names:
        header += ["%s %s (joint axes) %s%s" % ((j,) + tuple(c.split(" ", 1))
                                                 + (INDETERMINATE if f else "",))
                   for c, f in zip(REACTION_COMPONENTS,
                                   result.reaction_indeterminate(j, frame="joint"))]
        cols += list(result.reaction_force(j, frame="joint").T)
        cols += list(result.reaction_torque(j, frame="joint").T)
    return _write_table(path, header, cols)


def write_forces_csv(result, path):
    """``time [s]`` then, per force element, ``"<name> x"``, ``"<name> x_dot"``,
    ``"<name> force"`` and ``"<name> power [W]"`` (units by kind: a joint rotation's
    coordinate in rad, its force a moment in N m)."""
    header = ["time [s]"]
    cols = [result.t]
    kinds = getattr(result, "force_kinds", [])
    for i, name in enumerate(getattr(result, "force_names", [])):
        rot = is_rotation(result, i)
        x, v, f = ("rad", "rad/s", "N m") if rot else ("m", "m/s", "N")
        header += ["%s %s [%s]" % (name, "angle" if rot else ("slide" if kinds[i].startswith(
            "joint") else "length"), x), "%s rate [%s]" % (name, v),
            "%s %s [%s]" % (name, "moment" if rot else "force", f), "%s power [W]" % name]
        cols += [result.spring_length(name), result.spring_rate(name),
                 result.spring_force(name), result.spring_power(name)]
    return _write_table(path, header, cols)


def is_rotation(result, i):
    dofs = getattr(result, "force_dofs", None)
    return bool(dofs) and dofs[i] == "rotation"


def write_energy_csv(result, path):
    """Energies and constraint violations per sample (``ENERGY_COLUMNS``)."""
    e = result.energy()
    v = result.constraint_violation()
    return _write_table(path, ENERGY_COLUMNS, [result.t, e["kinetic"], e["potential"],
                                               e["total"], v["position"], v["velocity"]])


def driver_columns(result, name):
    """Column names of driver ``name`` in ``drivers.csv`` (units of its kind)."""
    i = result.driver_names.index(name)
    from ..solver.drivers import DRIVER_TYPES
    spec = DRIVER_TYPES[result.driver_kinds[i]]
    rows = result.driver_row_counts[i]
    comps = [""] if rows == 1 else ["_%s" % c for c in "xyz"[:rows]]
    cols = []
    for what, unit in (("value", spec.unit), ("rate", spec.rate_unit),
                       (spec.effort, spec.effort_unit)):
        cols += ["%s %s%s [%s]" % (name, what, c, unit) for c in comps]
    return cols + ["%s power [W]" % name, "%s work [J]" % name]


def write_drivers_csv(result, path):
    """``time [s]`` then, per driver, value, rate, effort, power and work since the start
    (``driver_columns``)."""
    header = ["time [s]"]
    cols = [result.t]
    for d in result.driver_names:
        header += driver_columns(result, d)
        for series in (result.driver_value(d), result.driver_rate(d), result.driver_effort(d)):
            cols += list(series.T) if series.ndim == 2 else [series]
        cols += [result.driver_power(d), result.driver_work(d)]
    return _write_table(path, header, cols)


INTERFERENCE_COLUMNS = (
    "body_a", "body_b", "status", "min_distance [m]", "time_of_min [s]", "start [s]",
    "end [s]", "max_depth [m]", "time_of_max_depth [s]",
    "point_a_x [m]", "point_a_y [m]", "point_a_z [m]",
    "point_b_x [m]", "point_b_y [m]", "point_b_z [m]")


def interference_rows(check):
    """The rows of ``interference.csv`` for a ``collision.along.Interference``: one per
    interval of interference (status ``interference``), one per pair without any
    (``clear``; witness points where the clearance is smallest), one per pair left out
    (``excluded: <why>``, no figures)."""
    rows = []
    for r in check.reports:
        head = [r.a, r.b]
        if r.intervals:
            for iv in r.intervals:
                rows.append(head + ["interference", r.min_distance, r.time_of_min, iv.start,
                                    iv.end, iv.max_depth, iv.time_of_max]
                            + list(iv.point_a) + list(iv.point_b))
        else:
            pts = list(r.point_a) + list(r.point_b) if r.point_a is not None else [""] * 6
            rows.append(head + ["clear", r.min_distance, r.time_of_min, "", "", 0.0, ""] + pts)
    for a, b, why in check.excluded:
        rows.append([a, b, "excluded: %s" % why] + [""] * 12)
    return rows


def write_interference_csv(check, path):
    """``interference.csv`` (``INTERFERENCE_COLUMNS``, ``interference_rows``)."""
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(INTERFERENCE_COLUMNS)
        for row in interference_rows(check):
            w.writerow([repr(float(x)) if isinstance(x, (float, np.floating)) else x
                        for x in row])
    return path
