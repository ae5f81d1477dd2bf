"""SimPhant's picked references as they are stored: same-document links, and the migration
of references stored by older versions.

A joint, a force and a force element store their picked vertex, edge or face in an
``App::PropertyLinkSubGlobal`` (``REFERENCE_TYPE``): an object and a sub-element path,
``(obj, ["Body.Pad.Face3"])``, of the object's own document, at any depth of its
containers. Earlier versions used ``App::PropertyXLinkSub``; on FreeCAD 1.0, undoing the
creation of a Python feature holding one fails ("invalid container") and leaves the
document corrupt, which the plain sub-link does not. A plain sub-link cannot point into
another document, so a cross-document reference is handled explicitly:

* the factory refuses one, naming the object and its document (a part linked from another
  file is picked on its ``App::Link`` in this document, which is what a click gives);
* ``migrated_reference`` turns a stored value of an older version into the value of the
  new property: unchanged within the document; a cross-document one re-expressed through
  the one ``App::Link`` of this document that shows the object (``(link, subs)``, or
  ``(link, ["Body.Pad.Face3"])`` when the link shows a container of it), else left where
  it is with a message saying why (``reference_of`` then refuses it, naming it).
"""
from ..solver import ModelError
from .massprops import ancestors

__all__ = ["REFERENCE_TYPE", "LEGACY_REFERENCE_TYPES", "reference_of", "document_label",
           "foreign_reference_error", "migrated_reference"]

#: the property type of every picked reference (``objects``: Reference, Reference1/2)
REFERENCE_TYPE = "App::PropertyLinkSubGlobal"

#: property types older versions stored references in, migrated to ``REFERENCE_TYPE``
LEGACY_REFERENCE_TYPES = ("App::PropertyXLinkSub", "App::PropertyXLinkSubHidden",
                          "App::PropertyLinkSub", "App::PropertyLinkSubChild",
                          "App::PropertyLinkSubHidden")


def document_label(doc):
    """``"'Parts' (/path/parts.FCStd)"``: a document as messages name it."""
    path = getattr(doc, "FileName", "") or "not saved"
    return "'%s' (%s)" % (doc.Label, path)


def foreign_reference_error(obj, owner_doc, what=None):
    """The ``ModelError`` for a reference to ``obj`` of another document than
    ``owner_doc`` (``what``: the reference, prefixed to the message): what to pick
    instead."""
    return ModelError(
        "%s'%s' is in document %s, not in %s: a reference is an element of an object of "
        "the study's document; pick the element on the App::Link that shows '%s' there"
        % ("%s: " % what if what else "", obj.Label, document_label(obj.Document),
           document_label(owner_doc), obj.Label))


def reference_of(value, owner=None):
    """Normalise a stored reference to ``(obj, subname)``, or ``None`` when empty.

    ``owner`` (the object holding it): a reference into another document (kept from an
    older version, see ``migrated_reference``) is a ``ModelError`` naming both.
    """
    if not value:
        return None
    obj, subs = value[0], value[1] if len(value) > 1 else ""
    if obj is None:
        return None
    if isinstance(subs, (list, tuple)):
        subs = [s for s in subs if s]
        if len(subs) > 1:
            raise ModelError("'%s': pick one element, not %d (%s)"
                             % (obj.Label, len(subs), ", ".join(subs)))
        subs = subs[0] if subs else ""
    owner_doc = getattr(owner, "Document", None)
    if owner_doc is not None and obj.Document is not owner_doc:
        raise foreign_reference_error(obj, owner_doc)
    return obj, subs


def _subs_list(subs):
    if isinstance(subs, str):
        return [subs] if subs else []
    return [s for s in subs if s]


def _link_candidates(doc, target):
    """``(link, path)`` for each object of ``doc`` that links to ``target`` (``path`` "")
    or to one of its containers (``path`` the dotted names from there down to ``target``,
    ending with ".")."""
    chain = [target] + ancestors(target)       # target, its parent, ..., outermost
    found = []
    for obj in doc.Objects:
        try:
            linked = obj.getLinkedObject(True)
        except Exception:  # noqa: BLE001 - objects without link support
            continue
        if linked is None or linked is obj or linked.Document is doc:
            continue
        for depth, holder in enumerate(chain):
            if linked is holder:
                path = "".join(o.Name + "." for o in reversed(chain[:depth]))
                found.append((obj, path))
                break
    return found


def migrated_reference(owner, value):
    """The value of a reference stored by an older version, for ``REFERENCE_TYPE``.

    Returns ``(new_value, problem)``: ``new_value`` is ``(obj, [subs])`` of ``owner``'s
    document, or ``None`` for an empty reference; ``problem`` is ``None``, or the message
    saying why a cross-document reference cannot be re-expressed (then ``new_value`` is
    ``None`` and the stored value is to be kept).
    """
    if not value or value[0] is None:
        return None, None
    obj = value[0]
    subs = _subs_list(value[1] if len(value) > 1 else [])
    doc = owner.Document
    if obj.Document is doc:
        return (obj, subs), None
    found = _link_candidates(doc, obj)
    if len(found) == 1:
        link, path = found[0]
        return (link, [path + s for s in subs] or ([path.rstrip(".")] if path else [])), None
    why = "no App::Link of this document shows it" if not found else \
        "several App::Links of this document show it (%s)" % ", ".join(
            "'%s'" % link.Label for link, _ in found)
    return None, ("refers to '%s' of document %s and %s: kept as it is (runs refuse it); pick "
                  "the element again on the App::Link of this document"
                  % (obj.Label, document_label(obj.Document), why))
