"""Port of k8s.io/kubernetes/pkg/controller/deployment: the Deployment controller.

A Deployment owns ReplicaSets, one per pod template it has ever run. The
controller watches Deployments, ReplicaSets and pods, and on every sync
decides how many replicas each ReplicaSet gets: a rolling update, a recreate,
a proportional scale, a rollback or a pause. It never creates pods itself; the
ReplicaSet controller does. `util/` holds the arithmetic, annotations and
conditions that kubectl and users see.
"""
