"""The replays in the built site: every chapter's widgets are filled in, every trace is there and
valid, every API reference link lands on an anchor; the hook's placeholder handling."""

from __future__ import annotations

import json
import re

import pytest
from mkdocs.exceptions import PluginError

from minikcm.harness import replay

PAGES = {"p1": "p1-leader-election", "p2": "p2-informers", "p3": "p3-deployment", "p4": "p4-replicaset",
         "p5": "p5-statefulset", "wait": "wait"}


def test_every_code_chapter_has_a_replay():
    assert set(replay.REPLAYS) == set(PAGES)
    assert all(replay.REPLAYS[chapter] for chapter in PAGES)


@pytest.mark.parametrize("chapter", sorted(PAGES))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_chapter_page_carries_its_widgets(built_site, chapter, lang):
    prefix = "" if lang == "zh" else "en/"
    html = (built_site.dir / prefix / PAGES[chapter] / "index.html").read_text(encoding="utf-8")
    to_site = "../" if lang == "zh" else "../../"
    for name in replay.REPLAYS[chapter]:
        widget = (f'<div class="replay" data-scenario="{name}" data-seeds="1 2 3" data-lang="{lang}" '
                  f'data-src="{to_site}assets/replay/" data-root="../"></div>')
        assert widget in html
    assert "javascripts/replay.js" in html and "stylesheets/replay.css" in html
    # the widget sits in the "Watch it run" section, before "Then and now"
    assert html.index('id="watch-it-run"') < html.index('class="replay"') < html.index('id="then-and-now"')


def test_traces_are_shipped_valid_and_small(built_site):
    for names in replay.REPLAYS.values():
        for name in names:
            for seed in replay.SEEDS:
                path = built_site.dir / "assets" / "replay" / replay.replay_file_name(name, seed)
                text = path.read_text(encoding="utf-8")
                replay.validate(json.loads(text), text)
                assert len(text.encode()) <= replay.MAX_BYTES


def test_reference_links_land_on_anchors(built_site):
    ids: dict[str, set[str]] = {}
    checked = 0
    for path in sorted((built_site.dir / "assets" / "replay").glob("*-seed1.json")):
        for function in json.loads(path.read_text(encoding="utf-8"))["functions"]:
            if not function["ref"]:
                continue
            page, anchor = function["ref"].split("#")
            for root in ("", "en/"):
                html = built_site.dir / root / page / "index.html"
                if html not in ids:
                    ids[html] = set(re.findall(r'id="([^"]+)"', html.read_text(encoding="utf-8")))
                assert anchor in ids[html], (html, anchor)
                checked += 1
    assert checked > 50


# ---------------------------------------------------------------------------
# The hook's side


def test_placeholder_is_filled_for_each_language(hooks):
    html = '<p>x</p>\n<div class="replay" data-scenario="leader-failover"></div>'
    zh = hooks.REPLAY_PLACEHOLDER.sub(lambda m: hooks.replay_widget(m, "p1-leader-election/", "zh"), html)
    en = hooks.REPLAY_PLACEHOLDER.sub(lambda m: hooks.replay_widget(m, "en/p1-leader-election/", "en"), html)
    assert 'data-src="../assets/replay/" data-root="../"' in zh
    assert 'data-src="../../assets/replay/" data-root="../"' in en
    assert 'data-lang="en"' in en and 'data-seeds="1 2 3"' in en


def test_unknown_replay_fails_the_build(hooks):
    html = '<div class="replay" data-scenario="no-such-scenario"></div>'
    with pytest.raises(PluginError, match="no-such-scenario"):
        hooks.REPLAY_PLACEHOLDER.sub(lambda m: hooks.replay_widget(m, "p1-leader-election/", "zh"), html)


def test_malformed_cached_trace_fails_the_build(hooks, repo_root, monkeypatch, tmp_path):
    fingerprint = "test-malformed"
    folder = tmp_path / f"minikcm-replay-{fingerprint}"
    folder.mkdir()
    (folder / replay.replay_file_name("wait-backoff", 1)).write_text('{"format": 1, "steps": []}\n')
    monkeypatch.setattr(hooks.tempfile, "gettempdir", lambda: str(tmp_path))
    with pytest.raises(PluginError, match="does not have the shape"):
        hooks.replay_text(repo_root, "wait-backoff", 1, fingerprint)


def test_reference_pages_map_modules(hooks, repo_root):
    pages = hooks.reference_pages(repo_root)
    assert pages["minikcm.tools.leaderelection.leaderelection"] == "reference/leaderelection/"
    assert all(page.startswith("reference/") and page.endswith("/") for page in pages.values())
