"""Opening a FreeCAD document from its file for a run, and saving it again, for every
entry point that works on files (``simphant run``, ``simphant sweep``).

``ModelFile(FreeCAD, path)`` opens the document and makes the checks a run needs
before anything is computed: the file is a FreeCAD document, FreeCAD loaded it
whole (``file_check``: no object of an uninstalled add-on lost, no damaged
member), what its file holds (``inventory``, kept by any later save) and its
view data (``GuiDocument.xml`` and the files it refers to, which FreeCAD
without its GUI does not write). ``save_as`` and ``save`` refuse to write a
document that lost an object of its file or has an object that became invalid;
they put the view data back into the saved file, make the links to other files
of a copy saved into another folder lead to the files the model's led to
(``fcstd.repoint_links``: FreeCAD's ``saveAs`` keeps them relative to the old
folder, so a result document's linked parts would be Invalid), and check the
written file (``inventory.saved_losses``: every object, every link resolvable,
the view data). Errors are ``ModelFileError`` (a ``ModelError``: bad input)
naming the file.

Why re-point, not copy the linked files or refuse: the linked files are the
user's parts, shared with the model; a result document linking the very same
files shows what was simulated and stays one source of truth (a copy would fork
the parts silently), and refusing would leave assemblies of linked parts without
a result document. The links are written relative, as FreeCAD writes them, so
moving the model's folder with the output folder inside it keeps them valid.
"""
import os
import zipfile

from ..solver import ModelError
from .base import studies
from .fcstd import gui_members, repoint_links, restore_gui_members, unresolved_links
from .file_check import DocumentError, check_document
from .inventory import (DocumentLossError, check_nothing_lost, file_inventory,
                        invalid_objects, saved_losses)

__all__ = ["ModelFileError", "ModelFile", "gui_members", "restore_gui_members", "choose_study",
           "choose_assembly"]


class ModelFileError(ModelError):
    """A document file that cannot be opened or saved as it is."""


def _choose(found, wanted, path, singular, plural, option, lacking=""):
    """The one of ``found`` named ``wanted`` (its Name or Label), or the only one;
    ``ModelFileError`` listing them otherwise."""
    labels = ", ".join(o.Label for o in found)
    if wanted is None:
        if len(found) > 1:
            raise ModelFileError("'%s' has %s%d %s (%s); choose one with %s"
                                 % (path, lacking, len(found), plural, labels, option))
        return found[0]
    for o in found:
        if wanted in (o.Name, o.Label):
            return o
    raise ModelFileError("'%s' has no %s '%s'; its %s: %s" % (path, singular, wanted, plural,
                                                             labels))


def choose_study(doc, path, wanted=None):
    """The study of ``doc`` named ``wanted`` (its Name or Label), or its only study;
    ``ModelFileError`` listing the studies otherwise."""
    found = studies(doc)
    if not found:
        raise ModelFileError("'%s' has no SimPhant study (add one with the SimPhant workbench "
                             "or factory.make_study)" % path)
    return _choose(found, wanted, path, "study", "studies", "--study")


def choose_assembly(doc, path, wanted=None):
    """The FreeCAD Assembly of ``doc`` named ``wanted`` (its Name or Label), or its only
    one; ``ModelFileError`` saying what the document holds otherwise."""
    from .assembly import is_assembly
    found = [o for o in doc.Objects if is_assembly(o)]
    if not found:
        raise ModelFileError("'%s' has no SimPhant study and no FreeCAD Assembly to make one "
                             "from (add a study with the SimPhant workbench or "
                             "factory.make_study)" % path)
    return _choose(found, wanted, path, "Assembly", "Assemblies", "--assembly",
                   lacking="no SimPhant study and ")


class ModelFile:
    """A document opened from ``path`` and checked (see the module docstring).

    Attributes: ``path``, ``doc`` (the FreeCAD document), ``inventory`` (what the file
    holds), ``gui`` (its view data). Use as a context manager, or ``close()``.
    """

    def __init__(self, FreeCAD, path):
        self.FreeCAD = FreeCAD
        self.path = path
        self.folder = os.path.dirname(os.path.abspath(path))
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
            self.invalid = invalid_objects(self.doc)
            self.missing_links = [where for _, where in unresolved_links(path, self.folder)]
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

    def assembly(self, wanted=None):
        """``choose_assembly`` of this document."""
        return choose_assembly(self.doc, self.path, wanted)

    def check_nothing_lost(self, target):
        """``ModelFileError`` when saving to ``target`` would lose an object of the file,
        or one became invalid since it was opened."""
        try:
            check_nothing_lost(self.inventory, self.doc, target, self.invalid)
        except DocumentLossError as exc:
            raise ModelFileError(str(exc)) from None

    def _check_saved(self, path, target):
        lost = saved_losses(self.doc, path, os.path.dirname(os.path.abspath(target)),
                            view_data=bool(self.gui), missing_before=self.missing_links)
        if lost:
            raise ModelFileError("'%s' was not saved whole: %s" % (target, "; ".join(lost)))

    def save_as(self, path, target=None, warn=None):
        """Save the document to ``path`` for the place ``target`` (the name the user will
        see, where it will live: default ``path``), with the file's view data and its
        links to other files leading from there to the model's linked files."""
        target = target or path
        self.check_nothing_lost(target)
        self.doc.saveAs(path)
        repoint_links(path, self.folder, os.path.dirname(os.path.abspath(target)))
        restore_gui_members(path, self.gui, warn)
        self._check_saved(path, target)

    def save(self, warn=None):
        """Save the document into its own file, with the file's view data."""
        self.check_nothing_lost(self.path)
        self.doc.save()
        restore_gui_members(self.path, self.gui, warn)
        self._check_saved(self.path, self.path)
