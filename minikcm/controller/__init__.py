"""Port of k8s.io/kubernetes/pkg/controller: helpers shared by every controller.

Expectations, pod and replica set control, ActivePods ordering and the
controller-ref manager live here; each controller has its own sub-package.
"""
