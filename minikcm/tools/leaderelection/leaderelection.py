"""Port of k8s.io/client-go/tools/leaderelection/leaderelection.go.

Several copies of kube-controller-manager run at once; this makes exactly one of
them act. Each candidate keeps trying to write its name into a shared lock (a
Lease, see resourcelock). The one that succeeds is the leader: it gets the
`on_started_leading` callback and then renews the lock every retry period. The
others keep watching the record and take over only after it has stopped
changing for a whole lease duration.

Start reading at: LeaderElector.try_acquire_or_renew, then acquire_step and
renew_step, then run.

Not ported: metrics (leaderOn/leaderOff/slowpathExercised), the per-call timeout
of `release`, HandleCrash around `run`, leasecandidate.go.
Differs from Go:
- Errors are raised: `new_leader_elector` raises ValueError with Go's messages,
  `check` raises RuntimeError, `run_or_die` raises RuntimeError for a bad config.
- `on_started_leading` gets a `threading.Event` (set when leadership ends)
  instead of a context, set as soon as the renew loop sees `stop` (Go: at
  once, the context is a child of Run's).
- Every loop has a step. Go's `acquire` is a JitterUntil loop around one
  tryAcquireOrRenew and `renew` an Until loop around a PollUntilContextTimeout
  that gives up after RenewDeadline. Here one iteration of each is a method
  (`acquire_step`, `renew_step`) that also records when the next attempt is
  due (`next_attempt`): acquire retries a jittered retry period later
  (`wait.jitter(retry_period, JITTER_FACTOR)`, 1x to 2.2x); renew comes back a
  retry period after a success and, after a failure, retries every retry
  period until `renew_deadline` has passed since the round's first attempt
  (the poll's timeout wins a tie with a tick). The step that ends a phase
  does what Run does next: `acquire_step` starts `on_started_leading` through
  `leading_group` (Go: `go`; inline on a driven clock, like `on_new_leader`),
  and the last step ends the term (`end_renew`, `finish`). The threaded `run`
  sleeps on the clock until `next_attempt` between steps; the driver jumps
  the fake clock there (`steps`). Both modes run the same bodies at the same
  clock times.
- Go's RWMutex over the observed record is a plain Lock.

Safety rests on local time only: a record is "expired" when this candidate has
seen no change in it for `lease_duration_seconds` of *its own* clock
(`observed_time`), never by comparing the record's timestamps with our clock.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from minikcm.apimachinery import errors, wait
from minikcm.clock import Clock, Seconds, or_real
from minikcm.driver import Step
from minikcm.tools.leaderelection.resourcelock.interface import Interface, LeaderElectionRecord

if TYPE_CHECKING:
    from minikcm.tools.leaderelection.healthzadaptor import HealthzAdaptor

logger = logging.getLogger(__name__)

JITTER_FACTOR = 1.2
"""Port of JitterFactor: acquire retries wait retry_period * (1 + up to 1.2)."""

ZERO_TIME = datetime(1, 1, 1, tzinfo=timezone.utc)
"""Go's zero time.Time: the observed time of an elector that has observed nothing."""

# Lifecycle of one elector (no Go twin: Go keeps this in the call stack of Run).
NEW = "new"
ACQUIRING = "acquiring"
LEADING = "leading"
STOPPED = "stopped"


def new_leader_elector(
    lec: LeaderElectionConfig, clock: Clock | None = None, rng: random.Random | None = None
) -> LeaderElector:
    """Port of NewLeaderElector (leaderelection.go): check the config, then build the elector.

    The timings must nest: lease_duration > renew_deadline > JITTER_FACTOR *
    retry_period, all positive. With the kube-controller-manager defaults
    (15 s, 10 s, 2 s): 15 > 10 > 2.4. A leader that keeps failing gives up
    after renew_deadline, before others may take over at lease_duration.

    Differs from Go: `clock` (real by default) and `rng` (jitter) are injected here.
    Raises:
        ValueError: with upstream's message for the first rule broken.
    """
    if lec.lease_duration <= lec.renew_deadline:
        raise ValueError("leaseDuration must be greater than renewDeadline")
    if lec.renew_deadline <= JITTER_FACTOR * lec.retry_period:
        raise ValueError("renewDeadline must be greater than retryPeriod*JitterFactor")
    if lec.lease_duration <= 0:
        raise ValueError("leaseDuration must be greater than zero")
    if lec.renew_deadline <= 0:
        raise ValueError("renewDeadline must be greater than zero")
    if lec.retry_period <= 0:
        raise ValueError("retryPeriod must be greater than zero")
    if lec.callbacks.on_started_leading is None:
        raise ValueError("OnStartedLeading callback must not be nil")
    if lec.callbacks.on_stopped_leading is None:
        raise ValueError("OnStoppedLeading callback must not be nil")
    if lec.lock is None:
        raise ValueError("Lock must not be nil.")
    if lec.lock.identity() == "":
        raise ValueError("Lock identity is empty")
    return LeaderElector(lec, clock=clock, rng=rng)


@dataclass
class LeaderCallbacks:
    """Port of LeaderCallbacks (leaderelection.go).

    `on_started_leading(stop)` runs once we hold the lock; `stop` is set when
    leadership ends. `on_stopped_leading()` runs whenever the elector exits,
    *even if it never led*. `on_new_leader(identity)` runs each time we see a
    different holder, including the first one we see (and ourselves).
    Threaded runs call the first in a thread `leaderelection/leading-<n>` and
    the last in `leaderelection/new-leader-<n>`; on a driven clock all three
    are called inline, so they must not block.
    """

    on_started_leading: Callable[[threading.Event], None] | None = None
    on_stopped_leading: Callable[[], None] | None = None
    on_new_leader: Callable[[str], None] | None = None


@dataclass
class LeaderElectionConfig:
    """Port of LeaderElectionConfig (leaderelection.go). Durations are seconds."""

    lock: Interface | None = None
    """Where the record is kept (a resourcelock.LeaseLock)."""
    lease_duration: Seconds = 0.0
    """How long a follower must see no change in the record before taking over."""
    renew_deadline: Seconds = 0.0
    """How long the leader keeps retrying a failed renewal before giving up."""
    retry_period: Seconds = 0.0
    """Time between attempts (jittered while acquiring)."""
    callbacks: LeaderCallbacks = field(default_factory=LeaderCallbacks)
    watch_dog: HealthzAdaptor | None = None
    """Optional health check that `run_or_die` ties to the elector."""
    release_on_cancel: bool = False
    """Write an empty holder when we stop, so a successor need not wait out the lease.
    Only safe if everything the lease guards has finished by then."""
    name: str = ""
    """Name of the lock, for logs and the health check message."""
    coordinated: bool = False
    """Coordinated leader election (alpha upstream): only renew, never take over."""


class LeaderElector:
    """Port of LeaderElector (leaderelection.go): one candidate in an election.

    Holds what this candidate last saw of the record (`observed_record`, its
    raw bytes, and `observed_time`, when *our* clock saw it change). All
    expiry decisions are made from these. It guarantees no fencing: a leader
    that stalls longer than lease_duration may briefly overlap its successor;
    renew_deadline < lease_duration makes a healthy leader give up first.

    Thread: `run` on its own thread (or the driver calling `steps`); the
    observed record is guarded by `_lock` so `is_leader`, `get_leader` and
    `check` may be called from any thread.
    """

    def __init__(
        self, config: LeaderElectionConfig, clock: Clock | None = None, rng: random.Random | None = None
    ) -> None:
        self.config = config
        self.clock: Clock = or_real(clock)
        self.rng = rng  # jitter source; None uses wait.jitter_rand
        self._lock = threading.Lock()  # Go: observedRecordLock; guards the next two fields
        self.observed_record = LeaderElectionRecord()
        self.observed_time: datetime = ZERO_TIME
        self.observed_raw_record = b""  # elector thread only, as in Go
        self.reported_leader = ""  # last holder passed to on_new_leader; may lag observed_record
        # Schedule of the loops (no Go twin, see Design notes); elector thread only.
        self.state = NEW
        self.next_attempt: datetime | None = None
        self.renew_poll_deadline: datetime | None = None  # None: no failed renew round open
        self.leading_stop = threading.Event()  # handed to on_started_leading
        self.stop = threading.Event()  # steps() runs: set it to cancel (Go: ctx)
        # Go: `go OnStartedLeading(ctx)`, `go OnNewLeader(...)`; inline on a driven clock.
        self.leading_group = wait.Group(inline=self.clock.driven, name="leaderelection/leading")
        self.new_leader_group = wait.Group(inline=self.clock.driven, name="leaderelection/new-leader")
        self.record: Callable[[str, str], None] | None = None  # e.g. Driver.record

    @property
    def lock(self) -> Interface:
        """No upstream twin: the config's lock (new_leader_elector checks that there is one)."""
        assert self.config.lock is not None
        return self.config.lock

    def run(self, stop: threading.Event) -> None:
        """Port of LeaderElector.Run (leaderelection.go).

        Tries to acquire the lock until it succeeds or `stop` is set; once
        leading, renews until renewal fails or `stop` is set. The loops are
        `acquire_step` and `renew_step`, the same bodies the driver calls one at
        a time (`steps`); `acquire_step` starts `on_started_leading` (Go: `go
        OnStartedLeading(ctx)` between acquire and renew) and the last step
        calls `on_stopped_leading`.

        Blocks: until `stop` is set or leadership is lost. Threaded mode only.
        """
        self.stop = stop
        try:
            if self.acquire():
                self.renew()
        finally:
            self.finish()  # Go: the deferred calls, also when a step raised

    def get_leader(self) -> str:
        """Port of LeaderElector.GetLeader: the last holder we saw ("" if none), for information only."""
        return self.get_observed_record().holder_identity

    def is_leader(self) -> bool:
        """Port of LeaderElector.IsLeader: does the last record we saw name us?"""
        return self.get_observed_record().holder_identity == self.lock.identity()

    def acquire(self) -> bool:
        """Port of LeaderElector.acquire (leaderelection.go): retry until we hold the lock.

        Returns True once acquired, False if `stop` was set first.
        Blocks: on the clock between attempts (Go: wait.JitterUntil, sliding).
        """
        self.state = NEW  # acquire_step's first call begins acquiring
        while not self.acquire_step():
            if self.state == STOPPED:
                return False
            self.sleep_until_next_attempt()
        return True

    def begin_acquire(self) -> None:
        """Port of the start of LeaderElector.acquire: the first attempt is due at once."""
        logger.info("attempting to acquire leader lease %s", self.lock.describe())
        self.state = ACQUIRING
        self.next_attempt = self.clock.now()
        self.renew_poll_deadline = None
        self.leading_stop = threading.Event()  # Go: a fresh leading context per Run

    def acquire_step(self) -> bool:
        """Port of the loop body of LeaderElector.acquire (leaderelection.go): one attempt.

        On success: records the "became leader" event, makes the first renewal
        due at once and starts `on_started_leading` (Go: Run's `go
        OnStartedLeading`). On failure: schedules the next attempt a jittered
        retry period later. If `stop` is set, ends the run instead (Go: acquire
        returns false, Run returns). Returns True when we now hold the lock.
        """
        if self.state == NEW:  # the first attempt of this run (steps() starts nothing)
            self.begin_acquire()
        if self.stop.is_set():
            self.finish()
            self.note("acquire", "stopped before acquiring")
            return False
        if not self.config.coordinated:
            succeeded = self.try_acquire_or_renew()
        else:
            succeeded = self.try_coordinated_renew()
        self.maybe_report_transition()
        now = self.clock.now()
        if not succeeded:
            logger.debug("failed to acquire lease %s", self.lock.describe())
            delay = wait.jitter(self.config.retry_period, JITTER_FACTOR, self.rng)  # Go: JitterUntil's period
            self.next_attempt = now + timedelta(seconds=delay)
            self.note("acquire", f"lease held by {self.get_leader()!r}")
            return False
        self.lock.record_event("became leader")
        logger.info("successfully acquired lease %s", self.lock.describe())
        self.state = LEADING
        self.renew_poll_deadline = None
        self.next_attempt = now  # Go: renew's Until runs its first poll at once
        self.note("acquire", "became leader")
        assert self.config.callbacks.on_started_leading is not None
        self.leading_group.start(functools.partial(self.config.callbacks.on_started_leading, self.leading_stop))
        return True

    def renew(self) -> None:
        """Port of LeaderElector.renew (leaderelection.go): renew until that fails or `stop` is set.

        Blocks: on the clock between attempts (Go: wait.Until around
        wait.PollUntilContextTimeout).
        """
        while self.renew_step():
            self.sleep_until_next_attempt()

    def renew_step(self) -> bool:
        """Port of the loop body of LeaderElector.renew (leaderelection.go): one attempt, or giving up.

        Returns False when the leader has stopped: `stop` was set, or no renewal
        succeeded within renew_deadline of the first attempt of this round; it
        then ends the term (`end_renew`). Otherwise schedules the next attempt
        and returns True. Example with retry 2 s, deadline 10 s: a round that
        starts failing at t=0 retries at 2, 4, 6, 8 and gives up at t=10.
        """
        now = self.clock.now()
        round_open = self.renew_poll_deadline is not None
        if self.stop.is_set():
            self.leading_stop.set()  # Go: the leading context is a child of Run's, done at once
            if round_open:  # Go: only a poll that ends reports; Until's own wait does not
                self.maybe_report_transition()
            return self.end_renew()
        if self.renew_poll_deadline is None:  # Go: a new PollUntilContextTimeout round starts
            self.renew_poll_deadline = now + timedelta(seconds=self.config.renew_deadline)
        elif now >= self.renew_poll_deadline:
            self.maybe_report_transition()
            logger.info("failed to renew lease %s: timed out", self.lock.describe())
            return self.end_renew()
        renewed = self.try_acquire_or_renew() if not self.config.coordinated else self.try_coordinated_renew()
        if renewed:
            self.maybe_report_transition()
            self.renew_poll_deadline = None
            self.next_attempt = self.clock.now() + timedelta(seconds=self.config.retry_period)
            self.note("renew", "renewed")
            return True
        self.next_attempt = min(now + timedelta(seconds=self.config.retry_period), self.renew_poll_deadline)
        self.note("renew", "renew failed, will retry")
        return True

    def end_renew(self) -> bool:
        """Port of the end of LeaderElector.renew and Run: release if configured, "stopped leading", `finish`.

        Returns False (the value `renew_step` returns when the term ends).
        """
        try:
            if self.config.release_on_cancel:
                self.release()
        finally:
            self.lock.record_event("stopped leading")  # Go: deferred
            self.finish()
        self.note("renew", "stopped leading")
        return False

    def finish(self) -> None:
        """Port of the deferred calls of LeaderElector.Run: end the leading context, then on_stopped_leading.

        Runs once per run: later calls (run's `finally` after a step ended the run) do nothing.
        """
        if self.state == STOPPED:
            return
        self.state = STOPPED
        self.leading_stop.set()
        if self.config.callbacks.on_stopped_leading is not None:
            self.config.callbacks.on_stopped_leading()

    def sleep_until_next_attempt(self) -> None:
        """No upstream twin: wait on the clock until `next_attempt`, or until `stop` is set (Go: the loop's timer)."""
        assert self.next_attempt is not None
        self.clock.sleep(self.clock.until(self.next_attempt), self.stop)

    def release(self) -> bool:
        """Port of LeaderElector.release (leaderelection.go): give the lock up if we hold it.

        Reads the lock (to update against its latest version) and, if we are
        the holder we last saw, writes a record with no holder and a 1 s lease,
        keeping the transition count. Returns True when the lock is released or
        was not ours; False when reading or writing failed.
        """
        try:
            old_record, _ = self.lock.get()
        except Exception as err:  # any failure means we cannot release; report and go on
            if not errors.is_not_found(err):
                logger.error("error retrieving resource lock %s: %s", self.lock.describe(), err)
                return False
            logger.info("lease lock %s not found", self.lock.describe())
            return False
        if not self.is_leader():
            return True
        now = self.clock.now()
        ler = LeaderElectionRecord(
            leader_transitions=old_record.leader_transitions,
            lease_duration_seconds=1,
            renew_time=now,
            acquire_time=now,
        )
        try:
            self.lock.update(ler)
        except Exception as err:  # the release is best effort
            logger.error("failed to release lease %s: %s", self.lock.describe(), err)
            return False
        self.set_observed_record(ler)
        return True

    def try_coordinated_renew(self) -> bool:
        """Port of LeaderElector.tryCoordinatedRenew (leaderelection.go).

        Coordinated mode: an external coordinator picks the holder; we only
        renew a lock that already names us, and let it lapse once the
        coordinator marks a preferred holder ("end of term"). Never takes over.
        """
        now = self.clock.now()
        ler = LeaderElectionRecord(
            holder_identity=self.lock.identity(),
            lease_duration_seconds=int(self.config.lease_duration),
            renew_time=now,
            acquire_time=now,
        )
        # 1. Read the record.
        try:
            old_record, old_raw = self.lock.get()
        except Exception as err:  # no record (or no API): nothing to renew this time
            if not errors.is_not_found(err):
                logger.error("error retrieving lease lock %s: %s", self.lock.describe(), err)
                return False
            logger.info("lease lock %s not found: %s", self.lock.describe(), err)
            return False
        # 2. Note a change, then check expiry and holder.
        if self.observed_raw_record != old_raw:
            self.set_observed_record(old_record)
            self.observed_raw_record = old_raw
        with self._lock:
            observed_time = self.observed_time
        if observed_time + timedelta(seconds=old_record.lease_duration_seconds) < now:
            logger.info("lease %s has expired", self.lock.describe())
            return False
        if not self.is_leader():
            return False
        if old_record.preferred_holder != "":  # marked "end of term": let it run out
            return False
        # 3. Renew, keeping acquire time, transitions and strategy.
        ler.acquire_time = old_record.acquire_time
        ler.leader_transitions = old_record.leader_transitions
        ler.strategy = old_record.strategy
        try:
            self.lock.update(ler)
        except Exception as err:  # a failed renewal is retried by the caller's loop
            logger.error("failed to update lock %s: %s", self.lock.describe(), err)
            return False
        self.set_observed_record(ler)
        return True

    def try_acquire_or_renew(self) -> bool:
        """Port of LeaderElector.tryAcquireOrRenew (leaderelection.go): the heart of the election.

        One attempt to become or stay the holder. Returns True when the lock
        now names us. Phases:

        1. Fast path: if we are the leader and our lease has not run out, write
           the renewal straight over the Lease we cached last time, no read.
           Any failure (say a Conflict) falls through to the slow path.
        2. Read the record; if there is none, create it with us as holder.
        3. If the raw record differs from what we saw before, remember it and
           restart our expiry clock (`observed_time` = now). If someone else
           holds it and `observed_time + lease_duration_seconds` is still ahead,
           back off.
        4. Write ourselves in: keep acquire time and transitions when renewing,
           count one more transition when taking over.
        """
        now = self.clock.now()
        ler = LeaderElectionRecord(
            holder_identity=self.lock.identity(),
            lease_duration_seconds=int(self.config.lease_duration),
            renew_time=now,
            acquire_time=now,
        )

        # 1. Fast path for the leader: update over the cached Lease without a read.
        if self.is_leader() and self.is_lease_valid(now):
            old_observed = self.get_observed_record()
            ler.acquire_time = old_observed.acquire_time
            ler.leader_transitions = old_observed.leader_transitions
            try:
                self.lock.update(ler)
            except Exception as err:  # expected now and then (Conflict): take the slow path
                logger.debug("optimistic update of lease %s failed, using the slow path: %s", self.lock.describe(), err)
            else:
                self.set_observed_record(ler)
                return True

        # 2. Read the record, or create it.
        try:
            old_record, old_raw = self.lock.get()
        except Exception as err:  # NotFound leads to create; anything else ends this attempt
            if not errors.is_not_found(err):
                logger.error("error retrieving lease lock %s: %s", self.lock.describe(), err)
                return False
            try:
                self.lock.create(ler)
            except Exception as create_err:  # lost a race to create, or the API failed
                logger.error("error initially creating lease lock %s: %s", self.lock.describe(), create_err)
                return False
            self.set_observed_record(ler)
            return True

        # 3. We have a record: note any change, then respect a live foreign lease.
        if self.observed_raw_record != old_raw:
            self.set_observed_record(old_record)
            self.observed_raw_record = old_raw
        if old_record.holder_identity != "" and self.is_lease_valid(now) and not self.is_leader():
            logger.debug("lease %s is held by %s and has not yet expired", self.lock.describe(), old_record.holder_identity)
            return False

        # 4. Write ourselves in.
        if self.is_leader():
            ler.acquire_time = old_record.acquire_time
            ler.leader_transitions = old_record.leader_transitions
        else:
            ler.leader_transitions = old_record.leader_transitions + 1
        try:
            self.lock.update(ler)
        except Exception as err:  # lost to another writer (Conflict) or the API failed
            logger.error("failed to update lease %s: %s", self.lock.describe(), err)
            return False
        self.set_observed_record(ler)
        return True

    def maybe_report_transition(self) -> None:
        """Port of LeaderElector.maybeReportTransition: call on_new_leader when the holder we see changed."""
        holder = self.get_observed_record().holder_identity
        if holder == self.reported_leader:
            return
        self.reported_leader = holder
        on_new_leader = self.config.callbacks.on_new_leader
        if on_new_leader is None:
            return
        self.new_leader_group.start(functools.partial(on_new_leader, holder))  # Go: go OnNewLeader(...)

    def check(self, max_tolerable_expired_lease: Seconds) -> None:
        """Port of LeaderElector.Check (leaderelection.go): health check for a stuck leader.

        A leader that has not renewed for lease_duration plus the tolerance
        should have stepped down long ago (a deadlock, say); report it so that
        something restarts the process. Followers are always healthy.

        Raises:
            RuntimeError: "failed election to renew leadership on lease <name>".
        """
        if not self.is_leader():
            return
        with self._lock:
            last_observation = self.observed_time
            lease_duration = self.config.lease_duration
        if self.clock.since(last_observation) > lease_duration + max_tolerable_expired_lease:
            raise RuntimeError(f"failed election to renew leadership on lease {self.config.name}")

    def is_lease_valid(self, now: datetime) -> bool:
        """Port of LeaderElector.isLeaseValid: has the record we saw not yet run out, by our clock?"""
        with self._lock:
            expiry = self.observed_time + timedelta(seconds=self.observed_record.lease_duration_seconds)
            return expiry > now

    def set_observed_record(self, observed_record: LeaderElectionRecord) -> None:
        """Port of LeaderElector.setObservedRecord: keep a copy and stamp it with our clock's now."""
        with self._lock:
            self.observed_record = replace(observed_record)
            self.observed_time = self.clock.now()

    def get_observed_record(self) -> LeaderElectionRecord:
        """Port of LeaderElector.getObservedRecord: a copy of the record we last saw."""
        with self._lock:
            return replace(self.observed_record)

    # -- on a driven clock: the same bodies as driver steps (no Go twin) ---------------------

    def steps(
        self, stop: threading.Event | None = None, record: Callable[[str, str], None] | None = None
    ) -> list[Step]:
        """No upstream twin: the elector as driver steps (what `run` does, one attempt at a time).

        `stop` plays Run's context: set it and the next step ends the run (with
        release when configured). A candidate that just dies is simulated by
        removing its steps from the driver. `record`, e.g. `driver.record`,
        receives a line for each decision.
        """
        if stop is not None:
            self.stop = stop
        self.record = record
        who = self.lock.identity()
        return [
            Step(f"leaderelection/{who}/{phase}", functools.partial(self.due, state), run,
                 functools.partial(self.wakeup, state))
            for phase, state, run in (("acquire", ACQUIRING, self.acquire_step), ("renew", LEADING, self.renew_step))
        ]

    def due(self, state: str) -> bool:
        """No upstream twin: the step of `state` can run (its attempt is due, or we were stopped).

        A new elector's acquire step is due at once: its first run begins acquiring (Run's first call).
        """
        if state == ACQUIRING and self.state == NEW:
            return True
        if self.state != state or self.next_attempt is None:
            return False
        return self.stop.is_set() or self.clock.now() >= self.next_attempt

    def wakeup(self, state: str) -> datetime | None:
        """No upstream twin: when the step of `state` is next due (None in another state)."""
        return self.next_attempt if self.state == state else None

    def note(self, step: str, detail: str) -> str:
        """No upstream twin: pass a decision to the driver's trace (when `steps` got a `record`); return it."""
        if self.record is not None:
            who = self.lock.identity()
            self.record(f"leaderelection/{who}/{step}", detail)
        return detail


def run_or_die(
    lec: LeaderElectionConfig, stop: threading.Event, clock: Clock | None = None, rng: random.Random | None = None
) -> None:
    """Port of RunOrDie (leaderelection.go): build the elector, tie in the health check, run it.

    Blocks: until `stop` is set or leadership is lost.
    Raises:
        RuntimeError: the config is invalid (Go panics).
    """
    try:
        le = new_leader_elector(lec, clock=clock, rng=rng)
    except ValueError as err:
        raise RuntimeError(str(err)) from err
    if lec.watch_dog is not None:
        lec.watch_dog.set_leader_election(le)
    le.run(stop)
