"""The box report's SVG: the most disputed images with each annotator's boxes, their
legend, and the IoU-threshold sweep.

Drawn as :mod:`accord.report.charts` draws (``WIDTH`` units wide, no text under 11
units, every text escaped, nothing random): no image pixels, only the boxes, scaled to
their extent. Each annotator has a colour *and* a line style (solid, dashed, dotted,
...), and each box's label is written beside it with the annotator's number, so the
picture reads in grey too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from accord.report.boxes_section import BoxSweepRow, DisputedImage
from accord.report.charts import FONT, GREY, WIDTH, _line, _short, _svg, _t, _text

__all__ = ["COLOURS", "DASHES", "box_legend", "box_picture", "style", "sweep_chart"]

#: Paul Tol's "bright" scheme (colour-blind safe), then his grey.
COLOURS = ("#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb")
#: One line style per annotator: solid, dashed, dotted, dash-dot, long dash, dense dots.
DASHES = ("", "8,4", "2,3", "9,3,2,3", "14,4", "1,2")
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


def box_picture(image: DisputedImage, annotators: Sequence[str], prefix: str) -> str:
    """The image's boxes, scaled to their extent: each annotator's style, each box's label
    and the annotator's number beside its top-left corner."""
    boxes = image.boxes
    x0 = min(b.x for b in boxes)
    y0 = min(b.y for b in boxes)
    x1 = max(b.x + b.w for b in boxes)
    y1 = max(b.y + b.h for b in boxes)
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
    for b in sorted(boxes, key=lambda b: (number.get(b.annotator, 0), b.y, b.x, b.label)):
        k = number.get(b.annotator, 0)
        x, y = left + (b.x - x0) * scale, top + LABEL + (b.y - y0) * scale
        body.append(_rect(x, y, b.w * scale, b.h * scale, k))
        text = f"{_short(b.label, 18)} ({k + 1})"
        tx, ty = _free(min(x + 2, WIDTH - _width(text) - 2), y - 3, _width(text), placed)
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
    """One entry per annotator: its number, its line style and colour, its name."""
    body, y = [], 6.0
    for k, name in enumerate(annotators):
        y += 20.0
        colour, dash = style(k)
        body.append(f'<g class="legend-entry">{_line(12, y - 4, 60, y - 4, colour, 2.5, dash)}'
                    f'{_text(68, y, f"({k + 1}) {_short(name, 36)}")}</g>')
    return _svg(prefix, y + 10, "Annotators: line style and number", body)


def sweep_chart(rows: Sequence[BoxSweepRow], prefix: str = "box-sweep") -> str | None:
    """F1, mean IoU and alpha against the IoU threshold (0.50 to 0.95), each its own line
    style and marker, on 0..1 (alpha below 0 drawn at 0, said in the caption)."""
    if not rows:
        return None
    left, right, top, bottom = 36.0, WIDTH - 12.0, 30.0, 190.0
    lo, hi = rows[0].iou_threshold, rows[-1].iou_threshold

    def px(t: float) -> float:
        return left + (t - lo) / max(hi - lo, 1e-9) * (right - left)

    def py(v: float) -> float:
        return bottom - max(0.0, min(1.0, v)) * (bottom - top)

    body = [_text(WIDTH / 2, 18, "Agreement against the IoU threshold", anchor="middle",
                  size=13.0)]
    for v in (0.0, 0.5, 1.0):
        body.append(_line(left, py(v), right, py(v), GREY, 0.6, "" if v == 0 else "2,3"))
        body.append(_text(left - 4, py(v) + 4, f"{v:g}", anchor="end"))
    for t in (r.iou_threshold for r in rows if round(r.iou_threshold * 10, 6).is_integer()):
        body.append(_line(px(t), bottom, px(t), bottom + 4, GREY, 0.8))
        body.append(_text(px(t), bottom + 17, f"{t:.1f}", anchor="middle"))
    series = (("F1", "f1", "", "circle"), ("mean IoU", "mean_iou", "7,4", "square"),
              ("alpha", "alpha", "2,3", "diamond"))
    y = bottom + 34
    for k, (name, key, dash, mark) in enumerate(series):
        pts = [(px(r.iou_threshold), py(getattr(r, key))) for r in rows
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
    return _svg(prefix, y + 10, "Agreement against the IoU threshold", body)


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "circle":
        return f'<circle cx="{_t(x)}" cy="{_t(y)}" r="3" fill="{colour}"/>'
    if kind == "square":
        return f'<rect x="{_t(x - 3)}" y="{_t(y - 3)}" width="6" height="6" fill="{colour}"/>'
    return (f'<polygon points="{_t(x)},{_t(y - 4)} {_t(x + 4)},{_t(y)} {_t(x)},{_t(y + 4)} '
            f'{_t(x - 4)},{_t(y)}" fill="{escape(colour)}"/>')


def _num(x: float) -> str:
    return f"{x:.2f}" if math.isfinite(x) else "undefined"
