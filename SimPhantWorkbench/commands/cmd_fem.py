"""The Loads to FEM command: the selected body's loads at an instant as a CalculiX stress
analysis (``stress.loads_to_fem``), shown with FEM's own result objects.

The command asks for the body (the selected one by default), the instant (a time,
``frame:N`` or ``peak:SIGNAL``) and the mesh size, then runs one replayable line
in the Python console, ``stress.loads_to_fem(...)``, in one undo step. FEM's post-processing
pipeline shows von Mises stress and the report (peak stress and where, the
support's reactions) is shown. Without CalculiX or a mesher it says what to install.
"""
import FreeCAD

from ..document.base import is_type, study_bodies
from ..document.bodies import body_of_object
from ..gui import common
from ..gui.common import obj_expr
from ..gui.translation import QT_TRANSLATE_NOOP, translate
from .results_commands import ResultCommand

__all__ = ["LoadsToFEM", "COMMANDS"]


def _selected_body(study):
    import FreeCADGui
    bodies = [b for b in study_bodies(study) if not b.Fixed]
    for obj in FreeCADGui.Selection.getSelection(study.Document.Name):
        body = obj if is_type(obj, "SimPhant::Body") else body_of_object(bodies, obj)
        if body in bodies:
            return body
    return bodies[0] if bodies else None


def ask(study, body):
    """The dialog: (body, instant text, mesh size mm or None), or None when cancelled."""
    from PySide import QtGui
    import FreeCADGui
    bodies = [b for b in study_bodies(study) if not b.Fixed]
    dlg = QtGui.QDialog(FreeCADGui.getMainWindow())
    dlg.setWindowTitle(translate("SimPhant", "Loads to FEM"))
    form = QtGui.QFormLayout(dlg)
    combo = QtGui.QComboBox()
    for b in bodies:
        combo.addItem(b.Label, b.Name)
    if body is not None:
        combo.setCurrentIndex(bodies.index(body))
    instant = QtGui.QLineEdit("0")
    instant.setToolTip(translate("SimPhant", "A time in s (0.25), frame:N, or peak:SIGNAL "
                                 "where a result quantity peaks, e.g. peak:reaction(Joint) or "
                                 "peak:angular_acceleration(Body)"))
    size = QtGui.QDoubleSpinBox()
    size.setRange(0.0, 1e6)
    size.setSuffix(translate("SimPhant", " mm"))
    size.setSpecialValueText(translate("SimPhant", "from the part"))
    form.addRow(translate("SimPhant", "Body"), combo)
    form.addRow(translate("SimPhant", "Instant"), instant)
    form.addRow(translate("SimPhant", "Element size"), size)
    buttons = QtGui.QDialogButtonBox(QtGui.QDialogButtonBox.Ok | QtGui.QDialogButtonBox.Cancel)
    buttons.accepted.connect(dlg.accept)
    buttons.rejected.connect(dlg.reject)
    form.addRow(buttons)
    if not dlg.exec_():
        return None
    return (bodies[combo.currentIndex()], instant.text().strip(),
            size.value() if size.value() > 0 else None)


def show_stress(report):
    """Show FEM's von Mises pipeline of the result (the result mesh coloured by von Mises
    when FEM made no pipeline)."""
    pipes = [o for o in report.analysis.Group if o.isDerivedFrom("Fem::FemPostPipeline")]
    result = report.result
    try:
        if pipes:
            pipes[0].ViewObject.Visibility = True
            result.Mesh.ViewObject.Visibility = False
        else:
            result.Mesh.ViewObject.setNodeColorByScalars(list(result.NodeNumbers),
                                                         list(result.vonMises))
            result.Mesh.ViewObject.Visibility = True
    except Exception as exc:  # noqa: BLE001 - the display is a convenience
        FreeCAD.Console.PrintWarning(
            translate("SimPhant", "SimPhant: could not show the stresses: %s") % exc + "\n")


class LoadsToFEM(ResultCommand):
    name = "SimPhant_LoadsToFEM"
    icon = "LoadsToFEM.svg"
    menu = QT_TRANSLATE_NOOP("SimPhant_LoadsToFEM", "Loads to FEM")
    tooltip = QT_TRANSLATE_NOOP("SimPhant_LoadsToFEM", "Stress analysis of the selected body at "
                                "an instant of the result: its joint loads, gravity and inertia "
                                "handed to a FreeCAD FEM analysis (CalculiX); shows von Mises "
                                "stress and the peak")
    #: the dialog (a function of study and body), replaceable by scripts and tests
    ask = staticmethod(ask)

    def run_on(self, study):
        import FreeCADGui
        from ..fem import report_lines, tools_problem
        problem = tools_problem(study.Document)
        if problem:
            common.message("warning", translate("SimPhant", "Loads to FEM"), problem)
            return
        choice = self.ask(study, _selected_body(study))
        if choice is None:
            return
        body, instant, size = choice
        FreeCADGui.doCommand("from SimPhantWorkbench import stress")
        FreeCADGui.doCommand("_stress = stress.loads_to_fem(%s, %r, %r, mesh_size=%r)"
                             % (obj_expr(study), body.Name, instant, size))
        import __main__
        report = __main__._stress
        show_stress(report)
        self.last_report = report
        common.message("info", translate("SimPhant", "Loads to FEM"),
                       "\n".join(report_lines(report)))


COMMANDS = [LoadsToFEM()]
