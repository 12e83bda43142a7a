"""Exercise p2-informers/is_deletion_dup: write minikcm.tools.cache.delta_fifo.is_deletion_dup.

Go twin: isDeletionDup in k8s.io/client-go/tools/cache/delta_fifo.go (v0.36.3),
which dedupDeltas calls on the last two deltas of a key.
Check it: minikcm exercises check p2-informers

The checker puts your function in place of is_deletion_dup in the running port,
runs a table of delta pairs, then a small run: a DeltaFIFO between a "watch"
and the informer's process_deltas, where a relist races a deletion.
"""

from __future__ import annotations

from minikcm.tools.cache.delta_fifo import DELETED, Delta, DeletedFinalStateUnknown


def is_deletion_dup(a: Delta, b: Delta) -> Delta | None:
    """Port of isDeletionDup (delta_fifo.go): of two deletions, keep the one that knows more.

    A tombstone (DeletedFinalStateUnknown) knows less than a real final state,
    so `b` (the earlier) wins unless it is a tombstone.
    """
    # Hints:
    # - `b` is the older delta, `a` the newer one (dedup_deltas passes the last, then the one before).
    # - Only two deletions can be the same event: anything else is None.
    # - Of two deletions keep the one that knows more: a DeletedFinalStateUnknown
    #   tombstone (its object is the last state the cache knew) knows less than a real final state.
    raise NotImplementedError("exercise: write is_deletion_dup")
