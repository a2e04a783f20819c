"""Inline SVG charts for the farm report: no script, no fonts, no network."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

PALETTE = ["#0969da", "#bf3989", "#1a7f37", "#9a6700", "#8250df", "#cf222e", "#0a7e8c", "#6e7781"]


def _nice_range(low: float, high: float) -> tuple[float, float]:
    if low == high:
        pad = abs(low) * 0.05 or 1.0
        return low - pad, high + pad
    pad = (high - low) * 0.08
    return low - pad, high + pad


def line_chart(labels: Sequence[str], series: Mapping[str, Sequence[float | None]], *, width: int = 640,
               height: int = 200, y_format: Callable[[float], str] = lambda v: f"{v:,.0f}",
               y_range: tuple[float, float] | None = None, title: str = "") -> str:
    """One line per series over the x labels (nights); None leaves a gap. Points carry tooltips."""
    left, right, top, bottom = 64, 24, 10, 24
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for points in series.values() for v in points if v is not None]
    if not values or not labels:
        return f'<svg class="chart" width="{width}" height="40" role="img"><text x="8" y="24">no data</text></svg>'
    low, high = y_range or _nice_range(min(values), max(values))
    span = (high - low) or 1.0
    count = len(labels)

    def x(i: int) -> float:
        return left + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - low) / span)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}">']
    for k in range(5):  # grid and y labels
        level = low + span * k / 4
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(level):.1f}" y2="{y(level):.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y(level) + 4:.1f}" class="axis" text-anchor="end">'
                     f"{escape(y_format(level))}</text>")
    step = max(1, count // 6)
    for i in range(0, count, step):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 6}" class="axis" text-anchor="middle">'
                     f"{escape(labels[i][5:] if len(labels[i]) == 10 else labels[i])}</text>")
    for n, (name, points) in enumerate(series.items()):
        color = PALETTE[n % len(PALETTE)]
        path, pen = [], "M"
        for i, v in enumerate(points):
            if v is None:
                pen = "M"
                continue
            path.append(f"{pen}{x(i):.1f},{y(v):.1f}")
            pen = "L"
        parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="{color}" stroke-width="2"/>')
        if count <= 60:
            for i, v in enumerate(points):
                if v is not None:
                    parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5" fill="{color}">'
                                 f"<title>{escape(name)} {escape(labels[i])}: {escape(y_format(v))}</title></circle>")
    parts.append("</svg>")
    legend = "".join(f'<span class="key"><i style="background:{PALETTE[n % len(PALETTE)]}"></i>{escape(name)}</span>'
                     for n, name in enumerate(series))
    return f'<figure>{"".join(parts)}<figcaption>{legend}</figcaption></figure>'


def sparkline(values: Sequence[float | None], *, width: int = 120, height: int = 24, color: str = "#0969da",
              tooltip: str = "") -> str:
    points = [(i, v) for i, v in enumerate(values) if v is not None]
    if not points:
        return ""
    low = min(v for _, v in points)
    high = max(v for _, v in points)
    span = (high - low) or 1.0
    count = max(len(values) - 1, 1)
    coords = " ".join(f"{2 + (width - 4) * i / count:.1f},{height - 3 - (height - 6) * (v - low) / span:.1f}"
                      for i, v in points)
    last_x, last_y = coords.split(" ")[-1].split(",")
    return (f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
            f"<title>{escape(tooltip)}</title>"
            f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.5"/>'
            f'<circle cx="{last_x}" cy="{last_y}" r="2" fill="{color}"/></svg>')


OUTCOME_COLORS = {"passed": "#2da44e", "failed": "#cf222e", "error": "#bc4c00", "skipped": "#afb8c1",
                  "quarantined": "#8250df", None: "#eaeef2"}


def outcome_strip(outcomes: Sequence[str | None], *, size: int = 9, labels: Sequence[str] | None = None) -> str:
    """A row of small squares, one per run or night, oldest first."""
    width = len(outcomes) * (size + 2)
    cells = []
    for i, outcome in enumerate(outcomes):
        label = f"{labels[i]}: " if labels else ""
        tip = escape(label + str(outcome or "not run"))
        cells.append(f'<rect x="{i * (size + 2)}" y="0" width="{size}" height="{size}" rx="2" '
                     f'fill="{OUTCOME_COLORS.get(outcome, "#6e7781")}"><title>{tip}</title></rect>')
    return f'<svg class="strip" width="{width}" height="{size}" role="img">{"".join(cells)}</svg>'


def bar(fraction: float, *, width: int = 100, color: str = "#cf222e") -> str:
    filled = max(0.0, min(1.0, fraction)) * width
    return (f'<svg class="bar" width="{width}" height="10" role="img"><rect width="{width}" height="10" rx="3" '
            f'fill="#eaeef2"/><rect width="{filled:.1f}" height="10" rx="3" fill="{color}"/></svg>')
