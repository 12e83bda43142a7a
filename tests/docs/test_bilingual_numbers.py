"""The two languages of a page say the same numbers (issue 23, item 24).

Every page is written line for line in both languages (docs/<page>.md is Chinese,
docs/<page>.en.md English), so the numbers on line n of one are the numbers on line
n of the other. A number changed in one language only fails here. Numbers are
compared as multisets per line, after dropping thousands separators ("1,000" is
"1000") and reading English number words ("twenty", "fifteenth") as digits. Small
counts (0 to 12) are often a word in one language and a digit in the other ("one
worker", "一个"), so a line may carry extra small integers on one side only when
the other side has no unmatched number at all: a number that was changed shows up
on both sides and fails. A line may differ otherwise only where ALLOWED lists it,
with the reason.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAIRS = sorted(p for p in DOCS.glob("*.md") if not p.name.endswith(".en.md") and p.with_suffix(".en.md").exists())
PAIRS = [(p, p.with_name(p.stem + ".en.md")) for p in PAIRS]

NUMBER = re.compile(r"(?<![A-Za-z0-9_.\\-])\d+(?:,\d{3})*(?:\.\d+)?(?![\d.,]\d)")
"""A number: 5, 1,000, 0.75, the 5 of 5ms. Not the digits of identifiers (v1, p2, k8s, L123, web-0).

ASCII boundaries only: in Chinese a digit often touches a CJK character, which is a word character."""

WAN = re.compile(r"(\d+(?:\.\d+)?)\s*万")
"""Chinese counts in ten-thousands: "3.5 万" is 35,000."""

ALLOWED: dict[tuple[str, str], str] = {
    ("appendix-apiserver.md", "2026 年 12 月"): "the month is a name in English; 双核 and 三分之一 are words in Chinese",
    ("overview.md", "用种子 1 连取三次"): "Chinese repeats the 12 hours; 三次 is a word",
    ("p1-leader-election.md", "重试间隔小于 1 秒时"): "sub-second and two renewals are words in English",
    ("p5-statefulset.md", "更新的是序号 4 和 3，先 4 后 3"): "先 4 后 3 names both ordinals where English says 4 first",
    ("p5-statefulset.md", "而且是先 4 后 3"): "the same",
}
"""(Chinese page, a piece of its line) -> why that line's numbers may differ from the English line's."""


WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
WORDS.update({w: n for n, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()) if n})
del WORDS["one"], WORDS["second"]  # a pronoun and a unit far more often than numbers
WORD = re.compile(r"\b(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def small(value: str) -> bool:
    return value.isdigit() and int(value) <= 12


def numbers(line: str, chinese: bool) -> Counter[str]:
    if not chinese:
        line = WORD.sub(lambda m: str(WORDS[m[1].lower()]), line)
    if chinese:
        line = WAN.sub(lambda m: f"{float(m[1]) * 10_000:g}", line)
    else:
        line = re.sub(r"(\d+(?:\.\d+)?)k(?![A-Za-z])", lambda m: f"{float(m[1]) * 1000:g}", line)
    found = Counter()
    for raw in NUMBER.findall(line):
        value = raw.replace(",", "")
        found[f"{float(value):g}" if "." in value else value.lstrip("0") or "0"] += 1
    return found


@pytest.mark.parametrize("zh, en", PAIRS, ids=[zh.stem for zh, _ in PAIRS])
def test_aligned_lines_carry_the_same_numbers(zh: Path, en: Path):
    zh_lines = zh.read_text(encoding="utf-8").splitlines()
    en_lines = en.read_text(encoding="utf-8").splitlines()
    assert len(zh_lines) == len(en_lines), f"{zh.name} has {len(zh_lines)} lines, {en.name} {len(en_lines)}"
    problems = []
    for number, (z, e) in enumerate(zip(zh_lines, en_lines), start=1):
        if any(page == zh.name and piece in z for page, piece in ALLOWED):
            continue
        nz, ne = numbers(z, True), numbers(e, False)
        if nz != ne:
            only_zh = sorted((nz - ne).elements())
            only_en = sorted((ne - nz).elements())
            if not (only_zh and only_en) and all(small(v) for v in only_zh + only_en):
                continue  # a small count written as a word on one side
            problems.append(f"{zh.name}:{number}: only in Chinese {only_zh}, only in English {only_en}")
    assert not problems, "\n".join(problems)


def test_the_number_parser():
    assert numbers("1,000 replicas in 5.1 s, v1 and p2 aside", False) == Counter({"1000": 1, "5.1": 1})
    assert numbers("每秒 3.5 万到 4.3 万个事件", True) == Counter({"35000": 1, "43000": 1})
    assert numbers("35k–43k events/s", False) == Counter({"35000": 1, "43000": 1})
    assert numbers("twenty workers, the fifteenth retry, web-0 and v1.36.3", False) == Counter({"20": 1, "15": 1})


def test_every_allowed_line_exists():
    for (page, piece), reason in ALLOWED.items():
        assert piece in (DOCS / page).read_text(encoding="utf-8"), f"{page}: {piece!r} is gone ({reason}); drop it"
