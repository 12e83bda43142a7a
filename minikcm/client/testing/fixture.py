"""Port of k8s.io/client-go/testing/fixture.go.

What stands behind a Fake. Upstream, fixture.go holds the ObjectTracker (an
in-memory store that NewSimpleClientset fills and whose reaction ends every
reactor chain) and the simple reactors tests register with
`Fake.add_reactor` and `Fake.prepend_reactor`. Here the tracker is the real
embedded API server: `add_objects` seeds it as the tracker's Add does, and a
call no reactor handles goes on to the server through the Fake's transport.

Start reading at: add_objects, then SimpleReactor.

Not ported: ObjectTracker, ObjectReaction and the tracker itself (the embedded
API server plays them), the managed-fields tracker, ObjectScheme,
SimpleProxyReactor, filterByNamespace.
Differs from Go: seeded objects are defaulted and validated and get fresh
resourceVersions, and the namespaces they name are created (see add_objects).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery import errors, watch
from minikcm.client.testing.actions import Action
from minikcm.client.transport import object_to_wire, resource_of

if TYPE_CHECKING:
    from minikcm.apiserver.server import APIServer
    from minikcm.client.testing.fake import ReactionFunc, WatchReactionFunc


# --- the object tracker, played by the embedded API server -------------------------------------


def add_objects(server: APIServer, objects: Iterable[Any]) -> None:
    """Port of tracker.Add (testing/fixture.go), as NewSimpleClientset calls it for each object.

    Each object goes through `APIServer.add_object`, which keeps what the test
    wrote (uid, generation, status, owner references, finalizers) and only
    assigns a fresh resourceVersion. Namespaces go first (one that already
    exists, such as "default", is left as it is); a namespace that a
    namespaced object names is created when missing; an object without a
    namespace goes to "default". Invalid objects are refused.
    """
    infos = [(resource_of(obj), obj) for obj in objects]
    infos.sort(key=lambda pair: pair[0].resource != "namespaces")  # stable: namespaces first
    for info, obj in infos:
        wire = object_to_wire(obj, info.api_version, info.kind)
        name = (wire.get("metadata") or {}).get("name", "")
        if info.resource == "namespaces" and namespace_exists(server, name):
            continue  # default, kube-system, ... exist from the start
        server.add_object(wire)


def namespace_exists(server: APIServer, namespace: str) -> bool:
    """Whether `server` has the namespace `namespace`."""
    try:
        server.get("namespaces", None, namespace)
    except errors.StatusError as err:
        if errors.is_not_found(err):
            return False
        raise
    return True


def ensure_namespace(server: APIServer, namespace: str) -> None:
    """Create the namespace `namespace` in `server` unless it exists."""
    if not namespace_exists(server, namespace):
        server.create("namespaces", None, {"apiVersion": "v1", "kind": "Namespace",
                                           "metadata": {"name": namespace}})


# --- reactors -------------------------------------------------------------------------------------


def default_watch_reactor(watch_interface: watch.Interface | None,
                          err: BaseException | None) -> WatchReactionFunc:
    """Port of DefaultWatchReactor: always answers with this watch (or error)."""
    return lambda action: (True, watch_interface, err)


@dataclass
class SimpleReactor:
    """Port of SimpleReactor: a reaction for one (verb, resource) pair; "*" matches anything."""

    verb: str
    resource: str
    reaction: ReactionFunc

    def handles(self, action: Action) -> bool:
        """Port of SimpleReactor.Handles."""
        verb_covers = self.verb == "*" or self.verb == action.get_verb()
        return verb_covers and resource_covers(self.resource, action)

    def react(self, action: Action) -> tuple[bool, Any, BaseException | None]:
        """Port of SimpleReactor.React (testing/fixture.go): call the reaction."""
        return self.reaction(action)


@dataclass
class SimpleWatchReactor:
    """Port of SimpleWatchReactor: a watch reaction for one resource; "*" matches anything."""

    resource: str
    reaction: WatchReactionFunc

    def handles(self, action: Action) -> bool:
        """Port of SimpleWatchReactor.Handles (testing/fixture.go)."""
        return resource_covers(self.resource, action)

    def react(self, action: Action) -> tuple[bool, watch.Interface | None, BaseException | None]:
        """Port of SimpleWatchReactor.React (testing/fixture.go): call the reaction."""
        return self.reaction(action)


def resource_covers(resource: str, action: Action) -> bool:
    """Port of resourceCovers (testing/fixture.go).

    "*" covers everything; `pods` covers pods and all its subresources;
    `pods/status` covers only that subresource. Case-sensitive, as upstream.
    """
    if resource == "*" or resource == action.get_resource().resource:
        return True
    top, slash, sub = resource.partition("/")
    return bool(slash) and top == action.get_resource().resource and sub == action.get_subresource()
