"""Tests for minikcm.tools (mirrors minikcm/tools)."""
