"""The output directory of ``simphant run``: staging, the manifest, and what may be removed.

A run writes every file into a hidden staging directory inside the output
directory (``.simphant-partial-<random>``) and moves them into place only when
all are complete, the manifest ``run.json`` last. The manifest records the
run's own id and the SHA-256 of every file the run wrote, signed (HMAC-SHA256) with a
key kept in the user's data folder (``manifest_key``: created on first use, readable by
the user only).

Only files that can be proved to be a previous run's are removed: a later run
deletes a file only when the previous ``run.json`` carries a valid signature of this
user's key (so SimPhant wrote it: a manifest forged by hand or by another program,
even one that knows the files' hashes, removes nothing), lists the file with a hash
and the file still has that hash (so it was written by that run and nobody changed it
since), its name is a plain file name inside the directory (no path, no
symlink), it is not one of the ``protected`` files (the model being run) and
this run does not write it again.

A staging directory carries a small owner file (process id, host, start time).
Staging directories left behind by a run that was killed (its process no
longer exists, or an unowned one older than ``STALE_AGE`` seconds) are removed
by the next run in the same directory; those of a run still in progress are
left alone.
"""
import hashlib
import hmac
import json
import os
import shutil
import socket
import tempfile
import time
import uuid

from .atomic import STALE_AGE, pid_alive

__all__ = ["MANIFEST", "STAGING_PREFIX", "STALE_AGE", "OutputDirError", "OutputDir",
           "file_sha256", "read_manifest", "manifest_key", "manifest_signature"]

MANIFEST = "run.json"
STAGING_PREFIX = ".simphant-partial-"
_OWNER = ".owner.json"


class OutputDirError(Exception):
    """The output directory cannot be used (message names it and why)."""


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _plain(name):
    return (isinstance(name, str) and name and name == os.path.basename(name)
            and name not in (".", "..") and not name.startswith(".") and os.sep not in name
            and "\0" not in name and (os.altsep is None or os.altsep not in name))


#: the largest manifest read [bytes]
MAX_MANIFEST_BYTES = 16 * 1024 ** 2


def read_manifest(out_dir):
    """The previous run's manifest in ``out_dir`` as a dict (empty when there is none or
    it cannot be read)."""
    try:
        path = os.path.join(out_dir, MANIFEST)
        if os.path.islink(path):
            return {}
        with open(path, "rb") as fh:
            text = fh.read(MAX_MANIFEST_BYTES + 1)
        if len(text) > MAX_MANIFEST_BYTES:
            return {}
        data = json.loads(text.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def manifest_key(create=True):
    """This user's key that signs manifests (bytes; ``$XDG_DATA_HOME/SimPhant`` or
    ``~/.local/share/SimPhant``), made on first use; ``None`` when it cannot be had."""
    folder = os.path.join(os.environ.get("XDG_DATA_HOME")
                          or os.path.join(os.path.expanduser("~"), ".local", "share"),
                          "SimPhant")
    path = os.path.join(folder, "manifest.key")
    try:
        with open(path, "rb") as fh:
            key = fh.read(256)
        if len(key) >= 32:
            return key
    except OSError:
        pass
    if not create:
        return None
    try:
        os.makedirs(folder, exist_ok=True)
        tmp = "%s.%d.tmp" % (path, os.getpid())
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(32).hex().encode("ascii"))
        os.replace(tmp, path)
    except OSError:
        return None
    return manifest_key(create=False)


def manifest_signature(manifest, key):
    """HMAC-SHA256 (hex) of a manifest's ``run_id`` and ``sha256`` under ``key``."""
    text = json.dumps(dict(run_id=manifest.get("run_id"), sha256=manifest.get("sha256")),
                      sort_keys=True, ensure_ascii=True)
    return hmac.new(key, text.encode("ascii"), hashlib.sha256).hexdigest()


def _listed(manifest):
    """Plain file names a manifest lists (``files`` and ``sha256``)."""
    names = set()
    files = manifest.get("files")
    if isinstance(files, list):
        names |= {f for f in files if _plain(f)}
    hashes = manifest.get("sha256")
    if isinstance(hashes, dict):
        names |= {f for f in hashes if _plain(f)}
    return names


def _signed(manifest):
    """Whether ``manifest`` carries this user's signature (``manifest_signature``)."""
    key = manifest_key(create=False)
    signature = manifest.get("signature")
    return key is not None and isinstance(signature, str) and hmac.compare_digest(
        signature, manifest_signature(manifest, key))


def _proven(manifest):
    """``{name: sha256}`` of the files a manifest proves it wrote: signed by this user's
    key, plain names, hex hashes."""
    hashes = manifest.get("sha256")
    if not isinstance(manifest.get("run_id"), str) or not isinstance(hashes, dict):
        return {}
    if not _signed(manifest):
        return {}
    return {n: h for n, h in hashes.items()
            if _plain(n) and n != MANIFEST and isinstance(h, str) and len(h) == 64}


def _same(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class OutputDir:
    """The output directory of one run.

    ``protected``: paths that are never removed or overwritten (the model file).
    Use: ``prepare()`` before the work (checks that the directory can be
    written, creates the staging directory), write into ``staging``, then
    ``commit(names, info)``; ``discard()`` in any case afterwards.
    """

    def __init__(self, path, protected=()):
        self.path = os.path.abspath(path)
        self.protected = [os.path.abspath(p) for p in protected]
        self.staging = None
        self.created = False
        self.run_id = uuid.uuid4().hex
        self.removed_partials = []
        self.removed = []

    # ------------------------------------------------------------------ before the run
    def prepare(self):
        """Create the directory (if needed) and the staging directory; remove the staging
        directories of earlier interrupted runs. ``OutputDirError`` if it cannot be used."""
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise OutputDirError("output '%s' exists and is not a directory" % self.path)
        self._check_protected()
        try:
            if not os.path.isdir(self.path):
                os.makedirs(self.path)
                self.created = True
            self._remove_stale_partials()
            self.staging = tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.path)
            with open(os.path.join(self.staging, _OWNER), "w") as fh:
                json.dump(dict(pid=os.getpid(), host=socket.gethostname(), run_id=self.run_id,
                               started=time.time()), fh)
        except OSError as exc:
            self.discard()
            raise OutputDirError("cannot write to the output directory '%s': %s"
                                 % (self.path, exc.strerror or exc)) from None
        return self.staging

    def _check_protected(self):
        """Refuse a directory where a previous run's files include a protected file: the
        run would replace or remove it."""
        if not os.path.isdir(self.path):
            return
        listed = _listed(read_manifest(self.path))
        for p in self.protected:
            if _same(os.path.dirname(p), self.path) and (
                    os.path.basename(p) in listed or os.path.basename(p) == MANIFEST):
                raise OutputDirError(
                    "'%s' is a file an earlier run wrote into '%s'; this run would replace "
                    "or remove it: choose another output directory" % (p, self.path))

    def _remove_stale_partials(self):
        host = socket.gethostname()
        now = time.time()
        for name in os.listdir(self.path):
            if not name.startswith(STAGING_PREFIX):
                continue
            full = os.path.join(self.path, name)
            if os.path.islink(full) or not os.path.isdir(full):
                continue
            owner = None
            try:
                with open(os.path.join(full, _OWNER)) as fh:
                    owner = json.load(fh)
            except (OSError, ValueError, UnicodeDecodeError):
                pass
            if isinstance(owner, dict) and isinstance(owner.get("pid"), int):
                if owner.get("host") != host or pid_alive(owner["pid"]):
                    continue         # another run, in progress (or on another machine)
            else:
                try:
                    if now - os.lstat(full).st_mtime < STALE_AGE:
                        continue     # just created by a run that has not written its owner
                except OSError:
                    continue
            shutil.rmtree(full, ignore_errors=True)
            self.removed_partials.append(name)

    # ------------------------------------------------------------------ after the run
    def commit(self, names, info):
        """Write the manifest (``info`` plus ``run_id``, ``files``, ``sha256``) and move the
        staged files ``names`` into place, the manifest last; then remove the files of the
        previous run that this one does not write and that are proved to be that run's.
        Returns the list of files written (with the manifest)."""
        names = [n for n in names if n != MANIFEST]
        for n in names:
            if not _plain(n):
                raise OutputDirError("refusing to write '%s' outside '%s'" % (n, self.path))
            if names.count(n) > 1:
                raise OutputDirError("two outputs are named '%s'; nothing written" % n)
        hashes = {n: file_sha256(os.path.join(self.staging, n)) for n in names}
        files = names + [MANIFEST]
        manifest = dict(info)
        manifest.update(run_id=self.run_id, files=files, sha256=hashes)
        key = manifest_key()
        if key is not None:
            manifest["signature"] = manifest_signature(manifest, key)
        with open(os.path.join(self.staging, MANIFEST), "w") as fh:
            json.dump(manifest, fh, indent=1)
        for n in files:
            target = os.path.join(self.path, n)
            if any(_same(target, p) for p in self.protected):
                raise OutputDirError("refusing to overwrite '%s' (the model) with an output"
                                     % target)
        stale = self._stale(set(files))
        for n in names:
            os.replace(os.path.join(self.staging, n), os.path.join(self.path, n))
        for n in stale:
            try:
                os.remove(os.path.join(self.path, n))
                self.removed.append(n)
            except OSError:
                pass
        os.replace(os.path.join(self.staging, MANIFEST), os.path.join(self.path, MANIFEST))
        return files

    def is_previous_output(self, name):
        """Whether the file ``name`` in the directory is one the previous run wrote (proved by
        its signed manifest) and unchanged since: a run may replace it."""
        return name in self._stale(set())

    def _stale(self, keep):
        """Files of the previous run (proved by their hash) that this run does not write."""
        out = []
        for n, digest in sorted(_proven(read_manifest(self.path)).items()):
            if n in keep:
                continue
            full = os.path.join(self.path, n)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            import stat
            if not stat.S_ISREG(st.st_mode):
                continue     # a symlink, a directory...: not a file a run wrote
            if any(_same(full, p) for p in self.protected):
                continue
            try:
                if file_sha256(full) != digest:
                    continue     # changed since that run wrote it
            except OSError:
                continue
            out.append(n)
        return out

    def discard(self):
        """Remove the staging directory (and the output directory if this run created it
        and it is empty)."""
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None
        if self.created:
            try:
                os.rmdir(self.path)          # only if empty
            except OSError:
                pass
            self.created = False
