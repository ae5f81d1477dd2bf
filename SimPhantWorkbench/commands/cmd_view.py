"""Picking aids in the 3-D view (``gui.picking_aids``): markers selectable or not, markers
shown or not (both toggles kept in the preferences), hide the parts other than the
selected ones, show them again. They change what is shown only: no undo step."""
import FreeCAD

from ..gui import picking_aids
from ..gui.common import Command, message, selected_elements
from ..gui.translation import QT_TRANSLATE_NOOP

__all__ = ["COMMANDS"]


class _Toggle(Command):
    """A checkable command bound to a preference of ``picking_aids``."""

    get = set = None

    def GetResources(self):
        res = super().GetResources()
        res["Checkable"] = bool(type(self).get())
        return res

    def active(self):
        return True

    def Activated(self, checked=None):
        on = (not type(self).get()) if checked is None else bool(checked)
        type(self).set(on)


class MarkersSelectable(_Toggle):
    name = "SimPhant_MarkersSelectable"
    icon = "MarkersSelectable.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_MarkersSelectable", "Markers selectable")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_MarkersSelectable", "When on, clicks on joint "
                                "triads, centres of gravity and load arrows select their "
                                "object; when off (the default) clicks go through them to "
                                "the faces behind")
    get = staticmethod(picking_aids.markers_selectable)
    set = staticmethod(picking_aids.set_markers_selectable)


class ShowMarkers(_Toggle):
    name = "SimPhant_ShowMarkers"
    icon = "ShowMarkers.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ShowMarkers", "Show markers")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ShowMarkers", "Show or hide all joint triads, "
                                "centres of gravity and load arrows (one object's: select it "
                                "and press Space)")
    get = staticmethod(picking_aids.markers_shown)
    set = staticmethod(picking_aids.set_markers_shown)


class HideOthers(Command):
    name = "SimPhant_HideOthers"
    icon = "HideOthers.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_HideOthers", "Hide other parts")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_HideOthers", "Hide every part but the selected "
                                "ones (in the 3-D view or the tree, also while a panel is "
                                "open); Show hidden parts shows them again")

    def active(self):
        return bool(selected_elements())

    def run(self):
        doc = FreeCAD.ActiveDocument
        try:
            picking_aids.hide_others(doc, selected_elements())
        except Exception as exc:  # noqa: BLE001 - shown to the user
            message("error", self.title(), str(exc))


class ShowHidden(Command):
    name = "SimPhant_ShowHidden"
    icon = "ShowHidden.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ShowHidden", "Show hidden parts")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ShowHidden", "Show again the parts Hide other "
                                "parts hid")

    def active(self):
        doc = FreeCAD.ActiveDocument
        return doc is not None and bool(picking_aids.hidden_by_us(doc))

    def run(self):
        picking_aids.show_hidden(FreeCAD.ActiveDocument)


COMMANDS = [MarkersSelectable(), ShowMarkers(), HideOthers(), ShowHidden()]

