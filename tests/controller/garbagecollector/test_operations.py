"""Tests for minikcm.controller.garbagecollector.operations; cases are ours (upstream tests these only
through garbagecollector_test.go), written from operations.go's documented behaviour."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors, meta
from minikcm.apimachinery.schema import GroupResource
from minikcm.controller.garbagecollector.errors import NamespacedOwnerOfClusterScopedObjectError, RestMappingError
from minikcm.controller.garbagecollector.graph import Node
from minikcm.controller.garbagecollector.operations import resource_default_namespace

from .gc_testing import make_id, make_metadata_obj, new_test_gc

RS = make_id("apps/v1", "ReplicaSet", "ns1", "rs", "rs-uid")
POD = make_id("v1", "Pod", "ns1", "pod", "pod-uid")
PODS = GroupResource("", "pods")


def conflict() -> errors.StatusError:
    return errors.new_conflict(PODS, "pod", "the object has been modified")


RESOURCE_DEFAULT_NAMESPACE_CASES = [
    pytest.param(True, "ns1", "ns1", id="namespaced-keeps-namespace"),
    pytest.param(False, "ns1", "", id="cluster-scoped-drops-namespace"),
]


@pytest.mark.parametrize("namespaced, default, want", RESOURCE_DEFAULT_NAMESPACE_CASES)
def test_resource_default_namespace(namespaced, default, want):
    assert resource_default_namespace(namespaced, default) == want


def test_api_resource_of_unserved_version_is_a_rest_mapping_error():
    gc, _ = new_test_gc()
    with pytest.raises(RestMappingError, match="extensions/v1beta1/Deployment"):
        gc.api_resource("extensions/v1beta1", "Deployment")


def test_get_object_of_namespaced_kind_without_namespace():
    gc, client = new_test_gc()
    with pytest.raises(NamespacedOwnerOfClusterScopedObjectError):
        gc.get_object(make_id("v1", "Pod", "", "pod", "pod-uid"))
    assert client.fake.actions() == []  # refused before any call


def test_delete_object_sends_uid_and_resource_version_preconditions():
    gc, client = new_test_gc(make_metadata_obj(POD, RS))
    pod = client.core_v1().pods("ns1").get("pod")
    client.fake.clear_actions()
    gc.delete_object(POD, pod.metadata.resource_version, pod.metadata.owner_references,
                     meta.DELETE_PROPAGATION_BACKGROUND)
    (action,) = client.fake.actions()
    opts = action.get_delete_options()
    assert opts.preconditions == meta.Preconditions(uid="pod-uid", resource_version=pod.metadata.resource_version)
    assert opts.propagation_policy == meta.DELETE_PROPAGATION_BACKGROUND
    assert client.core_v1().pods("ns1").list().items == []


def test_delete_object_retries_without_resource_version_when_only_it_changed():
    gc, client = new_test_gc(make_metadata_obj(POD, RS))
    pod = client.core_v1().pods("ns1").get("pod")
    changed = client.core_v1().pods("ns1").get("pod")
    changed.metadata.labels = {"touched": "yes"}  # a write that leaves the owner references alone
    client.core_v1().pods("ns1").update(changed)
    client.fake.clear_actions()
    gc.delete_object(POD, pod.metadata.resource_version, pod.metadata.owner_references,
                     meta.DELETE_PROPAGATION_BACKGROUND)
    assert [a.get_verb() for a in client.fake.actions()] == ["delete", "get", "delete"]
    assert client.fake.actions()[2].get_delete_options().preconditions == meta.Preconditions(uid="pod-uid")
    assert client.core_v1().pods("ns1").list().items == []


def test_delete_object_keeps_the_conflict_when_owner_references_changed():
    gc, client = new_test_gc(make_metadata_obj(POD, RS))
    pod = client.core_v1().pods("ns1").get("pod")
    changed = client.core_v1().pods("ns1").get("pod")
    changed.metadata.owner_references = None  # orphaned meanwhile: must not be deleted on old grounds
    client.core_v1().pods("ns1").update(changed)
    with pytest.raises(errors.StatusError) as exc:
        gc.delete_object(POD, pod.metadata.resource_version, pod.metadata.owner_references,
                         meta.DELETE_PROPAGATION_BACKGROUND)
    assert errors.is_conflict(exc.value)
    assert len(client.core_v1().pods("ns1").list().items) == 1


def test_delete_object_reports_not_found_when_gone_after_a_conflict():
    gc, client = new_test_gc()
    client.fake.prepend_reactor("delete", "pods", lambda action: (True, None, conflict()))
    with pytest.raises(errors.StatusError) as exc:
        gc.delete_object(POD, "7", [], meta.DELETE_PROPAGATION_BACKGROUND)
    assert errors.is_not_found(exc.value)


def rs_with_finalizers(*finalizers: str) -> dict:
    obj = make_metadata_obj(RS)
    obj["metadata"]["finalizers"] = list(finalizers)
    return obj


def test_remove_finalizer_removes_only_the_target():
    gc, client = new_test_gc(rs_with_finalizers(meta.FINALIZER_DELETE_DEPENDENTS, "example.com/keep"))
    gc.remove_finalizer(Node(RS), meta.FINALIZER_DELETE_DEPENDENTS)
    assert client.apps_v1().replica_sets("ns1").get("rs").metadata.finalizers == ["example.com/keep"]


def test_remove_finalizer_of_missing_owner_or_finalizer_is_success():
    gc, client = new_test_gc(rs_with_finalizers("example.com/keep"))
    gc.remove_finalizer(Node(RS), meta.FINALIZER_ORPHAN_DEPENDENTS)  # not there
    gc.remove_finalizer(Node(make_id("apps/v1", "ReplicaSet", "ns1", "gone", "g")), meta.FINALIZER_ORPHAN_DEPENDENTS)
    assert [a.get_verb() for a in client.fake.actions()] == ["get", "get"]


def test_remove_finalizer_retries_conflicts():
    gc, client = new_test_gc(rs_with_finalizers(meta.FINALIZER_ORPHAN_DEPENDENTS))
    answers = [conflict(), conflict()]

    def conflict_twice(action):
        return (True, None, answers.pop()) if answers else (False, None, None)

    client.fake.prepend_reactor("patch", "replicasets", conflict_twice)
    gc.remove_finalizer(Node(RS), meta.FINALIZER_ORPHAN_DEPENDENTS)
    assert [a.get_verb() for a in client.fake.actions()] == ["get", "patch"] * 3
    assert not client.apps_v1().replica_sets("ns1").get("rs").metadata.finalizers


def test_remove_finalizer_gives_up_after_four_conflicts():
    gc, client = new_test_gc(rs_with_finalizers(meta.FINALIZER_ORPHAN_DEPENDENTS))
    client.fake.prepend_reactor("patch", "replicasets", lambda action: (True, None, conflict()))
    with pytest.raises(RuntimeError, match=r"updateMaxRetries\(4\) has reached"):
        gc.remove_finalizer(Node(RS), meta.FINALIZER_ORPHAN_DEPENDENTS)
    assert [a.get_verb() for a in client.fake.actions()].count("patch") == 4


def test_remove_finalizer_pauses_between_tries_on_the_collectors_clock():
    # Ours: retry.DefaultBackoff pauses 10, 50 and 250 ms (each up to 10 % longer); on the collector's driven
    # clock the pauses move the time, and no pause follows the last try.
    gc, client = new_test_gc(rs_with_finalizers(meta.FINALIZER_ORPHAN_DEPENDENTS))
    client.fake.prepend_reactor("patch", "replicasets", lambda action: (True, None, conflict()))
    start = gc.clock.now()
    with pytest.raises(RuntimeError):
        gc.remove_finalizer(Node(RS), meta.FINALIZER_ORPHAN_DEPENDENTS)
    assert 0.31 <= gc.clock.since(start) <= 0.31 * 1.1
