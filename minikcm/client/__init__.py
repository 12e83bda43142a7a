"""Port of k8s.io/client-go/kubernetes (the typed clientset), with two backends.

Controllers talk to the API only through this interface. The in-process backend
calls the embedded API server directly (tests, debugger, deterministic runs); the
REST backend uses the official kubernetes client over HTTP, so the same
controllers run against a real cluster.
"""
