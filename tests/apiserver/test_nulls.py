"""Tests for minikcm.apiserver.nulls: null list elements and map values, as Go decoding reads them.

Every write path of the in-process server (create, update, patch, seeding) and
the in-process clientset must refuse an object whose null element decodes to
an invalid zero value with 422 naming that element, and store nothing; nulls
whose zero value is valid are stored as that zero value.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from minikcm.apimachinery import errors, types
from minikcm.apimachinery.convert import to_wire
from minikcm.apiserver.http.schemas import FieldType
from minikcm.apiserver.nulls import zero_null_items, zero_of
from minikcm.client.inprocess import InProcessClientset

from .builders import deployment, pod, stateful_set


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A mutation writing `value` at a dotted path (`[n]` steps into a list); returns the object."""
    def mutate(obj: dict[str, Any]) -> dict[str, Any]:
        target: Any = obj
        parts = path.replace("[", ".[").split(".")
        for part in parts[:-1]:
            target = target[int(part[1:-1])] if part.startswith("[") else target.setdefault(part, {})
        last = parts[-1]
        if last.startswith("["):
            target[int(last[1:-1])] = value
        else:
            target[last] = value
        return obj
    return mutate


POD_CTR = "spec.containers[0]"
TPL_CTR = "spec.template.spec.containers[0]"

REFUSED = [
    pytest.param("pods", pod, _set("spec.containers", [None]), "spec.containers[0].name",
                 id="pod-containers"),
    pytest.param("pods", pod, _set("spec.containers", [{"name": "a", "image": "x"}, None]),
                 "spec.containers[1].name", id="pod-second-container"),
    pytest.param("pods", pod, _set("spec.initContainers", [None]), "spec.initContainers[0].name",
                 id="pod-init-containers"),
    pytest.param("pods", pod, _set("spec.volumes", [None]), "spec.volumes[0].name", id="pod-volumes"),
    pytest.param("pods", pod, _set(f"{POD_CTR}.env", [None]), f"{POD_CTR}.env[0].name", id="pod-env"),
    pytest.param("pods", pod, _set(f"{POD_CTR}.ports", [None]), f"{POD_CTR}.ports[0].containerPort",
                 id="pod-ports"),
    pytest.param("pods", pod, _set(f"{POD_CTR}.volumeMounts", [None]),
                 f"{POD_CTR}.volumeMounts[0].name", id="pod-volume-mounts"),
    # Upstream's ValidateOwnerReferences and ValidateFinalizers name the list, not the element.
    pytest.param("pods", pod, _set("metadata.ownerReferences", [None]),
                 "metadata.ownerReferences.apiVersion", id="pod-owner-references"),
    pytest.param("pods", pod, _set("metadata.finalizers", [None]), "metadata.finalizers",
                 id="pod-finalizers"),
    pytest.param("deployments", deployment, _set("spec.template.spec.containers", [None]),
                 f"{TPL_CTR}.name", id="deployment-template-containers"),
    pytest.param("deployments", deployment, _set(f"{TPL_CTR}.env", [None]), f"{TPL_CTR}.env[0].name",
                 id="deployment-template-env"),
    pytest.param("deployments", deployment, _set("spec.template.spec.volumes", [None]),
                 "spec.template.spec.volumes[0].name", id="deployment-template-volumes"),
    pytest.param("deployments", deployment, _set("spec.selector.matchExpressions", [None]),
                 "spec.selector.matchExpressions[0].operator", id="deployment-match-expressions"),
    pytest.param("deployments", deployment, _set("metadata.ownerReferences", [None]),
                 "metadata.ownerReferences.apiVersion", id="deployment-owner-references"),
    # A StatefulSet's pod template is checked for labels only (apps_validation), so its
    # null elements are tried where validation looks.
    pytest.param("statefulsets", stateful_set, _set("spec.selector.matchExpressions", [None]),
                 "spec.selector.matchExpressions[0].operator", id="statefulset-match-expressions"),
    pytest.param("statefulsets", stateful_set, _set("metadata.ownerReferences", [None, None]),
                 "metadata.ownerReferences.uid", id="statefulset-owner-references"),
    pytest.param("replicasets", deployment, _set(f"{TPL_CTR}.volumeMounts", [None]),
                 f"{TPL_CTR}.volumeMounts[0].name", id="replicaset-template-volume-mounts"),
]


def _build(resource: str, build: Callable[[], dict[str, Any]],
           mutate: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    obj = build()
    if resource == "replicasets":
        obj["kind"] = "ReplicaSet"
    mutate(obj)
    return obj


def _fields(err: errors.StatusError) -> list[str]:
    return [c.get("field") for c in (err.err_status.get("details") or {}).get("causes") or []]


def _assert_refused(info: pytest.ExceptionInfo[errors.StatusError], want_field: str) -> None:
    assert info.value.code == 422, info.value.err_status
    assert want_field in _fields(info.value), _fields(info.value)


@pytest.mark.parametrize("resource, build, mutate, want_field", REFUSED)
def test_create_refuses_null_elements_with_422(server, resource, build, mutate, want_field):
    before = server.storage.resource_version
    with pytest.raises(errors.StatusError) as info:
        server.create(resource, "default", _build(resource, build, mutate))
    _assert_refused(info, want_field)
    assert server.storage.resource_version == before
    assert server.list(resource, "default")["items"] == []


UPDATABLE = [row for row in REFUSED if not (row.values[0] == "pods" and row.values[3].startswith("spec."))]
"""REFUSED without the rows in a pod's spec: it is immutable, so such an update fails on that first."""


@pytest.mark.parametrize("resource, build, mutate, want_field", UPDATABLE)
def test_update_refuses_null_elements_and_keeps_the_stored_object(server, resource, build, mutate,
                                                                  want_field):
    stored = server.create(resource, "default", _build(resource, build, lambda o: None))
    obj = copy.deepcopy(stored)
    mutate(obj)
    before = server.storage.resource_version
    with pytest.raises(errors.StatusError) as info:
        server.update(resource, "default", obj)
    _assert_refused(info, want_field)
    assert server.storage.resource_version == before
    assert server.get(resource, "default", stored["metadata"]["name"]) == stored


@pytest.mark.parametrize("resource, build, mutate, want_field", REFUSED)
def test_seeding_refuses_null_elements(server, resource, build, mutate, want_field):
    with pytest.raises(errors.StatusError) as info:
        server.add_object(_build(resource, build, mutate))
    _assert_refused(info, want_field)
    assert server.list(resource, "default")["items"] == []


PATCHES = [
    pytest.param(types.MERGE_PATCH_TYPE,
                 {"spec": {"template": {"spec": {"containers": [None]}}}}, f"{TPL_CTR}.name",
                 id="merge-patch-containers"),
    pytest.param(types.MERGE_PATCH_TYPE,
                 {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "x",
                                                                 "env": [None]}]}}}},
                 f"{TPL_CTR}.env[0].name", id="merge-patch-env"),
    pytest.param(types.JSON_PATCH_TYPE,
                 [{"op": "add", "path": "/spec/template/spec/containers/-", "value": None}],
                 "spec.template.spec.containers[1].name", id="json-patch-append-null"),
    pytest.param(types.JSON_PATCH_TYPE,
                 [{"op": "add", "path": "/spec/template/spec/volumes", "value": [None]}],
                 "spec.template.spec.volumes[0].name", id="json-patch-volumes"),
    pytest.param(types.JSON_PATCH_TYPE,
                 [{"op": "add", "path": "/metadata/ownerReferences", "value": [None]}],
                 "metadata.ownerReferences.apiVersion", id="json-patch-owner-references"),
]


@pytest.mark.parametrize("patch_type, body, want_field", PATCHES)
def test_patch_refuses_null_elements_and_keeps_the_stored_object(server, patch_type, body, want_field):
    stored = server.create("deployments", "default", deployment())
    before = server.storage.resource_version
    with pytest.raises(errors.StatusError) as info:
        server.patch("deployments", "default", "web", patch_type, body)
    _assert_refused(info, want_field)
    assert server.storage.resource_version == before
    assert server.get("deployments", "default", "web") == stored


ZEROED = [
    pytest.param("pods", pod, _set(f"{POD_CTR}.command", [None, "sh"]), f"{POD_CTR}.command",
                 ["", "sh"], id="string-list-element"),
    pytest.param("pods", pod, _set(f"{POD_CTR}.args", [None]), f"{POD_CTR}.args", [""],
                 id="string-list-only-element"),
    pytest.param("pods", pod, _set("metadata.labels", {"a": None}), "metadata.labels", {"a": ""},
                 id="label-map-value"),
    pytest.param("deployments", deployment, _set("metadata.annotations", {"note": None}),
                 "metadata.annotations", {"note": ""}, id="annotation-map-value"),
    pytest.param("pods", pod, _set(f"{POD_CTR}.resources", {"limits": {"cpu": None}}),
                 f"{POD_CTR}.resources.limits", {"cpu": "0"}, id="quantity-map-value"),
]


def _get(obj: Any, path: str) -> Any:
    for part in path.replace("[", ".[").split("."):
        obj = obj[int(part[1:-1])] if part.startswith("[") else obj[part]
    return obj


@pytest.mark.parametrize("resource, build, mutate, path, want", ZEROED)
def test_nulls_with_a_valid_zero_value_are_stored_as_it(server, resource, build, mutate, path, want):
    created = server.create(resource, "default", _build(resource, build, mutate))
    assert _get(created, path) == want
    assert _get(server.get(resource, "default", created["metadata"]["name"]), path) == want


def test_the_callers_object_is_not_changed(server):
    obj = pod()
    obj["spec"]["containers"][0]["args"] = [None]
    server.create("pods", "default", obj)
    assert obj["spec"]["containers"][0]["args"] == [None]


# -- the in-process clientset ------------------------------------------------------------------


def _name(obj: Any) -> str:
    return obj.metadata.name


CLIENT_CASES = [
    # The client's pydantic models refuse None elements themselves, so the nulls come as wire dicts.
    pytest.param(lambda cs: cs.core_v1().pods("default").create(
        {"metadata": {"name": "p"}, "spec": {"containers": [None]}}),
        "spec.containers[0].name", id="pod-create"),
    pytest.param(lambda cs: cs.apps_v1().deployments("default").create(
        _set(f"{TPL_CTR}.env", [None])(deployment())),
        f"{TPL_CTR}.env[0].name", id="deployment-create-env"),
    pytest.param(lambda cs: cs.apps_v1().deployments("default").update(
        _set("spec.template.spec.volumes", [None])(to_wire(cs.apps_v1().deployments("default").create(
            deployment())))),
        "spec.template.spec.volumes[0].name", id="deployment-update-volumes"),
    pytest.param(lambda cs: cs.apps_v1().deployments("default").patch(
        _name(cs.apps_v1().deployments("default").create(deployment())), types.MERGE_PATCH_TYPE,
        {"metadata": {"ownerReferences": [None]}}),
        "metadata.ownerReferences.apiVersion", id="deployment-merge-patch"),
]


@pytest.mark.parametrize("call, want_field", CLIENT_CASES)
def test_in_process_clientset_gets_422(server, call, want_field):
    with pytest.raises(errors.StatusError) as info:
        call(InProcessClientset(server))
    _assert_refused(info, want_field)


# -- the helper on its own ---------------------------------------------------------------------


@pytest.mark.parametrize("ftype, want", [
    pytest.param(FieldType("model", model="V1Container"), {}, id="struct"),
    pytest.param(FieldType("string"), "", id="string"),
    pytest.param(FieldType("integer"), 0, id="integer"),
    pytest.param(FieldType("boolean"), False, id="boolean"),
    pytest.param(FieldType("quantity"), "0", id="quantity"),
    pytest.param(FieldType("int-or-string"), 0, id="int-or-string"),
    pytest.param(FieldType("datetime"), None, id="datetime"),
    pytest.param(FieldType("any"), None, id="free-form"),
    pytest.param(FieldType("list", item=FieldType("string")), None, id="nested-list"),
])
def test_zero_of(ftype, want):
    assert zero_of(ftype) == want


def test_zero_null_items_visits_every_depth_and_leaves_unknown_fields():
    obj = {"spec": {"containers": [{"name": "a", "env": [None], "ports": [None]}, None],
                    "tolerations": [None], "unknown": [None], "volumes": None,
                    "nodeSelector": {"k": None}}}
    zero_null_items(obj, "V1Pod")
    assert obj == {"spec": {"containers": [{"name": "a", "env": [{}], "ports": [{}]}, {}],
                            "tolerations": [{}], "unknown": [None], "volumes": None,
                            "nodeSelector": {"k": ""}}}
