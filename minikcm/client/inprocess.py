"""No upstream twin. The in-process clientset: the typed clients over the embedded API server.

client-go turns each typed call into an HTTP request. Here
`InProcessTransport.request` turns it into one method call on
`minikcm.apiserver.server.APIServer`: the body goes in as a wire dict and the
server's wire dict comes back, to be made a model by the typed client. There is
no socket and no thread, so tests, the debugger and driven runs see the whole
round trip on one stack.

Start reading at: InProcessTransport.request, then InProcessClientset.

Not ported: everything HTTP (rest.Request, codecs, protobuf), Apply.
Differs from Go: GetOptions.resource_version is not sent (the embedded server
always reads the latest state); field_validation is not sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minikcm.apimachinery import watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import resource_info
from minikcm.apimachinery.types import PatchType
from minikcm.client.transport import body_to_wire, is_dry_run
from minikcm.client.typed import Clientset

if TYPE_CHECKING:
    from minikcm.apiserver.server import APIServer
    from minikcm.client.testing.fake import Fake


class InProcessTransport:
    """A transport.Transport that calls an in-process `APIServer`.

    Thread: any; each call is one atomic server operation.
    """

    def __init__(self, server: APIServer) -> None:
        self.server = server
        """The `minikcm.apiserver.server.APIServer` every call goes to."""

    def request(self, verb: str, resource: str, namespace: str, name: str = "",
                subresource: str = "", body: Any = None, options: Any = None, *,
                patch_type: PatchType = "") -> Any:
        """Make one call on the server; returns its wire answer (see transport.Transport)."""
        s, sub = self.server, subresource or None
        if verb == "get":
            return s.get(resource, namespace, name, subresource=sub)
        if verb == "list":
            o = options
            return s.list(resource, namespace, label_selector=o.label_selector,
                          field_selector=o.field_selector, resource_version=o.resource_version,
                          limit=o.limit, continue_=o.continue_,
                          resource_version_match=o.resource_version_match,
                          send_initial_events=o.send_initial_events)
        if verb in ("create", "update"):
            wire = body_to_wire(resource_info(resource), subresource, name, body)
            call = s.create if verb == "create" else s.update
            return call(resource, namespace, wire, subresource=sub, dry_run=is_dry_run(options.dry_run))
        if verb == "patch":
            return s.patch(resource, namespace, name, patch_type, body, subresource=sub,
                           dry_run=is_dry_run(options.dry_run), field_manager=options.field_manager,
                           force=bool(options.force))
        if verb == "delete":
            return s.delete(resource, namespace, name, preconditions=body.preconditions,
                            propagation_policy=body.propagation_policy,
                            grace_period_seconds=body.grace_period_seconds,
                            dry_run=is_dry_run(body.dry_run))
        if verb == "delete-collection":
            return s.delete_collection(
                resource, namespace, label_selector=options.label_selector,
                field_selector=options.field_selector, preconditions=body.preconditions,
                propagation_policy=body.propagation_policy,
                grace_period_seconds=body.grace_period_seconds, dry_run=is_dry_run(body.dry_run))
        raise ValueError(f"unknown verb {verb!r}")

    def watch(self, resource: str, namespace: str, options: ListOptions) -> watch.Interface:
        """Open a server watch; its events carry wire dicts."""
        o = options
        return self.server.watch(resource, namespace, resource_version=o.resource_version,
                                 label_selector=o.label_selector, field_selector=o.field_selector,
                                 allow_bookmarks=o.allow_watch_bookmarks,
                                 timeout_seconds=o.timeout_seconds,
                                 resource_version_match=o.resource_version_match,
                                 send_initial_events=o.send_initial_events)

    def __repr__(self) -> str:
        return "InProcessTransport()"


class InProcessClientset(Clientset):
    """The clientset (interface.Interface) over an in-process `APIServer`.

    `fake`, when set, is a `minikcm.client.testing.fake.Fake` whose reactors see
    every call first and which records them all; set it at construction or later.
    Thread: any; each call is one atomic server operation.
    """

    def __init__(self, server: APIServer, fake: Fake | None = None) -> None:
        super().__init__(InProcessTransport(server), fake)
        self.server = server
        """The `minikcm.apiserver.server.APIServer` every call goes to."""

    def __repr__(self) -> str:
        return f"InProcessClientset(fake={self.fake!r})"
