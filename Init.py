# SimPhant workbench: application-side (non-GUI) start-up, run by FreeCAD for
# every session, with or without GUI. Nothing heavy happens here: the solver
# and its numba kernels are imported only when a study is run.

# Without the GUI, FreeCAD saves no view data (GuiDocument.xml): documents holding SimPhant
# objects get their file's back on every save; and the files undo steps hold (a Result's
# arrays) stay reachable when Save As renames the document's transient folder
# (SimPhantWorkbench/document/fcstd.py).
import FreeCAD as _App
from SimPhantWorkbench.document import fcstd as _fcstd
_fcstd.keep_view_data(_App)
_fcstd.keep_transient_files(_App)
