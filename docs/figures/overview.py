"""No upstream twin. The overview chapter's figures, drawn from one deterministic run of the controller manager.

No `minikcm demo` scenario drives the whole controller manager, so this module
runs it itself, the way tests/cmd/controller_manager drives it: three
`ControllerManager` processes (the port of `Run`, as driver steps) over one
embedded API server and one fake clock, all started with

    --controller-start-interval=2s --controllers=deployment,replicaset

and kube-controller-manager's defaults for everything else (15 s lease, 10 s
renew deadline, 2 s retry, 12 h minimum resync). At t=1 s someone creates a
Deployment `web` with two replicas; at t=30 s the leader is killed (SIGKILL:
its steps vanish, the Lease is not released); a follower takes over once the
Lease has expired on its own clock, and the run ends at t=80 s.

- draw_failover: which process leads, when each one starts its controllers,
  and who the Lease names, across the kill.
- draw_startup: the first leader's first seconds: the election, the three
  shared informers listing and watching at once, the controllers starting at
  a jittered moment in [2 s, 4 s), and the Deployment that waits for them.

Run it yourself (prints the trace), or stop in pdb the first time a function
runs, with the fake clock frozen, as `minikcm demo run --break` does:

    .venv/bin/python docs/figures/overview.py
    .venv/bin/python docs/figures/overview.py --break minikcm.cmd.controller_manager.controllermanager.build_controllers

Start reading at: startup_run, then draw_failover.
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime
from types import ModuleType
from typing import Any

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.cmd.controller_manager import (
    ControllerManager,
    controller_aliases,
    controllers_disabled_by_default,
    known_controllers,
)
from minikcm.cmd.options import new_kube_controller_manager_options
from minikcm.driver import Driver, TraceEntry

PROCESSES = ("kcm-a", "kcm-b", "kcm-c")
FLAGS = ("--controller-start-interval=2s", "--controllers=deployment,replicaset")
START_INTERVAL = 2.0
"""--controller-start-interval above: each controller starts after a wait in [2, 4) s."""
CREATE_AT, KILL_AT, END_AT = 1.0, 30.0, 80.0
STARTUP_WINDOW = 6.0
"""Seconds of the first leader's start drawn by draw_startup."""
COMMAND = ".venv/bin/python docs/figures/overview.py"

STEP = re.compile(r"^controller-manager/(?P<who>[^/]+)/(?P<rest>.+)$")
INFORMER_STEP = re.compile(r"^informers/(?:reflector|controller)/(?P<gvr>.+)/(?P<what>list|process)$")
WORKER_STEP = re.compile(r"^controllers/(?P<name>[^/]+)/(?P<loop>[^/]+)/worker$")
STARTED = re.compile(r"^controller (?P<name>\S+) started$")


def deployment(name: str, replicas: int) -> dict[str, Any]:
    """A small Deployment, as kubectl would send it (wire format)."""
    labels = {"app": name}
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "default"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels},
                                  "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}}}


@dataclass
class StartupRun:
    """What the figures need from the run: the trace, and what the server held over time."""

    start: datetime
    trace: list[TraceEntry]
    end: float
    killed: str
    takeover: float
    """When the successor's first controller started (the run waits for it)."""
    lease_holder: list[tuple[float, str]] = field(default_factory=list)
    """(t, holder) each time the Lease named someone else."""
    objects: list[tuple[float, str]] = field(default_factory=list)
    """(t, what) when a ReplicaSet or a pod of `web` first appeared on the server."""

    def at(self, entry: TraceEntry) -> float:
        return (entry.time - self.start).total_seconds()

    def became_leader(self, who: str) -> float | None:
        return next((self.at(e) for e in self.trace
                     if e.step == f"leaderelection/{who}/acquire" and e.detail == "became leader"), None)

    def successor(self) -> tuple[str, float]:
        """The process that was elected after the kill, and when."""
        return next((who, t) for who in PROCESSES
                    if (t := self.became_leader(who)) is not None and t > KILL_AT)

    def controller_starts(self, who: str) -> list[tuple[float, str]]:
        return [(self.at(e), m["name"]) for e in self.trace
                if e.step == f"controller-manager/{who}/run" and (m := STARTED.match(e.detail))]

    def renewals(self, who: str) -> list[float]:
        return [self.at(e) for e in self.trace if e.step == f"leaderelection/{who}/renew" and e.detail == "renewed"]

    def step_runs(self, who: str) -> list[tuple[float, str]]:
        """(t, step name without the process prefix) of every step this process ran."""
        out = []
        for e in self.trace:
            m = STEP.match(e.step)
            if m and m["who"] == who and not e.detail:
                out.append((self.at(e), m["rest"]))
        return out


def new_process(server: APIServer, driver: Driver, clock: FakeClock, who: str) -> ControllerManager:
    """One kube-controller-manager process: options -> config -> ControllerManager (its own client and rng)."""
    rng = random.Random(sum(map(ord, who)))
    options = new_kube_controller_manager_options()
    options.flags(known_controllers(), controllers_disabled_by_default(), controller_aliases()).parse_args(list(FLAGS))
    c = options.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(),
                       client=InProcessClientset(server), clock=clock, rng=rng)
    return ControllerManager(c.complete(), driver, identity=who, clock=clock, rng=rng)


def play() -> tuple[Driver, APIServer, StartupRun]:
    """The run described in the module docstring. Same code, same trace."""
    clock = FakeClock(EPOCH, driven=True)
    server = APIServer(clock=clock, rng=random.Random(1))
    driver = Driver(clock)
    managers = {who: new_process(server, driver, clock, who) for who in PROCESSES}
    for cm in managers.values():
        driver.add_all(cm.steps())
    holder: list[tuple[float, str]] = []
    objects: list[tuple[float, str]] = []

    def observe(d: Driver) -> None:
        t = (clock.now() - EPOCH).total_seconds()
        leases = server.list("leases", "kube-system")["items"]
        name = leases[0]["spec"].get("holderIdentity", "") if leases else ""
        if name and (not holder or holder[-1][1] != name):
            holder.append((t, name))
        for resource in ("replicasets", "pods"):
            seen = [w for _, w in objects]
            for item in server.list(resource, "default")["items"]:
                label = f"{resource}/{item['metadata']['name']}"
                if label not in seen:
                    objects.append((t, label))

    driver.observers.append(observe)
    driver.run_for(CREATE_AT)
    server.create("deployments", "default", deployment("web", 2))
    driver.record("script", "kubectl create deployment web (2 replicas)")
    driver.run_for(KILL_AT - CREATE_AT)
    leader = next(who for who, cm in managers.items() if cm.running_controllers())
    managers[leader].kill()
    driver.record("script", f"{leader} killed (SIGKILL): nothing released")
    if not driver.run_until(lambda: any(cm.running_controllers() for cm in managers.values()), timeout=60):
        raise RuntimeError("no process took over within 60 s of the kill; read the trace")
    takeover = (clock.now() - EPOCH).total_seconds()
    driver.run_for(END_AT - takeover)
    end = (clock.now() - EPOCH).total_seconds()
    return driver, server, StartupRun(EPOCH, list(driver.trace), end, leader, takeover, holder, objects)


@functools.lru_cache(maxsize=1)
def startup_run() -> StartupRun:
    """The run, once per build."""
    return play()[2]


# ---------------------------------------------------------------------------
# Figures

WORDS = {
    "zh": {
        "failover_title": "三个 kube-controller-manager 进程：谁在运行控制器",
        "startup_title": "第一个领导者的前 6 秒：先 informer，后控制器",
        "axis": "时间（秒，假时钟）",
        "holder_lane": "Lease 持有者",
        "leading": "领导中",
        "campaigning": "热备：只参加选举",
        "killed": "{who} 被杀死（SIGKILL）",
        "took_over": "{who} 接管（{t:.2f} 秒）",
        "created": "创建 Deployment web",
        "election_lane": "领导者选举",
        "informer_lane": "informer {gvr}",
        "server_lane": "API 服务器上的 web",
        "legend_leading": "领导中",
        "legend_became": "当选",
        "legend_start": "控制器启动",
        "legend_renew": "续约",
        "legend_list": "list",
        "legend_process": "事件交给处理函数",
        "legend_worker": "worker 处理一个 key",
        "legend_window": "启动窗口 [2, 4) 秒",
        "legend_object": "对象出现",
        "legend_kill": "SIGKILL",
    },
    "en": {
        "failover_title": "Three kube-controller-manager processes: which one runs controllers",
        "startup_title": "The first leader's first 6 seconds: informers first, then controllers",
        "axis": "time (s, fake clock)",
        "holder_lane": "Lease holder",
        "leading": "leading",
        "campaigning": "standby: only campaigning",
        "killed": "{who} killed (SIGKILL)",
        "took_over": "{who} takes over ({t:.2f} s)",
        "created": "Deployment web created",
        "election_lane": "leader election",
        "informer_lane": "informer {gvr}",
        "server_lane": "web on the API server",
        "legend_leading": "leading",
        "legend_became": "elected",
        "legend_start": "controller starts",
        "legend_renew": "renewal",
        "legend_list": "list",
        "legend_process": "event handed to handlers",
        "legend_worker": "a worker syncs a key",
        "legend_window": "start window [2, 4) s",
        "legend_object": "object appears",
        "legend_kill": "SIGKILL",
    },
}
KILL_COLOUR = "#c62828"


def draw_failover(lang: str, charts: ModuleType) -> str:
    """Whole run: the Lease holder, each process's leading span and controller starts, the kill."""
    from .svg import Bar, Legend, Mark, Rule, lanes_chart

    words, run = WORDS[lang], startup_run()
    colours = {who: charts.SERIES_COLOURS[i] for i, who in enumerate(PROCESSES)}
    bars, marks = [], []
    for i, (t, who) in enumerate(run.lease_holder):
        stop = run.lease_holder[i + 1][0] if i + 1 < len(run.lease_holder) else run.end
        bars.append(Bar(0, t, stop, colours[who], who))
    for lane, who in enumerate(PROCESSES, start=1):
        became = run.became_leader(who)
        stop = KILL_AT if who == run.killed else run.end
        if became is None:
            bars.append(Bar(lane, 0.0, run.end, colours[who], words["campaigning"], light=True))
            continue
        if became > 0:
            bars.append(Bar(lane, 0.0, became, colours[who], words["campaigning"], light=True))
        bars.append(Bar(lane, became, stop, colours[who], words["leading"]))
        marks.append(Mark(lane, became, "diamond", charts.INK))
        marks += [Mark(lane, t, "tick", "#ffffff") for t, _ in run.controller_starts(who)]
        if who == run.killed:
            marks.append(Mark(lane, KILL_AT, "cross", KILL_COLOUR))
    successor, elected = run.successor()
    rules = [Rule(KILL_AT, words["killed"].format(who=run.killed), KILL_COLOUR),
             Rule(elected, words["took_over"].format(who=successor, t=elected), colours[successor])]
    legend = Legend([("bar", charts.INK, words["legend_leading"]), ("diamond", charts.INK, words["legend_became"]),
                     ("tick", charts.INK, words["legend_start"]), ("cross", KILL_COLOUR, words["legend_kill"])])
    return lanes_chart(charts, words["failover_title"], words["axis"], [words["holder_lane"], *PROCESSES],
                       run.end, bars=bars, marks=marks, rules=rules, legend=legend)


def draw_startup(lang: str, charts: ModuleType) -> str:
    """The first leader's first seconds, one lane per moving part."""
    from .svg import Bar, Legend, Mark, Rule, lanes_chart

    words, run = WORDS[lang], startup_run()
    leader = next(who for who in PROCESSES if run.became_leader(who) == 0.0)
    steps = [(t, name) for t, name in run.step_runs(leader) if t <= STARTUP_WINDOW]
    gvrs: list[str] = []
    for _, name in steps:
        m = INFORMER_STEP.match(name)
        if m and m["gvr"] not in gvrs:
            gvrs.append(m["gvr"])
    controllers = [name for _, name in sorted(run.controller_starts(leader))]
    lanes = [words["election_lane"], *(words["informer_lane"].format(gvr=g) for g in gvrs), *controllers,
             words["server_lane"]]
    election, server_lane = 0, len(lanes) - 1
    ink, blue, orange, green = charts.INK, charts.SERIES_COLOURS[0], charts.SERIES_COLOURS[1], charts.SERIES_COLOURS[2]
    marks = [Mark(election, 0.0, "diamond", ink)]
    marks += [Mark(election, t, "dot", ink) for t in run.renewals(leader) if t <= STARTUP_WINDOW]
    bars = []
    listed = {}
    for t, name in steps:
        m = INFORMER_STEP.match(name)
        if m and m["what"] == "list":
            listed[m["gvr"]] = t
            marks.append(Mark(1 + gvrs.index(m["gvr"]), t, "square", blue))
    for t, name in steps:
        m = INFORMER_STEP.match(name)
        if m and m["what"] == "process" and t > listed.get(m["gvr"], -1.0):  # at the list itself: its own mark
            marks.append(Mark(1 + gvrs.index(m["gvr"]), t, "ring", blue))
        w = WORKER_STEP.match(name)
        if w and w["name"] in controllers:
            marks.append(Mark(1 + len(gvrs) + controllers.index(w["name"]), t, "dot", green))
    for lane, name in enumerate(controllers, start=1 + len(gvrs)):
        bars.append(Bar(lane, START_INTERVAL, 2 * START_INTERVAL, orange, light=True))
    for t, name in run.controller_starts(leader):
        marks.append(Mark(1 + len(gvrs) + controllers.index(name), t, "diamond", orange))
    marks += [Mark(server_lane, t, "square", ink) for t, _ in run.objects if t <= STARTUP_WINDOW]
    marks.append(Mark(server_lane, CREATE_AT, "diamond", ink))
    rules = [Rule(CREATE_AT, words["created"], KILL_COLOUR)]
    legend = Legend([("diamond", ink, words["legend_became"]), ("dot", ink, words["legend_renew"]),
                     ("square", blue, words["legend_list"]), ("ring", blue, words["legend_process"]),
                     ("window", orange, words["legend_window"]), ("diamond", orange, words["legend_start"]),
                     ("dot", green, words["legend_worker"]), ("square", ink, words["legend_object"])])
    return lanes_chart(charts, words["startup_title"], words["axis"], lanes, STARTUP_WINDOW,
                       bars=bars, marks=marks, rules=rules, legend=legend, lane_height=40)


# ---------------------------------------------------------------------------
# Running it by hand


def main(argv: list[str] | None = None) -> int:
    """Play the run and print its trace; with --break, stop in pdb at the first call of SYMBOL."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--break", dest="break_symbol", metavar="SYMBOL",
                        help="stop in pdb the first time this function runs (the fake clock stays frozen)")
    args = parser.parse_args(argv)
    if args.break_symbol:
        from minikcm.sim.scenarios.debug import FirstCallBreak, UnknownSymbolError, resolve_symbol

        try:
            target = resolve_symbol(args.break_symbol)
        except UnknownSymbolError as err:
            print(err, file=sys.stderr)
            return 2

        def on_hit(frame: object) -> None:
            print(f"stopped at the first call of {args.break_symbol}; the fake clock is frozen; "
                  "`c` continues the run", flush=True)

        breaker = FirstCallBreak(target.__code__, on_hit)
        driver, _, _ = breaker.run(play)
        if not breaker.hit:
            print(f"{args.break_symbol} never ran", file=sys.stderr)
    else:
        driver, _, _ = play()
    print(driver.trace_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
