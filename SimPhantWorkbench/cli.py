"""``simphant``: run the motion study of a FreeCAD document headless and write its outputs.

::

    simphant run [MODEL.FCStd] [--study NAME] [--t-end S] [--dt S] [--method M]
                 [--output-dt S] [--out DIR] [--no-animation] [--frames N] [--in-place]
                 [--video FILE.mp4] [--fps N]
    simphant view DIR [--time S] [--screenshot FILE.png] [--size WxH] [--trails]
                      [--no-triads]
    simphant sweep MODEL.FCStd SPEC.toml --out DIR [--scheduler ADDRESS] [--workers N] ...
                 (a parameter study: ``sweep.cli``)

Without ``MODEL`` it runs the bundled slider-crank example. The study is run
with the run pipeline (``SimPhantWorkbench.run``; a text progress bar on stderr), a summary is printed
on stdout and these files are written to ``DIR`` (default
``./simphant-out/<model name>``):

* ``body_<name>.csv``, ``reactions.csv``, ``energy.csv``, ``positions.png``,
  ``energy.png``, ``reactions.png``, ``animation.gif`` (see ``outputs``; the
  animation rendered by VTK when PyVista is installed, see ``viewer.files``);
* ``result.npz`` and ``scene.npz`` (the result and the tessellated bodies, what
  ``simphant view DIR`` shows without FreeCAD), ``--video``'s MP4/GIF;
* ``<model name>_result.FCStd``: the document with the study's Result (the
  input file is never written, unless ``--in-place`` asks for it), with the
  input's view data (``GuiDocument.xml``: visibility, colours), which FreeCAD
  does not write without its GUI;
* ``summary.txt`` (the printed summary) and ``run.json`` (the same, for
  programs, with the list of files).

Every file is first written into a hidden staging directory inside ``DIR``
and moved into place only when all of them are complete (``run.json`` last),
so a failed or cancelled run (Ctrl-C: the runner's cancel) leaves no
complete-looking output behind. ``run.json`` is the run's manifest (its id and
the SHA-256 of every file): a later run removes only the files a previous
manifest proves were written by that run and are unchanged since, never the
model (see ``outdir``).

Exit codes: 0 success; 1 internal error; 2 bad input (command line, file,
study, model); 3 the integration failed; 130 cancelled.
"""
import argparse
import contextlib
import math
import os
import shutil
import signal
import sys
import threading
import time

from . import __version__
from .solver import METHODS, ModelError, SimulationCancelled, SimulationError

__all__ = ["main", "build_parser", "default_model", "EXIT_OK", "EXIT_INTERNAL", "EXIT_INPUT",
           "EXIT_SIMULATION", "EXIT_CANCELLED"]

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_INPUT = 2
EXIT_SIMULATION = 3
EXIT_CANCELLED = 130

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
EXAMPLES_DIR = os.path.join(ROOT, "examples")
DEFAULT_EXAMPLE = "slider_crank"


class CliError(Exception):
    """A user-facing error: one line, and the exit code to return."""

    def __init__(self, message, code=EXIT_INPUT):
        super().__init__(message)
        self.code = code


def default_model():
    """Path of the bundled example ``simphant run`` uses without a model."""
    return os.path.join(EXAMPLES_DIR, DEFAULT_EXAMPLE + ".FCStd")


# ============================================================================ command line

def _positive(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text) from None
    if not (math.isfinite(v) and v > 0.0):
        raise argparse.ArgumentTypeError("must be a positive number, got %r" % text)
    return v


def _positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an integer" % text) from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1, got %r" % text)
    return v


def _default_frames():
    from .output import ANIMATION_FRAMES
    return ANIMATION_FRAMES


def build_parser():
    ap = argparse.ArgumentParser(
        prog="simphant", description="SimPhant: rigid multibody dynamics on FreeCAD documents.")
    ap.add_argument("--version", action="version", version="SimPhant %s" % __version__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser(
        "run", help="run the motion study of a FreeCAD document and write its outputs",
        description="Run the motion study of MODEL (a .FCStd with a SimPhant study) and write "
                    "CSV tables, plots, an animation and the document with its result to DIR. "
                    "Without MODEL: the bundled %s example." % DEFAULT_EXAMPLE)
    run.add_argument("model", nargs="?", metavar="MODEL.FCStd",
                     help="the document (default: examples/%s.FCStd)" % DEFAULT_EXAMPLE)
    run.add_argument("--study", metavar="NAME",
                     help="the study to run, by name or label (needed when there are several)")
    run.add_argument("--t-end", type=_positive, metavar="S", help="end time [s]")
    run.add_argument("--dt", type=_positive, metavar="S",
                     help="time step [s] (fixed-step methods; maximum step of adaptive ones)")
    run.add_argument("--method", choices=list(METHODS), metavar="M",
                     help="integration method: %s" % ", ".join(METHODS))
    run.add_argument("--output-dt", type=_positive, metavar="S",
                     help="interval between stored samples [s]")
    run.add_argument("--out", metavar="DIR",
                     help="output directory (default: ./simphant-out/<model name>)")
    run.add_argument("--no-animation", action="store_true", help="do not render animation.gif")
    run.add_argument("--frames", type=_positive_int, default=None, metavar="N",
                     help="frames of the animation (default: about %d)" % _default_frames())
    run.add_argument("--in-place", action="store_true",
                     help="also save the result into MODEL itself (otherwise MODEL is never "
                          "written)")
    run.add_argument("--video", metavar="FILE",
                     help="also render a video of the motion with VTK: FILE.mp4 (through "
                          "ffmpeg; a .gif without it) or FILE.gif, real time; a bare file name "
                          "is written into DIR")
    run.add_argument("--fps", type=_positive_int, default=None, metavar="N",
                     help="frames per second of --video (default 30)")
    run.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    view = sub.add_parser(
        "view", help="show a run's result in the 3-D viewer (PyVista; no FreeCAD needed)",
        description="Open the 3-D results viewer on DIR, the output directory of 'simphant "
                    "run' (its result.npz and scene.npz): time slider, play/pause, speed, "
                    "joint triads, CoG trails, body picker. With --screenshot, render one "
                    "frame off-screen to a PNG instead of opening a window.")
    view.add_argument("dir", metavar="DIR", help="output directory of 'simphant run'")
    view.add_argument("--time", type=float, default=None, metavar="S",
                      help="time to show first [s] (nearest sample; default: the start)")
    view.add_argument("--screenshot", metavar="FILE.png",
                      help="render the frame at --time off-screen to FILE.png and exit")
    view.add_argument("--size", default="960x720", metavar="WxH",
                      help="window or screenshot size in pixels (default 960x720)")
    view.add_argument("--trails", action="store_true", help="show the CoG trails")
    view.add_argument("--no-triads", action="store_true", help="hide the joint frames")
    view.add_argument("--debug", action="store_true", help="print tracebacks of internal errors")
    from .sweep.cli import add_parser as add_sweep_parser
    ap.commands = {"run": run, "view": view,    # the sub-command parsers, for documentation checks
                   "sweep": add_sweep_parser(sub)}
    return ap


# ============================================================================ progress, Ctrl-C

class ProgressBar:
    """A text progress bar on ``stream``: redrawn in place on a terminal, else a
    single line that grows (one ``#`` per 5 %), fit for logs."""

    WIDTH = 30

    def __init__(self, stream):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = 0           # non-tty: marks printed
        self.last = 0.0
        self.started = False

    def start(self, t_end):
        """Show the empty bar at once: the first report can take a while (assembly; on
        first use numba compiles the solver, about half a minute)."""
        self.last = 0.0
        self(0.0, t_end)

    def __call__(self, t, t_end):
        frac = 0.0 if not t_end else min(1.0, max(0.0, t / t_end))
        if self.tty:
            now = time.monotonic()
            if now - self.last < 0.1 and frac < 1.0:
                return
            self.last = now
            n = int(round(frac * self.WIDTH))
            self.stream.write("\rsimulating [%s%s] %3d%%  t = %.4g / %.4g s"
                              % ("#" * n, "." * (self.WIDTH - n), int(100 * frac), t, t_end))
        else:
            if not self.started:
                self.stream.write("simulating [")
                self.started = True
            marks = int(frac * 20 + 1e-9)
            if marks > self.shown:
                self.stream.write("#" * (marks - self.shown))
                self.shown = marks
        self.stream.flush()

    def close(self, ok=True):
        if self.tty:
            self.stream.write("\n" if ok else "  (stopped)\n")
        elif self.started:
            self.stream.write("] 100%\n" if ok and self.shown >= 20 else "] stopped\n")
        self.stream.flush()


class _Interrupt:
    """SIGINT while integrating asks the runner to cancel (at its next progress
    report); a second one, or one at any other time (also before the first
    progress report: compiling, assembling), raises KeyboardInterrupt. While the
    outputs are being moved into place it is held back."""

    def __init__(self):
        self.requested = False
        self.simulating = False
        self.integrating = False     # the runner has reported progress (it can cancel)
        self.committing = False
        self._previous = None
        self._installed = False

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
            self._installed = True
        return self

    def __exit__(self, *exc):
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
        return False

    def _handler(self, signum, frame):
        if self.committing:
            self.requested = True
            return
        if self.simulating and self.integrating and not self.requested:
            self.requested = True
            return
        if self.simulating and not self.integrating and not self.requested:
            # before the first progress report (compiling, assembling; nothing is
            # stored yet): stop at once rather than after the run. Raised inside a
            # FreeCAD callback (a recompute) the exception can be caught and only
            # reported there: the request then stops the run at its first report.
            self.requested = True
            raise _EarlyCancel
        raise KeyboardInterrupt


class _EarlyCancel(KeyboardInterrupt):
    """Ctrl-C before the runner's first progress report."""


# ============================================================================ FreeCAD side

def _import_freecad():
    """``import FreeCAD`` started as ``freecadcmd`` starts it (``headless.start``: the
    installed workbenches' and add-ons' module start-up), so documents with objects of
    other workbenches (PartDesign, Assembly, ...) load whole."""
    try:
        import FreeCAD
    except ImportError as exc:
        raise CliError("cannot import FreeCAD (%s); run simphant through bin/simphant or "
                       "tools/run_python.sh" % exc, EXIT_INTERNAL) from None
    from .document.headless import start
    start(FreeCAD)
    import Part  # noqa: F401  (Part feature types, needed by nearly every document)
    return FreeCAD


def _open_document(FreeCAD, path):
    if not os.path.exists(path):
        raise CliError("model file '%s' not found" % path)
    if not os.path.isfile(path):
        raise CliError("model '%s' is not a file" % path)
    import zipfile
    if not zipfile.is_zipfile(path):
        raise CliError("'%s' is not a FreeCAD document (.FCStd)" % path)
    before = set(FreeCAD.listDocuments())
    try:
        doc = FreeCAD.openDocument(path)
    except Exception as exc:  # noqa: BLE001 - FreeCAD raises assorted types
        for name in set(FreeCAD.listDocuments()) - before:
            FreeCAD.closeDocument(name)
        raise CliError("cannot open '%s': %s" % (path, exc)) from None
    return doc


def _check_nothing_lost(expected, doc, target):
    """Refuse to save ``doc`` to ``target`` when objects its file held are missing."""
    from .document.inventory import DocumentLossError, check_nothing_lost
    try:
        check_nothing_lost(expected, doc, target)
    except DocumentLossError as exc:
        raise CliError(str(exc)) from None


def _gui_members(path):
    """The GUI part of a .FCStd: ``GuiDocument.xml`` (visibility, colours, display
    modes...), the files it refers to (colour lists) and the thumbnail, as
    ``{name: bytes}``; empty when the document has none.

    FreeCAD without its GUI does not write them: a document saved headless
    opens in the GUI with every object hidden and default colours. The CLI
    puts them back into what it saves.
    """
    import re
    import zipfile
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if "GuiDocument.xml" not in names:
                return {}
            xml = z.read("GuiDocument.xml")
            wanted = {"GuiDocument.xml"}
            wanted |= {m.decode("utf-8", "replace") for m in re.findall(rb'file="([^"]+)"', xml)}
            wanted |= {n for n in names if n.startswith("thumbnails/")}
            return {n: z.read(n) for n in sorted(wanted & names)}
    except (OSError, zipfile.BadZipFile, KeyError):
        return {}


def _restore_gui_members(path, members, err):
    """Add ``members`` (``_gui_members`` of the input) to the saved .FCStd ``path`` if it has
    no GUI part of its own; written beside and moved over."""
    import zipfile
    if not members:
        return
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "GuiDocument.xml" in names:
            return
        if names & set(members):
            err.write("simphant: warning: not restoring the view data of the document (its "
                      "file names clash with %s)\n" % ", ".join(sorted(names & set(members))))
            return
        entries = [(info, z.read(info.filename)) for info in z.infolist()]
        comment = z.comment
    tmp = path + ".gui.tmp"
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.comment = comment
            for info, data in entries:
                z.writestr(info, data)
            for name, data in members.items():
                z.writestr(name, data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _find_study(doc, path, wanted):
    from .document.base import is_type
    studies = [o for o in doc.Objects if is_type(o, "SimPhant::Study")]
    if not studies:
        raise CliError("'%s' has no SimPhant study (add one with the SimPhant workbench or "
                       "factory.make_study)" % path)
    if wanted is None:
        if len(studies) > 1:
            raise CliError("'%s' has %d studies (%s); choose one with --study"
                           % (path, len(studies), ", ".join(s.Label for s in studies)))
        return studies[0]
    for s in studies:
        if wanted in (s.Name, s.Label):
            return s
    raise CliError("'%s' has no study '%s'; its studies: %s"
                   % (path, wanted, ", ".join(s.Label for s in studies)))


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


# ============================================================================ summary

def _fmt(x, unit=""):
    return ("%.4g" % x) + ((" " + unit) if unit else "")


def _analyse(study, conv, result, path, wall_total):
    """Everything the summary reports, as plain data (also written to run.json)."""
    import numpy as np
    from .document.base import study_bodies, study_joints, study_loads
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
    from .output import JOINT_UNITS
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
    from .solver.drivers import DRIVER_TYPES
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
        from .solver.dof import report_lines
        for key, text in report_lines(info["dof"]):
            L.append("           %s: %s" % (key, text))
    dt = "adaptive" if info["dt"] is None else "dt %s" % _fmt(info["dt"], "s")
    if info["method"] == "kinematic":
        dt = "positions by Newton-Raphson (%d iterations in all)" % (
            info.get("newton_iterations") or 0)
    L.append("run        %s, %s, t = %s .. %s s, %d samples every %s"
             % (info["method"], dt, _fmt(info["t0"] or 0.0), _fmt(info["t_end"]),
                info["samples"], _fmt(info["output_dt"], "s")))
    steps = info["steps"] or 0
    span = (info["t_end"] or 0.0) - (info["t0"] or 0.0)
    L.append("steps      %d%s, %d force evaluations, %s solver wall time"
             % (steps, " (mean step %s)" % _fmt(span / steps, "s") if steps else "",
                info["nfev"] or 0, _fmt(info["solver_wall_time"] or 0, "s"))
             + (" (+ %s compiling/loading the solver kernels, first use only)"
                % _fmt(info["compile_time"], "s") if info.get("compile_time") else ""))
    if info["energy_initial"] is not None:
        rel = info["energy_drift_relative"]
        line = "energy     E0 = %s, max |E - E0| = %s" % (_fmt(info["energy_initial"], "J"),
                                                         _fmt(info["energy_drift_max"], "J"))
        if rel is not None:
            line += " = %.3g of the peak kinetic energy (%s)" % (
                rel, _fmt(info["kinetic_energy_peak"], "J"))
        terms = ((" + dissipated - actuator work" if info.get("force_elements") else "")
                 + (" - driver work" if info.get("drivers") else ""))
        if terms:
            line += " (E = kinetic + potential%s)" % terms
        if info["loads"]:
            line += "; loads do work, E is not conserved"
        L.append(line)
        L.append("violation  max |Phi| = %s (m or rad), max |Phi_dot| = %s (m/s or rad/s)"
                 % (_fmt(info["violation_position_max"]), _fmt(info["violation_velocity_max"])))
    for d in info.get("drivers") or []:
        if d["effort_peak"] is not None:
            L.append("driver     %s (%s): max |%s| = %s, max |power| = %s, mean power = %s"
                     % (d["name"], d["kind"], d["effort"], _fmt(d["effort_peak"], d["effort_unit"]),
                        _fmt(d["power_peak"], "W"), _fmt(d["power_mean"], "W")))
    assembly = (info["assembly"] or "").splitlines() or ["(no report)"]
    L.append("assembly   " + assembly[0])
    L.extend("           " + a.strip() for a in assembly[1:])
    motion = info.get("joint_motion") or []
    if motion:
        L.append("motion     " + ", ".join("%s %s %s .. %s %s" % (j, dof, _fmt(lo), _fmt(hi), u)
                                           for j, dof, lo, hi, u in motion[:4]))
        if len(motion) > 4:
            L.append("           and %d more joint coordinates (joints.csv)" % (len(motion) - 4))
    for w in info.get("warnings") or []:
        L.append("warning    " + w)
    return L


# ============================================================================ outputs

def _size(n):
    for unit in ("B", "kB", "MB"):
        if n < 1000 or unit == "MB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1000.0
    return str(n)


# ============================================================================ viewer files

def _video_path(video, out_dir):
    """Absolute path of ``--video`` (a bare name goes into ``out_dir``), or None."""
    if not video:
        return None
    if os.path.splitext(video)[1].lower() not in (".mp4", ".gif"):
        raise CliError("--video '%s': the name must end in .mp4 or .gif" % video)
    if os.path.dirname(video) == "":
        return os.path.join(out_dir, video)
    path = os.path.abspath(video)
    if not os.path.isdir(os.path.dirname(path)):
        raise CliError("--video '%s': directory '%s' does not exist"
                       % (video, os.path.dirname(path)))
    return path


def _spawn_animation(args):
    """Before the solve: the second process that will render animation.gif
    (``viewer.gif_job``; it imports what it needs while this one solves), or None (no
    animation, or none can be started: rendered in this process)."""
    from .viewer import gif_job
    if args.no_animation or not gif_job.can_spawn():
        return None
    try:
        return gif_job.GifJob.spawn()
    except OSError:
        return None


def _start_animation(job, args, result, scene, staging, title):
    """Write result.npz and scene.npz, and have ``job`` (``_spawn_animation``) render
    animation.gif from them while the other files are written: the job, or None (no job,
    no scene, or it is gone: stopped, rendered in this process)."""
    from .viewer import files
    if job is None or scene is None:
        if job is not None:
            job.kill()
        return None
    files.write_view_files(staging, result, scene)
    try:
        job.go(os.path.join(staging, files.RESULT_FILE), os.path.join(staging, files.SCENE_FILE),
               os.path.join(staging, "animation.gif"),
               args.frames or files.output.ANIMATION_FRAMES, title)
    except OSError:
        job.kill()
        return None
    return job


def _render_animation(args, result, scene, staging, title, err):
    from .viewer import files
    used, _, why = files.write_animation(
        result, scene, os.path.join(staging, "animation.gif"),
        args.frames or files.output.ANIMATION_FRAMES, title)
    if why is not None:
        err.write("simphant: animation drawn without VTK (%s)\n" % why)


def _finish_animation(job, args, result, scene, staging, title, note, err):
    """Wait for the animation's process; render it here if that failed."""
    note("animation.gif")
    if job.wait() is not None:
        _render_animation(args, result, scene, staging, title, err)


def _write_view_outputs(args, result, scene, staging, title, note, err, job=None):
    """result.npz, scene.npz, animation.gif (VTK, else the Matplotlib fallback; awaited
    from ``job`` when ``_start_animation`` started one) and --video into ``staging``;
    returns the names to list in run.json (a --video outside DIR is moved there after the
    commit, and not listed)."""
    from .viewer import files
    note(files.RESULT_FILE if scene is None else "%s, %s" % (files.RESULT_FILE,
                                                             files.SCENE_FILE))
    if job is None:
        names = files.write_view_files(staging, result, scene)
    else:
        names = [files.RESULT_FILE, files.SCENE_FILE]         # written before the job began
    if not args.no_animation:
        if job is None:
            note("animation.gif")
            _render_animation(args, result, scene, staging, title, err)
        names.append("animation.gif")       # else finished by _finish_animation
    if args.video:
        name = os.path.basename(args.video)
        note(name)
        try:
            written, _ = files.write_run_video(result, scene, os.path.join(staging, name),
                                               fps=args.fps or files.VIDEO_FPS, title=title)
        except RuntimeError as exc:
            raise CliError("--video: %s" % exc, EXIT_INPUT) from None
        if os.path.basename(written) != name:
            err.write("simphant: no ffmpeg found: wrote %s instead\n"
                      % os.path.basename(written))
            args.video = os.path.join(os.path.dirname(args.video), os.path.basename(written))
        if os.path.dirname(args.video) == "":
            names.append(os.path.basename(written))
    return names


def _view(args, out, err):
    """``simphant view DIR``: the interactive viewer, or one off-screen frame."""
    from . import viewer
    from .viewer import files
    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
        if w < 16 or h < 16:
            raise ValueError
    except ValueError:
        raise CliError("--size '%s': give WIDTHxHEIGHT in pixels, e.g. 960x720" % args.size)
    reason = viewer.missing_reason(interactive=args.screenshot is None)
    if reason is not None:
        raise CliError("the viewer is not available: %s. %s" % (reason, viewer.INSTALL_HINT))
    try:
        result, scene = files.load_view_files(args.dir)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    index = 0
    if args.time is not None:
        t = result.t
        if not (t[0] - 1e-9 <= args.time <= t[-1] + 1e-9):
            raise CliError("--time %g s is outside the result (%g s to %g s)"
                           % (args.time, t[0], t[-1]))
        index = int(abs(t - args.time).argmin())
    if args.screenshot:
        from PIL import Image
        from .viewer.render import render_frames
        img, = list(render_frames(result, scene, [index], (w, h), triads=not args.no_triads,
                                  trails=args.trails))
        Image.fromarray(img).save(args.screenshot)
        out.write("%s: t = %.4g s, %dx%d\n" % (args.screenshot, result.t[index], w, h))
        return EXIT_OK
    from .viewer.window import run_viewer
    try:
        run_viewer(result, scene, index=index, size=(w, h), triads=not args.no_triads,
                   trails=args.trails)
    except RuntimeError as exc:
        raise CliError(str(exc)) from None
    return EXIT_OK


# ============================================================================ the command

def _run(args, progress, out, err, interrupt):
    t_start = time.perf_counter()
    model_path = args.model or default_model()
    if args.model is None:
        err.write("simphant: no model given, running the bundled example %s\n" % model_path)
    out_dir = os.path.abspath(args.out or os.path.join(
        "simphant-out", os.path.splitext(os.path.basename(model_path))[0]))
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise CliError("output '%s' exists and is not a directory" % out_dir)
    overrides = {k: getattr(args, k) for k in ("t_end", "dt", "method", "output_dt")
                 if getattr(args, k) is not None}

    FreeCAD = _import_freecad()
    from . import output
    from .run import prepare
    from .document.file_check import DocumentError, check_document
    from .document.inventory import file_inventory
    from .output.outdir import OutputDir, OutputDirError
    from .document.scene import scene_from_study
    from .viewer.scene import colors_from_gui_xml
    video_path = _video_path(args.video, out_dir)
    moved_video = None
    if args.video:                      # say it before solving, not after
        from . import viewer
        reason = viewer.missing_reason()
        if reason is not None:
            raise CliError("--video: the video needs PyVista/VTK: %s. %s"
                           % (reason, viewer.INSTALL_HINT))
    doc = _open_document(FreeCAD, model_path)
    gui = _gui_members(model_path)
    target = OutputDir(out_dir, protected=[model_path])
    job = None
    try:
        job = _spawn_animation(args)       # prepares on the core the solve leaves free
        try:
            check_document(doc, model_path)      # a damaged file: bad input, not a partial model
        except DocumentError as exc:
            raise CliError(str(exc)) from None
        loaded = file_inventory(model_path)    # every object the file holds: kept by any save
        study = _find_study(doc, model_path, args.study)
        try:
            run = prepare(study, **overrides)     # model errors before the progress bar
        except ModelError as exc:
            raise CliError(str(exc)) from None
        conv = run.conversion
        try:
            staging = target.prepare()     # before the run: an unwritable DIR fails now
        except OutputDirError as exc:
            raise CliError(str(exc)) from None
        for name in target.removed_partials:
            err.write("simphant: removed %s, left by an interrupted run\n"
                      % os.path.join(out_dir, name))

        bar = ProgressBar(err)

        def report(t, t_end):
            interrupt.integrating = True
            bar(t, t_end)
            if interrupt.requested:
                return False
            if progress is not None:
                answer = progress(t, t_end)
                if answer is not None and not answer:
                    return False
            return True

        try:
            interrupt.simulating = True
            bar.start(run.t_end)
            result = run.execute(report)
            run.commit(result)
        except _EarlyCancel:
            bar.close(ok=False)
            raise CliError("run cancelled at t = 0 s, before the integration started; nothing "
                           "written", EXIT_CANCELLED) from None
        except SimulationCancelled as exc:
            bar.close(ok=False)
            raise CliError("run cancelled at t = %.4g s; nothing written" % (exc.time or 0.0),
                           EXIT_CANCELLED) from None
        except SimulationError as exc:
            bar.close(ok=False)
            raise CliError("%s; nothing written" % exc, EXIT_SIMULATION) from None
        except ModelError as exc:
            bar.close(ok=False)
            raise CliError(str(exc)) from None
        finally:
            interrupt.simulating = interrupt.integrating = False
        bar.close(ok=True)
        if interrupt.requested:        # Ctrl-C right after the last report
            raise KeyboardInterrupt

        # ---- outputs, staged
        title = "%s: %s" % (os.path.splitext(os.path.basename(model_path))[0], study.Label)
        scene = None
        if not args.no_animation or args.video:
            err.write("tessellating the bodies\n")
            scene = scene_from_study(study, result, colors_from_gui_xml(
                gui.get("GuiDocument.xml", b"")), title=title)

        def note(fname):
            err.write("writing %s\n" % fname)
            err.flush()

        job = _start_animation(job, args, result, scene, staging, title)
        names = output.write_all(result, staging, None, title=title, progress=note)
        names += _write_view_outputs(args, result, scene, staging, title, note, err, job)
        stem = os.path.splitext(os.path.basename(model_path))[0]
        doc_name = stem + "_result.FCStd"
        if not args.in_place:
            note(doc_name)
            _check_nothing_lost(loaded, doc, os.path.join(out_dir, doc_name))
            doc.saveAs(os.path.join(staging, doc_name))
            _restore_gui_members(os.path.join(staging, doc_name), gui, err)
            names.append(doc_name)
        if job is not None:
            _finish_animation(job, args, result, scene, staging, title, note, err)
            job = None
        info = _analyse(study, conv, result, model_path, time.perf_counter() - t_start)
        lines = summary_lines(info)
        with open(os.path.join(staging, "summary.txt"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        names.append("summary.txt")
        info.update(simphant=__version__, freecad=".".join(FreeCAD.Version()[:3]))
        if args.in_place:
            note(os.path.basename(model_path) + " (in place)")
            _check_nothing_lost(loaded, doc, model_path)
            doc.save()
            _restore_gui_members(model_path, gui, err)
        interrupt.committing = True
        try:
            names = target.commit(names, info)
        except OutputDirError as exc:
            raise CliError(str(exc)) from None
        finally:
            interrupt.committing = False
        if video_path is not None and os.path.dirname(video_path) != out_dir:
            name = os.path.basename(args.video)       # .gif if there was no ffmpeg
            video_path = os.path.join(os.path.dirname(video_path), name)
            shutil.move(os.path.join(staging, name), video_path)
            moved_video = video_path
        target.discard()

        for line in lines:
            out.write(line + "\n")
        out.write("outputs    %s\n" % out_dir)
        for name in names:
            out.write("           %-28s %s\n"
                      % (name, _size(os.path.getsize(os.path.join(out_dir, name)))))
        if args.in_place:
            out.write("           %s saved in place\n" % os.path.abspath(model_path))
        if moved_video is not None:
            out.write("           %-28s %s\n" % (moved_video, _size(os.path.getsize(moved_video))))
        out.write("wall time  %s\n" % _fmt(time.perf_counter() - t_start, "s"))
        out.flush()
        return EXIT_OK
    finally:
        if job is not None:
            job.kill()                  # a failed or interrupted run: stop its animation
        target.discard()
        try:
            FreeCAD.closeDocument(doc.Name)
        except Exception:  # noqa: BLE001 - already closed
            pass


def main(argv=None, progress=None, stdout=None, stderr=None):
    """Entry point of ``bin/simphant``; returns the exit code.

    ``progress(t, t_end)`` (optional) is called with the runner's progress
    reports; returning False cancels the run as Ctrl-C does.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as exc:          # --help, --version (0), usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    if args.command is None:
        parser.print_help(err)
        return EXIT_INPUT
    with _Interrupt() as interrupt:
        try:
            if args.command == "view":
                return _view(args, out, err)
            if args.command == "sweep":
                from .sweep.cli import run_sweep
                return run_sweep(args, out, err, interrupt)
            return _run(args, progress, out, err, interrupt)
        except CliError as exc:
            kind = "" if exc.code == EXIT_CANCELLED else "error: "
            err.write("simphant: %s%s\n" % (kind, exc))
            return exc.code
        except KeyboardInterrupt:
            err.write("\nsimphant: run cancelled; nothing written\n")
            return EXIT_CANCELLED
        except Exception as exc:  # noqa: BLE001 - last resort: one line, not a traceback
            if getattr(args, "debug", False):
                import traceback
                traceback.print_exc(file=err)
            err.write("simphant: internal error: %s: %s (run with --debug for the traceback)\n"
                      % (type(exc).__name__, exc))
            return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
