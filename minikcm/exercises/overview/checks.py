"""No upstream twin. The checks of the overview (startup) exercises (chapter `overview`).

Table rows port upstream's TestIsControllerEnabled (controller-manager
app/helper_test.go) and part of Go's parseDurationTests and
parseDurationErrorTests (src/time/time_test.go); the resync rows use random
draws fixed in advance. The run of the port is a startup: kube-controller-
manager's flags parsed by the real options, one ControllerManager under the
deterministic driver that wins the election and builds its controllers. The
controllers are stand-ins with the real registry's names, aliases and
defaults, so the run shows which controllers the flags turn on without
starting real control loops.

Start reading at: CHAPTER, then play_startup.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing import Fake
from minikcm.clock import EPOCH, FakeClock
from minikcm.cmd.controller_manager import (
    ControllerDescriptor,
    ControllerManager,
    KubeControllerManagerConfiguration,
    controller_aliases,
    controllers_disabled_by_default,
    is_controller_enabled,
    known_controllers,
    new_controller_descriptors,
    new_controller_loop,
    resync_period,
)
from minikcm.cmd.controller_manager.config import CompletedConfig, Config
from minikcm.cmd.options import new_kube_controller_manager_options
from minikcm.cmd.options.duration import HOUR, MICROSECOND, MILLISECOND, MINUTE, SECOND, parse_duration_ns
from minikcm.exercises.base import Case, Chapter, CheckFailed, Exercise, FixedDraws, expect, expect_equal
from minikcm.features import DEFAULT_FEATURE_GATE
from minikcm.driver import Driver, Step

CMD = "minikcm.cmd"
STARTUP_FLAGS = [
    "--controllers=*,-deployment,bootstrapsigner",
    "--leader-elect-lease-duration=1m30s",
    "--leader-elect-renew-deadline=1m",
    "--leader-elect-retry-period=2.5s",
    "--min-resync-period=30m",
    "--controller-start-interval=500ms",
]
"""The command line of the startup run: `*` minus deployment (by alias), plus a controller that is off by default."""


# -- the run of the port: a controller manager starting up --------------------------------------------


@dataclass
class Startup:
    """What a startup run left behind."""

    manager: ControllerManager
    client: InProcessClientset
    descriptors: dict[str, ControllerDescriptor]


def stand_in_descriptors() -> dict[str, ControllerDescriptor]:
    """The real registry (names, aliases, defaults, gates), each constructor replaced by a stand-in loop."""
    def construct(ctx: Any, controller_name: str) -> Any:
        def run(stop: Any) -> None:
            stop.wait()

        def steps(stop: Any) -> list[Step]:
            return []

        return new_controller_loop(run, controller_name, steps)

    return {name: replace(d, constructor=construct) for name, d in new_controller_descriptors().items()}


def play_startup(flags: list[str] = STARTUP_FLAGS) -> Startup:
    """Parse `flags` with the real options, then run one controller manager for 30 s of fake time."""
    clock = FakeClock(EPOCH, driven=True)
    client = InProcessClientset(APIServer(clock=clock, rng=random.Random(1)), fake=Fake())
    rng = random.Random(7)
    options = new_kube_controller_manager_options()
    parser = argparse.ArgumentParser(prog="kube-controller-manager", exit_on_error=False)
    options.flags(known_controllers(), controllers_disabled_by_default(), controller_aliases(), parser=parser)
    try:
        parser.parse_args(flags)
    except (argparse.ArgumentError, SystemExit) as err:
        raise CheckFailed(f"kube-controller-manager's flags did not parse: {err}") from None
    c = options.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(),
                       client=client, clock=clock, rng=rng).complete()
    driver = Driver(clock)
    manager = ControllerManager(c, driver, identity="kcm-a", clock=clock, rng=rng,
                                new_descriptors=stand_in_descriptors)
    driver.add_all(manager.steps())
    driver.run_for(30.0)
    expect(manager.is_leader(), f"the controller manager did not lead after 30 s: {manager!r}")
    return Startup(manager, client, stand_in_descriptors())


def expected_controllers(descriptors: dict[str, ControllerDescriptor]) -> list[str]:
    """What `*,-deployment,bootstrapsigner` builds, worked out from the registry's facts alone."""
    names = []
    for name, d in sorted(descriptors.items()):
        if d.requires_special_handling() or d.is_cloud_provider_controller():
            continue
        if not all(DEFAULT_FEATURE_GATE.enabled(g) for g in d.get_required_feature_gates()):
            continue
        if name == "deployment-controller":
            continue
        if d.is_disabled_by_default() and name != "bootstrap-signer-controller":
            continue
        names.append(name)
    return names


def run_startup_controllers() -> None:
    startup = play_startup()
    built = sorted(c.name() for c in startup.manager.controllers
                   if not startup.descriptors[c.name()].requires_special_handling())
    expect_equal(built, expected_controllers(startup.descriptors), "controllers built by the startup run")
    expect_equal(sorted(startup.manager.running_controllers()), sorted(c.name() for c in startup.manager.controllers),
                 "controllers running 30 s after the start (each starts within 2 x 500 ms)")


def run_startup_durations() -> None:
    startup = play_startup()
    elector = startup.manager.elector
    assert elector is not None
    got = (elector.config.lease_duration, elector.config.renew_deadline, elector.config.retry_period)
    expect_equal(got, (90.0, 60.0, 2.5), "the elector's (lease_duration, renew_deadline, retry_period) from the flags")
    lease = startup.client.server.get("leases", "kube-system", "kube-controller-manager")
    expect_equal(lease["spec"].get("leaseDurationSeconds"), 90, "leaseDurationSeconds in the Lease")
    generic = startup.manager.c.component_config.generic
    expect_equal((generic.min_resync_period, generic.controller_start_interval), (1800.0, 0.5),
                 "(min_resync_period, controller_start_interval) from the flags")


def run_startup_resync() -> None:
    startup = play_startup()
    ctx = startup.manager.controller_ctx
    assert ctx is not None
    default_resync = ctx.informer_factory.default_resync
    expect(1800.0 <= default_resync < 3600.0,
           f"the informer factory's default resync is {default_resync} s; want [30 min, 60 min)")
    periods = [ctx.resync_period() for _ in range(20)]
    expect(all(1800.0 <= p < 3600.0 for p in periods), f"ctx.resync_period() gave {periods}; want each in [1800, 3600)")
    expect(len(set(periods)) == 20, "ctx.resync_period() must give a new period each call")


# -- is_controller_enabled -----------------------------------------------------------------------------

IS_CONTROLLER_ENABLED_CASES = [
    # id (upstream's name),                  name,      --controllers,                   disabled by default,   want
    ("on by name",                           "bravo",   ["alpha", "bravo", "-charlie"],  ["delta", "echo"],     True),
    ("off by name",                          "charlie", ["alpha", "bravo", "-charlie"],  ["delta", "echo"],     False),
    ("on by default",                        "alpha",   ["*"],                           ["delta", "echo"],     True),
    ("off by default",                       "delta",   ["*"],                           ["delta", "echo"],     False),
    ("on by star, not off by name",          "alpha",   ["*", "-charlie"],               ["delta", "echo"],     True),
    ("off by name with star",                "charlie", ["*", "-charlie"],               ["delta", "echo"],     False),
    ("off by default implicit, no star",     "foxtrot", ["alpha", "bravo", "-charlie"],  ["delta", "echo"],     False),
    ("disabled by default but named",        "delta",   ["*", "delta"],                  ["delta", "echo"],     True),
    ("first mention wins",                   "alpha",   ["-alpha", "alpha", "*"],        [],                    False),
]


def enabled_row(name: str, controllers: list[str], disabled: list[str], want: bool) -> None:
    """Port of TestIsControllerEnabled (controller-manager app/helper_test.go), one row."""
    got = is_controller_enabled(name, set(disabled), list(controllers))
    expect_equal(got, want, f"is_controller_enabled({name!r}, disabled={disabled}, controllers={controllers})")


def is_controller_enabled_cases() -> list[Case]:
    cases = [Case(i, partial(enabled_row, n, c, d, want)) for i, n, c, d, want in IS_CONTROLLER_ENABLED_CASES]
    cases.append(Case("startup: the controllers built", run_startup_controllers, is_run=True))
    return cases


# -- parse_duration_ns --------------------------------------------------------------------------------

PARSE_DURATION_CASES = [
    # Go's parseDurationTests (a selection), then flags people type.
    ("0", 0), ("5s", 5 * SECOND), ("-5s", -5 * SECOND), ("+5s", 5 * SECOND), ("-0", 0),
    ("5.6s", 5 * SECOND + 600 * MILLISECOND), ("5.s", 5 * SECOND), (".5s", 500 * MILLISECOND),
    ("1.004s", SECOND + 4 * MILLISECOND), ("100.00100s", 100 * SECOND + MILLISECOND),
    ("10ns", 10), ("11us", 11 * MICROSECOND), ("12µs", 12 * MICROSECOND), ("12μs", 12 * MICROSECOND),
    ("13ms", 13 * MILLISECOND), ("15m", 15 * MINUTE), ("16h", 16 * HOUR),
    ("3h30m", 3 * HOUR + 30 * MINUTE), ("10.5s4m", 4 * MINUTE + 10 * SECOND + 500 * MILLISECOND),
    ("-2m3.4s", -(2 * MINUTE + 3 * SECOND + 400 * MILLISECOND)),
    ("1h2m3s4ms5us6ns", HOUR + 2 * MINUTE + 3 * SECOND + 4 * MILLISECOND + 5 * MICROSECOND + 6),
    ("0.3333333333333333333h", 20 * MINUTE), ("9007199254740993ns", (1 << 53) + 1),
    ("9223372036854775807ns", (1 << 63) - 1), ("-9223372036854775808ns", -(1 << 63)),
    ("0.100000000000000000000h", 6 * MINUTE),
    ("1m30s", 90 * SECOND), ("1.5h", 90 * MINUTE), ("12h0m0s", 12 * HOUR),
]

PARSE_DURATION_ERROR_CASES = [
    # Go's parseDurationErrorTests (a selection).
    ("", 'time: invalid duration ""'),
    ("3", 'time: missing unit in duration "3"'),
    ("-", 'time: invalid duration "-"'),
    ("s", 'time: invalid duration "s"'),
    (".s", 'time: invalid duration ".s"'),
    ("1d", 'time: unknown unit "d" in duration "1d"'),
    ("1µ", 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'),
    ("9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'),
    ("-9223372036854775809ns", 'time: invalid duration "-9223372036854775809ns"'),
    ("9223372036854775807s", 'time: invalid duration "9223372036854775807s"'),
]


def parse_row(text: str, want: int) -> None:
    """Port of TestParseDuration (time/time_test.go), one row."""
    expect_equal(parse_duration_ns(text), want, f"parse_duration_ns({text!r}) in nanoseconds")


def parse_error_row(text: str, message: str) -> None:
    """Port of TestParseDurationErrors (time/time_test.go), one row."""
    try:
        got = parse_duration_ns(text)
    except ValueError as err:
        expect_equal(str(err), message, f"the ValueError of parse_duration_ns({text!r})")
        return
    raise CheckFailed(f"parse_duration_ns({text!r}) returned {got}; want ValueError {message!r}")


def parse_duration_ns_cases() -> list[Case]:
    cases = [Case(f"parse-{text or 'empty'}", partial(parse_row, text, want)) for text, want in PARSE_DURATION_CASES]
    cases += [Case(f"refuse-{text or 'empty'}", partial(parse_error_row, text, message))
              for text, message in PARSE_DURATION_ERROR_CASES]
    cases.append(Case("startup: the duration flags", run_startup_durations, is_run=True))
    return cases


# -- resync_period ---------------------------------------------------------------------------------------


def completed(min_resync: float) -> CompletedConfig:
    cc = KubeControllerManagerConfiguration()
    cc.generic.min_resync_period = min_resync
    return Config(component_config=cc).complete()


def resync_row(draws: tuple[float, ...], want: list[float]) -> None:
    period = resync_period(completed(12 * 3600.0), FixedDraws(*draws))
    expect(callable(period), f"resync_period must return a function, got {period!r}")
    got = [period() for _ in draws]
    ok = len(got) == len(want) and all(abs(g - w) < 1e-6 for g, w in zip(got, want, strict=True))
    expect(ok, f"periods (s) with min 12 h and draws {list(draws)}: want {want}, got {got}")


def resync_without_rng() -> None:
    period = resync_period(completed(12 * 3600.0))
    values = [period() for _ in range(200)]
    expect(all(12 * 3600.0 <= v < 24 * 3600.0 for v in values), "without an rng every period must lie in [12 h, 24 h)")
    expect(len(set(values)) == 200, "without an rng each call must draw a new random factor")


RESYNC_CASES = [
    # id,                       draws,            want (seconds)
    ("draw-0-gives-the-minimum", (0.0,),          [12 * 3600.0]),
    ("draw-half-gives-1.5x",     (0.5,),          [18 * 3600.0]),
    ("draw-near-1-under-2x",     (0.999,),        [12 * 3600.0 * 1.999]),
    ("each-call-draws-anew",     (0.25, 0.75),    [15 * 3600.0, 21 * 3600.0]),
]


def resync_period_cases() -> list[Case]:
    cases = [Case(i, partial(resync_row, draws, want)) for i, draws, want in RESYNC_CASES]
    cases.append(Case("no-rng-uses-the-random-module", resync_without_rng))
    cases.append(Case("startup: the informers' resync", run_startup_resync, is_run=True))
    return cases


# -- the chapter ----------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="overview",
    title_en="Overview: starting kube-controller-manager",
    title_zh="总览：kube-controller-manager 的启动",
    reading_map="overview.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="is_controller_enabled",
            target=f"{CMD}.controller_manager.controllermanager.is_controller_enabled",
            go_symbol="IsControllerEnabled (k8s.io/controller-manager/app/helper.go)",
            goal_en="Decide from --controllers whether a controller runs: `name`, `-name`, `*`, and defaults.",
            goal_zh="根据 --controllers 判断一个控制器是否运行：`name`、`-name`、`*` 以及默认关闭的控制器。",
            hint_en="The first entry naming the controller (with or without '-') decides; otherwise '*' turns on "
                    "everything not disabled by default, and without '*' nothing is on.",
            hint_zh="第一个提到该控制器的条目（带不带 '-'）说了算；否则有 '*' 时打开所有非默认关闭的控制器，"
                    "没有 '*' 时什么都不开。",
            cases=is_controller_enabled_cases,
            runs=("startup (flags, leader election, building the controllers)",),
        ),
        Exercise(
            name="parse_duration_ns",
            target=f"{CMD}.options.duration.parse_duration_ns",
            go_symbol="ParseDuration (Go's src/time/format.go), behind every duration flag",
            goal_en="Parse Go durations such as `1m30s`, `1.5h`, `-2m3.4s`, `12µs` into nanoseconds, with Go's errors.",
            goal_zh="把 `1m30s`、`1.5h`、`-2m3.4s`、`12µs` 这样的 Go 时长解析成纳秒，出错时给出 Go 原样的错误信息。",
            hint_en="Sign, then number-unit pairs; a number may be `.5` or `5.`; the unit runs to the next digit or "
                    "dot; only \"0\" may omit it; stay within int64 nanoseconds (-(1<<63) is allowed).",
            hint_zh="先是可选的符号，然后是若干“数字+单位”；数字可以写成 `.5` 或 `5.`；单位一直到下一个数字或点；"
                    "只有 \"0\" 可以不带单位；结果必须在 int64 纳秒之内（允许 -(1<<63)）。",
            cases=parse_duration_ns_cases,
            runs=("startup (the duration flags)",),
        ),
        Exercise(
            name="resync_period",
            target=f"{CMD}.controller_manager.controllermanager.resync_period",
            go_symbol="ResyncPeriod (cmd/kube-controller-manager/app/controllermanager.go)",
            goal_en="A function giving a fresh resync period in [min, 2 x min) on every call, so informers do not "
                    "relist in step.",
            goal_zh="返回一个函数，每次调用都给出 [min, 2×min) 之间的新的 resync 周期，让各个 informer 不同步地重新同步。",
            hint_en="Return a closure; draw the factor inside it (rng.random() + 1, or random.random() + 1 without "
                    "an rng) and multiply min_resync_period by it.",
            hint_zh="返回一个闭包；在闭包里面抽取因子（rng.random() + 1，没有 rng 时用 random.random() + 1），"
                    "再乘以 min_resync_period。",
            cases=resync_period_cases,
            runs=("startup (the informer factory's resync)",),
        ),
    ),
)
"""The `overview` chapter's row of minikcm.exercises.EXERCISES."""
