"""Tests for minikcm.client.rest: the mapping onto the official client, over a stubbed ApiClient.

The stub records each request the generated functions build (method, path,
query, content type, body) and answers from a script, so these tests pin the
URLs, options, patch content types, error conversion and watch decoding without
a server. tests/client/test_backends.py runs the same verbs against the HTTPS
server.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import urllib3
from kubernetes.client import ApiClient, Configuration, V1Deployment, V1Lease, V1Pod, V1PodList, V1Scale
from kubernetes.client.exceptions import ApiException
from kubernetes.client.rest import RESTResponse

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.convert import from_wire
from minikcm.apimachinery.meta import (
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    ListOptions,
    PatchOptions,
    Preconditions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import RESOURCES, GroupResource
from minikcm.apimachinery.types import (
    APPLY_PATCH_TYPE,
    JSON_PATCH_TYPE,
    MERGE_PATCH_TYPE,
    STRATEGIC_MERGE_PATCH_TYPE,
)
from minikcm.client import inprocess, rest, typed
from minikcm.client.rest import RESTClientset, RESTTransport, new_for_config

from .objects import new_deployment, new_pod

HOST = "https://stub.invalid:6443"


# --- the stub ---------------------------------------------------------------------------------


class FakeHTTPResponse:
    """What urllib3 hands back with preload_content=False: a body read at once, or a stream."""

    def __init__(self, status: int = 200, body: Any = None, headers: dict | None = None,
                 stream: queue.Queue | None = None) -> None:
        self.status = status
        self.reason = "OK" if status < 400 else "Error"
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        self.data = body.encode() if isinstance(body, str) else (body or b"")
        self.headers = urllib3.HTTPHeaderDict(headers or {"Content-Type": "application/json"})
        self.chunks = stream
        self.released = self.closed = self.shut = False

    def stream(self, amt: Any = None, decode_content: Any = None):
        while True:
            chunk = self.chunks.get()
            if chunk is None or self.shut:
                return
            yield chunk

    def shutdown(self) -> None:
        if self.closed:
            raise ValueError("already closed")
        self.shut = True
        self.chunks.put(None)  # what a socket shutdown does to a blocked read

    def close(self) -> None:
        self.closed = True

    def release_conn(self) -> None:
        self.released = True


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    content_type: str | None
    body: Any


class StubApiClient(ApiClient):
    """An ApiClient whose transport records requests and answers from `responses`."""

    def __init__(self) -> None:
        configuration = Configuration()
        configuration.host = HOST
        super().__init__(configuration)
        self.requests: list[Request] = []
        self.responses: deque[FakeHTTPResponse] = deque()

    def answer(self, status: int = 200, body: Any = None, **kwargs: Any) -> FakeHTTPResponse:
        response = FakeHTTPResponse(status, body, **kwargs)
        self.responses.append(response)
        return response

    def call_api(self, method, url, header_params=None, body=None, post_params=None,
                 _request_timeout=None):
        parts = urlsplit(url)
        self.requests.append(Request(method, parts.path, parse_qs(parts.query),
                                     (header_params or {}).get("Content-Type"), body))
        if self.responses:
            return RESTResponse(self.responses.popleft())
        return RESTResponse(FakeHTTPResponse(200, default_answer(method, parts.path, body)))


MINIMAL = {
    "deployments": {"spec": {"selector": {}, "template": {}}},
    "replicasets": {"spec": {"selector": {}}},
    "statefulsets": {"spec": {"selector": {}, "template": {}}},
    "controllerrevisions": {"revision": 1, "data": {}},
    "events": {"involvedObject": {}, "metadata": {}},
}
"""The least each model needs to validate (the client's models mark these fields required)."""


def default_answer(method: str, path: str, body: Any) -> Any:
    """What the stub answers when no answer was scripted: the body sent, a list, or a minimal object."""
    parts = path.strip("/").split("/")
    if method in ("POST", "PUT") and isinstance(body, dict) and parts[-1] != "status":
        return body
    if method == "GET" and parts[-1] in RESOURCES:
        return {"items": []}
    if parts[-1] == "scale":
        return {}
    resource = parts[-2] if parts[-1] != "status" else parts[-3]
    return MINIMAL.get(resource, {})


@pytest.fixture
def stub() -> StubApiClient:
    return StubApiClient()


@pytest.fixture
def cs(stub) -> RESTClientset:
    return new_for_config(stub)


def wire_pod(name: str = "p", rv: str = "5") -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "resourceVersion": rv, "uid": "u1",
                         "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"containers": [{"name": "web", "image": "nginx"}]}}


def status_body(code: int, reason: str, message: str, **details: Any) -> dict:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "details": details, "code": code}


# --- URLs and verbs ----------------------------------------------------------------------------

ROUTE_CASES = [
    #            call                                                                 method    path
    pytest.param(lambda cs: cs.core_v1().pods("default").get("p"),
                 "GET", "/api/v1/namespaces/default/pods/p", id="get-namespaced"),
    pytest.param(lambda cs: cs.core_v1().pods("default").list(),
                 "GET", "/api/v1/namespaces/default/pods", id="list-namespaced"),
    pytest.param(lambda cs: cs.core_v1().pods("").list(),
                 "GET", "/api/v1/pods", id="list-all-namespaces"),
    pytest.param(lambda cs: cs.core_v1().namespaces().get("team-a"),
                 "GET", "/api/v1/namespaces/team-a", id="get-cluster-scoped"),
    pytest.param(lambda cs: cs.core_v1().namespaces().list(),
                 "GET", "/api/v1/namespaces", id="list-cluster-scoped"),
    pytest.param(lambda cs: cs.core_v1().pods("default").create(new_pod("p")),
                 "POST", "/api/v1/namespaces/default/pods", id="create"),
    pytest.param(lambda cs: cs.core_v1().namespaces().create({"metadata": {"name": "n"}}),
                 "POST", "/api/v1/namespaces", id="create-cluster-scoped"),
    pytest.param(lambda cs: cs.core_v1().pods("default").update(new_pod("p")),
                 "PUT", "/api/v1/namespaces/default/pods/p", id="update"),
    pytest.param(lambda cs: cs.core_v1().pods("default").update_status(new_pod("p")),
                 "PUT", "/api/v1/namespaces/default/pods/p/status", id="update-status"),
    pytest.param(lambda cs: cs.core_v1().namespaces().update_status({"metadata": {"name": "n"}}),
                 "PUT", "/api/v1/namespaces/n/status", id="update-status-cluster-scoped"),
    pytest.param(lambda cs: cs.core_v1().pods("default").delete("p"),
                 "DELETE", "/api/v1/namespaces/default/pods/p", id="delete"),
    pytest.param(lambda cs: cs.core_v1().pods("default").delete_collection(),
                 "DELETE", "/api/v1/namespaces/default/pods", id="delete-collection"),
    pytest.param(lambda cs: cs.apps_v1().deployments("ns").get("d"),
                 "GET", "/apis/apps/v1/namespaces/ns/deployments/d", id="apps-group"),
    pytest.param(lambda cs: cs.apps_v1().replica_sets("ns").get_scale("r"),
                 "GET", "/apis/apps/v1/namespaces/ns/replicasets/r/scale", id="get-scale"),
    pytest.param(lambda cs: cs.apps_v1().stateful_sets("ns").update_scale("s", {"spec": {"replicas": 2}}),
                 "PUT", "/apis/apps/v1/namespaces/ns/statefulsets/s/scale", id="update-scale"),
    pytest.param(lambda cs: cs.apps_v1().controller_revisions("").list(),
                 "GET", "/apis/apps/v1/controllerrevisions", id="controllerrevisions-all"),
    pytest.param(lambda cs: cs.coordination_v1().leases("kube-system").get("kcm"),
                 "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm",
                 id="coordination-group"),
    pytest.param(lambda cs: cs.core_v1().events("default").list(),
                 "GET", "/api/v1/namespaces/default/events", id="events"),
    pytest.param(lambda cs: cs.core_v1().persistent_volume_claims("default").get("c"),
                 "GET", "/api/v1/namespaces/default/persistentvolumeclaims/c", id="pvcs"),
    pytest.param(lambda cs: cs.core_v1().services("default").update_status({"metadata": {"name": "s"}}),
                 "PUT", "/api/v1/namespaces/default/services/s/status", id="services-status"),
]


@pytest.mark.parametrize("call, method, path", ROUTE_CASES)
def test_routes(stub, cs, call, method, path):
    call(cs)
    [request] = stub.requests
    assert (request.method, request.path) == (method, path)


def test_cluster_scoped_client_ignores_namespace(stub, cs):
    client = typed.TypedClient(cs, "namespaces", "ignored")
    client.get("n")
    assert stub.requests[0].path == "/api/v1/namespaces/n"


def test_namespaces_delete_collection_is_not_supported(stub, cs):
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().namespaces().delete_collection()
    assert errors.is_method_not_supported(info.value)
    assert stub.requests == []


def test_unknown_patch_subresource_is_not_found(stub, cs):
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").patch("p", MERGE_PATCH_TYPE, {}, None, "scale")
    assert errors.is_not_found(info.value)
    assert stub.requests == []


# --- options ------------------------------------------------------------------------------------


def test_create_options_and_body(stub, cs):
    cs.apps_v1().deployments("default").create(
        new_deployment("web"), CreateOptions(dry_run=[DRY_RUN_ALL], field_manager="kcm",
                                             field_validation="Strict"))
    [request] = stub.requests
    assert request.query == {"dryRun": ["All"], "fieldManager": ["kcm"], "fieldValidation": ["Strict"]}
    assert request.body["apiVersion"] == "apps/v1" and request.body["kind"] == "Deployment"
    assert request.body["spec"]["replicas"] == 1


def test_update_sends_resource_version(stub, cs):
    pod = new_pod("p")
    pod.metadata.resource_version = "42"
    cs.core_v1().pods("default").update(pod, UpdateOptions(field_manager="m"))
    [request] = stub.requests
    assert request.body["metadata"]["resourceVersion"] == "42"
    assert request.query == {"fieldManager": ["m"]}


def test_empty_options_send_no_query(stub, cs):
    cs.core_v1().pods("default").create(new_pod("p"))
    cs.core_v1().pods("default").list()
    assert [r.query for r in stub.requests] == [{}, {}]


def test_list_options(stub, cs):
    cs.core_v1().pods("default").list(ListOptions(
        label_selector="app=web", field_selector="metadata.name=p", resource_version="10",
        resource_version_match="NotOlderThan", timeout_seconds=30, limit=5, continue_="tok"))
    [request] = stub.requests
    assert request.query == {
        "labelSelector": ["app=web"], "fieldSelector": ["metadata.name=p"],
        "resourceVersion": ["10"], "resourceVersionMatch": ["NotOlderThan"],
        "timeoutSeconds": ["30"], "limit": ["5"], "continue": ["tok"]}


@pytest.mark.threaded
def test_watch_list_options_are_query_parameters(stub, cs):
    w, chunks, response = open_watch(stub, cs, ListOptions(
        send_initial_events=True, resource_version_match="NotOlderThan", allow_watch_bookmarks=True))
    [request] = stub.requests
    assert request.query == {"watch": ["true"], "sendInitialEvents": ["true"],
                             "resourceVersionMatch": ["NotOlderThan"], "allowWatchBookmarks": ["true"]}
    chunks.put(None)
    w.stop()


def test_delete_options_travel_in_the_body(stub, cs):
    cs.core_v1().pods("default").delete("p", DeleteOptions(
        grace_period_seconds=0, propagation_policy="Foreground", dry_run=[DRY_RUN_ALL],
        preconditions=Preconditions(uid="u1", resource_version="7")))
    [request] = stub.requests
    assert request.body == {"gracePeriodSeconds": 0, "propagationPolicy": "Foreground",
                            "dryRun": ["All"],
                            "preconditions": {"uid": "u1", "resourceVersion": "7"}}
    assert request.query == {}


def test_delete_collection_sends_list_options(stub, cs):
    cs.coordination_v1().leases("default").delete_collection(
        DeleteOptions(propagation_policy="Background"), ListOptions(label_selector="app=x"))
    [request] = stub.requests
    assert request.query == {"labelSelector": ["app=x"]}
    assert request.body == {"propagationPolicy": "Background"}


def test_update_scale_fills_in_name(stub, cs):
    stub.answer(200, {"apiVersion": "autoscaling/v1", "kind": "Scale",
                      "metadata": {"name": "d"}, "spec": {"replicas": 3}})
    scale = cs.apps_v1().deployments("default").update_scale("d", {"spec": {"replicas": 3}})
    assert isinstance(scale, V1Scale) and scale.spec.replicas == 3
    body = stub.requests[0].body
    assert (body["apiVersion"], body["kind"], body["metadata"]["name"]) == ("autoscaling/v1", "Scale", "d")


# --- patch --------------------------------------------------------------------------------------

PATCH_CASES = [
    #            patch type                  data                                       sent body
    pytest.param(JSON_PATCH_TYPE, '[{"op": "replace", "path": "/spec/replicas", "value": 2}]',
                 [{"op": "replace", "path": "/spec/replicas", "value": 2}], id="json-patch"),
    pytest.param(MERGE_PATCH_TYPE, {"spec": {"replicas": 2}}, {"spec": {"replicas": 2}},
                 id="merge-patch"),
    pytest.param(STRATEGIC_MERGE_PATCH_TYPE, b'{"spec": {"paused": true}}', {"spec": {"paused": True}},
                 id="strategic-merge-patch"),
    pytest.param(APPLY_PATCH_TYPE, '{"apiVersion": "apps/v1", "kind": "Deployment"}',
                 {"apiVersion": "apps/v1", "kind": "Deployment"}, id="apply-patch-json"),
    pytest.param(APPLY_PATCH_TYPE, "apiVersion: apps/v1\nkind: Deployment\n",
                 {"apiVersion": "apps/v1", "kind": "Deployment"}, id="apply-patch-yaml"),
]


@pytest.mark.parametrize("pt, data, sent", PATCH_CASES)
def test_patch_content_types(stub, cs, pt, data, sent):
    stub.answer(200, {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
                      **MINIMAL["deployments"]})
    out = cs.apps_v1().deployments("default").patch("d", pt, data, PatchOptions(field_manager="m"))
    assert isinstance(out, V1Deployment)
    [request] = stub.requests
    assert (request.method, request.path) == ("PATCH", "/apis/apps/v1/namespaces/default/deployments/d")
    assert request.content_type == pt
    assert request.body == sent
    assert request.query["fieldManager"] == ["m"]


def test_patch_status_and_scale_subresources(stub, cs):
    stub.answer(200, {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "r"},
                      **MINIMAL["replicasets"]})
    stub.answer(200, {"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "r"},
                      "spec": {"replicas": 4}})
    client = cs.apps_v1().replica_sets("default")
    client.patch("r", MERGE_PATCH_TYPE, {"status": {"replicas": 1}}, None, "status")
    scale = client.patch("r", MERGE_PATCH_TYPE, {"spec": {"replicas": 4}}, None, "scale")
    assert isinstance(scale, V1Scale) and scale.spec.replicas == 4
    assert [r.path for r in stub.requests] == [
        "/apis/apps/v1/namespaces/default/replicasets/r/status",
        "/apis/apps/v1/namespaces/default/replicasets/r/scale"]


def test_apply_patch_force(stub, cs):
    cs.apps_v1().deployments("default").patch("d", APPLY_PATCH_TYPE, "{}",
                                             PatchOptions(field_manager="kubectl", force=True))
    assert stub.requests[0].query == {"fieldManager": ["kubectl"], "force": ["true"]}


def test_json_patch_must_be_a_list(stub, cs):
    with pytest.raises(ValueError, match="list of operations"):
        cs.apps_v1().deployments("default").patch("d", JSON_PATCH_TYPE, {"op": "x"})
    assert stub.requests == []


def test_patch_with_event_namespace_is_strategic(stub, cs):
    stub.answer(200, {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "ns"},
                      "involvedObject": {}})
    event = {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "ns"},
             "involvedObject": {}}
    cs.core_v1().events("").patch_with_event_namespace(event, {"count": 2})
    [request] = stub.requests
    assert (request.path, request.content_type) == ("/api/v1/namespaces/ns/events/e",
                                                    STRATEGIC_MERGE_PATCH_TYPE)
    with pytest.raises(ValueError, match="can't create an event"):
        cs.core_v1().events("other").create_with_event_namespace(event)


# --- answers ------------------------------------------------------------------------------------


def test_answers_become_the_same_models_as_in_process(stub, cs):
    stub.answer(200, wire_pod())
    stub.answer(200, {"apiVersion": "v1", "kind": "PodList", "metadata": {"resourceVersion": "9"},
                      "items": [wire_pod("a"), wire_pod("b")]})
    got = cs.core_v1().pods("default").get("p")
    assert isinstance(got, V1Pod)
    assert got == from_wire(wire_pod(), V1Pod)  # what the in-process backend makes of it
    listed = cs.core_v1().pods("default").list()
    assert isinstance(listed, V1PodList) and listed.metadata.resource_version == "9"
    assert [p.metadata.name for p in listed.items] == ["a", "b"]


def test_response_connection_is_released(stub, cs):
    response = stub.answer(200, wire_pod())
    cs.core_v1().pods("default").get("p")
    assert response.released


# --- errors -------------------------------------------------------------------------------------

ERROR_CASES = [
    #            code  body                                                              predicate
    pytest.param(404, status_body(404, "NotFound", 'pods "p" not found', name="p", kind="pods"),
                 errors.is_not_found, id="not-found-status"),
    pytest.param(409, status_body(409, "Conflict", "the object has been modified"),
                 errors.is_conflict, id="conflict-status"),
    pytest.param(409, status_body(409, "AlreadyExists", 'pods "p" already exists'),
                 errors.is_already_exists, id="already-exists-status"),
    pytest.param(422, status_body(422, "Invalid", "bad", causes=[{"field": "spec"}]),
                 errors.is_invalid, id="invalid-status"),
    pytest.param(410, status_body(410, "Expired", "too old resource version: 1 (5)"),
                 errors.is_resource_expired, id="expired-status"),
    pytest.param(403, status_body(403, "Forbidden", "no"), errors.is_forbidden, id="forbidden-status"),
    pytest.param(500, "boom", errors.is_internal_error, id="internal-error-without-status"),
    pytest.param(404, "", errors.is_not_found, id="not-found-without-body"),
    pytest.param(429, {"kind": "NotAStatus"}, errors.is_too_many_requests, id="too-many-requests-other-json"),
]


@pytest.mark.parametrize("code, body, predicate", ERROR_CASES)
def test_api_exceptions_become_status_errors(stub, cs, code, body, predicate):
    stub.answer(code, body)
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").get("p")
    assert predicate(info.value)
    assert info.value.code == code
    assert not isinstance(info.value, ApiException)


def test_status_error_keeps_the_server_status(stub, cs):
    body = status_body(404, "NotFound", 'pods "p" not found', name="p", kind="pods")
    stub.answer(404, body)
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").get("p")
    assert info.value.status() == body
    assert str(info.value) == 'pods "p" not found'


def test_error_from_api_exception_generic_message_and_retry_after():
    err = ApiException(status=409, reason="Conflict")
    err.body, err.headers = "taken", urllib3.HTTPHeaderDict({"Content-Type": "text/plain",
                                                              "Retry-After": "3"})
    converted = rest.error_from_api_exception(err, "POST", GroupResource("apps", "deployments"), "d")
    assert errors.is_already_exists(converted)  # a 409 on POST without a Status
    assert converted.status()["details"]["retryAfterSeconds"] == 3
    assert str(converted) == "the server reported a conflict (post deployments.apps d)"
    json_err = ApiException(status=500, reason="x")
    json_err.body, json_err.headers = '{"x": 1}', urllib3.HTTPHeaderDict({"Content-Type": "application/json"})
    converted = rest.error_from_api_exception(json_err, "GET", GroupResource("", "pods"), "")
    assert 'error on the server ("unknown")' in str(converted)


def test_error_without_http_status_is_left_alone():
    err = ApiException(status=0, reason="SSLError")
    assert rest.error_from_api_exception(err, "GET", GroupResource("", "pods"), "p") is err


def test_watch_request_refused_raises(stub, cs):
    stub.answer(403, status_body(403, "Forbidden", "no watching"))
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").watch()
    assert errors.is_forbidden(info.value)


# --- watch --------------------------------------------------------------------------------------


def event_line(event_type: str, obj: dict) -> bytes:
    return (json.dumps({"type": event_type, "object": obj}) + "\n").encode()


def open_watch(stub, cs, opts=None):
    chunks: queue.Queue = queue.Queue()
    response = stub.answer(200, stream=chunks)
    w = cs.core_v1().pods("default").watch(opts)
    return w, chunks, response


def recv(w, timeout=5.0):
    return w.result_chan().recv(timeout=timeout)


@pytest.mark.threaded
def test_watch_request_and_events(stub, cs):
    w, chunks, response = open_watch(stub, cs, ListOptions(resource_version="5",
                                                           allow_watch_bookmarks=True,
                                                           timeout_seconds=60))
    [request] = stub.requests
    assert request.path == "/api/v1/namespaces/default/pods"
    assert request.query == {"watch": ["true"], "resourceVersion": ["5"], "allowWatchBookmarks": ["true"],
                             "timeoutSeconds": ["60"]}
    chunks.put(event_line("ADDED", wire_pod("a", "6")))
    half = event_line("MODIFIED", wire_pod("a", "7"))
    chunks.put(half[:20])  # an event split across chunks
    chunks.put(half[20:] + event_line("BOOKMARK", {"kind": "Pod", "apiVersion": "v1",
                                                   "metadata": {"resourceVersion": "8"}}))
    expired = status_body(410, "Expired", "too old resource version: 5 (7)")
    chunks.put(event_line("ERROR", expired))
    chunks.put(None)  # the server ends the stream

    added, modified, bookmark, error = (recv(w) for _ in range(4))
    assert (added.type, added.object.metadata.name) == (watch.ADDED, "a")
    assert isinstance(modified.object, V1Pod) and modified.object.metadata.resource_version == "7"
    assert bookmark.type == watch.BOOKMARK and isinstance(bookmark.object, V1Pod)
    assert bookmark.object.metadata.resource_version == "8" and bookmark.object.spec is None
    assert error.type == watch.ERROR and error.object == expired
    assert errors.is_resource_expired(errors.from_object(error.object))
    assert recv(w) is None  # the stream ended: the channel closes
    assert response.closed and response.released


@pytest.mark.threaded
def test_watch_reader_thread_is_named(stub, cs):
    w, chunks, _ = open_watch(stub, cs)
    names = [t.name for t in threading.enumerate()]
    assert "rest/watch/pods" in names
    w.stop()


@pytest.mark.threaded
def test_watch_stop_wakes_the_reader_promptly(stub, cs):
    w, chunks, response = open_watch(stub, cs)
    # The watch's own reader: picking by name could find a reader left from an earlier test.
    reader = w.inner._thread
    assert reader.name == "rest/watch/pods"
    start = time.monotonic()
    w.stop()
    reader.join(timeout=5)
    assert not reader.is_alive() and time.monotonic() - start < 2
    assert response.shut and response.closed and response.released
    assert w.result_chan().closed and recv(w, 0) is None
    w.stop()  # twice is fine


@pytest.mark.threaded
def test_watch_undecodable_line_is_an_error_event(stub, cs):
    w, chunks, _ = open_watch(stub, cs)
    chunks.put(b"{not json\n")
    error = recv(w)
    assert error.type == watch.ERROR
    err = errors.from_object(error.object)
    assert errors.is_internal_error(err)
    assert "unable to decode an event from the watch stream" in str(err)
    assert errors.has_status_cause(err, "ClientWatchDecoding")
    assert recv(w) is None


# --- construction -------------------------------------------------------------------------------


def test_clientset_from_kubeconfig(tmp_path):
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "one",
        "clusters": [{"name": "c1", "cluster": {"server": "https://127.0.0.1:1111",
                                                "insecure-skip-tls-verify": True}},
                     {"name": "c2", "cluster": {"server": "https://127.0.0.1:2222",
                                                "insecure-skip-tls-verify": True}}],
        "users": [{"name": "u", "user": {"token": "s3cr3t"}}],
        "contexts": [{"name": "one", "context": {"cluster": "c1", "user": "u"}},
                     {"name": "two", "context": {"cluster": "c2", "user": "u"}}]}))
    cs = RESTClientset(str(kubeconfig))
    assert cs.api_client.configuration.host == "https://127.0.0.1:1111"
    assert cs.api_client.configuration.api_key["BearerToken"] == "Bearer s3cr3t"
    other = RESTClientset(str(kubeconfig), context="two")
    assert other.api_client.configuration.host == "https://127.0.0.1:2222"
    cs.close()
    other.close()


SAME_SHAPE_CASES = [
    pytest.param(lambda cs: cs.core_v1(), id="core-v1"),
    pytest.param(lambda cs: cs.apps_v1(), id="apps-v1"),
    pytest.param(lambda cs: cs.coordination_v1(), id="coordination-v1"),
    pytest.param(lambda cs: cs.core_v1().pods("d"), id="pods"),
    pytest.param(lambda cs: cs.core_v1().events("d"), id="events"),
    pytest.param(lambda cs: cs.core_v1().namespaces(), id="namespaces"),
    pytest.param(lambda cs: cs.apps_v1().deployments("d"), id="deployments"),
    pytest.param(lambda cs: cs.apps_v1().controller_revisions("d"), id="controllerrevisions"),
    pytest.param(lambda cs: cs.coordination_v1().leases("d"), id="leases"),
]


@pytest.mark.parametrize("part", SAME_SHAPE_CASES)
def test_same_typed_clients_as_in_process(cs, part):
    """Both backends are typed.Clientset over their own transport: the very same client classes."""
    in_process = inprocess.InProcessClientset(None)
    assert isinstance(cs, typed.Clientset) and isinstance(cs.transport, RESTTransport)
    assert type(part(cs)) is type(part(in_process))


def test_every_served_resource_has_methods():
    assert sorted(rest.METHODS) == sorted(RESOURCES)
    for resource, methods in rest.METHODS.items():
        scalable = "scale" in RESOURCES[resource].subresources
        has_status = "status" in RESOURCES[resource].subresources
        assert (methods.read_scale is not None) == scalable, resource
        assert (methods.replace_status is not None) == has_status, resource
        assert (methods.list_all is None) == (not RESOURCES[resource].namespaced), resource


def test_lease_answer_model(stub, cs):
    stub.answer(201, {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                      "metadata": {"name": "l", "namespace": "default"},
                      "spec": {"holderIdentity": "me", "renewTime": "2026-01-01T00:00:00.500000Z"}})
    created = cs.coordination_v1().leases("default").create({"metadata": {"name": "l"}})
    assert isinstance(created, V1Lease) and created.spec.renew_time.microsecond == 500000
