"""Ports of k8s.io/client-go/tools: cache (informers), leaderelection, record (events).
"""
