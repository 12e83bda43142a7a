"""Tests for minikcm.apiserver.http.tables: kubectl's columns, rows and ages."""

from __future__ import annotations

from datetime import timedelta

import pytest

from minikcm.apiserver.http import tables
from minikcm.apiserver.http.tables import human_duration, to_table
from minikcm.clock import EPOCH

HOUR, DAY, YEAR = 3600, 24 * 3600, 365 * 24 * 3600
MS = 0.001

HUMAN_DURATION_CASES = [
    pytest.param(1, "1s", id="1s"),
    pytest.param(70, "70s", id="70s"),
    pytest.param(190, "3m10s", id="3m10s"),
    pytest.param(70 * 60, "70m", id="70m"),
    pytest.param(47 * HOUR, "47h", id="47h"),
    pytest.param(49 * HOUR, "2d1h", id="2d1h"),
    pytest.param((8 * 24 + 2) * HOUR, "8d", id="8d"),
    pytest.param(367 * DAY, "367d", id="367d"),
    pytest.param((365 * 2 * 24 + 25) * HOUR, "2y1d", id="2y1d"),
    pytest.param((365 * 8 * 24 + 2) * HOUR, "8y", id="8y"),
]


@pytest.mark.parametrize("seconds, want", HUMAN_DURATION_CASES)
def test_human_duration(seconds, want):
    """Port of TestHumanDuration (apimachinery/pkg/util/duration/duration_test.go)."""
    assert human_duration(seconds) == want


HUMAN_DURATION_BOUNDARY_CASES = [
    pytest.param(-2, "<invalid>", id="-2s"),
    pytest.param(-2 + 1e-9, "0s", id="-2s+1ns"),
    pytest.param(0, "0s", id="0"),
    pytest.param(1 - MS, "0s", id="1s-1ms"),
    pytest.param(120 - MS, "119s", id="2m-1ms"),
    pytest.param(120, "2m", id="2m"),
    pytest.param(121, "2m1s", id="2m1s"),
    pytest.param(600 - MS, "9m59s", id="10m-1ms"),
    pytest.param(600, "10m", id="10m"),
    pytest.param(601, "10m", id="10m1s"),
    pytest.param(3 * HOUR - MS, "179m", id="3h-1ms"),
    pytest.param(3 * HOUR, "3h", id="3h"),
    pytest.param(3 * HOUR + 60, "3h1m", id="3h1m"),
    pytest.param(8 * HOUR - MS, "7h59m", id="8h-1ms"),
    pytest.param(8 * HOUR, "8h", id="8h"),
    pytest.param(8 * HOUR + 59 * 60, "8h", id="8h59m"),
    pytest.param(2 * DAY - MS, "47h", id="2d-1ms"),
    pytest.param(2 * DAY, "2d", id="2d"),
    pytest.param(2 * DAY + HOUR, "2d1h", id="2d1h"),
    pytest.param(8 * DAY - MS, "7d23h", id="8d-1ms"),
    pytest.param(8 * DAY, "8d", id="8d"),
    pytest.param(8 * DAY + 23 * HOUR, "8d", id="8d23h"),
    pytest.param(2 * YEAR - MS, "729d", id="2y-1ms"),
    pytest.param(2 * YEAR, "2y", id="2y"),
    pytest.param(2 * YEAR + 23 * HOUR, "2y", id="2y23h"),
    pytest.param(2 * YEAR + 23 * HOUR + 59 * 60, "2y", id="2y23h59m"),
    pytest.param(2 * YEAR + DAY - MS, "2y", id="2y1d-1ms"),
    pytest.param(2 * YEAR + DAY, "2y1d", id="2y1d"),
    pytest.param(3 * YEAR, "3y", id="3y"),
    pytest.param(7 * YEAR, "7y", id="7y"),
    pytest.param(8 * YEAR - MS, "7y364d", id="8y-1ms"),
    pytest.param(8 * YEAR, "8y", id="8y"),
    pytest.param(8 * YEAR + 364 * DAY, "8y", id="8y364d"),
    pytest.param(9 * YEAR, "9y", id="9y"),
]


@pytest.mark.parametrize("seconds, want", HUMAN_DURATION_BOUNDARY_CASES)
def test_human_duration_boundaries(seconds, want):
    """Port of TestHumanDurationBoundaries (apimachinery/pkg/util/duration/duration_test.go)."""
    assert human_duration(seconds) == want


def ts(seconds_before_now: float) -> str:
    return (EPOCH - timedelta(seconds=seconds_before_now)).strftime("%Y-%m-%dT%H:%M:%SZ")


def pod(status: dict | None = None, spec: dict | None = None, **meta) -> dict:
    spec = spec or {"containers": [{"name": "a"}, {"name": "b"}]}
    return {"metadata": {"name": "p", "creationTimestamp": ts(90), **meta}, "spec": spec, "status": status or {}}


def running(name: str, ready: bool = True, restarts: int = 0, finished: str | None = None) -> dict:
    status = {"name": name, "ready": ready, "restartCount": restarts, "state": {"running": {}}}
    if finished:
        status["lastState"] = {"terminated": {"exitCode": 1, "finishedAt": finished}}
    return status


POD_CASES = [
    pytest.param(pod({"phase": "Pending"}), ["p", "0/2", "Pending", "0", "90s"], id="pending"),
    pytest.param(pod({"phase": "Running", "containerStatuses": [running("a"), running("b", ready=False)]}),
                 ["p", "1/2", "Running", "0", "90s"], id="one-ready"),
    pytest.param(pod({"phase": "Running", "containerStatuses": [
        {"name": "a", "restartCount": 3, "state": {"waiting": {"reason": "CrashLoopBackOff"}},
         "lastState": {"terminated": {"exitCode": 1, "finishedAt": ts(30)}}}, running("b")]}),
                 ["p", "1/2", "CrashLoopBackOff", "3 (30s ago)", "90s"], id="crash-loop"),
    pytest.param(pod({"phase": "Running", "containerStatuses": [
        {"name": "a", "state": {"terminated": {"exitCode": 137, "signal": 9}}}, running("b")]}),
                 ["p", "1/2", "Signal:9", "0", "90s"], id="signal"),
    pytest.param(pod({"phase": "Pending", "initContainerStatuses": [
        {"name": "init", "state": {"waiting": {"reason": "PodInitializing"}}}]},
        spec={"initContainers": [{"name": "init"}, {"name": "init2"}], "containers": [{"name": "a"}]}),
                 ["p", "0/1", "Init:0/2", "0", "90s"], id="initializing"),
    pytest.param(pod({"phase": "Running", "containerStatuses": [running("a"), running("b")]},
                     deletionTimestamp=ts(1)),
                 ["p", "2/2", "Terminating", "0", "90s"], id="terminating"),
    pytest.param(pod({"phase": "Succeeded", "containerStatuses": [
        {"name": "a", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]},
        spec={"containers": [{"name": "a"}]}), ["p", "0/1", "Completed", "0", "90s"], id="completed"),
    pytest.param(pod({"phase": "Pending", "conditions": [{"type": "PodScheduled", "reason": "SchedulingGated"}]}),
                 ["p", "0/2", "SchedulingGated", "0", "90s"], id="gated"),
]


@pytest.mark.parametrize("obj, want", POD_CASES)
def test_print_pod(obj, want):
    assert tables.print_pod(obj, EPOCH)[:5] == want


def test_print_pod_wide_columns():
    obj = pod({"phase": "Running", "podIPs": [{"ip": "10.0.0.5"}]}, spec={
        "containers": [{"name": "a"}], "nodeName": "node-1", "readinessGates": [{"conditionType": "x"}]})
    obj["status"]["conditions"] = [{"type": "x", "status": "True"}]
    assert tables.print_pod(obj, EPOCH)[5:] == ["10.0.0.5", "node-1", "<none>", "1/1"]


def workload(kind: str, **status) -> dict:
    return {"kind": kind, "metadata": {"name": "w", "creationTimestamp": ts(3 * DAY)},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "w"}},
                     "template": {"spec": {"containers": [{"name": "a", "image": "i:1"},
                                                          {"name": "b", "image": "i:2"}]}}},
            "status": status}


ROW_CASES = [
    pytest.param(tables.print_deployment, workload("Deployment", readyReplicas=2, updatedReplicas=3,
                                                   availableReplicas=2),
                 ["w", "2/3", 3, 2, "3d", "a,b", "i:1,i:2", "app=w"], id="deployment"),
    pytest.param(tables.print_replica_set, workload("ReplicaSet", replicas=3, readyReplicas=1),
                 ["w", 3, 3, 1, "3d", "a,b", "i:1,i:2", "app=w"], id="replicaset"),
    pytest.param(tables.print_stateful_set, workload("StatefulSet", readyReplicas=3),
                 ["w", "3/3", "3d", "a,b", "i:1,i:2"], id="statefulset"),
    pytest.param(tables.print_controller_revision,
                 {"metadata": {"name": "db-7d", "creationTimestamp": ts(60), "ownerReferences": [
                     {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "controller": True}]},
                  "revision": 2}, ["db-7d", "statefulset.apps/db", 2, "60s"], id="controllerrevision"),
    pytest.param(tables.print_lease, {"metadata": {"name": "kcm", "creationTimestamp": ts(5)},
                                      "spec": {"holderIdentity": "host_1"}}, ["kcm", "host_1", "5s"], id="lease"),
    pytest.param(tables.print_namespace, {"metadata": {"name": "ns", "creationTimestamp": ts(5)},
                                          "status": {"phase": "Active"}}, ["ns", "Active", "5s"], id="namespace"),
    pytest.param(tables.print_persistent_volume_claim,
                 {"metadata": {"name": "data", "creationTimestamp": ts(5)},
                  "spec": {"volumeName": "pv-1", "storageClassName": "fast"},
                  "status": {"phase": "Bound", "capacity": {"storage": "1Gi"},
                             "accessModes": ["ReadWriteMany", "ReadWriteOnce"]}},
                 ["data", "Bound", "pv-1", "1Gi", "RWO,RWX", "fast", "<unset>", "5s", "<unset>"], id="pvc"),
    pytest.param(tables.print_service,
                 {"metadata": {"name": "web", "creationTimestamp": ts(5)},
                  "spec": {"type": "NodePort", "clusterIPs": ["10.96.0.10"], "selector": {"app": "web"},
                           "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}, {"port": 53, "protocol": "UDP"}]}},
                 ["web", "NodePort", "10.96.0.10", "<none>", "80:30080/TCP,53/UDP", "5s", "app=web"], id="service"),
    pytest.param(tables.print_event,
                 {"metadata": {"name": "web.1"}, "type": "Warning", "reason": "Failed", "message": " boom \n",
                  "count": 3, "firstTimestamp": ts(600), "lastTimestamp": ts(30),
                  "involvedObject": {"kind": "Pod", "name": "web-0", "fieldPath": "spec.containers{c}"},
                  "source": {"component": "kubelet", "host": "node-1"}},
                 ["30s", "Warning", "Failed", "pod/web-0", "spec.containers{c}", "kubelet, node-1", "boom",
                  "10m", 3, "web.1"], id="event"),
    pytest.param(tables.print_event,
                 {"metadata": {"name": "e"}, "type": "Normal", "reason": "R", "eventTime": "2025-12-31T23:59:00.000000Z",
                  "involvedObject": {"kind": "Node"}, "reportingComponent": "sched"},
                 ["60s", "Normal", "R", "node", "", "sched", "", "60s", 1, "e"], id="event-new-api"),
]


@pytest.mark.parametrize("printer, obj, want", ROW_CASES)
def test_row_printers(printer, obj, want):
    assert printer(obj, EPOCH) == want


def test_every_row_has_one_cell_per_column():
    for resource, printer in tables.PRINTERS.items():
        assert len(printer({"metadata": {"name": "x"}}, EPOCH)) == len(tables.COLUMNS[resource]), resource


def test_to_table_for_a_list_keeps_paging_metadata():
    listed = {"kind": "PodList", "metadata": {"resourceVersion": "7", "continue": "abc", "remainingItemCount": 4},
              "items": [pod()]}
    table = to_table("pods", listed, EPOCH)
    assert table["metadata"] == {"resourceVersion": "7", "continue": "abc", "remainingItemCount": 4}
    assert [c["name"] for c in table["columnDefinitions"] if c["priority"] == 1] == [
        "IP", "Node", "Nominated Node", "Readiness Gates"]
    assert table["rows"][0]["object"]["kind"] == "PartialObjectMetadata"


def test_to_table_without_headers_and_objects():
    table = to_table("pods", pod({"phase": "Succeeded"}), EPOCH, include=tables.INCLUDE_NONE, headers=False)
    assert table["columnDefinitions"] == [] and "object" not in table["rows"][0]
    assert table["rows"][0]["conditions"][0]["type"] == "Completed"


def test_unknown_resource_uses_the_default_columns():
    table = to_table("widgets", {"metadata": {"name": "w", "creationTimestamp": ts(0)}}, EPOCH)
    assert [c["name"] for c in table["columnDefinitions"]] == ["Name", "Created At"]
    assert table["rows"][0]["cells"] == ["w", ts(0)]


def test_missing_or_bad_times_are_unknown():
    assert tables.translate_timestamp_since(None, EPOCH) == "<unknown>"
    assert tables.translate_timestamp_since("yesterday", EPOCH) == "<unknown>"
