# SimPhant workbench: application-side (non-GUI) start-up, run by FreeCAD for
# every session, with or without GUI. Nothing heavy happens here: the solver
# and its numba kernels are imported only when a study is run.

# Without the GUI, FreeCAD saves no view data (GuiDocument.xml): documents holding SimPhant
# objects get their file's back on every save (SimPhantWorkbench/document/fcstd.py).
import FreeCAD as _App
from SimPhantWorkbench.document import fcstd as _fcstd
_fcstd.keep_view_data(_App)
