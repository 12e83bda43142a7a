"""No upstream twin. The answers where the simulation stops: logs, exec, attach, port-forward, proxy, debug.

kube-apiserver serves `pods/log`, `pods/exec`, `pods/attach`, `pods/portforward`
and the `proxy` subresources by connecting to the kubelet of the pod's node
(pkg/registry/core/pod/rest/log.go, subresources.go), which runs the
containers. minikcm's simulated kubelet runs none: a pod's status is
simulated, there is no process, no log file and no port. So these
subresources exist (discovery lists them, as upstream's does) and every request
on them gets a Kubernetes-style error that says why, instead of a bare 404
that reads like a bug. `kubectl cp` runs `tar` through exec, so it gets the
exec answer, and `kubectl debug` the ephemeralcontainers one. `kubectl top` asks discovery for `metrics.k8s.io`, finds no such
group (minikcm runs no metrics server) and says "Metrics API not available".

Kubernetes resources minikcm does not serve at all (ConfigMaps, Jobs,
HorizontalPodAutoscalers, ...) stay a 404, as on a server without them, but
the message names the resource and says that minikcm does not serve it
(`not_served`), so `kubectl create job` or `kubectl autoscale` do not read like
a bug either.

Start reading at: simulation_stops, then not_served.
"""

from __future__ import annotations

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.apiserver.http.routes import ResourceRequest

NO_CONTAINERS = ("minikcm's simulated kubelet runs no containers (pod status is simulated; "
                 "see README, \"What `minikcm up` is not\")")
NO_NETWORK = "minikcm's simulated nodes serve no network traffic (see README, \"What `minikcm up` is not\")"

_WHAT = {
    "log": "has no container logs",
    "exec": "cannot run commands (exec, cp)",
    "attach": "cannot be attached to",
    "portforward": "has no ports to forward",
    "ephemeralcontainers": "cannot run ephemeral (debug) containers",
}


def simulation_stops(req: ResourceRequest) -> errors.StatusError:
    """The 400 BadRequest for a request on an unserved subresource of an existing object.

    The caller checks first that the object exists (a missing pod stays a 404).
    """
    kind = req.info.kind.lower()
    if req.subresource == "proxy":
        return errors.new_bad_request(f'{kind} "{req.name}" cannot be proxied to: {NO_NETWORK}')
    what = _WHAT.get(req.subresource or "", "is not served")
    return errors.new_bad_request(f'{kind} "{req.name}" {what}: {NO_CONTAINERS}')


NOT_SERVED: dict[str, tuple[str, ...]] = {
    "": ("configmaps", "secrets", "serviceaccounts", "endpoints", "limitranges", "resourcequotas",
         "persistentvolumes", "replicationcontrollers", "podtemplates"),
    "apps": ("daemonsets",),
    "batch": ("jobs", "cronjobs"),
    "autoscaling": ("horizontalpodautoscalers",),
    "policy": ("poddisruptionbudgets",),
    "networking.k8s.io": ("ingresses", "networkpolicies", "ingressclasses"),
    "discovery.k8s.io": ("endpointslices",),
    "rbac.authorization.k8s.io": ("roles", "rolebindings", "clusterroles", "clusterrolebindings"),
    "storage.k8s.io": ("storageclasses", "csidrivers", "csinodes", "volumeattachments"),
    "metrics.k8s.io": ("pods", "nodes"),
}
"""Well-known Kubernetes resources minikcm does not serve, by group: a request for one gets `not_served`'s 404."""


def not_served(path: str) -> errors.StatusError | None:
    """The 404 for a path naming a well-known resource minikcm does not serve; None for any other path.

    `/api/v1/[namespaces/{ns}/]{resource}...` and `/apis/{group}/{version}/[namespaces/{ns}/]{resource}...`.
    """
    parts = [p for p in path.split("/") if p]
    if parts[:1] == ["api"] and len(parts) >= 3:
        group, rest = "", parts[2:]
    elif parts[:1] == ["apis"] and len(parts) >= 4:
        group, rest = parts[1], parts[3:]
    else:
        return None
    if rest[0] == "watch":
        rest = rest[1:]
    if len(rest) >= 3 and rest[0] == "namespaces":
        rest = rest[2:]
    if not rest or rest[0] not in NOT_SERVED.get(group, ()):
        return None
    what = f"{rest[0]}.{group}" if group else rest[0]
    why = ("minikcm runs no metrics server" if group == "metrics.k8s.io"
           else "minikcm does not serve it")
    err = errors.new_generic_server_response(404, "", GroupResource(group, rest[0]), "", "", 0, False)
    err.err_status["message"] = (f"the server could not find the requested resource ({what}): {why}; "
                                 "see README, \"What `minikcm up` is not\"")
    return err
