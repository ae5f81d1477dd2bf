"""Opening a FreeCAD document from its file for a run, and saving it again, for every
entry point that works on files (``simphant run``, ``simphant sweep``).

``ModelFile(FreeCAD, path)`` opens the document and makes the checks a run needs
before anything is computed: the file is a FreeCAD document, FreeCAD loaded it
whole (``file_check``: no object of an uninstalled add-on lost, no damaged
member), what its file holds (``inventory``, kept by any later save) and its
view data (``GuiDocument.xml`` and the files it refers to, which FreeCAD
without its GUI does not write). ``save_as`` and ``save`` refuse to write a
document that lost an object of its file, and put the view data back into the
saved file. Errors are ``ModelFileError`` (a ``ModelError``: bad input) naming
the file.
"""
import os
import re
import zipfile

from ..solver import ModelError
from .base import studies
from .file_check import DocumentError, check_document
from .inventory import DocumentLossError, check_nothing_lost, file_inventory

__all__ = ["ModelFileError", "ModelFile", "gui_members", "restore_gui_members", "choose_study"]


class ModelFileError(ModelError):
    """A document file that cannot be opened or saved as it is."""


def gui_members(path):
    """The GUI part of a .FCStd: ``GuiDocument.xml`` (visibility, colours, display
    modes...), the files it refers to (colour lists) and the thumbnail, as
    ``{name: bytes}``; empty when the document has none.

    FreeCAD without its GUI does not write them: a document saved headless
    opens in the GUI with every object hidden and default colours. The saves
    here put them back.
    """
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if "GuiDocument.xml" not in names:
                return {}
            xml = z.read("GuiDocument.xml")
            wanted = {"GuiDocument.xml"}
            wanted |= {m.decode("utf-8", "replace") for m in re.findall(rb'file="([^"]+)"', xml)}
            wanted |= {n for n in names if n.startswith("thumbnails/")}
            return {n: z.read(n) for n in sorted(wanted & names)}
    except (OSError, zipfile.BadZipFile, KeyError):
        return {}


def restore_gui_members(path, members, warn=None):
    """Add ``members`` (``gui_members`` of the input) to the saved .FCStd ``path`` if it has
    no GUI part of its own; written beside and moved over. ``warn(text)`` is told when
    the names clash and nothing is added."""
    if not members:
        return
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "GuiDocument.xml" in names:
            return
        if names & set(members):
            if warn is not None:
                warn("not restoring the view data of the document (its file names clash "
                     "with %s)" % ", ".join(sorted(names & set(members))))
            return
        entries = [(info, z.read(info.filename)) for info in z.infolist()]
        comment = z.comment
    tmp = path + ".gui.tmp"
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            z.comment = comment
            for info, data in entries:
                z.writestr(info, data)
            for name, data in members.items():
                z.writestr(name, data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def choose_study(doc, path, wanted=None):
    """The study of ``doc`` named ``wanted`` (its Name or Label), or its only study;
    ``ModelFileError`` listing the studies otherwise."""
    found = studies(doc)
    if not found:
        raise ModelFileError("'%s' has no SimPhant study (add one with the SimPhant workbench "
                             "or factory.make_study)" % path)
    if wanted is None:
        if len(found) > 1:
            raise ModelFileError("'%s' has %d studies (%s); choose one with --study"
                                 % (path, len(found), ", ".join(s.Label for s in found)))
        return found[0]
    for s in found:
        if wanted in (s.Name, s.Label):
            return s
    raise ModelFileError("'%s' has no study '%s'; its studies: %s"
                         % (path, wanted, ", ".join(s.Label for s in found)))


class ModelFile:
    """A document opened from ``path`` and checked (see the module docstring).

    Attributes: ``path``, ``doc`` (the FreeCAD document), ``inventory`` (what the file
    holds), ``gui`` (its view data). Use as a context manager, or ``close()``.
    """

    def __init__(self, FreeCAD, path):
        self.FreeCAD = FreeCAD
        self.path = path
        if not os.path.exists(path):
            raise ModelFileError("model file '%s' not found" % path)
        if not os.path.isfile(path):
            raise ModelFileError("model '%s' is not a file" % path)
        if not zipfile.is_zipfile(path):
            raise ModelFileError("'%s' is not a FreeCAD document (.FCStd)" % path)
        before = set(FreeCAD.listDocuments())
        try:
            self.doc = FreeCAD.openDocument(path)
        except Exception as exc:  # noqa: BLE001 - FreeCAD raises assorted types
            for name in set(FreeCAD.listDocuments()) - before:
                FreeCAD.closeDocument(name)
            raise ModelFileError("cannot open '%s': %s" % (path, exc)) from None
        try:
            self.gui = gui_members(path)
            try:
                check_document(self.doc, path)   # a damaged file: bad input, not a partial model
            except DocumentError as exc:
                raise ModelFileError(str(exc)) from None
            self.inventory = file_inventory(path)  # every object the file holds
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        try:
            self.FreeCAD.closeDocument(self.doc.Name)
        except Exception:  # noqa: BLE001 - already closed
            pass

    def study(self, wanted=None):
        """``choose_study`` of this document."""
        return choose_study(self.doc, self.path, wanted)

    def check_nothing_lost(self, target):
        """``ModelFileError`` when saving to ``target`` would lose an object of the file."""
        try:
            check_nothing_lost(self.inventory, self.doc, target)
        except DocumentLossError as exc:
            raise ModelFileError(str(exc)) from None

    def save_as(self, path, target=None, warn=None):
        """Save the document to ``path`` (checked as ``target``, the name the user will see:
        default ``path``) with the file's view data."""
        self.check_nothing_lost(target or path)
        self.doc.saveAs(path)
        restore_gui_members(path, self.gui, warn)

    def save(self, warn=None):
        """Save the document into its own file, with the file's view data."""
        self.check_nothing_lost(self.path)
        self.doc.save()
        restore_gui_members(self.path, self.gui, warn)
