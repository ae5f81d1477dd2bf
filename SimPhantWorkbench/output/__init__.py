"""What a run writes without FreeCAD: CSV tables, PNG plots and an animation.

Modules: ``tables`` (the CSV files), ``events`` (the end stops' contacts: their
table, plot marks and frames), ``plots`` (the PNG files), ``mesh`` and
``animation`` (the Matplotlib GIF), ``quantities`` (the table of plottable
quantities the plot panel and scripts share), ``outdir`` (the CLI's output
directory and its manifest). The bodies are tessellated on the document side
(``SimPhantWorkbench.document.scene``).

Everything here reads a solver ``Result`` (SI units, world axes) and writes one
file per call; FreeCAD is never imported. Matplotlib is imported lazily and
every figure gets its own Agg canvas (no pyplot), so nothing here needs a
display or disturbs a GUI; the GIF is assembled with Pillow.

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
                     joint point; a component the model leaves indeterminate
                     (joints that hold a load redundantly, or a singular
                     configuration passed: ``Result.reaction_indeterminate``) has
                     ``(indeterminate)`` after its unit.
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
``events.csv``       only when end stops met their limits: one row per contact (time
                     [s], element, side, impact speed and its unit; ``events``).
``positions.png``, ``energy.png``, ``reactions.png``, ``joints.png``   plots of
                     the same data (``joints.png``: joint angles and slides);
``drivers.png`` (with drivers) their efforts and powers; ``forces.png`` (with force
                     elements) per element its force or moment, its coordinate and power;
                     ``joints.png`` and ``forces.png`` mark the end stops' contacts
                     with dotted vertical lines.
``animation.gif``    the bodies drawn at their poses in a 3-D view, about 50 frames
                     played in real time (``render_animation``).

CSV files have one header row, names with units in brackets, ``,`` separated,
numbers written with ``repr`` (shortest exact round trip: reading them back
gives the very floats of the result).
"""
import os

from . import animation, events, mesh, plots, quantities, tables
from .animation import ANIMATION_FRAMES, ANIMATION_SIZE, frame_indices, render_animation
from .events import result_events, write_events_csv
from .mesh import Mesh, subdivide
from .plots import (ENERGY_SIZE, LEGEND_MAX, PLOT_DPI, POSITIONS_SIZE, forces_figure,
                    plot_drivers, plot_energy, plot_forces, plot_joint_motion, plot_positions,
                    plot_reactions, reactions_size)
from .tables import (BODY_COLUMNS, ENERGY_COLUMNS, INDETERMINATE, JOINT_UNITS, REACTION_COMPONENTS,
                     body_csv_name, driver_columns, has_joint_frames, safe_name,
                     write_body_csv, write_drivers_csv, write_energy_csv, write_forces_csv,
                     write_joints_csv, write_reactions_csv)

__all__ = ["write_all", "animation", "events", "write_events_csv", "mesh", "plots", "quantities", "tables",
           "BODY_COLUMNS", "ENERGY_COLUMNS", "REACTION_COMPONENTS", "INDETERMINATE", "JOINT_UNITS",
           "PLOT_DPI",
           "LEGEND_MAX", "POSITIONS_SIZE", "ENERGY_SIZE", "reactions_size", "ANIMATION_SIZE",
           "ANIMATION_FRAMES", "safe_name", "body_csv_name", "write_body_csv",
           "write_reactions_csv", "write_forces_csv", "write_energy_csv", "write_drivers_csv",
           "driver_columns", "plot_drivers", "plot_forces", "forces_figure", "plot_positions",
           "plot_energy", "write_joints_csv", "plot_joint_motion", "plot_reactions", "Mesh",
           "subdivide", "frame_indices", "render_animation"]


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
    if has_joint_frames(result):
        step("joints.csv", write_joints_csv, result, os.path.join(out_dir, "joints.csv"))
    if getattr(result, "force_names", None):
        step("forces.csv", write_forces_csv, result, os.path.join(out_dir, "forces.csv"))
    if result_events(result):
        step("events.csv", write_events_csv, result, os.path.join(out_dir, "events.csv"))
    step("energy.csv", write_energy_csv, result, os.path.join(out_dir, "energy.csv"))
    step("positions.png", plot_positions, result, os.path.join(out_dir, "positions.png"), title)
    step("energy.png", plot_energy, result, os.path.join(out_dir, "energy.png"), title)
    step("reactions.png", plot_reactions, result, os.path.join(out_dir, "reactions.png"), title)
    if has_joint_frames(result):
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
