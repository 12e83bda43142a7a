"""No upstream twin. The checks of the P1 leader-election exercises (chapter `p1`).

Table rows run an elector against a real Lease in the embedded API server,
through a clientset whose `Fake` records the API calls (so "no read on the
fast path" can be seen) and can make them fail. The try_acquire_or_renew
rows port upstream's TestTryAcquireOrRenewLeases table; the
new_leader_elector rows its TestLeaderElectionConfigValidation and the rules
of NewLeaderElector. The runs of the port are the `leader-failover` scenario
(three candidates, the leader crashes, one follower takes over after a lease
duration) and, for release, a small driver run of two candidates that release
on cancel.

Start reading at: CHAPTER, then World, then any `<name>_cases` function.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from minikcm.apimachinery import errors
from minikcm.client import InProcessClientset
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import Action
from minikcm.clock import EPOCH, FakeClock
from minikcm.exercises.base import Case, Chapter, CheckFailed, Exercise, expect, expect_equal
from minikcm.driver import Driver
from minikcm.sim.scenarios import get_scenario
from minikcm.sim.scenarios.leader import LEASE_DURATION, TAKEOVER_BOUND, LeaderFailover
from minikcm.tools.leaderelection.leaderelection import (
    JITTER_FACTOR,
    ZERO_TIME,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
)
from minikcm.tools.leaderelection.resourcelock import LEASES_RESOURCE_LOCK, ResourceLockConfig, new
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord as Record

LEADERELECTION = "minikcm.tools.leaderelection.leaderelection"
NAMESPACE, NAME = "kube-system", "kube-controller-manager"
PAST = EPOCH - timedelta(hours=1000)
FUTURE = EPOCH + timedelta(hours=1000)


# -- the world of a table row -------------------------------------------------------------------


def lease(record: Record) -> dict[str, Any]:
    """A Lease holding `record`, as the API takes it."""
    spec: dict[str, Any] = {"holderIdentity": record.holder_identity}
    if record.lease_duration_seconds:  # the API refuses 0; an absent field reads back as 0
        spec["leaseDurationSeconds"] = record.lease_duration_seconds
    if record.leader_transitions:
        spec["leaseTransitions"] = record.leader_transitions
    for key, t in (("acquireTime", record.acquire_time), ("renewTime", record.renew_time)):
        if t is not None:
            spec[key] = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": NAME, "namespace": NAMESPACE}, "spec": spec}


class World:
    """A fake clock, an API server (optionally holding a Lease) and a recording clientset."""

    def __init__(self, stored: Record | None = None) -> None:
        self.clock = FakeClock(EPOCH)
        self.client: InProcessClientset = new_simple_clientset(*([lease(stored)] if stored else []),
                                                               clock=self.clock)
        self.failing: set[str] = set()  # verbs on leases that fail with a 500 while listed here

        def fail(action: Action) -> tuple[bool, Any, Exception | None]:
            if action.get_verb() in self.failing:
                return True, None, errors.new_internal_error("etcdserver: request timed out")
            return False, None, None

        assert self.client.fake is not None
        self.client.fake.prepend_reactor("*", "leases", fail)

    def lock(self, identity: str = "baz") -> Any:
        return new(LEASES_RESOURCE_LOCK, NAMESPACE, NAME, self.client.coordination_v1(),
                   ResourceLockConfig(identity, None))

    def verbs(self) -> list[str]:
        """The verbs of the lease calls made so far."""
        assert self.client.fake is not None
        return [a.get_verb() for a in self.client.fake.actions() if a.get_resource().resource == "leases"]

    def spec(self) -> dict[str, Any]:
        """The Lease's spec as the server holds it ({} when there is no Lease)."""
        try:
            return dict(self.client.server.get("leases", NAMESPACE, NAME).get("spec") or {})
        except errors.StatusError as err:
            if errors.is_not_found(err):
                return {}
            raise

    def bare_elector(self, identity: str = "baz", observed: Record | None = None,
                     observed_time: datetime = ZERO_TIME, lease_duration: float = 10.0) -> LeaderElector:
        """An elector built field by field, as upstream's table test builds its own (no validation)."""
        le = LeaderElector(LeaderElectionConfig(lock=self.lock(identity), lease_duration=lease_duration,
                                                callbacks=LeaderCallbacks()), clock=self.clock)
        record = observed if observed is not None else Record()
        le.observed_record = replace(record)
        le.observed_raw_record = record.to_json()
        le.observed_time = observed_time
        return le

    def leader(self, identity: str = "baz", retry_period: float = 2.0) -> LeaderElector:
        """A validated elector (lease 15 s, renew 10 s) that has just acquired the Lease."""
        config = LeaderElectionConfig(lock=self.lock(identity), lease_duration=15.0, renew_deadline=10.0,
                                      retry_period=retry_period, name=NAME, callbacks=noop_callbacks())
        le = LeaderElector(config, clock=self.clock, rng=random.Random(1))
        le.begin_acquire()
        for _ in range(3):  # a Lease someone else left behind needs its duration to pass first
            if le.acquire_step():
                return le
            assert le.next_attempt is not None
            self.clock.set_time(le.next_attempt)
        raise CheckFailed(f"setting up: {identity} could not acquire the Lease")


def noop_callbacks() -> LeaderCallbacks:
    def started(stop: threading.Event) -> None:
        pass

    def stopped() -> None:
        pass

    return LeaderCallbacks(on_started_leading=started, on_stopped_leading=stopped)


def since_epoch(t: datetime | None) -> float | None:
    return None if t is None else round((t - EPOCH).total_seconds(), 6)


def spec_time(spec: dict[str, Any], key: str) -> float | None:
    value = spec.get(key)
    if value is None:
        return None
    return since_epoch(datetime.fromisoformat(str(value).replace("Z", "+00:00")))


# -- the runs of the port ------------------------------------------------------------------------


def play_leader_failover() -> tuple[LeaderFailover, list[str]]:
    """Play `leader-failover` and check its invariants; returns the scenario and the trace lines."""
    run = get_scenario("leader-failover").build(1)
    scenario: LeaderFailover = run.objects["scenario"]
    result = run.run()
    expect_equal(scenario.max_leaders, 1, "most candidates believing they lead at one moment")
    takeover = scenario.takeover
    expect(takeover is not None, "nobody took over after the leader crashed")
    assert takeover is not None
    expect(takeover.who != scenario.crashed, f"the crashed {scenario.crashed} 'took over'")
    expect(LEASE_DURATION <= takeover.after <= TAKEOVER_BOUND + 1e-6,
           f"{takeover.who} took over {takeover.after:.3f} s after it last saw the Lease change; "
           f"want between {LEASE_DURATION:g} s (the lease must run out) and {TAKEOVER_BOUND:g} s")
    expect_equal(scenario.leader_transitions(), 1, "leaseTransitions at the end (one takeover)")
    expect_equal(scenario.lease_holder(), takeover.who, "the Lease's holder at the end")
    return scenario, [str(e) for e in result.trace]


def run_leader_failover() -> None:
    play_leader_failover()


def run_leader_failover_renewals() -> None:
    """leader-failover, and the leaders renew exactly every retry period (2 s) while healthy."""
    scenario, _ = play_leader_failover()
    run_trace = scenario.driver.trace
    assert scenario.takeover is not None
    for who in (scenario.crashed, scenario.takeover.who):
        times = [e.time for e in run_trace if e.step == f"leaderelection/{who}/renew" and e.detail == "renewed"]
        expect(len(times) >= 5, f"{who} renewed only {len(times)} times while leading")
        gaps = {round((b - a).total_seconds(), 6) for a, b in zip(times, times[1:], strict=False)}
        expect_equal(gaps, {2.0}, f"seconds between {who}'s renewals")


def run_release_on_cancel() -> None:
    """Two candidates releasing on cancel: cancel the leader, the other leads within one jittered retry."""
    clock = FakeClock(EPOCH, driven=True)
    world_client = new_simple_clientset(clock=clock)
    driver = Driver(clock, trace_steps=False)
    leading: set[str] = set()
    electors: dict[str, LeaderElector] = {}
    stops: dict[str, threading.Event] = {}
    for i, who in enumerate(("kcm-a", "kcm-b")):
        def started(stop: threading.Event, who: str = who) -> None:
            leading.add(who)

        def stopped(who: str = who) -> None:
            leading.discard(who)

        lock = new(LEASES_RESOURCE_LOCK, NAMESPACE, NAME, world_client.coordination_v1(), ResourceLockConfig(who))
        config = LeaderElectionConfig(lock=lock, lease_duration=15.0, renew_deadline=10.0, retry_period=2.0,
                                      name=NAME, release_on_cancel=True,
                                      callbacks=LeaderCallbacks(on_started_leading=started, on_stopped_leading=stopped))
        electors[who] = new_leader_elector(config, clock=clock, rng=random.Random(i + 1))
        stops[who] = threading.Event()
        driver.add_all(electors[who].steps(stops[who], record=driver.record))
    driver.run_for(10.0)
    expect_equal(len(leading), 1, "candidates leading after 10 s")
    first = next(iter(leading))
    other = "kcm-b" if first == "kcm-a" else "kcm-a"
    stops[first].set()
    cancelled_at = clock.now()
    if not driver.run_until(lambda: other in leading, timeout=30.0):
        raise CheckFailed(f"{other} did not take over within 30 s of {first} being cancelled")
    waited = (clock.now() - cancelled_at).total_seconds()
    bound = 2.0 * (1 + JITTER_FACTOR) + 1.0  # one jittered retry, plus the lease of 1 s a release writes
    expect(waited <= bound, f"{other} took over {waited:.3f} s after {first} was cancelled; with the Lease "
                            f"released that takes at most {bound:g} s (a full lease duration means no release)")
    expect_equal(leading, {other}, "candidates leading at the end")


# -- try_acquire_or_renew -----------------------------------------------------------------------------

TRY_ACQUIRE_OR_RENEW_CASES = [
    # id (upstream's name),                                 stored record,                                          observed record,            observed time, retry after, success, transitions, holder, lease calls
    ("acquire from no object",                              None,                                                   None,                         ZERO_TIME, 0, True,  0, "baz",  ["get", "create"]),
    ("acquire from object without annotations",             Record(),                                               None,                         ZERO_TIME, 0, True,  1, "baz",  ["get", "update"]),
    ("acquire from led object with the lease duration seconds", Record(holder_identity="bing", lease_duration_seconds=3), None,                  ZERO_TIME, 3, True,  1, "baz",  ["get", "get", "update"]),
    ("acquire from led, unacked object",                    Record(holder_identity="bing"),                         Record(holder_identity="bing"), PAST,    0, True,  1, "baz",  ["get", "update"]),
    ("acquire from empty led, acked object",                Record(holder_identity=""),                             Record(),                     FUTURE,    0, True,  1, "baz",  ["get", "update"]),
    ("don't acquire from led, acked object",                Record(holder_identity="bing", lease_duration_seconds=10), None,                      FUTURE,    0, False, 0, "bing", ["get"]),
    ("renew already acquired object",                       Record(holder_identity="baz"),                          Record(holder_identity="baz"), FUTURE,   0, True,  0, "baz",  ["get", "update"]),
]


# Upstream's "don't acquire from led, acked object" stores no lease duration and relies on its
# ticking clock moving between two reads; our FakeClock does not tick, so the row stores 10 s.


def try_acquire_row(stored: Record | None, observed: Record | None, observed_time: datetime, retry_after: float,
                    want_success: bool, want_transitions: int, want_holder: str, want_verbs: list[str]) -> None:
    """Port of TestTryAcquireOrRenewLeases (leaderelection_test.go), one row."""
    world = World(stored)
    le = world.bare_elector(observed=observed, observed_time=observed_time)
    got = le.try_acquire_or_renew()
    if got != want_success and retry_after:
        world.clock.step(retry_after)
        got = le.try_acquire_or_renew()
    expect_equal(got, want_success, "try_acquire_or_renew()")
    expect_equal(le.observed_record.holder_identity, want_holder, "holder of the record the elector observed")
    expect_equal(le.observed_record.leader_transitions, want_transitions, "leader transitions it observed")
    expect_equal(world.verbs(), want_verbs, "API calls on the Lease")
    expect_equal(world.spec().get("holderIdentity") or "", want_holder, "holderIdentity in the stored Lease")


def fast_path_renews_without_a_read() -> None:
    world = World()
    le = world.bare_elector()
    expect(le.try_acquire_or_renew(), "the first attempt (no Lease yet) should create it")
    world.clock.step(1.0)
    expect(le.try_acquire_or_renew(), "renewing a Lease we hold should succeed")
    expect_equal(world.verbs(), ["get", "create", "update"], "API calls: the renewal must not read first")
    spec = world.spec()
    expect_equal((spec_time(spec, "acquireTime"), spec_time(spec, "renewTime")), (0.0, 1.0),
                 "(acquireTime, renewTime) in seconds: a renewal keeps the acquire time")


def conflict_on_the_fast_path_takes_the_slow_path() -> None:
    world = World()
    le = world.bare_elector()
    expect(le.try_acquire_or_renew(), "the first attempt (no Lease yet) should create it")
    stored = world.client.server.get("leases", NAMESPACE, NAME)
    stored["metadata"]["labels"] = {"touched-by": "someone-else"}  # a write that leaves the record alone
    world.client.server.update("leases", NAMESPACE, stored)
    world.clock.step(1.0)
    expect(le.try_acquire_or_renew(), "a renewal whose fast-path write hit a Conflict should still succeed")
    expect_equal(world.verbs(), ["get", "create", "update", "get", "update"],
                 "API calls: fast-path update (409), then get and update")


def expiry_is_judged_on_our_own_clock() -> None:
    """A record whose renewTime is long past is still live until *we* have seen it unchanged for its duration."""
    stale = Record(holder_identity="bing", lease_duration_seconds=10, renew_time=PAST, acquire_time=PAST)
    world = World(stale)
    le = world.bare_elector()
    expect(not le.try_acquire_or_renew(), "took over a lease we had never seen before: its renewTime is not ours to "
                                          "compare with our clock; wait lease_duration_seconds from now")
    world.clock.step(9.0)
    expect(not le.try_acquire_or_renew(), "took over 9 s after first seeing a 10 s lease")
    world.clock.step(1.0)
    expect(le.try_acquire_or_renew(), "did not take over 10 s after first seeing a 10 s lease that never changed")


def try_acquire_or_renew_cases() -> list[Case]:
    cases = [Case(row[0], partial(try_acquire_row, *row[1:])) for row in TRY_ACQUIRE_OR_RENEW_CASES]
    cases += [
        Case("fast-path-renews-without-a-read", fast_path_renews_without_a_read),
        Case("conflict-on-the-fast-path-takes-the-slow-path", conflict_on_the_fast_path_takes_the_slow_path),
        Case("expiry-is-judged-on-our-own-clock", expiry_is_judged_on_our_own_clock),
        Case("leader-failover", run_leader_failover, is_run=True),
    ]
    return cases


# -- renew_step ----------------------------------------------------------------------------------------


def renew_attempts(world: World, le: LeaderElector, until: float) -> list[tuple[float, bool]]:
    """Call renew_step at each next_attempt up to `until` s (or until it gives up): (seconds, returned)."""
    calls: list[tuple[float, bool]] = []
    for _ in range(50):
        when = le.next_attempt
        expect(when is not None, "renew_step left next_attempt unset")
        assert when is not None
        if since_epoch(when) > until:  # type: ignore[operator]
            break
        if when > world.clock.now():
            world.clock.set_time(when)
        ok = le.renew_step()
        calls.append((since_epoch(world.clock.now()) or 0.0, ok))
        if not ok:
            break
    return calls


def renew_success_comes_back_a_retry_period_later() -> None:
    world = World()
    le = world.leader()
    expect_equal(renew_attempts(world, le, until=4.0), [(0.0, True), (2.0, True), (4.0, True)],
                 "(second, renew_step) of a healthy leader")
    expect_equal(le.renew_poll_deadline, None, "renew_poll_deadline after a success (the round is closed)")
    expect_equal(since_epoch(le.next_attempt), 6.0, "next_attempt after the renewal at 4 s")
    expect_equal(spec_time(world.spec(), "renewTime"), 4.0, "the Lease's renewTime")


def renew_failure_opens_a_round() -> None:
    world = World()
    le = world.leader()
    world.failing = {"update"}
    expect(le.renew_step(), "a failed renewal is retried, so renew_step returns True")
    expect_equal((since_epoch(le.next_attempt), since_epoch(le.renew_poll_deadline)), (2.0, 10.0),
                 "(next_attempt, renew_poll_deadline) after a failure at 0 s")


def renew_gives_up_at_the_deadline(retry_period: float, want: list[tuple[float, bool]]) -> None:
    world = World()
    le = world.leader(retry_period=retry_period)
    world.failing = {"update"}
    expect_equal(renew_attempts(world, le, until=30.0), want,
                 f"(second, renew_step) while every renewal fails (retry {retry_period:g} s, deadline 10 s)")


def renew_success_closes_the_round() -> None:
    world = World()
    le = world.leader()
    world.failing = {"update"}
    renew_attempts(world, le, until=2.0)
    world.failing = set()
    renew_attempts(world, le, until=4.0)
    expect_equal((since_epoch(le.next_attempt), le.renew_poll_deadline), (6.0, None),
                 "(next_attempt, renew_poll_deadline) after a success at 4 s ended a failing round")
    world.failing = {"update"}
    renew_attempts(world, le, until=6.0)
    expect_equal(since_epoch(le.renew_poll_deadline), 16.0, "the deadline of a new failing round opened at 6 s")


def renew_stop_ends_at_once() -> None:
    world = World()
    le = world.leader()
    calls = len(world.verbs())
    le.stop.set()
    expect_equal(le.renew_step(), False, "renew_step once stop is set")
    expect(le.leading_stop.is_set(), "stop must end the leading context (self.leading_stop)")
    expect_equal(world.verbs()[calls:], [], "API calls made after stop")


def renew_step_cases() -> list[Case]:
    return [
        Case("a-success-comes-back-a-retry-period-later", renew_success_comes_back_a_retry_period_later),
        Case("a-failure-opens-a-round-with-a-deadline", renew_failure_opens_a_round),
        Case("gives-up-at-the-renew-deadline", partial(renew_gives_up_at_the_deadline, 2.0, [
            (0.0, True), (2.0, True), (4.0, True), (6.0, True), (8.0, True), (10.0, False)])),
        Case("the-last-retry-is-cut-to-the-deadline", partial(renew_gives_up_at_the_deadline, 3.0, [
            (0.0, True), (3.0, True), (6.0, True), (9.0, True), (10.0, False)])),
        Case("a-success-closes-the-round", renew_success_closes_the_round),
        Case("stop-ends-leadership-at-once", renew_stop_ends_at_once),
        Case("leader-failover: renewals every 2 s", run_leader_failover_renewals, is_run=True),
    ]


# -- release -----------------------------------------------------------------------------------------


def release_a_lock_we_hold() -> None:
    world = World()
    le = world.leader()
    world.clock.step(5.0)
    before = len(world.verbs())
    expect_equal(le.release(), True, "release() of a lock we hold")
    spec = world.spec()
    got = (spec.get("holderIdentity") or "", spec.get("leaseDurationSeconds"), spec.get("leaseTransitions"),
           spec_time(spec, "renewTime"))
    expect_equal(got, ("", 1, 0, 5.0), "the Lease's (holder, leaseDurationSeconds, leaseTransitions, renewTime)")
    expect_equal(world.verbs()[before:], ["get", "update"], "API calls of release: read, then write")
    expect_equal(le.observed_record.holder_identity, "", "holder of the record the elector observed afterwards")


def release_keeps_the_transitions() -> None:
    world = World(Record(holder_identity="bing", lease_duration_seconds=1, leader_transitions=2))
    le = world.leader()  # takes the expired-looking lease over: transitions 3
    expect_equal(le.release(), True, "release() of a lock we took over")
    expect_equal(world.spec().get("leaseTransitions"), 3, "leaseTransitions after release (kept, not reset)")


def release_leaves_a_foreign_lock() -> None:
    world = World(Record(holder_identity="bing", lease_duration_seconds=15))
    le = world.bare_elector(observed=Record(holder_identity="bing", lease_duration_seconds=15), observed_time=EPOCH)
    expect_equal(le.release(), True, "release() of a lock someone else holds (nothing to do)")
    expect_equal(world.verbs(), ["get"], "API calls: read only")
    expect_equal(world.spec().get("holderIdentity"), "bing", "holder afterwards")


def release_without_a_lease() -> None:
    world = World()
    le = world.bare_elector(observed=Record(holder_identity="baz"), observed_time=EPOCH)
    expect_equal(le.release(), False, "release() when the Lease does not exist")
    expect_equal(world.verbs(), ["get"], "API calls")


def release_with_a_failing_read() -> None:
    world = World()
    le = world.leader()
    before = len(world.verbs())
    world.failing = {"get"}
    expect_equal(le.release(), False, "release() when reading the Lease fails")
    expect_equal(world.verbs()[before:], ["get"], "API calls: no write after a failed read")


def release_with_a_failing_write() -> None:
    world = World()
    le = world.leader()
    world.failing = {"update"}
    expect_equal(le.release(), False, "release() when writing the Lease fails")
    expect_equal(le.observed_record.holder_identity, "baz", "observed holder after a failed release (unchanged)")


def release_cases() -> list[Case]:
    return [
        Case("releases-a-lock-we-hold", release_a_lock_we_hold),
        Case("keeps-the-transition-count", release_keeps_the_transitions),
        Case("leaves-a-lock-someone-else-holds", release_leaves_a_foreign_lock),
        Case("no-lease-is-a-failure", release_without_a_lease),
        Case("a-failed-read-is-a-failure", release_with_a_failing_read),
        Case("a-failed-write-keeps-the-observed-record", release_with_a_failing_write),
        Case("release-on-cancel: quick takeover", run_release_on_cancel, is_run=True),
    ]


# -- new_leader_elector ----------------------------------------------------------------------------------


def valid_config(world: World, **overrides: Any) -> LeaderElectionConfig:
    config = LeaderElectionConfig(lock=world.lock(), lease_duration=15.0, renew_deadline=2.0, retry_period=1.0,
                                  release_on_cancel=True, callbacks=noop_callbacks())
    return replace(config, **overrides)


NEW_LEADER_ELECTOR_ERROR_CASES = [
    # id,                               overrides,                                                     message
    ("lease-not-above-renew",           {"lease_duration": 10.0, "renew_deadline": 10.0},               "leaseDuration must be greater than renewDeadline"),
    ("renew-not-above-jittered-retry",  {"renew_deadline": 2.4, "retry_period": 2.0},                   "renewDeadline must be greater than retryPeriod*JitterFactor"),
    ("lease-not-positive",              {"lease_duration": 0.0, "renew_deadline": -1.0, "retry_period": -1.0}, "leaseDuration must be greater than zero"),
    ("renew-not-positive",              {"lease_duration": 1.0, "renew_deadline": 0.0, "retry_period": -1.0},  "renewDeadline must be greater than zero"),
    ("retry-not-positive",              {"retry_period": 0.0},                                          "retryPeriod must be greater than zero"),
    ("no-on-started-leading",           {"callbacks": LeaderCallbacks(on_stopped_leading=print)},       "OnStartedLeading callback must not be nil"),
    ("no-on-stopped-leading",           {"callbacks": LeaderCallbacks(on_started_leading=print)},       "OnStoppedLeading callback must not be nil"),
    ("no-lock",                         {"lock": None},                                                 "Lock must not be nil."),
]


def new_leader_elector_rejects(overrides: dict[str, Any], message: str) -> None:
    world = World()
    try:
        new_leader_elector(valid_config(world, **overrides))
    except ValueError as err:
        expect_equal(str(err), message, "the ValueError's message")
        return
    raise CheckFailed(f"new_leader_elector accepted a config it must refuse with {message!r}")


def new_leader_elector_rejects_an_empty_identity() -> None:
    world = World()
    new_leader_elector_rejects({"lock": world.lock("")}, "Lock identity is empty")


def new_leader_elector_builds() -> None:
    """Port of TestLeaderElectionConfigValidation (leaderelection_test.go): a good config gives an elector."""
    world = World()
    config = valid_config(world)
    rng = random.Random(3)
    le = new_leader_elector(config, clock=world.clock, rng=rng)
    expect(isinstance(le, LeaderElector), f"want a LeaderElector, got {le!r}")
    expect((le.config, le.clock, le.rng) == (config, world.clock, rng), "the elector must keep the config, "
                                                                        "clock and rng it was given")


def new_leader_elector_cases() -> list[Case]:
    cases = [Case(i, partial(new_leader_elector_rejects, overrides, message))
             for i, overrides, message in NEW_LEADER_ELECTOR_ERROR_CASES]
    cases += [
        Case("empty-identity", new_leader_elector_rejects_an_empty_identity),
        Case("a-good-config-gives-an-elector", new_leader_elector_builds),
        Case("leader-failover", run_leader_failover, is_run=True),
    ]
    return cases


# -- the chapter ----------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p1",
    title_en="P1 Leader election",
    title_zh="P1 领导者选举",
    reading_map="p1-leader-election.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="try_acquire_or_renew",
            target=f"{LEADERELECTION}.LeaderElector.try_acquire_or_renew",
            go_symbol="LeaderElector.tryAcquireOrRenew (k8s.io/client-go/tools/leaderelection/leaderelection.go)",
            goal_en="One attempt to become or stay the holder: fast path, read or create, expiry by our own clock, write.",
            goal_zh="一次抢锁或续约：快速路径、读取或创建、用自己的时钟判断过期、写入自己。",
            hint_en="Compare the raw record bytes to notice a change and restart observed_time; a lease held by "
                    "someone else is live until observed_time + lease_duration_seconds on our clock; taking over "
                    "adds a transition, renewing keeps acquire time and transitions.",
            hint_zh="用原始字节比较记录是否变化，变了就重置 observed_time；别人持有的租约在我们自己的时钟上"
                    " observed_time + lease_duration_seconds 之前都算有效；接管时 transitions 加一，续约时保留"
                    "获取时间和 transitions。",
            cases=try_acquire_or_renew_cases,
            runs=("leader-failover",),
        ),
        Exercise(
            name="renew_step",
            target=f"{LEADERELECTION}.LeaderElector.renew_step",
            go_symbol="the loop body of LeaderElector.renew (k8s.io/client-go/tools/leaderelection/leaderelection.go)",
            goal_en="One step of the renew loop: renew, retry after a failure, give up at the renew deadline.",
            goal_zh="续约循环的一步：续约；失败后重试；到续约截止时间就放手。",
            hint_en="The first attempt of a round sets renew_poll_deadline = now + renew_deadline; at or past it, "
                    "return False; a success closes the round (None) and comes back a retry period later; a "
                    "failure comes back min(now + retry_period, deadline).",
            hint_zh="一轮的第一次尝试设定 renew_poll_deadline = now + renew_deadline；到了或过了就返回 False；"
                    "成功就结束这一轮（设为 None），一个 retry_period 后再来；失败就在 "
                    "min(now + retry_period, 截止时间) 再来。",
            cases=renew_step_cases,
            runs=("leader-failover",),
        ),
        Exercise(
            name="release",
            target=f"{LEADERELECTION}.LeaderElector.release",
            go_symbol="LeaderElector.release (k8s.io/client-go/tools/leaderelection/leaderelection.go)",
            goal_en="Give the lock up on cancel: read, check we still hold it, write an empty holder with a 1 s lease.",
            goal_zh="取消时释放锁：先读，确认自己仍是持有者，再写入空的持有者和 1 秒的租约。",
            hint_en="Any read error is False; a lock we do not hold is True with no write; the release record keeps "
                    "the transitions just read; remember the record you wrote (set_observed_record).",
            hint_zh="读取出错返回 False；不是自己持有的锁返回 True 且不写；释放的记录保留刚读到的 transitions；"
                    "写成功后用 set_observed_record 记住它。",
            cases=release_cases,
            runs=("release-on-cancel (two candidates, a small driver run)",),
        ),
        Exercise(
            name="new_leader_elector",
            target=f"{LEADERELECTION}.new_leader_elector",
            go_symbol="NewLeaderElector (k8s.io/client-go/tools/leaderelection/leaderelection.go)",
            goal_en="Validate a config: lease_duration > renew_deadline > 1.2 x retry_period, all positive, "
                    "callbacks and a lock with an identity.",
            goal_zh="校验配置：lease_duration > renew_deadline > 1.2×retry_period，都为正数；回调齐全；锁有身份。",
            hint_en="Check in upstream's order and raise ValueError with upstream's message for the first rule "
                    "broken; the comparisons are strict (equal durations are refused).",
            hint_zh="按上游的顺序检查，对第一条不满足的规则抛出带上游原文的 ValueError；比较都是严格的（相等也要拒绝）。",
            cases=new_leader_elector_cases,
            runs=("leader-failover",),
        ),
    ),
)
"""The `p1` chapter's row of minikcm.exercises.EXERCISES."""
