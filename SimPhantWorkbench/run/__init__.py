"""Running studies: the one run pipeline of every entry point.

``prepare(study, **overrides)`` reads the document (on the GUI thread in the
workbench): it checks the study and the overrides, recomputes pending changes,
converts the study to a solver model, takes the simulation settings and the
analysis mode from the study and refuses a result that would not fit in memory.
``Run.execute(progress)`` runs the analysis -- the pure solver, in any thread or
process -- and ``Run.commit(result)`` stores the result in the study's Result
object (one undo step). The scripting call ``runner.run_study``, the workbench's
Solve, ``simphant run`` and every variant of a parameter study go through it.
"""
from .pipeline import (Run, prepare, read_run, recompute_touched, simulate_settings_names,
                       study_error)
from .store import result_size, store_result

__all__ = ["Run", "prepare", "read_run", "recompute_touched", "study_error",
           "simulate_settings_names",
           "store_result", "result_size"]
