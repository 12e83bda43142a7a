"""No upstream twin. The checks of the P5 StatefulSet-controller exercises (chapter `p5`).

Table rows follow upstream's tests where they pin a value
(TestGetParentNameAndOrdinal in stateful_set_utils_test.go, the
maxUnavailable rows of TestStatefulSetControlRollingUpdateWithMaxUnavailable
InOrderedModeVerifyInvariant in stateful_set_control_test.go, the golden
revision hashes of stateful_set_compatibility_test.go), plus rows of ours
for what the docstrings promise (each branch of process_replica and
process_condemned, the partition boundary, the revision a recreated pod
gets). The controller rows call the real DefaultStatefulSetControl with a
pod control that only records what it was asked to do, so a row can say
"web-2 was created and the sync stopped there". The runs of the port are
the `statefulset-ordered` and `statefulset-partition` scenarios; they check
OrderedReady's invariant (one unhealthy pod at a time, one terminating, ready
in ordinal order) and the partition's after every step and raise when
broken; the checks then compare the order of creations and deletions and
the revision of the recreated pod with the chapter's numbers.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from kubernetes.client import (
    V1ControllerRevision,
    V1ObjectMeta,
    V1Pod,
    V1PodCondition,
    V1PodStatus,
    V1StatefulSet,
    V1StatefulSetOrdinals,
    V1StatefulSetStatus,
)

from minikcm import features
from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy, from_wire, to_wire
from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import EPOCH
from minikcm.controller.history import controller_history as history
from minikcm.controller.history.controller_history import hash_controller_revision as port_hash
from minikcm.controller.statefulset import stateful_set_control as control
from minikcm.controller.statefulset import stateful_set_utils as ssu
from minikcm.exercises.base import Case, Chapter, CheckFailed, Exercise, expect, expect_equal
from minikcm.sim.scenarios import get_scenario
from minikcm.sim.scenarios.statefulset import IMAGE_V1, IMAGE_V2, StatefulSetScenario, stateful_set
from minikcm.util import lru

STATEFULSET = "minikcm.controller.statefulset"
NOW = EPOCH + timedelta(hours=1)
"""The `now` of every table row."""
PODS = GroupResource("", "pods")


# -- the runs of the port ----------------------------------------------------------------------------


def play(name: str) -> StatefulSetScenario:
    """Play a P5 scenario (seed 1); a broken invariant raises InvariantViolation out of it.

    When the run stops (a broken invariant, or a phase that never finished
    because every sync failed), the first error the controller reported is
    added to the message: that is usually the learner's exception.
    """
    run = get_scenario(name).build(1)
    scenario: StatefulSetScenario = run.objects["scenario"]
    try:
        run.run()
    except Exception as err:
        first = next((r.getMessage() for r in run.trace_log.records if r.name.endswith("UnhandledError")), "")
        if not first:
            raise
        raise CheckFailed(f"{err} (the controller's first error: {first})") from err
    return scenario


def run_ordered() -> None:
    """statefulset-ordered: web-0..web-4 created one at a time, then web-4, web-3, web-2 deleted one at a time."""
    scenario = play("statefulset-ordered")
    expect_equal(scenario.creation_order, [f"web-{i}" for i in range(5)],
                 "pods in the order they were created (3 replicas, then scaled to 5)")
    expect_equal(scenario.deletion_order, ["web-4", "web-3", "web-2"],
                 "pods in the order they started terminating (scaled from 5 to 2)")


def check_partition_story(scenario: StatefulSetScenario) -> None:
    expect_equal(scenario.recreated, ("web-1", "rev1"),
                 "(pod, revision) of web-1 when it came back after a delete below partition 3")
    expect_equal(scenario.deletion_order, ["web-4", "web-3", "web-2", "web-1", "web-0"],
                 "pods in the order the rolling update replaced them (partition 3, then 0)")
    expect_equal(scenario.revision_label("currentRevision"), "rev2", "the current revision once every pod is updated")


def run_partition() -> None:
    """statefulset-partition: web-4, web-3 updated; web-1 comes back at rev1; then web-2, web-1, web-0."""
    check_partition_story(play("statefulset-partition"))


def run_partition_max_unavailable() -> None:
    """statefulset-partition with the MaxUnavailableStatefulSet gate on, so the rolling update runs your function."""
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.MAX_UNAVAILABLE_STATEFUL_SET,
                                               True):
        scenario = play("statefulset-partition")
    check_partition_story(scenario)


def run_partition_revision_names() -> None:
    """statefulset-partition, then every ControllerRevision's name is `web-<hash>` as the port would hash it."""
    scenario = play("statefulset-partition")
    check_partition_story(scenario)
    stored = scenario.cluster.list("controllerrevisions")
    expect_equal(len(stored), 2, "ControllerRevisions after one template change")
    for wire in stored:
        revision = from_wire(wire, V1ControllerRevision)
        want = history.controller_revision_name("web", port_hash(revision, 0))
        expect_equal(wire["metadata"]["name"], want, f"name of the revision numbered {revision.revision}")


# -- objects of the table rows ---------------------------------------------------------------------------


def new_set(replicas: int = 3, *, parallel: bool = False, partition: int | None = 0,
            max_unavailable: int | str | None = None, min_ready: int = 0, start: int | None = None,
            on_delete: bool = False, current_replicas: int = 0, image: str = IMAGE_V1) -> V1StatefulSet:
    """The scenarios' StatefulSet `web` in namespace default; `partition=None` leaves out the rollingUpdate block."""
    wire = stateful_set(replicas, image, partition or 0)
    wire["metadata"].update(namespace="default", uid="uid-web")
    set_ = from_wire(wire, V1StatefulSet)
    if parallel:
        set_.spec.pod_management_policy = ssu.PARALLEL_POD_MANAGEMENT
    strategy = set_.spec.update_strategy
    assert strategy is not None and strategy.rolling_update is not None
    strategy.rolling_update.max_unavailable = max_unavailable
    if partition is None:
        strategy.rolling_update = None
    if on_delete:
        strategy.type, strategy.rolling_update = ssu.ON_DELETE_STRATEGY, None
    set_.spec.min_ready_seconds = min_ready or None
    if start is not None:
        set_.spec.ordinals = V1StatefulSetOrdinals(start=start)
    set_.status = V1StatefulSetStatus(replicas=replicas, current_replicas=current_replicas)
    return set_


def updated(set_: V1StatefulSet) -> V1StatefulSet:
    """The set as its update revision has it: the same, with image web:v2."""
    update_set = deep_copy(set_)
    update_set.spec.template.spec.containers[0].image = IMAGE_V2
    return update_set


PHASES = {"planned": None, "pending": "Pending", "running": "Running", "ready": "Running",
          "failed": "Failed", "succeeded": "Succeeded"}
"""Pod states of the rows: planned (not created yet), pending, running (not ready), ready, failed, succeeded."""


def member(set_: V1StatefulSet, ordinal: int, state: str, *, ready_for: float = 60.0, terminating: bool = False,
           revision: str = "") -> V1Pod:
    """Pod `web-<ordinal>` of `set_` in `state`; a ready pod has been ready for `ready_for` seconds at NOW."""
    pod = ssu.new_stateful_set_pod(set_, ordinal)
    phase = PHASES[state]
    if phase is not None:
        ready = [V1PodCondition(type="Ready", status="True", last_transition_time=NOW - timedelta(seconds=ready_for))]
        pod.status = V1PodStatus(phase=phase, conditions=ready if state == "ready" else None)
    if terminating:
        pod.metadata.deletion_timestamp = NOW
    if revision:
        ssu.set_pod_revision(pod, revision)
    return pod


class RecordingPodControl:
    """Stands in for StatefulPodControl: records what it is asked to do, answers as the row says.

    `calls` reads like `["create web-2"]`. `problems` notes a call given the
    wrong one of the two sets (creates, deletes and claims take the set as it
    is; repairs and the retention check take the update revision's set).
    """

    def __init__(self, set_: V1StatefulSet, update_set: V1StatefulSet, *, stale: bool = False,
                 claims_match: bool | Exception = True, delete_error: Exception | None = None) -> None:
        self.set_ = set_
        self.update_set = update_set
        self.stale = stale
        self.claims_match = claims_match
        self.delete_error = delete_error
        self.calls: list[str] = []
        self.problems: list[str] = []
        self.updated: list[V1Pod] = []

    def _given(self, what: str, given: V1StatefulSet, want: V1StatefulSet) -> None:
        if given is not want:
            which = "update_set" if want is self.update_set else "set_"
            self.problems.append(f"{what} was not given {which}")

    def create_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        self._given("create_stateful_pod", set_, self.set_)
        self.calls.append(f"create {pod.metadata.name}")

    def delete_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        self._given("delete_stateful_pod", set_, self.set_)
        self.calls.append(f"delete {pod.metadata.name}")
        if self.delete_error is not None:
            raise self.delete_error

    def update_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        self._given("update_stateful_pod", set_, self.update_set)
        self.calls.append(f"update {pod.metadata.name}")
        self.updated.append(pod)

    def create_missing_persistent_volume_claims(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        self._given("create_missing_persistent_volume_claims", set_, self.set_)
        self.calls.append(f"claims {pod.metadata.name}")

    def pod_claim_is_stale(self, set_: V1StatefulSet, pod: V1Pod) -> bool:
        return self.stale

    def claims_match_retention_policy(self, set_: V1StatefulSet, pod: V1Pod) -> bool:
        self._given("claims_match_retention_policy", set_, self.update_set)
        if isinstance(self.claims_match, Exception):
            raise self.claims_match
        return self.claims_match


def new_control(pod_control: RecordingPodControl) -> control.DefaultStatefulSetControl:
    """A real DefaultStatefulSetControl over the recording pod control (no history or status writer needed)."""
    return control.DefaultStatefulSetControl(pod_control, None, None,  # type: ignore[arg-type]
                                             lru.new(1), inline=True)


def mode(monotonic: bool) -> str:
    return "OrderedReady" if monotonic else "Parallel"


# -- get_parent_name_and_ordinal ----------------------------------------------------------------------------


def parent_and_ordinal(name: str, want: tuple[str, int]) -> None:
    pod = V1Pod(metadata=V1ObjectMeta(name=name, namespace="default"))
    got = ssu.get_parent_name_and_ordinal(pod)
    expect_equal(tuple(got), want, f"get_parent_name_and_ordinal of pod {name!r}")


def ordinal_helpers() -> None:
    """Ours: get_ordinal, get_parent_name and is_member_of are built on your function."""
    set_ = new_set(3)
    pod = V1Pod(metadata=V1ObjectMeta(name="web-2", namespace="default"))
    expect_equal((ssu.get_ordinal(pod), ssu.get_parent_name(pod), ssu.is_member_of(set_, pod)), (2, "web", True),
                 "(get_ordinal, get_parent_name, is_member_of web) for web-2")
    other = V1Pod(metadata=V1ObjectMeta(name="webapp-2", namespace="default"))
    expect_equal(ssu.is_member_of(set_, other), False, "is_member_of web for webapp-2")


def get_parent_name_and_ordinal_cases() -> list[Case]:
    rows = [
        #  name                                   pod name             want
        ("web-3-is-web-and-3",                    "web-3",             ("web", 3)),
        ("upstream-foo-1",                        "foo-1",             ("foo", 1)),
        ("upstream-no-parent-before-the-digits",  "1-bar",             ("", -1)),
        ("the-parent-may-contain-dashes",         "my-web-12",         ("my-web", 12)),
        ("only-the-last-dash-splits",             "web-1-2",           ("web-1", 2)),
        ("no-dash-no-ordinal",                    "web",               ("", -1)),
        ("a-trailing-dash-is-no-ordinal",         "web-",              ("", -1)),
        ("letters-after-the-digits",              "web-1a",            ("", -1)),
        ("leading-zeros-are-decimal",             "web-007",           ("web", 7)),
        ("the-largest-int32",                     "web-2147483647",    ("web", 2147483647)),
        ("past-int32-keeps-the-parent-only",      "web-2147483648",    ("web", -1)),
        ("an-empty-parent",                       "-5",                ("", 5)),
    ]
    return [Case(name, partial(parent_and_ordinal, pod_name, want)) for name, pod_name, want in rows] + [
        Case("get-ordinal-and-is-member-of-use-it", ordinal_helpers),
        Case("statefulset-ordered", run_ordered, is_run=True),
    ]


# -- DefaultStatefulSetControl.process_replica ----------------------------------------------------------


def drop_pod_name_label(pod: V1Pod) -> None:
    labels = dict(pod.metadata.labels or {})
    labels.pop(ssu.STATEFUL_SET_POD_NAME_LABEL, None)
    pod.metadata.labels = labels


def drop_volumes(pod: V1Pod) -> None:
    pod.spec.volumes = None


def replica(state: str, monotonic: bool, want_stop: bool, want_calls: list[str], *, terminating: bool = False,
            ready_for: float = 60.0, min_ready: int = 0, stale: bool = False, claims_match: bool | Exception = True,
            drift: Any = None) -> None:
    """One member, web-0, in `state`: what process_replica asks of the pod control, and whether the sync stops."""
    set_ = new_set(3, min_ready=min_ready)
    update_set = updated(set_)
    pod = member(set_, 0, state, terminating=terminating, ready_for=ready_for)
    if drift is not None:
        drift(pod)
    before = to_wire(pod)
    pc = RecordingPodControl(set_, update_set, stale=stale, claims_match=claims_match)
    stop = new_control(pc).process_replica(set_, update_set, monotonic, [pod], 0, NOW)
    situation = f"web-0 {state}{' terminating' if terminating else ''} ({mode(monotonic)})"
    expect_equal((stop, pc.calls), (want_stop, want_calls), f"(stop the sync, pod-control calls) for {situation}")
    expect(not pc.problems, f"{situation}: {'; '.join(pc.problems)}")
    expect(to_wire(pod) == before, f"{situation}: the pod in the list was changed; repair a deep_copy, never the "
                                   "cache's object")
    if pc.updated:
        expect(pc.updated[0] is not pod, f"{situation}: update_stateful_pod was given the cache's pod, not a copy")


def members_in_order(states: list[str], want_stop: bool, want_calls: list[str]) -> None:
    """Ours: OrderedReady runs process_replica for web-0, web-1, ... and the sync ends at the first that says stop."""
    set_ = new_set(len(states))
    update_set = updated(set_)
    pods = [member(set_, i, state) for i, state in enumerate(states)]
    pc = RecordingPodControl(set_, update_set)
    ssc = new_control(pc)

    def process(i: int) -> bool:
        return ssc.process_replica(set_, update_set, True, pods, i, NOW)

    stop = control.run_for_all(pods, process, True, inline=True)
    expect_equal((stop, pc.calls), (want_stop, want_calls),
                 f"(stop the sync, pod-control calls) for members {states} (OrderedReady)")


def process_replica_cases() -> list[Case]:
    o, p = True, False  # OrderedReady (monotonic), Parallel
    gone = {"terminating": True}
    young = {"ready_for": 5, "min_ready": 10}  # ready 5 s of minReadySeconds 10
    just = {"ready_for": 10, "min_ready": 10}  # ready exactly minReadySeconds
    lister_fails = {"claims_match": RuntimeError("claim lister failed")}
    no_label, no_volumes = {"drift": drop_pod_name_label}, {"drift": drop_volumes}
    off_policy = {"claims_match": False}
    rows: list[tuple[Any, ...]] = [
        #  name                                           state        mode stop   calls             options
        ("failed-is-deleted-and-the-sync-stops",          "failed",    o,   True,  ["delete web-0"], {}),
        ("failed-and-already-terminating-is-left-alone",  "failed",    o,   True,  [],               gone),
        ("succeeded-is-deleted-too-even-in-parallel",     "succeeded", p,   True,  ["delete web-0"], {}),
        ("missing-is-created-then-ordered-waits",         "planned",   o,   True,  ["create web-0"], {}),
        ("missing-is-created-and-parallel-goes-on",       "planned",   p,   False, ["create web-0"], {}),
        ("a-stale-claim-holds-the-create-back",           "planned",   p,   True,  [],               {"stale": True}),
        ("pending-gets-its-claims-then-ordered-waits",    "pending",   o,   True,  ["claims web-0"], {}),
        ("pending-gets-its-claims-and-parallel-goes-on",  "pending",   p,   False, ["claims web-0"], {}),
        ("running-not-ready-ordered-waits",               "running",   o,   True,  [],               {}),
        ("running-not-ready-parallel-goes-on",            "running",   p,   False, [],               {}),
        ("ready-ordered-goes-on",                         "ready",     o,   False, [],               {}),
        ("terminating-ordered-waits",                     "ready",     o,   True,  [],               gone),
        ("terminating-parallel-goes-on",                  "ready",     p,   False, [],               gone),
        ("ready-5s-of-min-ready-10s-ordered-waits",       "ready",     o,   True,  [],               young),
        ("ready-10s-of-min-ready-10s-is-available",       "ready",     o,   False, [],               just),
        ("min-ready-seconds-never-hold-parallel-back",    "ready",     p,   False, [],               young),
        ("a-lost-pod-name-label-is-repaired",             "ready",     o,   False, ["update web-0"], no_label),
        ("lost-volumes-are-repaired",                     "ready",     o,   False, ["update web-0"], no_volumes),
        ("claims-off-the-retention-policy-are-repaired",  "ready",     o,   False, ["update web-0"], off_policy),
        ("a-failing-claims-check-counts-as-a-match",      "ready",     o,   False, [],               lister_fails),
    ]
    cases = [Case(name, partial(replica, state, monotonic, stop, calls, **options))
             for name, state, monotonic, stop, calls, options in rows]
    ready, running, missing, failed = "ready", "running", "planned", "failed"
    in_order: list[tuple[Any, ...]] = [
        #  name                                            members (web-0, web-1, ...)      stop   calls
        ("ordered-sync-creates-the-next-missing-member",   [ready, ready, missing, missing], True,  ["create web-2"]),
        ("ordered-sync-stops-at-the-first-unready-member", [ready, running, missing],       True,  []),
        ("ordered-sync-with-every-member-ready-goes-on",   [ready, ready, ready],           False, []),
        ("ordered-sync-replaces-a-failed-member-first",    [ready, failed, missing],        True,  ["delete web-1"]),
    ]
    cases += [Case(name, partial(members_in_order, states, stop, calls)) for name, states, stop, calls in in_order]
    return cases + [
        Case("statefulset-ordered", run_ordered, is_run=True),
        Case("statefulset-partition", run_partition, is_run=True),
    ]


# -- DefaultStatefulSetControl.process_condemned -----------------------------------------------------------


def condemned(state: str, monotonic: bool, first_unhealthy: str, want_stop: bool, want_calls: list[str], *,
              terminating: bool = False, ready_for: float = 60.0, min_ready: int = 0) -> None:
    """web-3 of a set scaled to 3, in `state`; `first_unhealthy` is "it", "web-1" (a member) or "none"."""
    set_ = new_set(3, min_ready=min_ready)
    pod = member(set_, 3, state, terminating=terminating, ready_for=ready_for)
    first = {"it": pod, "web-1": member(set_, 1, "running"), "none": None}[first_unhealthy]
    pc = RecordingPodControl(set_, updated(set_))
    stop = new_control(pc).process_condemned(set_, first, monotonic, [pod], 0, NOW)
    situation = (f"condemned web-3 {state}{' terminating' if terminating else ''}, first unhealthy pod: "
                 f"{first_unhealthy} ({mode(monotonic)})")
    expect_equal((stop, pc.calls), (want_stop, want_calls), f"(stop the sync, pod-control calls) for {situation}")
    expect(not pc.problems, f"{situation}: {'; '.join(pc.problems)}")


def condemned_delete_fails() -> None:
    """Ours: an error of the delete reaches the caller (Go returns it next to "stop")."""
    set_ = new_set(3)
    pod = member(set_, 3, "ready")
    refused = errors.new_internal_error("etcd is unhappy")
    pc = RecordingPodControl(set_, updated(set_), delete_error=refused)
    try:
        new_control(pc).process_condemned(set_, None, True, [pod], 0, NOW)
    except errors.StatusError as err:  # anything else (NotImplementedError too) is this case's failure as raised
        expect(err is refused, f"want the delete's error raised, got {type(err).__name__}: {err}")
        return
    raise CheckFailed("the delete of web-3 failed, but process_condemned raised nothing")


def scale_down_in_order(states: list[tuple[str, bool]], first_unhealthy: int | None, want_stop: bool,
                        want_calls: list[str]) -> None:
    """Ours: condemned pods, highest ordinal first (web-4, web-3), through run_for_all in OrderedReady."""
    set_ = new_set(3)
    pods = [member(set_, 4 - i, state, terminating=term) for i, (state, term) in enumerate(states)]
    first = pods[first_unhealthy] if first_unhealthy is not None else None
    pc = RecordingPodControl(set_, updated(set_))
    ssc = new_control(pc)

    def process(i: int) -> bool:
        return ssc.process_condemned(set_, first, True, pods, i, NOW)

    stop = control.run_for_all(pods, process, True, inline=True)
    shown = [f"web-{4 - i} {state}{' terminating' if term else ''}" for i, (state, term) in enumerate(states)]
    expect_equal((stop, pc.calls), (want_stop, want_calls),
                 f"(stop the sync, pod-control calls) for condemned {shown} (OrderedReady)")


def process_condemned_cases() -> list[Case]:
    o, p = True, False  # OrderedReady (monotonic), Parallel
    gone = {"terminating": True}
    young = {"ready_for": 5, "min_ready": 10}  # ready 5 s of minReadySeconds 10
    just = {"ready_for": 10, "min_ready": 10}  # ready exactly minReadySeconds
    rows: list[tuple[Any, ...]] = [
        #  name                                           state      mode first    stop   calls             options
        ("terminating-ordered-waits-for-it",              "ready",   o,   "none",  True,  [],               gone),
        ("terminating-parallel-goes-on",                  "ready",   p,   "none",  False, [],               gone),
        ("ready-is-deleted-and-the-sync-stops",           "ready",   o,   "none",  True,  ["delete web-3"], {}),
        ("ready-is-deleted-in-parallel-too",              "ready",   p,   "none",  True,  ["delete web-3"], {}),
        ("unready-waits-behind-the-first-unhealthy-pod",  "running", o,   "web-1", True,  [],               {}),
        ("the-first-unhealthy-pod-itself-may-go",         "running", o,   "it",    True,  ["delete web-3"], {}),
        ("unready-is-deleted-in-parallel",                "running", p,   "web-1", True,  ["delete web-3"], {}),
        ("pending-waits-behind-the-first-unhealthy-pod",  "pending", o,   "web-1", True,  [],               {}),
        ("ready-5s-of-min-ready-10s-waits",               "ready",   o,   "web-1", True,  [],               young),
        ("ready-10s-of-min-ready-10s-is-deleted",         "ready",   o,   "none",  True,  ["delete web-3"], just),
    ]
    cases = [Case(name, partial(condemned, state, monotonic, first, stop, calls, **options))
             for name, state, monotonic, first, stop, calls, options in rows]
    ready, running = ("ready", False), ("running", False)
    gone = ("ready", True)  # terminating
    in_order: list[tuple[Any, ...]] = [
        #  name                                              [web-4, web-3]    first  stop  calls
        ("ordered-scale-down-deletes-one-pod-per-sync",        [ready, ready],   None,  True, ["delete web-4"]),
        ("ordered-scale-down-waits-while-web-4-terminates",    [gone, ready],    None,  True, []),
        ("an-unready-top-pod-is-the-first-unhealthy-and-goes", [running, ready], 0,     True, ["delete web-4"]),
    ]
    cases += [Case(name, partial(scale_down_in_order, states, first, stop, calls))
              for name, states, first, stop, calls in in_order]
    return cases + [
        Case("a-failed-delete-is-raised", condemned_delete_fails),
        Case("statefulset-ordered", run_ordered, is_run=True),
    ]


# -- hash_controller_revision ---------------------------------------------------------------------------------

DATA_134 = {"spec": {"template": {
    "$patch": "replace",
    "metadata": {"annotations": {"test": "value"}, "labels": {"app": "foo"}},
    "spec": {"containers": [{"image": "test", "imagePullPolicy": "Always", "name": "test", "resources": {},
                             "terminationMessagePath": "/dev/termination-log",
                             "terminationMessagePolicy": "File"}],
             "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
             "securityContext": {}, "terminationGracePeriodSeconds": 30}}}}
"""The 1.34 revision of upstream's stateful_set_compatibility_test.go testdata (its patch)."""

WEB_TEMPLATE = {"spec": {"template": {"$patch": "replace", "metadata": {"labels": {"app": "web"}}}}}


def with_null_timestamp(data: dict[str, Any]) -> dict[str, Any]:
    """The 1.33 encoding of the same template: `"creationTimestamp": null` in its metadata."""
    copy = deep_copy(V1ControllerRevision(data=data, revision=1)).data
    copy["spec"]["template"]["metadata"]["creationTimestamp"] = None
    return copy


def revision_hash(data: dict[str, Any], number: int, probe: int | None, want: str) -> None:
    revision = V1ControllerRevision(metadata=V1ObjectMeta(name="web-x"), data=data, revision=number)
    got = history.hash_controller_revision(revision, probe)
    expect_equal(got, want, f"hash of {history.raw_data(revision)[:60].decode()}... with probe {probe!r}")


def hash_controller_revision_cases() -> list[Case]:
    rows: list[tuple[Any, ...]] = [
        #  name                                           data                             number probe want
        ("upstream-1.34-revision",                        DATA_134,                        1,     0,    "776999688b"),
        ("upstream-1.33-revision-with-null-timestamp",    with_null_timestamp(DATA_134),   1,     0,    "c77f6d978"),
        ("empty-data-no-probe",                           {},                              1,     None, "5894b84845"),
        ("empty-data-probe-0-is-hashed-as-text",          {},                              1,     0,    "cccc864bc"),
        ("a-template-no-probe",                           WEB_TEMPLATE,                    1,     None, "7956996c7"),
        ("a-template-probe-0",                            WEB_TEMPLATE,                    1,     0,    "7c75489b6c"),
        ("a-template-probe-1",                            WEB_TEMPLATE,                    1,     1,    "7c75489b6b"),
        ("a-template-probe-12-is-two-digits",             WEB_TEMPLATE,                    1,     12,   "6c65c486d"),
        ("the-revision-number-is-not-hashed",             WEB_TEMPLATE,                    9,     0,    "7c75489b6c"),
        ("keys-sorted-and-html-escaped-as-go-does",       {"b": "<x>", "a": 1},            1,     None, "6847db5997"),
    ]
    return [Case(name, partial(revision_hash, data, number, probe, want))
            for name, data, number, probe, want in rows] + [
        Case("statefulset-partition-revision-names", run_partition_revision_names, is_run=True),
    ]


# -- new_versioned_stateful_set_pod -----------------------------------------------------------------------


def versioned_pod(ordinal: int, want: str, options: dict[str, Any]) -> None:
    """Which revision a new pod gets; `want` is "current" (web:v1) or "update" (web:v2)."""
    current_set = new_set(5, **options)
    update_set = updated(current_set)
    pod = ssu.new_versioned_stateful_set_pod(current_set, update_set, "web-current", "web-update", ordinal)
    shown = ", ".join(f"{k} {v}" for k, v in options.items()) or "defaults"
    situation = f"web-{ordinal} with {shown}"
    image = IMAGE_V1 if want == "current" else IMAGE_V2
    expect_equal((ssu.get_pod_revision(pod), pod.spec.containers[0].image), (f"web-{want}", image),
                 f"(revision label, image) of {situation}")
    expect_equal((pod.metadata.name, pod.metadata.namespace), (f"web-{ordinal}", "default"),
                 f"(name, namespace) of {situation}")
    expect(ssu.identity_matches(current_set, pod) and ssu.storage_matches(current_set, pod),
           f"{situation}: the pod lacks its identity or its claims (build it with new_stateful_set_pod)")
    expect(not ssu.is_created(pod), f"{situation}: a new pod has no status yet")


def new_versioned_stateful_set_pod_cases() -> list[Case]:
    rows: list[tuple[Any, ...]] = [
        #  name                                             ordinal want       set options
        ("below-the-partition-keeps-the-current-revision",  1,      "current", {"partition": 2}),
        ("at-the-partition-gets-the-update",                2,      "update",  {"partition": 2}),
        ("above-the-partition-gets-the-update",             4,      "update",  {"partition": 2}),
        ("partition-0-updates-everything",                  0,      "update",  {"partition": 0}),
        ("partition-past-the-end-updates-nothing",          4,      "current", {"partition": 5}),
        ("no-rolling-block-below-current-replicas",         1,      "current", {"partition": None, "current_replicas": 2}),
        ("no-rolling-block-at-current-replicas",            2,      "update",  {"partition": None, "current_replicas": 2}),
        ("partition-counts-from-the-start-ordinal",         4,      "current", {"partition": 2, "start": 3}),
        ("start-plus-partition-gets-the-update",            5,      "update",  {"partition": 2, "start": 3}),
        ("on-delete-always-makes-the-update",               0,      "update",  {"on_delete": True, "current_replicas": 3}),
    ]
    return [Case(name, partial(versioned_pod, ordinal, want, options)) for name, ordinal, want, options in rows] + [
        Case("statefulset-partition", run_partition, is_run=True),
    ]


# -- update_stateful_set_after_invariant_established ----------------------------------------------------------

UPDATE_REVISION = "web-new"


def rolling_update(revisions: str, partition: int | None, max_unavailable: int | str | None,
                   want_deleted: list[int], options: dict[str, Any]) -> None:
    """Members web-0.. at revision old ("o") or new ("n"); which outdated ones the update deletes now.

    Options: `terminating`, `not_ready` (ordinals), `young` (ready 5 s of
    min-ready 10 s), `delete_error` (raised by every delete), `want_error`
    (the exception type the function must return).
    """
    set_ = new_set(len(revisions), partition=partition, max_unavailable=max_unavailable,
                   min_ready=10 if options.get("young") else 0)
    pods = []
    for i, rev in enumerate(revisions):
        state = "running" if i in options.get("not_ready", ()) else "ready"
        ready_for = 5.0 if i in options.get("young", ()) else 60.0
        pods.append(member(set_, i, state, ready_for=ready_for, terminating=i in options.get("terminating", ()),
                           revision=UPDATE_REVISION if rev == "n" else "web-old"))
    outdated = revisions.count("o")
    status = V1StatefulSetStatus(replicas=len(pods), current_replicas=outdated)
    pc = RecordingPodControl(set_, updated(set_), delete_error=options.get("delete_error"))
    revision = V1ControllerRevision(metadata=V1ObjectMeta(name=UPDATE_REVISION), data={}, revision=2)
    got_status, err = control.update_stateful_set_after_invariant_established(
        new_control(pc), set_, pods, revision, status, NOW)
    extras = ", ".join(f"{k} {sorted(v) if isinstance(v, set) else v}" for k, v in options.items()
                       if k not in ("want_error", "delete_error"))
    situation = (f"revisions {revisions!r}, partition {partition}, maxUnavailable {max_unavailable!r}"
                 + (f", {extras}" if extras else ""))
    expect_equal(pc.calls, [f"delete web-{i}" for i in want_deleted], f"pods deleted for {situation}")
    expect(got_status is status, f"{situation}: return the status you were given (updated), not a new one")
    want_error = options.get("want_error")
    if want_error is None:
        expect(err is None, f"{situation}: want no error, got {err!r}")
        decrement = len(want_deleted)
    else:
        expect(isinstance(err, want_error), f"{situation}: want a {want_error.__name__} returned, got {err!r}")
        decrement = 0
    expect_equal(status.current_replicas, outdated - decrement, f"status.current_replicas after the deletes for "
                                                               f"{situation}")


def update_stateful_set_after_invariant_established_cases() -> list[Case]:
    not_found = {"delete_error": errors.new_not_found(PODS, "web-4")}
    refused = {"delete_error": errors.new_internal_error("etcd is unhappy"), "want_error": errors.StatusError}
    malformed = {"want_error": ValueError}

    def terminating(*ordinals: int) -> dict[str, Any]:
        return {"terminating": set(ordinals)}

    rows: list[tuple[Any, ...]] = [
        #  name                                           revisions partition max    deleted          options
        ("nothing-outdated-nothing-deleted",              "nnnnn",  0,        1,     [],              {}),
        ("one-at-a-time-from-the-top",                    "ooooo",  0,        1,     [4],             {}),
        ("max-unavailable-2-takes-two",                   "ooooo",  0,        2,     [4, 3],          {}),
        ("a-budget-for-everything-takes-everything",      "ooooo",  0,        5,     [4, 3, 2, 1, 0], {}),
        ("updated-pods-are-skipped",                      "onono",  0,        2,     [4, 2],          {}),
        ("the-pod-at-the-partition-is-updated",           "oooon",  3,        1,     [3],             {}),
        ("nothing-below-the-partition",                   "ooonn",  3,        2,     [],              {}),
        ("no-rolling-block-partition-0-max-1",            "ooooo",  None,     None,  [4],             {}),
        ("percent-50-of-4-is-2",                          "oooo",   0,        "50%", [3, 2],          {}),
        ("upstream-terminating-5",                        "oooooo", 3,        2,     [4],             terminating(5)),
        ("upstream-terminating-2-below-partition-counts", "oooooo", 3,        2,     [5],             terminating(2)),
        ("upstream-terminating-5-and-4-use-the-budget",   "oooooo", 3,        2,     [],              terminating(5, 4)),
        ("upstream-terminating-4-and-3",                  "oooooo", 3,        2,     [],              terminating(4, 3)),
        ("an-unready-pod-uses-the-budget",                "ooooo",  0,        1,     [],              {"not_ready": {1}}),
        ("not-yet-available-uses-the-budget",             "ooooo",  0,        1,     [],              {"young": {2}}),
        ("not-found-on-delete-counts-as-deleted",         "ooooo",  0,        2,     [4, 3],          not_found),
        ("another-delete-error-is-returned",              "ooooo",  0,        2,     [4],             refused),
        ("a-malformed-max-unavailable-is-returned",       "ooooo",  0,        "abc", [],              malformed),
    ]
    return [Case(name, partial(rolling_update, revisions, partition, max_u, deleted, options))
            for name, revisions, partition, max_u, deleted, options in rows] + [
        Case("statefulset-partition-with-max-unavailable-gate", run_partition_max_unavailable, is_run=True),
    ]


# -- the chapter -----------------------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p5",
    title_en="P5 The StatefulSet controller",
    title_zh="P5 StatefulSet 控制器",
    reading_map="p5-statefulset.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="get_parent_name_and_ordinal",
            target=f"{STATEFULSET}.stateful_set_utils.get_parent_name_and_ordinal",
            go_symbol="getParentNameAndOrdinal (pkg/controller/statefulset/stateful_set_utils.go)",
            goal_en="A member's identity is its name: split `web-3` into the set's name and the ordinal, and "
                    "refuse names that have no ordinal.",
            goal_zh="成员的身份就是它的名字：把 `web-3` 拆成 StatefulSet 的名字和序号，没有序号的名字要拒绝。",
            hint_en="Match `(.*)-([0-9]+)$` (STATEFUL_POD_REGEX): the greedy parent takes every dash but the "
                    "last. No match: (\"\", -1). A number past 2**31 - 1: (parent, -1), as Go's 32-bit parse.",
            hint_zh="用 `(.*)-([0-9]+)$`（STATEFUL_POD_REGEX）匹配：贪婪的 `(.*)` 会吃掉除最后一个以外的所有"
                    "短横线。不匹配返回 (\"\", -1)；数字超过 2**31 - 1 时返回 (父名, -1)，和 Go 的 32 位解析一样。",
            cases=get_parent_name_and_ordinal_cases,
            runs=("statefulset-ordered",),
        ),
        Exercise(
            name="process_replica",
            target=f"{STATEFULSET}.stateful_set_control.DefaultStatefulSetControl.process_replica",
            go_symbol="defaultStatefulSetControl.processReplica (pkg/controller/statefulset/stateful_set_control.go)",
            goal_en="The monotonic update step: move one member a step toward the spec and say whether the sync "
                    "must stop here; under OrderedReady it stops at the first pod that is not Running, Ready and "
                    "available, so web-N+1 waits for web-N.",
            goal_zh="单调更新的一步：把一个成员向 spec 推进一步，并说明本次同步是否到此为止；在 OrderedReady 下，"
                    "遇到第一个不是 Running、Ready 且可用的 Pod 就停，所以 web-N+1 要等 web-N。",
            hint_en="In order: failed or succeeded -> delete unless terminating, stop; not created -> stop if "
                    "the claim is stale, else create (and stop if monotonic); pending -> create missing claims; "
                    "monotonic -> stop while terminating, not running-and-ready, or not available; then repair "
                    "a deep_copy with update_set if identity, storage or claims drifted; return False.",
            hint_zh="依次判断：Failed 或 Succeeded 就删除（已在终止的不删），返回 True；未创建时，PVC 还属于上一代 "
                    "Pod 就返回 True，否则创建它（monotonic 时返回 True）；Pending 就补建缺少的 PVC；monotonic 时，"
                    "正在终止、不是 Running 且 Ready、或还不可用都返回 True；最后身份、存储或 PVC 归属有偏差，就用 "
                    "update_set 修复一份 deep_copy；返回 False。",
            cases=process_replica_cases,
            runs=("statefulset-ordered", "statefulset-partition"),
        ),
        Exercise(
            name="process_condemned",
            target=f"{STATEFULSET}.stateful_set_control.DefaultStatefulSetControl.process_condemned",
            go_symbol="defaultStatefulSetControl.processCondemned (pkg/controller/statefulset/stateful_set_control.go)",
            goal_en="Ordered scale-down: delete a pod outside the ordinal range, highest first, one per sync, and "
                    "under OrderedReady never while it (or the pod it waits behind) is not healthy.",
            goal_zh="有序缩容：删除序号范围之外的 Pod，序号最高的先删，每次同步只删一个；在 OrderedReady 下，"
                    "它不健康时（除非它就是第一个不健康的 Pod）不删。",
            hint_en="Terminating: stop if monotonic, else go on. Monotonic and not the first unhealthy pod (compare "
                    "with `is`): stop if not running-and-ready or not available. Otherwise delete it and stop "
                    "(True); a failed delete raises.",
            hint_zh="正在终止：monotonic 时返回 True 等它消失，否则返回 False 继续。monotonic 且它不是第一个不健康的 "
                    "Pod（用 `is` 比较）时，不是 Running 且 Ready 或还不可用就返回 True。其余情况删除它并返回 True；"
                    "删除失败时让异常抛出。",
            cases=process_condemned_cases,
            runs=("statefulset-ordered",),
        ),
        Exercise(
            name="hash_controller_revision",
            target="minikcm.controller.history.controller_history.hash_controller_revision",
            go_symbol="HashControllerRevision (pkg/controller/history/controller_history.go)",
            goal_en="Name a ControllerRevision after its data: the same template always gets the same name "
                    "(`web-776999688b`), so a rollback finds the revision it returns to.",
            goal_zh="按数据给 ControllerRevision 起名：同样的模板总得到同样的名字（`web-776999688b`），"
                    "回滚时才能找到要回到的那个修订版本。",
            hint_en="h = fnv1_32(raw_data(revision)); with a probe, keep hashing its decimal text: "
                    "fnv1_32(str(probe).encode(), h); return safe_encode_string(str(h)). The revision number "
                    "is not part of the hash.",
            hint_zh="h = fnv1_32(raw_data(revision))；有 probe 时接着哈希它的十进制文本："
                    "fnv1_32(str(probe).encode(), h)；返回 safe_encode_string(str(h))。修订号不参与哈希。",
            cases=hash_controller_revision_cases,
            runs=("statefulset-partition",),
        ),
        Exercise(
            name="new_versioned_stateful_set_pod",
            target=f"{STATEFULSET}.stateful_set_utils.new_versioned_stateful_set_pod",
            go_symbol="newVersionedStatefulSetPod (pkg/controller/statefulset/stateful_set_utils.go)",
            goal_en="The partition, for new pods: a pod (re)created below start + partition keeps the current "
                    "revision, one at or above it gets the update revision.",
            goal_zh="分区对新 Pod 的作用：在 start + partition 以下（重新）创建的 Pod 保持当前修订版本，"
                    "等于或高于它的得到更新修订版本。",
            hint_en="Current when (RollingUpdate with no rollingUpdate block and ordinal < start + "
                    "status.currentReplicas) or (a rollingUpdate block and ordinal < start + partition); build "
                    "with new_stateful_set_pod from that set and set_pod_revision; otherwise the same from the "
                    "update set.",
            hint_zh="满足（RollingUpdate、没有 rollingUpdate 块、且 ordinal < start + status.currentReplicas）或"
                    "（有 rollingUpdate 块且 ordinal < start + partition）时用当前版本：用 new_stateful_set_pod 从"
                    "该 set 生成，再 set_pod_revision；否则从更新的 set 生成。",
            cases=new_versioned_stateful_set_pod_cases,
            runs=("statefulset-partition",),
        ),
        Exercise(
            name="update_stateful_set_after_invariant_established",
            target=f"{STATEFULSET}.stateful_set_control.update_stateful_set_after_invariant_established",
            go_symbol="updateStatefulSetAfterInvariantEstablished (pkg/controller/statefulset/stateful_set_control.go)",
            goal_en="The partitioned rolling update: which outdated pods to delete now, highest ordinal first, "
                    "never below the partition, and no more than maxUnavailable minus the pods already "
                    "unavailable.",
            goal_zh="带分区的滚动更新：现在删除哪些过时的 Pod，序号最高的先删，不删分区以下的，数量不超过 "
                    "maxUnavailable 减去已经不可用的 Pod 数。",
            hint_en="partition and maxUnavailable from spec.updateStrategy.rollingUpdate (0 and 1 without it; "
                    "get_stateful_set_max_unavailable, a ValueError is returned); count is_unavailable members; "
                    "walk target from the top while target >= partition, deleting outdated, non-terminating pods "
                    "(NotFound counts as deleted) and decrementing status.current_replicas.",
            hint_zh="partition 和 maxUnavailable 取自 spec.updateStrategy.rollingUpdate（没有时为 0 和 1；"
                    "用 get_stateful_set_max_unavailable，ValueError 要返回）；数出 is_unavailable 的成员；"
                    "target 从最高序号往下走，条件是 target >= partition，删除过时且不在终止中的 Pod"
                    "（NotFound 算删成），并把 status.current_replicas 减一。",
            cases=update_stateful_set_after_invariant_established_cases,
            runs=("statefulset-partition",),
        ),
    ),
)
"""The `p5` chapter's row of minikcm.exercises.EXERCISES."""
