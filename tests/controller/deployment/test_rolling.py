"""Tests for minikcm.controller.deployment.rolling.

Ports of pkg/controller/deployment/rolling_test.go:
TestDeploymentController_reconcileNewReplicaSet, _reconcileOldReplicaSets,
_cleanupUnhealthyReplicas and _scaleDownOldReplicaSetsForRollingUpdate, on
a controller whose client answers every call (Go's fake.Clientset{}). Plus
one pass of rollout_rolling of our own.
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1DeploymentStatus, V1ReplicaSetStatus

from .fixtures import new_deployment, rs, update_actions_for, zero_controller

RECONCILE_NEW_CASES = [
    #            replicas max_surge old new scale_expected expected_new
    pytest.param(10, 0, 10, 0, False, None, id="should-not-scale-up"),
    pytest.param(10, 2, 10, 0, True, 2, id="surge-2-over-10-old"),
    pytest.param(10, 2, 5, 0, True, 7, id="surge-2-over-5-old"),
    pytest.param(10, 2, 10, 2, False, None, id="surge-used-up"),
    pytest.param(10, 2, 2, 11, True, 10, id="should-scale-down"),
]


@pytest.mark.parametrize("deployment_replicas, max_surge, old_replicas, new_replicas, scale_expected, "
                         "expected_new_replicas", RECONCILE_NEW_CASES)
def test_deployment_controller_reconcile_new_replica_set(deployment_replicas, max_surge, old_replicas, new_replicas,
                                                         scale_expected, expected_new_replicas):
    """Port of TestDeploymentController_reconcileNewReplicaSet."""
    new_rs = rs("foo-v2", new_replicas, None, None)
    old_rs = rs("foo-v2", old_replicas, None, None)
    all_rss = [new_rs, old_rs]
    deployment = new_deployment("foo", deployment_replicas, None, max_surge, 0, {"foo": "bar"})
    dc, client = zero_controller()
    scaled = dc.reconcile_new_replica_set(all_rss, new_rs, deployment)
    assert client.fake is not None
    if not scale_expected:
        assert not scaled and client.fake.actions() == []
        return
    assert scaled
    assert len(client.fake.actions()) == 1
    assert update_actions_for(client, "replicasets")[0].spec.replicas == expected_new_replicas


RECONCILE_OLD_CASES = [
    #            replicas max_unavailable old new ready_old ready_new scale_expected
    pytest.param(10, 0, 10, 0, 10, 0, True, id="zero-fenceposts-allow-one"),
    pytest.param(10, 2, 10, 0, 10, 0, True, id="max-unavailable-2"),
    pytest.param(10, 2, 10, 0, 8, 0, True, id="unhealthy-old-cleaned-up"),
    pytest.param(10, 2, 10, 0, 9, 0, True, id="one-unhealthy-and-one-ready-scaled-down"),
    pytest.param(10, 2, 8, 2, 8, 0, False, id="unavailable-new-pods-block-scale-down"),
]


@pytest.mark.parametrize("deployment_replicas, max_unavailable, old_replicas, new_replicas, ready_old, ready_new, "
                         "scale_expected", RECONCILE_OLD_CASES)
def test_deployment_controller_reconcile_old_replica_sets(deployment_replicas, max_unavailable, old_replicas,
                                                          new_replicas, ready_old, ready_new, scale_expected):
    """Port of TestDeploymentController_reconcileOldReplicaSets."""
    new_selector, old_selector = {"foo": "new"}, {"foo": "old"}
    new_rs = rs("foo-new", new_replicas, new_selector, None)
    new_rs.status = V1ReplicaSetStatus(replicas=0, available_replicas=ready_new)
    old_rs = rs("foo-old", old_replicas, old_selector, None)
    old_rs.status = V1ReplicaSetStatus(replicas=0, available_replicas=ready_old)
    deployment = new_deployment("foo", deployment_replicas, None, 0, max_unavailable, new_selector)
    dc, client = zero_controller()
    scaled = dc.reconcile_old_replica_sets([old_rs, new_rs], [old_rs], new_rs, deployment)
    assert scaled == scale_expected


CLEANUP_UNHEALTHY_CASES = [
    #            old ready unhealthy max_cleanup expected
    pytest.param(10, 8, 2, 1, 1, id="limited-by-max-cleanup"),
    pytest.param(10, 8, 2, 3, 2, id="all-unhealthy-cleaned"),
    pytest.param(10, 8, 2, 0, 0, id="no-budget"),
    pytest.param(10, 10, 0, 3, 0, id="nothing-unhealthy"),
]


@pytest.mark.parametrize("old_replicas, ready_pods, unhealthy_pods, max_cleanup_count, cleanup_count_expected",
                         CLEANUP_UNHEALTHY_CASES)
def test_deployment_controller_cleanup_unhealthy_replicas(old_replicas, ready_pods, unhealthy_pods,
                                                          max_cleanup_count, cleanup_count_expected):
    """Port of TestDeploymentController_cleanupUnhealthyReplicas."""
    old_rs = rs("foo-v2", old_replicas, None, None)
    old_rs.status = V1ReplicaSetStatus(replicas=0, available_replicas=ready_pods)
    deployment = new_deployment("foo", 10, None, 2, 2, None)
    dc, _ = zero_controller()
    _, cleanup_count = dc.cleanup_unhealthy_replicas([old_rs], deployment, max_cleanup_count)
    assert cleanup_count == cleanup_count_expected


SCALE_DOWN_CASES = [
    #            replicas max_unavailable ready old scale_expected expected_old
    pytest.param(10, 0, 10, 10, True, 9, id="zero-fenceposts-allow-one"),
    pytest.param(10, 2, 10, 10, True, 8, id="max-unavailable-2"),
    pytest.param(10, 2, 8, 10, False, None, id="at-min-available"),
    pytest.param(10, 2, 10, 0, False, None, id="nothing-to-scale-down"),
    pytest.param(10, 2, 1, 10, False, None, id="below-min-available"),
]


@pytest.mark.parametrize("deployment_replicas, max_unavailable, ready_pods, old_replicas, scale_expected, "
                         "expected_old_replicas", SCALE_DOWN_CASES)
def test_deployment_controller_scale_down_old_replica_sets_for_rolling_update(
        deployment_replicas, max_unavailable, ready_pods, old_replicas, scale_expected, expected_old_replicas):
    """Port of TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate."""
    old_rs = rs("foo-v2", old_replicas, None, None)
    old_rs.status = V1ReplicaSetStatus(replicas=0, available_replicas=ready_pods)
    deployment = new_deployment("foo", deployment_replicas, None, 0, max_unavailable, {"foo": "bar"})
    dc, client = zero_controller()
    scaled = dc.scale_down_old_replica_sets_for_rolling_update([old_rs], [old_rs], deployment)
    if not scale_expected:
        assert scaled == 0
        return
    assert scaled != 0
    updates = update_actions_for(client, "replicasets")
    assert len(updates) == 1
    assert updates[0].spec.replicas == expected_old_replicas


def test_rollout_rolling_first_pass_creates_and_surges():
    """Ours: the first pass creates the new ReplicaSet at the surge budget and writes the status."""
    dc, client = zero_controller()
    d = new_deployment("foo", 10, None, 3, 2, {"foo": "bar"})
    d.status = V1DeploymentStatus()
    old = rs("foo-old", 10, {"foo": "bar"}, None)
    old.metadata.uid = "old-uid"
    old.spec.template.metadata = None
    old.status = V1ReplicaSetStatus(replicas=10, available_replicas=10)
    dc.rollout_rolling(d, [old])
    assert client.fake is not None
    created = [a.get_object() for a in client.fake.actions() if a.get_verb() == "create"]
    assert [c.spec.replicas for c in created] == [3]  # 10 + maxSurge 3 - 10 existing
    assert d.status.updated_replicas == 0 and d.status.replicas == 10
