"""Generated bad input through the HTTPS front (issue 13, item 4).

The mutated objects of tests/apiserver/fuzz_strategies.py go out as POST, PUT
and PATCH bodies in every content type the front reads (JSON, YAML, merge,
strategic-merge, JSON and apply patches, protobuf), as do truncated and
non-JSON bodies. Properties: the connection always answers (never dropped);
never a 5xx; every 4xx body is a Kubernetes Status carrying the same code; a
refused write leaves the store as it was; an accepted one reads back as
answered.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from minikcm.apiserver.http.protobuf import CONTENT_TYPE as PROTOBUF

from .. import fuzz_strategies as fs
from .test_protobuf import DEPLOYMENT_BODY, NAMESPACE_BODY, SERVICE_BODY
from .wire import HTTPSClient

pytestmark = pytest.mark.slow  # the quick loop (`-m "not slow"`) leaves these out

JSON = "application/json"
YAML = "application/yaml"
MERGE = "application/merge-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
APPLY = "application/apply-patch+yaml"
BODY_TYPES = [JSON, YAML, PROTOBUF, "application/json; charset=utf-8", "text/plain", ""]
PATCH_TYPES = [MERGE, STRATEGIC, JSON_PATCH, APPLY, JSON, "application/yaml"]


def send(https: HTTPSClient, server: Any, method: str, path: str, body: bytes, content_type: str,
         resource: str) -> tuple[int, Any]:
    """One request; checks the properties and returns (status, decoded body)."""
    before = server.storage.dump()
    headers = {"Content-Type": content_type} if content_type else {}
    status, _, data = https.request(method, path, body, headers=headers)
    assert status < 500, (status, data[:500])
    answer = json.loads(data)
    if status >= 400:
        fs.check_status(answer)
        assert answer["code"] == status
        assert server.storage.dump() == before, "a refused write changed the store"
        return status, answer
    name = answer["metadata"]["name"]
    assert server.get(resource, fs.NAMESPACE, name) == answer, "an accepted write does not read back"
    return status, answer


def forget(server: Any, resource: str, name: str) -> None:
    """Remove an accepted object so that the next example starts from the same store."""
    try:
        server.delete(resource, fs.NAMESPACE, name, grace_period_seconds=0)
    except Exception:  # noqa: BLE001 - an object kept by a finalizer only makes the next create a 409
        pass


def encode(obj: Any, content_type: str) -> bytes:
    if content_type in (YAML, APPLY):
        return yaml.safe_dump(obj).encode()
    return fs.json_bytes(obj)


@fs.fuzz(110)
@given(case=fs.mutated(), content_type=st.sampled_from([JSON, YAML]))
def test_create_of_a_mutated_object(https, server, case, content_type):
    resource, obj, _ = case
    status, answer = send(https, server, "POST", fs.API_PATHS[resource], encode(obj, content_type),
                          content_type, resource)
    if status < 400:
        forget(server, resource, answer["metadata"]["name"])


@fs.fuzz(60)
@given(case=fs.mutated())
def test_update_with_a_mutated_object(https, server, case):
    resource, obj, _ = case
    name = fs.KINDS[resource].name
    try:
        server.create(resource, fs.NAMESPACE, fs.KINDS[resource].build())
    except Exception:  # noqa: BLE001 - already there from an earlier example
        pass
    send(https, server, "PUT", f"{fs.API_PATHS[resource]}/{name}", fs.json_bytes(obj), JSON, resource)


@fs.fuzz(110)
@given(data=st.data(), resource=st.sampled_from(sorted(fs.KINDS)), patch_type=st.sampled_from(PATCH_TYPES))
def test_patch(https, server, data, resource, patch_type):
    name = fs.KINDS[resource].name
    try:
        stored = server.create(resource, fs.NAMESPACE, fs.KINDS[resource].build())
    except Exception:  # noqa: BLE001 - already there from an earlier example
        stored = server.get(resource, fs.NAMESPACE, name)
    if patch_type == JSON_PATCH:
        body = fs.json_bytes(data.draw(fs.json_patch_ops(stored)))
    else:
        _, obj, _ = data.draw(fs.mutated((resource,)))
        body = encode(obj, patch_type)
    query = "?fieldManager=fuzz" if patch_type == APPLY else ""
    send(https, server, "PATCH", f"{fs.API_PATHS[resource]}/{name}{query}", body, patch_type, resource)


@fs.fuzz(100)
@given(data=st.data(), resource=st.sampled_from(sorted(fs.KINDS)),
       method=st.sampled_from(["POST", "PUT", "PATCH"]))
def test_bodies_that_do_not_parse(https, server, data, resource, method):
    name = fs.KINDS[resource].name
    valid = fs.json_bytes(fs.KINDS[resource].build())
    types = BODY_TYPES if method != "PATCH" else PATCH_TYPES + [PROTOBUF]
    content_type = data.draw(st.sampled_from(types))
    body = data.draw(st.one_of(fs.truncations(valid), fs.non_json))
    path = fs.API_PATHS[resource] + ("" if method == "POST" else f"/{name}")
    if content_type == APPLY:
        path += "?fieldManager=fuzz"
    status, answer = send(https, server, method, path, body, content_type, resource)
    if status < 400 and method == "POST":
        forget(server, resource, answer["metadata"]["name"])


@fs.fuzz(80)
@given(data=st.data())
def test_protobuf_bodies_truncated_or_flipped(https, server, data):
    """kubectl's own protobuf bodies, cut short or with a byte changed."""
    body, path, resource = data.draw(st.sampled_from([
        (DEPLOYMENT_BODY, "/apis/apps/v1/namespaces/default/deployments", "deployments"),
        (NAMESPACE_BODY, "/api/v1/namespaces", "namespaces"),
        (SERVICE_BODY, "/api/v1/namespaces/default/services", "services"),
    ]))
    mutated = data.draw(fs.truncations(body))
    before = server.storage.dump()
    status, _, raw = https.request("POST", path, mutated, headers={"Content-Type": PROTOBUF})
    assert status < 500, (status, raw[:300])
    answer = json.loads(raw)
    if status >= 400:
        fs.check_status(answer)
        assert server.storage.dump() == before
    else:
        server.delete(resource, "" if resource == "namespaces" else fs.NAMESPACE, answer["metadata"]["name"],
                      grace_period_seconds=0)


def test_connection_survives_a_body_of_every_kind(https, server):
    """One plain example per content type, so that a failure names its type without shrinking."""
    for content_type in BODY_TYPES:
        send(https, server, "POST", fs.API_PATHS["pods"], b'{"spec": ', content_type, "pods")


def test_json_patch_with_a_pointer_not_starting_with_slash_is_422(https, server):
    """Was: 500 InternalError (JsonPointerException escaped the patcher)."""
    server.create("pods", fs.NAMESPACE, fs.valid_pod())
    ops = json.dumps([{"op": "add", "path": "spec", "value": {}}]).encode()
    status, answer = send(https, server, "PATCH", f"{fs.API_PATHS['pods']}/p", ops, JSON_PATCH, "pods")
    assert status == 422 and answer["reason"] == "Invalid"


def test_patch_leaving_a_wrong_type_after_a_json_patch_move_is_422(https, server):
    """Was: 500 (a string moved into an integer field reached defaulting)."""
    server.create("deployments", fs.NAMESPACE, fs.valid_deployment())
    ops = json.dumps([{"op": "copy", "from": "/metadata/name", "path": "/spec/replicas"}]).encode()
    status, answer = send(https, server, "PATCH", f"{fs.API_PATHS['deployments']}/web", ops, JSON_PATCH,
                          "deployments")
    assert status == 422 and answer["details"]["causes"][0]["field"] == "patch"
