"""Tests for minikcm.controller.deployment.util.deployment_util.

Ports of pkg/controller/deployment/util/deployment_util_test.go (a stored copy
with the same 1.33+ signatures as the code read at 95f08499), plus our own cases
for the helpers upstream leaves untested (marked "ours").
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

import pytest
from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentCondition,
    V1DeploymentSpec,
    V1DeploymentStatus,
    V1DeploymentStrategy,
    V1LabelSelector,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
    V1PodList,
    V1PodSecurityContext,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetCondition,
    V1ReplicaSetList,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
    V1RollingUpdateDeployment,
)

from minikcm.apimachinery.meta import ListOptions
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.deployment.util import deployment_util as du

HASH = du.DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY
_uids = itertools.count(1)

# --- builders (ports of the upstream test helpers) ----------------------------------------


def new_d_controller_ref(d: V1Deployment) -> V1OwnerReference:
    """Port of newDControllerRef."""
    return V1OwnerReference(api_version="apps/v1", kind="Deployment", name=d.metadata.name, uid=d.metadata.uid or "", controller=True)


def generate_rs(deployment: V1Deployment) -> V1ReplicaSet:
    """Port of generateRS: a ReplicaSet with the Deployment's template and 0 replicas.

    Differs from the Go helper: Go shares one labels map between the ReplicaSet and
    its template; here they are separate dicts (use set_hash to change both).
    """
    template = deployment.spec.template.model_copy(deep=True)
    n = next(_uids)
    return V1ReplicaSet(
        metadata=V1ObjectMeta(
            uid=str(n),
            name=f"{deployment.metadata.name}-{n:05d}",
            labels=dict(template.metadata.labels),
            owner_references=[new_d_controller_ref(deployment)],
        ),
        spec=V1ReplicaSetSpec(replicas=0, template=template, selector=V1LabelSelector(match_labels=dict(template.metadata.labels))),
    )


def set_hash(rs: V1ReplicaSet, value: str) -> None:
    """Set the pod-template-hash label on a ReplicaSet and its template (Go's shared map does both)."""
    rs.metadata.labels = {**rs.metadata.labels, HASH: value}
    rs.spec.template.metadata.labels = {**rs.spec.template.metadata.labels, HASH: value}


def generate_deployment(image: str) -> V1Deployment:
    """Port of generateDeployment: one replica of a single container running `image`."""
    pod_labels = {"name": image}
    return V1Deployment(
        metadata=V1ObjectMeta(name=image, annotations={}),
        spec=V1DeploymentSpec(
            replicas=1,
            selector=V1LabelSelector(match_labels=pod_labels),
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels=pod_labels),
                spec=V1PodSpec(
                    containers=[
                        V1Container(name=image, image=image, image_pull_policy="Always", termination_message_path="/dev/termination-log")
                    ],
                    dns_policy="ClusterFirst",
                    termination_grace_period_seconds=30,
                    restart_policy="Always",
                    security_context=V1PodSecurityContext(),
                    enable_service_links=True,
                ),
            ),
        ),
    )


def generate_pod_template_spec(name: str, node_name: str, annotations: dict, labels: dict) -> V1PodTemplateSpec:
    """Port of generatePodTemplateSpec."""
    return V1PodTemplateSpec(
        metadata=V1ObjectMeta(name=name, annotations=annotations, labels=labels), spec=V1PodSpec(containers=[], node_name=node_name)
    )


def bare_deployment(replicas=None, strategy=None, status=None, progress_deadline_seconds=None) -> V1Deployment:
    """A Deployment with only the given fields (Go test literals leave the rest zero)."""
    return V1Deployment(
        spec=V1DeploymentSpec(
            replicas=replicas,
            strategy=strategy,
            progress_deadline_seconds=progress_deadline_seconds,
            selector=V1LabelSelector(),
            template=V1PodTemplateSpec(),
        ),
        status=status,
    )


def rolling(max_surge, max_unavailable) -> V1DeploymentStrategy:
    return V1DeploymentStrategy(type="RollingUpdate", rolling_update=V1RollingUpdateDeployment(max_surge=max_surge, max_unavailable=max_unavailable))


# --- EqualIgnoreHash ----------------------------------------------------------------------

EQUAL_IGNORE_HASH_CASES = [
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1", "something": "else"}),
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1", "something": "else"}),
        True, id="Same spec, same labels"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1", "something": "else"}),
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-2", "something": "else"}),
        True, id="Same spec, only pod-template-hash label value is different"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {"something": "else"}),
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-2", "something": "else"}),
        True, id="Same spec, the former doesn't have pod-template-hash label"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {"something": "else"}),
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-2"}),
        False, id="Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1"}),
        generate_pod_template_spec("foo", "foo-node", {}, {"something": "else"}),
        False, id="Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1"}),
        generate_pod_template_spec("foo", "foo-node", {}, {HASH: "value-1", "something": "else"}),
        False, id="Same spec, the label is different, and the pod-template-hash label value is the same"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node", {"former": "value"}, {HASH: "value-1", "something": "else"}),
        generate_pod_template_spec("foo", "foo-node", {"latter": "value"}, {HASH: "value-1", "something": "else"}),
        False, id="Different spec, same labels"),
    pytest.param(
        generate_pod_template_spec("foo-1", "foo-node", {}, {HASH: "value-1", "something": "else"}),
        generate_pod_template_spec("foo-2", "foo-node", {}, {HASH: "value-2", "something": "else"}),
        False, id="Different spec, different pod-template-hash label value"),
    pytest.param(
        generate_pod_template_spec("foo-1", "foo-node-1", {}, {"something": "else"}),
        generate_pod_template_spec("foo-2", "foo-node-2", {}, {HASH: "value-2", "something": "else"}),
        False, id="Different spec, the former doesn't have pod-template-hash label"),
    pytest.param(
        generate_pod_template_spec("foo", "foo-node-1", {}, {"something": "else"}),
        generate_pod_template_spec("foo", "foo-node-2", {}, {"nothing": "else"}),
        False, id="Different spec, different labels"),
]


@pytest.mark.parametrize("former, latter, expected", EQUAL_IGNORE_HASH_CASES)
def test_equal_ignore_hash(former, latter, expected):
    """Port of TestEqualIgnoreHash (deployment_util_test.go): both orders; the inputs keep their labels."""
    before = (former.model_copy(deep=True), latter.model_copy(deep=True))
    assert du.equal_ignore_hash(former, latter) is expected
    assert du.equal_ignore_hash(latter, former) is expected
    assert (former, latter) == before


def test_equal_ignore_hash_empty_labels_equal_missing_labels():
    """Ours: Semantic.DeepEqual treats an empty map like a nil one, so {hash} vs no labels is equal."""
    assert du.equal_ignore_hash(generate_pod_template_spec("a", "n", {}, {HASH: "x"}), generate_pod_template_spec("a", "n", {}, None))


# --- FindNewReplicaSet / FindOldReplicaSets -----------------------------------------------

NOW = EPOCH
LATER = EPOCH + timedelta(minutes=1)
BEFORE = EPOCH - timedelta(minutes=1)


def find_fixtures():
    """The ReplicaSets shared by TestFindNewReplicaSet and TestFindOldReplicaSets."""
    deployment = generate_deployment("nginx")
    new_rs = generate_rs(deployment)
    set_hash(new_rs, "hash")
    new_rs.metadata.creation_timestamp = LATER
    new_rs_dup = generate_rs(deployment)
    set_hash(new_rs_dup, "different-hash")
    new_rs_dup.metadata.creation_timestamp = NOW
    old_deployment = generate_deployment("nginx")
    old_deployment.spec.template.spec.containers[0].name = "nginx-old-1"
    old_rs = generate_rs(old_deployment)
    old_rs.status = V1ReplicaSetStatus(replicas=0, fully_labeled_replicas=old_rs.spec.replicas)
    old_rs.metadata.creation_timestamp = BEFORE
    return deployment, {"new": new_rs, "dup": new_rs_dup, "old": old_rs}


FIND_NEW_REPLICA_SET_CASES = [
    pytest.param(["new", "old"], "new", id="Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value"),
    pytest.param(["new", "old", "dup"], "dup", id="Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template"),
    pytest.param(["old"], None, id="Get nil new ReplicaSet"),
]


@pytest.mark.parametrize("rs_names, expected", FIND_NEW_REPLICA_SET_CASES)
def test_find_new_replica_set(rs_names, expected):
    """Port of TestFindNewReplicaSet (deployment_util_test.go)."""
    deployment, rss = find_fixtures()
    got = du.find_new_replica_set(deployment, [rss[n] for n in rs_names])
    assert got is (rss[expected] if expected else None)


FIND_OLD_REPLICA_SETS_CASES = [
    pytest.param(["new", "old"], ["old"], None, id="Get old ReplicaSets"),
    pytest.param(["old"], ["old"], None, id="Get old ReplicaSets with no new ReplicaSet"),
    pytest.param(["old", "new", "dup"], ["old", "new"], ["new"],
                 id="Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet"),
    pytest.param(["new"], None, None, id="Get empty old ReplicaSets"),
]


@pytest.mark.parametrize("rs_names, expected, expected_require", FIND_OLD_REPLICA_SETS_CASES)
def test_find_old_replica_sets(rs_names, expected, expected_require):
    """Port of TestFindOldReplicaSets (deployment_util_test.go): `required` keeps only those with replicas."""
    deployment, rss = find_fixtures()
    rss["new"].spec.replicas = 1
    require_rs, all_rs = du.find_old_replica_sets(deployment, [rss[n] for n in rs_names])
    names = lambda found: None if found is None else sorted(found, key=lambda rs: rs.metadata.creation_timestamp)  # noqa: E731
    assert names(all_rs) == (None if expected is None else [rss[n] for n in expected])
    assert require_rs == (None if expected_require is None else [rss[n] for n in expected_require])


def test_find_new_replica_set_sorts_caller_list_oldest_first():
    """Ours: like upstream's sort.Sort, the caller's list ends up ordered by creation time."""
    deployment, rss = find_fixtures()
    rs_list = [rss["new"], rss["old"], rss["dup"]]
    du.find_new_replica_set(deployment, rs_list)
    assert rs_list == [rss["old"], rss["dup"], rss["new"]]


# --- replica counts -----------------------------------------------------------------------


def count_fixtures():
    """rs1..rs4 of TestGetReplicaCountForReplicaSets, including upstream's slip: rs2's
    observedGeneration is never set (the Go test sets rs1's twice), so rs2 counts as
    unsynced-but-reporting."""
    rs1 = generate_rs(generate_deployment("foo-rs"))
    rs1.spec.replicas = 1
    rs1.status = V1ReplicaSetStatus(observed_generation=1, replicas=2, terminating_replicas=3)
    rs2 = generate_rs(generate_deployment("bar-rs"))
    rs2.spec.replicas = 2
    rs2.status = V1ReplicaSetStatus(replicas=3, terminating_replicas=1)
    rs3 = generate_rs(generate_deployment("unsynced-rs"))
    rs3.spec.replicas = 3
    rs3.status = V1ReplicaSetStatus(replicas=0, terminating_replicas=None)
    rs4 = generate_rs(generate_deployment("dropped-rs"))
    rs4.spec.replicas = 1
    rs4.status = V1ReplicaSetStatus(observed_generation=1, replicas=1, terminating_replicas=None)
    return {"rs1": rs1, "rs2": rs2, "rs3": rs3, "rs4": rs4}


GET_REPLICA_COUNT_CASES = [
    #            sets                              count actual terminating
    pytest.param(["rs1"],                          1,    2,     3,    id="scaling down rs1"),
    pytest.param(["rs1", "rs2"],                   3,    5,     4,    id="scaling down rs1 and rs2"),
    pytest.param(["rs3"],                          3,    0,     0,    id="scaling up rs3"),
    pytest.param(["rs1", "rs2", "rs3"],            6,    5,     4,    id="scaling down rs1 and rs2 and scaling up rs3"),
    pytest.param(["rs4"],                          1,    1,     None, id="invalid/unknown terminating status for rs4"),
    pytest.param(["rs1", "rs2", "rs3", "rs4"],     7,    6,     None, id="invalid/unknown terminating status for rs4 with rs1, rs2 and rs3"),
]


@pytest.mark.parametrize("names, expected_count, expected_actual, expected_terminating", GET_REPLICA_COUNT_CASES)
def test_get_replica_count_for_replica_sets(names, expected_count, expected_actual, expected_terminating):
    """Port of TestGetReplicaCountForReplicaSets (deployment_util_test.go)."""
    rss = count_fixtures()
    sets = [rss[n] for n in names]
    assert du.get_replica_count_for_replica_sets(sets) == expected_count
    assert du.get_actual_replica_count_for_replica_sets(sets) == expected_actual
    assert du.get_terminating_replica_count_for_replica_sets(sets) == expected_terminating


def test_ready_and_available_counts_skip_none_and_missing_status():
    """Ours: None entries and unset status fields count as zero."""
    a = generate_rs(generate_deployment("a"))
    a.status = V1ReplicaSetStatus(replicas=3, ready_replicas=2, available_replicas=1)
    b = generate_rs(generate_deployment("b"))
    assert du.get_ready_replica_count_for_replica_sets([a, None, b]) == 2
    assert du.get_available_replica_count_for_replica_sets([a, None, b]) == 1
    assert du.get_terminating_replica_count_for_replica_sets([None, b]) == 0


# --- ResolveFenceposts and the rolling-update arithmetic ----------------------------------

RESOLVE_FENCEPOSTS_CASES = [
    #            max_surge max_unavailable desired want=(surge, unavailable)
    pytest.param("0%",     "0%",           0,      (0, 1), id="0-both-zero-percent-forces-one-unavailable"),
    pytest.param("39%",    "39%",          10,     (4, 3), id="1-surge-rounds-up-unavailable-rounds-down"),
    pytest.param(None,     "39%",          10,     (0, 3), id="4-nil-surge"),
    pytest.param("39%",    None,           10,     (4, 0), id="5-nil-unavailable"),
    pytest.param(None,     None,           10,     (0, 1), id="6-both-nil"),
    # ours (STYLE.md Example C)
    pytest.param("25%",    "25%",          10,     (3, 2), id="ours-percent-surge-rounds-up-unavailable-rounds-down"),
    pytest.param(0,        0,              5,      (0, 1), id="ours-both-zero-forces-one-unavailable"),
    pytest.param(2,        "50%",          3,      (2, 1), id="ours-int-surge-percent-unavailable"),
    pytest.param(0,        "10%",          5,      (0, 1), id="ours-unavailable-rounds-down-to-zero"),
]


@pytest.mark.parametrize("max_surge, max_unavailable, desired, want", RESOLVE_FENCEPOSTS_CASES)
def test_resolve_fenceposts(max_surge, max_unavailable, desired, want):
    """Port of TestResolveFenceposts (deployment_util_test.go)."""
    assert du.resolve_fenceposts(max_surge, max_unavailable, desired) == want


@pytest.mark.parametrize("max_surge, max_unavailable", [
    pytest.param("oops", "39%", id="2-bad-surge"),
    pytest.param("55%", "urg", id="3-bad-unavailable"),
    pytest.param("ten%", 0, id="ours-non-numeric-percent"),
])
def test_resolve_fenceposts_rejects_malformed(max_surge, max_unavailable):
    """Port of the error rows of TestResolveFenceposts (deployment_util_test.go)."""
    with pytest.raises(ValueError):
        du.resolve_fenceposts(max_surge, max_unavailable, 10)


NEW_RS_NEW_REPLICAS_CASES = [
    #            strategy         dep_replicas new_rs_replicas max_surge expected
    pytest.param("RollingUpdate", 1,           5,              1,        5, id="can not scale up - to newRSReplicas"),
    pytest.param("RollingUpdate", 6,           2,              10,       6, id="scale up - to depReplicas"),
    pytest.param("Recreate",      3,           1,              1,        3, id="recreate - to depReplicas"),
    # ours: 10 replicas, no surge, rs5 holds 5 -> room 5, less than the 6 still needed -> 4 + 5 = 9
    pytest.param("RollingUpdate", 10,          4,              0,        9, id="ours-room-left-by-surge"),
]


@pytest.mark.parametrize("strategy_type, dep_replicas, new_rs_replicas, max_surge, expected", NEW_RS_NEW_REPLICAS_CASES)
def test_new_rs_new_replicas(strategy_type, dep_replicas, new_rs_replicas, max_surge, expected):
    """Port of TestNewRSNewReplicas (deployment_util_test.go): rs5 (5 replicas) is the only other ReplicaSet."""
    deployment = generate_deployment("nginx")
    new_rc = generate_rs(deployment)
    rs5 = generate_rs(deployment)
    rs5.spec.replicas = 5
    deployment.spec.replicas = dep_replicas
    deployment.spec.strategy = V1DeploymentStrategy(
        type=strategy_type, rolling_update=V1RollingUpdateDeployment(max_unavailable=1, max_surge=max_surge)
    )
    new_rc.spec.replicas = new_rs_replicas
    assert du.new_rs_new_replicas(deployment, [rs5], new_rc) == expected


def test_new_rs_new_replicas_unknown_strategy():
    """Ours: an unknown strategy type is an error, worded as upstream's."""
    deployment = generate_deployment("nginx")
    deployment.spec.strategy = V1DeploymentStrategy(type="Canary")
    with pytest.raises(ValueError, match="deployment type Canary isn't supported"):
        du.new_rs_new_replicas(deployment, [], generate_rs(deployment))


MAX_UNAVAILABLE_CASES = [
    pytest.param(bare_deployment(10, rolling(1, 5)), 5, id="maxUnavailable less than replicas"),
    pytest.param(bare_deployment(10, rolling(1, 10)), 10, id="maxUnavailable equal replicas"),
    pytest.param(bare_deployment(5, rolling(1, 10)), 5, id="maxUnavailable greater than replicas"),
    pytest.param(bare_deployment(0, rolling(1, 10)), 0, id="maxUnavailable with replicas is 0"),
    pytest.param(bare_deployment(strategy=V1DeploymentStrategy(type="Recreate")), 0, id="maxUnavailable with Recreate deployment strategy"),
    pytest.param(bare_deployment(10, rolling(1, "50%")), 5, id="maxUnavailable less than replicas with percents"),
    pytest.param(bare_deployment(10, rolling(1, "100%")), 10, id="maxUnavailable equal replicas with percents"),
    pytest.param(bare_deployment(5, rolling(1, "100%")), 5, id="maxUnavailable greater than replicas with percents"),
]


@pytest.mark.parametrize("deployment, expected", MAX_UNAVAILABLE_CASES)
def test_max_unavailable(deployment, expected):
    """Port of TestMaxUnavailable (deployment_util_test.go)."""
    assert du.max_unavailable(deployment) == expected


MIN_AVAILABLE_CASES = [
    pytest.param(bare_deployment(10, rolling(1, 5)), 5, id="replicas greater than maxUnavailable"),
    pytest.param(bare_deployment(10, rolling(1, 10)), 0, id="replicas equal maxUnavailable"),
    pytest.param(bare_deployment(5, rolling(1, 10)), 0, id="replicas less than maxUnavailable"),
    pytest.param(bare_deployment(0, rolling(1, 10)), 0, id="replicas is 0"),
    pytest.param(bare_deployment(10, V1DeploymentStrategy(type="Recreate")), 0, id="minAvailable with Recreate deployment strategy"),
    pytest.param(bare_deployment(10, rolling(1, "60%")), 4, id="replicas greater than maxUnavailable with percents"),
    pytest.param(bare_deployment(10, rolling(1, "100%")), 0, id="replicas equal maxUnavailable with percents"),
    pytest.param(bare_deployment(5, rolling(1, "100%")), 0, id="replicas less than maxUnavailable with percents"),
]


@pytest.mark.parametrize("deployment, expected", MIN_AVAILABLE_CASES)
def test_min_available(deployment, expected):
    """Port of TestMinAvailable (deployment_util_test.go)."""
    assert du.min_available(deployment) == expected


MAX_SURGE_CASES = [
    #            deployment                                    expected
    pytest.param(bare_deployment(10, rolling("25%", 0)),       3, id="percent-rounds-up"),
    pytest.param(bare_deployment(10, rolling(2, "25%")),       2, id="int"),
    pytest.param(bare_deployment(10, V1DeploymentStrategy(type="Recreate")), 0, id="recreate-has-no-surge"),
    pytest.param(bare_deployment(10, rolling("lots", 1)),      0, id="malformed-counts-as-zero"),
]


@pytest.mark.parametrize("deployment, expected", MAX_SURGE_CASES)
def test_max_surge(deployment, expected):
    """Ours: MaxSurge has no upstream test of its own."""
    assert du.max_surge(deployment) == expected


# --- proportions --------------------------------------------------------------------------

GET_REPLICA_SET_FRACTION_CASES = [
    #            d_replicas d_status d_surge rs_replicas annotations                expected
    pytest.param(0,         0,       0,      10,         None,                       -10, id="empty deployment always scales to 0"),
    pytest.param(10,        0,       0,      5,          None,                       0,
                 id="unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)"),
    pytest.param(10,        0,       0,      5,          {du.MAX_REPLICAS_ANNOTATION: "0"}, 0,
                 id="unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)"),
    pytest.param(120,       100,     0,      50,         None,                       10,
                 id="scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)"),
    pytest.param(120,       100,     0,      50,         {du.MAX_REPLICAS_ANNOTATION: "0"}, 10,
                 id="scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)"),
    pytest.param(120,       0,       0,      50,         {du.MAX_REPLICAS_ANNOTATION: "100"}, 10, id="scale up by 1/5 should increase RS replicas by 1/5"),
    pytest.param(120,       0,       10,     50,         {du.MAX_REPLICAS_ANNOTATION: "110"}, 9,
                 id="scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5"),
    pytest.param(10,        0,       0,      6,          {du.MAX_REPLICAS_ANNOTATION: "12"}, -1, id="scale down by 1/6 should decrease RS replicas by 1/6"),
    pytest.param(100,       0,       10,     50,         {du.MAX_REPLICAS_ANNOTATION: "130"}, -8,
                 id="scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6"),
]


def fraction_fixture(d_replicas, d_status, d_surge, rs_replicas, annotations):
    deployment = generate_deployment("nginx")
    deployment.status = V1DeploymentStatus(replicas=d_status)
    deployment.spec.replicas = d_replicas
    deployment.spec.strategy = rolling(d_surge, 1)
    rs = generate_rs(deployment)
    rs.metadata.annotations = annotations
    rs.spec.replicas = rs_replicas
    return deployment, rs


@pytest.mark.parametrize("d_replicas, d_status, d_surge, rs_replicas, annotations, expected", GET_REPLICA_SET_FRACTION_CASES)
def test_get_replica_set_fraction(d_replicas, d_status, d_surge, rs_replicas, annotations, expected):
    """Port of TestGetReplicaSetFraction (deployment_util_test.go)."""
    deployment, rs = fraction_fixture(d_replicas, d_status, d_surge, rs_replicas, annotations)
    assert du.get_replica_set_fraction(rs, deployment) == expected


GET_REPLICA_SET_PROPORTION_CASES = [
    #            rs_replicas annotation to_add added expected
    pytest.param(50,         "100",     20,    0,    10, id="fraction-fits"),
    pytest.param(50,         "100",     20,    15,   5,  id="capped-by-what-is-left-to-add"),
    pytest.param(50,         "100",     20,    20,   0,  id="nothing-left"),
    pytest.param(0,          "100",     20,    0,    0,  id="never-from-zero"),
    pytest.param(50,         "100",     0,     0,    0,  id="nothing-to-add"),
    pytest.param(50,         "200",     -60,   -55,  -5, id="scale-down-capped-by-what-is-left-to-remove"),
]


@pytest.mark.parametrize("rs_replicas, annotation, to_add, added, expected", GET_REPLICA_SET_PROPORTION_CASES)
def test_get_replica_set_proportion(rs_replicas, annotation, to_add, added, expected):
    """Ours: deployment of 120 (no surge); the fraction clamped to what is left to add or remove."""
    deployment, rs = fraction_fixture(120, 0, 0, rs_replicas, {du.MAX_REPLICAS_ANNOTATION: annotation})
    assert du.get_replica_set_proportion(rs, deployment, to_add, added) == expected
    assert du.get_replica_set_proportion(None, deployment, to_add, added) == 0


# --- conditions ---------------------------------------------------------------------------


def cond_progressing():
    return V1DeploymentCondition(type="Progressing", status="False", reason="ForSomeReason")


def cond_progressing2():
    return V1DeploymentCondition(type="Progressing", status="True", reason="BecauseItIs")


def cond_available():
    return V1DeploymentCondition(type="Available", status="True", reason="AwesomeController")


def example_status():
    return V1DeploymentStatus(conditions=[cond_progressing(), cond_available()])


@pytest.mark.parametrize("cond_type, expected", [
    pytest.param("Available", True, id="condition exists"),
    pytest.param("ReplicaFailure", False, id="condition does not exist"),
])
def test_get_condition(cond_type, expected):
    """Port of TestGetCondition (deployment_util_test.go)."""
    assert (du.get_deployment_condition(example_status(), cond_type) is not None) is expected


SET_CONDITION_CASES = [
    pytest.param(V1DeploymentStatus(), cond_available(), V1DeploymentStatus(conditions=[cond_available()]), id="set for the first time"),
    pytest.param(V1DeploymentStatus(conditions=[cond_progressing()]), cond_available(), example_status(), id="simple set"),
    pytest.param(V1DeploymentStatus(conditions=[cond_progressing()]), cond_progressing2(),
                 V1DeploymentStatus(conditions=[cond_progressing2()]), id="overwrite"),
]


@pytest.mark.parametrize("status, cond, expected_status", SET_CONDITION_CASES)
def test_set_condition(status, cond, expected_status):
    """Port of TestSetCondition (deployment_util_test.go)."""
    du.set_deployment_condition(status, cond)
    assert status == expected_status


REMOVE_CONDITION_CASES = [
    pytest.param(V1DeploymentStatus(), "Progressing", V1DeploymentStatus(), id="remove from empty status"),
    pytest.param(V1DeploymentStatus(conditions=[cond_progressing()]), "Progressing", V1DeploymentStatus(), id="simple remove"),
    pytest.param(example_status(), "ReplicaFailure", example_status(), id="doesn't remove anything"),
]


@pytest.mark.parametrize("status, cond_type, expected_status", REMOVE_CONDITION_CASES)
def test_remove_condition(status, cond_type, expected_status):
    """Port of TestRemoveCondition (deployment_util_test.go)."""
    du.remove_deployment_condition(status, cond_type)
    assert status == expected_status


def test_set_condition_keeps_transition_time_when_only_reason_changes():
    """Ours: same status, new reason -> new update time, old transition time; same reason -> untouched."""
    t0, t1 = EPOCH, EPOCH + timedelta(seconds=30)
    status = V1DeploymentStatus(conditions=[du.new_deployment_condition("Progressing", "True", "A", "m", now=t0)])
    du.set_deployment_condition(status, du.new_deployment_condition("Progressing", "True", "B", "m", now=t1))
    (cond,) = status.conditions
    assert (cond.reason, cond.last_update_time, cond.last_transition_time) == ("B", t1, t0)
    du.set_deployment_condition(status, du.new_deployment_condition("Progressing", "True", "B", "other", now=t1 + timedelta(1)))
    assert status.conditions[0].message == "m"


def test_new_deployment_condition_uses_now_fn(monkeypatch):
    """Ours: without `now`, the timestamps come from the replaceable now_fn."""
    monkeypatch.setattr(du, "now_fn", lambda: EPOCH)
    cond = du.new_deployment_condition("Available", "True", du.MINIMUM_REPLICAS_AVAILABLE, "ok")
    assert cond.last_update_time == cond.last_transition_time == EPOCH


def test_replica_set_to_deployment_condition():
    """Ours: both timestamps take the ReplicaSet condition's transition time."""
    rs_cond = V1ReplicaSetCondition(type="ReplicaFailure", status="True", reason="FailedCreate", message="quota", last_transition_time=EPOCH)
    cond = du.replica_set_to_deployment_condition(rs_cond)
    assert (cond.type, cond.status, cond.reason, cond.message) == ("ReplicaFailure", "True", "FailedCreate", "quota")
    assert cond.last_update_time == cond.last_transition_time == EPOCH


# --- complete / progressing / timed out ---------------------------------------------------

DEPLOYMENT_COMPLETE_CASES = [
    #            desired current updated available maxUnavailable maxSurge expected
    pytest.param(5,      5,      5,      4,        1,             0,       False, id="not complete: min but not all pods become available"),
    pytest.param(5,      5,      5,      3,        1,             0,       False, id="not complete: min availability is not honored"),
    pytest.param(5,      5,      5,      5,        0,             0,       True,  id="complete"),
    pytest.param(5,      5,      4,      5,        0,             0,       False, id="not complete: all pods are available but not updated"),
    pytest.param(1,      2,      1,      1,        0,             1,       False, id="not complete: still running old pods"),
    pytest.param(1,      1,      1,      0,        1,             1,       False, id="not complete: one replica deployment never comes up"),
]


@pytest.mark.parametrize("desired, current, updated, available, max_unavail, surge, expected", DEPLOYMENT_COMPLETE_CASES)
def test_deployment_complete(desired, current, updated, available, max_unavail, surge, expected):
    """Port of TestDeploymentComplete (deployment_util_test.go)."""
    d = bare_deployment(desired, rolling(surge, max_unavail),
                        V1DeploymentStatus(replicas=current, updated_replicas=updated, available_replicas=available))
    assert du.deployment_complete(d, d.status) is expected


def test_deployment_complete_needs_observed_generation():
    """Ours: a status written for an older generation is not complete."""
    d = bare_deployment(1, rolling(1, 0), V1DeploymentStatus(replicas=1, updated_replicas=1, available_replicas=1, observed_generation=1))
    d.metadata = V1ObjectMeta(generation=2)
    assert du.deployment_complete(d, d.status) is False


def status4(current, updated, ready, available):
    return V1DeploymentStatus(replicas=current, updated_replicas=updated, ready_replicas=ready, available_replicas=available)


DEPLOYMENT_PROGRESSING_CASES = [
    pytest.param(status4(10, 4, 4, 4), status4(10, 6, 4, 4), True, id="progressing: updated pods"),
    pytest.param(status4(10, 4, 4, 4), status4(10, 4, 4, 4), False, id="not progressing"),
    pytest.param(status4(10, 4, 6, 6), status4(8, 4, 6, 6), True, id="progressing: old pods removed"),
    pytest.param(status4(10, 7, 3, 3), status4(10, 6, 3, 3), False, id="not progressing: less new pods"),
    pytest.param(status4(10, 4, 7, 7), status4(8, 8, 5, 5), True, id="progressing: less overall but more new pods"),
    pytest.param(status4(10, 10, 9, 8), status4(10, 10, 10, 8), True, id="progressing: more ready pods"),
    pytest.param(status4(10, 10, 10, 9), status4(10, 10, 10, 10), True, id="progressing: more available pods"),
]


@pytest.mark.parametrize("old_status, new_status, expected", DEPLOYMENT_PROGRESSING_CASES)
def test_deployment_progressing(old_status, new_status, expected):
    """Port of TestDeploymentProgressing (deployment_util_test.go)."""
    assert du.deployment_progressing(bare_deployment(status=old_status), new_status) is expected


def time_fn(minute: int, sec: int) -> datetime:
    return datetime(2016, 1, 1, 0, minute, sec, tzinfo=timezone.utc)


def timed_out_deployment(reason, pds, since):
    status = V1DeploymentStatus(conditions=[V1DeploymentCondition(type="Progressing", status="True", reason=reason, last_update_time=since)])
    return bare_deployment(status=status, progress_deadline_seconds=pds)


def now_must_not_be_read():
    raise AssertionError("now_fn must not be consulted")


DEPLOYMENT_TIMED_OUT_CASES = [
    pytest.param(timed_out_deployment("", None, time_fn(1, 9)), lambda: time_fn(1, 20), False,
                 id="nil progressDeadlineSeconds specified - no timeout"),
    pytest.param(timed_out_deployment("", du.MAX_INT32, time_fn(1, 9)), lambda: time_fn(1, 20), False,
                 id="infinite progressDeadlineSeconds specified - no timeout"),
    pytest.param(timed_out_deployment("", 10, time_fn(1, 9)), lambda: time_fn(1, 20), True,
                 id="progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s"),
    pytest.param(timed_out_deployment("", 10, time_fn(1, 11)), lambda: time_fn(1, 20), False,
                 id="progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s"),
    pytest.param(timed_out_deployment(du.NEW_RS_AVAILABLE_REASON, None, None), now_must_not_be_read, False,
                 id="previous status was a complete deployment"),
    # ours
    pytest.param(timed_out_deployment(du.TIMED_OUT_REASON, 10, time_fn(1, 19)), now_must_not_be_read, True,
                 id="ours-already-timed-out"),
    pytest.param(bare_deployment(status=V1DeploymentStatus(), progress_deadline_seconds=10), now_must_not_be_read, False,
                 id="ours-no-progressing-condition"),
]


@pytest.mark.parametrize("d, now_fn, expected", DEPLOYMENT_TIMED_OUT_CASES)
def test_deployment_timed_out(monkeypatch, d, now_fn, expected):
    """Port of TestDeploymentTimedOut (deployment_util_test.go): replaces now_fn as upstream replaces nowFn."""
    monkeypatch.setattr(du, "now_fn", now_fn)
    assert du.deployment_timed_out(d, d.status) is expected


def test_deployment_timed_out_prefers_explicit_now(monkeypatch):
    """Ours: the `now` keyword (a deterministic run's clock) wins over now_fn."""
    monkeypatch.setattr(du, "now_fn", now_must_not_be_read)
    d = timed_out_deployment("", 10, time_fn(1, 9))
    assert du.deployment_timed_out(d, d.status, now=time_fn(1, 19)) is False
    assert du.deployment_timed_out(d, d.status, now=time_fn(1, 20)) is True


@pytest.mark.parametrize("pds, limit, expected", [
    pytest.param(None, None, (False, False), id="unset"),
    pytest.param(600, 0, (True, True), id="set-zero-limit-keeps-none"),
    pytest.param(du.MAX_INT32, du.MAX_INT32, (False, False), id="max-int32-means-none"),
])
def test_has_progress_deadline_and_revision_history_limit(pds, limit, expected):
    """Ours: MaxInt32 is upstream's "no deadline" / "keep everything"."""
    d = bare_deployment(progress_deadline_seconds=pds)
    d.spec.revision_history_limit = limit
    assert (du.has_progress_deadline(d), du.has_revision_history_limit(d)) == expected


# --- annotations --------------------------------------------------------------------------

NON_NEGATIVE_INT32_CASES = [
    #            annotations                                       value valid
    pytest.param(None,                                             0,    False, id="invalid empty"),
    pytest.param({"test": "0", "foo": "2"},                        0,    True,  id="valid zero"),
    pytest.param({"test": "13", "foo": "2"},                       13,   True,  id="valid"),
    pytest.param({"test": str(du.MAX_INT32), "foo": "2"},          du.MAX_INT32, True, id="valid max"),
]

NON_NEGATIVE_INT32_ERROR_CASES = [
    pytest.param({"test": "invalid", "foo": "2"}, "invalid syntax", id="invalid"),
    pytest.param({"test": "-1", "foo": "2"}, "invalid syntax", id="invalid negative "),
    pytest.param({"test": str(du.MAX_INT32 + 1), "foo": "2"}, "out of range", id="invalid max out of range"),
    pytest.param({"test": str(2**32), "foo": "2"}, "out of range", id="invalid max out of range 2"),
]


@pytest.mark.parametrize("annotations, value, valid", NON_NEGATIVE_INT32_CASES)
def test_get_non_negative_int32_from_annotation(annotations, value, valid):
    """Port of TestGetNonNegativeInt32FromAnnotation (deployment_util_test.go), rows without an error."""
    rs = generate_rs(generate_deployment("nginx"))
    rs.metadata.annotations = annotations
    assert du.get_non_negative_int32_from_annotation(rs, "test") == (value, valid)
    assert du.get_non_negative_int32_from_annotation_verbose(rs, "test") == (value, valid)


@pytest.mark.parametrize("annotations, expected_err", NON_NEGATIVE_INT32_ERROR_CASES)
def test_get_non_negative_int32_from_annotation_errors(annotations, expected_err):
    """Port of TestGetNonNegativeInt32FromAnnotation (deployment_util_test.go), error rows: the verbose form yields (0, False)."""
    rs = generate_rs(generate_deployment("nginx"))
    rs.metadata.annotations = annotations
    with pytest.raises(ValueError, match=expected_err):
        du.get_non_negative_int32_from_annotation(rs, "test")
    assert du.get_non_negative_int32_from_annotation_verbose(rs, "test") == (0, False)


def test_annotation_utils_set_new_replica_set_annotations():
    """Port of TestAnnotationUtils/SetNewReplicaSetAnnotations (deployment_util_test.go).

    Revisions 11..20 in turn, with a 5-character history limit: from 13 on the
    history holds exactly the two previous revisions.
    """
    t_deployment = generate_deployment("nginx")
    t_rs = generate_rs(t_deployment)
    t_deployment.metadata.annotations[du.REVISION_ANNOTATION] = "1"
    for i in range(10, 20):
        next_revision = str(i + 1)
        du.set_new_replica_set_annotations(t_deployment, t_rs, next_revision, True, 5)
        if i >= 12:
            assert t_rs.metadata.annotations[du.REVISION_HISTORY_ANNOTATION] == f"{i - 1},{i}"
        assert t_rs.metadata.annotations[du.REVISION_ANNOTATION] == next_revision


def test_annotation_utils_set_replicas_annotations():
    """Port of TestAnnotationUtils/SetReplicasAnnotations (deployment_util_test.go)."""
    t_rs = generate_rs(generate_deployment("nginx"))
    assert du.set_replicas_annotations(t_rs, 10, 11) is True
    assert t_rs.metadata.annotations[du.DESIRED_REPLICAS_ANNOTATION] == "10"
    assert t_rs.metadata.annotations[du.MAX_REPLICAS_ANNOTATION] == "11"
    assert du.set_replicas_annotations(t_rs, 10, 11) is False  # ours: no change the second time


def test_annotation_utils_is_saturated():
    """Port of TestAnnotationUtils/IsSaturated (deployment_util_test.go), plus our negative rows."""
    t_deployment = generate_deployment("nginx")
    t_rs = generate_rs(t_deployment)
    t_rs.metadata.annotations = {du.DESIRED_REPLICAS_ANNOTATION: "1"}
    t_rs.status = V1ReplicaSetStatus(replicas=1, available_replicas=1)
    t_rs.spec.replicas = 1
    assert du.is_saturated(t_deployment, t_rs) is True
    assert du.is_saturated(t_deployment, None) is False
    t_rs.metadata.annotations = {du.DESIRED_REPLICAS_ANNOTATION: "x"}
    assert du.is_saturated(t_deployment, t_rs) is False


def test_set_new_replica_set_annotations_for_a_new_replica_set():
    """Ours: copies user annotations (not the skipped ones), sets revision and replica annotations."""
    d = generate_deployment("nginx")
    d.spec.replicas = 10
    d.spec.strategy = rolling("25%", "25%")
    d.metadata.annotations = {"team": "a", du.LAST_APPLIED_CONFIG_ANNOTATION: "{}", du.REVISION_ANNOTATION: "7"}
    rs = generate_rs(d)
    assert du.set_new_replica_set_annotations(d, rs, "3", False, 100) is True
    assert rs.metadata.annotations == {
        "team": "a", du.REVISION_ANNOTATION: "3", du.DESIRED_REPLICAS_ANNOTATION: "10", du.MAX_REPLICAS_ANNOTATION: "13",
    }


@pytest.mark.parametrize("old, new, want_changed, want_revision, want_history", [
    pytest.param("5", "3", False, "5", None, id="never-lowers-revision"),
    pytest.param("x", "3", False, "x", None, id="unparsable-old-revision-stops"),
    pytest.param("2", "y", False, "2", None, id="unparsable-new-revision-stops"),
    pytest.param("2", "3", True, "3", "2", id="rollback-starts-history"),
])
def test_set_new_replica_set_annotations_revision_rules(old, new, want_changed, want_revision, want_history):
    """Ours: the revision only moves up, and a bump of an existing revision is recorded in the history."""
    d = generate_deployment("nginx")
    rs = generate_rs(d)
    rs.metadata.annotations = {du.REVISION_ANNOTATION: old}
    assert du.set_new_replica_set_annotations(d, rs, new, True, 100) is want_changed
    assert rs.metadata.annotations[du.REVISION_ANNOTATION] == want_revision
    assert rs.metadata.annotations.get(du.REVISION_HISTORY_ANNOTATION) == want_history


REPLICAS_ANNOTATIONS_NEED_UPDATE_CASES = [
    pytest.param(None, True, id="test Annotations nil"),
    pytest.param({du.DESIRED_REPLICAS_ANNOTATION: "8", du.MAX_REPLICAS_ANNOTATION: "20"}, True, id="test desiredReplicas update"),
    pytest.param({du.DESIRED_REPLICAS_ANNOTATION: "10", du.MAX_REPLICAS_ANNOTATION: "16"}, True, id="test maxReplicas update"),
    pytest.param({du.DESIRED_REPLICAS_ANNOTATION: "10", du.MAX_REPLICAS_ANNOTATION: "20"}, False, id="test needn't update"),
]


@pytest.mark.parametrize("annotations, expected", REPLICAS_ANNOTATIONS_NEED_UPDATE_CASES)
def test_replicas_annotations_need_update(annotations, expected):
    """Port of TestReplicasAnnotationsNeedUpdate (deployment_util_test.go)."""
    rs = V1ReplicaSet(
        metadata=V1ObjectMeta(name="hello", namespace="test", annotations=annotations),
        spec=V1ReplicaSetSpec(selector=V1LabelSelector(match_labels={"foo": "bar"})),
    )
    assert du.replicas_annotations_need_update(rs, 10, 20) is expected


def test_set_deployment_annotations_to_keeps_skipped_keys():
    """Ours: a rollback takes the ReplicaSet's annotations but keeps the Deployment's skipped ones."""
    d = generate_deployment("nginx")
    d.metadata.annotations = {"old": "1", du.REVISION_ANNOTATION: "4"}
    rs = generate_rs(d)
    rs.metadata.annotations = {"team": "b", du.REVISION_ANNOTATION: "2", du.DESIRED_REPLICAS_ANNOTATION: "3"}
    du.set_deployment_annotations_to(d, rs)
    assert d.metadata.annotations == {"team": "b", du.REVISION_ANNOTATION: "4"}


def test_set_deployment_revision():
    """Ours: True only when the annotation changes; a missing map is created."""
    d = bare_deployment()
    d.metadata = V1ObjectMeta()
    assert du.set_deployment_revision(d, "2") is True
    assert du.set_deployment_revision(d, "2") is False
    assert d.metadata.annotations == {du.REVISION_ANNOTATION: "2"}


# --- revisions and ordering ---------------------------------------------------------------


def rs_with_revision(name: str, rev: str | None, created: datetime = EPOCH) -> V1ReplicaSet:
    annotations = None if rev is None else {du.REVISION_ANNOTATION: rev}
    return V1ReplicaSet(
        metadata=V1ObjectMeta(name=name, annotations=annotations, creation_timestamp=created),
        spec=V1ReplicaSetSpec(replicas=0, selector=V1LabelSelector()),
    )


@pytest.mark.parametrize("revisions, want_max, want_last", [
    pytest.param(["3", "7", "5"], 7, 5, id="distinct"),
    pytest.param(["4", "4"], 4, 4, id="tie-counts-twice"),
    pytest.param(["2", "bad", None], 2, 0, id="unparsable-skipped-missing-is-zero"),
    pytest.param([], 0, 0, id="none"),
])
def test_max_and_last_revision(revisions, want_max, want_last):
    """Ours: MaxRevision and LastRevision (the target of "rollback to revision 0")."""
    rss = [rs_with_revision(f"rs-{i}", r) for i, r in enumerate(revisions)]
    assert (du.max_revision(rss), du.last_revision(rss)) == (want_max, want_last)


def test_revision_errors_on_garbage():
    """Ours: Revision reports a parse error; a missing annotation is revision 0."""
    assert du.revision(rs_with_revision("a", None)) == 0
    with pytest.raises(ValueError, match="invalid syntax"):
        du.revision(rs_with_revision("a", "v2"))


def test_replica_sets_by_revision_falls_back_to_creation_time():
    """Ours: ReplicaSetsByRevision orders by revision, ties and garbage by creation time."""
    a = rs_with_revision("a", "3", EPOCH)
    b = rs_with_revision("b", "1", EPOCH + timedelta(seconds=5))
    c = rs_with_revision("c", "3", EPOCH - timedelta(seconds=5))
    by = du.ReplicaSetsByRevision([a, b, c])
    assert len(by) == 3
    assert by.less(1, 0) and not by.less(0, 1)  # revision 1 before 3
    assert by.less(2, 0) and not by.less(0, 2)  # same revision: older first
    garbage = rs_with_revision("d", "v9", EPOCH - timedelta(seconds=9))
    rss = [a, b, c, garbage]
    du.ReplicaSetsByRevision(rss).sort()
    assert [rs.metadata.name for rs in rss] == ["d", "b", "c", "a"]  # d: unparsable, oldest of all


def test_find_active_or_latest():
    """Ours: one active ReplicaSet is returned; none active -> new (else newest old); several -> None."""
    old1 = rs_with_revision("old1", "1", EPOCH)
    old2 = rs_with_revision("old2", "2", EPOCH + timedelta(seconds=1))
    new = rs_with_revision("new", "3", EPOCH + timedelta(seconds=2))
    assert du.find_active_or_latest(None, []) is None
    assert du.find_active_or_latest(new, [old1, old2]) is new
    old_list = [old1, old2]
    assert du.find_active_or_latest(None, old_list) is old2
    assert old_list == [old2, old1]  # sorted newest first, in place
    old1.spec.replicas = 2
    assert du.find_active_or_latest(new, [old1, old2]) is old1
    new.spec.replicas = 1
    assert du.find_active_or_latest(new, [old1, old2]) is None


# --- listing ------------------------------------------------------------------------------


class FakeAppsClient:
    """Just enough of AppsV1Interface for rs_list_from_client: records the list options."""

    def __init__(self, items):
        self.items, self.calls = items, []

    def replica_sets(self, namespace):
        client = self

        class _RS:
            def list(self, opts):
                client.calls.append((namespace, opts))
                return V1ReplicaSetList(items=client.items)

        return _RS()


def test_list_replica_sets_and_pods_keep_only_owned():
    """Ours: ListReplicaSets and ListPods select by label and keep only what this Deployment controls."""
    d = generate_deployment("nginx")
    d.metadata.namespace, d.metadata.uid = "ns", "d-uid"
    owned = generate_rs(d)
    stranger = generate_rs(generate_deployment("nginx"))  # same labels, another owner
    client = FakeAppsClient([owned, stranger])
    rss = du.list_replica_sets(d, du.rs_list_from_client(client))
    assert rss == [owned]
    assert client.calls == [("ns", ListOptions(label_selector="name=nginx"))]

    def pod(name, owner_uid):
        ref = V1OwnerReference(api_version="apps/v1", kind="ReplicaSet", name="x", uid=owner_uid, controller=True)
        return V1Pod(metadata=V1ObjectMeta(name=name, owner_references=[ref]))

    pods = V1PodList(items=[pod("mine", owned.metadata.uid), pod("theirs", stranger.metadata.uid), V1Pod(metadata=V1ObjectMeta(name="orphan"))])
    got = du.list_pods(d, rss, lambda ns, opts: pods)
    assert [p.metadata.name for p in got.items] == ["mine"]


class FakeDeploymentLister:
    def __init__(self, deployments):
        self.items = deployments

    def deployments(self, namespace):
        items = [d for d in self.items if d.metadata.namespace == namespace]

        class _NS:
            def list(self, selector):
                return [d for d in items if selector.matches(d.metadata.labels or {})]

        return _NS()


def get_deployments_fixtures():
    deployments = [
        V1Deployment(
            metadata=V1ObjectMeta(name=f"deployment-{i}", namespace="test"),
            spec=V1DeploymentSpec(selector=V1LabelSelector(match_labels={"app": f"test-{i}"}), template=V1PodTemplateSpec()),
        )
        for i in range(3)
    ]
    rss = [
        V1ReplicaSet(
            metadata=V1ObjectMeta(namespace="test", name=f"test-replicaSet-{i}", labels={"app": f"test-{i}", "label": f"label-{i}"}),
            spec=V1ReplicaSetSpec(selector=V1LabelSelector()),
        )
        for i in range(5)
    ]
    return deployments, rss


@pytest.mark.parametrize("index, expect, err", [
    pytest.param(0, 0, None, id="GetDeploymentsForReplicaSet for rs-0"),
    pytest.param(1, 1, None, id="GetDeploymentsForReplicaSet for rs-1"),
    pytest.param(2, 2, None, id="GetDeploymentsForReplicaSet for rs-2"),
    pytest.param(3, None, "could not find deployments set for ReplicaSet test-replicaSet-3 in namespace test with labels: "
                 "map[app:test-3 label:label-3]", id="GetDeploymentsForReplicaSet for rs-3"),
    pytest.param(4, None, "could not find deployments set for ReplicaSet test-replicaSet-4 in namespace test with labels: "
                 "map[app:test-4 label:label-4]", id="GetDeploymentsForReplicaSet for rs-4"),
])
def test_get_deployments_for_replica_set(index, expect, err):
    """Port of TestGetDeploymentsForReplicaSet (deployment_util_test.go)."""
    deployments, rss = get_deployments_fixtures()
    lister = FakeDeploymentLister(deployments)
    if err is not None:
        with pytest.raises(ValueError) as info:
            du.get_deployments_for_replica_set(lister, rss[index])
        assert str(info.value) == err
    else:
        assert du.get_deployments_for_replica_set(lister, rss[index]) == [deployments[expect]]


def test_get_deployments_for_replica_set_without_labels():
    """Ours: a ReplicaSet without labels matches no Deployment."""
    deployments, rss = get_deployments_fixtures()
    rss[0].metadata.labels = None
    with pytest.raises(ValueError, match="because it has no labels"):
        du.get_deployments_for_replica_set(FakeDeploymentLister(deployments), rss[0])


# --- templates and waiting ----------------------------------------------------------------


def test_set_from_replica_set_template_drops_hash_and_leaves_rs_alone():
    """Ours: SetFromReplicaSetTemplate copies metadata and spec without the hash label."""
    d = generate_deployment("nginx")
    rs = generate_rs(generate_deployment("old"))
    set_hash(rs, "abc")
    got = du.set_from_replica_set_template(d, rs.spec.template)
    assert got is d
    assert d.spec.template.metadata.labels == {"name": "old"}
    assert d.spec.template.spec.containers[0].image == "old"
    assert rs.spec.template.metadata.labels == {"name": "old", HASH: "abc"}
    assert du.equal_ignore_hash(d.spec.template, rs.spec.template)


def test_wait_for_observed_deployment_returns_once_observed():
    """Ours: polls immediately; no time passes on the fake clock when already observed."""
    clock = FakeClock(EPOCH)
    d = bare_deployment(status=V1DeploymentStatus(observed_generation=3))
    du.wait_for_observed_deployment(lambda: d, 3, 1.0, 10.0, clock)
    assert clock.now() == EPOCH
