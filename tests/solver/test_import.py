"""The solver package is pure: it imports and runs without FreeCAD, Qt or pivy."""
import ast
import os
import subprocess
import sys

import SimPhantWorkbench.solver as solver_pkg

SOLVER_DIR = os.path.dirname(solver_pkg.__file__)
ALLOWED_TOP = {"numpy", "scipy", "numba", "math", "cmath", "numbers", "collections", "time",
               "functools", "itertools", "operator", "typing", "warnings", "os", "sys", "enum",
               "dataclasses", "json", "copy", "re", "textwrap", "__future__", "ast", "hashlib",
               "socket", "threading", "zipfile", "contextlib", "ctypes", "shutil",
               "fractions", "types"}


def _imports(path):
    tree = ast.parse(open(path).read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0], node.lineno


def test_solver_sources_import_only_stdlib_numpy_scipy_numba():
    bad = []
    for fn in sorted(os.listdir(SOLVER_DIR)):
        if fn.endswith(".py"):
            for mod, line in _imports(os.path.join(SOLVER_DIR, fn)):
                if mod not in ALLOWED_TOP:
                    bad.append("%s:%d imports %s" % (fn, line, mod))
    assert not bad, bad


def test_solver_runs_with_freecad_absent(tmp_path):
    """A fresh interpreter in which FreeCAD cannot be imported builds and runs a model."""
    repo = os.path.dirname(os.path.dirname(SOLVER_DIR))
    script = tmp_path / "run.py"
    script.write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('FreeCAD', 'FreeCADGui', 'Part', 'PySide', 'PySide2',\n"
        "                                  'PySide6', 'pivy'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from SimPhantWorkbench.solver import Model\n"
        "m = Model()\n"
        "b = m.add_body('b', mass=1.0, inertia=(1, 1, 1), position=(1, 0, 0))\n"
        "m.add_joint('revolute', m.ground, b, point=(0, 0, 0), axis=(0, 1, 0))\n"
        "r = m.simulate(t_end=0.1, dt=1e-3)\n"
        "mods = [k for k in sys.modules if k.split('.')[0] in ('FreeCAD', 'PySide2', 'pivy')]\n"
        "assert not mods, mods\n"
        "print('OK', r.position('b')[-1][2])\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [repo] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if "freecad" not in p.lower()
                  or "AdditionalPythonPackages" in p])
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("OK")
    assert float(out.stdout.split()[1]) < 0.0  # it fell under gravity


def _solver_edges():
    """{module: modules of the solver it imports (also inside functions)}."""
    mods = {fn[:-3] for fn in os.listdir(SOLVER_DIR) if fn.endswith(".py")}
    edges = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse(open(os.path.join(SOLVER_DIR, m + ".py")).read())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module.split(".")[0]] if node.module else \
                    [a.name for a in node.names]
                edges[m].update(n for n in names if n in mods and n != m)
    return edges


def test_solver_modules_import_each_other_without_circles():
    """The modules inside the solver form no circle of imports, also through imports inside
    functions: each can be read, tested and moved with what it stands on."""
    edges = _solver_edges()
    state = {}

    def visit(m, path):
        state[m] = 1
        for n in sorted(edges[m]):
            if state.get(n) == 1:
                raise AssertionError("import circle: %s" % " -> ".join(path[path.index(n):]
                                                                       + [n]))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
