"""Parameter-study panel: design variables, metrics, the run, and its results.

Two forms in the task view:

* **Specification** (``parameter_study_spec.SpecForm``) -- the design (grid, lhs,
  uniform, normal, sobol, halton, saltelli, or the optimiser), the variables, the
  metrics (a reducer of a signal, or an expression with arithmetic), the objectives
  (one: the best variant; two: a Pareto front) and constraints, the end time and the
  timeout, where it runs (this process, the local cores through Dask, or a Dask
  scheduler's address) and the result cache, then Run / Cancel with progress. The
  specification is checked by the sweep's own ``spec_from_dict``; its message is shown
  under the fields.
* **Results** (``parameter_study_results.ResultsPage``) -- one row per variant and a
  plot of a metric against a variable (line, scatter, heat map) or the Pareto front,
  PNG/CSV export and "Apply best": the results are kept (as OK) and
  ``sweep.apply_best`` gives the document the best variant's values (one more undo
  step).

The run happens on the GUI thread in small steps: the sweep's progress
callback (after each variant, and every 0.2 s while Dask workers compute)
updates the bar and processes pending GUI events, and answers False after
Cancel. The document's variables get their values back after the run. OK
writes the specification and the results in one transaction; Cancel writes
nothing.
"""
import json
import time

import FreeCADGui
from PySide import QtCore, QtGui

from ..gui.common import claim_new, close_task, message, obj_expr
from ..gui.translation import translate
from ..document.base import transaction
from .. import sweep
from ..solver import ModelError
from .parameter_study_results import ResultsPage
from .parameter_study_spec import SpecForm, metric_text, numeric_targets

__all__ = ["TaskParameterStudy", "numeric_targets", "metric_text"]


class TaskParameterStudy(SpecForm, ResultsPage):
    """The task panel of a ParameterStudy (see the module docstring)."""

    #: the panel open now (scripts and tests reach it here)
    current = None

    def __init__(self, pstudy):
        from ..sweep import study_of
        from ..sweep.executors import dask_available
        TaskParameterStudy.current = self
        self.obj = pstudy
        self.doc = pstudy.Document
        self.created = claim_new(pstudy)
        self.study = study_of(pstudy)
        self.outcome = None            # a run of this panel (written on OK)
        self.running = False
        self.cancel_requested = False
        self.progress_log = []
        try:
            spec = sweep.stored_spec(pstudy)
        except ModelError:
            spec = None
        self.form = [self._spec_form(spec, dask_available()), self._results_form()]
        self.rows, self.spec = [], spec
        if spec is not None and pstudy.Variants > 0:
            self.rows = sweep.stored_rows(pstudy)
        self._show_results()
        self.validate()

    # ------------------------------------------------------------------ run
    def run(self, wait=True):
        """Run the specification (keeps the GUI alive; Cancel stops it). The outcome or None."""
        from ..sweep import execute
        from ..sweep.spec import spec_from_dict
        problem = self.validate()
        if problem or self.running:
            return None
        spec = spec_from_dict(self.spec_dict())
        kwargs = self.run_kwargs()
        self.running = True
        self.cancel_requested = False
        self.progress_log = []
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(translate("SimPhant", "Starting %d variants ...") % spec.size())
        self.t0 = time.perf_counter()
        try:
            outcome = execute(self.study, spec, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown; the sweep restored the document
            message("error", translate("SimPhant", "SimPhant: parameter study"), str(exc))
            outcome = None
        finally:
            self.running = False
            self.cancel_button.setEnabled(False)
            self.validate()
        if outcome is None:
            return None
        self.outcome = outcome
        self.spec = spec
        self.rows = outcome.rows
        s = outcome.stats
        self.status.setText(translate("SimPhant", "%d variants: %d ok, %d failed, %d lost, %d "
                                      "not run; %.1f s (%s).%s OK keeps the results.")
                            % (len(outcome.rows), outcome.count("ok"), outcome.count("failed"),
                               outcome.count("lost"), outcome.count("cancelled"),
                               s["wall_time"], s.get("executor")
                               or translate("SimPhant", "nothing run"),
                               " " + s["infrastructure"] + "." if s.get("infrastructure")
                               else ""))
        self.bar.setValue(1000 if not s.get("cancelled") else self.bar.value())
        self._show_results()
        return outcome

    def _progress(self, p):
        self.progress_log.append(p)
        self.bar.setValue(int(1000 * p.done / max(1, p.total)))
        eta = translate("SimPhant", "remaining ~%.0f s") % p.eta if p.eta is not None \
            else translate("SimPhant", "remaining: estimating")
        self.status.setText(translate("SimPhant", "%d of %d variants (%d failed, %d lost, %d "
                                      "from the cache)   elapsed %.1f s   %s%s")
                            % (p.done, p.total, p.failed, p.lost, p.cached, p.elapsed, eta,
                               "\n" + p.note if p.note else ""))
        QtGui.QApplication.processEvents(QtCore.QEventLoop.AllEvents, 20)
        return not self.cancel_requested

    def cancel_run(self):
        self.cancel_requested = True
        self.status.setText(translate("SimPhant", "Cancelling ..."))

    # ------------------------------------------------------------------ OK / Cancel
    def getStandardButtons(self):
        return int(QtGui.QDialogButtonBox.Ok | QtGui.QDialogButtonBox.Cancel)

    def accept(self):
        if self.running:
            return False
        problem = self.validate()
        if problem:
            message("warning", translate("SimPhant", "SimPhant parameter study"), problem)
            return False
        from ..sweep import store_outcome
        title = translate("SimPhant", "Edit %s") % self.obj.Label
        try:
            with transaction(self.doc, title):
                FreeCADGui.doCommand("_obj = %s" % obj_expr(self.obj))
                FreeCADGui.doCommand("_obj.Specification = %r"
                                     % json.dumps(self.spec_dict(), indent=1))
                if self.outcome is not None:
                    store_outcome(self.obj, self.outcome)
        except Exception as exc:  # noqa: BLE001 - aborted: the document is unchanged
            message("error", title, str(exc))
            return False
        self._close()
        return True

    def reject(self):
        if self.running:
            self.cancel_run()
            return False
        self._close(keep=False)
        return True

    def _close(self, keep=True):
        if TaskParameterStudy.current is self:
            TaskParameterStudy.current = None
        close_task(self, keep)
