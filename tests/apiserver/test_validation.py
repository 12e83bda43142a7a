"""Tests for minikcm.apiserver.validation: one table row per rule, through the server's entry points.

Each row builds a valid, defaulted wire object, breaks one thing, and checks
the complete list of errors the server would report (field path and upstream
message). Rows whose id starts with "valid" check that nothing is reported.
The per-kind checks live in core_validation and apps_validation; their own
helpers are tested in test_core_validation.py and test_apps_validation.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from minikcm.apiserver.defaults import default_object
from minikcm.apiserver.validation import validate_object, validate_object_update, validate_status_update

DELETE = object()  # marks a key to remove

SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
DNS1035_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
    "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
NAME_PART_MSG = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
PERCENT_MSG = (
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used "
    "for validation is '[0-9]+%')"
)
ENV_MSG = (
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must "
    "not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation "
    "is '[-._a-zA-Z][-._a-zA-Z0-9]*')"
)
NONNEG = "must be greater than or equal to 0"
MISMATCH = '`selector` does not match template `labels`'
POD_UPDATE_MSG = (
    "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing "
    "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
)
STS_UPDATE_MSG = (
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
    "'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are "
    "forbidden"
)


def set_path(obj: dict, path: str, value: Any) -> None:
    """Set (or with DELETE remove) a dotted path; numeric parts index lists."""
    parts = path.split(".")
    target: Any = obj
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target.setdefault(part, {})
    last = parts[-1]
    if isinstance(target, list):
        target[int(last)] = value
    elif value is DELETE:
        target.pop(last, None)
    else:
        target[last] = value


def with_changes(obj: dict, changes: dict[str, Any]) -> dict:
    out = copy.deepcopy(obj)
    for path, value in changes.items():
        set_path(out, path, value)
    return out


def template(**spec: Any) -> dict:
    return {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}], **spec}}


def build(resource: str, obj: dict) -> dict:
    default_object(resource, obj)
    return obj


def meta(name: str = "web", namespace: str | None = "default") -> dict:
    m = {"name": name}
    if namespace is not None:
        m["namespace"] = namespace
    return m


OBJECTS = {
    "deployments": lambda: build("deployments", {"metadata": meta(), "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template()}}),
    "replicasets": lambda: build("replicasets", {"metadata": meta(), "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template()}}),
    "statefulsets": lambda: build("statefulsets", {"metadata": meta(), "spec": {"serviceName": "web", "selector": {"matchLabels": {"app": "web"}}, "template": template()}}),
    "controllerrevisions": lambda: {"metadata": meta("web-1"), "data": {"spec": {}}, "revision": 1},
    "pods": lambda: build("pods", {"metadata": meta(), "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}),
    "persistentvolumeclaims": lambda: build("persistentvolumeclaims", {"metadata": meta("data"), "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    "services": lambda: build("services", {"metadata": meta(), "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]}}),
    "namespaces": lambda: build("namespaces", {"metadata": meta("team-a", None)}),
    "events": lambda: {"metadata": meta("web.1"), "involvedObject": {"kind": "Pod", "name": "web", "namespace": "default"}, "reason": "Started"},
    "leases": lambda: {"metadata": meta("kube-controller-manager", "kube-system"), "spec": {"holderIdentity": "a", "leaseDurationSeconds": 15}},
}

T = "spec.template.spec"
C0 = f"{T}.containers.0"

# fmt: off
CREATE_CASES = [
    # --- metadata (ValidateObjectMeta) ---
    *[pytest.param(r, {}, [], id=f"valid-{r}") for r in sorted(OBJECTS)],
    pytest.param("deployments", {"metadata.name": DELETE}, ["metadata.name: Required value: name or generateName is required"], id="name-required"),
    pytest.param("deployments", {"metadata.name": DELETE, "metadata.generateName": "web-"}, [], id="valid-generate-name-instead-of-name"),
    pytest.param("deployments", {"metadata.name": "Web_1"}, [f'metadata.name: Invalid value: "Web_1": {SUBDOMAIN_MSG}'], id="name-dns-subdomain"),
    pytest.param("deployments", {"metadata.generateName": "Web-"}, [f'metadata.generateName: Invalid value: "Web-": {SUBDOMAIN_MSG}'], id="generate-name-dns-subdomain"),
    pytest.param("deployments", {"metadata.namespace": DELETE}, ["metadata.namespace: Required value"], id="namespace-required"),
    pytest.param("deployments", {"metadata.namespace": "a.b"}, ['metadata.namespace: Invalid value: "a.b": must not contain dots'], id="namespace-dns-label"),
    pytest.param("deployments", {"metadata.labels": {"bad key": "x"}}, [f'metadata.labels: Invalid value: "bad key": {NAME_PART_MSG}'], id="label-key-qualified-name"),
    pytest.param("deployments", {"metadata.labels": {"k": "v" * 64}}, [f'metadata.labels: Invalid value: "{"v" * 64}": must be no more than 63 bytes'], id="label-value-63-bytes"),
    pytest.param("deployments", {"metadata.annotations": {"a/b/c": "x"}}, ["metadata.annotations: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"], id="annotation-key-qualified-name"),
    pytest.param("deployments", {"metadata.finalizers": ["foo"]}, ['metadata.finalizers: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified'], id="finalizer-kube-name"),
    pytest.param("deployments", {"metadata.finalizers": ["example.com/done", "orphan"]}, [], id="valid-finalizers"),
    pytest.param("deployments", {"metadata.ownerReferences": [{"apiVersion": "apps/v1", "kind": "X", "name": "x"}]}, ['metadata.ownerReferences.uid: Invalid value: "": must not be empty'], id="owner-reference-uid"),
    pytest.param("deployments", {"metadata.generation": -1}, [f"metadata.generation: Invalid value: -1: {NONNEG}"], id="generation-nonnegative"),
    pytest.param("namespaces", {"metadata.name": "team.a"}, ['metadata.name: Invalid value: "team.a": must not contain dots'], id="namespace-name-dns-label"),
    pytest.param("namespaces", {"metadata.namespace": "x"}, ["metadata.namespace: Forbidden: not allowed on this type"], id="cluster-scoped-namespace-forbidden"),
    pytest.param("services", {"metadata.name": "1web"}, [f'metadata.name: Invalid value: "1web": {DNS1035_MSG}'], id="service-name-dns1035"),
    pytest.param("statefulsets", {"metadata.name": "db.x"}, ['metadata.name: Invalid value: "db.x": must not contain dots'], id="statefulset-name-dns-label"),
    # --- Deployment spec (ValidateDeploymentSpec) ---
    pytest.param("deployments", {"spec.replicas": -1}, [f"spec.replicas: Invalid value: -1: {NONNEG}"], id="deployment-replicas-nonnegative"),
    pytest.param("deployments", {"spec.minReadySeconds": -1}, [f"spec.minReadySeconds: Invalid value: -1: {NONNEG}"], id="deployment-min-ready-nonnegative"),
    pytest.param("deployments", {"spec.revisionHistoryLimit": -1}, [f"spec.revisionHistoryLimit: Invalid value: -1: {NONNEG}"], id="deployment-revision-history-nonnegative"),
    pytest.param("deployments", {"spec.minReadySeconds": 10, "spec.progressDeadlineSeconds": 10}, ["spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds"], id="progress-deadline-above-min-ready"),
    pytest.param("deployments", {"spec.progressDeadlineSeconds": -1}, [f"spec.progressDeadlineSeconds: Invalid value: -1: {NONNEG}", "spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds"], id="progress-deadline-nonnegative"),
    pytest.param("deployments", {"spec.selector": DELETE}, ["spec.selector: Required value", f'spec.template.metadata.labels: Invalid value: {{"app":"web"}}: {MISMATCH}'], id="selector-required"),
    pytest.param("deployments", {"spec.selector": {}}, ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"], id="selector-empty"),
    pytest.param("deployments", {"spec.selector": {"matchLabels": {"app": "api"}}}, [f'spec.template.metadata.labels: Invalid value: {{"app":"web"}}: {MISMATCH}'], id="selector-matches-template"),
    pytest.param("deployments", {"spec.selector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]}}, [], id="valid-selector-expression"),
    pytest.param("deployments", {"spec.selector": {"matchExpressions": [{"key": "app", "operator": "Near"}]}}, ['spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator', 'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}: invalid label selector'], id="selector-operator"),
    pytest.param("deployments", {f"{T}.restartPolicy": "Never"}, [f'{T}.restartPolicy: Unsupported value: "Never": supported values: "Always"'], id="template-restart-policy-always"),
    pytest.param("deployments", {f"{T}.restartPolicy": "Sometimes"}, [f'{T}.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"', f'{T}.restartPolicy: Unsupported value: "Sometimes": supported values: "Always"'], id="template-restart-policy-known"),
    pytest.param("deployments", {f"{T}.activeDeadlineSeconds": 30}, [f"{T}.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"], id="template-active-deadline-forbidden"),
    pytest.param("deployments", {"spec.template.metadata.labels": {"app": "web", "bad key": "x"}}, [f'spec.template.labels: Invalid value: "bad key": {NAME_PART_MSG}'], id="template-labels-valid"),
    pytest.param("deployments", {f"{T}.dnsPolicy": "Nope"}, [f'{T}.dnsPolicy: Unsupported value: "Nope": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'], id="template-dns-policy"),
    # --- containers (validateContainers / validateContainerCommon) ---
    pytest.param("deployments", {f"{T}.containers": []}, [f"{T}.containers: Required value"], id="containers-required"),
    pytest.param("deployments", {f"{C0}.name": DELETE}, [f"{T}.containers[0].name: Required value"], id="container-name-required"),
    pytest.param("deployments", {f"{C0}.name": "Web"}, [f'{T}.containers[0].name: Invalid value: "Web": {LABEL_MSG}'], id="container-name-dns-label"),
    pytest.param("deployments", {f"{T}.containers": [{"name": "c", "image": "a", "imagePullPolicy": "Always", "terminationMessagePolicy": "File"}] * 2}, [f'{T}.containers[1].name: Duplicate value: "c"'], id="container-name-unique"),
    pytest.param("deployments", {f"{C0}.image": ""}, [f"{T}.containers[0].image: Required value"], id="container-image-required"),
    pytest.param("deployments", {f"{C0}.imagePullPolicy": "Sometimes"}, [f'{T}.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'], id="container-pull-policy"),
    pytest.param("deployments", {f"{C0}.terminationMessagePolicy": "Nope"}, [f'{T}.containers[0].terminationMessagePolicy: Unsupported value: "Nope": supported values: "File", "FallbackToLogsOnError"'], id="container-termination-message-policy"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 0, "protocol": "TCP"}]}, [f"{T}.containers[0].ports[0].containerPort: Required value"], id="container-port-required"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 70000, "protocol": "TCP"}]}, [f"{T}.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"], id="container-port-range"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 80, "hostPort": 70000, "protocol": "TCP"}]}, [f"{T}.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"], id="container-host-port-range"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 80, "protocol": "HTTP"}]}, [f'{T}.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'], id="container-port-protocol"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 80, "protocol": "TCP", "name": "web"}, {"containerPort": 81, "protocol": "TCP", "name": "web"}]}, [f'{T}.containers[0].ports[1].name: Duplicate value: "web"'], id="container-port-name-unique"),
    pytest.param("deployments", {f"{C0}.ports": [{"containerPort": 80, "protocol": "TCP", "name": "80"}]}, [f'{T}.containers[0].ports[0].name: Invalid value: "80": must contain at least one letter (a-z)'], id="container-port-name-iana"),
    pytest.param("deployments", {f"{C0}.env": [{"name": "1X", "value": "v"}]}, [f'{T}.containers[0].env[0].name: Invalid value: "1X": {ENV_MSG}'], id="container-env-name"),
    pytest.param("deployments", {f"{C0}.volumeMounts": [{"name": "data", "mountPath": "/data"}]}, [f'{T}.containers[0].volumeMounts[0].name: Not found: "data"'], id="container-volume-mount-known-volume"),
    pytest.param("deployments", {f"{T}.volumes": [{"name": "data", "emptyDir": {}}], f"{C0}.volumeMounts": [{"name": "data", "mountPath": "/d"}, {"name": "data", "mountPath": "/d"}]}, [f'{T}.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique'], id="container-mount-path-unique"),
    pytest.param("deployments", {f"{T}.volumes": [{"name": "v", "emptyDir": {}}, {"name": "v", "emptyDir": {}}]}, [f'{T}.volumes[1].name: Duplicate value: "v"'], id="volume-name-unique"),
    pytest.param("deployments", {f"{T}.volumes": [{"name": "v"}]}, [f"{T}.volumes[0]: Required value: must specify a volume type"], id="volume-source-required"),
    # --- strategy (ValidateDeploymentStrategy / ValidateRollingUpdateDeployment) ---
    pytest.param("deployments", {"spec.strategy": {"type": "Bogus"}}, ['spec.strategy: Unsupported value: {"type":"Bogus"}: supported values: "Recreate", "RollingUpdate"'], id="strategy-type"),
    pytest.param("deployments", {"spec.strategy.type": "Recreate"}, ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"], id="recreate-without-rolling-update"),
    pytest.param("deployments", {"spec.strategy": {"type": "Recreate"}}, [], id="valid-recreate"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate": DELETE}, ["spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil"], id="rolling-update-required"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate.maxSurge": "a%"}, [f'spec.strategy.rollingUpdate.maxSurge: Invalid value: "a%": {PERCENT_MSG}'], id="max-surge-percent"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate.maxUnavailable": "110%"}, ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%'], id="max-unavailable-at-most-100-percent"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate.maxSurge": "200%"}, [], id="valid-max-surge-above-100-percent"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate.maxSurge": -1}, [f"spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: {NONNEG}"], id="max-surge-nonnegative"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}, ["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"], id="surge-and-unavailable-not-both-zero"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate": {"maxSurge": "0%", "maxUnavailable": "0%"}}, ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0'], id="surge-and-unavailable-not-both-zero-percent"),
    pytest.param("deployments", {"spec.strategy.rollingUpdate.maxSurge": 1.5}, ["spec.strategy.rollingUpdate.maxSurge: Invalid value: 1.5: must be an integer or percentage (e.g '5%%')"], id="max-surge-int-or-percent"),
    # --- ReplicaSet (ValidateReplicaSetSpec) ---
    pytest.param("replicasets", {"spec.replicas": -2}, [f"spec.replicas: Invalid value: -2: {NONNEG}"], id="replicaset-replicas-nonnegative"),
    pytest.param("replicasets", {"spec.minReadySeconds": -1}, [f"spec.minReadySeconds: Invalid value: -1: {NONNEG}"], id="replicaset-min-ready-nonnegative"),
    pytest.param("replicasets", {"spec.selector": {}}, ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"], id="replicaset-selector-empty"),
    pytest.param("replicasets", {f"{T}.restartPolicy": "OnFailure"}, [f'{T}.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'], id="replicaset-restart-policy"),
    # --- StatefulSet (ValidateStatefulSetSpec) ---
    pytest.param("statefulsets", {"spec.podManagementPolicy": "Bogus"}, ['spec.podManagementPolicy: Invalid value: "Bogus": must be \'OrderedReady\' or \'Parallel\''], id="pod-management-policy"),
    pytest.param("statefulsets", {"spec.updateStrategy": {"type": "Bogus"}}, ['spec.updateStrategy: Invalid value: {"type":"Bogus"}: must be \'RollingUpdate\' or \'OnDelete\''], id="update-strategy-type"),
    pytest.param("statefulsets", {"spec.updateStrategy.type": "OnDelete"}, ['spec.updateStrategy.rollingUpdate: Invalid value: {"partition":0}: only allowed for updateStrategy \'RollingUpdate\''], id="on-delete-without-rolling-update"),
    pytest.param("statefulsets", {"spec.updateStrategy.rollingUpdate.partition": -1}, [f"spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: {NONNEG}"], id="partition-nonnegative"),
    pytest.param("statefulsets", {"spec.updateStrategy.rollingUpdate.maxUnavailable": 0}, ["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"], id="sts-max-unavailable-not-zero"),
    pytest.param("statefulsets", {"spec.updateStrategy.rollingUpdate.maxUnavailable": "120%"}, ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%'], id="sts-max-unavailable-at-most-100-percent"),
    pytest.param("statefulsets", {"spec.persistentVolumeClaimRetentionPolicy.whenDeleted": "Keep"}, ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'], id="pvc-retention-policy"),
    pytest.param("statefulsets", {"spec.replicas": -1}, [f"spec.replicas: Invalid value: -1: {NONNEG}"], id="sts-replicas-nonnegative"),
    pytest.param("statefulsets", {"spec.minReadySeconds": -1}, [f"spec.minReadySeconds: Invalid value: -1: {NONNEG}"], id="sts-min-ready-nonnegative"),
    pytest.param("statefulsets", {"spec.ordinals": {"start": -1}}, [f"spec.ordinals.start: Invalid value: -1: {NONNEG}"], id="sts-ordinals-start-nonnegative"),
    pytest.param("statefulsets", {"spec.selector": {}}, ["spec.selector: Invalid value: {}: empty selector is invalid for statefulset"], id="sts-selector-empty"),
    pytest.param("statefulsets", {"spec.selector": {"matchLabels": {"app": "db"}}}, [f'spec.template.metadata.labels: Invalid value: {{"app":"web"}}: {MISMATCH}'], id="sts-selector-matches-template"),
    pytest.param("statefulsets", {f"{T}.restartPolicy": "Never"}, [f'{T}.restartPolicy: Unsupported value: "Never": supported values: "Always"'], id="sts-restart-policy"),
    pytest.param("statefulsets", {f"{T}.activeDeadlineSeconds": 5}, [f"{T}.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported"], id="sts-active-deadline-forbidden"),
    pytest.param("statefulsets", {f"{T}.containers": [], "spec.serviceName": DELETE}, [], id="valid-sts-template-spec-not-validated-upstream"),
    pytest.param("statefulsets", {"spec.volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {}}]}, [], id="valid-sts-claim-templates-not-validated-upstream"),
    # --- ControllerRevision ---
    pytest.param("controllerrevisions", {"data": DELETE}, ["data: Required value: data is mandatory"], id="revision-data-required"),
    pytest.param("controllerrevisions", {"revision": -1}, [f"revision: Invalid value: -1: {NONNEG}"], id="revision-nonnegative"),
    # --- Pod ---
    pytest.param("pods", {"spec.containers": []}, ["spec.containers: Required value"], id="pod-containers-required"),
    pytest.param("pods", {"spec.containers.0.image": " nginx"}, ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'], id="pod-image-whitespace"),
    pytest.param("pods", {"spec.restartPolicy": "Never"}, [], id="valid-pod-restart-never"),
    pytest.param("pods", {"spec.activeDeadlineSeconds": 0}, ["spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"], id="pod-active-deadline-range"),
    pytest.param("pods", {"spec.ephemeralContainers": [{"name": "debug", "image": "busybox"}]}, ["spec.ephemeralContainers: Forbidden: cannot be set on create"], id="pod-ephemeral-containers-on-create"),
    pytest.param("pods", {"spec.nodeName": "n1", "spec.schedulingGates": [{"name": "g"}]}, ["spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"], id="pod-node-name-with-gates"),
    pytest.param("pods", {"spec.initContainers": [{"name": "c", "image": "busybox", "imagePullPolicy": "Always", "terminationMessagePolicy": "File"}]}, ['spec.initContainers[0].name: Duplicate value: "c"'], id="pod-init-container-name-unique"),
    pytest.param("pods", {"spec.nodeSelector": {"disk": "ssd!"}}, ["spec.nodeSelector: Invalid value: \"ssd!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"], id="pod-node-selector"),
    pytest.param("pods", {"spec.hostname": "Web"}, [f'spec.hostname: Invalid value: "Web": {LABEL_MSG}'], id="pod-hostname"),
    pytest.param("pods", {"spec.serviceAccountName": "Bad_SA"}, [f'spec.serviceAccountName: Invalid value: "Bad_SA": {SUBDOMAIN_MSG}'], id="pod-service-account-name"),
    pytest.param("pods", {"spec.template": DELETE, "spec.containers.0.ports": [{"containerPort": 80, "protocol": "TCP"}]}, [], id="valid-pod-with-port"),
    # --- PersistentVolumeClaim ---
    pytest.param("persistentvolumeclaims", {"spec.accessModes": []}, ["spec.accessModes: Required value: at least 1 access mode is required"], id="pvc-access-modes-required"),
    pytest.param("persistentvolumeclaims", {"spec.accessModes": ["ReadWriteSometimes"]}, ['spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'], id="pvc-access-mode-supported"),
    pytest.param("persistentvolumeclaims", {"spec.resources": {}}, ["spec.resources[storage]: Required value"], id="pvc-storage-request-required"),
    pytest.param("persistentvolumeclaims", {"spec.volumeMode": "Tape"}, ['spec.volumeMode: Unsupported value: "Tape": supported values: "Block", "Filesystem"'], id="pvc-volume-mode"),
    # --- Service ---
    pytest.param("services", {"spec.ports": []}, ["spec.ports: Required value"], id="service-ports-required"),
    pytest.param("services", {"spec.ports": [], "spec.clusterIP": "None"}, [], id="valid-headless-service-without-ports"),
    pytest.param("services", {"spec.ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}, {"port": 81, "protocol": "TCP", "targetPort": 81}]}, ["spec.ports[0].name: Required value", "spec.ports[1].name: Required value"], id="service-port-names-required-when-several"),
    pytest.param("services", {"spec.ports.0.port": 0}, ["spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"], id="service-port-range"),
    pytest.param("services", {"spec.ports.0.protocol": "HTTP"}, ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'], id="service-port-protocol"),
    pytest.param("services", {"spec.ports.0.targetPort": "http--x"}, ['spec.ports[0].targetPort: Invalid value: "http--x": must not contain consecutive hyphens'], id="service-target-port-name"),
    pytest.param("services", {"spec.ports": [{"port": 80, "protocol": "TCP", "targetPort": 80, "name": "a"}, {"port": 80, "protocol": "TCP", "targetPort": 81, "name": "b"}]}, ['spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}'], id="service-port-unique"),
    pytest.param("services", {"spec.type": "Magic"}, ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'], id="service-type"),
    pytest.param("services", {"spec.sessionAffinity": "Sticky"}, ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"'], id="service-session-affinity"),
    pytest.param("services", {"spec.type": "ExternalName", "spec.ports": []}, ["spec.externalName: Required value"], id="service-external-name-required"),
    pytest.param("services", {"spec.selector": {"app": "bad value"}}, ["spec.selector: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"], id="service-selector-labels"),
    # --- Namespace ---
    pytest.param("namespaces", {"spec.finalizers": ["custom"]}, ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified'], id="namespace-spec-finalizers"),
    pytest.param("namespaces", {"spec.finalizers": ["kubernetes"]}, [], id="valid-namespace-kubernetes-finalizer"),
    # --- Event (legacyValidateEvent) ---
    pytest.param("events", {"involvedObject.namespace": "other"}, ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'], id="event-involved-object-namespace"),
    pytest.param("events", {"involvedObject.namespace": DELETE}, [], id="valid-event-cluster-object-in-default"),
    pytest.param("events", {"involvedObject.namespace": DELETE, "metadata.namespace": "team-a"}, ['involvedObject.namespace: Invalid value: "": does not match event.namespace'], id="event-cluster-object-outside-default"),
    pytest.param("events", {"eventTime": "2026-01-01T00:00:00.000000Z"}, ["reportingController: Required value", 'reportingController: Invalid value: "": name part must be non-empty', f'reportingController: Invalid value: "": {NAME_PART_MSG}', "reportingInstance: Required value", "action: Required value"], id="event-series-style-needs-reporting-fields"),
    pytest.param("events", {"eventTime": "2026-01-01T00:00:00.000000Z", "reportingComponent": "kubelet", "reportingInstance": "node-1", "action": "Pulling"}, [], id="valid-event-series-style"),
    pytest.param("events", {"metadata.name": "Not_A_Name"}, [], id="valid-event-name-not-validated-for-core-v1"),
    # --- Lease ---
    pytest.param("leases", {"spec.leaseDurationSeconds": 0}, ["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"], id="lease-duration-positive"),
    pytest.param("leases", {"spec.leaseTransitions": -1}, ["spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"], id="lease-transitions-nonnegative"),
    pytest.param("leases", {"spec.preferredHolder": "b"}, ["spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"], id="lease-preferred-holder-needs-strategy"),
    pytest.param("leases", {"spec.strategy": "Random"}, ['spec.strategy: Unsupported value: "Random": supported values: "OldestEmulationVersion"'], id="lease-strategy"),
    pytest.param("leases", {"metadata.finalizers": ["custom"]}, [], id="valid-lease-uses-generic-object-meta"),
]
# fmt: on


@pytest.mark.parametrize("resource, changes, expected", CREATE_CASES)
def test_validate_object(resource, changes, expected):
    obj = with_changes(OBJECTS[resource](), changes)
    assert [str(e) for e in validate_object(resource, obj)] == expected


def stored(resource: str) -> dict:
    obj = OBJECTS[resource]()
    obj["metadata"].update({"resourceVersion": "7", "uid": "u-1", "generation": 1})
    return obj


# fmt: off
UPDATE_CASES = [
    *[pytest.param(r, {}, [], id=f"valid-unchanged-{r}") for r in sorted(OBJECTS)],
    pytest.param("deployments", {"metadata.resourceVersion": DELETE}, ['metadata.resourceVersion: Invalid value: "": must be specified for an update'], id="resource-version-required"),
    pytest.param("deployments", {"metadata.namespace": "other"}, ['metadata.namespace: Invalid value: "other": field is immutable'], id="namespace-immutable"),
    pytest.param("deployments", {"metadata.name": "web2"}, ['metadata.name: Invalid value: "web2": field is immutable'], id="name-immutable"),
    pytest.param("deployments", {"metadata.uid": "u-2"}, ['metadata.uid: Invalid value: "u-2": field is immutable'], id="uid-immutable"),
    pytest.param("deployments", {"metadata.generation": 0}, ["metadata.generation: Invalid value: 0: must not be decremented"], id="generation-not-decremented"),
    pytest.param("deployments", {"spec.replicas": 5, "spec.template.spec.containers.0.image": "nginx:1.28"}, [], id="valid-deployment-scale-and-new-image"),
    pytest.param("deployments", {"spec.selector": {"matchLabels": {"app": "web", "tier": "x"}}, "spec.template.metadata.labels": {"app": "web", "tier": "x"}}, ['spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable'], id="deployment-selector-immutable"),
    pytest.param("deployments", {"spec.replicas": -1}, [f"spec.replicas: Invalid value: -1: {NONNEG}"], id="deployment-update-validates-spec"),
    pytest.param("replicasets", {"spec.selector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]}}, ['spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Exists"}]}: field is immutable'], id="replicaset-selector-immutable"),
    pytest.param("statefulsets", {"spec.replicas": 3, "spec.minReadySeconds": 5, "spec.revisionHistoryLimit": 2, "spec.updateStrategy": {"type": "OnDelete"}, "spec.persistentVolumeClaimRetentionPolicy.whenScaled": "Delete", "spec.ordinals": {"start": 1}, "spec.template.spec.containers.0.image": "x:2"}, [], id="valid-sts-updatable-fields"),
    pytest.param("statefulsets", {"spec.serviceName": "other"}, [STS_UPDATE_MSG], id="sts-service-name-immutable"),
    pytest.param("statefulsets", {"spec.podManagementPolicy": "Parallel"}, [STS_UPDATE_MSG], id="sts-pod-management-policy-immutable"),
    pytest.param("statefulsets", {"spec.volumeClaimTemplates": [{"metadata": {"name": "data"}}]}, [STS_UPDATE_MSG], id="sts-volume-claim-templates-immutable"),
    pytest.param("statefulsets", {"spec.selector": {"matchLabels": {"app": "web", "x": "y"}}, "spec.template.metadata.labels": {"app": "web", "x": "y"}}, [STS_UPDATE_MSG], id="sts-selector-immutable"),
    pytest.param("controllerrevisions", {"data": {"spec": {"x": 1}}}, ['data: Invalid value: {"spec":{"x":1}}: field is immutable'], id="revision-data-immutable"),
    pytest.param("controllerrevisions", {"revision": 2}, [], id="valid-revision-number-may-change"),
    pytest.param("pods", {"spec.containers.0.image": "nginx:1.28", "metadata.labels": {"x": "y"}}, [], id="valid-pod-image-and-labels"),
    pytest.param("pods", {"spec.containers.0.env": [{"name": "A", "value": "1"}]}, [POD_UPDATE_MSG], id="pod-spec-mostly-immutable"),
    pytest.param("pods", {"spec.containers": [{"name": n, "image": "a", "imagePullPolicy": "Always", "terminationMessagePolicy": "File"} for n in "cd"]}, ["spec.containers: Forbidden: pod updates may not add or remove containers"], id="pod-containers-count-immutable"),
    pytest.param("pods", {"spec.containers.0.image": ""}, ["spec.containers[0].image: Required value", "spec.containers[0].image: Required value"], id="pod-update-image-required"),
    pytest.param("pods", {"spec.activeDeadlineSeconds": 30}, [], id="valid-pod-set-active-deadline"),
    pytest.param("pods", {"spec.tolerations": [{"key": "k", "operator": "Exists"}]}, [], id="valid-pod-add-toleration"),
    pytest.param("pods", {"spec.terminationGracePeriodSeconds": 60}, [POD_UPDATE_MSG], id="pod-grace-period-immutable"),
    pytest.param("persistentvolumeclaims", {"spec.resources.requests.storage": "2Gi"}, [], id="valid-pvc-resize"),
    pytest.param("persistentvolumeclaims", {"spec.storageClassName": "fast"}, ["spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"], id="pvc-spec-immutable"),
    pytest.param("persistentvolumeclaims", {"spec.volumeName": "pv-1"}, [], id="pvc-volume-name-set-once-while-empty"),
    pytest.param("services", {"spec.ports.0.port": 8080, "spec.ports.0.targetPort": 8080}, [], id="valid-service-ports-change"),
    pytest.param("namespaces", {"metadata.labels.team": "a"}, [], id="valid-namespace-labels"),
    pytest.param("leases", {"spec.holderIdentity": "b", "spec.leaseTransitions": 1}, [], id="valid-lease-takeover"),
    pytest.param("leases", {"spec.leaseDurationSeconds": -5}, ["spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"], id="lease-update-validates-spec"),
    pytest.param("events", {"count": 2}, [], id="valid-event-count"),
]
# fmt: on


@pytest.mark.parametrize("resource, changes, expected", UPDATE_CASES)
def test_validate_object_update(resource, changes, expected):
    old = stored(resource)
    new = with_changes(old, changes)
    assert [str(e) for e in validate_object_update(resource, new, old)] == expected


def test_pod_update_active_deadline_rules():
    old = with_changes(stored("pods"), {"spec.activeDeadlineSeconds": 30})
    raised = with_changes(old, {"spec.activeDeadlineSeconds": 60})
    cleared = with_changes(old, {"spec.activeDeadlineSeconds": DELETE})
    assert [str(e) for e in validate_object_update("pods", raised, old)] == [
        "spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value"
    ]
    assert [str(e) for e in validate_object_update("pods", cleared, old)] == [
        "spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value"
    ]


def test_pod_update_toleration_removal():
    old = with_changes(stored("pods"), {"spec.tolerations": [{"key": "k", "operator": "Exists", "tolerationSeconds": 5}]})
    longer = with_changes(old, {"spec.tolerations.0": {"key": "k", "operator": "Exists", "tolerationSeconds": 50}})
    removed = with_changes(old, {"spec.tolerations": []})
    assert validate_object_update("pods", longer, old) == []
    assert [str(e) for e in validate_object_update("pods", removed, old)] == [
        "spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"
    ]


def test_no_new_finalizers_while_deleting():
    old = with_changes(stored("deployments"), {"metadata.deletionTimestamp": "2026-01-01T00:00:00Z", "metadata.finalizers": ["a.io/x"]})
    new = with_changes(old, {"metadata.finalizers": ["a.io/x", "b.io/y"]})
    assert [str(e) for e in validate_object_update("deployments", new, old)] == [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y"}'
    ]


# fmt: off
STATUS_CASES = [
    pytest.param("deployments", {"status": {"replicas": 3, "updatedReplicas": 3, "readyReplicas": 2, "availableReplicas": 2, "observedGeneration": 1}}, [], id="valid-deployment-status"),
    pytest.param("deployments", {"status": {"replicas": -1, "updatedReplicas": -1, "readyReplicas": -1, "availableReplicas": -1}}, [f"status.{k}: Invalid value: -1: {NONNEG}" for k in ("replicas", "updatedReplicas", "readyReplicas", "availableReplicas")], id="deployment-status-counts-nonnegative"),
    pytest.param("deployments", {"status": {"replicas": 1, "readyReplicas": 2, "availableReplicas": 1}}, ["status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas"], id="deployment-ready-at-most-replicas"),
    pytest.param("deployments", {"status": {"replicas": 3, "updatedReplicas": 4}}, ["status.updatedReplicas: Invalid value: 4: cannot be greater than status.replicas"], id="deployment-updated-at-most-replicas"),
    pytest.param("deployments", {"status": {"replicas": 3, "readyReplicas": 1, "availableReplicas": 2}}, ["status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas"], id="deployment-available-at-most-ready"),
    pytest.param("deployments", {"status": {"unavailableReplicas": -1, "terminatingReplicas": -1}}, [f"status.unavailableReplicas: Invalid value: -1: {NONNEG}", f"status.terminatingReplicas: Invalid value: -1: {NONNEG}"], id="deployment-unavailable-and-terminating-nonnegative"),
    pytest.param("replicasets", {"status": {"replicas": 2, "fullyLabeledReplicas": 2, "readyReplicas": 2, "availableReplicas": 1, "observedGeneration": 1}}, [], id="valid-replicaset-status"),
    pytest.param("replicasets", {"status": {"replicas": 2, "fullyLabeledReplicas": 3, "readyReplicas": 2}}, ["status.fullyLabeledReplicas: Invalid value: 3: cannot be greater than status.replicas"], id="replicaset-fully-labeled-at-most-replicas"),
    pytest.param("replicasets", {"status": {"replicas": 2, "readyReplicas": 1, "availableReplicas": 2}}, ["status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas"], id="replicaset-available-at-most-ready"),
    pytest.param("replicasets", {"status": {"observedGeneration": -1}}, [f"status.observedGeneration: Invalid value: -1: {NONNEG}"], id="replicaset-observed-generation-nonnegative"),
    pytest.param("statefulsets", {"status": {"replicas": 2, "readyReplicas": 2, "currentReplicas": 2, "updatedReplicas": 2, "availableReplicas": 2}}, [], id="valid-statefulset-status"),
    pytest.param("statefulsets", {"status": {"replicas": 1, "currentReplicas": 2}}, ["status.currentReplicas: Invalid value: 2: cannot be greater than status.replicas"], id="sts-current-at-most-replicas"),
    pytest.param("statefulsets", {"status": {"replicas": 2, "readyReplicas": 1, "availableReplicas": 2}}, ["status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas"], id="sts-available-at-most-ready"),
    pytest.param("statefulsets", {"status": {"replicas": 0, "currentRevision": "a", "collisionCount": -1}}, [f"status.collisionCount: Invalid value: -1: {NONNEG}"], id="sts-collision-count-nonnegative"),
    pytest.param("statefulsets", {"status": {"replicas": -1}}, [f"status.replicas: Invalid value: -1: {NONNEG}"] + [f"status.{k}: Invalid value: 0: cannot be greater than status.replicas" for k in ("readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas")], id="sts-status-replicas-nonnegative"),
    pytest.param("namespaces", {"status.phase": "Terminating"}, ["status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"], id="namespace-phase-active-unless-deleting"),
    pytest.param("namespaces", {"metadata.deletionTimestamp": "2026-01-01T00:00:00Z", "status.phase": "Active"}, ['metadata.deletionTimestamp: Invalid value: "2026-01-01T00:00:00Z": field is immutable', "status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty"], id="namespace-phase-terminating-while-deleting"),
    pytest.param("pods", {"status": {"phase": "Running", "nominatedNodeName": "Node_1"}}, [f'status.nominatedNodeName: Invalid value: "Node_1": {SUBDOMAIN_MSG}'], id="pod-nominated-node-name"),
    pytest.param("services", {"status": {"loadBalancer": {}}}, [], id="valid-service-status"),
    pytest.param("persistentvolumeclaims", {"status.phase": "Bound"}, [], id="valid-pvc-status"),
]
# fmt: on


@pytest.mark.parametrize("resource, changes, expected", STATUS_CASES)
def test_validate_status_update(resource, changes, expected):
    old = stored(resource)
    new = with_changes(old, changes)
    assert [str(e) for e in validate_status_update(resource, new, old)] == expected


@pytest.mark.parametrize("resource", ["deployments", "statefulsets"])
@pytest.mark.parametrize("new_count, expected", [(1, ["status.collisionCount: Invalid value: 1: cannot be decremented"]), (None, ["status.collisionCount: Invalid value: 0: cannot be decremented"]), (3, [])], ids=["decremented", "cleared", "incremented"])
def test_collision_count_not_decremented(resource, new_count, expected):
    """The IsDecremented rule of ValidateDeploymentStatusUpdate and ValidateStatefulSetStatusUpdate."""
    old = with_changes(stored(resource), {"status": {"collisionCount": 2}})
    new = with_changes(old, {"status.collisionCount": DELETE if new_count is None else new_count})
    assert [str(e) for e in validate_status_update(resource, new, old)] == expected


CONTAINER_STATE_CASES = [
    pytest.param("Never", 0, True, id="never-restart-stays-terminated"),
    pytest.param("OnFailure", 0, True, id="on-failure-success-stays-terminated"),
    pytest.param("OnFailure", 1, False, id="on-failure-failure-may-restart"),
    pytest.param("Always", 0, False, id="always-may-restart"),
]


@pytest.mark.parametrize("restart_policy, exit_code, forbidden", CONTAINER_STATE_CASES)
def test_pod_status_container_state_transition(restart_policy, exit_code, forbidden):
    """Port of the state-transition rows of TestValidatePodStatusUpdate (pkg/apis/core/validation); cases are ours."""
    old = with_changes(stored("pods"), {"spec.restartPolicy": restart_policy})
    old["status"] = {"containerStatuses": [{"name": "c", "state": {"terminated": {"exitCode": exit_code}}}]}
    new = with_changes(old, {"status.containerStatuses.0.state": {"running": {}}})
    errs = [str(e) for e in validate_status_update("pods", new, old)]
    assert errs == (["status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state"] if forbidden else [])


def test_unknown_resource_has_no_rules():
    assert validate_object("widgets", {}) == []
    assert validate_object_update("widgets", {}, {}) == []
