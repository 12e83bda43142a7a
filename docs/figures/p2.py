"""No upstream twin. Chapter P2's figures, drawn from the `informer-relist` and `workqueue-retry` scenarios (seed 1).

- draw_relist_timeline: what the reflector is doing over the whole run (watching,
  backing off, listing) beside the pause of the informer's steps, with the
  moments that matter marked: the writes, the 429 that closes the lagging
  watch, the 410 Gone on the resumed watch, and the relist.
- draw_relist_counts: pods on the server, pods in the informer's cache and
  calls to the event handler, as step functions of fake time.
- draw_retry_delays: how long `default/web` waited before each retry, by the
  limiter's failure count, beside what the seventh failure would have cost had
  the worker not called `forget`.

Everything is read from the scenarios' results: the trace lines of the
lister-watcher, of the reflector's log and of the script (`scenario/...`), and
the series each scenario samples.

Start reading at: relist, then draw_relist_timeline.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import ModuleType

from minikcm.sim.scenarios import ScenarioResult, run_scenario
from minikcm.sim.scenarios.informer import PAUSED_WRITES

from .svg import Bar, Legend, Mark, Rule, lanes_chart, points_chart

SEED = 1
RELIST, RETRY = "informer-relist", "workqueue-retry"
WATCH_FROM = re.compile(r"^watch pods from resourceVersion '(?P<rv>\d*)'$")
LIST_AT = re.compile(r"^list pods at resourceVersion '(?P<asked>\d*)': (?P<n>\d+) pods at resourceVersion (?P<rv>\d+)$")
TAIL = 3.0
"""Seconds drawn after the last trace entry (the script's final run_for, where nothing happens)."""
BASE_DELAY_MS = 5.0
"""The per-item limiter's first delay (default_controller_rate_limiter: 5 ms, doubling)."""

WORDS = {
    "zh": {
        "timeline_title": "informer-relist：watch 落后被关闭，续 watch 得到 410，Reflector 重新 list",
        "axis": "时间（秒，假时钟）",
        "lane_reflector": "Reflector",
        "lane_informer": "informer 处理",
        "watching": "watch（从 {rv} 起）",
        "backoff": "退避",
        "paused": "暂停",
        "running": "运行",
        "writes": "暂停期间 {n} 次写入",
        "closed_429": "429：watch 太慢被关闭",
        "gone": "410 Gone：版本 {rv} 已出历史窗口",
        "relist": "重新 list：{asked} → {rv}",
        "legend_watch": "watch 打开",
        "legend_backoff": "退避等待 / 暂停",
        "legend_list": "list",
        "legend_gone": "watch 以错误结束",
        "counts_title": "informer-relist：服务器上的 Pod、缓存里的 Pod、事件处理函数的调用次数",
        "counts_y": "个数",
        "server_pods": "服务器上的 Pod",
        "cache_size": "缓存里的 Pod",
        "handler_events": "事件处理函数被调用的次数",
        "retry_title": "workqueue-retry：default/web 每次失败后等多久才重试",
        "retry_x": "限速器数到的第几次失败",
        "retry_y": "毫秒",
        "first_run": "t=0 起：连续失败 6 次（5、10、20……160 毫秒）",
        "after_forget": "t=1 秒：forget 之后再失败，又从第 1 次算起",
        "without_forget": "假如没有 forget：这会是第 7 次失败（{ms:g} 毫秒）",
    },
    "en": {
        "timeline_title": "informer-relist: a lagging watch is closed, resuming gets 410, the reflector relists",
        "axis": "time (s, fake clock)",
        "lane_reflector": "Reflector",
        "lane_informer": "informer steps",
        "watching": "watch (from {rv})",
        "backoff": "backoff",
        "paused": "paused",
        "running": "running",
        "writes": "{n} writes while paused",
        "closed_429": "429: watch closed as too slow",
        "gone": "410 Gone: version {rv} left the history",
        "relist": "relist: {asked} → {rv}",
        "legend_watch": "watch open",
        "legend_backoff": "waiting: backoff / paused",
        "legend_list": "list",
        "legend_gone": "watch ends with an error",
        "counts_title": "informer-relist: pods on the server, pods in the cache, handler calls",
        "counts_y": "count",
        "server_pods": "pods on the server",
        "cache_size": "pods in the cache",
        "handler_events": "event handler calls",
        "retry_title": "workqueue-retry: how long default/web waits after each failure",
        "retry_x": "failure number, as the rate limiter counts",
        "retry_y": "milliseconds",
        "first_run": "from t=0: six failures in a row (5, 10, 20 ... 160 ms)",
        "after_forget": "t=1 s: failing again after forget counts from 1",
        "without_forget": "without forget this would be failure 7 ({ms:g} ms)",
    },
}
GONE_COLOUR = "#c62828"


@dataclass(frozen=True)
class Relist:
    """What the informer-relist figures need from one run."""

    result: ScenarioResult
    end: float
    lists: list[tuple[float, str, str]]              # (t, resourceVersion asked for, resourceVersion got)
    watches: list[tuple[float, float, str]]          # (opened, ended, from resourceVersion)
    backoffs: list[tuple[float, float]]              # spans with no list or watch running
    pause: tuple[float, float]                       # when the informer's steps were paused
    closed_429: float                                # the lagging watch is closed
    gone: tuple[float, str]                          # the resumed watch gets 410, and from which version


def seconds(result: ScenarioResult, index: int) -> float:
    return (result.trace[index].time - result.start).total_seconds()


@functools.lru_cache(maxsize=1)
def relist() -> Relist:
    """Run informer-relist once per build and read the reflector's story off its trace."""
    result = run_scenario(RELIST, seed=SEED)
    end = (result.trace[-1].time - result.start).total_seconds() + TAIL
    lists, watches, backoffs = [], [], []
    pause_start = pause_end = closed_429 = gone_at = -1.0
    gone_rv = ""
    open_watch: tuple[float, str] | None = None
    for i, entry in enumerate(result.trace):
        t, detail = seconds(result, i), entry.detail
        if entry.step == "lister-watcher" and (m := LIST_AT.match(detail)):
            lists.append((t, m["asked"], m["rv"]))
            if backoffs and backoffs[-1][1] < 0:
                backoffs[-1] = (backoffs[-1][0], t)
        elif entry.step == "lister-watcher" and (m := WATCH_FROM.match(detail)):
            open_watch = (t, m["rv"])
            if backoffs and backoffs[-1][1] < 0:
                backoffs[-1] = (backoffs[-1][0], t)
        elif entry.step == "log/reflector" and ("429" in detail or "too old resource version" in detail):
            if open_watch is not None:
                watches.append((open_watch[0], t, open_watch[1]))
                if "too old" in detail:
                    gone_at, gone_rv = t, open_watch[1]
                else:
                    closed_429 = t
                open_watch = None
            backoffs.append((t, -1.0))
        elif entry.step.startswith("scenario/") and detail.startswith("pause"):
            pause_start = t
        elif entry.step.startswith("scenario/") and detail.startswith("resume"):
            pause_end = t
    if open_watch is not None:
        watches.append((open_watch[0], end, open_watch[1]))
    if min(pause_start, pause_end, closed_429, gone_at) < 0 or len(lists) < 2:
        raise RuntimeError(f"{RELIST} no longer tells the story the P2 figures draw; read its trace")
    return Relist(result, end, lists, watches, [b for b in backoffs if b[1] >= 0],
                  (pause_start, pause_end), closed_429, (gone_at, gone_rv))


def draw_relist_timeline(lang: str, charts: ModuleType) -> str:
    """Two lanes: the reflector (lists, watches, backoffs) and the informer's processing (paused or not)."""
    words, run = WORDS[lang], relist()
    watch_colour, list_colour, informer_colour = charts.SERIES_COLOURS[0], charts.SERIES_COLOURS[1], charts.SERIES_COLOURS[2]
    bars, marks = [], []
    for opened, ended, rv in run.watches:
        if ended - opened > 1e-6:
            bars.append(Bar(0, opened, ended, watch_colour, words["watching"].format(rv=rv)))
    for start, stop in run.backoffs:
        bars.append(Bar(0, start, stop, watch_colour, words["backoff"], light=True))
    for t, _, _ in run.lists:
        marks.append(Mark(0, t, "diamond", list_colour))
    marks.append(Mark(0, run.gone[0], "cross", GONE_COLOUR))
    marks.append(Mark(0, run.closed_429, "cross", GONE_COLOUR))
    paused_from, paused_to = run.pause
    bars.append(Bar(1, 0.0, paused_from, informer_colour, words["running"]))
    bars.append(Bar(1, paused_from, paused_to, informer_colour, words["paused"], light=True))
    bars.append(Bar(1, paused_to, run.end, informer_colour, words["running"]))
    relist_t, asked, got = run.lists[-1]
    rules = [
        Rule(paused_from, words["writes"].format(n=PAUSED_WRITES), charts.INK),
        Rule(run.closed_429, words["closed_429"], GONE_COLOUR),
        Rule(run.gone[0], words["gone"].format(rv=run.gone[1]), GONE_COLOUR),
        Rule(relist_t, words["relist"].format(asked=asked, rv=got), list_colour),
    ]
    legend = Legend([
        ("bar", watch_colour, words["legend_watch"]),
        ("window", charts.INK, words["legend_backoff"]),
        ("diamond", list_colour, words["legend_list"]),
        ("cross", GONE_COLOUR, words["legend_gone"]),
    ])
    lanes = [words["lane_reflector"], words["lane_informer"]]
    return lanes_chart(charts, words["timeline_title"], words["axis"], lanes, run.end,
                       bars=bars, marks=marks, rules=rules, legend=legend, lane_height=54)


def draw_relist_counts(lang: str, charts: ModuleType) -> str:
    """The scenario's series `server pods`, `cache size` and `handler events` as a step chart."""
    words, run = WORDS[lang], relist()
    series = run.result.series
    picked = {
        words["server_pods"]: series["server pods"],
        words["cache_size"]: series["cache size"],
        words["handler_events"]: series["handler events"],
    }
    # Each series holds its last value to the end of the run, so both P2 timelines share one x range.
    drawn = {label: [(t, float(v)) for t, v in points] + [(run.end, float(points[-1][1]))]
             for label, points in picked.items()}
    return charts.step_chart(words["counts_title"], words["axis"], words["counts_y"], drawn,
                             width=760, height=360)


@functools.lru_cache(maxsize=1)
def retry() -> ScenarioResult:
    return run_scenario(RETRY, seed=SEED)


def draw_retry_delays(lang: str, charts: ModuleType) -> str:
    """Measured waits before each retry of default/web, numbered by the limiter's count of failures."""
    words, result = WORDS[lang], retry()
    delays = result.series["default/web retry delay (ms)"]
    counts = [int(v) for _, v in result.series["default/web requeues"]]
    # The count drops to 0 when forget runs; the delays after that belong to a new run of failures.
    reset_at = next(t for (t, v), (_, before) in zip(result.series["default/web requeues"][1:],
                                                     result.series["default/web requeues"])
                    if int(v) == 0 and int(before) > 0)
    first = [(float(n), float(ms)) for n, (t, ms) in enumerate((p for p in delays if p[0] <= reset_at), start=1)]
    after = [(float(n), float(ms)) for n, (t, ms) in enumerate((p for p in delays if p[0] > reset_at), start=1)]
    if not first or not after or max(counts) != len(first):
        raise RuntimeError(f"{RETRY} no longer tells the story the P2 figure draws; read its series")
    seventh = BASE_DELAY_MS * 2 ** len(first)
    series = {
        words["first_run"]: first,
        words["after_forget"]: after,
        words["without_forget"].format(ms=seventh): [(float(len(first) + 1), seventh)],
    }
    return points_chart(charts, words["retry_title"], words["retry_x"], words["retry_y"], series,
                        shapes=("dot", "diamond", "ring"), width=760, height=380)


# --- the start of an informer: watch-list, or list then watch -------------------------------------

START_WORDS = {
    "zh": {
        "title": "启动中的 informer 发出的请求：WatchListClient 开、关，以及服务器拒绝时的回退",
        "axis": "请求的先后次序",
        "on": "门开，服务器支持",
        "off": "门关",
        "refused": "门开，服务器拒绝",
        "watch_list": "watch-list：{n} 个对象",
        "refused_422": "watch-list：422",
        "list": "LIST rv=\"{asked}\"：{n} 个",
        "watch": "WATCH 从 {rv} 起",
        "legend_stream": "流式获取初始状态",
        "legend_list": "list",
        "legend_watch": "之后的 watch",
        "legend_refused": "被拒绝",
    },
    "en": {
        "title": "The requests of a starting informer: WatchListClient on, off, and the fallback when refused",
        "axis": "requests, in order",
        "on": "gate on, server streams",
        "off": "gate off",
        "refused": "gate on, server refuses",
        "watch_list": "watch-list: {n} objects",
        "refused_422": "watch-list: 422",
        "list": "LIST rv=\"{asked}\": {n}",
        "watch": "WATCH from {rv}",
        "legend_stream": "initial state streamed",
        "legend_list": "list",
        "legend_watch": "the watch that follows",
        "legend_refused": "refused",
    },
}


@dataclass(frozen=True)
class Request:
    """One request of a starting informer, as its lister-watcher saw it."""

    kind: str  # "watch-list", "refused", "list", "watch"
    detail: str  # the object count (streamed or listed) or the resourceVersion watched from


@functools.cache
def informer_start(gate: bool, server_streams: bool) -> tuple[Request, ...]:
    """Start a pod informer over the embedded API server (3 pods) under the driver; its requests until synced."""
    import random

    from kubernetes.client import V1Container, V1ObjectMeta, V1Pod, V1PodSpec

    from minikcm import features
    from minikcm.apiserver.server import APIServer
    from minikcm.client import InProcessClientset
    from minikcm.clock import FakeClock
    from minikcm.driver import Driver
    from minikcm.tools.cache.listwatch import ListWatch
    from minikcm.tools.cache.shared_informer import SharedIndexInformerOptions, new_shared_index_informer_with_options

    clock = FakeClock(driven=True)
    server = APIServer(clock=clock, rng=random.Random(SEED), watch_list=server_streams)
    pods = InProcessClientset(server).core_v1().pods("default")
    for name in ("web-0", "web-1", "web-2"):
        pods.create(V1Pod(metadata=V1ObjectMeta(name=name), spec=V1PodSpec(containers=[
            V1Container(name="c", image="nginx")])))
    seen: list[Request] = []

    def list_func(options):
        result = pods.list(options)
        seen.append(Request("list", f"{options.resource_version}|{len(result.items)}"))
        return result

    def watch_func(options):
        try:
            w = pods.watch(options)
        except Exception:
            seen.append(Request("refused", ""))
            raise
        if options.send_initial_events:
            seen.append(Request("watch-list", ""))  # its object count is read from the cache below
        else:
            seen.append(Request("watch", options.resource_version))
        return w

    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.WATCH_LIST_CLIENT, gate):
        informer = new_shared_index_informer_with_options(ListWatch(list_func=list_func, watch_func=watch_func),
                                                          V1Pod(), SharedIndexInformerOptions(clock=clock))
        driver = Driver(clock, informer.steps() + server.steps())
        driver.run_until(informer.has_synced, timeout=60)
    out = []
    for r in seen:
        if r.kind == "watch-list":  # what it streamed: the objects now in the cache
            r = Request("watch-list", str(len(informer.get_store().list())))
        out.append(r)
    return tuple(out)


def draw_informer_start(lang: str, charts: ModuleType) -> str:
    """Three lanes (gate on and streaming, gate off, gate on and refused): each request as a labelled bar."""
    words = START_WORDS[lang]
    colours = {"watch-list": charts.SERIES_COLOURS[0], "list": charts.SERIES_COLOURS[1],
               "watch": charts.SERIES_COLOURS[2], "refused": GONE_COLOUR}
    runs = [(words["on"], informer_start(True, True)), (words["off"], informer_start(False, True)),
            (words["refused"], informer_start(True, False))]
    bars = []
    for lane, (_, requests) in enumerate(runs):
        for i, r in enumerate(requests):
            if r.kind == "watch-list":
                label = words["watch_list"].format(n=r.detail)
            elif r.kind == "refused":
                label = words["refused_422"]
            elif r.kind == "list":
                asked, n = r.detail.split("|")
                label = words["list"].format(asked=asked, n=n)
            else:
                label = words["watch"].format(rv=r.detail)
            bars.append(Bar(lane, i + 0.03, i + 0.97, colours[r.kind], label, light=r.kind == "refused"))
    legend = Legend([("bar", colours["watch-list"], words["legend_stream"]),
                     ("bar", colours["list"], words["legend_list"]),
                     ("bar", colours["watch"], words["legend_watch"]),
                     ("window", GONE_COLOUR, words["legend_refused"])])
    width = max(len(requests) for _, requests in runs)
    return lanes_chart(charts, words["title"], words["axis"], [name for name, _ in runs], float(width),
                       bars=bars, legend=legend, width=1000, lane_height=54)
