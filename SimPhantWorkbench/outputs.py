"""Files made from a run: CSV tables, PNG plots and an animation.

Everything here reads a solver ``Result`` (SI units, world axes) and writes one
file per call; only ``body_meshes`` touches FreeCAD (it tessellates the bodies'
shapes once). Matplotlib is imported lazily and every figure gets its own Agg
canvas (no pyplot), so nothing here needs a display or disturbs a GUI; the GIF
is assembled with Pillow.

Files (``write_all`` writes them all)
=====================================
``body_<name>.csv``  one per moving body, one row per output sample:
                     time, CoG position, orientation quaternion (w, x, y, z),
                     Z-Y-X Euler angles (``A = Rz(angle_z) Ry(angle_y) Rx(angle_x)``,
                     for display), CoG velocity, angular velocity (world axes).
                     One file per body rather than one wide table: every file
                     has the same 17 columns whatever the model, so it opens
                     as is in a spreadsheet or ``numpy.loadtxt``.
``reactions.csv``    per joint: force [N] and torque [N m] the joint exerts on
                     its second body, world axes, torque about that body's
                     joint point.
``joints.csv``       per joint with an angle or a slide (revolute, prismatic,
                     cylindrical, planar): its angle [rad] (unwrapped) or slide
                     [m], their rates and accelerations; and per joint the
                     reaction force and torque of ``reactions.csv`` in the
                     joint's frame on its first body (its axes; the torque
                     about its origin).
``forces.csv``       per force element (when the model has any): its coordinate
                     (length [m], joint angle [rad] or slide [m]), rate, force
                     [N] or moment [N m] and power [W].
``energy.csv``       kinetic, potential (gravity and springs) and total energy [J], and the
                     largest constraint violation |Phi| (lengths in m, angles in
                     rad) and |Phi_dot|.
``drivers.csv``      only with drivers: per driver its prescribed value [rad or m] and
                     rate, its effort (motor torque [N m] / actuator force [N] on the
                     joint's second body) and its power [W].
``positions.png``, ``energy.png``, ``reactions.png``, ``joints.png``   plots of
                     the same data (``joints.png``: joint angles and slides);
``drivers.png`` (with drivers) their efforts and powers; ``forces.png`` (with force
                     elements) per element its force or moment, its coordinate and power.
``animation.gif``    the bodies drawn at their poses in a 3-D view, about 50 frames
                     played in real time (``render_animation``).

CSV files have one header row, names with units in brackets, ``,`` separated,
numbers written with ``repr`` (shortest exact round trip: reading them back
gives the very floats of the result).
"""
import csv
import math
import os
import re

import numpy as np

__all__ = ["BODY_COLUMNS", "ENERGY_COLUMNS", "REACTION_COMPONENTS", "PLOT_DPI", "LEGEND_MAX",
           "POSITIONS_SIZE", "ENERGY_SIZE", "reactions_size", "ANIMATION_SIZE",
           "ANIMATION_FRAMES", "safe_name", "body_csv_name", "write_body_csv",
           "write_reactions_csv", "write_forces_csv",
           "write_energy_csv", "write_drivers_csv", "driver_columns",
           "plot_drivers", "plot_forces", "plot_positions", "plot_energy",
           "JOINT_UNITS", "write_joints_csv", "plot_joint_motion",
           "plot_reactions", "Mesh", "body_meshes", "frame_indices", "render_animation",
           "write_all"]

BODY_COLUMNS = (
    "time [s]",
    "cog_x [m]", "cog_y [m]", "cog_z [m]",
    "q_w [1]", "q_x [1]", "q_y [1]", "q_z [1]",
    "angle_x [rad]", "angle_y [rad]", "angle_z [rad]",
    "v_x [m/s]", "v_y [m/s]", "v_z [m/s]",
    "omega_x [rad/s]", "omega_y [rad/s]", "omega_z [rad/s]",
)
REACTION_COMPONENTS = ("F_x [N]", "F_y [N]", "F_z [N]", "T_x [N m]", "T_y [N m]", "T_z [N m]")
#: unit of a joint coordinate ("angle", "slide"), of its rate and acceleration
JOINT_UNITS = {"angle": ("rad", "rad/s", "rad/s^2"), "slide": ("m", "m/s", "m/s^2")}
ENERGY_COLUMNS = ("time [s]", "kinetic [J]", "potential [J]", "total [J]",
                  "max_abs_phi [m or rad]", "max_abs_phi_dot [m/s or rad/s]")

#: plots: resolution [dots per inch] and sizes [inch]
PLOT_DPI = 100
POSITIONS_SIZE = (9.0, 7.0)
ENERGY_SIZE = (9.0, 7.0)
_REACTION_WIDTH = 11.0
_REACTION_ROW = 2.2
_REACTION_MAX_ROWS = 8

#: animation: size [px] (square) and the number of frames it aims at
ANIMATION_SIZE = 480
ANIMATION_FRAMES = 50
_MIN_FRAME_MS = 20          # GIF viewers do not show shorter frames faithfully

_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22")
_FIXED_COLOR = "#9a9a9a"


def _figure(figsize, dpi=PLOT_DPI):
    """A matplotlib ``Figure`` on an Agg canvas of its own: no pyplot, no window, works
    the same headless and inside the FreeCAD GUI (whatever backend it runs)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


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


# ============================================================================ CSV

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
    """``time [s]`` then, per joint, ``"<joint> F_x [N]"`` ... ``"<joint> T_z [N m]"``."""
    header = ["time [s]"]
    cols = [result.t]
    for j in result.joint_names:
        header += ["%s %s" % (j, c) for c in REACTION_COMPONENTS]
        cols += list(result.reaction_force(j).T) + list(result.reaction_torque(j).T)
    return _write_table(path, header, cols)


def _has_joint_frames(result):
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
        header += ["%s %s (joint axes) %s" % ((j,) + tuple(c.split(" ", 1)))
                   for c in REACTION_COMPONENTS]
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
        rot = _is_rotation(result, i)
        x, v, f = ("rad", "rad/s", "N m") if rot else ("m", "m/s", "N")
        header += ["%s %s [%s]" % (name, "angle" if rot else ("slide" if kinds[i].startswith(
            "joint") else "length"), x), "%s rate [%s]" % (name, v),
            "%s %s [%s]" % (name, "moment" if rot else "force", f), "%s power [W]" % name]
        cols += [result.spring_length(name), result.spring_rate(name),
                 result.spring_force(name), result.spring_power(name)]
    return _write_table(path, header, cols)


def _is_rotation(result, i):
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
    from .solver.drivers import DRIVER_TYPES
    i = result.driver_names.index(name)
    spec = DRIVER_TYPES[result.driver_kinds[i]]
    rows = result.driver_row_counts[i]
    comps = [""] if rows == 1 else ["_%s" % c for c in "xyz"[:rows]]
    cols = []
    for what, unit in (("value", spec.unit), ("rate", spec.rate_unit),
                       (spec.effort, spec.effort_unit)):
        cols += ["%s %s%s [%s]" % (name, what, c, unit) for c in comps]
    return cols + ["%s power [W]" % name]


def write_drivers_csv(result, path):
    """``time [s]`` then, per driver, value, rate, effort and power (``driver_columns``)."""
    header = ["time [s]"]
    cols = [result.t]
    for d in result.driver_names:
        header += driver_columns(result, d)
        for series in (result.driver_value(d), result.driver_rate(d), result.driver_effort(d)):
            cols += list(series.T) if series.ndim == 2 else [series]
        cols.append(result.driver_power(d))
    return _write_table(path, header, cols)


# ============================================================================ plots

def _margins(fig, left=0.95, right=0.25, bottom=0.6, top=0.55, wspace=0.95, hspace=0.45):
    """Fixed margins and gaps between the panels, in inches (what ``tight_layout`` would
    find for these plots' labels and tick labels, without drawing the figure once more
    to measure them: that draw is most of a plot's cost)."""
    w, h = fig.get_size_inches()
    grid = fig.axes[0].get_subplotspec().get_gridspec() if fig.axes else None
    rows, cols = grid.get_geometry() if grid is not None else (1, 1)
    inner_w = max(w - left - right, 1e-3)
    inner_h = max(h - bottom - top, 1e-3)
    fig.subplots_adjust(left=left / w, right=1.0 - right / w, bottom=bottom / h,
                        top=1.0 - top / h,
                        wspace=wspace * cols / max(inner_w - wspace * (cols - 1), 1e-3),
                        hspace=hspace * rows / max(inner_h - hspace * (rows - 1), 1e-3))


def _save(fig, path):
    fig.savefig(path, dpi=PLOT_DPI, format="png")
    return path


#: a legend lists at most this many lines; more are summed up in its last entry
LEGEND_MAX = 12


def _legend(ax, where=None, **kw):
    """The axes' legend; past ``LEGEND_MAX`` lines the first ones and "+ N more (see
    ``where``)" (fifty bodies' names would cover the plot)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    if len(handles) > LEGEND_MAX:
        from matplotlib.lines import Line2D
        more = len(handles) - (LEGEND_MAX - 1)
        handles = handles[:LEGEND_MAX - 1] + [Line2D([], [], linestyle="none")]
        labels = labels[:LEGEND_MAX - 1] + ["+ %d more%s" % (
            more, " (%s)" % where if where else "")]
    ax.legend(handles, labels, fontsize="small", **kw)


def plot_positions(result, path, title=""):
    """CoG x, y, z [m] of every moving body against time: one panel per coordinate."""
    fig = _figure(POSITIONS_SIZE)
    axes = fig.subplots(3, 1, sharex=True)
    for k, ax in enumerate(axes):
        for i, name in enumerate(result.body_names):
            ax.plot(result.t, result.position(name)[:, k], color=_COLORS[i % len(_COLORS)],
                    label=name)
        ax.set_ylabel("CoG %s [m]" % "xyz"[k])
        ax.grid(True, alpha=0.3)
    _legend(axes[0], "body_*.csv", loc="upper right",
            ncol=min(4, max(1, len(result.body_names))))
    axes[-1].set_xlabel("time [s]")
    fig.suptitle((title + ": " if title else "") + "centre of gravity positions (world axes)")
    _margins(fig, hspace=0.15)
    return _save(fig, path)


def plot_energy(result, path, title=""):
    """Kinetic, potential and total energy [J]; the drift of the total; constraint violation."""
    e = result.energy()
    v = result.constraint_violation()
    t = result.t
    fig = _figure(ENERGY_SIZE)
    axes = fig.subplots(3, 1, sharex=True, gridspec_kw=dict(height_ratios=(2, 1, 1)))
    ax = axes[0]
    ax.plot(t, e["kinetic"], label="kinetic")
    ax.plot(t, e["potential"], label="potential")
    ax.plot(t, e["total"], "k", lw=1.5, label="total")
    forces = bool(getattr(result, "force_names", None))
    drivers = bool(getattr(result, "driver_names", None))
    if forces:                                    # dampers and actuators: the balance
        ax.plot(t, e["dissipated"], label="dissipated")
    if drivers:
        ax.plot(t, e["driver_work"], label="driver work")
    if forces or drivers:
        ax.plot(t, e["balance"], "k--", lw=1, label="total" + (
            " + dissipated - actuator work" if forces else "") + (
            " - driver work" if drivers else ""))
    ax.set_ylabel("energy [J]")
    _legend(ax, loc="best")
    ax = axes[1]
    bal = e.get("balance", e["total"])
    drift = bal - bal[0] if len(t) else bal
    ax.plot(t, drift, "k")
    ax.set_ylabel("balance - balance(0) [J]" if forces or drivers else "E - E(0) [J]")
    ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
    ax = axes[2]
    for key, label, style in (("position", "max |Phi| [m or rad]", "-"),
                              ("velocity", "max |Phi_dot| [m/s or rad/s]", "--")):
        y = np.maximum(v[key], 1e-300)
        ax.semilogy(t, y, style, label=label)
    ax.set_ylabel("constraint\nviolation")
    _legend(ax, loc="best")
    axes[-1].set_xlabel("time [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.suptitle((title + ": " if title else "") + "energy and constraint violation")
    _margins(fig, hspace=0.15)
    return _save(fig, path)


def _rows_size(count):
    """Figure size [inch] of a plot with one row per member (at most 8 rows)."""
    rows = max(1, min(count, _REACTION_MAX_ROWS))
    return (_REACTION_WIDTH, 0.9 + _REACTION_ROW * rows)


def reactions_size(result):
    """Figure size [inch] of ``plot_reactions``: one row per joint (at most 8)."""
    return _rows_size(len(result.joint_names))


def _member_rows(names):
    """``(shown, fig, axes)`` of a plot with one row of two panels per member (joint,
    driver, force element), the first 8 of ``names``."""
    shown = list(names)[:_REACTION_MAX_ROWS]
    fig = _figure(_rows_size(len(shown)))
    axes = fig.subplots(max(1, len(shown)), 2, sharex=True, squeeze=False)
    return shown, fig, axes


def _finish_member_rows(fig, axes, shown, empty, suptitle, **margins):
    """Time axis labels, ``empty`` written when there is no member, the title, margins."""
    if not shown:
        axes[0, 0].text(0.5, 0.5, empty, ha="center", va="center")
        axes[0, 1].set_visible(False)
    for c in range(2):
        axes[-1, c].set_xlabel("time [s]")
    fig.suptitle(suptitle)
    _margins(fig, **margins)


def plot_reactions(result, path, title=""):
    """Per joint: force [N] and torque [N m] on its second body, world axes."""
    names = result.joint_names
    shown, fig, axes = _member_rows(names)
    for r, j in enumerate(shown):
        F = result.reaction_force(j)
        T = result.reaction_torque(j)
        for c, (data, unit, what) in enumerate(((F, "N", "F"), (T, "N m", "T"))):
            ax = axes[r, c]
            for k in range(3):
                ax.plot(result.t, data[:, k], label="%s_%s" % (what, "xyz"[k]))
            ax.plot(result.t, np.linalg.norm(data, axis=1), "k:", lw=1,
                    label="|%s|" % what)
            ax.set_ylabel("%s [%s]" % ("force" if c == 0 else "torque", unit))
            ax.set_title("%s: %s" % (j, "force" if c == 0 else "torque"), fontsize="medium")
            ax.grid(True, alpha=0.3)
            if r == 0:
                _legend(ax, loc="upper right", ncol=4)
    note = "" if len(names) <= len(shown) else \
        " (first %d of %d joints; all in reactions.csv)" % (len(shown), len(names))
    _finish_member_rows(fig, axes, shown, "no joints",
                        (title + ": " if title else "") + "joint reactions on the second body, "
                        "world axes, torque about its joint point" + note,
                        top=0.85, hspace=0.55)
    return _save(fig, path)


def plot_joint_motion(result, path, title=""):
    """Joint angles [rad] and slides [m] against time (the coordinates of joints.csv)."""
    fig = _figure(POSITIONS_SIZE)
    axes = fig.subplots(2, 1, sharex=True)
    any_dof = {"angle": False, "slide": False}
    i = 0
    for j in result.joint_names:
        for dof in result.joint_dofs(j):
            ax = axes[0 if dof == "angle" else 1]
            ax.plot(result.t, result.joint_position(j, dof), color=_COLORS[i % len(_COLORS)],
                    label=j)
            any_dof[dof] = True
            i += 1
    for ax, dof, label in ((axes[0], "angle", "joint angle [rad]"),
                           (axes[1], "slide", "joint slide [m]")):
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
        if any_dof[dof]:
            _legend(ax, "joints.csv", loc="upper right", ncol=4)
        else:
            ax.text(0.5, 0.5, "no joint with %s" % ("an angle" if dof == "angle" else "a slide"),
                    ha="center", va="center", transform=ax.transAxes)
    axes[-1].set_xlabel("time [s]")
    fig.suptitle((title + ": " if title else "") + "joint motion (frame 2 against frame 1: "
                 "angle about z1, slide along z1)")
    _margins(fig, hspace=0.15)
    return _save(fig, path)


def plot_drivers(result, path, title=""):
    """Per driver: its effort (motor torque [N m] or actuator force [N]) and its power [W]."""
    from .solver.drivers import DRIVER_TYPES
    names, fig, axes = _member_rows(result.driver_names)
    for r, d in enumerate(names):
        spec = DRIVER_TYPES[result.driver_kinds[result.driver_names.index(d)]]
        ax = axes[r, 0]
        effort = result.driver_effort(d)
        if effort.ndim == 2:
            for k in range(effort.shape[1]):
                ax.plot(result.t, effort[:, k], color=_COLORS[k], label="xyz"[k])
            _legend(ax, loc="upper right", ncol=3)
        else:
            ax.plot(result.t, effort, color=_COLORS[0])
        ax.set_ylabel("%s [%s]" % (spec.effort, spec.effort_unit))
        ax.set_title("%s: %s" % (d, spec.effort), fontsize="medium")
        ax = axes[r, 1]
        ax.plot(result.t, result.driver_power(d), color=_COLORS[1])
        ax.set_ylabel("power [W]")
        ax.set_title("%s: power" % d, fontsize="medium")
        for ax in axes[r]:
            ax.grid(True, alpha=0.3)
    _finish_member_rows(fig, axes, names, "no drivers",
                        (title + ": " if title else "") + "driver efforts (on the joint's "
                        "second body, about/along the joint z axis) and powers",
                        top=0.85, hspace=0.55)
    return _save(fig, path)


def _force_labels(result, i):
    """(coordinate label, force label) with units of force element ``i``."""
    if _is_rotation(result, i):
        return "angle [rad]", "moment [N m]"
    kinds = getattr(result, "force_kinds", [])
    slide = bool(kinds) and kinds[i].startswith("joint")
    return ("slide [m]" if slide else "length [m]"), "force [N]"


def plot_forces(result, path, title=""):
    """Per force element: its force [N] or moment [N m], and its coordinate (length,
    joint angle or slide) with its power [W] on a second axis (as ``forces.csv``)."""
    return _save(forces_figure(result, title), path)


def forces_figure(result, title=""):
    """The figure of ``plot_forces``: per element a row, axes [force], [coordinate] and
    a twin axis [power]."""
    names, fig, axes = _member_rows(getattr(result, "force_names", []))
    for r, name in enumerate(names):
        xlab, flab = _force_labels(result, r)
        ax = axes[r, 0]
        ax.plot(result.t, result.spring_force(name), color=_COLORS[0])
        ax.set_ylabel(flab)
        ax.set_title("%s: %s" % (name, flab.split(" [")[0]), fontsize="medium")
        ax = axes[r, 1]
        ax.plot(result.t, result.spring_length(name), color=_COLORS[2])
        ax.set_ylabel(xlab, color=_COLORS[2])
        ax2 = ax.twinx()
        ax2.plot(result.t, result.spring_power(name), color=_COLORS[1], ls="--")
        ax2.set_ylabel("power [W] (dashed)", color=_COLORS[1])
        ax.set_title("%s: %s and power" % (name, xlab.split(" [")[0]), fontsize="medium")
        for ax in axes[r]:
            ax.grid(True, alpha=0.3)
    # the power axis's labels on the right of each row
    _finish_member_rows(fig, axes, names, "no force elements",
                        (title + ": " if title else "") + "force elements: force (> 0 pushes "
                        "apart; on the joint's second body), coordinate and power",
                        top=0.85, hspace=0.55, right=0.95, wspace=1.6)
    return fig


# ============================================================================ animation

class Mesh:
    """A tessellated body for the animation.

    ``points`` (k, 3) [m]: in the body's own frame relative to its CoG for a
    moving body (``name`` = its result name), in world coordinates for a fixed
    one (``name`` None). ``triangles`` (m, 3) indices into ``points``.
    ``closed``: the triangles bound a solid and all run counter-clockwise seen
    from outside, so those facing away from the viewer can be skipped.
    """

    def __init__(self, label, points, triangles, name=None, color=None, closed=False):
        self.label = label
        self.points = np.asarray(points, dtype=float).reshape(-1, 3)
        self.triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
        self.name = name
        self.color = color
        self.closed = bool(closed)

    def world(self, result=None, i=None):
        """World coordinates [m] of the points at sample ``i`` (fixed: always the same)."""
        if self.name is None:
            return self.points
        r, A = result.pose(self.name, i)
        return r + self.points @ A.T


def _signed_volume(points, triangles):
    p = points[triangles]
    return float(np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum() / 6.0)


def _oriented_closed(triangles):
    """Every edge of the mesh is used once in each direction: a closed, consistently
    oriented surface (a flipped or missing face breaks it)."""
    t = np.asarray(triangles, dtype=np.int64)
    n = int(t.max()) + 1
    a = t.reshape(-1)
    b = t[:, [1, 2, 0]].reshape(-1)
    codes = a * n + b
    return (len(np.unique(codes)) == len(codes)
            and bool(np.isin(b * n + a, codes, assume_unique=True).all()))


def _closed(shape, points, triangles):
    """The mesh bounds the shape's solids: their volume, signed (outward), within 2 %."""
    if not shape.Solids:
        return False
    volume = sum(abs(s.Volume) for s in shape.Solids)
    return volume > 0.0 and abs(_signed_volume(points, triangles) - volume) < 0.02 * volume


def _tessellate(shape, rel_tol=0.004):
    """(points [mm], triangles, closed) of a shape, deviation ``rel_tol`` of its size.

    The whole shape in one ``Part.Shape.tessellate`` (shared vertices merged), kept
    when it is a closed, consistently oriented surface that bounds the shape's
    solids (signed volume within 2 %). Otherwise face by face, each face's
    triangles turned to its outward normal (``Face.normalAt`` respects the face
    orientation; the raw triangulation of a reversed face may not); ``closed``
    when the signed volume of that mesh matches the solids'. The first way is
    about 8x faster on CAD parts of a few dozen faces.
    """
    tol = max(rel_tol * shape.BoundBox.DiagonalLength, 1e-3)
    if shape.Solids:
        pts, tris = shape.tessellate(tol)
        if tris:
            p = np.array([(v.x, v.y, v.z) for v in pts], dtype=float)
            t = np.array(tris, dtype=np.int64)
            if _oriented_closed(t) and _closed(shape, p, t):
                return p, t, True
    points, triangles = [], []
    offset = 0
    for face in shape.Faces:
        pts, tris = face.tessellate(tol)
        if not tris:
            continue
        p = np.array([[v.x, v.y, v.z] for v in pts], dtype=float)
        t = np.array(tris, dtype=np.int64)
        corners = p[t]
        normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        k = int(np.argmax(np.linalg.norm(normals, axis=1)))       # the largest triangle
        centre = corners[k].mean(axis=0)
        try:
            u, v = face.Surface.parameter(type(pts[0])(*centre))
            outward = face.normalAt(u, v)
            if np.dot(normals[k], [outward.x, outward.y, outward.z]) < 0.0:
                t = t[:, ::-1]
        except Exception:  # noqa: BLE001 - keep OCC's orientation
            pass
        points.append(p)
        triangles.append(t + offset)
        offset += len(p)
    if not triangles:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64), False
    points = np.concatenate(points)
    triangles = np.concatenate(triangles)
    return points, triangles, _closed(shape, points, triangles)


def subdivide(points, triangles, max_edge, max_rounds=12):
    """Split triangles at the middle of their longest edge until no edge is longer
    than ``max_edge`` (or ``max_rounds`` rounds). Winding is kept.

    Painter's algorithm sorts whole triangles by their mean depth; a long triangle
    (a rail, the side of a long bar) can then be drawn over a nearer small one.
    Short triangles keep those errors below the size of a pixel or two.
    """
    points = np.asarray(points, dtype=float)
    tris = np.asarray(triangles, dtype=np.int64)
    for _ in range(max_rounds):
        p = points[tris]
        edges = np.stack([np.linalg.norm(p[:, 1] - p[:, 0], axis=1),
                          np.linalg.norm(p[:, 2] - p[:, 1], axis=1),
                          np.linalg.norm(p[:, 0] - p[:, 2], axis=1)], axis=1)
        longest = edges.argmax(axis=1)
        split = np.nonzero(edges[np.arange(len(tris)), longest] > max_edge)[0]
        if len(split) == 0:
            break
        # rotate each split triangle so that its longest edge is (a, b)
        t = tris[split]
        k = longest[split]
        rot = np.stack([t[np.arange(len(t)), (k + j) % 3] for j in range(3)], axis=1)
        a, b, c = rot[:, 0], rot[:, 1], rot[:, 2]
        mid = len(points) + np.arange(len(t))
        points = np.concatenate([points, 0.5 * (points[a] + points[b])])
        keep = np.ones(len(tris), dtype=bool)
        keep[split] = False
        tris = np.concatenate([tris[keep], np.stack([a, mid, c], axis=1),
                               np.stack([mid, b, c], axis=1)])
    return points, tris


def body_meshes(study, result):
    """Tessellate every body of ``study`` once (``Part.Shape.tessellate``).

    Moving bodies are expressed in their own frame about their CoG, as the
    document shows them now (the poses the run started from), so that
    ``Mesh.world`` places them with the result's ``position``/``rotation_matrix``.
    Bodies whose shape cannot be tessellated are left out.
    """
    from . import runner
    from .document import bodies as conversion, massprops
    from .document.base import study_bodies
    meshes = []
    moving = 0
    keys = None
    for body in study_bodies(study):
        try:
            shape = massprops.global_shape(body.ShapeObject)
            pts_mm, tris, closed = _tessellate(shape)
        except Exception:  # noqa: BLE001 - a body we cannot draw is left out
            continue
        if len(tris) == 0:
            continue
        pts = pts_mm * conversion.M_PER_MM
        if body.Fixed:
            meshes.append(Mesh(body.Label, pts, tris, None, _FIXED_COLOR, closed))
            continue
        if keys is None:
            keys = runner.result_keys(study)
        bd = conversion.body_data(body, warn=False)
        R = bd.frame[1]
        cog = np.asarray(bd.mass_props.cog, dtype=float)
        name = keys.get(body.Name) or runner.result_key(study, body)   # (raises, naming it)
        meshes.append(Mesh(body.Label, (pts - cog) @ R, tris, name,
                           _COLORS[moving % len(_COLORS)], closed))
        moving += 1
    return meshes


def frame_indices(n, frames=ANIMATION_FRAMES):
    """About ``frames`` sample indices spread evenly over ``n`` samples (first and last kept)."""
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    k = max(1, min(n, int(frames)))
    return np.unique(np.round(np.linspace(0, n - 1, k)).astype(np.int64))


def _view_angles(result, meshes):
    """(elev, azim): look along the axis in which the bodies move least."""
    if not result.body_names:
        return 20.0, -60.0
    span = np.zeros(3)
    for name in result.body_names:
        p = result.position(name)
        span = np.maximum(span, p.max(axis=0) - p.min(axis=0))
    normal = int(np.argmin(span))
    return {0: (18.0, -18.0), 1: (18.0, -72.0), 2: (50.0, -60.0)}[normal]


def render_animation(result, meshes, path, frames=ANIMATION_FRAMES, title="",
                     size=ANIMATION_SIZE):
    """Draw the meshes at about ``frames`` result samples and write an animated GIF.

    The scene is a matplotlib 3-D axes with fixed, equal-aspect limits that
    enclose the whole motion, seen along the direction in which the bodies move
    least. Its box, ticks and labels are drawn once and restored for every
    frame; the triangles of all bodies (long ones split, see ``subdivide``) are
    projected with the axes' own projection matrix, depth-sorted together
    (painter's algorithm, across bodies; back faces of closed meshes culled),
    flat-shaded by the angle to a light and drawn in one call of the Agg
    renderer's ``draw_gouraud_triangles`` (the three corners in one colour).
    That is what ``Poly3DCollection`` does, without its one ``Path`` object per
    polygon per frame: about 5x faster for a few thousand triangles. The frames
    are cropped to the drawing; a header shows ``title`` and the time. Frames
    last the simulated time between them (real-time playback, at least 20 ms
    each). Returns the number of frames written.
    """
    from PIL import Image
    import matplotlib.colors as mcolors
    from matplotlib.transforms import IdentityTransform
    import mpl_toolkits.mplot3d  # noqa: F401  (registers the "3d" projection)

    idx = frame_indices(len(result.t), frames)
    if len(idx) == 0 or not meshes:
        raise ValueError("nothing to animate (no samples or no drawable bodies)")
    # the scene's size from the vertices; then no triangle longer than 1/12 of it
    lo = np.full(3, np.inf)
    hi = np.full(3, -np.inf)
    for m in meshes:
        for i in (idx if m.name is not None else idx[:1]):
            w = m.world(result, i)
            lo, hi = np.minimum(lo, w.min(axis=0)), np.maximum(hi, w.max(axis=0))
    max_edge = float(np.linalg.norm(hi - lo)) / 12.0
    meshes = [Mesh(m.label, *subdivide(m.points, m.triangles, max_edge), name=m.name,
                   color=m.color, closed=m.closed) for m in meshes]
    base = np.concatenate([np.tile(mcolors.to_rgb(m.color), (len(m.triangles), 1))
                           for m in meshes])
    closed = np.concatenate([np.full(len(m.triangles), m.closed) for m in meshes])
    ntri = len(base)
    # all triangle corners of all frames [mm]: (frames, triangles, 3, 3)
    polys = np.empty((len(idx), ntri, 3, 3))
    for f, i in enumerate(idx):
        polys[f] = np.concatenate([m.world(result, i)[m.triangles] for m in meshes]) * 1e3
    lo = polys.reshape(-1, 3).min(axis=0)
    hi = polys.reshape(-1, 3).max(axis=0)
    centre = 0.5 * (lo + hi)
    span = np.maximum(hi - lo, 0.15 * float(np.max(hi - lo)) + 1e-9)

    dpi = 100
    fig = _figure((size / dpi, size / dpi), dpi=dpi)
    ax = fig.add_subplot(projection="3d")
    ax.set_xlim(centre[0] - span[0] / 2, centre[0] + span[0] / 2)
    ax.set_ylim(centre[1] - span[1] / 2, centre[1] + span[1] / 2)
    ax.set_zlim(centre[2] - span[2] / 2, centre[2] + span[2] / 2)
    ax.set_box_aspect(tuple(span))
    elev, azim = _view_angles(result, meshes)
    ax.view_init(elev=elev, azim=azim)
    for setter, axis in ((ax.set_xlabel, "x"), (ax.set_ylabel, "y"), (ax.set_zlabel, "z")):
        setter("%s [mm]" % axis, fontsize=8, labelpad=-2)
    ax.tick_params(labelsize=7, pad=0)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=1)
    canvas = fig.canvas
    canvas.draw()                                   # the empty scene; fixes ax.M
    M = ax.M
    height = int(round(fig.bbox.height))
    width = int(round(fig.bbox.width))

    # pass 1: project, cull and sort every frame; the extent of the drawing
    light = _light(elev, azim)
    drawn = []
    x0, y0, x1, y1 = np.inf, np.inf, -np.inf, -np.inf
    for f in range(len(idx)):
        tri = polys[f]
        n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
        flat = tri.reshape(-1, 3)
        proj = np.concatenate([flat, np.ones((len(flat), 1))], axis=1) @ M.T
        proj = proj[:, :3] / proj[:, 3:]            # as mplot3d's proj_transform
        xy = proj[:, :2].reshape(ntri, 3, 2)
        depth = proj[:, 2].reshape(ntri, 3).mean(axis=1)
        # back faces of closed meshes are hidden: skip them
        e1, e2 = xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]      # z of the 2-D cross product
        facing = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0] < 0.0
        keep = np.nonzero(facing | ~closed)[0]
        order = keep[np.argsort(-depth[keep], kind="stable")]        # farthest first
        shade = 0.35 + 0.65 * np.abs(n[order] @ light)
        drawn.append((order, shade))
        pix = ax.transData.transform(xy[keep].reshape(-1, 2))
        x0, y0 = min(x0, pix[:, 0].min()), min(y0, pix[:, 1].min())
        x1, y1 = max(x1, pix[:, 0].max()), max(y1, pix[:, 1].max())
        polys[f, :, :, :2] = xy                       # keep the projection, not the 3-D points
    # crop box (pixels, rows from the top): the axes' drawing and the bodies, plus a header
    bg = np.asarray(canvas.buffer_rgba())[..., :3].astype(int)
    face = np.array(mcolors.to_rgb(fig.get_facecolor())) * 255.0
    ink = np.nonzero(np.abs(bg - face).max(axis=2) > 8)
    rows = [height - y1, height - y0] + ([ink[0].min(), ink[0].max()] if len(ink[0]) else [])
    cols = [x0, x1] + ([ink[1].min(), ink[1].max()] if len(ink[1]) else [])
    margin, header = 6, 22
    r0 = int(max(0, math.floor(min(rows)) - margin - header))
    r1 = int(min(height, math.ceil(max(rows)) + margin))
    c0 = int(max(0, math.floor(min(cols)) - margin))
    c1 = int(min(width, math.ceil(max(cols)) + margin))
    text_y = 1.0 - (r0 + 4.0) / height
    if title:
        fig.text((c1 - 6.0) / width, text_y, title, ha="right", va="top", fontsize=10)
    label = fig.text((c0 + 6.0) / width, text_y, "", ha="left", va="top", fontsize=10,
                     family="monospace")
    canvas.draw()
    background = canvas.copy_from_bbox(fig.bbox)
    # pass 2: draw
    images = []
    gc = None
    for f, i in enumerate(idx):
        order, shade = drawn[f]
        xy = ax.transData.transform(polys[f, order, :, :2].reshape(-1, 2)).reshape(-1, 3, 2)
        rgb = np.clip(base[order] * shade[:, None], 0.0, 1.0)
        colors = np.repeat(np.concatenate([rgb, np.ones((len(rgb), 1))], axis=1)[:, None, :],
                           3, axis=1)
        label.set_text("t = %6.3f s" % result.t[i])
        canvas.restore_region(background)
        renderer = canvas.get_renderer()
        if gc is None:
            gc = renderer.new_gc()
            gc.set_clip_rectangle(fig.bbox)
        renderer.draw_gouraud_triangles(gc, xy, colors, IdentityTransform())
        label.draw(renderer)
        rgba = np.asarray(canvas.buffer_rgba())
        images.append(Image.fromarray(rgba[r0:r1, c0:c1, :3].copy()))
    if gc is not None:
        gc.restore()

    median_cut = getattr(getattr(Image, "Quantize", Image), "MEDIANCUT")   # Pillow 9.1+ / older
    no_dither = getattr(getattr(Image, "Dither", Image), "NONE")
    palette = images[len(images) // 2].quantize(colors=128, method=median_cut)
    frames_p = [im.quantize(palette=palette, dither=no_dither) for im in images]
    if len(idx) > 1:
        step = (result.t[idx[-1]] - result.t[idx[0]]) / (len(idx) - 1)
        duration = max(_MIN_FRAME_MS, int(round(step * 1000.0)))
    else:
        duration = 1000
    frames_p[0].save(path, format="GIF", save_all=True, append_images=frames_p[1:],
                     duration=duration, loop=0, optimize=False)
    return len(frames_p)


def _light(elev, azim):
    """Unit vector towards a light above and to the left of the viewer (degrees in)."""
    e, a = math.radians(elev + 25.0), math.radians(azim - 30.0)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


# ============================================================================ all of them

def write_all(result, out_dir, meshes=None, title="", animation_frames=ANIMATION_FRAMES,
              progress=None, only=None):
    """Write every CSV and plot (and the animation when ``meshes`` is given) into ``out_dir``.

    ``progress(file_name)`` is called before each file; ``only(file_name)``, when
    given, picks the files to write (e.g. the CSV tables only). Returns the list of
    file names written (relative to ``out_dir``).
    """
    written = []

    def step(fname, fn, *args, **kw):
        if only is not None and not only(fname):
            return
        if progress is not None:
            progress(fname)
        fn(*args, **kw)
        written.append(fname)

    for name in result.body_names:
        fname = body_csv_name(result, name)
        step(fname, write_body_csv, result, name, os.path.join(out_dir, fname))
    step("reactions.csv", write_reactions_csv, result, os.path.join(out_dir, "reactions.csv"))
    if _has_joint_frames(result):
        step("joints.csv", write_joints_csv, result, os.path.join(out_dir, "joints.csv"))
    if getattr(result, "force_names", None):
        step("forces.csv", write_forces_csv, result, os.path.join(out_dir, "forces.csv"))
    step("energy.csv", write_energy_csv, result, os.path.join(out_dir, "energy.csv"))
    step("positions.png", plot_positions, result, os.path.join(out_dir, "positions.png"), title)
    step("energy.png", plot_energy, result, os.path.join(out_dir, "energy.png"), title)
    step("reactions.png", plot_reactions, result, os.path.join(out_dir, "reactions.png"), title)
    if _has_joint_frames(result):
        step("joints.png", plot_joint_motion, result, os.path.join(out_dir, "joints.png"), title)
    if getattr(result, "driver_names", None):
        step("drivers.csv", write_drivers_csv, result, os.path.join(out_dir, "drivers.csv"))
        step("drivers.png", plot_drivers, result, os.path.join(out_dir, "drivers.png"), title)
    if getattr(result, "force_names", None):
        step("forces.png", plot_forces, result, os.path.join(out_dir, "forces.png"), title)
    if meshes:
        step("animation.gif", render_animation, result, meshes,
             os.path.join(out_dir, "animation.gif"), animation_frames, title)
    return written
