"""Preparing the solver kernels in the background when the workbench is first activated.

``solver.warmup.ensure_all`` runs in a daemon thread: on a computer where the
kernels were compiled before (``make setup`` does it) it only loads them from
numba's on-disk cache; on the very first use it compiles them, about half a
minute per joint block size. Messages go to the report view: one when the
preparation is still running after ``NOTICE_AFTER`` seconds (it is compiling,
not loading), one when it ends. A solve started meanwhile waits for the block
size it needs (``warmup.ensure`` is shared and thread-safe) and its progress
dialog says that the kernels are being compiled.
"""
import threading
import time

import FreeCAD

from .translation import translate

__all__ = ["start_background", "status_text", "NOTICE_AFTER"]

#: seconds after which a preparation that is still running is announced
NOTICE_AFTER = 1.5
POLL_MS = 500

_state = dict(thread=None, timer=None, t0=None, noticed=False, error=None, counts=None)


def _work():
    from ..solver import Model, warmup
    try:
        warmup.ensure_all(Model)
    except Exception as exc:  # noqa: BLE001 - reported on the GUI thread; a solve retries
        _state["error"] = exc


def start_background():
    """Start the preparation once per session (no-op if it ran or runs already)."""
    if _state["thread"] is not None:
        return
    from PySide import QtCore
    from ..solver import warmup
    _state["counts"] = warmup.compile_counts()
    _state["t0"] = time.perf_counter()
    t = threading.Thread(target=_work, name="SimPhant kernels", daemon=True)
    _state["thread"] = t
    timer = QtCore.QTimer()
    timer.setInterval(POLL_MS)
    timer.timeout.connect(_poll)
    _state["timer"] = timer
    t.start()
    timer.start()


def _poll():
    from ..solver import warmup
    elapsed = time.perf_counter() - _state["t0"]
    if _state["thread"].is_alive():
        if not _state["noticed"] and elapsed >= NOTICE_AFTER:
            _state["noticed"] = True
            FreeCAD.Console.PrintMessage(translate(
                "SimPhant", "SimPhant: compiling the solver kernels in the background (first "
                "use only, about half a minute per joint block size, %d sizes); a solve started "
                "meanwhile waits for them") % len(warmup.kernels.BLOCK_SIZES) + "\n")
        return
    _state["timer"].stop()
    if _state["error"] is not None:
        FreeCAD.Console.PrintWarning(translate(
            "SimPhant", "SimPhant: could not prepare the solver kernels (%s); they are compiled "
            "when a study is solved") % _state["error"] + "\n")
        return
    hits0, misses0 = _state["counts"]
    hits, misses = warmup.compile_counts()
    if misses > misses0:
        FreeCAD.Console.PrintMessage(translate(
            "SimPhant", "SimPhant: solver kernels compiled in %.0f s (cached for later "
            "sessions)") % elapsed + "\n")
    else:
        FreeCAD.Console.PrintLog("SimPhant: solver kernels loaded from the cache in %.1f s\n"
                                 % elapsed)


def status_text():
    """What a progress display shows while kernels are prepared, else None."""
    from ..solver import warmup
    b = warmup.busy()
    if b is None or b[1] < NOTICE_AFTER:
        return None
    return translate("SimPhant", "compiling the solver kernels, first use only (joint block size "
                     "%d): %.0f s") % (b[0], b[1])
