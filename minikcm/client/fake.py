"""Port of k8s.io/client-go/testing (actions.go, fake.go, the reactors of fixture.go), in small.

How a test watches and steers a clientset. Each call a typed client makes is first
described as an `Action`: verb, resource, namespace, subresource, and the object,
name or patch it carries. A `Fake` attached to an `InProcessClientset` records
every action and offers it to its reactor chain; the first reactor that handles
it decides the answer (an object, or an error such as a Conflict). When no reactor
does, the call goes on to the embedded API server. Controller tests then assert on
`fake.actions()` the way upstream's assert on `client.Actions()`.

Start reading at: Fake.invokes, then new_simple_clientset.

Not ported: ObjectTracker and ObjectReaction (the embedded API server is the
tracker), the managed-fields tracker, proxy reactors and ProxyGetAction,
GenericAction, the NewRoot... constructors (pass namespace ""), the separate
...WithOptions constructors (options are a keyword of the plain constructor),
Fake.Resources (discovery).
Differs from Go:
- Go pairs each Action interface with an ...ActionImpl struct. Here each pair is
  one dataclass named after the interface (`CreateAction` is CreateActionImpl),
  and `Action` (ActionImpl) is their common base.
- `Fake.invokes(action, default)` takes a callable, not a default object: it runs
  when no reactor handles the action and performs the real call. Upstream puts the
  tracker's reaction at the end of the chain, so a reactor added with AddReactor
  to a NewSimpleClientset can never fire for verbs the tracker handles; here
  reactors added either way run before the server.
- A reaction's error is raised rather than returned; `watch` falls through to
  the server instead of failing with "unhandled watch".
- Reactors run outside the Fake's lock, so a reactor may call the clientset.
- `new_simple_clientset` seeds a real embedded API server (`APIServer.add_object`,
  the tracker.Add of this port): seeded objects keep their uid, generation,
  status and owner references, but are defaulted and validated, get fresh
  resourceVersions, and their namespaces are created.
"""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from minikcm.apimachinery import errors, fields, labels, watch
from minikcm.apimachinery.convert import object_meta
from minikcm.apimachinery.meta import (
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import GroupVersionKind, GroupVersionResource
from minikcm.apimachinery.types import PatchType

if TYPE_CHECKING:
    from minikcm.apiserver.server import APIServer
    from minikcm.clock import Clock
    from minikcm.client.inprocess import InProcessClientset


# --- actions (actions.go) ----------------------------------------------------------------


@dataclass
class ListRestrictions:
    """Port of ListRestrictions: the parsed selectors of a list call."""

    labels: labels.Selector
    fields: fields.Selector


@dataclass
class WatchRestrictions:
    """Port of WatchRestrictions: the parsed selectors and resourceVersion of a watch."""

    labels: labels.Selector
    fields: fields.Selector
    resource_version: str


def extract_from_list_options(opts: ListOptions) -> tuple[labels.Selector, fields.Selector, str]:
    """Port of ExtractFromListOptions (testing/actions.go).

    Differs from Go: raises ValueError for a malformed selector where Go panics.
    """
    return (labels.parse(opts.label_selector), fields.parse_selector(opts.field_selector),
            opts.resource_version)


@dataclass(kw_only=True)
class Action:
    """Port of ActionImpl and the Action interface (testing/actions.go).

    What every recorded call has. Actions compare by value, so a test can build
    the expected one with a `new_*_action` constructor and use `==`; `str()` gives
    a one-line summary such as `update replicasets/status default/web-5d4`.
    """

    namespace: str = ""
    verb: str = ""
    resource: GroupVersionResource = field(default_factory=lambda: GroupVersionResource("", "", ""))
    subresource: str = ""

    def get_namespace(self) -> str:
        """Port of ActionImpl.GetNamespace (testing/actions.go)."""
        return self.namespace

    def get_verb(self) -> str:
        """Port of ActionImpl.GetVerb (testing/actions.go)."""
        return self.verb

    def get_resource(self) -> GroupVersionResource:
        """Port of ActionImpl.GetResource (testing/actions.go)."""
        return self.resource

    def get_subresource(self) -> str:
        """Port of ActionImpl.GetSubresource (testing/actions.go)."""
        return self.subresource

    def matches(self, verb: str, resource: str) -> bool:
        """Port of ActionImpl.Matches: same verb and resource, ignoring case.

        `resource` may be `replicasets/status` to also require that subresource;
        a plain `replicasets` matches the resource and any of its subresources.
        """
        if "/" not in resource:
            return verb.lower() == self.verb.lower() and resource.lower() == self.resource.resource.lower()
        top, sub = resource.split("/", 1)
        return (verb.lower() == self.verb.lower() and top.lower() == self.resource.resource.lower()
                and sub.lower() == self.subresource.lower())

    def deep_copy(self) -> Action:
        """Port of DeepCopy: a copy a reactor can change without touching the record."""
        return copy.deepcopy(self)

    def target_name(self) -> str:
        """The name this action is about, or "" (list, watch, create with generateName)."""
        return ""

    def __str__(self) -> str:
        res = self.resource.resource + (f"/{self.subresource}" if self.subresource else "")
        name = self.target_name()
        where = f"{self.namespace}/{name}" if self.namespace and name else self.namespace or name
        return f"{self.verb} {res} {where}".rstrip()


def _object_name(obj: Any) -> str:
    return (object_meta(obj).name or "") if obj is not None else ""


@dataclass(kw_only=True)
class GetAction(Action):
    """Port of GetActionImpl (and GetAction)."""

    name: str = ""
    get_options: GetOptions = field(default_factory=GetOptions)

    def get_name(self) -> str:
        """Port of GetActionImpl.GetName (testing/actions.go)."""
        return self.name

    def get_get_options(self) -> GetOptions:
        """Port of GetActionImpl.GetGetOptions (testing/actions.go)."""
        return self.get_options

    def target_name(self) -> str:
        return self.name


@dataclass(kw_only=True)
class ListAction(Action):
    """Port of ListActionImpl (and ListAction)."""

    kind: GroupVersionKind = field(default_factory=lambda: GroupVersionKind("", "", ""))
    name: str = ""
    list_options: ListOptions = field(default_factory=ListOptions)

    def get_kind(self) -> GroupVersionKind:
        """Port of ListActionImpl.GetKind (testing/actions.go)."""
        return self.kind

    def get_list_restrictions(self) -> ListRestrictions:
        """Port of GetListRestrictions; parsed from list_options on each call."""
        label_sel, field_sel, _ = extract_from_list_options(self.list_options)
        return ListRestrictions(label_sel, field_sel)

    def get_list_options(self) -> ListOptions:
        """Port of ListActionImpl.GetListOptions (testing/actions.go)."""
        return self.list_options


@dataclass(kw_only=True)
class CreateAction(Action):
    """Port of CreateActionImpl (and CreateAction). `object` is a model or a wire dict, as passed."""

    name: str = ""
    object: Any = None
    create_options: CreateOptions = field(default_factory=CreateOptions)

    def get_object(self) -> Any:
        """Port of CreateActionImpl.GetObject (testing/actions.go)."""
        return self.object

    def get_create_options(self) -> CreateOptions:
        """Port of CreateActionImpl.GetCreateOptions (testing/actions.go)."""
        return self.create_options

    def target_name(self) -> str:
        return self.name or _object_name(self.object)


@dataclass(kw_only=True)
class UpdateAction(Action):
    """Port of UpdateActionImpl (and UpdateAction); also update_status and update_scale."""

    object: Any = None
    update_options: UpdateOptions = field(default_factory=UpdateOptions)

    def get_object(self) -> Any:
        """Port of UpdateActionImpl.GetObject (testing/actions.go)."""
        return self.object

    def get_update_options(self) -> UpdateOptions:
        """Port of UpdateActionImpl.GetUpdateOptions (testing/actions.go)."""
        return self.update_options

    def target_name(self) -> str:
        return _object_name(self.object)


@dataclass(kw_only=True)
class PatchAction(Action):
    """Port of PatchActionImpl (and PatchAction). `patch` is the body as bytes."""

    name: str = ""
    patch_type: PatchType = ""
    patch: bytes = b""
    patch_options: PatchOptions = field(default_factory=PatchOptions)

    def get_name(self) -> str:
        """Port of PatchActionImpl.GetName (testing/actions.go)."""
        return self.name

    def get_patch(self) -> bytes:
        """Port of PatchActionImpl.GetPatch (testing/actions.go)."""
        return self.patch

    def get_patch_type(self) -> PatchType:
        """Port of PatchActionImpl.GetPatchType (testing/actions.go)."""
        return self.patch_type

    def get_patch_options(self) -> PatchOptions:
        """Port of PatchActionImpl.GetPatchOptions (testing/actions.go)."""
        return self.patch_options

    def target_name(self) -> str:
        return self.name


@dataclass(kw_only=True)
class DeleteAction(Action):
    """Port of DeleteActionImpl (and DeleteAction)."""

    name: str = ""
    delete_options: DeleteOptions = field(default_factory=DeleteOptions)

    def get_name(self) -> str:
        """Port of DeleteActionImpl.GetName (testing/actions.go)."""
        return self.name

    def get_delete_options(self) -> DeleteOptions:
        """Port of DeleteActionImpl.GetDeleteOptions (testing/actions.go)."""
        return self.delete_options

    def target_name(self) -> str:
        return self.name


@dataclass(kw_only=True)
class DeleteCollectionAction(Action):
    """Port of DeleteCollectionActionImpl (and DeleteCollectionAction)."""

    delete_options: DeleteOptions = field(default_factory=DeleteOptions)
    list_options: ListOptions = field(default_factory=ListOptions)

    def get_list_restrictions(self) -> ListRestrictions:
        """Port of DeleteCollectionActionImpl.GetListRestrictions (testing/actions.go)."""
        label_sel, field_sel, _ = extract_from_list_options(self.list_options)
        return ListRestrictions(label_sel, field_sel)

    def get_delete_options(self) -> DeleteOptions:
        """Port of DeleteCollectionActionImpl.GetDeleteOptions (testing/actions.go)."""
        return self.delete_options

    def get_list_options(self) -> ListOptions:
        """Port of DeleteCollectionActionImpl.GetListOptions (testing/actions.go)."""
        return self.list_options


@dataclass(kw_only=True)
class WatchAction(Action):
    """Port of WatchActionImpl (and WatchAction)."""

    list_options: ListOptions = field(default_factory=ListOptions)

    def get_watch_restrictions(self) -> WatchRestrictions:
        """Port of GetWatchRestrictions; parsed from list_options on each call."""
        return WatchRestrictions(*extract_from_list_options(self.list_options))

    def get_list_options(self) -> ListOptions:
        """Port of WatchActionImpl.GetListOptions (testing/actions.go)."""
        return self.list_options


# The constructors tests use to build the actions they expect (actions.go).


def new_get_action(resource: GroupVersionResource, namespace: str, name: str,
                   opts: GetOptions | None = None) -> GetAction:
    """Port of NewGetAction / NewGetActionWithOptions."""
    return GetAction(verb="get", resource=resource, namespace=namespace, name=name,
                     get_options=opts or GetOptions())


def new_get_subresource_action(resource: GroupVersionResource, namespace: str, subresource: str,
                               name: str, opts: GetOptions | None = None) -> GetAction:
    """Port of NewGetSubresourceAction / ...WithOptions."""
    return GetAction(verb="get", resource=resource, namespace=namespace, subresource=subresource,
                     name=name, get_options=opts or GetOptions())


def new_list_action(resource: GroupVersionResource, kind: GroupVersionKind, namespace: str,
                    opts: ListOptions | None = None) -> ListAction:
    """Port of NewListActionWithOptions (the whole options are kept, as that twin does)."""
    return ListAction(verb="list", resource=resource, kind=kind, namespace=namespace,
                      list_options=opts or ListOptions())


def new_create_action(resource: GroupVersionResource, namespace: str, obj: Any,
                      opts: CreateOptions | None = None) -> CreateAction:
    """Port of NewCreateAction / NewCreateActionWithOptions."""
    return CreateAction(verb="create", resource=resource, namespace=namespace, object=obj,
                        create_options=opts or CreateOptions())


def new_update_action(resource: GroupVersionResource, namespace: str, obj: Any,
                      opts: UpdateOptions | None = None) -> UpdateAction:
    """Port of NewUpdateAction / NewUpdateActionWithOptions."""
    return UpdateAction(verb="update", resource=resource, namespace=namespace, object=obj,
                        update_options=opts or UpdateOptions())


def new_update_subresource_action(resource: GroupVersionResource, subresource: str, namespace: str,
                                  obj: Any, opts: UpdateOptions | None = None) -> UpdateAction:
    """Port of NewUpdateSubresourceAction / ...WithOptions (update_status, update_scale)."""
    return UpdateAction(verb="update", resource=resource, namespace=namespace,
                        subresource=subresource, object=obj, update_options=opts or UpdateOptions())


def new_patch_action(resource: GroupVersionResource, namespace: str, name: str, pt: PatchType,
                     patch: bytes, opts: PatchOptions | None = None) -> PatchAction:
    """Port of NewPatchAction / NewPatchActionWithOptions."""
    return new_patch_subresource_action(resource, namespace, name, pt, patch, opts=opts)


def new_patch_subresource_action(resource: GroupVersionResource, namespace: str, name: str,
                                 pt: PatchType, patch: bytes, *subresources: str,
                                 opts: PatchOptions | None = None) -> PatchAction:
    """Port of NewPatchSubresourceAction / ...WithOptions: subresources are joined with "/"."""
    return PatchAction(verb="patch", resource=resource, namespace=namespace,
                       subresource="/".join(subresources), name=name, patch_type=pt,
                       patch=patch, patch_options=opts or PatchOptions())


def new_delete_action(resource: GroupVersionResource, namespace: str, name: str,
                      opts: DeleteOptions | None = None) -> DeleteAction:
    """Port of NewDeleteAction / NewDeleteActionWithOptions."""
    return DeleteAction(verb="delete", resource=resource, namespace=namespace, name=name,
                        delete_options=opts or DeleteOptions())


def new_delete_collection_action(resource: GroupVersionResource, namespace: str,
                                 list_opts: ListOptions | None = None,
                                 delete_opts: DeleteOptions | None = None) -> DeleteCollectionAction:
    """Port of NewDeleteCollectionAction / ...WithOptions. The verb is "delete-collection", as upstream."""
    return DeleteCollectionAction(verb="delete-collection", resource=resource, namespace=namespace,
                                  delete_options=delete_opts or DeleteOptions(),
                                  list_options=list_opts or ListOptions())


def new_watch_action(resource: GroupVersionResource, namespace: str,
                     opts: ListOptions | None = None) -> WatchAction:
    """Port of NewWatchAction / NewWatchActionWithOptions."""
    return WatchAction(verb="watch", resource=resource, namespace=namespace,
                       list_options=opts or ListOptions())


# --- reactors (fixture.go, fake.go) -----------------------------------------------------

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


def resource_covers(resource: str, action: Action) -> bool:
    """Port of resourceCovers (testing/fixture.go).

    "*" covers everything; `pods` covers pods and all its subresources;
    `pods/status` covers only that subresource. Case-sensitive, as upstream.
    """
    if resource == "*" or resource == action.get_resource().resource:
        return True
    top, slash, sub = resource.partition("/")
    return bool(slash) and top == action.get_resource().resource and sub == action.get_subresource()


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


def default_watch_reactor(watch_interface: watch.Interface | None,
                          err: BaseException | None) -> WatchReactionFunc:
    """Port of DefaultWatchReactor: always answers with this watch (or error)."""
    return lambda action: (True, watch_interface, err)


class Fake:
    """Port of Fake (testing/fake.go): the action record and the reactor chains.

    Attach one to a clientset (`InProcessClientset(server, fake=Fake())`, or
    `new_simple_clientset`) and every call it makes passes through `invokes`.
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
        with self._lock:
            self._actions.append(action.deep_copy())
            chain = list(self.reaction_chain)
        action_copy = action.deep_copy()
        for reactor in chain:
            if not reactor.handles(action_copy):
                continue
            handled, ret, err = reactor.react(action_copy)
            if not handled:
                continue
            if err is not None:
                raise err
            return ret
        return default(action_copy) if default is not None else None

    def invokes_watch(self, action: Action,
                      default: Callable[[Action], watch.Interface] | None = None) -> watch.Interface:
        """Port of Fake.InvokesWatch: as invokes, over the watch reactor chain.

        Raises: the handling reactor's error, or RuntimeError when nothing
        handles the watch and there is no default.
        """
        with self._lock:
            self._actions.append(action.deep_copy())
            chain = list(self.watch_reaction_chain)
        action_copy = action.deep_copy()
        for reactor in chain:
            if not reactor.handles(action_copy):
                continue
            handled, ret, err = reactor.react(action_copy)
            if not handled:
                continue
            if err is not None:
                raise err
            assert ret is not None, "a watch reactor that handles a watch must return one"
            return ret
        if default is None:
            raise RuntimeError(f"unhandled watch: {action}")
        return default(action_copy)

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


# --- the fake clientset (kubernetes/fake/clientset_generated.go) ---------------------------


def new_simple_clientset(*objects: Any, clock: Clock | None = None,
                         rng: random.Random | None = None) -> InProcessClientset:
    """Port of NewSimpleClientset (kubernetes/fake/clientset_generated.go).

    An `InProcessClientset` over a fresh embedded API server holding `objects`
    (models or wire dicts), with a `Fake` attached: `cs.fake.prepend_reactor(...)`
    injects failures, `cs.fake.actions()` lists the calls made. Seeding goes to
    the server directly, so it records no actions. `clock` and `rng` go to the
    server; without `rng` a fixed seed is used, so generated uids and names
    repeat from run to run.

    Differs from Go: the store is the real embedded server (see the module
    docstring and add_objects).
    """
    # Imported here: inprocess.py imports this module for the Action types.
    from minikcm.apiserver.server import APIServer
    from minikcm.client.inprocess import InProcessClientset

    server = APIServer(clock=clock, rng=rng if rng is not None else random.Random(0))
    add_objects(server, objects)
    return InProcessClientset(server, fake=Fake())


def add_objects(server: APIServer, objects: Iterable[Any]) -> None:
    """Store `objects` in `server`, as NewSimpleClientset's loop of tracker.Add does.

    Each object goes through `APIServer.add_object`, which keeps what the test
    wrote (uid, generation, status, owner references, finalizers) and only
    assigns a fresh resourceVersion. Namespaces go first (one that already
    exists, such as "default", is left as it is); a namespace that a
    namespaced object names is created when missing; an object without a
    namespace goes to "default". Invalid objects are refused.
    """
    from minikcm.client.inprocess import object_to_wire, resource_of

    infos = [(resource_of(obj), obj) for obj in objects]
    infos.sort(key=lambda pair: pair[0].resource != "namespaces")  # stable: namespaces first
    for info, obj in infos:
        wire = object_to_wire(obj, info.api_version, info.kind)
        name = (wire.get("metadata") or {}).get("name", "")
        if info.resource == "namespaces" and namespace_exists(server, name):
            continue  # default, kube-system, ... exist from the start
        server.add_object(wire)


def namespace_exists(server: APIServer, namespace: str) -> bool:
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
