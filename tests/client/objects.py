"""Object builders shared by the clientset tests."""

from __future__ import annotations

from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1LabelSelector,
    V1ObjectMeta,
    V1Pod,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1StatefulSet,
    V1StatefulSetSpec,
)


def pod_template(app: str) -> V1PodTemplateSpec:
    return V1PodTemplateSpec(metadata=V1ObjectMeta(labels={"app": app}),
                             spec=V1PodSpec(containers=[V1Container(name="web", image="nginx")]))


def new_deployment(name: str, replicas: int = 1, namespace: str = "default") -> V1Deployment:
    return V1Deployment(metadata=V1ObjectMeta(name=name, namespace=namespace, labels={"app": name}),
                        spec=V1DeploymentSpec(replicas=replicas, template=pod_template(name),
                                              selector=V1LabelSelector(match_labels={"app": name})))


def new_replica_set(name: str, replicas: int = 1, namespace: str = "default") -> V1ReplicaSet:
    return V1ReplicaSet(metadata=V1ObjectMeta(name=name, namespace=namespace, labels={"app": name}),
                        spec=V1ReplicaSetSpec(replicas=replicas, template=pod_template(name),
                                              selector=V1LabelSelector(match_labels={"app": name})))


def new_stateful_set(name: str, replicas: int = 1, namespace: str = "default") -> V1StatefulSet:
    return V1StatefulSet(metadata=V1ObjectMeta(name=name, namespace=namespace, labels={"app": name}),
                         spec=V1StatefulSetSpec(replicas=replicas, template=pod_template(name),
                                                service_name=name,
                                                selector=V1LabelSelector(match_labels={"app": name})))


def new_pod(name: str, namespace: str = "default", labels: dict[str, str] | None = None) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, labels=labels),
                 spec=V1PodSpec(containers=[V1Container(name="web", image="nginx")]))
