"""Plots for the HTML report, as inline SVG strings.

The charts every small report shows (the coefficients' intervals, the contingency
heatmap, the per-category kappas, the rater x rater matrix) are written as SVG directly
by :mod:`accord.report.charts`, each heatmap cell a vector rectangle. The others are
rendered by matplotlib, imported only when such a plot is drawn, and only its object API is
used (``Figure`` with the Agg canvas), so no global backend or pyplot state is
touched. The SVG is deterministic: a fixed ``svg.hashsalt``, no date in the
metadata, text kept as ``<text>`` (escaped by matplotlib's SVG writer), and ids
prefixed per plot so that several plots can live in one HTML page.

Labels from the data are passed as plain text: ``$`` is escaped so matplotlib
never reads a label as mathtext.

Every plot is drawn for a phone first: at most ``WIDTH`` inches wide (345 SVG units,
about the 358 px a 390 px screen leaves) with no text under ``FONT`` units, so its
text is at least 11 px wherever the page is read. Interval plots stack each full label
(wrapped) above its line instead of cutting it to fit a narrow axis.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from accord.report.model import (
    BootstrapSummary,
    CoefficientRow,
    FigureRow,
    PairAnalysis,
    RaterMatrix,
    SystemEvaluation,
    Worksheet,
)

MAX_CATEGORIES = 30
WIDTH = 4.8  # inches at 72 dpi: 345.6 SVG units, drawn at 352-358 px on a 390 px phone
FONT = 12.0  # the smallest text, in SVG units (12.2 px and more on a 390 px phone)
TICKS = 12  # beyond this many categories or raters, axes show numbers (see the table)
WRAP = 44  # characters per line of a stacked label at FONT
_RC: dict[Any, Any] = {
    "svg.hashsalt": "accord-report",
    "svg.fonttype": "none",
    "font.size": FONT,
    "font.family": "DejaVu Sans",
    "axes.titlesize": 13.0,
    "axes.labelsize": FONT,
    "xtick.labelsize": FONT,
    "ytick.labelsize": FONT,
    "legend.fontsize": FONT,
    "figure.titlesize": 13.0,
    "figure.dpi": 72.0,
}
_ID = re.compile(r'\bid="([^"]+)"')

__all__ = ["FONT", "WIDTH", "agreement_chart", "agreement_chart_boxes", "bootstrap_histogram",
           "category_bars", "class_bars", "coefficient_intervals", "contingency_heatmap",
           "figure_intervals", "numbered", "rater_matrix"]


def _label(text: object, limit: int = 24) -> str:
    """Plain text for matplotlib: no mathtext, shortened for an axis."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[: limit - 1] + "\u2026"
    return s.replace("$", r"\$")


@contextmanager
def _figure(width: float, height: float) -> Iterator[Any]:
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(width, height), layout="constrained")
        FigureCanvasAgg(fig)
        yield fig


def _svg(fig: Any, prefix: str) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():
        # text is written as SVG text (svg.fonttype "none"), so the browser draws CJK and
        # other labels with its own fonts; matplotlib's missing-glyph warning is moot
        warnings.filterwarnings("ignore", message="Glyph .* missing from font",
                                category=UserWarning)
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    size = re.search(r'<svg[^>]*? width="([0-9.]+)pt"', text)
    width = f' style="max-width: {size.group(1)}pt"' if size else ""
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', text, count=1)
    text = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', text)
    text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", text)
    text = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', text)
    return text.replace("<svg", f'<svg role="img" class="plot" data-plot="{prefix}"{width}', 1)


def _render(prefix: str, width: float, height: float, draw: Callable[[Any], None]) -> str:
    with _figure(min(width, WIDTH), height) as fig:
        draw(fig)
        return _svg(fig, prefix)


def contingency_heatmap(ws: Worksheet, prefix: str = "heatmap", *,
                        title: str = "Contingency table") -> str | None:
    """The contingency table as a heatmap, counts in the cells up to 6 categories (None
    beyond 30 categories); rows are the first rater (the reference of a confusion matrix).
    Each cell is a vector rectangle (:mod:`accord.report.charts`)."""
    k = len(ws.categories)
    if not ws.shown or k == 0 or k > MAX_CATEGORIES:
        return None
    from accord.report import charts

    text = ([[f"{x:g}" for x in row] for row in ws.counts] if k <= 6 else None)
    return charts.heatmap(ws.counts, ws.categories, prefix, title=title,
                          row_label=ws.raters[0], col_label=ws.raters[1], cell_text=text,
                          numbered=k > TICKS)

Box = tuple[float, float, float, float]  # x, y, width, height


def agreement_chart_boxes(counts: Sequence[Sequence[float]]) -> list[tuple[Box, Box]]:
    """Bangdiwala's (1985) agreement chart: for each category k, the rectangle with sides
    the column and row totals ``n_+k`` and ``n_k+`` placed at the cumulative totals, and
    inside it the square of exact agreement ``n_kk``, offset by the counts of column k
    in earlier rows (x) and of row k in earlier columns (y).

    The squares cover ``sum n_kk^2`` of the rectangles' ``sum n_k+ n_+k``: the share is
    Bangdiwala's B.
    """
    import numpy as np

    n = np.asarray(counts, dtype=float)
    rows, cols = n.sum(axis=1), n.sum(axis=0)
    x0 = np.concatenate([[0.0], np.cumsum(cols)[:-1]])
    y0 = np.concatenate([[0.0], np.cumsum(rows)[:-1]])
    out = []
    for k in range(n.shape[0]):
        rect = (float(x0[k]), float(y0[k]), float(cols[k]), float(rows[k]))
        square = (float(x0[k] + n[:k, k].sum()), float(y0[k] + n[k, :k].sum()),
                  float(n[k, k]), float(n[k, k]))
        out.append((rect, square))
    return out


def agreement_chart(ws: Worksheet, prefix: str = "agreement") -> str | None:
    """Bangdiwala's agreement chart of an ordinal two-rater table (None beyond 30
    categories or when nothing was rated)."""
    k = len(ws.categories)
    if not ws.shown or k == 0 or k > MAX_CATEGORIES or ws.n <= 0:
        return None

    def draw(fig: Any) -> None:
        from matplotlib.patches import Rectangle

        ax = fig.add_subplot()
        for rect, square in agreement_chart_boxes(ws.counts):
            ax.add_patch(Rectangle(rect[:2], rect[2], rect[3], facecolor="#dbe7f3",
                                   edgecolor="#4a6f96", linewidth=0.8))
            ax.add_patch(Rectangle(square[:2], square[2], square[3], facecolor="#1f3b57"))
        for i, ((rect, _), cat) in enumerate(zip(agreement_chart_boxes(ws.counts),
                                                 ws.categories)):
            if k <= 6:  # one label a rectangle; stacked in two rows so that they never meet
                ax.text(rect[0] + rect[2] / 2, -(0.05 + 0.07 * (i % 2)) * ws.n,
                        _label(cat, 10), ha="center", va="top", fontsize=FONT)
        ax.plot([0, ws.n], [0, ws.n], color="#999999", linewidth=0.6, linestyle=":")
        ax.set_xlim(0, ws.n)
        ax.set_ylim(0, ws.n)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_xlabel(_label(ws.raters[1], 40), labelpad=34 if k <= 6 else 6)
        ax.set_ylabel(_label(ws.raters[0], 40))
        ax.set_title("Agreement chart")

    return _render(prefix, WIDTH, WIDTH, draw)


def rater_matrix(m: RaterMatrix, prefix: str = "matrix") -> str | None:
    """The rater x rater matrix of pairwise coefficients (diverging colours, -1 red to 1
    blue), the values in the cells up to 5 raters."""
    r = len(m.raters)
    if r < 2 or r > 40:
        return None
    from accord.report import charts

    text = ([["" if i == j or not math.isfinite(v) else f"{v:.2f}" for j, v in enumerate(row)]
             for i, row in enumerate(m.values)] if r <= 5 else None)
    return charts.heatmap(m.values, m.raters, prefix,
                          title=f"Rater x rater: {_label(m.coefficient, 30)}", diverging=True,
                          cell_text=text, numbered=r > TICKS)

def category_bars(pair: PairAnalysis, prefix: str = "categories") -> str | None:
    """One-vs-rest kappa per category with its interval, and specific positive agreement."""
    rows = pair.categories
    if not rows or len(rows) > MAX_CATEGORIES:
        return None
    from accord.report import charts

    low = min(-0.2, min((c.ci_low for c in rows if math.isfinite(c.ci_low)), default=0.0)
              - 0.05)
    return charts.interval_rows(
        [charts.IntervalRow(c.category, _finite(c.kappa), c.ci_low, c.ci_high, bar=True,
                            mark=c.positive_agreement) for c in rows],
        prefix, title="Per category", low=low,
        legend=[("bar", "one-vs-rest kappa"), ("diamond", "positive agreement")])

def coefficient_intervals(rows: Sequence[CoefficientRow], prefix: str = "coefficients", *,
                          threshold: float | None = None,
                          threshold_label: str = "") -> str | None:
    """Each coefficient's estimate with its confidence interval, its full name above it;
    ``threshold`` (a study's acceptance threshold) is drawn as a dashed line."""
    shown = [r for r in rows if r.defined]
    if not shown:
        return None
    from accord.report import charts

    low = min([0.0] + [r.ci_low for r in shown if math.isfinite(r.ci_low)]
              + [r.estimate for r in shown]) - 0.05
    return charts.interval_rows(
        [charts.IntervalRow(r.label, r.estimate, r.ci_low, r.ci_high) for r in shown], prefix,
        title="Estimates and confidence intervals", low=low, threshold=threshold,
        threshold_label=threshold_label)

def bootstrap_histogram(b: BootstrapSummary, prefix: str = "bootstrap") -> str | None:
    """The bootstrap distribution with the estimate and the interval limits."""
    if not b.counts:
        return None

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        edges = list(b.edges)
        widths = [hi - lo for lo, hi in zip(edges[:-1], edges[1:])]
        ax.bar(edges[:-1], b.counts, width=widths, align="edge", color="#bbccee",
               edgecolor="#4477aa", linewidth=0.5)
        ax.axvline(b.estimate, color="black", linewidth=1.5, label="estimate")
        for x in (b.ci_low, b.ci_high):
            if math.isfinite(x):
                ax.axvline(x, color="#ee7733", linestyle="--", linewidth=1.2)
        ax.plot([], [], color="#ee7733", linestyle="--",
                label=f"{b.confidence_level * 100:g}% interval")
        ax.set_xlabel(_label(b.coefficient, 40))
        ax.set_ylabel("resamples")
        ax.legend(frameon=False)
        ax.set_title(f"Bootstrap ({b.n_resamples} resamples)")

    return _render(prefix, WIDTH, 3.2, draw)


def class_bars(s: SystemEvaluation, prefix: str = "classes") -> str | None:
    """Precision, recall and F1 of each class as bars with their intervals."""
    rows = s.classes
    if not rows or len(rows) > MAX_CATEGORIES:
        return None

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        ys = _stack(ax, [c.label for c in rows], rows_per_label=3)
        height = 0.2
        for k, (name, colour) in enumerate((("precision", "#4477aa"), ("recall", "#ee7733"),
                                           ("f1", "#228833"))):
            y = [yi + (1 - k) * height for yi in ys]
            figs = [getattr(c, name) for c in rows]
            ax.barh(y, [_finite(f.estimate) for f in figs], height=height, color=colour,
                    label=name if name != "f1" else "F1")
            for yi, f in zip(y, figs):
                if math.isfinite(f.ci_low) and math.isfinite(f.ci_high):
                    ax.plot([f.ci_low, f.ci_high], [yi, yi], color="black", linewidth=1.0)
        ax.set_xlim(0.0, 1.05)
        fig.legend(loc="outside lower center", ncols=3, frameon=False)
        ax.set_title("Per class")

    return _render(prefix, WIDTH, 1.6 + _height([c.label for c in rows], 0.25), draw)


def figure_intervals(rows: Sequence[FigureRow], prefix: str = "figures", *,
                     title: str = "Estimates and confidence intervals") -> str | None:
    """Named estimates with their intervals, one row each (the first highlighted)."""
    shown = [r for r in rows if math.isfinite(r.estimate)]
    if not shown:
        return None

    def draw(fig: Any) -> None:
        ax = fig.add_subplot()
        ys = _stack(ax, [r.name for r in shown])
        for i, (yi, r) in enumerate(zip(ys, shown)):
            colour = "#ee7733" if i == 0 else "#4477aa"
            if math.isfinite(r.ci_low) and math.isfinite(r.ci_high):
                ax.plot([r.ci_low, r.ci_high], [yi, yi], color=colour, linewidth=2.0)
            ax.plot([r.estimate], [yi], marker="o", color="#222222", markersize=6)
        low = min([r.ci_low for r in shown if math.isfinite(r.ci_low)]
                  + [r.estimate for r in shown])
        ax.set_xlim(max(-1.05, low - 0.05), 1.05)
        ax.set_title(title)

    return _render(prefix, WIDTH, 1.0 + _height([r.name for r in shown]), draw)


def _wrap(text: object) -> str:
    """A full label for a stacked row: wrapped at ``WRAP`` characters, never cut."""
    import textwrap

    plain = " ".join(str(text).split()).replace("$", r"\$")
    return "\n".join(textwrap.wrap(plain, WRAP, break_long_words=True)) or " "


def _lines(labels: Sequence[object]) -> list[int]:
    return [_wrap(x).count("\n") + 1 for x in labels]


def _height(labels: Sequence[object], extra: float = 0.0) -> float:
    """Inches for stacked rows: the label's lines of text, then the row's marks."""
    return sum(0.22 * n + 0.3 + extra for n in _lines(labels))


def _stack(ax: Any, labels: Sequence[object], rows_per_label: int = 1) -> list[float]:
    """Lay rows from the top, each full label written above its marks (left-aligned at
    the axis' edge); returns each row's y. The y axis then has no ticks."""
    from matplotlib.transforms import blended_transform_factory

    lines = _lines(labels)
    marks = 0.7 if rows_per_label == 1 else 0.9
    ys, y = [], 0.0
    for n in lines:
        y -= 0.55 * n + marks
        ys.append(y)
    on_axis = blended_transform_factory(ax.transAxes, ax.transData)
    for label, yi in zip(labels, ys):
        ax.text(0.0, yi + marks * 0.45, _wrap(label), transform=on_axis, ha="left",
                va="bottom", fontsize=FONT, linespacing=1.1)
    ax.set_ylim(y - 0.3 * marks, 0.0)
    ax.set_yticks([])
    return ys


def numbered(n: int, what: str = "categories") -> str:
    """The caption's word on numbered axes: empty when the names are written."""
    return "" if n <= TICKS else f" The axes number the {what} 1 to {n} in the table's order."


def _ticks(names: Sequence[object], limit: int) -> list[str]:
    """Tick labels: the names (shortened to ``limit``), or their positions 1..n when more
    than ``TICKS`` would not fit at ``FONT`` (the table beside the plot names them)."""
    if len(names) > TICKS:
        return [str(i + 1) for i in range(len(names))]
    return [_label(x, limit) for x in names]


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0
