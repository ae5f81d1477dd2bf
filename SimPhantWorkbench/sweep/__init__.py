"""Parameter studies: sweep a study over design variables, locally or on a Dask cluster.

::

    from SimPhantWorkbench import sweep
    table = sweep.run(study, {"Sheet.length": [200, 250, 300]},
                      {"period": "period(velocity(Rod).x)"})

``run`` returns a pandas DataFrame (a NumPy structured array without pandas),
one row per variant: its status, the variables, the metrics and why a failed
variant failed. ``execute`` returns the ``SweepOutcome`` behind it (rows,
statistics, the best variant). The design variables (``targets``), the
specification (``spec``, also read from TOML/JSON), the run (``engine``), where
it runs (``executors``) and the files (``outputs``) each have a module;
``apply_variant`` writes a variant's values into the document.
"""
from .engine import Progress, SweepOutcome, execute as _execute
from .spec import Spec, Variable, load_spec, make_spec, spec_from_dict

__all__ = ["run", "execute", "apply_variant", "Spec", "Variable", "load_spec", "make_spec",
           "spec_from_dict", "Progress", "SweepOutcome"]


def _as_spec(variables, metrics, kwargs):
    if isinstance(variables, Spec):
        if metrics is not None:
            raise TypeError("give the metrics in the Spec, not separately")
        return variables
    keys = ("design", "count", "seed", "settings", "objective", "batch_size")
    spec_kw = {k: kwargs.pop(k) for k in keys if k in kwargs}
    return make_spec(variables, metrics, **spec_kw)


def execute(study, variables, metrics=None, **kwargs):
    """Run a sweep; a ``SweepOutcome`` (see ``run`` for the arguments)."""
    spec = _as_spec(variables, metrics, kwargs)
    return _execute(study, spec, **kwargs)


def run(study, variables, metrics=None, **kwargs):
    """Sweep ``study`` over design variables; the results table.

    Parameters
    ----------
    study : Study object
    variables : dict ``{"OBJECT.PROPERTY": [values]}``, a list of ``Variable``\\ s or
        dicts, or a complete ``Spec`` (then no ``metrics``)
    metrics : dict ``{name: expression}`` or a list of expressions
        (``solver.metrics``: ``"max(reaction_force(Hinge))"`` ...)
    design, count, seed : the design: "grid" (full factorial, default), "lhs",
        "uniform" or "normal" with ``count`` samples and a ``seed``
    settings : dict of simulation settings for every variant (``t_end``, ``dt`` ...)
    objective : ``{"minimize": metric}`` or ``{"maximize": metric}``
    executor, scheduler, workers, client, cache_dir, progress, batch_size :
        where and how it runs (``engine.execute``)

    Returns a pandas DataFrame (or a NumPy structured array without pandas):
    variant, status ("ok", "failed", "cancelled"), one column per variable and
    metric, message, error, key (model fingerprint), cached, worker, sim_time,
    new_kernels. The DataFrame's ``attrs["sweep"]`` holds the statistics.
    """
    return execute(study, variables, metrics, **kwargs).table()


def apply_variant(study, values):
    """Give the document the design-variable values of one variant, in one undo step.

    ``values`` maps targets (``"Rod.Height"``) to numbers; geometric changes are
    recomputed. Used to write the best variant back.
    """
    from ..objects.base import transaction
    from .targets import resolve_target
    doc = study.Document
    targets = [(resolve_target(doc, t), v) for t, v in values.items()]
    with transaction(doc, "SimPhant: apply parameter-study variant"):
        for target, value in targets:
            target.set(value)
        doc.recompute()
    return targets
