"""Port of pkg/controller/statefulset/stateful_set_status_updater.go.

The one place the StatefulSet controller writes a set: its status
subresource. A write that loses a race (409 Conflict) is retried on a fresh
copy from the cache; in 1.36 every successful write is also recorded in the
consistency store, so the next sync of the set waits until the informer
has seen it.

The 1.36 consistency-store argument is reconstructed from the 1.36
stateful_set_status_updater_test.go (TestStatefulSetStatusUpdaterConsistencyStore)
on top of a pre-1.36 copy.

Start reading at: RealStatefulSetStatusUpdater.update_stateful_set_status.

Not ported: nothing.
Differs from Go: `clock` (Go: none) paces the conflict retries (minikcm.util.retry).
"""

from __future__ import annotations

from typing import Protocol

from kubernetes.client import V1StatefulSet, V1StatefulSetStatus

from minikcm.apimachinery import runtime
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import UpdateOptions
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import NamespacedName
from minikcm.client.interface import Interface
from minikcm.clock import Clock, or_real
from minikcm.controller.util.consistency import ConsistencyStore, new_noop_consistency_store
from minikcm.informers.listers import StatefulSetLister
from minikcm.util import retry

STATEFUL_SET_GROUP_RESOURCE = GroupResource("apps", "statefulsets")
"""The consistency store's key for status writes."""


class StatefulSetStatusUpdaterInterface(Protocol):
    """Port of StatefulSetStatusUpdaterInterface: writes a set's status, retrying conflicts, raising the rest."""

    def update_stateful_set_status(self, set_: V1StatefulSet, status: V1StatefulSetStatus) -> None: ...


def new_real_stateful_set_status_updater(client: Interface, set_lister: StatefulSetLister | None,
                                         consistency_store: ConsistencyStore | None = None,
                                         clock: Clock | None = None) -> RealStatefulSetStatusUpdater:
    """Port of NewRealStatefulSetStatusUpdater: the updater over `client`, re-reading from `set_lister`."""
    return RealStatefulSetStatusUpdater(client, set_lister, consistency_store or new_noop_consistency_store(),
                                        or_real(clock))


class RealStatefulSetStatusUpdater:
    """Port of realStatefulSetStatusUpdater."""

    def __init__(self, client: Interface, set_lister: StatefulSetLister | None,
                 consistency_store: ConsistencyStore, clock: Clock) -> None:
        self.client = client
        self.set_lister = set_lister
        self.consistency_store = consistency_store
        self.clock = clock  # no Go twin: paces the conflict retries (Go sleeps in real time)

    def update_stateful_set_status(self, set_: V1StatefulSet, status: V1StatefulSetStatus) -> None:
        """Port of realStatefulSetStatusUpdater.UpdateStatefulSetStatus: write `status` with UpdateStatus.

        `set_` must be the caller's copy: its status is overwritten. After a
        failed write the next try starts from the cache's copy of the set
        (its resourceVersion may have moved on); up to DEFAULT_RETRY's 5 tries
        while the error is a Conflict.

        Raises: the last write error.
        """
        current = set_

        def attempt() -> None:
            nonlocal current
            current.status = status
            namespace = current.metadata.namespace or ""
            try:
                updated = self.client.apps_v1().stateful_sets(namespace).update_status(current, UpdateOptions())
            except Exception as update_err:
                try:
                    assert self.set_lister is not None, "a failed status write needs the set lister to retry"
                    current = deep_copy(self.set_lister.stateful_sets(namespace).get(current.metadata.name or ""))
                except Exception as err:  # reported; the next try writes the copy we have
                    runtime.handle_error(RuntimeError(
                        f"error getting updated StatefulSet {namespace}/{current.metadata.name} from lister: {err}"))
                raise update_err  # noqa: B904 - the write's error decides whether to retry
            self.consistency_store.wrote_at(NamespacedName(namespace, current.metadata.name or ""),
                                            current.metadata.uid or "", STATEFUL_SET_GROUP_RESOURCE,
                                            updated.metadata.resource_version or "")

        retry.retry_on_conflict(retry.DEFAULT_RETRY, attempt, self.clock)
