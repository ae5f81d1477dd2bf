"""View provider of a Result: double-click opens the timeline playback; an outdated
result (the model changed since the run, ``freshness``) shows the outdated icon."""
import FreeCADGui

from .view_base import VPBase

__all__ = ["VPResult"]


class VPResult(VPBase):
    def attach(self, vobj, display_mode=True):
        super().attach(vobj, display_mode)
        from ..gui.outdated import PreselectionNote, Watcher
        Watcher.install()
        PreselectionNote.install()

    def icon_name(self):
        if getattr(self.Object, "Outdated", False):
            return "ResultOutdated.svg"
        return super().icon_name()

    def updateData(self, obj, prop):
        super().updateData(obj, prop)
        if prop in ("Outdated", "OutdatedReason"):
            from ..gui.outdated import notify
            if prop == "Outdated":
                self.ViewObject.signalChangeIcon()
            notify(obj)

    def setEdit(self, vobj, mode=0):
        """Playback; an outdated result is played back only when the user wants it."""
        from ..document.base import find_study
        from ..gui.outdated import confirm_use
        from ..gui.translation import translate
        if mode == 0 and not confirm_use(find_study(vobj.Object),
                                         translate("SimPhant", "Play back")):
            return False
        return super().setEdit(vobj, mode)

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
