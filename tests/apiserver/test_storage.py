"""Tests for minikcm.apiserver.storage: versions, history window, copies, key order."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minikcm.apiserver.storage import (KeyExistsError, KeyNotFoundError, Storage, deep_copy_json,
                                       key_string, object_key)


def obj(name: str, namespace: str = "ns", **extra) -> dict:
    return {"metadata": {"name": name, "namespace": namespace}, **extra}


def test_every_write_takes_the_next_version():
    s = Storage()
    with s.lock:
        a = s.create_locked("pods", obj("a"))
        b = s.create_locked("deployments", obj("b"))
        a2 = s.update_locked("pods", obj("a", spec={"x": 1}))
        gone = s.delete_locked("pods", ("ns", "a"))
    assert [a["metadata"]["resourceVersion"], b["metadata"]["resourceVersion"],
            a2["metadata"]["resourceVersion"], gone["metadata"]["resourceVersion"]] == ["1", "2", "3", "4"]
    assert s.resource_version == 4


def test_storage_errors():
    s = Storage()
    with s.lock:
        s.create_locked("pods", obj("a"))
        with pytest.raises(KeyExistsError):
            s.create_locked("pods", obj("a"))
        with pytest.raises(KeyNotFoundError):
            s.update_locked("pods", obj("b"))
        with pytest.raises(KeyNotFoundError):
            s.delete_locked("pods", ("ns", "b"))
    assert s.resource_version == 1


def test_dry_run_writes_nothing():
    s = Storage()
    with s.lock:
        s.create_locked("pods", obj("a"), dry_run=True)
        assert s.get_locked("pods", ("ns", "a")) is None
    assert s.resource_version == 0


def test_deleted_event_keeps_the_last_state_at_the_delete_version():
    s = Storage()
    with s.lock:
        stored = s.create_locked("pods", obj("a", spec={"x": 1}))
        last = s.delete_locked("pods", ("ns", "a"))
        (added, deleted) = s.events_since_locked("pods", 0)
    assert last["spec"] == {"x": 1} and last["metadata"]["resourceVersion"] == "2"
    assert stored["metadata"]["resourceVersion"] == "1"  # the old state is not changed
    assert (added.type, deleted.type) == ("ADDED", "DELETED")
    assert deleted.prev_object is stored and deleted.object is last


def test_history_window_is_bounded_per_resource():
    s = Storage(history_window=2)
    with s.lock:
        for i in range(4):
            s.create_locked("pods", obj(f"p{i}"))
        s.create_locked("deployments", obj("d"))
        assert [e.resource_version for e in s.events_since_locked("pods", 0)] == [3, 4]
        assert s.oldest_watchable_locked("pods") == 2
        assert s.oldest_watchable_locked("deployments") is None


def test_list_is_in_etcd_key_order():
    s = Storage()
    with s.lock:
        for ns, name in [("a", "x"), ("a-b", "y"), ("a", "b")]:
            s.create_locked("pods", obj(name, ns))
        assert [key_string(object_key(o)) for o in s.list_locked("pods")] == ["a-b/y", "a/b", "a/x"]
        assert [o["metadata"]["name"] for o in s.list_locked("pods", "a")] == ["b", "x"]
        assert s.count_locked("pods", "a") == 2


def test_modified_since():
    s = Storage()
    with s.lock:
        s.create_locked("pods", obj("a"))
        s.create_locked("deployments", obj("d"))
        assert not s.modified_since_locked("pods", 1)
        assert s.modified_since_locked("deployments", 1)


def test_history_window_must_hold_an_event():
    with pytest.raises(ValueError):
        Storage(history_window=0)


def test_dump_and_repr_do_not_share_state():
    s = Storage()
    with s.lock:
        s.create_locked("pods", obj("a", spec={"x": [1]}))
    dumped = s.dump()
    dumped["objects"]["pods"]["ns/a"]["spec"]["x"].append(2)
    assert s.dump()["objects"]["pods"]["ns/a"]["spec"] == {"x": [1]}
    assert repr(s) == "Storage(rv=1, objects={'pods': 1}, watchers=0)"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children,
                                                                      max_size=4),
    max_leaves=20)


@given(JSON)
def test_deep_copy_json_equals_deepcopy_and_shares_nothing(value):
    copied = deep_copy_json(value)
    assert copied == copy.deepcopy(value)

    def containers(v, out):
        if isinstance(v, (dict, list)):
            out.append(id(v))
            for child in (v.values() if isinstance(v, dict) else v):
                containers(child, out)
        return out

    assert not set(containers(value, [])) & set(containers(copied, []))
