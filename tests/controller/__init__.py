"""Tests for minikcm.controller (mirrors minikcm/controller)."""
