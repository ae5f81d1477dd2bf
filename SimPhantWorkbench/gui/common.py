"""Shared pieces of the GUI commands: icons, messages, the active study, selection.

The *active study* works like FEM's active analysis: new bodies, joints and
loads go into it, and the tree shows it highlighted (bold). It is kept per
document and also set as the 3D view's active object under ``ACTIVE_KEY``
(the same mechanism PartDesign uses for its active Body), which is what makes
the tree show it in bold.
"""
import os

import FreeCAD
import FreeCADGui

from ..document.base import STUDY, find_study, is_type, studies, study_bodies, transaction

__all__ = ["ICON_DIR", "icon_path", "message", "active_study", "set_active_study",
           "selected_objects", "Command", "run_in_transaction", "ACTIVE_KEY", "obj_expr"]

ICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "resources", "icons")
ACTIVE_KEY = "simphantstudy"

_active = {}      # document Name -> Study object Name


def icon_path(name, fallback="Joint.svg"):
    """Absolute path of an icon in resources/icons (``fallback`` when it does not exist)."""
    path = os.path.join(ICON_DIR, name)
    if not os.path.isfile(path) and fallback:
        path = os.path.join(ICON_DIR, fallback)
    return path


#: Replaceable by tests (they record instead of showing a modal box):
#: ``message_hook(kind, title, text)`` with kind "info", "warning", "error" or
#: "question" (returns True for Yes).
message_hook = None


def message(kind, title, text):
    """Show a message box (and print it to the report view). "question" returns True for Yes."""
    printer = {"error": FreeCAD.Console.PrintError, "warning": FreeCAD.Console.PrintWarning}.get(
        kind, FreeCAD.Console.PrintMessage)
    printer("%s: %s\n" % (title if title.startswith("SimPhant") else "SimPhant: " + title,
                           text))
    if message_hook is not None:
        return message_hook(kind, title, text)
    from PySide import QtGui
    parent = FreeCADGui.getMainWindow()
    if kind == "question":
        answer = QtGui.QMessageBox.question(parent, title, text,
                                            QtGui.QMessageBox.Yes | QtGui.QMessageBox.No,
                                            QtGui.QMessageBox.Yes)
        return answer == QtGui.QMessageBox.Yes
    box = {"error": QtGui.QMessageBox.critical, "warning": QtGui.QMessageBox.warning}.get(
        kind, QtGui.QMessageBox.information)
    box(parent, title, text)
    return None


def obj_expr(obj):
    """Python text that finds ``obj`` again in a replayed macro."""
    return "App.getDocument(%r).getObject(%r)" % (obj.Document.Name, obj.Name)


# ----------------------------------------------------------------------------- active study

def _view(doc):
    try:
        gdoc = FreeCADGui.getDocument(doc.Name)
        view = gdoc.ActiveView if gdoc else None
        return view if view is not None and hasattr(view, "setActiveObject") else None
    except Exception:  # noqa: BLE001 - no 3D view (e.g. a spreadsheet is active)
        return None


def set_active_study(study):
    """Make ``study`` the active study of its document (highlighted in the tree)."""
    doc = study.Document
    _active[doc.Name] = study.Name
    view = _view(doc)
    if view is not None:
        try:
            view.setActiveObject(ACTIVE_KEY, study)
        except Exception:  # noqa: BLE001 - highlighting is cosmetic
            pass


def active_study(doc=None):
    """The active study of ``doc`` (default: the active document), or ``None``.

    When none was set and the document has exactly one study, that one is
    made active.
    """
    doc = doc or FreeCAD.ActiveDocument
    if doc is None:
        return None
    name = _active.get(doc.Name)
    obj = doc.getObject(name) if name else None
    if is_type(obj, STUDY):
        return obj
    found = studies(doc)
    if len(found) == 1:
        set_active_study(found[0])
        return found[0]
    return None


# ----------------------------------------------------------------------------- selection

def selected_objects():
    """The selected document objects (top-level selection objects, in order)."""
    return [s.Object for s in FreeCADGui.Selection.getSelectionEx()]


def selection_study():
    """The study of the selected object (a study or one of its members), else the active one."""
    for obj in selected_objects():
        st = find_study(obj)
        if st is not None:
            return st
    return active_study()


def selected_shapes(study):
    """Selected objects that can become bodies of ``study`` (have a shape, not yet bodies)."""
    used = {b.ShapeObject for b in study_bodies(study)} if study else set()
    out = []
    for obj in selected_objects():
        if is_type(obj, "SimPhant::Body") or obj.TypeId.startswith("App::DocumentObjectGroup"):
            continue
        if obj in used:
            continue
        try:                   # Part features, PartDesign Bodies, App::Part, App::Link
            import Part
            shape = Part.getShape(obj)
        except Exception:  # noqa: BLE001 - not a shape object
            continue
        if shape.isNull() or not shape.Solids:
            continue
        out.append(obj)
    return out


# ----------------------------------------------------------------------------- commands

def run_in_transaction(doc, title, lines):
    """Run ``lines`` through ``FreeCADGui.doCommand`` (console/macro) in one undo step.

    On error the transaction is aborted (nothing of it stays) and the error
    shown; returns True on success.
    """
    try:
        with transaction(doc, title):
            for line in lines:
                FreeCADGui.doCommand(line)
    except Exception as exc:  # noqa: BLE001 - shown to the user, document unchanged
        message("error", title, str(exc))
        return False
    return True


def add_and_edit(doc, title, lines, type_name):
    """Run ``lines`` (``run_in_transaction``) that add an object of ``type_name`` to
    ``doc``; then select the new object and open its task panel. Returns True on success."""
    from ..document.base import is_type
    before = {o.Name for o in doc.Objects}
    if not run_in_transaction(doc, title, lines):
        return False
    FreeCADGui.Selection.clearSelection()
    for o in doc.Objects:
        if o.Name not in before and is_type(o, type_name):
            FreeCADGui.Selection.addSelection(o)
            FreeCADGui.getDocument(doc.Name).setEdit(o.Name)   # its task panel
    return True


def in_edit():
    """True while a task dialog is open (commands that open one are then inactive)."""
    try:
        return FreeCADGui.Control.activeDialog()
    except Exception:  # noqa: BLE001
        return False


class Command:
    """Declarative command: subclasses set ``icon``, ``menu``, ``tooltip`` and implement
    ``active()`` and ``run()``."""

    name = ""
    icon = "SimPhant.svg"
    menu = ""
    tooltip = ""
    accel = None

    def GetResources(self):
        res = {"Pixmap": icon_path(self.icon), "MenuText": self.menu, "ToolTip": self.tooltip}
        if self.accel:
            res["Accel"] = self.accel
        return res

    def IsActive(self):
        try:
            return bool(self.active())
        except Exception:  # noqa: BLE001 - IsActive must never raise
            return False

    def Activated(self):
        self.run()

    def active(self):
        return FreeCAD.ActiveDocument is not None

    def run(self):
        raise NotImplementedError
