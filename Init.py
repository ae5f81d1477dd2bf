# SimPhant workbench: application-side (non-GUI) start-up, run by FreeCAD for
# every session, with or without GUI. Nothing heavy happens here: the solver
# and its numba kernels are imported only when a study is run.
