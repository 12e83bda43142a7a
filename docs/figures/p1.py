"""No upstream twin. Chapter P1's figures, drawn from the `leader-failover` scenario (seed 1).

- draw_lease_holder: who the Lease names and who leads, across the crash, with
  each follower's 15 s window measured from when *it* last saw the Lease change.
- draw_attempts: every acquire and renew attempt before the crash, one lane per
  candidate, with the gaps between a follower's attempts written on top (the
  1.2 jitter of the retry period).

Everything is read from the scenario's result: the series `lease holder` and
`<candidate> is leader`, and the trace lines the electors record
(`leaderelection/<who>/acquire` or `/renew`, with what they decided).

Start reading at: failover, then draw_lease_holder.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import ModuleType

from minikcm.sim.scenarios import ScenarioResult, run_scenario
from minikcm.sim.scenarios.leader import LEASE_DURATION

from .svg import Bar, Bracket, Legend, Mark, Rule, lanes_chart

SCENARIO, SEED = "leader-failover", 1
ATTEMPT = re.compile(r"^leaderelection/(?P<who>[^/]+)/(?P<loop>acquire|renew)$")

WORDS = {
    "zh": {
        "holder_title": "leader-failover：Lease 的持有者，与每个热备眼中的 15 秒",
        "attempts_title": "崩溃之前：领导者每 2 秒续约，热备每 2–4.4 秒重试",
        "axis": "时间（秒，假时钟）",
        "holder_lane": "Lease 持有者",
        "leading": "领导中",
        "window": "{seen:.2f} + 15 = {until:.2f} 秒",
        "crashed": "{who} 崩溃，未释放租约",
        "stopped": "{who} 停止领导",
        "took_over": "{who} 接管（{t:.2f} 秒）",
        "legend_leading": "领导中（on_started_leading 之后）",
        "legend_window": "最后一次看到变化后的 15 秒（本地时钟）",
        "legend_failed": "抢锁失败",
        "legend_acquired": "抢到锁",
        "legend_renewed": "续约成功",
        "legend_crash": "崩溃",
        "gap": "{gap:.1f}",
    },
    "en": {
        "holder_title": "leader-failover: who the Lease names, and each standby's own 15 s",
        "attempts_title": "Before the crash: the leader renews every 2 s, standbys retry every 2 to 4.4 s",
        "axis": "time (s, fake clock)",
        "holder_lane": "Lease holder",
        "leading": "leading",
        "window": "{seen:.2f} + 15 = {until:.2f} s",
        "crashed": "{who} crashes, lease not released",
        "stopped": "{who} stops leading",
        "took_over": "{who} takes over ({t:.2f} s)",
        "legend_leading": "leading (after on_started_leading)",
        "legend_window": "15 s after the last change it saw (its own clock)",
        "legend_failed": "acquire attempt fails",
        "legend_acquired": "acquires the lock",
        "legend_renewed": "renews",
        "legend_crash": "crash",
        "gap": "{gap:.1f}",
    },
}
CRASH_COLOUR = "#c62828"


@dataclass(frozen=True)
class Attempt:
    """One decision an elector recorded in the trace."""

    t: float
    who: str
    loop: str      # "acquire" or "renew"
    detail: str    # "lease held by 'kcm-a'", "became leader", "renewed", ...
    index: int     # position in the trace, to order attempts made at the same instant


@dataclass(frozen=True)
class Failover:
    """What the figures need from one run of the scenario."""

    result: ScenarioResult
    candidates: list[str]
    end: float
    leading: dict[str, list[tuple[float, float]]]   # who -> intervals while it led
    holder: list[tuple[float, float, str]]            # (start, end, holder) of the Lease
    attempts: list[Attempt]
    crash: tuple[str, float, bool] | None             # (who, when, crashed rather than stopped)


@functools.lru_cache(maxsize=1)
def failover() -> Failover:
    """Run the scenario once per build and pull out lanes, intervals and attempts."""
    result = run_scenario(SCENARIO, seed=SEED)
    start = result.start
    end = (result.trace[-1].time - start).total_seconds()
    candidates = sorted(name[: -len(" is leader")] for name in result.series if name.endswith(" is leader"))
    leading = {who: intervals(result.series[f"{who} is leader"], end) for who in candidates}
    holder = [(a, b, str(v)) for a, b, v in segments(result.series["lease holder"], end) if v]
    attempts = []
    for index, entry in enumerate(result.trace):
        match = ATTEMPT.match(entry.step)
        if match and entry.detail:
            attempts.append(Attempt((entry.time - start).total_seconds(), match["who"], match["loop"],
                                    entry.detail, index))
    crash = None
    for who in candidates:
        for _, stop in leading[who]:
            if stop < end:
                stopped = any(a.who == who and "stopped" in a.detail and abs(a.t - stop) < 1e-6 for a in attempts)
                crash = (who, stop, not stopped)
    return Failover(result, candidates, end, leading, holder, attempts, crash)


def segments(points: list[tuple[float, object]], end: float) -> list[tuple[float, float, object]]:
    """A step series as (start, end, value) pieces; a value holds until the next point."""
    pieces = []
    for i, (t, value) in enumerate(points):
        stop = points[i + 1][0] if i + 1 < len(points) else end
        if stop > t or i + 1 == len(points):
            pieces.append((t, stop, value))
    return pieces


def intervals(points: list[tuple[float, object]], end: float) -> list[tuple[float, float]]:
    """The spans where a 0/1 series is 1."""
    return [(a, b) for a, b, v in segments(points, end) if v == 1]


def colour_of(charts: ModuleType, run: Failover, who: str) -> str:
    return charts.SERIES_COLOURS[run.candidates.index(who) % len(charts.SERIES_COLOURS)]


def draw_lease_holder(lang: str, charts: ModuleType) -> str:
    """The whole run: the Lease's holder, who leads, the crash, and each follower's own 15 s."""
    words, run = WORDS[lang], failover()
    lanes = [words["holder_lane"], *run.candidates]
    bars, marks, brackets, rules = [], [], [], []
    for start, stop, who in run.holder:
        bars.append(Bar(0, start, stop, colour_of(charts, run, who), who))
    for i, who in enumerate(run.candidates, start=1):
        for start, stop in run.leading[who]:
            bars.append(Bar(i, start, stop, colour_of(charts, run, who), words["leading"]))
    if run.crash is not None:
        crashed, at, is_crash = run.crash
        lane = run.candidates.index(crashed) + 1
        marks.append(Mark(lane, at, "cross", CRASH_COLOUR))
        rules.append(Rule(at, words["crashed" if is_crash else "stopped"].format(who=crashed), CRASH_COLOUR))
        last_renewal = max((a.index for a in run.attempts if a.who == crashed and a.detail == "renewed"), default=-1)
        for i, who in enumerate(run.candidates, start=1):
            if who == crashed:
                continue
            seen = next((a for a in run.attempts if a.who == who and a.index > last_renewal), None)
            if seen is None:
                continue
            colour = colour_of(charts, run, who)
            bars.append(Bar(i, seen.t, seen.t + LEASE_DURATION, colour, light=True))
            brackets.append(Bracket(i, seen.t, seen.t + LEASE_DURATION,
                                    words["window"].format(seen=seen.t, until=seen.t + LEASE_DURATION)))
            for a in run.attempts:
                if a.who == who and a.loop == "acquire" and a.t >= seen.t:
                    marks.append(Mark(i, a.t, "diamond" if a.detail == "became leader" else "ring", colour))
        winner = next(((who, s) for who in run.candidates for s, _ in run.leading[who] if s > at), None)
        if winner is not None:
            rules.append(Rule(winner[1], words["took_over"].format(who=winner[0], t=winner[1]),
                              colour_of(charts, run, winner[0])))
    legend = Legend([
        ("bar", charts.INK, words["legend_leading"]),
        ("window", charts.INK, words["legend_window"]),
        ("ring", charts.INK, words["legend_failed"]),
        ("diamond", charts.INK, words["legend_acquired"]),
        ("cross", CRASH_COLOUR, words["legend_crash"]),
    ])
    return lanes_chart(charts, words["holder_title"], words["axis"], lanes, run.end,
                       bars=bars, marks=marks, brackets=brackets, rules=rules, legend=legend)


def draw_attempts(lang: str, charts: ModuleType) -> str:
    """Up to the crash: every attempt, one lane per candidate; the gaps between a standby's tries."""
    words, run = WORDS[lang], failover()
    until = run.crash[1] if run.crash is not None else run.end
    marks, brackets = [], []
    for i, who in enumerate(run.candidates):
        colour = colour_of(charts, run, who)
        mine = [a for a in run.attempts if a.who == who and a.t <= until]
        for a in mine:
            if a.detail == "became leader":
                shape = "diamond"
            elif a.detail == "renewed":
                shape = "dot"
            elif "failed" in a.detail:
                shape = "cross"
            elif "stopped" in a.detail:
                shape = "square"
            else:
                shape = "ring"
            marks.append(Mark(i, a.t, shape, colour))
        tries = [a.t for a in mine if a.loop == "acquire" and a.detail != "became leader"]
        for earlier, later in zip(tries, tries[1:]):
            brackets.append(Bracket(i, earlier, later, words["gap"].format(gap=later - earlier)))
    legend = Legend([
        ("ring", charts.INK, words["legend_failed"]),
        ("diamond", charts.INK, words["legend_acquired"]),
        ("dot", charts.INK, words["legend_renewed"]),
    ])
    return lanes_chart(charts, words["attempts_title"], words["axis"], run.candidates, until,
                       marks=marks, brackets=brackets, legend=legend, lane_height=54)
