"""PNG plots of a run (``positions.png``, ``energy.png``, ``reactions.png``, ``joints.png``,
``drivers.png``, ``forces.png``; see ``SimPhantWorkbench.output``).

Matplotlib is imported lazily and every figure gets its own Agg canvas (no
pyplot), so nothing here needs a display or disturbs a GUI.
"""
import numpy as np

from .events import draw_event_marks, result_events
from .tables import is_rotation

__all__ = ["COLORS", "FIXED_COLOR", "PLOT_DPI", "POSITIONS_SIZE", "ENERGY_SIZE", "LEGEND_MAX", "figure",
           "reactions_size", "plot_positions", "plot_energy", "plot_reactions",
           "plot_joint_motion", "plot_drivers", "plot_forces", "forces_figure", "display_title",
           "title_prefix", "TITLE_LENGTH"]

#: the longest title drawn [characters]; longer ones are cut with an ellipsis (a label
#: of a megabyte took minutes to lay out)
TITLE_LENGTH = 120


def display_title(title):
    """``title`` as drawn: its first line, at most ``TITLE_LENGTH`` characters."""
    title = str(title or "")[:4 * TITLE_LENGTH]
    title = " ".join(title.split("\n", 1)[0].split())
    return title if len(title) <= TITLE_LENGTH else title[:TITLE_LENGTH - 1] + "\u2026"


def title_prefix(title):
    """``"<title>: "`` (``display_title``) before a plot's own title, or nothing."""
    title = display_title(title)
    return title + ": " if title else ""


#: the palette of curves and bodies (fixed bodies grey), shared by plots, animation and viewer
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22")
FIXED_COLOR = "#9a9a9a"

#: plots: resolution [dots per inch] and sizes [inch]
PLOT_DPI = 100
POSITIONS_SIZE = (9.0, 7.0)
ENERGY_SIZE = (9.0, 7.0)
_REACTION_WIDTH = 11.0
_REACTION_ROW = 2.2
_REACTION_MAX_ROWS = 8


def figure(figsize, dpi=PLOT_DPI):
    """A matplotlib ``Figure`` on an Agg canvas of its own: no pyplot, no window, works
    the same headless and inside the FreeCAD GUI (whatever backend it runs)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


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
    fig = figure(POSITIONS_SIZE)
    axes = fig.subplots(3, 1, sharex=True)
    for k, ax in enumerate(axes):
        for i, name in enumerate(result.body_names):
            ax.plot(result.t, result.position(name)[:, k], color=COLORS[i % len(COLORS)],
                    label=name)
        ax.set_ylabel("CoG %s [m]" % "xyz"[k])
        ax.grid(True, alpha=0.3)
    _legend(axes[0], "body_*.csv", loc="upper right",
            ncol=min(4, max(1, len(result.body_names))))
    axes[-1].set_xlabel("time [s]")
    fig.suptitle(title_prefix(title) + "centre of gravity positions (world axes)")
    _margins(fig, hspace=0.15)
    return _save(fig, path)


def plot_energy(result, path, title=""):
    """Kinetic, potential and total energy [J]; the drift of the total; constraint violation."""
    e = result.energy()
    v = result.constraint_violation()
    t = result.t
    fig = figure(ENERGY_SIZE)
    axes = fig.subplots(3, 1, sharex=True, gridspec_kw=dict(height_ratios=(2, 1, 1)))
    ax = axes[0]
    ax.plot(t, e["kinetic"], label="kinetic")
    ax.plot(t, e["potential"], label="potential")
    ax.plot(t, e["total"], "k", lw=1.5, label="total")
    forces = bool(getattr(result, "force_names", None))
    drivers = bool(getattr(result, "driver_names", None))
    loads = bool(getattr(result, "load_names", None))
    if forces:                                    # dampers and actuators: the balance
        ax.plot(t, e["dissipated"], label="dissipated")
    if drivers:
        ax.plot(t, e["driver_work"], label="driver work")
    if loads:
        ax.plot(t, e["load_work"], label="load work")
    if forces or drivers or loads:
        ax.plot(t, e["balance"], "k--", lw=1, label="total" + (
            " + dissipated - actuator work" if forces else "") + (
            " - driver work" if drivers else "") + (" - load work" if loads else ""))
    ax.set_ylabel("energy [J]")
    _legend(ax, loc="best")
    ax = axes[1]
    bal = e.get("balance", e["total"])
    drift = bal - bal[0] if len(t) else bal
    ax.plot(t, drift, "k")
    ax.set_ylabel("balance - balance(0) [J]" if forces or drivers or loads else "E - E(0) [J]")
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
    fig.suptitle(title_prefix(title) + "energy and constraint violation")
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
    fig = figure(_rows_size(len(shown)))
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
    """Per joint: force [N] and torque [N m] on its second body, world axes; components the
    model leaves indeterminate grey and dashed."""
    names = result.joint_names
    shown, fig, axes = _member_rows(names)
    for r, j in enumerate(shown):
        F = result.reaction_force(j)
        T = result.reaction_torque(j)
        flags = result.reaction_indeterminate(j)
        for c, (data, unit, what) in enumerate(((F, "N", "F"), (T, "N m", "T"))):
            ax = axes[r, c]
            for k in range(3):
                label = "%s_%s" % (what, "xyz"[k])
                if flags[3 * c + k]:
                    ax.plot(result.t, data[:, k], color="0.6", ls="--",
                            label=label + " (indeterminate)")
                else:
                    ax.plot(result.t, data[:, k], label=label)
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
                        title_prefix(title) + "joint reactions on the second body, "
                        "world axes, torque about its joint point" + note,
                        top=0.85, hspace=0.55)
    return _save(fig, path)


def plot_joint_motion(result, path, title=""):
    """Joint angles [rad] and slides [m] against time (the coordinates of joints.csv)."""
    fig = figure(POSITIONS_SIZE)
    axes = fig.subplots(2, 1, sharex=True)
    any_dof = {"angle": False, "slide": False}
    i = 0
    for j in result.joint_names:
        for dof in result.joint_dofs(j):
            ax = axes[0 if dof == "angle" else 1]
            ax.plot(result.t, result.joint_position(j, dof), color=COLORS[i % len(COLORS)],
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
    events = result_events(result)
    for k, ax in enumerate(axes):
        draw_event_marks(ax, events, text=k == 0)
    axes[-1].set_xlabel("time [s]")
    fig.suptitle(title_prefix(title) + "joint motion (frame 2 against frame 1: "
                 "angle about z1, slide along z1)")
    _margins(fig, hspace=0.15)
    return _save(fig, path)


def plot_drivers(result, path, title=""):
    """Per driver: its effort (motor torque [N m] or actuator force [N]), its power [W]
    and its work since the start [J]."""
    from ..solver.drivers import DRIVER_TYPES
    names, fig, axes = _member_rows(result.driver_names)
    for r, d in enumerate(names):
        spec = DRIVER_TYPES[result.driver_kinds[result.driver_names.index(d)]]
        ax = axes[r, 0]
        effort = result.driver_effort(d)
        if effort.ndim == 2:
            for k in range(effort.shape[1]):
                ax.plot(result.t, effort[:, k], color=COLORS[k], label="xyz"[k])
            _legend(ax, loc="upper right", ncol=3)
        else:
            ax.plot(result.t, effort, color=COLORS[0])
        ax.set_ylabel("%s [%s]" % (spec.effort, spec.effort_unit))
        ax.set_title("%s: %s" % (d, spec.effort), fontsize="medium")
        ax = axes[r, 1]
        ax.plot(result.t, result.driver_power(d), color=COLORS[1])
        ax.set_ylabel("power [W]")
        ax.set_title("%s: power and work" % d, fontsize="medium")
        twin = ax.twinx()
        twin.plot(result.t, result.driver_work(d), color=COLORS[2], linestyle="--")
        twin.set_ylabel("work [J] (dashed)")
        for ax in axes[r]:
            ax.grid(True, alpha=0.3)
    _finish_member_rows(fig, axes, names, "no drivers",
                        title_prefix(title) + "driver efforts (on the joint's "
                        "second body, about/along the joint z axis) and powers",
                        top=0.85, hspace=0.55)
    return _save(fig, path)


def _force_labels(result, i):
    """(coordinate label, force label) with units of force element ``i``."""
    if is_rotation(result, i):
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
    events = result_events(result)
    for r, name in enumerate(names):
        xlab, flab = _force_labels(result, r)
        ax = axes[r, 0]
        ax.plot(result.t, result.spring_force(name), color=COLORS[0])
        ax.set_ylabel(flab)
        ax.set_title("%s: %s" % (name, flab.split(" [")[0]), fontsize="medium")
        ax = axes[r, 1]
        ax.plot(result.t, result.spring_length(name), color=COLORS[2])
        ax.set_ylabel(xlab, color=COLORS[2])
        ax2 = ax.twinx()
        ax2.plot(result.t, result.spring_power(name), color=COLORS[1], ls="--")
        ax2.set_ylabel("power [W] (dashed)", color=COLORS[1])
        ax.set_title("%s: %s and power" % (name, xlab.split(" [")[0]), fontsize="medium")
        for c, ax in enumerate(axes[r]):       # the element's contacts (end stops)
            draw_event_marks(ax, events, elements=(name,), text=c == 0)
            ax.grid(True, alpha=0.3)
    # the power axis's labels on the right of each row
    _finish_member_rows(fig, axes, names, "no force elements",
                        title_prefix(title) + "force elements: force (> 0 pushes "
                        "apart; on the joint's second body), coordinate and power",
                        top=0.85, hspace=0.55, right=0.95, wspace=1.6)
    return fig
