"""Ports of k8s.io/kubernetes/pkg/api: helpers over the core API types.

Upstream keeps small, dependency-free helpers for API objects here (pod
readiness, conditions, container lists). Controllers and the simulated
kubelet use them to read the pods they manage; nothing here talks to the
API server.
"""
