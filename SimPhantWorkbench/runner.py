"""Running a study: convert, simulate, store the result in the document.

Simulations never run inside ``execute()``/recompute: a command (or a script)
calls ``run_study``. Everything that can fail (conversion, assembly,
integration, cancel) happens before the document is touched, so a failed or
cancelled run leaves the document, its Result and all placements unchanged.
The result is written in one undo transaction.
"""
import inspect
import os
import shutil
import tempfile

import FreeCAD

from .conversion import convert, simulation_settings
from .objects.base import is_type, transaction
from .objects.study import study_result
from .solver import Model, ModelError, SimulationError

__all__ = ["run_study", "get_result", "result_object", "result_key", "store_result"]


def _require_study(study):
    if not is_type(study, "SimPhant::Study"):
        raise ModelError("'%s' is not a SimPhant study" % getattr(study, "Label", study))


def _recompute_touched(study):
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
    as they are shown.
    """
    _require_study(study)
    allowed = set(inspect.signature(Model.simulate).parameters) - {"self", "progress"}
    unknown = sorted(set(overrides) - allowed)
    if unknown:
        raise ModelError("Study '%s': unknown simulation setting(s) %s; valid: %s"
                         % (study.Label, ", ".join(unknown), ", ".join(sorted(allowed))))
    _recompute_touched(study)
    conv = convert(study)
    settings = simulation_settings(study, **overrides)
    try:
        result = conv.model.simulate(progress=progress, **settings)
    except (ModelError, SimulationError) as exc:
        raise exc.prefixed("Study '%s'" % study.Label) from None
    store_result(study, conv, result)
    return result


def store_result(study, conv, result):
    """Write ``result`` (and what playback needs) into the study's Result object.

    One undo transaction; creates the Result object if the study has none.
    """
    from . import factory
    doc = study.Document
    tmpdir = tempfile.mkdtemp(prefix="simphant_")
    created = None
    try:
        res_obj = study_result(study)
        with transaction(doc, "SimPhant: store result of '%s'" % study.Label):
            if res_obj is None:
                res_obj = created = factory.make_result(study)
            path = os.path.join(tmpdir, "%s.npz" % res_obj.Name)
            result.save(path)
            res_obj.ResultFile = path
            names = result.body_names
            by_name = {conv.body_map[bd.obj.Name].name: bd for bd in conv.moving}
            moving = [by_name[n] for n in names]
            res_obj.BodyObjects = [bd.obj.Name for bd in moving]
            res_obj.ShapeObjects = [bd.shape.Name for bd in moving]
            res_obj.CoGLocal = [FreeCAD.Vector(*bd.cog_local) for bd in moving]
            res_obj.InitialPlacements = [FreeCAD.Placement(bd.shape.Placement) for bd in moving]
            res_obj.JointObjects = [jd.obj.Name for jd in conv.joints]
            res_obj.NumberOfFrames = len(result.t)
            res_obj.EndTime = float(result.t[-1]) if len(result.t) else 0.0
            res_obj.Method = str(result.settings.get("method", ""))
            res_obj.Steps = int(result.settings.get("steps", 0) or 0)
            res_obj.WallTime = float(result.settings.get("wall_time", 0.0) or 0.0)
            res_obj.AssemblySummary = result.assembly.summary() if result.assembly is not None \
                else str(getattr(result, "assembly_summary", ""))
            res_obj.purgeTouched()
            res_obj.Proxy.remember(res_obj, result)
    except Exception:
        if created is not None:
            try:
                doc.removeObject(created.Name)
            except Exception:  # noqa: BLE001 - already removed by the abort
                pass
        raise
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def result_object(study):
    """The study's Result object, or ``None``."""
    _require_study(study)
    return study_result(study)


def get_result(study):
    """The stored solver ``Result`` of ``study`` (loaded from the document), or ``None``."""
    res_obj = result_object(study)
    if res_obj is None:
        return None
    return res_obj.Proxy.load(res_obj)


def result_key(study, obj):
    """The name under which a Body or Joint object (or a body's shape object) is in the result.

    Use it with the solver ``Result`` accessors:
    ``get_result(study).position(result_key(study, body))``.
    """
    res_obj = result_object(study)
    result = get_result(study)
    if res_obj is None or result is None:
        raise ModelError("Study '%s' has no result yet: run it first" % study.Label)
    if obj.Name in res_obj.BodyObjects:
        return result.body_names[list(res_obj.BodyObjects).index(obj.Name)]
    if obj.Name in res_obj.ShapeObjects:
        return result.body_names[list(res_obj.ShapeObjects).index(obj.Name)]
    if obj.Name in res_obj.JointObjects:
        return result.joint_names[list(res_obj.JointObjects).index(obj.Name)]
    raise ModelError("'%s' is not a moving body or a joint of the result of study '%s'"
                     % (obj.Label, study.Label))
