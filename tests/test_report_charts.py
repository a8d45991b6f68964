"""The charts written as SVG directly (accord.report.charts): vector cells, matplotlib's
colour maps at their ends, escaped labels, positions that follow the figures."""

from __future__ import annotations

import math
import re
from pathlib import Path

import accord
from accord.report import charts, plots

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _pilot() -> accord.Report:
    return accord.report(accord.read(EXAMPLES / "pilot.csv",
                                     raters=["annotator_a", "annotator_b"]))


def test_the_heatmap_is_one_vector_rectangle_a_cell_with_the_counts() -> None:
    ws = _pilot().pairs[0].worksheet
    svg = plots.contingency_heatmap(ws)
    assert svg is not None and "<image" not in svg and "base64" not in svg
    cells = re.findall(r'<rect x="[^"]+" y="[^"]+" width="[^"]+" height="[^"]+" '
                       r'fill="(#[0-9a-f]{6})"', svg)
    assert len(cells) == 9
    flat = [x for row in ws.counts for x in row]
    # the largest count (62) is the darkest Blues colour, a zero the lightest
    assert cells[flat.index(62.0)] == "#08306b" and cells[flat.index(0.0)] == "#f7fbff"
    texts = re.findall(r'fill="#(?:222222|ffffff)">(\d+)</text>', svg)
    assert [float(t) for t in texts] == flat


def test_the_colours_are_matplotlibs_maps_at_their_ends_and_middle() -> None:
    """Blues and RdBu as matplotlib draws them (matplotlib 3.x, ColorBrewer's anchors)."""
    assert charts._colour(charts.BLUES, 0.0) == "#f7fbff"
    assert charts._colour(charts.BLUES, 1.0) == "#08306b"
    assert charts._colour(charts.RDBU, 0.5) == "#f7f7f7"
    assert charts._colour(charts.RDBU, 0.0) == "#67001f"
    assert charts._colour(charts.RDBU, 1.0) == "#053061"


def test_intervals_sit_where_their_figures_are() -> None:
    rows = [charts.IntervalRow("a", 0.5, 0.25, 0.75), charts.IntervalRow("b", 1.0)]
    svg = charts.interval_rows(rows, "t", title="T", low=0.0)
    left, right = 18.0, charts.WIDTH - 14.0

    def at(v: float) -> float:
        return left + v / 1.05 * (right - left)

    dots = [float(x) for x in re.findall(r'<circle cx="([0-9.]+)"', svg)]
    assert [round(d, 1) for d in dots] == [round(at(0.5), 1), round(at(1.0), 1)]
    line = re.search(r'<line x1="([0-9.]+)" y1="[0-9.]+" x2="([0-9.]+)" y2="[0-9.]+" '
                     r'stroke="#4477aa"', svg)
    assert line is not None
    assert math.isclose(float(line.group(1)), at(0.25), abs_tol=0.06)
    assert math.isclose(float(line.group(2)), at(0.75), abs_tol=0.06)


def test_labels_are_escaped_and_long_ones_wrapped_not_cut() -> None:
    label = "<script>alert(1)</script> " + "word " * 20
    svg = charts.interval_rows([charts.IntervalRow(label, 0.5)], "t", title="T", low=0.0)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert svg.count("word") == 20  # every word written, over several lines


def test_the_threshold_and_legend_are_drawn() -> None:
    svg = charts.interval_rows([charts.IntervalRow("k", 0.7, 0.6, 0.8)], "t", title="T",
                               low=0.0, threshold=0.6, threshold_label="acceptance 0.6")
    assert 'stroke="#b3261e"' in svg and "acceptance 0.6" in svg
