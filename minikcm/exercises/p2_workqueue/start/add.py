"""Exercise p2-workqueue/add: write the body of the work queue's add (minikcm.util.workqueue.queue.Type.add).

Go twin: Typed.Add in k8s.io/client-go/util/workqueue/queue.go (v0.36.3).
Check it: minikcm exercises check p2-workqueue

The checker sets your function as `Type.add` for the duration of the check, so
every work queue of the running port (the delaying and rate-limiting queues
too) uses it; then it runs a table of cases and the workqueue-retry scenario.
It is a method: `self` is the work queue (read `Type` in
minikcm/util/workqueue/queue.py for its fields).
"""

from __future__ import annotations

from typing import Any

from minikcm.util.workqueue.queue import Type


def add(self: Type, item: Any) -> None:
    """Port of Typed.Add (queue.go): mark `item` as needing processing.

    Ignored once the queue is shutting down. An item already dirty is not
    queued twice (the storage is only `touch`ed); an item being processed is
    only marked dirty, and `done` will queue it.
    """
    # Hints:
    # - Everything happens under the queue's lock: `with self._cond:`.
    # - self.dirty: items that need processing; self.processing: items a worker holds;
    #   self.queue: the storage order (push, touch); self.shutting_down_flag.
    # - An item goes into self.queue only when it is neither dirty already nor
    #   being processed. A worker may be waiting in get(): wake one (self._cond.notify()).
    raise NotImplementedError("exercise: write Type.add")
