"""The official `kubernetes` Python client (37) against the HTTPS front, built from the generated kubeconfig."""

from __future__ import annotations

import threading

import pytest
from kubernetes import client, config, watch

pytestmark = pytest.mark.threaded


@pytest.fixture
def api_client(front):
    c = config.new_client_from_config(config_file=str(front.kubeconfig_path))
    yield c
    c.close()


def new_deployment(name: str, replicas: int = 1) -> client.V1Deployment:
    labels = {"app": name}
    return client.V1Deployment(
        metadata=client.V1ObjectMeta(name=name, labels=labels),
        spec=client.V1DeploymentSpec(
            replicas=replicas, selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx:1.27")]))))


def test_crud(api_client):
    apps = client.AppsV1Api(api_client)
    created = apps.create_namespaced_deployment("default", new_deployment("web"))
    assert created.metadata.uid and created.spec.template.spec.restart_policy == "Always"
    got = apps.read_namespaced_deployment("web", "default")
    got.spec.replicas = 3
    replaced = apps.replace_namespaced_deployment("web", "default", got)
    assert replaced.spec.replicas == 3 and replaced.metadata.generation == 2
    assert [d.metadata.name for d in apps.list_namespaced_deployment("default").items] == ["web"]
    apps.delete_namespaced_deployment("web", "default", body=client.V1DeleteOptions(propagation_policy="Background"))
    with pytest.raises(client.ApiException) as caught:
        apps.read_namespaced_deployment("web", "default")
    assert caught.value.status == 404 and '"reason":"NotFound"' in caught.value.body


def test_conflict_and_already_exists_are_api_exceptions(api_client):
    apps = client.AppsV1Api(api_client)
    first = apps.create_namespaced_deployment("default", new_deployment("web"))
    with pytest.raises(client.ApiException) as exists:
        apps.create_namespaced_deployment("default", new_deployment("web"))
    apps.patch_namespaced_deployment("web", "default", {"spec": {"replicas": 2}})
    with pytest.raises(client.ApiException) as conflict:
        apps.replace_namespaced_deployment("web", "default", first)  # stale resourceVersion
    assert (exists.value.status, conflict.value.status) == (409, 409)


def test_patches(api_client):
    apps = client.AppsV1Api(api_client)
    apps.create_namespaced_deployment("default", new_deployment("web"))
    strategic = apps.patch_namespaced_deployment("web", "default", {"spec": {"replicas": 3}})
    scale = apps.patch_namespaced_deployment_scale("web", "default", {"spec": {"replicas": 4}})
    json_patch = apps.patch_namespaced_deployment(
        "web", "default", [{"op": "replace", "path": "/spec/replicas", "value": 5}])
    merge = apps.patch_namespaced_deployment(
        "web", "default", {"metadata": {"labels": {"tier": "front"}}}, _content_type="application/merge-patch+json")
    assert (strategic.spec.replicas, scale.spec.replicas, json_patch.spec.replicas) == (3, 4, 5)
    assert merge.metadata.labels == {"app": "web", "tier": "front"}


def test_core_resources(api_client):
    core = client.CoreV1Api(api_client)
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="team")))
    pod = client.V1Pod(metadata=client.V1ObjectMeta(name="p", labels={"app": "x"}),
                       spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")]))
    core.create_namespaced_pod("team", pod)
    listed = core.list_namespaced_pod("team", label_selector="app=x")
    assert [p.metadata.name for p in listed.items] == ["p"]
    assert "team" in [ns.metadata.name for ns in core.list_namespace().items]


def test_watch_streams_changes_from_a_resource_version(api_client):
    apps = client.AppsV1Api(api_client)
    apps.create_namespaced_deployment("default", new_deployment("web"))
    rv = apps.list_namespaced_deployment("default").metadata.resource_version
    seen: list[tuple[str, int]] = []
    w = watch.Watch()
    ready = threading.Event()

    def consume() -> None:
        ready.set()
        for event in w.stream(apps.list_namespaced_deployment, "default", resource_version=rv, timeout_seconds=5):
            seen.append((event["type"], event["object"].spec.replicas))
            if len(seen) == 2:
                w.stop()

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    ready.wait(5)
    apps.patch_namespaced_deployment("web", "default", {"spec": {"replicas": 4}})
    apps.delete_namespaced_deployment("web", "default")
    consumer.join(10)
    assert seen == [("MODIFIED", 4), ("DELETED", 4)]


def test_watch_without_resource_version_replays_existing_objects(api_client):
    core = client.CoreV1Api(api_client)
    events = list(watch.Watch().stream(core.list_namespace, timeout_seconds=1))
    assert [e["type"] for e in events] == ["ADDED"] * 4
    assert sorted(e["object"].metadata.name for e in events) == [
        "default", "kube-node-lease", "kube-public", "kube-system"]


def test_leases(api_client):
    coordination = client.CoordinationV1Api(api_client)
    lease = client.V1Lease(metadata=client.V1ObjectMeta(name="kcm"),
                           spec=client.V1LeaseSpec(holder_identity="me", lease_duration_seconds=15))
    coordination.create_namespaced_lease("kube-system", lease)
    got = coordination.read_namespaced_lease("kcm", "kube-system")
    assert got.spec.holder_identity == "me"
