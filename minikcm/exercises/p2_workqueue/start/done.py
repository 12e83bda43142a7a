"""Exercise p2-workqueue/done: write the body of the work queue's done (minikcm.util.workqueue.queue.Type.done).

Go twin: Typed.Done in k8s.io/client-go/util/workqueue/queue.go (v0.36.3).
Check it: minikcm exercises check p2-workqueue

The checker sets your function as `Type.done` for the duration of the check,
so every work queue of the running port uses it; then it runs a table of cases
and the workqueue-retry scenario. `self` is the work queue (read `Type` in
minikcm/util/workqueue/queue.py for its fields).
"""

from __future__ import annotations

from typing import Any

from minikcm.util.workqueue.queue import Type


def done(self: Type, item: Any) -> None:
    """Port of Typed.Done (queue.go): the worker has finished `item`.

    If `item` was added again meanwhile, it is queued now. Also wakes a
    `shut_down_with_drain` waiting for the last item in flight.
    """
    # Hints:
    # - Under the lock (`with self._cond:`) the item leaves self.processing.
    # - Still in self.dirty? It was added while being processed: push it to
    #   self.queue and wake a waiting worker.
    # - Otherwise, when nothing is processing any more, wake whoever waits
    #   (shut_down_with_drain waits for exactly that).
    raise NotImplementedError("exercise: write Type.done")
