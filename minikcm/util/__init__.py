"""Ports of k8s.io/client-go/util (workqueue) and k8s.io/kubernetes/pkg/util (labels).

The work queue that decouples event handlers from controller workers, and the
label helpers controllers use to stamp pod-template-hash onto selectors.
"""
