"""Tests for minikcm.tools.cache.the_real_fifo (port of tools/cache/the_real_fifo_test.go)."""

from __future__ import annotations

import threading

import pytest

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
from minikcm.tools.cache.fifo import ErrFIFOClosed, QueueWithBatch
from minikcm.tools.cache.the_real_fifo import (
    BookmarkInfo,
    RealFIFOOptions,
    ReplacedAllInfo,
    SyncAllInfo,
    new_real_fifo,
    new_real_fifo_with_options,
)

from .fifo_testing import (
    FifoObj,
    RvAndXfrm,
    counting_transformer,
    fifo_obj_key_func,
    literal,
    mk_fifo_obj,
    pop,
    pop2,
)

AMOUNT = 500
CLOSED_FIFO_NAME = "FIFO WAS CLOSED"
IS_ATOMIC = "ATOMIC REPLACED OBJ"
IS_BOOKMARK = "BOOKMARK OBJ"


def new_fifo(known_objects=None, transformer=None):
    """NewRealFIFO(testFifoObjectKeyFunc, knownObjects, transformer) as the upstream tests build it."""
    return new_real_fifo(fifo_obj_key_func, known_objects if known_objects is not None else literal(), transformer)


def pop_n(queue, count):
    """Port of popN (the_real_fifo_test.go)."""
    return [pop(queue) for _ in range(count)]


def collapse_deltas(ins):
    """Port of collapseDeltas (the_real_fifo_test.go): the popped one-delta Deltas, concatenated."""
    return Deltas([d for deltas in ins for d in deltas])


def real_fifo_pop(f) -> FifoObj:
    """Port of testRealFIFOPop (the_real_fifo_test.go): the popped object, with markers for close, relist, bookmark."""
    val = pop(f)
    if val is None:
        return FifoObj(CLOSED_FIFO_NAME)
    newest = val.newest()
    if newest.type == REPLACED_ALL:
        return FifoObj(IS_ATOMIC, list(newest.object.objects))
    if newest.type == BOOKMARK:
        return FifoObj(IS_BOOKMARK)
    return newest.object


def tomb(key, obj):
    return DeletedFinalStateUnknown(key, obj)


@pytest.mark.threaded
def test_real_fifo_basic():
    """Port of TestRealFIFO_basic (the_real_fifo_test.go): two producers, one consumer."""
    f = new_fifo()

    def produce(prefix: str) -> None:
        for i in range(AMOUNT):
            f.add(mk_fifo_obj(prefix + chr(i), (prefix, i + 1)))

    producers = [threading.Thread(target=produce, args=(p,), name=f"producer-{p}") for p in "ab"]
    for t in producers:
        t.start()
    last = {"a": 0, "b": 0}
    for _ in range(AMOUNT * 2):
        prefix, n = real_fifo_pop(f).val
        assert n > last[prefix], f"got {n} ({prefix}) out of order, last was {last[prefix]}"
        last[prefix] = n
    for t in producers:
        t.join(timeout=5)


def test_real_fifo_replace_with_delete_delta_in():
    """Port of TestRealFIFO_replaceWithDeleteDeltaIn (the_real_fifo_test.go)."""
    old_obj, new_obj = mk_fifo_obj("foo", 1), mk_fifo_obj("foo", 2)
    f = new_fifo(literal(old_obj))
    f.delete(old_obj)
    f.replace([new_obj], "")
    assert f.items == [Delta(DELETED, old_obj), Delta(REPLACED, new_obj)]


OBJ = mk_fifo_obj("foo", 2)
OBJ_V2 = mk_fifo_obj("foo", 3)


def added_then_relist_empty(f):
    f.add(OBJ)
    f.replace([], "0")


def deleted_then_relist_empty(f):
    f.add(OBJ)
    f.delete(OBJ)
    f.replace([], "0")


def replaced_twice_then_relist_empty(f):
    f.add(OBJ)
    f.replace([OBJ], "0")
    f.replace([OBJ], "0")
    f.replace([], "0")


def added_then_two_empty_relists(f):
    f.add(OBJ)
    f.replace([], "0")
    f.replace([], "1")


def added_deleted_added_then_relist_empty(f):
    f.add(OBJ)
    f.delete(OBJ)
    f.add(OBJ_V2)
    f.replace([], "0")


def bookmark_then_two_empty_relists(f):
    f.bookmark("123")
    f.replace([], "0")
    f.replace([], "1")


# Upstream's "Replaced object should have only a single Delete" row is commented out: RealFIFO has no
# emit_delta_type_replaced option.
REPLACE_MAKES_DELETIONS_FOR_OBJECTS_ONLY_IN_QUEUE_CASES = [
    pytest.param(
        added_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(DELETED, tomb("foo", OBJ))],
        id="Added object should be deleted on Replace",
    ),
    pytest.param(
        deleted_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(DELETED, OBJ)],
        id="Deleted object should have only a single Delete",
    ),
    pytest.param(
        replaced_twice_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(REPLACED, OBJ), Delta(REPLACED, OBJ), Delta(DELETED, tomb("foo", OBJ))],
        id="Synced objects should have a single delete",
    ),
    pytest.param(
        added_then_two_empty_relists,
        [Delta(ADDED, OBJ), Delta(DELETED, tomb("foo", OBJ))],
        id="Added objects should have a single delete on multiple Replaces",
    ),
    pytest.param(
        added_deleted_added_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(DELETED, OBJ), Delta(ADDED, OBJ_V2), Delta(DELETED, tomb("foo", OBJ_V2))],
        id="Added and deleted and added object should be deleted",
    ),
    pytest.param(
        bookmark_then_two_empty_relists,
        [],
        id="Bookmark object should not be added without atomic",
    ),
]


@pytest.mark.parametrize("operations, want", REPLACE_MAKES_DELETIONS_FOR_OBJECTS_ONLY_IN_QUEUE_CASES)
def test_real_fifow_replace_makes_deletions_for_objects_only_in_queue(operations, want):
    """Port of TestRealFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue (the_real_fifo_test.go)."""
    f = new_fifo(literal())
    operations(f)
    assert collapse_deltas(pop_n(f, len(f.items))) == Deltas(want)
    assert f.items == []


def test_real_fifo_add_update():
    """Port of TestRealFIFO_addUpdate (the_real_fifo_test.go): every change is kept, in order."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 12))
    f.delete(mk_fifo_obj("foo", 15))
    assert f.items == [
        Delta(ADDED, mk_fifo_obj("foo", 10)),
        Delta(UPDATED, mk_fifo_obj("foo", 12)),
        Delta(DELETED, mk_fifo_obj("foo", 15)),
    ]
    assert [real_fifo_pop(f).val for _ in range(3)] == [10, 12, 15]
    assert f.items == []  # upstream waits 50 ms for a fourth value; none is queued
    f.close()
    assert real_fifo_pop(f).name == CLOSED_FIFO_NAME


def test_real_fifo_transformer():
    """Port of TestRealFIFO_transformer (the_real_fifo_test.go): no merging, so every change and tombstone stays."""

    def mk(name, rv):
        return mk_fifo_obj(name, RvAndXfrm(rv))

    def transformed(name, rv):
        return mk_fifo_obj(name, RvAndXfrm(rv, 1))

    f = new_fifo(literal(), counting_transformer)
    f.add(mk("foo", 10))
    f.add(mk("bar", 11))
    f.update(mk("foo", 12))
    f.delete(mk("foo", 15))
    f.replace([], "")
    f.add(mk("bar", 16))
    f.replace([], "")

    expected = [
        Delta(ADDED, transformed("foo", 10)),
        Delta(ADDED, transformed("bar", 11)),
        Delta(UPDATED, transformed("foo", 12)),
        Delta(DELETED, transformed("foo", 15)),
        Delta(DELETED, tomb("bar", transformed("bar", 11))),
        Delta(ADDED, transformed("bar", 16)),
        Delta(DELETED, tomb("bar", transformed("bar", 16))),
    ]
    assert [(d.type, f.key_of(d)) for d in f.items] == [(d.type, f.key_of(d)) for d in expected]
    for want in expected:
        assert f.pop(lambda o, initial: None)[0] == want


def test_real_fifo_enqueueing_no_lister():
    """Port of TestRealFIFO_enqueueingNoLister (the_real_fifo_test.go): even unknown deletions are queued."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    f.add(mk_fifo_obj("qux", 17))
    f.delete(mk_fifo_obj("qux", 18))
    f.delete(mk_fifo_obj("baz", 20))
    assert [real_fifo_pop(f).val for _ in range(5)] == [10, 15, 17, 18, 20]
    assert f.items == []


def test_real_fifo_enqueueing_with_lister():
    """Port of TestRealFIFO_enqueueingWithLister (the_real_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7)))
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    f.delete(mk_fifo_obj("baz", 20))
    assert [real_fifo_pop(f).val for _ in range(3)] == [10, 15, 20]
    assert f.items == []


def test_real_fifo_add_replace():
    """Port of TestRealFIFO_addReplace (the_real_fifo_test.go): both the add and the relist are delivered."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "0")
    assert [real_fifo_pop(f).val for _ in range(2)] == [10, 15]
    assert f.items == []


def test_real_fifo_resync_non_existing():
    """Port of TestRealFIFO_ResyncNonExisting (the_real_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.delete(mk_fifo_obj("foo", 10))
    f.resync()
    assert [d.type for d in f.items] == [DELETED]


def test_real_fifo_resync():
    """Port of TestRealFIFO_Resync (the_real_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.resync()
    assert [d.type for d in f.items] == [SYNC]


def test_real_fifo_delete_existing_non_propagated():
    """Port of TestRealFIFO_DeleteExistingNonPropagated (the_real_fifo_test.go)."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 5))
    f.delete(mk_fifo_obj("foo", 6))
    assert [d.type for d in f.items] == [ADDED, DELETED]


KNOWN_FOO_BAR_BAZ = (mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7))


def pre_existing_delete(f):
    f.delete(mk_fifo_obj("baz", 10))
    f.replace([mk_fifo_obj("foo", 5)], "0")


def pre_existing_add(f):
    f.add(mk_fifo_obj("baz", 10))
    f.replace([mk_fifo_obj("foo", 5)], "0")


def delete_and_recreate_in_queue(f):
    f.delete(mk_fifo_obj("bar", 6))
    f.add(mk_fifo_obj("bar", 100))
    f.replace([mk_fifo_obj("foo", 5)], "0")


def sync_first(f):
    f.replace([mk_fifo_obj("bar", 100), mk_fifo_obj("foo", 5)], "0")
    f.replace([mk_fifo_obj("foo", 5)], "0")


# Unlike DeltaFIFO: one delta per pop, and the deletions of a relist come before its replacements.
REPLACE_MAKES_DELETIONS_CASES = [
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        pre_existing_delete,
        [
            Delta(DELETED, mk_fifo_obj("baz", 10)),
            Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6))),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
        ],
        id="pre-existing-delete",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        pre_existing_add,
        [
            Delta(ADDED, mk_fifo_obj("baz", 10)),
            Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 10))),
            Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6))),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
        ],
        id="pre-existing-add",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        delete_and_recreate_in_queue,
        [
            Delta(DELETED, mk_fifo_obj("bar", 6)),
            Delta(ADDED, mk_fifo_obj("bar", 100)),
            Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 100))),  # the newest queued object, not the known one
            Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7))),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
        ],
        id="delete-and-recreate-in-queue",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        sync_first,
        [
            Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7))),
            Delta(REPLACED, mk_fifo_obj("bar", 100)),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
            Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 100))),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
        ],
        id="sync-first-uses-latest-version",
    ),
    pytest.param(
        (),
        pre_existing_add,
        [
            Delta(ADDED, mk_fifo_obj("baz", 10)),
            Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 10))),
            Delta(REPLACED, mk_fifo_obj("foo", 5)),
        ],
        id="empty-known-objects",
    ),
]


@pytest.mark.parametrize("known, operations, want", REPLACE_MAKES_DELETIONS_CASES)
def test_real_fifo_replace_makes_deletions(known, operations, want):
    """Port of TestRealFIFO_ReplaceMakesDeletions (the_real_fifo_test.go)."""
    f = new_fifo(literal(*known))
    operations(f)
    for expected in want:
        assert pop(f) == Deltas([expected])
    assert f.items == []


def test_real_fifo_replace_makes_deletions_replaced():
    """Port of TestRealFIFO_ReplaceMakesDeletionsReplaced (the_real_fifo_test.go)."""
    f = new_fifo(literal(*KNOWN_FOO_BAR_BAZ))
    f.delete(mk_fifo_obj("baz", 10))
    f.replace([mk_fifo_obj("foo", 6)], "0")
    assert pop(f) == Deltas([Delta(DELETED, mk_fifo_obj("baz", 10))])
    assert pop(f) == Deltas([Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6)))])
    assert pop(f) == Deltas([Delta(REPLACED, mk_fifo_obj("foo", 6))])


def test_real_fifo_update_resync_race():
    """Port of TestRealFIFO_UpdateResyncRace (the_real_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.update(mk_fifo_obj("foo", 6))
    f.resync()
    assert pop(f) == Deltas([Delta(UPDATED, mk_fifo_obj("foo", 6))])
    assert f.items == []


def test_real_fifo_has_synced_correct_on_deletion():
    """Port of TestRealFIFO_HasSyncedCorrectOnDeletion (the_real_fifo_test.go)."""
    f = new_fifo(literal(*KNOWN_FOO_BAR_BAZ))
    f.replace([mk_fifo_obj("foo", 5)], "0")
    expected_list = [
        Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6))),
        Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7))),
        Delta(REPLACED, mk_fifo_obj("foo", 5)),
    ]
    for expected in expected_list:
        assert not f.has_synced()
        cur, initial = pop2(f)
        assert cur == Deltas([expected])
        assert initial, "expected initial list item"
    assert f.has_synced()


def test_real_fifo_detect_line_jumpers():
    """Port of TestRealFIFO_detectLineJumpers (the_real_fifo_test.go): every event, in arrival order."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.add(mk_fifo_obj("bar", 1))
    f.add(mk_fifo_obj("foo", 11))
    f.add(mk_fifo_obj("foo", 13))
    f.add(mk_fifo_obj("zab", 30))
    assert real_fifo_pop(f).val == 10
    f.add(mk_fifo_obj("foo", 14))
    assert [real_fifo_pop(f).val for _ in range(5)] == [1, 11, 13, 30, 14]


KEY_OF_CASES = [
    #            obj                                                            want
    pytest.param(mk_fifo_obj("A"),                                              "A", id="object"),
    pytest.param(tomb("B", None),                                               "B", id="tombstone"),
    pytest.param(Deltas([Delta(ADDED, mk_fifo_obj("C"))]),                      "C", id="deltas"),
    pytest.param(Deltas([Delta(ADDED, tomb("D", None))]),                       "D", id="deltas-of-tombstone"),
    pytest.param(Delta(ADDED, mk_fifo_obj("E")),                                "E", id="single-delta"),
]


@pytest.mark.parametrize("obj, want", KEY_OF_CASES)
def test_real_fifo_key_of(obj, want):
    """Port of TestRealFIFO_KeyOf (the_real_fifo_test.go)."""
    assert new_fifo().key_of(obj) == want


def add_a(f):
    f.add(mk_fifo_obj("a", 1))


def replace_empty(f):
    f.replace([], "0")


def replace_ab(f):
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0")


def replace_a_twice(f):
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("a", 2)], "0")


REAL_FIFO_HAS_SYNCED_CASES = [
    #            actions                             want synced
    pytest.param([],                                 False, id="nothing-happened"),
    pytest.param([add_a],                            True,  id="add-before-replace"),
    pytest.param([replace_empty],                    True,  id="empty-replace"),
    pytest.param([replace_ab],                       False, id="replace-not-popped"),
    pytest.param([replace_ab, pop],                  False, id="replace-half-popped"),
    pytest.param([replace_ab, pop, pop],             True,  id="replace-all-popped"),
    pytest.param([replace_a_twice, pop, pop],        True,  id="duplicate-keys-pop-twice"),
]


@pytest.mark.parametrize("actions, want", REAL_FIFO_HAS_SYNCED_CASES)
def test_real_fifo_has_synced(actions, want):
    """Port of TestRealFIFO_HasSynced (the_real_fifo_test.go)."""
    f = new_fifo()
    for action in actions:
        action(f)
    assert f.has_synced() == want
    assert f.done().is_set() == want


@pytest.mark.threaded
def test_real_fifo_pop_should_unblock_when_closed():
    """Port of TestRealFIFO_PopShouldUnblockWhenClosed (the_real_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    returned: list[str] = []

    def blocked_pop() -> None:
        try:
            f.pop(lambda obj, initial: None)
        except ErrFIFOClosed:
            returned.append("closed")

    jobs = [threading.Thread(target=blocked_pop, name=f"popper-{i}") for i in range(10)]
    for t in jobs:
        t.start()
    f.close()
    for t in jobs:
        t.join(timeout=0.5)
        assert not t.is_alive(), "timed out waiting for pop to return after close"
    assert returned == ["closed"] * 10


def drain_batches(f):
    """Pop batches until the queue is empty; returns (all batches, batches flagged as initial list)."""
    received, received_initial = [], []

    def process_batch(deltas, is_in_initial_list):
        received.append(list(deltas))
        if is_in_initial_list:
            received_initial.append(list(deltas))

    def process_single(obj, is_in_initial_list):
        process_batch([obj.newest()], is_in_initial_list)

    while f.items:  # upstream polls ten times with 50 ms timeouts; we stop when the queue is empty
        f.pop_batch(process_batch, process_single)
    return received, received_initial


O1, O2, O3, O4 = (mk_fifo_obj(f"foo{i}", 5) for i in range(1, 5))
UNLIMITED_BATCH_SIZE = 999999


def update(*objs):
    return [lambda f, o=o: f.update(o) for o in objs]


POP_MULTIPLE_DELTA_IN_BATCH_CASES = [
    #            initial       actions           batch size             want batches
    pytest.param([O1, O2, O3], [],               UNLIMITED_BATCH_SIZE,  [[(REPLACED, O1), (REPLACED, O2), (REPLACED, O3)]],
                 id="non-split: pop unique items should work"),
    pytest.param([O1, O2],     update(O3, O4),   2,                     [[(REPLACED, O1), (REPLACED, O2)], [(UPDATED, O3), (UPDATED, O4)]],
                 id="split due to initial list: initial 2 items with 2 updates should have 2 batches"),
    pytest.param([O1],         update(O1, O1),   UNLIMITED_BATCH_SIZE,  [[(REPLACED, O1)], [(UPDATED, O1)], [(UPDATED, O1)]],
                 id="split due to non-unique#1: update single item for multiple items should have separate batch"),
    pytest.param([O1, O2],     update(O2, O3),   UNLIMITED_BATCH_SIZE,  [[(REPLACED, O1), (REPLACED, O2)], [(UPDATED, O2), (UPDATED, O3)]],
                 id="split due to non-unique#2: update 3 item for with non-unique item at the end should have separate batch"),
    pytest.param([O1, O2, O3], update(O2),       UNLIMITED_BATCH_SIZE,  [[(REPLACED, O1), (REPLACED, O2), (REPLACED, O3)], [(UPDATED, O2)]],
                 id="split due to non-unique#3: update 3 item for with non-unique item in the mid should have separate batch"),
    pytest.param([O1, O2, O3], [],               2,                     [[(REPLACED, O1), (REPLACED, O2)], [(REPLACED, O3)]],
                 id="split due to batch size#1: batching initial list should work"),
    pytest.param([],           update(O1, O2, O3), 2,                   [[(UPDATED, O1), (UPDATED, O2)], [(UPDATED, O3)]],
                 id="split due to batch size#2: batching incoming non-initial deltas should work"),
    pytest.param([O1, O2, O3], update(O4),       2,                     [[(REPLACED, O1), (REPLACED, O2)], [(REPLACED, O3)], [(UPDATED, O4)]],
                 id="split due to batch size#3: pop 4 mixed initial & non-initial items with 2 batch size should have 3 batch"),
]


@pytest.mark.parametrize("initial, actions, batch_size, want", POP_MULTIPLE_DELTA_IN_BATCH_CASES)
def test_real_fifo_pop_multiple_delta_in_batch(initial, actions, batch_size, want):
    """Port of TestRealFIFO_PopMultipleDeltaInBatch (the_real_fifo_test.go)."""
    f = new_fifo(literal(*initial))
    f.batch_size = batch_size
    f.replace(list(initial), "123")
    for action in actions:
        action(f)

    received, received_initial = drain_batches(f)
    assert received == [[Delta(t, o) for t, o in batch] for batch in want]
    assert [d.object for batch in received_initial for d in batch] == initial


S1, S2 = mk_fifo_obj("foo1", 5), mk_fifo_obj("foo2", 5)
F3, F4 = mk_fifo_obj("foo3", 5), mk_fifo_obj("foo4", 5)

POP_BROKEN_ITEMS_IN_BATCH_CASES = [
    #            incoming            want batches
    pytest.param([F3],               [[F3]],              id="1st item is broken"),
    pytest.param([S1, S2, F3],       [[S1, S2, F3]],      id="nth item is broken"),
    pytest.param([S1, S2, F3, F4],   [[S1, S2, F3], [F4]], id="multiple nth items are broken"),
    pytest.param([F3, S1, F4],       [[F3], [S1, F4]],    id="mixed 1st and nth items are broken"),
]


@pytest.mark.parametrize("incoming, want", POP_BROKEN_ITEMS_IN_BATCH_CASES)
def test_real_fifo_pop_broken_items_in_batch(incoming, want):
    """Port of TestRealFIFO_PopBrokenItemsInBatch (the_real_fifo_test.go): a delta without a key closes its batch."""

    def broken_key_func(obj):
        if obj in (F3, F4):
            raise ValueError("test key func error")
        return fifo_obj_key_func(obj)

    f = new_real_fifo(broken_key_func, literal(), None)
    f.batch_size = UNLIMITED_BATCH_SIZE
    f.items.extend(Delta(ADDED, item) for item in incoming)

    received, _ = drain_batches(f)
    assert received == [[Delta(ADDED, o) for o in batch] for batch in want]


def test_real_fifo_pop_batch_sends_unbatchable_deltas_alone():
    f = new_real_fifo_with_options(RealFIFOOptions(key_function=fifo_obj_key_func, atomic_events=True))
    f.add(O1)
    f.replace([O2], "5")
    f.add(O3)
    received, _ = drain_batches(f)
    assert received == [
        [Delta(ADDED, O1)],
        [Delta(REPLACED_ALL, ReplacedAllInfo("5", [O2]))],
        [Delta(ADDED, O3)],
    ]


def atomic_add(f):
    f.add(OBJ)


REPLACE_ATOMIC_CASES = [
    pytest.param(
        [("replace", [], "123")],
        [Delta(REPLACED_ALL, ReplacedAllInfo("123", []))],
        id="Base replace",
    ),
    pytest.param(
        [("add", OBJ), ("replace", [], "123")],
        [Delta(ADDED, OBJ), Delta(REPLACED_ALL, ReplacedAllInfo("123", []))],
        id="Added object exists in deltas on Atomic Replace",
    ),
    pytest.param(
        [("add", OBJ), ("replace", [OBJ], "10"), ("replace", [OBJ], "20"), ("replace", [], "56")],
        [
            Delta(ADDED, OBJ),
            Delta(REPLACED_ALL, ReplacedAllInfo("10", [OBJ])),
            Delta(REPLACED_ALL, ReplacedAllInfo("20", [OBJ])),
            Delta(REPLACED_ALL, ReplacedAllInfo("56", [])),
        ],
        id="Multiple replaces run in order",
    ),
    pytest.param(
        [("bookmark", "123"), ("replace", [], "1234")],
        [Delta(BOOKMARK, BookmarkInfo("123")), Delta(REPLACED_ALL, ReplacedAllInfo("1234", []))],
        id="Bookmark object should not be included in Replace",
    ),
]


def run_ops(f, ops):
    for op, *args in ops:
        getattr(f, op)(*args)


@pytest.mark.parametrize("ops, want", REPLACE_ATOMIC_CASES)
def test_real_fifo_replace_atomic(ops, want):
    """Port of TestRealFIFO_ReplaceAtomic (the_real_fifo_test.go)."""
    f = new_fifo(literal())
    f.emit_atomic_events = True
    f.emit_delta_type_bookmark = True
    run_ops(f, ops)
    assert collapse_deltas(pop_n(f, len(f.items))) == Deltas(want)
    assert f.items == []


def test_real_fifo_replace_atomic_pop():
    """Port of TestRealFIFO_ReplaceAtomicPop (the_real_fifo_test.go)."""
    f = new_fifo()
    f.emit_atomic_events = True
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "20")

    added = real_fifo_pop(f)
    assert (added.name, added.val) == ("foo", 10)
    relist = real_fifo_pop(f)
    assert relist.name == IS_ATOMIC and relist.val == [mk_fifo_obj("foo", 15)]
    assert f.items == []
    f.close()
    assert real_fifo_pop(f).name == CLOSED_FIFO_NAME


RESYNC_ATOMIC_CASES = [
    pytest.param([("resync",)],               [Delta(SYNC_ALL, SyncAllInfo())],                    id="Base resync"),
    pytest.param([("add", OBJ), ("resync",)], [Delta(ADDED, OBJ), Delta(SYNC_ALL, SyncAllInfo())], id="Added object exists in deltas on Atomic Resync"),
]


@pytest.mark.parametrize("ops, want", RESYNC_ATOMIC_CASES)
def test_real_fifo_resync_atomic(ops, want):
    """Port of TestRealFIFO_ResyncAtomic (the_real_fifo_test.go)."""
    f = new_fifo(literal())
    f.emit_atomic_events = True
    run_ops(f, ops)
    assert collapse_deltas(pop_n(f, len(f.items))) == Deltas(want)
    assert f.items == []


def test_real_fifo_atomic_replace_transforms_every_object_once():
    f = new_real_fifo_with_options(
        RealFIFOOptions(key_function=fifo_obj_key_func, transformer=counting_transformer, atomic_events=True)
    )
    f.replace([mk_fifo_obj("a", RvAndXfrm(1)), mk_fifo_obj("b", RvAndXfrm(2))], "7")
    (delta,) = pop(f)
    assert delta.object.resource_version == "7"
    assert [o.val.xfrm for o in delta.object.objects] == [1, 1]


NEW_REAL_FIFO_OPTION_ERRORS = [
    #            options                                                                        message
    pytest.param(RealFIFOOptions(atomic_events=True, known_objects=literal()),                 "known_objects must not be provided", id="atomic-with-known-objects"),
    pytest.param(RealFIFOOptions(known_objects=literal(), unlock_while_processing=True),       "unlock_while_processing must be false", id="unlock-without-atomic"),
    pytest.param(RealFIFOOptions(),                                                            "known_objects must be provided", id="neither"),
    pytest.param(RealFIFOOptions(known_objects=literal(), emit_delta_type_bookmark=True),      "emit_delta_type_bookmark must be false", id="bookmark-without-atomic"),
]


@pytest.mark.parametrize("opts, message", NEW_REAL_FIFO_OPTION_ERRORS)
def test_new_real_fifo_with_options_rejects_inconsistent_options(opts, message):
    with pytest.raises(RuntimeError, match=message):
        new_real_fifo_with_options(opts)


LOCK_WHILE_PROCESSING_CASES = [
    #            unlock  queued behind  want lock held during process
    pytest.param(False,  0,             True,  id="locked-by-default"),
    pytest.param(True,   0,             False, id="unlocked-when-short"),
    pytest.param(True,   4,             True,  id="locked-when-two-batches-queued"),
]


@pytest.mark.parametrize("unlock, queued_behind, want_locked", LOCK_WHILE_PROCESSING_CASES)
def test_real_fifo_while_processing_locked(unlock, queued_behind, want_locked):
    f = new_real_fifo_with_options(
        RealFIFOOptions(key_function=fifo_obj_key_func, atomic_events=True, unlock_while_processing=unlock)
    )
    f.batch_size = 2  # "two full batches" is then 4 queued deltas
    for i in range(queued_behind + 1):
        f.add(mk_fifo_obj(f"o{i}", i))
    seen = []

    def process(obj, is_in_initial_list):
        seen.append(f.lock.locked())
        if not f.lock.locked():
            f.add(mk_fifo_obj("added-while-processing"))  # would deadlock if the lock were held

    f.pop(process)
    assert seen == [want_locked]
    assert not f.lock.locked()


def test_real_fifo_bookmark_needs_emit_option():
    f = new_fifo()
    f.bookmark("5")
    assert f.items == []


def test_real_fifo_is_a_batch_queue_and_repr():
    f = new_fifo()
    assert isinstance(f, QueueWithBatch)
    f.add(mk_fifo_obj("a", 1))
    assert repr(f) == "<RealFIFO 'RealFIFO' 1 queued [Added 'a'] synced=True>"
