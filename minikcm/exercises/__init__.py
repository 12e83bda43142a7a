"""No upstream twin. Chapter exercises: write a real function of the port, then let the checker run it in the port.

Each exercise is one function of minikcm (`LeaderElector.try_acquire_or_renew`,
the work queue's `add`, `wait.backoff_until`, ...). `minikcm exercises start
CHAPTER` copies the chapter's starting files (signature and docstring, body
left to the learner) into a folder; `minikcm exercises check CHAPTER` loads the
learner's functions from there, puts each one into the running port in place
of the real one, runs a table of cases and a deterministic run of the port,
and prints PASS or FAIL per exercise with a hint. The reference solution is
the port's own function (`--solution` checks it; CI does).

`EXERCISES` is an explicit table: adding a chapter is one sub-package (a
`checks.py` defining `CHAPTER`, and a `start/` folder with one starting file
per exercise) plus one row below. Nothing registers itself at import time.

Start reading at: EXERCISES, then base.check_exercise, then workspace.check_chapter.
"""

from __future__ import annotations

import difflib

from minikcm.exercises.base import (
    Case,
    CaseOutcome,
    Chapter,
    CheckFailed,
    Exercise,
    ExerciseResult,
    check_exercise,
    substitute,
)
from minikcm.exercises.overview.checks import CHAPTER as OVERVIEW
from minikcm.exercises.p1.checks import CHAPTER as P1
from minikcm.exercises.p2_informers.checks import CHAPTER as P2_INFORMERS
from minikcm.exercises.p2_workqueue.checks import CHAPTER as P2_WORKQUEUE
from minikcm.exercises.p3.checks import CHAPTER as P3
from minikcm.exercises.p4.checks import CHAPTER as P4
from minikcm.exercises.p5.checks import CHAPTER as P5
from minikcm.exercises.wait.checks import CHAPTER as WAIT

EXERCISES: dict[str, Chapter] = {
    "overview": OVERVIEW,
    "p1": P1,
    "p2-informers": P2_INFORMERS,
    "p2-workqueue": P2_WORKQUEUE,
    "p3": P3,
    "p4": P4,
    "p5": P5,
    "wait": WAIT,
}
"""Every chapter with exercises, by id, in the docs' chapter order (`minikcm exercises list` shows them so)."""


class UnknownChapterError(KeyError):
    """`get_chapter` was given an id not in the table; the message lists close matches."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown chapter"


def get_chapter(chapter_id: str) -> Chapter:
    """The chapter called `chapter_id`.

    Raises:
        UnknownChapterError: a KeyError whose message lists the close matches.
    """
    chapter = EXERCISES.get(chapter_id)
    if chapter is not None:
        return chapter
    close = difflib.get_close_matches(chapter_id, list(EXERCISES), n=3, cutoff=0.5)
    hint = ("did you mean " + ", ".join(close) + "?") if close else "chapters: " + ", ".join(EXERCISES)
    raise UnknownChapterError(f"no exercises for chapter {chapter_id!r}; {hint}")


__all__ = [
    "EXERCISES",
    "Case",
    "CaseOutcome",
    "Chapter",
    "CheckFailed",
    "Exercise",
    "ExerciseResult",
    "UnknownChapterError",
    "check_exercise",
    "get_chapter",
    "substitute",
]
