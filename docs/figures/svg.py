"""No upstream twin. Two chart shapes the chapters need beyond docs/hooks.py's step chart.

- `lanes_chart`: one horizontal lane per actor (a candidate, a loop), with bars for
  spans of time (leading, running f), marks for instants (an attempt), brackets
  for measured intervals and dashed vertical lines for script events.
- `points_chart`: values against a counter (a backoff's delay per step), each
  series a polyline with a marker at every point.

Both build on the hook's primitives (`svg_document`, `text`, `nice_ticks`, the
colours), passed in as `charts`, so every figure on the site looks alike.

Start reading at: lanes_chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from xml.sax.saxutils import escape


@dataclass(frozen=True)
class Bar:
    """A span of time in one lane, drawn as a rounded bar with an optional label inside."""

    lane: int
    start: float
    end: float
    colour: str
    label: str = ""
    light: bool = False
    """Drawn pale with a dashed outline: a window rather than an activity."""


@dataclass(frozen=True)
class Mark:
    """An instant in one lane. `shape` is one of MARK_SHAPES."""

    lane: int
    x: float
    shape: str
    colour: str


@dataclass(frozen=True)
class Bracket:
    """A measured interval drawn above a lane: |<-- label -->|."""

    lane: int
    start: float
    end: float
    label: str


@dataclass(frozen=True)
class Rule:
    """A dashed vertical line across every lane, labelled at the top."""

    x: float
    label: str
    colour: str


@dataclass
class Legend:
    """Legend entries: (shape or "bar" or "window", colour, label), drawn left to right."""

    entries: list[tuple[str, str, str]] = field(default_factory=list)


MARK_SHAPES = ("dot", "ring", "diamond", "cross", "square", "tick")


def mark_svg(shape: str, x: float, y: float, colour: str, size: float = 4.5) -> str:
    """One marker centred on (x, y)."""
    if shape == "dot":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size - 1:.1f}" fill="{colour}"/>'
    if shape == "ring":
        return (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="#ffffff" '
                f'stroke="{colour}" stroke-width="1.6"/>')
    if shape == "diamond":
        s = size + 2
        return (f'<polygon points="{x:.1f},{y - s:.1f} {x + s:.1f},{y:.1f} {x:.1f},{y + s:.1f} '
                f'{x - s:.1f},{y:.1f}" fill="{colour}"/>')
    if shape == "cross":
        s = size + 1
        return (f'<path d="M{x - s:.1f},{y - s:.1f} L{x + s:.1f},{y + s:.1f} M{x - s:.1f},{y + s:.1f} '
                f'L{x + s:.1f},{y - s:.1f}" stroke="{colour}" stroke-width="2.4"/>')
    if shape == "square":
        return (f'<rect x="{x - size:.1f}" y="{y - size:.1f}" width="{2 * size:.1f}" '
                f'height="{2 * size:.1f}" fill="{colour}"/>')
    if shape == "tick":
        return f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y - 8:.1f}" y2="{y + 8:.1f}" stroke="{colour}" stroke-width="2"/>'
    raise ValueError(f"unknown mark shape {shape!r}; use one of {MARK_SHAPES}")


def legend_svg(charts: ModuleType, legend: Legend, x: float, y: float, width: float) -> tuple[list[str], float]:
    """Legend entries laid out left to right, wrapping at `width`; returns (svg parts, bottom y)."""
    parts: list[str] = []
    cx, cy = x, y
    for shape, colour, label in legend.entries:
        needed = 22 + charts.label_width(label, 12) + 16
        if cx + needed > x + width and cx > x:
            cx, cy = x, cy + 20
        if shape == "bar":
            parts.append(f'<rect x="{cx:.1f}" y="{cy - 6:.1f}" width="16" height="11" rx="3" fill="{colour}"/>')
        elif shape == "window":
            parts.append(f'<rect x="{cx:.1f}" y="{cy - 6:.1f}" width="16" height="11" rx="3" fill="{colour}" '
                         f'fill-opacity="0.18" stroke="{colour}" stroke-dasharray="3 2"/>')
        else:
            parts.append(mark_svg(shape, cx + 8, cy, colour))
        parts.append(charts.text(cx + 22, cy + 4.5, label, size=12))
        cx += needed
    return parts, cy


def lanes_chart(
    charts: ModuleType,
    title: str,
    x_label: str,
    lanes: Sequence[str],
    x_max: float,
    *,
    bars: Sequence[Bar] = (),
    marks: Sequence[Mark] = (),
    brackets: Sequence[Bracket] = (),
    rules: Sequence[Rule] = (),
    legend: Legend | None = None,
    width: int = 760,
    lane_height: int = 46,
) -> str:
    """Lanes top to bottom in the order given, time on the x axis from 0 to `x_max`."""
    label_w = max(charts.label_width(name, 13) for name in lanes)
    left, right = 24 + label_w + 12, 24
    plot_w = width - left - right
    legend_parts: list[str] = []
    top = 44
    if legend is not None and legend.entries:
        legend_parts, legend_bottom = legend_svg(charts, legend, 16, 50, width - 32)
        top = legend_bottom + 22
    rule_rows = stack_labels(charts, rules, left + 8, (plot_w - 16) / charts.nice_ticks(0, x_max, 8)[-1])
    rule_band = 20 * (max(rule_rows, default=-1) + 1) + (4 if rules else 0)
    lanes_top = top + rule_band
    height = lanes_top + lane_height * len(lanes) + 50
    ticks = charts.nice_ticks(0, x_max, 8)
    x_hi = ticks[-1]

    def sx(x: float) -> float:  # 8 px of air at both ends, so marks at 0 and x_max stay whole
        return left + 8 + x / x_hi * (plot_w - 16)

    def lane_y(lane: int) -> float:
        return lanes_top + lane_height * lane + lane_height / 2

    body = [charts.text(16, 28, title, size=15, weight="bold"), *legend_parts]
    for i, name in enumerate(lanes):  # lane backgrounds and names
        y0 = lanes_top + lane_height * i
        if i % 2 == 0:
            body.append(f'<rect x="{left}" y="{y0:.1f}" width="{plot_w}" height="{lane_height}" fill="#f5f7f8"/>')
        body.append(charts.text(left - 10, lane_y(i) + 4.5, name, anchor="end", size=13))
    axis_y = lanes_top + lane_height * len(lanes)
    for t in ticks:
        body.append(f'<line x1="{sx(t):.1f}" x2="{sx(t):.1f}" y1="{lanes_top}" y2="{axis_y}" stroke="{charts.GRID}" stroke-width="0.6"/>')
        body.append(charts.text(sx(t), axis_y + 17, f"{t:g}", anchor="middle", size=12))
    body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{axis_y}" y2="{axis_y}" stroke="{charts.INK}"/>')
    body.append(charts.text(left + plot_w / 2, axis_y + 38, x_label, anchor="middle", size=12))
    for bar in bars:
        y, h = lane_y(bar.lane) - 9, 18
        x0, x1 = sx(bar.start), sx(min(bar.end, x_hi))
        if bar.light:
            body.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(x1 - x0, 1):.1f}" height="{h}" rx="4" '
                        f'fill="{bar.colour}" fill-opacity="0.16" stroke="{bar.colour}" stroke-dasharray="4 3"/>')
        else:
            body.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(x1 - x0, 1):.1f}" height="{h}" rx="4" '
                        f'fill="{bar.colour}" fill-opacity="0.85" stroke="#ffffff" stroke-width="1"/>')
        if bar.label and charts.label_width(bar.label, 12) + 8 < x1 - x0:
            fill = bar.colour if bar.light else "#ffffff"
            body.append(charts.text((x0 + x1) / 2, y + 13.5, bar.label, anchor="middle", size=12,
                                    weight="bold", fill=fill))
    for mark in marks:
        body.append(mark_svg(mark.shape, sx(mark.x), lane_y(mark.lane), mark.colour))
    for bracket in brackets:
        y = lane_y(bracket.lane) - 17
        x0, x1 = sx(bracket.start), sx(bracket.end)
        body.append(f'<path d="M{x0:.1f},{y + 4:.1f} V{y:.1f} H{x1:.1f} V{y + 4:.1f}" fill="none" '
                    f'stroke="{charts.INK}" stroke-width="1"/>')
        body.append(f'<rect x="{(x0 + x1) / 2 - charts.label_width(bracket.label, 11) / 2 - 3:.1f}" y="{y - 7:.1f}" '
                    f'width="{charts.label_width(bracket.label, 11) + 6:.1f}" height="13" fill="#ffffff"/>')
        body.append(charts.text((x0 + x1) / 2, y + 3.5, bracket.label, anchor="middle", size=11))
    labels = []  # drawn after every line, on white, so a later rule's line never crosses a label
    for rule, row in zip(rules, rule_rows):
        x = sx(rule.x)
        label_y = lanes_top - 8 - 20 * row
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{label_y + 4}" y2="{axis_y}" stroke="{rule.colour}" '
                    f'stroke-width="1.4" stroke-dasharray="5 4"/>')
        labels.append(f'<rect x="{x + 2:.1f}" y="{label_y - 13:.1f}" width="{charts.label_width(rule.label, 12) + 4:.1f}" '
                      f'height="17" fill="#ffffff"/>')
        labels.append(charts.text(x + 4, label_y, rule.label, size=12, weight="bold", fill=rule.colour))
    body.extend(labels)
    return charts.svg_document(width, int(height), title, body)


def stack_labels(charts: ModuleType, rules: Sequence[Rule], x0: float, scale: float) -> list[int]:
    """Row of each rule's label (0 = just above the lanes): a label that would overlap the one
    before it goes one row up."""
    rows: list[int] = []
    right_edges: list[float] = []  # per row, where its last label ends
    for rule in rules:
        x = x0 + rule.x * scale
        row = 0
        while row < len(right_edges) and right_edges[row] > x:
            row += 1
        if row == len(right_edges):
            right_edges.append(0.0)
        right_edges[row] = x + 4 + charts.label_width(rule.label, 12) + 8
        rows.append(row)
    return rows


def points_chart(
    charts: ModuleType,
    title: str,
    x_label: str,
    y_label: str,
    series: dict[str, Sequence[tuple[float, float]]],
    *,
    shapes: Sequence[str] = ("dot", "ring", "square", "diamond"),
    dashed: Sequence[bool] = (),
    width: int = 760,
    height: int = 380,
    x_ticks: Sequence[float] | None = None,
) -> str:
    """Each series a polyline with a marker at every point; x is a counter (integers), y a value.

    `x_ticks` labels only those x values (for an x that is a size, not a counter).
    """
    points = [p for values in series.values() for p in values]
    if not points:
        raise ValueError(f"points_chart {title!r} has no points")
    left, right, bottom = 60, 24, 50
    legend = Legend([(shapes[i % len(shapes)], charts.SERIES_COLOURS[i % len(charts.SERIES_COLOURS)], label)
                     for i, label in enumerate(series)])
    legend_parts, legend_bottom = legend_svg(charts, legend, 16, 50, width - 32)
    top = legend_bottom + 24
    plot_w, plot_h = width - left - right, height - top - bottom
    x_lo, x_hi = min(x for x, _ in points), max(x for x, _ in points)
    y_ticks = charts.nice_ticks(0.0, max(y for _, y in points), 6)

    def sx(x: float) -> float:
        return left + 16 + (x - x_lo) / max(x_hi - x_lo, 1) * (plot_w - 32)

    def sy(y: float) -> float:
        return top + plot_h - (y - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * plot_h

    body = [charts.text(16, 28, title, size=15, weight="bold"), *legend_parts]
    for y in y_ticks:
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{sy(y):.1f}" y2="{sy(y):.1f}" stroke="{charts.GRID}"/>')
        body.append(charts.text(left - 8, sy(y) + 4, f"{y:g}", anchor="end", size=12))
    for x in (x_ticks if x_ticks is not None else range(int(x_lo), int(x_hi) + 1)):
        body.append(charts.text(sx(x), top + plot_h + 18, f"{x:g}", anchor="middle", size=12))
    body.append(charts.text(left + plot_w / 2, height - 10, x_label, anchor="middle", size=12))
    body.append(f'<text transform="translate(18 {top + plot_h / 2:.1f}) rotate(-90)" '
                f'text-anchor="middle" font-size="12">{escape(y_label)}</text>')
    for i, values in enumerate(series.values()):
        colour = charts.SERIES_COLOURS[i % len(charts.SERIES_COLOURS)]
        path = " ".join(f"{'M' if j == 0 else 'L'}{sx(x):.1f},{sy(y):.1f}" for j, (x, y) in enumerate(values))
        dash = ' stroke-dasharray="6 4"' if i < len(dashed) and dashed[i] else ""
        body.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for x, y in values:
            body.append(mark_svg(shapes[i % len(shapes)], sx(x), sy(y), colour))
    return charts.svg_document(width, height, title, body)
