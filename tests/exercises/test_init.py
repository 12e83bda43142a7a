"""Tests for minikcm.exercises (the package): its exports and the chapter lookup."""

from __future__ import annotations

import pytest

import minikcm.exercises as exercises


def test_all_names_exist():
    assert sorted(exercises.__all__) == sorted(set(exercises.__all__))
    for name in exercises.__all__:
        assert hasattr(exercises, name), name


@pytest.mark.parametrize("chapter_id, message", [
    pytest.param("wiat", "did you mean wait?", id="typo"),
    pytest.param("zzz", "chapters: overview, p1, p2-informers, p2-workqueue, p3, p4, p5, wait", id="nothing-close"),
])
def test_get_chapter_names_the_choices(chapter_id, message):
    with pytest.raises(exercises.UnknownChapterError) as err:
        exercises.get_chapter(chapter_id)
    assert message in str(err.value)
