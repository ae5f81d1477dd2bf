"""Solve a study without freezing FreeCAD.

The run goes through the one run pipeline (``SimPhantWorkbench.run``), split
over two threads:

1. GUI thread: ``run.prepare`` (recomputes pending changes, reads the document,
   the settings and the analysis mode, checks the result size);
2. worker thread: ``Run.execute`` -- the pure solver, never touches the
   document. The fixed-step loop runs inside numba kernels compiled with
   ``nogil=True``, so the GUI thread keeps the interpreter while it runs; the
   adaptive SciPy methods return to Python at every step, where the
   interpreter switches threads every few milliseconds;
3. GUI thread, after the run: ``Run.commit`` (one undo transaction).

A ``QTimer`` on the GUI thread polls the worker for progress (simulated time,
elapsed and estimated remaining wall time) and for the end of the run. Cancel
makes the progress callback answer False (``SimulationCancelled``); the
document is then unchanged. When the integration fails, the solver's message
(naming the joint or body) is shown and the partial result offered for
playback; only if the user accepts is it stored.
"""
import threading
import time

import FreeCAD
import FreeCADGui
from PySide import QtCore, QtGui

from ..deps import DependencyError
from ..run import prepare
from ..solver import ModelError, SimulationCancelled, SimulationError
from ..solver.kernel_times import preparation_text
from . import common, kernel_warmup
from .translation import translate

__all__ = ["SolveJob", "start", "current_job", "POLL_MS", "completion_note"]

POLL_MS = 100
_jobs = {}            # study (doc, name) -> running SolveJob
_kernels_used = [False]


def current_job(study=None):
    """The running job (of ``study``, or any), or None."""
    for key, job in list(_jobs.items()):
        if study is None or key == (study.Document.Name, study.Name):
            return job
    return None


def _compile_note(result):
    """The share of a run's wall time spent compiling or loading the solver kernels."""
    text = preparation_text(result.settings, compiled=translate(
        "SimPhant", "%.1f s compiling the solver kernels (first use on this computer)"),
        loaded=translate("SimPhant", "%.2f s loading the solver kernels"))
    return translate("SimPhant", " (of which %s)") % text if text else ""


class SolveJob(QtCore.QObject):
    """One run of a study in a worker thread, with a progress dialog."""

    finished = QtCore.Signal(str)       # "done", "cancelled", "failed", "error"

    def __init__(self, study, show_dialog=True, **overrides):
        super().__init__()
        self.study = study
        self.overrides = overrides
        self.show_dialog = show_dialog
        self.state = "new"
        self.result = None
        self.error = None
        self.t = 0.0
        self.t_end = None
        self.cancel_requested = False
        self.wall0 = None
        self.wall_end = None
        self.first_use = not _kernels_used[0]
        self.thread = None
        self.dialog = None
        self.timer = QtCore.QTimer()
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._poll)

    # ---------------------------------------------------------------- start
    def start(self):
        """Convert on the GUI thread, then simulate in a worker. False if the model is invalid."""
        study = self.study
        try:
            self.run = prepare(study, **self.overrides)
        except (ModelError, DependencyError) as exc:
            self.state = "error"
            self.error = exc
            common.message("error", translate("SimPhant", "SimPhant: cannot solve"),
                           str(self.error))
            self.finished.emit(self.state)
            return False
        self.t_end = self.run.t_end
        self.state = "running"
        self.key = (study.Document.Name, study.Name)
        _jobs[self.key] = self
        self.wall0 = time.perf_counter()
        self.thread = threading.Thread(target=self._work, name="SimPhant solve", daemon=True)
        if self.show_dialog:
            self._make_dialog()
        self.thread.start()
        self.timer.start()
        return True

    def _work(self):
        try:
            self.result = self.run.execute(progress=self._progress)
        except BaseException as exc:  # noqa: BLE001 - handed to the GUI thread
            self.error = exc
        finally:
            self.wall_end = time.perf_counter()

    def _progress(self, t, t_end):
        """Worker thread: record the progress; False cancels."""
        self.t = t
        self.t_end = t_end
        return not self.cancel_requested

    def cancel(self):
        self.cancel_requested = True
        if self.dialog is not None:
            self.status.setText(translate("SimPhant", "Cancelling ..."))

    def is_running(self):
        return self.state == "running"

    # ---------------------------------------------------------------- GUI thread
    def _make_dialog(self):
        d = QtGui.QDialog(FreeCADGui.getMainWindow())
        d.setWindowTitle(translate("SimPhant", "SimPhant: solving '%s'") % self.study.Label)
        d.setWindowIcon(QtGui.QIcon(common.icon_path("Solve.svg")))
        d.setModal(False)
        lay = QtGui.QVBoxLayout(d)
        self.note = QtGui.QLabel()
        self.note.setWordWrap(True)
        if self.first_use:
            self.note.setText(translate("SimPhant", "First run in this session: the solver's "
                                        "kernels are loaded from numba's cache; on their first "
                                        "use on this computer they are compiled first (the line "
                                        "below says which, and how long)."))
        lay.addWidget(self.note)
        self.bar = QtGui.QProgressBar()
        self.bar.setRange(0, 1000)
        lay.addWidget(self.bar)
        self.status = QtGui.QLabel()
        lay.addWidget(self.status)
        buttons = QtGui.QDialogButtonBox(QtGui.QDialogButtonBox.Cancel)
        buttons.rejected.connect(self.cancel)
        lay.addWidget(buttons)
        d.rejected.connect(self.cancel)
        d.setMinimumWidth(520)
        self.dialog = d
        self._update_dialog()
        d.adjustSize()
        d.show()

    def progress_text(self):
        elapsed = time.perf_counter() - self.wall0
        compiling = kernel_warmup.status_text()
        if compiling is not None and not self.t:
            return kernel_warmup.fraction() or 0.0, compiling
        frac = min(1.0, max(0.0, self.t / self.t_end)) if self.t_end else 0.0
        remaining = translate("SimPhant", "remaining ~%.0f s") % (elapsed * (1.0 - frac) / frac) \
            if frac > 0.02 else translate("SimPhant", "remaining: estimating")
        return frac, translate("SimPhant", "t = %.4g s of %.4g s   elapsed %.1f s   %s") % (
            self.t, self.t_end or 0.0, elapsed, remaining)

    def _update_dialog(self):
        kernel_warmup.update_status_bar()
        if self.dialog is None:
            return
        frac, text = self.progress_text()
        self.bar.setValue(int(1000 * frac))
        if not self.cancel_requested:
            self.status.setText(text)

    def _poll(self):
        if self.thread is not None and self.thread.is_alive():
            self._update_dialog()
            return
        self.timer.stop()
        self._finish()

    def _finish(self):
        _jobs.pop(self.key, None)
        if self.dialog is not None:
            self.dialog.hide()
            self.dialog.deleteLater()
            self.dialog = None
        _kernels_used[0] = True
        if FreeCAD.listDocuments().get(self.key[0]) is None \
                or FreeCAD.getDocument(self.key[0]).getObject(self.key[1]) is None:
            self.state = "cancelled"        # the document or study was closed meanwhile
            self.finished.emit(self.state)
            return
        study = self.study
        exc = self.error
        if exc is None:
            try:
                self.run.commit(self.result)
                self.state = "done"
                text = translate("SimPhant", "Study '%s' solved: %d frames, %.2f s wall "
                                 "time%s") % (study.Label, len(self.result.t),
                                              self.wall_end - self.wall0,
                                              _compile_note(self.result))
                FreeCAD.Console.PrintMessage("SimPhant: " + text + "\n")
                if self.show_dialog:
                    completion_note(study, text, len(self.result.warnings))
                for text in self.result.warnings:       # as the command line's summary
                    FreeCAD.Console.PrintWarning(translate(
                        "SimPhant", "SimPhant: study '%s': warning: %s") % (study.Label, text)
                        + "\n")
            except Exception as e:  # noqa: BLE001 - shown, document unchanged
                self.state = "error"
                self.error = e
                common.message("error", translate("SimPhant", "SimPhant: cannot store the result"),
                               str(e))
        elif isinstance(exc, SimulationCancelled):
            self.state = "cancelled"
            FreeCAD.Console.PrintMessage(translate("SimPhant", "SimPhant: solving '%s' "
                                                   "cancelled; the document is unchanged")
                                         % study.Label + "\n")
        elif isinstance(exc, SimulationError):
            self.state = "failed"
            partial = getattr(exc, "result", None)
            text = str(exc)
            title = translate("SimPhant", "SimPhant: the simulation failed")
            if partial is not None and len(partial.t) > 1:
                keep = common.message("question", title, text + "\n\n" + translate(
                    "SimPhant", "Keep the partial result (%d frames up to t = %.4g s) for "
                    "playback?") % (len(partial.t), partial.t[-1]))
                if keep:
                    self.run.commit(partial)
                    self.result = partial
            else:
                common.message("error", title, text)
        else:
            self.state = "error"
            common.message("error", translate("SimPhant", "SimPhant: cannot solve"), str(exc))
        self.finished.emit(self.state)

    def wait(self, timeout=None):
        """Process events until the job ends (scripts, tests); returns its state."""
        t0 = time.perf_counter()
        while self.state in ("new", "running"):
            QtGui.QApplication.processEvents(QtCore.QEventLoop.AllEvents, 50)
            time.sleep(0.005)
            if timeout is not None and time.perf_counter() - t0 > timeout:
                break
        return self.state


#: the completion note shown now (one at a time)
_note = [None]


def completion_note(study, text, warnings=0):
    """Say that ``study`` was solved: in the status bar and in a note beside the work
    (not modal) offering to play the result back. Returns the note (a QMessageBox)."""
    if warnings:
        text += "\n" + translate("SimPhant", "%d warning(s): see the Report view.") % warnings
    mw = FreeCADGui.getMainWindow()
    mw.statusBar().showMessage("SimPhant: " + text.replace("\n", " "), 15000)
    if _note[0] is not None:
        try:
            _note[0].close()
        except RuntimeError:        # deleted with its window
            pass
    box = QtGui.QMessageBox(mw)
    box.setObjectName("SimPhantSolvedNote")
    box.setAttribute(QtCore.Qt.WA_DeleteOnClose)
    box.setIcon(QtGui.QMessageBox.Warning if warnings else QtGui.QMessageBox.Information)
    box.setWindowTitle(translate("SimPhant", "Solved"))
    box.setText(text)
    play = box.addButton(translate("SimPhant", "Play back"), QtGui.QMessageBox.AcceptRole)
    box.addButton(QtGui.QMessageBox.Close)
    name = (study.Document.Name, study.Name)

    def clicked(button):
        doc = FreeCAD.listDocuments().get(name[0])
        found = doc.getObject(name[1]) if doc is not None else None
        if button is play and found is not None:
            common.run_command_on("SimPhant_Playback", found)
    box.buttonClicked.connect(clicked)
    box.setModal(False)
    box.show()
    _note[0] = box
    return box


def start(study, show_dialog=True, **overrides):
    """Start solving ``study`` in the background; returns the ``SolveJob``.

    ``overrides`` as ``runner.run_study``. The call returns at once; the
    result is stored when the run ends (``job.wait()`` blocks until then while
    keeping the GUI alive).
    """
    running = current_job(study)
    if running is not None:
        return running
    job = SolveJob(study, show_dialog=show_dialog, **overrides)
    job.start()
    return job
