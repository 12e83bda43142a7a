"""Port of k8s.io/client-go/testing/actions.go.

What a Fake records. Each call a typed client makes, when a `Fake` stands in
front of its transport, is described as an `Action`: verb, resource, namespace,
subresource, and the object, name, options or patch it carries. Controller
tests assert on `fake.actions()` the way upstream's assert on `client.Actions()`,
building the actions they expect with the `new_*_action` constructors.

Start reading at: Action, then CreateAction and UpdateAction.

Not ported: GenericAction, ProxyGetAction, the NewRoot... constructors (pass
namespace ""), the separate ...WithOptions constructors (options are a keyword
of the plain constructor).
Differs from Go:
- Go pairs each Action interface with an ...ActionImpl struct. Here each pair is
  one dataclass named after the interface (`CreateAction` is CreateActionImpl),
  and `Action` (ActionImpl) is their common base.
- `extract_from_list_options` raises ValueError for a malformed selector where Go panics.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from minikcm.apimachinery import fields, labels
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
