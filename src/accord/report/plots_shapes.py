"""The shape report's SVG: the most disputed images with each annotator's boxes,
polygons or keypoints, their legend, and the sweep over IoU (OKS) thresholds.

Drawn as :mod:`accord.report.charts` draws (``WIDTH`` units wide, no text under 11
units, every text escaped, nothing random): no image pixels, only the shapes, scaled to
their extent. Each annotator has a colour *and* a line style (solid, dashed, dotted,
...): boxes are rectangles and polygons paths in that style; keypoints are markers of
the annotator's own shape (circle, square, diamond, ...; no skeleton), so that points a
few pixels apart stay apart. Each shape's label is written beside it with the
annotator's number, so the picture reads in grey too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from accord.report.charts import FONT, GREY, WIDTH, _line, _short, _svg, _t, _text
from accord.report.shapes_section import BOXES, DisputedImage, DrawnShape, ShapeKind, SweepRow

__all__ = ["COLOURS", "DASHES", "MARKERS", "box_legend", "shape_picture", "style",
           "sweep_chart"]

#: Paul Tol's "bright" scheme (colour-blind safe), then his grey.
COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb")
#: One line style per annotator: solid, dashed, dotted, dash-dot, long dash, dense dots.
DASHES = ("", "8,4", "2,3", "9,3,2,3", "14,4", "1,2")
#: One keypoint marker per annotator (the line style does not show on a point).
MARKERS = ("circle", "square", "diamond", "triangle", "plus", "cross")
STROKE = 2.0
LABEL = 11.0  # the label beside a box: the smallest text a phone shows at 11 px


def style(k: int) -> tuple[str, str]:
    """The colour and dash pattern of the k-th annotator (distinct up to 42 annotators)."""
    return COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]


def _rect(x: float, y: float, w: float, h: float, k: int) -> str:
    colour, dash = style(k)
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<rect x="{_t(x)}" y="{_t(y)}" width="{_t(max(w, 1.0))}" '
            f'height="{_t(max(h, 1.0))}" fill="none" stroke="{colour}" '
            f'stroke-width="{_t(STROKE)}"{d}/>')


def _path(rings: tuple[tuple[tuple[float, float], ...], ...], at: Any, k: int) -> str:
    colour, dash = style(k)
    d = f' stroke-dasharray="{dash}"' if dash else ""
    path = " ".join("M " + " L ".join(f"{_t(a)},{_t(b)}" for a, b in (at(x, y) for x, y in r))
                    + " Z" for r in rings if r)
    return (f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="{_t(STROKE)}"'
            f' stroke-linejoin="round"{d}/>')


def _points(b: DrawnShape, at: Callable[[float, float], tuple[float, float]], k: int) -> str:
    colour = style(k)[0]
    kind = MARKERS[k % len(MARKERS)]
    placed = [at(x, y) for x, y, v in b.points
              if v > 0 and math.isfinite(x) and math.isfinite(y)]
    return "".join(_marker(kind, px, py, colour, size=4.5) for px, py in placed)


def _shape(b: DrawnShape, kind: ShapeKind, at: Any, scale: float, k: int) -> str:
    if kind.name == "polygons":
        return _path(b.rings, at, k)
    if kind.name == "keypoints":
        return _points(b, at, k)
    x, y = at(b.x, b.y)
    return _rect(x, y, b.w * scale, b.h * scale, k)


def shape_picture(image: DisputedImage, annotators: Sequence[str], prefix: str,
                  kind: ShapeKind = BOXES) -> str:
    """The image's shapes, scaled to their extent: each annotator's style, each shape's
    label and the annotator's number beside the top-left corner of its bounding box."""
    shapes = image.shapes
    x0 = min(b.x for b in shapes)
    y0 = min(b.y for b in shapes)
    x1 = max(b.x + b.w for b in shapes)
    y1 = max(b.y + b.h for b in shapes)
    margin, top = 10.0, 28.0
    inner = WIDTH - 2 * margin
    scale = inner / max(x1 - x0, 1e-9)
    scale = min(scale, 1.25 * inner / max(y1 - y0, 1e-9))  # a tall picture stays short
    height = top + (y1 - y0) * scale + 2 * LABEL + margin
    left = margin + (inner - (x1 - x0) * scale) / 2
    number = {a: i for i, a in enumerate(annotators)}
    title = f"{image.image}: pairwise F1 {_num(image.f1)}"
    body = [_text(WIDTH / 2, 18, _short(title, 48), anchor="middle", size=FONT)]
    placed: list[tuple[float, float, float]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        return left + (x - x0) * scale, top + LABEL + (y - y0) * scale

    for b in sorted(shapes, key=lambda b: (number.get(b.annotator, 0), b.y, b.x, b.label)):
        k = number.get(b.annotator, 0)
        x, y = at(b.x, b.y)
        body.append(_shape(b, kind, at, scale, k))
        text = f"{_short(b.label, 18)} ({k + 1})"
        tx, ty = _free(min(x + 2, WIDTH - _width(text) - 2), y - 3 - (
            4.5 if kind.name == "keypoints" else 0.0), _width(text), placed)  # fmt: skip
        body.append(_text(tx, ty, text, size=LABEL, extra=' class="box-label"'))
    height = max(height, max((p[1] for p in placed), default=0.0) + margin)
    return _svg(prefix, height, title, body)


def _width(text: str) -> float:
    return 0.6 * LABEL * len(text)


def _free(x: float, y: float, width: float, placed: list[tuple[float, float, float]]
          ) -> tuple[float, float]:
    """The first spot at or below ``y`` where a label clears the labels already placed
    (boxes drawn on one spot by several annotators get their labels one under another)."""
    while any(abs(y - py) < LABEL + 1 and x < px + pw and px < x + width
              for px, py, pw in placed):
        y += LABEL + 2
    placed.append((x, y, width))
    return x, y


def box_legend(annotators: Sequence[str], prefix: str = "box-legend") -> str:
    """One entry per annotator: its number, its line style, keypoint marker and colour,
    its name."""
    body, y = [], 6.0
    for k, name in enumerate(annotators):
        y += 20.0
        colour, dash = style(k)
        mark = _marker(MARKERS[k % len(MARKERS)], 68, y - 4, colour, size=4.5)
        body.append(f'<g class="legend-entry">{_line(12, y - 4, 56, y - 4, colour, 2.5, dash)}'
                    f'{mark}{_text(80, y, f"({k + 1}) {_short(name, 34)}")}</g>')
    return _svg(prefix, y + 10, "Annotators: line style and number", body)


def sweep_chart(rows: Sequence[SweepRow], measure: str = "IoU",
                prefix: str = "box-sweep") -> str | None:
    """F1, the mean ``measure`` (IoU, OKS) and alpha against its threshold (0.50 to 0.95),
    each its own line style and marker, on 0..1 (alpha below 0 drawn at 0, said in the
    caption)."""
    if not rows:
        return None
    left, right, top, bottom = 36.0, WIDTH - 12.0, 30.0, 190.0
    lo, hi = rows[0].threshold, rows[-1].threshold

    def px(t: float) -> float:
        return left + (t - lo) / max(hi - lo, 1e-9) * (right - left)

    def py(v: float) -> float:
        return bottom - max(0.0, min(1.0, v)) * (bottom - top)

    heading = f"Agreement against the {measure} threshold"
    body = [_text(WIDTH / 2, 18, heading, anchor="middle", size=13.0)]
    for v in (0.0, 0.5, 1.0):
        body.append(_line(left, py(v), right, py(v), GREY, 0.6, "" if v == 0 else "2,3"))
        body.append(_text(left - 4, py(v) + 4, f"{v:g}", anchor="end"))
    for t in (r.threshold for r in rows if round(r.threshold * 10, 6).is_integer()):
        body.append(_line(px(t), bottom, px(t), bottom + 4, GREY, 0.8))
        body.append(_text(px(t), bottom + 17, f"{t:.1f}", anchor="middle"))
    series = (("F1", "f1", "", "circle"), (f"mean {measure}", "mean", "7,4", "square"),
              ("alpha", "alpha", "2,3", "diamond"))
    y = bottom + 34
    for k, (name, key, dash, mark) in enumerate(series):
        pts = [(px(r.threshold), py(getattr(r, key))) for r in rows
               if math.isfinite(getattr(r, key))]
        colour = style(k)[0]
        if pts:
            d = f' stroke-dasharray="{dash}"' if dash else ""
            path = " ".join(f"{_t(a)},{_t(b)}" for a, b in pts)
            body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                        f'stroke-width="2"{d}/>')
            body += [_marker(mark, a, b, colour) for a, b in pts]
        x = left + k * (right - left) / 3
        body.append(_line(x, y - 4, x + 26, y - 4, colour, 2, dash) + _marker(mark, x + 13,
                                                                               y - 4, colour))
        body.append(_text(x + 30, y, name))
    return _svg(prefix, y + 10, heading, body)


def _marker(kind: str, x: float, y: float, colour: str, size: float = 3.0) -> str:
    r, c = size, escape(colour)
    if kind == "circle":
        return f'<circle cx="{_t(x)}" cy="{_t(y)}" r="{_t(r)}" fill="{c}"/>'
    if kind == "square":
        return (f'<rect x="{_t(x - r)}" y="{_t(y - r)}" width="{_t(2 * r)}" '
                f'height="{_t(2 * r)}" fill="{c}"/>')
    if kind in ("plus", "cross"):
        d = ((x - r, y, x + r, y), (x, y - r, x, y + r)) if kind == "plus" else (
            (x - r, y - r, x + r, y + r), (x - r, y + r, x + r, y - r))  # fmt: skip
        return "".join(_line(a, b, p, q, colour, 2.0) for a, b, p, q in d)
    if kind == "triangle":
        return (f'<polygon points="{_t(x)},{_t(y - r)} {_t(x + r)},{_t(y + r)} '
                f'{_t(x - r)},{_t(y + r)}" fill="{c}"/>')
    r = 4 * size / 3  # a diamond as in the sweep's legend
    return (f'<polygon points="{_t(x)},{_t(y - r)} {_t(x + r)},{_t(y)} {_t(x)},{_t(y + r)} '
            f'{_t(x - r)},{_t(y)}" fill="{c}"/>')


def _num(x: float) -> str:
    return f"{x:.2f}" if math.isfinite(x) else "undefined"
