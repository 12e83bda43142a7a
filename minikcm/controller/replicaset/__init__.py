"""Port of k8s.io/kubernetes/pkg/controller/replicaset: the ReplicaSet controller.

It sits between the pod and ReplicaSet informers and the API server: handlers
queue ReplicaSet keys, and `sync_replica_set` creates or deletes pods until
each ReplicaSet has `spec.replicas` of them, then writes their counts to its
status. The Deployment controller drives rollouts through ReplicaSets, so this
is the piece that actually makes and removes a Deployment's pods.
"""
