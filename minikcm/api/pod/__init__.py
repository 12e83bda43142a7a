"""Port of k8s.io/kubernetes/pkg/api/v1/pod: helpers that read and update v1 Pods.

Readiness and availability (`is_pod_ready`, `is_pod_available`), pod
conditions (`get_pod_condition`, `update_pod_condition`) and container
walks. The ReplicaSet, Deployment and StatefulSet controllers decide
"ready" and "available" through these functions, so the rules live in one
place. The code is in `minikcm.api.pod.util` (upstream: util.go).
"""
