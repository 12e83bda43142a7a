"""Ports of k8s.io/apimachinery: labels, fields, intstr, errors, meta helpers, wait, runtime.

The vocabulary every other layer speaks: selectors that pick objects, the
Kubernetes Status errors that API calls raise, owner-reference helpers, and the
polling loops (wait) that every long-running piece of minikcm is built from.
"""
