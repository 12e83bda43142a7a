"""Port of k8s.io/client-go/util/workqueue/parallelizer.go.

Runs `pieces` independent pieces of work on up to `workers` threads, handing them
out in chunks, and returns when all are done or `stop` is set. Controllers use it
for small fan-outs (the StatefulSet controller's parallel pod management, the
garbage collector).

Start reading at: parallelize_until.

Not ported: the functional `Options` type and `WithChunkSize` (a `chunk_size`
keyword does the same).
Differs from Go:
- Workers are started through `wait.Group`. The keyword `inline` (no Go twin;
  callers on a driven clock pass `inline=clock.driven`) makes it an inline
  group: the first worker runs on the caller's thread and does every chunk, in
  order.
- No HandleCrash: an exception in a piece reaches `threading.excepthook` in a
  worker thread and the caller when `inline`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from minikcm.apimachinery import wait

DoWorkPieceFunc = Callable[[int], object]
"""Port of DoWorkPieceFunc (parallelizer.go): does piece number `piece`."""


def parallelize_until(
    stop: threading.Event | None,
    workers: int,
    pieces: int,
    do_work_piece: DoWorkPieceFunc,
    *,
    chunk_size: int = 1,
    inline: bool = False,
) -> None:
    """Port of ParallelizeUntil (parallelizer.go).

    Splits pieces 0..pieces-1 into chunks of `chunk_size` (at least 1), and lets
    at most `workers` workers take chunks until none is left. A set `stop` keeps
    any further piece from starting. Example: 10 pieces, chunk size 4 make the
    chunks [0-3], [4-7], [8-9]; with 5 workers only 3 start.
    `inline` runs the workers on the calling thread, one after another.
    Blocks: until every started worker has returned.
    """
    if pieces == 0:
        return
    chunk_size = max(chunk_size, 1)
    chunks = ceil_div(pieces, chunk_size)
    to_process: queue.SimpleQueue[int] = queue.SimpleQueue()  # Go: a buffered channel, filled then closed
    for i in range(chunks):
        to_process.put(i)
    workers = min(workers, chunks)

    def worker() -> None:
        while True:
            try:
                chunk = to_process.get_nowait()
            except queue.Empty:  # the channel is drained: this worker is done
                return
            start = chunk * chunk_size
            end = min(start + chunk_size, pieces)
            for p in range(start, end):
                if stop is not None and stop.is_set():
                    return
                do_work_piece(p)

    group = wait.Group(inline=inline, name="workqueue/parallelize")  # Go: WaitGroup
    for _ in range(workers):
        group.start(worker)
    group.wait()


def ceil_div(a: int, b: int) -> int:
    """Port of ceilDiv (parallelizer.go): a / b rounded up."""
    return (a + b - 1) // b
