"""What to run to fix what ``check`` found, for this FreeCAD.

FreeCAD's Addon Manager installs Python packages with ``python -m pip install
--target <user data>/AdditionalPythonPackages[/py3XX] NAME`` (pip resolves NAME's own
dependencies, e.g. a newer numpy next to a scipy) and FreeCAD appends that folder to
``sys.path`` *after* the distribution's packages. So the advice:

* numba/llvmlite: the tested pair (``TESTED_PINS``) with ``--no-deps`` into that
  folder, so FreeCAD keeps its own numpy;
* scipy (and numpy) where FreeCAD's numpy is the distribution's: the distribution's
  package (Debian/Ubuntu: ``apt-get install python3-scipy``), which is built for it;
  otherwise pip with numpy pinned to the version this Python loads, so that pip picks
  a scipy made for it;
* a broken copy pip put into the folder is removed first (it would still be found).
"""
import os
import shlex
import shutil
import sys
from collections import namedtuple

from . import versions
from .probe import OPTIONAL, PYTHON_MIN, REQUIREMENTS, TESTED_PINS, VIEWER_PINS

__all__ = ["Context", "addon_target", "python_for_pip", "fixes", "optional_commands", "report_text",
           "DISTRIBUTION_PACKAGES"]

#: Debian/Ubuntu package of each package FreeCAD's distribution build can use
DISTRIBUTION_PACKAGES = {"numpy": "python3-numpy", "scipy": "python3-scipy",
                         "matplotlib": "python3-matplotlib", "pandas": "python3-pandas",
                         "distributed": "python3-distributed"}
_DIST_PREFIXES = ("/usr/lib/python3/dist-packages",)


class Context(namedtuple("Context", "python target freecad apt")):
    """Where to install: the Python executable pip runs with, the Addon Manager's target
    folder, FreeCAD's version text, whether the distribution's packages (apt) serve
    FreeCAD's Python."""


def addon_target(user_data_dir, freecad_major, path=None):
    """The folder FreeCAD's Addon Manager installs Python packages into: on 0.x
    ``<user data>/AdditionalPythonPackages``, on 1.x its ``py3XX`` folder; when FreeCAD
    already lists one of them on ``path`` (``sys.path``), that one."""
    base = os.path.join(user_data_dir, "AdditionalPythonPackages")
    versioned = os.path.join(base, "py%d%d" % sys.version_info[:2])
    on_path = [p.rstrip("/\\") for p in (sys.path if path is None else path)
               if "AdditionalPythonPackages" in p]
    if versioned in on_path:
        return versioned
    if on_path:
        return on_path[0]
    return base if int(freecad_major) == 0 else versioned


def python_for_pip(preferred=None):
    """The Python executable of this interpreter's version for ``-m pip`` (FreeCAD's
    ``sys.executable`` is FreeCAD itself): ``preferred`` (the Addon Manager's
    preference) when set, else ``<prefix>/bin/python3.X``, ``python3.X``, ``python3``."""
    if preferred and os.path.exists(preferred):
        return preferred
    major_minor = "%d.%d" % sys.version_info[:2]
    candidates = [os.path.join(sys.prefix, "bin", "python" + major_minor),
                  os.path.join(sys.prefix, "python.exe"),
                  shutil.which("python" + major_minor), shutil.which("python3")]
    exe = os.path.basename(sys.executable or "").lower()
    if exe.startswith("python"):
        candidates.insert(0, sys.executable)
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    return "python3"


def _q(arg):
    return arg if os.name != "nt" else ('"%s"' % arg if " " in arg else arg)


def _cmd(args):
    return " ".join(shlex.quote(a) if os.name != "nt" else _q(a) for a in args)


def _pip(ctx, specs, no_deps=True):
    args = [ctx.python, "-m", "pip", "install", "--disable-pip-version-check", "--upgrade",
            "--only-binary=:all:"] + (["--no-deps"] if no_deps else []) + [
        "--target", ctx.target] + list(specs)
    return _cmd(args)


def _remove(location, name, target):
    """The command removing the copy of ``name`` pip put into ``target`` ("" if the copy
    is elsewhere: the distribution's packages are not removed by hand)."""
    if not location or not target or os.path.normpath(location) != os.path.normpath(target):
        return ""
    paths = [os.path.join(target, name)]
    try:
        paths += [os.path.join(target, e) for e in sorted(os.listdir(target))
                  if e.lower().startswith((name + "-", name + ".libs"))]
    except OSError:
        pass
    if os.name == "nt":
        return " & ".join('rmdir /s /q "%s"' % p for p in paths)
    return _cmd(["rm", "-rf"] + paths)


def _numpy_from_distribution(report):
    f = report.finding("numpy")
    return bool(f and f.location and f.location.startswith(_DIST_PREFIXES))


def fixes(report, ctx):
    """``[(package, [command, ...])]``: for each error, the commands that fix it, in
    order (one line each; "#" lines explain)."""
    out = []
    numpy = report.finding("numpy")
    distro = ctx.apt and (numpy is None or numpy.kind == "missing"
                          or _numpy_from_distribution(report))
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    for f in report.errors:
        cmds = []
        if f.name == "python":
            cmds.append("# SimPhant needs a FreeCAD whose Python is %d.%d or newer (FreeCAD "
                        "0.21, 1.0 or later builds); this one runs Python %s" % (
                            PYTHON_MIN + (f.version,)))
        elif f.name in ("numba", "llvmlite"):
            rm = _remove(f.location, f.name, ctx.target)
            cmds += [rm] if rm and f.kind in ("broken", "mismatch") else []
            cmds.append(_pip(ctx, ["%s==%s" % p for p in TESTED_PINS]))
        elif f.name in ("numpy", "scipy"):
            rm = _remove(f.location, f.name, ctx.target)
            if rm:
                cmds.append(rm)
            if distro:
                cmds.append("%sapt-get install %s" % (sudo, DISTRIBUTION_PACKAGES[f.name]))
            elif f.name == "scipy" and numpy is not None and numpy.severity != "error":
                cmds.append(_pip(ctx, ["scipy>=%s" % _req("scipy").minimum,
                                       "numpy==%s" % numpy.version], no_deps=False))
            else:
                req = _req(f.name)
                cmds.append(_pip(ctx, ["%s%s" % (f.name, versions.spec_text(req.minimum,
                                                                           req.below))],
                                 no_deps=False))
        _add(out, f.name, cmds)
    return out


def _add(out, name, cmds):
    """Append ``(name, cmds)``, or add ``name`` to the last entry when its commands are
    the same (numba and llvmlite are installed together)."""
    if out and out[-1][1] == cmds:
        out[-1] = ("%s, %s" % (out[-1][0], name), cmds)
    else:
        out.append((name, cmds))


def _req(name):
    return next(r for r in REQUIREMENTS if r.name == name)


def optional_commands(report, ctx):
    """``[(package, what it gives, command)]`` for the optional extras that are missing.
    The viewer's PyVista goes with the VTK of the distribution (never pip's ``vtk``, which
    would replace the VTK FreeCAD's FEM uses): see the README's viewer section."""
    out = []
    numpy_distro = _numpy_from_distribution(report)
    sudo = "" if hasattr(os, "geteuid") and os.geteuid() == 0 else "sudo "
    for dist, _module, what in OPTIONAL:
        f = report.finding(dist)
        if f is None or f.kind != "missing":
            continue
        if dist in ("pyvista", "pyvistaqt"):
            cmd = ((("%sapt-get install python3-vtk9 python3-qtpy && " % sudo) if ctx.apt
                    else "") + _pip(ctx, ["%s==%s" % p for p in VIEWER_PINS]))
        elif ctx.apt and numpy_distro and dist in DISTRIBUTION_PACKAGES:
            cmd = "%sapt-get install %s" % (sudo, DISTRIBUTION_PACKAGES[dist])
        else:
            cmd = _pip(ctx, [dist], no_deps=False)
        if out and out[-1][2] == cmd:
            out[-1] = ("%s, %s" % (out[-1][0], dist), "%s; %s" % (out[-1][1], what), cmd)
        else:
            out.append((dist, what, cmd))
    return out


def report_text(report, ctx, optional=True):
    """The report as text: the Python, each package, then what to do."""
    lines = ["Python %s (%s)" % (report.python, report.executable),
             "Addon Manager's package folder: %s" % ctx.target, ""]
    lines += [f.line() for f in report.findings if f.severity != "info" or f.kind == "shadowed"]
    todo = fixes(report, ctx)
    if todo:
        lines += ["", "SimPhant cannot solve until this is fixed. Close FreeCAD, run in a "
                      "terminal:"]
        for name, cmds in todo:
            lines += ["", "  %s:" % name] + ["    " + c for c in cmds if c]
        lines += ["", "then start FreeCAD again (SimPhant > Check dependencies, or "
                      "'simphant doctor', checks again)."]
    else:
        lines += ["", "Everything the solver needs is there."]
    extras = optional_commands(report, ctx) if optional else []
    if extras:
        lines += ["", "Optional extras not installed:"]
        for dist, what, cmd in extras:
            lines += ["  %s (%s):" % (dist, what), "    " + cmd]
    return "\n".join(lines)
