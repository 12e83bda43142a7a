"""Tests for minikcm.apiserver.persistence: the embedded API server's state in SQLite.

Every acknowledged write must be on disk when the call returns, a restart on the
same data directory must bring back every object and the resourceVersion
counter, and a failed SQLite write must leave the in-memory store untouched.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.types import MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE
from minikcm.apiserver.persistence import DB_FILE, DataDirInUseError, SQLitePersistence
from minikcm.apiserver.server import APIServer

from .builders import deployment, drain, lease, names, pod, replica_set


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def open_server(fake_clock, data_dir):
    """Open servers on `data_dir`; every one still open is closed at the end."""
    opened: list[APIServer] = []

    def open_() -> APIServer:
        server = APIServer(clock=fake_clock, rng=random.Random(len(opened)), data_dir=data_dir)
        opened.append(server)
        return server

    yield open_
    for server in opened:
        server.close()


def write_everything(server: APIServer) -> None:
    """One write of every kind the store persists: create, update, patch, status, scale,
    finalizer marks, delete."""
    server.create("deployments", "default", deployment("web"))
    d = server.get("deployments", "default", "web")
    d["spec"]["replicas"] = 3
    server.update("deployments", "default", d)
    d = server.get("deployments", "default", "web")
    d["status"] = {"observedGeneration": 2, "replicas": 3}
    server.update("deployments", "default", d, subresource="status")
    server.patch("deployments", "default", "web", MERGE_PATCH_TYPE, {"spec": {"replicas": 5}},
                 subresource="scale")
    server.patch("deployments", "default", "web", STRATEGIC_MERGE_PATCH_TYPE,
                 {"metadata": {"labels": {"tier": "front"}}})
    held = replica_set("held")
    held["metadata"]["finalizers"] = ["example.com/hold"]
    server.create("replicasets", "default", held)
    server.delete("replicasets", "default", "held")  # only marked: deletionTimestamp
    server.create("namespaces", None, {"metadata": {"name": "team-a"}})
    server.create("leases", "team-a", lease("kcm", "team-a"))
    server.create("pods", "team-a", pod("gone", "team-a"))
    server.delete("pods", "team-a", "gone")  # unscheduled: removed at once
    server.add_object(pod("seeded", namespace="team-b"))


def test_restart_restores_objects_and_resource_version(open_server):
    first = open_server()
    write_everything(first)
    before = first.storage.dump()
    first.close()

    second = open_server()
    assert second.storage.dump() == before
    rs = second.get("replicasets", "default", "held")
    assert rs["metadata"]["deletionTimestamp"] and rs["metadata"]["finalizers"] == ["example.com/hold"]
    with pytest.raises(errors.StatusError) as info:
        second.get("pods", "team-a", "gone")
    assert errors.is_not_found(info.value)


def test_new_writes_continue_after_the_last_resource_version(open_server):
    first = open_server()
    first.create("pods", "default", pod("a"))
    first.create("pods", "default", pod("b"))
    first.delete("pods", "default", "b")  # the delete took the highest version so far
    last = first.storage.resource_version
    uid_a = first.get("pods", "default", "a")["metadata"]["uid"]
    first.close()

    second = open_server()
    assert second.storage.resource_version == last
    created = second.create("pods", "default", pod("c"))
    assert int(created["metadata"]["resourceVersion"]) == last + 1
    assert second.get("pods", "default", "a")["metadata"]["uid"] == uid_a


def test_initial_namespaces_are_not_created_twice(open_server):
    first = open_server()
    labelled = first.get("namespaces", None, "default")
    labelled["metadata"]["labels"] = {"kept": "yes"}
    first.update("namespaces", None, labelled)
    first.close()
    second = open_server()
    assert second.get("namespaces", None, "default")["metadata"]["labels"]["kept"] == "yes"


def test_watch_from_before_the_restart_is_expired(open_server):
    first = open_server()
    first.create("pods", "default", pod("a"))
    old_rv = first.storage.resource_version
    first.create("pods", "default", pod("b"))
    restored_rv = first.storage.resource_version
    first.close()

    second = open_server()
    stale = second.watch("pods", "default", resource_version=str(old_rv))
    [(kind, status)] = drain(stale)
    assert kind == watch.ERROR
    assert errors.is_resource_expired(errors.from_object(status))

    current = second.watch("pods", "default", resource_version=str(restored_rv))
    second.create("pods", "default", pod("c"))
    assert names(drain(current)) == [(watch.ADDED, "c")]
    replay = second.watch("pods", "default", resource_version="0")
    assert names(drain(replay)) == [(watch.ADDED, "a"), (watch.ADDED, "b"), (watch.ADDED, "c")]


def test_continue_token_from_before_the_restart_is_expired(open_server):
    """Pods did not change after the first page, but the restarted store cannot know that."""
    first = open_server()
    for name in ("a", "b", "c"):
        first.create("pods", "default", pod(name))
    page = first.list("pods", "default", limit=1)
    first.create("leases", "default", lease("l", "default"))  # another resource moves the version
    token = page["metadata"]["continue"]
    assert first.list("pods", "default", limit=1, continue_=token)["items"]  # valid before
    first.close()
    second = open_server()
    with pytest.raises(errors.StatusError) as info:
        second.list("pods", "default", limit=1, continue_=token)
    assert errors.is_resource_expired(info.value)


def test_continue_token_at_the_restored_version_still_works(open_server):
    first = open_server()
    for name in ("a", "b"):
        first.create("pods", "default", pod(name))
    token = first.list("pods", "default", limit=1)["metadata"]["continue"]
    first.close()
    second = open_server()
    assert [p["metadata"]["name"] for p in second.list("pods", "default", continue_=token)["items"]] == ["b"]


def test_dry_run_writes_nothing(open_server, data_dir):
    server = open_server()
    rv = server.storage.resource_version
    server.create("pods", "default", pod("dry"), dry_run=True)
    server.close()
    reopened = SQLitePersistence(data_dir)
    stored_rv, objects = reopened.load()
    reopened.close()
    assert stored_rv == rv
    assert ("pods", "dry") not in [(r, o["metadata"]["name"]) for r, o in objects]


def test_without_data_dir_state_stays_in_memory(fake_clock, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server = APIServer(clock=fake_clock)
    server.create("pods", "default", pod("a"))
    assert server.storage.persistence is None
    assert os.listdir(tmp_path) == []
    server.close()  # harmless


def test_database_settings(open_server, data_dir):
    server = open_server()
    db = server.storage.persistence._conn()
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    assert os.path.exists(data_dir / DB_FILE)


def test_second_server_on_the_same_dir_is_refused(open_server, fake_clock, data_dir):
    first = open_server()
    with pytest.raises(DataDirInUseError):
        APIServer(clock=fake_clock, data_dir=data_dir)
    first.close()
    assert open_server().get("namespaces", None, "default")


# --- failures ---------------------------------------------------------------------------------


def test_failed_sqlite_write_leaves_memory_unchanged(open_server, data_dir):
    server = open_server()
    server.create("pods", "default", pod("a"))
    # A trigger makes SQLite itself refuse one write, inside the write's transaction.
    server.storage.persistence._conn().execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON objects WHEN NEW.name = 'boom' "
        "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
    before = server.storage.dump()
    w = server.watch("pods", "default", resource_version=str(server.storage.resource_version))

    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "default", pod("boom"))
    assert errors.is_internal_error(info.value) and "injected failure" in str(info.value)
    assert server.storage.dump() == before
    assert drain(w) == []

    created = server.create("pods", "default", pod("next"))  # the counter did not move
    assert int(created["metadata"]["resourceVersion"]) == before["resourceVersion"] + 1
    after = server.storage.dump()
    server.close()
    assert open_server().storage.dump() == after


def test_failed_sqlite_delete_leaves_memory_unchanged(open_server):
    server = open_server()
    server.create("leases", "default", lease("l", "default"))
    server.storage.persistence._conn().execute(
        "CREATE TRIGGER refuse BEFORE DELETE ON objects "
        "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
    before = server.storage.dump()
    with pytest.raises(errors.StatusError) as info:
        server.delete("leases", "default", "l")
    assert errors.is_internal_error(info.value)
    assert server.storage.dump() == before


def test_writes_after_close_fail_and_change_nothing(open_server):
    server = open_server()
    server.close()
    before = server.storage.dump()
    with pytest.raises(errors.StatusError, match="closed") as info:
        server.create("pods", "default", pod("late"))
    assert errors.is_internal_error(info.value)
    assert server.storage.dump() == before


def test_other_schema_version_is_refused(data_dir):
    first = SQLitePersistence(data_dir)
    first._conn().execute("UPDATE meta SET value = 99 WHERE key = 'schemaVersion'")
    first.close()
    with pytest.raises(RuntimeError, match="schema version 99"):
        SQLitePersistence(data_dir)
    with pytest.raises(RuntimeError, match="schema version 99"):
        SQLitePersistence(data_dir)  # refused again, not "in use": the failed open let go


CRASH_SCRIPT = textwrap.dedent("""
    import json, os, sys
    from minikcm.apiserver.server import APIServer
    server = APIServer(data_dir=sys.argv[1])
    for i in range(20):
        server.create("leases", "default", {
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": f"l{i}"}, "spec": {"holderIdentity": "a"}})
    print(json.dumps(server.storage.dump()), flush=True)
    os._exit(1)  # a crash: no close, no checkpoint, no finalizers
""")


def test_crash_without_close_loses_no_acknowledged_write(data_dir, fake_clock):
    done = subprocess.run([sys.executable, "-c", CRASH_SCRIPT, str(data_dir)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    acknowledged = json.loads(done.stdout)
    assert os.path.exists(data_dir / (DB_FILE + "-wal"))  # never checkpointed
    restored = APIServer(clock=fake_clock, data_dir=data_dir)
    try:
        assert restored.storage.dump() == acknowledged
        assert len(acknowledged["objects"]["leases"]) == 20
    finally:
        restored.close()


# --- concurrency ------------------------------------------------------------------------------


@pytest.mark.threaded
def test_concurrent_writers(open_server):
    server = open_server()
    versions: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        mine = []
        for i in range(15):
            obj = server.create("leases", "default", lease(f"w{n}-{i}", "default"))
            obj["spec"]["holderIdentity"] = f"w{n}"
            obj = server.update("leases", "default", obj)
            mine.append(int(obj["metadata"]["resourceVersion"]))
            if i % 3 == 0:
                server.delete("leases", "default", f"w{n}-{i}")
        with lock:
            versions.extend(mine)

    threads = [threading.Thread(target=writer, args=(n,), name=f"test/writer-{n}") for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(versions) == len(set(versions)) == 8 * 15
    before = server.storage.dump()
    assert len(before["objects"]["leases"]) == 8 * 10
    server.close()
    assert open_server().storage.dump() == before


def test_sqlite_is_the_only_source_after_restart(open_server, data_dir):
    """What the store restores is exactly what the database holds (no other state file)."""
    server = open_server()
    server.create("pods", "default", pod("a"))
    server.close()
    db = sqlite3.connect(data_dir / DB_FILE)
    rows = db.execute("SELECT resource, namespace, name, resource_version FROM objects "
                      "WHERE resource = 'pods'").fetchall()
    rv = db.execute("SELECT value FROM meta WHERE key = 'resourceVersion'").fetchone()[0]
    db.close()
    restored = open_server()
    pod_a = restored.get("pods", "default", "a")
    assert rows == [("pods", "default", "a", int(pod_a["metadata"]["resourceVersion"]))]
    assert restored.storage.resource_version == rv


# --- through the HTTPS front ----------------------------------------------------------------


@pytest.mark.threaded
def test_restart_behind_the_https_front(data_dir):
    """Write over HTTPS, stop everything, start again on the same directory, read back over HTTPS."""
    from minikcm.apiserver.http.server import serve
    from minikcm.client.rest import RESTClientset

    def start() -> tuple[APIServer, object, RESTClientset]:
        api = APIServer(rng=random.Random(1), data_dir=data_dir)
        handle = serve(api, port=0, data_dir=data_dir)
        return api, handle, RESTClientset(str(handle.kubeconfig_path))

    api, handle, cs = start()
    try:
        created = cs.apps_v1().deployments("default").create(deployment("web"))
        cs.apps_v1().deployments("default").patch("web", MERGE_PATCH_TYPE, {"spec": {"replicas": 4}},
                                                  None, "scale")
        answered = cs.apps_v1().deployments("default").get("web")
        cs.coordination_v1().leases("default").create(lease("l", "default"))
        cs.coordination_v1().leases("default").delete("l")
        last = api.storage.resource_version
    finally:
        cs.close()
        handle.shutdown()
        api.close()

    api, handle, cs = start()
    try:
        again = cs.apps_v1().deployments("default").get("web")
        assert again == answered and again.metadata.uid == created.metadata.uid
        assert again.spec.replicas == 4
        assert cs.coordination_v1().leases("default").list().items == []
        assert int(cs.core_v1().pods("default").list().metadata.resource_version) == last
    finally:
        cs.close()
        handle.shutdown()
        api.close()
