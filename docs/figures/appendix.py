"""No upstream twin. The API-server appendix's figure, drawn from the `informer-relist` scenario (seed 1).

- draw_resource_versions: the same run the P2 chapter draws, seen from the
  server's side. Three resourceVersions as step functions of fake time: the
  store's counter (the version of the latest write to anything), the oldest
  version a watch on pods may still resume from (the floor of the history
  window), and the version the informer last synced to. The moment the
  informer asks to resume below the floor, the server answers 410 Gone, and
  the only way forward is a new list.

The scenario is built, two read-only probes are added to its sampler (the
store's counter and the window's floor), and it is played: its trace and its
own series are those of `minikcm demo run informer-relist --seed 1`.

- draw_rollout_scaling: the time per replica of a deterministic rolling
  update against the Deployment's size, beside the store floor measured in the
  same run, read from `docs/data/rollout_benchmark.json`, which
  `benchmarks/rollout.py --json` writes (the page shows a recorded run; the
  build does not time anything).

Start reading at: resource_versions, then draw_resource_versions.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from xml.sax.saxutils import escape

from minikcm.sim.scenarios import ScenarioResult, get_scenario

from .svg import points_chart

SCENARIO, SEED = "informer-relist", 1
TAIL = 1.0
"""Seconds drawn after the relist."""
WATCH_FROM = re.compile(r"^watch pods from resourceVersion '(?P<rv>\d*)'$")
LIST_AT = re.compile(r"^list pods at resourceVersion '(?P<asked>\d*)': (?P<n>\d+) pods at resourceVersion (?P<rv>\d+)$")
TOO_OLD = re.compile(r"too old resource version: (?P<rv>\d+) \((?P<oldest>\d+)\)")

SERVER_RV, FLOOR, INFORMER_RV = "server resourceVersion", "oldest resumable resourceVersion", "resourceVersion"


@dataclass(frozen=True)
class Versions:
    """What the figure needs from the run."""

    result: ScenarioResult
    end: float
    series: dict[str, list[tuple[float, float]]]
    pause: float                 # the informer stops reading (and 12 writes happen)
    gone: tuple[float, int, int]  # (t, version asked, oldest kept) of the 410
    relist: tuple[float, int]     # (t, version the relist returned)


@functools.lru_cache(maxsize=1)
def resource_versions() -> Versions:
    """Play informer-relist once, with two extra probes on the server."""
    run = get_scenario(SCENARIO).build(SEED)
    storage = run.objects["server"].storage

    def server_rv() -> int:
        return storage.resource_version

    def floor() -> int:
        with storage.lock:
            return storage.oldest_watchable_locked("pods") or 0  # None: nothing evicted yet

    run.sampler.watch(SERVER_RV, server_rv)
    run.sampler.watch(FLOOR, floor)
    result = run.run()
    start = result.start
    pause = gone_t = relist_t = -1.0
    gone_rv = oldest = relist_rv = 0
    for entry in result.trace:
        t = (entry.time - start).total_seconds()
        if entry.step.startswith("scenario/") and entry.detail.startswith("pause"):
            pause = t
        elif entry.step == "log/reflector" and (m := TOO_OLD.search(entry.detail)):
            gone_t, gone_rv, oldest = t, int(m["rv"]), int(m["oldest"])
        elif entry.step == "lister-watcher" and (m := LIST_AT.match(entry.detail)) and gone_t >= 0:
            relist_t, relist_rv = t, int(m["rv"])
    if min(pause, gone_t, relist_t) < 0:
        raise RuntimeError(f"{SCENARIO} no longer tells the story the appendix figure draws; read its trace")
    end = relist_t + TAIL
    series = {name: [(t, float(v)) for t, v in result.series[name]] for name in (SERVER_RV, FLOOR, INFORMER_RV)}
    return Versions(result, end, series, pause, (gone_t, gone_rv, oldest), (relist_t, relist_rv))


WORDS = {
    "zh": {
        "title": "informer-relist：服务器的计数器、历史窗口的下限、informer 的资源版本",
        "axis": "时间（秒，假时钟）",
        "y": "resourceVersion",
        SERVER_RV: "服务器当前的资源版本",
        FLOOR: "还能续 watch 的最小版本（0：都可以）",
        INFORMER_RV: "informer 同步到的版本",
        "pause": "informer 暂停，12 次写入",
        "gone": "从 {rv} 续 watch：410 Gone（下限 {oldest}）",
        "relist": "重新 list：到 {rv}",
    },
    "en": {
        "title": "informer-relist: the server's counter, the history floor, the informer's version",
        "axis": "time (s, fake clock)",
        "y": "resourceVersion",
        SERVER_RV: "server's current resourceVersion",
        FLOOR: "oldest version a watch can resume from (0: any)",
        INFORMER_RV: "version the informer synced to",
        "pause": "informer paused, 12 writes",
        "gone": "resume from {rv}: 410 Gone (floor {oldest})",
        "relist": "relist: up to {rv}",
    },
}
GONE_COLOUR = "#c62828"


def rules_step_chart(charts: ModuleType, title: str, x_label: str, y_label: str,
                     series: dict[str, Sequence[tuple[float, float]]], x_max: float,
                     rules: Sequence[tuple[float, str, str]], *, width: int = 760, height: int = 420) -> str:
    """The hook's step chart, plus labelled vertical rules (x, label, colour) and a legend that wraps.

    A series holds each value until its next point and runs on to the right edge.
    The first series is drawn last and dashed, so it stays visible where others
    share its values.
    """
    from .svg import Legend, legend_svg

    legend = Legend([("bar", charts.SERIES_COLOURS[i], label) for i, label in enumerate(series)])
    legend_parts, legend_bottom = legend_svg(charts, legend, 16, 50, width - 32)
    left, right, bottom = 56, 24, 48
    top = legend_bottom + 24 + 20 * len(rules)
    points = [p for values in series.values() for p in values]
    x_ticks = charts.nice_ticks(0.0, x_max, 8)
    y_ticks = charts.nice_ticks(0.0, max(y for _, y in points), 6)
    plot_w, plot_h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + x / x_ticks[-1] * plot_w

    def sy(y: float) -> float:
        return top + plot_h - y / y_ticks[-1] * plot_h

    body = [charts.text(16, 28, title, size=15, weight="bold"), *legend_parts]
    for y in y_ticks:
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="{charts.GRID}"/>')
        body.append(charts.text(left - 8, sy(y) + 4, f"{y:g}", anchor="end", size=12))
    for x in x_ticks:
        body.append(charts.text(sx(x), top + plot_h + 18, f"{x:g}", anchor="middle", size=12))
    body.append(charts.text(left + plot_w / 2, height - 10, x_label, anchor="middle", size=12))
    body.append(f'<text transform="translate(18 {top + plot_h / 2:.1f}) rotate(-90)" '
                f'text-anchor="middle" font-size="12">{escape(y_label)}</text>')
    for index, values in reversed(list(enumerate(series.values()))):  # the first series on top
        colour = charts.SERIES_COLOURS[index % len(charts.SERIES_COLOURS)]
        (x0, y0), rest = values[0], values[1:]
        d = [f"M{sx(x0):.1f},{sy(y0):.1f}"] + [f"H{sx(x):.1f} V{sy(y):.1f}" for x, y in rest]
        d.append(f"H{sx(x_ticks[-1]):.1f}")
        dash = ' stroke-dasharray="7 4"' if index == 0 else ""
        body.append(f'<path d="{" ".join(d)}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>')
    labels = []
    for row, (x, label, colour) in enumerate(rules):
        label_y = top - 8 - 20 * (len(rules) - 1 - row)
        anchor = "end" if sx(x) > left + plot_w * 0.6 else "start"
        dx = -4 if anchor == "end" else 4
        body.append(f'<line x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{label_y + 4}" y2="{top + plot_h}" '
                    f'stroke="{colour}" stroke-width="1.4" stroke-dasharray="5 4"/>')
        labels.append(charts.text(sx(x) + dx, label_y, label, anchor=anchor, size=12, weight="bold", fill=colour))
    body.extend(labels)
    return charts.svg_document(width, height, title, body)


def draw_resource_versions(lang: str, charts: ModuleType) -> str:
    """The three versions over the run, with the pause, the 410 and the relist marked."""
    words, run = WORDS[lang], resource_versions()
    series = {words[name]: points for name, points in run.series.items()}
    gone_t, gone_rv, oldest = run.gone
    relist_t, relist_rv = run.relist
    rules = [(run.pause, words["pause"], charts.INK),
             (gone_t, words["gone"].format(rv=gone_rv, oldest=oldest), GONE_COLOUR),
             (relist_t, words["relist"].format(rv=relist_rv), charts.SERIES_COLOURS[2])]
    return rules_step_chart(charts, words["title"], words["axis"], words["y"], series, run.end, rules)


BENCHMARK_FILE = Path(__file__).resolve().parent.parent / "data" / "rollout_benchmark.json"
SCALING_WORDS = {
    "zh": {"title": "确定性滚动更新：每个副本花的时间（{date}，{machine}）", "axis": "副本数",
           "y": "毫秒 / 副本（墙钟）", "rollout": "滚动更新 v1 → v2", "setup": "创建并全部可用",
           "floor": "下限：同样多的写入，只写存储"},
    "en": {"title": "Deterministic rolling update: time per replica ({date}, {machine})", "axis": "replicas",
           "y": "ms per replica (wall)", "rollout": "rolling update v1 -> v2", "setup": "create and become available",
           "floor": "floor: the same writes, store only"},
}


def draw_rollout_scaling(lang: str, charts: ModuleType) -> str:
    """Milliseconds per replica for the rollout, the setup and the floor, one point per measured size.

    A flat line is a linear cost; a line that climbs is a cost that grows faster than the size.
    """
    record = json.loads(BENCHMARK_FILE.read_text(encoding="utf-8"))
    rows = sorted(record["results"], key=lambda r: r["replicas"])
    words = SCALING_WORDS[lang]
    series = {words[key]: [(float(r["replicas"]), 1e3 * r[field] / r["replicas"]) for r in rows]
              for key, field in (("rollout", "elapsed"), ("setup", "setup"), ("floor", "floor"))}
    title = words["title"].format(date=record["date"], machine=record["machine"])
    return points_chart(charts, title, words["axis"], words["y"], series, dashed=(False, False, True),
                        x_ticks=[float(r["replicas"]) for r in rows])
