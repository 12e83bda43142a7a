"""No upstream twin. The answers where the simulation stops: logs, exec, attach, port-forward, proxy.

kube-apiserver serves `pods/log`, `pods/exec`, `pods/attach`, `pods/portforward`
and the `proxy` subresources by connecting to the kubelet of the pod's node
(pkg/registry/core/pod/rest/log.go, subresources.go), which runs the
containers. minikcm's simulated kubelet runs none: a pod's status is
simulated, there is no process, no log file and no port. So these
subresources exist (discovery lists them, as upstream's does) and every request
on them gets a Kubernetes-style error that says why, instead of a bare 404
that reads like a bug. `kubectl cp` runs `tar` through exec, so it gets the
exec answer. `kubectl top` asks discovery for `metrics.k8s.io`, finds no such
group (minikcm runs no metrics server) and says "Metrics API not available".

Start reading at: simulation_stops.
"""

from __future__ import annotations

from minikcm.apimachinery import errors
from minikcm.apiserver.http.routes import ResourceRequest

NO_CONTAINERS = "minikcm's simulated kubelet runs no containers (pod status is simulated; see README, \"What `minikcm up` is not\")"
NO_NETWORK = "minikcm's simulated nodes serve no network traffic (see README, \"What `minikcm up` is not\")"

_WHAT = {
    "log": "has no container logs",
    "exec": "cannot run commands (exec, cp)",
    "attach": "cannot be attached to",
    "portforward": "has no ports to forward",
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
