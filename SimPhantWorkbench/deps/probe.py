"""Are the packages the solver needs importable here, in versions it was tested with?

``check()`` imports numpy, scipy (with ``scipy.linalg`` and ``scipy.integrate``),
numba and llvmlite in this process -- inside FreeCAD, FreeCAD's own Python with its
``sys.path`` -- and compares what it got with ``REQUIREMENTS``:

* missing: the import fails with ``ModuleNotFoundError`` for the package itself;
* broken: the import fails otherwise (a scipy built for a newer numpy fails with
  ``No module named 'numpy.exceptions'``; a numba meeting a numpy it does not know
  refuses to import);
* too old: below the lowest version SimPhant was tested with (an old numba compiles
  the kernels for a quarter of an hour and more);
* mismatch: a package's own declared requirement on numpy (scipy, numba) or llvmlite
  (numba) is not met by the copy this Python loads, e.g. a scipy pip put into
  ``AdditionalPythonPackages`` next to its numpy while FreeCAD loads the
  distribution's older numpy first;
* untested: newer than the newest version tested (a warning: it may work).

Errors block solving; warnings do not. Optional extras (``OPTIONAL``) are only looked
up (``importlib.util.find_spec``), never imported: the viewer's VTK is heavy.
"""
import importlib
import importlib.util
import os
import sys
from collections import namedtuple

from . import versions

__all__ = ["PYTHON_MIN", "REQUIREMENTS", "OPTIONAL", "TESTED_PINS", "VIEWER_PINS", "Requirement", "Finding",
           "Report", "check", "require_solver", "DependencyError", "distribution_info"]

#: numba (>= 0.61) and llvmlite need Python 3.10 or newer
PYTHON_MIN = (3, 10)


class Requirement(namedtuple("Requirement", "name modules minimum below purpose")):
    """A package the solver needs: the modules imported to check it, the lowest version
    tested (``minimum``, inclusive) and the first version not tested (``below``: newer
    is a warning), what it is for."""


#: what a solve needs; numba's range: 0.61 is the oldest release tested (numba 0.61.2 with
#: llvmlite 0.44.0 on Python 3.11 passes the solver's physics, joint and closed-loop tests;
#: 0.57 took over a quarter of an hour to compile the kernels), 0.68 the newest
REQUIREMENTS = (
    Requirement("numpy", ("numpy",), "1.24", "2.6", "arrays everywhere"),
    Requirement("scipy", ("scipy", "scipy.linalg", "scipy.integrate"), "1.10", None,
                "linear algebra, the adaptive integrators"),
    Requirement("numba", ("numba",), "0.61", "0.69", "the compiled solver kernels"),
    Requirement("llvmlite", ("llvmlite",), "0.44", "0.51", "numba's compiler"),
)

#: the numba/llvmlite pair installed by ``make setup`` and advised by ``simphant doctor``
#: and the Check dependencies dialog (requirements-freecad.txt says the same; a test
#: compares them)
TESTED_PINS = (("numba", "0.68.1"), ("llvmlite", "0.50.0"))
#: the optional viewer's packages, installed with ``--no-deps`` next to the distribution's
#: VTK (requirements-viewer.txt says the same)
VIEWER_PINS = (("pyvista", "0.44.2"), ("scooby", "0.10.0"), ("pyvistaqt", "0.11.2"))

#: optional extras: (distribution name, module, what works without it)
OPTIONAL = (
    ("matplotlib", "matplotlib", "plots (the plot panel, PNG plots, the animation fallback)"),
    ("pyvista", "pyvista", "the 3-D results viewer and VTK-rendered animations/videos"),
    ("pyvistaqt", "pyvistaqt", "the 3-D results viewer's window"),
    ("distributed", "distributed", "parameter studies on a Dask cluster"),
    ("pandas", "pandas", "parameter-study results as a DataFrame"),
)


class DependencyError(ImportError):
    """The solver cannot run in this Python: a required package is missing, broken, too
    old or does not match another. The message says which and what to do."""


class Finding(namedtuple("Finding", "name severity kind version location problem")):
    """What the check found for one package. ``severity``: "ok", "error" (blocks
    solving), "warning", "info" (an optional extra is missing); ``kind``: "", "missing",
    "broken", "too old", "too new", "mismatch", "shadowed"."""

    def line(self):
        where = " (%s)" % self.location if self.location else ""
        if self.severity == "ok":
            return "%-10s %-9s ok%s" % (self.name, self.version or "", where)
        return "%-10s %-9s %s: %s" % (self.name, self.version or "-", self.kind, self.problem)


class Report(namedtuple("Report", "python executable findings")):
    """The result of ``check``."""

    @property
    def errors(self):
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self):
        """True when the solver can run (no error)."""
        return not self.errors

    def finding(self, name):
        for f in self.findings:
            if f.name == name:
                return f
        return None

    def reason(self):
        """One line saying why the solver cannot run ("" when it can)."""
        return "; ".join("%s %s" % (f.name, f.kind if f.kind != "too old" else
                                    "%s is too old" % f.version)
                         if f.kind != "missing" else "%s is missing" % f.name
                         for f in self.errors)

    def to_dict(self):
        return dict(python=self.python, executable=self.executable, ok=self.ok,
                    findings=[f._asdict() for f in self.findings])


def distribution_info(name, path):
    """``(version, requires lines, metadata directory)`` of distribution ``name`` installed
    in the directory ``path`` (dist-info or egg-info), or ``(None, [], None)``."""
    want = name.lower().replace("-", "_")
    try:
        entries = sorted(os.listdir(path))
    except OSError:
        return None, [], None
    for entry in entries:
        base, ext = os.path.splitext(entry)
        if ext not in (".dist-info", ".egg-info"):
            continue
        dist = base.split("-", 1)[0].lower().replace("-", "_")
        if dist != want:
            continue
        meta = os.path.join(path, entry)
        version = base.split("-", 2)[1] if "-" in base else None
        requires = []
        md = os.path.join(meta, "METADATA") if ext == ".dist-info" else os.path.join(
            meta, "PKG-INFO")
        if os.path.isfile(meta):          # a bare egg-info file (distribution packages)
            md = meta
        try:
            with open(md, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    if line.startswith("Version:") and not version:
                        version = line.split(":", 1)[1].strip()
                    elif line.startswith("Requires-Dist:"):
                        requires.append(line.split(":", 1)[1].strip())
                    elif line in ("\n", "\r\n"):       # end of the headers (a folded
                        break                           # field's lines start with blanks)
        except OSError:
            pass
        req_txt = os.path.join(meta, "requires.txt")
        if not requires and os.path.isfile(req_txt):
            with open(req_txt, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    if line.startswith("["):
                        break
                    if line.strip():
                        requires.append(line.strip())
        return version, requires, meta
    return None, [], None


def _package_dir(module_name):
    """The directory holding top-level package ``module_name`` (without importing it)."""
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return os.path.dirname(list(spec.submodule_search_locations)[0])
    return os.path.dirname(spec.origin) if spec.origin else None


def _try_import(modules):
    """``(first module object, None)`` or ``(None, (exception, module name))``."""
    first = None
    for name in modules:
        try:
            mod = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            return None, (exc, name)
        if first is None:
            first = mod
    return first, None


def _finding(req, loaded):
    """The finding for one required package; ``loaded``: versions found so far."""
    mod, failure = _try_import(req.modules)
    where = _package_dir(req.name)
    dist_version, requires, _meta = distribution_info(req.name, where) if where else (None, [],
                                                                                     None)
    if failure is not None:
        exc, name = failure
        if isinstance(exc, ModuleNotFoundError) and exc.name == req.name:
            return Finding(req.name, "error", "missing", None, None,
                           "not installed for this Python (needed for %s)" % req.purpose)
        mism = _mismatch(req.name, dist_version, requires, loaded)
        text = "importing %s fails: %s: %s" % (name, type(exc).__name__, exc)
        if mism:
            text = "%s (%s)" % (mism, text)
        return Finding(req.name, "error", "mismatch" if mism else "broken", dist_version, where,
                       text)
    version = str(getattr(mod, "__version__", None) or dist_version or "")
    loaded[req.name] = version
    if req.minimum and not versions.satisfies(version, ">=" + req.minimum):
        return Finding(req.name, "error", "too old", version, where,
                       "%s %s is older than %s, the oldest version SimPhant is tested with"
                       % (req.name, version, req.minimum))
    mism = _mismatch(req.name, version, requires, loaded)
    if mism:
        return Finding(req.name, "error", "mismatch", version, where, mism)
    if req.below and not versions.satisfies(version, "<" + req.below):
        return Finding(req.name, "warning", "too new", version, where,
                       "newer than the versions SimPhant is tested with (%s); it may work"
                       % versions.spec_text(req.minimum, req.below))
    return Finding(req.name, "ok", "", version, where, "")


def _mismatch(name, version, requires, loaded):
    """Text when ``name``'s declared requirement on a package already loaded (numpy,
    llvmlite) is not met by the version this Python loads, else ""."""
    for other in ("numpy", "llvmlite"):
        if other == name or other not in loaded:
            continue
        spec = versions.requirement_spec(requires, other)
        if spec and not versions.satisfies(loaded[other], spec):
            return ("%s %s needs %s %s, but this Python loads %s %s%s"
                    % (name, version or "", other, spec, other, loaded[other],
                       " (from %s)" % _package_dir(other) if _package_dir(other) else ""))
    return ""


def _shadowed(name, loaded_dir):
    """Copies of distribution ``name`` later on ``sys.path`` than the one imported."""
    out = []
    for entry in sys.path:
        if not entry or os.path.normpath(entry) == os.path.normpath(loaded_dir or ""):
            continue
        version, _req, meta = distribution_info(name, entry)
        if meta is not None and os.path.isdir(os.path.join(entry, name)):
            out.append((version, entry))
    return out


def check(optional=True):
    """Check this Python; returns a ``Report``."""
    findings = []
    if sys.version_info[:2] < PYTHON_MIN:
        findings.append(Finding("python", "error", "too old", "%d.%d" % sys.version_info[:2],
                                sys.executable, "numba needs Python %d.%d or newer"
                                % PYTHON_MIN))
    loaded = {}
    # llvmlite before numba, so that numba's requirement on it can be compared
    order = [r for r in REQUIREMENTS if r.name != "numba"] + [
        r for r in REQUIREMENTS if r.name == "numba"]
    by_name = {}
    for req in order:
        by_name[req.name] = _finding(req, loaded)
    findings += [by_name[r.name] for r in REQUIREMENTS]
    numpy = by_name["numpy"]
    if numpy.severity != "error":
        for version, entry in _shadowed("numpy", numpy.location):
            findings.append(Finding("numpy", "info", "shadowed", version, entry,
                                    "numpy %s in %s is not used: this Python loads numpy %s "
                                    "from %s first" % (version, entry, numpy.version,
                                                       numpy.location)))
    if optional:
        for dist, module, what in OPTIONAL:
            try:
                found = importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                findings.append(Finding(dist, "info", "missing", None, None,
                                        "optional, not installed: without it, no %s" % what))
    return Report("%d.%d.%d" % sys.version_info[:3], sys.executable, findings)


_cached = []


def require_solver(advice=None):
    """Raise ``DependencyError`` when the solver cannot run in this Python (checked once
    per process). ``advice(report)``: text appended to the message (the commands to run)."""
    if not _cached:
        _cached.append(check(optional=False))
    report = _cached[0]
    if report.ok:
        return report
    text = "SimPhant cannot solve in this Python: %s." % "; ".join(
        f.problem for f in report.errors)
    if advice is not None:
        text += "\n" + advice(report)
    raise DependencyError(text)
