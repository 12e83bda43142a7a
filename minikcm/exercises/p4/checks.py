"""No upstream twin. The checks of the P4 ReplicaSet-controller exercises (chapter `p4`).

Table rows port upstream's tables with their values: TestSlowStartBatch and
TestGetPodsToDelete (replica_set_test.go), TestSortingActivePodsWithRanks,
TestControllerExpectations and TestUIDExpectations (controller_utils_test.go),
plus rows of ours for what the docstrings promise (where the batches end,
the expiry boundary, a store that fails). Expectations expire on a FakeClock,
so "five minutes later" is one step. The run of the port is the
`replicaset-scale` scenario: 3 pods, scaled to 10 (7 creates in batches of
1, 2 and 4), scaled to 2 while 7 pods are not ready yet, and one pod deleted
by hand. Its invariant (never a create with spec.replicas pods already there,
never a delete with no more than spec.replicas) raises when broken; the
check then compares the creates, the deletions and the replacement with the
numbers the chapter quotes.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from kubernetes.client import V1ContainerStatus, V1ObjectMeta, V1Pod, V1PodCondition, V1PodSpec, V1PodStatus

from minikcm.clock import EPOCH, FakeClock
from minikcm.controller import controller_utils as cu
from minikcm.controller.replicaset import replica_set
from minikcm.exercises.base import Case, CheckFailed, Chapter, Exercise, expect, expect_equal
from minikcm.sim.scenarios import get_scenario
from minikcm.sim.scenarios.replicaset import ReplicaSetScale

CONTROLLER = "minikcm.controller"
NOW = EPOCH
THEN = NOW - timedelta(days=30)  # upstream: now.AddDate(0, -1, 0)
H = timedelta(hours=1)


# -- the run of the port ----------------------------------------------------------------------------


def run_replicaset_scale() -> None:
    """replicaset-scale: creates 3, then 7 in one sync; scale-down takes the 7 not-ready pods first; a pod replaced."""
    run = get_scenario("replicaset-scale").build(1)
    scenario: ReplicaSetScale = run.objects["scenario"]
    run.run()  # raises when the controller creates or deletes past spec.replicas
    creates = scenario.pod_control.creates
    times = [t for t, _, _ in creates]
    expect_equal([times.count(t) for t in sorted(set(times))], [3, 7, 1],
                 "pods created per instant (3 at the start, 7 in the sync after the scale to 10, 1 replacement)")
    deleted = scenario.scale_down
    expect_equal([d.ready for d in deleted], [False] * 7 + [True],
                 "readiness of the pods the scale-down from 10 to 2 deleted, in the controller's order")
    expect(scenario.replaced is not None and scenario.replaced[1] != "",
           "the pod deleted by hand was never replaced")


# -- slow_start_batch -----------------------------------------------------------------------------------


def slow_start(count: int, initial: int, fail_calls: set[int], want_successes: int, want_calls: int) -> None:
    """Call number n (from 1) fails when n is in `fail_calls`; after TestSlowStartBatch."""
    calls = 0
    lock = threading.Lock()
    errors: list[Exception] = []

    def fn() -> None:
        nonlocal calls
        with lock:
            calls += 1
            n = calls
        if n in fail_calls:
            err = RuntimeError(f"fake error on call {n}")
            errors.append(err)
            raise err

    successes, err = replica_set.slow_start_batch(count, initial, fn, inline=True)
    situation = f"count {count} from {initial}, calls {sorted(fail_calls) or 'none'} failing"
    expect_equal((successes, calls), (want_successes, want_calls), f"(successes, calls made) for {situation}")
    if errors:
        expect(err is not None and any(err is e for e in errors),
               f"{situation}: want one of the errors fn raised, got {err!r}")
    else:
        expect(err is None, f"{situation}: want no error, got {err!r}")


def slow_start_batch_cases() -> list[Case]:
    rows = [
        #  name                                         count initial fail_calls           successes calls
        ("all-fail-stops-after-the-first-call",         10,   1,      set(range(1, 11)),   0,        1),
        ("all-succeed",                                 10,   1,      set(),               10,       10),
        ("6-to-10-fail-the-batch-of-4-finishes",        10,   1,      set(range(6, 11)),   5,        7),
        ("call-2-fails-the-batch-of-2-finishes",        10,   1,      {2},                 2,        3),
        ("calls-4-and-5-fail-both-are-counted",         10,   1,      {4, 5},              5,        7),
        ("last-batch-is-what-remains",                  10,   1,      {10},                9,        10),
        ("initial-batch-larger-than-count",             3,    5,      set(),               3,        3),
        ("count-0-never-calls",                         0,    1,      set(),               0,        0),
    ]
    return [Case(name, partial(slow_start, *row)) for name, *row in rows] + [
        Case("replicaset-scale", run_replicaset_scale, is_run=True),
    ]


# -- pods of the table rows ---------------------------------------------------------------------------


def pod(name: str, node: str, phase: str, ready: bool | None = None) -> V1Pod:
    """A pod of upstream's TestGetPodsToDelete: ready None leaves the Ready condition out."""
    conditions = None if ready is None else [V1PodCondition(type="Ready", status="True" if ready else "False")]
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace="default", uid=f"uid-{name}"),
                 spec=V1PodSpec(containers=[], node_name=node or None),
                 status=V1PodStatus(phase=phase, conditions=conditions))


def rank_pod(name: str, node: str, phase: str, ready: bool, restarts: int, ready_since: datetime | None,
             created: datetime | None, annotations: dict[str, str] | None = None, uid: str | None = None) -> V1Pod:
    """Upstream's pod() builder of TestSortingActivePodsWithRanks."""
    return V1Pod(
        metadata=V1ObjectMeta(name=name, creation_timestamp=created, annotations=annotations, uid=uid),
        spec=V1PodSpec(containers=[], node_name=node),
        status=V1PodStatus(
            phase=phase,
            conditions=([V1PodCondition(type="Ready", status="True", last_transition_time=ready_since)]
                        if ready else None),
            container_statuses=[V1ContainerStatus(name="c0", image="i", image_id="", ready=True,
                                                  restart_count=restarts)] if ready else None,
        ),
    )


def names(pods: list[V1Pod]) -> list[str]:
    return [p.metadata.name for p in pods]


# -- get_pods_to_delete ---------------------------------------------------------------------------------

UP = pod("unscheduled-pending-pod", "", "Pending")
SP = pod("scheduled-pending-pod", "fake-node", "Pending")
NR = pod("scheduled-running-not-ready-pod", "fake-node", "Running", ready=False)
R1 = pod("scheduled-running-ready-pod-on-node-1", "fake-node-1", "Running", ready=True)
R2 = pod("scheduled-running-ready-pod-on-node-2", "fake-node-2", "Running", ready=True)


def pods_to_delete(pods: list[V1Pod], related: list[V1Pod] | None, diff: int, want: list[V1Pod]) -> None:
    """A row of TestGetPodsToDelete (replica_set_test.go); `related` None means the pods themselves."""
    pods = list(pods)
    given = names(pods)
    got = replica_set.get_pods_to_delete(pods, pods if related is None else list(related), diff, NOW)
    related_text = "the same pods" if related is None else names(related)
    expect_equal(names(got), names(want), f"pods to delete: {diff} of {given} (related: {related_text})")


def get_pods_to_delete_cases() -> list[Case]:
    rows: list[tuple[Any, ...]] = [
        #  name                                  pods                          related          diff want
        ("no-pods",                              [],                           None,            0, []),
        ("all-go-in-the-given-order",            [NR, R1],                     None,            2, [NR, R1]),
        ("not-ready-before-ready",               [R1, NR],                     None,            1, [NR]),
        ("all-go-unsorted",                      [R1, R1, R2, NR, SP, UP],     None,            6,
         [R1, R1, R2, NR, SP, UP]),
        ("all-go-unsorted-no-related-pods",      [R1, R1, R2, NR, SP, UP],     [],              6,
         [R1, R1, R2, NR, SP, UP]),
        ("unscheduled-before-scheduled",         [SP, UP],                     None,            1, [UP]),
        ("not-ready-before-ready-twice",         [R1, NR, NR],                 None,            2, [NR, NR]),
        ("crowded-node-first",                   [R1, R2],                     [R1, R2, R2],    1, [R2]),
        ("pending-before-running",               [SP, NR],                     None,            1, [SP]),
        ("unscheduled-pending-not-ready-first",  [R1, R2, NR, SP, UP],         None,            3,
         [UP, SP, NR]),
    ]
    return [Case(name, partial(pods_to_delete, *row)) for name, *row in rows] + [
        Case("replicaset-scale", run_replicaset_scale, is_run=True),
    ]


# -- ActivePodsWithRanks.less -------------------------------------------------------------------------

COST = cu.POD_DELETION_COST
UNSCHEDULED = rank_pod("unscheduled", "", "Pending", False, 0, None, None)
SCHEDULED_PENDING = rank_pod("pending", "node", "Pending", False, 0, None, None)
UNKNOWN_PHASE = rank_pod("unknown-phase", "node", "Unknown", False, 0, None, None)
RUNNING_NOT_READY = rank_pod("not-ready", "node", "Running", False, 0, None, None)
READY_NO_LTT = rank_pod("ready-no-last-transition-time", "node", "Running", True, 0, None, None)
READY_NOW = rank_pod("ready-now", "node", "Running", True, 0, NOW, NOW)
READY_THEN = rank_pod("ready-then", "node", "Running", True, 0, THEN, THEN)
READY_NOW_HIGH_RESTARTS = rank_pod("ready-high-restarts", "node", "Running", True, 9001, NOW, NOW)
READY_NOW_CREATED_THEN = rank_pod("ready-now-created-then", "node", "Running", True, 0, NOW, THEN)
LOW_COST = rank_pod("low-deletion-cost", "node", "Running", True, 0, NOW, THEN, {COST: "10"})
HIGH_COST = rank_pod("high-deletion-cost", "node", "Running", True, 0, NOW, THEN, {COST: "100"})
UNSCHEDULED_5H = rank_pod("unscheduled-5-hours", "", "Pending", False, 0, NOW - 5 * H, NOW - 5 * H)
UNSCHEDULED_8H = rank_pod("unscheduled-8-hours", "", "Pending", False, 0, NOW - 8 * H, NOW - 8 * H)
READY_2H = rank_pod("ready-2-hours", "", "Running", True, 0, NOW - 2 * H, THEN)
READY_5H = rank_pod("ready-5-hours", "", "Running", True, 0, NOW - 5 * H, THEN)
READY_8H = rank_pod("ready-8-hours", "", "Running", True, 0, NOW - 8 * H, THEN)


def ranks_less(lesser: tuple[V1Pod, int], greater: tuple[V1Pod, int]) -> None:
    """An inequality row of TestSortingActivePodsWithRanks: (pod, rank) pairs, the first goes first."""
    ranked = cu.ActivePodsWithRanks([lesser[0], greater[0]], [lesser[1], greater[1]], NOW)
    a, b = f"{lesser[0].metadata.name} (rank {lesser[1]})", f"{greater[0].metadata.name} (rank {greater[1]})"
    expect(ranked.less(0, 1) is True, f"less({a}, {b}): want True, it should be deleted first")
    expect(ranked.less(1, 0) is False, f"less({b}, {a}): want False")


def ranks_equal(p1: V1Pod, p2: V1Pod) -> None:
    """An equality row of TestSortingActivePodsWithRanks: neither pod goes first (same rank 1)."""
    ranked = cu.ActivePodsWithRanks([p1, p2], [1, 1], NOW)
    pair = f"{p1.metadata.name} and {p2.metadata.name}"
    expect_equal((ranked.less(0, 1), ranked.less(1, 0)), (False, False), f"(less(0, 1), less(1, 0)) for {pair}")


def ranks_sort() -> None:
    """Ours: sorting moves the ranks with their pods; a shared age bucket falls back to UID order."""
    a = rank_pod("a", "node", "Running", True, 0, NOW - 5 * H, THEN, uid="uid-b")
    b = rank_pod("b", "node", "Running", True, 0, NOW - 8 * H, THEN, uid="uid-a")
    c = rank_pod("c", "node", "Running", True, 0, NOW - 1 * H, THEN, uid="uid-c")
    pods, ranks = [a, b, c], [0, 0, 5]
    cu.ActivePodsWithRanks(pods, ranks, NOW).sort()
    expect_equal((names(pods), ranks), (["c", "b", "a"], [5, 0, 0]), "(pods, ranks) after sort()")


def less_cases() -> list[Case]:
    inequal = [
        #  name                                        lesser                          greater
        ("unscheduled-first-whatever-the-rank",        (UNSCHEDULED, 1),               (SCHEDULED_PENDING, 2)),
        ("unscheduled-first-even-with-higher-rank",    (UNSCHEDULED, 2),               (SCHEDULED_PENDING, 1)),
        ("pending-before-unknown",                     (SCHEDULED_PENDING, 1),         (UNKNOWN_PHASE, 2)),
        ("unknown-before-running",                     (UNKNOWN_PHASE, 1),             (RUNNING_NOT_READY, 2)),
        ("not-ready-before-ready",                     (RUNNING_NOT_READY, 1),         (READY_NO_LTT, 1)),
        ("ready-without-time-before-ready-now",        (READY_NO_LTT, 1),              (READY_NOW, 1)),
        ("higher-rank-first",                          (READY_NOW, 2),                 (READY_NO_LTT, 1)),
        ("ready-for-less-time-first",                  (READY_NOW, 1),                 (READY_THEN, 1)),
        ("rank-before-ready-time",                     (READY_NOW, 2),                 (READY_THEN, 1)),
        ("more-restarts-first",                        (READY_NOW_HIGH_RESTARTS, 1),   (READY_NOW, 1)),
        ("rank-before-restarts",                       (READY_NOW, 2),                 (READY_NOW_HIGH_RESTARTS, 1)),
        ("newer-first",                                (READY_NOW, 1),                 (READY_NOW_CREATED_THEN, 1)),
        ("rank-before-age",                            (READY_NOW_CREATED_THEN, 2),    (READY_NOW, 1)),
        ("lower-deletion-cost-before-rank",            (LOW_COST, 2),                  (HIGH_COST, 1)),
        ("deletion-cost-beats-rank",                   (LOW_COST, 1),                  (HIGH_COST, 2)),
        ("2-hours-before-5-hours-other-log-bucket",    (READY_2H, 1),                  (READY_5H, 1)),
    ]
    equal = [
        ("unscheduled", UNSCHEDULED, UNSCHEDULED),
        ("scheduled-pending", SCHEDULED_PENDING, SCHEDULED_PENDING),
        ("unknown-phase", UNKNOWN_PHASE, UNKNOWN_PHASE),
        ("running-not-ready", RUNNING_NOT_READY, RUNNING_NOT_READY),
        ("ready-now-created-then", READY_NOW_CREATED_THEN, READY_NOW_CREATED_THEN),
        ("ready-now", READY_NOW, READY_NOW),
        ("ready-then", READY_THEN, READY_THEN),
        ("ready-high-restarts", READY_NOW_HIGH_RESTARTS, READY_NOW_HIGH_RESTARTS),
        ("unscheduled-5h-and-8h-share-a-log-bucket", UNSCHEDULED_5H, UNSCHEDULED_8H),
        ("ready-5h-and-8h-share-a-log-bucket", READY_5H, READY_8H),
    ]
    return ([Case(name, partial(ranks_less, lesser, greater)) for name, lesser, greater in inequal]
            + [Case(f"equal-{name}", partial(ranks_equal, p1, p2)) for name, p1, p2 in equal]
            + [Case("sort-moves-ranks-and-breaks-bucket-ties-by-uid", ranks_sort),
               Case("replicaset-scale", run_replicaset_scale, is_run=True)])


# -- ControllerExpectations.satisfied_expectations ---------------------------------------------------

KEY = "default/web"


def expectations() -> tuple[FakeClock, cu.ControllerExpectations]:
    clock = FakeClock(NOW)
    return clock, cu.ControllerExpectations(clock=clock)


def satisfied(e: Any, what: str, want: bool) -> None:
    expect_equal(e.satisfied_expectations(KEY), want, f"satisfied_expectations {what}")


def expectations_never_recorded() -> None:
    _, e = expectations()
    satisfied(e, "with no expectations recorded (a new ReplicaSet: sync it)", True)


def expectations_surpassed() -> None:
    """After TestControllerExpectations: 10 adds and 30 deletes expected, 11 and 31 seen."""
    _, e = expectations()
    e.set_expectations(KEY, 10, 30)
    satisfied(e, "right after expecting 10 creates and 30 deletes", False)
    for _ in range(11):
        e.creation_observed(KEY)
    satisfied(e, "after 11 creates but no deletes were seen", False)
    for _ in range(31):
        e.deletion_observed(KEY)
    satisfied(e, "after 11 creates and 31 deletes were seen (counts below zero)", True)


def expectations_met_exactly() -> None:
    _, e = expectations()
    e.expect_creations(KEY, 2)
    e.creation_observed(KEY)
    satisfied(e, "after 1 of 2 expected creates", False)
    e.creation_observed(KEY)
    satisfied(e, "after 2 of 2 expected creates (counts at zero)", True)
    e.set_expectations(KEY, 0, 0)
    satisfied(e, "with nothing expected (0 and 0)", True)


def expectations_expire() -> None:
    """After TestControllerExpectations' TTL row: expectations older than EXPECTATIONS_TIMEOUT count as met."""
    clock, e = expectations()
    e.set_expectations(KEY, 1, 2)
    satisfied(e, "right after expecting 1 create and 2 deletes", False)
    clock.step(cu.EXPECTATIONS_TIMEOUT)
    satisfied(e, f"exactly {cu.EXPECTATIONS_TIMEOUT:g} s later (not older than the timeout yet)", False)
    clock.step(1)
    satisfied(e, f"{cu.EXPECTATIONS_TIMEOUT + 1:g} s later (expired)", True)
    e.set_expectations(KEY, 1, 0)
    satisfied(e, "once set again (a fresh timestamp)", False)


def expectations_deleted() -> None:
    _, e = expectations()
    e.expect_deletions(KEY, 3)
    satisfied(e, "while 3 deletes are expected", False)
    e.delete_expectations(KEY)
    satisfied(e, "after delete_expectations (the ReplicaSet is gone)", True)


def expectations_per_key() -> None:
    _, e = expectations()
    e.expect_creations("default/other", 5)
    satisfied(e, f"for {KEY} while only default/other waits", True)


class FailingStore:
    """A store whose reads fail (Go: GetByKey returning an error)."""

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        raise RuntimeError("store read failed")


def expectations_store_fails() -> None:
    e = cu.ControllerExpectations(store=FailingStore(), clock=FakeClock(NOW))  # type: ignore[arg-type]
    satisfied(e, "when the store cannot be read (sync anyway)", True)


def uid_expectations() -> None:
    """After TestUIDExpectations: the ReplicaSet controller's UID-tracking expectations delegate to this."""
    clock = FakeClock(NOW)
    e = cu.new_uid_tracking_controller_expectations(cu.ControllerExpectations(clock=clock))
    e.expect_deletions(KEY, ["default/web-a", "default/web-b"])
    satisfied(e, "(UID tracking) while web-a and web-b are expected to go", False)
    e.deletion_observed(KEY, "default/web-a")
    e.deletion_observed(KEY, "default/web-a")  # seen twice (deletionTimestamp, then the delete): counts once
    satisfied(e, "(UID tracking) after web-a was seen going, twice", False)
    e.deletion_observed(KEY, "default/web-b")
    satisfied(e, "(UID tracking) after both were seen going", True)


def satisfied_expectations_cases() -> list[Case]:
    return [
        Case("never-recorded-means-sync", expectations_never_recorded),
        Case("surpassed-expectations-are-met", expectations_surpassed),
        Case("met-at-exactly-zero", expectations_met_exactly),
        Case("expire-after-the-timeout-not-at-it", expectations_expire),
        Case("deleted-expectations-mean-sync", expectations_deleted),
        Case("other-controllers-do-not-count", expectations_per_key),
        Case("a-failing-store-means-sync", expectations_store_fails),
        Case("uid-tracking-expectations", uid_expectations),
        Case("replicaset-scale", run_replicaset_scale, is_run=True),
    ]


# -- sync_replica_set: the expectations check, under interleaved schedules -------------------------------------

EXPLORE_SCHEDULES = 200
"""Interleaved schedules of replicaset-scale the restored sync must survive (without the check, one fails at 2)."""


def explore_replicaset_scale() -> None:
    """`minikcm explore --scenario replicaset-scale --schedules 200`: no schedule may break the invariants."""
    from minikcm.harness.explore import explore

    result = explore("replicaset-scale", EXPLORE_SCHEDULES, seed=1, stop_at_first=True)
    if result.violations:
        bad = result.violations[0]
        raise CheckFailed(f"interleaved schedule {bad.seed} of {EXPLORE_SCHEDULES}: {bad.violation} "
                          f"(replay: {bad.replay_command()})")


def sync_replica_set_cases() -> list[Case]:
    return [Case("explore-200-interleaved-schedules", explore_replicaset_scale)]


# -- the chapter ----------------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p4",
    title_en="P4 The ReplicaSet controller",
    title_zh="P4 ReplicaSet 控制器",
    reading_map="p4-replicaset.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="slow_start_batch",
            target=f"{CONTROLLER}.replicaset.replica_set.slow_start_batch",
            go_symbol="slowStartBatch (pkg/controller/replicaset/replica_set.go)",
            goal_en="Create pods in batches of 1, 2, 4, ... and stop after the first batch with a failure, so a "
                    "template that can never work costs a few failed creates, not hundreds.",
            goal_zh="按 1、2、4……的批次创建 Pod，某一批出现失败后就不再开始下一批：永远无法成功的模板只会浪费"
                    "几次创建，而不是几百次。",
            hint_en="batch = min(remaining, initial, then twice the last); run the whole batch, counting the calls "
                    "that raised; any failure: return (successes, one of the errors); else continue until nothing "
                    "remains and return (count, None).",
            hint_zh="批大小 = min(剩余数, 初始值，之后每次翻倍)；整批都要跑完，记下抛出异常的调用；有失败就返回"
                    "(成功数, 其中一个异常)；否则继续，直到没有剩余，返回 (count, None)。",
            cases=slow_start_batch_cases,
            runs=("replicaset-scale",),
        ),
        Exercise(
            name="get_pods_to_delete",
            target=f"{CONTROLLER}.replicaset.replica_set.get_pods_to_delete",
            go_symbol="getPodsToDelete (pkg/controller/replicaset/replica_set.go)",
            goal_en="Choose the pods a scale-down removes: the least valuable first, pods on crowded nodes before "
                    "lonely ones.",
            goal_zh="选出缩容要删除的 Pod：价值最低的先删，所在节点越拥挤越先删。",
            hint_en="When all go, keep the given order; otherwise rank each pod by the active related pods on its "
                    "node (unscheduled ones share node \"\"), sort with ActivePodsWithRanks(pods, ranks, now) and "
                    "take the first diff.",
            hint_zh="全部删除时保持原来的顺序；否则按同一节点上活跃的相关 Pod 数给每个 Pod 定 rank（未调度的共用"
                    "节点 \"\"），用 ActivePodsWithRanks(pods, ranks, now) 排序，取前 diff 个。",
            cases=get_pods_to_delete_cases,
            runs=("replicaset-scale",),
        ),
        Exercise(
            name="less",
            target=f"{CONTROLLER}.controller_utils.ActivePodsWithRanks.less",
            go_symbol="ActivePodsWithRanks.Less (pkg/controller/controller_utils.go)",
            goal_en="The order of deletion: should pod i go before pod j? Eight rules, the first that tells them "
                    "apart decides.",
            goal_zh="删除的先后：Pod i 是否应该比 Pod j 先删？共八条规则，第一条能分出先后的规则说了算。",
            hint_en="Unscheduled, then earlier phase, then not ready, then lower deletion cost, then higher rank, "
                    "then (both ready) ready for less time, then more restarts, then newer; ages compare in log2 "
                    "buckets (self._newer_first); a tie is False.",
            hint_zh="未调度的先，然后阶段更早的、未就绪的、删除成本低的、rank 高的、（都就绪时）就绪时间更短的、"
                    "重启次数多的、更新的；时间按 log2 分桶比较（self._newer_first）；完全相同返回 False。",
            cases=less_cases,
            runs=("replicaset-scale",),
        ),
        Exercise(
            name="satisfied_expectations",
            target=f"{CONTROLLER}.controller_utils.ControllerExpectations.satisfied_expectations",
            go_symbol="ControllerExpectations.SatisfiedExpectations (pkg/controller/controller_utils.go)",
            goal_en="May this ReplicaSet sync now? Only once the informer has shown the creates and deletes the "
                    "last sync made, or they are over five minutes old.",
            goal_zh="这个 ReplicaSet 现在可以同步吗？要等 informer 看到上一次同步发出的创建和删除，"
                    "或者它们已经超过五分钟。",
            hint_en="Read with self.get_expectations(key); a read error means True; existing expectations: True if "
                    "fulfilled() or is_expired(), else False; none recorded: True.",
            hint_zh="用 self.get_expectations(key) 读取；读取出错返回 True；存在期望时，fulfilled() 或 "
                    "is_expired() 为真返回 True，否则 False；没有记录返回 True。",
            cases=satisfied_expectations_cases,
            runs=("replicaset-scale",),
        ),
        Exercise(
            name="sync_replica_set",
            target=f"{CONTROLLER}.replicaset.replica_set.ReplicaSetController.sync_replica_set",
            go_symbol="ReplicaSetController.syncReplicaSet (pkg/controller/replicaset/replica_set.go)",
            goal_en="Restore the defence: this sync has lost one line and now creates or deletes pods while its "
                    "last creates and deletes are still on their way to the cache. 200 interleaved schedules "
                    "find it; restore the line and none does.",
            goal_zh="把防线补回去：这个同步函数少了一行，于是在上一次发出的创建和删除还没回到缓存时就又增删 Pod。"
                    "200 个交错调度能找出问题；把那一行补回来，就一个也找不出了。",
            hint_en="Before claiming pods, ask the expectations whether this key may manage replicas: "
                    "rs_needs_sync = self.expectations.satisfied_expectations(key).",
            hint_zh="在认领 Pod 之前，先问 expectations 这个键能不能增删副本："
                    "rs_needs_sync = self.expectations.satisfied_expectations(key)。",
            cases=sync_replica_set_cases,
            runs=("replicaset-scale x 200 interleaved schedules",),
            restore=True,
        ),
    ),
)
"""The `p4` chapter's row of minikcm.exercises.EXERCISES."""
