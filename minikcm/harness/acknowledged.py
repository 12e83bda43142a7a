"""No upstream twin. The acknowledged-write ledger of chaos runs: a recording, reloadable API server and its check.

A chaos run (minikcm.harness.chaos) puts a `RecordingServer` where the
scenario's API server stood. Every caller (the scenario's kubectl writes, the
kubelet, the controller-managers) goes through it; it forwards each call to the
current `APIServer` and records every write that returned successfully as an
`Ack`: what the caller was told. `reload()` restarts the server on the same
SQLite directory, as a restarted kube-apiserver reads etcd. At the end,
`verify_acknowledged` checks the store still holds every acknowledged write.

Start reading at: RecordingServer.create, then RecordingServer.reload, verify_acknowledged.
"""

from __future__ import annotations

import os
import random
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from minikcm.apimachinery import errors
from minikcm.apimachinery.watch import Interface as WatchInterface
from minikcm.apiserver.persistence import DB_FILE
from minikcm.apiserver.server import APIServer
from minikcm.apiserver.storage import Storage
from minikcm.driver import Step

WireDict = dict[str, Any]


@dataclass(frozen=True)
class Ack:
    """One acknowledged write: what the caller was told."""

    seq: int
    verb: str
    resource: str
    namespace: str
    name: str
    uid: str
    resource_version: int
    terminating: bool
    """The answer carried a deletionTimestamp (the object may be gone later without another write)."""


def _rv(obj: WireDict) -> int:
    value = (obj.get("metadata") or {}).get("resourceVersion") or "0"
    return int(value) if str(value).isdigit() else 0


class RecordingServer:
    """Stands where the scenario's APIServer stood; forwards to the current server and records acknowledged writes.

    `reload()` closes the current server and starts another on the same data
    directory, as a restarted kube-apiserver reads etcd. Reads (`storage`,
    `get`, `list`, `watch`) go to the current server.
    """

    def __init__(self, target: APIServer, data_dir: str) -> None:
        self.target = target
        self.data_dir = data_dir
        self.acks: list[Ack] = []
        self._steps = target.steps()

    def steps(self) -> list[Step]:
        """The server's steps, delegating to whichever server is current (they survive reloads)."""
        def step(i: int, name: str) -> Step:
            def wakeup() -> datetime | None:
                w = self._steps[i].wakeup
                return w() if w is not None else None
            return Step(name, lambda: self._steps[i].ready(), lambda: self._steps[i].run(), wakeup,
                        self._steps[i].delivers)
        return [step(i, s.name) for i, s in enumerate(self._steps)]

    def record(self, verb: str, resource: str, namespace: str | None, obj: WireDict, *,
               uid: str = "", terminating: bool | None = None) -> None:
        meta = obj.get("metadata") or {}
        self.acks.append(Ack(len(self.acks), verb, resource, namespace or meta.get("namespace") or "",
                             meta.get("name", ""), uid or meta.get("uid", ""), _rv(obj),
                             bool(meta.get("deletionTimestamp")) if terminating is None else terminating))

    def answer_object(self, resource: str, namespace: str | None, name: str, answer: WireDict) -> WireDict:
        """The object a write changed: the answer itself, or (a Scale, a Status) the object read after it."""
        kind = answer.get("kind", "")
        if kind and kind != "Status" and kind != "Scale" and (answer.get("metadata") or {}).get("uid"):
            return answer
        try:
            return self.target.get(resource, namespace, name)
        except errors.StatusError:
            return {}

    def create(self, resource: str, namespace: str | None, obj: WireDict, **kw: Any) -> WireDict:
        out = self.target.create(resource, namespace, obj, **kw)
        if not kw.get("dry_run"):
            if kw.get("subresource"):  # pods/binding: the pod changed
                name = (obj.get("metadata") or {}).get("name", "")
                changed = self.answer_object(resource, namespace, name, out)
                if changed:
                    self.record("update", resource, namespace, changed)
            else:
                self.record("create", resource, namespace, out)
        return out

    def update(self, resource: str, namespace: str | None, obj: WireDict, **kw: Any) -> WireDict:
        out = self.target.update(resource, namespace, obj, **kw)
        if not kw.get("dry_run"):
            name = (obj.get("metadata") or {}).get("name", "")
            changed = self.answer_object(resource, namespace, name, out)
            if changed:
                self.record("update", resource, namespace, changed)
        return out

    def patch(self, resource: str, namespace: str | None, name: str, *args: Any, **kw: Any) -> WireDict:
        out = self.target.patch(resource, namespace, name, *args, **kw)
        if not kw.get("dry_run"):
            changed = self.answer_object(resource, namespace, name, out)
            if changed:
                self.record("patch", resource, namespace, changed)
        return out

    def delete(self, resource: str, namespace: str | None, name: str, **kw: Any) -> WireDict:
        try:
            before = self.target.get(resource, namespace, name)
        except errors.StatusError:
            before = {}
        out = self.target.delete(resource, namespace, name, **kw)
        if not kw.get("dry_run") and before:
            uid = before["metadata"]["uid"]
            left = out if (out.get("metadata") or {}).get("uid") == uid else before
            self.record("delete", resource, namespace, {**left, "metadata": {**left["metadata"], "name": name}},
                        uid=uid, terminating=True)
        return out

    def delete_collection(self, resource: str, namespace: str | None, **kw: Any) -> WireDict:
        before = self.target.list(resource, namespace, label_selector=kw.get("label_selector", ""),
                                  field_selector=kw.get("field_selector", ""))["items"]
        out = self.target.delete_collection(resource, namespace, **kw)
        if not kw.get("dry_run"):
            for obj in before:
                self.record("delete", resource, obj["metadata"].get("namespace"), obj, terminating=True)
        return out

    def reload(self, rng: random.Random, forget: float = 0.0) -> int:
        """Stop every watch, close the server, start a new one on the same data directory.

        With `forget` > 0 (tests only) that fraction of the acknowledged
        objects is deleted from the SQLite file between the two: a broken store.
        Returns how many objects were forgotten.
        """
        old = self.target
        with old.storage.lock:
            watchers = old.storage.watchers_locked()
        for w in watchers:
            w.stop()
        old.close()
        forgotten = 0
        if forget > 0:
            forgotten = forget_rows(os.path.join(self.data_dir, DB_FILE), self.acks, rng, forget)
        self.target = APIServer(clock=old.clock, rng=random.Random(rng.getrandbits(64)),
                                data_dir=self.data_dir)
        self._steps = self.target.steps()
        return forgotten

    # -- reads go to the current server (last in the class: `list` would shadow the builtin in annotations) --

    @property
    def storage(self) -> Storage:
        return self.target.storage

    def get(self, resource: str, namespace: str | None, name: str, **kw: Any) -> WireDict:
        return self.target.get(resource, namespace, name, **kw)

    def list(self, resource: str, namespace: str | None, **kw: Any) -> WireDict:
        return self.target.list(resource, namespace, **kw)

    def watch(self, resource: str, namespace: str | None, **kw: Any) -> WatchInterface:
        return self.target.watch(resource, namespace, **kw)

    def __repr__(self) -> str:
        return f"RecordingServer({self.target.storage!r}, acks={len(self.acks)})"


def forget_rows(path: str, acks: list[Ack], rng: random.Random, fraction: float) -> int:
    """Delete about `fraction` of the acknowledged objects (never namespaces or leases) from a closed SQLite file."""
    keys = sorted({(a.resource, a.namespace, a.name) for a in acks
                   if a.verb != "delete" and a.resource not in ("namespaces", "leases", "events")})
    chosen = [k for k in keys if rng.random() < fraction]
    if not chosen:
        return 0
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for resource, namespace, name in chosen:
            db.execute("DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?",
                       (resource, namespace, name))
    finally:
        db.close()
    return len(chosen)


def verify_acknowledged(server: APIServer, acks: list[Ack]) -> list[str]:
    """Every acknowledged write is in the store: the messages of those that are not.

    For each object (uid) that was written, its last acknowledged write
    decides: after a delete, or a write whose answer was terminating, the object
    may be gone; otherwise it must be there, same uid, at that
    resourceVersion or a later one.
    """
    last: dict[str, Ack] = {}
    for ack in acks:
        if ack.uid:
            last[ack.uid] = ack
    problems = []
    for uid, ack in sorted(last.items(), key=lambda item: item[1].seq):
        try:
            now = server.get(ack.resource, ack.namespace, ack.name)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            now = None
        same = now is not None and now["metadata"].get("uid") == uid
        if ack.verb == "delete" or ack.terminating:
            if same and now is not None and ack.verb == "delete" and not now["metadata"].get("deletionTimestamp"):
                problems.append(f"{ack.resource} {ack.namespace}/{ack.name} (uid {uid}): acknowledged delete "
                                f"(write #{ack.seq}) but the object is there, not terminating")
            continue
        if not same:
            problems.append(f"{ack.resource} {ack.namespace}/{ack.name} (uid {uid}): acknowledged {ack.verb} "
                            f"(write #{ack.seq}, resourceVersion {ack.resource_version}) is missing from the store")
        elif now is not None and _rv(now) < ack.resource_version:
            problems.append(f"{ack.resource} {ack.namespace}/{ack.name} (uid {uid}): store holds resourceVersion "
                            f"{_rv(now)}, older than the acknowledged {ack.verb} at {ack.resource_version} "
                            f"(write #{ack.seq})")
    return problems
