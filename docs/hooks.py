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
4. Replays: every scenario in `minikcm.sim.replay.REPLAYS` runs once per seed in
   `SEEDS` under the replay recorder and lands in the site as
   `assets/replay/<scenario>-seed<N>.json` (validated: a trace whose shape the
   widget cannot read fails the build). A chapter page places its widget with
   `<div class="replay" data-scenario="NAME"></div>`; on_page_content fills in
   the paths and seeds, and docs/assets/javascripts/replay.js plays it.

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
    """Changes whenever a file under minikcm/ or this hook changes (so `mkdocs serve` redraws)."""
    digest = hashlib.sha256()
    paths = sorted((root / "minikcm").rglob("*.py")) + [Path(__file__).resolve()]
    for path in paths:
        stat = path.stat()
        digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
    return digest.hexdigest()[:16]


def draw_figure(figure: Figure, lang: str, fingerprint: str) -> str:
    """Draw once per language and fingerprint; the i18n plugin builds once per language."""
    key = (figure.name, lang, fingerprint)
    if key not in _drawn:
        svg = figure.draw(lang)
        if not svg.lstrip().startswith("<svg"):
            raise PluginError(f"figure {figure.name!r} ({lang}) did not return SVG text")
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
]
"""Every generated figure. Chapters add theirs here (one line each)."""


# ---------------------------------------------------------------------------
# Replays: every chapter's scenarios as JSON traces the page's widget plays back
# (minikcm/sim/replay.py writes them; docs/assets/javascripts/replay.js reads them).

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
    from minikcm.sim import replay

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
    from minikcm.sim import replay

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
    from minikcm.sim import replay

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
    from minikcm.sim import replay

    name = match["name"]
    if not any(name in names for names in replay.REPLAYS.values()):
        raise PluginError(f"page {page_url} asks for replay {name!r}, which minikcm.sim.replay.REPLAYS does not build")
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


def on_shutdown() -> None:
    """Remove the folder the figures were drawn into."""
    global _figure_dir
    if _figure_dir is not None:
        shutil.rmtree(_figure_dir, ignore_errors=True)
        _figure_dir = None
