"""Geometric signatures of picked references: references that survive model edits.

A reference names an element by its index, ``Crank_1.CrankshaftSolid.Face1``. When the
part is edited, FreeCAD may renumber the elements (on 0.20 always, on 1.x where its
element maps lose track), and the same name then designates another face: a joint would
silently sit on the journal instead of the crank pin. So when a reference is made, what it
pointed to is written down with it -- its *signature*: the element's kind (vertex, line,
circle, plane, cylinder, sphere, cone), its point and axis as ``references.reference_frame``
takes them, and its radius, in the coordinates of the feature that holds it (the
placements of that feature and of everything above it left out: moving the body, the
``App::Link`` showing a part of another file, or a container changes nothing).

The signatures are kept in the owning object's ``ReferenceSignatures`` map (saved with the
document): property name -> JSON ``{"ref": "<object Name>:<subname>", "kind", "point",
"axis", "radius"}``. ``ref`` says which value of the reference the signature was taken
of: a reference set since (re-picked) without a signature of its own has none.

* ``record_signature`` takes one when a reference is set (the objects' ``onChanged``: GUI
  picks, the factory, assembly import, scripts); a document saved by an older version has
  none, ``pending_signatures``/``write_signatures`` take them when a run's result is stored;
* ``verify_reference`` (every reading of a joint's, load's or force element's reference)
  raises a ``ModelError`` naming the object and saying what changed when the element the
  name designates no longer matches its signature;
* ``repair_references`` (``run.prepare``: every Solve, Check model, command-line run and
  sweep) re-points such a reference to the element of the same sub-object that matches the
  signature, when exactly one does (one undo step, its title naming the object and both
  elements), or refuses the run naming the object, the reference and what changed;
* ``accept_signatures`` (``runner.accept_references``, the GUI's Accept current elements)
  takes the signatures of chosen objects' references anew when the user changed a
  referenced element on purpose (a pin enlarged by design); it refuses, naming the object,
  a reference whose element no longer exists at all;
* a parameter study checks its study once (``check_references``) and runs its variants,
  which change the geometry on purpose, ``unchecked``; a variant written into the document
  takes the signatures anew (``retake_signatures``).

FreeCAD 1.x renames a referenced element itself when its element maps follow it through a
recompute; the signature then stays what the reference was made on, under the new name.
"""
import json
from collections import namedtuple
from contextlib import contextmanager

import numpy as np

import FreeCAD

from ..solver import ModelError
from .base import STUDY, is_type, object_label, transaction
from .links import REFERENCE_TYPE, reference_of
from .references import element_geometry, element_names, is_datum_reference, local_element

__all__ = ["SIGNATURES", "LENGTH_TOLERANCE", "ANGLE_TOLERANCE", "reference_properties",
           "signature", "stored_signature", "record_signature", "same_geometry", "describe",
           "ReferenceCheck", "check_reference", "verify_reference", "repair_references",
           "check_references", "retake_signatures", "accepting_owners", "accept_signatures",
           "pending_signatures", "write_signatures", "unchecked", "ACCEPT_HOW"]

#: the property of joints, loads and force elements holding their references' signatures
SIGNATURES = "ReferenceSignatures"
#: points and radii closer than this [mm] (plus 1e-9 of the coordinate's size) are the same
LENGTH_TOLERANCE = 1e-4
#: axes with 1 - |cos| below this are the same (either sense: a cylinder's axis sign is a
#: modelling accident, and joints align anti-parallel sides anyway)
ANGLE_TOLERANCE = 1e-7

#: how the user accepts a deliberately changed element (``accept_signatures``)
ACCEPT_HOW = "select the object and use SimPhant > Accept current elements, or " \
    "runner.accept_references(obj)"

_ELEMENT_TYPE = {"vertex": "Vertex", "line": "Edge", "circle": "Edge", "plane": "Face",
                 "cylinder": "Face", "sphere": "Face", "cone": "Face"}


_unchecked = [0]


@contextmanager
def unchecked():
    """Within: references are not compared with their signatures (``verify_reference``,
    ``repair_references`` and ``pending_signatures`` do nothing). For the variants of a
    parameter study that change the geometry on purpose: a varied radius is no moved
    reference; the study is checked as it stands before its variants are applied. And for
    the conversion of a run (``run.prepare``), whose references ``repair_references`` has
    just compared: each run reads every referenced element's geometry once. Everywhere
    else (a recompute of a joint, a panel's preview, a stored result compared with the
    model) ``verify_reference`` still compares."""
    _unchecked[0] += 1
    try:
        yield
    finally:
        _unchecked[0] -= 1


def reference_properties(owner):
    """Names of ``owner``'s picked-reference properties (``links.REFERENCE_TYPE``)."""
    return [p for p in owner.PropertiesList if owner.getTypeIdOfProperty(p) == REFERENCE_TYPE]


def _key(obj, sub):
    return "%s:%s" % (obj.Name, sub)


def _geometry_of(element, label):
    kind, point, axis, radius = element_geometry(element, label)
    return {"kind": kind, "point": [float(c) for c in point],
            "axis": None if axis is None else [float(c) for c in axis], "radius": radius}


def _element_signature(obj, sub):
    """``signature`` of element ``sub`` of ``obj``, raising what reading a missing or
    unsupported element raises; ``None`` for a datum."""
    if is_datum_reference(obj, sub or ""):
        return None
    sig = _geometry_of(local_element(obj, sub), "%s.%s" % (obj.Label, sub))
    sig["ref"] = _key(obj, sub)
    return sig


def signature(obj, sub):
    """The signature of element ``sub`` of ``obj`` (a dict, see the module), or ``None``
    when ``sub`` names no element or a datum (a whole object, a datum coordinate system,
    line, plane or point, or an edge or face of one: its frame is its placement, which no
    renumbering moves) or it cannot be read (the reference is then refused where it is used)."""
    try:
        return _element_signature(obj, sub)
    except Exception:  # noqa: BLE001 - missing or unsupported elements are refused elsewhere
        return None


def stored_signature(owner, prop):
    """The signature kept for ``owner``'s reference property ``prop``, or ``None``."""
    text = dict(getattr(owner, SIGNATURES, None) or {}).get(prop)
    if not text:
        return None
    try:
        sig = json.loads(text)
    except ValueError:
        return None
    return sig if isinstance(sig, dict) and "kind" in sig and "ref" in sig else None


def _current(owner, prop):
    """``(obj, sub)`` of ``owner``'s reference ``prop``, or ``None`` (empty, unusable)."""
    try:
        return reference_of(getattr(owner, prop), owner)
    except ModelError:
        return None


def _set_entry(owner, prop, sig):
    entries = dict(getattr(owner, SIGNATURES) or {})
    if sig is None:
        if prop not in entries:
            return
        entries.pop(prop)
    else:
        text = json.dumps(sig, sort_keys=True)
        if entries.get(prop) == text:
            return
        entries[prop] = text
    setattr(owner, SIGNATURES, entries)


def record_signature(owner, prop):
    """Take the signature of ``owner``'s reference ``prop`` as it is now (or drop it when
    the reference names no element); when FreeCAD renames the element during a recompute,
    keep the signature for the new name. Not while the document is being restored or undone:
    the signatures then come back with the references (on restore the map, listed after
    the references, is read after them anyway)."""
    if not hasattr(owner, SIGNATURES):
        return
    doc = owner.Document
    if getattr(doc, "Restoring", False) or getattr(doc, "Transacting", False) \
            or "Restore" in owner.State:
        return
    ref = _current(owner, prop)
    old = stored_signature(owner, prop)
    if ref is not None and old is not None and _recomputing():
        # FreeCAD renamed the element as it recomputed a part (1.x's element maps): the
        # same element as far as FreeCAD can tell. The signature stays what the reference
        # was made on, now for the new name; ``check_reference`` compares.
        old["ref"] = _key(*ref)
        _set_entry(owner, prop, old)
        return
    _set_entry(owner, prop, None if ref is None else signature(*ref))


def _recomputing():
    """Whether a document is being recomputed (a reference set then is FreeCAD's update of
    an element name, not a pick)."""
    return any(getattr(d, "Recomputing", False) for d in FreeCAD.listDocuments().values())


def _close(a, b):
    return abs(a - b) <= LENGTH_TOLERANCE + 1e-9 * max(abs(a), abs(b))


def same_geometry(old, new):
    """Whether two signatures describe the same element geometry (kind, radius, axis and
    point within ``LENGTH_TOLERANCE`` and ``ANGLE_TOLERANCE``)."""
    if old["kind"] != new["kind"]:
        return False
    if (old.get("radius") is None) != (new.get("radius") is None):
        return False
    if old.get("radius") is not None and not _close(old["radius"], new["radius"]):
        return False
    if (old.get("axis") is None) != (new.get("axis") is None):
        return False
    if old.get("axis") is not None and \
            1.0 - abs(float(np.dot(old["axis"], new["axis"]))) > ANGLE_TOLERANCE:
        return False
    return all(_close(a, b) for a, b in zip(old["point"], new["point"]))


def _vector(v):
    return "(%s)" % ", ".join("%.6g" % (0.0 if abs(c) < 5e-13 else c) for c in v)


def describe(sig):
    """``"a cylinder r=20 mm at (60, 0, 40) mm, axis (0, 0, 1)"``."""
    kind = sig["kind"]
    text = "%s %s" % ("an" if kind[0] in "aeiou" else "a", kind)
    if sig.get("radius") is not None:
        text += " r=%.6g mm" % sig["radius"]
    text += " at %s mm" % _vector(sig["point"])
    if sig.get("axis") is not None:
        text += ", axis %s" % _vector(sig["axis"])
    return text


ReferenceCheck = namedtuple("ReferenceCheck", [
    "status",    # "ok" (matches, or nothing to check), "moved" (new_sub matches) or "broken"
    "obj",       # the referenced object (None for "ok")
    "sub",       # the subname now stored
    "new_sub",   # "moved": the subname of the element matching the signature
    "message",   # "moved"/"broken": what changed, naming the owner and the reference
])

_OK = ReferenceCheck("ok", None, None, None, None)


def check_reference(owner, prop):
    """Compare the element ``owner``'s reference ``prop`` designates now with its signature
    (``ReferenceCheck``). Without a signature of the reference's current value there is
    nothing to compare ("ok")."""
    sig = stored_signature(owner, prop)
    ref = _current(owner, prop)
    if sig is None or ref is None or sig["ref"] != _key(*ref):
        return _OK
    obj, sub = ref
    label = "%s.%s" % (obj.Label, sub)
    try:
        now = _geometry_of(local_element(obj, sub), label)
    except ModelError as exc:   # the element vanished, or is of a kind no longer supported
        now, gone = None, str(exc).split(": ", 1)[-1]
    except Exception:  # noqa: BLE001 - e.g. a singular placement: the conversion names it
        return _OK
    if now is not None and same_geometry(sig, now):
        return _OK
    try:
        matches = [name for name, element in element_names(obj, sub, _ELEMENT_TYPE[sig["kind"]])
                   if _matches(sig, element, label)]
    except Exception:  # noqa: BLE001 - the shape cannot be read: nothing to re-point to
        matches = []
    what = "%s: %s '%s' was %s; " % (object_label(owner), prop, label, describe(sig))
    what += ("it is now %s" % describe(now)) if now is not None else "now: %s" % gone
    if len(matches) == 1:
        return ReferenceCheck("moved", obj, sub, matches[0], what + " (the model was edited and "
                              "the element renumbered): the element that matches is '%s.%s'"
                              % (obj.Label, matches[0]))
    why = "no element of '%s' matches it any more" % obj.Label if not matches else \
        "several elements match it (%s)" % ", ".join(m.rsplit(".", 1)[-1] for m in matches)
    fix = "re-pick it" if now is None else "re-pick it, or, if the change was deliberate, " \
        "accept the element as it is now (%s)" % ACCEPT_HOW
    return ReferenceCheck("broken", obj, sub, None, "%s; %s - %s" % (what, why, fix))


def _matches(sig, element, label):
    try:
        return same_geometry(sig, _geometry_of(element, label))
    except Exception:  # noqa: BLE001 - unsupported geometry matches nothing
        return False


def _problem(check):
    return check.message + ("; Check model or Solve re-points it" if check.status == "moved"
                            else "")


def verify_reference(owner, prop):
    """``ModelError`` (see ``check_reference``) when ``owner``'s reference ``prop`` no longer
    designates the element it was made on; a renumbered one says that running re-points
    it. Objects without signatures (a joint being drafted) pass."""
    if not hasattr(owner, SIGNATURES) or _unchecked[0]:
        return
    check = check_reference(owner, prop)
    if check.status != "ok":
        raise ModelError(_problem(check))


def _checked_owners(study):
    """Members of ``study`` whose references give frames (joints with explicit frames
    use their references only to name the bodies)."""
    return [o for o in study.Group if hasattr(o, SIGNATURES)
            and str(getattr(o, "FrameSource", "References")) != "Placements"]


def _study_checks(study):
    return [(owner, prop, check_reference(owner, prop))
            for owner in _checked_owners(study) for prop in reference_properties(owner)]


def check_references(study):
    """``ModelError`` listing every reference of ``study`` that no longer designates the
    element it was made on (re-pointable or not; see ``verify_reference``); changes
    nothing. What a parameter study checks before its variants (``unchecked``)."""
    problems = [_problem(c) for _, _, c in _study_checks(study) if c.status != "ok"]
    if problems:
        raise ModelError("; ".join(problems))


def repair_references(study):
    """Re-point every reference of ``study`` whose element was renumbered (see the module);
    returns one message per re-pointed reference. ``ModelError`` listing every reference
    that cannot be re-found, before anything changes."""
    if _unchecked[0]:
        return []
    checks = _study_checks(study)
    broken = [c.message for _, _, c in checks if c.status == "broken"]
    if broken:
        raise ModelError("; ".join(broken))
    moved = [(owner, prop, c) for owner, prop, c in checks if c.status == "moved"]
    if not moved:
        return []
    notes = ["%s: %s re-pointed from '%s.%s' to '%s.%s' (the model was edited and the element "
             "renumbered)" % (object_label(owner), prop, c.obj.Label, c.sub, c.obj.Label,
                              c.new_sub) for owner, prop, c in moved]
    title = "SimPhant: re-point " + ", ".join(
        "%s %s %s -> %s" % (owner.Label, prop, c.sub.rsplit(".", 1)[-1],
                            c.new_sub.rsplit(".", 1)[-1]) for owner, prop, c in moved)
    with transaction(study.Document, title):
        for owner, prop, c in moved:
            setattr(owner, prop, (c.obj, [c.new_sub]))
            record_signature(owner, prop)
            owner.recompute()
    for note in notes:
        FreeCAD.Console.PrintMessage(note + "\n")
    return notes


def retake_signatures(study):
    """Take the signature of every reference of ``study`` anew from the element its name
    designates now (the caller holds the transaction): after SimPhant itself changed the
    geometry on purpose -- a parameter study's variant written into the document, whose
    run took the references by name as they are (``unchecked``)."""
    for owner in _checked_owners(study):
        for prop in reference_properties(owner):
            ref = _current(owner, prop)
            _set_entry(owner, prop, None if ref is None else signature(*ref))


def accepting_owners(objects):
    """The objects whose references ``accept_signatures`` takes anew: each of ``objects``
    that keeps signatures (a joint, load or force element), and for a study all of its
    members that do. ``ModelError`` naming an object that has no references."""
    owners = []
    for obj in objects:
        found = _checked_owners(obj) if is_type(obj, STUDY) else [obj]
        if not is_type(obj, STUDY) and not hasattr(obj, SIGNATURES):
            raise ModelError("%s has no picked references to accept" % object_label(obj))
        owners.extend(o for o in found if o not in owners)
    return owners


def _accepted(owner, prop):
    """The signature ``accept_signatures`` stores for ``owner``'s reference ``prop`` (None:
    empty, a datum); ``ModelError`` naming the owner when the element is gone."""
    ref = _current(owner, prop)
    if ref is None:
        if stored_signature(owner, prop) is not None:
            raise ModelError("%s: %s no longer designates an element (the object it was on "
                             "is gone) - re-pick it" % (object_label(owner), prop))
        return None
    obj, sub = ref
    try:
        return _element_signature(obj, sub)
    except Exception as exc:  # noqa: BLE001 - the element no longer exists
        raise ModelError("%s: %s '%s.%s' no longer exists (%s) - re-pick it"
                         % (object_label(owner), prop, obj.Label, sub,
                            str(exc).split(": ", 1)[-1])) from None


def accept_signatures(owners, title):
    """Take the signatures of ``owners``' references anew from the elements their names
    designate now, in one undo step ``title``: the user's word that a referenced element
    was changed on purpose (a pin enlarged by design), so that a run no longer refuses it.
    ``ModelError`` naming the object and the reference when an element no longer exists
    at all, before anything changes (no undo step is opened)."""
    plan = [(owner, prop, _accepted(owner, prop))
            for owner in owners for prop in reference_properties(owner)]
    if not owners:
        return
    with transaction(owners[0].Document, title):
        for owner, prop, sig in plan:
            _set_entry(owner, prop, sig)
        for owner in owners:
            owner.touch()
            owner.recompute()


def pending_signatures(study):
    """``{owner Name: {property: signature}}`` of the references of ``study`` that have
    none (documents of older versions): taken now, written with the run's result
    (``write_signatures``)."""
    out = {}
    if _unchecked[0]:
        return out
    for owner in _checked_owners(study):
        for prop in reference_properties(owner):
            ref = _current(owner, prop)
            old = stored_signature(owner, prop)
            if ref is None or (old is not None and old["ref"] == _key(*ref)):
                continue
            sig = signature(*ref)
            if sig is not None:
                out.setdefault(owner.Name, {})[prop] = sig
    return out


def write_signatures(doc, pending):
    """Store ``pending_signatures``' values (the caller holds the transaction); a reference
    changed since keeps what it has."""
    for name, entries in pending.items():
        owner = doc.getObject(name)
        if owner is None or not hasattr(owner, SIGNATURES):
            continue
        for prop, sig in entries.items():
            ref = _current(owner, prop)
            if ref is not None and _key(*ref) == sig["ref"]:
                _set_entry(owner, prop, sig)
