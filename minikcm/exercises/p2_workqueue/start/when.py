"""Exercise p2-workqueue/when: write ItemExponentialFailureRateLimiter.when (minikcm.util.workqueue.default_rate_limiters).

Go twin: ItemExponentialFailureRateLimiter.When in
k8s.io/client-go/util/workqueue/default_rate_limiters.go (v0.36.3).
Check it: minikcm exercises check p2-workqueue

The checker sets your function as `ItemExponentialFailureRateLimiter.when` for
the duration of the check (default_controller_rate_limiter, which every
controller's queue uses, holds one), runs a table of cases, then the
workqueue-retry scenario. `self` is the limiter: `failures` (item -> count),
`base_delay`, `max_delay`, `_lock`.
"""

from __future__ import annotations

import math
from typing import Any

from minikcm.clock import Seconds
from minikcm.util.workqueue.default_rate_limiters import MAX_INT64, ItemExponentialFailureRateLimiter


def when(self: ItemExponentialFailureRateLimiter, item: Any) -> Seconds:
    """Port of ItemExponentialFailureRateLimiter.When (util/workqueue/default_rate_limiters.go).

    How long `item` waits before its next retry; counts one more failure.
    The n-th failure of an item (counting from 0) waits base_delay * 2**n,
    capped at max_delay: with base 5 ms, 5 ms, 10 ms, 20 ms, ...
    """
    # Hints:
    # - Under self._lock: read the item's failure count n (0 when unknown), store n + 1.
    # - base_delay * 2**n, capped at max_delay. Huge n overflows: math.pow raises
    #   OverflowError, and a value above MAX_INT64 nanoseconds (backoff * 1e9) must
    #   also give max_delay, as Go's int64 Duration does.
    raise NotImplementedError("exercise: write ItemExponentialFailureRateLimiter.when")
