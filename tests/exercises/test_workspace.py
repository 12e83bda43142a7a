"""Tests for minikcm.exercises.workspace: starting files out, learner files in, the report."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from minikcm.exercises import get_chapter
from minikcm.exercises.base import CaseOutcome, ExerciseResult
from minikcm.exercises.workspace import (
    README,
    chapter_files,
    check_chapter,
    format_report,
    quiet_port_logs,
    readme_text,
    start_chapter,
)


def test_chapter_files_are_the_starting_files_and_the_readme():
    chapter = get_chapter("p1")
    files = chapter_files(chapter)
    assert list(files) == [ex.file_name for ex in chapter.exercises] + [README]


@pytest.mark.parametrize("chapter_id, reading_map", [
    pytest.param("p1", "docs/p1-leader-election.md#reading-map", id="with-reading-map"),
    pytest.param("overview", "docs/overview.md#reading-map", id="overview"),
])
def test_readme_names_every_exercise(chapter_id, reading_map):
    chapter = get_chapter(chapter_id)
    text = readme_text(chapter)
    for ex in chapter.exercises:
        assert f"`{ex.file_name}`" in text and ex.hint_en in text and ex.hint_zh in text
    assert reading_map in text


def test_readme_leaves_out_a_missing_reading_map():
    chapter = replace(get_chapter("wait"), reading_map="")
    assert "Reading map" not in readme_text(chapter)


def test_start_chapter_refuses_then_forces(tmp_path):
    chapter = get_chapter("wait")
    first = start_chapter(chapter, tmp_path)
    assert len(first.written) == len(chapter.exercises) + 1 and not first.refused
    (tmp_path / "delay.py").write_text("mine\n", encoding="utf-8")
    refused = start_chapter(chapter, tmp_path)
    assert refused.refused == [tmp_path / "delay.py"] and not refused.written
    forced = start_chapter(chapter, tmp_path, force=True)
    assert forced.written == [tmp_path / "delay.py"] and not forced.refused
    assert len(forced.unchanged) == len(chapter.exercises)


def test_check_chapter_solution_and_only():
    chapter = get_chapter("p2-workqueue")
    results = check_chapter(chapter, solution=True, only=["when", "add"])
    assert [r.exercise.name for r in results] == ["when", "add"] and all(r.passed for r in results)
    with pytest.raises(KeyError):
        check_chapter(chapter, solution=True, only=["nope"])


def test_check_chapter_reports_missing_files(tmp_path):
    results = check_chapter(get_chapter("wait"), tmp_path, only=["delay"])
    assert "no file" in results[0].error and not results[0].passed


def test_format_report_collapses_not_written_and_limits_failures():
    chapter = get_chapter("wait")
    ex = chapter.exercise("delay")
    not_written = ExerciseResult(ex, [CaseOutcome(f"c{i}", False, f"not written yet (NotImplementedError: x)")
                                      for i in range(5)])
    wrong = ExerciseResult(chapter.exercise("jitter"), [CaseOutcome(f"w{i}", False, f"want {i}") for i in range(5)]
                           + [CaseOutcome("run", False, "skipped", skipped=True)])
    text = format_report(chapter, [not_written, wrong], "here")
    assert "x every case: not written yet: the body still raises NotImplementedError" in text
    assert "x w2: want 2" in text and "x w3" not in text and "... and 2 more failing cases" in text
    assert "1 run(s) of the port skipped" in text and text.endswith("0 of 2 exercises pass.")


def test_quiet_port_logs_restores_the_logger():
    logger = logging.getLogger("minikcm")
    before = (logger.propagate, list(logger.handlers))
    with quiet_port_logs():
        assert logger.propagate is False
    assert (logger.propagate, list(logger.handlers)) == before
