"""Task panels of the SimPhant workbench (GUI only; FEM's ``femtaskpanels``):
``task_<object>.py`` edits one object type, ``task_playback`` plays a result back."""
