"""The dependency check in the GUI: at workbench load, and the Check dependencies command.

``check_at_load`` runs ``deps.check`` once when the workbench is first activated,
before its commands are registered: when something the solver needs is missing or
broken, the workbench still activates, a dialog says what and the exact commands for
this FreeCAD (``document.installation``), the Report view gets the same text, and the
commands that need the solver (``Command.needs_solver``) are greyed out with the
reason in their tooltip (``unavailable_reason``). ``show_dialog`` is the dialog, also
opened by SimPhant > Check dependencies.
"""
import html

import FreeCAD
import FreeCADGui

from .. import deps
from ..document.installation import context, report_text
from .translation import translate

__all__ = ["check_at_load", "report", "unavailable_reason", "show_dialog", "recheck",
           "last_dialog"]

_state = dict(report=None, dialog=None)


def report():
    """The report of the last check (made on first use)."""
    if _state["report"] is None:
        _state["report"] = deps.check()
    return _state["report"]


def recheck():
    """Check again (what the command does); the new report."""
    _state["report"] = deps.check()
    return _state["report"]


def unavailable_reason():
    """Why the solver cannot run here ("" when it can): for tooltips."""
    return report().reason()


def check_at_load():
    """At workbench load: check; on errors print the report and show the dialog (after
    the workbench is up). Returns the report."""
    rep = report()
    if rep.ok:
        FreeCAD.Console.PrintLog("SimPhant: dependencies checked: %s\n" % ", ".join(
            "%s %s" % (f.name, f.version) for f in rep.findings if f.severity == "ok"))
        return rep
    FreeCAD.Console.PrintError(translate("SimPhant", "SimPhant: the solver cannot run: %s")
                               % rep.reason() + "\n%s\n" % report_text(rep))
    from PySide import QtCore
    QtCore.QTimer.singleShot(0, lambda: show_dialog(rep))
    return rep


def last_dialog():
    """The dialog shown last (while it is open), else None (for scripts and tests)."""
    return _state["dialog"]


def show_dialog(rep=None):
    """The report in a dialog: what is found, what is wrong, the commands to run
    (selectable, with a button copying them). Non-modal; returns it."""
    from PySide import QtGui
    rep = rep or report()
    text = report_text(rep)
    d = QtGui.QDialog(FreeCADGui.getMainWindow())
    d.setObjectName("SimPhantDependencies")
    d.setWindowTitle(translate("SimPhant", "SimPhant: dependencies") if rep.ok else
                     translate("SimPhant", "SimPhant: dependencies missing"))
    lay = QtGui.QVBoxLayout(d)
    head = QtGui.QLabel(
        translate("SimPhant", "<b>Everything the solver needs is installed.</b>") if rep.ok
        else translate("SimPhant", "<b>SimPhant cannot solve: %s.</b><br>The workbench works "
                       "otherwise (modelling, opening documents). Install what is missing with "
                       "the commands below, in a terminal, with FreeCAD closed; then start "
                       "FreeCAD again.") % html.escape(rep.reason(), quote=False))
    head.setWordWrap(True)
    lay.addWidget(head)
    body = QtGui.QPlainTextEdit()
    body.setObjectName("report")
    body.setReadOnly(True)
    body.setPlainText(text)
    body.setLineWrapMode(QtGui.QPlainTextEdit.WidgetWidth)
    font = QtGui.QFont("Monospace")
    font.setStyleHint(QtGui.QFont.TypeWriter)
    body.setFont(font)
    lay.addWidget(body)
    buttons = QtGui.QDialogButtonBox(QtGui.QDialogButtonBox.Close)
    commands = [c for _n, cmds in deps.fixes(rep, context()) for c in cmds if c]
    if commands:
        copy = buttons.addButton(translate("SimPhant", "Copy commands"),
                                 QtGui.QDialogButtonBox.ActionRole)
        copy.clicked.connect(lambda: QtGui.QApplication.clipboard().setText(
            "\n".join(commands)))
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(900, 420)
    d.finished.connect(lambda _r: _state.update(dialog=None))
    _state["dialog"] = d
    d.show()
    return d
