"""No upstream twin. Keeping the embedded API server's objects in SQLite, in the spirit of kine.

kube-apiserver keeps its state in etcd; k3s's kine lets it keep the same state
in SQLite or another SQL database instead. This module does that job for the
embedded server when it is started with a data directory (`APIServer(...,
data_dir=PATH)`, `minikcm up --data-dir PATH`): every write that the store
accepts is committed to `PATH/minikcm.db` before the call returns (so before
the HTTP response), and a server started again on the same directory finds
every object and the resourceVersion counter where they were.

The store (`minikcm.apiserver.storage.Storage`) calls `SQLitePersistence.commit`
at the one place a write is applied, with its lock held, before it changes
anything in memory: when SQLite refuses the write, the call fails with a 500
and the in-memory state is exactly as before.

Start reading at: SQLitePersistence.commit, then SQLitePersistence.load.

Design notes:
- Two tables. `objects` holds the current state, one row per object (resource,
  namespace, name) with the wire JSON and its resourceVersion; `meta` holds the
  resourceVersion counter. kine keeps a log of every revision and compacts it;
  here only the latest state is kept, because the watch history is not restored
  after a restart anyway (a watch from an older resourceVersion gets 410
  Expired, as after an etcd compaction). The counter has its own row because a
  delete takes a resourceVersion too, and that version must not be handed out
  again after a restart.
- One transaction per write: the object row and the counter change together or
  not at all.
- WAL journal with synchronous=FULL: each commit waits until its WAL record is
  on disk, so an acknowledged write survives a power cut, not only a crash of
  this process (with NORMAL, the last commits before a power loss can vanish,
  which would break the promise that an answered write is stored). The price is
  one fsync per write; the embedded server handles a handful of writes per
  second in normal use.
- Owner-only files: the database is created 0600 before SQLite opens it
  (`make_private`), so its -wal and -shm files, which SQLite gives the
  database's mode, are 0600 too; the directory is made 0700.
- EXCLUSIVE locking: the first server to open a directory holds SQLite's lock
  until it closes (or its process ends), and a second one is refused at once.
  Two servers sharing a directory would hand out the same resourceVersions.

Thread: any; every method is called with the store lock held (the store
serialises all access), so one connection is shared by all threads.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from minikcm.apimachinery import errors

DB_FILE = "minikcm.db"
"""The database file inside the data directory."""

SCHEMA_VERSION = 1
"""Stored in `meta`; a database written by another schema is refused."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS objects (
    resource         TEXT    NOT NULL,
    namespace        TEXT    NOT NULL,
    name             TEXT    NOT NULL,
    resource_version INTEGER NOT NULL,
    value            TEXT    NOT NULL,
    PRIMARY KEY (resource, namespace, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
"""


def make_private(path: str) -> None:
    """Create the database file owner-only (0600) before SQLite opens it, and make its companions so too.

    SQLite creates a new database with mode 0644 (less the umask), and its
    `-wal` and `-shm` files with the database's mode: creating the file
    first with 0600 keeps all three private. Files left by an older server
    with wider modes are narrowed.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for name in (path, path + "-wal", path + "-shm", path + "-journal"):
        try:
            os.chmod(name, 0o600)
        except FileNotFoundError:
            pass  # no such companion (yet): SQLite will create it with the database's mode


class DataDirInUseError(RuntimeError):
    """Another API server (in this or another process) has the data directory open."""


class SQLitePersistence:
    """The objects and the resourceVersion counter of one data directory.

    Open with `SQLitePersistence(data_dir)`; read everything once with `load()`;
    then `commit()` each write; `close()` at shutdown. `__repr__` takes no lock.
    """

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = os.fspath(data_dir)
        os.makedirs(self.data_dir, mode=0o700, exist_ok=True)
        self.path = os.path.join(self.data_dir, DB_FILE)
        make_private(self.path)
        # isolation_level=None: no implicit transactions; commit() opens and ends its own.
        # timeout=0: a locked database is an error at once, not after a wait.
        self._db: sqlite3.Connection | None = sqlite3.connect(
            self.path, timeout=0, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("BEGIN EXCLUSIVE")  # take the lock now, refuse a second server
            self._db.executescript(_SCHEMA)  # commits the transaction above
            self._check_schema_version()
        except BaseException as err:
            self._db.close()  # releases the lock, if this connection got it
            self._db = None
            if isinstance(err, sqlite3.OperationalError) and "locked" in str(err):
                raise DataDirInUseError(
                    f"data directory {self.data_dir} is in use by another API server") from err
            raise

    def _check_schema_version(self) -> None:
        db = self._conn()
        row = db.execute("SELECT value FROM meta WHERE key = 'schemaVersion'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta (key, value) VALUES ('schemaVersion', ?)", (SCHEMA_VERSION,))
        elif row[0] != SCHEMA_VERSION:
            raise RuntimeError(f"{self.path} has schema version {row[0]}, this minikcm reads "
                               f"{SCHEMA_VERSION}")

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError(f"{self.path} is closed")
        return self._db

    def load(self) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
        """The stored resourceVersion counter and every object as (resource, wire dict).

        Objects come in (resource, namespace, name) order, so a restore is the
        same every time.
        """
        db = self._conn()
        row = db.execute("SELECT value FROM meta WHERE key = 'resourceVersion'").fetchone()
        rv = int(row[0]) if row is not None else 0
        objects = [(resource, json.loads(value)) for resource, value in db.execute(
            "SELECT resource, value FROM objects ORDER BY resource, namespace, name")]
        return rv, objects

    def commit(self, resource: str, key: tuple[str, str], obj: dict[str, Any] | None,
               resource_version: int) -> None:
        """Store one write durably: `obj` under `key`, or its removal when `obj` is None.

        The object row and the counter (now `resource_version`) change in one
        transaction, which is on disk when this returns.

        Raises:
            StatusError: InternalError (500) when SQLite fails or the database is
                closed; nothing was stored.
        """
        namespace, name = key
        if self._db is None:
            raise errors.new_internal_error(f"storing {resource} {name!r} failed: {self.path} is closed")
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if obj is None:
                    db.execute("DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?",
                               (resource, namespace, name))
                else:
                    db.execute(
                        "INSERT OR REPLACE INTO objects "
                        "(resource, namespace, name, resource_version, value) VALUES (?, ?, ?, ?, ?)",
                        (resource, namespace, name, resource_version,
                         json.dumps(obj, separators=(",", ":"), ensure_ascii=False)))
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('resourceVersion', ?)",
                           (resource_version,))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except (sqlite3.Error, TypeError, ValueError) as err:
            # TypeError/ValueError: json.dumps met a value that is not JSON.
            raise errors.new_internal_error(f"storing {resource} {name!r} failed: {err}") from err

    def close(self) -> None:
        """Close the database (a checkpoint folds the WAL into it) and release the directory."""
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def closed(self) -> bool:
        return self._db is None

    def __repr__(self) -> str:
        state = "closed" if self._db is None else "open"
        return f"SQLitePersistence({self.path!r}, {state})"
