"""Tests for minikcm.controller.deployment.progress.

Ports of pkg/controller/deployment/progress_test.go: TestRequeueStuckDeployment
and TestSyncRolloutStatus. The controller's FakeClock stands in for the
package variable nowFn that the Go test replaces.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from kubernetes.client import (
    V1Deployment,
    V1DeploymentCondition,
    V1DeploymentSpec,
    V1DeploymentStatus,
    V1DeploymentStrategy,
    V1LabelSelector,
    V1ObjectMeta,
    V1PodTemplateSpec,
)

from minikcm.apimachinery.convert import deep_copy
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.deployment.util import deployment_util as util

from .fixtures import new_rs_with_available, zero_controller

PDS = 60
INFINITE = util.MAX_INT32
TEST_TIME = datetime(2017, 2, 15, 18, 49, 0, tzinfo=timezone.utc)


def new_deployment_status(replicas: int, updated_replicas: int, available_replicas: int) -> V1DeploymentStatus:
    """Port of newDeploymentStatus."""
    return V1DeploymentStatus(replicas=replicas, updated_replicas=updated_replicas,
                              available_replicas=available_replicas)


def current_deployment(pds: int | None, replicas: int, status_replicas: int, updated_replicas: int,
                       available_replicas: int, conditions: list[V1DeploymentCondition] | None) -> V1Deployment:
    """Port of currentDeployment: a Recreate Deployment whose status is always observed."""
    d = V1Deployment(
        metadata=V1ObjectMeta(name="progress-test", namespace="default"),
        spec=V1DeploymentSpec(progress_deadline_seconds=pds, replicas=replicas,
                              strategy=V1DeploymentStrategy(type="Recreate"), selector=V1LabelSelector(),
                              template=V1PodTemplateSpec()),
        status=new_deployment_status(status_replicas, updated_replicas, available_replicas),
    )
    d.status.conditions = [deep_copy(c) for c in conditions] if conditions is not None else None
    return d


FAILED = [V1DeploymentCondition(type="Progressing", status="False", reason=util.TIMED_OUT_REASON)]
STUCK = [V1DeploymentCondition(type="Progressing", status="True", last_update_time=TEST_TIME)]


def at(h: int, m: int, s: int, us: int = 0) -> datetime:
    return datetime(2017, 2, 15, h, m, s, us, tzinfo=timezone.utc)


REQUEUE_CASES = [
    pytest.param(current_deployment(None, 4, 3, 3, 2, None), new_deployment_status(3, 3, 2), None, -1.0,
                 id="nil progressDeadlineSeconds specified"),
    pytest.param(current_deployment(INFINITE, 4, 3, 3, 2, None), new_deployment_status(3, 3, 2), None, -1.0,
                 id="infinite progressDeadlineSeconds specified"),
    pytest.param(current_deployment(PDS, 4, 3, 3, 2, None), new_deployment_status(3, 3, 2), None, -1.0,
                 id="no progressing condition found"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 3, None), new_deployment_status(3, 3, 3), None, -1.0,
                 id="complete deployment does not need to be requeued"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 0, FAILED), new_deployment_status(3, 3, 0), None, -1.0,
                 id="already failed deployment does not need to be requeued"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1), at(18, 49, 30), 30.0,
                 id="stuck deployment - 30s"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1), at(18, 49, 59), 1.0,
                 id="stuck deployment - 1s"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1),
                 at(18, 49, 59, 1), 0.0, id="failed deployment - less than a second => now"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1), at(18, 50, 0), 0.0,
                 id="failed deployment - now"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1), at(18, 50, 1), 0.0,
                 id="failed deployment - 1s after deadline"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 1, STUCK), new_deployment_status(3, 3, 1), at(18, 51, 0), 0.0,
                 id="failed deployment - 60s after deadline"),
]


@pytest.mark.parametrize("d, status, now, expected", REQUEUE_CASES)
def test_requeue_stuck_deployment(d, status, now, expected):
    """Port of TestRequeueStuckDeployment; also checks where the key went."""
    clock = FakeClock(now or EPOCH)
    dc, _ = zero_controller(clock)
    got = dc.requeue_stuck_deployment(d, status)
    assert got == pytest.approx(expected)
    waiting = dc.queue.delaying_queue.next_ready_at()
    if expected > 0:
        assert (waiting - clock.now()).total_seconds() == pytest.approx(expected + 1.0)
    elif expected == 0:
        assert waiting is not None and (waiting - clock.now()).total_seconds() < 1  # rate limited: 5 ms
    else:
        assert waiting is None and dc.queue.len() == 0


NEW_RS_AVAILABLE = V1DeploymentCondition(type="Progressing", status="True", reason=util.NEW_RS_AVAILABLE_REASON,
                                         last_update_time=TEST_TIME, last_transition_time=TEST_TIME)
REPLICA_SET_UPDATED = V1DeploymentCondition(type="Progressing", status="True",
                                            reason=util.REPLICA_SET_UPDATED_REASON,
                                            last_update_time=TEST_TIME, last_transition_time=TEST_TIME)
FAILED_TIMED_OUT = FAILED[0]

# d, all_rss, new_rs, cond_status, cond_reason, keep_last_update, keep_last_transition
SYNC_ROLLOUT_STATUS_CASES = [
    pytest.param(current_deployment(None, 3, 2, 2, 2, [REPLICA_SET_UPDATED]), [new_rs_with_available("bar", 0, 1, 1)],
                 new_rs_with_available("foo", 3, 2, 2), None, None, False, False,
                 id="General: remove Progressing condition and do not estimate progress if deployment has no "
                    "Progress Deadline"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 3, [NEW_RS_AVAILABLE]), [new_rs_with_available("bar", 3, 3, 3)],
                 None, "True", util.NEW_RS_AVAILABLE_REASON, True, True,
                 id="General: do not estimate progress of deployment with only one active ReplicaSet"),
    pytest.param(current_deployment(PDS, 3, 2, 2, 2, [REPLICA_SET_UPDATED]), [new_rs_with_available("bar", 0, 1, 1)],
                 new_rs_with_available("foo", 3, 2, 2), "True", util.REPLICA_SET_UPDATED_REASON, False, True,
                 id="DeploymentProgressing: dont update lastTransitionTime if deployment already has "
                    "Progressing=True"),
    pytest.param(current_deployment(PDS, 3, 2, 2, 2, [FAILED_TIMED_OUT]), [new_rs_with_available("bar", 0, 1, 1)],
                 new_rs_with_available("foo", 3, 2, 2), "True", util.REPLICA_SET_UPDATED_REASON, False, False,
                 id="DeploymentProgressing: update everything if deployment has Progressing=False"),
    pytest.param(current_deployment(PDS, 3, 2, 2, 2, []), [new_rs_with_available("bar", 0, 1, 1)],
                 new_rs_with_available("foo", 3, 2, 2), "True", util.REPLICA_SET_UPDATED_REASON, False, False,
                 id="DeploymentProgressing: create Progressing condition if it does not exist"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 3, [REPLICA_SET_UPDATED]), [],
                 new_rs_with_available("foo", 3, 3, 3), "True", util.NEW_RS_AVAILABLE_REASON, False, True,
                 id="DeploymentComplete: dont update lastTransitionTime if deployment already has "
                    "Progressing=True"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 3, [FAILED_TIMED_OUT]), [], new_rs_with_available("foo", 3, 3, 3),
                 "True", util.NEW_RS_AVAILABLE_REASON, False, False,
                 id="DeploymentComplete: update everything if deployment has Progressing=False"),
    pytest.param(current_deployment(PDS, 3, 3, 3, 3, []), [], new_rs_with_available("foo", 3, 3, 3), "True",
                 util.NEW_RS_AVAILABLE_REASON, False, False,
                 id="DeploymentComplete: create Progressing condition if it does not exist"),
    pytest.param(current_deployment(PDS, 0, 3, 3, 3, [REPLICA_SET_UPDATED]), [new_rs_with_available("foo", 0, 0, 0)],
                 None, "True", util.NEW_RS_AVAILABLE_REASON, False, False,
                 id="DeploymentComplete: defend against NPE when newRS=nil"),
    pytest.param(current_deployment(PDS, 3, 2, 2, 2, [REPLICA_SET_UPDATED]), [], new_rs_with_available("foo", 3, 2, 2),
                 "False", util.TIMED_OUT_REASON, False, False,
                 id="DeploymentTimedOut: update status if rollout exceeds Progress Deadline"),
    pytest.param(current_deployment(PDS, 3, 2, 2, 2, [FAILED_TIMED_OUT]), [], new_rs_with_available("foo", 3, 2, 2),
                 "False", util.TIMED_OUT_REASON, True, True,
                 id="DeploymentTimedOut: do not update status if deployment has existing timedOut condition"),
]


@pytest.mark.parametrize("d, all_rss, new_rs, cond_status, cond_reason, keep_last_update, keep_last_transition",
                         SYNC_ROLLOUT_STATUS_CASES)
def test_sync_rollout_status(d, all_rss, new_rs, cond_status, cond_reason, keep_last_update, keep_last_transition):
    """Port of TestSyncRolloutStatus.

    Go's time checks compare the row's own values and so never fail; we
    check what the rows mean: the kept times are the input condition's.
    """
    d = deep_copy(d)
    before = util.get_deployment_condition(d.status, "Progressing")
    all_rss = [deep_copy(r) for r in all_rss]
    dc, _ = zero_controller()
    if new_rs is not None:
        all_rss.append(new_rs)
    dc.sync_rollout_status(all_rss, new_rs, d)
    new_cond = util.get_deployment_condition(d.status, "Progressing")
    if cond_status is None:
        assert new_cond is None
        return
    assert new_cond is not None, "expected deployment condition: Progressing"
    assert (new_cond.status, new_cond.reason) == (cond_status, cond_reason)
    if keep_last_update:
        assert before is not None and new_cond.last_update_time == before.last_update_time
    if keep_last_transition:
        assert before is not None and new_cond.last_transition_time == before.last_transition_time


def test_sync_rollout_status_lifts_replica_failure():
    """Ours: the new ReplicaSet's ReplicaFailure condition becomes the Deployment's."""
    from kubernetes.client import V1ReplicaSetCondition

    dc, _ = zero_controller()
    d = current_deployment(PDS, 3, 2, 2, 2, [])
    new_rs = new_rs_with_available("foo", 3, 2, 2)
    new_rs.status.conditions = [V1ReplicaSetCondition(type="ReplicaFailure", status="True", reason="FailedCreate",
                                                      message="quota", last_transition_time=TEST_TIME)]
    dc.sync_rollout_status([new_rs], new_rs, d)
    cond = util.get_deployment_condition(d.status, "ReplicaFailure")
    assert cond is not None and cond.reason == "FailedCreate" and cond.last_update_time == TEST_TIME
