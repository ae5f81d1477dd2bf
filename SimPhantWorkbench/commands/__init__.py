"""GUI commands of the SimPhant workbench (imported only when the GUI is up)."""


def register():
    """Register the workbench commands with FreeCADGui; return their names in toolbar order."""
    return []
