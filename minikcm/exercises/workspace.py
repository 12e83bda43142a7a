"""No upstream twin. The learner's side of the exercises: copy starting files out, load them back, report.

`start_chapter` writes a chapter's starting files and a README into a folder
and never overwrites a file the learner changed unless told to.
`check_chapter` imports each file of that folder by path, checks its function
with base.check_exercise (or checks the port's own function, for
`--solution`), and `format_report` turns the results into what `minikcm
exercises check` prints.

Start reading at: check_chapter, then start_chapter.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from minikcm.exercises.base import (
    NOT_WRITTEN,
    CaseOutcome,
    Chapter,
    Exercise,
    ExerciseResult,
    check_exercise,
    load_learner_function,
)

DEFAULT_ROOT = Path("minikcm-exercises")
"""Where `start` and `check` look when no --dir is given: `./minikcm-exercises/<chapter>`."""
README = "README.md"
SHOWN_FAILURES = 3
"""How many failing cases `format_report` lists per exercise."""
SITE_PAGES = "docs/"  # where the reading-map pages live in the repository


def default_dir(chapter: Chapter) -> Path:
    return DEFAULT_ROOT / chapter.id


# -- start -----------------------------------------------------------------------------------


@dataclass
class StartReport:
    """What `start_chapter` did. With `refused` non-empty nothing was written."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    refused: list[Path] = field(default_factory=list)
    """Files that exist with other content (the learner's work), left alone without --force."""


def chapter_files(chapter: Chapter) -> dict[str, str]:
    """File name -> content of everything `start` writes: the starting files, then the README."""
    files = {ex.file_name: chapter.starting_text(ex) for ex in chapter.exercises}
    files[README] = readme_text(chapter)
    return files


def start_chapter(chapter: Chapter, dest: Path, force: bool = False) -> StartReport:
    """Copy the chapter's starting files and README into `dest` (created if needed).

    A file that exists with different content is the learner's work: unless
    `force`, nothing at all is written and the report lists those files.
    """
    report = StartReport()
    files = chapter_files(chapter)
    for name, text in files.items():
        path = dest / name
        if path.exists() and path.read_text(encoding="utf-8") != text:
            report.refused.append(path)
    if report.refused and not force:
        return report
    dest.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = dest / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            report.unchanged.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        report.written.append(path)
    if force:
        report.refused = []
    return report


def readme_text(chapter: Chapter) -> str:
    """The README put next to the starting files: what to do, in English then Chinese."""
    lines = [f"# Exercises: {chapter.title_en} / 练习：{chapter.title_zh}", ""]
    lines += [
        "Each file holds one function of minikcm with its body missing. Write the body, then run",
        "",
        f"    minikcm exercises check {chapter.id}",
        "",
        "The checker loads your function, puts it into the running port in place of the real one,",
        "runs a table of cases and then a deterministic run of the port, and prints PASS or FAIL",
        "per exercise with a hint. `--solution` checks the port's own functions instead.",
        "",
        "每个文件里是 minikcm 的一个函数，函数体留空。写好函数体后运行上面的命令：检查程序把你的函数",
        "放进正在运行的 minikcm，替换原来的实现，先跑一组表格用例，再跑一段确定性的运行，逐个练习给出",
        "PASS 或 FAIL 和提示。",
        "",
    ]
    if chapter.reading_map:
        lines += [f"Reading map / 阅读地图: {SITE_PAGES}{chapter.reading_map}", ""]
    for i, ex in enumerate(chapter.exercises, start=1):
        lines += [
            f"## {i}. `{ex.file_name}`: `{ex.target.removeprefix('minikcm.')}`",
            "",
            f"- Go: {ex.go_symbol}",
            f"- Goal: {ex.goal_en}",
            f"- 目标：{ex.goal_zh}",
            f"- Hint: {ex.hint_en}",
            f"- 提示：{ex.hint_zh}",
        ]
        if ex.runs:
            lines.append(f"- Run of the port / 运行: {', '.join(ex.runs)}")
        lines.append("")
    return "\n".join(lines)


# -- check -----------------------------------------------------------------------------------


def learner_module_name(chapter: Chapter, ex: Exercise) -> str:
    return f"minikcm_exercise_{chapter.id.replace('-', '_')}_{ex.name}"


def check_chapter(chapter: Chapter, dest: Path | None = None, solution: bool = False,
                  only: list[str] | None = None) -> list[ExerciseResult]:
    """Check the learner's files in `dest` (or, with `solution`, the port's own functions).

    `only` limits the check to the named exercises. A missing file, a file that
    does not import, or one without the function is reported as a failed
    exercise, never raised.

    Raises:
        KeyError: a name in `only` is not an exercise of the chapter.
    """
    selected = [chapter.exercise(name) for name in only] if only else list(chapter.exercises)
    folder = dest if dest is not None else default_dir(chapter)
    results = []
    with quiet_port_logs():
        for ex in selected:
            if solution:
                results.append(check_exercise(ex, ex.reference()))
                continue
            try:
                fn = load_learner_function(folder / ex.file_name, ex.name, learner_module_name(chapter, ex))
            except FileNotFoundError:
                results.append(ExerciseResult(ex, error=f"no file {folder / ex.file_name}; run "
                                                        f"`minikcm exercises start {chapter.id}` first"))
                continue
            except Exception as err:  # a file that does not import is that exercise's failure
                results.append(ExerciseResult(ex, error=f"{ex.file_name} does not load: {type(err).__name__}: {err}"))
                continue
            results.append(check_exercise(ex, fn))
    return results


@contextmanager
def quiet_port_logs() -> Iterator[None]:
    """Keep the port's log lines (failed renewals the cases provoke on purpose) out of the report."""
    logger = logging.getLogger("minikcm")
    handler = logging.NullHandler()
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(handler)


def format_report(chapter: Chapter, results: list[ExerciseResult], source: str) -> str:
    """What `minikcm exercises check` prints: one PASS/FAIL line per exercise, failing cases and hints."""
    width = max((len(r.exercise.name) for r in results), default=0)
    lines = [f"Checking {chapter.id} ({chapter.title_en}): {source}"]
    for r in results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'}  {r.exercise.name:<{width}}  {r.summary()}")
        if r.passed:
            continue
        failing = [o for o in r.failures() if not o.skipped]
        if failing and all(o.message.startswith(NOT_WRITTEN) for o in failing):
            failing = [CaseOutcome("every case", False, f"{NOT_WRITTEN}: the body still raises NotImplementedError")]
        for o in failing[:SHOWN_FAILURES]:
            lines.append(f"      x {o.name}: {o.message}")
        if len(failing) > SHOWN_FAILURES:
            lines.append(f"      ... and {len(failing) - SHOWN_FAILURES} more failing cases")
        skipped = [o for o in r.failures() if o.skipped]
        if skipped:
            lines.append(f"      - {len(skipped)} run(s) of the port skipped until the table rows pass")
        lines.append(f"      hint: {r.exercise.hint_en}")
        lines.append(f"      提示：{r.exercise.hint_zh}")
    passed = sum(1 for r in results if r.passed)
    lines.append(f"{passed} of {len(results)} exercises pass.")
    return "\n".join(lines)
