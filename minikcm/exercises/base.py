"""No upstream twin. What every chapter's exercises share: `Exercise`, `Case`, `Chapter`, and the checker.

An exercise is a real function of the port whose body the learner writes. Its
starting file holds that function's signature and docstring with the body
replaced by `raise NotImplementedError(...)`; the reference solution is the
port's own function. A check puts a candidate (the learner's function, or the
reference) in place of the real one, runs the exercise's cases, and puts the
real one back. The cases are table rows first, then one or two deterministic
runs of the port (a `minikcm.sim.scenarios` scenario or a small driver run)
that only start once every table row passed.

Start reading at: check_exercise, then substitute.

Design notes: substitution. A method is swapped on its class, so every
instance in the running port calls the candidate (`LeaderElector.try_acquire_or_renew`,
`Type.add`). A module-level function is swapped in its module *and* in every
loaded module that imported it by name (`from minikcm.tools.cache.store import
meta_namespace_key_func` makes a second binding that a plain setattr on the
store module would miss): `substitute` looks for bindings that are the very
same function object, so unrelated functions of the same name are left alone.
This is test-time substitution, scoped by a `with` block and always undone; the
port itself never patches anything. Callers that captured the function in a
value (a default argument, a field default) before the check would keep the
original; none of the exercised functions is captured that way, and the
exercise meta-test (tests/exercises) would catch a new one, because the
starting file would then pass.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

STARTING_FILE_MARKER = "exercise:"
"""Starts the message of every starting file's NotImplementedError."""
NOT_WRITTEN = "not written yet"
"""Starts the message of a case that failed because the candidate raised NotImplementedError."""


class CheckFailed(AssertionError):
    """A case's expectation was not met; the message says what was wanted and what happened."""


class CheckAbort(CheckFailed):
    """A case stopped a candidate that looped far more often than the reference ever does."""


def expect(condition: bool, message: str) -> None:
    """Fail the current case with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def expect_equal(got: Any, want: Any, what: str) -> None:
    """Fail the current case unless `got == want`, naming `what` was compared."""
    if got != want:
        raise CheckFailed(f"{what}: want {want!r}, got {got!r}")


@dataclass(frozen=True)
class Case:
    """One check of an exercise: a table row or a run of the port.

    `run()` raises (CheckFailed, or anything the candidate raised) on failure.
    Runs (`run=True`) are only started once every table row of the exercise
    passed: a broken function would make them fail in less readable ways.
    """

    name: str
    run: Callable[[], None]
    is_run: bool = False


@dataclass(frozen=True)
class Exercise:
    """One function the learner writes, and how to check it.

    `name` is both the function's name and the starting file's stem.
    `target` is the dotted path of the real function (`module.Class.method` or
    `module.function`); the check swaps it. `cases()` builds fresh cases for
    each check (new fake clocks, new servers), table rows first.
    """

    name: str
    target: str
    """Dotted path of the port's function: the reference solution, and what a check replaces."""
    go_symbol: str
    """The Go twin with its upstream file, as the function's docstring names it."""
    goal_en: str
    goal_zh: str
    hint_en: str
    """Printed when the check fails: where people usually go wrong."""
    hint_zh: str
    cases: Callable[[], list[Case]]
    runs: tuple[str, ...] = ()
    """What the runs of the port are (scenario names or a short description), for the README and the docs."""
    restore: bool = False
    """The starting file is the port's whole function with one defence taken out (no NotImplementedError):
    the learner finds what is missing and puts it back; its cases fail with the violation, not "not written"."""

    @property
    def file_name(self) -> str:
        return f"{self.name}.py"

    def reference(self) -> Callable[..., Any]:
        """The port's own function (the reference solution)."""
        return resolve(self.target)[2]


@dataclass(frozen=True)
class Chapter:
    """One row of the `EXERCISES` table: a docs chapter and its exercises, in the order to do them."""

    id: str
    """The chapter id used on the command line and as the section id of docs/exercises.md (`p2-workqueue`)."""
    title_en: str
    title_zh: str
    reading_map: str
    """Docs page and anchor of the chapter's reading map (`wait.md#reading-map`), or "" without a page yet."""
    start_dir: Path
    """Folder holding the starting files (`<name>.py` for each exercise)."""
    exercises: tuple[Exercise, ...]

    def exercise(self, name: str) -> Exercise:
        """The exercise called `name`. Raises KeyError listing the chapter's exercises."""
        for ex in self.exercises:
            if ex.name == name:
                return ex
        known = ", ".join(ex.name for ex in self.exercises)
        raise KeyError(f"chapter {self.id} has no exercise {name!r}; it has: {known}")

    def starting_text(self, ex: Exercise) -> str:
        """The starting file of `ex`, as `minikcm exercises start` copies it."""
        return (self.start_dir / ex.file_name).read_text(encoding="utf-8")


@dataclass
class CaseOutcome:
    """How one case went. `skipped` runs count as not passed."""

    name: str
    ok: bool
    message: str = ""
    skipped: bool = False


@dataclass
class ExerciseResult:
    """The outcome of checking one candidate against one exercise."""

    exercise: Exercise
    outcomes: list[CaseOutcome] = field(default_factory=list)
    error: str = ""
    """Set when there was nothing to check: the file is missing, does not import, or lacks the function."""

    @property
    def passed(self) -> bool:
        return not self.error and bool(self.outcomes) and all(o.ok for o in self.outcomes)

    def failures(self) -> list[CaseOutcome]:
        return [o for o in self.outcomes if not o.ok]

    def summary(self) -> str:
        """`7/9 cases` (or the load error)."""
        if self.error:
            return self.error
        ok = sum(1 for o in self.outcomes if o.ok)
        return f"{ok}/{len(self.outcomes)} cases"


# -- substitution ------------------------------------------------------------------------


def resolve(target: str) -> tuple[Any, str, Any]:
    """`(owner, attribute, original)` for a dotted path: the module or class holding the function.

    Raises:
        LookupError: no module or attribute answers to `target`.
    """
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        owner = obj
        for i, part in enumerate(parts[cut:]):
            owner = obj
            if not hasattr(obj, part):
                raise LookupError(f"{target}: {'.'.join(parts[:cut + i])} has no attribute {part!r}")
            obj = getattr(obj, part)
        attr = parts[-1]
        if isinstance(owner, type) and attr not in owner.__dict__:
            raise LookupError(f"{target}: {owner.__name__} inherits {attr!r}; name the class that defines it")
        original = owner.__dict__[attr] if isinstance(owner, type) else obj
        return owner, attr, original
    raise LookupError(f"{target}: no module of that name")


@contextmanager
def substitute(target: str, candidate: Callable[..., Any]) -> Iterator[None]:
    """For the duration of the block, the port calls `candidate` wherever it called `target`.

    A method is set on its class. A module function is set on its module and on
    every loaded module that holds the same function object under that name
    (see the module's design notes). Everything is restored on exit.
    """
    owner, attr, original = resolve(target)
    if isinstance(owner, type):
        setattr(owner, attr, candidate)
        try:
            yield
        finally:
            setattr(owner, attr, original)  # resolve only answers for attributes the class defines itself
        return
    holders = [m for m in list(sys.modules.values())
               if isinstance(m, ModuleType) and vars(m).get(attr) is original]
    for module in holders:
        setattr(module, attr, candidate)
    try:
        yield
    finally:
        for module in holders:
            setattr(module, attr, original)


# -- checking ---------------------------------------------------------------------------


def check_exercise(ex: Exercise, candidate: Callable[..., Any], runs: bool = True) -> ExerciseResult:
    """Put `candidate` in place of `ex.target`, run every case, put the original back.

    Runs of the port are skipped (and count as failed) once a table row failed;
    `runs=False` leaves them out altogether (the table rows alone).
    """
    result = ExerciseResult(ex)
    with substitute(ex.target, candidate):
        cases = [c for c in ex.cases() if runs or not c.is_run]
        table_ok = True
        for case in cases:
            if case.is_run and not table_ok:
                result.outcomes.append(CaseOutcome(case.name, False, "skipped: the table rows must pass first",
                                                   skipped=True))
                continue
            outcome = run_case(case, candidate)
            result.outcomes.append(outcome)
            if not outcome.ok and not case.is_run:
                table_ok = False
    return result


def run_case(case: Case, candidate: Callable[..., Any]) -> CaseOutcome:
    """Run one case; any exception is a failure with a readable message, never a crash."""
    try:
        case.run()
    except CheckFailed as err:
        return CaseOutcome(case.name, False, shorten(f"{err}") + where(err, candidate))
    except Exception as err:  # whatever the candidate raised is this case's failure
        missing = not_implemented(err)
        if missing is not None:  # also when the port wrapped it (a store's KeyErr, say)
            return CaseOutcome(case.name, False, f"{NOT_WRITTEN} (NotImplementedError: {missing})"
                                                 + where(missing, candidate))
        return CaseOutcome(case.name, False, shorten(f"raised {type(err).__name__}: {err}") + where(err, candidate))
    except SystemExit as err:  # a candidate (or argparse inside the port) tried to end the process
        return CaseOutcome(case.name, False, f"called sys.exit({err.code!r})" + where(err, candidate))
    return CaseOutcome(case.name, True)


def not_implemented(err: BaseException) -> NotImplementedError | None:
    """The NotImplementedError `err` is or wraps (through __cause__ or __context__), if any."""
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        if isinstance(current, NotImplementedError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def shorten(text: str, limit: int = 300) -> str:
    """One line of at most `limit` characters (a failing case's message can hold a whole model's repr)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def where(err: BaseException, candidate: Callable[..., Any]) -> str:
    """` (at file:line)` for the innermost frame of `err` inside the candidate's file, or ""."""
    code = getattr(candidate, "__code__", None)
    if code is None:
        return ""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == code.co_filename]
    if not frames:
        return ""
    return f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})"


def load_learner_function(path: Path, name: str, module_name: str) -> Callable[..., Any]:
    """Import the file at `path` as module `module_name` and return its function `name`.

    Raises:
        FileNotFoundError: no file at `path`.
        LookupError: the file defines no function called `name`.
        Exception: whatever importing the file raised (a SyntaxError, say).
    """
    if not path.is_file():
        raise FileNotFoundError(f"no file {path}")
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise LookupError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # as a normal import does (dataclasses and pickle look modules up there)
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # leave no __pycache__ in the learner's folder
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    finally:
        sys.dont_write_bytecode = dont_write
    fn = vars(module).get(name)
    if not inspect.isfunction(fn):
        raise LookupError(f"{path.name} defines no function {name!r}")
    return fn


# -- helpers the chapters' cases share ----------------------------------------------------------


class Budget:
    """Counts calls and aborts the case once there are far more than the reference ever makes.

    Guards the loops a candidate might never leave (a backoff loop that ignores
    its stop event would otherwise hang the check).
    """

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self.calls = 0

    def spend(self) -> None:
        self.calls += 1
        if self.calls > self.limit:
            raise CheckAbort(f"{self.what} ran more than {self.limit} times: the loop does not stop")

    def __repr__(self) -> str:
        return f"Budget({self.what}: {self.calls}/{self.limit})"


class FixedDraws(random.Random):
    """A random source whose `random()` returns the given numbers in order (then fails the case)."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self.draws = list(draws)
        self.used = 0

    def random(self) -> float:
        if self.used >= len(self.draws):
            raise CheckFailed(f"drew more than the {len(self.draws)} random numbers this case allows")
        self.used += 1
        return self.draws[self.used - 1]
