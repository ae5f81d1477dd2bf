"""What scripts running inside the FreeCAD GUI share (imported there with this folder on
``sys.path``): ``pump``, the event loop run for a while, so dialogs, observers and
timers act as they do for a user."""
import time


def pump(seconds=0.0):
    """Process the GUI's pending events, for at least ``seconds``."""
    from PySide import QtGui
    t0 = time.perf_counter()
    while True:
        QtGui.QApplication.processEvents()
        if time.perf_counter() - t0 >= seconds:
            break
        time.sleep(0.01)
