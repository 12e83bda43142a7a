"""Exercise p1/renew_step: write LeaderElector.renew_step (minikcm.tools.leaderelection.leaderelection).

Go twin: the loop body of LeaderElector.renew in
k8s.io/client-go/tools/leaderelection/leaderelection.go (v0.36.3): wait.Until
around a wait.PollUntilContextTimeout that gives up after RenewDeadline.
Reading map: docs page "P1 Leader election" (p1-leader-election.md#renew).
Check it: minikcm exercises check p1

The checker sets your function as `LeaderElector.renew_step` for the duration
of the check (the threaded `renew` loop and the driver's renew step both call
it), runs a table of cases against a real Lease (with renewals made to fail on
purpose), then the leader-failover scenario. `self` is the elector; this step
owns `next_attempt` and `renew_poll_deadline` (None while no failing round is open).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from minikcm.tools.leaderelection.leaderelection import LeaderElector

logger = logging.getLogger("minikcm.tools.leaderelection.leaderelection")


def renew_step(self: LeaderElector) -> bool:
    """Port of the loop body of LeaderElector.renew (leaderelection.go): one attempt, or giving up.

        Returns False when the leader has stopped: `stop` was set, or no renewal
        succeeded within renew_deadline of the first attempt of this round; it
        then ends the term (`end_renew`). Otherwise schedules the next attempt
        and returns True. Example with retry 2 s, deadline 10 s: a round that
        starts failing at t=0 retries at 2, 4, 6, 8 and gives up at t=10.
        """
    # Hints:
    # - self.stop set: set self.leading_stop and return self.end_renew() (report a
    #   transition first, only when a round was open: self.maybe_report_transition()).
    # - No round open (renew_poll_deadline is None): this attempt opens one, whose
    #   deadline is now + renew_deadline. Round open and now >= its deadline: give up
    #   (report a transition, then return self.end_renew()).
    # - Try: self.try_acquire_or_renew() (or try_coordinated_renew when config.coordinated).
    # - Success: report, close the round, next attempt a retry period from now,
    #   self.note("renew", "renewed").
    # - Failure: next attempt a retry period from now, but never after the deadline,
    #   self.note("renew", "renew failed, will retry").
    raise NotImplementedError("exercise: write LeaderElector.renew_step")
