"""Tests for minikcm.controller.statefulset.stateful_set_status_updater.

Ports of pkg/controller/statefulset/stateful_set_status_updater_test.go (the
1.36 table TestStatefulSetStatusUpdater, TestStatefulSetStatusUpdaterUpdateReplicasConflict
and TestStatefulSetStatusUpdaterConsistencyStore).
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1StatefulSetStatus

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import NamespacedName
from minikcm.client.fake import new_simple_clientset
from minikcm.controller.statefulset.stateful_set_status_updater import new_real_stateful_set_status_updater
from minikcm.controller.util.consistency import ConsistencyError, new_consistency_store
from minikcm.informers.listers import new_stateful_set_lister
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.store import meta_namespace_key_func, new_indexer
from tests.controller.statefulset.ss_testing import new_stateful_set

CONFLICT = errors.new_conflict(GroupResource("apps", "statefulset"), "foo", RuntimeError("object already exists"))

UPDATER_CASES = [
    pytest.param(V1StatefulSetStatus(observed_generation=1, replicas=2), None, False, ("replicas", 2),
                 id="updates status"),
    pytest.param(V1StatefulSetStatus(observed_generation=3, replicas=2), None, False, ("observed_generation", 3),
                 id="updates observed generation"),
    pytest.param(V1StatefulSetStatus(observed_generation=1, replicas=2, available_replicas=3), None, False,
                 ("available_replicas", 3), id="updates available replicas"),
    pytest.param(V1StatefulSetStatus(observed_generation=3, replicas=2),
                 errors.new_internal_error(RuntimeError("API server down")), True, None,
                 id="update replicas server failure"),
    pytest.param(V1StatefulSetStatus(observed_generation=3, replicas=2), CONFLICT, True, None,
                 id="update replicas conflict persists"),
]


def _world(reactor):
    set_ = new_stateful_set(3)
    client = new_simple_clientset()
    client.fake.prepend_reactor("update", "statefulsets", reactor)
    idx = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    idx.add(set_)
    return set_, client, idx


@pytest.mark.parametrize("status, reactor_err, want_err, check", UPDATER_CASES)
def test_stateful_set_status_updater(status, reactor_err, want_err, check):
    """Port of TestStatefulSetStatusUpdater."""
    set_, client, idx = _world(lambda action: (True, action.get_object(), reactor_err))
    updater = new_real_stateful_set_status_updater(client, new_stateful_set_lister(idx))
    if want_err:
        with pytest.raises(errors.StatusError):
            updater.update_stateful_set_status(set_, status)
        return
    updater.update_stateful_set_status(set_, status)
    field, value = check
    assert getattr(set_.status, field) == value


def test_stateful_set_status_updater_update_replicas_conflict():
    """Port of TestStatefulSetStatusUpdaterUpdateReplicasConflict: one conflict, then success."""
    conflicted = [False]

    def conflict_once(action):
        if not conflicted[0]:
            conflicted[0] = True
            return True, action.get_object(), CONFLICT
        return True, action.get_object(), None

    set_, client, idx = _world(conflict_once)
    updater = new_real_stateful_set_status_updater(client, new_stateful_set_lister(idx))
    updater.update_stateful_set_status(set_, V1StatefulSetStatus(observed_generation=3, replicas=2))
    assert set_.status.replicas == 2
    assert conflicted[0]


def test_conflicts_are_retried_five_times():
    calls = []

    def always_conflict(action):
        calls.append(1)
        return True, None, CONFLICT

    set_, client, idx = _world(always_conflict)
    with pytest.raises(errors.StatusError):
        new_real_stateful_set_status_updater(client, new_stateful_set_lister(idx)).update_stateful_set_status(
            set_, V1StatefulSetStatus(replicas=1))
    assert len(calls) == 5


class FakeRVGetter:
    """Upstream's fakeRVGetter: an informer store stuck at `rv`."""

    def __init__(self, rv: str) -> None:
        self.rv = rv

    def last_store_sync_resource_version(self) -> str:
        return self.rv


def test_stateful_set_status_updater_consistency_store():
    """Port of TestStatefulSetStatusUpdaterConsistencyStore: the write's RV must be seen before the next sync."""
    rv_getter = FakeRVGetter("1")
    store = new_consistency_store({GroupResource("apps", "statefulsets"): rv_getter})

    def written_at_2(action):
        obj = action.get_object()
        obj.metadata.resource_version = "2"
        return True, obj, None

    set_, client, _ = _world(written_at_2)
    updater = new_real_stateful_set_status_updater(client, None, store)
    updater.update_stateful_set_status(set_, V1StatefulSetStatus(observed_generation=1, replicas=2))
    with pytest.raises(ConsistencyError):
        store.ensure_ready(NamespacedName(set_.metadata.namespace, set_.metadata.name))
    rv_getter.rv = "2"
    store.ensure_ready(NamespacedName(set_.metadata.namespace, set_.metadata.name))
