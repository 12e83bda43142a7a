"""No upstream twin. The `wait` chapter's figures.

- draw_backoff_delays: what `Backoff.step()` returns call after call, from part 1
  of the `wait-backoff` scenario (seed 1), beside a Backoff whose growth stops
  because its steps run out rather than at a cap.
- draw_until_timelines: `until` (sliding) against `non_sliding_until` for a
  function whose run time varies, both run here on the scenario's JumpingClock;
  and the calls of `jitter_until` from part 3 of the scenario.

Start reading at: draw_until_timelines, then run_loop.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import replace
from types import ModuleType

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH
from minikcm.sim.scenarios import ScenarioResult, run_scenario
from minikcm.sim.scenarios.wait import BACKOFF, JITTER_FACTOR, JITTER_PERIOD, JumpingClock

from .svg import Bar, Bracket, Legend, Mark, lanes_chart, points_chart

SCENARIO, SEED = "wait-backoff", 1
STEPS_RUN_OUT = wait.Backoff(duration=1.0, factor=2.0, steps=4)
"""The comparison Backoff: no cap, no jitter; growth stops when its 4 steps are spent."""
PERIOD = 2.0
WORK = (0.5, 1.5, 3.0, 1.0, 0.5, 2.5, 0.8)
"""How long f runs on each call in the sliding / non-sliding comparison (seconds)."""

WORDS = {
    "zh": {
        "delays_title": "Backoff.step() 每次返回的延迟",
        "delays_x": "第几次调用 step()",
        "delays_y": "秒",
        "delay": "返回的延迟：{b}",
        "base": "同一个 Backoff 的基础时长 duration（不含抖动）",
        "steps": "对照：{b}，步数用完即停止增长",
        "until_title": "f 的运行时间不同时：until、non_sliding_until 与 jitter_until",
        "axis": "时间（秒，假时钟）",
        "sliding": "until：f 返回后再等 2 秒",
        "non_sliding": "non_sliding_until：每 2 秒开始一次",
        "jitter": "jitter_until：2–4.4 秒",
        "legend_f": "f 在运行",
        "legend_call": "调用 f（瞬间返回）",
    },
    "en": {
        "delays_title": "What Backoff.step() returns, call after call",
        "delays_x": "call of step()",
        "delays_y": "seconds",
        "delay": "delay returned: {b}",
        "base": "the same Backoff's base duration (no jitter)",
        "steps": "for comparison: {b}, growth stops when steps run out",
        "until_title": "When f's run time varies: until, non_sliding_until and jitter_until",
        "axis": "time (s, fake clock)",
        "sliding": "until: 2 s after f returns",
        "non_sliding": "non_sliding_until: starts every 2 s",
        "jitter": "jitter_until: 2 to 4.4 s",
        "legend_f": "f running",
        "legend_call": "f called (returns at once)",
    },
}


@functools.lru_cache(maxsize=1)
def scenario() -> ScenarioResult:
    return run_scenario(SCENARIO, seed=SEED)


def describe(b: wait.Backoff) -> str:
    """`Backoff(1, ×2, jitter 0.1, steps 8, cap 20)`: the parameters that matter, short."""
    parts = [f"{b.duration:g}", f"×{b.factor:g}"]
    if b.jitter:
        parts.append(f"jitter {b.jitter:g}")
    parts.append(f"steps {b.steps}")
    if b.cap:
        parts.append(f"cap {b.cap:g}")
    return "Backoff(" + ", ".join(parts) + ")"


def draw_backoff_delays(lang: str, charts: ModuleType) -> str:
    """Delay per call of step(): jittered and capped (the scenario), its base, and a steps-limited Backoff."""
    words, result = WORDS[lang], scenario()
    delays = [(n, v) for n, (_, v) in enumerate(result.series["Backoff.step delay (s)"], start=1)]
    bases = [(n, v) for n, (_, v) in enumerate(result.series["Backoff duration (s)"], start=1)]
    limited = replace(STEPS_RUN_OUT)
    steps_out = [(n, limited.step()) for n in range(1, len(delays) + 1)]
    series = {
        words["delay"].format(b=describe(BACKOFF)): delays,
        words["base"]: bases,
        words["steps"].format(b=describe(STEPS_RUN_OUT)): steps_out,
    }
    return points_chart(charts, words["delays_title"], words["delays_x"], words["delays_y"], series,
                        shapes=("dot", "ring", "square"), dashed=(False, True, False))


def run_loop(loop: Callable[..., None]) -> list[tuple[float, float]]:
    """Run `until` or `non_sliding_until` over WORK on a JumpingClock; return f's (start, end) runs."""
    clock = JumpingClock(EPOCH)
    stop = threading.Event()
    runs: list[tuple[float, float]] = []

    def f() -> None:
        start = clock.since(EPOCH)
        clock.step(WORK[len(runs)])  # f "works" for this long: fake time moves on
        runs.append((start, clock.since(EPOCH)))
        if len(runs) == len(WORK):
            stop.set()

    loop(f, PERIOD, stop, clock)
    return runs


def jitter_calls(result: ScenarioResult) -> list[float]:
    """When jitter_until called its function in part 3 of the scenario, from the first call."""
    times = [(e.time - result.start).total_seconds() for e in result.trace
             if e.step == "wait/jitter-until" and e.detail.startswith("call ")]
    return [t - times[0] for t in times]


def draw_until_timelines(lang: str, charts: ModuleType) -> str:
    """Three lanes: f's runs under until and non_sliding_until, and jitter_until's calls."""
    words = WORDS[lang]
    sliding = run_loop(wait.until)
    non_sliding = run_loop(wait.non_sliding_until)
    calls = jitter_calls(scenario())
    colours = charts.SERIES_COLOURS
    bars, marks, brackets = [], [], []
    for start, end in sliding:
        bars.append(Bar(0, start, end, colours[0]))
    for (_, end), (start, _) in zip(sliding, sliding[1:]):
        brackets.append(Bracket(0, end, start, f"{start - end:.1f}"))
    for start, end in non_sliding:
        bars.append(Bar(1, start, end, colours[1]))
    for (start, _), (later, _) in zip(non_sliding, non_sliding[1:]):
        brackets.append(Bracket(1, start, later, f"{later - start:.1f}"))
    for t in calls:
        marks.append(Mark(2, t, "tick", colours[2]))
    for earlier, later in zip(calls, calls[1:]):
        brackets.append(Bracket(2, earlier, later, f"{later - earlier:.1f}"))
    x_max = max(sliding[-1][1], non_sliding[-1][1], calls[-1])
    legend = Legend([
        ("bar", charts.INK, words["legend_f"]),
        ("tick", colours[2], words["legend_call"]),
    ])
    title = words["until_title"]
    lanes = [words["sliding"], words["non_sliding"], words["jitter"]]
    assert JITTER_PERIOD == PERIOD and JITTER_FACTOR == 1.2, "the lane labels assume the scenario's jitter_until"
    return lanes_chart(charts, title, words["axis"], lanes, x_max, bars=bars, marks=marks,
                       brackets=brackets, legend=legend, lane_height=58)
