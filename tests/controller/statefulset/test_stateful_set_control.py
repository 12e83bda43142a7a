"""Tests for minikcm.controller.statefulset.stateful_set_control.

Ports of pkg/controller/statefulset/stateful_set_control_test.go: the
scenario table of TestStatefulSetControl run for OrderedReady (monotonic
invariants) and Parallel (burst invariants) over every PVC retention policy,
the start-ordinal, revision, rolling-update, OnDelete, partition, history,
rollback, availability, status and maxUnavailable tests, and TestParallelScale
(with somewhat smaller sizes). Plus TestStatefulSetCompatibility, reduced to the
control: a 1.33 revision (with `"creationTimestamp":null`) must not start a
rollout. The helpers are in ss_testing.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from kubernetes.client import (
    V1ControllerRevision,
    V1ObjectMeta,
    V1EnvVar,
    V1Pod,
    V1RollingUpdateStatefulSetStrategy,
    V1StatefulSetOrdinals,
    V1StatefulSetUpdateStrategy,
)

from minikcm import features
from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import Aggregate
from minikcm.controller.history import controller_history as history
from minikcm.controller.statefulset.stateful_set_control import (
    slow_start_batch,
    update_stateful_set_after_invariant_established,
)
from minikcm.controller.statefulset.stateful_set_utils import (
    ON_DELETE_STRATEGY,
    ORDERED_READY_POD_MANAGEMENT,
    PARALLEL_POD_MANAGEMENT,
    ROLLING_UPDATE_STRATEGY,
    STATEFUL_SET_REVISION_LABEL,
    apply_revision,
    get_ordinal,
    get_persistent_volume_claims,
    has_owner_ref,
    is_created,
    new_revision,
)
from tests.controller.statefulset.ss_testing import (
    _set_phase,
    NOW,
    POLICIES,
    assert_burst_invariants,
    assert_monotonic_invariants,
    assert_update_invariants,
    burst,
    empty_invariants,
    get_set,
    is_or_has_internal_error,
    new_stateful_set,
    scale_down_stateful_set_control,
    scale_up_stateful_set_control,
    set_min_ready_seconds,
    setup_controller,
    sorted_pods,
    update_stateful_set_control,
    with_policy,
)

INTERNAL = errors.new_internal_error(RuntimeError("API server failed"))
ORIGINAL_IMAGE = "nginx"


def images(pods):
    return [p.spec.containers[0].image for p in sorted_pods(pods)]


# --- TestStatefulSetControl's scenarios --------------------------------------------------------------------


def creates_pods(set_, invariants):
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (3, 3, 3)
    pods = om.pods_of(set_)
    assert len(pods) == 3
    assert all(p.metadata.labels["apps.kubernetes.io/pod-index"] == str(get_ordinal(p)) for p in pods)


def scales_up(set_, invariants):
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_.spec.replicas = 4
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (4, 4, 4)


def scales_down(set_, invariants):
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_.spec.replicas = 0
    set_ = scale_down_stateful_set_control(set_, ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (0, 0, 0)


def replaces_pods(set_, invariants):
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert set_.status.replicas == 5
    claims = om.claims_lister.list(__import__("minikcm.apimachinery.labels", fromlist=["x"]).everything())
    for pod in om.pods_of(set_):
        pod_claims = {c.metadata.name for c in get_persistent_volume_claims(set_, pod).values()}
        for claim in claims:
            if claim.metadata.name in pod_claims:
                assert not has_owner_ref(claim, pod), f"unexpected ownerRef on {claim.metadata.name}"
    pods = sorted_pods(om.pods_of(set_))
    for i in (0, 2, 4):
        om.pods_indexer.delete(pods[i])
    for i in (0, 2, 4):
        ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
        set_ = get_set(om, set_)
        pods = om.set_pod_running(set_, i)
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        om.set_pod_ready(set_, i)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    assert get_set(om, set_).status.replicas == 5


def _recreates_pod(set_, invariants, phase):
    """Upstream's recreatesPod, for the 1.30+ behaviour: the finished pod is deleted, and made anew
    by the next sync once it is gone (the same sync no longer creates it)."""
    om, _, ssc = setup_controller()
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    invariants(set_, om)
    pods = om.pods_of(set_)
    _set_phase(pods[0], phase)
    om.pods_indexer.update(pods[0])
    ssc.update_stateful_set(set_, pods, NOW)
    invariants(set_, om)
    assert "foo-0" not in _names(om.pods_of(set_)), "the finished pod was not deleted"
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    recreated = [p for p in om.pods_of(set_) if p.metadata.name == "foo-0"]
    assert recreated and not is_created(recreated[0]), "StatefulSet did not recreate the pod"


def recreates_failed_pod(set_, invariants):
    _recreates_pod(set_, invariants, "Failed")


def recreates_succeeded_pod(set_, invariants):
    _recreates_pod(set_, invariants, "Succeeded")


def create_pod_failure(set_, invariants):
    om, _, ssc = setup_controller(set_)
    om.set_create_stateful_pod_error(INTERNAL, 2)
    try:
        scale_up_stateful_set_control(set_, ssc, om, invariants)
    except Exception as err:  # the injected failure surfaces as an InternalError
        assert is_or_has_internal_error(err), err
    set_ = scale_up_stateful_set_control(get_set(om, set_), ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (3, 3, 3)


def update_pod_failure(set_, invariants):
    om, _, ssc = setup_controller(set_)
    om.set_update_stateful_pod_error(INTERNAL, 0)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (3, 3, 3)
    pods = sorted_pods(om.pods_of(set_))
    assert len(pods) == 3
    pods[0].metadata.name = "goo-0"
    om.pods_indexer.update(pods[0])
    try:
        ssc.update_stateful_set(set_, pods, NOW)
    except Exception as err:  # if it fails, it must be with the injected error
        assert is_or_has_internal_error(err), err


def update_set_status_failure(set_, invariants):
    om, ssu, ssc = setup_controller(set_)
    ssu.set_update_stateful_set_status_error(INTERNAL, 2)
    try:
        scale_up_stateful_set_control(set_, ssc, om, invariants)
    except Exception as err:  # the injected status failure
        assert is_or_has_internal_error(err), err
    set_ = scale_up_stateful_set_control(get_set(om, set_), ssc, om, invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (3, 3, 3)


def pod_recreate_delete_failure(set_, invariants):
    om, _, ssc = setup_controller(set_)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    invariants(set_, om)
    pods = om.pods_of(set_)
    _set_phase(pods[0], "Failed")
    om.pods_indexer.update(pods[0])
    om.set_delete_stateful_pod_error(INTERNAL, 0)
    try:
        ssc.update_stateful_set(set_, pods, NOW)
    except Exception as err:  # the injected delete failure
        assert is_or_has_internal_error(err), err
    invariants(set_, om)
    assert "foo-0" in _names(om.pods_of(set_)), "a failed delete leaves the pod"
    ssc.update_stateful_set(set_, pods, NOW)  # the delete goes through now
    invariants(set_, om)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)  # and the pod is made anew
    invariants(set_, om)
    recreated = [p for p in om.pods_of(set_) if p.metadata.name == "foo-0"]
    assert recreated and not is_created(recreated[0]), "StatefulSet did not recreate failed Pod"


def new_revision_delete_pod_failure(set_, invariants):
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert set_.status.replicas == 3
    pods = om.pods_of(set_)
    update_set = deep_copy(set_)
    update_set.spec.template.spec.containers[0].image = "nginx-new"
    om.sets_indexer.update(update_set)
    set_ = get_set(om, set_)
    om.set_delete_stateful_pod_error(INTERNAL, 0)
    with pytest.raises(Exception):  # noqa: B017 - the delete of the outdated pod fails
        ssc.update_stateful_set(set_, pods, NOW)
    set_ = get_set(om, set_)
    invariants(set_, om)
    assert set_.status.current_replicas == 3, "a failed deletion must not lower currentReplicas"
    assert set_.status.current_revision != set_.status.update_revision, "no new revision"
    om.set_delete_stateful_pod_error(None, 0)
    status = ssc.update_stateful_set(set_, pods, NOW)
    assert status.current_replicas == 2
    invariants(set_, om)


def recreates_pvc_for_pending_pod(set_, invariants):
    om, _, ssc = setup_controller()
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    invariants(set_, om)
    pods = om.pods_of(set_)
    for claim in get_persistent_volume_claims(set_, pods[0]).values():
        om.claims_indexer.delete(claim)
    _set_phase(pods[0], "Pending")
    om.pods_indexer.update(pods[0])
    ssc.update_stateful_set(set_, pods, NOW)
    invariants(set_, om)  # every pod has its claims again


SCENARIOS = [
    pytest.param(creates_pods, 3, id="CreatesPods"),
    pytest.param(scales_up, 3, id="ScalesUp"),
    pytest.param(scales_down, 3, id="ScalesDown"),
    pytest.param(replaces_pods, 5, id="ReplacesPods"),
    pytest.param(recreates_failed_pod, 3, id="RecreatesFailedPod"),
    pytest.param(recreates_succeeded_pod, 3, id="RecreatesSucceededPod"),
    pytest.param(create_pod_failure, 3, id="CreatePodFailure"),
    pytest.param(update_pod_failure, 3, id="UpdatePodFailure"),
    pytest.param(update_set_status_failure, 3, id="UpdateSetStatusFailure"),
    pytest.param(pod_recreate_delete_failure, 3, id="PodRecreateDeleteFailure"),
    pytest.param(new_revision_delete_pod_failure, 3, id="NewRevisionDeletePodFailure"),
    pytest.param(recreates_pvc_for_pending_pod, 3, id="RecreatesPVCForPendingPod"),
]


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("mode", ["Monotonic", "Burst"])
@pytest.mark.parametrize("scenario, replicas", SCENARIOS)
def test_stateful_set_control(scenario, replicas, mode, policy):
    """Port of TestStatefulSetControl: each scenario, OrderedReady and Parallel, under every retention policy."""
    set_ = with_policy(new_stateful_set(replicas), policy)
    if mode == "Burst":
        scenario(burst(set_), assert_burst_invariants)
    else:
        scenario(set_, assert_monotonic_invariants)


def test_stateful_set_control_with_start_ordinal():
    """Port of TestStatefulSetControlWithStartOrdinal (CreatesPodsWithStartOrdinal): ordinals 2, 3, 4."""
    set_ = new_stateful_set(3)
    set_.spec.ordinals = V1StatefulSetOrdinals(start=2)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, empty_invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (3, 3, 3)
    assert [get_ordinal(p) for p in sorted_pods(om.pods_of(set_))] == [2, 3, 4]


def test_stateful_set_control_start_ordinal_monotonic_scale_down():
    """Start ordinals under the monotonic invariant: up to 3 from ordinal 5, then down to none."""
    set_ = new_stateful_set(3)
    set_.spec.ordinals = V1StatefulSetOrdinals(start=5)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    assert _names(om.pods_of(set_)) == ["foo-5", "foo-6", "foo-7"]
    set_.spec.replicas = 0
    set_ = scale_down_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    assert om.pods_of(set_) == []


@pytest.mark.parametrize("policy", list(POLICIES))
def test_stateful_set_control_scale_down_delete_error(policy):
    """Port of TestStatefulSetControlScaleDownDeleteError."""
    set_ = with_policy(new_stateful_set(3), policy)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    set_.spec.replicas = 0
    om.set_delete_stateful_pod_error(INTERNAL, 2)
    try:
        scale_down_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    except Exception as err:  # the injected delete failure
        assert is_or_has_internal_error(err), err
    set_ = get_set(om, set_)
    set_.spec.replicas = 0
    set_ = scale_down_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    assert (set_.status.replicas, set_.status.ready_replicas, set_.status.updated_replicas) == (0, 0, 0)


# --- revisions ----------------------------------------------------------------------------------------------


def _revision_sets():
    set_ = new_stateful_set(3)
    set_.status.collision_count = 0
    rev0 = new_revision(set_, 1, 0)
    set1 = deep_copy(set_)
    set1.spec.template.spec.containers[0].image = "foo"
    set1.status.current_revision = rev0.metadata.name
    rev1 = new_revision(set1, 2, 0)
    set2 = deep_copy(set1)
    set2.spec.template.metadata.labels["new"] = "label"
    rev2 = new_revision(set2, 3, 0)
    rev1_as_4 = deep_copy(rev1)
    rev1_as_4.revision = 4
    return set_, set1, rev0, rev1, rev2, rev1_as_4


GET_SET_REVISIONS_CASES = [
    pytest.param("set", [], 1, "rev0", "rev0", id="creates initial revision"),
    pytest.param("set1", ["rev0"], 2, "rev0", "rev1", id="creates revision on update"),
    pytest.param("set1", ["rev0", "rev1"], 2, "rev0", "rev1", id="must not recreate a new revision of same set"),
    pytest.param("set1", ["rev0", "rev1", "rev2"], 3, "rev0", "rev1_as_4", id="must rollback to a previous revision"),
]


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("set_name, existing, expected_count, expected_current, expected_update",
                         GET_SET_REVISIONS_CASES)
def test_stateful_set_control_get_set_revisions(set_name, existing, expected_count, expected_current,
                                                 expected_update, policy):
    """Port of TestStatefulSetControl_getSetRevisions."""
    set_, set1, rev0, rev1, rev2, rev1_as_4 = _revision_sets()
    named = {"set": set_, "set1": set1, "rev0": rev0, "rev1": rev1, "rev2": rev2, "rev1_as_4": rev1_as_4}
    test_set = with_policy(deep_copy(named[set_name]), policy)
    _, _, ssc = setup_controller()
    for name in existing:
        ssc.controller_history.create_controller_revision(test_set, named[name], 0)
    revisions = ssc.list_revisions(test_set)
    current, update, _ = ssc.get_stateful_set_revisions(test_set, revisions)
    assert len(ssc.list_revisions(test_set)) == expected_count
    want_current, want_update = named[expected_current], named[expected_update]
    assert history.equal_revision(current, want_current) and current.revision == want_current.revision
    assert history.equal_revision(update, want_update) and update.revision == want_update.revision


def test_get_set_revisions_semantic_comparison_keeps_a_1_33_revision():
    """Port of TestStatefulSetCompatibility, reduced: a revision whose data has `"creationTimestamp":null`
    (written by 1.33) is the set's template; no new revision, no rollout (StatefulSetSemanticRevisionComparison).
    With the gate off, the bytes differ and a new revision is made.
    """
    for gate_on, want_count in ((True, 1), (False, 2)):
        set_ = new_stateful_set(3)
        set_.status.collision_count = 0
        old = new_revision(set_, 1, 0)
        old.data["spec"]["template"]["metadata"]["creationTimestamp"] = None
        old.metadata.name = "foo-" + history.hash_controller_revision(old, 0)
        old.metadata.resource_version = "7"
        set_.status.current_revision = set_.status.update_revision = old.metadata.name
        _, _, ssc = setup_controller()
        ssc.controller_history.create_controller_revision(set_, old, 0)
        with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                                   features.STATEFUL_SET_SEMANTIC_REVISION_COMPARISON, gate_on):
            current, update, _ = ssc.get_stateful_set_revisions(set_, ssc.list_revisions(set_))
        assert len(ssc.list_revisions(set_)) == want_count
        assert (update.metadata.name == old.metadata.name) is gate_on
        assert current.metadata.name == old.metadata.name
        if gate_on:
            assert len(ssc.revision_equality_cache) == 1  # the answer is remembered


# --- rolling updates ---------------------------------------------------------------------------------------


def _image_and_replicas(image: str, replicas: int | None):
    def update(set_):
        if replicas is not None:
            set_.spec.replicas = replicas
        set_.spec.template.spec.containers[0].image = image
        return set_

    return update


ROLLING_UPDATE_CASES = [
    pytest.param(False, 3, None, id="monotonic image update"),
    pytest.param(False, 3, 5, id="monotonic image update and scale up"),
    pytest.param(False, 5, 3, id="monotonic image update and scale down"),
    pytest.param(True, 3, None, id="burst image update"),
    pytest.param(True, 3, 5, id="burst image update and scale up"),
    pytest.param(True, 5, 3, id="burst image update and scale down"),
]


@pytest.mark.parametrize("is_burst, initial, replicas", ROLLING_UPDATE_CASES)
def test_stateful_set_control_rolling_update(is_burst, initial, replicas):
    """Port of TestStatefulSetControlRollingUpdate: every pod ends on the new image."""
    set_ = new_stateful_set(initial)
    invariants = assert_monotonic_invariants
    if is_burst:
        set_, invariants = burst(set_), assert_burst_invariants
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_ = _image_and_replicas("foo", replicas)(set_)
    set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    assert images(om.pods_of(set_)) == ["foo"] * set_.spec.replicas


@pytest.mark.parametrize("policy", ["Retain", "Delete"])
@pytest.mark.parametrize("is_burst, initial, replicas", ROLLING_UPDATE_CASES)
def test_stateful_set_control_on_delete_update(is_burst, initial, replicas, policy):
    """Port of TestStatefulSetControlOnDeleteUpdate: no pod changes until deleted; new pods get the new image."""
    set_ = with_policy(new_stateful_set(initial), policy)
    invariants = assert_monotonic_invariants
    if is_burst:
        set_, invariants = burst(set_), assert_burst_invariants
    set_.spec.update_strategy = V1StatefulSetUpdateStrategy(type=ON_DELETE_STRATEGY)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_ = _image_and_replicas("foo", replicas)(set_)
    set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    for claim in om.claims_lister.list(__import__("minikcm.apimachinery.labels", fromlist=["x"]).everything()):
        if any((r.name or "").startswith("foo-") for r in claim.metadata.owner_references or []):
            om.claims_indexer.delete(claim)  # the garbage collector's part
    set_ = get_set(om, set_)
    got = images(om.pods_of(set_))
    if replicas == 5:
        assert got == [ORIGINAL_IMAGE] * 3 + ["foo"] * 2
    else:
        assert got == [ORIGINAL_IMAGE] * set_.spec.replicas
    # Restart: delete every pod (scale to 0 and back); they come back on the new image.
    replicas_now = set_.spec.replicas
    set_.spec.replicas = 0
    set_ = scale_down_stateful_set_control(set_, ssc, om, invariants)
    set_.spec.replicas = replicas_now
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    assert images(om.pods_of(set_)) == ["foo"] * replicas_now


PARTITION_CASES = [
    pytest.param(False, None, id="monotonic image update"),
    pytest.param(False, 5, id="monotonic image update and scale up"),
    pytest.param(True, None, id="burst image update"),
    pytest.param(True, 5, id="burst image update and scale up"),
]


@pytest.mark.parametrize("policy", ["Retain", "ScaleDownOnly"])
@pytest.mark.parametrize("is_burst, replicas", PARTITION_CASES)
def test_stateful_set_control_rolling_update_with_partition(is_burst, replicas, policy):
    """Port of TestStatefulSetControlRollingUpdateWithPartition: ordinals below 2 keep the old image."""
    set_ = with_policy(new_stateful_set(3), policy)
    invariants = assert_monotonic_invariants
    if is_burst:
        set_, invariants = burst(set_), assert_burst_invariants
    set_.spec.update_strategy = V1StatefulSetUpdateStrategy(
        type=ROLLING_UPDATE_STRATEGY, rolling_update=V1RollingUpdateStatefulSetStrategy(partition=2))
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_ = _image_and_replicas("foo", replicas)(set_)
    set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    got = images(om.pods_of(set_))
    assert got == [ORIGINAL_IMAGE] * 2 + ["foo"] * (set_.spec.replicas - 2)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_stateful_set_honor_revision_history_limit(policy):
    """Port of TestStatefulSetHonorRevisionHistoryLimit: never more than limit + 2 (current, update) revisions."""
    set_ = with_policy(new_stateful_set(3), policy)
    om, ssu, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    for i in range(set_.spec.revision_history_limit + 5):
        set_.spec.template.spec.containers[0].image = f"foo-{i}"
        ssu.set_update_stateful_set_status_error(INTERNAL, 2)
        try:
            update_stateful_set_control(set_, ssc, om, assert_update_invariants)
        except Exception as err:  # the injected status failure may stop an update early, as upstream
            assert is_or_has_internal_error(err), err
        set_ = get_set(om, set_)
        assert len(ssc.list_revisions(set_)) <= set_.spec.revision_history_limit + 2


@pytest.mark.parametrize("is_burst", [False, True], ids=["monotonic update", "burst update"])
def test_stateful_set_control_limits_history(is_burst):
    """Port of TestStatefulSetControlLimitsHistory."""
    set_ = new_stateful_set(3)
    invariants = assert_monotonic_invariants
    if is_burst:
        set_, invariants = burst(set_), assert_burst_invariants
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    for i in range(10):
        set_.spec.template.spec.containers[0].image = f"foo-{i}"
        update_stateful_set_control(set_, ssc, om, assert_update_invariants)
        set_ = get_set(om, set_)
        ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
        assert len(ssc.list_revisions(set_)) <= set_.spec.revision_history_limit + 2


@pytest.mark.parametrize("is_burst, initial, replicas", ROLLING_UPDATE_CASES)
def test_stateful_set_control_rollback(is_burst, initial, replicas):
    """Port of TestStatefulSetControlRollback: applying the first revision rolls every pod back.

    The rollback renumbers the first revision (it is not recreated): its name is kept.
    """
    set_ = new_stateful_set(initial)
    invariants = assert_monotonic_invariants
    if is_burst:
        set_, invariants = burst(set_), assert_burst_invariants
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, invariants)
    set_ = _image_and_replicas("foo", replicas)(set_)
    set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    assert images(om.pods_of(set_)) == ["foo"] * set_.spec.replicas
    revisions = ssc.list_revisions(set_)
    history.sort_controller_revisions(revisions)
    first = revisions[0]
    set_ = apply_revision(set_, first)
    set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    assert images(om.pods_of(set_)) == [ORIGINAL_IMAGE] * set_.spec.replicas
    assert set_.status.update_revision == first.metadata.name
    assert max(r.revision for r in ssc.list_revisions(set_)) == \
        next(r for r in ssc.list_revisions(set_) if r.metadata.name == first.metadata.name).revision


AVAILABILITY_CASES = [
    pytest.param(timedelta(minutes=-120), 1, id="replicas running for required time, when minReadySeconds is enabled"),
    pytest.param(timedelta(minutes=-30), 0,
                 id="replicas not running for required time, when minReadySeconds is enabled"),
]


@pytest.mark.parametrize("ready_for, expected_available", AVAILABILITY_CASES)
def test_stateful_set_availability(ready_for, expected_available):
    """Port of TestStatefulSetAvailability: available only minReadySeconds after Ready."""
    set_ = set_min_ready_seconds(new_stateful_set(1), 3600)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_burst_invariants)
    pods = om.set_pod_available(set_, 0, NOW + ready_for)
    status = ssc.update_stateful_set(set_, pods, NOW)
    assert status.available_replicas == expected_available


class SyncError(Exception):
    pass


class StatusError(Exception):
    pass


STATUS_UPDATE_CASES = [
    pytest.param(False, False, None, id="no error"),
    pytest.param(True, False, SyncError, id="sync error"),
    pytest.param(False, True, StatusError, id="status error"),
    pytest.param(True, True, SyncError, id="sync and status error"),
]


@pytest.mark.parametrize("has_sync_err, has_status_err, expected", STATUS_UPDATE_CASES)
def test_stateful_set_status_update(has_sync_err, has_status_err, expected):
    """Port of TestStatefulSetStatusUpdate: the status is written even after a pod error; the pod error wins."""
    set_ = new_stateful_set(3)
    om, ssu, ssc = setup_controller(set_)
    if has_sync_err:
        om.set_create_stateful_pod_error(SyncError("sync error"), 0)
    if has_status_err:
        ssu.set_update_stateful_set_status_error(StatusError("status error"), 0)
    err = None
    try:
        ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    except Aggregate as e:
        err = e.errors()[0]
    assert ssu.update_status_tracker.requests == 1, "did not update status"
    assert (err is None) if expected is None else isinstance(err, expected)


# --- maxUnavailable (gate MaxUnavailableStatefulSet, off by default in 1.36) -----------------------------


@pytest.fixture
def max_unavailable_gate():
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.MAX_UNAVAILABLE_STATEFUL_SET,
                                               True):
        yield


def _max_unavailable_set(policy_type: str):
    set_ = new_stateful_set(6)
    set_.spec.pod_management_policy = policy_type
    set_.spec.update_strategy = V1StatefulSetUpdateStrategy(
        type=ROLLING_UPDATE_STRATEGY, rolling_update=V1RollingUpdateStatefulSetStrategy(partition=3, max_unavailable=2))
    return set_


def _names(pods):
    return [p.metadata.name for p in sorted_pods(pods)]


@pytest.mark.parametrize("policy_type", [ORDERED_READY_POD_MANAGEMENT, PARALLEL_POD_MANAGEMENT])
def test_stateful_set_control_rolling_update_with_max_unavailable(max_unavailable_gate, policy_type):
    """Port of TestStatefulSetControlRollingUpdateWithMaxUnavailable: two pods at a time, above the partition only."""
    set_ = _max_unavailable_set(policy_type)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_burst_invariants)
    set_.spec.template.spec.containers[0].image = "foo"
    original = sorted_pods(om.pods_of(set_))
    ssc.update_stateful_set(set_, original, NOW)
    assert _names(om.pods_of(set_)) == _names(original[:4])  # 5 and 4 deleted together
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)  # create the new ones
    pods = om.pods_of(set_)
    if policy_type == PARALLEL_POD_MANAGEMENT:
        assert len(pods) == 6  # both at once
        om.set_pod_running(set_, 4)
        om.set_pod_running(set_, 5)
        original = sorted_pods(om.set_pod_ready(set_, 4))
    else:
        assert len(pods) == 5  # one at a time
        om.set_pod_running(set_, 4)
        pods = om.set_pod_ready(set_, 4)
        ssc.update_stateful_set(set_, pods, NOW)
        assert len(om.pods_of(set_)) == 6
        om.set_pod_running(set_, 5)
        original = sorted_pods(om.set_pod_ready(set_, 5))
    ssc.update_stateful_set(set_, original, NOW)
    assert _names(om.pods_of(set_)) == _names(original[:3] + original[4:])  # 3 goes next
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    assert len(om.pods_of(set_)) == 6
    om.set_pod_running(set_, 3)
    om.set_pod_running(set_, 5)
    om.set_pod_ready(set_, 5)
    original = sorted_pods(om.set_pod_ready(set_, 3))
    ssc.update_stateful_set(set_, original, NOW)
    assert _names(om.pods_of(set_)) == _names(original)  # 0..2 are below the partition


INVARIANT_CASES = [[], [5], [3], [4], [5, 4], [5, 3], [4, 3], [5, 4, 3], [2], [1]]


@pytest.mark.parametrize("terminating", INVARIANT_CASES, ids=lambda v: f"terminating pod at ordinal {v}")
def test_rolling_update_with_max_unavailable_in_ordered_mode_verify_invariant(max_unavailable_gate, terminating):
    """Port of TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant.

    Pods that are already unavailable use up the budget of 2: only the rest may be deleted.
    """
    set_ = _max_unavailable_set(ORDERED_READY_POD_MANAGEMENT)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_burst_invariants)
    for ordinal in terminating:
        om.add_terminating_pod(set_, ordinal)
    original = sorted_pods(om.pods_of(set_))
    set_.spec.template.spec.containers[0].image = "foo"
    from kubernetes.client import V1StatefulSetStatus

    update_stateful_set_after_invariant_established(ssc, set_, original, V1ControllerRevision(metadata=V1ObjectMeta(name=""), data={}, revision=0),
                                                    V1StatefulSetStatus(replicas=6), NOW)
    expected_deleted = max(2 - len(terminating), 0)
    assert len(om.pods_of(set_)) == 6 - expected_deleted


def test_max_unavailable_ignored_while_gate_is_off():
    """With the gate off (the 1.36 default), maxUnavailable 2 still replaces one pod at a time."""
    set_ = _max_unavailable_set(PARALLEL_POD_MANAGEMENT)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_burst_invariants)
    set_.spec.template.spec.containers[0].image = "foo"
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    assert len(om.pods_of(set_)) == 5


# --- Parallel scale ------------------------------------------------------------------------------------------

PARALLEL_SCALE_CASES = [
    pytest.param(3, 30, id="scale up from 3 to 30"),
    pytest.param(10, 1, id="scale down from 10 to 1"),
    pytest.param(151, 0, id="scale down to 0"),
    pytest.param(0, 300, id="scale up from 0"),
]


def _parallel_scale_up(set_, ssc, om, invariants):
    for _ in range(2):  # upstream gives up after 2 loops
        if (set_.status.replicas or 0) >= set_.spec.replicas:
            break
        pods = om.pods_of(set_)
        for pod in sorted_pods(pods):
            if not (pod.status and pod.status.phase):
                pods = om.set_pod_pending(set_, get_ordinal(pod))
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        invariants(set_, om)
    assert set_.status.replicas == set_.spec.replicas, "did not scale up within 2 loops"
    return set_


def _parallel_scale_down(set_, ssc, om, invariants):
    for _ in range(2):
        if (set_.status.replicas or 0) <= set_.spec.replicas:
            break
        pods = om.pods_of(set_)
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        ssc.update_stateful_set(set_, pods, NOW)
    set_ = get_set(om, set_)
    invariants(set_, om)
    return set_


@pytest.mark.parametrize("replicas, desired", PARALLEL_SCALE_CASES)
def test_parallel_scale(replicas, desired):
    """Port of TestParallelScale (upstream: 501 and 1000 pods; 151 and 300 here: several slow-start batches)."""
    set_ = burst(new_stateful_set(0))
    set_.spec.volume_claim_templates[0].metadata.labels = {"test": "test"}
    om, _, ssc = setup_controller(set_)
    set_.spec.replicas = replicas
    set_ = _parallel_scale_up(set_, ssc, om, assert_burst_invariants)
    assert set_.status.replicas == replicas
    set_.spec.replicas = desired
    scale = _parallel_scale_up if desired > replicas else _parallel_scale_down
    set_ = scale(set_, ssc, om, assert_burst_invariants)
    assert set_.status.replicas == desired
    if abs(desired - replicas) > 1:
        assert om.create_pod_tracker.requests + om.delete_pod_tracker.requests > 1


def test_slow_start_batch_stops_after_a_failing_batch():
    calls = []

    def fn(k):
        calls.append(k)
        if k == 4:
            raise RuntimeError("boom")
        return False

    successes, err = slow_start_batch(1, 10, fn, inline=True)
    assert (successes, calls) == (6, [0, 1, 2, 3, 4, 5, 6]) and isinstance(err, Aggregate)


def test_monotonic_creates_one_pod_per_sync():
    """OrderedReady: pod N+1 waits for N to be Running and Ready."""
    set_ = new_stateful_set(3)
    om, _, ssc = setup_controller(set_)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    ssc.update_stateful_set(get_set(om, set_), om.pods_of(set_), NOW)
    assert _names(om.pods_of(set_)) == ["foo-0"]
    om.set_pod_pending(set_, 0)
    om.set_pod_running(set_, 0)
    pods = om.set_pod_ready(set_, 0)
    ssc.update_stateful_set(get_set(om, set_), pods, NOW)
    assert _names(om.pods_of(set_)) == ["foo-0", "foo-1"]


def test_new_revision_keeps_random_seed_out():
    # The rng only picks which pod moves; the outcome is the same for any seed.
    results = []
    for seed in (1, 2):
        set_ = new_stateful_set(3)
        om, _, ssc = setup_controller(set_)
        set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants, rng=random.Random(seed))
        results.append((set_.status.ready_replicas, set_.status.current_revision))
    assert results[0] == results[1]


def test_env_change_makes_a_new_revision():
    set_ = new_stateful_set(1)
    a = new_revision(set_, 1, 0)
    set_.spec.template.spec.containers[0].env = [V1EnvVar(name="x", value="1")]
    assert not history.equal_revision(a, new_revision(set_, 1, 0))


# --- availability (minReadySeconds) in the pod walk: isUnavailable -----------------------------------------
# The pinned upstream test file is not stored; these tables follow updateStatefulSet as read at
# 008b3652 (see the module docstring of stateful_set_control), in the style of TestStatefulSetAvailability.

LONG_AGO = timedelta(hours=1)

ROLLING_WAIT_CASES = [
    pytest.param(PARALLEL_POD_MANAGEMENT, 30, timedelta(seconds=10), False,
                 id="parallel: updated pod ready 10s of 30, the next pod waits"),
    pytest.param(PARALLEL_POD_MANAGEMENT, 30, timedelta(seconds=60), True,
                 id="parallel: updated pod available, the next pod goes"),
    pytest.param(PARALLEL_POD_MANAGEMENT, 0, timedelta(0), True,
                 id="parallel: no minReadySeconds, ready is enough"),
    pytest.param(ORDERED_READY_POD_MANAGEMENT, 30, timedelta(seconds=10), False,
                 id="ordered: updated pod ready 10s of 30, the next pod waits"),
    pytest.param(ORDERED_READY_POD_MANAGEMENT, 30, timedelta(seconds=60), True,
                 id="ordered: updated pod available, the next pod goes"),
]


@pytest.mark.parametrize("policy_type, min_ready, ready_for, next_deleted", ROLLING_WAIT_CASES)
def test_rolling_update_waits_for_the_updated_pod_to_be_available(policy_type, min_ready, ready_for,
                                                                   next_deleted):
    """updateStatefulSet's rolling update (gate off) waits while the updated pod is unavailable.

    Pod 2 is replaced first; pod 1 may go only once the new pod 2 has been
    ready for minReadySeconds, in Parallel as in OrderedReady.
    """
    set_ = new_stateful_set(3)
    set_.spec.pod_management_policy = policy_type
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_burst_invariants)
    set_ = set_min_ready_seconds(set_, min_ready)
    for ordinal in range(3):
        om.set_pod_available(set_, ordinal, NOW - LONG_AGO)
    set_.spec.template.spec.containers[0].image = "foo"
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    assert _names(om.pods_of(set_)) == ["foo-0", "foo-1"]  # the highest outdated pod went
    set_ = get_set(om, set_)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)  # pod 2 comes back at the update revision
    om.set_pod_running(set_, 2)
    pods = om.set_pod_available(set_, 2, NOW - ready_for)
    ssc.update_stateful_set(get_set(om, set_), pods, NOW)
    want = ["foo-0", "foo-2"] if next_deleted else ["foo-0", "foo-1", "foo-2"]
    assert _names(om.pods_of(set_)) == want


CONDEMNED_AVAILABILITY_CASES = [
    pytest.param({2: timedelta(seconds=10)}, ["foo-0", "foo-1"],
                 id="condemned pod 2 ready but not available is the first unavailable pod and goes"),
    pytest.param({1: timedelta(seconds=10)}, ["foo-0", "foo-1"],
                 id="condemned pod 1 not available, available pod 2 goes first"),
    pytest.param({}, ["foo-0", "foo-1"], id="all available, pod 2 goes"),
    pytest.param({0: timedelta(seconds=10)}, ["foo-0", "foo-1", "foo-2"],
                 id="member 0 not available, nothing goes"),
]


@pytest.mark.parametrize("ready_for, remaining", CONDEMNED_AVAILABILITY_CASES)
def test_ordered_scale_down_picks_the_first_unavailable_pod(ready_for, remaining):
    """OrderedReady scale-down: the first unavailable pod (isUnavailable) is the one allowed to go.

    A condemned pod that is ready but not yet available for minReadySeconds is
    unavailable, so it is the first unavailable pod and is deleted rather than
    waited for.
    """
    set_ = new_stateful_set(3)
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    set_ = set_min_ready_seconds(set_, 30)
    for ordinal in range(3):
        om.set_pod_available(set_, ordinal, NOW - ready_for.get(ordinal, LONG_AGO))
    set_.spec.replicas = 1
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    assert _names(om.pods_of(set_)) == remaining


# --- truncateHistory with a negative revisionHistoryLimit (upstream PR 129301) ------------------------------

TRUNCATE_CASES = [
    pytest.param(-1, [], id="negative limit keeps everything"),
    pytest.param(-10, [], id="limit far below zero keeps everything"),
    pytest.param(0, [1, 3, 4], id="limit 0 deletes every dead revision"),
    pytest.param(1, [1, 3], id="limit 1 keeps the newest dead revision"),
    pytest.param(3, [], id="limit equal to the dead count deletes nothing"),
    pytest.param(None, [], id="no limit means the default of 10"),
]


@pytest.mark.parametrize("limit, deleted", TRUNCATE_CASES)
def test_truncate_history(limit, deleted):
    """Port of truncateHistory's rule: live revisions never go; a negative limit truncates nothing.

    Revisions 1..6; 5 is current, 6 the update revision, a pod still runs 2,
    so 1, 3 and 4 are the dead history.
    """
    set_ = new_stateful_set(3)
    _, _, ssc = setup_controller()
    for number in range(1, 7):
        set_.spec.template.spec.containers[0].image = f"image-{number}"
        ssc.controller_history.create_controller_revision(set_, new_revision(set_, number, 0), 0)
    revisions = ssc.list_revisions(set_)
    history.sort_controller_revisions(revisions)
    by_number = {r.revision: r for r in revisions}
    pod = V1Pod(metadata=V1ObjectMeta(name="foo-0", labels={STATEFUL_SET_REVISION_LABEL:
                                                             by_number[2].metadata.name}))
    set_.spec.revision_history_limit = limit
    ssc.truncate_history(set_, [pod], revisions, by_number[5], by_number[6])
    kept = sorted(r.revision for r in ssc.list_revisions(set_))
    assert kept == [n for n in range(1, 7) if n not in deleted]


def test_negative_revision_history_limit_keeps_every_revision_through_updates():
    """A set seeded with revisionHistoryLimit -1 rolls out updates without losing any revision."""
    set_ = new_stateful_set(3)
    set_.spec.revision_history_limit = -1
    om, _, ssc = setup_controller(set_)
    set_ = scale_up_stateful_set_control(set_, ssc, om, assert_monotonic_invariants)
    for i in range(3):
        set_.spec.template.spec.containers[0].image = f"foo-{i}"
        set_ = update_stateful_set_control(set_, ssc, om, assert_update_invariants)
    assert len(ssc.list_revisions(set_)) == 4
