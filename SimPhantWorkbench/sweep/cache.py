"""The result cache of parameter studies: finished variants by model fingerprint.

One SQLite file, ``<directory>/results.sqlite`` (not one file per variant), keyed by
the variant's fingerprint (``solver.batch.fingerprint``: the solver's sources, the
converted model and the settings, so a rerun with another SimPhant misses). An
entry holds the status, messages, metric values with the expression each was
computed from, and the kept time series (``.npy`` bytes). A rerun takes a variant
from the cache when every metric it asks for (same expression) and every kept series
are there.

* An entry that cannot be read (damaged) is a miss: the variant runs again and its
  entry is replaced; ``damaged`` counts them.
* A file that is not a cache database of this format is refused (``CacheError``,
  bad input naming the file): remove it or run without the cache.

Only the client (the process converting the variants) reads and writes it.
"""
import io
import json
import math
import os
import sqlite3

import numpy as np

from ..solver import ModelError

__all__ = ["Cache", "CacheError", "CACHE_FILE", "CACHE_FORMAT"]

CACHE_FILE = "results.sqlite"
#: stored in the file; another format is refused rather than misread
CACHE_FORMAT = "simphant-sweep-cache-1"


class CacheError(ModelError):
    """The cache file is damaged or of another format."""


def _npy(array):
    buf = io.BytesIO()
    np.save(buf, np.asarray(array, dtype=float), allow_pickle=False)
    return buf.getvalue()


def _from_npy(data):
    return np.load(io.BytesIO(data), allow_pickle=False)


class Cache:
    """Finished variants on disk (see the module docstring)."""

    def __init__(self, directory):
        self.directory = directory
        self.path = os.path.join(directory, CACHE_FILE)
        self.damaged = 0
        os.makedirs(directory, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, "
                            "value TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, "
                            "entry TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS series (key TEXT, name TEXT, "
                            "signal TEXT, t BLOB, x BLOB, PRIMARY KEY (key, name))")
            row = self.db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (CACHE_FORMAT,))
                self.db.commit()
            elif row[0] != CACHE_FORMAT:
                raise CacheError("the result cache '%s' has the format %r, not %r: remove it "
                                 "or run without the cache" % (self.path, row[0], CACHE_FORMAT))
        except sqlite3.DatabaseError as exc:
            self._close()
            raise CacheError("the result cache '%s' is damaged (%s): remove it or run "
                             "without the cache (--no-cache)" % (self.path, exc)) from None

    def _close(self):
        db = getattr(self, "db", None)
        if db is not None:
            db.close()
            self.db = None

    close = _close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._close()
        return False

    def _query(self, sql, args):
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise CacheError("the result cache '%s' is damaged (%s): remove it or run "
                             "without the cache (--no-cache)" % (self.path, exc)) from None

    def get(self, key, metrics, keep=()):
        """The stored entry of ``key`` (a dict: status, message, error, warnings, sim_time,
        metrics {name: {text, value}}, series {name: (t, x)}) if it has every metric of
        ``metrics`` (same expressions) and every signal of ``keep``, else None."""
        rows = self._query("SELECT entry FROM entries WHERE key = ?", (key,))
        if not rows:
            return None
        try:
            entry = json.loads(rows[0][0])
            if entry["status"] not in ("ok", "failed"):
                raise ValueError(entry["status"])
            float(entry.get("sim_time", 0.0))
            stored = entry.get("metrics", {})
            if entry["status"] == "ok":
                for m in metrics:
                    if m.name not in stored or stored[m.name].get("text") != m.text:
                        return None
            entry["series"] = self._series(key, keep) if entry["status"] == "ok" else {}
        except (ValueError, TypeError, KeyError, AttributeError):
            self.damaged += 1
            return None
        if entry["series"] is None:
            return None
        return entry

    def _series(self, key, keep):
        out = {}
        for sig in keep:
            rows = self._query("SELECT signal, t, x FROM series WHERE key = ? AND name = ?",
                               (key, sig.name))
            if not rows or rows[0][0] != sig.text:
                return None
            out[sig.name] = (_from_npy(rows[0][1]), _from_npy(rows[0][2]))
        return out

    def put(self, key, row, metrics, series=None):
        """Store a finished variant (its metrics added to those stored before)."""
        old = self._query("SELECT entry FROM entries WHERE key = ?", (key,))
        stored = {}
        if old and row["status"] == "ok":
            try:
                prev = json.loads(old[0][0])
                stored = dict(prev.get("metrics", {})) if prev.get("status") == "ok" else {}
            except (ValueError, TypeError, AttributeError):
                stored = {}
        for m in metrics:
            value = row.get(m.name)
            stored[m.name] = {"text": m.text,
                              "value": None if value is None or math.isnan(value) else value}
        entry = dict(status=row["status"], message=row["message"], error=row["error"],
                     warnings=row.get("warnings", ""),
                     metrics=stored if row["status"] == "ok" else {},
                     sim_time=row["sim_time"])
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?)",
                                (key, json.dumps(entry)))
                for name, (sig, t, x) in (series or {}).items():
                    self.db.execute("INSERT OR REPLACE INTO series VALUES (?, ?, ?, ?, ?)",
                                    (key, name, sig, _npy(t), _npy(x)))
        except sqlite3.DatabaseError as exc:
            raise CacheError("cannot write the result cache '%s': %s" % (self.path, exc)) \
                from None

    def __len__(self):
        return int(self._query("SELECT COUNT(*) FROM entries", ())[0][0])
