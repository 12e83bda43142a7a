"""No upstream twin. `minikcm demo run --live`: a scenario's series as a live terminal timeline.

The view is one more observer of the driver: after each step it redraws a
`rich` Live display (a header with the fake time, one small table per series
showing its latest points, and the last lines of the trace) and, when the step
changed something worth seeing, pauses `pace` real seconds so a reader can
follow. The scenario itself is unchanged: the clock stays fake, and the result
is the one `run_scenario` returns for the same seed.

Tricky: this is the one place in minikcm.sim that waits in real time, on
purpose and only for display; nothing in the port or in the scenarios does.

Start reading at: play_live, then LiveView.after_step.
"""

from __future__ import annotations

import time

from rich.columns import Columns
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from minikcm.driver import Driver
from minikcm.sim.scenarios.base import Run, ScenarioResult

POINTS_SHOWN = 6
"""Latest points shown per series."""
TRACE_LINES_SHOWN = 8
"""Latest trace lines shown under the tables."""


class LiveView:
    """Draws one Run as it plays (see the module docstring)."""

    def __init__(self, run: Run, title: str, pace: float) -> None:
        self.run = run
        self.title = title
        self.pace = pace
        self.live: Live | None = None
        self._trace_seen = 0  # trace entries already looked at
        self._points_seen = 0  # series points at the last redraw

    def after_step(self, driver: Driver) -> None:
        """Driver observer: when the step added a trace detail or a series point, redraw and pause."""
        news = any(e.detail for e in driver.trace[self._trace_seen:]) or self.points() != self._points_seen
        self._trace_seen, self._points_seen = len(driver.trace), self.points()
        if self.live is None or not news:
            return
        self.live.update(self.render(), refresh=True)
        if self.pace > 0:
            time.sleep(self.pace)  # display pacing only: the fake clock does not move meanwhile

    def points(self) -> int:
        return sum(len(p) for p in self.run.sampler.series.values())

    def render(self) -> Group:
        elapsed = self.run.sampler.elapsed()
        header = Text.assemble((f"{self.run.name}", "bold"), f"  seed {self.run.seed}  ",
                               (f"fake time +{elapsed:.3f} s", "cyan"), f"  {self.title}")
        tables = [self.series_table(name, points) for name, points in self.run.sampler.series.items()]
        tail = self.run.driver.trace[-TRACE_LINES_SHOWN:]
        trace = Text("\n".join(str(e) for e in tail), style="dim")
        return Group(header, Columns(tables), trace)

    @staticmethod
    def series_table(name: str, points: list[tuple[float, int | float | str]]) -> Table:
        table = Table(title=name, title_style="bold", show_edge=False, min_width=18)
        table.add_column("t (s)", justify="right")
        table.add_column("value", justify="right")
        shown = points[-POINTS_SHOWN:]
        for i, (t, value) in enumerate(shown):
            latest = i == len(shown) - 1
            table.add_row(f"{t:.3f}", str(value), style="bold green" if latest else None)
        return table


def play_live(run: Run, title: str, pace: float = 0.15, console: Console | None = None) -> ScenarioResult:
    """Play `run` while drawing it; returns the same result as `run.run()`."""
    view = LiveView(run, title, pace)
    with Live(view.render(), console=console, refresh_per_second=12, auto_refresh=False) as live:
        view.live = live
        run.driver.observers.append(view.after_step)
        try:
            result = run.run()
        finally:
            view.live = None
        live.update(view.render(), refresh=True)
    return result
