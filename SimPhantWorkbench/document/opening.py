"""Opening a FreeCAD document from its file for a run, and saving it again, for every
entry point that works on files (``simphant run``, ``simphant sweep``).

``ModelFile(FreeCAD, path)`` checks the file before FreeCAD reads it
(``file_check.check_file``: member sizes, no entity declarations, stored
enumeration indices), opens the document and makes the checks a run needs
before anything is computed: FreeCAD loaded it whole (``file_check``: no object
of an uninstalled add-on lost, no damaged member; a document that would lose
an object when saved is refused here, before any work), what its file holds
(``inventory``, kept by any later save) and its view data (``GuiDocument.xml``
and the files it refers to, which FreeCAD without its GUI does not write).

``save_as`` and ``save`` refuse to write a document that lost an object of its
file or has an object that became invalid. They write the document into a
temporary file beside the target (``output.atomic``), put the view data back,
make the links to other files of a copy saved into another folder lead to the
files the model's led to (``fcstd.repoint_links``: FreeCAD keeps them relative
to the old folder, so a result document's linked parts would be Invalid), check
it (``check_saved_file``: a whole zip, a ``Document.xml`` that parses, every
object of the document, every link resolvable from where it will live, the view
data) and only then move it over the target: a full disk or a crash leaves the
old file whole, and the temporary files of a killed save are removed by the
next save into that directory. ``save`` follows a symlinked model to the real
file and keeps its permissions. Errors are ``ModelFileError`` (a
``ModelError``: bad input) naming the file.

Why re-point, not copy the linked files or refuse: the linked files are the
user's parts, shared with the model; a result document linking the very same
files shows what was simulated and stays one source of truth (a copy would fork
the parts silently), and refusing would leave assemblies of linked parts without
a result document. The links are written relative, as FreeCAD writes them, so
moving the model's folder with the output folder inside it keeps them valid.
"""
import os
import zipfile

from ..output import atomic
from ..solver import ModelError
from .base import studies
from .fcstd import gui_members, repoint_links, restore_gui_members, unresolved_links
from .file_check import DocumentError, check_document, check_file, read_document_xml
from .inventory import (DocumentLossError, check_nothing_lost, file_inventory, invalid_objects,
                        lost_objects, saved_losses)

__all__ = ["ModelFileError", "ModelFile", "gui_members", "restore_gui_members", "choose_study",
           "choose_assembly", "check_saved_file"]


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


def check_saved_file(path, doc, folder=None, view_data=False, missing_before=()):
    """``DocumentError`` unless the ``.FCStd`` just written at ``path`` is whole: every
    member reads back with its checksum, its ``Document.xml`` parses, it holds every
    object of ``doc``, and (``inventory.saved_losses``) its links to other files lead to
    files from ``folder`` (default: its own; except those to ``missing_before``) and it
    has view data when ``view_data``."""
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise DocumentError("the written file is damaged (%s)" % exc) from None
    if bad is not None:
        raise DocumentError("the written file is damaged (member %r)" % bad)
    read_document_xml(path)                 # parses, or says where it is cut off
    lost = saved_losses(doc, path, folder or os.path.dirname(os.path.abspath(path)),
                        view_data=view_data, missing_before=missing_before)
    if lost:
        raise DocumentError("the written file is not whole: %s" % "; ".join(lost))


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
        atomic.remove_stale_temps(os.path.dirname(os.path.realpath(path)))  # of killed saves
        try:
            root = check_file(path)          # before FreeCAD reads a byte of it
            self.gui = gui_members(path)
        except DocumentError as exc:
            raise ModelFileError(str(exc)) from None
        before = set(FreeCAD.listDocuments())
        try:
            self.doc = FreeCAD.openDocument(path)
        except Exception as exc:  # noqa: BLE001 - FreeCAD raises assorted types
            for name in set(FreeCAD.listDocuments()) - before:
                FreeCAD.closeDocument(name)
            raise ModelFileError("cannot open '%s': %s" % (path, exc)) from None
        try:
            try:
                check_document(self.doc, path, root)   # damaged: bad input, not a partial model
            except DocumentError as exc:
                raise ModelFileError(str(exc)) from None
            self.inventory = file_inventory(path, root)  # every object the file holds
            self.invalid = invalid_objects(self.doc)
            self.missing_links = [where for _, where in unresolved_links(path, self.folder)]
            self._check_whole()
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

    def _check_whole(self):
        """Every entry point saves the document it opens: one that would lose objects of its
        file is refused before any work (and never written)."""
        lost = lost_objects(self.inventory, self.doc)
        if lost:
            raise ModelFileError(
                "'%s': %d object%s of the document would be lost or changed by saving it "
                "(FreeCAD could not load them here; is their workbench installed?): %s"
                % (self.path, len(lost), "" if len(lost) == 1 else "s", "; ".join(lost)))

    def check_nothing_lost(self, target):
        """``ModelFileError`` when saving to ``target`` would lose an object of the file,
        or one became invalid since it was opened."""
        try:
            check_nothing_lost(self.inventory, self.doc, target, self.invalid)
        except DocumentLossError as exc:
            raise ModelFileError(str(exc)) from None

    def save_as(self, path, target=None, warn=None):
        """Save the document to ``path`` for the place ``target`` (the name the user will
        see, where it will live: default ``path``), with the file's view data and its
        links to other files leading from there to the model's linked files, checked and
        moved into place; a symlink at ``path`` is replaced, not followed."""
        target = target or path
        self.check_nothing_lost(target)
        self.doc.Label = os.path.splitext(os.path.basename(target))[0]  # as FreeCAD's saveAs
        self._write(os.path.abspath(path), target, warn)

    def save(self, warn=None):
        """Save the document into its own file (the real file when ``path`` is a symlink,
        its permissions kept), with the file's view data, checked and moved into place; the
        file it replaces is kept as FreeCAD's backup policy says."""
        self.check_nothing_lost(self.path)
        self._write(os.path.realpath(self.path), self.path, warn, in_place=True)

    def _backup(self, final, warn):
        """Keep ``final`` as FreeCAD's own save would (its preferences: CreateBackupFiles,
        CountBackupFiles, UseFCBakExtension -- the default of FreeCAD 1.x --,
        SaveBackupDateFormat)."""
        params = self.FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Document")
        if not params.GetBool("CreateBackupFiles", True):
            return
        try:
            atomic.keep_backup(
                final, params.GetInt("CountBackupFiles", 1),
                params.GetBool("UseFCBakExtension", int(self.FreeCAD.Version()[0]) >= 1),
                params.GetString("SaveBackupDateFormat", "%Y%m%d-%H%M%S"))
        except OSError as exc:
            if warn is not None:
                warn("no backup of '%s' kept: %s" % (final, exc.strerror or exc))

    def _write(self, final, target, warn, in_place=False):
        directory = os.path.dirname(final)
        atomic.remove_stale_temps(directory)
        tmp = atomic.temp_path(directory)
        try:
            self.doc.saveCopy(tmp)
            folder = os.path.dirname(os.path.abspath(target))
            repoint_links(tmp, self.folder, folder)
            restore_gui_members(tmp, self.gui, warn)
            check_saved_file(tmp, self.doc, folder, view_data=bool(self.gui),
                             missing_before=self.missing_links)
            if in_place and os.path.exists(final):
                os.chmod(tmp, os.stat(final).st_mode & 0o7777)
                self._backup(final, warn)
            atomic.commit(tmp, final)
        except Exception as exc:  # noqa: BLE001 - FreeCAD's save raises assorted types
            raise ModelFileError("cannot save '%s': %s; %s" % (
                target, getattr(exc, "strerror", None) or exc,
                "the file is unchanged" if os.path.exists(final) else "nothing written")) \
                from None
        finally:
            _remove_temps(tmp)


def _remove_temps(tmp):
    """Remove ``tmp`` and the files a save left beside it under its name."""
    directory, base = os.path.split(tmp)
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name.startswith(base):
            try:
                os.remove(os.path.join(directory, name))
            except OSError:
                pass
