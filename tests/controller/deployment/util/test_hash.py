"""Port of pkg/controller/deployment/util/hash_test.go.

Upstream keeps this test beside the Deployment utilities although the hash it
checks is controller.ComputeHash (minikcm.controller.controller_utils): the
pod-template-hash that names a Deployment's ReplicaSets. The adler32
comparison helper and the two benchmarks are not ported.
"""

from __future__ import annotations

import json

from kubernetes.client import V1PodTemplateSpec

from minikcm.apimachinery.convert import from_wire
from minikcm.controller.controller_utils import compute_hash

# The pod template of upstream's test, with a version placeholder in the image.
POD_SPEC = """
{
    "metadata": {"creationTimestamp": null, "labels": {"app": "cats"}},
    "spec": {
        "containers": [
            {
                "name": "cats",
                "image": "registry/test/cats:v0.@@VERSION@@.0",
                "ports": [{"name": "http", "containerPort": 9077, "protocol": "TCP"}],
                "env": [
                    {"name": "DEPLOYMENT_ENVIRONMENT", "value": "cats-stubbed-functional"},
                    {"name": "APP_NAME", "value": "cats"}
                ],
                "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}},
                "livenessProbe": {
                    "httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"},
                    "initialDelaySeconds": 30, "timeoutSeconds": 1, "periodSeconds": 10,
                    "successThreshold": 1, "failureThreshold": 3
                },
                "readinessProbe": {
                    "httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"},
                    "initialDelaySeconds": 1, "timeoutSeconds": 1, "periodSeconds": 10,
                    "successThreshold": 1, "failureThreshold": 3
                },
                "terminationMessagePath": "/dev/termination-log",
                "imagePullPolicy": "IfNotPresent"
            }
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "securityContext": {}
    }
}
"""


def test_pod_template_spec_hash():
    """Port of TestPodTemplateSpecHash (hash_test.go): 1000 image versions, no two hashes alike."""
    seen: dict[str, int] = {}
    for i in range(1000):
        spec = from_wire(json.loads(POD_SPEC.replace("@@VERSION@@", str(i), 1)), V1PodTemplateSpec)
        h = compute_hash(spec, None)
        assert h not in seen, f"hash collision, old: {seen[h]} new: {i}"
        seen[h] = i
