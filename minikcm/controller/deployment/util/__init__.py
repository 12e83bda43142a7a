"""Port of k8s.io/kubernetes/pkg/controller/deployment/util: the Deployment controller's toolbox.

What the controller computes without a client: revision and replica annotations
on ReplicaSets, Progressing/Available conditions, maxSurge/maxUnavailable
arithmetic, proportional-scaling fractions, and which ReplicaSet is the new one.
kubectl's rollout commands read the same annotations and conditions. At v1.36
the package is deployment_util.go alone: the old pod_util.go and
replicaset_util.go are gone, and the pod-template hash is controller_utils.compute_hash.
"""
