"""No upstream twin. Chapter P5's figures, drawn from the StatefulSet scenarios (seed 1).

- draw_ordered_pods (`statefulset-ordered`): one lane per ordinal, the pod's
  Pending, Running-not-ready, ready and terminating spans, through the
  creation of 3 pods, the scale to 5 and the scale to 2. Each pod starts only
  once the one before it is ready; on the way down, each goes only once the
  one above it is gone.
- draw_partition_revisions (`statefulset-partition`): one lane per ordinal,
  coloured by the ControllerRevision the pod was made from (rev1, rev2),
  through a new image under partition 3, a pod deleted below the partition
  and the partition lowered to 0.

Both read the scenario's series: `web-<i>` (the pod's state), `web-<i> revision`
(its revision, `rev<N>`) and `current revision`, plus the script's commands
(the `scenario/<name>` trace lines) for the dashed rules.

Start reading at: segments, then draw_ordered_pods.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import ModuleType

from minikcm.sim.scenarios import ScenarioResult, run_scenario

from .svg import Bar, Legend, Mark, Rule, lanes_chart

SEED = 1
ORDERED, PARTITION = "statefulset-ordered", "statefulset-partition"
ORDINALS = 5
"""Lanes web-0 .. web-4 (the scenarios sample these five)."""

WORDS = {
    "zh": {
        "ordered_title": "statefulset-ordered：每个序号上的 Pod（OrderedReady）",
        "partition_title": "statefulset-partition：每个序号上的 Pod 来自哪个修订版本",
        "time": "时间（秒，假时钟）",
        "rule": "{t:g} 秒：{what}",
        "pending": "Pending",
        "running": "Running，未就绪",
        "ready": "就绪",
        "terminating": "终止中",
        "instant": "刚就绪就被删",
        "rev_ready": "{rev}（{image}），就绪",
        "not_ready": "未就绪（浅色）",
        "current": "{t:g} 秒：status.currentRevision 变为 {rev}",
        "at": "{t:g} 秒",
        "create": "创建，{n} 个副本",
        "scale": "扩缩到 {n}",
        "set_image": "set image {image}",
        "delete": "delete pod {pod}",
        "partition": "partition 改为 {n}",
    },
    "en": {
        "ordered_title": "statefulset-ordered: the pod at each ordinal (OrderedReady)",
        "partition_title": "statefulset-partition: which revision each ordinal's pod was made from",
        "time": "time (s, fake clock)",
        "rule": "{t:g} s: {what}",
        "pending": "Pending",
        "running": "Running, not ready",
        "ready": "ready",
        "terminating": "terminating",
        "instant": "deleted the instant it was ready",
        "rev_ready": "{rev} ({image}), ready",
        "not_ready": "not ready (pale)",
        "current": "{t:g} s: status.currentRevision becomes {rev}",
        "at": "{t:g} s",
        "create": "create, {n} replicas",
        "scale": "scale to {n}",
        "set_image": "set image {image}",
        "delete": "delete pod {pod}",
        "partition": "partition set to {n}",
    },
}

STATE_COLOURS = {"Pending": "#e65100", "Running": "#00838f", "Ready": "#2e7d32", "Terminating": "#c62828"}
REVISION_COLOURS = {"rev1": "#3f51b5", "rev2": "#e65100"}
IMAGES = {"rev1": "web:v1", "rev2": "web:v2"}


@functools.lru_cache(maxsize=2)
def result(name: str) -> ScenarioResult:
    """One run per scenario and build, shared by the figures."""
    return run_scenario(name, seed=SEED)


@dataclass(frozen=True)
class Segment:
    """One span of one ordinal: from `start` to `end`, the pod was in `state` at `revision`."""

    start: float
    end: float
    state: str
    revision: str


def points(run: ScenarioResult, series: str) -> list[tuple[float, str]]:
    """A series' points as (seconds, text); a missing series reads as no pod at all."""
    return [(float(t), str(v)) for t, v in run.series.get(series, [(0.0, "-")])]


def value_at(values: list[tuple[float, str]], t: float) -> str:
    """The last value set at or before `t` (the step-chart reading of a series)."""
    current = "-"
    for when, value in values:
        if when > t:
            break
        current = value
    return current


def segments(run: ScenarioResult, ordinal: int, end: float) -> list[Segment]:
    """The spans of ordinal `ordinal` with a pod, split wherever its state or its revision changes.

    A span that starts and ends at the same instant (ready, then deleted at
    once) is kept with zero length; the figures draw it as a dot.
    """
    states = points(run, f"web-{ordinal}")
    revisions = points(run, f"web-{ordinal} revision")
    out: list[Segment] = []
    # Both series' points in time order (at one instant: revision changes first, then states,
    # each in its own order), so two changes at one instant stay two changes.
    changes = sorted([(t, i, "state", v) for i, (t, v) in enumerate(states)]
                     + [(t, i, "revision", v) for i, (t, v) in enumerate(revisions)],
                     key=lambda c: (c[0], c[2] == "state", c[1]))
    state, revision = "-", "-"
    opened: tuple[float, str, str] | None = None
    for t, _, kind, value in changes:
        if kind == "state":
            state = value
        else:
            revision = value
        if opened is not None:
            out.append(Segment(opened[0], t, opened[1], opened[2]))
        opened = (t, state, revision) if state != "-" else None
    if opened is not None:
        out.append(Segment(opened[0], max(end, opened[0]), opened[1], opened[2]))
    # Two changes at one instant leave a zero-length span between them; the only one worth
    # drawing is a pod that was ready for no time at all.
    return [s for s in out if s.end > s.start or s.state == "Ready"]


def script_lines(run: ScenarioResult) -> list[tuple[float, str]]:
    """What the script typed (the `scenario/<name>` trace lines) with their times."""
    return [((e.time - run.start).total_seconds(), e.detail) for e in run.trace
            if e.step == f"scenario/{run.name}"]


def short_command(words: dict[str, str], text: str) -> str:
    """The script's command in a few words of the figure's language."""
    parts = text.split()
    if parts[:1] == ["create"]:
        n = next((p for p in parts if p.isdigit()), "?")
        return words["create"].format(n=n)
    if parts[:2] == ["kubectl", "scale"]:
        return words["scale"].format(n=parts[-1].split("=")[-1])
    if parts[:3] == ["kubectl", "set", "image"]:
        return words["set_image"].format(image=parts[-1].split("=")[-1])
    if parts[:3] == ["kubectl", "delete", "pod"]:
        return words["delete"].format(pod=parts[3])
    if parts[:2] == ["kubectl", "patch"] and '"partition":' in text:
        return words["partition"].format(n=text.split('"partition":')[1].split("}")[0])
    return text


def end_time(run: ScenarioResult) -> float:
    """A little after the last change of any series."""
    return max(float(t) for values in run.series.values() for t, _ in values) + 2.0


def draw_ordered_pods(lang: str, charts: ModuleType) -> str:
    """One lane per ordinal: Pending, Running but not ready, ready, terminating; the script's commands as rules."""
    words = WORDS[lang]
    run = result(ORDERED)
    end = end_time(run)
    bars: list[Bar] = []
    marks: list[Mark] = []
    for lane in range(ORDINALS):
        for seg in segments(run, lane, end):
            colour = STATE_COLOURS.get(seg.state, charts.INK)
            if seg.end <= seg.start:
                marks.append(Mark(lane, seg.start, "dot", colour))
                continue
            bars.append(Bar(lane, seg.start, seg.end, colour, light=seg.state != "Ready"))
    rules = [Rule(t, words["rule"].format(t=t, what=short_command(words, text)), charts.INK)
             for t, text in script_lines(run)]
    legend = Legend([("window", STATE_COLOURS["Pending"], words["pending"]),
                     ("window", STATE_COLOURS["Running"], words["running"]),
                     ("bar", STATE_COLOURS["Ready"], words["ready"]),
                     ("window", STATE_COLOURS["Terminating"], words["terminating"]),
                     ("dot", STATE_COLOURS["Ready"], words["instant"])])
    return lanes_chart(charts, words["ordered_title"], words["time"], [f"web-{i}" for i in range(ORDINALS)],
                       end, bars=bars, marks=marks, rules=rules, legend=legend, lane_height=34)


def draw_partition_revisions(lang: str, charts: ModuleType) -> str:
    """One lane per ordinal, each span coloured by the pod's revision; pale until ready, red while terminating."""
    words = WORDS[lang]
    run = result(PARTITION)
    end = end_time(run)
    bars: list[Bar] = []
    for lane in range(ORDINALS):
        for seg in segments(run, lane, end):
            if seg.end <= seg.start:
                continue
            if seg.state == "Terminating":
                bars.append(Bar(lane, seg.start, seg.end, STATE_COLOURS["Terminating"], light=True))
                continue
            colour = REVISION_COLOURS.get(seg.revision, charts.INK)
            bars.append(Bar(lane, seg.start, seg.end, colour, label=seg.revision, light=seg.state != "Ready"))
    rules = [Rule(t, words["rule"].format(t=t, what=short_command(words, text)), charts.INK)
             for t, text in script_lines(run)[1:]]
    legend = Legend([("bar", REVISION_COLOURS[rev], words["rev_ready"].format(rev=rev, image=IMAGES[rev]))
                     for rev in ("rev1", "rev2")]
                    + [("window", REVISION_COLOURS["rev1"], words["not_ready"]),
                       ("window", STATE_COLOURS["Terminating"], words["terminating"])])
    # The set's currentRevision flipping: a coloured rule with only its time on top (it sits near
    # the right edge), explained in the legend.
    current = points(run, "current revision")
    first = value_at(current, 0.0)
    for t, rev in current:
        if rev not in ("-", first):
            colour = REVISION_COLOURS.get(rev, charts.INK)
            rules.append(Rule(t, words["at"].format(t=t), colour))
            legend.entries.append(("tick", colour, words["current"].format(t=t, rev=rev)))
    rules.sort(key=lambda r: r.x)
    return lanes_chart(charts, words["partition_title"], words["time"], [f"web-{i}" for i in range(ORDINALS)],
                       end, bars=bars, rules=rules, legend=legend, lane_height=34)
