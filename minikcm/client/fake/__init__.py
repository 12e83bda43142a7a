"""Port of k8s.io/client-go/kubernetes/fake: the simple fake clientset for tests.

`new_simple_clientset(objs...)` seeds an embedded API server and puts client-go
testing's Fake (`minikcm.client.testing`) in front of the in-process clientset.
"""

from minikcm.client.fake.clientset_generated import new_simple_clientset

__all__ = ["new_simple_clientset"]
