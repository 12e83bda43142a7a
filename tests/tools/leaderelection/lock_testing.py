"""Test doubles for the leader election tests: an in-memory lock and a clock that ticks on every read.

`MemoryLock` implements resourcelock.Interface over a `LeaseStore` shared by
every candidate, with the optimistic concurrency of a Lease: an update succeeds
only if nobody wrote the record since this lock last read or wrote it. It plays
the part of upstream's fake clientset plus LeaseLock, so the elector can be
tested without an API server. `react` scripts failures the way upstream's
reactors do.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import FakeClock
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord

LEASES = GroupResource("coordination.k8s.io", "leases")


@dataclass
class LeaseStore:
    """The server side: one record (None: no Lease) with a version bumped on each write."""

    record: LeaderElectionRecord | None = None
    version: int = 0
    ops: list[tuple[str, str]] = field(default_factory=list)  # (identity, verb) of every API call
    lock: threading.Lock = field(default_factory=threading.Lock)


class MemoryLock:
    """A resourcelock.Interface over a LeaseStore, caching the version it last saw (like LeaseLock)."""

    def __init__(self, store: LeaseStore, identity: str, name: str = "foo/bar") -> None:
        self.store = store
        self._identity = identity
        self.name = name
        self.cached_version: int | None = None  # None until a get or create succeeded
        self.ops: list[str] = []  # API calls made through this lock
        self.events: list[str] = []  # what an event recorder would have received
        self.counts: Counter[str] = Counter()
        self.react: Callable[[str, int], None] | None = None  # (verb, nth call of that verb); may raise

    def _call(self, verb: str) -> None:
        self.counts[verb] += 1
        self.ops.append(verb)
        with self.store.lock:
            self.store.ops.append((self._identity, verb))
        if self.react is not None:
            self.react(verb, self.counts[verb])

    def get(self) -> tuple[LeaderElectionRecord, bytes]:
        self._call("get")
        with self.store.lock:
            if self.store.record is None:
                raise errors.new_not_found(LEASES, "bar")
            self.cached_version = self.store.version
            record = replace(self.store.record)
        return record, record.to_json()

    def create(self, ler: LeaderElectionRecord) -> None:
        self._call("create")
        with self.store.lock:
            if self.store.record is not None:
                raise errors.new_already_exists(LEASES, "bar")
            self.store.record = replace(ler)
            self.store.version += 1
            self.cached_version = self.store.version

    def update(self, ler: LeaderElectionRecord) -> None:
        if self.cached_version is None:  # as LeaseLock: fails before any API call
            raise RuntimeError("lease not initialized, call get or create first")
        self._call("update")
        with self.store.lock:
            if self.store.version != self.cached_version:
                raise errors.new_conflict(LEASES, "bar", "the object has been modified")
            self.store.record = replace(ler)
            self.store.version += 1
            self.cached_version = self.store.version

    def record_event(self, s: str) -> None:
        self.events.append(f"Normal LeaderElection {self._identity} {s}")

    def identity(self) -> str:
        return self._identity

    def describe(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"MemoryLock({self._identity!r}, cached={self.cached_version}, ops={len(self.ops)})"


class TickingClock(FakeClock):
    """A FakeClock whose time moves on by 1 µs at every read, as a real clock's does.

    Some upstream cases rely on two reads of the real clock differing (a record
    with a 0 s lease is "valid" only because the observed time is a little later
    than the attempt's start).
    """

    def now(self):  # type: ignore[override]
        self.step(1e-6)
        return super().now()
