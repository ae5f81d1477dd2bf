"""Preparing the solver kernels the open studies need, in the background.

numba compiles the kernels once per joint block size (``solver.warmup``), a
minute or more each on a slow computer, and keeps them in its on-disk cache;
later sessions only load them (about a second). When the workbench is first
activated, and whenever a document is opened, the block sizes its studies need
(from their joint kinds; the adaptive evaluator too when the study's integrator
is adaptive) are queued and prepared in a daemon thread -- only those: a block
size no study uses is compiled when one does. A solve started meanwhile waits
for the part it needs (``warmup.ensure`` is shared and thread-safe) and its time
is reported apart from the solve (``compile_time``).

While a part is prepared, the main window's status bar (and the Solve dialog,
through ``status_text``) says whether the kernels are being *loaded* from the
cache or *compiled* (first use on this computer), for how long, and -- once a
compile has been measured on this computer (``solver.kernel_times``) -- about how
long is left. The report view gets one line when a compile ends.
"""
import threading

import FreeCAD

from ..document.base import studies, study_joints
from .translation import translate

__all__ = ["start_background", "request", "request_document", "study_parts", "status_text",
           "fraction", "update_status_bar", "NOTICE_AFTER", "idle"]

#: seconds after which loading from the cache is announced (compiling is at once)
NOTICE_AFTER = 1.0
POLL_MS = 500

_state = dict(thread=None, timer=None, queue=[], error=None, observer=None, shown=False,
              done=[], prepared=set())
_queue_lock = threading.Lock()


def study_parts(study):
    """``[(block_size, adaptive)]`` the solve of ``study`` will need."""
    from ..solver import warmup
    from ..solver.integrators import method_info
    kinds = [str(getattr(j, "JointType", "")) for j in study_joints(study)]
    try:
        adaptive = not method_info(str(study.Integrator)).fixed_step
    except Exception:  # noqa: BLE001 - an unknown integrator fails in the solve, not here
        adaptive = False
    return [(warmup.kinds_block_size(kinds), adaptive)]


def request_document(doc):
    """Queue what the studies of ``doc`` need."""
    parts = []
    for study in studies(doc):
        try:
            parts += study_parts(study)
        except Exception as exc:  # noqa: BLE001 - a broken study is the solve's to report
            FreeCAD.Console.PrintLog("SimPhant: kernels for '%s' not queued: %s\n"
                                     % (study.Label, exc))
    request(parts)


def request(parts):
    """Queue parts ``(block_size, adaptive)`` and make sure the worker runs."""
    from ..solver import warmup
    with _queue_lock:
        for p in parts:
            if _ready(warmup, p):
                _state["prepared"].add(p)       # by a solve: its inlined loop is to do
            elif p not in _state["queue"] and p not in _state["prepared"]:
                _state["queue"].append(p)
        if not _state["queue"] and not _inlined_todo(warmup):
            return
        if _state["thread"] is None or not _state["thread"].is_alive():
            t = threading.Thread(target=_work, name="SimPhant kernels", daemon=True)
            _state["thread"] = t
            t.start()
    _start_timer()


def _ready(warmup, part):
    bs, adaptive = part
    return bs in warmup.ready_sizes() and not adaptive


def _inlined_todo(warmup):
    """Block sizes whose plain kernels are prepared and inlined loop is not."""
    return sorted(bs for bs, adaptive in _state["prepared"] if adaptive is False
                  and (bs, warmup.INLINED) not in _state["prepared"])


def _work():
    from ..solver import Model, warmup
    while True:
        with _queue_lock:
            if not _state["queue"]:
                # then the faster fixed-step loop of the sizes prepared (a solve started
                # meanwhile runs the plain one, and the next the inlined one)
                todo = _inlined_todo(warmup)
                if not todo:
                    _state["thread"] = None
                    return
                _state["queue"].append((todo[0], warmup.INLINED))
            bs, adaptive = _state["queue"][0]
        try:
            before = warmup.compile_counts()[1]
            if adaptive == warmup.INLINED:
                sec = warmup.ensure_inlined(bs, Model)
            else:
                sec = warmup.ensure(bs, adaptive=adaptive, model_class=Model)
            _state["done"].append((bs, adaptive, sec, warmup.compile_counts()[1] > before))
            _state["prepared"].add((bs, adaptive))
        except Exception as exc:  # noqa: BLE001 - reported on the GUI thread; a solve retries
            _state["error"] = exc
            if adaptive == warmup.INLINED:
                _state["prepared"].add((bs, adaptive))      # not again and again
        with _queue_lock:
            if _state["queue"] and _state["queue"][0] == (bs, adaptive):
                _state["queue"].pop(0)


class _Observer:
    """Queues the kernels of each document opened. FreeCAD 0.20 does not tell an
    application observer that a document finished loading: a document created or
    activated is looked at once the event loop runs again (opening is done by then)."""

    def slotFinishRestoreDocument(self, doc):
        request_document(doc)

    def slotCreatedDocument(self, doc):
        self._later(doc)

    def slotActivateDocument(self, doc):
        self._later(doc)

    @staticmethod
    def _later(doc):
        from PySide import QtCore
        name = doc.Name

        def look():
            found = FreeCAD.listDocuments().get(name)
            if found is not None:
                request_document(found)
        QtCore.QTimer.singleShot(0, look)


def start_background():
    """Start once per session: queue what the open documents need, and watch documents
    opened later."""
    if _state["observer"] is None:
        _state["observer"] = _Observer()
        FreeCAD.addDocumentObserver(_state["observer"])
    for doc in FreeCAD.listDocuments().values():
        request_document(doc)


def _start_timer():
    from PySide import QtCore
    if _state["timer"] is None:
        timer = QtCore.QTimer()
        timer.setInterval(POLL_MS)
        timer.timeout.connect(_poll)
        _state["timer"] = timer
    if not _state["timer"].isActive():
        _state["timer"].start()


def idle():
    """True when nothing is queued or being prepared."""
    from ..solver import warmup
    t = _state["thread"]
    return (t is None or not t.is_alive()) and warmup.busy() is None


def _poll():
    update_status_bar()
    while _state["done"]:
        bs, adaptive, sec, compiled = _state["done"].pop(0)
        if compiled:
            FreeCAD.Console.PrintMessage(translate(
                "SimPhant", "SimPhant: solver kernels for block size %d%s compiled in %.0f s "
                "(cached for later sessions)") % (bs, _part_text(adaptive), sec) + "\n")
        else:
            FreeCAD.Console.PrintLog("SimPhant: solver kernels for block size %d loaded in "
                                     "%.1f s\n" % (bs, sec))
    if _state["error"] is not None:
        FreeCAD.Console.PrintWarning(translate(
            "SimPhant", "SimPhant: could not prepare the solver kernels (%s); they are prepared "
            "when a study is solved") % _state["error"] + "\n")
        _state["error"] = None
    if idle():
        _state["timer"].stop()


def _part_text(adaptive):
    from ..solver import warmup
    if adaptive == warmup.INLINED:
        return translate("SimPhant", " (the faster fixed-step loop, used from the next solve)")
    return translate("SimPhant", " (adaptive integrators)") if adaptive else ""


def status_text():
    """What a progress display shows while kernels are prepared, else None."""
    from ..solver import warmup
    p = warmup.progress()
    if p is None:
        return None
    what = translate("SimPhant", "joint block size %d%s") % (
        p["block_size"], translate("SimPhant", ", adaptive integrators") if p["adaptive"] else "")
    if not p["compiling"]:
        if p["elapsed"] < NOTICE_AFTER:
            return None
        return translate("SimPhant", "loading the solver kernels from the cache (%s): %.0f s") % (
            what, p["elapsed"])
    text = translate("SimPhant", "compiling the solver kernels, first use on this computer "
                     "(%s): %.0f s") % (what, p["elapsed"])
    est = p["estimate"]
    if est is not None:
        left = max(est[0] - p["elapsed"], 0.0)
        text += translate("SimPhant", ", about %.0f s left (%.0f s measured here before)") % (
            left, est[0])
    return text


def fraction():
    """Share of the compile under way done (kernels compiled / as many as last time),
    else None (nothing measured yet, or loading)."""
    from ..solver import warmup
    p = warmup.progress()
    if p is None or not p["compiling"] or p["estimate"] is None:
        return None
    return min(p["kernels"] / max(p["estimate"][1], 1), 0.99)


def update_status_bar():
    """Put ``status_text`` into the main window's status bar (cleared when it is over)."""
    import FreeCADGui
    text = status_text()
    try:
        bar = FreeCADGui.getMainWindow().statusBar()
    except Exception:  # noqa: BLE001 - no main window (closing)
        return
    if text is not None:
        bar.showMessage("SimPhant: " + text)
        _state["shown"] = True
    elif _state["shown"]:
        bar.showMessage(translate("SimPhant", "SimPhant: solver kernels ready"), 5000)
        _state["shown"] = False
