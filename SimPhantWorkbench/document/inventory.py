"""What a FreeCAD document holds, and what saving a loaded copy of it would lose.

FreeCAD opens a document whose objects it cannot all restore without an error:
an object of a type no loaded module registers (a workbench whose start-up did
not run) is left out, and a Python feature whose class may not be imported (the
document-restore check of FreeCAD 1.x's security updates) loses its ``Proxy``.
Saving that document writes it without them. SimPhant saves documents (the
CLI's result document, ``--in-place``): before it does, ``check_nothing_lost``
compares the document with what its file held and refuses, naming every object
that would be lost or changed.

``file_inventory(path)`` reads the file's ``Document.xml`` (names, type ids and
the Python classes of ``Proxy`` properties); ``inventory(doc)`` gives the same
for a loaded document; ``lost_objects`` lists the differences (objects the
program added are not losses), and objects that became invalid since the file was
opened (``invalid_objects``). After a save, ``saved_losses`` checks the written
file itself: every object of the document in it, every link to another file
leading to a file from where the document will live, and the view data
(``GuiDocument.xml``) kept.
"""
import os
from collections import namedtuple

from .fcstd import GUI_DOCUMENT, unresolved_links
from .file_check import read_document_xml

__all__ = ["Entry", "DocumentLossError", "file_inventory", "inventory", "lost_objects",
           "unsaved_objects", "invalid_objects", "check_nothing_lost", "saved_losses"]

#: one document object: its type id and its proxy's ``(module, class)`` (or ``None``)
Entry = namedtuple("Entry", ["type", "proxy"])


class DocumentLossError(Exception):
    """Saving would lose or change objects of the document; ``lost`` lists them as text."""

    def __init__(self, message, lost):
        super().__init__(message)
        self.lost = lost


def file_inventory(path, root=None):
    """``{name: Entry}`` of the objects stored in the ``.FCStd`` file ``path`` (``root``: its
    parsed ``Document.xml`` if at hand)."""
    root = read_document_xml(path) if root is None else root
    entries = {}
    objects = root.find("Objects")
    for el in (objects if objects is not None else []):
        if el.tag == "Object" and el.get("name"):
            entries[el.get("name")] = Entry(el.get("type", ""), None)
    data = root.find("ObjectData")
    for el in (data if data is not None else []):
        name = el.get("name")
        if el.tag != "Object" or name not in entries:
            continue
        for prop in el.iter("Property"):
            if prop.get("name") == "Proxy" and prop.get("type") == "App::PropertyPythonObject":
                py = prop.find("Python")
                if py is not None and py.get("module") and py.get("class"):
                    entries[name] = entries[name]._replace(
                        proxy=(py.get("module"), py.get("class")))
                break
    return entries


def _proxy_class(obj):
    try:
        proxy = obj.Proxy
    except Exception:  # noqa: BLE001 - no Proxy property, or an unreadable one
        return None
    if proxy is None or isinstance(proxy, (str, bytes, int, float)):
        return None
    cls = type(proxy)
    return (cls.__module__, cls.__name__)


def inventory(doc):
    """``{name: Entry}`` of the objects of the loaded document ``doc``."""
    out = {}
    for obj in doc.Objects:
        proxy = _proxy_class(obj) if "Proxy" in obj.PropertiesList else None
        out[obj.Name] = Entry(obj.TypeId, proxy)
    return out


def invalid_objects(doc):
    """``{name: "<state>"}`` of the objects of ``doc`` FreeCAD marks Invalid (a failed
    recompute, a link to a file that is not there)."""
    return {o.Name: ", ".join(o.State) for o in doc.Objects if "Invalid" in o.State}


def _compare(expected, have, missing, became, classless):
    """Lines for the entries of ``expected`` that ``have`` lacks or holds otherwise."""
    out = []
    for name, want in expected.items():
        got = have.get(name)
        what = "%s (%s)" % (name, want.type)
        if got is None:
            out.append("%s: %s" % (what, missing))
        elif got.type != want.type:
            out.append("%s: %s %s" % (what, became, got.type))
        elif want.proxy is not None and got.proxy != want.proxy:
            out.append("%s: its Python class %s.%s %s"
                       % (what, want.proxy[0], want.proxy[1], classless))
    return out


def lost_objects(expected, doc, invalid_before=None):
    """What saving ``doc`` would lose of ``expected`` (an inventory): a list of
    ``"<name> (<type>): <what>"`` lines, empty when nothing is lost. With
    ``invalid_before`` (``invalid_objects`` when the file was opened), also the objects
    that became invalid since."""
    have = inventory(doc)
    lost = _compare(expected, have, "not loaded", "loaded as", "could not be loaded")
    if invalid_before is not None:
        for name, state in sorted(invalid_objects(doc).items()):
            if name not in invalid_before:
                lost.append("%s (%s): became invalid (%s)"
                            % (name, have[name].type, state))
    return lost


def unsaved_objects(doc, saved):
    """What the saved file's inventory ``saved`` lacks of the loaded ``doc``: lines as
    ``lost_objects``, empty when the file holds every object."""
    return _compare(inventory(doc), saved, "not in the file", "stored as",
                    "is not stored")


def check_nothing_lost(expected, doc, target, invalid_before=None):
    """Raise ``DocumentLossError`` if saving ``doc`` to ``target`` would lose objects of
    ``expected`` (the file's inventory), naming them all (``invalid_before``: see
    ``lost_objects``)."""
    lost = lost_objects(expected, doc, invalid_before)
    if lost:
        raise DocumentLossError(
            "not saving '%s': %d object%s of the document would be lost or changed (FreeCAD "
            "could not load them here; is their workbench installed?): %s"
            % (target, len(lost), "" if len(lost) == 1 else "s", "; ".join(lost)), lost)


def saved_losses(doc, path, folder, view_data=False, missing_before=()):
    """What the file ``path`` just saved from ``doc`` lacks, as it will live in ``folder``:
    objects of ``doc`` it does not hold (a cut-off write), links to other files that lead
    nowhere from ``folder`` (except those leading to a file in ``missing_before``, which
    the original lacked too), and the view data when ``view_data`` (the original had
    it). A list of lines, empty when the file is whole."""
    lost = []
    try:
        saved = file_inventory(path)
    except Exception as exc:  # noqa: BLE001 - a damaged write: DocumentError and others
        return ["the file cannot be read back: %s" % exc]
    lost += unsaved_objects(doc, saved)
    missing_before = {os.path.normpath(p) for p in missing_before}
    lost += [text for text, where in unresolved_links(path, folder)
             if os.path.normpath(where) not in missing_before]
    if view_data:
        import zipfile
        with zipfile.ZipFile(path) as z:
            if GUI_DOCUMENT not in z.namelist():
                lost.append("the view data (%s: visibility, colours) is not in the file"
                            % GUI_DOCUMENT)
    return lost
