"""Ports of k8s.io/client-go/util (workqueue, retry), k8s.io/kubernetes/pkg/util (labels, hash) and two small libraries.

The work queue that decouples event handlers from controller workers, the
conflict retry of read-modify-write updates (`retry`), and the label helpers
controllers use to stamp pod-template-hash onto selectors; `rate`
(golang.org/x/time/rate) is the token bucket behind the work queue's and the
event correlator's limits, `lru` (k8s.io/utils/lru) the bounded caches of the
event correlator and the StatefulSet control.
"""
