"""Exercise p1/try_acquire_or_renew: write LeaderElector.try_acquire_or_renew (minikcm.tools.leaderelection.leaderelection).

Go twin: LeaderElector.tryAcquireOrRenew in
k8s.io/client-go/tools/leaderelection/leaderelection.go (v0.36.3).
Reading map: docs page "P1 Leader election" (p1-leader-election.md#try-acquire-or-renew).
Check it: minikcm exercises check p1

The checker sets your function as `LeaderElector.try_acquire_or_renew` for the
duration of the check, so every elector of the running port calls it; it runs
a table of cases against a real Lease in the embedded API server, then the
leader-failover scenario (three candidates, the leader crashes). `self` is the
elector: read `LeaderElector` for its fields (config, clock, observed_record,
observed_raw_record, observed_time) and helpers (is_leader, is_lease_valid,
set_observed_record, get_observed_record).
"""

from __future__ import annotations

import logging

from minikcm.apimachinery import errors
from minikcm.tools.leaderelection.leaderelection import LeaderElector
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord

logger = logging.getLogger("minikcm.tools.leaderelection.leaderelection")


def try_acquire_or_renew(self: LeaderElector) -> bool:
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
    # Hints:
    # - Build the record you would write: holder = self.lock.identity(),
    #   lease_duration_seconds = int(self.config.lease_duration), renew and acquire time = now.
    # - Fast path: when self.is_leader() and self.is_lease_valid(now), self.lock.update(record)
    #   (keeping the acquire time and transitions you observed); any exception means "take the slow path".
    # - self.lock.get() returns (record, raw bytes) or raises; errors.is_not_found(err) means "create it".
    # - Compare raw bytes with self.observed_raw_record: a change restarts your expiry clock
    #   (set_observed_record stamps observed_time with your clock's now).
    # - Expiry is *your* observed_time + the record's lease_duration_seconds; never the record's own times.
    # - Taking over counts one more leader transition; renewing keeps acquire time and transitions.
    raise NotImplementedError("exercise: write LeaderElector.try_acquire_or_renew")
