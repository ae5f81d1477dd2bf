"""Markers follow the bodies: a document observer sees every ``Placement`` change
(playback, reset, the user moving a part) and every part shown or hidden (Space, Hide
other parts) and refreshes the markers of the SimPhant objects that depend on the moved
or shown object; it also gives view providers to SimPhant
objects of documents restored or made without the GUI (``objects.attach_view_provider``).

A SimPhant view provider (``viewproviders.view_base.VPBase``) is anything with
``refresh()`` (redraw its markers) and ``depends_on()`` (the Names of the objects
whose placement it follows).
"""
import FreeCAD

from .common import DocumentObserver
from ..document.base import proxy_type

__all__ = ["Observer", "flush_markers", "simphant_view_providers", "refresh_markers",
           "attach_missing", "is_view_provider", "generation", "shown_generation", "marker_sizes",
           "forget", "frame_listeners"]


def is_view_provider(vp):
    """True for a SimPhant view provider (it draws markers that follow bodies)."""
    return callable(getattr(vp, "refresh", None)) and callable(getattr(vp, "depends_on", None))


_dependents = {}     # document Name -> {moved object Name: [SimPhant object Names]}
marker_sizes = {}    # (document Name, study Name) -> marker size [mm]
generation = [0]    # bumped whenever SimPhant objects change: view providers' caches expire
shown_generation = [0]  # bumped whenever an object is shown or hidden
_pending = {}        # document Name -> set of moved object Names not yet refreshed
#: callables(document Name) told after the markers of a document whose objects moved
#: were refreshed (drawings that follow the frame shown, not one object)
frame_listeners = []


def forget(doc_name):
    _dependents.pop(doc_name, None)
    for key in [k for k in marker_sizes if k[0] == doc_name]:
        del marker_sizes[key]
    generation[0] += 1


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
            if is_view_provider(vp):
                vp.refresh()
        for listen in list(frame_listeners):
            listen(doc_name)


def simphant_view_providers(doc):
    """``(object, view provider)`` of each SimPhant object of ``doc`` drawn by one."""
    for obj in doc.Objects:
        t = proxy_type(obj)
        if t is None or not str(t).startswith("SimPhant::"):
            continue
        vobj = getattr(obj, "ViewObject", None)
        vp = getattr(vobj, "Proxy", None) if vobj is not None else None
        if is_view_provider(vp):
            yield obj, vp


def _dependents_of(doc):
    deps = _dependents.get(doc.Name)
    if deps is None:
        deps = {}
        for obj, vp in simphant_view_providers(doc):
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
        for _, vp in simphant_view_providers(doc):
            vp.refresh()
        return
    for name in _dependents_of(doc).get(moved, ()):
        obj = doc.getObject(name)
        vp = getattr(getattr(obj, "ViewObject", None), "Proxy", None) if obj else None
        if is_view_provider(vp):
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
            # through a display mode, as FreeCAD's attach does: the object's mode switch
            # then shows and hides the markers with Visibility (Space)
            vp.attach(obj.ViewObject)
            # the modes first (assigning a mode to the empty list never returns)
            obj.ViewObject.DisplayMode = vp.getDisplayModes(obj.ViewObject)
            obj.ViewObject.DisplayMode = vp.getDefaultDisplayMode()
        vp.refresh()


def _flush_quietly():
    try:
        flush_markers()
    except Exception:  # noqa: BLE001 - never disturb the document
        pass


class Observer(DocumentObserver):
    """App document observer: markers follow placement changes; restored documents get VPs."""

    def slotCreatedObject(self, obj):
        forget(obj.Document.Name)

    def slotDeletedObject(self, obj):
        forget(obj.Document.Name)

    def slotDeletedDocument(self, doc):
        forget(doc.Name)

    def slotChangedObject(self, obj, prop):
        if str(proxy_type(obj)).startswith("SimPhant::"):
            if prop not in ("Frame1", "Frame2", "Mass", "Volume", "CoG", "DensityUsed",
                            "DensitySource", "PrincipalMoments", "PrincipalAxes"):
                forget(obj.Document.Name)     # references or membership may have changed
            return
        if prop not in ("Placement", "Visibility"):    # moved, or shown or hidden
            return
        if prop == "Visibility":
            shown_generation[0] += 1
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
