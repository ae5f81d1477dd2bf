"""The ``.FCStd`` archive of a saved document: its view data and its links to other files.

Python's standard library only (no FreeCAD import at module level), so the workbench's
start-up can install ``keep_view_data`` cheaply.

* View data: ``GuiDocument.xml`` (visibility, colours, display modes...), the files it
  refers to (colour lists) and the thumbnail. FreeCAD without its GUI does not write
  them: a document saved headless opens in the GUI with every object hidden and default
  colours. ``gui_members`` reads them from a file, ``restore_gui_members`` puts them back
  into a saved one, and ``keep_view_data`` (an App document observer, installed when
  FreeCAD runs without its GUI) does so for every save of a document holding SimPhant
  objects (``FreeCAD.ActiveDocument.saveAs`` in a script included).
* Undo across a Save As: FreeCAD keeps the files of ``App::PropertyFileIncluded``
  properties (a Result's arrays, a parameter study's table) and the copies its undo steps
  hold of them in the document's transient folder, which it renames when the document's
  file name changes; undo steps taken before still name the old folder, and undoing one
  then empties the property (the stored result lost). ``keep_transient_files`` (an App
  document observer, with or without the GUI) leaves a symbolic link from each old name
  to the folder, removed when the document is closed.
* Links to other files: an ``App::Link`` (or any ``App::PropertyXLink``) to an object of
  another document stores that document's path relative to the document's own folder
  (``<XLink file="parts.FCStd" .../>``) and FreeCAD's ``saveAs`` keeps it as it is, so a
  copy saved into another folder links to files that are not there (its linked parts are
  Invalid and not drawn). ``repoint_links`` rewrites those paths of a saved copy so they
  lead from its folder to the files the original linked to; ``unresolved_links`` lists
  the links of a saved file that lead nowhere from a folder.
"""
import os
import re
import zipfile

__all__ = ["gui_members", "restore_gui_members", "rewrite_members", "linked_files",
           "repoint_links", "unresolved_links", "holds_simphant_objects", "keep_view_data",
           "keep_transient_files"]

DOCUMENT = "Document.xml"
GUI_DOCUMENT = "GuiDocument.xml"

#: the ``file`` attribute of an XLink element (App::PropertyXLink and its lists)
_XLINK_FILE = re.compile(rb'(<XLink[A-Za-z]*\s[^>]*?\bfile=")([^"]*)(")')
_ENTITIES = ((b"&", b"&amp;"), (b"<", b"&lt;"), (b">", b"&gt;"), (b'"', b"&quot;"))


def gui_members(path):
    """The view data of a .FCStd (``GuiDocument.xml``, the files it refers to, the
    thumbnail) as ``{name: bytes}``; empty when the document has none.

    Each member is read within ``file_check``'s limits; a ``GuiDocument.xml`` declaring
    entities is refused (``DocumentError``), one that does not parse is kept without the
    files it would refer to."""
    from .file_check import DocumentError, FileRefused, check_archive, parse_xml, read_member
    try:
        with zipfile.ZipFile(path) as z:
            check_archive(z, path)
            names = set(z.namelist())
            if GUI_DOCUMENT not in names:
                return {}
            xml = read_member(z, GUI_DOCUMENT, path)
            wanted = {GUI_DOCUMENT}
            try:
                root = parse_xml(xml, path, GUI_DOCUMENT)
                wanted |= {el.get("file") for el in root.iter() if el.get("file")}
            except FileRefused:
                raise
            except DocumentError:
                pass                # not parsed: kept, without the files it refers to
            wanted |= {n for n in names if n.startswith("thumbnails/")}
            out = {GUI_DOCUMENT: xml}
            for n in sorted((wanted & names) - {GUI_DOCUMENT}):
                out[n] = read_member(z, n, path)
            return out
    except (OSError, zipfile.BadZipFile):
        return {}


def rewrite_members(path, change):
    """Rewrite the .FCStd ``path``: ``change(members)`` gets ``{name: bytes}`` and returns
    the new dict, or None to leave the file alone. Written beside and moved over; the
    order, dates and compression of the kept entries stay."""
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        members = {info.filename: z.read(info.filename) for info in infos}
        comment = z.comment
    new = change(dict(members))
    if new is None:
        return False
    tmp = path + ".rewrite.tmp"
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.comment = comment
            for info in infos:
                if info.filename in new:
                    z.writestr(info, new[info.filename])
            for name in new:
                if name not in members:
                    z.writestr(name, new[name])
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return True


def restore_gui_members(path, members, warn=None):
    """Add ``members`` (``gui_members`` of the input) to the saved .FCStd ``path`` if it has
    no view data of its own. ``warn(text)`` is told when the names clash and nothing is
    added. Returns whether the file was changed."""
    if not members:
        return False

    def add(have):
        if GUI_DOCUMENT in have:
            return None
        clash = set(have) & set(members)
        if clash:
            if warn is not None:
                warn("not restoring the view data of the document (its file names clash "
                     "with %s)" % ", ".join(sorted(clash)))
            return None
        have.update(members)
        return have

    return rewrite_members(path, add)


# ----------------------------------------------------------------------------- links

def _unescape(value):
    for plain, escaped in reversed(_ENTITIES):
        value = value.replace(escaped, plain)
    return value


def _escape(value):
    for plain, escaped in _ENTITIES:
        value = value.replace(plain, escaped)
    return value


def _document_xml(path):
    with zipfile.ZipFile(path) as z:
        return z.read(DOCUMENT)


def linked_files(path):
    """The other files the document saved at ``path`` links to: ``[(object, property,
    file as stored)]`` (relative to the document's folder, or absolute), in file order."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(_document_xml(path))
    out = []
    data = root.find("ObjectData")
    for obj in (data.findall("Object") if data is not None else ()):
        for prop in obj.iter("Property"):
            for el in prop.iter():
                if el.tag.startswith("XLink") and el.get("file"):
                    out.append((obj.get("name"), prop.get("name"), el.get("file")))
    return out


def _resolve(stored, folder):
    return os.path.normpath(stored if os.path.isabs(stored) else os.path.join(folder, stored))


def _relative(target, folder):
    """``target`` relative to ``folder`` with "/" (as FreeCAD writes it), or absolute
    when there is no relative path (another drive)."""
    try:
        rel = os.path.relpath(target, folder)
    except ValueError:
        return target
    return rel.replace(os.sep, "/")


def repoint_links(path, source_folder, target_folder):
    """Make the relative links of the .FCStd ``path`` -- a copy of a document of
    ``source_folder`` that will live in ``target_folder`` -- lead to the files the
    original's led to. Absolute paths stay. Returns ``[(old, new)]`` of what changed."""
    changed = []
    if os.path.normpath(os.path.abspath(source_folder)) == \
            os.path.normpath(os.path.abspath(target_folder)):
        return changed

    def repoint(match):
        stored = _unescape(match.group(2)).decode("utf-8")
        if not stored or os.path.isabs(stored):
            return match.group(0)
        new = _relative(_resolve(stored, os.path.abspath(source_folder)),
                        os.path.abspath(target_folder))
        changed.append((stored, new))
        return match.group(1) + _escape(new.encode("utf-8")) + match.group(3)

    def change(members):
        xml = _XLINK_FILE.sub(repoint, members[DOCUMENT])
        if not changed:
            return None
        members[DOCUMENT] = xml
        return members

    rewrite_members(path, change)
    return changed


def unresolved_links(path, folder):
    """The links of the .FCStd ``path`` that lead to no file when the document lives in
    ``folder``: ``[(message, the path they lead to)]``."""
    problems = []
    for obj, prop, stored in linked_files(path):
        where = _resolve(stored, folder)
        if not os.path.isfile(where):
            problems.append(("%s (%s) links to '%s', which is not there (%s)"
                             % (obj, prop, stored, where), where))
    return problems


# ----------------------------------------------------------------------------- headless saves

class _ViewDataKeeper:
    """App document observer: the view data a document's file had, put back into every
    file it is saved to without the GUI (see ``keep_view_data``)."""

    def __init__(self, FreeCAD, wanted):
        self.FreeCAD = FreeCAD
        self.wanted = wanted        # wanted(doc): whether to keep this document's view data
        self.kept = {}              # document Name -> gui_members of its file

    def _remember(self, doc, path):
        if not self.FreeCAD.GuiUp and doc.Name not in self.kept and path \
                and os.path.isfile(path):
            self.kept[doc.Name] = gui_members(path)

    def slotBeforeChangeDocument(self, doc, prop):
        if prop == "FileName":          # saveAs: the file it had, before it is replaced
            self._remember(doc, doc.FileName)

    def slotChangedDocument(self, doc, prop):
        if prop == "FileName" and not doc.Objects:      # being opened from this file
            self._remember(doc, doc.FileName)

    def slotFinishSaveDocument(self, doc, path):
        members = self.kept.get(doc.Name)
        if members and not self.FreeCAD.GuiUp and self.wanted(doc):
            restore_gui_members(path, members)

    def slotDeletedDocument(self, doc):
        self.kept.pop(doc.Name, None)


def holds_simphant_objects(doc):
    """Whether ``doc`` holds a SimPhant object (whose view data ``keep_view_data`` keeps)."""
    from .base import is_simphant
    return any(is_simphant(o) for o in doc.Objects)


_KEEPER = []


def keep_view_data(FreeCAD, wanted=holds_simphant_objects):
    """Without the GUI, put the view data of a document's file back into every file it is
    saved to, for the documents ``wanted(doc)`` accepts (default: those holding SimPhant
    objects). Installed once, by the workbench's ``Init.py``; acts only while the GUI is
    not up (with it, FreeCAD writes the view data itself). Returns the observer."""
    if not _KEEPER:
        _KEEPER.append(_ViewDataKeeper(FreeCAD, wanted))
        FreeCAD.addDocumentObserver(_KEEPER[0])
    return _KEEPER[0]


# ----------------------------------------------------------------------------- undo across Save As

class _TransientFolderLinks:
    """App document observer: the old names of a document's transient folder lead to it
    (see ``keep_transient_files``)."""

    def __init__(self):
        self.before = {}            # document Name -> its transient folder before the change
        self.links = {}             # document Name -> the old names linked to its folder
        import atexit
        atexit.register(self.remove_all)        # documents left open at exit

    def slotBeforeChangeDocument(self, doc, prop):
        if prop == "TransientDir" and doc.UndoCount:    # undo steps that may name it
            self.before[doc.Name] = doc.TransientDir

    def slotChangedDocument(self, doc, prop):
        old = self.before.pop(doc.Name, None) if prop == "TransientDir" else None
        new = doc.TransientDir
        if not old or old == new or not os.path.isdir(new):
            return
        names = self.links.setdefault(doc.Name, [])
        for name in names + [old]:          # earlier names follow the folder too
            try:
                if os.path.islink(name):
                    os.remove(name)
                if not os.path.exists(name):
                    os.symlink(new, name)
                    if name not in names:
                        names.append(name)
            except OSError:                 # no symbolic links here: undo as FreeCAD does
                pass

    def slotDeletedDocument(self, doc):
        self._remove(self.links.pop(doc.Name, []))

    def remove_all(self):
        for doc_name in list(self.links):
            self._remove(self.links.pop(doc_name))

    @staticmethod
    def _remove(names):
        for name in names:
            try:
                if os.path.islink(name):
                    os.remove(name)
            except OSError:
                pass


_FOLDER_LINKS = []


def keep_transient_files(FreeCAD):
    """Keep the files undo steps hold reachable when a document's file name changes (see
    the module docstring). Installed once, by the workbench's ``Init.py``; returns the
    observer."""
    if not _FOLDER_LINKS:
        _FOLDER_LINKS.append(_TransientFolderLinks())
        FreeCAD.addDocumentObserver(_FOLDER_LINKS[0])
    return _FOLDER_LINKS[0]
