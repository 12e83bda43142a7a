"""No upstream twin. The checks of the P3 Deployment-controller exercises (chapter `p3`).

Table rows port upstream's tables with their values: TestResolveFenceposts,
TestNewRSNewReplicas and TestGetReplicaSetFraction (deployment_util_test.go),
TestDeploymentController_reconcileNewReplicaSet and
_reconcileOldReplicaSets (rolling_test.go), plus rows of ours for the corners
the docstrings name (the worked example of reconcile_old_replica_sets among
them). The controller rows run a real DeploymentController whose clientset
records every call and answers updates with the object sent (Go's
`fake.Clientset{}`), so a row can say which ReplicaSets were written and to
what size. The runs of the port are the `rolling-update` and
`proportional-scaling` scenarios; their invariants (never more than replicas
+ maxSurge asked for, never fewer than replicas - maxUnavailable available)
raise when broken, and the checks then compare the extremes and the final
sizes with the numbers the chapter quotes.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1DeploymentStatus,
    V1DeploymentStrategy,
    V1LabelSelector,
    V1ObjectMeta,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
    V1RollingUpdateDeployment,
)

from minikcm.client import InProcessClientset
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import Action, CreateAction, UpdateAction
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.deployment.deployment_controller import DeploymentController, new_deployment_controller
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.exercises.base import Case, Chapter, CheckFailed, Exercise, expect_equal
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.sim.scenarios import ScenarioResult, get_scenario
from minikcm.sim.scenarios.deployment import DeploymentScenario
from minikcm.tools.record import FakeRecorder

DEPLOYMENT = "minikcm.controller.deployment"
ROLLING = util.ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE
RECREATE = util.RECREATE_DEPLOYMENT_STRATEGY_TYPE


# -- the runs of the port ----------------------------------------------------------------------------


def play(name: str) -> tuple[DeploymentScenario, ScenarioResult]:
    """Play a P3 scenario (seed 1); a broken invariant raises InvariantViolation out of it."""
    run = get_scenario(name).build(1)
    scenario: DeploymentScenario = run.objects["scenario"]
    return scenario, run.run()


def values(result: ScenarioResult, series: str) -> list[Any]:
    return [v for _, v in result.series[series]]


def run_rolling_update() -> None:
    """rolling-update: 10 replicas, 25%/25%: at most 13 pods asked for, at least 8 available, then all v2."""
    scenario, result = play("rolling-update")
    expect_equal(scenario.max_asked, 13, "most pods asked for at once during the rollout (10 + maxSurge 25% = 3)")
    expect_equal(scenario.min_available, 8, "fewest available pods during the rollout (10 - maxUnavailable 25% = 2)")
    new_sizes = values(result, "rs rev2 replicas")
    expect_equal(new_sizes[:2], [0, 3], "the new ReplicaSet's first sizes (its first step is the whole surge)")
    expect_equal((values(result, "rs rev1 replicas")[-1], new_sizes[-1]), (0, 10),
                 "(old, new) ReplicaSet sizes at the end")


def run_proportional_scaling() -> None:
    """proportional-scaling: stuck at 8 old and 5 new, scaled to 30: 20 old and 13 new."""
    _, result = play("proportional-scaling")
    expect_equal(values(result, "rs rev1 replicas"), [0, 10, 8, 20], "the old ReplicaSet's sizes")
    expect_equal(values(result, "rs rev2 replicas"), [0, 3, 5, 13], "the new ReplicaSet's sizes")


# -- objects of the table rows ------------------------------------------------------------------------


def deployment(replicas: int | None, max_surge: int | str | None = 0, max_unavailable: int | str | None = 0, *,
               strategy: str = ROLLING, status_replicas: int | None = None) -> V1Deployment:
    """A Deployment `web` with the given size and strategy (Go's newDeployment, give or take)."""
    rolling = V1RollingUpdateDeployment(max_surge=max_surge, max_unavailable=max_unavailable)
    return V1Deployment(
        api_version="apps/v1",
        metadata=V1ObjectMeta(name="web", namespace="default", uid="web-uid", annotations={}),
        spec=V1DeploymentSpec(
            replicas=replicas,
            selector=V1LabelSelector(match_labels={"app": "web"}),
            strategy=V1DeploymentStrategy(type=strategy, rolling_update=rolling if strategy == ROLLING else None),
            template=V1PodTemplateSpec(metadata=V1ObjectMeta(labels={"app": "web"}),
                                       spec=V1PodSpec(containers=[V1Container(name="app", image="web:v1")])),
        ),
        status=V1DeploymentStatus(replicas=status_replicas) if status_replicas is not None else None,
    )


def replica_set(name: str, replicas: int, available: int | None = None, *, hours_old: int = 0,
                annotations: dict[str, str] | None = None) -> V1ReplicaSet:
    """A ReplicaSet of `web` (Go's rs()); `available` sets a status, `hours_old` the creation time."""
    rs = V1ReplicaSet(
        metadata=V1ObjectMeta(name=name, namespace="default", annotations=annotations,
                              creation_timestamp=EPOCH - timedelta(hours=hours_old)),
        spec=V1ReplicaSetSpec(replicas=replicas, selector=V1LabelSelector(match_labels={"app": "web"}),
                              template=V1PodTemplateSpec()),
    )
    if available is not None:
        rs.status = V1ReplicaSetStatus(replicas=replicas, available_replicas=available)
    return rs


def echo(action: Action) -> tuple[bool, Any, Exception | None]:
    """Answer every call: create and update with the object sent, anything else with nothing."""
    if isinstance(action, (CreateAction, UpdateAction)):
        return True, action.get_object(), None
    return True, None, None


def controller() -> tuple[DeploymentController, InProcessClientset]:
    """A Deployment controller over never-started informers; its client records calls and echoes updates."""
    clock = FakeClock(EPOCH, driven=True)
    client = new_simple_clientset(clock=clock)
    assert client.fake is not None
    client.fake.prepend_reactor("*", "*", echo)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    dc = new_deployment_controller(factory.apps().v1().deployments(), factory.apps().v1().replica_sets(),
                                   factory.core().v1().pods(), client)
    dc.event_recorder = FakeRecorder()
    return dc, client


def updates(client: InProcessClientset) -> list[tuple[str, int]]:
    """(ReplicaSet name, spec.replicas) of every update the controller sent, in order."""
    assert client.fake is not None
    return [(a.get_object().metadata.name, a.get_object().spec.replicas) for a in client.fake.actions()
            if isinstance(a, UpdateAction) and a.get_resource().resource == "replicasets"]


# -- resolve_fenceposts ---------------------------------------------------------------------------------


def fenceposts(max_surge: Any, max_unavailable: Any, desired: int, want: tuple[int, int]) -> None:
    """A row of TestResolveFenceposts (deployment_util_test.go)."""
    got = util.resolve_fenceposts(max_surge, max_unavailable, desired)
    expect_equal(got, want,
                 f"resolve_fenceposts({max_surge!r}, {max_unavailable!r}, {desired}) as (surge, unavailable)")


def fenceposts_malformed(max_surge: Any, max_unavailable: Any) -> None:
    """The error rows of TestResolveFenceposts: a string that is not a whole percentage."""
    try:
        got = util.resolve_fenceposts(max_surge, max_unavailable, 10)
    except ValueError:
        return
    raise CheckFailed(f"resolve_fenceposts({max_surge!r}, {max_unavailable!r}, 10): want ValueError, got {got!r}")


def resolve_fenceposts_cases() -> list[Case]:
    rows = [
        #  name                                     max_surge max_unavailable desired want
        ("0%-and-0%-of-0-forces-one-unavailable",    "0%",     "0%",           0,      (0, 1)),
        ("39%-of-10-surge-rounds-up",                "39%",    "39%",          10,     (4, 3)),
        ("no-surge-given",                           None,     "39%",          10,     (0, 3)),
        ("no-unavailability-given",                  "39%",    None,           10,     (4, 0)),
        ("neither-given-forces-one-unavailable",     None,     None,           10,     (0, 1)),
        ("25%-and-25%-of-10",                        "25%",    "25%",          10,     (3, 2)),
        ("0-and-0-of-5-forces-one-unavailable",      0,        0,              5,      (0, 1)),
        ("int-surge-and-percent-unavailable",        2,        "50%",          3,      (2, 1)),
        ("10%-of-5-rounds-down-to-0",                0,        "10%",          5,      (0, 1)),
    ]
    cases = [Case(name, partial(fenceposts, s, u, d, want)) for name, s, u, d, want in rows]
    cases += [
        Case("malformed-surge-raises", partial(fenceposts_malformed, "oops", "39%")),
        Case("malformed-unavailable-raises", partial(fenceposts_malformed, "55%", "urg")),
        Case("rolling-update", run_rolling_update, is_run=True),
    ]
    return cases


# -- new_rs_new_replicas --------------------------------------------------------------------------------


def new_replicas(strategy: str, replicas: int, max_surge: int | str, others: list[int], new_size: int,
                 want: int) -> None:
    """After TestNewRSNewReplicas: all_rss holds ReplicaSets of the sizes `others` (the new one is not in it)."""
    d = deployment(replicas, max_surge, 1, strategy=strategy)
    all_rss: list[V1ReplicaSet | None] = [replica_set(f"web-{i}", n) for i, n in enumerate(others)]
    new_rs = replica_set("web-new", new_size)
    got = util.new_rs_new_replicas(d, all_rss, new_rs)
    expect_equal(got, want, f"new size ({strategy}, {replicas} replicas, maxSurge {max_surge!r}, the ReplicaSets "
                            f"ask for {sum(others)}, new has {new_size})")


def new_replicas_unknown_strategy() -> None:
    d = deployment(3, strategy="Canary")
    try:
        got = util.new_rs_new_replicas(d, [], replica_set("web-new", 0))
    except ValueError as err:
        expect_equal(str(err), "deployment type Canary isn't supported", "the ValueError's message")
        return
    raise CheckFailed(f"strategy Canary: want ValueError, got {got!r}")


def new_rs_new_replicas_cases() -> list[Case]:
    rows = [
        #  name                                    strategy  replicas surge  others new want
        ("no-room-keeps-its-size",                ROLLING,  1,       1,     [5],   5,  5),
        ("grows-to-spec-replicas-not-beyond",     ROLLING,  6,       10,    [5],   2,  6),
        ("recreate-takes-spec-replicas-at-once",  RECREATE, 3,       1,     [5],   1,  3),
        ("grows-by-the-room-left",                ROLLING,  10,      0,     [5],   4,  9),
        ("25%-surge-rounds-up-to-3",              ROLLING,  10,      "25%", [12],  4,  5),
        ("over-the-surge-keeps-its-size",         ROLLING,  10,      3,     [14],  4,  4),
    ]
    return [Case(name, partial(new_replicas, strategy, r, s, o, n, want))
            for name, strategy, r, s, o, n, want in rows] + [
        Case("unknown-strategy-raises", new_replicas_unknown_strategy),
        Case("rolling-update", run_rolling_update, is_run=True),
    ]


# -- get_replica_set_fraction ---------------------------------------------------------------------------


def fraction(d_replicas: int, d_status: int, d_surge: int, rs_replicas: int, annotation: str | None,
             want: int) -> None:
    """A row of TestGetReplicaSetFraction (deployment_util_test.go)."""
    d = deployment(d_replicas, d_surge, 1, status_replicas=d_status)
    annotations = {util.MAX_REPLICAS_ANNOTATION: annotation} if annotation is not None else None
    rs = replica_set("web-1", rs_replicas, annotations=annotations)
    got = util.get_replica_set_fraction(rs, d)
    mark = f"max-replicas {annotation}" if annotation is not None else "no max-replicas annotation"
    expect_equal(got, want, f"fraction of a ReplicaSet of {rs_replicas} ({mark}) in a Deployment of {d_replicas} "
                            f"+ surge {d_surge} (status.replicas {d_status})")


def get_replica_set_fraction_cases() -> list[Case]:
    rows = [
        #  name                                          d   status surge rs  annotation want
        ("deployment-of-0-takes-everything",             0,   0,     0,    10, None,      -10),
        ("no-annotation-and-no-status-moves-nothing",    10,  0,     0,    5,  None,      0),
        ("annotation-0-and-no-status-moves-nothing",     10,  0,     0,    5,  "0",       0),
        ("no-annotation-falls-back-to-status-replicas",  120, 100,   0,    50, None,      10),
        ("annotation-0-falls-back-to-status-replicas",   120, 100,   0,    50, "0",       10),
        ("up-by-a-fifth",                                120, 0,     0,    50, "100",     10),
        ("up-by-about-a-fifth-with-surge",               120, 0,     10,   50, "110",     9),
        ("down-by-a-sixth",                              10,  0,     0,    6,  "12",      -1),
        ("down-by-about-a-sixth-with-surge",             100, 0,     10,   50, "130",     -8),
        # ours: 7.5, 2.5 and 1.5 pods, each rounded half away from zero (Go's RoundToInt32)
        ("7.5-rounds-up-to-8",                           10,  0,     2,    5,  "8",       3),
        ("2.5-rounds-up-to-3",                           5,   0,     0,    5,  "10",      -2),
        ("1.5-rounds-up-to-2",                           2,   0,     0,    3,  "4",       -1),
    ]
    return [Case(name, partial(fraction, *row)) for name, *row in rows] + [
        Case("proportional-scaling", run_proportional_scaling, is_run=True),
    ]


# -- RollingMixin.reconcile_new_replica_set ---------------------------------------------------------


def reconcile_new(replicas: int, max_surge: int, old: int, new: int, want: int | None) -> None:
    """A row of TestDeploymentController_reconcileNewReplicaSet (rolling_test.go); want None: no scaling."""
    dc, client = controller()
    new_rs, old_rs = replica_set("web-new", new), replica_set("web-old", old)
    d = deployment(replicas, max_surge, 0)
    scaled = dc.reconcile_new_replica_set([new_rs, old_rs], new_rs, d)
    situation = f"{replicas} replicas, maxSurge {max_surge}, old {old}, new {new}"
    if want is None:
        expect_equal((scaled, updates(client)), (False, []), f"(scaled, updates sent) for {situation}")
        return
    expect_equal((scaled, updates(client)), (True, [("web-new", want)]), f"(scaled, updates sent) for {situation}")


def reconcile_new_replica_set_cases() -> list[Case]:
    rows = [
        #  name                                 replicas surge old new want
        ("no-surge-no-room",                    10,      0,    10, 0,  None),
        ("surge-2-over-10-old",                 10,      2,    10, 0,  2),
        ("surge-2-over-5-old-grows-to-7",       10,      2,    5,  0,  7),
        ("surge-used-up",                       10,      2,    10, 2,  None),
        ("above-spec-scales-down-at-once",      10,      2,    2,  11, 10),
        ("at-spec-replicas-does-nothing",       10,      2,    0,  10, None),
    ]
    return [Case(name, partial(reconcile_new, *row)) for name, *row in rows] + [
        Case("rolling-update", run_rolling_update, is_run=True),
    ]


# -- RollingMixin.reconcile_old_replica_sets ----------------------------------------------------------


def reconcile_old(replicas: int, max_unavailable: int, max_surge: int, olds: list[tuple[int, int]],
                  new: tuple[int, int], want_scaled: bool, want_updates: list[tuple[str, int]]) -> None:
    """After TestDeploymentController_reconcileOldReplicaSets: olds and new are (spec.replicas, available).

    The old ReplicaSets are web-old0, web-old1, ..., oldest first.
    """
    dc, client = controller()
    old_rss = [replica_set(f"web-old{i}", n, a, hours_old=10 - i) for i, (n, a) in enumerate(olds)]
    new_rs = replica_set("web-new", new[0], new[1])
    d = deployment(replicas, max_surge, max_unavailable)
    scaled = dc.reconcile_old_replica_sets([*old_rss, new_rs], list(old_rss), new_rs, d)
    situation = (f"{replicas} replicas, maxUnavailable {max_unavailable}, maxSurge {max_surge}, old (replicas, "
                 f"available) {olds}, new {new}")
    expect_equal((scaled, updates(client)), (want_scaled, want_updates), f"(scaled, updates sent) for {situation}")


def reconcile_old_replica_sets_cases() -> list[Case]:
    rows: list[tuple[Any, ...]] = [
        #  name                                        replicas unavail surge olds            new     scaled updates
        ("zero-fenceposts-still-allow-one",            10, 0, 0, [(10, 10)],         (0, 0), True,
         [("web-old0", 9)]),
        ("max-unavailable-2",                          10, 2, 0, [(10, 10)],         (0, 0), True,
         [("web-old0", 8)]),
        ("unhealthy-old-pods-go-first",                10, 2, 0, [(10, 8)],          (0, 0), True,
         [("web-old0", 8)]),
        ("one-unhealthy-then-one-available",           10, 2, 0, [(10, 9)],          (0, 0), True,
         [("web-old0", 9), ("web-old0", 8)]),
        ("unavailable-new-pods-block-scale-down",      10, 2, 0, [(8, 8)],           (2, 0), False, []),
        ("worked-example-broken-new-template",         10, 2, 3, [(8, 8)],           (5, 0), False, []),
        ("broken-new-template-keeps-unhealthy-old",    10, 2, 3, [(8, 6)],           (5, 0), False, []),
        ("third-template-frees-room",                  10, 2, 3, [(8, 8), (5, 0)],   (0, 0), True,
         [("web-old1", 0)]),
        ("unhealthy-first-then-oldest-available",      10, 2, 3, [(3, 3), (4, 2)],   (6, 6), True,
         [("web-old1", 2), ("web-old0", 0)]),
        ("nothing-old-left",                           10, 2, 3, [(0, 0)],           (10, 10), False, []),
    ]
    return [Case(name, partial(reconcile_old, *row)) for name, *row in rows] + [
        Case("rolling-update", run_rolling_update, is_run=True),
        Case("proportional-scaling", run_proportional_scaling, is_run=True),
    ]


# -- the chapter ----------------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p3",
    title_en="P3 The Deployment controller",
    title_zh="P3 Deployment 控制器",
    reading_map="p3-deployment.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="resolve_fenceposts",
            target=f"{DEPLOYMENT}.util.deployment_util.resolve_fenceposts",
            go_symbol="ResolveFenceposts (pkg/controller/deployment/util/deployment_util.go)",
            goal_en="Turn maxSurge and maxUnavailable (numbers or percentages) into pod counts, so that a rollout "
                    "can always take a step.",
            goal_zh="把 maxSurge 和 maxUnavailable（整数或百分比）换算成 Pod 数，并保证滚动更新总能迈出一步。",
            hint_en="None counts as 0; a percentage of surge rounds up, one of unavailability rounds down; if both "
                    "end at 0, unavailability becomes 1; a malformed percentage raises ValueError.",
            hint_zh="None 当作 0；surge 的百分比向上取整，unavailable 的百分比向下取整；两者都是 0 时把 unavailable "
                    "设为 1；格式不对的百分比抛出 ValueError。",
            cases=resolve_fenceposts_cases,
            runs=("rolling-update",),
        ),
        Exercise(
            name="new_rs_new_replicas",
            target=f"{DEPLOYMENT}.util.deployment_util.new_rs_new_replicas",
            go_symbol="NewRSNewReplicas (pkg/controller/deployment/util/deployment_util.go)",
            goal_en="The size the new ReplicaSet may have now: grow it by the room maxSurge leaves over all "
                    "ReplicaSets, never past spec.replicas (Recreate: spec.replicas at once).",
            goal_zh="新 ReplicaSet 现在可以有多大：在所有 ReplicaSet 之上按 maxSurge 留下的余量扩容，"
                    "但不超过 spec.replicas（Recreate 直接取 spec.replicas）。",
            hint_en="room = spec.replicas + maxSurge (percentages round up) - the pods all ReplicaSets ask for; no "
                    "room keeps the current size; grow by min(room, spec.replicas - current); an unknown strategy "
                    "is a ValueError.",
            hint_zh="余量 = spec.replicas + maxSurge（百分比向上取整）- 所有 ReplicaSet 要求的 Pod 数；没有余量就保持"
                    "原大小；增加 min(余量, spec.replicas - 当前大小)；未知的策略抛出 ValueError。",
            cases=new_rs_new_replicas_cases,
            runs=("rolling-update",),
        ),
        Exercise(
            name="reconcile_new_replica_set",
            target=f"{DEPLOYMENT}.rolling.RollingMixin.reconcile_new_replica_set",
            go_symbol="DeploymentController.reconcileNewReplicaSet (pkg/controller/deployment/rolling.go)",
            goal_en="The scale-up move of a rolling update: bring the new ReplicaSet toward spec.replicas within the "
                    "surge budget, or straight down to it when it is above.",
            goal_zh="滚动更新的扩容一步：在 surge 预算之内让新 ReplicaSet 向 spec.replicas 靠近；"
                    "比 spec.replicas 大时直接缩到它。",
            hint_en="Equal: return False without any API call. Above: scale to spec.replicas. Below: scale to "
                    "util.new_rs_new_replicas(...). Both through self.scale_replica_set_and_record_event; return "
                    "its `scaled`.",
            hint_zh="相等：不发任何 API 请求，返回 False。偏大：缩到 spec.replicas。偏小：扩到 "
                    "util.new_rs_new_replicas(...)。都通过 self.scale_replica_set_and_record_event，返回它给出的 scaled。",
            cases=reconcile_new_replica_set_cases,
            runs=("rolling-update",),
        ),
        Exercise(
            name="reconcile_old_replica_sets",
            target=f"{DEPLOYMENT}.rolling.RollingMixin.reconcile_old_replica_sets",
            go_symbol="DeploymentController.reconcileOldReplicaSets (pkg/controller/deployment/rolling.go)",
            goal_en="The scale-down move of a rolling update: take old pods away only as far as availability "
                    "allows, unhealthy ones first.",
            goal_zh="滚动更新的缩容一步：只在可用性允许的范围内减少旧 Pod，先减不健康的。",
            hint_en="maxScaledDown = all pods - (spec.replicas - maxUnavailable) - the new ReplicaSet's unavailable "
                    "pods; at or below 0, return False; then cleanup_unhealthy_replicas, then "
                    "scale_down_old_replica_sets_for_rolling_update; an error in either means False.",
            hint_zh="maxScaledDown = 所有 Pod - (spec.replicas - maxUnavailable) - 新 ReplicaSet 中不可用的 Pod；"
                    "不大于 0 就返回 False；然后先 cleanup_unhealthy_replicas，再 "
                    "scale_down_old_replica_sets_for_rolling_update；任何一步出错都返回 False。",
            cases=reconcile_old_replica_sets_cases,
            runs=("rolling-update", "proportional-scaling"),
        ),
        Exercise(
            name="get_replica_set_fraction",
            target=f"{DEPLOYMENT}.util.deployment_util.get_replica_set_fraction",
            go_symbol="getReplicaSetFraction (pkg/controller/deployment/util/deployment_util.go)",
            goal_en="Proportional scaling: how many replicas one ReplicaSet gains or loses when a Deployment is "
                    "resized in the middle of a rollout, so that it keeps its share.",
            goal_zh="按比例扩缩：Deployment 在滚动更新中途被改了副本数时，一个 ReplicaSet 增加或减少多少副本，"
                    "才能保持它原来的份额。",
            hint_en="A Deployment of 0 takes all; the old maximum is the max-replicas annotation (else "
                    "status.replicas; 0 means no change); round(rs * (replicas + maxSurge) / old maximum) - rs, "
                    "rounding half away from zero.",
            hint_zh="Deployment 为 0 时全部拿走；旧的最大值取 max-replicas 注解（没有就用 status.replicas，"
                    "为 0 则不变）；结果是 round(rs × (replicas + maxSurge) / 旧最大值) - rs，四舍五入（远离零）。",
            cases=get_replica_set_fraction_cases,
            runs=("proportional-scaling",),
        ),
    ),
)
"""The `p3` chapter's row of minikcm.exercises.EXERCISES."""
