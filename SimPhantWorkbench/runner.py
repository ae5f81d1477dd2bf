"""Running a study from a script: convert, simulate, store the result in the document.

Simulations never run inside ``execute()``/recompute: a command (or a script)
calls ``run_study``. Everything that can fail (conversion, assembly,
integration, cancel) happens before the document is touched, so a failed or
cancelled run leaves the document, its Result and all placements unchanged.
The result is written in one undo transaction.

``run_study`` is the scripting face of the one run pipeline
(``SimPhantWorkbench.run``: prepare, execute, commit), which the workbench's
Solve, ``simphant run`` and parameter studies use as well.
"""
from .document.results import get_result, result_key, result_keys, result_object
from .run import prepare, result_size, store_result

__all__ = ["run_study", "get_result", "result_object", "result_key", "result_keys", "store_result",
           "result_size"]


def run_study(study, progress=None, **overrides):
    """Simulate ``study`` and store the result in its Result object; return the solver Result.

    Parameters
    ----------
    study : Study object
    progress : callable(t, t_end) -> bool, optional
        Called during the integration; returning False cancels the run
        (``SimulationCancelled``, nothing is stored).
    **overrides
        Replace simulation settings of the study (``t_end``, ``dt``, ``method``,
        ``output_dt``, ``rtol``, ``atol``, ``time_constant``, ``damping_ratio``,
        ``baumgarte`` ...), in SI units.

    Raises
    ------
    ModelError, AssemblyError, SimulationError, SimulationCancelled
        With a message naming the study and the object at fault. The document
        is left as it was.

    The run starts from the current placements (after a playback, call
    ``playback.reset(study)`` first to start where the previous run did).
    Touched objects are recomputed first, so edited primitives are simulated
    as they are shown. The study's ``AnalysisMode`` decides between a dynamic
    simulation and a kinematic analysis.
    """
    run = prepare(study, **overrides)
    result = run.execute(progress)
    run.commit(result)
    return result
