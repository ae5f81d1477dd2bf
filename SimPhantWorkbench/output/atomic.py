"""Files replaced whole: written under a temporary name beside their target, checked, then
moved over it, so that a full disk, a crash or ``kill -9`` never leaves a half-written file
under the target's name.

``temp_path(directory)`` names the temporary file: ``.simphant-save-<pid>-<host>-<random>``
(the writing process, a hash of its host name). ``remove_stale_temps(directory)``
removes those whose process no longer runs on this host (``kill -9`` during a save, or
the files a program writing the temporary file left beside it, which share its name
as a prefix), and unreadable ones older than ``STALE_AGE``. ``keep_backup(final, ...)``
keeps the file about to be replaced under a backup name (FreeCAD's naming: ``name1``,
``name2``... or ``stem.<date-time>.FCBak``), as a hard link where the file system has
them (no space needed, the file itself never missing). ``commit(tmp, final)`` flushes the
temporary file to the disk, moves it over ``final`` and flushes the directory.
"""
import hashlib
import os
import re
import socket
import time
import uuid

__all__ = ["TEMP_PREFIX", "STALE_AGE", "temp_path", "remove_stale_temps", "commit",
           "keep_backup", "backup_name", "pid_alive"]

TEMP_PREFIX = ".simphant-save-"
#: temporary files (and staging directories) of unknown owner older than this [s] are
#: abandoned
STALE_AGE = 600.0
_NAME = re.compile(r"^%s(\d+)-([0-9a-f]{8})-[0-9a-f]+" % re.escape(TEMP_PREFIX))


def pid_alive(pid):
    """Whether a process ``pid`` runs on this machine (when in doubt: yes)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def _host():
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


def temp_path(directory, suffix=".FCStd"):
    """A new temporary file name in ``directory`` owned by this process."""
    return os.path.join(directory, "%s%d-%s-%s%s" % (TEMP_PREFIX, os.getpid(), _host(),
                                                     uuid.uuid4().hex[:12], suffix))


def remove_stale_temps(directory):
    """Remove the temporary files of dead processes in ``directory``; returns their names."""
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    host, now = _host(), time.time()
    for name in names:
        if not name.startswith(TEMP_PREFIX):
            continue
        full = os.path.join(directory, name)
        try:
            st = os.lstat(full)
        except OSError:
            continue
        if not os.path.isfile(full) or os.path.islink(full):
            continue
        m = _NAME.match(name)
        if m is not None:
            if m.group(2) != host or pid_alive(int(m.group(1))):
                continue                # a save in progress (or on another machine)
        elif now - st.st_mtime < STALE_AGE:
            continue
        try:
            os.remove(full)
            removed.append(name)
        except OSError:
            pass
    return removed


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def commit(tmp, final):
    """Flush ``tmp`` to the disk and move it over ``final`` (same directory): ``final`` is
    then the whole new file, or -- if anything fails -- still the old one."""
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    _fsync_dir(os.path.dirname(os.path.abspath(final)))


def _mtime(path):
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def backup_name(final, count=1, timestamped=False, date_format="%Y%m%d-%H%M%S"):
    """``(backup path for final, [older backups to remove])``: ``final1``..``final<count>``
    (the first free number, else the oldest), or with ``timestamped``
    ``<stem>.<date-time>.FCBak`` (``-N`` added when taken), keeping ``count`` of them."""
    directory, base = os.path.split(os.path.abspath(final))
    count = max(1, int(count))
    if not timestamped:
        names = [os.path.join(directory, base + str(i)) for i in range(1, count + 1)]
        free = [n for n in names if not os.path.lexists(n)]
        return (free[0] if free else min(names, key=_mtime)), []
    stem = os.path.splitext(base)[0]
    name = os.path.join(directory, "%s.%s.FCBak" % (stem, time.strftime(date_format)))
    k = 1
    while os.path.lexists(name):
        name = os.path.join(directory, "%s.%s-%d.FCBak" % (stem, time.strftime(date_format), k))
        k += 1
    older = sorted((os.path.join(directory, n) for n in os.listdir(directory)
                    if n.startswith(stem + ".") and n.endswith(".FCBak")), key=_mtime)
    return name, older[:max(0, len(older) - (count - 1))]


def keep_backup(final, count=1, timestamped=False, date_format="%Y%m%d-%H%M%S"):
    """Keep ``final`` (about to be replaced) as its backup (``backup_name``); returns the
    backup's path. A hard link where the file system has them, else a copy."""
    import shutil
    name, older = backup_name(final, count, timestamped, date_format)
    for path in older + [name]:
        if os.path.lexists(path):
            os.remove(path)
    try:
        os.link(final, name)
    except OSError:
        shutil.copy2(final, name)
    return name

