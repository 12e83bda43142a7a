"""No upstream twin. The checks of the P2 informer exercises (chapter `p2-informers`).

Table rows follow upstream's store, DeltaFIFO, reflector and thread-safe store
tests (TestMetaNamespaceKeyFunc-style keys, the dedup rules of
TestDeltaFIFO_ReplaceMakesDeletions, TestReflectorList's retry after 410,
TestThreadSafeStoreIndexingFunctionsWithMultipleValues) with our values. The
runs of the port are the `informer-relist` scenario (a lagging watch, 410
Gone, a relist; for the index exercise with two indexes added to the informer
first) and, for the deletion dedup, a small run of a DeltaFIFO feeding the
informer's process_deltas while a relist races a deletion.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

from kubernetes.client import V1ListMeta, V1Namespace, V1ObjectMeta, V1Pod, V1PodList

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.watch import FakeWatcher
from minikcm.clock import EPOCH, FakeClock
from minikcm.exercises.base import Case, Chapter, CheckFailed, Exercise, expect, expect_equal
from minikcm.sim.scenarios import get_scenario
from minikcm.sim.scenarios.informer import InformerRelist
from minikcm.tools.cache.controller import (
    ResourceEventHandlerFuncs,
    deletion_handling_meta_namespace_key_func,
    process_deltas,
)
from minikcm.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    UPDATED,
    Delta,
    DeletedFinalStateUnknown,
    DeltaFIFOOptions,
    Deltas,
    dedup_deltas,
    is_deletion_dup,
    new_delta_fifo_with_options,
)
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.listwatch import ListWatch
from minikcm.tools.cache.reflector import Reflector, ReflectorOptions, new_reflector_with_options
from minikcm.tools.cache.store import ExplicitKey, meta_namespace_key_func, new_indexer, new_store
from minikcm.tools.cache.thread_safe_store import new_thread_safe_store

CACHE = "minikcm.tools.cache"
TIER_INDEX = "tier"


def pod(name: str, namespace: str | None = "default", rv: str = "1", labels: dict[str, str] | None = None) -> V1Pod:
    return V1Pod(api_version="v1", kind="Pod",
                 metadata=V1ObjectMeta(name=name, namespace=namespace, resource_version=rv, labels=labels))


# -- the run of the port: informer-relist ----------------------------------------------------------------


def play_informer_relist(indexed: bool = False) -> InformerRelist:
    """Play `informer-relist` (optionally with a namespace and a tier index on the informer) and check it caught up."""
    run = get_scenario("informer-relist").build(1)
    scenario: InformerRelist = run.objects["scenario"]
    if indexed:
        scenario.informer.add_indexers({NAMESPACE_INDEX: meta_namespace_index_func, TIER_INDEX: tier_index})
    run.run()
    expect(bool(scenario.relists) and scenario.relists[0] == "410 Gone",
           f"the watch should end with 410 Gone and the reflector relist; relists: {scenario.relists}")
    expect_equal(scenario.cache_names(), scenario.server_names(), "the informer's cache keys at the end")
    return scenario


def run_informer_relist() -> None:
    play_informer_relist()


LIST_LINE = re.compile(r"list pods at resourceVersion '([^']*)'")
WATCH_LINE = re.compile(r"watch pods from resourceVersion '([^']*)'")


def run_informer_relist_versions() -> None:
    """informer-relist: the first list asks for "0"; the relist after 410 asks for the version last watched from."""
    scenario = play_informer_relist()
    lists: list[str] = []
    expected: list[str] = []
    last_watch = ""
    for entry in scenario.driver.trace:
        if entry.step != "lister-watcher":
            continue
        if m := WATCH_LINE.search(entry.detail):
            last_watch = m.group(1)
        elif m := LIST_LINE.search(entry.detail):
            lists.append(m.group(1))
            expected.append("0" if not expected else last_watch)
    expect_equal(lists, expected, "resourceVersion of each list (first '0', then the last version watched from)")


def run_informer_relist_indexed() -> None:
    """informer-relist with two indexes: at the end every index agrees with the cache, with no empty sets."""
    scenario = play_informer_relist(indexed=True)
    indexer = scenario.informer.get_indexer()
    keys = scenario.cache_names()
    expect_equal(sorted(indexer.index_keys(NAMESPACE_INDEX, "default")), keys, "keys under namespace 'default'")
    frontend = sorted(k for k in keys if tier_index(indexer.get_by_key(k)[0]) == ["frontend"])
    expect_equal(sorted(indexer.index_keys(TIER_INDEX, "frontend")), frontend, "keys under tier 'frontend'")
    indices = scenario.informer.indexer.cache_storage.store_index.indices  # type: ignore[attr-defined]
    empty = [(name, value) for name, index in indices.items() for value, ks in index.items() if not ks]
    expect_equal(empty, [], "index values left with an empty set of keys")


def tier_index(obj: Any) -> list[str]:
    """Index pods by their `tier` label (no value, no entry)."""
    labels = (obj.metadata.labels if obj.metadata is not None else None) or {}
    return [labels["tier"]] if "tier" in labels else []


# -- meta_namespace_key_func -------------------------------------------------------------------------

KEY_CASES = [
    # id,                             object,                                                        want
    ("namespaced-pod",                pod("web-0", "default"),                                       "default/web-0"),
    ("other-namespace",               pod("db", "kube-system"),                                      "kube-system/db"),
    ("cluster-scoped-has-no-slash",   V1Namespace(api_version="v1", kind="Namespace", metadata=V1ObjectMeta(name="prod")), "prod"),
    ("empty-namespace-is-none",       pod("x", ""),                                                  "x"),
    ("explicit-key-is-its-own-key",   ExplicitKey("ns/given"),                                        "ns/given"),
    ("wire-dict",                     {"metadata": {"name": "w", "namespace": "ns"}},                  "ns/w"),
]


def key_row(obj: Any, want: str) -> None:
    got = meta_namespace_key_func(obj)
    expect_equal(got, want, f"meta_namespace_key_func({type(obj).__name__})")
    expect(type(got) is str, f"the key must be a plain str, got {type(got).__name__}")


def key_without_metadata() -> None:
    try:
        meta_namespace_key_func(42)
    except TypeError:
        return
    raise CheckFailed("meta_namespace_key_func(42) must raise TypeError: an int has no metadata")


def key_in_an_indexer() -> None:
    store = new_store(meta_namespace_key_func)
    store.add(pod("web-0"))
    store.add(V1Namespace(api_version="v1", kind="Namespace", metadata=V1ObjectMeta(name="prod")))
    expect_equal(sorted(store.list_keys()), ["default/web-0", "prod"], "keys of a store holding a pod and a namespace")


def meta_namespace_key_func_cases() -> list[Case]:
    cases = [Case(i, partial(key_row, obj, want)) for i, obj, want in KEY_CASES]
    cases += [
        Case("no-metadata-is-a-TypeError", key_without_metadata),
        Case("keys-of-a-store", key_in_an_indexer),
        Case("informer-relist", run_informer_relist, is_run=True),
    ]
    return cases


# -- is_deletion_dup --------------------------------------------------------------------------------


def dup_row(a_type: str, a_tombstone: bool, b_type: str, b_tombstone: bool, want: str) -> None:
    """`want`: "a", "b" or "none": which of the two deltas is_deletion_dup(a, b) keeps."""
    def obj(tombstone: bool, rv: str) -> Any:
        p = pod("web-0", rv=rv)
        return DeletedFinalStateUnknown("default/web-0", p) if tombstone else p

    b = Delta(b_type, obj(b_tombstone, "1"))  # the older delta
    a = Delta(a_type, obj(a_tombstone, "2"))  # the newer delta
    got = is_deletion_dup(a, b)
    name = {id(a): "a (the newer)", id(b): "b (the older)"}.get(id(got), repr(got))
    want_name = {"a": "a (the newer)", "b": "b (the older)", "none": "None"}[want]
    expect_equal(name, want_name, f"is_deletion_dup(a={a_type}{' tombstone' if a_tombstone else ''}, "
                                  f"b={b_type}{' tombstone' if b_tombstone else ''}) keeps")


DUP_CASES = [
    # id,                                     a (newer),              b (older),              keeps
    ("two-real-deletions-keep-the-older",     DELETED, False,         DELETED, False,         "b"),
    ("a-tombstone-after-a-real-deletion",     DELETED, True,          DELETED, False,         "b"),
    ("a-real-deletion-after-a-tombstone",     DELETED, False,         DELETED, True,          "a"),
    ("two-tombstones-keep-the-newer",         DELETED, True,          DELETED, True,          "a"),
    ("added-then-deleted-is-no-dup",          DELETED, False,         ADDED, False,           "none"),
    ("deleted-then-updated-is-no-dup",        UPDATED, False,         DELETED, False,         "none"),
    ("two-updates-are-no-dup",                UPDATED, False,         UPDATED, False,         "none"),
]


def dedup_keeps_the_real_deletion() -> None:
    real = Delta(DELETED, pod("web-0", rv="2"))
    deltas = Deltas([Delta(ADDED, pod("web-0")), real, Delta(DELETED, DeletedFinalStateUnknown("default/web-0", None))])
    got = dedup_deltas(deltas)
    expect_equal([(d.type, type(d.object).__name__) for d in got], [(ADDED, "V1Pod"), (DELETED, "V1Pod")],
                 "dedup_deltas([Added, Deleted, Deleted tombstone])")


def run_relist_races_a_deletion() -> None:
    """A DeltaFIFO between a 'watch' and process_deltas: a relist (without web-0) lands before the consumer
    has popped web-0's deletion. The handler must see one delete, with the real final state."""
    indexer = new_store(deletion_handling_meta_namespace_key_func)
    fifo = new_delta_fifo_with_options(DeltaFIFOOptions(known_objects=indexer, emit_delta_type_replaced=True))
    events: list[str] = []

    def on_delete(obj: Any) -> None:
        kind = "tombstone" if isinstance(obj, DeletedFinalStateUnknown) else f"final state rv {obj.metadata.resource_version}"
        events.append(f"delete {deletion_handling_meta_namespace_key_func(obj)} ({kind})")

    handler = ResourceEventHandlerFuncs(
        add_func=lambda obj: events.append(f"add {obj.metadata.name}"),
        update_func=lambda old, new: events.append(f"update {new.metadata.name}"),
        delete_func=on_delete)
    popped: list[list[str]] = []

    def process(deltas: Any, is_in_initial_list: bool) -> None:
        popped.append([d.type for d in deltas])
        process_deltas(handler, indexer, deltas, is_in_initial_list, deletion_handling_meta_namespace_key_func)

    def drain() -> None:
        for _ in range(20):
            if not fifo.queue:
                return
            fifo.pop(process)
        raise CheckFailed("the FIFO never emptied")

    fifo.replace([pod("web-0", rv="1"), pod("web-1", rv="1")], "1")  # the first list
    drain()
    fifo.delete(pod("web-0", rv="2"))  # the watch delivers web-0's deletion...
    fifo.replace([pod("web-1", rv="1")], "3")  # ...and a relist arrives before the informer pops it
    drain()
    expect_equal(popped[2:], [[DELETED], ["Replaced"]], "delta types popped after the relist (web-0, then web-1)")
    expect_equal(events, ["add web-0", "add web-1", "delete default/web-0 (final state rv 2)", "update web-1"],
                 "what the handler saw")
    expect_equal(sorted(indexer.list_keys()), ["default/web-1"], "keys in the informer's store at the end")


def is_deletion_dup_cases() -> list[Case]:
    cases = [Case(i, partial(dup_row, at, atomb, bt, btomb, want)) for i, at, atomb, bt, btomb, want in DUP_CASES]
    cases += [
        Case("dedup_deltas-keeps-the-real-deletion", dedup_keeps_the_real_deletion),
        Case("relist-races-a-deletion (DeltaFIFO run)", run_relist_races_a_deletion, is_run=True),
    ]
    return cases


# -- Reflector.relist_resource_version ---------------------------------------------------------------------


class ExpiringLister:
    """A lister that answers 410 Expired for any version other than "" and "0", and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def list(self, options: ListOptions) -> V1PodList:
        self.asked.append(options.resource_version)
        if options.resource_version not in ("", "0"):
            raise errors.new_resource_expired("too old resource version: 15 (20)")
        return V1PodList(metadata=V1ListMeta(resource_version="20"), items=[pod("web-0", rv="20")])

    def watch(self, options: ListOptions) -> FakeWatcher:
        return FakeWatcher()


def reflector(lister: ExpiringLister | None = None) -> Reflector:
    lister = lister if lister is not None else ExpiringLister()
    lw = ListWatch(list_func=lister.list, watch_func=lister.watch)
    return new_reflector_with_options(lw, V1Pod(), new_store(meta_namespace_key_func),
                                      ReflectorOptions(name="exercise", clock=FakeClock(EPOCH)))


def relist_row(last: str, unavailable: bool, want: str) -> None:
    r = reflector()
    if last:
        r.set_last_sync_resource_version(last)
    r.set_is_last_sync_resource_version_unavailable(unavailable)
    expect_equal(r.relist_resource_version(), want,
                 f"relist_resource_version() with last version {last!r}, unavailable={unavailable}")


RELIST_CASES = [
    # id,                                          last seen, unavailable, want
    ("nothing-seen-lists-at-0",                    "",        False,       "0"),
    ("then-the-last-version-seen",                 "15",      False,       "15"),
    ("an-unavailable-version-lists-fresh",         "15",      True,        ""),
    ("unavailable-wins-before-anything-was-seen",  "",        True,        ""),
]


def list_retries_fresh_after_410() -> None:
    """After TestReflectorList... (reflector_test.go): a list at an expired version is retried at ""."""
    lister = ExpiringLister()
    r = reflector(lister)
    r.set_last_sync_resource_version("15")
    r.list()
    expect_equal(lister.asked, ["15", ""], "resourceVersions the lister was asked for (at 15, 410, then fresh)")
    expect_equal(r.last_sync_resource_version(), "20", "last synced version after the fresh list")
    expect_equal(r.relist_resource_version(), "20", "relist_resource_version() once a list worked again")


def relist_resource_version_cases() -> list[Case]:
    cases = [Case(i, partial(relist_row, last, unavailable, want)) for i, last, unavailable, want in RELIST_CASES]
    cases += [
        Case("a-list-at-an-expired-version-is-retried-fresh", list_retries_fresh_after_410),
        Case("informer-relist: the versions listed at", run_informer_relist_versions, is_run=True),
    ]
    return cases


# -- StoreIndex.update_single_index -----------------------------------------------------------------------------

MULTIPLE_VALUES_STEPS = [
    # op,      key,    value,         want index: value -> keys
    ("add",    "key1", "foo",         {"foo": ["key1"]}),
    ("add",    "key2", "bar",         {"foo": ["key1"], "bar": ["key2"]}),
    ("update", "key2", "foo,bar",     {"foo": ["key1", "key2"], "bar": ["key2"]}),
    ("update", "key1", "foo,bar",     {"foo": ["key1", "key2"], "bar": ["key1", "key2"]}),
    ("add",    "key3", "foo,bar,baz", {"foo": ["key1", "key2", "key3"], "bar": ["key1", "key2", "key3"], "baz": ["key3"]}),
    ("update", "key1", "foo",         {"foo": ["key1", "key2", "key3"], "bar": ["key2", "key3"], "baz": ["key3"]}),
    ("update", "key2", "bar",         {"foo": ["key1", "key3"], "bar": ["key2", "key3"], "baz": ["key3"]}),
    ("delete", "key1", None,          {"foo": ["key3"], "bar": ["key2", "key3"], "baz": ["key3"]}),
    ("delete", "key3", None,          {"bar": ["key2"]}),
]


def split_values(obj: Any) -> list[str]:
    return str(obj).split(",")


def index_with_multiple_values() -> None:
    """Port of TestThreadSafeStoreIndexingFunctionsWithMultipleValues (thread_safe_store_test.go)."""
    store = new_thread_safe_store({"testIndexer": split_values}, {})
    for op, key, value, want in MULTIPLE_VALUES_STEPS:
        if op == "add":
            store.add(key, value)
        elif op == "update":
            store.update(key, value)
        else:
            store.delete(key)
        got = {v: sorted(keys) for v, keys in store.store_index.indices.get("testIndexer", {}).items()}
        expect_equal(got, want, f"the index after {op} {key} {value or ''}".rstrip())


def single_value(obj: Any) -> list[str]:
    return ["testIndex"]


def itself(obj: Any) -> list[str]:
    return [str(obj)]


def delete_removes_empty_sets() -> None:
    """Port of TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex (thread_safe_store_test.go)."""
    store = new_thread_safe_store({"testIndexer": itself}, {})
    store.add("testKey", "testKey")
    expect_equal(sorted(store.store_index.indices["testIndexer"].get("testKey", ())), ["testKey"], "keys after add")
    store.delete("testKey")
    expect("testKey" not in store.store_index.indices.get("testIndexer", {}),
           "after the last key under a value is deleted, the value must leave the index (no empty sets)")


def delete_keeps_non_empty_sets() -> None:
    """Port of TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex (thread_safe_store_test.go)."""
    store = new_thread_safe_store({"testIndexer": single_value}, {})
    store.add("retain", "retain")
    store.add("delete", "delete")
    store.delete("delete")
    expect_equal(store.store_index.indices["testIndexer"].get("testIndex"), {"retain"}, "keys left under the value")


def unknown_index_is_an_error() -> None:
    store = new_thread_safe_store({}, {})
    try:
        store.store_index.update_single_index("nope", None, "x", "x")
    except NotImplementedError:
        raise
    except RuntimeError:
        return
    raise CheckFailed("update_single_index on an index that does not exist must raise RuntimeError")


def failing_index_func(obj: Any) -> list[str]:
    raise ValueError("cannot index this")


def failing_index_func_is_an_error() -> None:
    store = new_thread_safe_store({"broken": failing_index_func}, {})
    try:
        store.add("x", "x")
    except NotImplementedError:
        raise
    except RuntimeError:
        return
    raise CheckFailed("an index function that raises must become a RuntimeError")


def labels_move_between_values() -> None:
    indexer = new_indexer(meta_namespace_key_func, {TIER_INDEX: tier_index})
    indexer.add(pod("web-0", labels={"tier": "frontend"}))
    indexer.add(pod("web-1", labels={"tier": "frontend"}))
    indexer.update(pod("web-0", rv="2", labels={"tier": "backend"}))
    indexer.update(pod("web-1", rv="2"))  # the label is gone
    got = {v: sorted(indexer.index_keys(TIER_INDEX, v)) for v in indexer.list_index_func_values(TIER_INDEX)}
    expect_equal(got, {"backend": ["default/web-0"]}, "the tier index after relabelling")


def update_single_index_cases() -> list[Case]:
    return [
        Case("multiple-values-step-by-step", index_with_multiple_values),
        Case("delete-removes-empty-sets", delete_removes_empty_sets),
        Case("delete-keeps-non-empty-sets", delete_keeps_non_empty_sets),
        Case("labels-move-between-values", labels_move_between_values),
        Case("unknown-index-is-a-RuntimeError", unknown_index_is_an_error),
        Case("failing-index-function-is-a-RuntimeError", failing_index_func_is_an_error),
        Case("informer-relist with two indexes", run_informer_relist_indexed, is_run=True),
    ]


# -- the chapter ----------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p2-informers",
    title_en="P2 Informers",
    title_zh="P2 Informer",
    reading_map="p2-informers.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="meta_namespace_key_func",
            target=f"{CACHE}.store.meta_namespace_key_func",
            go_symbol="MetaNamespaceKeyFunc (k8s.io/client-go/tools/cache/store.go)",
            goal_en="The cache key of an object: `namespace/name`, or `name` for a cluster-scoped object.",
            goal_zh="对象的缓存 key：`namespace/name`；集群级对象只有 `name`。",
            hint_en="An ExplicitKey is returned as it is; no namespace means no slash; an object without "
                    "metadata raises TypeError.",
            hint_zh="ExplicitKey 原样返回；没有 namespace 就不要斜杠；没有 metadata 的对象抛出 TypeError。",
            cases=meta_namespace_key_func_cases,
            runs=("informer-relist",),
        ),
        Exercise(
            name="is_deletion_dup",
            target=f"{CACHE}.delta_fifo.is_deletion_dup",
            go_symbol="isDeletionDup (k8s.io/client-go/tools/cache/delta_fifo.go)",
            goal_en="Two deletions of one object queued back to back are one event: keep the one that knows more.",
            goal_zh="同一对象连续排队的两个删除是同一件事：保留知道得更多的那个。",
            hint_en="Only two DELETED deltas are duplicates; keep b (the older) unless b is a "
                    "DeletedFinalStateUnknown tombstone, then keep a.",
            hint_zh="只有两个 DELETED 才算重复；保留较早的 b，除非 b 是 DeletedFinalStateUnknown 墓碑，那就保留 a。",
            cases=is_deletion_dup_cases,
            runs=("a DeltaFIFO run: a relist races a deletion",),
        ),
        Exercise(
            name="relist_resource_version",
            target=f"{CACHE}.reflector.Reflector.relist_resource_version",
            go_symbol="Reflector.relistResourceVersion (k8s.io/client-go/tools/cache/reflector.go)",
            goal_en="Pick the resourceVersion a (re)list asks for: \"0\" at first, then the last one seen, "
                    "\"\" once that one is gone (410).",
            goal_zh="选出（重新）list 时带的 resourceVersion：最开始是 \"0\"，之后是最后见到的版本，"
                    "那个版本已经过期（410）时用 \"\"。",
            hint_en="Unavailable wins over everything; an empty last version means \"0\"; never go back "
                    "to an older version.",
            hint_zh="“不可用”优先于一切；最后版本为空时用 \"0\"；绝不能回到更旧的版本。",
            cases=relist_resource_version_cases,
            runs=("informer-relist",),
        ),
        Exercise(
            name="update_single_index",
            target=f"{CACHE}.thread_safe_store.StoreIndex.update_single_index",
            go_symbol="storeIndex.updateSingleIndex (k8s.io/client-go/tools/cache/thread_safe_store.go)",
            goal_en="Keep one index right on add, update and delete: move the key from its old values to its new ones.",
            goal_zh="在增、改、删时维护一个索引：把 key 从旧的索引值移到新的索引值下。",
            hint_en="Old values come from old_obj, new ones from new_obj (either may be None); remove the key "
                    "under every old value, add it under every new one; drop a value whose set empties; a "
                    "missing index or a failing index function is a RuntimeError.",
            hint_zh="旧值来自 old_obj，新值来自 new_obj（两者都可能是 None）；在每个旧值下删除 key，"
                    "在每个新值下加入 key；集合空了就删掉这个值；索引不存在或索引函数出错时抛出 RuntimeError。",
            cases=update_single_index_cases,
            runs=("informer-relist",),
        ),
    ),
)
"""The `p2-informers` chapter's row of minikcm.exercises.EXERCISES."""
