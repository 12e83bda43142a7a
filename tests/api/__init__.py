"""Tests for minikcm.api (mirrors minikcm/api)."""
