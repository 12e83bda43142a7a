"""No upstream twin. The core/v1 validation the embedded API server runs, on wire dicts.

Mirrors pkg/apis/core/validation/validation.go (reconstructed from several versions
near the pin; messages are upstream's) for pods and pod templates, PVCs, Services and
Namespaces, plus core's ObjectMeta wrappers (Nodes: node_validation). The caller is
minikcm.apiserver.validation; apps_validation reuses the pod-template checks.

Start reading at: validate_pod_spec, then validate_pod_update.

Not ported: the PodValidationOptions feature switches, resources and quantities, probes,
security contexts, affinity, topology spread, DNS config, host ports, ephemeral containers,
volume sources beyond counting them, env valueFrom sources, Service IP families and node
ports, the PodSpecificAnnotations checks, PVC and Service status checks.
Differs from Go:
- Pod updates: the check that only images, activeDeadlineSeconds, tolerations (additions),
  terminationGracePeriodSeconds (negative -> 1) and scheduling gates change is done on wire
  dicts, and the message has no diff of the two specs after it (upstream appends one).
- PersistentVolumeClaim updates: any spec change but resources.requests and
  volumeAttributesClassName is refused with one message (upstream tells bound claims apart).
- Service updates only keep clusterIP; the other update rules are not ported.
"""

from __future__ import annotations

import copy
from typing import Any

from minikcm.apimachinery import field
from minikcm.apimachinery import validation as meta_validation
from minikcm.apimachinery.field import ErrorList, Path, new_path
from minikcm.apimachinery.validation import (
    ValidateNameFunc,
    is_dns1123_label,
    is_qualified_name,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
    semantic_deep_equal,
    validate_annotations,
    validate_immutable_field,
    validate_label_selector,
    validate_labels,
)

INT32_MAX = 2**31 - 1
STANDARD_FINALIZERS = ("kubernetes", "orphan", "foregroundDeletion")
SUPPORTED_PORT_PROTOCOLS = ["SCTP", "TCP", "UDP"]
SUPPORTED_PULL_POLICIES = ["Always", "IfNotPresent", "Never"]


def spec_of(obj: dict[str, Any]) -> dict[str, Any]:
    """The `spec` of a wire object; {} when missing (Go: the zero struct)."""
    return obj.get("spec") or {}


def status_of(obj: dict[str, Any]) -> dict[str, Any]:
    """The `status` of a wire object; {} when missing."""
    return obj.get("status") or {}


def go_int(value: Any) -> int:
    """An int field's value; 0 (Go's zero value) when unset or not an int."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def copy_key(dst: dict[str, Any], src: dict[str, Any], key: str) -> None:
    """Make `dst[key]` what `src[key]` is, including being absent."""
    if key in src:
        dst[key] = copy.deepcopy(src[key])
    else:
        dst.pop(key, None)


# --- core ObjectMeta wrappers (pkg/apis/core/validation/validation.go) -----------------------


def validate_object_meta(
    meta: dict[str, Any] | None, requires_namespace: bool, name_fn: ValidateNameFunc, fld_path: Path
) -> ErrorList:
    """Port of ValidateObjectMeta (core validation): the generic checks plus kube finalizer names."""
    errs = meta_validation.validate_object_meta(meta, requires_namespace, name_fn, fld_path)
    for finalizer in (meta or {}).get("finalizers") or []:
        errs.extend(validate_kube_finalizer_name(finalizer, fld_path.child("finalizers")))
    return errs


def validate_object_meta_update(
    new_meta: dict[str, Any] | None, old_meta: dict[str, Any] | None, fld_path: Path
) -> ErrorList:
    """Port of ValidateObjectMetaUpdate (core validation): the generic checks plus kube finalizer names."""
    errs = meta_validation.validate_object_meta_update(new_meta, old_meta, fld_path)
    for finalizer in (new_meta or {}).get("finalizers") or []:
        errs.extend(validate_kube_finalizer_name(finalizer, fld_path.child("finalizers")))
    return errs


def validate_kube_finalizer_name(value: str, fld_path: Path) -> ErrorList:
    """Port of validateKubeFinalizerName: a finalizer without '/' must be a standard one."""
    errs = ErrorList()
    if len(value.split("/")) == 1 and value not in STANDARD_FINALIZERS:
        errs.append(
            field.invalid(fld_path, value, "name is neither a standard finalizer name nor is it fully qualified")
        )
    return errs


def validate_dns1123_label(value: str, fld_path: Path) -> ErrorList:
    """Port of ValidateDNS1123Label (core validation)."""
    return ErrorList(field.invalid(fld_path, value, msg) for msg in is_dns1123_label(value))


# --- pods (pkg/apis/core/validation/validation.go) ------------------------------------------


def validate_pod_template_spec(template: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidatePodTemplateSpec: labels, annotations and the pod spec.

    Tricky: upstream validates the template's labels at path `...template.labels`,
    not `...template.metadata.labels`; we keep its path.
    """
    meta = template.get("metadata") or {}
    errs = validate_labels(meta.get("labels"), fld_path.child("labels"))
    errs.extend(validate_annotations(meta.get("annotations"), fld_path.child("annotations")))
    spec = template.get("spec") or {}
    errs.extend(validate_pod_spec(spec, fld_path.child("spec")))
    if spec.get("ephemeralContainers"):
        errs.append(
            field.forbidden(
                fld_path.child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"
            )
        )
    return errs


def validate_pod_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidatePodSpec, reduced to the checks listed in the module docstring.

    Volumes, containers, init containers, restartPolicy, dnsPolicy,
    nodeSelector, serviceAccountName, activeDeadlineSeconds, hostname and
    subdomain, in upstream's order.
    """
    volume_names, errs = validate_volumes(spec.get("volumes") or [], fld_path.child("volumes"))
    errs.extend(validate_containers(spec.get("containers") or [], volume_names, fld_path.child("containers")))
    errs.extend(
        validate_init_containers(
            spec.get("initContainers") or [],
            spec.get("containers") or [],
            volume_names,
            fld_path.child("initContainers"),
        )
    )
    errs.extend(validate_restart_policy(spec.get("restartPolicy") or "", fld_path.child("restartPolicy")))
    errs.extend(validate_dns_policy(spec.get("dnsPolicy") or "", fld_path.child("dnsPolicy")))
    errs.extend(validate_labels(spec.get("nodeSelector"), fld_path.child("nodeSelector")))
    service_account = spec.get("serviceAccountName") or ""
    if service_account:
        for msg in name_is_dns_subdomain(service_account, False):
            errs.append(field.invalid(fld_path.child("serviceAccountName"), service_account, msg))
    deadline = spec.get("activeDeadlineSeconds")
    if deadline is not None and not 1 <= deadline <= INT32_MAX:
        errs.append(
            field.invalid(
                fld_path.child("activeDeadlineSeconds"), deadline, meta_validation.inclusive_range_error(1, INT32_MAX)
            )
        )
    for key in ("hostname", "subdomain"):
        if spec.get(key):
            errs.extend(validate_dns1123_label(spec[key], fld_path.child(key)))
    return errs


def validate_volumes(volumes: list[dict[str, Any]], fld_path: Path) -> tuple[set[str], ErrorList]:
    """Port of ValidateVolumes (names and one source per volume): returns (names, errors)."""
    errs = ErrorList()
    names: set[str] = set()
    for i, volume in enumerate(volumes):
        idx_path = fld_path.index(i)
        name = volume.get("name") or ""
        if not name:
            errs.append(field.required(idx_path.child("name"), ""))
        else:
            errs.extend(validate_dns1123_label(name, idx_path.child("name")))
        if name and name in names:
            errs.append(field.duplicate(idx_path.child("name"), name))
        elif name:
            names.add(name)
        sources = [k for k in volume if k != "name" and volume[k] is not None]
        if not sources:
            errs.append(field.required(idx_path, "must specify a volume type"))
        elif len(sources) > 1:
            errs.append(field.forbidden(idx_path.child(sources[1]), "may not specify more than 1 volume type"))
    return names, errs


def validate_containers(containers: list[dict[str, Any]], volumes: set[str], fld_path: Path) -> ErrorList:
    """Port of validateContainers: at least one; each valid; names unique."""
    errs = ErrorList()
    if not containers:
        errs.append(field.required(fld_path, ""))
        return errs
    names: set[str] = set()
    for i, container in enumerate(containers):
        path = fld_path.index(i)
        errs.extend(validate_container_common(container, volumes, path))
        name = container.get("name") or ""
        if name in names:
            errs.append(field.duplicate(path.child("name"), name))
        else:
            names.add(name)
    return errs


def validate_init_containers(
    init_containers: list[dict[str, Any]], containers: list[dict[str, Any]], volumes: set[str], fld_path: Path
) -> ErrorList:
    """Port of validateInitContainers: like containers, names unique across both lists."""
    errs = ErrorList()
    names = {c.get("name") or "" for c in containers}
    for i, container in enumerate(init_containers):
        path = fld_path.index(i)
        errs.extend(validate_container_common(container, volumes, path))
        name = container.get("name") or ""
        if name in names:
            errs.append(field.duplicate(path.child("name"), name))
        else:
            names.add(name)
    return errs


def validate_container_common(ctr: dict[str, Any], volumes: set[str], path: Path) -> ErrorList:
    """Port of validateContainerCommon: name, image, termination message policy, ports, env, mounts, pull policy."""
    errs = ErrorList()
    name = ctr.get("name") or ""
    if not name:
        errs.append(field.required(path.child("name"), ""))
    else:
        errs.extend(validate_dns1123_label(name, path.child("name")))
    if not ctr.get("image"):
        errs.append(field.required(path.child("image"), ""))
    policy = ctr.get("terminationMessagePolicy") or ""
    if not policy:
        errs.append(field.required(path.child("terminationMessagePolicy"), ""))
    elif policy not in ("File", "FallbackToLogsOnError"):
        errs.append(
            field.not_supported(path.child("terminationMessagePolicy"), policy, ["File", "FallbackToLogsOnError"])
        )
    errs.extend(validate_container_ports(ctr.get("ports") or [], path.child("ports")))
    errs.extend(validate_env(ctr.get("env") or [], path.child("env")))
    errs.extend(validate_volume_mounts(ctr.get("volumeMounts") or [], volumes, path.child("volumeMounts")))
    errs.extend(validate_pull_policy(ctr.get("imagePullPolicy") or "", path.child("imagePullPolicy")))
    return errs


def validate_container_ports(ports: list[dict[str, Any]], fld_path: Path) -> ErrorList:
    """Port of validateContainerPorts: names, containerPort and hostPort ranges, protocol."""
    errs = ErrorList()
    names: set[str] = set()
    for i, port in enumerate(ports):
        idx_path = fld_path.index(i)
        name = port.get("name") or ""
        if name:
            msgs = meta_validation.is_valid_port_name(name)
            if msgs:
                errs.extend(field.invalid(idx_path.child("name"), name, msg) for msg in msgs)
            elif name in names:
                errs.append(field.duplicate(idx_path.child("name"), name))
            else:
                names.add(name)
        container_port = go_int(port.get("containerPort"))
        if container_port == 0:
            errs.append(field.required(idx_path.child("containerPort"), ""))
        else:
            errs.extend(
                field.invalid(idx_path.child("containerPort"), container_port, m)
                for m in meta_validation.is_valid_port_num(container_port)
            )
        host_port = go_int(port.get("hostPort"))
        if host_port != 0:
            errs.extend(
                field.invalid(idx_path.child("hostPort"), host_port, m)
                for m in meta_validation.is_valid_port_num(host_port)
            )
        protocol = port.get("protocol") or ""
        if not protocol:
            errs.append(field.required(idx_path.child("protocol"), ""))
        elif protocol not in SUPPORTED_PORT_PROTOCOLS:
            errs.append(field.not_supported(idx_path.child("protocol"), protocol, SUPPORTED_PORT_PROTOCOLS))
    return errs


def validate_env(env: list[dict[str, Any]], fld_path: Path) -> ErrorList:
    """Port of ValidateEnv (names only; valueFrom sources are not checked)."""
    errs = ErrorList()
    for i, var in enumerate(env):
        idx_path = fld_path.index(i)
        name = var.get("name") or ""
        if not name:
            errs.append(field.required(idx_path.child("name"), ""))
        else:
            errs.extend(field.invalid(idx_path.child("name"), name, m) for m in meta_validation.is_env_var_name(name))
    return errs


def validate_volume_mounts(mounts: list[dict[str, Any]], volumes: set[str], fld_path: Path) -> ErrorList:
    """Port of ValidateVolumeMounts: name known, mountPath set and unique."""
    errs = ErrorList()
    mount_points: set[str] = set()
    for i, mount in enumerate(mounts):
        idx_path = fld_path.index(i)
        name = mount.get("name") or ""
        if not name:
            errs.append(field.required(idx_path.child("name"), ""))
        if name not in volumes:
            errs.append(field.not_found(idx_path.child("name"), name))
        mount_path = mount.get("mountPath") or ""
        if not mount_path:
            errs.append(field.required(idx_path.child("mountPath"), ""))
        if mount_path in mount_points:
            errs.append(field.invalid(idx_path.child("mountPath"), mount_path, "must be unique"))
        mount_points.add(mount_path)
    return errs


def validate_pull_policy(policy: str, fld_path: Path) -> ErrorList:
    """Port of validatePullPolicy."""
    if policy in SUPPORTED_PULL_POLICIES:
        return ErrorList()
    if not policy:
        return ErrorList([field.required(fld_path, "")])
    return ErrorList([field.not_supported(fld_path, policy, SUPPORTED_PULL_POLICIES)])


def validate_restart_policy(policy: str, fld_path: Path) -> ErrorList:
    """Port of validateRestartPolicy."""
    valid = ["Always", "OnFailure", "Never"]
    if policy in valid:
        return ErrorList()
    if not policy:
        return ErrorList([field.required(fld_path, "")])
    return ErrorList([field.not_supported(fld_path, policy, valid)])


def validate_dns_policy(policy: str, fld_path: Path) -> ErrorList:
    """Port of validateDNSPolicy."""
    valid = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"]
    if policy in valid:
        return ErrorList()
    if not policy:
        return ErrorList([field.required(fld_path, "")])
    return ErrorList([field.not_supported(fld_path, policy, valid)])


def validate_pod_create(pod: dict[str, Any]) -> ErrorList:
    """Port of ValidatePodCreate: metadata, spec, and no ephemeral containers on create."""
    errs = validate_pod_metadata_and_spec(pod)
    spec = spec_of(pod)
    if spec.get("ephemeralContainers"):
        errs.append(field.forbidden(new_path("spec", "ephemeralContainers"), "cannot be set on create"))
    if spec.get("nodeName") and spec.get("schedulingGates"):
        errs.append(
            field.forbidden(new_path("spec", "nodeName"), "cannot be set until all schedulingGates have been cleared")
        )
    return errs


def validate_pod_metadata_and_spec(pod: dict[str, Any]) -> ErrorList:
    """Port of validatePodMetadataAndSpec: ObjectMeta, PodSpec, and images without outer spaces."""
    errs = validate_object_meta(pod.get("metadata"), True, name_is_dns_subdomain, new_path("metadata"))
    spec = spec_of(pod)
    errs.extend(validate_pod_spec(spec, new_path("spec")))
    for key in ("containers", "initContainers"):
        for i, ctr in enumerate(spec.get(key) or []):
            image = ctr.get("image") or ""
            if image != image.strip():
                errs.append(
                    field.invalid(
                        new_path("spec", key).index(i).child("image"),
                        image,
                        "must not have leading or trailing whitespace",
                    )
                )
    return errs


POD_UPDATE_FORBIDDEN_MSG = (
    "pod updates may not change fields other than `spec.containers[*].image`,"
    "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
)


def validate_pod_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidatePodUpdate (simplified; see the module docstring).

    Only container and init-container images, a lower activeDeadlineSeconds,
    added tolerations, terminationGracePeriodSeconds (negative to 1) and
    removed scheduling gates may change in a pod's spec.
    """
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_pod_metadata_and_spec(new))
    spec_path = new_path("spec")
    new_spec, old_spec = spec_of(new), spec_of(old)
    for key in ("containers", "initContainers"):
        container_errs, stop = validate_container_updates(
            new_spec.get(key) or [], old_spec.get(key) or [], spec_path.child(key)
        )
        errs.extend(container_errs)
        if stop:
            return errs
    new_deadline, old_deadline = new_spec.get("activeDeadlineSeconds"), old_spec.get("activeDeadlineSeconds")
    if new_deadline is not None:
        if old_deadline is not None and new_deadline > old_deadline:
            errs.append(
                field.invalid(
                    spec_path.child("activeDeadlineSeconds"),
                    new_deadline,
                    "must be less than or equal to previous value",
                )
            )
    elif old_deadline is not None:
        errs.append(
            field.invalid(
                spec_path.child("activeDeadlineSeconds"), None, "must not update from a positive integer to nil value"
            )
        )
    errs.extend(
        validate_only_added_tolerations(
            new_spec.get("tolerations") or [], old_spec.get("tolerations") or [], spec_path.child("tolerations")
        )
    )

    # Copy the mutable fields from new onto old; anything else that differs is forbidden.
    munged = copy.deepcopy(new_spec)
    for key in ("containers", "initContainers"):
        for ctr, old_ctr in zip(munged.get(key) or [], old_spec.get(key) or []):
            ctr["image"] = old_ctr.get("image")
    for key in ("activeDeadlineSeconds", "tolerations", "schedulingGates"):
        copy_key(munged, old_spec, key)
    old_grace = old_spec.get("terminationGracePeriodSeconds")
    if old_grace is not None and old_grace < 0 and munged.get("terminationGracePeriodSeconds") == 1:
        munged["terminationGracePeriodSeconds"] = old_grace
    if not semantic_deep_equal(munged, old_spec):
        errs.append(field.forbidden(spec_path, POD_UPDATE_FORBIDDEN_MSG))
    return errs


def validate_container_updates(
    new: list[dict[str, Any]], old: list[dict[str, Any]], fld_path: Path
) -> tuple[ErrorList, bool]:
    """Port of ValidateContainerUpdates: same number of containers, images still set."""
    errs = ErrorList()
    if len(new) != len(old):
        errs.append(field.forbidden(fld_path, "pod updates may not add or remove containers"))
        return errs, True
    for i, ctr in enumerate(new):
        if not ctr.get("image"):
            errs.append(field.required(fld_path.index(i).child("image"), ""))
    return errs, False


def validate_only_added_tolerations(new: list[dict[str, Any]], old: list[dict[str, Any]], fld_path: Path) -> ErrorList:
    """Port of validateOnlyAddedTolerations: every old toleration kept (tolerationSeconds may change)."""
    errs = ErrorList()
    for old_toleration in old:
        found = False
        for new_toleration in new:
            clone = dict(old_toleration)
            copy_key(clone, new_toleration, "tolerationSeconds")
            if semantic_deep_equal(clone, new_toleration):
                found = True
                break
        if not found:
            errs.append(
                field.forbidden(fld_path, "existing toleration can not be modified except its tolerationSeconds")
            )
            return errs
    return errs


def validate_pod_status_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidatePodStatusUpdate (metadata, nominatedNodeName and container state transitions)."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    status, old_status = status_of(new), status_of(old)
    status_path = new_path("status")
    nominated = status.get("nominatedNodeName") or ""
    if nominated:
        for msg in name_is_dns_subdomain(nominated, False):
            errs.append(field.invalid(status_path.child("nominatedNodeName"), nominated, msg))
    restart_policy = spec_of(old).get("restartPolicy") or "Always"
    for key in ("containerStatuses", "initContainerStatuses"):
        errs.extend(
            validate_container_state_transition(
                status.get(key) or [], old_status.get(key) or [], status_path.child(key), restart_policy
            )
        )
    return errs


def validate_container_state_transition(
    new: list[dict[str, Any]], old: list[dict[str, Any]], fld_path: Path, restart_policy: str
) -> ErrorList:
    """Port of ValidateContainerStateTransition: a terminated container that may not restart stays terminated."""
    errs = ErrorList()
    if restart_policy == "Always":
        return errs
    for i, old_status in enumerate(old):
        terminated = (old_status.get("state") or {}).get("terminated")
        if terminated is None:
            continue
        if go_int(terminated.get("exitCode")) != 0 and restart_policy == "OnFailure":
            continue
        for new_status in new:
            if (
                new_status.get("name") == old_status.get("name")
                and (new_status.get("state") or {}).get("terminated") is None
            ):
                errs.append(
                    field.forbidden(fld_path.index(i).child("state"), "may not be transitioned to non-terminated state")
                )
    return errs


# --- PersistentVolumeClaim, Service, Namespace ---------------------------------------

SUPPORTED_ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"]


def validate_persistent_volume_claim(pvc: dict[str, Any]) -> ErrorList:
    """Port of ValidatePersistentVolumeClaim: metadata and spec."""
    errs = validate_object_meta(pvc.get("metadata"), True, name_is_dns_subdomain, new_path("metadata"))
    errs.extend(validate_persistent_volume_claim_spec(spec_of(pvc), new_path("spec")))
    return errs


def validate_persistent_volume_claim_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidatePersistentVolumeClaimSpec: access modes, selector, storage request, volumeMode, class."""
    errs = ErrorList()
    modes = spec.get("accessModes") or []
    if not modes:
        errs.append(field.required(fld_path.child("accessModes"), "at least 1 access mode is required"))
    if spec.get("selector") is not None:
        errs.extend(validate_label_selector(spec["selector"], fld_path.child("selector")))
    for mode in modes:
        if mode not in SUPPORTED_ACCESS_MODES:
            errs.append(field.not_supported(fld_path.child("accessModes"), mode, SUPPORTED_ACCESS_MODES))
    requests = ((spec.get("resources") or {}).get("requests")) or {}
    if "storage" not in requests:
        errs.append(field.required(fld_path.child("resources").key("storage"), ""))
    class_name = spec.get("storageClassName")
    if class_name:
        errs.extend(
            field.invalid(fld_path.child("storageClassName"), class_name, m)
            for m in name_is_dns_subdomain(class_name, False)
        )
    mode = spec.get("volumeMode")
    if mode is not None and mode not in ("Block", "Filesystem"):
        errs.append(field.not_supported(fld_path.child("volumeMode"), mode, ["Block", "Filesystem"]))
    return errs


PVC_SPEC_IMMUTABLE_MSG = (
    "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"
)


def validate_persistent_volume_claim_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidatePersistentVolumeClaimUpdate (simplified): only requests and the attributes class change.

    As upstream, `spec.volumeName` may be set once while it is still empty
    (binding a claim to a volume); after that it is immutable like the rest.
    """
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_persistent_volume_claim_spec(spec_of(new), new_path("spec")))
    clone = copy.deepcopy(spec_of(new))
    old_spec = spec_of(old)
    copy_key(clone, old_spec, "volumeAttributesClassName")
    if not old_spec.get("volumeName"):
        copy_key(clone, old_spec, "volumeName")  # binding sets it once
    if "resources" in clone or "resources" in old_spec:
        resources = clone.setdefault("resources", {})
        copy_key(resources, old_spec.get("resources") or {}, "requests")
    if not semantic_deep_equal(clone, old_spec):
        errs.append(field.forbidden(new_path("spec"), PVC_SPEC_IMMUTABLE_MSG))
    return errs


SUPPORTED_SERVICE_TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]


def validate_service(service: dict[str, Any]) -> ErrorList:
    """Port of ValidateService (ports, type, selector, session affinity, external name)."""
    errs = validate_object_meta(service.get("metadata"), True, name_is_dns1035_label, new_path("metadata"))
    spec = spec_of(service)
    spec_path = new_path("spec")
    service_type = spec.get("type") or ""
    headless = spec.get("clusterIP") == "None"
    ports = spec.get("ports") or []
    if not ports and not headless and service_type != "ExternalName":
        errs.append(field.required(spec_path.child("ports"), ""))
    if service_type == "ExternalName" and not spec.get("externalName"):
        errs.append(field.required(spec_path.child("externalName"), ""))
    names: set[str] = set()
    seen: list[tuple[Any, Any]] = []
    for i, port in enumerate(ports):
        port_path = spec_path.child("ports").index(i)
        errs.extend(validate_service_port(port, len(ports) > 1, names, port_path))
        key = (port.get("protocol"), port.get("port"))
        if key in seen:
            errs.append(field.duplicate(port_path, {"port": port.get("port"), "protocol": port.get("protocol")}))
        seen.append(key)
    errs.extend(validate_labels(spec.get("selector"), spec_path.child("selector")))
    affinity = spec.get("sessionAffinity") or ""
    if not affinity:
        errs.append(field.required(spec_path.child("sessionAffinity"), ""))
    elif affinity not in ("ClientIP", "None"):
        errs.append(field.not_supported(spec_path.child("sessionAffinity"), affinity, ["ClientIP", "None"]))
    if not service_type:
        errs.append(field.required(spec_path.child("type"), ""))
    elif service_type not in SUPPORTED_SERVICE_TYPES:
        errs.append(field.not_supported(spec_path.child("type"), service_type, SUPPORTED_SERVICE_TYPES))
    return errs


def validate_service_port(port: dict[str, Any], require_name: bool, names: set[str], fld_path: Path) -> ErrorList:
    """Port of validateServicePort: name, port number, protocol, targetPort."""
    errs = ErrorList()
    name = port.get("name") or ""
    if require_name and not name:
        errs.append(field.required(fld_path.child("name"), ""))
    elif name:
        errs.extend(validate_dns1123_label(name, fld_path.child("name")))
        if name in names:
            errs.append(field.duplicate(fld_path.child("name"), name))
        else:
            names.add(name)
    number = go_int(port.get("port"))
    errs.extend(field.invalid(fld_path.child("port"), number, m) for m in meta_validation.is_valid_port_num(number))
    protocol = port.get("protocol") or ""
    if not protocol:
        errs.append(field.required(fld_path.child("protocol"), ""))
    elif protocol not in SUPPORTED_PORT_PROTOCOLS:
        errs.append(field.not_supported(fld_path.child("protocol"), protocol, SUPPORTED_PORT_PROTOCOLS))
    target = port.get("targetPort")
    if isinstance(target, str):
        errs.extend(
            field.invalid(fld_path.child("targetPort"), target, m) for m in meta_validation.is_valid_port_name(target)
        )
    elif isinstance(target, int):
        errs.extend(
            field.invalid(fld_path.child("targetPort"), target, m) for m in meta_validation.is_valid_port_num(target)
        )
    return errs


def validate_service_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateServiceUpdate (simplified): metadata update, clusterIP kept, the new service valid."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    old_ip = spec_of(old).get("clusterIP") or ""
    if old_ip and spec_of(new).get("type") != "ExternalName" and spec_of(old).get("type") != "ExternalName":
        errs.extend(
            validate_immutable_field(spec_of(new).get("clusterIP") or "", old_ip, new_path("spec", "clusterIP"))
        )
    errs.extend(validate_service(new))
    return errs


def validate_namespace(namespace: dict[str, Any]) -> ErrorList:
    """Port of ValidateNamespace: metadata (cluster-scoped, name a DNS label) and spec.finalizers."""
    errs = validate_object_meta(namespace.get("metadata"), False, name_is_dns_label, new_path("metadata"))
    for finalizer in spec_of(namespace).get("finalizers") or []:
        path = new_path("spec", "finalizers")
        errs.extend(field.invalid(path, finalizer, m) for m in is_qualified_name(finalizer))
        errs.extend(validate_kube_finalizer_name(finalizer, path))
    return errs


def validate_namespace_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateNamespaceUpdate: the metadata update."""
    return validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))


def validate_namespace_status_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateNamespaceStatusUpdate: Active unless deleting, Terminating while deleting."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    phase = status_of(new).get("phase") or ""
    if (new.get("metadata") or {}).get("deletionTimestamp") is None:
        if phase != "Active":
            errs.append(
                field.invalid(
                    new_path("status", "Phase"), phase, "may only be 'Active' if `deletionTimestamp` is empty"
                )
            )
    elif phase != "Terminating":
        errs.append(
            field.invalid(
                new_path("status", "Phase"), phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"
            )
        )
    return errs
