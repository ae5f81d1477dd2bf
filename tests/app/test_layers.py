"""The layers stay apart: the application layer (``SimPhantWorkbench/*.py``, ``objects/``)
never imports FreeCADGui, Qt or pivy at module level; the GUI packages import cleanly in
FreeCAD's GUI only (tests/gui)."""
import ast
import os

import SimPhantWorkbench

PKG = os.path.dirname(SimPhantWorkbench.__file__)
GUI_ONLY = {"FreeCADGui", "PySide", "PySide2", "PySide6", "pivy"}


def _module_level_imports(path):
    tree = ast.parse(open(path).read(), path)
    for node in tree.body:                     # module level only (not inside functions)
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def test_app_layer_has_no_gui_imports():
    files = [os.path.join(PKG, f) for f in os.listdir(PKG) if f.endswith(".py")]
    files += [os.path.join(PKG, "objects", f) for f in os.listdir(os.path.join(PKG, "objects"))
              if f.endswith(".py")]
    bad = ["%s imports %s" % (os.path.relpath(f, PKG), m) for f in files
           for m in _module_level_imports(f) if m in GUI_ONLY]
    assert not bad, bad
