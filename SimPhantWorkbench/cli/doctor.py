"""``simphant doctor``: can SimPhant solve in FreeCAD's Python, and if not, what to run.

The check (``deps.check``) runs inside ``freecadcmd``, i.e. in FreeCAD's own Python
with the ``sys.path`` FreeCAD gives it (the Addon Manager's package folder last),
which is what the workbench will see; ``--here`` checks the Python running this
command instead. It prints each package (version, where it was found, what is wrong)
and, for each error, the commands that fix it for this FreeCAD; ``--json`` prints the
report as JSON. Exit code 0 when the solver can run, ``EXIT_DEPENDENCIES`` (5) when
something it needs is missing, broken, too old or mismatched, 1 when FreeCAD could not
be started. Imports nothing but the standard library and ``deps`` before it runs the
check, so it works where numpy or numba are broken.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from .common import EXIT_DEPENDENCIES, EXIT_INTERNAL, EXIT_OK, CliError

__all__ = ["add_parser", "doctor", "FREECADCMD_NAMES", "MARK"]

#: executables tried, in order, for FreeCAD's command-line Python
FREECADCMD_NAMES = ("freecadcmd", "FreeCADCmd", "freecad.cmd")
MARK = "SIMPHANT-DOCTOR-JSON "
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: run in freecadcmd: the check and its text for this FreeCAD, as one JSON line
_SCRIPT = """
import json, sys
sys.path.insert(0, %(root)r)
from SimPhantWorkbench import deps
from SimPhantWorkbench.document.installation import report_text
report = deps.check()
out = report.to_dict()
out["text"] = report_text(report)
print(%(mark)r + json.dumps(out))
"""


def add_parser(sub):
    p = sub.add_parser(
        "doctor", help="check that FreeCAD's Python has what the solver needs; say how to fix",
        description="Check numpy, scipy (scipy.linalg, scipy.integrate), numba and llvmlite "
                    "in FreeCAD's Python (through freecadcmd): importable, in the tested "
                    "versions, agreeing with each other. For each problem, the command that "
                    "fixes it for this FreeCAD. Exit code 0: the solver can run; 4: it "
                    "cannot.")
    p.add_argument("--here", action="store_true",
                   help="check the Python running this command instead of FreeCAD's")
    p.add_argument("--freecadcmd", metavar="PATH",
                   help="FreeCAD's command-line executable (default: the first of %s on "
                        "PATH)" % ", ".join(FREECADCMD_NAMES))
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def _freecadcmd(path=None):
    if path:
        return path
    for name in FREECADCMD_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _in_freecad(exe):
    """The report dict made inside ``exe`` (freecadcmd)."""
    with tempfile.TemporaryDirectory(prefix="simphant-doctor-") as tmp:
        script = os.path.join(tmp, "doctor_check.py")
        with open(script, "w") as fh:
            fh.write(_SCRIPT % dict(root=ROOT, mark=MARK))
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)          # FreeCAD's own sys.path, as the GUI has it
        try:
            proc = subprocess.run([exe, script], capture_output=True, encoding="utf-8",
                                  errors="replace", timeout=300, env=env, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CliError("could not run %s: %s" % (exe, exc), EXIT_INTERNAL) from None
    for line in proc.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK):])
    raise CliError("%s did not run the check (exit %s): %s" % (
        exe, proc.returncode, (proc.stderr or proc.stdout).strip()[-2000:]), EXIT_INTERNAL)


def _here():
    from .. import deps
    report = deps.check()
    out = report.to_dict()
    try:
        from ..document.installation import report_text
        out["text"] = report_text(report)
    except ImportError:                 # no FreeCAD module here: a generic context
        ctx = deps.Context(deps.python_for_pip(), "<FreeCAD user data>/AdditionalPythonPackages",
                           "", bool(shutil.which("apt-get")))
        out["text"] = deps.report_text(report, ctx)
    return out


def doctor(args, out, err):
    """Run the check; returns the exit code."""
    if args.here:
        where = "this Python (%s)" % sys.executable
        rep = _here()
    else:
        exe = _freecadcmd(args.freecadcmd)
        if exe is None:
            err.write("simphant doctor: no freecadcmd on PATH (--freecadcmd PATH names it); "
                      "checking this Python instead\n")
            where = "this Python (%s)" % sys.executable
            rep = _here()
        else:
            where = "FreeCAD's Python (%s)" % exe
            rep = _in_freecad(exe)
    if args.json:
        rep["checked"] = where
        out.write(json.dumps(rep, indent=1) + "\n")
    else:
        out.write("SimPhant doctor: %s\n%s\n" % (where, rep["text"]))
    return EXIT_OK if rep["ok"] else EXIT_DEPENDENCIES
