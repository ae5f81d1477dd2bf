"""Python start-up hook of ``tools/run_python.sh``: when a script imports ``FreeCAD``,
FreeCAD's module start-up runs as in ``freecadcmd`` (``SimPhantWorkbench.document.headless.start``),
so documents with objects of every installed workbench and add-on load whole. Nothing
happens for a program that does not import FreeCAD. Debian's own ``sitecustomize`` (which
this file shadows on ``sys.path``) still runs."""
import importlib.abc
import importlib.util
import os
import sys


def _chain_system_sitecustomize():
    here = os.path.dirname(os.path.realpath(__file__))
    for entry in sys.path:
        path = os.path.join(entry or ".", "sitecustomize.py")
        if os.path.realpath(entry or ".") != here and os.path.isfile(path):
            spec = importlib.util.spec_from_file_location("_system_sitecustomize", path)
            try:
                spec.loader.exec_module(importlib.util.module_from_spec(spec))
            except Exception:  # noqa: BLE001 - never break the interpreter's start
                pass
            return


class _StartAfterLoad(importlib.abc.Loader):
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        try:
            from SimPhantWorkbench.document.headless import start
        except ImportError:        # the repository is not on sys.path: nothing to do
            return
        start(module)


class _FreeCADFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "FreeCAD":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _StartAfterLoad(spec.loader)
        return spec


_chain_system_sitecustomize()
if os.environ.get("SIMPHANT_NO_FREECAD_STARTUP") != "1":
    sys.meta_path.insert(0, _FreeCADFinder())
