# SimPhant workbench: GUI start-up (thin, as FreeCAD's Assembly workbench does).
import os

import FreeCAD
import FreeCADGui


class SimPhantWorkbench(FreeCADGui.Workbench):
    def __init__(self):
        import SimPhantWorkbench as _pkg
        from SimPhantWorkbench.gui import translation
        translation.install()          # the translations of FreeCAD's language, if any
        self.__class__.Icon = os.path.join(os.path.dirname(_pkg.__file__), "resources", "icons",
                                           "SimPhant.svg")
        self.__class__.MenuText = "SimPhant"
        self.__class__.ToolTip = translation.translate(
            "SimPhant", "Rigid multibody dynamics: motion studies with real mass and inertia")

    def Initialize(self):
        # what the solver needs, first: without it the workbench still activates, a
        # dialog says what to install and the commands that need the solver are greyed
        from SimPhantWorkbench.gui import dependencies
        report = dependencies.check_at_load()
        from SimPhantWorkbench import commands
        commands.register()
        for name, names in commands.TOOLBARS:
            self.appendToolbar(name, list(names))
        self.appendMenu(commands.MENU, commands.menu())
        if report.ok:
            # load (or compile, first use) the kernels the open studies need
            from SimPhantWorkbench.gui import kernel_warmup
            kernel_warmup.start_background()

    def Activated(self):
        from SimPhantWorkbench.gui.following import attach_missing
        for doc in FreeCAD.listDocuments().values():
            attach_missing(doc)

    def ContextMenu(self, recipient):
        from SimPhantWorkbench.document.base import proxy_type
        sel = FreeCADGui.Selection.getSelection()
        if recipient == "Tree" and sel and all(str(proxy_type(o)).startswith("SimPhant::")
                                               for o in sel):
            self.appendContextMenu("", ["SimPhant_SetActiveStudy", "SimPhant_Check",
                                        "SimPhant_Solve"])
            if len(sel) == 1 and proxy_type(sel[0]) == "SimPhant::Joint":
                # the driver kinds of the registry (each command is active only when the
                # joint has its degree of freedom)
                from SimPhantWorkbench.commands import cmd_drivers
                self.appendContextMenu("", [c.name for c in cmd_drivers.commands()])

    def GetClassName(self):
        return "Gui::PythonWorkbench"


FreeCADGui.addWorkbench(SimPhantWorkbench())
