"""Base class of the SimPhant view providers.

The view provider classes' module paths and names
(``SimPhantWorkbench.viewproviders.view_joint.VPJoint`` ...) are stored in the
``GuiDocument.xml`` of saved documents: public API, never rename.

Markers follow the bodies (``gui.following``: a document observer refreshes the
markers of the objects that depend on a moved, shown or hidden one).
"""
import FreeCADGui

from ..gui.common import icon_path, run_command_on
from ..gui.following import Observer, generation, marker_sizes, shown_generation
from ..gui.picking_aids import any_part_shown, markers_shown, pick_style_node
from ..gui.translation import translate
from ..document.base import find_study, proxy_type, study_bodies
from ..objects import icon_of

__all__ = ["VPBase", "markers_module"]

_markers = []


def markers_module():
    """The ``markers`` module (pivy), imported on first use and then kept: an ``import``
    statement in a function run for every marker every playback frame goes through
    shiboken's import hook each time."""
    if not _markers:
        from ..gui import markers
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
        self.pick_style = pick_style_node()      # markers let clicks through unless wanted
        self.root.addChild(self.pick_style)
        self.markers = []
        if display_mode:
            vobj.addDisplayMode(self.root, "Default")
        Observer.install()
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
            # hidden with the object, with all the parts it belongs to, or all markers
            if not self.ViewObject.Visibility or not markers_shown() \
                    or not self.parts_shown():
                for m in self.markers:
                    m.show(False)
        except Exception:  # noqa: BLE001 - a half-made object, a deleted body...
            for m in getattr(self, "markers", []):
                m.show(False)

    def update_markers(self):
        """Subclasses: place their markers (``self.markers`` exists after ``attach``)."""

    def depends_on(self):
        """Names of document objects whose placement moves this object's markers (and
        whose visibility shows or hides them)."""
        return set()

    def part_shapes(self):
        """The shape objects of the bodies this object's markers belong to: the markers
        are hidden when none of them is shown (``picking_aids.any_part_shown``)."""
        return []

    def parts_shown(self):
        """``any_part_shown(self.part_shapes())``, kept until a part is shown or hidden or
        SimPhant objects change (a playback frame does not read the parts' visibility)."""
        key = (shown_generation[0], generation[0])
        memo = getattr(self, "_parts_shown", None)
        if memo is None or memo[0] != key:
            memo = self._parts_shown = (key, any_part_shown(self.part_shapes()))
        return memo[1]

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
        if cache is None or cache[0] != generation[0]:
            cache = self._cache = (generation[0], {})
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
        size = marker_sizes.get(key)
        if size is None:
            from ..gui.markers import marker_size
            shapes = [b.ShapeObject for b in study_bodies(study)] if study else []
            size = marker_sizes[key] = marker_size([s for s in shapes if s is not None])
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
        actions = [(translate("SimPhant", "Edit %s") % vobj.Object.Label, self.icon_name(),
                    lambda: vobj.Document.setEdit(vobj.Object.Name))]
        if study is not None:
            actions += [
                (translate("SimPhant", "Solve '%s'") % study.Label, "Solve.svg",
                 lambda: run_command_on("SimPhant_Solve", study)),
                (translate("SimPhant", "Set active study"), "Study.svg",
                 lambda: run_command_on("SimPhant_SetActiveStudy", study)),
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

