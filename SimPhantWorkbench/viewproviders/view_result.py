"""View provider of a Result: double-click opens the timeline playback."""
import FreeCADGui

from .view_base import VPBase

__all__ = ["VPResult"]


class VPResult(VPBase):
    def task_panel(self, obj):
        from ..document.base import find_study
        from ..taskpanels.task_playback import TaskPlayback
        study = find_study(obj)
        return TaskPlayback(study) if study is not None else None

    def setupContextMenu(self, vobj, menu):
        super().setupContextMenu(vobj, menu)
        from PySide import QtGui
        from ..gui.common import icon_path
        from ..gui.translation import translate
        action = QtGui.QAction(QtGui.QIcon(icon_path("Playback.svg")),
                               translate("SimPhant", "Playback"), menu)
        action.triggered.connect(lambda: vobj.Document.setEdit(vobj.Object.Name))
        menu.addAction(action)
        self._playback_action = action
