"""Parameter studies: sweep a study over design variables, locally or on a Dask cluster.

::

    from SimPhantWorkbench import sweep
    table = sweep.run(study, {"Sheet.length": [200, 250, 300]},
                      {"period": "period(velocity(Rod).x)"})

``run`` returns a pandas DataFrame (a NumPy structured array without pandas),
one row per variant: its status, the variables, the metrics and why a failed
variant failed. ``execute`` returns the ``SweepOutcome`` behind it (rows,
statistics, the best variant, the Pareto front, Sobol' indices, kept series). The
design variables (``targets``), the specification (``spec``, also read from
TOML/JSON), the designs (``designs``), the run (``engine``), where it runs
(``executors``), the cache (``cache``), the optimiser (``optimize``), the
sensitivity indices (``sensitivity``), the outcome (``outcome``) and the files
(``outputs``) each have a module; ``apply_variant`` writes a variant's values into
the document.

Safe from a script without ``if __name__ == "__main__":``: the local cluster's
workers are started as separate programs, which never import the caller's script.
"""
from .spec import Spec, Variable, load_spec, make_spec, spec_from_dict

__all__ = ["run", "execute", "apply_variant", "run_parameter_study", "store_outcome",
           "apply_best", "stored_spec", "stored_rows", "study_of", "Spec", "Variable",
           "load_spec", "make_spec", "spec_from_dict", "Progress", "SweepOutcome"]


def __getattr__(name):
    # the engine needs FreeCAD (the conversion): imported on first use, so that
    # ``simphant`` builds its command line (and ``simphant view`` runs) without FreeCAD
    if name in ("Progress", "SweepOutcome"):
        from . import engine
        return getattr(engine, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def stored_spec(pstudy):
    """The specification (``Spec``) stored in a ParameterStudy object (its JSON
    ``Specification``); ``ModelError`` naming the object when it is not valid."""
    import json
    from ..solver import ModelError
    try:
        data = json.loads(pstudy.Specification or "{}")
    except ValueError as exc:
        raise ModelError("Parameter study '%s': the specification is not valid JSON: %s"
                         % (pstudy.Label, exc)) from None
    return spec_from_dict(data, "Parameter study '%s'" % pstudy.Label)


def stored_rows(pstudy):
    """The results stored in a ParameterStudy object (a list of dicts, one per variant),
    or [] when it has not run."""
    import os
    from .outputs import read_csv
    path = pstudy.ResultsFile
    if not path or not os.path.isfile(path):
        return []
    return read_csv(path)


def _execute(study, spec, **kwargs):
    from .engine import execute
    return execute(study, spec, **kwargs)


def _as_spec(variables, metrics, kwargs):
    if isinstance(variables, Spec):
        if metrics is not None:
            raise TypeError("give the metrics in the Spec, not separately")
        return variables
    keys = ("design", "count", "seed", "settings", "objective", "batch_size", "optimize",
            "timeout", "keep")
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
        (``solver.metrics``: ``"max(reaction_force(Hinge))"`` ...; ``fem.metric``:
        ``"max_stress(Rod, peak:reaction(Hinge))"``, a CalculiX run per variant on this
        process, which has the document; ``clearance``: ``"min(clearance(Slider,
        Crank))"``, ``"interference_time(Bar, Block)"`` of two bodies' solids)
    design, count, seed : the design: "grid" (full factorial, default), "lhs",
        "uniform", "normal", "sobol", "halton" or "saltelli" (Sobol' indices) with
        ``count`` samples and a ``seed``
    settings : dict of simulation settings for every variant (``t_end``, ``dt`` ...)
    objective : ``{"minimize": metric}`` or ``{"maximize": metric}`` (lists: several
        objectives, a Pareto front), with ``"constraints": ["metric <= 3.0", ...]``
    optimize : ``{"sampler": "tpe", "trials": 40}``: Optuna chooses the variants
    timeout : seconds a variant may take; keep : time series kept per variant
    executor, scheduler, workers, client, cache_dir, progress, batch_size,
    connect_timeout, worker_timeout, retries : where and how it runs (``engine.execute``)

    Returns a pandas DataFrame (or a NumPy structured array without pandas):
    variant, status ("ok", "failed", "lost", "cancelled"), one column per variable and
    metric, message, warnings, error, key (model fingerprint), cached, worker, sim_time,
    new_kernels. The DataFrame's ``attrs["sweep"]`` holds the statistics.
    """
    return execute(study, variables, metrics, **kwargs).table()


def apply_variant(study, values):
    """Give the document the design-variable values of one variant, in one undo step.

    ``values`` maps targets (``"Rod.Height"``) to numbers; geometric changes are
    recomputed. Used to write the best variant back. The references' signatures are taken
    anew from the elements their names designate then, as the variant was run with them
    (``document.signatures``): a varied length is no moved reference.
    """
    from ..document.base import transaction
    from ..document.signatures import retake_signatures, unchecked
    from .targets import resolve_target
    doc = study.Document
    targets = [(resolve_target(doc, t), v) for t, v in values.items()]
    with transaction(doc, "SimPhant: apply parameter-study variant"):
        with unchecked():
            for target, value in targets:
                target.set(value)
            doc.recompute()
        retake_signatures(study)
    return targets


def study_of(pstudy):
    """The study a ParameterStudy object belongs to; ``ModelError`` when it is in none."""
    from ..document.base import find_study
    from ..solver import ModelError
    study = None
    for parent in pstudy.InList:
        study = find_study(parent)
        if study is not None:
            break
    if study is None:
        raise ModelError("Parameter study '%s' is not in a study" % pstudy.Label)
    return study


def store_outcome(pstudy, outcome):
    """Write ``outcome`` (its results table and counts) into a ParameterStudy, one undo step."""
    import os
    import shutil
    import tempfile
    from ..document.base import transaction
    from .outputs import write_csv
    tmpdir = tempfile.mkdtemp(prefix="simphant_sweep_")
    try:
        path = write_csv(outcome, os.path.join(tmpdir, "%s_results.csv" % pstudy.Name))
        best = outcome.best()
        with transaction(pstudy.Document, "SimPhant: store parameter-study results"):
            pstudy.ResultsFile = path
            pstudy.Variants = len(outcome.rows)
            pstudy.Succeeded = outcome.count("ok")
            pstudy.Failed = outcome.count("failed") + outcome.count("lost")
            pstudy.BestVariant = -1 if best is None else int(best["variant"])
            pstudy.WallTime = float(outcome.stats.get("wall_time", 0.0))
            pstudy.purgeTouched()
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def run_parameter_study(pstudy, **kwargs):
    """Run a ParameterStudy object's specification on its study and store the results.

    ``kwargs`` as ``engine.execute`` (executor, scheduler, workers, client,
    cache_dir, progress, batch_size). Returns the ``SweepOutcome``.
    """
    study = study_of(pstudy)
    outcome = _execute(study, stored_spec(pstudy), **kwargs)
    store_outcome(pstudy, outcome)
    return outcome


def apply_best(pstudy):
    """Write the best variant's values (by the objective) into the document, one undo step.

    Returns the best row; ``ModelError`` when there is no objective or no
    finished variant.
    """
    from ..solver import ModelError
    spec = stored_spec(pstudy)
    if not spec.objective:
        raise ModelError("Parameter study '%s' has no single objective (none, or several: "
                         "pick a variant of the Pareto front with apply_variant)"
                         % pstudy.Label)
    if pstudy.BestVariant < 0:
        raise ModelError("Parameter study '%s' has no best variant (not run, or no variant "
                         "finished)" % pstudy.Label)
    rows = stored_rows(pstudy)
    row = next((r for r in rows if int(r["variant"]) == pstudy.BestVariant), None)
    if row is None:
        raise ModelError("Parameter study '%s': its results have no variant %d"
                         % (pstudy.Label, pstudy.BestVariant))
    apply_variant(study_of(pstudy), {v.target: row[v.name] for v in spec.variables})
    return row
