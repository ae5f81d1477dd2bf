# SimPhant workbench: GUI start-up (thin, as FreeCAD's Assembly workbench does).
import os

import FreeCAD
import FreeCADGui


class SimPhantWorkbench(FreeCADGui.Workbench):
    MenuText = "SimPhant"
    ToolTip = "Rigid multibody dynamics: motion studies with real mass and inertia"

    def __init__(self):
        import SimPhantWorkbench as _pkg
        self.__class__.Icon = os.path.join(os.path.dirname(_pkg.__file__), "resources", "icons",
                                           "SimPhant.svg")

    def Initialize(self):
        from SimPhantWorkbench import commands
        names = commands.register()
        self.appendToolbar("SimPhant", names)
        self.appendMenu("SimPhant", names)

    def GetClassName(self):
        return "Gui::PythonWorkbench"


FreeCADGui.addWorkbench(SimPhantWorkbench())
