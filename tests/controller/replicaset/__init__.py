"""Tests for minikcm.controller.replicaset (mirrors minikcm/controller/replicaset)."""
