"""GUI commands for results: plot panel, 3-D viewer, interference check, exports (CSV, PNG
plots, GIF/MP4).

``COMMANDS`` maps each command name to its instance; ``register()`` adds them to
FreeCADGui and returns the names in toolbar order. Each command acts on the
current study (``current_study``: the study of the selected object, else the
only study of the active document that has a result) and calls one plain
function (``results_gui.plot_panel.open_plot_panel``, ``results_gui.viewer.open_viewer``,
``results_gui.interference.check_interference``, ``results_gui.export.*``), which
scripts can call as well.

The viewer is optional: without PyVista its command is greyed out and its
tooltip says how to install it (``viewer.INSTALL_HINT``); so is the interference check's
without python-fcl (``collision.INSTALL_HINT``).
"""
import FreeCAD

from ..document.base import find_study, has_result, studies, study_result
from ..gui.common import Command, message
from ..gui.translation import QT_TRANSLATE_NOOP, translate

__all__ = ["COMMANDS", "register", "current_study", "ResultCommand"]


def current_study(doc=None):
    """The study to act on: that of the selected object, else the active study (as the
    model commands use it), else the only study (with a result if several) of the active
    document; ``None`` if there is none."""
    doc = doc or FreeCAD.ActiveDocument
    if doc is None:
        return None
    if FreeCAD.GuiUp:
        import FreeCADGui
        for obj in FreeCADGui.Selection.getSelection(doc.Name):
            for cand in [obj] + list(obj.InList):     # a study member, or a body's shape
                s = find_study(cand)
                if s is not None:
                    return s
        from ..gui.common import active_study
        active = active_study(doc)
        if active is not None:
            return active
    found = studies(doc)
    with_result = [s for s in found if study_result(s) is not None]
    if len(with_result) >= 1:
        return with_result[0]
    return found[0] if len(found) == 1 else None


class ResultCommand(Command):
    """A command on the current study's result: active when there is one; a failure is
    shown to the user, naming the study."""

    def active(self):
        return has_result(current_study())

    #: the verb of a command that writes the result out (asked about an outdated one)
    uses_result = None

    def run(self):
        study = current_study()
        from ..gui.outdated import confirm_use
        if self.uses_result and not confirm_use(study, translate("SimPhant", self.uses_result)):
            return
        try:
            self.run_on(study)
        except Exception as exc:  # noqa: BLE001 - shown to the user, named
            message("error", "SimPhant", translate("SimPhant", "%s (study '%s'):\n%s")
                    % (self.title(), getattr(study, "Label", "?"), exc))

    def run_on(self, study):
        raise NotImplementedError


def _missing_package(reason, hint):
    """The tooltip of a command whose optional package is missing (``reason``), or None."""
    if reason is None:
        return None
    return translate("SimPhant", "Not available: %s. %s") % (reason, hint)


class PlotResults(ResultCommand):
    name = "SimPhant_PlotResults"
    icon = "PlotResults.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_PlotResults", "Plot results")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_PlotResults", "Plot a quantity of the selected bodies "
                                "/ joints against time (position, velocity, reactions, energy, "
                                "...), in the units of your preferences")

    def run_on(self, study):
        from ..results_gui.plot_panel import open_plot_panel
        return open_plot_panel(study)


class ResultsViewer(ResultCommand):
    name = "SimPhant_ResultsViewer"
    icon = "ResultsViewer.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ResultsViewer", "3-D results viewer")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ResultsViewer", "Open the result in a separate 3-D "
                                "viewer (PyVista): orbit, scrub the time, play at any speed, "
                                "joint frames, CoG trails, body picker")

    def unavailable(self):
        from .. import viewer
        return _missing_package(viewer.missing_reason(interactive=True), viewer.INSTALL_HINT)

    def run_on(self, study):
        import FreeCADGui
        from ..results_gui.viewer import open_viewer
        return open_viewer(study, parent=FreeCADGui.getMainWindow())


class CheckInterference(ResultCommand):
    name = "SimPhant_CheckInterference"
    icon = "Interference.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_CheckInterference", "Check interference")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_CheckInterference", "Do the bodies collide anywhere "
                                "along the result, between its frames too? Lists per pair the "
                                "intervals of interference and their depth or the smallest "
                                "clearance, and shows the first contact")

    def unavailable(self):
        from .. import collision
        return _missing_package(collision.missing_reason(), collision.INSTALL_HINT)

    def run_on(self, study):
        from ..results_gui.interference import check_interference
        return check_interference(study)


def _report_written(paths):
    for p in paths:
        FreeCAD.Console.PrintMessage(translate("SimPhant", "SimPhant: wrote %s") % p + "\n")


def _ask_directory(title):
    from PySide import QtGui
    import FreeCADGui
    return QtGui.QFileDialog.getExistingDirectory(FreeCADGui.getMainWindow(), title)


class ExportCSV(ResultCommand):
    uses_result = QT_TRANSLATE_NOOP("SimPhant", "Export")
    name = "SimPhant_ExportResultsCSV"
    icon = "ExportCSV.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ExportResultsCSV", "Export results as CSV")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ExportResultsCSV", "Write the CSV tables of simphant "
                                "run (bodies, reactions, energy, joints, force elements, "
                                "drivers) into a folder")

    def run_on(self, study):
        from ..results_gui.export import export_csv
        d = _ask_directory(translate("SimPhant", "Export CSV of '%s' into") % study.Label)
        if d:
            _report_written(export_csv(study, d))


class ExportPlots(ResultCommand):
    uses_result = QT_TRANSLATE_NOOP("SimPhant", "Export")
    name = "SimPhant_ExportResultPlots"
    icon = "ExportPlots.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ExportResultPlots", "Export result plots (PNG)")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ExportResultPlots", "Write the plots of simphant run "
                                "(positions, energy, reactions, joints, force elements, "
                                "drivers) into a folder")

    def run_on(self, study):
        from ..results_gui.export import export_plots
        d = _ask_directory(translate("SimPhant", "Export plots of '%s' into") % study.Label)
        if d:
            _report_written(export_plots(study, d))


class ExportAnimation(ResultCommand):
    uses_result = QT_TRANSLATE_NOOP("SimPhant", "Export")
    name = "SimPhant_ExportAnimation"
    icon = "ExportAnimation.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_ExportAnimation", "Export animation (GIF/MP4)")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_ExportAnimation", "Record the 3-D view playing the "
                                "result as an MP4 or GIF, choosing size and frame rate")

    def run_on(self, study):
        from PySide import QtGui
        import FreeCADGui
        from ..results_gui.export import animation_summary, export_view_animation
        mw = FreeCADGui.getMainWindow()
        dlg = QtGui.QDialog(mw)
        dlg.setWindowTitle(translate("SimPhant", "Export animation of '%s'") % study.Label)
        form = QtGui.QFormLayout(dlg)
        width, height, fps = QtGui.QSpinBox(), QtGui.QSpinBox(), QtGui.QSpinBox()
        for box, lo, hi, val in ((width, 64, 3840, 800), (height, 64, 2160, 600),
                                 (fps, 1, 120, 25)):
            box.setRange(lo, hi)
            box.setValue(val)
        speed = QtGui.QDoubleSpinBox()
        speed.setRange(0.01, 100.0)
        speed.setValue(1.0)
        speed.setSuffix(translate("SimPhant", " x real time"))
        form.addRow(translate("SimPhant", "Width [px]"), width)
        form.addRow(translate("SimPhant", "Height [px]"), height)
        form.addRow(translate("SimPhant", "Frames per second"), fps)
        form.addRow(translate("SimPhant", "Speed"), speed)
        summary = QtGui.QLabel()
        summary.setObjectName("SimPhantAnimationSummary")
        summary.setWordWrap(True)

        def update(*_):
            summary.setText(animation_summary(study, fps.value(), speed.value()))
        fps.valueChanged.connect(update)
        speed.valueChanged.connect(update)
        update()
        form.addRow(summary)
        buttons = QtGui.QDialogButtonBox(QtGui.QDialogButtonBox.Ok |
                                         QtGui.QDialogButtonBox.Cancel)
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form.addRow(buttons)
        if not dlg.exec_():
            return
        path, _ = QtGui.QFileDialog.getSaveFileName(
            mw, translate("SimPhant", "Save animation"), study.Label + ".mp4",
            translate("SimPhant", "Video (*.mp4 *.gif)"))
        if not path:
            return
        written, n = export_view_animation(study, path, (width.value(), height.value()),
                                           fps.value(), speed.value())
        FreeCAD.Console.PrintMessage(translate("SimPhant", "SimPhant: wrote %s (%d frames)")
                                     % (written, n) + "\n")


COMMANDS = {c.name: c for c in (PlotResults(), ResultsViewer(), CheckInterference(),
                                 ExportCSV(), ExportPlots(), ExportAnimation())}


def register():
    """Add the result commands to FreeCADGui; returns their names in toolbar order."""
    import FreeCADGui
    for name, cmd in COMMANDS.items():
        FreeCADGui.addCommand(name, cmd)
    return list(COMMANDS)
