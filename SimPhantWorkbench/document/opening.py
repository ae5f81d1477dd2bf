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

``save_as`` and ``save`` write the document with the file's view data into a
temporary file beside the target (``output.atomic``), check it (a whole zip,
a ``Document.xml`` that parses, every object of the document in it) and only
then move it over the target: a full disk or a crash leaves the old file
whole, and the temporary files of a killed save are removed by the next save
into that directory. ``save`` follows a symlinked model to the real file and
keeps its permissions. Errors are ``ModelFileError`` (a ``ModelError``: bad
input) naming the file.
"""
import os
import zipfile

from ..output import atomic
from ..solver import ModelError
from .base import studies
from .file_check import (DocumentError, FileRefused, check_archive, check_document,
                         check_file, parse_xml, read_document_xml, read_member)
from .inventory import (DocumentLossError, check_nothing_lost, file_inventory, lost_objects,
                        unsaved_objects)

__all__ = ["ModelFileError", "ModelFile", "gui_members", "restore_gui_members", "choose_study",
           "check_saved_file"]


class ModelFileError(ModelError):
    """A document file that cannot be opened or saved as it is."""


def gui_members(path):
    """The GUI part of a .FCStd: ``GuiDocument.xml`` (visibility, colours, display
    modes...), the files it refers to (colour lists) and the thumbnail, as
    ``{name: bytes}``; empty when the document has none.

    FreeCAD without its GUI does not write them: a document saved headless
    opens in the GUI with every object hidden and default colours. The saves
    here put them back. Each member is read within ``file_check``'s limits; a
    ``GuiDocument.xml`` declaring entities is refused (``DocumentError``), one that
    does not parse is kept without the files it would refer to.
    """
    try:
        with zipfile.ZipFile(path) as z:
            check_archive(z, path)
            names = set(z.namelist())
            if "GuiDocument.xml" not in names:
                return {}
            xml = read_member(z, "GuiDocument.xml", path)
            wanted = {"GuiDocument.xml"}
            try:
                root = parse_xml(xml, path, "GuiDocument.xml")
                wanted |= {el.get("file") for el in root.iter() if el.get("file")}
            except FileRefused:
                raise
            except DocumentError:
                pass                # not parsed: kept, without the files it refers to
            wanted |= {n for n in names if n.startswith("thumbnails/")}
            out = {"GuiDocument.xml": xml}
            for n in sorted((wanted & names) - {"GuiDocument.xml"}):
                out[n] = read_member(z, n, path)
            return out
    except (OSError, zipfile.BadZipFile):
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


def check_saved_file(path, doc):
    """``DocumentError`` unless the ``.FCStd`` just written at ``path`` is whole: every
    member reads back with its checksum, its ``Document.xml`` parses and it holds every
    object of ``doc``."""
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        raise DocumentError("the written file is damaged (%s)" % exc) from None
    if bad is not None:
        raise DocumentError("the written file is damaged (member %r)" % bad)
    missing = unsaved_objects(doc, file_inventory(path, read_document_xml(path)))
    if missing:
        raise DocumentError("the written file lacks %d object%s: %s"
                            % (len(missing), "" if len(missing) == 1 else "s",
                               "; ".join(missing)))


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
        """``ModelFileError`` when saving to ``target`` would lose an object of the file."""
        try:
            check_nothing_lost(self.inventory, self.doc, target)
        except DocumentLossError as exc:
            raise ModelFileError(str(exc)) from None

    def save_as(self, path, target=None, warn=None):
        """Save the document to ``path`` (named ``target`` in messages, the name the user
        will see: default ``path``) with the file's view data, checked and moved into place;
        a symlink at ``path`` is replaced, not followed."""
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
            restore_gui_members(tmp, self.gui, warn)
            check_saved_file(tmp, self.doc)
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
