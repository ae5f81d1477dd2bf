"""Base class of the SimPhant view providers, and the observer that keeps markers on the bodies.

The view provider classes' module paths and names
(``SimPhantWorkbench.viewproviders.view_joint.VPJoint`` ...) are stored in the
``GuiDocument.xml`` of saved documents: public API, never rename.

Markers follow the bodies: a document observer sees every ``Placement``
change (playback, reset, the user moving a part) and refreshes the markers of
the SimPhant objects that depend on the moved object.
"""
import FreeCAD
import FreeCADGui

from ..gui.common import icon_path
from ..document.base import find_study, proxy_type, study_bodies
from ..objects import icon_of

__all__ = ["VPBase", "refresh_markers", "attach_missing", "markers_module"]

_markers = []


def markers_module():
    """The ``markers`` module (pivy), imported on first use and then kept: an ``import``
    statement in a function run for every marker every playback frame goes through
    shiboken's import hook each time."""
    if not _markers:
        from . import markers
        _markers.append(markers)
    return _markers[0]


class VPBase:
    """View provider of a SimPhant object: tree icon, double-click and context-menu edit."""

    def __init__(self, vobj):
        vobj.Proxy = self
        self.Object = vobj.Object

    # --- Coin
    def attach(self, vobj, display_mode=True):
        from pivy import coin
        self.ViewObject = vobj
        self.Object = vobj.Object
        self.root = coin.SoSeparator()
        self.markers = []
        if display_mode:
            vobj.addDisplayMode(self.root, "Default")
        _Observer.install()
        from PySide import QtCore
        QtCore.QTimer.singleShot(0, self.refresh)     # an object restored or attached late

    def getDisplayModes(self, vobj):
        return ["Default"]

    def getDefaultDisplayMode(self):
        return "Default"

    def setDisplayMode(self, mode):
        return mode

    def updateData(self, obj, prop):
        self.refresh()

    def onChanged(self, vobj, prop):
        if prop == "Visibility":
            self.refresh()

    def refresh(self):
        """Recompute the markers from the document (cheap); never raises."""
        if getattr(self, "root", None) is None:
            return
        try:
            self.update_markers()
            if not self.ViewObject.Visibility:       # hide with the object
                for m in self.markers:
                    m.show(False)
        except Exception:  # noqa: BLE001 - a half-made object, a deleted body...
            for m in getattr(self, "markers", []):
                m.show(False)

    def update_markers(self):
        """Subclasses: place their markers (``self.markers`` exists after ``attach``)."""

    def depends_on(self):
        """Names of document objects whose placement moves this object's markers."""
        return set()

    def set_markers(self, markers):
        """Replace the markers under the view provider's root."""
        for m in getattr(self, "markers", []):
            self.root.removeChild(m.root)
        self.markers = list(markers)
        for m in self.markers:
            self.root.addChild(m.root)

    def cached(self, name, compute):
        """``compute()``, cached until SimPhant objects of any document change."""
        cache = getattr(self, "_cache", None)
        if cache is None or cache[0] != _generation[0]:
            cache = self._cache = (_generation[0], {})
        if name not in cache[1]:
            cache[1][name] = compute()
        return cache[1][name]

    def study(self):
        return self.cached("study", lambda: find_study(self.Object))

    def study_size(self):
        """Marker size of the study (from its bodies' bounding box), cached until the
        study's objects change (not on placement changes: markers keep their size
        during playback)."""
        study = self.study()
        key = (self.Object.Document.Name, study.Name if study else "")
        size = _sizes.get(key)
        if size is None:
            from .markers import marker_size
            shapes = [b.ShapeObject for b in study_bodies(study)] if study else []
            size = _sizes[key] = marker_size([s for s in shapes if s is not None])
        return size

    # --- tree, editing
    def getIcon(self):
        return icon_path(self.icon_name(), fallback="SimPhant.svg")

    def icon_name(self):
        """The tree icon: the object type's (``objects.OBJECT_TYPES``); kinds refine it."""
        return icon_of(proxy_type(self.Object))

    def doubleClicked(self, vobj):
        if FreeCADGui.Control.activeDialog():
            FreeCADGui.Control.showTaskView()
            return True
        vobj.Document.setEdit(vobj.Object.Name)
        return True

    def task_panel(self, obj):
        """The task panel that edits ``obj`` (subclasses)."""
        return None

    def setEdit(self, vobj, mode=0):
        if mode != 0:
            return None
        panel = self.task_panel(vobj.Object)
        if panel is None:
            return False
        FreeCADGui.Control.showDialog(panel)
        return True

    def unsetEdit(self, vobj, mode=0):
        if mode != 0:
            return None
        FreeCADGui.Control.closeDialog()
        return True

    def setupContextMenu(self, vobj, menu):
        from PySide import QtGui
        study = find_study(vobj.Object)
        actions = [("Edit %s" % vobj.Object.Label, self.icon_name(),
                    lambda: vobj.Document.setEdit(vobj.Object.Name))]
        if study is not None:
            actions += [
                ("Solve '%s'" % study.Label, "Solve.svg", lambda: _run("SimPhant_Solve", study)),
                ("Set active study", "Study.svg", lambda: _run("SimPhant_SetActiveStudy", study)),
            ]
        for text, icon, fn in actions:
            action = QtGui.QAction(QtGui.QIcon(icon_path(icon)), text, menu)
            action.triggered.connect(fn)
            menu.addAction(action)
        self._menu_actions = actions        # keep the callbacks alive

    def claimChildren(self):
        return []

    # --- no state to save (0.20: __getstate__; 0.22+: dumps)
    def __getstate__(self):
        return None

    def __setstate__(self, state):
        return None

    def dumps(self):
        return None

    def loads(self, state):
        return None


def _run(command, study):
    FreeCADGui.Selection.clearSelection()
    FreeCADGui.Selection.addSelection(study)
    FreeCADGui.runCommand(command)


# ----------------------------------------------------------------------------- following

_dependents = {}     # document Name -> {moved object Name: [SimPhant object Names]}
_sizes = {}          # (document Name, study Name) -> marker size [mm]
_generation = [0]    # bumped whenever SimPhant objects change: view providers' caches expire
_pending = {}        # document Name -> set of moved object Names not yet refreshed


def _forget(doc_name):
    _dependents.pop(doc_name, None)
    for key in [k for k in _sizes if k[0] == doc_name]:
        del _sizes[key]
    _generation[0] += 1


def flush_markers():
    """Refresh the markers of everything moved since the last call (each once)."""
    pending = dict(_pending)
    _pending.clear()
    for doc_name, moved in pending.items():
        doc = FreeCAD.listDocuments().get(doc_name)
        if doc is None:
            continue
        deps = _dependents_of(doc)
        names = set()
        for m in moved:
            names.update(deps.get(m, ()))
        for name in names:
            obj = doc.getObject(name)
            vp = getattr(getattr(obj, "ViewObject", None), "Proxy", None) if obj else None
            if isinstance(vp, VPBase):
                vp.refresh()


def _simphant_vps(doc):
    for obj in doc.Objects:
        t = proxy_type(obj)
        if t is None or not str(t).startswith("SimPhant::"):
            continue
        vobj = getattr(obj, "ViewObject", None)
        vp = getattr(vobj, "Proxy", None) if vobj is not None else None
        if isinstance(vp, VPBase):
            yield obj, vp


def _dependents_of(doc):
    deps = _dependents.get(doc.Name)
    if deps is None:
        deps = {}
        for obj, vp in _simphant_vps(doc):
            try:
                names = vp.depends_on()
            except Exception:  # noqa: BLE001 - half-made object
                continue
            for n in names:
                deps.setdefault(n, []).append(obj.Name)
        _dependents[doc.Name] = deps
    return deps


def refresh_markers(doc, moved=None):
    """Refresh the markers of ``doc``'s SimPhant objects (those depending on ``moved`` only)."""
    if moved is None:
        for _, vp in _simphant_vps(doc):
            vp.refresh()
        return
    for name in _dependents_of(doc).get(moved, ()):
        obj = doc.getObject(name)
        vp = getattr(getattr(obj, "ViewObject", None), "Proxy", None) if obj else None
        if isinstance(vp, VPBase):
            vp.refresh()


def attach_missing(doc):
    """Give SimPhant objects without a view provider one (documents made or saved by
    scripts), from the type registry (``objects.attach_view_provider``)."""
    from ..objects import attach_view_provider
    for obj in doc.Objects:
        vp = attach_view_provider(obj)
        if vp is None:
            continue
        if getattr(vp, "root", None) is None:       # FreeCAD did not call attach
            vp.attach(obj.ViewObject, display_mode=False)
            obj.ViewObject.RootNode.addChild(vp.root)
        vp.refresh()


def _flush_quietly():
    try:
        flush_markers()
    except Exception:  # noqa: BLE001 - never disturb the document
        pass


class _Observer:
    """App document observer: markers follow placement changes; restored documents get VPs."""

    _instance = None

    @classmethod
    def install(cls):
        if cls._instance is None:
            cls._instance = cls()
            FreeCAD.addDocumentObserver(cls._instance)

    def slotCreatedObject(self, obj):
        _forget(obj.Document.Name)

    def slotDeletedObject(self, obj):
        _forget(obj.Document.Name)

    def slotDeletedDocument(self, doc):
        _forget(doc.Name)

    def slotChangedObject(self, obj, prop):
        if str(proxy_type(obj)).startswith("SimPhant::"):
            if prop not in ("Frame1", "Frame2", "Mass", "Volume", "CoG", "DensityUsed",
                            "DensitySource", "PrincipalMoments", "PrincipalAxes"):
                _forget(obj.Document.Name)     # references or membership may have changed
            return
        if prop != "Placement":
            return
        # coalesced: a frame moving 50 bodies refreshes each marker once
        doc_name = obj.Document.Name
        first = not _pending
        _pending.setdefault(doc_name, set()).add(obj.Name)
        if first:
            from PySide import QtCore
            QtCore.QTimer.singleShot(0, _flush_quietly)

    def slotFinishRestoreDocument(self, doc):
        self._attach_later(doc)

    def slotActivateDocument(self, doc):
        self._attach_later(doc)

    @staticmethod
    def _attach_later(doc):
        from PySide import QtCore

        def later(name=doc.Name):
            d = FreeCAD.listDocuments().get(name)
            if d is not None:
                try:
                    attach_missing(d)
                except Exception:  # noqa: BLE001 - never disturb opening a document
                    pass
        QtCore.QTimer.singleShot(0, later)
