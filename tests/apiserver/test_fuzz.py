"""Generated bad input through the in-process server API and clientset (issue 13, item 4).

Valid Pods, Deployments, ReplicaSets, StatefulSets, PVCs and Leases are mutated
at any path (tests/apiserver/fuzz_strategies.py) and sent as creates, updates,
status and scale updates, and every patch type. Properties: nothing but a
`StatusError` ever escapes the server; every refusal is a full Status with a
4xx code; a refused write (and any dry run) leaves the store exactly as it was;
an accepted write reads back unchanged and decodes into the client's model.

The examples below the generated tests are the defects the fuzzing found, as
plain regression tests.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minikcm.apimachinery import errors, types
from minikcm.apimachinery.convert import from_wire
from minikcm.apimachinery.meta import CreateOptions, PatchOptions
from minikcm.apimachinery.resource import ERR_FORMAT_WRONG
from minikcm.apiserver.server import APIServer
from minikcm.client.inprocess import InProcessClientset
from minikcm.clock import EPOCH, FakeClock

from . import fuzz_strategies as fs
from .builders import deployment, lease, pod

pytestmark = pytest.mark.slow  # the quick loop (`-m "not slow"`) leaves these out

NS = fs.NAMESPACE
PATCH_TYPES = [types.MERGE_PATCH_TYPE, types.STRATEGIC_MERGE_PATCH_TYPE, types.APPLY_PATCH_TYPE]


def new_server() -> APIServer:
    return APIServer(clock=FakeClock(EPOCH), rng=random.Random(7))


def seeded(resource: str) -> tuple[APIServer, dict[str, Any]]:
    api = new_server()
    return api, api.create(resource, NS, fs.KINDS[resource].build())


def check_write(api: APIServer, resource: str, write: Callable[[], dict[str, Any]], *,
                dry_run: bool = False, subresource: str | None = None) -> dict[str, Any] | None:
    """Run one write; check the refusal or the round trip. The stored object, None when refused."""
    before = api.storage.dump()
    try:
        out = write()
    except errors.StatusError as err:
        fs.check_status(err.status())
        assert api.storage.dump() == before, "a refused write changed the store"
        return None
    if dry_run:
        assert api.storage.dump() == before, "a dry run changed the store"
        return out
    if subresource == "scale":
        out = api.get(resource, NS, out["metadata"]["name"])
    got = api.get(resource, NS, out["metadata"]["name"])
    assert got == out, "an accepted write does not read back as answered"
    if resource != "statefulsets":  # upstream leaves a StatefulSet's pod spec unchecked (the client model
        from_wire(got)              # requires containers): every other kind's stored form reads as a model
    return got


@fs.fuzz(260)
@given(case=fs.mutated(), dry_run=st.booleans())
def test_create_of_a_mutated_object(case, dry_run):
    resource, obj, _ = case
    api = new_server()
    check_write(api, resource, lambda: api.create(resource, NS, fs.deep(obj), dry_run=dry_run), dry_run=dry_run)



@fs.fuzz(200)
@given(case=fs.mutated(), version=st.sampled_from(["current", "none", "stale"]))
def test_update_with_a_mutated_object(case, version):
    resource, obj, _ = case
    api, stored = seeded(resource)
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        if version == "current":
            meta["resourceVersion"] = stored["metadata"]["resourceVersion"]
        elif version == "stale":
            meta["resourceVersion"] = "1"
    check_write(api, resource, lambda: api.update(resource, NS, fs.deep(obj)))



@fs.fuzz(80)
@given(case=fs.mutated(("pods", "deployments", "statefulsets", "persistentvolumeclaims")),
       status=fs.bad_values)
def test_status_update_with_a_mutated_object(case, status):
    resource, obj, _ = case
    api, _ = seeded(resource)
    if isinstance(obj, dict):
        obj["status"] = status
    check_write(api, resource, lambda: api.update(resource, NS, fs.deep(obj), subresource="status"))



@fs.fuzz(220)
@given(case=fs.mutated(), patch_type=st.sampled_from(PATCH_TYPES), as_bytes=st.booleans())
def test_patch_with_a_mutated_object(case, patch_type, as_bytes):
    resource, obj, _ = case
    api, _ = seeded(resource)
    name = fs.KINDS[resource].name
    body: Any = fs.json_bytes(obj) if as_bytes else fs.deep(obj)
    manager = "fuzz" if patch_type == types.APPLY_PATCH_TYPE else ""
    check_write(api, resource, lambda: api.patch(resource, NS, name, patch_type, body, field_manager=manager))



@fs.fuzz(200)
@given(data=st.data(), resource=st.sampled_from(sorted(fs.KINDS)))
def test_json_patch_operations(data, resource):
    api, stored = seeded(resource)
    ops = data.draw(fs.json_patch_ops(stored))
    name = fs.KINDS[resource].name
    check_write(api, resource, lambda: api.patch(resource, NS, name, types.JSON_PATCH_TYPE, fs.json_bytes(ops)))



@fs.fuzz(150)
@given(data=st.data(), resource=st.sampled_from(sorted(fs.KINDS)),
       patch_type=st.sampled_from(PATCH_TYPES + [types.JSON_PATCH_TYPE]))
def test_patch_bodies_that_do_not_parse(data, resource, patch_type):
    api, stored = seeded(resource)
    body = data.draw(st.one_of(fs.truncations(fs.json_bytes(stored)), fs.non_json))
    name = fs.KINDS[resource].name
    manager = "fuzz" if patch_type == types.APPLY_PATCH_TYPE else ""
    check_write(api, resource, lambda: api.patch(resource, NS, name, patch_type, body, field_manager=manager))



@fs.fuzz(90)
@given(resource=st.sampled_from(["deployments", "replicasets", "statefulsets"]),
       replicas=fs.bad_values, how=st.sampled_from(["update", "merge", "json"]))
def test_scale_with_bad_replicas(resource, replicas, how):
    api, _ = seeded(resource)
    name = fs.KINDS[resource].name
    if how == "update":
        scale = api.get(resource, NS, name, subresource="scale")
        scale["spec"]["replicas"] = replicas
        write: Callable[[], Any] = lambda: api.update(resource, NS, scale, subresource="scale")
    elif how == "merge":
        write = lambda: api.patch(resource, NS, name, types.MERGE_PATCH_TYPE,  # noqa: E731
                                  fs.json_bytes({"spec": {"replicas": replicas}}), subresource="scale")
    else:
        op = [{"op": "replace", "path": "/spec/replicas", "value": replicas}]
        write = lambda: api.patch(resource, NS, name, types.JSON_PATCH_TYPE,  # noqa: E731
                                  fs.json_bytes(op), subresource="scale")
    check_write(api, resource, write, subresource="scale")



@fs.fuzz(100)
@given(case=fs.mutated(tuple(k for k in fs.KINDS if k != "statefulsets")), patch_type=st.sampled_from(PATCH_TYPES))
def test_clientset_create_and_patch(case, patch_type):
    """The typed clientset over the in-process transport: errors arrive as StatusErrors too.

    StatefulSets are left out: upstream does not validate their pod spec, so the
    server may accept one the client's model cannot read (see check_write).
    """
    resource, obj, _ = case
    api, _ = seeded(resource)
    cs = InProcessClientset(api)
    client = {"pods": cs.core_v1().pods, "persistentvolumeclaims": cs.core_v1().persistent_volume_claims,
              "deployments": cs.apps_v1().deployments, "replicasets": cs.apps_v1().replica_sets,
              "statefulsets": cs.apps_v1().stateful_sets, "leases": cs.coordination_v1().leases}[resource](NS)
    renamed = fs.deep(obj)
    if isinstance(renamed.get("metadata"), dict):
        renamed["metadata"]["name"] = "other"

    def as_client_sees(name: str) -> dict[str, Any]:
        return fs.to_wire_dict(client.get(name))

    def create() -> dict[str, Any]:
        out = fs.to_wire_dict(client.create(renamed, CreateOptions()))
        assert out == as_client_sees(out["metadata"]["name"])
        return api.get(resource, NS, out["metadata"]["name"])

    def patch() -> dict[str, Any]:
        opts = PatchOptions(field_manager="fuzz" if patch_type == types.APPLY_PATCH_TYPE else "")
        out = fs.to_wire_dict(client.patch(fs.KINDS[resource].name, patch_type, fs.json_bytes(obj), opts))
        assert out == as_client_sees(out["metadata"]["name"])
        return api.get(resource, NS, out["metadata"]["name"])

    check_write(api, resource, create)
    check_write(api, resource, patch)



# --- regressions: the defects the fuzzing found --------------------------------------------


def _refused(call: Callable[[], Any]) -> dict[str, Any]:
    with pytest.raises(errors.StatusError) as info:
        call()
    status = info.value.status()
    fs.check_status(status)
    return status


WRONG_TYPES = [
    pytest.param("deployments", deployment(), ("spec", "replicas"), "3",
                 "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type integer",
                 id="replicas-string"),
    pytest.param("pods", pod(), ("metadata", "name"), 7,
                 "json: cannot unmarshal number 7 into Go struct field ObjectMeta.metadata.name of type string",
                 id="name-number"),
    pytest.param("pods", pod(), ("spec", "containers"), {"name": "a"},
                 "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []V1Container",
                 id="containers-object"),
    pytest.param("pods", pod(), ("spec", "containers", 0, "resources"), [],
                 "json: cannot unmarshal array into Go struct field Container.spec.containers[0].resources "
                 "of type V1ResourceRequirements", id="resources-array"),
    pytest.param("pods", pod(), ("metadata", "labels"), {"a": 1},
                 "json: cannot unmarshal number 1 into Go struct field ObjectMeta.metadata.labels.a of type string",
                 id="label-value-number"),
    pytest.param("pods", pod(), ("metadata",), [],
                 "json: cannot unmarshal array into Go struct field Pod.metadata of type V1ObjectMeta",
                 id="metadata-array"),
    pytest.param("deployments", deployment(), ("spec", "template", "metadata", "annotations"), ["a"],
                 "json: cannot unmarshal array into Go struct field ObjectMeta.spec.template.metadata.annotations "
                 "of type map[string]string", id="annotations-array"),
    pytest.param("deployments", deployment(), ("spec", "selector", "matchLabels"), "app=web",
                 "json: cannot unmarshal string into Go struct field LabelSelector.spec.selector.matchLabels "
                 "of type map[string]string", id="match-labels-string"),
    pytest.param("leases", lease(namespace=NS), ("spec", "leaseDurationSeconds"), 1.5,
                 "json: cannot unmarshal number 1.5 into Go struct field LeaseSpec.spec.leaseDurationSeconds "
                 "of type integer", id="lease-duration-float"),
    pytest.param("deployments", deployment(), ("spec", "replicas"), 2**63,
                 f"json: cannot unmarshal number {2**63} into Go struct field DeploymentSpec.spec.replicas "
                 "of type integer", id="replicas-beyond-int64"),
    pytest.param("pods", pod(), ("spec", "containers", 0, "stdin"), "yes",
                 "json: cannot unmarshal string into Go struct field Container.spec.containers[0].stdin of type boolean",
                 id="bool-string"),
]


@pytest.mark.parametrize("resource, obj, path, value, message", WRONG_TYPES)
def test_wrong_json_type_is_a_bad_request_naming_the_field(resource, obj, path, value, message):
    """Was: AttributeError/TypeError from defaulting or validation (a 500 over HTTP)."""
    api = new_server()
    fs.set_at(obj, path, value)
    before = api.storage.dump()
    status = _refused(lambda: api.create(resource, NS, obj))
    kind = obj["kind"]
    version = obj["apiVersion"].split("/")[-1]
    assert status["reason"] == "BadRequest"
    assert status["message"] == f'{kind} in version "{version}" cannot be handled as a {kind}: {message}'
    assert api.storage.dump() == before


def test_wrong_type_in_an_update_is_refused():
    api, stored = seeded("deployments")
    stored["spec"]["template"]["spec"]["containers"][0]["ports"] = [{"containerPort": "80"}]
    status = _refused(lambda: api.update("deployments", NS, stored))
    assert "ContainerPort.spec.template.spec.containers[0].ports[0].containerPort" in status["message"]


@pytest.mark.parametrize("patch_type", PATCH_TYPES)
def test_patch_yielding_a_wrong_type_is_invalid_on_patch(patch_type):
    """Was: the patched object reached defaulting with a string replica count (500)."""
    api, _ = seeded("deployments")
    before = api.storage.dump()
    body = json.dumps({"spec": {"template": {"spec": {"terminationGracePeriodSeconds": "30"}}}})
    status = _refused(lambda: api.patch("deployments", NS, "web", patch_type, body, field_manager="m"))
    assert status["reason"] == "Invalid" and status["code"] == 422
    cause = status["details"]["causes"][0]
    assert cause["field"] == "patch"
    assert "PodSpec.spec.template.spec.terminationGracePeriodSeconds" in cause["message"]
    assert api.storage.dump() == before


def test_json_patch_copying_a_value_to_a_field_of_another_type_is_invalid():
    api, _ = seeded("deployments")
    ops = [{"op": "copy", "from": "/metadata/name", "path": "/spec/replicas"}]
    status = _refused(lambda: api.patch("deployments", NS, "web", types.JSON_PATCH_TYPE, json.dumps(ops)))
    assert status["details"]["causes"][0]["field"] == "patch"
    assert "DeploymentSpec.spec.replicas" in status["details"]["causes"][0]["message"]


def test_merge_patch_replacing_metadata_with_a_list_is_refused():
    """Was: AttributeError in APIServer.patch reading the patched name (500)."""
    api, _ = seeded("pods")
    status = _refused(lambda: api.patch("pods", NS, "p", types.MERGE_PATCH_TYPE, '{"metadata": []}'))
    assert status["details"]["causes"][0]["field"] == "patch"


@pytest.mark.parametrize("path", [("metadata",), ("spec",), ("spec", "template")])
def test_null_struct_fields_decode_to_their_zero_value(path):
    """Was: `metadata: null` crashed the namespace check (500); Go decodes a null struct as its zero value."""
    api = new_server()
    obj = deployment()
    fs.set_at(obj, path, None)
    status = _refused(lambda: api.create("deployments", NS, obj))
    assert status["code"] in (400, 422)


def test_null_pointer_fields_are_dropped():
    api = new_server()
    obj = pod()
    obj["spec"]["nodeSelector"] = None
    obj["spec"]["containers"][0]["resources"] = None
    obj["metadata"]["annotations"] = None
    out = api.create("pods", NS, obj)
    assert "nodeSelector" not in out["spec"] and "annotations" not in out["metadata"]
    assert "resources" not in out["spec"]["containers"][0]


def test_bad_quantity_is_a_bad_request():
    """Was: stored as written (kube-apiserver fails the decode)."""
    api = new_server()
    obj = pod()
    obj["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "1 core"}}
    status = _refused(lambda: api.create("pods", NS, obj))
    assert status["message"] == f'Pod in version "v1" cannot be handled as a Pod: {ERR_FORMAT_WRONG}'


def test_numeric_quantity_becomes_its_string():
    api = new_server()
    obj = pod()
    obj["spec"]["containers"][0]["resources"] = {"limits": {"cpu": 0.5, "memory": 1024}}
    out = api.create("pods", NS, obj)
    assert out["spec"]["containers"][0]["resources"]["limits"] == {"cpu": "500m", "memory": "1024"}


@pytest.mark.parametrize("value", ["abc", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00"])
def test_bad_time_is_a_bad_request(value):
    """Was: a Lease with `acquireTime: "abc"` was stored (and no client model could read it back)."""
    api = new_server()
    obj = lease(namespace=NS)
    obj["spec"]["acquireTime"] = value
    status = _refused(lambda: api.create("leases", NS, obj))
    assert status["reason"] == "BadRequest" and f'parsing time "{value}"' in status["message"]


def test_unknown_fields_are_dropped_in_process():
    """Was: stored as sent; decoding into the Go type drops them."""
    api = new_server()
    obj = pod()
    obj["bogus"] = 1
    obj["spec"]["containers"][0]["Image"] = "x"
    out = api.create("pods", NS, obj)
    assert "bogus" not in out and "Image" not in out["spec"]["containers"][0]


def test_patch_body_that_is_not_utf8_is_a_bad_request():
    """Was: UnicodeDecodeError out of APIServer.patch (a 500 over HTTP)."""
    api, _ = seeded("pods")
    status = _refused(lambda: api.patch("pods", NS, "p", types.MERGE_PATCH_TYPE, b"\x80{}"))
    assert status["reason"] == "BadRequest"


@pytest.mark.parametrize("path", ["spec", "~", "/spec/~2"])
def test_json_patch_with_a_malformed_pointer_is_422(path):
    """Was: JsonPointerException out of APIServer.patch (a 500 over HTTP)."""
    api, _ = seeded("pods")
    ops = [{"op": "add", "path": path, "value": 1}]
    status = _refused(lambda: api.patch("pods", NS, "p", types.JSON_PATCH_TYPE, json.dumps(ops)))
    assert status["code"] == 422


def test_null_probe_port_decodes_to_zero():
    """Was: dropped, so the stored probe had no port and the client model could not read the Deployment."""
    api = new_server()
    obj = fs.valid_deployment()
    obj["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] = None
    out = api.create("deployments", NS, obj)
    assert out["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] == 0
    from_wire(out)


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1])
def test_int32_field_beyond_its_range_is_a_bad_request(value):
    """Was: a replica count of 2^31 was stored (Go's decoder refuses it for an int32)."""
    api = new_server()
    obj = deployment()
    obj["spec"]["replicas"] = value
    status = _refused(lambda: api.create("deployments", NS, obj))
    assert status["message"].endswith(
        f"json: cannot unmarshal number {value} into Go struct field DeploymentSpec.spec.replicas of type int32")
