"""The built site in a real browser: Playwright driving Debian's /usr/bin/chromium.

Serves the strict build on 127.0.0.1 (random port) and checks what a reader sees:
both home pages render (fonts, figure, no request leaves the machine), the language
switcher moves between twins, a Chinese search finds pages, mermaid draws an SVG.
Screenshots land in test-artifacts/ for CI to keep.

Never run `playwright install`: the browser is Debian's. This module skips only
when /usr/bin/chromium is absent and CI is unset; a chromium that is present but
cannot start fails the run.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT_MS = 10_000


@pytest.fixture
def page(browser):
    """A fresh page that records requests to other hosts and script errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.foreign_requests = []
    tab.page_errors = []

    def on_request(request) -> None:
        host = urlparse(request.url).hostname
        if host not in (None, "127.0.0.1") and not request.url.startswith("data:"):
            tab.foreign_requests.append(request.url)

    tab.on("request", on_request)
    tab.on("pageerror", lambda error: tab.page_errors.append(str(error)))
    # Issue 23, item 25: any console error or failed request is a defect of the page.
    tab.console_errors = []
    tab.failed_requests = []
    tab.on("console", lambda msg: tab.console_errors.append(msg.text) if msg.type == "error" else None)
    tab.on("requestfailed", lambda request: tab.failed_requests.append(f"{request.url} ({request.failure})"))
    tab.on("response", lambda response: tab.failed_requests.append(f"{response.url} ({response.status})")
           if response.status >= 400 else None)
    try:
        yield tab
    finally:
        context.close()


def screenshot(tab, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    if full_page:
        tab.evaluate("window.scrollTo(0, 0)")  # else the sticky header lands mid-picture
        tab.wait_for_timeout(200)
    tab.screenshot(path=str(ARTIFACTS / f"docs-{name}.png"), full_page=full_page)


def open_language_menu_and_pick(tab, lang: str) -> None:
    tab.wait_for_load_state("networkidle")
    tab.locator(".md-header__option .md-select").first.hover()  # the menu opens on hover
    tab.locator(f"a.md-select__link[hreflang={lang}]").first.click()


def svg_inside_mermaid(tab) -> int:
    """Count <svg> elements under div.mermaid, closed shadow roots included (via CDP)."""
    session = tab.context.new_cdp_session(tab)
    try:
        document = session.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    finally:
        session.detach()

    def children(node: dict) -> list[dict]:
        return node.get("children", []) + node.get("shadowRoots", [])

    def count_svg(node: dict) -> int:
        own = 1 if node.get("nodeName", "").lower() == "svg" else 0
        return own + sum(count_svg(child) for child in children(node))

    def walk(node: dict) -> int:
        attrs = node.get("attributes", [])
        classes = dict(zip(attrs[::2], attrs[1::2])).get("class", "").split()
        if node.get("nodeName") == "DIV" and "mermaid" in classes:
            return count_svg(node)
        return sum(walk(child) for child in children(node))

    return walk(document)


def test_chromium_starts(browser):
    assert browser.version.split(".")[0].isdigit(), browser.version


HOME_CASES = [
    #            path    lang  words in the h1
    pytest.param("/",    "zh", "读懂", id="zh"),
    pytest.param("/en/", "en", "read beside", id="en"),
]


@pytest.mark.parametrize("path, lang, words", HOME_CASES)
def test_home_renders(page, base_url, path, lang, words):
    page.goto(base_url + path)
    assert page.locator("html").get_attribute("lang") == lang
    heading = page.locator("article h1").first
    heading.wait_for(timeout=WAIT_MS)
    assert words in heading.inner_text()
    figure = page.locator("article img[src*='figures/']").first
    figure.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=figure.element_handle(), timeout=WAIT_MS)
    page.locator("div.mermaid").first.wait_for(state="attached", timeout=WAIT_MS)
    screenshot(page, f"home-{lang}")
    assert page.foreign_requests == []
    assert page.page_errors == []


CJK_FAMILIES = ("CJK", "Source Han", "PingFang", "YaHei", "WenQuanYi", "Hiragino")


def platform_fonts(tab, selector: str) -> dict[str, int]:
    """{font family: glyphs drawn} for the text of the first element matching `selector`."""
    session = tab.context.new_cdp_session(tab)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        root = session.send("DOM.getDocument")["root"]["nodeId"]
        node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        session.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}


def test_chinese_text_uses_a_cjk_font(page, base_url):
    # Without a CJK font Chromium draws boxes (tofu); .ci/run installs fonts-noto-cjk.
    page.goto(base_url + "/")
    page.locator("article p").first.wait_for(timeout=WAIT_MS)
    fonts = platform_fonts(page, "article p")
    cjk = {name: glyphs for name, glyphs in fonts.items() if any(f in name for f in CJK_FAMILIES)}
    assert cjk and sum(cjk.values()) > 10, fonts


SWITCH_CASES = [
    #            Chinese page   English twin
    pytest.param("/",           "/en/",           id="home"),
    pytest.param("/reference/", "/en/reference/", id="reference"),
    pytest.param("/p2-informers/", "/en/p2-informers/", id="chapter"),
]


@pytest.mark.parametrize("zh_path, en_path", SWITCH_CASES)
def test_language_switcher_round_trip(page, base_url, zh_path, en_path):
    # Material's selector used to look the twin up in whichever language root's
    # sitemap answered first, and sent a Chinese page's reader to the English home
    # when /en/'s won (a flaky CI run). No lookup, no race: the link is the twin.
    sitemaps = []
    page.on("request", lambda request: sitemaps.append(request.url) if "sitemap" in request.url else None)
    page.goto(base_url + zh_path)
    open_language_menu_and_pick(page, "en")
    page.wait_for_url(base_url + en_path, timeout=WAIT_MS)
    assert page.locator("html").get_attribute("lang") == "en"
    open_language_menu_and_pick(page, "zh")
    page.wait_for_url(base_url + zh_path, timeout=WAIT_MS)
    assert page.locator("html").get_attribute("lang") == "zh"
    assert page.foreign_requests == []
    assert sitemaps == []  # the selector follows its own link; nothing to look up


def test_chinese_search_finds_pages(page, base_url):
    page.goto(base_url + "/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.fill("控制器")
    box.press("End")  # Material searches on keyup; fill() alone sends none
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=WAIT_MS)
    hrefs = [a.get_attribute("href") or "" for a in results.all()]
    assert any("/en/" not in href for href in hrefs), hrefs
    screenshot(page, "search-zh", full_page=False)


@pytest.mark.parametrize("path", ["/", "/en/"], ids=["zh", "en"])
def test_mermaid_draws_svg(page, base_url, path):
    page.goto(base_url + path)
    diagram = page.locator("div.mermaid").first
    diagram.wait_for(state="attached", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('div.mermaid').getBoundingClientRect().height > 50",
        timeout=WAIT_MS,
    )
    assert page.locator("pre.mermaid").count() == 0  # every diagram was replaced
    assert svg_inside_mermaid(page) >= 1
    diagram.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    diagram.screenshot(path=str(ARTIFACTS / f"docs-mermaid-{path.strip('/') or 'zh'}.png"))
    assert page.foreign_requests == []
    assert page.page_errors == []


def test_api_reference_renders_module(page, base_url):
    page.goto(base_url + "/en/reference/apimachinery/")
    page.locator("[id='minikcm.upstream.permalink']").wait_for(timeout=WAIT_MS)
    screenshot(page, "reference-en", full_page=False)  # the page is long; the viewport shows it renders


@pytest.mark.parametrize("path, words", [
    pytest.param("/p3-deployment/", "先试扩新", id="zh"),
    pytest.param("/en/p3-deployment/", "grow the new one first", id="en"),
])
def test_chapter_shows_annotated_source_without_a_click(page, base_url, path, words):
    # Issue 16: the code being read is on the page, open, with numbered annotations.
    page.goto(base_url + path + "#rolling")
    block = page.locator("article div.highlight", has=page.locator(".md-annotation")).filter(
        has_text="def rollout_rolling").first
    block.wait_for(timeout=WAIT_MS)
    assert block.is_visible()
    assert block.locator("code").inner_text().count("self.sync_rollout_status") >= 2
    marker = block.locator(".md-annotation__index").first
    assert marker.is_visible() and marker.bounding_box()["width"] > 0
    assert block.evaluate("b => b.closest('details') === null")
    block.locator(".md-annotation").nth(1).focus()  # annotation (2) opens its note (markers pulse: no click)
    tooltip = block.locator(".md-annotation").nth(1).locator(".md-tooltip")
    tooltip.wait_for(state="visible", timeout=WAIT_MS)
    assert words in tooltip.inner_text()
    screenshot(page, f"annotated-source-{'zh' if path.startswith('/p3') else 'en'}", full_page=False)
    assert page.page_errors == []


QUIET_PAGES = ["", "p2-informers/", "p3-deployment/", "debugging/", "appendix-apiserver/", "reference/client-go/"]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page_path", QUIET_PAGES, ids=[p.strip("/") or "home" for p in QUIET_PAGES])
def test_pages_log_no_console_error_and_no_failed_request(page, base_url, lang, page_path):
    # Issue 23, item 25: every page used to ask for <page>/sitemap.xml twice and log two 404s.
    page.goto(base_url + ("/" if lang == "zh" else "/en/") + page_path)
    page.locator("article h1").first.wait_for(timeout=WAIT_MS)
    page.wait_for_load_state("networkidle", timeout=WAIT_MS)
    assert page.failed_requests == []
    assert page.console_errors == []
    assert page.page_errors == []


MARKERS_AT_LINE_END = """
block => {
  const code = block.querySelector('pre > code');
  const box = code.getBoundingClientRect();
  const found = [];
  for (const marker of code.querySelectorAll('.md-annotation')) {
    const mark = marker.querySelector('.md-annotation__index') || marker;
    const m = mark.getBoundingClientRect();
    // The last visible character of code before the marker.
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let last = null, node;
    while ((node = walker.nextNode())) {
      if (marker.contains(node)) continue;
      if (marker.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) break;
      if (node.textContent.trim()) last = node;
    }
    const text = last.textContent;
    let i = text.length - 1;
    while (i > 0 && !text[i].trim()) i--;
    const range = document.createRange();
    range.setStart(last, i); range.setEnd(last, i + 1);
    const c = range.getBoundingClientRect();
    found.push({
      same_line: Math.abs((c.top + c.bottom) / 2 - (m.top + m.bottom) / 2) < c.height * 0.75,
      after_text: m.left >= c.left,
      in_view: m.right <= box.right + 1 && m.left >= box.left - 1,
      text: text.slice(Math.max(0, i - 30), i + 1),
    });
  }
  return found;
}
"""

MARKER_CASES = [
    #            path                   width
    pytest.param("/p3-deployment/",     1280, id="zh-1280"),
    pytest.param("/p3-deployment/",     390,  id="zh-phone"),
    pytest.param("/en/p3-deployment/",  1280, id="en-1280"),
    pytest.param("/en/p3-deployment/",  390,  id="en-phone"),
]


@pytest.mark.parametrize("path, width", MARKER_CASES)
def test_annotation_markers_stay_at_the_end_of_their_line(browser, base_url, path, width):
    # Issue 23, item 17: a long source line used to push its marker onto a line of its own.
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        tab = context.new_page()
        tab.goto(base_url + path)
        blocks = tab.locator("article div.highlight", has=tab.locator(".md-annotation"))
        blocks.first.wait_for(timeout=WAIT_MS)
        assert blocks.count() >= 5
        checked = 0
        for index in range(blocks.count()):
            block = blocks.nth(index)
            if block.evaluate("b => b.closest('details') !== null"):
                continue  # the closed "full source" folds carry no markers
            for marker in block.evaluate(MARKERS_AT_LINE_END):
                assert marker["same_line"] and marker["after_text"], marker
                assert marker["in_view"], marker
                checked += 1
        assert checked >= 20
        if width < 500:
            ARTIFACTS.mkdir(exist_ok=True)
            tab.locator("article div.highlight", has_text="def rollout_rolling").first.screenshot(
                path=str(ARTIFACTS / f"docs-markers-{path.strip('/').replace('/', '-')}-{width}.png"))
    finally:
        context.close()
