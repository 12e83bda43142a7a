"""Tests for minikcm.exercises.base: resolving and substituting targets, running cases, loading files."""

from __future__ import annotations

import pytest

from minikcm.exercises.base import (
    NOT_WRITTEN,
    Budget,
    Case,
    CheckAbort,
    CheckFailed,
    Exercise,
    FixedDraws,
    check_exercise,
    expect_equal,
    load_learner_function,
    resolve,
    run_case,
    substitute,
)
from minikcm.tools.cache import store
from minikcm.util.workqueue import queue
from minikcm.util.workqueue.queue import Type


def candidate(*args: object) -> None:
    raise NotImplementedError("exercise: write it")


RESOLVE_CASES = [
    #            target,                                                owner,       attribute
    pytest.param("minikcm.util.workqueue.queue.Type.add",               Type,        "add", id="method"),
    pytest.param("minikcm.tools.cache.store.meta_namespace_key_func",   store,       "meta_namespace_key_func", id="module-function"),
]


@pytest.mark.parametrize("target, owner, attr", RESOLVE_CASES)
def test_resolve(target, owner, attr):
    got_owner, got_attr, original = resolve(target)
    assert (got_owner, got_attr) == (owner, attr)
    assert original is vars(owner)[attr]


@pytest.mark.parametrize("target", [
    pytest.param("minikcm.util.workqueue.queue.Type.nope", id="no-attribute"),
    pytest.param("nomodule.thing", id="no-module"),
    pytest.param("minikcm.util.workqueue.delaying_queue.DelayingType.__repr__.nothing", id="attribute-of-a-function"),
])
def test_resolve_refuses_what_does_not_exist(target):
    with pytest.raises(LookupError):
        resolve(target)


def test_resolve_refuses_an_inherited_method():
    class Child(Type):
        pass

    import sys
    import types

    module = types.ModuleType("exercise_test_child")
    module.Child = Child  # type: ignore[attr-defined]
    sys.modules["exercise_test_child"] = module
    try:
        with pytest.raises(LookupError, match="inherits 'add'"):
            resolve("exercise_test_child.Child.add")
    finally:
        del sys.modules["exercise_test_child"]


def test_substitute_swaps_every_binding_and_restores_them_after_an_error():
    from minikcm.tools.cache import delta_fifo

    original = store.meta_namespace_key_func
    with pytest.raises(RuntimeError), substitute("minikcm.tools.cache.store.meta_namespace_key_func", candidate):
        assert store.meta_namespace_key_func is candidate
        assert delta_fifo.meta_namespace_key_func is candidate  # `from store import ...` binding
        raise RuntimeError("boom")
    assert store.meta_namespace_key_func is original and delta_fifo.meta_namespace_key_func is original


def test_substitute_a_method():
    original = vars(Type)["add"]
    with substitute("minikcm.util.workqueue.queue.Type.add", candidate):
        with pytest.raises(NotImplementedError):
            queue.new().add("x")
    assert vars(Type)["add"] is original


def wraps_not_implemented() -> None:
    try:
        candidate()
    except NotImplementedError as err:
        raise ValueError("the port wrapped it") from err


def exits() -> None:
    raise SystemExit(2)


def fails_long() -> None:
    raise CheckFailed("x" * 1000)


RUN_CASE_CASES = [
    #            body,                 message starts with
    pytest.param(candidate,            NOT_WRITTEN, id="not-implemented"),
    pytest.param(wraps_not_implemented, NOT_WRITTEN, id="wrapped-not-implemented"),
    pytest.param(exits,                "called sys.exit(2)", id="sys-exit"),
    pytest.param(fails_long,           "xxx", id="check-failed"),
]


@pytest.mark.parametrize("body, start", RUN_CASE_CASES)
def test_run_case_turns_everything_into_a_failure(body, start):
    outcome = run_case(Case("c", body), candidate)
    assert not outcome.ok and outcome.message.startswith(start)
    assert len(outcome.message) <= 400
    if body is candidate:
        assert "(at test_base.py:" in outcome.message


def test_check_exercise_skips_runs_after_a_failed_row():
    ran = []

    def ok() -> None:
        ran.append("ok")

    def bad() -> None:
        expect_equal(1, 2, "one")

    def cases() -> list[Case]:
        return [Case("ok", ok), Case("bad", bad), Case("run", ok, is_run=True)]

    ex = Exercise("add", "minikcm.util.workqueue.queue.Type.add", "Typed.Add", "", "", "", "", cases)
    result = check_exercise(ex, vars(Type)["add"])
    assert [(o.name, o.ok, o.skipped) for o in result.outcomes] == [
        ("ok", True, False), ("bad", False, False), ("run", False, True)]
    assert result.summary() == "1/3 cases" and not result.passed
    assert [o.name for o in check_exercise(ex, vars(Type)["add"], runs=False).outcomes] == ["ok", "bad"]


def test_load_learner_function(tmp_path):
    path = tmp_path / "add.py"
    with pytest.raises(FileNotFoundError):
        load_learner_function(path, "add", "exercise_test_add")
    path.write_text("add = 3\n", encoding="utf-8")
    with pytest.raises(LookupError, match="defines no function 'add'"):
        load_learner_function(path, "add", "exercise_test_add")
    path.write_text("def add(self, item):\n    return item\n", encoding="utf-8")
    assert load_learner_function(path, "add", "exercise_test_add")(None, 4) == 4


def test_budget_aborts_a_runaway_loop():
    budget = Budget(2, "f")
    budget.spend()
    budget.spend()
    with pytest.raises(CheckAbort, match="f ran more than 2 times"):
        budget.spend()


def test_fixed_draws():
    rng = FixedDraws(0.25, 0.5)
    assert [rng.random(), rng.random()] == [0.25, 0.5]
    with pytest.raises(CheckFailed):
        rng.random()
