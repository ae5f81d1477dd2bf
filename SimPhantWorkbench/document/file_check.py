"""Checks that an opened ``.FCStd`` holds the whole SimPhant model its file lists.

FreeCAD reads a damaged ``Document.xml`` (cut off by a full disk, an
interrupted copy, a bad hand edit) as far as it can and reports nothing: the
objects after the cut come back without properties or not at all. A study
run on such a document would simulate a partial model -- a force silently
missing. ``check_document`` compares the file with what was loaded:

* ``Document.xml`` must be well-formed XML (a cut-off file is not);
* every SimPhant object the file lists must be loaded as a SimPhant object
  (its proxy restored), with every property the file stores for it;
* every member a study's ``Group`` lists in the file must be in the loaded
  study, and every link of a SimPhant object (shape object, body, picked
  references) must point to the object the file names.

A failure is a ``DocumentError`` (a ``ModelError``: bad input) naming the file
and the object.
"""
import os
import zipfile
import xml.etree.ElementTree as ET

from .base import proxy_type
from ..solver import ModelError

__all__ = ["DocumentError", "check_document", "document_problems", "read_document_xml"]

_MODULE_PREFIX = "SimPhantWorkbench."
#: elements of stored link properties, and the attribute naming the linked object
_LINK_TAGS = {"Link": "value", "LinkSub": "value", "XLink": "name"}


class DocumentError(ModelError):
    """The document file is damaged or does not hold the model it lists."""


def read_document_xml(path):
    """The parsed ``Document.xml`` of the ``.FCStd`` at ``path``; a missing, unreadable or
    cut-off file raises a ``DocumentError`` that says so."""
    try:
        with zipfile.ZipFile(path) as z:
            data = z.read("Document.xml")
    except KeyError:
        raise DocumentError("'%s' is damaged: it has no Document.xml" % path) from None
    except (OSError, zipfile.BadZipFile) as exc:
        raise DocumentError("'%s' cannot be read: %s" % (path, exc)) from None
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise DocumentError(
            "'%s' is damaged: its Document.xml is cut off or malformed (line %d, column %d); "
            "FreeCAD would load only part of the model" % (path, line, col)) from None


def _stored_objects(root):
    """``{name: (module, {property: element})}`` of the SimPhant objects in the file."""
    out = {}
    data = root.find("ObjectData")
    if data is None:
        return out
    for obj in data.findall("Object"):
        name = obj.get("name")
        props = {}
        module = None
        container = obj.find("Properties")
        for p in (container.findall("Property") if container is not None else ()):
            props[p.get("name")] = p
            if p.get("name") == "Proxy":
                py = p.find("Python")
                if py is not None:
                    module = py.get("module") or ""
        if name and module and module.startswith(_MODULE_PREFIX):
            out[name] = (module, props)
    return out


def _links(prop):
    """Object names a stored link property refers to (Link, LinkSub, XLink, LinkList...)."""
    names = []
    for el in prop.iter():
        if el.tag in _LINK_TAGS:
            value = el.get(_LINK_TAGS[el.tag])
            if value:
                names.append(value)
    return names


def _loaded_links(value):
    """Object names of a loaded link property value."""
    names = []

    def walk(v):
        if v is None:
            return
        if hasattr(v, "Name") and hasattr(v, "Document"):
            names.append(v.Name)
        elif isinstance(v, (list, tuple)):
            for x in v:
                if not isinstance(x, str):
                    walk(x)
    walk(value)
    return names


def document_problems(doc, path=None):
    """What the loaded ``doc`` lacks compared with its file: a list of messages (empty when
    all is there). ``DocumentError`` when the file itself is damaged."""
    path = path or doc.FileName
    root = read_document_xml(path)
    problems = []
    for name, (module, props) in sorted(_stored_objects(root).items()):
        obj = doc.getObject(name)
        label = name
        if obj is None:
            problems.append("SimPhant object '%s' (%s) is in the file but could not be loaded"
                            % (name, module))
            continue
        label = obj.Label
        if proxy_type(obj) is None:
            problems.append("SimPhant object '%s' could not be read (its proxy %s did not load)"
                            % (label, module))
            continue
        loaded = set(obj.PropertiesList)
        missing = sorted(p for p in props if p not in loaded)
        if missing:
            problems.append("%s '%s': the file stores %s, which did not load"
                            % (proxy_type(obj).split("::")[-1], label, ", ".join(missing)))
            continue
        for pname, prop in props.items():
            wanted = _links(prop)
            if not wanted or pname in ("ExpressionEngine", "Proxy"):
                continue
            have = _loaded_links(getattr(obj, pname, None))
            lost = [w for w in wanted if w not in have]
            if pname == "Group":     # a study's members must load as SimPhant objects
                unread = [w for w in wanted if w in have and proxy_type(doc.getObject(w)) is None]
                if unread:
                    problems.append("%s '%s': its member %s did not load as a SimPhant object "
                                    "(its data is missing from the file)"
                                    % (proxy_type(obj).split("::")[-1], label,
                                       ", ".join("'%s'" % w for w in unread)))
            if lost:
                problems.append("%s '%s': %s refers to %s, which the document could not load"
                                % (proxy_type(obj).split("::")[-1], label, pname,
                                   ", ".join("'%s'" % w for w in lost)))
    return problems


def check_document(doc, path=None):
    """Raise ``DocumentError`` naming the file and the object when ``doc`` (opened from
    ``path``, default its ``FileName``) does not hold the SimPhant model its file lists."""
    path = path or doc.FileName
    if not path or not os.path.isfile(path):
        return
    problems = document_problems(doc, path)
    if problems:
        more = "" if len(problems) == 1 else " (and %d more problem%s)" % (
            len(problems) - 1, "s" if len(problems) > 2 else "")
        raise DocumentError("'%s' is damaged: %s%s" % (path, problems[0], more))
