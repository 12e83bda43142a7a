"""Nodes in the embedded API server: validation (node_validation), defaults, status, selectors, table; eviction.

The validation tables follow TestValidateNode, TestValidateNodeUpdate and
TestValidateNodeTaints of pkg/apis/core/validation/validation_test.go, in our words.
"""

from __future__ import annotations

import datetime

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver import node_validation as nv
from minikcm.apiserver.http import tables


def node(name="n1", spec=None, status=None, **meta):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, **meta},
            "spec": spec or {}, "status": status or {}}


def strs(errs):
    return [str(e) for e in errs]


VALIDATE_NODE_CASES = [
    pytest.param(node(), [], id="minimal"),
    pytest.param(node(status={"capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"}}), [], id="capacity"),
    pytest.param(node(name="Bad_Name"), ["metadata.name: Invalid value"], id="bad-name"),
    pytest.param(node(spec={"taints": [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]}), [],
                 id="taint"),
    pytest.param(node(spec={"taints": [{"key": "a", "effect": ""}]}),
                 ["metadata.taints[0].effect: Required value"], id="taint-no-effect"),
    pytest.param(node(spec={"taints": [{"key": "a", "effect": "Sometimes"}]}),
                 ['metadata.taints[0].effect: Unsupported value: "Sometimes"'], id="taint-bad-effect"),
    pytest.param(node(spec={"taints": [{"key": "not a key", "effect": "NoSchedule"}]}),
                 ["metadata.taints[0].key: Invalid value"], id="taint-bad-key"),
    pytest.param(node(spec={"taints": [{"key": "a", "value": "-bad-", "effect": "NoSchedule"}]}),
                 ["metadata.taints[0].value: Invalid value"], id="taint-bad-value"),
    pytest.param(node(spec={"taints": [{"key": "a", "effect": "NoSchedule"}, {"key": "a", "effect": "NoSchedule"}]}),
                 ["metadata.taints[1]: Duplicate value"], id="taint-duplicate"),
    pytest.param(node(spec={"taints": [{"key": "a", "effect": "NoSchedule"}, {"key": "a", "effect": "NoExecute"}]}),
                 [], id="same-key-other-effect"),
    pytest.param(node(status={"capacity": {"cpu": "-1"}}),
                 ['status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0'], id="negative"),
    pytest.param(node(status={"allocatable": {"pods": "1.5"}}),
                 ['status.allocatable.pods: Invalid value: "1.5": must be an integer'], id="pods-fraction"),
    pytest.param(node(status={"capacity": {"example.com/gpu": "500m"}}),
                 ['status.capacity.example.com/gpu: Invalid value: "500m": must be an integer'], id="extended"),
    pytest.param(node(spec={"podCIDRs": ["10.244.0.0/24"]}), [], id="pod-cidr"),
    pytest.param(node(spec={"podCIDRs": ["10.244.0.0/33"]}), ["spec.podCIDRs[0]: Invalid value"], id="bad-cidr"),
    pytest.param(node(spec={"podCIDRs": ["10.244.0.0/24", "fd00::/64"]}), [], id="dual-stack"),
    pytest.param(node(spec={"podCIDRs": ["10.244.0.0/24", "10.245.0.0/24"]}),
                 ["spec.podCIDRs: Invalid value"], id="two-v4"),
]


@pytest.mark.parametrize("obj, expected", VALIDATE_NODE_CASES)
def test_validate_node(obj, expected):
    """ValidateNode: taints are reported under metadata.taints, as upstream does."""
    got = strs(nv.validate_node(obj))
    assert len(got) == len(expected), got
    for line, prefix in zip(got, expected):
        assert line.startswith(prefix), (line, prefix)


UPDATE_CASES = [
    pytest.param({"podCIDRs": []}, {"podCIDRs": ["10.244.0.0/24"]}, [], id="cidr-set-once"),
    pytest.param({"podCIDRs": ["10.244.0.0/24"]}, {"podCIDRs": ["10.244.1.0/24"]},
                 ['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid'],
                 id="cidr-changed"),
    pytest.param({"providerID": "sim://a"}, {"providerID": "sim://b"},
                 ['spec.providerID: Forbidden: node updates may not change providerID except from "" to valid'],
                 id="provider-changed"),
    pytest.param({}, {"providerID": "sim://a"}, [], id="provider-set-once"),
    pytest.param({}, {"unschedulable": True}, [], id="cordon"),
    pytest.param({}, {"taints": [{"key": "a", "effect": "NoExecute"}]}, [], id="taint-added"),
]


@pytest.mark.parametrize("old_spec, new_spec, expected", UPDATE_CASES)
def test_validate_node_update(old_spec, new_spec, expected):
    old = node(spec=old_spec, resourceVersion="1")
    new = node(spec=new_spec, resourceVersion="1")
    assert strs(nv.validate_node_update(new, old)) == expected


def test_duplicate_addresses_are_refused_on_update():
    address = {"type": "InternalIP", "address": "10.0.0.10"}
    new = node(status={"addresses": [address, address]}, resourceVersion="1")
    assert strs(nv.validate_node_update(new, node(resourceVersion="1"))) == [
        'status.addresses[1]: Duplicate value: {"address":"10.0.0.10","type":"InternalIP"}']


@pytest.mark.parametrize("text, value", [("500m", 0.5), ("1Gi", 2**30), ("16Ki", 16384), ("-2", -2), ("1e3", 1000)])
def test_quantity_value(text, value):
    assert nv.quantity_value(text) == value


# --- through the server -----------------------------------------------------------------------


def test_create_keeps_status_and_defaults_allocatable(server):
    """Nodes register with their status; allocatable defaults to capacity (SetDefaults_NodeStatus)."""
    created = server.create("nodes", None, node(status={"capacity": {"pods": "110"}}))
    assert created["status"]["allocatable"] == {"pods": "110"}
    assert "namespace" not in created["metadata"]


def test_main_resource_keeps_status_and_status_keeps_spec(server):
    server.create("nodes", None, node(status={"capacity": {"pods": "110"}}))
    current = server.get("nodes", None, "n1")
    current["spec"]["unschedulable"] = True
    current["status"] = {"capacity": {"pods": "1"}}
    updated = server.update("nodes", None, current)
    assert updated["spec"]["unschedulable"] is True and updated["status"]["capacity"] == {"pods": "110"}
    updated["spec"] = {}
    updated["status"]["capacity"] = {"pods": "5"}
    status = server.update("nodes", None, updated, subresource="status")
    assert status["spec"]["unschedulable"] is True and status["status"]["capacity"] == {"pods": "5"}


def test_invalid_node_changes_nothing(server):
    with pytest.raises(errors.StatusError) as err:
        server.create("nodes", None, node(status={"capacity": {"cpu": "-1"}}))
    assert err.value.status()["code"] == 422
    assert server.list("nodes", None)["items"] == []


def test_field_selectors(server):
    server.create("nodes", None, node("a"))
    server.create("nodes", None, node("b", spec={"unschedulable": True}))
    names = lambda sel: [n["metadata"]["name"] for n in server.list("nodes", None, field_selector=sel)["items"]]
    assert names("spec.unschedulable=true") == ["b"]
    assert names("spec.unschedulable=false") == ["a"]
    assert names("metadata.name=a") == ["a"]
    with pytest.raises(errors.StatusError):
        names("spec.podCIDR=x")


def test_strategic_merge_patch_of_conditions(server):
    server.create("nodes", None, node(status={"conditions": [
        {"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}]}))
    patched = server.patch("nodes", None, "n1", "application/strategic-merge-patch+json",
                           {"status": {"conditions": [{"type": "Ready", "status": "False"}]}}, subresource="status")
    assert patched["status"]["conditions"] == [
        {"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "False"}]


TABLE_CASES = [
    pytest.param({}, {}, {}, ["Unknown", "<none>"], id="no-conditions"),
    pytest.param({}, {"conditions": [{"type": "Ready", "status": "True"}]}, {}, ["Ready", "<none>"], id="ready"),
    pytest.param({"unschedulable": True}, {"conditions": [{"type": "Ready", "status": "False"}]}, {},
                 ["NotReady,SchedulingDisabled", "<none>"], id="cordoned-not-ready"),
    pytest.param({}, {}, {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "edge"},
                 ["Unknown", "control-plane,edge"], id="roles"),
]


@pytest.mark.parametrize("spec, status, labels, cells", TABLE_CASES)
def test_print_node(spec, status, labels, cells):
    """printNode: NAME, STATUS, ROLES, AGE, VERSION, then the wide columns."""
    obj = node(spec=spec, status={**status, "nodeInfo": {"kubeletVersion": "v1.36.3"}}, labels=labels,
               creationTimestamp="2026-01-01T00:00:00Z")
    row = tables.print_node(obj, datetime.datetime(2026, 1, 1, 0, 5, tzinfo=datetime.timezone.utc))
    assert row[:5] == ["n1", cells[0], cells[1], "5m", "v1.36.3"]
    assert row[5:] == ["<none>", "<none>", "<unknown>", "<unknown>", "<unknown>"]
    assert [c["name"] for c in tables.COLUMNS["nodes"][:5]] == ["Name", "Status", "Roles", "Age", "Version"]


# --- pods/eviction ------------------------------------------------------------------------------


def pod(server, name="p", phase="Running", grace=30):
    server.create("pods", "default", {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
                                      "spec": {"containers": [{"name": "c", "image": "nginx"}], "nodeName": "n1",
                                               "terminationGracePeriodSeconds": grace}})
    current = server.get("pods", "default", name)
    current["status"]["phase"] = phase
    return server.update("pods", "default", current, subresource="status")


def eviction(name="p", **delete_options):
    body = {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": "default"}}
    if delete_options:
        body["deleteOptions"] = delete_options
    return body


def test_eviction_marks_and_deletes_with_the_grace_period(server, fake_clock):
    pod(server)
    result = server.create("pods", "default", eviction(), subresource="eviction")
    assert result == {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"}
    evicted = server.get("pods", "default", "p")
    assert evicted["metadata"]["deletionGracePeriodSeconds"] == 30
    target = [c for c in evicted["status"]["conditions"] if c["type"] == "DisruptionTarget"]
    assert target[0]["reason"] == "EvictionByEvictionAPI" and target[0]["status"] == "True"


def test_eviction_grace_period_from_delete_options(server):
    pod(server)
    server.create("pods", "default", eviction(gracePeriodSeconds=0), subresource="eviction")
    with pytest.raises(errors.StatusError) as err:
        server.get("pods", "default", "p")
    assert errors.is_not_found(err.value)


def test_eviction_dry_run_changes_nothing(server):
    before = pod(server)
    server.create("pods", "default", eviction(), subresource="eviction", dry_run=True)
    assert server.get("pods", "default", "p") == before


@pytest.mark.parametrize("body, code", [
    pytest.param({**eviction(), "kind": "Binding"}, 400, id="not-an-eviction"),
    pytest.param(eviction(preconditions={"uid": "nope"}), 409, id="uid-precondition"),
])
def test_eviction_refusals_change_nothing(server, body, code):
    before = pod(server)
    with pytest.raises(errors.StatusError) as err:
        server.create("pods", "default", body, subresource="eviction")
    assert err.value.status()["code"] == code
    assert server.get("pods", "default", "p") == before


def test_eviction_of_a_missing_pod_is_not_found(server):
    with pytest.raises(errors.StatusError) as err:
        server.create("pods", "default", eviction("ghost"), subresource="eviction")
    assert errors.is_not_found(err.value)


def test_pending_pod_eviction_pins_the_resource_version(server):
    """shouldEnforceResourceVersion: a pending pod is deleted only at the version the eviction read."""
    pod(server, phase="Pending")
    server.create("pods", "default", eviction(), subresource="eviction")
    assert server.get("pods", "default", "p")["metadata"].get("deletionTimestamp")
