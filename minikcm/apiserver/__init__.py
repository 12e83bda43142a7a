"""No upstream twin. The embedded API server: storage, registry, HTTP front.

kube-apiserver cannot run here, so minikcm brings a small one that keeps the
semantics controllers rely on: resourceVersion and optimistic concurrency,
generation, status and scale subresources, selectors, watch with 410 Gone,
defaulting and validation with Kubernetes-style errors.
"""
