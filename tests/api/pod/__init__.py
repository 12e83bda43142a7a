"""Tests for minikcm.api.pod (ports of pkg/api/v1/pod tests)."""
