"""Port of k8s.io/apimachinery/pkg/watch: streams of change events, and fanning one out.

A watch is a stream of `Event`s (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR):
the API server pushes them, the clientset hands them to a reflector. A
`Broadcaster` copies one stream to many watchers; the event recorder is built
on one. Go code imports the package as a unit (`watch.Added`), and so do we:
`from minikcm.apimachinery import watch`.

One module per upstream file: `watch.py` (watch.go: events, the watch
interface, the fake and empty watchers) and `mux.py` (mux.go: the Broadcaster).

Start reading at: watch.ResultChan.recv, then mux.Broadcaster.distribute_incoming.
"""

from minikcm.apimachinery.watch.watch import (
    ADDED,
    BOOKMARK,
    DEFAULT_CHAN_SIZE,
    DELETED,
    ERROR,
    MODIFIED,
    EmptyWatch,
    Event,
    EventType,
    FakeWatcher,
    Interface,
    ResultChan,
    new_empty_watch,
    new_fake,
)
from minikcm.apimachinery.watch.mux import (
    DROP_IF_CHANNEL_FULL,
    WAIT_IF_CHANNEL_FULL,
    Broadcaster,
    BroadcasterWatcher,
    new_broadcaster,
    new_long_queue_broadcaster,
)

__all__ = [
    # watch.go
    "EventType",
    "ADDED",
    "MODIFIED",
    "DELETED",
    "BOOKMARK",
    "ERROR",
    "DEFAULT_CHAN_SIZE",
    "Event",
    "ResultChan",
    "Interface",
    "EmptyWatch",
    "new_empty_watch",
    "FakeWatcher",
    "new_fake",
    # mux.go
    "WAIT_IF_CHANNEL_FULL",
    "DROP_IF_CHANNEL_FULL",
    "Broadcaster",
    "BroadcasterWatcher",
    "new_broadcaster",
    "new_long_queue_broadcaster",
]
