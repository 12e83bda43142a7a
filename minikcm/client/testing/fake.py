"""Port of k8s.io/client-go/testing/fake.go, with the job of gentype/fake.go.

How a test watches and steers a clientset. A `Fake` attached to any clientset
(`InProcessClientset(server, fake=Fake())`, `new_simple_clientset`, or later
through `cs.fake = Fake()`) stands in front of its transport: every call is
first described as an Action (actions.py), recorded, and offered to the
reactor chain; the first reactor that handles it decides the answer (an
object, or an error such as a Conflict). When none does, the call goes on to
the real transport, as the reactors left it.

Start reading at: ReactorTransport.request, then Fake.invokes.

Not ported: proxy reactors and InvokesProxy, Fake.Resources (discovery), the
FakeClient interface of interface.go.
Differs from Go:
- Upstream, the generated fake typed clients (gentype/fake.go) build the
  actions and call Fake.Invokes with an empty default object; the tracker's
  reaction sits at the end of the chain. Here one `ReactorTransport` builds
  the actions for every resource, and `Fake.invokes(action, default)` takes a
  callable that performs the real call when no reactor handles the action. So
  reactors added with `add_reactor` or `prepend_reactor` all run before the
  server (upstream, one added with AddReactor to a NewSimpleClientset never
  fires for the verbs the tracker handles).
- A reaction's error is raised rather than returned; a watch no reactor
  handles goes to the real transport instead of failing with "unhandled watch".
- Reactors run outside the Fake's lock, so a reactor may call the clientset.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from minikcm.apimachinery import labels, watch
from minikcm.apimachinery.convert import object_meta
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import resource_info
from minikcm.apimachinery.types import PatchType
from minikcm.client.testing.actions import (
    Action,
    CreateAction,
    DeleteAction,
    DeleteCollectionAction,
    GetAction,
    ListAction,
    PatchAction,
    UpdateAction,
    WatchAction,
)
from minikcm.client.testing.fixture import SimpleReactor, SimpleWatchReactor
from minikcm.client.transport import Transport

ReactionFunc = Callable[[Action], "tuple[bool, Any, BaseException | None]"]
"""Port of ReactionFunc: returns (handled, object, error).

With handled False the Fake ignores the rest and asks the next reactor. A
reactor that only cares about a subresource checks `action.get_subresource()`.
"""

WatchReactionFunc = Callable[[Action], "tuple[bool, watch.Interface | None, BaseException | None]"]
"""Port of WatchReactionFunc: returns (handled, watch, error)."""


class Reactor(Protocol):
    """Port of Reactor: decides whether it handles an action, then reacts to it."""

    def handles(self, action: Action) -> bool:
        """Port of Reactor.Handles (testing/fake.go): whether this reactor deals with `action`."""
    def react(self, action: Action) -> tuple[bool, Any, BaseException | None]:
        """Port of Reactor.React (testing/fake.go): (handled, object); raise for an error."""


class WatchReactor(Protocol):
    """Port of WatchReactor."""

    def handles(self, action: Action) -> bool:
        """Port of WatchReactor.Handles (testing/fake.go)."""
    def react(self, action: Action) -> tuple[bool, watch.Interface | None, BaseException | None]:
        """Port of WatchReactor.React (testing/fake.go)."""


class Fake:
    """Port of Fake (testing/fake.go): the action record and the reactor chains.

    Attach one to a clientset (`InProcessClientset(server, fake=Fake())`, or
    `new_simple_clientset`): the clientset then sends every call through
    `wrap(transport)`, whose ReactorTransport passes it to `invokes` or `invokes_watch`.
    Thread: any. One lock guards the record and the chains; reactors run outside it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # Go: sync.RWMutex
        self._actions: list[Action] = []  # a deep copy of each action, in call order
        self.reaction_chain: list[Reactor] = []
        """Tried in order for every call except watch."""
        self.watch_reaction_chain: list[WatchReactor] = []
        """Tried in order for every watch call."""

    def add_reactor(self, verb: str, resource: str, reaction: ReactionFunc) -> None:
        """Port of Fake.AddReactor: try this reaction after the ones already there."""
        with self._lock:
            self.reaction_chain.append(SimpleReactor(verb, resource, reaction))

    def prepend_reactor(self, verb: str, resource: str, reaction: ReactionFunc) -> None:
        """Port of Fake.PrependReactor: try this reaction first."""
        with self._lock:
            self.reaction_chain.insert(0, SimpleReactor(verb, resource, reaction))

    def add_watch_reactor(self, resource: str, reaction: WatchReactionFunc) -> None:
        """Port of Fake.AddWatchReactor."""
        with self._lock:
            self.watch_reaction_chain.append(SimpleWatchReactor(resource, reaction))

    def prepend_watch_reactor(self, resource: str, reaction: WatchReactionFunc) -> None:
        """Port of Fake.PrependWatchReactor."""
        with self._lock:
            self.watch_reaction_chain.insert(0, SimpleWatchReactor(resource, reaction))

    def invokes(self, action: Action, default: Callable[[Action], Any] | None = None) -> Any:
        """Port of Fake.Invokes: record `action`, then let the first willing reactor answer.

        Every reactor sees the same working copy of the action, so a reactor that
        changes it and declines passes the change on; the record keeps the action
        as it was called. When no reactor handles it, `default(copy)` makes the
        real call (None when there is no default).

        Raises: the error of the reactor that handled the action.
        """
        action_copy, chain = self.record(action, self.reaction_chain)
        handled, ret = react_first(chain, action_copy)
        if handled:
            return ret
        return default(action_copy) if default is not None else None

    def invokes_watch(self, action: Action,
                      default: Callable[[Action], watch.Interface] | None = None) -> watch.Interface:
        """Port of Fake.InvokesWatch: as invokes, over the watch reaction chain.

        Raises: the handling reactor's error, or RuntimeError when nothing
        handles the watch and there is no default.
        """
        action_copy, chain = self.record(action, self.watch_reaction_chain)
        handled, ret = react_first(chain, action_copy)
        if handled:
            assert ret is not None, "a watch reactor that handles a watch must return one"
            return ret
        if default is None:
            raise RuntimeError(f"unhandled watch: {action}")
        return default(action_copy)

    def record(self, action: Action, chain: list[Any]) -> tuple[Action, list[Any]]:
        """Append a copy of `action` to the record; returns a working copy and a snapshot of `chain`."""
        with self._lock:
            self._actions.append(action.deep_copy())
            snapshot = list(chain)
        return action.deep_copy(), snapshot

    def wrap(self, transport: Transport) -> ReactorTransport:
        """This Fake's reactor chain in front of `transport` (what a clientset with a Fake calls)."""
        return ReactorTransport(self, transport)

    def clear_actions(self) -> None:
        """Port of Fake.ClearActions."""
        with self._lock:
            self._actions = []

    def actions(self) -> list[Action]:
        """Port of Fake.Actions: the recorded actions, oldest first (a new list)."""
        with self._lock:
            return list(self._actions)

    def __repr__(self) -> str:
        return (f"Fake(actions={len(self._actions)}, reactors={len(self.reaction_chain)}, "
                f"watch_reactors={len(self.watch_reaction_chain)})")


def react_first(chain: Sequence[Reactor | WatchReactor], action: Action) -> tuple[bool, Any]:
    """The first answer of a reactor in `chain` that handles `action`: (handled, object).

    Raises: the error of the reactor that handled the action.
    """
    for reactor in chain:
        if not reactor.handles(action):
            continue
        handled, ret, err = reactor.react(action)
        if not handled:
            continue
        if err is not None:
            raise err
        return True, ret
    return False, None


# --- the fake typed clients, as a transport (gentype/fake.go) ----------------------------------


class ReactorTransport:
    """A transport.Transport that puts a Fake's reactor chain in front of another transport.

    Plays client-go's fake typed clients (gentype/fake.go) for every resource:
    each request becomes the Action those would record (`new_action`), goes
    through `Fake.invokes`, and reaches `inner` only when no reactor handles it
    (`forward`, with the action as the reactors left it).
    """

    def __init__(self, fake: Fake, inner: Transport) -> None:
        self.fake = fake
        self.inner = inner

    def request(self, verb: str, resource: str, namespace: str, name: str = "",
                subresource: str = "", body: Any = None, options: Any = None, *,
                patch_type: PatchType = "") -> Any:
        """Port of the verbs of FakeClient and alsoFakeLister (gentype/fake.go), for any resource.

        A list answer is filtered by the label selector afterwards, as client-go's
        fake lister does, so a reactor may return more than was asked for.
        """
        action = new_action(verb, resource, namespace, name, subresource, body, options, patch_type)
        ret = self.fake.invokes(action, lambda a: self.forward(a, name))
        if verb == "list" and options.label_selector:
            ret = filter_by_labels(ret, labels.parse(options.label_selector))
        return ret

    def forward(self, a: Action, name: str) -> Any:
        """The real call for action `a`; `name` is the request's (an UpdateAction has none)."""
        resource, ns, sub, inner = a.resource.resource, a.namespace, a.subresource, self.inner
        if isinstance(a, GetAction):
            return inner.request("get", resource, ns, a.name, sub, None, a.get_options)
        if isinstance(a, ListAction):
            return inner.request("list", resource, ns, "", sub, None, a.list_options)
        if isinstance(a, CreateAction):
            return inner.request("create", resource, ns, a.name, sub, a.object, a.create_options)
        if isinstance(a, UpdateAction):
            return inner.request("update", resource, ns, name, sub, a.object, a.update_options)
        if isinstance(a, PatchAction):
            return inner.request("patch", resource, ns, a.name, sub, a.patch, a.patch_options,
                                 patch_type=a.patch_type)
        if isinstance(a, DeleteAction):
            return inner.request("delete", resource, ns, a.name, sub, a.delete_options)
        if isinstance(a, DeleteCollectionAction):
            return inner.request("delete-collection", resource, ns, "", sub, a.delete_options,
                                 a.list_options)
        raise TypeError(f"no request for action {a}")

    def watch(self, resource: str, namespace: str, options: ListOptions) -> watch.Interface:
        """Port of FakeClient.Watch (gentype/fake.go): through the watch reaction chain."""
        action = WatchAction(verb="watch", resource=resource_info(resource).gvr(),
                             namespace=namespace, list_options=options)
        return self.fake.invokes_watch(
            action, lambda a: self.inner.watch(a.resource.resource, a.namespace, a.list_options))

    def __repr__(self) -> str:
        return f"ReactorTransport({self.fake!r}, {self.inner!r})"


def new_action(verb: str, resource: str, namespace: str, name: str, subresource: str, body: Any,
               options: Any, patch_type: PatchType) -> Action:
    """The Action client-go's fake typed clients record for one request (see transport.Transport)."""
    info = resource_info(resource)
    common: dict[str, Any] = {"verb": verb, "resource": info.gvr(), "namespace": namespace,
                              "subresource": subresource}
    if verb == "get":
        return GetAction(**common, name=name, get_options=options)
    if verb == "list":
        return ListAction(**common, kind=info.gvk(), list_options=options)
    if verb == "create":
        return CreateAction(**common, name=name, object=body, create_options=options)
    if verb == "update":
        return UpdateAction(**common, object=body, update_options=options)
    if verb == "patch":
        return PatchAction(**common, name=name, patch_type=patch_type, patch=body,
                           patch_options=options)
    if verb == "delete":
        return DeleteAction(**common, name=name, delete_options=body)
    if verb == "delete-collection":
        return DeleteCollectionAction(**common, delete_options=body, list_options=options)
    raise ValueError(f"unknown verb {verb!r}")


def filter_by_labels(ret: Any, selector: labels.Selector) -> Any:
    """A copy of list answer `ret` (wire dict or model) keeping the items `selector` matches."""
    if ret is None:
        return None
    items = ret.get("items") if isinstance(ret, dict) else ret.items
    kept = [item for item in items or []
            if selector.matches(labels.Set(object_meta(item).labels or {}))]
    if isinstance(ret, dict):
        return {**ret, "items": kept}
    filtered = copy.copy(ret)
    filtered.items = kept
    return filtered
