"""Outdated results: whether a study's stored result still matches the model.

A run keeps in its Result what it was computed from (``ModelStamp``: the parts
of the solver model's description, ``run.Run.stamp``, taken from the very
conversion the run simulated, and the run's overrides). ``status(study)``
converts the study as it stands now, the same way, and compares the parts: any
change of what is simulated -- a body's shape, placement, density or initial
velocity, a joint, load, force element, driver or coupler, gravity, the
study's settings, an object added or removed -- makes the result outdated, and
the reason names what changed. Labels, colours and visibility are not part of
the model and change nothing.

The run started from the placements in ``InitialPlacements``: the comparison is
made with the moving bodies there. Playback moves them to the poses of the
result's frames, which is no change of the model: while they stand at a frame
of the result the stored status holds (an edit made meanwhile, ``edited``,
marks the result outdated until a reset puts the bodies back and the model is
compared again). A moving body anywhere else was moved since the run.

``refresh(study)`` writes the status into the Result's ``Outdated`` and
``OutdatedReason`` (saved with the document); a new run clears them.
"""
import json
from collections import namedtuple

from .document.result_check import ResultError, check_placements, moving_targets
from .document.results import result_object
from .playback import Session
from .run import read_run
from .solver import ModelError
from .solver.batch import ENTITY_SECTIONS

__all__ = ["Status", "status", "refresh", "stored_status", "changed_parts"]

#: outdated: True, False, or None when it cannot be told (a result stored without
#: ``ModelStamp``, or a model that cannot be described); reason: what changed ("" if not)
Status = namedtuple("Status", ["outdated", "reason"])

_KINDS = dict(zip(ENTITY_SECTIONS, ("body", "joint", "load", "force element", "driver",
                                    "coupler")))
_SECTIONS = {"gravity": "gravity", "settings": "the study's settings"}
_SHOWN = 4


def stored_status(res_obj):
    """The status the Result object holds (``Outdated``, ``OutdatedReason``)."""
    outdated = bool(getattr(res_obj, "Outdated", False))
    return Status(outdated, str(getattr(res_obj, "OutdatedReason", "")) if outdated else "")


def changed_parts(doc, before, now):
    """What differs between two ``description_parts``, in words naming the objects."""
    words = []
    for key in sorted(set(before) | set(now)):
        if before.get(key) == now.get(key):
            continue
        section, _, name = key.partition("/")
        if not name:
            words.append(_SECTIONS.get(section, section))
            continue
        obj = doc.getObject(name)
        what = "%s '%s'" % (_KINDS.get(section, section), obj.Label if obj else name)
        if key not in now:
            what += " (removed)"
        elif key not in before:
            what += " (added)"
        words.append(what)
    if len(words) > _SHOWN:
        words = words[:_SHOWN] + ["%d more" % (len(words) - _SHOWN)]
    return ", ".join(words)


def _moved(study, res_obj):
    """Labels of the moving bodies' shape objects that are not where the run started."""
    _, initial = check_placements(res_obj)
    moved = []
    for k, obj in moving_targets(study, res_obj):
        pl, start = obj.Placement, initial[k]
        if tuple(pl.Base) != tuple(start.Base) or tuple(pl.Rotation.Q) != tuple(start.Rotation.Q):
            moved.append(obj.Label)
    return moved


def status(study, edited=False):
    """The ``Status`` of ``study``'s stored result against the model as it stands;
    ``None`` when the study has no result. ``edited``: the model was edited while the
    bodies stood at a pose of the result (see the module)."""
    res_obj = result_object(study)
    if res_obj is None:
        return None
    if not res_obj.ModelStamp:
        return Status(None, "")
    stamp = json.loads(res_obj.ModelStamp)
    try:
        moved = _moved(study, res_obj)
        if moved:
            if Session(study).frame_shown() is None:
                return Status(True, "moved since the run: %s" % ", ".join(
                    "'%s'" % label for label in moved))
            if edited:
                return Status(True, "the model was edited while the bodies stood at a pose "
                                    "of the result (reset them to compare it again)")
            return stored_status(res_obj)
        now = read_run(study, **stamp.get("overrides", {})).stamp()
    except (ModelError, ResultError) as exc:
        return Status(True, str(exc))
    if now is None:
        return Status(None, "")
    changed = changed_parts(study.Document, stamp["parts"], now["parts"])
    return Status(True, "changed since the run: " + changed) if changed else Status(False, "")


def refresh(study, edited=False):
    """``status(study, edited)`` written into the study's Result (only what differs; no
    undo step of its own); returns it (``None`` without a result)."""
    st = status(study, edited)
    if st is None or st.outdated is None:
        return st
    res_obj = result_object(study)
    if bool(res_obj.Outdated) != st.outdated:
        res_obj.Outdated = st.outdated
    if res_obj.OutdatedReason != st.reason:
        res_obj.OutdatedReason = st.reason
    if "Touched" in res_obj.State:
        res_obj.purgeTouched()
    return st
