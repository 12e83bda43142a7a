"""The chapters' Go links agree with docs/data/go_symbols.json (written by dev/go_symbols.py).

Reads the markdown sources only (no mkdocs build, no network). A link whose text names a Go
symbol must be a row of the table and carry exactly the row's URL (ref and #Lstart-Lend); a link
pinned at a kubernetes/kubernetes commit has the file at v1.36.3 beside it and its page names
that commit once in prose.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TABLE = json.loads((DOCS / "data" / "go_symbols.json").read_text(encoding="utf-8"))
ROWS = {(r["path"], r["symbol"]): r for r in TABLE["symbols"]}
PAGES = sorted(DOCS.glob("*.md"))


def _load_script():
    spec = importlib.util.spec_from_file_location("minikcm_dev_go_symbols", ROOT / "dev" / "go_symbols.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GS = _load_script()


def _links(page: Path):
    for link in GS.page_links(page):
        m = GS.URL_RE.match(link.url)
        yield link, m


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_symbol_links_match_the_table(page: Path) -> None:
    problems = []
    for link, m in _links(page):
        if m is None:
            problems.append(f"not a blob URL: {link.url}")
            continue
        ref, path, start = m.group(1), m.group(2), m.group(3)
        syms = GS.symbols_of(link.text)
        if syms:
            row = ROWS.get((path, "+".join(syms)))
            if row is None:
                problems.append(f"{link.text} -> {path}: symbol not in the table (run dev/go_symbols.py)")
            elif row["start"] is None:
                if start or ref != TABLE["tag"]:
                    problems.append(f"{link.text}: unpinned in the table, so link the file at {TABLE['tag']}")
            elif link.url != row["url"]:
                problems.append(f"{link.text}: {link.url} but the table says {row['url']}")
        elif start:
            lines = (int(start), int(m.group(4) or start))
            if not any(r["path"] == path and r["ref"] == ref and (r["start"], r["end"]) == lines
                       for r in TABLE["symbols"]):
                problems.append(f"{link.text} -> {link.url}: lines not in the table")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_commit_links_have_the_tagged_file_beside_and_a_note(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    problems, commits = [], set()
    for link, m in _links(page):
        if m and re.fullmatch(r"[0-9a-f]{40}", m.group(1)):
            commits.add(m.group(1))
            after = text[link.end:link.end + 200]
            if not after.startswith("<sup>[" + TABLE["tag"]):
                problems.append(f"{link.text}: no {TABLE['tag']} file beside the commit link")
    prose = re.sub(r"https?://\S+", "", text)
    for commit in sorted(commits):
        if commit[:8] not in prose:
            problems.append(f"the page never says it links lines at {commit[:8]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_reference_labels_are_unique_ignoring_case(page: Path) -> None:
    """Markdown matches reference labels case-insensitively: `[go-x-Run]` and `[go-x-run]` collide."""
    labels = [k for k, _ in GS.DEF_RE.findall(page.read_text(encoding="utf-8"))]
    seen: dict[str, str] = {}
    clashes = [f"{seen[k.lower()]} / {k}" for k in labels if seen.setdefault(k.lower(), k) != k]
    assert not clashes, clashes


def test_table_rows_are_consistent() -> None:
    for row in TABLE["symbols"]:
        if row["start"] is None:
            assert row.get("unpinned"), row["key"]
            continue
        assert 1 <= row["start"] <= row["end"], row["key"]
        anchor = f"#L{row['start']}" + ("" if row["start"] == row["end"] else f"-L{row['end']}")
        assert row["url"].endswith(f"/{row['path']}{anchor}"), row["key"]
        if row["ref"] != TABLE["tag"]:
            assert re.fullmatch(r"[0-9a-f]{40}", row["ref"]) and row["file_at_tag"], row["key"]
    for repo, info in TABLE["staging"].items():
        assert info["kubernetes_commit"] == "9419ebed1fb4631efde758bd8395a33b2bf74ba7", repo
        assert set(info["tag_changes"]) <= {"go.mod", "go.sum"}, repo


def controller_share() -> dict[str, tuple[int, int]]:
    """Per chapter page: (pkg/controller symbol links with a line anchor, all of them)."""
    out = {}
    for page in PAGES:
        if not re.match(r"p[345]-", page.name):
            continue
        anchored = total = 0
        for link, m in _links(page):
            if m and m.group(2).startswith("pkg/controller/") and GS.symbols_of(link.text):
                total += 1
                anchored += bool(m.group(3))
        out[page.name] = (anchored, total)
    return out


PINNED_FLOOR = {"p3-deployment": 22, "p4-replicaset": 18, "p5-statefulset": 16}
"""pkg/controller links with line anchors today, per chapter. The goal is 90% of them;
the rest name files that have no readable v1.36-era copy here (dev/go_symbols.py KK_READ
lists what was read where). The floor only rises: a page that loses an anchor fails."""


def test_controller_links_share_with_lines() -> None:
    share = controller_share()
    report = ", ".join(f"{p}: {a}/{t}" for p, (a, t) in share.items())
    print("pkg/controller links with line anchors:", report)
    for page, floor in PINNED_FLOOR.items():
        anchored = [a for p, (a, t) in share.items() if p.startswith(page)]
        assert anchored and all(a >= floor for a in anchored), report
