"""Bangdiwala's agreement chart in the HTML report (ordinal two-rater data).

The chart's geometry is checked against its definition (Bangdiwala 1985; Friendly's
description in *Visualizing Categorical Data*, 2000, sec. 3.7): rectangles of sides
n_+k and n_k+ along the diagonal, squares of side n_kk inside them, and the share of
rectangle area the squares cover equals Bangdiwala's B (accord.bangdiwala_b, checked
against irrCAC in tests/test_bangdiwala.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import accord
from accord.report import plots

TABLE = [[13, 2, 0], [1, 20, 7], [0, 4, 56]]


def test_boxes_tile_the_diagonal_and_give_bangdiwala_b() -> None:
    boxes = plots.agreement_chart_boxes(TABLE)
    n = np.array(TABLE, dtype=float)
    rects = np.array([r for r, _ in boxes])
    squares = np.array([s for _, s in boxes])
    assert rects[-1, 0] + rects[-1, 2] == n.sum() == rects[-1, 1] + rects[-1, 3]
    for (rx, ry, rw, rh), (sx, sy, sw, sh) in boxes:  # each square lies in its rectangle
        assert rx <= sx and sx + sw <= rx + rw and ry <= sy and sy + sh <= ry + rh
    share = float(np.sum(squares[:, 2] ** 2) / np.sum(rects[:, 2] * rects[:, 3]))
    b = accord.bangdiwala_b(accord.ContingencyTable(TABLE)).estimate
    assert share == pytest.approx(b, rel=1e-14)


def _pairs(table: list[list[int]]) -> tuple[list[int], list[int]]:
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [i + 1] * count
            b += [j + 1] * count
    return a, b


def test_html_shows_the_chart_for_ordinal_data_only() -> None:
    a, b = _pairs(TABLE)
    ordinal = accord.Annotations.from_pairs(a, b, categories=[1, 2, 3], level="ordinal")
    page = accord.report(ordinal).to_html()
    assert 'data-plot="agreement-1"' in page and "Bangdiwala&#x27;s agreement chart" in page
    nominal = accord.Annotations.from_pairs([str(x) for x in a], [str(x) for x in b])
    assert 'data-plot="agreement-' not in accord.report(nominal).to_html()
