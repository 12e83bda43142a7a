"""Tests for minikcm.controller.deployment.recreate.

Ports of pkg/controller/deployment/recreate_test.go: TestScaleDownOldReplicaSets
and TestOldPodsRunning. Plus our own passes of rollout_recreate.
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1DeploymentStatus, V1ObjectMeta, V1Pod, V1PodStatus, V1ReplicaSetStatus

from minikcm.apimachinery.convert import deep_copy
from minikcm.client.fake import new_simple_clientset
from minikcm.controller.deployment.recreate import old_pods_running

from .fixtures import (
    new_controller,
    new_deployment,
    new_replica_set,
    new_rs_with_status,
    recreate,
    server_valid,
    zero_controller,
)


@pytest.mark.parametrize("old_rs_sizes", [pytest.param([3], id="one-old-rs-of-3")])
def test_scale_down_old_replica_sets(old_rs_sizes):
    """Port of TestScaleDownOldReplicaSets: every old ReplicaSet ends at 0 (as the server returns it)."""
    d = server_valid(new_deployment("foo", 3, selector={"foo": "bar"}))
    old_rss, expected = [], []
    for n, size in enumerate(old_rs_sizes):
        r = new_replica_set(d, f"{d.metadata.name}-{n}", size)
        old_rss.append(r)
        rs_copy = deep_copy(r)
        rs_copy.spec.replicas = 0
        expected.append(rs_copy)
        assert r.spec.replicas != rs_copy.spec.replicas, "broken test - original and expected RS have the same size"
    client = new_simple_clientset(*expected)
    dc, _ = new_controller(client)
    dc.scale_down_old_replica_sets_for_recreate(old_rss, d)
    for r in old_rss:
        assert r.spec.replicas == 0, f"rs {r.metadata.name} has non-zero replicas"


def rs_with_uid(uid: str):
    """Port of rsWithUID."""
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    r = new_replica_set(d, f"foo-{uid}", 0)
    r.metadata.uid = uid
    return r


def pod(phase: str | None = None) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(), status=V1PodStatus(phase=phase))


def pod_map_with_uids(uids: list[str]) -> dict[str, list[V1Pod]]:
    """Port of podMapWithUIDs: two phase-less pods per ReplicaSet UID."""
    return {uid: [pod(), pod()] for uid in uids}


OLD_PODS_RUNNING_CASES = [
    pytest.param(None, [], None, False, id="no old RSs"),
    pytest.param(None, [rs_with_uid("some-uid"), rs_with_uid("other-uid")],
                 pod_map_with_uids(["some-uid", "other-uid"]), True, id="old RSs with running pods"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 1, None)], None, True,
                 id="old RSs without pods but with non-zero status replicas"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)], None, False,
                 id="old RSs without pods or non-zero status replicas"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)], {"uid-1": [pod("Failed"), pod("Succeeded")]},
                 False, id="old RSs with zero status replicas but pods in terminal state are present"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)], {"uid-1": [pod("Unknown")]}, True,
                 id="old RSs with zero status replicas but pod in unknown phase present"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)], {"uid-1": [pod("Pending")]}, True,
                 id="old RSs with zero status replicas with pending pod present"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)], {"uid-1": [pod("Running")]}, True,
                 id="old RSs with zero status replicas with running pod present"),
    pytest.param(None, [new_rs_with_status("rs-1", 0, 0, None)],
                 {"uid-1": [pod("Failed"), pod("Succeeded")], "uid-2": [], "uid-3": [pod("Pending")]}, True,
                 id="old RSs with zero status replicas but pods in terminal state and pending are present"),
    pytest.param(rs_with_uid("new-uid"), [new_rs_with_status("rs-1", 0, 0, None)], {"new-uid": [pod("Running")]},
                 False, id="pods of the new RS are ignored (ours)"),
]


@pytest.mark.parametrize("new_rs, old_rss, pod_map, has_old_pods_running", OLD_PODS_RUNNING_CASES)
def test_old_pods_running(new_rs, old_rss, pod_map, has_old_pods_running):
    """Port of TestOldPodsRunning."""
    assert old_pods_running(new_rs, old_rss, pod_map) is has_old_pods_running


def test_rollout_recreate_scales_down_before_creating():
    """Ours: with an old ReplicaSet still up, the pass only scales it down; no new ReplicaSet yet."""
    dc, client = zero_controller()
    d = recreate(new_deployment("foo", 3, selector={"foo": "bar"}))
    d.status = V1DeploymentStatus()
    old = new_replica_set(d, "foo-old", 3)
    old.spec.template.spec.termination_grace_period_seconds = 5  # another template
    old.status = V1ReplicaSetStatus(replicas=3)
    dc.rollout_recreate(d, [old], {})
    assert client.fake is not None
    verbs = [(a.get_verb(), a.get_resource().resource, a.get_subresource()) for a in client.fake.actions()]
    assert ("create", "replicasets", "") not in verbs
    assert verbs[0] == ("update", "replicasets", "")
    assert verbs[0] and client.fake.actions()[0].get_object().spec.replicas == 0


def test_rollout_recreate_waits_for_old_pods_then_creates():
    """Ours: old RS at 0 but a pod still running: wait; once it is gone, create the new RS at full size."""
    dc, client = zero_controller()
    d = recreate(new_deployment("foo", 3, selector={"foo": "bar"}))
    d.status = V1DeploymentStatus()
    old = new_replica_set(d, "foo-old", 0)
    old.spec.template.spec.termination_grace_period_seconds = 5
    old.status = V1ReplicaSetStatus(replicas=0)
    dc.rollout_recreate(d, [old], {old.metadata.uid: [pod("Running")]})
    assert client.fake is not None
    assert all(a.get_verb() != "create" for a in client.fake.actions())

    client.fake.clear_actions()
    dc.rollout_recreate(d, [old], {old.metadata.uid: [pod("Succeeded")]})
    created = [a.get_object() for a in client.fake.actions() if a.get_verb() == "create"]
    assert [c.spec.replicas for c in created] == [3]
