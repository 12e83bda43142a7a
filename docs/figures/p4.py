"""No upstream twin. Chapter P4's figures, drawn from the `replicaset-scale` scenario (seed 1).

- draw_slow_start: every pod create the ReplicaSet controller sent, one lane
  per sync that created pods, grouped into the slow-start batches the
  scenario read off slow_start_batch's `batch_size` (1, then 1 and 2, then 1,
  2 and 4).
- draw_pod_lives: one lane per pod, its Pending, Running-not-ready, ready
  and terminating spans, through the scale-up to 10, the scale-down to 2
  (the not-ready pods go first) and the replacement of a deleted pod.

Both read the scenario's trace: the lines of its narrated pod control
(`replicaset/pod-control  create pod web-x2k4q (slow-start batch of 2)`), the
kubelet's and the API's lines about each pod (`pod web-x2k4q ready`) and the
script's commands.

Start reading at: create_syncs, then draw_slow_start.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import ModuleType

from minikcm.sim.scenarios import ScenarioResult, run_scenario

from .svg import Bar, Bracket, Legend, Mark, Rule, lanes_chart

SCENARIO, SEED = "replicaset-scale", 1
CREATE = re.compile(r"^create pod (?P<pod>\S+) \(slow-start batch of (?P<batch>\d+)\)$")
POD_CONTROL = "replicaset/pod-control"

WORDS = {
    "zh": {
        "slow_title": "replicaset-scale：每次同步的创建请求，按慢启动批次分组",
        "slow_axis": "这次同步里的第几个创建请求",
        "lane": "{t:g} 秒：建 {n} 个",
        "batch": "批次 {size}",
        "legend_create": "一个创建请求（同一批内并发）",
        "lives_title": "replicaset-scale：每个 Pod 的一生（扩到 10，缩到 2，删掉一个）",
        "time": "时间（秒，假时钟）",
        "rule": "{t:g} 秒：{what}",
        "pending": "Pending",
        "running": "Running，未就绪",
        "ready": "就绪",
        "terminating": "终止中",
        "instant": "刚 Running（未就绪）就被删",
    },
    "en": {
        "slow_title": "replicaset-scale: each sync's pod creates, grouped into slow-start batches",
        "slow_axis": "create request within the sync",
        "lane": "{t:g} s: {n} to create",
        "batch": "batch of {size}",
        "legend_create": "one create request (those of one batch run concurrently)",
        "lives_title": "replicaset-scale: each pod's life (scale to 10, to 2, delete one)",
        "time": "time (s, fake clock)",
        "rule": "{t:g} s: {what}",
        "pending": "Pending",
        "running": "Running, not ready",
        "ready": "ready",
        "terminating": "terminating",
        "instant": "deleted the instant it ran (not ready)",
    },
}


@functools.lru_cache(maxsize=1)
def result() -> ScenarioResult:
    """One run per build, shared by both figures."""
    return run_scenario(SCENARIO, seed=SEED)


@dataclass(frozen=True)
class CreateSync:
    """The creates one sync sent, at one fake instant, as the sizes of its batches in order."""

    t: float
    batches: list[int]

    @property
    def count(self) -> int:
        return sum(self.batches)


def create_syncs() -> list[CreateSync]:
    """Group the narrated creates by instant, then into batches: a batch of N is the next N creates.

    Raises:
        ValueError: the trace has no batch labels (a slow_start_batch without a `batch_size` local).
    """
    run = result()
    by_time: dict[float, list[int]] = {}
    for entry in run.trace:
        if entry.step != POD_CONTROL:
            continue
        match = CREATE.match(entry.detail)
        if match is not None:
            by_time.setdefault((entry.time - run.start).total_seconds(), []).append(int(match["batch"]))
    syncs = []
    for t in sorted(by_time):
        labels, batches, i = by_time[t], [], 0
        while i < len(labels):
            batches.append(labels[i])
            i += labels[i]
        syncs.append(CreateSync(t, batches))
    if not syncs:
        raise ValueError(f"{SCENARIO}: no labelled creates in the trace")
    return syncs


def draw_slow_start(lang: str, charts: ModuleType) -> str:
    """One lane per creating sync; a mark per create; a bracket over each batch."""
    words = WORDS[lang]
    syncs = create_syncs()
    lanes = [words["lane"].format(t=s.t, n=s.count) for s in syncs]
    marks, brackets = [], []
    for lane, sync in enumerate(syncs):
        colour = charts.SERIES_COLOURS[lane % len(charts.SERIES_COLOURS)]
        first = 1
        for size in sync.batches:
            for k in range(first, first + size):
                marks.append(Mark(lane, float(k), "dot", colour))
            brackets.append(Bracket(lane, first - 0.35, first + size - 0.65, words["batch"].format(size=size)))
            first += size
    x_max = max(s.count for s in syncs) + 0.5
    legend = Legend([("dot", charts.INK, words["legend_create"])])
    return lanes_chart(charts, words["slow_title"], words["slow_axis"], lanes, x_max, marks=marks,
                       brackets=brackets, legend=legend, lane_height=58)


POD_LINE = re.compile(r"^pod (?P<pod>\S+) (?P<what>created|Running|ready|terminating|is gone)\b")
STAGES = ("created", "Running", "ready", "terminating", "is gone")
"""A pod's stages in the trace, in the order they happen; each bar runs from one to the next seen."""


@dataclass
class PodLife:
    """When one pod reached each stage (seconds since the start), as the trace tells it."""

    name: str
    times: dict[str, float]


def pod_lives() -> list[PodLife]:
    """Every pod of the run, in order of creation (then name), with the time of each stage."""
    run = result()
    lives: dict[str, PodLife] = {}
    for entry in run.trace:
        match = POD_LINE.match(entry.detail)
        if match is None:
            continue
        life = lives.setdefault(match["pod"], PodLife(match["pod"], {}))
        life.times.setdefault(match["what"], (entry.time - run.start).total_seconds())
    return sorted(lives.values(), key=lambda p: (p.times.get("created", 0.0), p.name))


def script_lines() -> list[tuple[float, str]]:
    """What the script typed (the `scenario/...` trace lines), after the first one, with their times."""
    run = result()
    lines = [((e.time - run.start).total_seconds(), e.detail) for e in run.trace
             if e.step == f"scenario/{SCENARIO}"]
    return lines[1:]


def draw_pod_lives(lang: str, charts: ModuleType) -> str:
    """One lane per pod: Pending, Running but not ready, ready, terminating; the script's commands as rules."""
    words = WORDS[lang]
    lives = pod_lives()
    end = max(t for life in lives for t in life.times.values()) + 2.0
    colours = {"created": "#e65100", "Running": "#00838f", "ready": "#2e7d32", "terminating": "#c62828"}
    bars, marks = [], []
    for lane, life in enumerate(lives):
        seen = [(life.times[s], s) for s in STAGES if s in life.times]
        for (start, stage), nxt in zip(seen, seen[1:] + [(end, "")]):
            if stage == "is gone":
                continue
            if nxt[0] <= start:  # left this stage at the instant it reached it: a dot, not a bar
                marks.append(Mark(lane, start, "dot", colours[stage]))
                continue
            bars.append(Bar(lane, start, nxt[0], colours[stage], light=stage != "ready"))
    rules = [Rule(t, words["rule"].format(t=t, what=short_command(text)), charts.INK) for t, text in script_lines()]
    legend = Legend([("window", colours["created"], words["pending"]),
                     ("window", colours["Running"], words["running"]),
                     ("bar", colours["ready"], words["ready"]),
                     ("window", colours["terminating"], words["terminating"]),
                     ("dot", colours["Running"], words["instant"])])
    return lanes_chart(charts, words["lives_title"], words["time"], [life.name for life in lives], end,
                       bars=bars, marks=marks, rules=rules, legend=legend, lane_height=26)


def short_command(text: str) -> str:
    """`kubectl scale replicaset/web --replicas=2 (7 pods are not ready yet)` -> `scale --replicas=2`."""
    words = text.split()
    if len(words) >= 2 and words[0] == "kubectl":
        rest = [w for w in words[2:] if w.startswith("--") or w.startswith("web-")]
        return " ".join([words[1], *rest[:1]])
    return text
