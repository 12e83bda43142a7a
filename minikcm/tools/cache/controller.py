"""Port of k8s.io/client-go/tools/cache/controller.go (the event-handler half; the controller type follows).

What an informer does with each popped item: `process_deltas` applies the
changes to the client-side store (the indexer) first, then tells a
`ResourceEventHandler` (on_add / on_update / on_delete), so a handler that reads
the cache already sees the change it is told about. `process_replaced_all_info`
does the same for an atomic relist, working out deletions against the store.
The handler adapters (`ResourceEventHandlerFuncs`, `FilteringResourceEventHandler`)
and the tombstone-aware key function live here too.

Start reading at: process_deltas, then ResourceEventHandler.

Not ported: contextual loggers (the `logger` parameters are dropped). Not yet
ported: Config, the `controller` type (New, Run, processLoop), InformerOptions and
the NewInformer family, newInformer, newQueueFIFO; they come next, in upstream
order, at the places marked below.
Differs from Go:
- ResourceEventHandlerFuncs & co. are dataclasses of optional callables.
- process_deltas* raise where Go returns an error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from minikcm.tools.cache.delta_fifo import (
    ADDED,
    BOOKMARK,
    DELETED,
    REPLACED,
    REPLACED_ALL,
    SYNC,
    SYNC_ALL,
    UPDATED,
    DeletedFinalStateUnknown,
    Delta,
    Deltas,
)
from minikcm.tools.cache.object_names import ObjectName, parse_object_name
from minikcm.tools.cache.store import (
    TRANSACTION_TYPE_ADD,
    TRANSACTION_TYPE_DELETE,
    TRANSACTION_TYPE_UPDATE,
    Key,
    KeyFunc,
    Store,
    Transaction,
    TransactionStore,
    meta_namespace_key_func,
    object_to_name,
)
from minikcm.tools.cache.the_real_fifo import BookmarkInfo, ReplacedAllInfo, SyncAllInfo, reconcile_replacement

# --- Config goes here (next phase). ---

ShouldResyncFunc = Callable[[], bool]
"""Port of ShouldResyncFunc: asked by the reflector whether a periodic resync is due."""

ProcessFunc = Callable[[Any, bool], None]
"""Port of ProcessFunc: handles one popped item (a Deltas); the bool is is_in_initial_list."""

ProcessBatchFunc = Callable[[list[Delta], bool], None]
"""Port of ProcessBatchFunc: handles a batch of deltas, at most one per object."""

# --- controller, Controller, New, Run, HasSynced, LastSyncResourceVersion, processLoop go here (next phase). ---


class ResourceEventHandler(Protocol):
    """Port of ResourceEventHandler (controller.go): what an informer notifies.

    Handlers must not change the objects they are given (nor anything
    reachable from them): the objects are the cache's own.

    - on_add: an object appeared; `is_in_initial_list` is true while the
      informer delivers its first list.
    - on_update: `old_obj` is the last state the cache had, so several changes
      may be folded into one call. A relist or resync also calls it, even when
      nothing changed: handy for periodic re-checks.
    - on_delete: the final state, or a DeletedFinalStateUnknown when the
      deletion was only noticed at a relist.
    """

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None: ...
    def on_update(self, old_obj: Any, new_obj: Any) -> None: ...
    def on_delete(self, obj: Any) -> None: ...


@dataclass
class ResourceEventHandlerFuncs:
    """Port of ResourceEventHandlerFuncs (controller.go): a handler from up to three plain functions.

    Missing functions make their event a no-op. `add_func` takes just the
    object; use ResourceEventHandlerDetailedFuncs to receive is_in_initial_list.
    """

    add_func: Callable[[Any], None] | None = None
    update_func: Callable[[Any, Any], None] | None = None
    delete_func: Callable[[Any], None] | None = None

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of ResourceEventHandlerFuncs.OnAdd: call add_func, if set."""
        if self.add_func is not None:
            self.add_func(obj)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of ResourceEventHandlerFuncs.OnUpdate: call update_func, if set."""
        if self.update_func is not None:
            self.update_func(old_obj, new_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of ResourceEventHandlerFuncs.OnDelete: call delete_func, if set."""
        if self.delete_func is not None:
            self.delete_func(obj)


@dataclass
class ResourceEventHandlerDetailedFuncs:
    """Port of ResourceEventHandlerDetailedFuncs (controller.go): like ResourceEventHandlerFuncs,
    but `add_func(obj, is_in_initial_list)` learns whether the add belongs to the initial list."""

    add_func: Callable[[Any, bool], None] | None = None
    update_func: Callable[[Any, Any], None] | None = None
    delete_func: Callable[[Any], None] | None = None

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnAdd: call add_func, if set."""
        if self.add_func is not None:
            self.add_func(obj, is_in_initial_list)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnUpdate: call update_func, if set."""
        if self.update_func is not None:
            self.update_func(old_obj, new_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnDelete: call delete_func, if set."""
        if self.delete_func is not None:
            self.delete_func(obj)


@dataclass
class FilteringResourceEventHandler:
    """Port of FilteringResourceEventHandler (controller.go): pass on only events whose object passes `filter_func`.

    An update that makes an object start passing is an add for `handler`;
    one that makes it stop passing is a delete. The filter must not change
    the objects either.
    """

    filter_func: Callable[[Any], bool]
    handler: ResourceEventHandler

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of FilteringResourceEventHandler.OnAdd."""
        if not self.filter_func(obj):
            return
        self.handler.on_add(obj, is_in_initial_list)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of FilteringResourceEventHandler.OnUpdate: update, add, delete or nothing.

        | old passes | new passes | handler gets        |
        | yes        | yes        | on_update(old, new) |
        | no         | yes        | on_add(new, False)  |
        | yes        | no         | on_delete(old)      |
        | no         | no         | nothing             |
        """
        newer = self.filter_func(new_obj)
        older = self.filter_func(old_obj)
        if newer and older:
            self.handler.on_update(old_obj, new_obj)
        elif newer and not older:
            self.handler.on_add(new_obj, False)
        elif not newer and older:
            self.handler.on_delete(old_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of FilteringResourceEventHandler.OnDelete."""
        if not self.filter_func(obj):
            return
        self.handler.on_delete(obj)


def deletion_handling_meta_namespace_key_func(obj: Any) -> Key:
    """Port of DeletionHandlingMetaNamespaceKeyFunc (controller.go).

    meta_namespace_key_func that also accepts a tombstone, returning the key
    it carries. Delete handlers use it, since they may get either.
    """
    if isinstance(obj, DeletedFinalStateUnknown):
        return obj.key
    return meta_namespace_key_func(obj)


def deletion_handling_object_to_name(obj: Any) -> ObjectName:
    """Port of DeletionHandlingObjectToName (controller.go): object_to_name that also accepts a tombstone."""
    if isinstance(obj, DeletedFinalStateUnknown):
        return parse_object_name(obj.key)
    return object_to_name(obj)


# --- InformerOptions, NewInformerWithOptions, NewInformer & co. go here (next phase). ---


def process_deltas(
    handler: ResourceEventHandler,
    client_state: Store,
    deltas: Deltas,
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processDeltas (controller.go): apply deltas to the store, then notify, oldest first.

    - SYNC, REPLACED, ADDED, UPDATED: update the store and call on_update(old,
      new) when the key was there, else add and call on_add.
    - DELETED: delete from the store, then on_delete.
    - REPLACED_ALL: process_replaced_all_info.
    - SYNC_ALL: on_update(obj, obj) for every stored object.
    - BOOKMARK: record the resource version in the store.

    Tricky: a SYNC_ALL delta ends the walk; deltas after it in the same
    Deltas are not looked at (upstream returns there too; RealFIFO never puts
    anything after it, since each of its Deltas holds one delta).

    Raises:
        TypeError: a marker delta carries the wrong object.
        KeyErr / any store error: the store rejected the object.
    """
    for d in deltas:
        obj = d.object
        if d.type == REPLACED_ALL:
            if not isinstance(obj, ReplacedAllInfo):
                raise TypeError(f"ReplacedAll did not contain ReplacedAllInfo: {type(obj).__name__}")
            process_replaced_all_info(handler, obj, client_state, is_in_initial_list, key_func)
        elif d.type == SYNC_ALL:
            if not isinstance(obj, SyncAllInfo):
                raise TypeError(f"SyncAll did not contain SyncAllInfo: {type(obj).__name__}")
            for stored in client_state.list():
                handler.on_update(stored, stored)
            return
        elif d.type in (SYNC, REPLACED, ADDED, UPDATED):
            old, exists = stored_object(client_state, obj)
            if exists:
                client_state.update(obj)
                handler.on_update(old, obj)
            else:
                client_state.add(obj)
                handler.on_add(obj, is_in_initial_list)
        elif d.type == DELETED:
            client_state.delete(obj)
            handler.on_delete(obj)
        elif d.type == BOOKMARK:
            if not isinstance(obj, BookmarkInfo):
                raise TypeError(f"bookmark delta did not contain BookmarkInfo: {type(obj).__name__}")
            client_state.bookmark(obj.resource_version)


def stored_object(client_state: Store, obj: Any) -> tuple[Any, bool]:
    """No upstream twin. Store.get where a key error reads as "not stored", as Go's `err == nil && exists` does.

    The add that follows reports the key error.
    """
    try:
        return client_state.get(obj)
    except Exception:  # see the docstring: the caller's add raises the same error
        return None, False


def process_deltas_in_batch(
    handler: ResourceEventHandler,
    client_state: Store,
    deltas: list[Delta],
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processDeltasInBatch (controller.go): process_deltas for a batch of distinct objects.

    With a TransactionStore, all writes go in one transaction and the handler
    calls follow, only for the writes that succeeded. Otherwise each delta goes
    through process_deltas on its own and the errors are collected.

    Raises:
        RuntimeError: some deltas failed (the others were applied and notified).
        ValueError: a delta type that cannot be batched (REPLACED_ALL, SYNC_ALL, BOOKMARK).
    """
    if not isinstance(client_state, TransactionStore):
        errs: list[Exception] = []
        for delta in deltas:
            try:
                process_deltas(handler, client_state, Deltas([delta]), is_in_initial_list, key_func)
            except Exception as err:  # collected and raised together below
                errs.append(err)
        if errs:
            raise RuntimeError(f"unexpected error when handling deltas: {errs}")
        return

    txns: list[Transaction] = []
    callbacks: list[Callable[[], None]] = []  # callbacks[i] belongs to txns[i]
    for d in deltas:
        obj = d.object
        if d.type in (SYNC, REPLACED, ADDED, UPDATED):
            old, exists = stored_object(client_state, obj)  # one lookup per object: the batch has no repeats
            if exists:
                txns.append(Transaction(obj, TRANSACTION_TYPE_UPDATE))
                callbacks.append(functools.partial(handler.on_update, old, obj))
            else:
                txns.append(Transaction(obj, TRANSACTION_TYPE_ADD))
                callbacks.append(functools.partial(handler.on_add, obj, is_in_initial_list))
        elif d.type == DELETED:
            txns.append(Transaction(obj, TRANSACTION_TYPE_DELETE))
            callbacks.append(functools.partial(handler.on_delete, obj))
        else:
            raise ValueError(f"Delta type {d.type} is not supported in batch processing")

    err = client_state.transaction(*txns)
    if err is not None:
        for i in err.successful_indices:  # notify only what reached the store
            if i < len(callbacks):
                callbacks[i]()
        raise RuntimeError(f"not all items in the batch successfully processed: {err}") from err
    for callback in callbacks:
        callback()


def process_replaced_all_info(
    handler: ResourceEventHandler,
    info: ReplacedAllInfo,
    client_state: Store,
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processReplacedAllInfo (controller.go): apply an atomic relist and notify.

    Compares the new list with the store (reconcile_replacement with no
    queued items), replaces the store's content in one step, then calls
    on_delete for every vanished object (a tombstone), then on_update or
    on_add for each listed object, in list order. Handlers therefore always
    read a store that already shows the whole relist; the order of calls is
    the one RealFIFO's per-item replace would produce.
    """
    deletions: list[DeletedFinalStateUnknown] = []
    replacements: list[tuple[Any, Any]] = []  # (old or None, new)

    def on_delete(obj: DeletedFinalStateUnknown) -> None:
        deletions.append(obj)

    def on_replace(obj: Any) -> None:
        old, exists = stored_object(client_state, obj)  # same rule as process_deltas for REPLACED
        replacements.append((old if exists else None, obj))

    reconcile_replacement(None, client_state, info.objects, key_func, on_delete, on_replace)

    client_state.replace(info.objects, info.resource_version)  # the store first, so handlers see it
    for tombstone in deletions:
        handler.on_delete(tombstone)
    for old_obj, new_obj in replacements:
        if old_obj is not None:
            handler.on_update(old_obj, new_obj)
        else:
            handler.on_add(new_obj, is_in_initial_list)


# --- newInformer and newQueueFIFO go here (next phase). ---
