"""Exercise p1/release: write LeaderElector.release (minikcm.tools.leaderelection.leaderelection).

Go twin: LeaderElector.release in
k8s.io/client-go/tools/leaderelection/leaderelection.go (v0.36.3).
Reading map: docs page "P1 Leader election" (p1-leader-election.md#release).
Check it: minikcm exercises check p1

The checker sets your function as `LeaderElector.release` for the duration of
the check (an elector configured with release_on_cancel calls it when it
stops), runs a table of cases against a real Lease, then a small run: two
candidates with release_on_cancel, the leader is cancelled, the other takes
over within one retry instead of a whole lease duration.
"""

from __future__ import annotations

import logging

from minikcm.apimachinery import errors
from minikcm.tools.leaderelection.leaderelection import LeaderElector
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord

logger = logging.getLogger("minikcm.tools.leaderelection.leaderelection")


def release(self: LeaderElector) -> bool:
    """Port of LeaderElector.release (leaderelection.go): give the lock up if we hold it.

    Reads the lock (to update against its latest version) and, if we are
    the holder we last saw, writes a record with no holder and a 1 s lease,
    keeping the transition count. Returns True when the lock is released or
    was not ours; False when reading or writing failed.
    """
    # Hints:
    # - Read first: self.lock.get() (any exception, NotFound included, means False).
    # - Not the holder we last saw (not self.is_leader())? Nothing to release: True.
    # - Write a record with no holder, lease_duration_seconds=1, renew and acquire
    #   time = now, and the transitions of the record just read; a failed write is False.
    # - After a successful write, remember it: self.set_observed_record(record).
    raise NotImplementedError("exercise: write LeaderElector.release")
