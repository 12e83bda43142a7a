"""Tests for minikcm.client.fake.clientset_generated: new_simple_clientset."""

from __future__ import annotations

from kubernetes.client import (
    V1Container,
    V1LabelSelector,
    V1ObjectMeta,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
)

from minikcm.client.fake import new_simple_clientset
from minikcm.client.inprocess import InProcessClientset
from minikcm.client.testing import Fake


def new_rs(name: str, replicas: int = 1, namespace: str = "default") -> V1ReplicaSet:
    template = V1PodTemplateSpec(metadata=V1ObjectMeta(labels={"app": name}),
                                 spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))
    return V1ReplicaSet(metadata=V1ObjectMeta(name=name, namespace=namespace),
                        spec=V1ReplicaSetSpec(replicas=replicas, template=template,
                                              selector=V1LabelSelector(match_labels={"app": name})))


def test_new_simple_clientset_seeds_objects_without_actions():
    rs = new_rs("web", 2, namespace="team-a")  # a namespace that does not exist yet
    rs.status = V1ReplicaSetStatus(replicas=2, ready_replicas=1)
    cs = new_simple_clientset(rs)
    got = cs.apps_v1().replica_sets("team-a").get("web")
    assert isinstance(got, V1ReplicaSet)
    assert got.spec.replicas == 2
    assert got.status.ready_replicas == 1  # seeded status is kept, as the tracker keeps it
    assert got.metadata.resource_version
    assert [str(a) for a in cs.fake.actions()] == ["get replicasets team-a/web"]


def test_new_simple_clientset_is_repeatable_and_seeds_namespaces_and_dicts():
    from kubernetes.client import V1Namespace

    def seeded():
        return new_simple_clientset(
            V1Namespace(metadata=V1ObjectMeta(name="default")),  # exists already: left alone
            V1Namespace(metadata=V1ObjectMeta(name="team-b", labels={"t": "b"})),
            {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
             "metadata": {"name": "lock", "namespace": "team-b"}},
            new_rs("web", namespace=None),  # no namespace: goes to "default"
        )

    one, two = seeded(), seeded()
    assert one.core_v1().namespaces().get("team-b").metadata.labels["t"] == "b"
    assert one.coordination_v1().leases("team-b").get("lock").metadata.name == "lock"
    uid = one.apps_v1().replica_sets("default").get("web").metadata.uid
    assert uid == two.apps_v1().replica_sets("default").get("web").metadata.uid


def test_added_reactor_still_runs_before_the_server():
    """Differs from Go on purpose: add_reactor on a simple clientset is not shadowed by the store."""
    cs = new_simple_clientset(new_rs("web"))
    cs.fake.add_reactor("get", "replicasets", lambda a: (True, new_rs("from-reactor"), None))
    assert cs.apps_v1().replica_sets("default").get("web").metadata.name == "from-reactor"


def test_simple_clientset_is_in_process_with_a_fake():
    cs = new_simple_clientset()
    assert isinstance(cs, InProcessClientset) and isinstance(cs.fake, Fake)
    assert cs.fake is not new_simple_clientset().fake
