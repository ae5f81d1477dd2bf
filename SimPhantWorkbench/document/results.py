"""Stored results: a study's Result object, its solver ``Result`` and its names.

A Result object holds the solver ``Result`` as an archive (loaded and checked by
its proxy, ``objects.result.Result.load``, cached per file) and the mapping of
the result's bodies and joints to document objects.
"""
from ..solver import ModelError
from .base import require_study, study_result

__all__ = ["result_object", "get_result", "require_result", "result_key", "result_keys"]


def result_object(study):
    """The study's Result object, or ``None``."""
    require_study(study)
    return study_result(study)


def get_result(study):
    """The stored solver ``Result`` of ``study`` (loaded from the document), or ``None``."""
    res_obj = result_object(study)
    if res_obj is None:
        return None
    return res_obj.Proxy.load(res_obj)


def require_result(study):
    """``(Result object, solver Result)`` of ``study``; ``ModelError`` when it has none."""
    res_obj = result_object(study)
    result = None if res_obj is None else res_obj.Proxy.load(res_obj)
    if result is None:
        raise ModelError("Study '%s' has no result yet: run it first" % study.Label)
    return res_obj, result


def result_key(study, obj):
    """The name under which a Body or Joint object (or a body's shape object) is in the result.

    Use it with the solver ``Result`` accessors:
    ``get_result(study).position(result_key(study, body))``.
    """
    try:
        return result_keys(study)[obj.Name]
    except KeyError:
        raise ModelError("'%s' is not a moving body or a joint of the result of study '%s'"
                         % (obj.Label, study.Label)) from None


def result_keys(study):
    """``{object Name: result name}`` of every Body, shape object and Joint in the result
    of ``study`` (``result_key`` of each, the stored result loaded and checked once)."""
    res_obj, result = require_result(study)
    keys = {}
    for names, objects in ((result.joint_names, res_obj.JointObjects),
                           (result.body_names, res_obj.ShapeObjects),
                           (result.body_names, res_obj.BodyObjects)):
        keys.update(zip(objects, names))
    return keys
