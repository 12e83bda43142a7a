"""Tests for minikcm.tools.cache.delta_fifo (port of tools/cache/delta_fifo_test.go)."""

from __future__ import annotations

import threading

import pytest

from minikcm.tools.cache.delta_fifo import (
    ADDED,
    DELETED,
    REPLACED,
    SYNC,
    UPDATED,
    DeletedFinalStateUnknown,
    Delta,
    DeltaFIFOOptions,
    Deltas,
    dedup_deltas,
    new_delta_fifo,
    new_delta_fifo_with_options,
)
from minikcm.tools.cache.fifo import ErrFIFOClosed
from minikcm.tools.cache.store import KeyErr

from .fifo_testing import (
    LiteralListerGetter,
    RvAndXfrm,
    counting_transformer,
    delta_fifo_get,
    delta_fifo_list,
    delta_fifo_list_keys,
    fifo_obj_key_func,
    literal,
    mk_fifo_obj,
    pop,
    pop2,
)

AMOUNT = 500


def new_fifo(known_objects=None, **kwargs):
    return new_delta_fifo_with_options(
        DeltaFIFOOptions(key_function=fifo_obj_key_func, known_objects=known_objects, **kwargs)
    )


def pop_newest(f):
    """Port of testPop (delta_fifo_test.go): the newest object of the popped Deltas."""
    return pop(f).newest().object


def tomb(key, obj):
    return DeletedFinalStateUnknown(key, obj)


@pytest.mark.threaded
def test_delta_fifo_basic():
    """Port of TestDeltaFIFO_basic (delta_fifo_test.go): two producers, one consumer."""
    f = new_fifo()

    def produce(prefix: str) -> None:
        for i in range(AMOUNT):
            f.add(mk_fifo_obj(prefix + chr(i), (prefix, i + 1)))

    producers = [threading.Thread(target=produce, args=(p,), name=f"producer-{p}") for p in "ab"]
    for t in producers:
        t.start()
    last = {"a": 0, "b": 0}
    for _ in range(AMOUNT * 2):
        prefix, n = pop_newest(f).val
        assert n > last[prefix], f"got {n} ({prefix}) out of order, last was {last[prefix]}"
        last[prefix] = n
    for t in producers:
        t.join(timeout=5)


def test_delta_fifo_replace_with_delete_delta_in():
    """Port of TestDeltaFIFO_replaceWithDeleteDeltaIn (delta_fifo_test.go).

    A replace must queue SYNC for an object even when the key's last delta is a
    deletion (upstream issue 83810: otherwise the informer misses the re-create).
    """
    old_obj, new_obj = mk_fifo_obj("foo", 1), mk_fifo_obj("foo", 2)
    f = new_fifo(literal(old_obj))
    f.delete(old_obj)
    f.replace([new_obj], "")
    assert pop(f) == Deltas([Delta(DELETED, old_obj), Delta(SYNC, new_obj)])


OBJ = mk_fifo_obj("foo", 2)
OBJ_V2 = mk_fifo_obj("foo", 3)


def added_then_relist_empty(f):
    f.add(OBJ)
    f.replace([], "0")


def replaced_then_relist_empty(f):
    f.emit_delta_type_replaced = True
    f.add(OBJ)
    f.replace([OBJ], "0")
    f.replace([], "0")


def deleted_then_relist_empty(f):
    f.add(OBJ)
    f.delete(OBJ)
    f.replace([], "0")


def synced_twice_then_relist_empty(f):
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


REPLACE_MAKES_DELETIONS_FOR_OBJECTS_ONLY_IN_QUEUE_CASES = [
    pytest.param(
        added_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(DELETED, tomb("foo", OBJ))],
        id="Added object should be deleted on Replace",
    ),
    pytest.param(
        replaced_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(REPLACED, OBJ), Delta(DELETED, tomb("foo", OBJ))],
        id="Replaced object should have only a single Delete",
    ),
    pytest.param(
        deleted_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(DELETED, OBJ)],
        id="Deleted object should have only a single Delete",
    ),
    pytest.param(
        synced_twice_then_relist_empty,
        [Delta(ADDED, OBJ), Delta(SYNC, OBJ), Delta(SYNC, OBJ), Delta(DELETED, tomb("foo", OBJ))],
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
]


@pytest.mark.parametrize("with_known_objects", [pytest.param(True, id="with-known-objects"), pytest.param(False, id="without")])
@pytest.mark.parametrize("operations, want", REPLACE_MAKES_DELETIONS_FOR_OBJECTS_ONLY_IN_QUEUE_CASES)
def test_delta_fifow_replace_makes_deletions_for_objects_only_in_queue(operations, want, with_known_objects):
    """Port of TestDeltaFIFOW_ReplaceMakesDeletionsForObjectsOnlyInQueue (delta_fifo_test.go)."""
    f = new_fifo(literal() if with_known_objects else None)
    operations(f)
    assert pop(f) == Deltas(want)
    assert f.items == {}, "expected no extra deltas"


def test_delta_fifo_add_update():
    """Port of TestDeltaFIFO_addUpdate (delta_fifo_test.go)."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 12))
    f.delete(mk_fifo_obj("foo", 15))
    assert delta_fifo_list(f) == [mk_fifo_obj("foo", 15)]
    assert delta_fifo_list_keys(f) == ["foo"]

    assert pop_newest(f).val == 15
    assert f.queue == []  # upstream waits 50 ms for a second value; none is queued
    _, exists = delta_fifo_get(f, mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_delta_fifo_transformer():
    """Port of TestDeltaFIFO_transformer (delta_fifo_test.go): each object is transformed exactly once."""

    def mk(name, rv):
        return mk_fifo_obj(name, RvAndXfrm(rv))

    f = new_fifo(transformer=counting_transformer)
    f.add(mk("foo", 10))
    f.add(mk("bar", 11))
    f.update(mk("foo", 12))
    f.delete(mk("foo", 15))
    f.replace([], "")
    f.add(mk("bar", 16))
    f.replace([], "")
    assert delta_fifo_list_keys(f) == ["foo", "bar"]

    for _ in range(2):
        obj = f.pop(lambda o, initial: None).newest().object
        if isinstance(obj, DeletedFinalStateUnknown):
            assert obj.obj.name == "bar", "expected tombstone deletion of bar"
            assert obj.obj.val == RvAndXfrm(16, 1)
        else:
            assert obj.name == "foo", "expected regular deletion of foo"
            assert obj.val == RvAndXfrm(15, 1)


def test_delta_fifo_enqueueing_no_lister():
    """Port of TestDeltaFIFO_enqueueingNoLister (delta_fifo_test.go)."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    f.add(mk_fifo_obj("qux", 17))
    f.delete(mk_fifo_obj("qux", 18))
    f.delete(mk_fifo_obj("baz", 20))  # never seen: nothing queued
    assert [pop_newest(f).val for _ in range(3)] == [10, 15, 18]
    assert f.items == {}


def test_delta_fifo_enqueueing_with_lister():
    """Port of TestDeltaFIFO_enqueueingWithLister (delta_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5), mk_fifo_obj("bar", 6), mk_fifo_obj("baz", 7)))
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("bar", 15))
    f.delete(mk_fifo_obj("baz", 20))  # baz is known: the deletion is queued
    assert [pop_newest(f).val for _ in range(3)] == [10, 15, 20]
    assert f.items == {}


def test_delta_fifo_add_replace():
    """Port of TestDeltaFIFO_addReplace (delta_fifo_test.go)."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "0")
    assert pop_newest(f).val == 15
    assert f.queue == []
    _, exists = delta_fifo_get(f, mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_delta_fifo_resync_non_existing():
    """Port of TestDeltaFIFO_ResyncNonExisting (delta_fifo_test.go): a queued delete is not followed by a SYNC."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.delete(mk_fifo_obj("foo", 10))
    f.resync()
    assert [d.type for d in f.items["foo"]] == [DELETED]


def test_delta_fifo_resync():
    """Port of TestDeltaFIFO_Resync (delta_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.resync()
    assert [d.type for d in f.items["foo"]] == [SYNC]


def test_delta_fifo_delete_existing_non_propagated():
    """Port of TestDeltaFIFO_DeleteExistingNonPropagated (delta_fifo_test.go)."""
    f = new_fifo(literal())
    f.add(mk_fifo_obj("foo", 5))
    f.delete(mk_fifo_obj("foo", 6))
    assert [d.type for d in f.items["foo"]] == [ADDED, DELETED]


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


REPLACE_MAKES_DELETIONS_CASES = [
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        pre_existing_delete,
        [
            [Delta(DELETED, mk_fifo_obj("baz", 10))],
            [Delta(SYNC, mk_fifo_obj("foo", 5))],
            [Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6)))],  # bar vanished: tombstone with the known object
        ],
        id="pre-existing-delete",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        pre_existing_add,
        [
            [Delta(ADDED, mk_fifo_obj("baz", 10)), Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 10)))],
            [Delta(SYNC, mk_fifo_obj("foo", 5))],
            [Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6)))],
        ],
        id="pre-existing-add",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        delete_and_recreate_in_queue,
        [
            # bar's tombstone holds the newest queued object, not the known one.
            [
                Delta(DELETED, mk_fifo_obj("bar", 6)),
                Delta(ADDED, mk_fifo_obj("bar", 100)),
                Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 100))),
            ],
            [Delta(SYNC, mk_fifo_obj("foo", 5))],
            [Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7)))],
        ],
        id="delete-and-recreate-in-queue",
    ),
    pytest.param(
        KNOWN_FOO_BAR_BAZ,
        sync_first,
        [
            [Delta(SYNC, mk_fifo_obj("bar", 100)), Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 100)))],
            [Delta(SYNC, mk_fifo_obj("foo", 5)), Delta(SYNC, mk_fifo_obj("foo", 5))],
            [Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7)))],
        ],
        id="sync-first-uses-latest-version",
    ),
    pytest.param(
        None,
        pre_existing_add,
        [
            [Delta(ADDED, mk_fifo_obj("baz", 10)), Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 10)))],
            [Delta(SYNC, mk_fifo_obj("foo", 5))],
        ],
        id="without-known-objects",
    ),
]


@pytest.mark.parametrize("known, operations, want", REPLACE_MAKES_DELETIONS_CASES)
def test_delta_fifo_replace_makes_deletions(known, operations, want):
    """Port of TestDeltaFIFO_ReplaceMakesDeletions (delta_fifo_test.go)."""
    f = new_fifo(literal(*known) if known is not None else None)
    operations(f)
    for expected in want:
        assert pop(f) == Deltas(expected)
    assert f.items == {}


def test_delta_fifo_replace_makes_deletions_replaced():
    """Port of TestDeltaFIFO_ReplaceMakesDeletionsReplaced (delta_fifo_test.go): REPLACED instead of SYNC."""
    f = new_fifo(literal(*KNOWN_FOO_BAR_BAZ), emit_delta_type_replaced=True)
    f.delete(mk_fifo_obj("baz", 10))
    f.replace([mk_fifo_obj("foo", 6)], "0")
    assert pop(f) == Deltas([Delta(DELETED, mk_fifo_obj("baz", 10))])
    assert pop(f) == Deltas([Delta(REPLACED, mk_fifo_obj("foo", 6))])
    assert pop(f) == Deltas([Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6)))])


def test_delta_fifo_replace_delta_type():
    """Port of TestDeltaFIFO_ReplaceDeltaType (delta_fifo_test.go)."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)), emit_delta_type_replaced=True)
    f.replace([mk_fifo_obj("foo", 5)], "0")
    assert pop(f) == Deltas([Delta(REPLACED, mk_fifo_obj("foo", 5))])


def test_delta_fifo_update_resync_race():
    """Port of TestDeltaFIFO_UpdateResyncRace (delta_fifo_test.go): resync skips a key with queued changes."""
    f = new_fifo(literal(mk_fifo_obj("foo", 5)))
    f.update(mk_fifo_obj("foo", 6))
    f.resync()
    assert pop(f) == Deltas([Delta(UPDATED, mk_fifo_obj("foo", 6))])


def test_delta_fifo_has_synced_correct_on_deletion():
    """Port of TestDeltaFIFO_HasSyncedCorrectOnDeletion (delta_fifo_test.go): tombstones count as initial items."""
    f = new_fifo(literal(*KNOWN_FOO_BAR_BAZ))
    f.replace([mk_fifo_obj("foo", 5)], "0")
    expected_list = [
        [Delta(SYNC, mk_fifo_obj("foo", 5))],
        [Delta(DELETED, tomb("bar", mk_fifo_obj("bar", 6)))],
        [Delta(DELETED, tomb("baz", mk_fifo_obj("baz", 7)))],
    ]
    for expected in expected_list:
        assert not f.has_synced()
        cur, initial = pop2(f)
        assert cur == Deltas(expected)
        assert initial, "expected initial list item"
    assert f.has_synced()


def test_delta_fifo_detect_line_jumpers():
    """Port of TestDeltaFIFO_detectLineJumpers (delta_fifo_test.go)."""
    f = new_fifo()
    f.add(mk_fifo_obj("foo", 10))
    f.add(mk_fifo_obj("bar", 1))
    f.add(mk_fifo_obj("foo", 11))
    f.add(mk_fifo_obj("foo", 13))
    f.add(mk_fifo_obj("zab", 30))
    assert pop_newest(f).val == 13
    f.add(mk_fifo_obj("foo", 14))  # foo must go to the back now
    assert pop_newest(f).val == 1
    assert pop_newest(f).val == 30
    assert pop_newest(f).val == 14


KEY_OF_CASES = [
    #            obj                                                            want
    pytest.param(mk_fifo_obj("A"),                                              "A", id="object"),
    pytest.param(tomb("B", None),                                               "B", id="tombstone"),
    pytest.param(Deltas([Delta(ADDED, mk_fifo_obj("C"))]),                      "C", id="deltas"),
    pytest.param(Deltas([Delta(ADDED, tomb("D", None))]),                       "D", id="deltas-of-tombstone"),
]


@pytest.mark.parametrize("obj, want", KEY_OF_CASES)
def test_delta_fifo_key_of(obj, want):
    """Port of TestDeltaFIFO_KeyOf (delta_fifo_test.go)."""
    assert new_fifo().key_of(obj) == want


def test_delta_fifo_key_of_errors():
    f = new_fifo()
    with pytest.raises(KeyErr, match="0 length Deltas"):
        f.key_of(Deltas())
    with pytest.raises(KeyErr):
        f.key_of("not a fifo object")


def add_a(f):
    f.add(mk_fifo_obj("a", 1))


def replace_empty(f):
    f.replace([], "0")


def replace_ab(f):
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0")


def replace_a_twice(f):
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("a", 2)], "0")


DELTA_FIFO_HAS_SYNCED_CASES = [
    #            actions                        want synced
    pytest.param([],                            False, id="nothing-happened"),
    pytest.param([add_a],                       True,  id="add-before-replace"),
    pytest.param([replace_empty],               True,  id="empty-replace"),
    pytest.param([replace_ab],                  False, id="replace-not-popped"),
    pytest.param([replace_ab, pop],             False, id="replace-half-popped"),
    pytest.param([replace_ab, pop, pop],        True,  id="replace-all-popped"),
    pytest.param([replace_a_twice, pop],        True,  id="duplicate-keys-count-once"),
]


@pytest.mark.parametrize("actions, want", DELTA_FIFO_HAS_SYNCED_CASES)
def test_delta_fifo_has_synced(actions, want):
    """Port of TestDeltaFIFO_HasSynced (delta_fifo_test.go)."""
    f = new_fifo()
    for action in actions:
        action(f)
    assert f.has_synced() == want
    assert f.done().is_set() == want


@pytest.mark.threaded
def test_delta_fifo_pop_should_unblock_when_closed():
    """Port of TestDeltaFIFO_PopShouldUnblockWhenClosed (delta_fifo_test.go)."""
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


DEDUP_DELTAS_CASES = [
    #            deltas                                                                  want
    pytest.param([Delta(ADDED, 1)],                                                      [Delta(ADDED, 1)], id="single"),
    pytest.param([Delta(ADDED, 1), Delta(DELETED, 2)],                                   [Delta(ADDED, 1), Delta(DELETED, 2)], id="different-types"),
    pytest.param([Delta(DELETED, 1), Delta(DELETED, 2)],                                 [Delta(DELETED, 1)], id="keep-earlier-real-deletion"),
    pytest.param([Delta(DELETED, tomb("k", 1)), Delta(DELETED, 2)],                      [Delta(DELETED, 2)], id="real-state-beats-tombstone"),
    pytest.param([Delta(DELETED, 1), Delta(DELETED, tomb("k", 2))],                      [Delta(DELETED, 1)], id="tombstone-after-real-deletion-dropped"),
    pytest.param([Delta(UPDATED, 1), Delta(UPDATED, 1)],                                 [Delta(UPDATED, 1), Delta(UPDATED, 1)], id="updates-never-merge"),
]


@pytest.mark.parametrize("deltas, want", DEDUP_DELTAS_CASES)
def test_dedup_deltas(deltas, want):
    assert dedup_deltas(Deltas(deltas)) == want


def test_delta_fifo_pop_passes_known_objects_lookup_error_as_existing():
    class Failing(LiteralListerGetter):
        def get_by_key(self, key):
            raise RuntimeError("lookup failed")

    f = new_fifo(Failing(lambda: []))
    f.delete(mk_fifo_obj("ghost", 1))  # the lookup failed: the delete is queued to be safe
    assert pop(f) == Deltas([Delta(DELETED, mk_fifo_obj("ghost", 1))])


def test_new_delta_fifo_defaults_to_sync_deltas():
    f = new_delta_fifo(fifo_obj_key_func, literal())
    f.replace([mk_fifo_obj("a", 1)], "1")
    assert pop(f) == Deltas([Delta(SYNC, mk_fifo_obj("a", 1))])
    assert f.name() == "DeltaFIFO"
    assert f.has_synced_checker() is f


def test_delta_fifo_repr():
    f = new_fifo()
    f.add(mk_fifo_obj("a", 1))
    assert repr(f) == "<DeltaFIFO 'DeltaFIFO' 1 queued ['a'] synced=True>"
