"""The 3-D results viewer opened on a study's stored result from the workbench."""
from ..document.results import get_result
from ..document.scene import scene_from_study
from ..gui.translation import translate

__all__ = ["open_viewer"]


def open_viewer(study, parent=None):
    """Open the viewer on ``study``'s stored result (FreeCAD GUI); returns the window.

    It is a window of its own, not a child of ``parent`` (FreeCAD's main window): a
    child window stays above its parent, so FreeCAD could not be brought in front of
    the viewer. It closes with ``parent``."""
    result = get_result(study)
    if result is None:
        raise ValueError(translate("SimPhant", "Study '%s' has no result yet: run it first")
                         % study.Label)
    scene = scene_from_study(study, result, title=study.Label)
    from ..viewer.window import ViewerWindow, keep_open
    win = ViewerWindow(result, scene, title=study.Label)
    if parent is not None:
        _close_with(win, parent)
    win.show()
    keep_open(win)
    return win


def _close_with(win, owner):
    """Close ``win`` when ``owner`` closes (the viewer must not keep FreeCAD running)."""
    from PySide import QtCore

    class _Filter(QtCore.QObject):
        def eventFilter(self, obj, event):
            if event.type() == QtCore.QEvent.Close:
                try:
                    win.close()
                except RuntimeError:        # closed and deleted already
                    pass
            return False

    f = _Filter(win)
    owner.installEventFilter(f)
    win.destroyed.connect(lambda *_: _remove_filter(owner, f))
    return f


def _remove_filter(owner, f):
    try:
        owner.removeEventFilter(f)
    except RuntimeError:
        pass
