"""Tests for minikcm.controller.deployment.sync.

Ports of pkg/controller/deployment/sync_test.go: TestScale (every row that
does not need the DeploymentPodReplacementPolicy field, which v1.36's API
lacks), TestDeploymentController_cleanupDeployment,
TestDeploymentController_cleanupDeploymentOrder,
TestDeploymentController_generateReplicaSetName and TestGenerateReplicaSetName.
Plus our own tests of the hash-collision path, the paused conditions,
calculate_status and status_equal.
"""

from __future__ import annotations

import queue
from datetime import datetime, timedelta, timezone

import pytest
from kubernetes.client import V1DeploymentStatus, V1ReplicaSet, V1ReplicaSetStatus

from minikcm import features
from minikcm.apimachinery.convert import deep_copy
from minikcm.client.testing import CreateAction, DeleteAction
from minikcm.controller.deployment import sync as syncmod
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.tools.record import FakeRecorder

from .fixtures import (
    new_deployment,
    new_replica_set,
    new_rs_with_status,
    rs,
    server_valid,
    update_actions_for,
    zero_controller,
)

NEW = datetime(2016, 5, 20, 2, 0, 0, tzinfo=timezone.utc)
OLD = datetime(2016, 5, 20, 1, 0, 0, tzinfo=timezone.utc)
OLDER = datetime(2016, 5, 20, 0, 0, 0, tzinfo=timezone.utc)


def updated_template(replicas: int):
    d = new_deployment("foo", replicas, selector={"foo": "bar"})
    d.spec.template.metadata.labels["another"] = "label"
    return d


def broken_new_rs():
    r = rs("foo-v2", 2, None, NEW)
    r.status = V1ReplicaSetStatus(replicas=0, available_replicas=0)
    return r


# deployment, old_deployment, new_rs, old_rss, expected_new, expected_old, wasnt_updated, desired_annotations
SCALE_CASES = [
    pytest.param(new_deployment("foo", 12), new_deployment("foo", 10), rs("foo-v1", 10, None, NEW), [],
                 12, [], set(), {}, id="normal scaling event: 10 -> 12"),
    pytest.param(new_deployment("foo", 5), new_deployment("foo", 10), rs("foo-v1", 10, None, NEW), [],
                 5, [], set(), {}, id="normal scaling event: 10 -> 5"),
    pytest.param(new_deployment("foo", 10), new_deployment("foo", 5), rs("foo-v2", 2, None, NEW),
                 [rs("foo-v1", 3, None, OLD)], 4, [6], set(), {}, id="proportional scaling: 5 -> 10"),
    pytest.param(new_deployment("foo", 3), new_deployment("foo", 5), rs("foo-v2", 2, None, NEW),
                 [rs("foo-v1", 3, None, OLD)], 1, [2], set(), {}, id="proportional scaling: 5 -> 3"),
    pytest.param(new_deployment("foo", 4), new_deployment("foo", 9), rs("foo-v2", 8, None, NEW),
                 [rs("foo-v1", 1, None, OLD)], 4, [0], set(), {}, id="proportional scaling: 9 -> 4"),
    pytest.param(new_deployment("foo", 10), new_deployment("foo", 7), rs("foo-v3", 2, None, NEW),
                 [rs("foo-v2", 3, None, OLD), rs("foo-v1", 2, None, OLDER)], 3, [4, 3], set(), {},
                 id="proportional scaling: 7 -> 10"),
    pytest.param(new_deployment("foo", 8), new_deployment("foo", 13), rs("foo-v3", 2, None, NEW),
                 [rs("foo-v2", 8, None, OLD), rs("foo-v1", 3, None, OLDER)], 1, [5, 2], set(), {},
                 id="proportional scaling: 13 -> 8"),
    pytest.param(new_deployment("foo", 4), new_deployment("foo", 3), rs("foo-v3", 1, None, NEW),
                 [rs("foo-v2", 1, None, OLD), rs("foo-v1", 1, None, OLDER)], 2, [1, 1], set(), {},
                 id="leftover distribution: 3 -> 4"),
    pytest.param(new_deployment("foo", 2), new_deployment("foo", 3), rs("foo-v3", 1, None, NEW),
                 [rs("foo-v2", 1, None, OLD), rs("foo-v1", 1, None, OLDER)], 1, [1, 0], set(), {},
                 id="leftover distribution: 3 -> 2"),
    pytest.param(new_deployment("foo", 5), new_deployment("foo", 4), None,
                 [rs("foo-v2", 2, None, OLD), rs("foo-v1", 2, None, OLDER)], None, [3, 2], set(), {},
                 id="proportional scaling (no new rs): 4 -> 5"),
    pytest.param(new_deployment("foo", 0), new_deployment("foo", 6), rs("foo-v3", 3, None, NEW),
                 [rs("foo-v2", 2, None, OLD), rs("foo-v1", 1, None, OLDER)], 0, [0, 0], set(), {},
                 id="proportional scaling: 6 -> 0"),
    pytest.param(new_deployment("foo", 6), new_deployment("foo", 6), rs("foo-v3", 0, None, NEW),
                 [rs("foo-v2", 0, None, OLD), rs("foo-v1", 0, None, OLDER)], 6, [0, 0], {"foo-v2", "foo-v1"}, {},
                 id="proportional scaling: 0 -> 6"),
    pytest.param(new_deployment("foo", 5), new_deployment("foo", 5), rs("foo-v3", 2, None, NEW),
                 [rs("foo-v2", 1, None, OLD), rs("foo-v1", 1, None, OLDER)], 2, [2, 1], {"foo-v3", "foo-v1"},
                 {"foo-v2": 3}, id="failed rs update"),
    pytest.param(new_deployment("foo", 20, max_surge=2), new_deployment("foo", 10, max_surge=2),
                 rs("foo-v2", 6, None, NEW), [rs("foo-v1", 6, None, OLD)], 11, [11], set(), {},
                 id="deployment with surge pods"),
    pytest.param(new_deployment("foo", 50, max_surge=6), new_deployment("foo", 10, max_surge=3),
                 rs("foo-v2", 5, None, NEW), [rs("foo-v1", 8, None, OLD)], 22, [34], set(), {},
                 id="change both surge and size"),
    pytest.param(updated_template(14), new_deployment("foo", 10, selector={"foo": "bar"}), None,
                 [rs("foo-v2", 7, None, NEW), rs("foo-v1", 3, None, OLD)], None, [10, 4], set(), {},
                 id="change both size and template"),
    pytest.param(new_deployment("foo", 2, max_surge=1, max_unavailable=1),
                 new_deployment("foo", 2, max_surge=1, max_unavailable=1), broken_new_rs(),
                 [rs("foo-v1", 1, None, OLD)], 2, [1], set(), {},
                 id="saturated but broken new replica set does not affect old pods"),
]


def annotate(r: V1ReplicaSet, old_deployment, desired_annotations: dict[str, int]) -> None:
    """Go's test setup: replica annotations as the old Deployment (or a given desired count) wrote them."""
    desired = desired_annotations.get(r.metadata.name, old_deployment.spec.replicas)
    sized = deep_copy(old_deployment)
    sized.spec.replicas = desired
    util.set_replicas_annotations(r, desired, desired + util.max_surge(sized))


@pytest.mark.parametrize("deployment, old_deployment, new_rs, old_rss, expected_new, expected_old, wasnt_updated, "
                         "desired_annotations", SCALE_CASES)
def test_scale(deployment, old_deployment, new_rs, old_rss, expected_new, expected_old, wasnt_updated,
               desired_annotations):
    """Port of TestScale (sync_test.go), with the DeploymentReplicaSetTerminatingReplicas gate on and off."""
    for gate in (False, True):
        with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                                   features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS, gate):
            d, new, olds = deep_copy(deployment), deep_copy(new_rs), [deep_copy(r) for r in old_rss]
            for r in ([new] if new is not None else []) + olds:
                if r.metadata.annotations is None:
                    annotate(r, old_deployment, desired_annotations)
            dc, client = zero_controller()
            dc.scale(d, new, olds)

            name_to_updated = {r.metadata.name: r for r in ([new] if new is not None else []) + olds}
            for updated in update_actions_for(client, "replicasets"):
                if updated.metadata.name not in wasnt_updated:
                    name_to_updated[updated.metadata.name] = updated
            if expected_new is not None and new is not None:
                assert name_to_updated[new.metadata.name].spec.replicas == expected_new
            assert len(expected_old) == len(olds)
            for r, want in zip(olds, expected_old):
                assert name_to_updated[r.metadata.name].spec.replicas == want, r.metadata.name


CLEANUP_CASES = [
    pytest.param([new_rs_with_status("foo-1", 0, 0, {"foo": "bar"}), new_rs_with_status("foo-2", 0, 0, {"foo": "bar"}),
                  new_rs_with_status("foo-3", 0, 0, {"foo": "bar"})], 1, 2, id="three-empty-limit-1"),
    pytest.param([new_rs_with_status("foo-1", 0, 0, {"foo": "bar"}), new_rs_with_status("foo-2", 0, 1, {"foo": "bar"}),
                  new_rs_with_status("foo-3", 1, 0, {"foo": "bar"}), new_rs_with_status("foo-4", 1, 1, {"foo": "bar"})],
                 0, 1, id="only-spec-and-status-zero-deleted"),
    pytest.param([new_rs_with_status("foo-1", 0, 0, {"foo": "bar"}), new_rs_with_status("foo-2", 0, 0, {"foo": "bar"})],
                 0, 2, id="two-empty-limit-0"),
    pytest.param([new_rs_with_status("foo-1", 1, 1, {"foo": "bar"}), new_rs_with_status("foo-2", 1, 1, {"foo": "bar"})],
                 0, 0, id="two-running-limit-0"),
    pytest.param("already-deleted", 0, 0, id="already-being-deleted"),
    pytest.param([new_rs_with_status("foo-1", 0, 0, {"foo": "bar"}), new_rs_with_status("foo-2", 0, 0, {"foo": "bar"}),
                  new_rs_with_status("foo-3", 0, 0, {"foo": "bar"})], util.MAX_INT32, 0,
                 id="unlimited-revision-history"),
]


@pytest.mark.parametrize("old_rss, revision_history_limit, expected_deletions", CLEANUP_CASES)
def test_deployment_controller_cleanup_deployment(old_rss, revision_history_limit, expected_deletions):
    """Port of TestDeploymentController_cleanupDeployment: count the deletes."""
    if old_rss == "already-deleted":
        already_deleted = new_rs_with_status("foo-1", 0, 0, {"foo": "bar"})
        already_deleted.metadata.deletion_timestamp = NEW
        old_rss = [already_deleted]
    dc, client = zero_controller()
    d = new_deployment("foo", 1, revision_history_limit, selector={"foo": "bar"})
    dc.cleanup_deployment([deep_copy(r) for r in old_rss], d)
    assert client.fake is not None
    assert sum(1 for a in client.fake.actions() if a.get_verb() == "delete") == expected_deletions


NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
MINUTE = timedelta(minutes=1)


def rs_rev(name: str, replicas: int, timestamp: datetime, revision: str) -> V1ReplicaSet:
    """newRSWithRevisionAndCreationTimestamp of the Go test."""
    r = rs(name, replicas, {"foo": "bar"}, timestamp)
    if revision:
        r.metadata.annotations = {util.REVISION_ANNOTATION: revision}
    r.status = V1ReplicaSetStatus(replicas=replicas)
    return r


CLEANUP_ORDER_CASES = [
    pytest.param([rs_rev("foo-1", 0, NOW - MINUTE, "1"), rs_rev("foo-2", 0, NOW, "2")], 1, {"foo-1"},
                 id="revision-order-rs1-rs2-delete-rs1"),
    pytest.param([rs_rev("foo-1", 0, NOW - MINUTE, "2"), rs_rev("foo-2", 0, NOW, "1")], 1, {"foo-2"},
                 id="revision-order-rs2-rs1-delete-rs2"),
    pytest.param([rs_rev("foo-1", 0, NOW - MINUTE, "1"), rs_rev("foo-2", 0, NOW, "")], 1, {"foo-2"},
                 id="rs2-without-revision-deleted"),
    pytest.param([rs_rev("foo-1", 0, NOW - MINUTE, ""), rs_rev("foo-2", 0, NOW, "2")], 1, {"foo-1"},
                 id="rs1-without-revision-deleted"),
    pytest.param([rs_rev("foo-1", 1, NOW - MINUTE, "1"), rs_rev("foo-2", 0, NOW, "2"),
                  rs_rev("foo-3", 0, NOW + MINUTE, "3")], 1, {"foo-2"}, id="rs1-has-replicas-delete-rs2"),
    pytest.param([rs_rev("foo-1", 1, NOW - MINUTE, "1"), rs_rev("foo-2", 1, NOW, "2"),
                  rs_rev("foo-3", 0, NOW + MINUTE, "3")], 1, set(), id="both-have-replicas-delete-none"),
    pytest.param([rs_rev("foo-1", 0, NOW - MINUTE, "3"), rs_rev("foo-2", 0, NOW, "1"),
                  rs_rev("foo-3", 0, NOW + MINUTE, "4"), rs_rev("foo-4", 0, NOW + 2 * MINUTE, "2")], 2,
                 {"foo-2", "foo-4"}, id="revision-order-2-4-1-3-delete-2-and-4"),
]


@pytest.mark.parametrize("old_rss, revision_history_limit, expected_deleted", CLEANUP_ORDER_CASES)
def test_deployment_controller_cleanup_deployment_order(old_rss, revision_history_limit, expected_deleted):
    """Port of TestDeploymentController_cleanupDeploymentOrder: oldest revisions go first."""
    dc, client = zero_controller()
    d = new_deployment("foo", 1, revision_history_limit, selector={"foo": "bar"})
    dc.cleanup_deployment([deep_copy(r) for r in old_rss], d)
    assert client.fake is not None
    deleted = {a.get_name() for a in client.fake.actions()
               if isinstance(a, DeleteAction) and a.get_resource().resource == "replicasets"}
    assert deleted == expected_deleted


GENERATE_NAME_CONTROLLER_CASES = [
    pytest.param("my-deployment", "my-deployment", id="short name"),
    pytest.param("a" * 250, "a" * 242, id="very long name truncated"),
    pytest.param("a" * 242, "a" * 242, id="very long name not truncated"),
]


@pytest.mark.parametrize("deployment_name, want_deployment_portion", GENERATE_NAME_CONTROLLER_CASES)
def test_deployment_controller_generate_replica_set_name(deployment_name, want_deployment_portion):
    """Port of TestDeploymentController_generateReplicaSetName: the created RS's name fits 253 characters."""
    dc, client = zero_controller()
    d = new_deployment(deployment_name, 1, selector={"foo": "bar"})
    d.status = V1DeploymentStatus()
    dc.get_new_replica_set(d, [], [], True)
    assert client.fake is not None
    rs_name = next(a.get_object().metadata.name for a in client.fake.actions() if isinstance(a, CreateAction))
    assert len(rs_name) <= 253
    parts = rs_name.split("-")
    assert len(parts) >= 2
    assert "-".join(parts[:-1]) == want_deployment_portion


GENERATE_NAME_CASES = [
    pytest.param("my-deployment", "abcde12345", "my-deployment-abcde12345", id="short name"),
    pytest.param("a" * 242, "abcde12345", "a" * 242 + "-abcde12345", id="maximum length without truncating"),
    pytest.param("b" * 250, "abcde12345", "b" * 242 + "-abcde12345", id="very long deployment name is truncated"),
    pytest.param("d" * 252, "h" * 252, "d" * 252 + "-" + "h" * 252, id="very long hash is not truncated"),
]


@pytest.mark.parametrize("deployment_name, pod_hash, want", GENERATE_NAME_CASES)
def test_generate_replica_set_name(deployment_name, pod_hash, want):
    """Port of TestGenerateReplicaSetName."""
    assert syncmod.generate_replica_set_name(deployment_name, pod_hash) == want


# --- ours -----------------------------------------------------------------------------------------


def test_get_new_replica_set_hash_collision_bumps_collision_count():
    """Ours: a foreign ReplicaSet under the hash name makes collisionCount go up, and the sync fail."""
    from minikcm.client.fake import new_simple_clientset

    from .fixtures import new_controller

    d = server_valid(new_deployment("foo", 1, selector={"foo": "bar"}))
    d.status = V1DeploymentStatus()
    probe, _ = zero_controller()
    name = probe.new_replica_set_for(d, [], "1").metadata.name
    other = server_valid(new_deployment("other", 1, selector={"foo": "bar"}))
    squatter = new_replica_set(other, name, 0)  # same name, another owner
    client = new_simple_clientset(d, other, squatter)
    dc, factory = new_controller(client)
    factory.apps().v1().replica_sets().informer().get_indexer().add(squatter)

    with pytest.raises(Exception) as excinfo:
        dc.get_new_replica_set(d, [], [], True)
    assert "already exists" in str(excinfo.value)
    assert d.status.collision_count == 1
    stored = client.apps_v1().deployments("default").get("foo")
    assert stored.status.collision_count == 1
    # With the new count the hash, and so the name, differs.
    assert dc.new_replica_set_for(d, [], "1").metadata.name != name


def test_get_new_replica_set_existing_syncs_revision_and_found_condition():
    """Ours: an existing new RS with a higher revision only needs the Deployment to follow (FoundNewReplicaSet)."""
    dc, client = zero_controller()
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    d.spec.progress_deadline_seconds = 600
    d.status = V1DeploymentStatus()
    r = new_replica_set(d, "foo-1", 1)
    r.metadata.annotations = {util.REVISION_ANNOTATION: "1", util.DESIRED_REPLICAS_ANNOTATION: "1",
                              util.MAX_REPLICAS_ANNOTATION: "1"}
    got = dc.get_new_replica_set(d, [r], [], False)
    assert got.metadata.name == "foo-1"
    assert d.metadata.annotations[util.REVISION_ANNOTATION] == "1"
    cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
    assert cond.reason == util.FOUND_NEW_RS_REASON and cond.message == 'Found new replica set "foo-1"'
    assert client.fake is not None
    assert [(a.get_verb(), a.get_subresource()) for a in client.fake.actions()] == [("update", "status")]


def test_scale_replica_set_event_message():
    """Ours: the ScalingReplicaSet event names the direction and both sizes."""
    dc, _ = zero_controller()
    dc.event_recorder = FakeRecorder(queue.Queue())
    d = new_deployment("foo", 4, selector={"foo": "bar"})
    r = new_replica_set(d, "foo-1", 2)
    scaled, _ = dc.scale_replica_set_and_record_event(r, 4, d)
    assert scaled
    assert dc.event_recorder.drain() == ["Normal ScalingReplicaSet Scaled up replica set foo-1 from 2 to 4"]


PAUSED_CASES = [
    pytest.param(True, None, util.PAUSED_DEPLOY_REASON, True, id="pause-adds-paused"),
    pytest.param(False, util.PAUSED_DEPLOY_REASON, util.RESUMED_DEPLOY_REASON, True, id="resume-adds-resumed"),
    pytest.param(True, util.PAUSED_DEPLOY_REASON, util.PAUSED_DEPLOY_REASON, False, id="already-paused"),
    pytest.param(True, util.TIMED_OUT_REASON, util.TIMED_OUT_REASON, False, id="timed-out-is-kept"),
    pytest.param(False, None, None, False, id="running-no-condition"),
]


@pytest.mark.parametrize("paused, current_reason, want_reason, want_write", PAUSED_CASES)
def test_check_paused_conditions(paused, current_reason, want_reason, want_write):
    """Ours: checkPausedConditions records pause and resume, never over a timeout."""
    dc, client = zero_controller()
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    d.spec.paused = paused
    d.spec.progress_deadline_seconds = 600
    d.status = V1DeploymentStatus()
    if current_reason is not None:
        util.set_deployment_condition(d.status, util.new_deployment_condition(
            util.DEPLOYMENT_PROGRESSING, "Unknown", current_reason, "", now=NOW))
    dc.check_paused_conditions(d)
    cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
    assert (cond.reason if cond else None) == want_reason
    assert client.fake is not None
    assert (len(client.fake.actions()) == 1) == want_write


@pytest.mark.parametrize("gate, want", [pytest.param(True, 3, id="gate-on"), pytest.param(False, None, id="gate-off")])
def test_calculate_status_terminating_replicas(gate, want):
    """Ours: terminatingReplicas is summed only with DeploymentReplicaSetTerminatingReplicas on."""
    d = new_deployment("foo", 3, selector={"foo": "bar"})
    d.status = V1DeploymentStatus()
    r = new_replica_set(d, "foo-1", 3)
    r.status = V1ReplicaSetStatus(replicas=3, available_replicas=3, observed_generation=1, terminating_replicas=3)
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                               features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS, gate):
        status = syncmod.calculate_status([r], r, d, now=NOW)
    assert status.terminating_replicas == want
    assert (status.replicas, status.updated_replicas, status.available_replicas) == (3, 3, 3)
    assert util.get_deployment_condition(status, util.DEPLOYMENT_AVAILABLE).status == "True"


STATUS_EQUAL_CASES = [
    pytest.param(None, V1DeploymentStatus(replicas=0, conditions=[]), True, id="none-equals-zeros"),
    pytest.param(V1DeploymentStatus(replicas=1), V1DeploymentStatus(replicas=2), False, id="counters-differ"),
    pytest.param(V1DeploymentStatus(collision_count=None), V1DeploymentStatus(collision_count=0), False,
                 id="nil-pointer-differs-from-zero"),
]


@pytest.mark.parametrize("a, b, want", STATUS_EQUAL_CASES)
def test_status_equal(a, b, want):
    """Ours: status_equal reads like reflect.DeepEqual after a JSON round trip."""
    assert syncmod.status_equal(a, b) is want
