"""No upstream twin. Seeded chaos runs: the workload scenarios again, under injected faults.

`minikcm chaos run --seed N --runs K [--scenario NAME]` and tests/harness/test_chaos.py
play the deterministic scenarios of chapters P3 to P5 (`rolling-update`,
`recreate`, `proportional-scaling`, `statefulset-ordered`,
`statefulset-partition`, `cascade-delete`) while a `Chaos` harness breaks
things around the controllers. Every random choice comes from one
`random.Random(seed)`, so a seed is a run: the same scenario and seed give the
same trace, byte for byte, faults included.

What the harness changes in a scenario's world (`Chaos.install`):

- The controllers leave the scenario's schedule. Two kube-controller-manager
  processes (`kcm-1`, `kcm-2`, each a `ControllerManager`) elect a leader on the
  kube-system/kube-controller-manager Lease, as kube-controller-manager does;
  the leader builds its own informer factory and the scenario's controllers
  (new instances, empty caches) once it holds the Lease.
- Each process talks to the API server through its own clientset with a
  client-go testing `Fake` in front (minikcm.client.testing): a fraction of
  its writes fail with 409 Conflict, 500 or 504 before reaching the server,
  and a watch resumed from a resourceVersion sometimes ends at once with
  410 Expired (the reflector relists).
- The API server becomes one that persists to SQLite (a temporary data
  directory) behind a `RecordingServer` (minikcm.harness.acknowledged), which
  every caller uses (the scenario's kubectl writes, the kubelet, the
  controllers). It records every write that returned successfully: the
  acknowledged writes.
- A `chaos` step, at seeded times, does one of: close an open watch early;
  restart the leader's informers and controllers (fresh caches, same Lease);
  crash the leading process (its steps vanish, its watches drop, the Lease is
  not released) and start a new candidate, which waits out the Lease; reload
  the API server from its SQLite file (every watch ends; clients resume or
  relist against the reloaded store).

Every run must then (a) keep the scenario's invariants after every step (the
Cluster's checks: rolling-update bounds, Recreate never overlapping,
StatefulSet ordering and partition, cascade ordering), (b) reach every state
the script waits for within its timeouts and within a step budget, and (c)
end, after one more reload from SQLite, with every acknowledged write still in
the store (`verify_acknowledged`). A broken run is a `Violation`; its message
ends with the command that replays it.

Start reading at: run_chaos, then Chaos.install, Chaos.fault_step, verify_acknowledged.

Design notes. Crashes and restarts never tear a step in half: every step of a
process is gated by its generation's `alive` flag, so a crash in the middle of
a driver round also stops the steps the round still had in its copy of the
schedule. Faults fire at most `max_*` times per run so that a run can still
converge; the write fault rate and the watch 410 rate are per call.
Test-only knobs (`ChaosConfig.forget_on_reload`, `ChaosConfig.broken_invariant`)
make the harness prove it can fail: a persistence that forgets an acknowledged
write on reload, an invariant that cannot hold.
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from minikcm.apimachinery import errors, runtime, watch
from minikcm.apimachinery.schema import GroupResource
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing.actions import Action
from minikcm.client.testing.fake import Fake
from minikcm.clock import EPOCH
from minikcm.driver import Driver, Step, TraceEntry, new_schedule
from minikcm.harness.acknowledged import RecordingServer, verify_acknowledged
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.sim.scenarios import SCENARIOS
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import Cluster, InvariantViolation
from minikcm.tools.leaderelection.leaderelection import (
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
)
from minikcm.tools.leaderelection.resourcelock import LEASES_RESOURCE_LOCK, ResourceLockConfig, new

CHAOS_SCENARIOS = ("rolling-update", "recreate", "proportional-scaling", "statefulset-ordered",
                   "statefulset-partition", "cascade-delete")
"""The scenarios chaos runs cover; without --scenario, run i plays CHAOS_SCENARIOS[i % 6]."""
LEASE_NAMESPACE, LEASE_NAME = "kube-system", "kube-controller-manager"
LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD = 15.0, 10.0, 2.0
"""kube-controller-manager's leader election defaults."""
WRITE_VERBS = ("create", "update", "patch", "delete", "delete-collection")
CONTROLLERS = ("replicaset", "deployment", "statefulset", "garbagecollector")
"""Cluster component names that are controllers (they move into the elected processes)."""


class ChaosViolation(RuntimeError):
    """The harness itself found a run broken (step budget, lost write)."""


@dataclass(frozen=True)
class ChaosConfig:
    """How hard a chaos run shakes the world. Rates are per call; `max_*` bound the faults per run."""

    write_fault_rate: float = 0.05
    """Fraction of the controller-managers' writes that fail (409, 500 or 504) before reaching the server."""
    watch_gone_rate: float = 0.2
    """Fraction of watches resumed from a resourceVersion that end at once with 410 Expired."""
    fault_interval: tuple[float, float] = (2.0, 10.0)
    """Fake seconds between two scheduled faults (uniform)."""
    max_watch_closes: int = 20
    max_informer_restarts: int = 2
    max_crashes: int = 2
    max_reloads: int = 2
    step_budget: int = 300_000
    """Driver steps a run may take, faults included; more is a convergence failure."""
    forget_on_reload: float = 0.0
    """Test only: the fraction of acknowledged writes the SQLite file loses at each reload (a broken store)."""
    broken_invariant: bool = False
    """Test only: add an invariant that breaks as soon as two pods exist."""


DEFAULT_CONFIG = ChaosConfig()
"""What `run_chaos` uses when given no config (the CLI's runs)."""


@dataclass
class Violation:
    """What broke in a run, and how to replay it."""

    kind: str
    """`invariant`, `convergence`, `lost-write`, `step-budget` or `crash` (an unexpected exception)."""
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class ChaosResult:
    """One chaos run: the scenario, the seed, what was injected, and what broke."""

    scenario: str
    seed: int
    trace: list[TraceEntry] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    steps: int = 0
    acknowledged: int = 0
    seconds: float = 0.0
    """Real seconds the run took (not part of the trace)."""
    schedule: str = "deliver-first"
    """The driver's policy (minikcm.driver): `deliver-first` or `interleaved`."""

    @property
    def ok(self) -> bool:
        return not self.violations

    def replay_command(self) -> str:
        policy = f" --schedule {self.schedule}" if self.schedule != "deliver-first" else ""
        return f"minikcm chaos run --scenario {self.scenario} --seed {self.seed} --runs 1{policy}"

    def trace_text(self) -> str:
        return "\n".join(str(e) for e in self.trace)

    def summary(self) -> str:
        """One line, then each violation and the replay command when the run broke."""
        faults = ", ".join(f"{k} {v}" for k, v in sorted(self.faults.items())) or "none"
        head = (f"{'ok  ' if self.ok else 'FAIL'} {self.scenario} seed {self.seed}: {self.steps} steps, "
                f"{self.acknowledged} acknowledged writes, faults: {faults}")
        if self.ok:
            return head
        lines = [head] + [f"  {v}" for v in self.violations]
        lines.append(f"  replay: {self.replay_command()}")
        return "\n".join(lines)


# -- kube-controller-manager processes ----------------------------------------------------------------------


class Generation:
    """One start of a process's informers and controllers: its steps run while `alive`."""

    def __init__(self, harness: Chaos, owner: ControllerManager, number: int) -> None:
        self.alive = True
        self.stop = threading.Event()
        client = owner.client
        self.factory = new_shared_informer_factory_with_options(
            client, 0, clock=harness.clock, rng=random.Random(owner.rng.getrandbits(64)))
        self.controllers = {name: CONTROLLER_BUILDERS[name](self.factory, client) for name in harness.controllers}
        self.factory.start(self.stop)
        steps = self.factory.steps()
        for controller in self.controllers.values():
            controller.start_event_recording()  # Run's first lines; then the driver runs its loops
            steps += controller.steps()
        self.steps = [harness.gate(s, self, f"{owner.who}/") for s in steps]
        self.name = f"{owner.who} generation {number}"

    def __repr__(self) -> str:
        return f"Generation({self.name!r}, alive={self.alive}, controllers={list(self.controllers)})"


class ControllerManager:
    """One kube-controller-manager process: an elector, and controllers while it leads.

    Its clientset has its own Fake, whose reactors inject the write faults and
    the 410s, and which remembers the watches the process opened (a crash drops them).
    """

    def __init__(self, harness: Chaos, who: str) -> None:
        self.harness = harness
        self.who = who
        self.rng = random.Random(harness.rng.getrandbits(64))
        self.alive = True
        self.leading = False
        self.fake = Fake()
        self.client = InProcessClientset(harness.server, fake=self.fake)  # type: ignore[arg-type]
        self.watches: list[watch.Interface] = []
        harness.attach_faults(self, writes=True)
        self.generations: list[Generation] = []
        lock = new(LEASES_RESOURCE_LOCK, LEASE_NAMESPACE, LEASE_NAME, self.client.coordination_v1(),
                   ResourceLockConfig(who))
        config = LeaderElectionConfig(lock=lock, lease_duration=LEASE_DURATION, renew_deadline=RENEW_DEADLINE,
                                      retry_period=RETRY_PERIOD, name=LEASE_NAME,
                                      callbacks=LeaderCallbacks(self.on_started_leading, self.on_stopped_leading))
        self.elector: LeaderElector = new_leader_elector(config, clock=harness.clock,
                                                         rng=random.Random(self.rng.getrandbits(64)))
        self.elector_steps = [harness.gate(s, self) for s in
                              self.elector.steps(threading.Event(), record=harness.driver.record)]
        harness.driver.add_all(self.elector_steps)

    def on_started_leading(self, stop: threading.Event) -> None:
        """kube-controller-manager's run(): informers and controllers start once we lead."""
        self.leading = True
        self.harness.note(f"{self.who} leads: starting informers and controllers")
        self.start_generation()

    def on_stopped_leading(self) -> None:
        """Upstream exits when it loses the Lease ("leaderelection lost"): so does this process."""
        if self.alive and self.leading:
            self.harness.note(f"{self.who} lost the Lease and exits")
            self.harness.faults["lost lease"] += 1
            self.harness.replace_process(self)

    def start_generation(self) -> None:
        gen = Generation(self.harness, self, len(self.generations) + 1)
        self.generations.append(gen)
        self.harness.driver.add_all(gen.steps)

    def stop_generation(self) -> None:
        """The current informers and controllers stop (their watches drop)."""
        if self.generations:
            gen = self.generations[-1]
            gen.alive = False
            self.harness.drop_steps(gen.steps)
        for w in self.watches:
            w.stop()
        self.watches = []

    def crash(self) -> None:
        """Dies: nothing runs any more, nothing is released."""
        self.alive = False
        self.leading = False
        self.stop_generation()
        self.harness.drop_steps(self.elector_steps)

    def __repr__(self) -> str:
        return f"ControllerManager({self.who!r}, alive={self.alive}, leading={self.leading})"


def _build_replicaset(f: Any, client: Any) -> Any:
    from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
    return new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), client, BURST_REPLICAS)


def _build_deployment(f: Any, client: Any) -> Any:
    from minikcm.controller.deployment.deployment_controller import new_deployment_controller
    return new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                     f.core().v1().pods(), client)


def _build_statefulset(f: Any, client: Any) -> Any:
    from minikcm.controller.statefulset.stateful_set import new_stateful_set_controller
    return new_stateful_set_controller(f.core().v1().pods(), f.apps().v1().stateful_sets(),
                                       f.core().v1().persistent_volume_claims(),
                                       f.apps().v1().controller_revisions(), client)


def _build_garbage_collector(f: Any, client: Any) -> Any:
    from minikcm.controller.garbagecollector.garbagecollector import new_garbage_collector
    return new_garbage_collector(client, f, None)


CONTROLLER_BUILDERS: dict[str, Callable[[Any, Any], Any]] = {
    "replicaset": _build_replicaset,
    "deployment": _build_deployment,
    "statefulset": _build_statefulset,
    "garbagecollector": _build_garbage_collector,
}
"""Cluster component name -> how a controller-manager builds that controller from its factory and client."""


# -- the harness ---------------------------------------------------------------------------------------------


class Chaos:
    """Installs the faults into a built scenario Run (see the module docstring) and checks the outcome."""

    def __init__(self, run: Run, seed: int, config: ChaosConfig) -> None:
        self.run = run
        self.config = config
        self.rng = random.Random(seed ^ 0x5EED_C4A05)
        self.fault_rng = random.Random(self.rng.getrandbits(64))
        self.watch_rng = random.Random(self.rng.getrandbits(64))
        self.schedule_rng = random.Random(self.rng.getrandbits(64))
        self.server_rng = random.Random(self.rng.getrandbits(64))
        self.cluster: Cluster = run.objects["cluster"]
        self.driver: Driver = run.driver
        self.clock = run.clock
        self.faults: Counter[str] = Counter()
        self.steps_run = 0
        self.processes: list[ControllerManager] = []
        self.next_process = 1
        self.controllers = [name for name in self.cluster.components if name in CONTROLLERS]
        self.data_dir = ""
        self.server: RecordingServer | None = None
        self.kubelet_side: ControllerManager | None = None
        self.next_fault: datetime | None = None

    # -- building ----------------------------------------------------------------------------------------

    def install(self) -> None:
        """Swap in the recording, persisted server, move the controllers into elected processes, add the chaos step."""
        c = self.cluster
        base = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.data_dir = tempfile.mkdtemp(prefix="minikcm-chaos-", dir=base)
        old: APIServer = c.server
        persisted = APIServer(clock=self.clock, rng=random.Random(self.server_rng.getrandbits(64)),
                              data_dir=self.data_dir)
        if old.storage.resource_version != persisted.storage.resource_version:
            raise RuntimeError("the scenario wrote to the API server before it played; chaos cannot take it over")
        self.server = RecordingServer(persisted, self.data_dir)
        c.server = self.server  # type: ignore[assignment]
        c.client.transport.server = self.server  # type: ignore[attr-defined]
        old.close()
        # The schedule was: server steps, the cluster factory's steps, then each component's steps in order.
        steps = self.driver.steps
        n_server = len(old.steps())
        n_factory = len(c.factory.steps())
        rest = steps[n_server + n_factory:]
        kept: list[Step] = []
        for name, component in c.components.items():
            count = len(component.steps())
            own, rest = rest[:count], rest[count:]
            if name not in CONTROLLERS:
                kept += own
        if rest:
            raise RuntimeError(f"unexpected steps in the schedule: {[s.name for s in rest]}")
        self.driver.steps = (self.server.steps() + steps[n_server:n_server + n_factory] + kept
                             + [Step("chaos", self.fault_ready, self.fault_step, self.fault_wakeup)])
        # The kubelet and the volume binder keep the cluster's client: no write faults, but watch faults.
        c.client.fake = Fake()
        self.kubelet_side = _Side(self, c.client)  # type: ignore[assignment]
        self.attach_faults(self.kubelet_side, writes=False)  # type: ignore[arg-type]
        for _ in range(2):
            self.start_process()
        self.driver.observers.append(self.count_step)
        if self.config.broken_invariant:
            c.check("chaos: at most one pod (deliberately broken)", self.at_most_one_pod)
        self.schedule_next()

    def at_most_one_pod(self) -> None:
        if len(self.cluster.pods()) > 1:
            raise self.cluster.violation(f"{len(self.cluster.pods())} pods exist (the broken invariant allows 1)")

    def start_process(self) -> ControllerManager:
        who = f"kcm-{self.next_process}"
        self.next_process += 1
        process = ControllerManager(self, who)
        self.processes.append(process)
        return process

    def replace_process(self, process: ControllerManager) -> None:
        process.crash()
        self.start_process()

    def gate(self, step: Step, owner: Any, prefix: str = "") -> Step:
        """`step`, running only while `owner.alive` (a process or a generation)."""
        def ready() -> bool:
            return owner.alive and step.ready()

        def wakeup() -> datetime | None:
            return step.wakeup() if owner.alive and step.wakeup is not None else None
        return step.renamed(prefix + step.name, ready=ready, wakeup=wakeup)

    def drop_steps(self, steps: list[Step]) -> None:
        ids = {id(s) for s in steps}
        self.driver.steps = [s for s in self.driver.steps if id(s) not in ids]

    def note(self, text: str) -> None:
        self.driver.record("chaos", text)

    # -- per-call faults (reactors) --------------------------------------------------------------------------

    def attach_faults(self, process: Any, *, writes: bool) -> None:
        """Put the write-fault reactor (when `writes`) and the watch reactor in front of `process`'s client."""
        who = process.who
        if writes and self.config.write_fault_rate > 0:
            def write_fault(action: Action) -> tuple[bool, Any, BaseException | None]:
                if action.get_verb() not in WRITE_VERBS or self.fault_rng.random() >= self.config.write_fault_rate:
                    return False, None, None
                kind = self.fault_rng.choice(("409", "500", "504"))
                resource = action.get_resource().resource
                name = getattr(action, "name", "") or ""
                if kind == "409":
                    err = errors.new_conflict(GroupResource(action.get_resource().group, resource), name,
                                              "the object has been modified (injected)")
                elif kind == "500":
                    err = errors.new_internal_error("injected failure")
                else:
                    err = errors.new_timeout_error("injected timeout", 1)
                self.faults[f"write {kind}"] += 1
                self.note(f"{who}: {action.get_verb()} {resource} {name} fails with {kind} (not stored)")
                return True, None, err
            process.fake.prepend_reactor("*", "*", write_fault)

        transport = process.client.transport

        def watch_fault(action: Action) -> tuple[bool, watch.Interface | None, BaseException | None]:
            opts = action.list_options  # type: ignore[attr-defined]
            resource = action.get_resource().resource
            rv = opts.resource_version
            if rv not in ("", "0") and self.watch_rng.random() < self.config.watch_gone_rate:
                self.faults["watch 410"] += 1
                self.note(f"{who}: watch {resource} from resourceVersion {rv} answers 410 Expired")
                gone = watch.FakeWatcher()
                gone.error(errors.new_resource_expired(f"too old resource version: {rv} (injected)").status())
                return True, gone, None
            w = transport.watch(resource, action.namespace, opts)
            process.watches.append(w)
            return True, w, None
        process.fake.prepend_watch_reactor("*", watch_fault)

    # -- scheduled faults (the chaos step) ------------------------------------------------------------------

    def schedule_next(self) -> None:
        low, high = self.config.fault_interval
        self.next_fault = self.clock.now() + timedelta(seconds=self.schedule_rng.uniform(low, high))

    def fault_ready(self) -> bool:
        return self.next_fault is not None and self.clock.now() >= self.next_fault

    def fault_wakeup(self) -> datetime | None:
        return self.next_fault

    def leader(self) -> ControllerManager | None:
        for p in self.processes:
            if p.alive and p.leading:
                return p
        return None

    def fault_step(self) -> None:
        """Step: one scheduled fault, chosen by weight among those still allowed, then the next time."""
        cfg = self.config
        leader = self.leader()
        options: list[tuple[str, int]] = []
        if self.faults["watch closed"] < cfg.max_watch_closes and self.open_watches():
            options.append(("watch closed", 4))
        if leader is not None and self.faults["informer restart"] < cfg.max_informer_restarts:
            options.append(("informer restart", 1))
        if leader is not None and self.faults["crash"] < cfg.max_crashes:
            options.append(("crash", 1))
        if self.faults["apiserver reload"] < cfg.max_reloads:
            options.append(("apiserver reload", 1))
        self.schedule_next()
        if not options:
            return
        kinds = [k for k, _ in options]
        kind = self.schedule_rng.choices(kinds, weights=[w for _, w in options])[0]
        self.faults[kind] += 1
        if kind == "watch closed":
            owner, w = self.schedule_rng.choice(self.open_watches())
            self.note(f"close a watch of {owner} early")
            w.stop()
        elif kind == "informer restart":
            assert leader is not None
            self.note(f"{leader.who}: informers and controllers restart (fresh caches, same Lease)")
            leader.stop_generation()
            leader.start_generation()
        elif kind == "crash":
            assert leader is not None
            self.note(f"{leader.who} crashes (the Lease is not released); a new candidate starts")
            self.replace_process(leader)
        else:
            self.reload()

    def open_watches(self) -> list[tuple[str, watch.Interface]]:
        out = []
        for p in [*self.processes, self.kubelet_side]:
            if p is None or not p.alive:
                continue
            p.watches = [w for w in p.watches if not w.result_chan().closed]
            out += [(p.who, w) for w in p.watches]
        return out

    def reload(self) -> None:
        assert self.server is not None
        before = self.server.storage.resource_version
        forgotten = self.server.reload(self.server_rng, self.config.forget_on_reload)
        after = self.server.storage.resource_version
        self.cluster._cache.clear()  # its lists were the old server's; read the reloaded store afresh
        self.note(f"apiserver reloaded from SQLite: resourceVersion {before} -> {after}"
                  + (f" ({forgotten} objects forgotten: test fault)" if forgotten else ""))

    # -- checking --------------------------------------------------------------------------------------------

    def count_step(self, driver: Driver) -> None:
        self.steps_run += 1
        if self.steps_run > self.config.step_budget:
            raise ChaosViolation(f"step budget of {self.config.step_budget} exceeded at "
                                 f"+{(self.clock.now() - EPOCH).total_seconds():.3f} s")

    def finish(self) -> list[str]:
        """Reload from SQLite one last time and check every acknowledged write."""
        assert self.server is not None
        self.reload()
        return verify_acknowledged(self.server.target, self.server.acks)

    def close(self) -> None:
        if self.server is not None:
            self.server.target.close()
        if self.data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)


class _Side:
    """The kubelet and volume binder's side of the faults: watches only, never crashes."""

    def __init__(self, harness: Chaos, client: InProcessClientset) -> None:
        self.who = "kubelet"
        self.alive = True
        self.client = client
        self.fake = client.fake
        self.watches: list[watch.Interface] = []


def run_chaos(scenario: str, seed: int, config: ChaosConfig | None = None,
              around: Callable[[Callable[[], Any]], Any] | None = None,
              schedule: str = "deliver-first") -> ChaosResult:
    """Play `scenario` with `seed` under chaos; returns the result (violations included, never raised).

    `around(play)`, when given, calls `play` (how `--break` runs it under a first-call trace).
    `schedule` is the driver's policy, seeded with `seed` (minikcm.driver.new_schedule).
    """
    if scenario not in CHAOS_SCENARIOS:
        raise KeyError(f"no chaos scenario {scenario!r}; choose one of {', '.join(CHAOS_SCENARIOS)}")
    config = config or DEFAULT_CONFIG
    started = time.perf_counter()
    result = ChaosResult(scenario, seed, schedule=schedule)
    state: dict[str, Chaos] = {}

    def play() -> None:
        run = SCENARIOS[scenario].build(seed)
        run.driver.schedule = new_schedule(schedule, seed)
        chaos = state["chaos"] = Chaos(run, seed, config)
        chaos.install()
        run.run()

    # Chaos runs look for defects of the port, not of handlers: REALLY_CRASH off (Go's default is on).
    really_crash, runtime.REALLY_CRASH = runtime.REALLY_CRASH, False
    logging.getLogger(__name__).info("chaos %s seed %d: runtime.REALLY_CRASH is off: a raising event handler "
                                     "is logged and skipped", scenario, seed)
    try:
        try:
            (around or (lambda f: f()))(play)
        except InvariantViolation as err:
            result.violations.append(Violation("invariant", str(err)))
        except ChaosViolation as err:
            result.violations.append(Violation("step-budget", str(err)))
        except RuntimeError as err:
            if "did not" in str(err):  # a scenario's `until` timed out: it did not converge
                result.violations.append(Violation("convergence", str(err)))
            else:
                result.violations.append(Violation("crash", _describe(err)))
        except Exception as err:  # any other escape from a step is a defect of the port
            result.violations.append(Violation("crash", _describe(err)))
        chaos = state.get("chaos")
        if chaos is not None:
            try:
                lost = chaos.finish()
            except Exception as err:
                lost = [f"could not check the store: {_describe(err)}"]
            result.violations += [Violation("lost-write", text) for text in lost]
            result.trace = list(chaos.driver.trace)
            result.faults = chaos.faults
            result.steps = chaos.steps_run
            assert chaos.server is not None
            result.acknowledged = len(chaos.server.acks)
    finally:
        runtime.REALLY_CRASH = really_crash
        if "chaos" in state:
            state["chaos"].close()
    result.seconds = time.perf_counter() - started
    return result


def _describe(err: BaseException) -> str:
    tail = traceback.extract_tb(err.__traceback__)[-3:]
    where = "; ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}" for f in tail)
    return f"{type(err).__name__}: {err} (at {where})"


def plan(seed: int, runs: int, scenario: str | None = None) -> list[tuple[str, int]]:
    """The (scenario, seed) pairs of `minikcm chaos run`: seeds seed .. seed+runs-1, scenarios in turn."""
    return [(scenario or CHAOS_SCENARIOS[i % len(CHAOS_SCENARIOS)], seed + i) for i in range(runs)]
