"""No upstream twin. The checks of the `wait` exercises (chapter `wait`).

Table rows run the functions on a `JumpingClock` (the wait-backoff
scenario's clock, whose sleeps and timer waits jump to their deadline) with
random draws fixed in advance, so every expected time is exact. The run of the
port is the `wait-backoff` scenario; each exercise reads the part of its result
that its function shapes. Loops that could run for ever (a candidate ignoring
its stop event) are cut off by a Budget.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH
from minikcm.exercises.base import Budget, Case, Chapter, CheckFailed, Exercise, FixedDraws, expect, expect_equal
from minikcm.sim.scenarios import ScenarioResult, get_scenario
from minikcm.sim.scenarios.wait import JumpingClock, WaitBackoff

WAIT = "minikcm.apimachinery.wait"


def seconds_since_epoch(times: list[datetime]) -> list[float]:
    return [round((t - EPOCH).total_seconds(), 6) for t in times]


def approx(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


# -- the run of the port: the wait-backoff scenario --------------------------------------------


def play_wait_backoff(seed: int = 1) -> tuple[ScenarioResult, WaitBackoff]:
    """Play `wait-backoff` with budgets on the two functions a runaway loop would call for ever."""
    run = get_scenario("wait-backoff").build(seed)
    scenario: WaitBackoff = run.objects["scenario"]
    tick, server_is_back = scenario.tick, scenario.server_is_back
    tick_budget = Budget(100, "jitter_until's function")
    try_budget = Budget(100, "exponential_backoff's condition")

    def guarded_tick() -> None:
        tick_budget.spend()
        tick()

    def guarded_server_is_back() -> bool:
        try_budget.spend()
        return server_is_back()

    scenario.tick = guarded_tick  # type: ignore[method-assign]  # the check's guard, this Run only
    scenario.server_is_back = guarded_server_is_back  # type: ignore[method-assign]
    return run.run(), scenario


def values(result: ScenarioResult, series: str) -> list[float]:
    return [float(v) for _, v in result.series.get(series, [])]


def check_backoff_part(result: ScenarioResult) -> None:
    """Part 1: the base doubles 1, 2, 4, 8, 16, then sticks at the 20 s cap; each delay is the base plus up to 10 %."""
    bases = values(result, "Backoff duration (s)")
    expect_equal(bases, [1.0, 2.0, 4.0, 8.0, 16.0, 20.0, 20.0, 20.0, 20.0, 20.0], "Backoff duration before each step")
    delays = values(result, "Backoff.step delay (s)")
    for base, d in zip(bases, delays, strict=True):
        expect(base <= d <= base * 1.1 + 1e-6, f"Backoff.step delay {d} is outside [{base}, {base * 1.1}]")
    expect(len(set(delays)) > len(set(bases)), "the delays are not jittered (each should differ a little)")


def check_exponential_part(result: ScenarioResult) -> None:
    """Part 2: tries 0.5, 1.5 and 4.5 s apart, success on the 4th."""
    expect_equal(values(result, "exponential_backoff gap (s)"), [0.5, 1.5, 4.5], "gaps between the tries")
    expect("exponential_backoff succeeded on try 4" in result.events,
           f"want the event 'exponential_backoff succeeded on try 4'; events: {result.events}")


def check_jitter_until_part(result: ScenarioResult) -> None:
    """Part 3: 8 calls, every period in [2, 4.4] s, and not all alike."""
    periods = values(result, "jitter_until period (s)")
    expect_equal(len(periods), 7, "number of periods between the 8 calls")
    for p in periods:
        expect(2.0 <= p <= 4.4 + 1e-6, f"jitter_until period {p} s is outside [2, 4.4] s")
    expect(len(set(periods)) > 1, "every period is the same: the periods are not jittered")
    expect("jitter_until stopped after 8 calls" in result.events,
           f"want the event 'jitter_until stopped after 8 calls'; events: {result.events}")


def run_wait_backoff(*parts: Callable[[ScenarioResult], None]) -> None:
    result, _ = play_wait_backoff()
    for part in parts:
        part(result)


# -- jitter --------------------------------------------------------------------------------------

JITTER_CASES = [
    # id,                               duration, max_factor, draws,   want
    ("draw-0-gives-the-duration",       10.0,     0.5,        (0.0,),  10.0),
    ("draw-half",                       10.0,     0.5,        (0.5,),  12.5),
    ("draw-near-1-reaches-the-top",     2.0,      1.2,        (0.999,), 2.0 + 0.999 * 1.2 * 2.0),
    ("zero-factor-means-1",             4.0,      0.0,        (0.25,), 5.0),
    ("negative-factor-means-1",         4.0,      -1.0,       (0.5,),  6.0),
]


def jitter_row(duration: float, max_factor: float, draws: tuple[float, ...], want: float) -> None:
    rng = FixedDraws(*draws)
    got = wait.jitter(duration, max_factor, rng)
    expect(approx(got, want), f"jitter({duration}, {max_factor}) with a draw of {draws[0]}: want {want}, got {got}")
    expect_equal(rng.used, 1, "random numbers drawn")


def jitter_without_rng() -> None:
    for _ in range(20):
        got = wait.jitter(1.0, 1.0)
        expect(1.0 <= got <= 2.0, f"jitter(1.0, 1.0) without an rng gave {got}, outside [1, 2]")


def jitter_cases() -> list[Case]:
    cases = [Case(i, partial(jitter_row, d, f, draws, want)) for i, d, f, draws, want in JITTER_CASES]
    cases.append(Case("no-rng-uses-jitter_rand", jitter_without_rng))
    cases.append(Case("wait-backoff: Backoff delays and jitter_until periods",
                      partial(run_wait_backoff, check_backoff_part, check_jitter_until_part), is_run=True))
    return cases


# -- delay (Backoff.step) ------------------------------------------------------------------------

DELAY_CASES = [
    # id,                                steps, duration, cap, factor, jitter, draws,   want (delay, next, steps)
    ("no-steps-left-keeps-the-duration", 0,     5.0,      0.0, 2.0,    0.0,    (),      (5.0, 5.0, 0)),
    ("negative-steps-as-none-left",      -1,    2.0,      0.0, 2.0,    0.0,    (),      (2.0, 2.0, 0)),
    ("no-steps-left-jitters-the-delay",  0,     5.0,      0.0, 2.0,    0.5,    (0.5,),  (6.25, 5.0, 0)),
    ("grows-by-the-factor",              3,     1.0,      0.0, 2.0,    0.0,    (),      (1.0, 2.0, 2)),
    ("zero-factor-keeps-the-duration",   3,     1.0,      0.0, 0.0,    0.0,    (),      (1.0, 1.0, 2)),
    ("cap-ends-the-growth",              3,     2.0,      3.0, 2.0,    0.0,    (),      (2.0, 3.0, 0)),
    ("reaching-the-cap-exactly-is-fine", 3,     1.5,      3.0, 2.0,    0.0,    (),      (1.5, 3.0, 2)),
    ("jitter-is-not-fed-back",           2,     1.0,      0.0, 2.0,    0.1,    (1.0,),  (1.1, 2.0, 1)),
]


def delay_row(steps: int, duration: float, cap: float, factor: float, jitter_factor: float,
              draws: tuple[float, ...], want: tuple[float, float, int]) -> None:
    got = wait.delay(steps, duration, cap, factor, jitter_factor, FixedDraws(*draws))
    ok = (len(got) == 3 and approx(got[0], want[0]) and approx(got[1], want[1]) and got[2] == want[2])
    expect(ok, f"delay(steps={steps}, duration={duration}, cap={cap}, factor={factor}, jitter={jitter_factor}): "
               f"want (delay, next duration, steps) = {want}, got {got}")


def backoff_step_sequence() -> None:
    """The example of Backoff's docstring: duration 1, factor 2, 3 steps, cap 3 steps as 1, 2, 3, 3."""
    backoff = wait.Backoff(duration=1.0, factor=2.0, steps=3, cap=3.0)
    got = [backoff.step() for _ in range(4)]
    expect_equal(got, [1.0, 2.0, 3.0, 3.0], "Backoff(duration=1, factor=2, steps=3, cap=3).step() x4")
    expect_equal(backoff.steps, 0, "steps left after reaching the cap")


def delay_cases() -> list[Case]:
    cases = [Case(i, partial(delay_row, s, d, c, f, j, draws, want))
             for i, s, d, c, f, j, draws, want in DELAY_CASES]
    cases.append(Case("Backoff.step-1-2-3-3", backoff_step_sequence))
    cases.append(Case("wait-backoff: Backoff.step and exponential_backoff",
                      partial(run_wait_backoff, check_backoff_part, check_exponential_part), is_run=True))
    return cases


# -- backoff_until ---------------------------------------------------------------------------------


class Calls:
    """The function a loop calls: records the clock time of each call, takes `cost` seconds, stops after `stop_after`."""

    def __init__(self, clock: JumpingClock, stop: threading.Event, stop_after: int, cost: float = 0.0,
                 fail_on: int = 0) -> None:
        self.clock = clock
        self.stop = stop
        self.stop_after = stop_after
        self.cost = cost
        self.fail_on = fail_on
        self.times: list[datetime] = []
        self.budget = Budget(100, "the loop's function")

    def __call__(self) -> None:
        self.budget.spend()
        self.times.append(self.clock.now())
        if self.fail_on and len(self.times) == self.fail_on:
            raise ValueError("f failed")
        if self.cost:
            self.clock.step(self.cost)
        if len(self.times) >= self.stop_after:
            self.stop.set()


def loop_row(loop: str, stop_first: bool, stop_after: int, cost: float, want: list[float]) -> None:
    clock = JumpingClock(EPOCH)
    stop = threading.Event()
    if stop_first:
        stop.set()
    f = Calls(clock, stop, stop_after, cost)
    if loop == "until":
        wait.until(f, 2.0, stop, clock)
    else:
        wait.non_sliding_until(f, 2.0, stop, clock)
    expect_equal(seconds_since_epoch(f.times), want, f"{loop}(f, period=2 s): seconds at which f was called")


def error_propagates() -> None:
    clock = JumpingClock(EPOCH)
    stop = threading.Event()
    f = Calls(clock, stop, stop_after=10, fail_on=2)
    try:
        wait.until(f, 1.0, stop, clock)
    except ValueError:
        expect_equal(len(f.times), 2, "calls before the exception ended the loop")
        return
    raise CheckFailed("f raised ValueError on its 2nd call; want it to propagate out of the loop")


def jittered_periods() -> None:
    clock = JumpingClock(EPOCH)
    stop = threading.Event()
    f = Calls(clock, stop, stop_after=6)
    wait.jitter_until(f, 2.0, 1.2, True, stop, clock, random.Random(7))
    times = seconds_since_epoch(f.times)
    expect_equal(len(times), 6, "calls before f set stop")
    for a, b in zip(times, times[1:], strict=False):
        expect(2.0 <= b - a <= 4.4 + 1e-6, f"jitter_until(period=2, jitter=1.2): a period of {b - a} s")


BACKOFF_UNTIL_CASES = [
    # id,                                   loop,                stop first, stop after, f takes, want call times
    ("stopped-before-start-never-calls-f",  "until",             True,       3,          0.0,     []),
    ("stop-set-by-f-ends-the-loop",         "until",             False,      1,          0.0,     [0.0]),
    ("sliding-waits-after-f",               "until",             False,      3,          1.0,     [0.0, 3.0, 6.0]),
    ("non-sliding-counts-f's-own-time",     "non_sliding_until", False,      3,          1.0,     [0.0, 2.0, 4.0]),
]


def backoff_until_cases() -> list[Case]:
    cases = [Case(i, partial(loop_row, loop, first, after, cost, want))
             for i, loop, first, after, cost, want in BACKOFF_UNTIL_CASES]
    cases.append(Case("an-exception-from-f-propagates", error_propagates))
    cases.append(Case("jitter_until-periods-in-[2,4.4]", jittered_periods))
    cases.append(Case("wait-backoff: jitter_until", partial(run_wait_backoff, check_jitter_until_part), is_run=True))
    return cases


# -- exponential_backoff ------------------------------------------------------------------------------


def exponential_row(fields: dict[str, float], succeed_on: int, raise_on: int, want_tries: list[float],
                    want_end: float, want_outcome: str) -> None:
    backoff = wait.Backoff(**fields)  # type: ignore[arg-type]
    clock = JumpingClock(EPOCH)
    tries: list[datetime] = []
    budget = Budget(100, "the condition")
    caller_copy = wait.Backoff(**fields)  # type: ignore[arg-type]

    def condition() -> bool:
        budget.spend()
        tries.append(clock.now())
        if raise_on and len(tries) == raise_on:
            raise ValueError("condition failed")
        return bool(succeed_on) and len(tries) >= succeed_on

    try:
        wait.exponential_backoff(backoff, condition, clock)
        outcome = "returned"
    except wait.WaitTimeoutError:
        outcome = "WaitTimeoutError"
    except ValueError:
        outcome = "ValueError"
    what = f"exponential_backoff({backoff!r})"
    expect_equal(outcome, want_outcome, f"{what}: how it ended")
    expect_equal(seconds_since_epoch(tries), want_tries, f"{what}: seconds at which the condition was tried")
    expect_equal(round(clock.since(EPOCH), 6), want_end, f"{what}: seconds slept in all")
    expect_equal(backoff, caller_copy, f"{what}: the caller's Backoff afterwards (it must not change)")


EXPONENTIAL_CASES = [
    # id,                               Backoff fields,                               ok on, raise on, tries,          end,  outcome
    ("never-true-gives-up-after-steps", dict(duration=1.0, factor=2.0, steps=3),      0,     0,        [0.0, 1.0, 3.0], 3.0, "WaitTimeoutError"),
    ("true-on-the-second-try",          dict(duration=1.0, factor=2.0, steps=3),      2,     0,        [0.0, 1.0],      1.0, "returned"),
    ("an-exception-propagates",         dict(duration=1.0, factor=2.0, steps=3),      0,     1,        [0.0],           0.0, "ValueError"),
    ("zero-steps-never-tries",          dict(duration=1.0, factor=2.0, steps=0),      0,     0,        [],              0.0, "WaitTimeoutError"),
    ("a-capped-step-is-the-last-wait",  dict(duration=1.0, factor=10.0, steps=5, cap=5.0), 0, 0,       [0.0],           1.0, "WaitTimeoutError"),
    ("no-factor-tries-evenly",          dict(duration=2.0, steps=4),                  0,     0,        [0.0, 2.0, 4.0, 6.0], 6.0, "WaitTimeoutError"),
]


def exponential_backoff_cases() -> list[Case]:
    cases = [Case(i, partial(exponential_row, fields, ok, bad, tries, end, outcome))
             for i, fields, ok, bad, tries, end, outcome in EXPONENTIAL_CASES]
    cases.append(Case("wait-backoff: exponential_backoff", partial(run_wait_backoff, check_exponential_part),
                      is_run=True))
    return cases


# -- the chapter ----------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="wait",
    title_en="The wait library",
    title_zh="wait 轮询库",
    reading_map="wait.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="jitter",
            target=f"{WAIT}.jitter",
            go_symbol="Jitter (k8s.io/apimachinery/pkg/util/wait/wait.go)",
            goal_en="Spread a duration at random over [d, d x (1 + max_factor)], drawing once per call.",
            goal_zh="把一个时长随机拉长到 [d, d×(1+max_factor)] 之间，每次调用只抽一个随机数。",
            hint_en="A non-positive max_factor means 1.0. The result is duration + draw x max_factor x duration, "
                    "with the draw from rng.random() or, without an rng, wait.jitter_rand().",
            hint_zh="max_factor 不大于 0 时按 1.0 处理。结果是 duration + 随机数 × max_factor × duration；"
                    "有 rng 用 rng.random()，没有就用 wait.jitter_rand()。",
            cases=jitter_cases,
            runs=("wait-backoff",),
        ),
        Exercise(
            name="delay",
            target=f"{WAIT}.delay",
            go_symbol="delay (k8s.io/apimachinery/pkg/util/wait/backoff.go), behind Backoff.Step",
            goal_en="Compute one step of a Backoff: this delay, the next duration and the steps left.",
            goal_zh="算出 Backoff 的一步：这一次的延迟、下一次的基准时长、剩下的步数。",
            hint_en="Multiply by the factor while steps remain; a product above a positive cap becomes the cap "
                    "and zeroes the steps; jitter lengthens only the delay returned now.",
            hint_zh="还有步数时乘以 factor；超过（正的）cap 就取 cap 并把 steps 清零；"
                    "抖动只加在这一次返回的延迟上，不能带进下一次的时长。",
            cases=delay_cases,
            runs=("wait-backoff",),
        ),
        Exercise(
            name="backoff_until",
            target=f"{WAIT}.backoff_until",
            go_symbol="BackoffUntil (k8s.io/apimachinery/pkg/util/wait/backoff.go)",
            goal_en="The loop behind until and jitter_until: call f, wait as the backoff says, until stop is set.",
            goal_zh="until 与 jitter_until 背后的循环：调用 f，按 backoff 给的时长等待，直到 stop 被设置。",
            hint_en="Check stop before every call, so a stopped loop never calls f again. Non-sliding takes the "
                    "timer before f, sliding after. timer.wait(stop) returns False when stop won.",
            hint_zh="每一轮调用 f 之前先看 stop，停下之后绝不再调用 f。non-sliding 在调用 f 之前取计时器，"
                    "sliding 在之后取。timer.wait(stop) 返回 False 表示 stop 先到。",
            cases=backoff_until_cases,
            runs=("wait-backoff",),
        ),
        Exercise(
            name="exponential_backoff",
            target=f"{WAIT}.exponential_backoff",
            go_symbol="ExponentialBackoff (k8s.io/apimachinery/pkg/util/wait/backoff.go)",
            goal_en="Retry a condition with growing sleeps, at most `steps` tries, on a copy of the Backoff.",
            goal_zh="用越来越长的间隔重试一个条件，最多试 steps 次，改动的是 Backoff 的副本。",
            hint_en="No sleep after the last try; a step cut by the cap leaves no steps, so nothing is tried "
                    "after sleeping it. Raise WaitTimeoutError when the tries run out.",
            hint_zh="最后一次尝试之后不再睡；被 cap 截断的那一步把 steps 清零，睡完它就不再尝试。"
                    "试完仍不成立时抛出 WaitTimeoutError。",
            cases=exponential_backoff_cases,
            runs=("wait-backoff",),
        ),
    ),
)
"""The `wait` chapter's row of minikcm.exercises.EXERCISES."""
