"""The results viewer: the bodies of a study moving through a Result, rendered by VTK.

``scene``   what is drawn (tessellated bodies with their colours, joint frames),
            saved beside a result as ``scene.npz`` so that ``simphant view DIR``
            needs no FreeCAD; pure NumPy.
``render``  PyVista/VTK: the scene's actors posed at a sample, off-screen frames
            (``render_frames``), a real depth buffer and lighting.
``video``   frames to MP4 (system ``ffmpeg`` or ``imageio-ffmpeg``) or GIF (Pillow).
``window``  the interactive window (pyvistaqt): time slider, play/pause, speed,
            joint triads, CoG trails, a body picker.

PyVista and VTK are optional: ``available()`` tells whether they import, and
``INSTALL_HINT`` how to get them. Nothing is imported from them here.
"""
import importlib
import os
import sys

__all__ = ["available", "missing_reason", "prepare_qt_api", "INSTALL_HINT"]

INSTALL_HINT = ("The 3-D results viewer needs PyVista and VTK: run 'make setup' in the "
                "SimPhant folder (Debian: apt install python3-vtk9 python3-qtpy, then pip "
                "install --no-deps -r requirements-viewer.txt into FreeCAD's "
                "AdditionalPythonPackages; never pip's vtk). SimPhant > Check dependencies "
                "and 'simphant doctor' give the exact commands.")

_CHECKED = {}


def missing_reason(interactive=False):
    """``None`` when the viewer can be used, else why not (the failed import).

    ``interactive`` also asks for pyvistaqt (the window); off-screen rendering
    needs only pyvista and VTK.
    """
    if interactive:
        prepare_qt_api()
    mods = ("vtkmodules.vtkRenderingCore", "pyvista") + (("pyvistaqt",) if interactive else ())
    for mod in mods:
        if mod not in _CHECKED:
            try:
                importlib.import_module(mod)
                _CHECKED[mod] = None
            except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
                _CHECKED[mod] = "%s: %s" % (type(exc).__name__, exc)
        if _CHECKED[mod] is not None:
            return "cannot import %s (%s)" % (mod, _CHECKED[mod])
    return None


def available(interactive=False):
    """True when PyVista and VTK (and pyvistaqt if ``interactive``) import."""
    return missing_reason(interactive) is None


def prepare_qt_api():
    """Make qtpy (used by pyvistaqt) take the Qt binding already loaded (FreeCAD's
    PySide2 or PySide6), never a second one: two bindings in one process crash."""
    if "QT_API" in os.environ:
        return
    for mod, api in (("PySide6", "pyside6"), ("PySide2", "pyside2"), ("PyQt5", "pyqt5"),
                     ("PyQt6", "pyqt6")):
        if mod in sys.modules:
            os.environ["QT_API"] = api
            return
    for mod, api in (("PySide2", "pyside2"), ("PySide6", "pyside6")):
        try:
            importlib.import_module(mod)
        except ImportError:
            continue
        os.environ["QT_API"] = api
        return


def _forget():
    """Forget what ``missing_reason`` found (tests hide and restore modules)."""
    _CHECKED.clear()
