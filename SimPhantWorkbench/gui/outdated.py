"""Outdated results in the workbench: the document is watched and every study's stored
result is compared with its model again (``freshness.refresh``) once the edits stop.

A document observer collects the changed objects and properties; a single-shot
timer, restarted by every change, runs the comparison ``DELAY_MS`` after the
last one (a playback frame or a dragged value is not compared per change). The
Result's ``Outdated`` and ``OutdatedReason`` change only when the status does;
its view provider then shows the outdated icon, and the plot and playback panels
their note. Labels and visibility are no part of the model and are not watched.
"""
import FreeCAD

from .common import DocumentObserver
from ..document.base import is_type, studies, study_result

__all__ = ["Watcher", "DELAY_MS", "check_now", "outdated_note", "note_label", "listeners",
           "notify", "outdated_reason", "confirm_use", "ANYWAY", "SOLVE", "CANCEL",
           "PreselectionNote"]

DELAY_MS = 400
#: properties that never change what is simulated
_IGNORED = ("Label", "Label2", "Visibility", "Outdated", "OutdatedReason")
#: callables told when a Result's status changed: fn(study)
listeners = []


#: the answers of ``confirm_use``'s question
ANYWAY, SOLVE, CANCEL = "anyway", "solve", "cancel"
#: replaceable by tests: ``ask_hook(study, action, reason)`` returns an answer
ask_hook = None


def outdated_reason(study):
    """Why the stored result of ``study`` is outdated, or "" when it is up to date (or
    there is none): the status stored in its Result."""
    from ..freshness import stored_status
    res_obj = study_result(study) if study is not None else None
    if res_obj is None:
        return ""
    status = stored_status(res_obj)
    if not status.outdated:
        return ""
    return status.reason or "?"


def outdated_note(study):
    """The note shown with an outdated result of ``study`` (plots, playback, exports), or
    "" when it is up to date (the status stored in its Result)."""
    from .translation import translate
    reason = outdated_reason(study)
    if not reason:
        return ""
    return translate("SimPhant", "Outdated: the model changed after this result was computed "
                     "(%s). Solve again for results of the model as it is.") % reason


def confirm_use(study, action):
    """True when ``action`` (the translated verb, "Play back", "Export") may use the
    result of ``study``: at once when it is up to date; when it is outdated the user
    chooses to go on anyway, to solve again (the Solve starts; False) or to cancel
    (False)."""
    reason = outdated_reason(study)
    if not reason:
        return True
    answer = (ask_hook or _ask)(study, action, reason)
    if answer == SOLVE:
        from .common import run_command_on
        run_command_on("SimPhant_Solve", study)
    return answer == ANYWAY


def _ask(study, action, reason):
    from PySide import QtGui
    import FreeCADGui
    from .translation import translate
    box = QtGui.QMessageBox(FreeCADGui.getMainWindow())
    box.setIcon(QtGui.QMessageBox.Warning)
    box.setWindowTitle(translate("SimPhant", "Outdated result"))
    box.setText(translate("SimPhant", "The result of '%s' is outdated because the model "
                          "changed after it was computed (%s).") % (study.Label, reason))
    anyway = box.addButton(translate("SimPhant", "%s anyway") % action,
                           QtGui.QMessageBox.AcceptRole)
    solve = box.addButton(translate("SimPhant", "Solve again"), QtGui.QMessageBox.ActionRole)
    box.addButton(QtGui.QMessageBox.Cancel)
    box.setDefaultButton(solve)
    box.exec_()
    clicked = box.clickedButton()
    return ANYWAY if clicked is anyway else SOLVE if clicked is solve else CANCEL


class PreselectionNote:
    """Selection observer: while the pointer rests on an outdated Result (tree or 3-D
    view) the status bar says why it is outdated -- FreeCAD 0.20's tree has no tooltip of
    its own per object; this works on every version."""

    _instance = None

    @classmethod
    def install(cls):
        if cls._instance is None:
            import FreeCADGui
            cls._instance = cls()
            FreeCADGui.Selection.addObserver(cls._instance)

    def setPreselection(self, doc, obj_name, sub):
        from ..document.base import find_study
        d = FreeCAD.listDocuments().get(doc)
        obj = d.getObject(obj_name) if d is not None else None
        if not is_type(obj, "SimPhant::Result"):
            return
        text = outdated_note(find_study(obj))
        if text:
            import FreeCADGui
            FreeCADGui.getMainWindow().statusBar().showMessage("SimPhant: " + text, 8000)


def note_label(study):
    """A QLabel showing ``outdated_note(study)`` (hidden while the result is up to date),
    kept current while it lives."""
    from PySide import QtGui
    label = QtGui.QLabel()
    label.setWordWrap(True)
    label.setObjectName("SimPhantOutdatedNote")
    label.setStyleSheet("QLabel { background: #fce94f; color: #16212e; padding: 4px; "
                        "border: 1px solid #c4a000; }")

    def update(changed=None):
        if changed is not None and changed != study:
            return
        text = outdated_note(study)
        label.setText(text)
        label.setVisible(bool(text))

    update()
    listeners.append(update)
    label.destroyed.connect(lambda *_: listeners.remove(update) if update in listeners
                            else None)
    return label


def _relevant(study):
    """Names of the objects the study's model is read from."""
    names = {study.Name}
    for member in study.Group:
        names.add(member.Name)
        names.update(o.Name for o in member.OutListRecursive)
    return names


#: what playback changes on the objects it moves
_POSE = ("Placement", "LinkPlacement", "Shape")


def _computed(doc, name, prop):
    """True for a value SimPhant computes (``output`` properties: mass, frames ...)."""
    obj = doc.getObject(name)
    specs = getattr(getattr(obj, "Proxy", None), "PROPERTIES", ())
    return any(spec.name == prop and spec.output for spec in specs)


def _edited(study, res_obj, changes):
    """True when ``changes`` (``{(object Name, property)}``) hold an edit of the model
    other than playback moving the result's bodies and what follows from it (an object
    created or deleted counts)."""
    moved_by_playback = set(res_obj.ShapeObjects)
    relevant = _relevant(study)
    doc = study.Document
    return any(prop in ("created", "deleted") or
               (name in relevant and not (prop in _POSE and name in moved_by_playback)
                and not _computed(doc, name, prop))
               for name, prop in changes)


def check_now(doc, changes=()):
    """Compare every result of ``doc`` with its model now (``freshness.refresh``);
    ``changes``: the edits seen since the last check. Never raises."""
    from .. import freshness
    for study in studies(doc):
        res_obj = study_result(study)
        if res_obj is None:
            continue
        try:
            freshness.refresh(study, edited=_edited(study, res_obj, changes))
        except Exception as exc:  # noqa: BLE001 - a half-made object: compare next time
            FreeCAD.Console.PrintLog("SimPhant: result of '%s' not compared: %s\n"
                                     % (study.Label, exc))


def notify(res_obj):
    """Tell the notes (``listeners``) that ``res_obj``'s status changed (its view provider
    calls it); never raises."""
    from ..document.base import find_study
    study = find_study(res_obj)
    for fn in list(listeners):
        try:
            fn(study)
        except Exception:  # noqa: BLE001 - a closed panel
            pass


class Watcher(DocumentObserver):
    """App document observer: edits of documents holding results trigger a comparison."""

    def __init__(self):
        self.pending = {}          # document Name -> {(object Name, property)}
        self.timer = None

    def _schedule(self, doc, change=None):
        changes = self.pending.setdefault(doc.Name, set())
        if change is not None:
            changes.add(change)
        if self.timer is None:
            from PySide import QtCore
            self.timer = QtCore.QTimer()
            self.timer.setSingleShot(True)
            self.timer.setInterval(DELAY_MS)
            self.timer.timeout.connect(self._run)
        self.timer.start()

    def _run(self):
        pending, self.pending = self.pending, {}
        for name, changes in pending.items():
            doc = FreeCAD.listDocuments().get(name)
            if doc is not None:
                check_now(doc, changes)

    def slotChangedObject(self, obj, prop):
        if prop in _IGNORED or is_type(obj, "SimPhant::Result"):
            return
        self._schedule(obj.Document, (obj.Name, prop))

    def slotCreatedObject(self, obj):
        self._schedule(obj.Document, (obj.Name, "created"))

    def slotDeletedObject(self, obj):
        if not is_type(obj, "SimPhant::Result"):
            self._schedule(obj.Document, (obj.Name, "deleted"))

    def slotRecomputedDocument(self, doc):
        self._schedule(doc)

    def slotUndoDocument(self, doc):
        self._schedule(doc)

    def slotRedoDocument(self, doc):
        self._schedule(doc)

    def slotDeletedDocument(self, doc):
        self.pending.pop(doc.Name, None)
