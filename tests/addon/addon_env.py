"""A fresh FreeCAD profile with SimPhant installed the Addon Manager's way, and FreeCAD's
GUI run in it (``make test-addon``; ``bench/bench_first_solve.py`` times the same).

``fresh_install(tmp, allow)``: a new HOME; the repository's files (what a clone has:
tracked and not ignored, no compiled kernels) copied into ``<user data>/Mod/SimPhant``;
then ``am_install.py`` inside freecadcmd installs the missing Python dependencies as
FreeCAD's Addon Manager does (pip with its own resolution into the Addon Manager's
folder). pip's download cache is kept across runs (``SIMPHANT_PIP_CACHE``, default
``/var/cache/simphant/pip``): it changes what is downloaded, not what is resolved.
"""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "tests", "gui"))
from freecad_gui import run_gui_script  # noqa: E402

PIP_CACHE = os.environ.get("SIMPHANT_PIP_CACHE", "/var/cache/simphant/pip")

#: a test-only add-on making FreeCAD's Python behave as on a distribution without its
#: scipy package (FreeCAD's Debian package does not depend on python3-scipy)
HIDE_SCIPY = '''
import importlib.machinery
import sys


class _NoDistributionScipy:
    def find_spec(self, name, path=None, target=None):
        if name != "scipy":
            return None
        paths = [p for p in sys.path if not p.startswith("/usr/lib/python3/dist-packages")]
        spec = importlib.machinery.PathFinder.find_spec(name, paths)
        if spec is None:
            raise ModuleNotFoundError("No module named 'scipy'", name="scipy")
        return spec


sys.meta_path.insert(0, _NoDistributionScipy())
'''


def user_data(home):
    return os.path.join(str(home), ".local", "share", "FreeCAD")


#: what a clone does not have, where git cannot say (a copy of the tree without git, as in
#: the FreeCAD 1.x chroot): .gitignore's entries
_NOT_IN_A_CLONE_DIRS = {".git", "__pycache__", ".pytest_cache", ".mutants-restore"}
_NOT_IN_A_CLONE_TOP = {"out", os.path.join("bench", ".deps")}
_NOT_IN_A_CLONE_FILES = (".pyc", ".nbi", ".nbc", ".FCBak", ".simphant-env")


def clone_files():
    """The repository's files a clone has (tracked, and new files not ignored)."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard",
                              "-z"], capture_output=True, check=True).stdout.decode()
        return [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for folder, dirs, names in os.walk(ROOT):
        rel = os.path.relpath(folder, ROOT)
        dirs[:] = [d for d in dirs if d not in _NOT_IN_A_CLONE_DIRS and os.path.normpath(
            os.path.join(rel, d)) not in _NOT_IN_A_CLONE_TOP]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names
                  if n != ".git" and not n.endswith(_NOT_IN_A_CLONE_FILES)]
    return files


def fresh_install(tmp, allow="online", hide_scipy=False):
    """A new HOME with SimPhant installed the Addon Manager's way; ``(home, log)``."""
    home = os.path.join(str(tmp), "home")
    mod = os.path.join(user_data(home), "Mod")
    dest = os.path.join(mod, "SimPhant")
    for f in clone_files():
        os.makedirs(os.path.dirname(os.path.join(dest, f)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), os.path.join(dest, f))
    if hide_scipy:
        os.makedirs(os.path.join(mod, "HideDistributionScipy"))
        with open(os.path.join(mod, "HideDistributionScipy", "Init.py"), "w") as fh:
            # FreeCAD runs Init.py with separate globals and locals, which a class body
            # does not see: the code runs in one namespace of its own
            fh.write("exec(%r, {'__name__': 'hide_distribution_scipy'})\n" % HIDE_SCIPY)
    log_path = os.path.join(str(tmp), "am_install.json")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(HOME=home, SIMPHANT_AM_XML=os.path.join(dest, "package.xml"),
               SIMPHANT_AM_ALLOW=allow, SIMPHANT_AM_LOG=log_path, PIP_CACHE_DIR=PIP_CACHE)
    proc = subprocess.run(["freecadcmd", os.path.join(HERE, "am_install.py")], env=env,
                          capture_output=True, text=True, timeout=1800, cwd=str(tmp))
    assert os.path.exists(log_path), proc.stdout[-3000:] + proc.stderr[-3000:]
    with open(log_path) as fh:
        return home, json.load(fh)


def run_in_gui(tmp, home, name, script, timeout=1200):
    """``script`` in FreeCAD's GUI under Xvfb with ``home`` as HOME (``EXAMPLES``: the
    installed add-on's examples folder)."""
    installed = os.path.join(user_data(home), "Mod", "SimPhant")
    examples = os.path.join(installed, "examples")
    run_dir = os.path.join(str(tmp), name)
    os.makedirs(run_dir, exist_ok=True)
    import pathlib
    return run_gui_script(pathlib.Path(run_dir), name, "EXAMPLES = %r\n" % examples + script,
                          env=dict(HOME=str(home)), timeout=timeout, package_root=installed)


def doctor(home):
    """``bin/simphant doctor --json`` of the installed add-on, in that HOME: (exit code, dict)."""
    exe = os.path.join(user_data(home), "Mod", "SimPhant", "bin", "simphant")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["HOME"] = str(home)
    proc = subprocess.run([exe, "doctor", "--json"], env=env, capture_output=True, text=True,
                          timeout=600)
    return proc.returncode, json.loads(proc.stdout) if proc.stdout.strip() else {}
