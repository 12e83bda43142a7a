"""Ports of cmd/kube-controller-manager: options and the controller-manager itself.
"""
