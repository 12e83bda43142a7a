"""Tests for minikcm.controller.util."""
