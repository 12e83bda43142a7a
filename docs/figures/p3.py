"""No upstream twin. Chapter P3's figures, drawn from the Deployment scenarios (seed 1).

- draw_rolling_steps (`rolling-update`): every scale decision of the rollout,
  in order, with both ReplicaSets' spec.replicas and their sum against the
  surge bound (10 + maxSurge 3).
- draw_proportional (`proportional-scaling`): the stuck rollout (8 old, 5 new)
  and what scaling the Deployment to 30 does to each ReplicaSet.
- draw_recreate_gap (`recreate`): a lane for each revision's pods and one for
  availability; nothing serves from the scale-down of the old ReplicaSet
  until the new pods are ready.

The rolling-update figure reads the Deployment controller's decisions from the
trace lines the scenario narrates (`rs  new rs web-768c (rev2) with 3
replicas`, `rs  scale down rs web-7c6f (rev1) from 10 to 8`); the other two
read the scenario's series (the proportional one as a step chart).

Start reading at: rolling_decisions, then draw_rolling_steps.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import ModuleType

from minikcm.sim.scenarios import ScenarioResult, run_scenario

from .svg import Bar, Bracket, Legend, Rule, lanes_chart, points_chart

SEED = 1
NEW_RS = re.compile(r"^new rs \S+ \(rev(?P<rev>\d+)\) with (?P<to>\d+) replicas$")
SCALE_RS = re.compile(r"^scale (?:up|down) rs \S+ \(rev(?P<rev>\d+)\) from (?P<frm>\d+) to (?P<to>\d+)$")
SET_IMAGE = "kubectl set image"

WORDS = {
    "zh": {
        "rolling_title": "rolling-update：每一次扩缩容决定之后，两个 ReplicaSet 的 spec.replicas",
        "decision": "第几次扩缩容决定（0：刚改完镜像）",
        "replicas": "副本数",
        "old": "旧 ReplicaSet（rev1）",
        "new": "新 ReplicaSet（rev2）",
        "old_short": "旧 ReplicaSet（rev1）",
        "new_short": "新 ReplicaSet（rev2）",
        "sum": "两者之和",
        "bound": "上限 13 = 10 + maxSurge 3",
        "prop_title": "proportional-scaling：卡在 8 + 5 的滚动更新，在 62 秒时被扩到 30",
        "time": "时间（秒，假时钟）",
        "desired": "Deployment spec.replicas",
        "total": "Pod 对象（含终止中的）",
        "recreate_title": "recreate：旧 Pod 全部消失之后，新 ReplicaSet 才被创建",
        "old_lane": "rev1 的 4 个 Pod",
        "new_lane": "rev2 的 4 个 Pod",
        "available": "可用副本",
        "running": "运行、就绪",
        "terminating": "终止中（{s:g} 秒宽限期）",
        "starting": "启动中",
        "ready": "就绪",
        "gap": "没有可用副本：{s:g} 秒",
        "set_image": "{t:g} 秒：改镜像，rev1 缩到 0",
        "old_gone": "{t:g} 秒：旧 Pod 走光，建 rev2",
        "legend_bar": "Pod 在运行（可用副本：个数）",
        "legend_window": "过渡中（终止或启动）",
    },
    "en": {
        "rolling_title": "rolling-update: both ReplicaSets' spec.replicas after each scale decision",
        "decision": "scale decision (0: just after the image changed)",
        "replicas": "replicas",
        "old": "old ReplicaSet (rev1)",
        "new": "new ReplicaSet (rev2)",
        "old_short": "old RS (rev1)",
        "new_short": "new RS (rev2)",
        "sum": "sum of both",
        "bound": "bound 13 = 10 + maxSurge 3",
        "prop_title": "proportional-scaling: a rollout stuck at 8 + 5, scaled to 30 at 62 s",
        "time": "time (s, fake clock)",
        "desired": "Deployment spec.replicas",
        "total": "pods, terminating too",
        "recreate_title": "recreate: the new ReplicaSet is made only once every old pod is gone",
        "old_lane": "rev1's 4 pods",
        "new_lane": "rev2's 4 pods",
        "available": "available replicas",
        "running": "running, ready",
        "terminating": "terminating ({s:g} s grace period)",
        "starting": "starting",
        "ready": "ready",
        "gap": "no replica available: {s:g} s",
        "set_image": "{t:g} s: new image, rev1 to 0",
        "old_gone": "{t:g} s: old pods gone, rev2 made",
        "legend_bar": "pods running (available replicas: how many)",
        "legend_window": "in transition (terminating or starting)",
    },
}


@functools.lru_cache(maxsize=None)
def result(name: str) -> ScenarioResult:
    """One run per scenario and build (the figures of a scenario share it)."""
    return run_scenario(name, seed=SEED)


@dataclass(frozen=True)
class Decision:
    """The two ReplicaSets' spec.replicas right after one scale decision of the Deployment controller."""

    t: float
    old: int
    new: int


def rolling_decisions() -> list[Decision]:
    """From `kubectl set image` on: the state after each `rs` line of the trace (rev1 old, rev2 new)."""
    run = result("rolling-update")
    sizes = {1: 0, 2: 0}
    decisions: list[Decision] = []
    started = False
    for entry in run.trace:
        t = (entry.time - run.start).total_seconds()
        if entry.detail.startswith(SET_IMAGE):
            started = True
            decisions.append(Decision(t, sizes[1], sizes[2]))
            continue
        if entry.step != "rs":
            continue
        match = NEW_RS.match(entry.detail) or SCALE_RS.match(entry.detail)
        if match is None:
            continue
        sizes[int(match["rev"])] = int(match["to"])
        if started:
            decisions.append(Decision(t, sizes[1], sizes[2]))
    if not decisions:
        raise ValueError("rolling-update: no `kubectl set image` in the trace")
    return decisions


def draw_rolling_steps(lang: str, charts: ModuleType) -> str:
    """Old and new spec.replicas and their sum, decision by decision, under the surge bound."""
    words = WORDS[lang]
    decisions = rolling_decisions()
    series = {
        words["old"]: [(float(i), float(d.old)) for i, d in enumerate(decisions)],
        words["new"]: [(float(i), float(d.new)) for i, d in enumerate(decisions)],
        words["sum"]: [(float(i), float(d.old + d.new)) for i, d in enumerate(decisions)],
        words["bound"]: [(0.0, 13.0), (float(len(decisions) - 1), 13.0)],
    }
    return points_chart(charts, words["rolling_title"], words["decision"], words["replicas"], series,
                        shapes=("dot", "square", "ring", "tick"), dashed=(False, False, True, True))


def step_series(run: ScenarioResult, name: str) -> list[tuple[float, float]]:
    """A scenario series as (x, y) floats, for the hook's step chart."""
    return [(float(t), float(v)) for t, v in run.series[name]]


def draw_proportional(lang: str, charts: ModuleType) -> str:
    """Each ReplicaSet's spec.replicas, the Deployment's, and the pods there are, over the whole run."""
    words, run = WORDS[lang], result("proportional-scaling")
    series = {
        words["old_short"]: step_series(run, "rs rev1 replicas"),
        words["new_short"]: step_series(run, "rs rev2 replicas"),
        words["desired"]: step_series(run, "desired replicas"),
        words["total"]: step_series(run, "total pods"),
    }
    return charts.step_chart(words["prop_title"], words["time"], words["replicas"], series, width=760)


def first_time(points: list[tuple[float, object]], predicate, after: float = 0.0) -> float:
    """The first x at or after `after` whose value satisfies `predicate`.

    Raises:
        ValueError: no such point (the scenario changed its story).
    """
    for t, v in points:
        if t >= after and predicate(v):
            return float(t)
    raise ValueError("no point satisfies the predicate")


def draw_recreate_gap(lang: str, charts: ModuleType) -> str:
    """One lane per revision's pods and one for availability: the gap where nothing serves."""
    words, run = WORDS[lang], result("recreate")
    end = max((e.time - run.start).total_seconds() for e in run.trace) + 3.0  # room to show the new pods ready
    t_set = next((e.time - run.start).total_seconds() for e in run.trace if e.detail.startswith(SET_IMAGE))
    t_old_gone = first_time(run.series["rev1 pods"], lambda v: v == 0, after=t_set)
    t_new = first_time(run.series["rs rev2 replicas"], lambda v: v > 0)
    final_available = run.series["available pods"][-1][1]
    t_available = first_time(run.series["available pods"], lambda v: v == final_available, after=t_new)
    old, new, gap = charts.SERIES_COLOURS[0], charts.SERIES_COLOURS[1], "#c62828"
    lanes = [words["old_lane"], words["new_lane"], words["available"]]
    bars = [
        Bar(0, 0.0, t_set, old, words["running"]),
        Bar(0, t_set, t_old_gone, old, words["terminating"].format(s=t_old_gone - t_set), light=True),
        Bar(1, t_new, t_available, new, words["starting"], light=True),
        Bar(1, t_available, end, new, words["ready"]),
        Bar(2, t_available, end, charts.SERIES_COLOURS[2], str(final_available)),
    ]
    brackets = [Bracket(2, t_set, t_available, words["gap"].format(s=t_available - t_set))]
    rules = [
        Rule(t_set, words["set_image"].format(t=t_set), charts.INK),
        Rule(t_old_gone, words["old_gone"].format(t=t_old_gone), gap),
    ]
    legend = Legend([("bar", charts.INK, words["legend_bar"]), ("window", charts.INK, words["legend_window"])])
    return lanes_chart(charts, words["recreate_title"], words["time"], lanes, end, bars=bars,
                       brackets=brackets, rules=rules, legend=legend, lane_height=50)
