"""Port of apiserver/pkg/server/filters/maxinflight.go (WithMaxInFlightLimit), with the long-running check.

kube-apiserver bounds how many requests it serves at once: at most
`--max-requests-inflight` (400) reads (verbs get, list, watch) and
`--max-mutating-requests-inflight` (200) writes. A request over its limit is
not queued: it gets 429 Too Many Requests with `Retry-After: 1` and the text
"Too many requests, please try again later.", and client-go retries it after
that second. Long-running requests (watches, proxy, and the exec, attach,
log and portforward subresources: cmd/kube-apiserver's LongRunningFunc) are
exempt: an open watch would otherwise hold a slot for its whole life.

The filter runs after authentication and before the request body is read,
where upstream's handler chain puts it.

Start reading at: MaxInFlightLimit.admit.

Not ported: the watermark metrics; the exemption of system:masters (the
front's one token is the cluster admin, and exempting it would exempt every
request); API Priority and Fairness, which kube-apiserver runs instead of this
filter when enabled (its default).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from minikcm.apimachinery import errors
from minikcm.apiserver.http import routes

DEFAULT_MAX_REQUESTS_INFLIGHT = 400
"""kube-apiserver's --max-requests-inflight default."""
DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200
"""kube-apiserver's --max-mutating-requests-inflight default."""
RETRY_AFTER = "1"
TOO_MANY_REQUESTS_MESSAGE = "Too many requests, please try again later."
"""The body of upstream's tooManyRequests (priority-and-fairness.go), written by http.Error."""

NON_MUTATING_REQUEST_VERBS = frozenset({"get", "list", "watch"})
LONG_RUNNING_VERBS = frozenset({"watch", "proxy"})
LONG_RUNNING_SUBRESOURCES = frozenset({"attach", "exec", "proxy", "log", "portforward"})
"""cmd/kube-apiserver's BasicLongRunningRequestCheck arguments."""


@dataclass(frozen=True)
class RequestInfo:
    """The part of apiserver's RequestInfo (endpoints/request/requestinfo.go) the filter reads."""

    verb: str
    is_resource_request: bool
    subresource: str = ""


def request_info(method: str, path: str, query: Mapping[str, Sequence[str]]) -> RequestInfo:
    """Port of RequestInfoFactory.NewRequestInfo (endpoints/request/requestinfo.go), its verb.

    Resource requests: GET/HEAD is get, list on a collection, watch with
    `?watch=1` or the legacy `/watch/` prefix; POST create, PUT update, PATCH
    patch, DELETE delete or deletecollection. Anything else (discovery,
    /version, unknown paths) is a non-resource request whose verb is the
    lower-cased method.
    """
    try:
        route = routes.parse_path(path)
    except errors.StatusError:
        route = None
    if not isinstance(route, routes.ResourceRequest):
        return RequestInfo(method.lower(), False)
    verb = {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}.get(method, "get")
    if method in ("GET", "HEAD"):
        if route.name is None:
            verb = "list"
        watch = (query.get("watch") or [""])[0].lower() in ("1", "true")
        if route.legacy_watch or (verb == "list" and watch):
            verb = "watch"
    if verb == "delete" and route.name is None:
        verb = "deletecollection"
    return RequestInfo(verb, True, route.subresource or "")


def basic_long_running_request_check(verbs: frozenset[str],
                                     subresources: frozenset[str]) -> Callable[[RequestInfo], bool]:
    """Port of BasicLongRunningRequestCheck (pkg/server/filters/longrunning.go)."""
    def check(info: RequestInfo) -> bool:
        return info.verb in verbs or (info.is_resource_request and info.subresource in subresources)
    return check


class MaxInFlightLimit:
    """Port of WithMaxInFlightLimit (apiserver/pkg/server/filters/maxinflight.go).

    Two counters of requests being served, reads and writes.

    A limit of 0 means no limit (upstream: a nil channel). Thread: any.
    """

    def __init__(self, non_mutating_limit: int = DEFAULT_MAX_REQUESTS_INFLIGHT,
                 mutating_limit: int = DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
                 long_running: Callable[[RequestInfo], bool] | None = None) -> None:
        if non_mutating_limit < 0 or mutating_limit < 0:
            raise ValueError("in-flight limits must be >= 0")
        self.limits = {False: non_mutating_limit, True: mutating_limit}
        self.long_running = long_running or basic_long_running_request_check(
            LONG_RUNNING_VERBS, LONG_RUNNING_SUBRESOURCES)
        self._lock = threading.Lock()
        self.in_flight = {False: 0, True: 0}
        self.watermark = {False: 0, True: 0}
        """The most requests of each kind served at once so far (upstream's requestWatermark)."""
        self.dropped = 0

    def __repr__(self) -> str:
        return (f"<MaxInFlightLimit reads={self.in_flight[False]}/{self.limits[False]} "
                f"writes={self.in_flight[True]}/{self.limits[True]}>")

    def admit(self, info: RequestInfo) -> Callable[[], None] | None:
        """Take a slot for the request: returns the function that gives it back, or None when over the limit.

        Long-running requests and kinds without a limit always pass (their release does nothing).
        """
        if self.long_running(info):
            return _nothing
        mutating = info.verb not in NON_MUTATING_REQUEST_VERBS
        limit = self.limits[mutating]
        if limit == 0:
            return _nothing
        with self._lock:
            if self.in_flight[mutating] >= limit:
                self.dropped += 1
                return None
            self.in_flight[mutating] += 1
            self.watermark[mutating] = max(self.watermark[mutating], self.in_flight[mutating])

        def release() -> None:
            with self._lock:
                self.in_flight[mutating] -= 1
        return release


def _nothing() -> None:
    pass
