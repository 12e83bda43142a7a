"""No upstream twin as a module; the row printers port pkg/printers/internalversion/printers.go.

`kubectl get` asks for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`
and prints the server's `meta.k8s.io/v1` Table as it comes: column headers,
then one row of cells per object. Without a Table it falls back to NAME and AGE
only. kube-apiserver builds the rows with the printers of
pkg/printers/internalversion; this module ports the ones for the resources
minikcm serves, with their exact columns. The server always prints the wide
form; columns with `priority: 1` are the ones kubectl hides unless `-o wide`.

AGE and other times are relative to the API server's clock, so tables are
deterministic under a FakeClock.

Start reading at: to_table, then print_pod.

Not ported: the printers of kinds minikcm does not serve, row conditions other
than a pod's Completed, `ShortHumanDuration`.
Differs from Go: printers work on wire dicts; the default printer (NAME,
CREATED AT) serves any resource without a printer.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from kubernetes.client import V1LabelSelector

from minikcm.apimachinery import labels, meta
from minikcm.apiserver.deletion import parse_time

Row = list[Any]
Printer = Callable[[dict[str, Any], datetime], Row]

TABLE_V1 = "meta.k8s.io/v1"


def human_duration(seconds: float) -> str:
    """Port of HumanDuration (apimachinery/pkg/util/duration/duration.go).

    A duration the way kubectl shows ages: precise when short, coarse when long.

    >>> [human_duration(s) for s in (5, 190, 70 * 60, 49 * 3600)]
    ['5s', '3m10s', '70m', '2d1h']
    """
    whole = int(seconds)  # Go: int(d.Seconds()) truncates toward zero
    if whole < -1:
        return "<invalid>"
    if whole < 0:
        return "0s"
    if whole < 60 * 2:
        return f"{whole}s"
    minutes = int(seconds // 60)
    if minutes < 10:
        s = whole % 60
        return f"{minutes}m" if s == 0 else f"{minutes}m{s}s"
    if minutes < 60 * 3:
        return f"{minutes}m"
    hours = int(seconds // 3600)
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        dy = (hours // 24) % 365
        return f"{hours // 24 // 365}y" if dy == 0 else f"{hours // 24 // 365}y{dy}d"
    return f"{hours // 24 // 365}y"


def translate_timestamp_since(timestamp: str | None, now: datetime) -> str:
    """Port of translateTimestampSince (pkg/printers/internalversion/printers.go).

    `<unknown>` for no time, else the human duration since it.
    """
    if not timestamp:
        return "<unknown>"
    try:
        then = parse_time(timestamp)
    except ValueError:
        return "<unknown>"
    return human_duration((now - then).total_seconds())


def _get(obj: Any, *path: str, default: Any = None) -> Any:
    for key in path:
        if not isinstance(obj, dict):
            return default
        obj = obj.get(key)
    return default if obj is None else obj


def _age(obj: dict[str, Any], now: datetime) -> str:
    return translate_timestamp_since(_get(obj, "metadata", "creationTimestamp"), now)


def layout_container_cells(containers: list[dict[str, Any]] | None) -> tuple[str, str]:
    """Port of layoutContainerCells (pkg/printers/internalversion/printers.go).

    Container names and images, each comma-joined.
    """
    containers = containers or []
    return (",".join(c.get("name", "") for c in containers),
            ",".join(c.get("image", "") for c in containers))


def _selector_model(selector: dict[str, Any] | None) -> V1LabelSelector | None:
    if selector is None:
        return None
    return V1LabelSelector.model_validate(selector)


def format_label_selector(selector: dict[str, Any] | None) -> str:
    """metav1.FormatLabelSelector over a wire selector: `<none>`, `<error>`, or `app=x,tier in (a,b)`."""
    try:
        return meta.format_label_selector(_selector_model(selector))
    except (ValueError, TypeError):  # pydantic's ValidationError is a ValueError
        return "<error>"


def selector_string(selector: dict[str, Any] | None) -> str:
    """LabelSelectorAsSelector(...).String() as printDeployment shows it; `<invalid>` when it does not parse."""
    try:
        return str(meta.label_selector_as_selector(_selector_model(selector)))
    except (ValueError, TypeError):
        return "<invalid>"


def format_labels(label_map: dict[str, str] | None) -> str:
    """Port of labels.FormatLabels: `k=v,...` sorted, or `<none>`."""
    return labels.format_labels(label_map or {})


# --- column definitions (AddHandlers) ---------------------------------------------------------


def _col(name: str, kind: str = "string", priority: int = 0, description: str = "",
         fmt: str = "") -> dict[str, Any]:
    return {"name": name, "type": kind, "format": fmt, "description": description or name,
            "priority": priority}


NAME = _col("Name", fmt="name", description="Name must be unique within a namespace.")
AGE = _col("Age", description="CreationTimestamp is a timestamp representing the server time when "
           "this object was created.")
CONTAINERS = _col("Containers", priority=1, description="Names of each container in the template.")
IMAGES = _col("Images", priority=1, description="Images referenced by each container in the template.")

COLUMNS: dict[str, list[dict[str, Any]]] = {
    "pods": [NAME, _col("Ready", description="The aggregate readiness state of this pod for accepting traffic."),
             _col("Status", description="The aggregate status of the containers in this pod."),
             _col("Restarts", description="The number of times the containers in this pod have been "
                  "restarted and when the last container in this pod has restarted."),
             AGE, _col("IP", priority=1), _col("Node", priority=1),
             _col("Nominated Node", priority=1), _col("Readiness Gates", priority=1)],
    "deployments": [NAME, _col("Ready", description="Number of the pod with ready state"),
                    _col("Up-to-date"), _col("Available"), AGE, CONTAINERS, IMAGES,
                    _col("Selector", priority=1)],
    "replicasets": [NAME, _col("Desired", "integer"), _col("Current", "integer"),
                    _col("Ready", "integer"), AGE, CONTAINERS, IMAGES, _col("Selector", priority=1)],
    "statefulsets": [NAME, _col("Ready", description="Number of the pod with ready state"), AGE,
                     CONTAINERS, IMAGES],
    "controllerrevisions": [NAME, _col("Controller", description="Controller of the object"),
                            _col("Revision"), AGE],
    "events": [_col("Last Seen"), _col("Type"), _col("Reason"), _col("Object"),
               _col("Subobject", priority=1), _col("Source", priority=1), _col("Message"),
               _col("First Seen", priority=1), _col("Count", priority=1),
               _col("Name", priority=1, fmt="name")],
    "leases": [NAME, _col("Holder"), AGE],
    "persistentvolumeclaims": [NAME, _col("Status"), _col("Volume"), _col("Capacity"),
                               _col("Access Modes"), _col("StorageClass"),
                               _col("VolumeAttributesClass"), AGE, _col("VolumeMode", priority=1)],
    "namespaces": [NAME, _col("Status", description="The status of the namespace"), AGE],
    "nodes": [NAME, _col("Status", description="The status of the node"),
              _col("Roles", description="The roles of the node"), AGE,
              _col("Version", description="Kubelet Version reported by the node."),
              _col("Internal-IP", priority=1), _col("External-IP", priority=1),
              _col("OS-Image", priority=1), _col("Kernel-Version", priority=1),
              _col("Container-Runtime", priority=1)],
    "services": [NAME, _col("Type"), _col("Cluster-IP"), _col("External-IP"), _col("Port(s)"), AGE,
                 _col("Selector", priority=1)],
}
"""Port of the column definitions of AddHandlers (pkg/printers/internalversion/printers.go)."""

DEFAULT_COLUMNS = [NAME, _col("Created At", "date")]
"""Port of defaultTableConvertor's columns (apiserver/pkg/registry/rest/table.go)."""


# --- row printers ---------------------------------------------------------------------------


def print_pod(pod: dict[str, Any], now: datetime) -> Row:
    """Port of printPod (pkg/printers/internalversion/printers.go).

    READY counts ready running containers (plus started restartable init
    containers); STATUS is the most telling reason: an init container's state
    (`Init:1/2`, `Init:CrashLoopBackOff`), a container's waiting or terminated
    reason, `Terminating` while being deleted, else the phase.
    """
    spec, status = pod.get("spec") or {}, pod.get("status") or {}
    init_specs = {c.get("name"): c for c in spec.get("initContainers") or []}
    restartable = {n for n, c in init_specs.items() if c.get("restartPolicy") == "Always"}
    total = len(spec.get("containers") or []) + len(restartable)
    ready, restarts, restartable_restarts = 0, 0, 0
    last_restart, last_restartable_restart = "", ""
    phase = status.get("phase") or ""
    reason = status.get("reason") or phase
    for cond in status.get("conditions") or []:
        if cond.get("type") == "PodScheduled" and cond.get("reason") == "SchedulingGated":
            reason = "SchedulingGated"

    initializing = False
    init_statuses = status.get("initContainerStatuses") or []
    for i, cs in enumerate(init_statuses):
        restarts += cs.get("restartCount") or 0
        finished = _get(cs, "lastState", "terminated", "finishedAt")
        last_restart = max(last_restart, finished or "")
        is_restartable = cs.get("name") in restartable
        if is_restartable:
            restartable_restarts += cs.get("restartCount") or 0
            last_restartable_restart = max(last_restartable_restart, finished or "")
        state = cs.get("state") or {}
        terminated, waiting = state.get("terminated"), state.get("waiting")
        if terminated and (terminated.get("exitCode") or 0) == 0:
            continue
        if is_restartable and cs.get("started"):
            ready += 1 if cs.get("ready") else 0
            continue
        if terminated:
            if terminated.get("reason"):
                reason = "Init:" + terminated["reason"]
            elif terminated.get("signal"):
                reason = f"Init:Signal:{terminated['signal']}"
            else:
                reason = f"Init:ExitCode:{terminated.get('exitCode') or 0}"
        elif waiting and waiting.get("reason") and waiting["reason"] != "PodInitializing":
            reason = "Init:" + waiting["reason"]
        else:
            reason = f"Init:{i}/{len(spec.get('initContainers') or [])}"
        initializing = True
        break

    initialized = any(c.get("type") == "Initialized" and c.get("status") == "True"
                      for c in status.get("conditions") or [])
    if not initializing or initialized:
        restarts, last_restart = restartable_restarts, last_restartable_restart
        has_running = False
        for cs in reversed(status.get("containerStatuses") or []):
            restarts += cs.get("restartCount") or 0
            last_restart = max(last_restart, _get(cs, "lastState", "terminated", "finishedAt") or "")
            state = cs.get("state") or {}
            waiting, terminated = state.get("waiting"), state.get("terminated")
            if waiting and waiting.get("reason"):
                reason = waiting["reason"]
            elif terminated and terminated.get("reason"):
                reason = terminated["reason"]
            elif terminated:
                reason = (f"Signal:{terminated['signal']}" if terminated.get("signal")
                          else f"ExitCode:{terminated.get('exitCode') or 0}")
            elif cs.get("ready") and state.get("running") is not None:
                has_running = True
                ready += 1
        if reason == "Completed" and has_running:
            pod_ready = any(c.get("type") == "Ready" and c.get("status") == "True"
                            for c in status.get("conditions") or [])
            reason = "Running" if pod_ready else "NotReady"

    deleting = bool(_get(pod, "metadata", "deletionTimestamp"))
    if deleting and status.get("reason") == "NodeLost":
        reason = "Unknown"
    elif deleting and phase not in ("Succeeded", "Failed"):
        reason = "Terminating"

    restarts_cell = str(restarts)
    if restarts and last_restart:
        restarts_cell = f"{restarts} ({translate_timestamp_since(last_restart, now)} ago)"
    ips = status.get("podIPs") or []
    pod_ip = (ips[0].get("ip") if ips else "") or "<none>"
    gates = spec.get("readinessGates") or []
    gates_cell = "<none>"
    if gates:
        conditions = {c.get("type"): c.get("status") for c in status.get("conditions") or []}
        passed = sum(1 for g in gates if conditions.get(g.get("conditionType")) == "True")
        gates_cell = f"{passed}/{len(gates)}"
    return [_get(pod, "metadata", "name", default=""), f"{ready}/{total}", reason, restarts_cell,
            _age(pod, now), pod_ip, spec.get("nodeName") or "<none>",
            status.get("nominatedNodeName") or "<none>", gates_cell]


def print_deployment(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printDeployment (pkg/printers/internalversion/printers.go)."""
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    names, images = layout_container_cells(_get(spec, "template", "spec", "containers"))
    return [_get(obj, "metadata", "name", default=""),
            f"{status.get('readyReplicas') or 0}/{spec.get('replicas') or 0}",
            status.get("updatedReplicas") or 0, status.get("availableReplicas") or 0, _age(obj, now),
            names, images, selector_string(spec.get("selector"))]


def print_replica_set(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printReplicaSet (pkg/printers/internalversion/printers.go)."""
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    names, images = layout_container_cells(_get(spec, "template", "spec", "containers"))
    return [_get(obj, "metadata", "name", default=""), spec.get("replicas") or 0,
            status.get("replicas") or 0, status.get("readyReplicas") or 0, _age(obj, now),
            names, images, format_label_selector(spec.get("selector"))]


def print_stateful_set(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printStatefulSet (pkg/printers/internalversion/printers.go)."""
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    names, images = layout_container_cells(_get(spec, "template", "spec", "containers"))
    return [_get(obj, "metadata", "name", default=""),
            f"{status.get('readyReplicas') or 0}/{spec.get('replicas') or 0}", _age(obj, now),
            names, images]


def print_controller_revision(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printControllerRevision (pkg/printers/internalversion/printers.go).

    CONTROLLER is `kind.group/name` in lower case, e.g. `statefulset.apps/db`.
    """
    controller = "<none>"
    for ref in _get(obj, "metadata", "ownerReferences", default=[]):
        if ref.get("controller"):
            group = (ref.get("apiVersion") or "").rpartition("/")[0]
            kind = ref.get("kind") or ""
            qualified = f"{kind}.{group}" if group else kind
            controller = f"{qualified.lower()}/{ref.get('name', '')}" if kind else ref.get("name", "")
            break
    return [_get(obj, "metadata", "name", default=""), controller, obj.get("revision") or 0,
            _age(obj, now)]


def format_event_source(source: dict[str, Any] | None, controller: str, instance: str) -> str:
    """Port of formatEventSource (pkg/printers/internalversion/printers.go)."""
    component = (source or {}).get("component") or controller or ""
    host = (source or {}).get("host") or instance or ""
    return f"{component}, {host}" if host else component


def print_event(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printEvent (pkg/printers/internalversion/printers.go).

    LAST SEEN falls back to the first time, then to eventTime; a series
    carries its own count and last time.
    """
    first = (translate_timestamp_since(obj.get("firstTimestamp"), now) if obj.get("firstTimestamp")
             else translate_timestamp_since(obj.get("eventTime"), now))
    last = translate_timestamp_since(obj.get("lastTimestamp"), now) if obj.get("lastTimestamp") else first
    count = obj.get("count") or 0
    series = obj.get("series")
    if series:
        last = translate_timestamp_since(series.get("lastObservedTime"), now)
        count = series.get("count") or 0
    elif count == 0:
        count = 1
    involved = obj.get("involvedObject") or {}
    kind = (involved.get("kind") or "").lower()
    target = f"{kind}/{involved['name']}" if involved.get("name") else kind
    return [last, obj.get("type") or "", obj.get("reason") or "", target,
            involved.get("fieldPath") or "",
            format_event_source(obj.get("source"), obj.get("reportingComponent") or "",
                                obj.get("reportingInstance") or ""),
            (obj.get("message") or "").strip(), first, count, _get(obj, "metadata", "name", default="")]


def print_lease(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printLease (pkg/printers/internalversion/printers.go)."""
    return [_get(obj, "metadata", "name", default=""), _get(obj, "spec", "holderIdentity", default=""),
            _age(obj, now)]


_ACCESS_MODES = {"ReadWriteOnce": "RWO", "ReadOnlyMany": "ROX", "ReadWriteMany": "RWX",
                 "ReadWriteOncePod": "RWOP"}


def get_access_modes_as_string(modes: list[str] | None) -> str:
    """Port of GetAccessModesAsString (pkg/apis/core/helper/helpers.go): `RWO,ROX,...` in that order."""
    present = set(modes or [])
    return ",".join(short for long, short in _ACCESS_MODES.items() if long in present)


def print_persistent_volume_claim(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printPersistentVolumeClaim (pkg/printers/internalversion/printers.go)."""
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    phase = "Terminating" if _get(obj, "metadata", "deletionTimestamp") else status.get("phase") or ""
    capacity = access = ""
    if spec.get("volumeName"):
        access = get_access_modes_as_string(status.get("accessModes"))
        capacity = _get(status, "capacity", "storage", default="")
    storage_class = spec.get("storageClassName") or _get(
        obj, "metadata", "annotations", "volume.beta.kubernetes.io/storage-class", default="")
    return [_get(obj, "metadata", "name", default=""), phase, spec.get("volumeName") or "", capacity,
            access, storage_class, spec.get("volumeAttributesClassName") or "<unset>", _age(obj, now),
            spec.get("volumeMode") or "<unset>"]


def print_namespace(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printNamespace (pkg/printers/internalversion/printers.go)."""
    return [_get(obj, "metadata", "name", default=""), _get(obj, "status", "phase", default=""),
            _age(obj, now)]


NODE_ROLE_PREFIX = "node-role.kubernetes.io/"
NODE_ROLE_LABEL = "kubernetes.io/role"


def find_node_roles(node: dict[str, Any]) -> list[str]:
    """Port of findNodeRoles (pkg/printers/internalversion/printers.go): role labels, sorted."""
    roles = set()
    for key, value in (_get(node, "metadata", "labels") or {}).items():
        if key.startswith(NODE_ROLE_PREFIX) and key[len(NODE_ROLE_PREFIX):]:
            roles.add(key[len(NODE_ROLE_PREFIX):])
        elif key == NODE_ROLE_LABEL and value:
            roles.add(value)
    return sorted(roles)


def _node_address(node: dict[str, Any], kind: str) -> str:
    for address in _get(node, "status", "addresses") or []:
        if address.get("type") == kind:
            return address.get("address") or ""
    return "<none>"


def print_node(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printNode (pkg/printers/internalversion/printers.go).

    STATUS is Ready, NotReady or Unknown (no Ready condition), plus
    SchedulingDisabled for a cordoned node; the wide columns follow.
    """
    conditions = {c.get("type"): c for c in _get(obj, "status", "conditions") or []}
    status = []
    if "Ready" in conditions:
        status.append("Ready" if conditions["Ready"].get("status") == "True" else "NotReady")
    if not status:
        status.append("Unknown")
    if _get(obj, "spec", "unschedulable"):
        status.append("SchedulingDisabled")
    info = _get(obj, "status", "nodeInfo") or {}
    return [_get(obj, "metadata", "name", default=""), ",".join(status),
            ",".join(find_node_roles(obj)) or "<none>", _age(obj, now), info.get("kubeletVersion") or "",
            _node_address(obj, "InternalIP"), _node_address(obj, "ExternalIP"),
            info.get("osImage") or "<unknown>", info.get("kernelVersion") or "<unknown>",
            info.get("containerRuntimeVersion") or "<unknown>"]


def get_service_external_ip(svc: dict[str, Any]) -> str:
    """Port of getServiceExternalIP (pkg/printers/internalversion/printers.go), wide form."""
    spec = svc.get("spec") or {}
    svc_type = spec.get("type") or "ClusterIP"
    external = spec.get("externalIPs") or []
    if svc_type in ("ClusterIP", "NodePort"):
        return ",".join(external) if external else "<none>"
    if svc_type == "LoadBalancer":
        ingress = _get(svc, "status", "loadBalancer", "ingress", default=[])
        lb = sorted({i.get("ip") or i.get("hostname") for i in ingress if i.get("ip") or i.get("hostname")})
        if external:
            return ",".join([*lb, *external])
        return ",".join(lb) if lb else "<pending>"
    if svc_type == "ExternalName":
        return spec.get("externalName") or ""
    return "<unknown>"


def make_port_string(ports: list[dict[str, Any]] | None) -> str:
    """Port of makePortString (pkg/printers/internalversion/printers.go): `80/TCP,443:30443/TCP`."""
    pieces = []
    for p in ports or []:
        protocol = p.get("protocol") or "TCP"
        if p.get("nodePort"):
            pieces.append(f"{p.get('port')}:{p['nodePort']}/{protocol}")
        else:
            pieces.append(f"{p.get('port')}/{protocol}")
    return ",".join(pieces)


def print_service(obj: dict[str, Any], now: datetime) -> Row:
    """Port of printService (pkg/printers/internalversion/printers.go)."""
    spec = obj.get("spec") or {}
    cluster_ips = spec.get("clusterIPs") or ([spec["clusterIP"]] if spec.get("clusterIP") else [])
    return [_get(obj, "metadata", "name", default=""), spec.get("type") or "ClusterIP",
            cluster_ips[0] if cluster_ips else "<none>", get_service_external_ip(obj),
            make_port_string(spec.get("ports")) or "<none>", _age(obj, now),
            format_labels(spec.get("selector"))]


def print_default(obj: dict[str, Any], now: datetime) -> Row:
    """Port of defaultTableConvertor's row (apiserver/pkg/registry/rest/table.go): name, creation time."""
    return [_get(obj, "metadata", "name", default=""), _get(obj, "metadata", "creationTimestamp", default="")]


PRINTERS: dict[str, Printer] = {
    "pods": print_pod, "deployments": print_deployment, "replicasets": print_replica_set,
    "statefulsets": print_stateful_set, "controllerrevisions": print_controller_revision,
    "events": print_event, "leases": print_lease, "persistentvolumeclaims": print_persistent_volume_claim,
    "namespaces": print_namespace, "services": print_service, "nodes": print_node,
}


# --- the Table ------------------------------------------------------------------------------


INCLUDE_NONE, INCLUDE_METADATA, INCLUDE_OBJECT = "None", "Metadata", "Object"


def partial_object_metadata(obj: dict[str, Any], api_version: str = TABLE_V1) -> dict[str, Any]:
    """Port of meta.AsPartialObjectMetadata: the object's metadata under kind PartialObjectMetadata."""
    return {"kind": "PartialObjectMetadata", "apiVersion": api_version,
            "metadata": dict(obj.get("metadata") or {})}


def _row(resource: str, obj: dict[str, Any], now: datetime, include: str, api_version: str) -> dict[str, Any]:
    printer = PRINTERS.get(resource, print_default)
    row: dict[str, Any] = {"cells": printer(obj, now)}
    if resource == "pods" and (obj.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
        phase = obj["status"]["phase"]
        message = "The pod has completed successfully." if phase == "Succeeded" else "The pod failed."
        row["conditions"] = [{"type": "Completed", "status": "True", "reason": phase, "message": message}]
    if include == INCLUDE_OBJECT:
        row["object"] = obj
    elif include != INCLUDE_NONE:
        row["object"] = partial_object_metadata(obj, api_version)
    return row


def to_table(resource: str, obj: dict[str, Any], now: datetime, include: str = INCLUDE_METADATA,
             headers: bool = True, api_version: str = TABLE_V1) -> dict[str, Any]:
    """Port of asTable (apiserver/pkg/endpoints/handlers/response.go) with the resource's printer.

    `obj` is one object or a `<Kind>List`; the Table keeps the list's
    resourceVersion and continue token. `headers=False` leaves out the column
    definitions (later events of a watch).
    """
    is_list = isinstance(obj.get("items"), list)
    items = obj["items"] if is_list else [obj]
    meta: dict[str, Any] = {}
    source_meta = obj.get("metadata") or {}
    if source_meta.get("resourceVersion"):
        meta["resourceVersion"] = source_meta["resourceVersion"]
    if is_list and source_meta.get("continue"):
        meta["continue"] = source_meta["continue"]
    if is_list and source_meta.get("remainingItemCount") is not None:
        meta["remainingItemCount"] = source_meta["remainingItemCount"]
    columns = COLUMNS.get(resource, DEFAULT_COLUMNS) if headers else []
    return {"kind": "Table", "apiVersion": api_version, "metadata": meta,
            "columnDefinitions": columns,
            "rows": [_row(resource, item, now, include, api_version) for item in items]}
