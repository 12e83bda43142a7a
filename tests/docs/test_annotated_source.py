"""Annotated source in the chapters (issue 16): docs/hooks.py's `source` fences.

Hook tests run without a build, on a throwaway module: markers, numbering, the
docstring left out, excerpts of long functions, and the build failing when an
anchor no longer matches exactly one line. The site tests read the strict build
(conftest's `built_site`): every chapter, in both languages, shows annotated
source open on the page and no mkdocstrings include.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

DOCS = Path(__file__).resolve().parents[2] / "docs"

CHAPTERS = ["overview", "p1-leader-election", "p2-informers", "p3-deployment", "p4-replicaset",
            "p5-statefulset", "wait"]

MODULE = '''\
"""No upstream twin. A module for the hook's tests."""


class Widget:
    """A thing."""

    def turn(self, n: int) -> int:
        """Turn it n times.

        The docstring mentions total = n twice: total = n.
        """
        total = 0
        for _ in range(n):
            total += 1  # one more turn
        if total > 3:
            return -1
        return total

    def long(self, flag: bool) -> int:
        """A long one."""
{long_body}
        return value


def name_of_a_function_with_a_rather_long_signature(first_argument: int, second: int) -> int:
    result = first_argument + second + first_argument * second + first_argument - second
    return result
'''

LONG_BODY = "\n".join(f"        value = {i}" for i in range(60))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project root holding minikcm/demo_mod.py."""
    (tmp_path / "minikcm").mkdir()
    (tmp_path / "minikcm" / "demo_mod.py").write_text(MODULE.format(long_body=LONG_BODY), encoding="utf-8")
    return tmp_path


REFERENCE = {"minikcm.demo_mod": "reference/demo/"}
TURN = "minikcm.demo_mod.Widget.turn"


def render(hooks, root: Path, symbol: str, body: str, lang: str = "en") -> str:
    return hooks.render_source_block(root, symbol, textwrap.dedent(body), lang, "page.md", REFERENCE)


def code_of(block: str) -> list[str]:
    """The lines of the first python code block in `block`."""
    start = block.index("``` python")
    lines = block[start:].split("\n")[1:]
    return lines[: lines.index("```")]


def test_marker_ends_the_anchor_line_and_the_list_follows(hooks, project):
    block = render(hooks, project, TURN, '''
        "for _ in range(n):" Loops n times.
    ''')
    code = code_of(block)
    assert "    for _ in range(n):  # (1)!" in code
    assert block.rstrip().endswith("1.  Loops n times.")
    assert "](reference/demo.md#minikcm.demo_mod.Widget.turn)" in block


def test_annotations_are_numbered_in_source_order(hooks, project):
    block = render(hooks, project, TURN, '''
        "return total" Second in the source.
        "total = 0" First in the source.
    ''')
    code = code_of(block)
    assert "    total = 0  # (1)!" in code and "    return total  # (2)!" in code
    assert "1.  First in the source.\n2.  Second in the source." in block


def test_docstring_is_left_out(hooks, project):
    block = render(hooks, project, TURN, '"total = 0" x')
    assert "Turn it n times" not in block
    assert code_of(block)[0] == "def turn(self, n: int) -> int:"


def test_anchor_on_a_commented_line_keeps_the_comment(hooks, project):
    code = code_of(render(hooks, project, TURN, '"total += 1" x'))
    assert "        total += 1  # one more turn (1)" in code


def test_continuation_lines_and_language(hooks, project):
    block = render(hooks, project, TURN, '''
        "total = 0" 从零开始，
            一次加一。
    ''', lang="zh")
    assert "1.  从零开始，\n    一次加一。" in block
    assert "文档字符串见 [API 参考]" in block


def test_long_anchor_line_keeps_its_marker_at_the_end(hooks, project):
    # Issue 23, item 17: long lines wrap in the browser (extra.css), so the marker never leaves its line.
    code = code_of(render(hooks, project, "minikcm.demo_mod.name_of_a_function_with_a_rather_long_signature",
                          '"result = first_argument" x'))
    line = next(line for line in code if "result = first_argument" in line)
    assert len(line) > 80 and line.endswith("  # (1)!")
    assert "# (1)!" not in "\n".join(other for other in code if other is not line)


GO_TWIN_CASES = [
    #            summary                                                     module                 want
    pytest.param("Port of Typed.Add (util/workqueue/queue.go).",            "x.queue",             "Typed.Add", id="with-path"),
    pytest.param("Port of the loop body of Typed.Get (queue.go): one get.", "x.queue",             "Typed.Get", id="loop-body"),
    pytest.param("No upstream twin. A helper.",                             "x.queue",             None,        id="no-twin"),
    pytest.param("Port of the PrepareForUpdate methods (strategy.go).",     "x.strategy",          None,        id="not-a-symbol"),
]


@pytest.mark.parametrize("summary, module, want", GO_TWIN_CASES)
def test_go_twin_comes_from_the_symbol_table(hooks, repo_root, summary, module, want):
    twin = hooks.go_twin(repo_root, summary, module)
    if want is None:
        assert twin is None
        return
    name, url = twin
    assert name == want
    assert url is not None and url.startswith("https://github.com/kubernetes/kubernetes/blob/v1.36.3/") and "#L" in url


def test_caption_names_the_go_twin_beside_the_file(hooks, repo_root):
    block = hooks.render_source_block(repo_root, "minikcm.util.workqueue.queue.Type.add", '"if item in self.dirty:" x',
                                      "en", "page.md", REFERENCE)
    caption = block.split("\n")[0]
    assert "`minikcm/util/workqueue/queue.py`" in caption
    assert "Go twin: [`Typed.Add`](https://github.com/kubernetes/kubernetes/blob/v1.36.3/" in caption


@pytest.mark.parametrize("anchor, hits", [
    pytest.param("no such line", 0, id="stale"),
    pytest.param("total", 4, id="ambiguous"),
    pytest.param("Turn it n times", 0, id="only-in-docstring"),
])
def test_anchor_not_matching_exactly_one_line_fails_the_build(hooks, project, anchor, hits):
    with pytest.raises(PluginError, match=rf"matches {hits} lines of {re.escape(TURN)}"):
        render(hooks, project, TURN, f'"{anchor}" x')


def test_stale_anchor_after_the_code_changed(hooks, project):
    body = '"for _ in range(n):" Loops n times.'
    render(hooks, project, TURN, body)
    path = project / "minikcm" / "demo_mod.py"
    path.write_text(path.read_text(encoding="utf-8").replace("for _ in range(n):", "for _ in range(n + 1):"),
                    encoding="utf-8")
    with pytest.raises(PluginError, match="matches 0 lines"):
        render(hooks, project, TURN, body)


@pytest.mark.parametrize("symbol, body, message", [
    pytest.param("minikcm.demo_mod.Widget.spin", '"x" y', "no def or class 'spin'", id="missing-symbol"),
    pytest.param("minikcm.nowhere.f", '"x" y', "no module file", id="missing-module"),
    pytest.param(TURN, "", "has no annotations", id="no-annotations"),
    pytest.param(TURN, "total = 0 unquoted", "starts with a quoted anchor", id="unquoted-anchor"),
    pytest.param(TURN, '"total = 0" a\n"total = 0" b', "same line", id="same-line-twice"),
])
def test_malformed_blocks_fail_the_build(hooks, project, symbol, body, message):
    with pytest.raises(PluginError, match=re.escape(message)):
        render(hooks, project, symbol, body)


def test_long_function_shows_an_excerpt_and_folds_the_rest(hooks, project):
    block = render(hooks, project, "minikcm.demo_mod.Widget.long", '''
        "value = 30" The middle.
    ''')
    code = code_of(block)
    assert len(code) < 12
    assert "    value = 30  # (1)!" in code and "    # ..." in code
    fold = block[block.index('??? quote "Full source of `Widget.long`"'):]
    assert "        value = 59" in fold and "(1)" not in fold


def test_fence_inside_an_admonition_keeps_its_indent(hooks, project):
    page = 'Text.\n\n!!! note\n\n    ```source minikcm.demo_mod.Widget.turn\n    "total = 0" x\n    ```\n'
    out = hooks.expand_source_blocks(page, project, "en", "page.md", REFERENCE)
    assert "    ``` python" in out and "        total = 0  # (1)!" in out and "    1.  x" in out
    assert "```source" not in out


def test_symbol_re_exported_by_a_package_is_followed(hooks, project):
    package = project / "minikcm" / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package."""\n\nfrom minikcm.pkg._impl import spin\n', encoding="utf-8")
    (package / "_impl.py").write_text('def spin():\n    """Spin."""\n    return 1\n', encoding="utf-8")
    block = hooks.render_source_block(project, "minikcm.pkg.spin", '"return 1" x', "en", "page.md",
                                      {"minikcm.pkg": "reference/pkg/"})
    assert 'title="minikcm/pkg/_impl.py"' in block
    assert "](reference/pkg.md#minikcm.pkg.spin)" in block


def test_caption_carries_the_symbol_anchor(hooks, project):
    block = render(hooks, project, TURN, '"total = 0" x')
    assert "\n{: #minikcm.demo_mod.Widget.turn }\n" in block


@pytest.mark.parametrize("symbol, anchor, reference", [
    pytest.param("minikcm.demo_mod.name_of_a_function_with_a_rather_long_signature", "return result", REFERENCE,
                 id="no-docstring"),
    pytest.param(TURN, "total = 0", {}, id="module-not-in-the-reference"),
])
def test_caption_links_the_reference_only_when_it_documents_the_symbol(hooks, project, symbol, anchor, reference):
    block = hooks.render_source_block(project, symbol, f'"{anchor}" x', "en", "page.md", reference)
    assert "API reference" not in block and "lines " in block


def test_pages_without_fences_are_untouched(hooks, project):
    page = "```python\nx = 1\n```\n"
    assert hooks.expand_source_blocks(page, project, "en", "page.md", REFERENCE) is page


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_fence_in_the_docs_expands(hooks, repo_root, page):
    """The same check the build makes, without the build: every anchor still matches one line."""
    lang = "en" if page.endswith(".en.md") else "zh"
    out = hooks.expand_source_blocks((DOCS / page).read_text(encoding="utf-8"), repo_root, lang, page)
    assert "```source" not in out


# ---------------------------------------------------------------------------
# The built site

MARKER = re.compile(r'<span class="c1">#[^<]*? \((\d+)\)!?</span>')
"""An annotation marker: `# (n)!`, or ` (n)` at the end of a comment the code already had."""


def chapter_html(built_site, chapter: str, lang: str) -> str:
    prefix = "" if lang == "zh" else "en/"
    return (built_site.dir / prefix / chapter / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chapter_shows_annotated_source_open(built_site, chapter, lang):
    html = chapter_html(built_site, chapter, lang)
    assert 'class="doc doc-object' not in html, "an mkdocstrings include is left in the walkthrough"
    blocks = html.split('<div class="language-python highlight">')[1:]
    annotated = [b for b in blocks if MARKER.search(b.split("</code></pre></div>")[0])]
    assert len(annotated) >= 3
    for match in MARKER.finditer(html):
        before = html[: match.start()]
        open_details = before.count("<details") - before.count("</details>")
        assert open_details == 0, f"annotation ({match[1]}) sits inside a closed <details>"
    for block in annotated:
        code, _, after = block.partition("</code></pre></div>")
        numbers = [int(n) for n in MARKER.findall(code)]
        assert numbers == list(range(1, len(numbers) + 1))
        items = re.match(r"\s*<ol>(.*?)</ol>", after, re.DOTALL)
        assert items is not None, "the annotation list does not follow its code block"
        assert items[1].count("<li>") == len(numbers)


@pytest.mark.parametrize("lang, word", [("zh", "文档字符串见"), ("en", "docstring in the")])
def test_annotations_are_in_the_page_language(built_site, lang, word):
    html = chapter_html(built_site, "p3-deployment", lang)
    assert word in html
    notes = re.search(r'</code></pre></div>\s*<ol>(.*?)</ol>', html, re.DOTALL)
    assert notes is not None
    has_cjk = re.search(r"[\u4e00-\u9fff]", notes[1]) is not None
    assert has_cjk == (lang == "zh")
