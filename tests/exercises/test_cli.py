"""Tests for `minikcm exercises list|start|check` (the exercises sub-command of minikcm/cli.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from minikcm.cli import main
from minikcm.exercises import EXERCISES, get_chapter

ROOT = Path(__file__).resolve().parents[2]

JITTER_BODY = '''
def jitter(duration, max_factor, rng=None):
    if max_factor <= 0.0:
        max_factor = 1.0
    draw = rng.random() if rng is not None else wait.jitter_rand()
    return duration + draw * max_factor * duration
'''


def test_list_shows_every_chapter_and_exercise(capsys):
    assert main(["exercises", "list"]) == 0
    out = capsys.readouterr().out
    for chapter in EXERCISES.values():
        assert f"{chapter.id}: {chapter.title_en} / {chapter.title_zh}" in out
        for ex in chapter.exercises:
            assert ex.file_name in out and ex.target.removeprefix("minikcm.") in out


def test_exercises_without_action_prints_help(capsys):
    assert main(["exercises"]) == 2
    assert "start" in capsys.readouterr().err


def test_start_copies_the_starting_files_and_a_readme(tmp_path, capsys):
    dest = tmp_path / "wait"
    assert main(["exercises", "start", "wait", "--dir", str(dest)]) == 0
    chapter = get_chapter("wait")
    for ex in chapter.exercises:
        assert (dest / ex.file_name).read_text(encoding="utf-8") == chapter.starting_text(ex)
    readme = (dest / "README.md").read_text(encoding="utf-8")
    assert "minikcm exercises check wait" in readme and "docs/wait.md#reading-map" in readme
    out = capsys.readouterr().out
    assert f"wrote {dest / 'jitter.py'}" in out and "minikcm exercises check wait --dir" in out


def test_start_defaults_to_minikcm_exercises_chapter(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["exercises", "start", "p2-workqueue"]) == 0
    assert (tmp_path / "minikcm-exercises" / "p2-workqueue" / "add.py").is_file()
    assert main(["exercises", "start", "p2-workqueue"]) == 0  # nothing edited: harmless, says unchanged
    assert "unchanged minikcm-exercises/p2-workqueue/add.py" in capsys.readouterr().out


def test_start_refuses_to_overwrite_edited_files_without_force(tmp_path, capsys):
    dest = tmp_path / "wait"
    assert main(["exercises", "start", "wait", "--dir", str(dest)]) == 0
    (dest / "jitter.py").write_text("# my work\n", encoding="utf-8")
    (dest / "delay.py").unlink()
    capsys.readouterr()
    assert main(["exercises", "start", "wait", "--dir", str(dest)]) == 1
    err = capsys.readouterr().err
    assert "--force" in err and str(dest / "jitter.py") in err
    assert (dest / "jitter.py").read_text(encoding="utf-8") == "# my work\n"
    assert not (dest / "delay.py").exists(), "a refused start writes nothing at all"
    assert main(["exercises", "start", "wait", "--dir", str(dest), "--force"]) == 0
    assert (dest / "jitter.py").read_text(encoding="utf-8") == get_chapter("wait").starting_text(
        get_chapter("wait").exercise("jitter"))


def test_check_untouched_files_fails_with_not_written(tmp_path, capsys):
    dest = tmp_path / "wait"
    main(["exercises", "start", "wait", "--dir", str(dest)])
    capsys.readouterr()
    assert main(["exercises", "check", "wait", "--dir", str(dest)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  jitter" in out and "not written yet" in out and "hint:" in out and "提示：" in out
    assert "0 of 4 exercises pass." in out


def test_check_a_written_function_passes(tmp_path, capsys):
    dest = tmp_path / "wait"
    main(["exercises", "start", "wait", "--dir", str(dest)])
    starting = (dest / "jitter.py").read_text(encoding="utf-8")
    header = starting[: starting.index("\ndef jitter(")]
    (dest / "jitter.py").write_text(header + "\n" + JITTER_BODY, encoding="utf-8")
    capsys.readouterr()
    assert main(["exercises", "check", "wait", "jitter", "--dir", str(dest)]) == 0
    out = capsys.readouterr().out
    assert "PASS  jitter" in out and "1 of 1 exercises pass." in out and "delay" not in out


def test_check_solution_passes(capsys):
    assert main(["exercises", "check", "wait", "--solution"]) == 0
    out = capsys.readouterr().out
    assert "the reference solutions" in out and "4 of 4 exercises pass." in out


def test_check_reports_a_missing_file_and_a_broken_one(tmp_path, capsys):
    dest = tmp_path / "wait"
    dest.mkdir()
    (dest / "delay.py").write_text("def delay(:\n", encoding="utf-8")
    assert main(["exercises", "check", "wait", "jitter", "delay", "--dir", str(dest)]) == 1
    out = capsys.readouterr().out
    assert "minikcm exercises start wait" in out
    assert "delay.py does not load: SyntaxError" in out


@pytest.mark.parametrize("argv, message", [
    pytest.param(["exercises", "start", "p3-deployment"], "no exercises for chapter 'p3-deployment'", id="start-unknown"),
    pytest.param(["exercises", "check", "wiat"], "did you mean wait?", id="check-typo"),
    pytest.param(["exercises", "check", "wait", "nope"], "chapter wait has no exercise 'nope'", id="unknown-exercise"),
])
def test_unknown_names_are_usage_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_installed_command_runs_a_check(tmp_path):
    """`python -m minikcm exercises check ... --solution` in a subprocess: the exit code CI looks at."""
    done = subprocess.run([sys.executable, "-m", "minikcm", "exercises", "check", "p2-workqueue", "--solution"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS  add" in done.stdout
