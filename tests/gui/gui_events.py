"""What scripts running inside the FreeCAD GUI share (imported there with this folder on
``sys.path``): ``pump``, the event loop run for a while, so dialogs, observers and
timers act as they do for a user."""
import time


def pump(seconds=0.0, deferred_deletes=False):
    """Process the GUI's pending events, for at least ``seconds``.

    ``deferred_deletes``: also delete the objects ``deleteLater`` scheduled, as the
    interactive event loop does between two user actions (``processEvents`` called from a
    script never does: closed task panels' widgets then stay, and their addresses are
    never reused)."""
    from PySide import QtCore, QtGui
    t0 = time.perf_counter()
    while True:
        QtGui.QApplication.processEvents()
        if deferred_deletes:
            QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.DeferredDelete)
        if time.perf_counter() - t0 >= seconds:
            break
        time.sleep(0.01)
