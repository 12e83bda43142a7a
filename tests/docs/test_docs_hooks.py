"""docs/hooks.py: the figure registry, the SVG helpers and the mermaid install check."""

from __future__ import annotations

import json
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from mkdocs.exceptions import PluginError

from minikcm.upstream import KUBERNETES_VERSION

SVG = "{http://www.w3.org/2000/svg}"


class _TaggedLoader(yaml.SafeLoader):
    """Reads mkdocs.yml, turning its `!!python/...` tags into None."""


_TaggedLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


@pytest.fixture(scope="module")
def mkdocs_config(repo_root: Path) -> dict:
    return yaml.load((repo_root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_TaggedLoader)


def plugin_config(config: dict, name: str) -> dict:
    for entry in config["plugins"]:
        if isinstance(entry, dict) and name in entry:
            return entry[name]
    raise KeyError(name)


def test_languages_match_mkdocs_yml(hooks, mkdocs_config):
    languages = plugin_config(mkdocs_config, "i18n")["languages"]
    assert tuple(lang["locale"] for lang in languages) == hooks.LANGUAGES
    assert [lang["locale"] for lang in languages if lang.get("default")] == [hooks.LANGUAGES[0]]


def test_mermaid_path_matches_extra_javascript(hooks, mkdocs_config):
    assert hooks.MERMAID_SITE_PATH in mkdocs_config["extra_javascript"]


def test_hooks_file_is_registered(mkdocs_config):
    assert mkdocs_config["hooks"] == ["docs/hooks.py"]


NICE_TICKS_CASES = [
    #            lo   hi    want
    pytest.param(0,   7,    [0, 2, 4, 6, 8], id="steps-of-two"),
    pytest.param(0,   30,   [0, 10, 20, 30], id="steps-of-ten"),
    pytest.param(0,   1,    [0, 0.5, 1], id="fractions"),
    pytest.param(3,   3,    [3, 3.5, 4], id="flat-range-widens"),
    pytest.param(-2,  9,    [-5, 0, 5, 10], id="negative-start"),
]


@pytest.mark.parametrize("lo, hi, want", NICE_TICKS_CASES)
def test_nice_ticks(hooks, lo, hi, want):
    assert hooks.nice_ticks(lo, hi) == pytest.approx(want)


def test_step_chart_draws_one_path_per_series(hooks):
    svg = hooks.step_chart(
        "ReplicaSet 副本数", "时间（秒）", "副本数",
        {"new": [(0, 0), (2, 1), (4, 3)], "old": [(0, 3), (3, 2), (5, 0)]},
    )
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "ReplicaSet 副本数"
    paths = root.findall(f"{SVG}path")
    assert len(paths) == 2
    # A step chart only moves horizontally or vertically after its first point.
    assert all(set(p.get("d").split()[1][:1]) <= {"H"} for p in paths)


def test_step_chart_rejects_empty_series(hooks):
    with pytest.raises(ValueError):
        hooks.step_chart("empty", "x", "y", {"a": []})


@pytest.mark.parametrize("lang, title_word", [("zh", "本站对照"), ("en", "code bases")])
def test_versions_figure_is_localised(hooks, lang, title_word):
    svg = hooks.draw_versions(lang)
    root = ET.fromstring(svg)
    assert title_word in root.find(f"{SVG}title").text
    assert KUBERNETES_VERSION in svg


def test_write_figures_draws_every_language(hooks, repo_root, tmp_path):
    calls: list[str] = []

    def draw(lang: str) -> str:
        calls.append(lang)
        return hooks.svg_document(100, 50, f"test {lang}", [hooks.text(10, 20, lang)])

    name = f"test-figure-{uuid.uuid4().hex[:8]}"  # the figure cache outlives a run: a new name per run
    figure = hooks.Figure(name, draw)
    written = hooks.write_figures(repo_root, [figure], tmp_path)
    assert sorted(written) == [f"figures/{name}.{lang}.svg" for lang in sorted(hooks.LANGUAGES)]
    for uri, path in written.items():
        assert path == tmp_path / uri
        ET.fromstring(path.read_text(encoding="utf-8"))
    hooks.write_figures(repo_root, [figure], tmp_path)  # same sources: drawn from the cache
    assert calls == list(hooks.LANGUAGES)


def test_write_figures_rejects_non_svg(hooks, repo_root, tmp_path):
    figure = hooks.Figure("not-svg", lambda lang: "<html></html>")
    with pytest.raises(PluginError, match="not-svg"):
        hooks.write_figures(repo_root, [figure], tmp_path)


def test_registered_figures_have_unique_dashed_names(hooks):
    names = [figure.name for figure in hooks.FIGURES]
    assert len(names) == len(set(names))
    assert all(name == name.lower() and " " not in name and "." not in name for name in names)


def fake_project(root: Path, locked: str, installed: str | None) -> Path:
    (root / "package-lock.json").write_text(
        json.dumps({"packages": {"node_modules/mermaid": {"version": locked}}}), encoding="utf-8"
    )
    if installed is not None:
        dist = root / "node_modules" / "mermaid" / "dist"
        dist.mkdir(parents=True)
        (dist / "mermaid.min.js").write_text("globalThis.mermaid = {};", encoding="utf-8")
        (dist.parent / "package.json").write_text(json.dumps({"version": installed}), encoding="utf-8")
    return root


def test_ensure_mermaid_uses_installed_locked_version(hooks, tmp_path, monkeypatch):
    root = fake_project(tmp_path, "11.17.2", "11.17.2")
    monkeypatch.setattr(hooks.shutil, "which", lambda name: pytest.fail("npm must not run"))
    assert hooks.ensure_mermaid(root) == root / "node_modules/mermaid/dist/mermaid.min.js"


@pytest.mark.parametrize("installed", [None, "11.0.0"], ids=["missing", "stale"])
def test_ensure_mermaid_without_npm_says_so(hooks, tmp_path, monkeypatch, installed):
    root = fake_project(tmp_path, "11.17.2", installed)
    monkeypatch.setattr(hooks.shutil, "which", lambda name: None)
    with pytest.raises(PluginError, match="npm"):
        hooks.ensure_mermaid(root)


def test_project_lockfile_pins_mermaid_11(hooks, repo_root):
    # Material's mermaid glue targets mermaid 11 (shared reference/tooling.md, part 1 b).
    package = json.loads((repo_root / "package.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["mermaid"] == hooks.locked_mermaid_version(repo_root)
    assert hooks.locked_mermaid_version(repo_root).startswith("11.")


def test_rollout_scaling_figure_plots_the_recorded_benchmark(hooks, repo_root):
    # The appendix figure is drawn from the JSON that `benchmarks/rollout.py --json` writes: one marker
    # per size and series, and the sizes as the x labels.
    record = json.loads((repo_root / "docs" / "data" / "rollout_benchmark.json").read_text(encoding="utf-8"))
    rows = record["results"]
    assert rows and all({"replicas", "setup", "elapsed", "writes", "steps", "floor"} <= set(r) for r in rows)
    assert record["benchmark"] == "benchmarks/rollout.py" and record["date"] and record["machine"]
    draw = next(f for f in hooks.FIGURES if f.name == "appendix-rollout-scaling").draw
    for lang in ("en", "zh"):
        root = ET.fromstring(draw(lang))
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        for r in rows:
            assert f"{r['replicas']:g}" in texts
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) >= 3
