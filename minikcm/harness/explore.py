"""No upstream twin. The schedule explorer: a chapter scenario under many interleaved schedules.

`minikcm explore --scenario S --schedules N --seed K` plays scenario S N times
under the driver's `interleaved` policy (minikcm.driver), schedule i with seed
K + i (the scenario's seed and the policy's draws both), and checks the
scenario's invariants after every step:

- the Cluster's checks that the workload scenarios install (minikcm.sim.scenarios.cluster:
  never more pods than replicas plus surge and never fewer than replicas minus
  unavailable during a rolling update, Recreate never overlapping, StatefulSet
  ordinals created and removed in order and partitions kept, cascade ordering,
  the ReplicaSet never creating a pod when spec.replicas are there nor deleting
  one when there are not more);
- at most one leader, in any scenario that samples a `leaders` series;
- no ReplicaSet sync acts on a cache behind its own writes: a sync that
  started while the pod or ReplicaSet informer had not yet seen a version the
  controller itself wrote for that ReplicaSet must end refused (ConsistencyError),
  not go on to manage pods and write a status from that stale read
  (`StaleSyncWatch`; the writes are learned from the controller's `wrote_at`
  calls, the reads from the informers' stores);
- convergence: every state the script waits for is reached within its timeout.

A broken schedule is a violation; the explorer prints it with the command that
replays it (`minikcm demo run S --seed K+i --schedule interleaved`) and ends
with the line `explore: N schedules, V violations`.

Mutation check. `--without expectations` and `--without consistency` take one
defence away from every ReplicaSet controller of the scenario, from the
outside: the harness replaces the controller instance's `expectations` with
one whose `satisfied_expectations` always answers True, or its
`consistency_store` with one whose `ensure_ready` never refuses. The port keeps
no switch for either. The explorer must then find the violation the defence
prevents (tests/harness/test_explore.py), which proves it can fail.

Start reading at: explore, then play_schedule, then Mutant.install.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minikcm.apimachinery.types import NamespacedName
from minikcm.controller.replicaset.replica_set import ReplicaSetController
from minikcm.controller.util.consistency import ConsistencyError, compare_resource_version
from minikcm.driver import Driver, Interleaved, ScenarioDidNotSettle
from minikcm.sim.scenarios import SCENARIOS, Run, get_scenario
from minikcm.sim.scenarios.cluster import InvariantViolation

DEFENCES = ("expectations", "consistency")
"""What `--without` can take away from the ReplicaSet controller."""


class AlwaysSatisfied:
    """Expectations that are always satisfied (the `expectations` mutant); everything else is delegated."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def satisfied_expectations(self, controller_key: str) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class NeverRefuses:
    """A consistency store that never refuses a sync (the `consistency` mutant); writes are still recorded."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def ensure_ready(self, owner: Any) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@dataclass(frozen=True)
class Mutant:
    """One defence taken away from every ReplicaSet controller of a built scenario."""

    without: str

    def install(self, run: Run) -> int:
        """Wrap the defence of each ReplicaSet controller in `run`; returns how many controllers were changed."""
        controllers = replica_set_controllers(run)
        for rsc in controllers:
            if self.without == "expectations":
                rsc.expectations = AlwaysSatisfied(rsc.expectations)  # type: ignore[assignment]
            else:
                rsc.consistency_store = NeverRefuses(rsc.consistency_store)
        return len(controllers)


def replica_set_controllers(run: Run) -> list[ReplicaSetController]:
    """The ReplicaSet controllers of a built scenario (the Cluster's components and the run's objects)."""
    found: dict[int, ReplicaSetController] = {}
    candidates: list[Any] = list(run.objects.values())
    cluster = run.objects.get("cluster")
    if cluster is not None:
        candidates += list(getattr(cluster, "components", {}).values())
    for obj in candidates:
        if isinstance(obj, ReplicaSetController):
            found[id(obj)] = obj
    return list(found.values())


class StaleSyncWatch:
    """The invariant "no ReplicaSet sync acts on a cache behind its own writes" for one controller.

    Wraps the instance's `sync_handler` (the seam upstream's tests use) and its
    consistency store's `wrote_at` (to log the controller's writes). A sync that
    starts while a store lags behind a logged write and does not end with
    ConsistencyError is noted; `check`, a driver observer, raises it after the
    step (raising inside the sync would only be caught by the worker).
    """

    def __init__(self, rsc: ReplicaSetController, run: Run) -> None:
        self.run = run
        self.written: dict[NamespacedName, dict[Any, str]] = {}
        self.broken: list[str] = []
        store = rsc.consistency_store
        real = getattr(store, "inner", store)  # under the consistency mutant, the store it wraps
        self.stores: dict[Any, Any] = dict(getattr(real, "stores", {}) or {})
        inner_wrote_at, inner_sync = real.wrote_at, rsc.sync_handler

        def wrote_at(owner: NamespacedName, owner_uid: str, resource: Any, rv: str) -> None:
            log = self.written.setdefault(owner, {})
            if rv.isdigit() and (resource not in log or compare_resource_version(rv, log[resource]) > 0):
                log[resource] = rv
            inner_wrote_at(owner, owner_uid, resource, rv)

        def sync(key: str) -> None:
            namespace, _, name = key.rpartition("/")
            lagging = self.lagging(NamespacedName(namespace, name))
            refused = False
            try:
                inner_sync(key)
            except ConsistencyError:
                refused = True
                raise
            finally:
                if lagging and not refused:
                    self.broken.append(f"sync of {key} went on with the {lagging}")

        real.wrote_at = wrote_at  # the pod control's callback calls it on this instance too
        rsc.sync_handler = sync

    def lagging(self, owner: NamespacedName) -> str:
        """Which store lags behind the controller's own writes for `owner`, in words ("" when none)."""
        out = []
        for resource, wrote in sorted(self.written.get(owner, {}).items(), key=lambda kv: str(kv[0])):
            store = self.stores.get(resource)
            read = store.last_store_sync_resource_version() if store is not None else ""
            if read.isdigit() and compare_resource_version(wrote, read) > 0:
                out.append(f"{resource} cache at {read}, behind its own write at {wrote}")
        return "; ".join(out)

    def check(self, driver: Driver) -> None:
        if self.broken:
            raise InvariantViolation(f"invariant broken at +{self.run.sampler.elapsed():.3f} s: "
                                     f"a ReplicaSet sync acted on a stale cache: {self.broken[0]}")


@dataclass
class ScheduleResult:
    """One explored schedule: its seed, how many steps ran, and what broke (None: nothing)."""

    scenario: str
    seed: int
    steps: int = 0
    violation: str | None = None
    without: str | None = None

    def replay_command(self) -> str:
        if self.without is None:
            return f"minikcm demo run {self.scenario} --seed {self.seed} --schedule interleaved"
        return (f"minikcm explore --scenario {self.scenario} --schedules 1 --seed {self.seed} "
                f"--without {self.without}")


@dataclass
class ExploreResult:
    """All schedules of one `explore` call."""

    scenario: str
    schedules: list[ScheduleResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def violations(self) -> list[ScheduleResult]:
        return [s for s in self.schedules if s.violation is not None]

    def last_line(self) -> str:
        return f"explore: {len(self.schedules)} schedules, {len(self.violations)} violations"


def at_most_one_leader(run: Run) -> Callable[[Driver], None] | None:
    """A driver observer raising InvariantViolation when the `leaders` probe says two; None without that probe."""
    probe = run.sampler.probes.get("leaders")
    if probe is None:
        return None

    def check(driver: Driver) -> None:
        leaders = probe()
        if leaders > 1:
            raise InvariantViolation(f"invariant broken at +{run.sampler.elapsed():.3f} s: {leaders} leaders")
    return check


def play_schedule(scenario: str, seed: int, without: str | None = None) -> ScheduleResult:
    """Build `scenario` with `seed`, set the interleaved policy (same seed), play it; never raises a violation."""
    result = ScheduleResult(scenario, seed, without=without)
    run = get_scenario(scenario).build(seed)
    run.driver.schedule = Interleaved(seed)
    if without is not None and Mutant(without).install(run) == 0:
        raise ValueError(f"scenario {scenario!r} has no ReplicaSet controller to run --without {without}")
    for rsc in replica_set_controllers(run):
        run.driver.observers.append(StaleSyncWatch(rsc, run).check)
    leader_check = at_most_one_leader(run)
    if leader_check is not None:
        run.driver.observers.append(leader_check)
    try:
        run.run()
    except InvariantViolation as err:
        result.violation = f"invariant: {err}"
    except ScenarioDidNotSettle as err:
        result.violation = f"convergence: {err}"
    except RuntimeError as err:
        if "did not" not in str(err):  # anything but a script's `until` timing out is a defect
            raise
        result.violation = f"convergence: {err}"
    result.steps = sum(1 for e in run.driver.trace if not e.detail) if run.driver.trace_steps else len(run.driver.trace)
    return result


def explore(scenario: str, schedules: int, seed: int = 1, without: str | None = None,
            report: Callable[[ScheduleResult], None] | None = None,
            stop_at_first: bool = False) -> ExploreResult:
    """Play `schedules` interleaved schedules of `scenario`, seeds `seed` .. `seed + schedules - 1`.

    `report(result)`, when given, is called after each schedule. `stop_at_first`
    ends at the first violation (how the mutants are measured).

    Raises:
        KeyError: no such scenario.
        ValueError: `schedules` < 1, `without` is not a defence, or the scenario has no ReplicaSet controller.
    """
    if scenario not in SCENARIOS:
        get_scenario(scenario)  # raises with close matches
    if schedules < 1:
        raise ValueError(f"schedules: Invalid value: {schedules}: must be at least 1")
    if without is not None and without not in DEFENCES:
        raise ValueError(f"without: Unsupported value: {without!r}: supported values: {', '.join(DEFENCES)}")
    started = time.perf_counter()
    out = ExploreResult(scenario)
    for i in range(schedules):
        one = play_schedule(scenario, seed + i, without)
        out.schedules.append(one)
        if report is not None:
            report(one)
        if stop_at_first and one.violation is not None:
            break
    out.seconds = time.perf_counter() - started
    return out
