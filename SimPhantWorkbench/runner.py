"""Running a study from a script: convert, simulate, store the result in the document.

Simulations never run inside ``execute()``/recompute: a command (or a script)
calls ``run_study``. Everything that can fail (conversion, assembly,
integration, cancel) happens before the document is touched, so a failed or
cancelled run leaves the document, its Result and all placements unchanged.
The result is written in one undo transaction.

``run_study`` is the scripting face of the one run pipeline
(``SimPhantWorkbench.run``: prepare, execute, commit), which the workbench's
Solve, ``simphant run`` and parameter studies use as well.

A run refuses a reference whose element was changed since it was picked (its geometric
signature, ``document.signatures``); ``accept_references`` takes the elements as they are
now when the change was deliberate.
"""
from .document.results import get_result, result_key, result_keys, result_object
from .run import prepare, result_size, store_result

__all__ = ["run_study", "accept_references", "get_result", "result_object", "result_key", "result_keys", "store_result",
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


def accept_references(objects):
    """Accept the elements the references of ``objects`` designate as they are now.

    For a deliberate edit of a referenced element (the pin enlarged on purpose), which
    runs refuse ("Reference2 ... was a cylinder r=20 mm ...; it is now a cylinder
    r=22 mm"): the references' signatures are taken anew, so that the next run uses the
    changed element. ``objects``: a joint, load or force element, a study (all of its
    members), or a list of them. One undo step, named after the objects; returns the
    objects whose references were accepted.

    Raises
    ------
    ModelError
        Naming the object and the reference when an element no longer exists at all
        (re-pick it), or an object that has no references; nothing is changed.
    """
    from .document.signatures import accept_signatures, accepting_owners
    objects = list(objects) if isinstance(objects, (list, tuple)) else [objects]
    owners = accepting_owners(objects)
    accept_signatures(owners, "SimPhant: accept current elements of "
                      + ", ".join(o.Label for o in owners))
    return owners
