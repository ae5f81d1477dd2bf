"""``simphant``: run the motion study of a FreeCAD document headless and write its outputs.

::

    simphant run [MODEL.FCStd] [--study NAME] [--t-end S] [--dt S] [--method M]
                 [--output-dt S] [--out DIR] [--no-animation] [--frames N] [--in-place]
                 [--video FILE.mp4] [--fps N] [--interference] [--deflection MM]
    simphant view DIR [--time S] [--screenshot FILE.png] [--size WxH] [--trails]
                      [--no-triads]
    simphant sweep MODEL.FCStd SPEC.toml --out DIR [--scheduler ADDRESS] [--workers N]
                   [--connect-timeout S] [--worker-timeout S] ...
                 (a parameter study: ``cli.sweep``)
    simphant fem MODEL.FCStd --body NAME --at INSTANT [--study NAME] [--mesh-size MM] ...
                 (a stress analysis of one body at one instant: ``cli.fem``)
    simphant doctor [--here] [--json] [--freecadcmd PATH]
                 (what the solver needs, checked in FreeCAD's Python: ``cli.doctor``)

Without ``MODEL`` it runs the bundled slider-crank example. The study is run
with the run pipeline (``SimPhantWorkbench.run``; a text progress bar on stderr),
a summary is printed on stdout and these files are written to ``DIR`` (default
``./simphant-out/<model name>``):

* ``body_<name>.csv``, ``reactions.csv``, ``energy.csv``, ``positions.png``,
  ``energy.png``, ``reactions.png``, ``animation.gif`` (see ``output``; the
  animation rendered by VTK when PyVista is installed, see ``viewer.files``);
* ``result.npz`` and ``scene.npz`` (the result and the tessellated bodies, what
  ``simphant view DIR`` shows without FreeCAD), ``--video``'s MP4/GIF;
* ``<model name>_result.FCStd``: the document with the study's Result (the
  input file is never written, unless ``--in-place`` asks for it), with the
  input's view data (``GuiDocument.xml``: visibility, colours), which FreeCAD
  does not write without its GUI;
* ``interference.csv``: per pair of bodies (those sharing a joint left out) the
  minimum clearance, every interval of interference with its largest penetration
  (``document.interference``; needs python-fcl, else a line says why);
* ``summary.txt`` (the printed summary) and ``run.json`` (the same, for
  programs, with the list of files).

Every file is first written into a hidden staging directory inside ``DIR``
and moved into place only when all of them are complete (``run.json`` last),
so a failed or cancelled run (Ctrl-C: the runner's cancel) leaves no
complete-looking output behind. ``run.json`` is the run's manifest (its id and
the SHA-256 of every file): a later run removes only the files a previous
manifest proves were written by that run and are unchanged since, never the
model (see ``output.outdir``). The model file is opened and saved by
``document.opening`` (its checks are those of every entry point).

Modules: ``run``, ``view``, ``sweep``, ``fem`` and ``doctor`` (the commands), ``summary``,
``progress`` (the progress bar and Ctrl-C), ``common`` (exit codes, errors, FreeCAD start-up).

Exit codes: 0 success; 1 internal error; 2 bad input (command line, file,
study, model); 3 the integration failed; 4 a parameter study's infrastructure
failed (scheduler, workers); 5 a package the solver needs is missing or broken (the
message says what to install; ``simphant doctor``); 130 cancelled (Ctrl-C or SIGTERM).
``simphant view`` and ``--help`` work without FreeCAD: nothing here imports the
document side before a command needs it; ``simphant doctor`` imports neither the
solver nor numpy before its check.
"""
import argparse
import contextlib
import math
import sys

from .. import __version__
from ..deps import DependencyError
from ..output.quantities import parse_time
from .common import (EXIT_CANCELLED, EXIT_DEPENDENCIES, EXIT_INFRASTRUCTURE, EXIT_INPUT,
                     EXIT_INTERNAL, EXIT_OK,
                     EXIT_SIMULATION, CliError)
from .progress import Interrupt

__all__ = ["main", "build_parser", "default_model", "summary_lines", "EXIT_OK", "EXIT_INTERNAL",
           "EXIT_INPUT", "EXIT_SIMULATION", "EXIT_INFRASTRUCTURE", "EXIT_CANCELLED",
           "EXIT_DEPENDENCIES"]


def __getattr__(name):
    """``default_model`` and ``summary_lines`` (they import the solver: not before a
    command needs it, so that ``simphant doctor`` runs where numpy is broken)."""
    if name == "default_model":
        from .run import default_model
        return default_model
    if name == "summary_lines":
        from .summary import summary_lines
        return summary_lines
    raise AttributeError(name)


def _positive(text, parse=float, what="a number"):
    try:
        v = parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not %s" % (text, what)) from None
    if not (math.isfinite(v) and v > 0.0):
        raise argparse.ArgumentTypeError("must be a positive number, got %r" % text)
    return v


def _positive_time(text):
    """A positive time: seconds, or a number with s, ms or us ("0.5 ms")."""
    return _positive(text, parse_time, "a time (e.g. 0.5, 2 s, 0.5 ms, 100 us)")


def _positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an integer" % text) from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1, got %r" % text)
    return v


def _default_frames():
    from ..output import ANIMATION_FRAMES
    return ANIMATION_FRAMES


def build_parser():
    from ..solver import METHODS
    from .run import DEFAULT_EXAMPLE
    ap = argparse.ArgumentParser(
        prog="simphant", description="SimPhant: rigid multibody dynamics on FreeCAD documents.")
    ap.add_argument("--version", action="version", version="SimPhant %s" % __version__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser(
        "run", help="run the motion study of a FreeCAD document and write its outputs",
        description="Run the motion study of MODEL (a .FCStd with a SimPhant study, or with a "
                    "FreeCAD Assembly, imported into a study for the run) and write "
                    "CSV tables, plots, an animation and the document with its result to DIR. "
                    "Without MODEL: the bundled %s example." % DEFAULT_EXAMPLE)
    run.add_argument("model", nargs="?", metavar="MODEL.FCStd",
                     help="the document (default: examples/%s.FCStd)" % DEFAULT_EXAMPLE)
    run.add_argument("--study", metavar="NAME",
                     help="the study to run, by name or label (needed when there are several)")
    run.add_argument("--assembly", metavar="NAME",
                     help="a document without a study: the FreeCAD Assembly to import into a "
                          "study for this run, by name or label (needed when there are "
                          "several; the study is saved only into the result document)")
    run.add_argument("--t-end", type=_positive_time, metavar="S",
                     help="end time [s, or with a unit: ms, us]")
    run.add_argument("--dt", type=_positive_time, metavar="S",
                     help="time step [s, or with a unit: 1ms, 100us] (fixed-step methods; "
                          "maximum step of adaptive ones)")
    run.add_argument("--method", choices=list(METHODS), metavar="M",
                     help="integration method: %s" % ", ".join(METHODS))
    run.add_argument("--output-dt", type=_positive_time, metavar="S",
                     help="interval between stored samples [s, or with a unit: ms, us]")
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
    run.add_argument("--interference", action="store_true",
                     help="check the bodies for interference along the motion (seconds to "
                          "minutes: every pair of bodies between the samples too)")
    run.add_argument("--deflection", type=_positive, default=None, metavar="MM",
                     help="deflection [mm] of the tessellation the interference check uses "
                          "(default 0.1)")
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
    from .doctor import add_parser as add_doctor_parser
    from .sweep import add_parser as add_sweep_parser
    from .fem import add_parser as add_fem_parser
    ap.commands = {"run": run, "view": view,    # the sub-command parsers, for documentation checks
                   "sweep": add_sweep_parser(sub, _positive_int, _positive),
                   "fem": add_fem_parser(sub, _positive),
                   "doctor": add_doctor_parser(sub)}
    return ap


def _doctor_parser():
    """The parser of ``simphant doctor`` alone (the full parser imports the solver)."""
    from .doctor import add_parser
    ap = argparse.ArgumentParser(prog="simphant")
    add_parser(ap.add_subparsers(dest="command", metavar="COMMAND"))
    return ap


def main(argv=None, progress=None, stdout=None, stderr=None):
    """Entry point of ``bin/simphant``; returns the exit code.

    ``progress(t, t_end)`` (optional) is called with the runner's progress
    reports; returning False cancels the run as Ctrl-C does.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _doctor_parser() if argv[:1] == ["doctor"] else build_parser()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as exc:          # --help, --version (0), usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    if args.command is None:
        parser.print_help(err)
        return EXIT_INPUT
    if args.command == "doctor":
        from .doctor import doctor
        try:
            return doctor(args, out, err)
        except CliError as exc:
            err.write("simphant: error: %s\n" % exc)
            return exc.code
    from ..solver import ModelError
    with Interrupt() as interrupt:
        try:
            if args.command == "view":
                from .view import view
                return view(args, out, err)
            if args.command == "sweep":
                from .sweep import run_sweep
                return run_sweep(args, out, err, interrupt)
            if args.command == "fem":
                from .fem import run_fem
                return run_fem(args, out, err)
            from .run import run
            return run(args, progress, out, err, interrupt)
        except CliError as exc:
            kind = "" if exc.code == EXIT_CANCELLED else "error: "
            err.write("simphant: %s%s\n" % (kind, exc))
            return exc.code
        except ModelError as exc:       # the model, its file or the study: bad input
            err.write("simphant: error: %s\n" % exc)
            return EXIT_INPUT
        except DependencyError as exc:  # numba, scipy ...: what to install
            err.write("simphant: error: %s\n" % exc)
            return EXIT_DEPENDENCIES
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
