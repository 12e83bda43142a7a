"""Port of k8s.io/client-go/util/workqueue: the queue, delays, rate limiters.

Event handlers add keys; controller workers take them, sync, and call done. The
queue guarantees a key is never processed by two workers at once and that a key
added twice before it is taken is handed out once.
"""

from minikcm.util.workqueue.default_rate_limiters import (
    BucketRateLimiter,
    ItemExponentialFailureRateLimiter,
    ItemFastSlowRateLimiter,
    MaxOfRateLimiter,
    RateLimiter,
    WithMaxWaitRateLimiter,
    default_controller_rate_limiter,
    default_item_based_rate_limiter,
    new_item_exponential_failure_rate_limiter,
    new_item_fast_slow_rate_limiter,
    new_max_of_rate_limiter,
    new_with_max_wait_rate_limiter,
)
from minikcm.util.workqueue.delaying_queue import (
    DelayingInterface,
    DelayingQueueConfig,
    new_delaying_queue,
    new_delaying_queue_with_config,
)
from minikcm.util.workqueue.parallelizer import DoWorkPieceFunc, parallelize_until
from minikcm.util.workqueue.queue import (
    Interface,
    Queue,
    QueueConfig,
    Type,
    Typed,
    default_queue,
    new,
    new_with_config,
)
from minikcm.util.workqueue.rate_limiting_queue import (
    RateLimitingInterface,
    RateLimitingQueueConfig,
    new_rate_limiting_queue,
    new_rate_limiting_queue_with_config,
    new_rate_limiting_queue_with_delaying_interface,
)

__all__ = [
    "BucketRateLimiter",
    "DelayingInterface",
    "DelayingQueueConfig",
    "DoWorkPieceFunc",
    "Interface",
    "ItemExponentialFailureRateLimiter",
    "ItemFastSlowRateLimiter",
    "MaxOfRateLimiter",
    "Queue",
    "QueueConfig",
    "RateLimiter",
    "RateLimitingInterface",
    "RateLimitingQueueConfig",
    "Type",
    "Typed",
    "WithMaxWaitRateLimiter",
    "default_controller_rate_limiter",
    "default_item_based_rate_limiter",
    "default_queue",
    "new",
    "new_delaying_queue",
    "new_delaying_queue_with_config",
    "new_item_exponential_failure_rate_limiter",
    "new_item_fast_slow_rate_limiter",
    "new_max_of_rate_limiter",
    "new_rate_limiting_queue",
    "new_rate_limiting_queue_with_config",
    "new_rate_limiting_queue_with_delaying_interface",
    "new_with_config",
    "new_with_max_wait_rate_limiter",
    "parallelize_until",
]
