"""The reading site builds strictly, in both languages, with twin pages and pinned upstream links.

Checks (issue 8): the strict build produces both languages; every page has its twin
with the same heading ids; every link into kubernetes/kubernetes points at the pinned
tag; every Python symbol named in a reading map imports.
"""

from __future__ import annotations

import importlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from minikcm.upstream import KUBERNETES_VERSION

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")  # default language first; its pages have no suffix
UPSTREAM_PREFIX = f"https://github.com/kubernetes/kubernetes/blob/{KUBERNETES_VERSION}/"


# ---------------------------------------------------------------------------
# Helpers: pages, their twins and where they land in the built site


def page_sources() -> list[Path]:
    """Every Markdown page under docs/, both languages."""
    return sorted(p for p in DOCS.rglob("*.md") if "__pycache__" not in p.parts)


def page_language(path: Path) -> str:
    """`index.en.md` is English; `index.md` is the default language (Chinese)."""
    suffixes = path.name.split(".")[1:-1]
    return suffixes[-1] if suffixes and suffixes[-1] in LANGS else LANGS[0]


def twin_of(path: Path) -> Path:
    """The same page in the other language."""
    stem = path.name[: -len(".md")]
    if page_language(path) == "en":
        return path.with_name(stem[: -len(".en")] + ".md")
    return path.with_name(stem + ".en.md")


def built_html(site: Path, source: Path) -> Path:
    """Where mkdocs (use_directory_urls) and the i18n plugin write a page."""
    rel = source.relative_to(DOCS)
    parts = list(rel.parts)
    name = parts[-1]
    lang = page_language(source)
    stem = name[: -len(".md")]
    if lang != LANGS[0]:
        stem = stem[: -len(f".{lang}")]
    folder = Path(*parts[:-1]) if len(parts) > 1 else Path()
    if stem not in ("index", "README"):
        folder = folder / stem
    if lang != LANGS[0]:
        folder = Path(lang) / folder
    return site / folder / "index.html"


class ArticleParser(HTMLParser):
    """Collects heading ids, links and images inside the page's article."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_article = 0
        self.heading_ids: list[tuple[str, str]] = []  # (tag, id), h2..h6, in page order
        self.hrefs: list[str] = []                    # every <a href> on the whole page
        self.images: list[str] = []                   # <img src> inside the article

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k: v or "" for k, v in attrs}
        if tag == "article":
            self.in_article += 1
        if tag == "a" and "href" in attr:
            self.hrefs.append(attr["href"])
        if not self.in_article:
            return
        if tag in ("h2", "h3", "h4", "h5", "h6") and attr.get("id"):
            self.heading_ids.append((tag, attr["id"]))
        if tag == "img" and "src" in attr:
            self.images.append(attr["src"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.in_article -= 1


def parse_page(path: Path) -> ArticleParser:
    parser = ArticleParser()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


# ---------------------------------------------------------------------------
# Helpers: reading maps

HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*$")
READING_MAP_ATTR = re.compile(r"\{[^}]*#reading-map(?:\s[^}]*)?\}\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
REF_TARGET = re.compile(r"\]\[(minikcm\.[\w.]+)\]")
DOTTED = re.compile(r"^minikcm(?:\.[A-Za-z_]\w*)+$")
READING_MAP_HEADING = re.compile(r"^ {0,3}#{1,6}\s.*\{[^}\n]*#reading-map(?:\s[^}\n]*)?\}\s*$", re.M)


def reading_map_symbols(markdown: str) -> list[str]:
    """Dotted `minikcm.` names in the table(s) under the heading with id `reading-map`.

    A name counts when it sits in a code span (`minikcm.tools.cache.DeltaFIFO`, a
    trailing `()` is allowed) or is an autorefs target (`[...][minikcm.x.Y]`) in a
    table row of that section. The section runs to the next heading; fenced code
    blocks are skipped. Returns names in order of first appearance.
    """
    found: list[str] = []
    in_map = False
    fence: str | None = None
    for line in markdown.splitlines():
        opener = FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            in_map = bool(READING_MAP_ATTR.search(heading.group(2)))
            continue
        if not in_map or not line.lstrip().startswith("|"):
            continue
        names = [span.strip().removesuffix("()") for _, span in CODE_SPAN.findall(line)]
        names += REF_TARGET.findall(line)
        for name in names:
            if DOTTED.match(name) and name not in found:
                found.append(name)
    return found


def resolve_symbol(dotted: str) -> object:
    """Import the longest importable module prefix of `dotted`, then walk attributes.

    Raises LookupError naming what is missing. An import error inside a module that
    does exist is not swallowed: a reading map must not hide a broken module.
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj: object = importlib.import_module(module_name)
        except ModuleNotFoundError as err:
            missing = err.name or ""
            if module_name == missing or module_name.startswith(missing + "."):
                continue
            raise
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                raise LookupError(f"{dotted}: {module_name} has no attribute path {'.'.join(parts[cut:])!r}")
            obj = getattr(obj, attr)
        return obj
    raise LookupError(f"{dotted}: no importable module prefix")


def unresolved_symbols(names: list[str]) -> dict[str, str]:
    """{name: reason} for every name that does not import."""
    bad: dict[str, str] = {}
    for name in names:
        try:
            resolve_symbol(name)
        except LookupError as err:
            bad[name] = str(err)
    return bad


# ---------------------------------------------------------------------------
# (a) the strict build produces both languages


def test_strict_build_produces_both_languages(built_site):
    zh, en = built_site.dir / "index.html", built_site.dir / "en" / "index.html"
    assert zh.is_file() and en.is_file(), sorted(p.name for p in built_site.dir.iterdir())
    assert '<html lang="zh"' in zh.read_text(encoding="utf-8")
    assert '<html lang="en"' in en.read_text(encoding="utf-8")
    assert (built_site.dir / "search" / "search_index.json").is_file()
    assert "WARNING" not in built_site.output


def test_chinese_search_index_is_segmented(built_site):
    # Material runs jieba over Chinese text when it is importable and marks word
    # boundaries with U+200B; without it a word inside a sentence is never found.
    index = json.loads((built_site.dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    zh_text = " ".join(d["text"] for d in index["docs"] if not d["location"].startswith("en/"))
    assert "\u200b" in zh_text, "is jieba installed? (pyproject's docs extra lists it)"
    assert "zh" in index["config"]["lang"]


def test_every_page_is_built_in_its_language(built_site):
    for source in page_sources():
        html = built_html(built_site.dir, source)
        assert html.is_file(), f"{source.relative_to(ROOT)} was not built at {html.relative_to(built_site.dir)}"
        assert f'<html lang="{page_language(source)}"' in html.read_text(encoding="utf-8")


def test_mermaid_and_figures_are_served_from_the_site(built_site, hooks, repo_root):
    served = built_site.dir / hooks.MERMAID_SITE_PATH
    assert served.read_bytes() == hooks.mermaid_dist(repo_root).read_bytes()
    assert (built_site.dir / "assets/javascripts/mermaid.LICENSE.txt").read_text().startswith("The MIT License")
    for figure in hooks.FIGURES:
        for lang in LANGS:
            svg = built_site.dir / hooks.figure_uri(figure.name, lang)
            assert svg.read_text(encoding="utf-8").lstrip().startswith("<svg"), svg


def test_pages_load_nothing_from_other_hosts(built_site):
    # Fonts and scripts must come from the site itself (theme.font: false, local mermaid).
    for html in built_site.dir.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for host in ("fonts.googleapis.com", "fonts.gstatic.com", "unpkg.com", "cdn.jsdelivr.net"):
            assert host not in text, f"{html.relative_to(built_site.dir)} references {host}"


def test_embedded_figures_exist(built_site):
    for source in page_sources():
        html = built_html(built_site.dir, source)
        for src in parse_page(html).images:
            if "://" in src or src.startswith("data:"):
                continue
            assert (html.parent / src).resolve().is_file(), f"{html}: image {src} missing"


# ---------------------------------------------------------------------------
# (b) twins with the same heading ids


@pytest.mark.parametrize("source", page_sources(), ids=lambda p: str(p.relative_to(DOCS)))
def test_page_has_twin_in_other_language(source):
    twin = twin_of(source)
    assert twin.is_file(), (
        f"{source.relative_to(ROOT)} has no twin: write {twin.relative_to(ROOT)} "
        "(same sections, same heading ids)"
    )


@pytest.mark.parametrize(
    "source",
    [p for p in page_sources() if page_language(p) == LANGS[0]],
    ids=lambda p: str(p.relative_to(DOCS)),
)
def test_twins_share_heading_ids(built_site, source):
    """h2..h6 ids, in order, are the same in both languages (the h1 is the page title)."""
    zh = parse_page(built_html(built_site.dir, source)).heading_ids
    en = parse_page(built_html(built_site.dir, twin_of(source))).heading_ids
    zh_ids, en_ids = [i for _, i in zh], [i for _, i in en]
    assert zh_ids == en_ids, (
        f"{source.relative_to(ROOT)}: give both languages the same headings with explicit "
        f"ids ({{ #some-id }}).\n  zh: {zh_ids}\n  en: {en_ids}"
    )
    assert [t for t, _ in zh] == [t for t, _ in en], "same ids but different heading levels"


def test_heading_ids_are_ascii(built_site):
    for source in page_sources():
        for _, heading_id in parse_page(built_html(built_site.dir, source)).heading_ids:
            assert heading_id.isascii(), f"{source.relative_to(ROOT)}: heading id {heading_id!r}"


# ---------------------------------------------------------------------------
# (c) every upstream link points at the pinned tag

UPSTREAM_URL = re.compile(r"https?://github\.com/kubernetes/kubernetes[^\s)\"'<>\]]*")
MIRROR_URL = re.compile(r"https?://github\.com/kubernetes/(?:client-go|apimachinery|controller-manager|api)\b")


def commits_read() -> tuple[str, ...]:
    """The kubernetes/kubernetes commits whose files the Go-symbol table was read from (docs/data/go_symbols.json)."""
    table = json.loads((ROOT / "docs" / "data" / "go_symbols.json").read_text(encoding="utf-8"))
    return tuple(sorted({key.split("@", 1)[1].split(":", 1)[0] for key in table["files_read"]
                         if key.startswith("kubernetes/kubernetes@")}))


READ_PREFIXES = tuple(f"https://github.com/kubernetes/kubernetes/blob/{c}/" for c in commits_read())
"""A k/k file that cannot be read at the tag is linked at the commit whose content was read (a permalink)."""


def upstream_link_problems(text: str) -> list[str]:
    """Links into kubernetes/kubernetes not at /blob/<pin>/ (or a commit read), and links to staging mirrors."""
    problems = [url for url in UPSTREAM_URL.findall(text) if not url.startswith((UPSTREAM_PREFIX, *READ_PREFIXES))]
    problems += [f"{url} (link staging/src/k8s.io/... in kubernetes/kubernetes instead)" for url in MIRROR_URL.findall(text)]
    return problems


UPSTREAM_LINK_CASES = [
    pytest.param(f"[x]({UPSTREAM_PREFIX}pkg/controller/deployment/rolling.go#L10-L12)", [], id="pinned-blob-ok"),
    pytest.param(f"[x]({READ_PREFIXES[0]}pkg/controller/deployment/rolling.go#L1-L2)", [], id="commit-read-ok"),
    pytest.param("[x](https://github.com/kubernetes/kubernetes/blob/0123456789012345678901234567890123456789/pkg/x.go)",
                 ["https://github.com/kubernetes/kubernetes/blob/0123456789012345678901234567890123456789/pkg/x.go"],
                 id="unread-commit-rejected"),
    pytest.param("[x](https://github.com/kubernetes/kubernetes/blob/master/pkg/x.go)", ["https://github.com/kubernetes/kubernetes/blob/master/pkg/x.go"], id="master-rejected"),
    pytest.param("see https://github.com/kubernetes/kubernetes/tree/v1.36.3/pkg", ["https://github.com/kubernetes/kubernetes/tree/v1.36.3/pkg"], id="tree-rejected"),
    pytest.param("<https://github.com/kubernetes/kubernetes>", ["https://github.com/kubernetes/kubernetes"], id="bare-repo-rejected"),
    pytest.param("[x](https://github.com/kubernetes/client-go/blob/v0.36.3/tools/cache/fifo.go)", ["https://github.com/kubernetes/client-go (link staging/src/k8s.io/... in kubernetes/kubernetes instead)"], id="mirror-rejected"),
    pytest.param("[guide](https://github.com/yinwenqin/kubeSourceCodeNote)", [], id="other-repo-ignored"),
]


@pytest.mark.parametrize("text, want", UPSTREAM_LINK_CASES)
def test_upstream_link_problems(text, want):
    assert upstream_link_problems(text) == want


def test_docs_sources_link_upstream_at_the_pin():
    problems = {
        str(p.relative_to(ROOT)): upstream_link_problems(p.read_text(encoding="utf-8"))
        for p in page_sources()
    }
    assert {k: v for k, v in problems.items() if v} == {}


def test_built_pages_link_upstream_at_the_pin(built_site):
    # Covers links that come from docstrings through mkdocstrings, too.
    problems = {}
    for html in built_site.dir.rglob("*.html"):
        bad = [h for h in parse_page(html).hrefs if upstream_link_problems(h)]
        if bad:
            problems[str(html.relative_to(built_site.dir))] = bad
    assert problems == {}


# ---------------------------------------------------------------------------
# (d) reading-map symbols import

SYNTHETIC_CHAPTER = """\
# 某一章 { #some-chapter }

| decoy | `minikcm.not_in_a_reading_map.Thing` |
| --- | --- |

## 阅读地图 { #reading-map }

| Go | Python | role |
| --- | --- | --- |
| [`permalink`](https://example.invalid) | `minikcm.upstream.permalink()` | builds links |
| `KubernetesVersion` | [`KUBERNETES_VERSION`][minikcm.upstream.KUBERNETES_VERSION] | the pin |
| `Missing` | `minikcm.upstream.no_such_symbol` | broken on purpose |
| `Gone` | `minikcm.no_such_module.Thing` | broken on purpose |
| `NotAName` | `minikcm upstream` and `KUBERNETES_VERSION` | ignored: not dotted minikcm names |

```markdown
## not a heading { #walkthrough }
| `minikcm.inside.a.fence` |
```

| second table, same section | `minikcm.upstream` |
| --- | --- |

## 调用链 { #walkthrough }

| after the map | `minikcm.after.the.map` |
| --- | --- |
"""


def test_reading_map_symbols_on_synthetic_page():
    assert reading_map_symbols(SYNTHETIC_CHAPTER) == [
        "minikcm.upstream.permalink",
        "minikcm.upstream.KUBERNETES_VERSION",
        "minikcm.upstream.no_such_symbol",
        "minikcm.no_such_module.Thing",
        "minikcm.upstream",
    ]


def test_unresolved_symbols_on_synthetic_page():
    bad = unresolved_symbols(reading_map_symbols(SYNTHETIC_CHAPTER))
    assert sorted(bad) == ["minikcm.no_such_module.Thing", "minikcm.upstream.no_such_symbol"]
    assert "no_such_symbol" in bad["minikcm.upstream.no_such_symbol"]


def test_reading_map_heading_with_extra_attributes():
    page = "## Reading map { #reading-map .wide }\n\n| a | `minikcm.upstream.permalink` |\n"
    assert reading_map_symbols(page) == ["minikcm.upstream.permalink"]


def test_reading_map_symbols_in_docs_import():
    problems: dict[str, dict[str, str]] = {}
    for source in page_sources():
        text = source.read_text(encoding="utf-8")
        names = reading_map_symbols(text)
        if READING_MAP_HEADING.search(text) is None:
            continue
        rel = str(source.relative_to(ROOT))
        if not names:
            problems[rel] = {"(none)": "the reading map names no minikcm. symbol in code font"}
        elif bad := unresolved_symbols(names):
            problems[rel] = bad
    assert problems == {}
