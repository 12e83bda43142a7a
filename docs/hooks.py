"""No upstream twin. Build-time work for the reading site (mkdocs.yml lists this file under `hooks:`).

Everything the site needs happens inside `mkdocs build --strict`, so that command
alone produces the full site, offline pages included:

1. Mermaid is served from the site itself. `package.json` and `package-lock.json`
   pin the npm package; when `node_modules/mermaid` is missing or at another
   version, `on_config` runs `npm ci`, and `on_files` adds `dist/mermaid.min.js`
   (and its MIT licence) to the site as `assets/javascripts/`. Material only falls
   back to its CDN when no global `mermaid` exists, so no page load leaves the site.
2. Figures are drawn at build time. `FIGURES` is the registry: each entry names a
   figure and a function `draw(lang) -> str` returning SVG text. The hook writes
   `figures/<name>.<lang>.svg` for every language, and pages embed their own
   language's file, for example `![...](figures/versions.zh.svg)` on a Chinese page.
3. `pymdownx.snippets` reads paths relative to the project root, wherever mkdocs
   was started from.
4. Replays: every scenario in `minikcm.harness.replay.REPLAYS` runs once per seed in
   `SEEDS` under the replay recorder and lands in the site as
   `assets/replay/<scenario>-seed<N>.json` (validated: a trace whose shape the
   widget cannot read fails the build). A chapter page places its widget with
   `<div class="replay" data-scenario="NAME"></div>`; on_page_content fills in
   the paths and seeds, and docs/assets/javascripts/replay.js plays it.
5. Annotated source: a chapter writes a ```` ```source <dotted.symbol> ```` fence
   holding its annotations, each keyed by a quoted anchor (a unique substring of
   one source line); on_page_markdown replaces it with the symbol's real source,
   read from minikcm/ at build time, with Material's numbered code annotations.
   An anchor that no longer matches exactly one line fails the build (see the
   "Annotated source" section at the end of this file).

Plugging in a figure: write a function that runs a deterministic scenario (same
seed, same trace), turns the trace into series and returns `step_chart(...)`, then
add a `Figure` to `FIGURES`. Keep it fast: each figure is drawn once per build and
reused until a file under `minikcm/` changes. No plotting library is needed; the
small SVG helpers below are enough for the step charts a trace gives.

Start reading at: on_config, then on_files.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import importlib
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from xml.sax.saxutils import escape

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files

from minikcm.upstream import KUBERNETES_VERSION

log = get_plugin_logger("minikcm-docs")

LANGUAGES = ("zh", "en")
"""Site languages, default first (mkdocs.yml, plugins.i18n.languages)."""

MERMAID_SITE_PATH = "assets/javascripts/mermaid.min.js"
"""Where the site serves mermaid from; mkdocs.yml's extra_javascript names the same path."""

NPM_CI = ("ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")


# ---------------------------------------------------------------------------
# Project paths


def project_root(config: MkDocsConfig) -> Path:
    """The folder holding mkdocs.yml, package.json and `minikcm/`."""
    return Path(config.config_file_path).resolve().parent


# ---------------------------------------------------------------------------
# Mermaid from the npm lockfile


def locked_mermaid_version(root: Path) -> str:
    """The mermaid version package-lock.json pins."""
    lock = json.loads((root / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"]["node_modules/mermaid"]["version"]


def installed_mermaid_version(root: Path) -> str | None:
    """The version in node_modules, or None when mermaid is not installed there."""
    manifest = root / "node_modules" / "mermaid" / "package.json"
    if not manifest.is_file():
        return None
    return json.loads(manifest.read_text(encoding="utf-8")).get("version")


def mermaid_dist(root: Path) -> Path:
    return root / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"


def ensure_mermaid(root: Path) -> Path:
    """Return mermaid.min.js, running `npm ci` first when node_modules is missing or stale."""
    want = locked_mermaid_version(root)
    if installed_mermaid_version(root) == want and mermaid_dist(root).is_file():
        return mermaid_dist(root)
    npm = shutil.which("npm")
    if npm is None:
        raise PluginError(
            f"mermaid {want} is not in node_modules and npm is not installed; "
            "install Node.js/npm (Debian: apt-get install npm), then build again"
        )
    log.info("installing mermaid %s from package-lock.json (npm ci)", want)
    done = subprocess.run(
        [npm, *NPM_CI], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise PluginError(f"`npm ci` failed ({done.returncode}):\n{done.stderr.strip()}")
    if installed_mermaid_version(root) != want or not mermaid_dist(root).is_file():
        raise PluginError(f"`npm ci` finished but node_modules has no mermaid {want}")
    return mermaid_dist(root)


# ---------------------------------------------------------------------------
# Figure registry


@dataclass(frozen=True)
class Figure:
    """One generated figure: `figures/<name>.<lang>.svg` for every site language."""

    name: str
    """File stem; lower-case words joined by dashes."""
    draw: Callable[[str], str]
    """`draw(lang)` returns the SVG text with its labels in that language."""
    command: str = ""
    """The command that reproduces the run behind the figure (chapters print it)."""


def figure_uri(name: str, lang: str) -> str:
    """Site path of a figure, relative to the docs folder."""
    return f"figures/{name}.{lang}.svg"


# Drawn SVG text, keyed by (figure, language, fingerprint of the sources it reads).
_drawn: dict[tuple[str, str, str], str] = {}
_figure_dir: Path | None = None


def sources_fingerprint(root: Path) -> str:
    """Changes whenever a file under minikcm/, a figure module, a data file or this hook changes (so `mkdocs serve` redraws)."""
    digest = hashlib.sha256()
    docs = Path(__file__).resolve().parent
    paths = (sorted((root / "minikcm").rglob("*.py")) + sorted((docs / "figures").glob("*.py"))
             + sorted((docs / "data").glob("*.json")) + [Path(__file__).resolve()])
    for path in paths:
        stat = path.stat()
        digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
    return digest.hexdigest()[:16]


def figure_cache(fingerprint: str) -> Path:
    """Where drawn figures are kept between builds for this state of `minikcm/` (outside the project)."""
    return Path(tempfile.gettempdir()) / f"minikcm-figures-{fingerprint}"


def draw_figure(figure: Figure, lang: str, fingerprint: str) -> str:
    """Draw once per language and fingerprint, and keep the SVG on disk until the sources change.

    The i18n plugin builds once per language, and a second build with the same
    sources (the tests' build, `mkdocs serve` reloads) reads the figures back
    instead of running their scenarios again.
    """
    key = (figure.name, lang, fingerprint)
    if key not in _drawn:
        cached = figure_cache(fingerprint) / f"{figure.name}.{lang}.svg"
        if cached.is_file():
            svg = cached.read_text(encoding="utf-8")
        else:
            svg = figure.draw(lang)
            if not svg.lstrip().startswith("<svg"):
                raise PluginError(f"figure {figure.name!r} ({lang}) did not return SVG text")
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            tmp.write_text(svg, encoding="utf-8")
            tmp.replace(cached)
        _drawn[key] = svg
    return _drawn[key]


def write_figures(root: Path, figures: Sequence[Figure], out_dir: Path) -> dict[str, Path]:
    """Draw every figure in every language into `out_dir`; return {site path: file}."""
    fingerprint = sources_fingerprint(root)
    written: dict[str, Path] = {}
    for figure in figures:
        for lang in LANGUAGES:
            uri = figure_uri(figure.name, lang)
            path = out_dir / uri
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(draw_figure(figure, lang, fingerprint), encoding="utf-8")
            written[uri] = path
    return written


# ---------------------------------------------------------------------------
# Small SVG helpers (no plotting library)

FONT_STACK = (
    "'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',"
    "'Noto Sans','Helvetica Neue',Arial,sans-serif"
)
SERIES_COLOURS = ("#3f51b5", "#e65100", "#2e7d32", "#ad1457", "#00838f", "#6d4c41")
INK = "#263238"
GRID = "#cfd8dc"


def svg_document(width: int, height: int, title: str, body: Sequence[str]) -> str:
    """An SVG on a white card, so it reads the same in the light and the dark theme."""
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" font-family="{FONT_STACK}" '
            f'font-size="13" fill="{INK}">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="6" '
            f'fill="#ffffff" stroke="{GRID}"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def text(x: float, y: float, label: str, *, anchor: str = "start", size: int = 13,
         weight: str = "normal", fill: str = INK) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}">{escape(label)}</text>'
    )


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten.

    Example: nice_ticks(0, 7) gives [0, 2, 4, 6, 8]; nice_ticks(0, 30) gives
    [0, 10, 20, 30].
    """
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(count - 1, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    value = math.floor(lo / step + 1e-9) * step
    ticks = [round(value, 10)]
    while ticks[-1] < hi - step * 1e-9:
        value += step
        ticks.append(round(value, 10))
    return ticks


def label_width(label: str, size: int) -> float:
    """Rough rendered width: CJK characters are square, Latin ones about half as wide."""
    return sum(size if ord(ch) > 0x2E7F else size * 0.58 for ch in label)


def step_chart(
    title: str,
    x_label: str,
    y_label: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    width: int = 680,
    height: int = 340,
) -> str:
    """A step chart: each series holds its value until its next point (a trace's view of state).

    `series` maps a legend label to (x, y) points in x order, for example
    {"new ReplicaSet": [(0, 0), (2.5, 1), (4, 3)]}: 0 until x=2.5, then 1 until
    x=4, then 3 to the right edge. Series are drawn in the order given.
    """
    left, right, top, bottom = 56, 24, 62, 48
    points = [p for values in series.values() for p in values]
    if not points:
        raise ValueError(f"step_chart {title!r} has no points")
    x_ticks = nice_ticks(min(x for x, _ in points), max(x for x, _ in points))
    y_ticks = nice_ticks(min(0.0, min(y for _, y in points)), max(y for _, y in points))
    plot_w, plot_h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + (x - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * plot_w

    def sy(y: float) -> float:
        return top + plot_h - (y - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * plot_h

    body = [text(16, 26, title, size=15, weight="bold")]
    for y in y_ticks:
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="{GRID}"/>')
        body.append(text(left - 8, sy(y) + 4, f"{y:g}", anchor="end", size=12))
    for x in x_ticks:
        body.append(text(sx(x), top + plot_h + 18, f"{x:g}", anchor="middle", size=12))
    body.append(text(left + plot_w / 2, height - 10, x_label, anchor="middle", size=12))
    body.append(
        f'<text transform="translate(18 {top + plot_h / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" font-size="12">{escape(y_label)}</text>'
    )
    legend_x = 16.0
    for index, (label, values) in enumerate(series.items()):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        if values:
            (x0, y0), rest = values[0], values[1:]
            d = [f"M{sx(x0):.1f},{sy(y0):.1f}"]
            for x, y in rest:
                d.append(f"H{sx(x):.1f} V{sy(y):.1f}")
            d.append(f"H{sx(x_ticks[-1]):.1f}")
            body.append(f'<path d="{" ".join(d)}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        body.append(f'<rect x="{legend_x:.1f}" y="36" width="12" height="12" rx="2" fill="{colour}"/>')
        body.append(text(legend_x + 17, 46.5, label, size=12))
        legend_x += 17 + label_width(label, 12) + 18
    return svg_document(width, height, title, body)


# ---------------------------------------------------------------------------
# Figures


VERSIONS_TEXT = {
    "zh": {
        "title": "本站对照的三份代码（横轴：Kubernetes 次版本号）",
        "axis": "Kubernetes 1.x",
        "points": ("启动流程博文（约 v1.7）", "源码阅读指南（v1.14.3）", "minikcm 移植（{pin}）"),
    },
    "en": {
        "title": "The three code bases this site compares (axis: Kubernetes minor version)",
        "axis": "Kubernetes 1.x",
        "points": ("startup blog post (about v1.7)", "reading guide (v1.14.3)", "minikcm port ({pin})"),
    },
}


def draw_versions(lang: str) -> str:
    """Where the seed blog post, the guide and the port sit on Kubernetes' release line.

    The port's end comes from `minikcm.upstream.KUBERNETES_VERSION`, so the figure
    moves if the pin ever does.
    """
    words = VERSIONS_TEXT[lang]
    pin_minor = int(KUBERNETES_VERSION.lstrip("v").split(".")[1])
    marks = list(zip((7, 14, pin_minor), words["points"], SERIES_COLOURS))
    width, height, left, right, axis_y = 680, 184, 40, 40, 126
    last = max(40, pin_minor + 2)

    def sx(minor: float) -> float:
        return left + minor / last * (width - left - right)

    body = [
        text(left - 16, 28, words["title"], size=15, weight="bold"),
        f'<line x1="{sx(0):.1f}" x2="{sx(last):.1f}" y1="{axis_y}" y2="{axis_y}" stroke="{INK}" stroke-width="1.5"/>',
    ]
    for minor in range(0, last + 1, 5):
        body.append(f'<line x1="{sx(minor):.1f}" x2="{sx(minor):.1f}" y1="{axis_y - 4}" y2="{axis_y + 4}" stroke="{INK}"/>')
        body.append(text(sx(minor), axis_y + 20, f"1.{minor}", anchor="middle", size=11))
    body.append(text(sx(last), axis_y + 40, words["axis"], anchor="end", size=11))
    for row, (minor, label, colour) in enumerate(marks):
        label_y = 62 + 24 * (row % 2)
        anchor = "end" if minor == pin_minor else ("start" if row == 0 else "middle")
        body.append(f'<line x1="{sx(minor):.1f}" x2="{sx(minor):.1f}" y1="{label_y + 5}" y2="{axis_y}" stroke="{colour}" stroke-dasharray="3 3"/>')
        body.append(f'<circle cx="{sx(minor):.1f}" cy="{axis_y}" r="6" fill="{colour}"/>')
        body.append(text(sx(minor) + (6 if anchor == "start" else 0), label_y,
                         label.format(pin=KUBERNETES_VERSION), anchor=anchor, size=13,
                         weight="bold", fill=colour))
    return svg_document(width, height, words["title"], body)


FIGURE_PACKAGE = "minikcm_docs_figures"
"""docs/figures/ imported as a package under this name (mkdocs loads this hook as a file)."""


def figure_module(name: str) -> ModuleType:
    """docs/figures/<name>.py, imported as `minikcm_docs_figures.<name>` so its relative imports work."""
    if FIGURE_PACKAGE not in sys.modules:
        folder = Path(__file__).resolve().parent / "figures"
        spec = importlib.util.spec_from_file_location(
            FIGURE_PACKAGE, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        assert spec is not None and spec.loader is not None
        package = importlib.util.module_from_spec(spec)
        sys.modules[FIGURE_PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{FIGURE_PACKAGE}.{name}")


def chapter_figure(module: str, function: str) -> Callable[[str], str]:
    """`draw(lang)` for a chapter figure written as `function(lang, charts)` in docs/figures/<module>.py.

    The module is imported on first use and gets this hook module as `charts`
    (the SVG helpers above) rather than importing it.
    """

    def draw(lang: str) -> str:
        return getattr(figure_module(module), function)(lang, sys.modules[__name__])

    return draw


FIGURES: list[Figure] = [
    Figure("versions", draw_versions),
    Figure("overview-failover", chapter_figure("overview", "draw_failover"), ".venv/bin/python docs/figures/overview.py"),
    Figure("overview-startup", chapter_figure("overview", "draw_startup"), ".venv/bin/python docs/figures/overview.py"),
    Figure("p1-lease-holder", chapter_figure("p1", "draw_lease_holder"), "minikcm demo run leader-failover --seed 1"),
    Figure("p1-attempts", chapter_figure("p1", "draw_attempts"), "minikcm demo run leader-failover --seed 1"),
    Figure("p2-informer-start", chapter_figure("p2", "draw_informer_start"), ".venv/bin/python -m pytest tests/integration/test_watch_list.py"),
    Figure("p2-relist-timeline", chapter_figure("p2", "draw_relist_timeline"), "minikcm demo run informer-relist --seed 1"),
    Figure("p2-relist-counts", chapter_figure("p2", "draw_relist_counts"), "minikcm demo run informer-relist --seed 1"),
    Figure("p2-retry-delays", chapter_figure("p2", "draw_retry_delays"), "minikcm demo run workqueue-retry --seed 1"),
    Figure("p3-rolling-steps", chapter_figure("p3", "draw_rolling_steps"), "minikcm demo run rolling-update --seed 1"),
    Figure("p3-proportional", chapter_figure("p3", "draw_proportional"), "minikcm demo run proportional-scaling --seed 1"),
    Figure("p3-recreate-gap", chapter_figure("p3", "draw_recreate_gap"), "minikcm demo run recreate --seed 1"),
    Figure("p4-slow-start", chapter_figure("p4", "draw_slow_start"), "minikcm demo run replicaset-scale --seed 1"),
    Figure("p4-pod-lives", chapter_figure("p4", "draw_pod_lives"), "minikcm demo run replicaset-scale --seed 1"),
    Figure("p5-ordered-pods", chapter_figure("p5", "draw_ordered_pods"), "minikcm demo run statefulset-ordered --seed 1"),
    Figure("p5-partition-revisions", chapter_figure("p5", "draw_partition_revisions"), "minikcm demo run statefulset-partition --seed 1"),
    Figure("wait-backoff-delays", chapter_figure("wait", "draw_backoff_delays"), "minikcm demo run wait-backoff --seed 1"),
    Figure("wait-until-timelines", chapter_figure("wait", "draw_until_timelines"), "minikcm demo run wait-backoff --seed 1"),
    Figure("appendix-resource-versions", chapter_figure("appendix", "draw_resource_versions"), "minikcm demo run informer-relist --seed 1"),
    Figure("appendix-rollout-scaling", chapter_figure("appendix", "draw_rollout_scaling"),
           ".venv/bin/python benchmarks/rollout.py --replicas 250 500 1000 2000 --json docs/data/rollout_benchmark.json"),
]
"""Every generated figure. Chapters add theirs here (one line each)."""


# ---------------------------------------------------------------------------
# Replays: every chapter's scenarios as JSON traces the page's widget plays back
# (minikcm/harness/replay.py writes them; docs/assets/javascripts/replay.js reads them).

REPLAY_DIR = "assets/replay"
"""Where the site serves the traces: `assets/replay/<scenario>-seed<N>.json`."""

REPLAY_PLACEHOLDER = re.compile(r'<div class="replay" data-scenario="(?P<name>[a-z0-9-]+)"\s*>\s*</div>')
"""What a chapter page writes where its widget goes; on_page_content fills in the rest."""

_replays: dict[tuple[str, int, str], str] = {}


def reference_pages(root: Path) -> dict[str, str]:
    """{module: "reference/<page>/"} from the `::: module` lines of docs/reference/*.md."""
    pages: dict[str, str] = {}
    for path in sorted((root / "docs" / "reference").glob("*.md")):
        if path.name.count(".") > 1:  # the English twin documents the same modules
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith(":::"):
                pages.setdefault(line[3:].strip(), f"reference/{path.stem}/")
    return pages


def replay_text(root: Path, name: str, seed: int, fingerprint: str) -> str:
    """One trace, exported once per fingerprint and kept on disk between builds, then validated."""
    from minikcm.harness import replay

    key = (name, seed, fingerprint)
    if key not in _replays:
        cache = replay_cache(fingerprint) / replay.replay_file_name(name, seed)
        if cache.is_file():
            text = cache.read_text(encoding="utf-8")
        else:
            text = replay.export_text(name, seed, reference_pages(root))
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(text, encoding="utf-8")
        try:
            replay.validate(json.loads(text), text)
        except replay.ReplayShapeError as err:
            raise PluginError(f"replay {name} seed {seed} does not have the shape replay.js reads: {err}") from err
        _replays[key] = text
    return _replays[key]


def replay_cache(fingerprint: str) -> Path:
    """Where traces for this state of `minikcm/` are kept between builds (outside the project)."""
    return Path(tempfile.gettempdir()) / f"minikcm-replay-{fingerprint}"


def export_missing_replays(root: Path, wanted: Sequence[tuple[str, int]], fingerprint: str) -> None:
    """Export the traces not cached yet, one process per CPU: each is a whole traced scenario run."""
    from minikcm.harness import replay

    missing = [(n, s) for n, s in wanted if (n, s, fingerprint) not in _replays
               and not (replay_cache(fingerprint) / replay.replay_file_name(n, s)).is_file()]
    workers = min(len(missing), os.cpu_count() or 1)
    if workers < 2:
        return  # replay_text exports the odd one itself
    reference = reference_pages(root)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        texts = pool.map(replay.export_text, [n for n, _ in missing], [s for _, s in missing],
                         [reference] * len(missing))
        for (name, seed), text in zip(missing, texts):
            cache = replay_cache(fingerprint) / replay.replay_file_name(name, seed)
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(text, encoding="utf-8")


def write_replays(root: Path, out_dir: Path) -> dict[str, Path]:
    """Every chapter's replays for every seed into `out_dir`; return {site path: file}."""
    from minikcm.harness import replay

    fingerprint = sources_fingerprint(root)
    wanted = [(name, seed) for names in replay.REPLAYS.values() for name in names for seed in replay.SEEDS]
    export_missing_replays(root, wanted, fingerprint)
    written: dict[str, Path] = {}
    for name, seed in wanted:
        uri = f"{REPLAY_DIR}/{replay.replay_file_name(name, seed)}"
        path = out_dir / uri
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(replay_text(root, name, seed, fingerprint), encoding="utf-8")
        written[uri] = path
    return written


def replay_widget(match: re.Match[str], page_url: str, lang: str) -> str:
    """The placeholder with what replay.js needs: where the traces are, the seeds, the language."""
    from minikcm.harness import replay

    name = match["name"]
    if not any(name in names for names in replay.REPLAYS.values()):
        raise PluginError(f"page {page_url} asks for replay {name!r}, which minikcm.harness.replay.REPLAYS does not build")
    depth = page_url.count("/")
    to_site = "../" * depth
    to_language = "../" * (depth - (0 if lang == LANGUAGES[0] else 1))
    seeds = " ".join(str(s) for s in replay.SEEDS)
    return (f'<div class="replay" data-scenario="{name}" data-seeds="{seeds}" data-lang="{lang}" '
            f'data-src="{to_site}{REPLAY_DIR}/" data-root="{to_language}"></div>')


# ---------------------------------------------------------------------------
# MkDocs events

def current_language(config: MkDocsConfig) -> str:
    """The language this build pass renders (mkdocs-static-i18n builds once per language)."""
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or LANGUAGES[0]


@event_priority(50)  # before mkdocstrings' on_config (priority 0) reads its locale
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Root the snippets at the project, localise mkdocstrings, make sure mermaid is installed.

    mkdocstrings takes its locale ("Source code" / "源代码位于") from the first build
    pass; setting it before every pass gives each language its own labels.
    """
    root = project_root(config)
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        mkdocstrings.config["locale"] = current_language(config)
    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(root)]
    ensure_mermaid(root)  # cheap when installed: it compares two version strings
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add mermaid and the drawn figures to the site's files."""
    global _figure_dir
    root = project_root(config)
    files.append(File.generated(config, MERMAID_SITE_PATH, abs_src_path=str(mermaid_dist(root))))
    files.append(
        File.generated(
            config,
            "assets/javascripts/mermaid.LICENSE.txt",
            abs_src_path=str(root / "node_modules" / "mermaid" / "LICENSE"),
        )
    )
    if _figure_dir is None:
        _figure_dir = Path(tempfile.mkdtemp(prefix="minikcm-figures-"))
    for uri, path in write_figures(root, FIGURES, _figure_dir).items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    for uri, path in write_replays(root, _figure_dir).items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def on_page_content(html: str, page, config: MkDocsConfig, files: Files) -> str:
    """Fill in each replay widget's placeholder (see replay_widget)."""
    lang = current_language(config)
    return REPLAY_PLACEHOLDER.sub(lambda m: replay_widget(m, page.url, lang), html)


HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[a-z-]+">')
"""mkdocs-static-i18n's per-page hreflang links in the page head."""


def on_post_page(output: str, page, config: MkDocsConfig) -> str:
    """Drop the head's hreflang links, so the language selector just follows its link.

    Material's selector fetches `sitemap.xml` beside every `<link rel="alternate">`
    of the head and, on a click, takes the first root whose sitemap has answered
    that prefixes the link. static-i18n points those links at the page's twins, so
    every page asked for `<page>/sitemap.xml` twice and logged two 404s (issue 23,
    item 25); pointed at the language roots instead, `/` and `/en/` both prefix an
    English link, and when `/en/`'s sitemap answered first the selector sent a
    reader on a Chinese page to the English home rather than the twin (without
    site_url the sitemap has no page addresses to find the twin by, and
    mkdocs.yml explains why there is no site_url). hreflang links need absolute
    addresses to mean anything to a search engine, so without site_url they only
    fed that race. With none, nothing is fetched and the selector's own link, the
    twin page from static-i18n, is where a click goes.
    """
    return HEAD_ALTERNATE.sub("", output)


def on_shutdown() -> None:
    """Remove the folder the figures were drawn into."""
    global _figure_dir
    if _figure_dir is not None:
        shutil.rmtree(_figure_dir, ignore_errors=True)
        _figure_dir = None


# ---------------------------------------------------------------------------
# Annotated source (issue 16): a chapter shows the real code it reads, with
# numbered Material code annotations in the page's language.
#
# A page writes a fence whose info string is `source` and a dotted symbol; each
# annotation starts with a quoted anchor, a unique substring of one line of the
# symbol's source (Python string syntax), and continues on lines indented by four
# spaces:
#
#     ```source minikcm.controller.deployment.rolling.RollingMixin.rollout_rolling
#     "new_rs, old_rss = " 先分出新旧 ReplicaSet。
#     "scaled_up = " 能扩新就扩新，
#         扩了就写 status 返回。
#     ```
#
# on_page_markdown replaces the fence with the symbol's source, read from the file
# under minikcm/ at build time (statically, with ast: no import, always current),
# its docstrings stripped (they belong to the API reference, which the caption
# links; a package's re-exported name is followed to its file), a `# (n)!` marker at the end of each anchor line (numbered in
# source order; long lines wrap, see extra.css, so the marker stays at the end of its line), and
# the ordered list Material turns into annotations. A symbol
# longer than SOURCE_FOLD_LINES shows the lines around its anchors, with `# ...`
# where lines are left out, and the whole function in a closed fold below.
# An anchor that matches no line, or more than one, fails the build.

SOURCE_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```source[ \t]+(?P<symbol>[A-Za-z_][\w.]*)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
"""A `source` fence: symbol on the opening line, annotations in the body."""

SOURCE_ANCHOR = re.compile(r'^"(?P<anchor>(?:[^"\\]|\\.)*)"[ \t]*(?P<text>.*)$')
"""The first line of one annotation: `"anchor" text`."""

SOURCE_FOLD_LINES = 40
"""Longer symbols show an excerpt around their anchors, and the full source folded."""

SOURCE_CONTEXT = 2
"""Lines shown after an anchor line in an excerpt when its statement is long (comments above it are shown too)."""

SOURCE_WORDS = {
    "zh": {
        "caption": "{name}（`{path}` 第 {start}–{end} 行；文档字符串见 [API 参考]({ref})）",
        "caption_no_reference": "{name}（`{path}` 第 {start}–{end} 行）",
        "full": "`{name}` 的完整源码",
        "go": " · Go 对应：",
    },
    "en": {
        "caption": "{name} (`{path}`, lines {start}–{end}; docstring in the [API reference]({ref}))",
        "caption_no_reference": "{name} (`{path}`, lines {start}–{end})",
        "full": "Full source of `{name}`",
        "go": " · Go twin: ",
    },
}


@dataclass(frozen=True)
class SourceSymbol:
    """One function or class as read from its file: what a `source` fence shows."""

    symbol: str           # dotted path, e.g. minikcm.controller.deployment.rolling.RollingMixin.rollout_rolling
    module: str           # the module part of `symbol`
    path: str             # file relative to the project root
    lines: tuple[tuple[int, str], ...]  # (line number in the file, text), dedented, docstring removed
    node_start: int       # first line (decorators included)
    node_end: int         # last line
    statement_ends: Mapping[int, int]  # first line of a statement -> its last line
    has_docstring: bool
    summary: str = ""     # the docstring's first line ("Port of <GoSymbol> (<path>).")


def split_symbol(root: Path, symbol: str) -> tuple[str, Path, list[str]]:
    """(module, file, names inside the module) for the longest module prefix that has a file."""
    parts = symbol.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        base = root.joinpath(*parts[:cut])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return ".".join(parts[:cut]), candidate, parts[cut:]
    raise PluginError(f"source block: no module file under {root} for {symbol!r}")


def read_source_symbol(root: Path, symbol: str) -> SourceSymbol:
    """Find `symbol` in its file with ast and return its lines without the docstring."""
    import ast
    import textwrap

    module, file, names = split_symbol(root, symbol)
    text_ = file.read_text(encoding="utf-8")
    scope: ast.AST = ast.parse(text_, filename=str(file))
    node: ast.AST | None = None
    for depth, name in enumerate(names):
        node = next(
            (child for child in getattr(scope, "body", [])
             if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child.name == name),
            None,
        )
        if node is None and depth == 0:  # a package re-exporting a submodule's name: follow the import
            found = next(((child, alias) for child in getattr(scope, "body", []) if isinstance(child, ast.ImportFrom)
                          for alias in child.names if (alias.asname or alias.name) == name), None)
            if found is not None:
                base = module.split(".")
                if found[0].level:
                    base = base[: len(base) - found[0].level + (1 if file.name == "__init__.py" else 0)]
                target = ".".join([*(base if found[0].level else []), *([found[0].module] if found[0].module else [])])
                inner = read_source_symbol(root, ".".join([target, found[1].name, *names[1:]]))
                return SourceSymbol(symbol=symbol, module=module, path=inner.path, lines=inner.lines,
                                    node_start=inner.node_start, node_end=inner.node_end,
                                    statement_ends=inner.statement_ends, has_docstring=inner.has_docstring,
                                    summary=inner.summary)
        if node is None:
            raise PluginError(f"source block: {symbol!r}: no def or class {name!r} in {file}")
        scope = node
    assert node is not None
    file_lines = text_.splitlines()
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    end = node.end_lineno or node.lineno
    body = getattr(node, "body", [])
    has_docstring = bool(body) and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str)
    skip: set[int] = set()  # every bare string statement: docstrings of the symbol, its methods, its attributes
    for child in ast.walk(node):
        if isinstance(child, ast.Expr) and isinstance(child.value, ast.Constant) \
                and isinstance(child.value.value, str):
            skip.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    numbers = [n for n in range(start, end + 1) if n not in skip]
    dedented = textwrap.dedent("\n".join(file_lines[n - 1] for n in numbers)).split("\n")
    statement_ends = {
        child.lineno: child.end_lineno or child.lineno
        for child in ast.walk(node) if isinstance(child, ast.stmt) and start <= child.lineno <= end
    }
    return SourceSymbol(
        symbol=symbol, module=module, path=file.relative_to(root).as_posix(),
        lines=tuple(zip(numbers, dedented)), node_start=start, node_end=end,
        statement_ends=statement_ends, has_docstring=has_docstring,
        summary=(ast.get_docstring(node) or "").strip().split("\n")[0] if has_docstring else "",
    )


GO_TWIN = re.compile(
    r"^Port of (?:the (?:[\w-]+ )+?(?:of|in) )?`?(?P<symbol>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)`?"
    r"(?:'s [^(]*?)?(?: \((?P<path>[\w./-]+\.go)\))?(?=[\s.:,]|$)"
)
"""The Go symbol (and file) a ported symbol's docstring names on its first line (PORTING.md §6)."""

_go_symbols: list[dict] | None = None


def go_symbol_table(root: Path) -> list[dict]:
    """docs/data/go_symbols.json's symbols: the Go lines the chapters link, checked by tests/docs."""
    global _go_symbols
    if _go_symbols is None:
        _go_symbols = json.loads((root / "docs" / "data" / "go_symbols.json").read_text(encoding="utf-8"))["symbols"]
    return _go_symbols


def go_twin(root: Path, summary: str, module: str = "") -> tuple[str, str | None] | None:
    """(Go symbol, permalink or None) for a docstring's first line, from the Go symbol table.

    The link is the table's (pinned lines, checked by tests/docs/test_go_links.py);
    a symbol the table does not hold is named without a link. None for code with
    no upstream twin.
    """
    match = GO_TWIN.match(summary)
    if match is None or match["symbol"] in ("the", "a", "an"):
        return None
    symbol, path = match["symbol"], match["path"]
    rows = [row for row in go_symbol_table(root)
            if (row["symbol"] == symbol or row["symbol"].endswith("." + symbol))
            and (path is None or row["path"].endswith("/" + path) or row["path"] == path)]
    urls = {row["url"] for row in rows}
    if len(urls) > 1:  # the same name in several Go files: take the one named like the module (one file per file)
        urls = {row["url"] for row in rows if row["path"].rsplit("/", 1)[-1] == module.rsplit(".", 1)[-1] + ".go"}
    return symbol, (urls.pop() if len(urls) == 1 else None)


def parse_source_annotations(body: str, where: str) -> list[tuple[str, str]]:
    """[(anchor, markdown text)] from a fence body; continuation lines lose four spaces."""
    import ast
    import textwrap

    found: list[tuple[str, list[str]]] = []
    for raw in textwrap.dedent(body).splitlines():
        if not raw.strip():
            if found:
                found[-1][1].append("")
            continue
        match = SOURCE_ANCHOR.match(raw)
        if match:
            found.append((ast.literal_eval(f'"{match["anchor"]}"'), [match["text"]]))
        elif raw.startswith("    ") and found:
            found[-1][1].append(raw[4:])
        else:
            raise PluginError(f"{where}: a source annotation starts with a quoted anchor, got {raw!r}")
    return [(anchor, "\n".join(lines).strip()) for anchor, lines in found]


def comment_free_line_ends(code: str) -> tuple[set[int], set[int]]:
    """(lines that end inside a multi-line token, lines that already carry a comment), 1-based."""
    import io
    import tokenize

    inside: set[int] = set()
    commented: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.COMMENT:
                commented.add(token.start[0])
            elif token.end[0] > token.start[0]:
                inside.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    for number, line in enumerate(code.split("\n"), start=1):
        if line.rstrip().endswith("\\"):
            inside.add(number)
    return inside, commented


def render_source_block(root: Path, symbol: str, body: str, lang: str, where: str,
                        reference: Mapping[str, str]) -> str:
    """The markdown that replaces one `source` fence (unindented)."""
    source = read_source_symbol(root, symbol)
    annotations = parse_source_annotations(body, where)
    if not annotations:
        raise PluginError(f"{where}: source block for {symbol} has no annotations")
    texts = [line for _, line in source.lines]
    marked: dict[int, str] = {}  # index into source.lines -> annotation text
    for anchor, note in annotations:
        hits = [i for i, line in enumerate(texts) if anchor in line]
        if len(hits) != 1:
            raise PluginError(
                f"{where}: annotation anchor {anchor!r} matches {len(hits)} lines of {symbol} "
                f"({source.path}), it must match exactly one: update the page"
            )
        if hits[0] in marked:
            raise PluginError(f"{where}: two annotations of {symbol} anchor on the same line ({anchor!r})")
        marked[hits[0]] = note
    inside, commented = comment_free_line_ends("\n".join(texts))
    order = sorted(marked)
    shown = list(texts)
    for number, index in enumerate(order, start=1):
        if index + 1 in inside:
            raise PluginError(
                f"{where}: anchor line {texts[index]!r} of {symbol} ends inside a string or continues "
                "on the next line; anchor a line that ends a statement part"
            )
        line = shown[index].rstrip()  # the marker ends its line; extra.css wraps long lines so it stays in view
        shown[index] = line + (f" ({number})" if index + 1 in commented else f"  # ({number})!")

    # The API reference documents public symbols with a docstring of the modules its pages list.
    ref_page = next((page for module, page in sorted(reference.items(), key=lambda kv: -len(kv[0]))
                     if symbol == module or symbol.startswith(module + ".")), None)
    name = symbol[len(source.module) + 1:]
    words = SOURCE_WORDS[lang]
    documented = ref_page is not None and source.has_docstring and not any(
        part.startswith("_") and not part.startswith("__") for part in name.split("."))
    caption = words["caption" if documented else "caption_no_reference"].format(
        name=f"`{name}`", path=source.path, start=source.node_start, end=source.node_end,
        ref=f"{(ref_page or '').rstrip('/')}.md#{symbol}",
    )
    twin = go_twin(root, source.summary, source.module)
    if twin is not None:  # issue 23, item 19: the Go twin beside the file name
        go_name, go_url = twin
        caption += words["go"] + (f"[`{go_name}`]({go_url})" if go_url else f"`{go_name}`")
    caption += f"\n{{: #{symbol} }}"  # the anchor the mkdocstrings heading used to give
    excerpt = len(texts) > SOURCE_FOLD_LINES
    if excerpt:
        keep: set[int] = set(range(0, 1 + next(i for i, t in enumerate(texts) if t.rstrip().endswith(":"))))
        for index in order:
            file_line = source.lines[index][0]
            last = source.statement_ends.get(file_line, file_line)
            last_index = max(i for i, (n, _) in enumerate(source.lines) if n <= last)
            if last_index - index > 6:
                last_index = index + SOURCE_CONTEXT
            first = index
            while first > 0 and index - first < 3 and (texts[first - 1].strip().startswith("#")
                                                      or texts[first - 1].rstrip().endswith(":")):
                first -= 1  # the comment or the block opener (`try:`) that introduces the anchor line
            keep.update(range(first, min(len(texts), last_index + 1)))
        for gap_start in range(len(texts)):  # a gap of a few lines is shown, not elided
            if gap_start - 1 in keep and gap_start not in keep:
                gap_end = next((i for i in range(gap_start, len(texts)) if i in keep), None)
                if gap_end is not None and gap_end - gap_start < 4:
                    keep.update(range(gap_start, gap_end))
        keep = {i for i in keep if texts[i].strip() or (i - 1 in keep and i + 1 in keep)}
        body_lines: list[str] = []
        previous = -1
        for index in sorted(keep):
            if index > previous + 1:
                skipped = next(t for t in texts[previous + 1:index] if t.strip())
                body_lines.append(" " * (len(skipped) - len(skipped.lstrip())) + "# ...")
            body_lines.append(shown[index])
            previous = index
        if previous < len(texts) - 1:
            body_lines.append("    # ...")
    else:
        body_lines = shown
    out = [caption, "", f'``` python title="{source.path}"', *body_lines, "```", ""]
    for number, index in enumerate(order, start=1):
        note_lines = marked[index].split("\n")
        out.append(f"{number}.  {note_lines[0]}")
        out.extend(f"    {line}" if line else "" for line in note_lines[1:])
    if excerpt:
        out += ["", f'??? quote "{words["full"].format(name=name)}"', "",
                "    ``` python"]
        out += [f"    {line}" if line else "" for line in texts]
        out += ["    ```"]
    return "\n".join(out) + "\n"


def expand_source_blocks(markdown: str, root: Path, lang: str, where: str,
                         reference: Mapping[str, str] | None = None) -> str:
    """Replace every `source` fence of a page (see the comment at the top of this section)."""
    if "```source" not in markdown:
        return markdown
    reference = reference_pages(root) if reference is None else reference

    def expand(match: re.Match[str]) -> str:
        indent = match["indent"]
        block = render_source_block(root, match["symbol"], match["body"], lang, where, reference)
        return "\n".join(f"{indent}{line}" if line else "" for line in block.rstrip("\n").split("\n"))

    return SOURCE_FENCE.sub(expand, markdown)


# ---------------------------------------------------------------------------
# The reading path (issue 22, item 5): which modules a learner reads for each chapter,
# in order, and which they can skip, with line counts measured from the tree at build
# time. The page writes `<!-- reading-path -->` where the tables go.

READING_PATH: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("overview", ("minikcm/clock.py", "minikcm/driver.py", "minikcm/cmd/options/options.py",
                  "minikcm/cmd/controller_manager/controllermanager.py",
                  "minikcm/cmd/controller_manager/controller_descriptor.py",
                  "minikcm/cmd/controller_manager/apps.py", "minikcm/cmd/controller_manager/config.py")),
    ("p1-leader-election", ("minikcm/tools/leaderelection/leaderelection.py",
                            "minikcm/tools/leaderelection/resourcelock/interface.py",
                            "minikcm/tools/leaderelection/resourcelock/leaselock.py",
                            "minikcm/tools/leaderelection/healthzadaptor.py")),
    ("p2-informers", ("minikcm/apimachinery/schema.py", "minikcm/tools/cache/listwatch.py",
                      "minikcm/tools/cache/reflector.py", "minikcm/tools/cache/the_real_fifo.py",
                      "minikcm/tools/cache/delta_fifo.py", "minikcm/tools/cache/controller.py",
                      "minikcm/tools/cache/store.py", "minikcm/tools/cache/thread_safe_store.py",
                      "minikcm/tools/cache/index.py", "minikcm/informers/listers.py",
                      "minikcm/tools/cache/shared_informer.py", "minikcm/informers/factory.py",
                      "minikcm/apimachinery/runtime.py", "minikcm/util/workqueue/queue.py",
                      "minikcm/util/workqueue/delaying_queue.py", "minikcm/util/workqueue/rate_limiting_queue.py",
                      "minikcm/util/workqueue/default_rate_limiters.py")),
    ("p3-deployment", ("minikcm/controller/deployment/deployment_controller.py", "minikcm/controller/controller_run.py",
                       "minikcm/controller/controller_ref_manager.py",
                       "minikcm/controller/deployment/sync.py", "minikcm/controller/deployment/rolling.py",
                       "minikcm/controller/deployment/recreate.py", "minikcm/controller/deployment/rollback.py",
                       "minikcm/controller/deployment/progress.py",
                       "minikcm/controller/deployment/util/deployment_util.py")),
    ("p4-replicaset", ("minikcm/controller/replicaset/replica_set.py", "minikcm/controller/controller_utils.py",
                       "minikcm/controller/replicaset/replica_set_utils.py", "minikcm/controller/util/consistency.py")),
    ("p5-statefulset", ("minikcm/controller/statefulset/stateful_set.py",
                        "minikcm/controller/statefulset/stateful_set_control.py",
                        "minikcm/controller/statefulset/stateful_set_utils.py",
                        "minikcm/controller/statefulset/stateful_pod_control.py",
                        "minikcm/controller/statefulset/stateful_set_status_updater.py",
                        "minikcm/controller/history/controller_history.py")),
    ("wait", ("minikcm/apimachinery/wait",)),
)
"""(chapter page, files or folders in reading order)."""

READING_SKIP: tuple[tuple[str, str, str], ...] = (
    ("minikcm/apiserver", "the embedded API server (no Go twin; the appendix explains what it does)",
     "内嵌的 API 服务器（没有 Go 对应；它做什么，附录里讲）"),
    ("minikcm/sim", "the simulated cluster (kubelet, volume binder) and the chapters' scenarios",
     "模拟集群（kubelet、卷绑定）和各章的场景"),
    ("minikcm/harness", "chaos runs, election fault schedules, the replay exporter: test harnesses",
     "混沌运行、选举故障时间表、回放导出：测试用的工具"),
    ("minikcm/exercises", "the exercises' checkers (the exercises page links what you write)",
     "练习的检查程序（你要写的部分，练习页有链接）"),
    ("minikcm/client", "the clientset: in-process and REST transports, fakes for tests",
     "clientset：进程内与 REST 两种传输，以及测试用的假客户端"),
    ("minikcm/controller/garbagecollector", "the garbage collector, which cascading deletion needs",
     "垃圾回收器，级联删除要用到它"),
    ("minikcm/tools/record", "event recording", "事件记录"),
)
"""(folder, what it holds in English, in Chinese): what a learner can skip."""

READING_TITLES = {
    "zh": {"overview": "概述与启动", "p1-leader-election": "P1 领导者选举", "p2-informers": "P2 控制器与 informer",
           "p3-deployment": "P3 Deployment 控制器", "p4-replicaset": "P4 ReplicaSet 控制器",
           "p5-statefulset": "P5 StatefulSet 控制器", "wait": "wait 轮询库"},
    "en": {"overview": "Overview and startup", "p1-leader-election": "P1 Leader election",
           "p2-informers": "P2 Controllers and informers", "p3-deployment": "P3 The Deployment controller",
           "p4-replicaset": "P4 The ReplicaSet controller", "p5-statefulset": "P5 The StatefulSet controller",
           "wait": "The wait library"},
}

READING_WORDS = {
    "zh": {"file": "文件", "lines": "行数", "chapter": "章节", "total": "合计", "holds": "内容",
           "rest": "其余（apimachinery 的标签、字段、错误与校验，命令行，`minikcm up` 等）",
           "sum": "阅读路径共 {files} 个文件、{lines} 行；可以跳过的部分共 {skip} 行。"},
    "en": {"file": "File", "lines": "Lines", "chapter": "Chapter", "total": "Total", "holds": "What it holds",
           "rest": "everything else (apimachinery's labels, fields, errors and validation, the CLI, `minikcm up`, ...)",
           "sum": "The reading path is {files} files and {lines} lines; what you can skip is {skip} lines."},
}


def count_lines(root: Path, rel: str) -> tuple[int, list[str]]:
    """(lines, the .py files) of a file or a folder under the project root."""
    path = root / rel
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = sorted(path.rglob("*.py"))
    else:
        raise PluginError(f"reading path: {rel} does not exist any more; update READING_PATH in docs/hooks.py")
    return sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files), \
        [f.relative_to(root).as_posix() for f in files]


def reading_path_tables(root: Path, lang: str) -> str:
    """The markdown tables of the reading-path page, counted from the tree now."""
    words = READING_WORDS[lang]
    out: list[str] = []
    read: set[str] = set()
    total = 0
    for chapter, entries in READING_PATH:
        out += [f"### [{READING_TITLES[lang][chapter]}]({chapter}.md) {{ #path-{chapter} }}", "",
                f"| {words['file']} | {words['lines']} |", "| --- | ---: |"]
        subtotal = 0
        for rel in entries:
            lines, files = count_lines(root, rel)
            read.update(files)
            subtotal += lines
            out.append(f"| `{rel}{'/' if (root / rel).is_dir() else ''}` | {lines:,} |")
        out += [f"| **{words['total']}** | **{subtotal:,}** |", ""]
        total += subtotal
    out += [f"## {'可以跳过的部分' if lang == 'zh' else 'What you can skip'} {{ #skip }}", "",
            f"| {words['file']} | {words['lines']} | {words['holds']} |", "| --- | ---: | --- |"]
    skipped = 0
    counted: set[str] = set(read)
    for rel, en, zh in READING_SKIP:
        _, files = count_lines(root, rel)
        files = [f for f in files if f not in counted]
        counted.update(files)
        lines = sum(len((root / f).read_text(encoding="utf-8").splitlines()) for f in files)
        skipped += lines
        out.append(f"| `{rel}/` | {lines:,} | {zh if lang == 'zh' else en} |")
    rest = [f.relative_to(root).as_posix() for f in sorted((root / "minikcm").rglob("*.py"))]
    rest = [f for f in rest if f not in counted]
    rest_lines = sum(len((root / f).read_text(encoding="utf-8").splitlines()) for f in rest)
    skipped += rest_lines
    out += [f"| — | {rest_lines:,} | {words['rest']} |", "",
            words["sum"].format(files=len(read), lines=f"{total:,}", skip=f"{skipped:,}"), ""]
    return "\n".join(out)


def on_page_markdown(markdown: str, page, config: MkDocsConfig, files: Files) -> str:
    """Expand the chapters' `source` fences into annotated source (see expand_source_blocks)
    and the reading path's tables (see reading_path_tables)."""
    root, lang = project_root(config), current_language(config)
    if "<!-- reading-path -->" in markdown:
        markdown = markdown.replace("<!-- reading-path -->", reading_path_tables(root, lang))
    return expand_source_blocks(markdown, root, lang, page.file.src_uri)
