"""Ports of k8s.io/kubernetes/pkg/controller/util: helpers shared by several controllers.

Only `consistency` (pkg/controller/util/consistency) is ported: the 1.36
stale-controller consistency store that makes a controller wait until its
informers have caught up with its own writes.
"""
