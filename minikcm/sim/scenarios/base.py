"""No upstream twin. What every scenario shares: `Scenario`, `Run`, `Sampler`, `ScenarioResult`.

A scenario is a short, fixed story told with the real port: build(seed) wires
the components it is about onto one `FakeClock` and one `Driver` and returns a
`Run`; `Run.run()` plays the script (a plain method that drives the driver phase
by phase: run for 30 s, crash the leader, run until someone takes over) and
returns what happened. The same name and seed give the same result, byte for
byte (shared DESIGN.md, "Determinism is a feature"): the docs draw their figures
from these results, and `minikcm demo run` prints them.

Start reading at: Run.run, then Sampler.observe.

Design notes: series. A scenario names the quantities its chapter is about
("lease holder", "cache size") as probes, plain functions returning a number or
a string. The sampler is one of the driver's observers: after every step it
reads every probe and appends a point `(seconds since start, value)` to each
series whose value changed, so a series is a step function of fake time and a
chart draws it as one. Quantities that are measurements rather than state (the
delay before a retry) are appended with `Sampler.add`, which records every
value, repeated or not. Booleans become 0 and 1 so that every series can be drawn.

The JSON lines format (`ScenarioResult.to_json_lines`, what `minikcm demo run
--trace FILE` writes), one JSON object per line, told apart by their keys:

- first line: `{"scenario": name, "seed": n, "start": ISO time}`;
- one line per trace entry, `TraceEntry.to_json()`: `{"detail", "step", "time"}`;
- one line per series point: `{"series": name, "t": seconds since start, "value": v}`,
  in series order, then in time order;
- one line per event: `{"event": text}`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from minikcm.apimachinery import runtime
from minikcm.clock import FakeClock
from minikcm.driver import Driver, Step, TraceEntry

Value = int | float | str
"""What a series holds at a point: a number (booleans become 0/1) or a string."""

Probe = Callable[[], Value | bool]
"""Reads one named quantity of a running scenario, without changing anything."""

Series = dict[str, list[tuple[float, Value]]]
"""Series name -> points (seconds since the start, value), in time order."""


@dataclass
class ScenarioResult:
    """What one run of a scenario produced. Equal name and seed give an equal result.

    `trace` is the driver's trace (steps run and what components reported),
    `series` the sampled quantities, `events` the notable happenings in words
    (Kubernetes Events the components emitted, a crash the script caused).
    """

    name: str
    seed: int
    start: datetime
    """Fake time at which the run began (`minikcm.clock.EPOCH`); series count from here."""
    trace: list[TraceEntry] = field(default_factory=list)
    series: Series = field(default_factory=dict)
    events: list[str] = field(default_factory=list)

    def trace_text(self) -> str:
        """The trace, one `time  step  detail` line per entry."""
        return "\n".join(str(e) for e in self.trace)

    def summary(self) -> str:
        """The events, then each series' final value (what `minikcm demo run` prints after the trace)."""
        lines = [f"events ({self.name}, seed {self.seed}):"]
        lines += [f"  {text}" for text in self.events or ["(none)"]]
        lines.append("series (final values):")
        for name, points in self.series.items():
            last = f"{points[-1][1]} at +{points[-1][0]:.3f} s" if points else "(no points)"
            lines.append(f"  {name}: {last}  ({len(points)} points)")
        return "\n".join(lines)

    def to_json_lines(self) -> str:
        """The whole result as JSON lines (format in the module docstring)."""
        lines = [json.dumps({"scenario": self.name, "seed": self.seed, "start": self.start.isoformat()},
                            ensure_ascii=False, sort_keys=True)]
        lines += [e.to_json() for e in self.trace]
        for name, points in self.series.items():
            lines += [json.dumps({"series": name, "t": t, "value": v}, ensure_ascii=False, sort_keys=True)
                      for t, v in points]
        lines += [json.dumps({"event": text}, ensure_ascii=False) for text in self.events]
        return "".join(line + "\n" for line in lines)

    @classmethod
    def from_json_lines(cls, text: str) -> ScenarioResult:
        """Read back what `to_json_lines` wrote (for figures drawn from a saved trace).

        Raises:
            ValueError: the text does not start with a scenario line, or a line has no known key.
        """
        result: ScenarioResult | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            obj = json.loads(line)
            if result is None:
                if "scenario" not in obj:
                    raise ValueError("line 1 is not a scenario line")
                result = cls(obj["scenario"], obj["seed"], datetime.fromisoformat(obj["start"]))
            elif "series" in obj:
                result.series.setdefault(obj["series"], []).append((obj["t"], obj["value"]))
            elif "event" in obj:
                result.events.append(obj["event"])
            elif "step" in obj:
                result.trace.append(TraceEntry(datetime.fromisoformat(obj["time"]), obj["step"], obj["detail"]))
            else:
                raise ValueError(f"line {number}: no scenario, step, series or event key")
        if result is None:
            raise ValueError("no scenario line")
        return result


class Sampler:
    """Turns probes into series (see the module's design notes). One of the driver's observers.

    Thread: the driver's.
    """

    def __init__(self, clock: FakeClock, start: datetime) -> None:
        self.clock = clock
        self.start = start
        self.probes: dict[str, Probe] = {}
        """Series name -> probe, in the order the series are shown."""
        self.series: Series = {}

    def watch(self, name: str, probe: Probe) -> None:
        """Sample `probe` as series `name` from now on."""
        self.probes[name] = probe
        self.series.setdefault(name, [])

    def elapsed(self) -> float:
        """Fake seconds since the start of the run."""
        return (self.clock.now() - self.start).total_seconds()

    def sample(self) -> None:
        """Read every probe; append a point to each series whose value changed."""
        t = self.elapsed()
        for name, probe in self.probes.items():
            value = as_value(probe())
            points = self.series[name]
            if not points or points[-1][1] != value:
                points.append((t, value))

    def declare(self, name: str) -> None:
        """Give measured series `name` its place in the series order now, before its first `add`."""
        self.series.setdefault(name, [])

    def add(self, name: str, value: Value | bool) -> None:
        """Append a measurement to series `name` now, even when it repeats the last one."""
        self.series.setdefault(name, []).append((self.elapsed(), as_value(value)))

    def observe(self, driver: Driver) -> None:
        """Driver observer: sample after each step."""
        self.sample()

    def __repr__(self) -> str:
        return f"Sampler(series={len(self.series)}, points={sum(len(p) for p in self.series.values())})"


def as_value(value: Value | bool) -> Value:
    """A probe's answer as a series value: booleans become 0 and 1."""
    if isinstance(value, bool):
        return int(value)
    return value


class TraceLog(logging.Handler):
    """Puts log records of the port into the driver's trace, as `log/<module>  message` lines.

    Components explain many decisions only in their logs (the reflector's "Watch
    closed ... too old resource version"); a scenario asks `Run.log_to_trace`
    for the loggers whose lines belong in its trace. `records` keeps them too,
    for scenarios that react to what was logged.
    """

    def __init__(self, driver: Driver) -> None:
        super().__init__(logging.DEBUG)
        self.driver = driver
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.driver.record(f"log/{record.name.rsplit('.', 1)[-1]}", record.getMessage())


class Run:
    """One playing of a scenario: the driver, the fake clock, the objects involved, and the script.

    `objects` names what a learner may want to look at in the debugger
    (`run.objects["server"]`). A Run plays once; build another for a second run.
    Thread: one (the driver's).
    """

    def __init__(self, name: str, seed: int, clock: FakeClock, driver: Driver,
                 script: Callable[[], None], objects: dict[str, Any] | None = None) -> None:
        self.name = name
        self.seed = seed
        self.clock = clock
        self.driver = driver
        self.script = script
        """Plays the story: drives `driver` phase by phase and returns when it is over."""
        self.objects: dict[str, Any] = objects if objects is not None else {}
        self.start = clock.now()
        self.sampler = Sampler(clock, self.start)
        self.events: list[str] = []
        self.result: ScenarioResult | None = None
        self.trace_log = TraceLog(driver)
        self._loggers: list[str] = []  # names of the loggers whose records go into the trace
        self._paused: list[Step] | None = None  # the full schedule while some steps are paused
        driver.observers.append(self.sampler.observe)

    def run(self) -> ScenarioResult:
        """Play the script and return the result (trace, series, events).

        Raises:
            RuntimeError: this Run has already played.
        """
        if self.result is not None:
            raise RuntimeError(f"scenario {self.name!r} has already run; build a new Run to run it again")
        levels = self.attach_logs()
        # The project's choice for scenarios, not Go's default: a raising handler is logged and skipped.
        really_crash, runtime.REALLY_CRASH = runtime.REALLY_CRASH, False
        if really_crash:
            logging.getLogger(__name__).info("scenario %s: runtime.REALLY_CRASH is off: a raising event handler "
                                             "is logged and skipped (Go's default ends the process)", self.name)
        try:
            self.sampler.sample()  # the values at t=0
            self.script()
        finally:
            runtime.REALLY_CRASH = really_crash
            self.detach_logs(levels)
        self.result = ScenarioResult(self.name, self.seed, self.start, list(self.driver.trace),
                                     {name: list(points) for name, points in self.sampler.series.items()},
                                     list(self.events))
        return self.result

    # -- what scripts use --------------------------------------------------------------

    def event(self, text: str) -> None:
        """Note something that happened, in the events and in the trace, and bring the series up to date."""
        self.events.append(text)
        self.driver.record("event", text)
        self.sampler.sample()

    def say(self, text: str) -> None:
        """Put the script's own narration in the trace (what it does next, and why)."""
        self.driver.record(f"scenario/{self.name}", text)

    def pause(self, prefix: str) -> None:
        """Take the steps whose names start with `prefix` out of the schedule until `resume`.

        Unlike `Driver.remove`, the steps come back in their old place, so the
        order of a round is the same before and after the pause.
        """
        if self._paused is None:
            self._paused = list(self.driver.steps)
        self.driver.steps = [s for s in self.driver.steps if not s.name.startswith(prefix)]

    def resume(self) -> None:
        """Put every paused step back where it was."""
        if self._paused is not None:
            self.driver.steps, self._paused = self._paused, None

    def log_to_trace(self, logger_name: str) -> None:
        """While the run plays, copy the records (DEBUG and up) of `logger_name` into the trace."""
        self._loggers.append(logger_name)

    # -- internals ---------------------------------------------------------------------

    def attach_logs(self) -> dict[str, int]:
        levels = {}
        for name in self._loggers:
            logger = logging.getLogger(name)
            levels[name] = logger.level
            logger.setLevel(logging.DEBUG)
            logger.addHandler(self.trace_log)
        return levels

    def detach_logs(self, levels: dict[str, int]) -> None:
        for name, level in levels.items():
            logger = logging.getLogger(name)
            logger.removeHandler(self.trace_log)
            logger.setLevel(level)

    def __repr__(self) -> str:
        state = "done" if self.result is not None else "not run"
        return f"Run({self.name!r}, seed={self.seed}, {state}, {self.driver!r})"


@dataclass(frozen=True)
class Scenario:
    """One row of the `SCENARIOS` table: a name, the docs chapter it belongs to, titles, and how to build it."""

    name: str
    """What `minikcm demo run` and the docs' captions call it (`leader-failover`)."""
    chapter: str
    """The docs chapter it illustrates: `overview`, `p1` ... `p5`, `wait`."""
    title_zh: str
    title_en: str
    build: Callable[[int], Run]
    """`build(seed)` wires a fresh world and returns its Run, not yet played."""


class UnknownScenarioError(KeyError):
    """`get_scenario` was given a name not in the table; the message lists close matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown scenario"
