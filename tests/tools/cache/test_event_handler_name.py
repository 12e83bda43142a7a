"""Tests for minikcm/tools/cache/event_handler_name.py (port of event_handler_name_test.go, plus our own)."""

from __future__ import annotations

import functools

import pytest

from minikcm.tools.cache.controller import (
    FilteringResourceEventHandler,
    ResourceEventHandlerDetailedFuncs,
    ResourceEventHandlerFuncs,
)
from minikcm.tools.cache.event_handler_name import name_for_function, name_for_handler

HERE = __name__  # the module name pytest gave this file


class MockHandler:
    def on_add(self, obj, is_in_initial_list):
        pass

    def on_update(self, old_obj, new_obj):
        pass

    def on_delete(self, obj):
        pass


def noop(obj):
    pass


def cases():
    """The rows of TestNameForHandler; built in a function so that the lambdas live in one place."""
    empty = ResourceEventHandlerFuncs()
    return [
        pytest.param(ResourceEventHandlerFuncs(update_func=empty.on_update, delete_func=lambda obj: None),
                     "minikcm.tools.cache.controller.ResourceEventHandlerFuncs.on_update"
                     f"+{HERE}.cases.<locals>.<lambda>", id="mixture"),
        pytest.param(ResourceEventHandlerFuncs(add_func=lambda obj: None), f"{HERE}.cases", id="add"),
        pytest.param(ResourceEventHandlerFuncs(update_func=lambda old, new: None), f"{HERE}.cases", id="update"),
        pytest.param(ResourceEventHandlerFuncs(delete_func=lambda obj: None), f"{HERE}.cases", id="delete"),
        pytest.param(ResourceEventHandlerFuncs(lambda obj: None, lambda old, new: None, lambda obj: None),
                     f"{HERE}.cases", id="all"),
        pytest.param(ResourceEventHandlerDetailedFuncs(add_func=lambda obj, initial: None), f"{HERE}.cases",
                     id="detailed-funcs"),
        pytest.param(MockHandler(), f"{HERE}.MockHandler", id="struct"),
        pytest.param(ResourceEventHandlerFuncs(add_func=noop), HERE, id="module-function"),
        pytest.param(None, "NoneType", id="nil"),
        pytest.param(ResourceEventHandlerFuncs(), "ResourceEventHandlerFuncs", id="no-functions-last-resort"),
        pytest.param(FilteringResourceEventHandler(lambda obj: True, MockHandler()),
                     "minikcm.tools.cache.controller.FilteringResourceEventHandler", id="other-handler-type"),
    ]


@pytest.mark.parametrize("handler, want", cases())
def test_name_for_handler(handler, want):
    """Port of TestNameForHandler (tools/cache/event_handler_name_test.go)."""
    assert name_for_handler(handler) == want


class HalfBuilt:
    """An owner whose `__repr__` reads a field that is only set at the end of `__init__`."""

    def __init__(self) -> None:
        self.handler = ResourceEventHandlerFuncs(self.on_add, self.on_update, self.on_delete)
        self.name = name_for_handler(self.handler)  # named while `label` does not exist yet
        self.label = "ready"

    def __repr__(self) -> str:
        return f"HalfBuilt({self.label})"

    def on_add(self, obj):
        pass

    def on_update(self, old_obj, new_obj):
        pass

    def on_delete(self, obj):
        pass


def test_naming_never_calls_repr_of_the_handler_or_its_owner():
    built = HalfBuilt()
    assert built.name == f"{HERE}.HalfBuilt"


class ReprRaises:
    def __repr__(self) -> str:
        raise AttributeError("not ready")

    def __call__(self, obj) -> None:
        pass


NAME_FOR_FUNCTION_CASES = [
    pytest.param(noop, f"{HERE}.noop", id="function"),
    pytest.param(MockHandler().on_add, f"{HERE}.MockHandler.on_add", id="bound-method"),
    pytest.param(ReprRaises(), f"{HERE}.ReprRaises", id="callable-object-is-named-after-its-class"),
    pytest.param(functools.partial(noop), "functools.partial", id="partial"),
]


@pytest.mark.parametrize("f, want", NAME_FOR_FUNCTION_CASES)
def test_name_for_function(f, want):
    assert name_for_function(f) == want
