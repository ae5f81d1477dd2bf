"""The run pipeline: prepare (reads the document) -> execute (solver) -> commit (stores).

See ``SimPhantWorkbench.run``. Everything that can fail before the solver
runs -- the study, the overrides, the model, the result size -- fails in
``prepare``, with a ``ModelError`` that names the study and the object at fault
(or a ``deps.DependencyError`` when a package the solver needs is missing or
broken), before anything is computed or written.
"""
import inspect

from ..deps import require_solver
from ..document.base import require_study, transaction
from ..document.conversion import convert
from ..document.installation import advice
from ..document.settings import analysis_mode, simulation_settings
from ..document.signatures import pending_signatures, repair_references, unchecked, \
    write_signatures
from ..solver import Model, ModelError, SimulationError
from ..solver.batch import comparable, description, description_parts
from ..solver.kinematics import run_analysis
from .store import check_result_size, store_result

__all__ = ["Run", "prepare", "read_run", "simulate_settings_names", "recompute_touched",
           "study_error"]


def simulate_settings_names():
    """The settings a run can override: the keyword arguments of ``Model.simulate``
    (``t_end``, ``dt``, ``method``, ``output_dt``, ``rtol``, ``atol``,
    ``time_constant``, ``damping_ratio``, ``baumgarte`` ...)."""
    return set(inspect.signature(Model.simulate).parameters) - {"self", "progress"}


def study_error(exc, study):
    """``exc`` (a ``SimPhantError``) with its message naming ``study`` first (once)."""
    context = "Study '%s'" % study.Label
    return exc if str(exc).startswith(context) else exc.prefixed(context)


def recompute_touched(study):
    """Recompute the document if the study or its shapes have pending changes.

    Shapes of edited primitives are only rebuilt by a recompute; running on
    stale geometry would simulate what the user no longer sees.
    """
    doc = study.Document
    objs = [study] + list(study.Group)
    for o in list(objs):
        shape = getattr(o, "ShapeObject", None)
        if shape is not None:
            objs.append(shape)
            objs.extend(shape.OutListRecursive)
    if any("Touched" in o.State or "Invalid" in o.State for o in objs if o is not None):
        doc.recompute()


class Run:
    """A study ready to run.

    Attributes
    ----------
    study : the Study object
    conversion : ``document.conversion.Conversion`` (the solver ``Model`` and the
        mappings between document objects and solver entities)
    settings : dict, the keyword arguments of ``Model.simulate`` (SI)
    analysis : "dynamic" or "kinematic" (the study's ``AnalysisMode``)
    overrides : dict, the settings given for this run only
    repointed : list of str, the references ``prepare`` re-pointed to the element they
        were made on after a model edit renumbered the elements (``document.signatures``)
    signatures : the signatures of references that had none (a document of an older
        version), taken as the run reads them and stored with its result
    """

    def __init__(self, study, conversion, settings, analysis, overrides):
        self.study = study
        self.conversion = conversion
        self.settings = settings
        self.analysis = analysis
        self.overrides = overrides
        self.repointed = []
        self.signatures = {}

    @property
    def model(self):
        return self.conversion.model

    @property
    def t_end(self):
        return float(self.settings["t_end"])

    def solver_settings(self):
        """The settings a solver task runs with (``solver.batch.Task``): the simulate
        keyword arguments, plus ``analysis`` when it is not the dynamic one."""
        settings = dict(self.settings)
        if self.analysis != "dynamic":
            settings["analysis"] = self.analysis
        return settings

    def stamp(self):
        """What a result of this run is computed from (kept in ``Result.ModelStamp``):
        ``{"parts": solver.batch.description_parts of the model and its solver settings,
        "overrides": ...}``. The description leaves the solver's sources out and names
        every entity by its document object's Name, so a new SimPhant or a renamed
        object changes nothing, and any change of what is simulated changes a part; it is
        ``solver.batch.comparable``: the round-off of a document saved and reopened (as
        FreeCAD 1.x writes it) changes nothing either.
        ``None`` when the model cannot be described (a load given as a Python callable).
        """
        names = self.conversion.object_names()
        d = description(self.model, self.solver_settings(), solver=False,
                        name=lambda e: names.get(id(e), e.name))
        if d is None:
            return None
        return {"parts": description_parts(comparable(d)), "overrides": dict(self.overrides)}

    def execute(self, progress=None):
        """Run the analysis (the pure solver: any thread; the document is not read).

        ``progress(t, t_end)`` is called during the run; returning False cancels it
        (``SimulationCancelled``). Errors name the study.
        """
        try:
            return run_analysis(self.model, self.settings, self.analysis, progress=progress)
        except (ModelError, SimulationError) as exc:
            raise study_error(exc, self.study) from None

    def commit(self, result):
        """Store ``result`` in the study's Result object (one undo step; the GUI thread)."""
        stamp = self.stamp()
        doc = self.study.Document
        with transaction(doc, "SimPhant: store result of '%s'" % self.study.Label):
            write_signatures(doc, self.signatures)
            store_result(self.study, self.conversion, result, stamp)


def prepare(study, recompute=True, **overrides):
    """A ``Run`` of ``study`` with the simulation settings ``overrides`` (SI units).

    ``recompute``: recompute the document first when the study or its shapes have
    pending changes (a parameter study recomputes itself). A reference whose element
    a model edit renumbered is re-pointed to the element it was made on (one undo step,
    listed in ``Run.repointed``; ``document.signatures``). ``ModelError`` naming
    the study (and the object at fault) when anything is wrong -- first of all a
    reference that no longer finds its element; the document is then not changed. ``deps.DependencyError`` (saying what to install) when the solver
    cannot run in this Python.
    """
    require_solver(advice)
    require_study(study)
    unknown = sorted(set(overrides) - simulate_settings_names())
    if unknown:
        raise ModelError("Study '%s': unknown simulation setting(s) %s; valid: %s"
                         % (study.Label, ", ".join(unknown),
                            ", ".join(sorted(simulate_settings_names()))))
    if recompute:
        recompute_touched(study)
    try:
        repointed = repair_references(study)
    except ModelError as exc:
        raise study_error(exc, study) from None
    with unchecked():      # just compared (and re-pointed): the conversion reads them once
        run = read_run(study, **overrides)
    run.repointed = repointed
    run.signatures = pending_signatures(study)
    try:
        check_result_size(study, run.conversion, run.settings, overrides)
    except ModelError as exc:
        raise study_error(exc, study) from None
    return run


def read_run(study, **overrides):
    """The ``Run`` of ``study`` as the document stands (no recompute, no check of the
    solver's packages or the result size): what ``prepare`` reads, e.g. to compare a
    stored result's ``Run.stamp`` with the model now. ``ModelError`` naming the study."""
    try:
        conversion = convert(study)
        settings = simulation_settings(study, **overrides)
    except ModelError as exc:
        raise study_error(exc, study) from None
    return Run(study, conversion, settings, analysis_mode(study), dict(overrides))
