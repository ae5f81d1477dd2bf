"""Shared pieces of the workbench's GUI (FreeCAD GUI and Qt): ``common`` (icons, messages,
the active study, the selection, the command base class), ``solve_job`` (a study solved
in a worker thread with progress and Cancel), ``kernel_warmup`` (the solver kernels
loaded or compiled in the background). The commands, task panels, view providers and
the plot panel build on them."""
