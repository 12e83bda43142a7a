"""Tests for minikcm.apiserver.http.handlers: every verb through RESTHandler.handle, no sockets."""

from __future__ import annotations

import json
import logging

import pytest
import yaml

from minikcm.apimachinery import watch
from minikcm.apiserver.http.handlers import Response, WatchStream, negotiate, parse_bool

from ..builders import deployment, event, lease, pod
from .wire import TABLE, body_of, call

DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"
PODS = "/api/v1/namespaces/default/pods"


def create(handler, url, obj):
    response = call(handler, "POST", url, obj)
    assert response.code == 201, response.body
    return body_of(response)


# --- create / get / list / update / delete ----------------------------------------------------


def test_create_answers_201_with_the_stored_object(handler, server):
    created = create(handler, DEPLOYMENTS, deployment("web"))
    assert created["metadata"]["uid"] and created["metadata"]["resourceVersion"]
    assert server.get("deployments", "default", "web")["metadata"]["uid"] == created["metadata"]["uid"]


def test_create_fills_api_version_and_kind_from_the_url(handler):
    """The Python client sends bodies without apiVersion and kind."""
    body = deployment("web")
    del body["apiVersion"], body["kind"]
    created = create(handler, DEPLOYMENTS, body)
    assert (created["apiVersion"], created["kind"]) == ("apps/v1", "Deployment")


def test_create_with_dry_run_stores_nothing(handler, server):
    response = call(handler, "POST", DEPLOYMENTS + "?dryRun=All", deployment("web"))
    assert response.code == 201
    assert server.list("deployments", "default")["items"] == []


def test_create_from_a_yaml_body(handler):
    text = yaml.safe_dump(deployment("web"))
    response = call(handler, "POST", DEPLOYMENTS, text, content_type="application/yaml")
    assert response.code == 201


def test_get_and_list(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    got = body_of(call(handler, "GET", DEPLOYMENTS + "/web"))
    assert got["metadata"]["name"] == "web"
    listed = body_of(call(handler, "GET", DEPLOYMENTS))
    assert listed["kind"] == "DeploymentList" and [i["metadata"]["name"] for i in listed["items"]] == ["web"]
    everywhere = body_of(call(handler, "GET", "/apis/apps/v1/deployments"))
    assert len(everywhere["items"]) == 1


def test_list_pages_with_limit_and_continue(handler):
    for name in ("a", "b", "c"):
        create(handler, PODS, pod(name))
    first = body_of(call(handler, "GET", PODS + "?limit=2"))
    assert [i["metadata"]["name"] for i in first["items"]] == ["a", "b"]
    token = first["metadata"]["continue"]
    rest = body_of(call(handler, "GET", f"{PODS}?limit=2&continue={token}"))
    assert [i["metadata"]["name"] for i in rest["items"]] == ["c"]


def test_list_filters_by_label_and_field_selector(handler):
    create(handler, PODS, pod("a", labels={"app": "x"}))
    create(handler, PODS, pod("b", labels={"app": "y"}))
    by_label = body_of(call(handler, "GET", PODS + "?labelSelector=app%3Dx"))
    by_field = body_of(call(handler, "GET", PODS + "?fieldSelector=metadata.name%3Db"))
    assert [i["metadata"]["name"] for i in by_label["items"]] == ["a"]
    assert [i["metadata"]["name"] for i in by_field["items"]] == ["b"]


def test_update_and_stale_resource_version_conflict(handler):
    created = create(handler, DEPLOYMENTS, deployment("web"))
    created["spec"]["replicas"] = 5
    updated = call(handler, "PUT", DEPLOYMENTS + "/web", created)
    assert updated.code == 200 and body_of(updated)["spec"]["replicas"] == 5
    stale = call(handler, "PUT", DEPLOYMENTS + "/web", created)  # still the old resourceVersion
    assert stale.code == 409 and body_of(stale)["reason"] == "Conflict"


def test_update_refuses_a_body_named_differently_from_the_url(handler):
    created = create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "PUT", DEPLOYMENTS + "/other", created)
    assert response.code == 400
    assert "does not match the name on the URL (other)" in body_of(response)["message"]


def test_status_subresource_update_keeps_the_spec(handler):
    created = create(handler, DEPLOYMENTS, deployment("web", replicas=2))
    created["spec"]["replicas"] = 9
    created["status"] = {"replicas": 2, "readyReplicas": 1}
    updated = body_of(call(handler, "PUT", DEPLOYMENTS + "/web/status", created))
    assert updated["spec"]["replicas"] == 2 and updated["status"]["readyReplicas"] == 1


def test_scale_subresource_get_and_put(handler):
    create(handler, DEPLOYMENTS, deployment("web", replicas=2))
    scale = body_of(call(handler, "GET", DEPLOYMENTS + "/web/scale"))
    assert (scale["kind"], scale["spec"]["replicas"]) == ("Scale", 2)
    scale["spec"]["replicas"] = 4
    assert body_of(call(handler, "PUT", DEPLOYMENTS + "/web/scale", scale))["spec"]["replicas"] == 4


def test_pod_binding_sets_the_node(handler, server):
    create(handler, PODS, pod("p"))
    binding = {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "p"},
               "target": {"kind": "Node", "name": "node-1"}}
    response = call(handler, "POST", PODS + "/p/binding", binding)
    assert response.code == 201
    assert server.get("pods", "default", "p")["spec"]["nodeName"] == "node-1"


DELETE_CASES = [
    pytest.param("", {"propagationPolicy": "Foreground"}, ["foregroundDeletion"], id="body-foreground"),
    pytest.param("?propagationPolicy=Orphan", None, ["orphan"], id="query-orphan"),
    pytest.param("?orphanDependents=true", None, ["orphan"], id="legacy-orphan-dependents"),
    pytest.param("", {"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Orphan"},
                 ["orphan"], id="typed-body"),
]


@pytest.mark.parametrize("query, body, finalizers", DELETE_CASES)
def test_delete_propagation_policies(handler, query, body, finalizers):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "DELETE", DEPLOYMENTS + "/web" + query, body)
    assert response.code == 200
    assert body_of(response)["metadata"]["finalizers"] == finalizers


def test_delete_background_removes_and_dry_run_keeps(handler, server):
    create(handler, DEPLOYMENTS, deployment("web"))
    kept = call(handler, "DELETE", DEPLOYMENTS + "/web", {"dryRun": ["All"]})
    assert kept.code == 200 and server.get("deployments", "default", "web")
    gone = call(handler, "DELETE", DEPLOYMENTS + "/web", {"propagationPolicy": "Background"})
    assert gone.code == 200
    assert call(handler, "GET", DEPLOYMENTS + "/web").code == 404


def test_delete_precondition_mismatch_is_a_conflict(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "DELETE", DEPLOYMENTS + "/web", {"preconditions": {"uid": "not-it"}})
    assert response.code == 409


def test_delete_collection_by_label(handler, server):
    create(handler, PODS, pod("a", labels={"app": "x"}))
    create(handler, PODS, pod("b", labels={"app": "y"}))
    response = call(handler, "DELETE", PODS + "?labelSelector=app%3Dx&gracePeriodSeconds=0")
    assert response.code == 200
    remaining = server.list("pods", "default")["items"]
    assert [p["metadata"]["name"] for p in remaining if not p["metadata"].get("deletionTimestamp")] == ["b"]


# --- patches ----------------------------------------------------------------------------------

PATCH_CASES = [
    pytest.param("application/merge-patch+json", {"spec": {"replicas": 3}}, "", 3, id="merge"),
    pytest.param("application/strategic-merge-patch+json", {"spec": {"replicas": 4}}, "", 4, id="strategic"),
    pytest.param("application/json-patch+json", [{"op": "replace", "path": "/spec/replicas", "value": 5}],
                 "", 5, id="json-patch"),
    pytest.param("application/merge-patch+json", {"spec": {"replicas": 6}}, "/scale", 6, id="merge-on-scale"),
]


@pytest.mark.parametrize("content_type, patch, sub, replicas", PATCH_CASES)
def test_patch_types(handler, server, content_type, patch, sub, replicas):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "PATCH", DEPLOYMENTS + "/web" + sub, patch, content_type=content_type)
    assert response.code == 200, response.body
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == replicas


def test_strategic_merge_patch_merges_containers_by_name(handler, server):
    create(handler, DEPLOYMENTS, deployment("web"))
    patch = {"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "app"}],
                                            "containers": [{"name": "app", "image": "nginx:2"}]}}}}
    response = call(handler, "PATCH", DEPLOYMENTS + "/web?fieldValidation=Strict", patch,
                    content_type="application/strategic-merge-patch+json")
    assert response.code == 200, response.body
    containers = server.get("deployments", "default", "web")["spec"]["template"]["spec"]["containers"]
    assert [(c["name"], c["image"]) for c in containers] == [("app", "nginx:2")]


def test_apply_patch_creates_then_updates(handler):
    body = json.dumps(deployment("web"))
    url = DEPLOYMENTS + "/web?fieldManager=kubectl&force=false&fieldValidation=Strict"
    first = call(handler, "PATCH", url, body, content_type="application/apply-patch+yaml")
    second = call(handler, "PATCH", url, body, content_type="application/apply-patch+yaml")
    assert (first.code, second.code) == (201, 200)


def test_apply_patch_needs_a_field_manager(handler):
    response = call(handler, "PATCH", DEPLOYMENTS + "/web", json.dumps(deployment("web")),
                    content_type="application/apply-patch+yaml")
    assert response.code == 422 and "fieldManager" in body_of(response)["message"]


def test_patch_with_an_unknown_content_type_is_415(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "PATCH", DEPLOYMENTS + "/web", {"spec": {}}, content_type="text/plain")
    assert response.code == 415


# --- field validation and bad input ---------------------------------------------------------


def with_unknown_field() -> dict:
    obj = deployment("web")
    obj["spec"]["foo"] = 1
    return obj


FIELD_VALIDATION_CASES = [
    pytest.param("Strict", 400, [], id="strict-fails"),
    pytest.param("Warn", 201, ['unknown field "spec.foo"'], id="warn-warns"),
    pytest.param("", 201, ['unknown field "spec.foo"'], id="default-is-warn"),
    pytest.param("Ignore", 201, [], id="ignore-is-silent"),
]


@pytest.mark.parametrize("directive, code, warnings", FIELD_VALIDATION_CASES)
def test_field_validation_on_create(handler, server, directive, code, warnings):
    response = call(handler, "POST", f"{DEPLOYMENTS}?fieldValidation={directive}", with_unknown_field())
    assert response.code == code
    assert response.warnings == warnings
    if code == 400:
        assert body_of(response)["message"] == ('Deployment in version "v1" cannot be handled as a '
                                                'Deployment: strict decoding error: unknown field "spec.foo"')
    else:
        assert "foo" not in server.get("deployments", "default", "web")["spec"]


def test_field_validation_on_patch_strict_is_422(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "PATCH", DEPLOYMENTS + "/web?fieldValidation=Strict", {"spec": {"foo": 1}},
                    content_type="application/merge-patch+json")
    assert response.code == 422
    assert 'strict decoding error: unknown field "spec.foo"' in body_of(response)["message"]


def test_unknown_field_validation_value_is_422(handler):
    response = call(handler, "POST", DEPLOYMENTS + "?fieldValidation=Loud", deployment("web"))
    assert response.code == 422 and body_of(response)["details"]["kind"] == "CreateOptions"


def test_wrong_type_is_a_400_on_create(handler, server):
    obj = deployment("web")
    obj["spec"]["replicas"] = "three"
    response = call(handler, "POST", DEPLOYMENTS, obj)
    assert response.code == 400
    assert "cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas" in body_of(response)["message"]
    assert server.list("deployments", "default")["items"] == []


def test_quantities_given_as_numbers_are_stored_as_strings(handler, server):
    obj = deployment("web")
    obj["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"cpu": 1, "memory": "1Gi"},
                                                                     "requests": {"cpu": 0.5}}
    create(handler, DEPLOYMENTS, obj)
    resources = server.get("deployments", "default", "web")["spec"]["template"]["spec"]["containers"][0]["resources"]
    assert resources == {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}}


BAD_BODY_CASES = [
    pytest.param(b'{"apiVersion": "apps/v1", "kind": ', "application/json", 400, id="truncated-json"),
    pytest.param(b"apiVersion: [apps", "application/yaml", 400, id="broken-yaml"),
    pytest.param(b"[1, 2]", "application/json", 400, id="not-an-object"),
    pytest.param(b"\xff\xfe", "application/json", 400, id="not-utf8"),
    pytest.param(b"", "application/json", 400, id="empty"),
    pytest.param(b"\x0a\x03abc", "application/vnd.kubernetes.protobuf", 400, id="protobuf-without-prefix"),
    pytest.param(b"k8s\x00" + b"\x0a\x10\x0a\x07apps/v1\x12\x05Lease", "application/vnd.kubernetes.protobuf", 415,
                 id="protobuf-kind-without-table"),
]


@pytest.mark.parametrize("raw, content_type, code", BAD_BODY_CASES)
def test_bad_bodies_get_a_status_and_change_nothing(handler, server, raw, content_type, code):
    before = server.list("deployments", "default")
    response = call(handler, "POST", DEPLOYMENTS, raw, content_type=content_type)
    assert response.code == code
    assert body_of(response)["kind"] == "Status"
    assert server.list("deployments", "default") == before


def test_invalid_object_is_422_with_causes_and_nothing_stored(handler, server):
    obj = deployment("web")
    obj["spec"]["selector"] = {"matchLabels": {"app": "other"}}
    response = call(handler, "POST", DEPLOYMENTS, obj)
    status = body_of(response)
    assert response.code == 422 and status["reason"] == "Invalid"
    assert any(c["field"] == "spec.template.metadata.labels" for c in status["details"]["causes"])
    assert server.list("deployments", "default")["items"] == []


ROUTE_ERROR_CASES = [
    pytest.param("GET", "/apis/apps/v1/namespaces/default/widgets", 404, id="unknown-resource"),
    pytest.param("GET", "/apis/example.com/v1/things", 404, id="unknown-group"),
    pytest.param("GET", "/nothing/here", 404, id="unknown-path"),
    pytest.param("GET", DEPLOYMENTS + "/missing", 404, id="missing-object"),
    pytest.param("POST", DEPLOYMENTS + "/web", 405, id="post-to-object"),
    pytest.param("PUT", DEPLOYMENTS, 405, id="put-to-collection"),
    pytest.param("POST", "/apis/apps/v1/deployments", 405, id="create-across-namespaces"),
    pytest.param("POST", "/version", 405, id="post-to-version"),
]


@pytest.mark.parametrize("method, url, code", ROUTE_ERROR_CASES)
def test_route_errors_are_statuses(handler, method, url, code):
    response = call(handler, method, url, deployment("web"))
    assert response.code == code
    assert body_of(response)["kind"] == "Status"


def test_create_twice_is_already_exists(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    response = call(handler, "POST", DEPLOYMENTS, deployment("web"))
    status = body_of(response)
    assert response.code == 409 and status["reason"] == "AlreadyExists"
    assert status["message"] == 'deployments.apps "web" already exists'


def test_unexpected_errors_are_500_without_a_traceback(handler, server, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(server, "get", broken)
    with caplog.at_level(logging.ERROR):
        response = call(handler, "GET", DEPLOYMENTS + "/web")
    assert response.code == 500
    assert b"Traceback" not in response.body and b"boom" not in response.body
    assert body_of(response)["reason"] == "InternalError"


# --- media types ------------------------------------------------------------------------------


def test_list_as_table(handler):
    create(handler, DEPLOYMENTS, deployment("web"))
    table = body_of(call(handler, "GET", DEPLOYMENTS, accept=TABLE))
    assert table["kind"] == "Table"
    assert [c["name"] for c in table["columnDefinitions"] if c["priority"] == 0] == [
        "Name", "Ready", "Up-to-date", "Available", "Age"]
    assert table["rows"][0]["cells"][:5] == ["web", "0/2", 0, 0, "0s"]
    assert table["rows"][0]["object"]["kind"] == "PartialObjectMetadata"


def test_get_as_table_with_include_object(handler):
    create(handler, PODS, pod("p"))
    table = body_of(call(handler, "GET", PODS + "/p?includeObject=Object", accept=TABLE))
    assert len(table["rows"]) == 1 and table["rows"][0]["object"]["kind"] == "Pod"


def test_partial_object_metadata_list(handler):
    create(handler, PODS, pod("p"))
    accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
    listed = body_of(call(handler, "GET", PODS, accept=accept))
    assert listed["kind"] == "PartialObjectMetadataList"
    assert listed["items"][0] == {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                  "metadata": listed["items"][0]["metadata"]}


def test_yaml_is_served_when_asked(handler):
    response = call(handler, "GET", "/api/v1/namespaces/default", accept="application/yaml")
    assert response.content_type == "application/yaml"
    assert yaml.safe_load(response.body)["metadata"]["name"] == "default"


def test_protobuf_only_is_not_acceptable(handler):
    response = call(handler, "GET", PODS, accept="application/vnd.kubernetes.protobuf")
    assert response.code == 406 and body_of(response)["reason"] == "NotAcceptable"


NEGOTIATE_CASES = [
    pytest.param(None, True, "json", id="no-accept"),
    pytest.param(TABLE, True, "table", id="kubectl-get"),
    pytest.param(TABLE, False, "json", id="table-not-for-writes"),
    pytest.param("application/vnd.kubernetes.protobuf,application/json", True, "json", id="protobuf-first"),
    pytest.param("*/*", True, "json", id="anything"),
]


@pytest.mark.parametrize("accept, transform, kind", NEGOTIATE_CASES)
def test_negotiate(accept, transform, kind):
    assert negotiate(accept, transform).kind == kind


PARSE_BOOL_CASES = [
    pytest.param("watch=true", True, id="true"),
    pytest.param("watch=1", True, id="one"),
    pytest.param("watch", True, id="bare"),
    pytest.param("watch=0", False, id="zero"),
    pytest.param("watch=FALSE", False, id="false-any-case"),
    pytest.param("", None, id="absent"),
]


@pytest.mark.parametrize("query, want", PARSE_BOOL_CASES)
def test_parse_bool(query, want):
    """Port of Convert_Slice_string_To_bool's behaviour (runtime/conversion.go); cases are ours."""
    from urllib.parse import parse_qs

    from minikcm.apiserver.http.handlers import Request

    assert parse_bool(Request("GET", "/", parse_qs(query, keep_blank_values=True)), "watch") is want


# --- discovery through the handler -------------------------------------------------------------


def test_discovery_endpoints(handler):
    assert body_of(call(handler, "GET", "/version"))["gitVersion"] == "v1.32.4"
    assert body_of(call(handler, "GET", "/api"))["kind"] == "APIVersions"
    assert body_of(call(handler, "GET", "/apis"))["kind"] == "APIGroupList"
    assert body_of(call(handler, "GET", "/apis/apps"))["name"] == "apps"
    names = [r["name"] for r in body_of(call(handler, "GET", "/apis/apps/v1"))["resources"]]
    assert "deployments/scale" in names
    health = call(handler, "GET", "/healthz")
    assert (health.code, health.body) == (200, b"ok")
    assert call(handler, "GET", "/openapi/v2").code == 404


def test_aggregated_discovery_has_its_exact_content_type(handler):
    from .wire import AGGREGATED

    response = call(handler, "GET", "/apis", accept=AGGREGATED)
    assert response.content_type == "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    assert body_of(response)["kind"] == "APIGroupDiscoveryList"


# --- watch ------------------------------------------------------------------------------------


def test_watch_returns_a_stream_of_json_lines(handler, server):
    create(handler, PODS, pod("a"))
    stream = call(handler, "GET", PODS + "?watch=1&timeoutSeconds=30")
    assert isinstance(stream, WatchStream) and stream.timeout_seconds == 30
    first = stream.watcher.result_chan().recv(timeout=0)
    line = json.loads(stream.encode(first))
    assert (line["type"], line["object"]["metadata"]["name"]) == ("ADDED", "a")
    stream.watcher.stop()


def test_table_watch_sends_columns_only_first(handler):
    create(handler, PODS, pod("a"))
    create(handler, PODS, pod("b"))
    stream = call(handler, "GET", PODS + "?watch=true", accept=TABLE)
    chan = stream.watcher.result_chan()
    lines = [json.loads(stream.encode(chan.recv(timeout=0))) for _ in range(2)]
    stream.watcher.stop()
    assert [bool(line["object"]["columnDefinitions"]) for line in lines] == [True, False]
    assert [line["object"]["rows"][0]["cells"][0] for line in lines] == ["a", "b"]


def test_watch_error_and_bookmark_events_are_not_tables(handler):
    stream = call(handler, "GET", PODS + "?watch=true", accept=TABLE)
    bookmark = {"kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": "9"}}
    assert json.loads(stream.encode(watch.Event(watch.BOOKMARK, bookmark)))["object"] == bookmark
    stream.watcher.stop()


def test_legacy_watch_path_watches_one_object(handler, server):
    create(handler, PODS, pod("a"))
    create(handler, PODS, pod("b"))
    stream = call(handler, "GET", "/api/v1/watch/namespaces/default/pods/b")
    event = stream.watcher.result_chan().recv(timeout=0)
    assert event.object["metadata"]["name"] == "b"
    stream.watcher.stop()


def test_watch_from_a_too_new_version_reports_an_error_event(handler):
    stream = call(handler, "GET", PODS + "?watch=1&resourceVersion=999999")
    event = stream.watcher.result_chan().recv(timeout=0)
    assert event.type == "ERROR" and event.object["code"] == 504


def test_events_and_leases_round_trip(handler):
    create(handler, "/api/v1/namespaces/default/events", event("e1", "Deployment", "web"))
    create(handler, "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases", lease())
    events = body_of(call(handler, "GET", "/api/v1/namespaces/default/events", accept=TABLE))
    leases = body_of(call(handler, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                          accept=TABLE))
    assert events["rows"][0]["cells"][1:4] == ["Normal", "Created", "deployment/web"]
    assert leases["rows"][0]["cells"][:2] == ["kcm", "a"]


def test_response_objects_are_plain(handler):
    response = call(handler, "GET", "/version")
    assert isinstance(response, Response) and response.content_type == "application/json"


DRY_RUN_WRITE_CASES = [
    pytest.param("PUT", "", None, id="update"),
    pytest.param("PATCH", "", "application/merge-patch+json", id="merge-patch"),
    pytest.param("PATCH", "/scale", "application/merge-patch+json", id="scale-patch"),
]


@pytest.mark.parametrize("method, sub, content_type", DRY_RUN_WRITE_CASES)
def test_dry_run_writes_change_nothing(handler, server, method, sub, content_type):
    created = create(handler, DEPLOYMENTS, deployment("web", replicas=2))
    body = {"spec": {"replicas": 7}}
    if method == "PUT":
        body = dict(created, spec=dict(created["spec"], replicas=7))
    response = call(handler, method, f"{DEPLOYMENTS}/web{sub}?dryRun=All", body,
                    content_type=content_type or "application/json")
    assert response.code == 200, response.body
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == 2


def test_unknown_dry_run_value_is_422(handler):
    response = call(handler, "POST", DEPLOYMENTS + "?dryRun=Some", deployment("web"))
    assert response.code == 422 and 'supported values: "All"' in body_of(response)["message"]


def test_watch_on_an_object_path_watches_that_object(handler):
    create(handler, PODS, pod("a"))
    create(handler, PODS, pod("b"))
    stream = call(handler, "GET", PODS + "/a?watch=true")
    chan = stream.watcher.result_chan()
    events = [chan.recv(timeout=0)]
    stream.watcher.stop()
    assert [e.object["metadata"]["name"] for e in events] == ["a"] and len(chan) == 0


BAD_QUERY_CASES = [
    pytest.param("labelSelector=a%3D%3D%3Db", 400, id="label-selector"),
    pytest.param("fieldSelector=spec.foo%3Dx", 400, id="unsupported-field-label"),
    pytest.param("resourceVersion=abc", 422, id="resource-version"),
    pytest.param("limit=x", 400, id="limit"),
    pytest.param("limit=-1", 400, id="negative-limit"),
    pytest.param("watch=1&timeoutSeconds=soon", 400, id="timeout-seconds"),
    pytest.param("limit=1&continue=garbage", 400, id="continue-token"),
    pytest.param("includeObject=Everything", 400, id="include-object"),
]


@pytest.mark.parametrize("query, code", BAD_QUERY_CASES)
def test_bad_query_parameters_are_statuses(handler, query, code):
    response = call(handler, "GET", f"{PODS}?{query}", accept=TABLE)
    assert response.code == code and body_of(response)["kind"] == "Status"


# --- watch-list and ListOptions over HTTP ------------------------------------------------------


def test_watch_list_over_http(handler, server):
    create(handler, PODS, pod("a"))
    rv = str(server.storage.resource_version)
    stream = call(handler, "GET", PODS + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                  "&allowWatchBookmarks=true&timeoutSeconds=30")
    assert isinstance(stream, WatchStream)
    chan = stream.watcher.result_chan()
    lines = [json.loads(stream.encode(chan.recv(timeout=0))) for _ in range(2)]
    stream.watcher.stop()
    assert [(e["type"], e["object"]["metadata"].get("name")) for e in lines] == [("ADDED", "a"), ("BOOKMARK", None)]
    assert lines[1]["object"]["metadata"] == {"resourceVersion": rv,
                                              "annotations": {"k8s.io/initial-events-end": "true"}}


def test_watch_with_send_initial_events_false_starts_now(handler):
    create(handler, PODS, pod("a"))
    stream = call(handler, "GET", PODS + "?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan")
    assert isinstance(stream, WatchStream)
    assert len(stream.watcher.result_chan()) == 0
    create(handler, PODS, pod("b"))
    assert stream.watcher.result_chan().recv(timeout=0).object["metadata"]["name"] == "b"
    stream.watcher.stop()


LIST_OPTIONS_422_CASES = [
    pytest.param("?sendInitialEvents=true", "sendInitialEvents",
                 "Forbidden: sendInitialEvents is forbidden for list", id="list-send-initial-events"),
    pytest.param("?resourceVersionMatch=Exact", "resourceVersionMatch",
                 "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
                 id="list-match-without-version"),
    pytest.param("?resourceVersion=0&resourceVersionMatch=Exact", "resourceVersionMatch",
                 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
                 id="list-exact-zero"),
    pytest.param("?watch=1&sendInitialEvents=true", "resourceVersionMatch",
                 "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                 id="watch-send-initial-events-alone"),
    pytest.param("?watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan", "resourceVersionMatch",
                 "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                 id="watch-match-alone"),
]


@pytest.mark.parametrize("query, field, message", LIST_OPTIONS_422_CASES)
def test_bad_list_options_are_422_on_list_options(handler, server, query, field, message):
    response = call(handler, "GET", PODS + query)
    assert isinstance(response, Response) and response.code == 422
    status = body_of(response)
    assert status["details"]["group"] == "meta.k8s.io" and status["details"]["kind"] == "ListOptions"
    assert status["details"]["causes"][0] == {"reason": status["details"]["causes"][0]["reason"],
                                              "message": message, "field": field}
    assert server.storage.watchers_locked() == []


def test_watch_without_timeout_ends_between_30_and_60_minutes(server):
    import random

    from minikcm.apiserver.http.handlers import RESTHandler

    handler = RESTHandler(server, rng=random.Random(3))
    timeouts = []
    for _ in range(20):
        stream = call(handler, "GET", PODS + "?watch=1")
        timeouts.append(stream.timeout_seconds)
        assert stream.watcher.deadline is not None  # the server-side watch ends by itself too
        stream.watcher.stop()
    assert all(1800 <= t < 3600 for t in timeouts) and len(set(timeouts)) == 20
    again = RESTHandler(server, rng=random.Random(3))
    assert call(again, "GET", PODS + "?watch=1").timeout_seconds == timeouts[0]  # seeded: repeatable
    assert call(handler, "GET", PODS + "?watch=1&timeoutSeconds=7").timeout_seconds == 7
    assert RESTHandler(server, min_request_timeout=0).watch_timeout(None) is None
