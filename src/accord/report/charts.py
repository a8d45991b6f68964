"""The charts every small report shows, written as SVG directly: intervals on stacked
rows (the coefficients, the per-category kappas) and heatmaps (a contingency table, a
rater x rater matrix), each cell a vector rectangle.

They follow the rules of :mod:`accord.report.plots` (drawn for a phone first: ``WIDTH``
inches, no text under ``FONT`` units, each full label wrapped above its row, labels as
plain escaped text, ids unique per plot, nothing random or dated) without importing
matplotlib, whose import and layout cost more than the rest of a small report. Text
widths are estimated from the font size (0.6 em a character, DejaVu Sans' average), so
margins are generous rather than measured.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

FONT = 12.0
WIDTH = 345.6  # SVG units: 4.8 inches at 72 dpi, as plots.WIDTH
WRAP = 44
LINE = 14.5  # a line of FONT text
CHAR = 0.6 * FONT  # the estimated width of a character
BLUE, INK, GREY, RED, ORANGE = "#4477aa", "#222222", "#888888", "#b3261e", "#ee7733"
# ColorBrewer's sequential Blues (Brewer 2003), light to dark, as matplotlib's "Blues"
BLUES = ("#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5",
         "#08519c", "#08306b")
# ColorBrewer's diverging RdBu, red (-1) to blue (+1), as matplotlib's "RdBu"
RDBU = ("#67001f", "#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#f7f7f7", "#d1e5f0",
        "#92c5de", "#4393c3", "#2166ac", "#053061")

__all__ = ["IntervalRow", "heatmap", "interval_rows"]


@dataclass(frozen=True)
class IntervalRow:
    """One stacked row: its label, a point, an optional interval, bar and second mark."""

    label: str
    estimate: float
    low: float = math.nan
    high: float = math.nan
    bar: bool = False  # a bar from 0 to the estimate instead of a dot
    mark: float = math.nan  # a second figure, drawn as a diamond


def _t(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: str, *, anchor: str = "start", size: float = FONT,
          fill: str = INK, extra: str = "") -> str:
    return (f'<text x="{_t(x)}" y="{_t(y)}" font-size="{_t(size)}" text-anchor="{anchor}" '
            f'fill="{fill}"{extra}>{escape(s)}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, width: float,
          dash: str = "") -> str:
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{_t(x1)}" y1="{_t(y1)}" x2="{_t(x2)}" y2="{_t(y2)}" '
            f'stroke="{stroke}" stroke-width="{_t(width)}"{d}/>')


def _wrap(text: object) -> list[str]:
    from accord.report.labels import short

    plain = " ".join(short(text, 3 * WRAP).split())
    return textwrap.wrap(plain, WRAP, break_long_words=True) or [" "]


def _short(text: object, limit: int) -> str:
    from accord.report.labels import short

    s = str(text)
    return short(s if len(s) > limit else " ".join(s.split()), limit)


def _svg(prefix: str, height: float, title: str, body: list[str]) -> str:
    return (f'<svg role="img" class="plot" data-plot="{escape(prefix)}" '
            f'style="max-width: {_t(WIDTH)}pt" viewBox="0 0 {_t(WIDTH)} {_t(height)}" '
            f'xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, sans-serif">'
            f'<title id="{escape(prefix)}-title">{escape(title)}</title>'
            + "".join(body) + "</svg>")


def _ticks(lo: float, hi: float) -> list[float]:
    step = 0.2 if hi - lo <= 1.6 else 0.5
    first = math.ceil(lo / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def interval_rows(rows: Sequence[IntervalRow], prefix: str, *, title: str, low: float,
                  threshold: float | None = None, threshold_label: str = "",
                  legend: Sequence[tuple[str, str]] = ()) -> str:
    """Each row's full label above its marks, on a shared axis from ``low`` to 1.05; a
    dashed ``threshold`` line; ``legend`` entries ("bar"/"dot"/"diamond", text)."""
    left, right = 18.0, WIDTH - 14.0

    def x(v: float) -> float:
        return left + (max(low, min(1.05, v)) - low) / (1.05 - low) * (right - left)

    body, y = [_text(WIDTH / 2, 18, title, anchor="middle", size=13.0)], 30.0
    top = y
    for r in rows:
        for line in _wrap(r.label):
            y += LINE
            body.append(_text(left, y, line))
        y += 14.0
        if r.bar and math.isfinite(r.estimate):
            x0, x1 = sorted((x(0.0), x(r.estimate)))
            body.append(f'<rect x="{_t(x0)}" y="{_t(y - 5)}" width="{_t(x1 - x0)}" '
                        f'height="10" fill="{BLUE}"/>')
        if math.isfinite(r.low) and math.isfinite(r.high):
            body.append(_line(x(r.low), y, x(r.high), y, INK if r.bar else BLUE,
                              1.2 if r.bar else 2.0))
        if not r.bar and math.isfinite(r.estimate):
            body.append(f'<circle cx="{_t(x(r.estimate))}" cy="{_t(y)}" r="4" fill="{INK}"/>')
        if math.isfinite(r.mark):
            body.append(_diamond(x(r.mark), y))
        y += 10.0
    body.insert(1, _line(x(0.0), top, x(0.0), y, GREY, 0.8))
    if threshold is not None and math.isfinite(threshold):
        body.insert(1, _line(x(threshold), top, x(threshold), y, RED, 1.4, "5,3"))
        legend = [*legend, ("threshold", threshold_label or f"threshold {threshold:g}")]
    body.append(_line(left, y, right, y, INK, 0.8))
    for v in _ticks(low, 1.0):
        body.append(_line(x(v), y, x(v), y + 4, INK, 0.8))
        body.append(_text(x(v), y + 17, f"{v:g}", anchor="middle"))
    y += 24.0
    for kind, text in legend:
        y += LINE + 2
        body.append(_legend_mark(kind, left + 8, y - 4))
        body.append(_text(left + 22, y, _short(text, 44)))
    return _svg(prefix, y + 8, title, body)


def _diamond(cx: float, cy: float) -> str:
    return (f'<polygon points="{_t(cx)},{_t(cy - 5)} {_t(cx + 5)},{_t(cy)} {_t(cx)},'
            f'{_t(cy + 5)} {_t(cx - 5)},{_t(cy)}" fill="{ORANGE}"/>')


def _legend_mark(kind: str, cx: float, cy: float) -> str:
    if kind == "bar":
        return f'<rect x="{_t(cx - 6)}" y="{_t(cy - 5)}" width="12" height="10" fill="{BLUE}"/>'
    if kind == "diamond":
        return _diamond(cx, cy)
    return _line(cx - 8, cy, cx + 8, cy, RED, 1.4, "5,3")


def _colour(scale: Sequence[str], t: float) -> str:
    """The colour at ``t`` in [0, 1] along ``scale``, interpolated in RGB."""
    t = min(1.0, max(0.0, t)) * (len(scale) - 1)
    i = min(int(t), len(scale) - 2)
    a, b = scale[i], scale[i + 1]
    mix = [round(int(a[k:k + 2], 16) + (int(b[k:k + 2], 16) - int(a[k:k + 2], 16)) * (t - i))
           for k in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def heatmap(values: Sequence[Sequence[float]], names: Sequence[object], prefix: str, *,
            title: str, row_label: str = "", col_label: str = "", diverging: bool = False,
            cell_text: Sequence[Sequence[str]] | None = None, numbered: bool = False) -> str:
    """A k x k heatmap, one rectangle a cell: Blues from 0 to the largest value, or RdBu
    from -1 to 1 (``diverging``); an undefined cell is left white. ``cell_text`` is
    written in the cells; ``numbered`` names rows and columns 1..k (the table beside the
    chart names them)."""
    k = len(names)
    ticks = [str(i + 1) for i in range(k)] if numbered else [_short(n, 14) for n in names]
    widest = max((len(t) for t in ticks), default=1) * CHAR
    left = 14.0 + (LINE if row_label else 0.0) + widest + 6
    top = 30.0
    cell = min(60.0, (WIDTH - left - 10) / max(k, 1))
    rotate = not numbered and widest > cell - 4  # names wider than a cell are turned
    side = cell * k
    bottom = top + side + (widest * 0.72 + 10 if rotate else LINE + 4)
    finite = [v for row in values for v in row if math.isfinite(v)]
    high = max([1.0, *finite]) if not diverging else 1.0
    body = [_text(left + side / 2, 18, title, anchor="middle", size=13.0)]
    for i in range(k):
        for j in range(k):
            v = values[i][j]
            t = (v + 1) / 2 if diverging else v / high
            fill = _colour(RDBU if diverging else BLUES, t) if math.isfinite(v) else "#ffffff"
            body.append(f'<rect x="{_t(left + j * cell)}" y="{_t(top + i * cell)}" '
                        f'width="{_t(cell)}" height="{_t(cell)}" fill="{fill}" '
                        f'stroke="#ffffff" stroke-width="0.5"/>')
            if cell_text is not None and cell_text[i][j]:
                dark = (abs(v) > 0.6) if diverging else (v > 0.6 * high)
                body.append(_text(left + (j + 0.5) * cell, top + (i + 0.5) * cell + 4,
                                  cell_text[i][j], anchor="middle",
                                  fill="#ffffff" if dark else INK))
    for i, name in enumerate(ticks):
        body.append(_text(left - 4, top + (i + 0.5) * cell + 4, name, anchor="end"))
        cx, cy = left + (i + 0.5) * cell, top + side + 14
        turn = f' transform="rotate(-45 {_t(cx)} {_t(cy - 10)})"' if rotate else ""
        body.append(_text(cx + (4 if rotate else 0), cy, name,
                          anchor="end" if rotate else "middle", extra=turn))
    if col_label:
        bottom += LINE + 2
        body.append(_text(left + side / 2, bottom, _short(col_label, 40), anchor="middle"))
    if diverging:  # the colour key: -1 red, 0 white, 1 blue
        bottom += 12
        for i in range(21):
            body.append(f'<rect x="{_t(left + i * 7)}" y="{_t(bottom)}" width="7.5" '
                        f'height="8" fill="{_colour(RDBU, i / 20)}"/>')
        for v, dx in ((-1, 0.0), (0, 73.5), (1, 147.0)):
            body.append(_text(left + dx, bottom + 22, f"{v:g}", anchor="middle"))
        bottom += 26
    if row_label:
        cy = top + side / 2
        body.append(_text(14, cy, _short(row_label, 40), anchor="middle",
                          extra=f' transform="rotate(-90 14 {_t(cy)})"'))
    return _svg(prefix, bottom + 10, title, body)
