"""No upstream twin. Defaulting for the embedded API server, on wire-format dicts.

kube-apiserver fills in unset fields while it decodes a request: the generated
defaulters (zz_generated.defaults.go) call the hand-written SetDefaults_X
functions of pkg/apis/core/v1/defaults.go and pkg/apis/apps/v1/defaults.go for
the object and for every nested struct that has one (each container, each
port, the pod template of a Deployment, ...). The server calls
`default_object` on every create, update and patch result before validating,
so controllers see the same `strategy.rollingUpdate.maxSurge: 25%` or
`imagePullPolicy: IfNotPresent` a real cluster would show.

Each SetDefaults_X below names its upstream twin; the `set_object_defaults_*`
functions play the part of the generated walkers. They follow
pkg/apis/apps/v1/defaults.go (with the 1.35+ MaxUnavailableStatefulSet lines)
and pkg/apis/core/v1/defaults.go (with the namespace name label, Service
internalTrafficPolicy and allocateLoadBalancerNodePorts), reconstructed from
copies older than the pin and completed from later ones.

Start reading at: default_object, then set_object_defaults_deployment.

Not ported: SetDefaults_ResourceList (rounding quantities up to milli-units;
quantities stay as the client sent them), DaemonSet, ReplicationController,
Node, PersistentVolume, Secret, ConfigMap, Endpoints, LimitRange and the rare
volume sources (iSCSI, RBD, ScaleIO, AzureDisk), pod-level resources.
Differs from Go: feature gates are fixed at their v1.36 defaults
(StatefulSetAutoDeletePVC GA, MaxUnavailableStatefulSet beta and on); a field
holding JSON `null` counts as unset, like Go's nil pointer.
"""

from __future__ import annotations

from typing import Any

from minikcm import features


DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30
DEFAULT_SCHEDULER_NAME = "default-scheduler"
TERMINATION_MESSAGE_PATH_DEFAULT = "/dev/termination-log"
DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 10800
VOLUME_SOURCE_DEFAULT_MODE = 0o644  # Secret, ConfigMap, DownwardAPI and Projected volumes
LABEL_METADATA_NAME = "kubernetes.io/metadata.name"


def default_object(resource: str, obj: dict[str, Any]) -> None:
    """Fill in the defaults of `obj`, a wire dict of `resource` (plural name), in place.

    Resources without defaulting (events, leases, controllerrevisions) and
    unknown resources are left alone.
    """
    match resource:
        case "pods":
            set_object_defaults_pod(obj)
        case "deployments":
            set_object_defaults_deployment(obj)
        case "replicasets":
            set_object_defaults_replica_set(obj)
        case "statefulsets":
            set_object_defaults_stateful_set(obj)
        case "persistentvolumeclaims":
            set_object_defaults_persistent_volume_claim(obj)
        case "services":
            set_object_defaults_service(obj)
        case "namespaces":
            set_object_defaults_namespace(obj)
        case "nodes":
            set_defaults_node_status(obj)
        case _:
            pass  # no SetDefaults_X upstream for events, leases, controllerrevisions


def _sub(obj: dict[str, Any], key: str) -> dict[str, Any]:
    # The dict under `key`, created when missing (Go: the embedded struct is always there).
    value = obj.get(key)
    if not isinstance(value, dict):
        value = {}
        obj[key] = value
    return value


def _unset(obj: dict[str, Any], key: str) -> bool:
    # Go: a nil pointer, an empty string, or a zero value the defaulter treats as unset.
    return obj.get(key) in (None, "")


# --- apps/v1 (pkg/apis/apps/v1/defaults.go) ----------------------------------------------


def set_defaults_deployment(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_Deployment (pkg/apis/apps/v1/defaults.go).

    replicas 1; strategy RollingUpdate, and for RollingUpdate a rollingUpdate
    block with maxUnavailable and maxSurge of 25% each; revisionHistoryLimit
    10; progressDeadlineSeconds 600.
    """
    spec = _sub(obj, "spec")
    if spec.get("replicas") is None:
        spec["replicas"] = 1
    strategy = _sub(spec, "strategy")
    if _unset(strategy, "type"):
        strategy["type"] = "RollingUpdate"
    if strategy["type"] == "RollingUpdate":
        rolling_update = _sub(strategy, "rollingUpdate")
        if rolling_update.get("maxUnavailable") is None:
            rolling_update["maxUnavailable"] = "25%"
        if rolling_update.get("maxSurge") is None:
            rolling_update["maxSurge"] = "25%"
    if spec.get("revisionHistoryLimit") is None:
        spec["revisionHistoryLimit"] = 10
    if spec.get("progressDeadlineSeconds") is None:
        spec["progressDeadlineSeconds"] = 600


def set_defaults_stateful_set(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_StatefulSet (pkg/apis/apps/v1/defaults.go).

    podManagementPolicy OrderedReady; updateStrategy RollingUpdate (with an
    empty rollingUpdate block only when the type itself was defaulted); for a
    RollingUpdate with a rollingUpdate block, partition 0 (and maxUnavailable 1 only
    when the MaxUnavailableStatefulSet gate is on: beta, off by default at v1.36);
    PVC retention Retain/Retain; replicas 1; revisionHistoryLimit 10.
    """
    spec = _sub(obj, "spec")
    if _unset(spec, "podManagementPolicy"):
        spec["podManagementPolicy"] = "OrderedReady"
    strategy = _sub(spec, "updateStrategy")
    if _unset(strategy, "type"):
        strategy["type"] = "RollingUpdate"
        if strategy.get("rollingUpdate") is None:
            strategy["rollingUpdate"] = {}
    rolling_update = strategy.get("rollingUpdate")
    if strategy["type"] == "RollingUpdate" and isinstance(rolling_update, dict):
        if rolling_update.get("partition") is None:
            rolling_update["partition"] = 0
        # Only with the MaxUnavailableStatefulSet gate on (beta, off by default at v1.36).
        if features.DEFAULT_FEATURE_GATE.enabled(features.MAX_UNAVAILABLE_STATEFUL_SET) and \
                rolling_update.get("maxUnavailable") is None:
            rolling_update["maxUnavailable"] = 1
    retention = _sub(spec, "persistentVolumeClaimRetentionPolicy")
    if _unset(retention, "whenDeleted"):
        retention["whenDeleted"] = "Retain"
    if _unset(retention, "whenScaled"):
        retention["whenScaled"] = "Retain"
    if spec.get("replicas") is None:
        spec["replicas"] = 1
    if spec.get("revisionHistoryLimit") is None:
        spec["revisionHistoryLimit"] = 10


def set_defaults_replica_set(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_ReplicaSet (pkg/apis/apps/v1/defaults.go): replicas 1."""
    spec = _sub(obj, "spec")
    if spec.get("replicas") is None:
        spec["replicas"] = 1


def set_object_defaults_deployment(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_Deployment (apps/v1 zz_generated.defaults.go): the Deployment, then its template."""
    set_defaults_deployment(obj)
    set_object_defaults_pod_template_spec(_sub(obj["spec"], "template"))


def set_object_defaults_replica_set(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_ReplicaSet: the ReplicaSet, then its template."""
    set_defaults_replica_set(obj)
    set_object_defaults_pod_template_spec(_sub(obj["spec"], "template"))


def set_object_defaults_stateful_set(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_StatefulSet: the StatefulSet, its template and its claim templates."""
    set_defaults_stateful_set(obj)
    set_object_defaults_pod_template_spec(_sub(obj["spec"], "template"))
    for claim in obj["spec"].get("volumeClaimTemplates") or []:
        if isinstance(claim, dict):
            set_object_defaults_persistent_volume_claim(claim)


# --- core/v1 (pkg/apis/core/v1/defaults.go) ---------------------------------------------


def set_object_defaults_pod(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_Pod (core/v1 zz_generated.defaults.go).

    SetDefaults_Pod runs only for Pods, never for pod templates: that is why
    a Deployment's template gets no `enableServiceLinks` while its pods do.
    """
    set_defaults_pod(obj)
    set_object_defaults_pod_spec(_sub(obj, "spec"))


def set_object_defaults_pod_template_spec(template: dict[str, Any]) -> None:
    """Mirrors the generated defaulting of a PodTemplateSpec: the PodSpec and everything in it."""
    set_object_defaults_pod_spec(_sub(template, "spec"))


def set_object_defaults_pod_spec(spec: dict[str, Any]) -> None:
    """Mirrors the generated walk over a PodSpec: the spec, its volumes and every container."""
    set_defaults_pod_spec(spec)
    for volume in spec.get("volumes") or []:
        if isinstance(volume, dict):
            set_defaults_volume(volume)
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for container in spec.get(key) or []:
            if isinstance(container, dict):
                set_object_defaults_container(container)


def set_object_defaults_container(container: dict[str, Any]) -> None:
    """Mirrors the generated walk over a Container: ports, env field refs, probes, lifecycle hooks."""
    set_defaults_container(container)
    for port in container.get("ports") or []:
        if isinstance(port, dict):
            set_defaults_container_port(port)
    for env in container.get("env") or []:
        field_ref = ((env or {}).get("valueFrom") or {}).get("fieldRef")
        if isinstance(field_ref, dict):
            set_defaults_object_field_selector(field_ref)
    for probe_key in ("livenessProbe", "readinessProbe", "startupProbe"):
        probe = container.get(probe_key)
        if isinstance(probe, dict):
            set_defaults_probe(probe)
            _default_http_get(probe)
    lifecycle = container.get("lifecycle")
    if isinstance(lifecycle, dict):
        for hook in ("postStart", "preStop"):
            if isinstance(lifecycle.get(hook), dict):
                _default_http_get(lifecycle[hook])


def _default_http_get(handler: dict[str, Any]) -> None:
    http_get = handler.get("httpGet")
    if isinstance(http_get, dict):
        set_defaults_http_get_action(http_get)


def set_defaults_pod(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_Pod (pkg/apis/core/v1/defaults.go).

    For each (init) container with limits, requests default to the limits
    per resource; enableServiceLinks defaults to true; with hostNetwork,
    container ports get hostPort = containerPort.
    """
    spec = _sub(obj, "spec")
    for key in ("containers", "initContainers"):
        for container in spec.get(key) or []:
            resources = container.get("resources") if isinstance(container, dict) else None
            if not isinstance(resources, dict) or not resources.get("limits"):
                continue
            requests = _sub(resources, "requests")
            for name in sorted(resources["limits"]):
                requests.setdefault(name, resources["limits"][name])
    if spec.get("enableServiceLinks") is None:
        spec["enableServiceLinks"] = True
    if spec.get("hostNetwork"):
        default_host_network_ports(spec.get("containers") or [])
        default_host_network_ports(spec.get("initContainers") or [])


def default_host_network_ports(containers: list[Any]) -> None:
    """Port of defaultHostNetworkPorts: with host networking every port is a host port."""
    for container in containers:
        for port in (container or {}).get("ports") or []:
            if isinstance(port, dict) and not port.get("hostPort"):
                port["hostPort"] = port.get("containerPort")


def set_defaults_pod_spec(spec: dict[str, Any]) -> None:
    """Port of SetDefaults_PodSpec (pkg/apis/core/v1/defaults.go).

    dnsPolicy ClusterFirst, restartPolicy Always, securityContext {},
    terminationGracePeriodSeconds 30, schedulerName default-scheduler.
    Runs for Pods and for every pod template.
    """
    if _unset(spec, "dnsPolicy"):
        spec["dnsPolicy"] = "ClusterFirst"
    if _unset(spec, "restartPolicy"):
        spec["restartPolicy"] = "Always"
    if spec.get("securityContext") is None:
        spec["securityContext"] = {}
    if spec.get("terminationGracePeriodSeconds") is None:
        spec["terminationGracePeriodSeconds"] = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
    if _unset(spec, "schedulerName"):
        spec["schedulerName"] = DEFAULT_SCHEDULER_NAME


def set_defaults_container(container: dict[str, Any]) -> None:
    """Port of SetDefaults_Container (pkg/apis/core/v1/defaults.go).

    imagePullPolicy is Always when the image has the tag `latest` or no tag
    and no digest at all (`nginx`), IfNotPresent otherwise (`nginx:1.27`,
    `nginx@sha256:...`); terminationMessagePath /dev/termination-log;
    terminationMessagePolicy File.
    """
    if _unset(container, "imagePullPolicy"):
        tag = parse_image_tag(container.get("image") or "")
        container["imagePullPolicy"] = "Always" if tag == "latest" else "IfNotPresent"
    if _unset(container, "terminationMessagePath"):
        container["terminationMessagePath"] = TERMINATION_MESSAGE_PATH_DEFAULT
    if _unset(container, "terminationMessagePolicy"):
        container["terminationMessagePolicy"] = "File"


def parse_image_tag(image: str) -> str:
    """The tag part of an image reference, as parsers.ParseImageName (pkg/util/parsers) reports it.

    `latest` when the reference has neither tag nor digest; "" for a digest
    without a tag, and for a reference that does not parse (upstream ignores
    that error and picks IfNotPresent).
    """
    if not image or any(ch.isspace() for ch in image):
        return ""
    name, _, digest = image.partition("@")
    slash, colon = name.rfind("/"), name.rfind(":")
    repository, tag = (name[:colon], name[colon + 1 :]) if colon > slash else (name, "")
    if not repository:
        return ""
    first, sep, rest = repository.partition("/")
    path = rest if sep and _looks_like_registry(first) else repository
    if path != path.lower():
        return ""  # repository paths must be lower case
    if not tag and not digest:
        return "latest"
    return tag


def _looks_like_registry(component: str) -> bool:
    # docker reference rules: the first component is a registry host when it
    # has a dot or a port, or is "localhost".
    return "." in component or ":" in component or component == "localhost"


def set_defaults_container_port(port: dict[str, Any]) -> None:
    """Port of SetDefaults_ContainerPort: protocol TCP."""
    if _unset(port, "protocol"):
        port["protocol"] = "TCP"


def set_defaults_volume(volume: dict[str, Any]) -> None:
    """Port of SetDefaults_Volume plus the volume-source defaulters it leads to.

    A volume with no source becomes an emptyDir; secret, configMap,
    downwardAPI and projected sources get defaultMode 0644 (420), and
    downward-API field references get apiVersion v1.
    """
    sources = [k for k in volume if k != "name" and volume[k] is not None]
    if not sources:
        volume["emptyDir"] = {}
    for key in ("secret", "configMap", "downwardAPI", "projected"):
        source = volume.get(key)
        if isinstance(source, dict) and source.get("defaultMode") is None:
            source["defaultMode"] = VOLUME_SOURCE_DEFAULT_MODE
    downward = volume.get("downwardAPI")
    if isinstance(downward, dict):
        for item in downward.get("items") or []:
            if isinstance((item or {}).get("fieldRef"), dict):
                set_defaults_object_field_selector(item["fieldRef"])


def set_defaults_probe(probe: dict[str, Any]) -> None:
    """Port of SetDefaults_Probe: timeout 1 s, period 10 s, success 1, failure 3."""
    for key, default in (
        ("timeoutSeconds", 1),
        ("periodSeconds", 10),
        ("successThreshold", 1),
        ("failureThreshold", 3),
    ):
        if not probe.get(key):
            probe[key] = default


def set_defaults_http_get_action(action: dict[str, Any]) -> None:
    """Port of SetDefaults_HTTPGetAction: path "/", scheme HTTP."""
    if _unset(action, "path"):
        action["path"] = "/"
    if _unset(action, "scheme"):
        action["scheme"] = "HTTP"


def set_defaults_object_field_selector(selector: dict[str, Any]) -> None:
    """Port of SetDefaults_ObjectFieldSelector: apiVersion v1."""
    if _unset(selector, "apiVersion"):
        selector["apiVersion"] = "v1"


def set_defaults_service(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_Service (pkg/apis/core/v1/defaults.go).

    sessionAffinity None (and no sessionAffinityConfig then; ClientIP gets a
    10800 s timeout); type ClusterIP; each port gets protocol TCP and
    targetPort = port when unset or 0; NodePort and LoadBalancer services get
    externalTrafficPolicy Cluster; every type but ExternalName gets
    internalTrafficPolicy Cluster; LoadBalancer gets
    allocateLoadBalancerNodePorts true.
    """
    spec = _sub(obj, "spec")
    if _unset(spec, "sessionAffinity"):
        spec["sessionAffinity"] = "None"
    if spec["sessionAffinity"] == "None":
        spec.pop("sessionAffinityConfig", None)
    elif spec["sessionAffinity"] == "ClientIP":
        config = spec.get("sessionAffinityConfig") or {}
        if ((config.get("clientIP") or {}).get("timeoutSeconds")) is None:
            spec["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS}}
    if _unset(spec, "type"):
        spec["type"] = "ClusterIP"
    for port in spec.get("ports") or []:
        if not isinstance(port, dict):
            continue
        if _unset(port, "protocol"):
            port["protocol"] = "TCP"
        if port.get("targetPort") in (None, 0, ""):
            port["targetPort"] = port.get("port")
    service_type = spec["type"]
    if service_type in ("NodePort", "LoadBalancer") and _unset(spec, "externalTrafficPolicy"):
        spec["externalTrafficPolicy"] = "Cluster"
    if service_type in ("ClusterIP", "NodePort", "LoadBalancer") and spec.get("internalTrafficPolicy") is None:
        spec["internalTrafficPolicy"] = "Cluster"
    if service_type == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is None:
        spec["allocateLoadBalancerNodePorts"] = True


def set_object_defaults_service(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_Service."""
    set_defaults_service(obj)


def set_defaults_namespace(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_Namespace: label `kubernetes.io/metadata.name` = the name.

    Skipped while the namespace has no name yet (generateName).
    """
    metadata = _sub(obj, "metadata")
    name = metadata.get("name")
    if name:
        labels = metadata.get("labels")
        if not isinstance(labels, dict):
            labels = {}
            metadata["labels"] = labels
        labels[LABEL_METADATA_NAME] = name


def set_defaults_namespace_status(status: dict[str, Any]) -> None:
    """Port of SetDefaults_NamespaceStatus: phase Active."""
    if _unset(status, "phase"):
        status["phase"] = "Active"


def set_object_defaults_namespace(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_Namespace: the name label and the status phase."""
    set_defaults_namespace(obj)
    set_defaults_namespace_status(_sub(obj, "status"))


def set_defaults_persistent_volume_claim(obj: dict[str, Any]) -> None:
    """Port of SetDefaults_PersistentVolumeClaim: status phase Pending."""
    status = _sub(obj, "status")
    if _unset(status, "phase"):
        status["phase"] = "Pending"


def set_defaults_persistent_volume_claim_spec(spec: dict[str, Any]) -> None:
    """Port of SetDefaults_PersistentVolumeClaimSpec: volumeMode Filesystem."""
    if spec.get("volumeMode") is None:
        spec["volumeMode"] = "Filesystem"


def set_object_defaults_persistent_volume_claim(obj: dict[str, Any]) -> None:
    """Mirrors SetObjectDefaults_PersistentVolumeClaim (also used for StatefulSet claim templates)."""
    set_defaults_persistent_volume_claim(obj)
    set_defaults_persistent_volume_claim_spec(_sub(obj, "spec"))


def set_defaults_node_status(node: dict[str, Any]) -> None:
    """Port of SetDefaults_NodeStatus (pkg/apis/core/v1/defaults.go): allocatable defaults to capacity."""
    status = node.get("status")
    if isinstance(status, dict) and status.get("allocatable") is None and status.get("capacity") is not None:
        status["allocatable"] = dict(status["capacity"])
