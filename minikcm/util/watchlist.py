"""Port of k8s.io/client-go/util/watchlist/watch_list.go.

Some clients cannot serve a watch-list (a watch with sendInitialEvents that
ends its initial events with the `k8s.io/initial-events-end` bookmark): the
fake clientset's watch only replays what tests push. Such a client says so
with `is_watch_list_semantics_un_supported()`, and reflectors built over it
turn WatchListClient off for themselves and list instead.

Start reading at: does_client_not_support_watch_list_semantics.

Not ported: PrepareWatchListOptionsFromListOptions (used by the generated
typed clients' List to turn a list into a watch-list; the port's clients list
plainly).
"""

from __future__ import annotations

from typing import Any


def does_client_not_support_watch_list_semantics(client: Any) -> bool:
    """Port of DoesClientNotSupportWatchListSemantics (watch_list.go).

    True only when `client` has `is_watch_list_semantics_un_supported()` and it
    answers True; anything else is assumed to support watch-list.
    """
    probe = getattr(client, "is_watch_list_semantics_un_supported", None)
    if probe is None:
        return False
    return bool(probe())
