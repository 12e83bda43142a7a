"""The chapters' replay widgets in a real browser (Playwright driving Debian's /usr/bin/chromium).

For one replay per code chapter (both languages for P1) the test steps forward ten
times with the arrow keys and back five, and checks at each stop that the widget
shows what the trace file says: the step's name, the functions that ran (with their
API reference links), the `--break` command, the objects of the state after the
step, and the keys the step changed. It also plays, picks another seed, and checks
that a phone-sized screen does not scroll sideways. Serving and launching are the
docs conftest's fixtures (`base_url`, `browser`); this module skips only when chromium is absent and CI is unset.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

WAIT_MS = 10_000


def new_tab(browser, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.foreign_requests, tab.page_errors = [], []

    def on_request(request) -> None:
        if urlparse(request.url).hostname not in (None, "127.0.0.1") and not request.url.startswith("data:"):
            tab.foreign_requests.append(request.url)

    tab.on("request", on_request)
    tab.on("pageerror", lambda error: tab.page_errors.append(str(error)))
    return context, tab


def load_trace(site: Path, scenario: str, seed: int) -> dict:
    return json.loads((site / "assets" / "replay" / f"{scenario}-seed{seed}.json").read_text(encoding="utf-8"))


def states_of(trace: dict) -> list[dict]:
    """The state after each step, the way replay.js builds it."""
    states, current = [], {}
    for step in trace["steps"]:
        current = dict(current)
        for key, value in step.get("diff", {}).items():
            if value is None:
                current.pop(key, None)
            else:
                current[key] = value
        states.append(current)
    return states


def open_widget(tab, base_url: str, path: str, scenario: str):
    tab.goto(base_url + path)
    widget = tab.locator(f"div.replay[data-scenario='{scenario}']")
    widget.wait_for(timeout=WAIT_MS)
    tab.wait_for_function(
        "s => document.querySelector(`div.replay[data-scenario='${s}']`).dataset.ready === 'yes'",
        arg=scenario, timeout=WAIT_MS)
    widget.scroll_into_view_if_needed()
    return widget


def check_step(widget, trace: dict, states: list[dict], index: int) -> None:
    """The widget shows step `index` of `trace` exactly as the file says."""
    step = trace["steps"][index]
    assert widget.get_attribute("data-step") == str(index)
    assert widget.locator(".replay__step-name").inner_text() == step["name"]
    functions = [trace["functions"][i] for i in step["fn"]]
    shown = widget.locator(".replay__fn")
    assert [shown.nth(i).get_attribute("data-fn") for i in range(shown.count())] == [f["name"] for f in functions]
    for i, f in enumerate(functions):
        link = shown.nth(i).locator("a.replay__ref")
        if f["ref"]:
            assert link.get_attribute("href").endswith(f["ref"]), f
        else:
            assert link.count() == 0
    command = widget.locator(".replay__command").inner_text()
    assert command.startswith(trace["command"])
    if "brk" in step:
        symbol, hit = trace["functions"][step["brk"][0]]["name"], step["brk"][1]
        assert f"--break {symbol}" in command
        assert (f"--hit {hit}" in command) == (hit > 1)
    objects = widget.locator(".replay__objects [data-key]")
    shown_keys = {objects.nth(i).get_attribute("data-key") for i in range(objects.count())}
    assert shown_keys == set(states[index]), index
    changed = widget.locator(".replay__changes li[data-key]")
    assert [changed.nth(i).get_attribute("data-key") for i in range(changed.count())] == sorted(step.get("diff", {}))
    highlighted = widget.locator(".replay__objects .replay--changed")
    assert {highlighted.nth(i).get_attribute("data-key") for i in range(highlighted.count())} == {
        k for k, v in step.get("diff", {}).items() if v is not None}


CHAPTERS = [
    #            page                        replay                   language
    pytest.param("/p1-leader-election/",     "leader-failover",       id="p1-zh"),
    pytest.param("/en/p1-leader-election/",  "leader-failover",       id="p1-en"),
    pytest.param("/p2-informers/",           "workqueue-retry",       id="p2-zh"),
    pytest.param("/p3-deployment/",          "rolling-update",        id="p3-zh"),
    pytest.param("/en/p4-replicaset/",       "replicaset-scale",      id="p4-en"),
    pytest.param("/p5-statefulset/",         "statefulset-partition", id="p5-zh"),
    pytest.param("/en/wait/",                "wait-backoff",          id="wait-en"),
]


@pytest.mark.parametrize("path, scenario", CHAPTERS)
def test_step_forward_ten_and_back_five(browser, built_site, base_url, path, scenario):
    trace = load_trace(built_site.dir, scenario, 1)
    states = states_of(trace)
    context, tab = new_tab(browser)
    try:
        widget = open_widget(tab, base_url, path, scenario)
        assert tab.locator("html").get_attribute("lang") == ("en" if path.startswith("/en/") else "zh")
        check_step(widget, trace, states, 0)
        widget.focus()
        seen = []
        for _ in range(10):
            tab.keyboard.press("ArrowRight")
            seen.append(widget.locator(".replay__fn").first.get_attribute("data-fn")
                        if trace["steps"][len(seen) + 1]["fn"] else None)
        check_step(widget, trace, states, 10)
        expected = [trace["functions"][s["fn"][0]]["name"] if s["fn"] else None for s in trace["steps"][1:11]]
        assert seen == expected  # the linked function followed the trace at every press
        for _ in range(5):
            tab.keyboard.press("ArrowLeft")
        check_step(widget, trace, states, 5)
        widget.locator("button[data-act='forward']").click()
        check_step(widget, trace, states, 6)
        assert tab.foreign_requests == []
        assert tab.page_errors == []
    finally:
        context.close()


def test_play_seed_picker_and_end(browser, built_site, base_url):
    trace2 = load_trace(built_site.dir, "leader-failover", 2)
    context, tab = new_tab(browser)
    try:
        widget = open_widget(tab, base_url, "/p1-leader-election/", "leader-failover")
        widget.locator("select.replay__speed").select_option("16")
        widget.locator("button[data-act='play']").click()
        tab.wait_for_function("() => +document.querySelector('div.replay').dataset.step >= 3", timeout=WAIT_MS)
        widget.locator("button[data-act='play']").click()  # pause
        assert widget.get_attribute("data-playing") == "no"
        stopped = int(widget.get_attribute("data-step"))
        widget.locator("select.replay__seed").select_option("2")
        tab.wait_for_function("() => document.querySelector('div.replay').dataset.seed === '2'", timeout=WAIT_MS)
        check_step(widget, trace2, states_of(trace2), stopped)
        widget.focus()
        tab.keyboard.press("End")
        assert widget.get_attribute("data-step") == str(len(trace2["steps"]) - 1)
        tab.keyboard.press("Home")
        assert widget.get_attribute("data-step") == "0"
        assert tab.page_errors == []
    finally:
        context.close()


def test_readable_on_a_phone(browser, base_url):
    context, tab = new_tab(browser, width=390)
    try:
        widget = open_widget(tab, base_url, "/en/p5-statefulset/", "statefulset-ordered")
        widget.focus()
        for _ in range(30):
            tab.keyboard.press("ArrowRight")
        overflow = widget.evaluate("w => w.scrollWidth - w.clientWidth")
        assert overflow <= 1
        box = widget.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    finally:
        context.close()


def test_jumps_to_writes_and_to_a_controllers_syncs_by_keyboard(browser, built_site, base_url):
    trace = load_trace(built_site.dir, "rolling-update", 1)
    steps = trace["steps"]
    writes = [i for i, s in enumerate(steps) if s.get("writes")]
    context, tab = new_tab(browser)
    try:
        widget = open_widget(tab, base_url, "/en/p3-deployment/", "rolling-update")
        workers = widget.locator("select.replay__worker option")
        assert [workers.nth(i).get_attribute("value") for i in range(workers.count())] == \
            sorted({s["name"] for s in steps if s["name"].endswith("/worker")},
                   key=lambda n: next(i for i, s in enumerate(steps) if s["name"] == n))
        widget.focus()
        tab.keyboard.press("w")
        assert widget.get_attribute("data-step") == str(writes[0] if writes[0] > 0 else writes[1])
        at = int(widget.get_attribute("data-step"))
        tab.keyboard.press("w")
        assert int(widget.get_attribute("data-step")) == min(i for i in writes if i > at)
        tab.keyboard.press("Shift+W")
        assert int(widget.get_attribute("data-step")) == at
        check_step(widget, trace, states_of(trace), at)
        widget.locator("select.replay__worker").select_option("replicaset/worker")
        syncs = [i for i, s in enumerate(steps) if s["name"] == "replicaset/worker"]
        widget.focus()
        tab.keyboard.press("c")
        first = min(i for i in syncs if i > at)
        assert int(widget.get_attribute("data-step")) == first
        assert widget.locator(".replay__step-name").inner_text() == "replicaset/worker"
        widget.locator("button[data-act='next-sync']").click()
        assert int(widget.get_attribute("data-step")) == min(i for i in syncs if i > first)
        tab.keyboard.press("Shift+C")
        assert int(widget.get_attribute("data-step")) == first
        tab.keyboard.press("End")
        tab.keyboard.press("c")
        assert int(widget.get_attribute("data-step")) == len(steps) - 1
        assert widget.locator(".replay__jump-note").inner_text() == "none after this step"
        assert tab.page_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("path, scenario, label, lang", [
    ("/en/p4-replicaset/", "replicaset-scale", "Replay", "en"),
    ("/p4-replicaset/", "replicaset-scale", "回放", "zh"),
    ("/p1-leader-election/", "leader-failover", "回放", "zh"),
])
def test_heading_is_the_title_with_one_separator(browser, built_site, base_url, path, scenario, label, lang):
    trace = load_trace(built_site.dir, scenario, 1)
    for width in (1280, 390):
        context, tab = new_tab(browser, width=width)
        try:
            widget = open_widget(tab, base_url, path, scenario)
            head = widget.locator(".replay__head")
            heading = head.locator(".replay__heading")
            assert heading.inner_text() == f"{label} · {trace['title'][lang]}"
            # Nothing else in the head says "·": no separator left behind on a line of its own.
            assert head.evaluate("h => Array.from(h.childNodes).filter(n => n.nodeType === 3 && n.textContent.trim()).length") == 0
            assert head.inner_text().count("·") == 1
            if not any(s["name"].endswith("/worker") for s in trace["steps"]):
                assert widget.locator(".replay__sync").is_hidden()
        finally:
            context.close()
