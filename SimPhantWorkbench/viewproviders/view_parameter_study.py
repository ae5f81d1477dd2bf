"""View provider of a ParameterStudy: tree icon; double-click opens its panel
(variables, metrics, run, results table and plot)."""
from .view_base import VPBase

__all__ = ["VPParameterStudy"]


class VPParameterStudy(VPBase):
    def task_panel(self, obj):
        from ..taskpanels.task_parameter_study import TaskParameterStudy
        return TaskParameterStudy(obj)

    def setupContextMenu(self, vobj, menu):
        super().setupContextMenu(vobj, menu)
        obj = vobj.Object
        if obj.BestVariant < 0:
            return
        from PySide import QtGui
        import FreeCADGui
        from ..gui.common import icon_path, message, obj_expr
        from ..gui.translation import translate

        def apply_best():
            try:
                FreeCADGui.doCommand("from SimPhantWorkbench import sweep")
                FreeCADGui.doCommand("sweep.apply_best(%s)" % obj_expr(obj))
            except Exception as exc:  # noqa: BLE001 - shown; apply_variant aborted
                message("error", translate("SimPhant", "SimPhant: apply best"), str(exc))

        action = QtGui.QAction(QtGui.QIcon(icon_path("ParameterStudy.svg")),
                               translate("SimPhant", "Apply best variant (%d)") % obj.BestVariant,
                               menu)
        action.triggered.connect(apply_best)
        menu.addAction(action)
        self._best_action = (action, apply_best)
