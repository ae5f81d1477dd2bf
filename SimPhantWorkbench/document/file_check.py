"""Checks of a ``.FCStd`` file: before FreeCAD reads it, and after, against what it loaded.

Before FreeCAD parses anything (``check_file``):

* the zip directory: every member stored or deflated (all FreeCAD reads), its
  declared size possible for the bytes it holds (deflate expands at most about
  1032 times; a file "declaring far more than it holds" is refused), under
  ``MAX_XML_BYTES`` (``Document.xml``, ``GuiDocument.xml``) or
  ``MAX_MEMBER_BYTES`` (any other member), all together under ``MAX_FILE_BYTES``;
  members are read through ``read_member``, which never decompresses more than
  its limit whatever the directory says;
* ``Document.xml`` declares no DOCTYPE and no entities (FreeCAD never writes
  them; its XML reader would expand them -- a "billion laughs" of 10 kB takes
  gigabytes) and is well-formed XML (a file cut off by a full disk, an
  interrupted copy or a bad hand edit is not);
* every stored enumeration index is an item of its list: FreeCAD reads a
  negative index of a list with items as another item (a joint's type silently
  another kind).

FreeCAD reads a damaged ``Document.xml`` as far as it can and reports nothing:
the objects after the cut come back without properties or not at all. A study
run on such a document would simulate a partial model -- a force silently
missing. ``check_document`` compares the file with what was loaded:

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
import zlib
import xml.etree.ElementTree as ET
from xml.parsers import expat

from .base import proxy_type
from ..solver import ModelError

__all__ = ["DocumentError", "FileRefused", "MAX_XML_BYTES", "MAX_MEMBER_BYTES",
           "MAX_FILE_BYTES", "check_document", "document_problems", "read_document_xml",
           "check_file", "check_archive", "read_member", "parse_xml"]

_MODULE_PREFIX = "SimPhantWorkbench."
#: elements of stored link properties, and the attribute naming the linked object
_LINK_TAGS = {"Link": "value", "LinkSub": "value", "XLink": "name"}
_XML_MEMBERS = ("Document.xml", "GuiDocument.xml")

#: the largest Document.xml or GuiDocument.xml (and file GuiDocument.xml refers to) [bytes]
MAX_XML_BYTES = 256 * 1024 ** 2
#: the largest other member of a .FCStd (a stored result archive is the largest kind) [bytes]
MAX_MEMBER_BYTES = 3 * 1024 ** 3
#: the largest content of a whole .FCStd, all members together [bytes]
MAX_FILE_BYTES = 4 * 1024 ** 3
#: deflate expands data at most about 1032 times; a member declaring more is lying
_MAX_DEFLATE_RATIO = 1100


class DocumentError(ModelError):
    """The document file is damaged or does not hold the model it lists."""


class FileRefused(DocumentError):
    """The file is refused unread: a member beyond the limits, entity declarations."""


def _size(n):
    return "%.3g MB" % (n / 1e6) if n >= 1e5 else "%d bytes" % n


def check_archive(z, path):
    """Refuse the open ``zipfile.ZipFile`` ``z`` (the ``.FCStd`` at ``path``) when a member
    could not be read within bounds; only the zip directory is read."""
    total = 0
    for info in z.infolist():
        name = info.filename
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise FileRefused("'%s' is refused: its member %r is compressed with method %d, "
                                "which FreeCAD does not read" % (path, name, info.compress_type))
        held = info.compress_size
        if (info.compress_type == zipfile.ZIP_STORED and info.file_size != held) or \
                info.file_size > _MAX_DEFLATE_RATIO * held + 1024:
            raise DocumentError("'%s' is damaged: its member %r declares %s but holds only %s"
                                % (path, name, _size(info.file_size), _size(held)))
        limit = MAX_XML_BYTES if name in _XML_MEMBERS else MAX_MEMBER_BYTES
        if info.file_size > limit:
            raise FileRefused("'%s' is refused: its member %r holds %s, more than the limit "
                                "of %s" % (path, name, _size(info.file_size), _size(limit)))
        total += info.file_size
    if total > MAX_FILE_BYTES:
        raise FileRefused("'%s' is refused: its members hold %s, more than the limit of %s"
                            % (path, _size(total), _size(MAX_FILE_BYTES)))


def read_member(z, name, path, limit=None):
    """The bytes of member ``name`` of the open ``.FCStd`` ``z``: refused when its directory
    entry declares more than ``limit`` (default ``MAX_XML_BYTES``), and never more than
    ``limit`` decompressed whatever the entry says; ``DocumentError`` otherwise."""
    limit = MAX_XML_BYTES if limit is None else limit
    try:
        declared = z.getinfo(name).file_size
        if declared > limit:
            raise FileRefused("'%s' is refused: its member %r holds %s, more than the limit "
                              "of %s" % (path, name, _size(declared), _size(limit)))
        with z.open(name) as fh:
            data = fh.read(limit + 1)
    except (OSError, KeyError, zipfile.BadZipFile, zlib.error, EOFError, RuntimeError) as exc:
        raise DocumentError("'%s' cannot be read: its member %r: %s" % (path, name, exc)) \
            from None
    if len(data) > limit:
        raise FileRefused("'%s' is refused: its member %r holds more than the limit of %s"
                          % (path, name, _size(limit)))
    return data


class _Prologue(Exception):
    pass


def parse_xml(data, path, member):
    """The parsed XML ``data`` (member ``member`` of the file ``path``). Refused before it is
    parsed when it declares a DOCTYPE or entities (which FreeCAD's reader would expand);
    ``DocumentError`` saying where it is cut off or malformed otherwise."""
    probe = expat.ParserCreate()
    declared = []

    def doctype(*args):
        declared.append(True)
        raise _Prologue()

    def element(*args):
        raise _Prologue()
    probe.StartDoctypeDeclHandler = doctype
    probe.EntityDeclHandler = doctype
    probe.StartElementHandler = element     # the prologue is over: no DOCTYPE can follow
    try:
        probe.Parse(data, True)
    except _Prologue:
        pass
    except expat.ExpatError:
        pass                                # malformed: said by the parse below
    if declared:
        raise FileRefused("'%s' is refused: its %s declares a DOCTYPE or entities, which "
                            "FreeCAD never writes (expanding them could exhaust the memory)"
                            % (path, member))
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise DocumentError(
            "'%s' is damaged: its %s is cut off or malformed (line %d, column %d); FreeCAD "
            "would load only part of the model" % (path, member, line, col)) from None


def read_document_xml(path):
    """The parsed ``Document.xml`` of the ``.FCStd`` at ``path`` (its members checked by
    ``check_archive``, read within bounds); a missing, unreadable, oversized, cut-off or
    entity-declaring file raises a ``DocumentError`` that says so."""
    try:
        with zipfile.ZipFile(path) as z:
            check_archive(z, path)
            if "Document.xml" not in z.namelist():
                raise DocumentError("'%s' is damaged: it has no Document.xml" % path)
            data = read_member(z, "Document.xml", path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise DocumentError("'%s' cannot be read: %s" % (path, exc)) from None
    return parse_xml(data, path, "Document.xml")


def _object_label(obj):
    for p in obj.iter("Property"):
        if p.get("name") == "Label":
            s = p.find("String")
            if s is not None and s.get("value"):
                return s.get("value")
    return obj.get("name")


def _enumeration_problem(obj):
    """What is wrong with the stored enumeration indices of the ``ObjectData`` entry ``obj``
    (a message), or None."""
    container = obj.find("Properties")
    for p in (container.findall("Property") if container is not None else ()):
        if p.get("type") != "App::PropertyEnumeration":
            continue
        index = p.find("Integer")
        if index is None:
            continue
        text = index.get("value", "")
        items = p.find("CustomEnumList")
        try:
            value = int(text)
        except ValueError:
            value = None
        # FreeCAD writes -1 for an enumeration without items; one with items and a negative
        # index is damaged (out of range above: enumeration_problems)
        if value is None or (value < 0 and items is not None and len(items.findall("Enum"))):
            return ("its enumeration %s stores the item index %r, which is no item of its "
                    "list (FreeCAD would silently read another item)" % (p.get("name"), text))
    return None


def check_file(path):
    """Check the ``.FCStd`` at ``path`` before FreeCAD reads it (see the module docstring);
    returns its parsed ``Document.xml``. ``DocumentError`` naming the file (and the object)
    otherwise."""
    root = read_document_xml(path)
    data = root.find("ObjectData")
    for obj in (data.findall("Object") if data is not None else ()):
        problem = _enumeration_problem(obj)
        if problem:
            label = _object_label(obj)
            name = obj.get("name")
            raise DocumentError("'%s' is damaged: object '%s'%s: %s"
                                % (path, label, "" if label == name else " (%s)" % name,
                                   problem))
    return root


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


def document_problems(doc, path=None, root=None):
    """What the loaded ``doc`` lacks compared with its file (``root``: its parsed
    ``Document.xml``, read when not given): a list of messages (empty when all is there).
    ``DocumentError`` when the file itself is damaged."""
    path = path or doc.FileName
    root = read_document_xml(path) if root is None else root
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


def check_document(doc, path=None, root=None):
    """Raise ``DocumentError`` naming the file and the object when ``doc`` (opened from
    ``path``, default its ``FileName``; ``root``: the file's parsed ``Document.xml`` if
    at hand) does not hold the SimPhant model its file lists."""
    path = path or doc.FileName
    if not path or not os.path.isfile(path):
        return
    problems = document_problems(doc, path, root)
    if problems:
        more = "" if len(problems) == 1 else " (and %d more problem%s)" % (
            len(problems) - 1, "s" if len(problems) > 2 else "")
        raise DocumentError("'%s' is damaged: %s%s" % (path, problems[0], more))
