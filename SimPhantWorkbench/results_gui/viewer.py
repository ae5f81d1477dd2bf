"""The 3-D results viewer opened on a study's stored result from the workbench."""
from ..document.results import get_result
from ..document.scene import scene_from_study
from ..gui.translation import translate

__all__ = ["open_viewer"]


def open_viewer(study, parent=None):
    """Open the viewer on ``study``'s stored result (FreeCAD GUI); returns the window."""
    result = get_result(study)
    if result is None:
        raise ValueError(translate("SimPhant", "Study '%s' has no result yet: run it first")
                         % study.Label)
    scene = scene_from_study(study, result, title=study.Label)
    from ..viewer.window import ViewerWindow, keep_open
    win = ViewerWindow(result, scene, parent=parent, title=study.Label)
    win.show()
    keep_open(win)
    return win
