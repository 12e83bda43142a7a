"""Exercise p4/slow_start_batch: write slow_start_batch (minikcm.controller.replicaset.replica_set).

Go twin: slowStartBatch in pkg/controller/replicaset/replica_set.go (v1.36.3).
Reading map: docs page "P4 The ReplicaSet controller" (p4-replicaset.md#slow-start).
Check it: minikcm exercises check p4

The checker sets your function in place of the port's `slow_start_batch` for
the duration of the check (manage_replicas creates every missing pod through
it), runs a table of cases with an `fn` that starts failing after a given
number of calls, then the replicaset-scale scenario: 3 pods, then 7 more in
one sync, and a replacement for a deleted pod.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from minikcm.apimachinery import wait


def slow_start_batch(count: int, initial_batch_size: int, fn: Callable[[], None], *,
                     inline: bool = False) -> tuple[int, Exception | None]:
    """Port of slowStartBatch: call `fn` `count` times, in batches that double while all goes well.

    The calls of a batch run concurrently (inline and in order with `inline`).
    After a batch with a failure no batch starts, so a template that can never
    work costs a few failed creates, not hundreds. Example, count 10
    from 1: batches of 1, 2, 4, 3; if the 6th call fails (batch of 4), that
    batch still finishes: 6 successes, and the last 3 calls never happen.

    Returns: (calls that succeeded, an error of the failed batch or None).
    Differs from Go: the error comes back next to the count (the caller uses
    both); `inline` (no Go twin; callers pass `inline=clock.driven`) runs the
    calls on the caller's thread.
    """
    # Hints:
    # - The first batch is min(count, initial_batch_size); each next one doubles, but
    #   never past what remains.
    # - A call that raises is a failure of its batch: catch it, keep it, count the rest.
    #   The whole batch still runs; after it, a failure ends everything.
    # - Running a batch: group = wait.Group(inline=inline), group.start(f)
    #   for each call, then group.wait(). Calls of one batch may run on threads, so
    #   guard what they share with a threading.Lock(). (Plain calls in a loop pass the
    #   check too: concurrency is an optimisation here, not the point.)
    raise NotImplementedError("exercise: write slow_start_batch")
