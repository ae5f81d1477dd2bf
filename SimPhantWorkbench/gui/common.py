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
from .translation import translate

__all__ = ["ICON_DIR", "icon_path", "message", "choose", "active_study", "set_active_study",
           "selected_objects", "selected_elements", "selected_shapes", "UNRESOLVED", "Command",
           "add_and_edit", "NewObjects", "claim_new", "close_task",
           "run_in_transaction", "ACTIVE_KEY", "obj_expr", "run_command_on"]

ICON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "resources", "icons")
ACTIVE_KEY = "simphantstudy"

#: FreeCAD's selection resolve mode that keeps a click as it is: the top-level object of
#: the document shown and the path from it (through ``App::Link`` objects into other
#: files); the default (1) gives the innermost object, of the other file
UNRESOLVED = 0

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


def choose(title, text, options, default):
    """Ask the user to pick one of ``options`` (``[(key, button text)]``, the last one
    the Escape button); returns the key. With ``message_hook`` set it is called with kind
    "choice" and its answer used when it is one of the keys, else ``default``."""
    FreeCAD.Console.PrintMessage("SimPhant: %s: %s\n" % (title, text))
    keys = [k for k, _ in options]
    if message_hook is not None:
        answer = message_hook("choice", title, text)
        return answer if answer in keys else default
    from PySide import QtGui
    box = QtGui.QMessageBox(QtGui.QMessageBox.Warning, title, text,
                            QtGui.QMessageBox.NoButton, FreeCADGui.getMainWindow())
    buttons = [box.addButton(label, QtGui.QMessageBox.ActionRole) for _, label in options]
    box.setDefaultButton(buttons[keys.index(default)])
    box.setEscapeButton(buttons[-1])
    box.exec_()
    clicked = box.clickedButton()
    return next((k for k, b in zip(keys, buttons) if b is clicked), keys[-1])


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


def run_command_on(command, study):
    """Run the command ``command`` on ``study``: it is selected and made the active study."""
    set_active_study(study)
    FreeCADGui.Selection.clearSelection()
    FreeCADGui.Selection.addSelection(study)
    FreeCADGui.runCommand(command)


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


def selected_study_joints(kinds, what):
    """``(joints, None)``: the Joints selected in the tree, one per entry of ``kinds``
    (each entry: the joint kinds allowed there), all of the active study; else
    ``(None, the reason)``. ``what`` names the element to be made (translated label)."""
    study = active_study()
    if study is None:
        return None, translate("SimPhant", "There is no active study.")
    joints = [o for o in selected_objects() if is_type(o, "SimPhant::Joint")]
    if len(joints) != len(kinds):
        return None, translate("SimPhant", "Select %s of study '%s' in the tree.") % (
            translate("SimPhant", "one joint") if len(kinds) == 1
            else translate("SimPhant", "%d joints") % len(kinds), study.Label)
    for joint, allowed in zip(joints, kinds):
        if find_study(joint) != study:
            return None, translate("SimPhant", "Joint '%s' is not in the active study "
                                   "'%s'.") % (joint.Label, study.Label)
        if str(joint.JointType) not in allowed:
            return None, translate("SimPhant", "Joint '%s' is %s: a %s needs one of the "
                                   "joint kinds %s there.") % (
                joint.Label, joint.JointType, what, ", ".join(allowed))
    return joints, None


def selected_elements():
    """``[(object, subname)]`` of the selection as a click gives it (``UNRESOLVED``): the
    top-level object and the path to the picked element (``""`` for a whole object)."""
    out = []
    for s in FreeCADGui.Selection.getSelectionEx("", UNRESOLVED):
        subs = [sub for sub in s.SubElementNames if sub] or [""]
        out.extend((s.Object, sub) for sub in subs)
    return out


def selected_shapes(study, fixed=False):
    """``(shapes, refusals)``: the objects the selection designates as new bodies of
    ``study`` (``picking.body_shape_of_pick``: a click on a part linked from another file
    designates its ``App::Link``), and one sentence per selected object that cannot be
    one, saying why. A moving body needs a solid; a fixed one (the ground) may be a
    sketch or datums only."""
    from ..document.picking import body_shape_of_pick
    used = {b.ShapeObject: b for b in study_bodies(study)} if study else {}
    shapes, refusals = [], []
    for obj, sub in selected_elements():
        if is_type(obj, "SimPhant::Body") or find_study(obj) is not None \
                or is_type(obj, STUDY):
            continue
        shape_obj = body_shape_of_pick(obj, sub)
        if shape_obj in shapes:
            continue
        why = _body_refusal(shape_obj, used, fixed)
        if why:
            if why not in refusals:
                refusals.append(why)
        else:
            shapes.append(shape_obj)
    return shapes, refusals


def _body_refusal(shape_obj, used, fixed):
    """Why ``shape_obj`` cannot become a (``fixed``) body, or ``""``."""
    import Part
    if shape_obj in used:
        return translate("SimPhant", "'%s' is already body '%s'") % (shape_obj.Label,
                                                                      used[shape_obj].Label)
    if not hasattr(shape_obj, "Placement"):
        return translate("SimPhant", "'%s' has no placement") % shape_obj.Label
    if fixed:
        return ""
    try:                   # Part features, PartDesign Bodies, App::Part, App::Link
        shape = Part.getShape(shape_obj)
    except Exception:  # noqa: BLE001 - not a shape object
        shape = Part.Shape()
    if shape.isNull() or not shape.Solids:
        return translate("SimPhant", "'%s' has no solid, so no mass: a moving body needs one "
                         "(a sketch or datum part can be a fixed body)") % shape_obj.Label
    return ""


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


class NewObjects:
    """The objects a command just added and whose task panel is open: their undo step
    stays open while the panel is, so that the panel's OK writes its values into it and
    commits it (``keep``: one undo step, the object with its values), and its Cancel
    aborts it (``discard``: the document exactly as before the command, no undo or
    redo step left: what FreeCAD's Assembly does with a joint whose panel is
    cancelled)."""

    def __init__(self, doc, title):
        self.doc = doc
        self.names = []
        self.step = transaction(doc, title).open(persist=True)

    def keep(self):
        self.step.close(keep=True)

    def discard(self):
        self.step.close(keep=False)
        for name in self.names:          # undo off: aborting removed nothing
            if self.doc.getObject(name) is not None:
                self.doc.removeObject(name)


_adding = None       # the NewObjects of add_and_edit while it opens their panel


def claim_new(obj):
    """The ``NewObjects`` ``obj`` is one of when its panel opens right after a command
    added it (``add_and_edit``), else ``None`` (an existing object, e.g. double-clicked).
    Its panel keeps them on OK and discards them on Cancel."""
    if _adding is not None and obj.Document.Name == _adding.doc.Name \
            and obj.Name in _adding.names:
        return _adding
    return None


def close_task(panel, keep=True):
    """Close ``panel``'s task dialog and leave its object's edit mode. The objects a
    command just added (``panel.created``, from ``claim_new``) are kept (``keep``) or
    discarded in between: leaving edit mode commits the transaction that was open when
    it began."""
    FreeCADGui.Control.closeDialog()
    created, panel.created = getattr(panel, "created", None), None
    if created is not None:
        (created.keep if keep else created.discard)()
    gdoc = FreeCADGui.getDocument(panel.doc.Name)
    if gdoc is not None and gdoc.getInEdit() is not None:
        gdoc.resetEdit()


def add_and_edit(doc, title, lines, type_name):
    """Run ``lines`` (adding an object of ``type_name``) and open the new object's task
    panel. The undo step stays open while the panel is (``NewObjects``): OK keeps the
    object with the panel's values in that one step, Cancel takes it back out, as when
    the panel does not open (a second try would add a second object).
    Returns the new object, or ``None`` (the reason shown)."""
    global _adding
    before = {o.Name for o in doc.Objects}
    created = NewObjects(doc, title)
    try:
        for line in lines:
            FreeCADGui.doCommand(line)
        new = [o for o in doc.Objects if o.Name not in before and is_type(o, type_name)]
        created.names = [o.Name for o in doc.Objects if o.Name not in before]
        FreeCADGui.Selection.clearSelection()
        _adding = created
        for obj in new[:1]:
            FreeCADGui.Selection.addSelection(obj)
            FreeCADGui.getDocument(doc.Name).setEdit(obj.Name)
            if not in_edit():
                raise RuntimeError(translate("SimPhant", "the task panel of '%s' did not "
                                             "open (see the Report view); nothing was "
                                             "added") % obj.Label)
        if not new:
            created.keep()
    except Exception as exc:  # noqa: BLE001 - shown to the user, document unchanged
        created.discard()
        message("error", title, str(exc))
        return None
    finally:
        _adding = None
    return new[0] if new else None


class DocumentObserver:
    """Base of the workbench's App document observers: one instance of each class, added
    to FreeCAD's document observers once (``install``)."""

    _instance = None

    @classmethod
    def install(cls):
        if cls.__dict__.get("_instance") is None:
            cls._instance = cls()
            FreeCAD.addDocumentObserver(cls._instance)


def in_edit():
    """True while a task dialog is open (commands that open one are then inactive)."""
    try:
        return FreeCADGui.Control.activeDialog()
    except Exception:  # noqa: BLE001
        return False


class Command:
    """Declarative command: subclasses set ``icon``, ``menu``, ``tooltip`` and implement
    ``active()`` and ``run()``. ``needs_solver``: greyed out, with the reason in the
    tooltip, when a package the solver needs is missing or broken
    (``gui.dependencies``); ``unavailable()`` is the one place of that rule.

    ``menu`` and ``tooltip`` are marked ``QT_TRANSLATE_NOOP(name, text)``: FreeCAD
    translates a Python command's resources itself, with the command's name as context.
    Commands generated from a registry give them translated already."""

    name = ""
    icon = "SimPhant.svg"
    menu = ""
    tooltip = ""
    accel = None
    needs_solver = False

    def unavailable(self):
        """``None``, or the tooltip saying why the command cannot run on this machine (a
        package it needs is missing or broken): the command is then greyed out and shows
        it. Here: ``needs_solver`` commands without a working solver; commands of optional
        features override it."""
        if not self.needs_solver:
            return None
        from .dependencies import unavailable_reason
        reason = unavailable_reason()
        if not reason:
            return None
        # translated here: FreeCAD finds no translation of the joined text
        return translate("SimPhant", "Not available: %s (SimPhant > Check dependencies "
                         "says how to install it).") % reason + " " + translate(
                             self.name, self.tooltip)

    def GetResources(self):
        res = {"Pixmap": icon_path(self.icon), "MenuText": self.menu,
               "ToolTip": self.unavailable() or self.tooltip}
        if self.accel:
            res["Accel"] = self.accel
        return res

    def title(self):
        """The menu text in the user's language (for message and undo titles)."""
        return translate(self.name, self.menu).replace("&", "")

    def IsActive(self):
        try:
            return self.unavailable() is None and bool(self.active())
        except Exception:  # noqa: BLE001 - IsActive must never raise
            return False

    def Activated(self):
        self.run()

    def active(self):
        return FreeCAD.ActiveDocument is not None

    def run(self):
        raise NotImplementedError
