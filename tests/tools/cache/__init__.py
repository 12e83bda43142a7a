"""Tests for minikcm.tools.cache, one module per source module (ports of client-go tools/cache tests)."""
