"""The package's rooms stay apart and stacked: every import between two of them goes down
the order below (also imports inside functions), so there is no circle between rooms;
no module imports another module's private (``_name``) names; the application side
(``SimPhantWorkbench/*.py``, the document, object, run and output rooms) never imports
FreeCADGui, Qt or pivy; the README's layout table lists every room and every module of
the scripting facade."""
import ast
import os
import re

import SimPhantWorkbench

PKG = os.path.dirname(SimPhantWorkbench.__file__)
ROOT = os.path.dirname(PKG)
GUI_ONLY = {"FreeCADGui", "PySide", "PySide2", "PySide6", "pivy"}

#: the rooms from the bottom up: a room may import only rooms before it. "" is the package
#: root (the scripting facade: factory, runner, playback, conversion, assembly_import).
APP_ROOMS = ("deps", "solver", "collision", "output", "viewer", "document", "objects", "run",
             "fem", "sweep", "", "cli")
GUI_ROOMS = ("gui", "results_gui", "taskpanels", "viewproviders", "commands")
#: the GUI rooms sit on the application side's facade (not on the command line)
ORDER = {room: i for i, room in enumerate(APP_ROOMS[:-1] + GUI_ROOMS)}
ORDER["cli"] = ORDER[""] + 1
#: rooms that must run without FreeCAD or its GUI
FREECAD_FREE = ("deps", "solver", "collision", "output", "viewer")
APP_SIDE = ("", "deps", "solver", "collision", "output", "document", "objects", "run", "fem",
            "sweep", "cli")


def _modules():
    for folder, _dirs, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                yield path, rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def _room(module):
    parts = module.split(".")
    if len(parts) > 1 and os.path.isdir(os.path.join(PKG, parts[1])):
        return parts[1]
    return ""


def _imports(path, module):
    """(imported module, [names], node) of every import of the package, at any depth."""
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "SimPhantWorkbench":
                continue
            names = [a.name for a in node.names]
            if node.module is None or target == "SimPhantWorkbench":   # from . import x
                for n in names:
                    yield "%s.%s" % (target, n), [], node
            else:
                yield target, names, node
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "SimPhantWorkbench":
                    yield a.name, [], node


def _top_level(path):
    for node in ast.parse(open(path).read(), path).body:
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def test_every_room_is_in_the_order():
    rooms = {d for d in os.listdir(PKG) if os.path.isfile(os.path.join(PKG, d, "__init__.py"))}
    assert rooms == set(ORDER) - {""}, "rooms not in the order: %s; in the order but gone: %s" \
        % (sorted(rooms - set(ORDER)), sorted(set(ORDER) - {""} - rooms))


def test_imports_between_rooms_go_down():
    bad = []
    for path, module in _modules():
        here = _room(module)
        for target, _names, node in _imports(path, module):
            there = _room(target)
            if there != here and ORDER[there] > ORDER[here]:
                bad.append("%s:%d imports %s (room '%s' above '%s')"
                           % (os.path.relpath(path, ROOT), node.lineno, target, there, here))
    assert not bad, "\n".join(bad)


def test_no_private_names_imported_from_other_modules():
    bad = []
    for path, module in _modules():
        for target, names, node in _imports(path, module):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and target != module:
                bad.append("%s:%d takes %s from %s" % (os.path.relpath(path, ROOT), node.lineno,
                                                       ", ".join(private), target))
    assert not bad, "\n".join(bad)


def test_application_side_has_no_gui_imports():
    bad = ["%s imports %s" % (os.path.relpath(path, ROOT), m) for path, module in _modules()
           if _room(module) in APP_SIDE for m in _top_level(path) if m in GUI_ONLY]
    assert not bad, bad


def test_freecad_free_rooms_do_not_import_freecad_at_module_level():
    bad = ["%s imports %s" % (os.path.relpath(path, ROOT), m) for path, module in _modules()
           if _room(module) in FREECAD_FREE for m in _top_level(path)
           if m in GUI_ONLY | {"FreeCAD", "Part"}]
    assert not bad, bad


def test_the_readme_layout_table_names_every_room():
    text = open(os.path.join(ROOT, "README.md")).read()
    rows = set(re.findall(r"^\| `SimPhantWorkbench/([a-z_]+)/`", text, re.M)) - {"resources"}
    assert rows == set(ORDER) - {""}, sorted(rows)


def test_the_readme_layout_table_names_every_module_of_the_facade():
    text = open(os.path.join(ROOT, "README.md")).read()
    row = re.search(r"^\| `SimPhantWorkbench/` \|(.*)$", text, re.M).group(1)
    modules = {f for f in os.listdir(PKG) if f.endswith(".py") and f != "__init__.py"}
    missing = sorted(m for m in modules if "`%s`" % m not in row)
    assert not missing, missing
