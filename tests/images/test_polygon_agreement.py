"""Agreement on polygons: exact areas and IoU by hand, mask IoU of pycocotools, the figures.

Oracles: hand-computed areas (square, triangle, L-shape) to 1e-12; pycocotools 2.0.x
``mask.iou`` on the outlines rasterised by ``mask.frPyObjects``: a pixel is in when its
centre is, so the mask IoU of outlines some 150 px across differs from the exact one
by the pixels along the edges. Measured over 200 random 9-point outlines of radius
75-150 px, jittered by 15 px, in a 600 x 600 image: at most 0.0017; the test allows
0.005.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import (
    AccordError,
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.images.polygons import polygon_area, polygon_iou_matrix
from accord.readers.polygons import polygon_table
from tests.test_bad_input import refused

SQUARE = [0, 0, 4, 0, 4, 4, 0, 4]  # 16
TRIANGLE = [0, 0, 4, 0, 0, 4]  # 8, half the square
L_SHAPE = [0, 0, 3, 0, 3, 1, 1, 1, 1, 3, 0, 3]  # 3 + 2 = 5


def _rows(objs: list[tuple[str, str, str, Any]]) -> dict[str, list[Any]]:
    return {"image": [o[0] for o in objs], "annotator": [o[1] for o in objs],
            "label": [o[2] for o in objs], "polygon": [o[3] for o in objs]}


def _agree(data: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return accord.polygon_agreement(data, **{"n_resamples": 199, **kw})


def test_exact_areas_by_hand() -> None:
    t = polygon_table(_rows([("i", "a", "x", SQUARE), ("i", "a", "y", TRIANGLE),
                             ("i", "a", "z", L_SHAPE),
                             ("i", "a", "w", [[0.5, 0.5], [2.5, 0.5], [2.5, 2.0]])]))
    np.testing.assert_allclose(t.area, [16.0, 8.0, 5.0, 1.5], rtol=0, atol=1e-12)
    for ring, area in ((SQUARE, 16.0), (TRIANGLE, 8.0), (L_SHAPE, 5.0)):
        assert polygon_area(np.reshape(ring, (-1, 2))) == pytest.approx(area, abs=1e-12)


def test_iou_by_hand() -> None:
    g = np.array([shapely.Polygon(np.reshape(r, (-1, 2))) for r in (SQUARE, TRIANGLE, L_SHAPE)])
    iou = polygon_iou_matrix(g, g)
    # square-triangle 8/16; square-L 5/16; triangle-L: the L's part below x + y = 4 is all of
    # it (its far corner (3, 1) lies on the line), so 5/8
    expected = np.array([[1, 0.5, 5 / 16], [0.5, 1, 5 / 8], [5 / 16, 5 / 8, 1]])
    np.testing.assert_allclose(iou, expected, rtol=0, atol=1e-12)


def _star(rng: np.random.Generator, r: float) -> Any:
    t = np.sort(rng.uniform(0, 2 * np.pi, 9))
    rr = r * rng.uniform(0.5, 1, 9)
    return np.column_stack([300 + rr * np.cos(t), 300 + rr * np.sin(t)])


def test_iou_agrees_with_pycocotools_mask_iou() -> None:
    from pycocotools import mask as mask_utils

    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(60):
        a = _star(rng, rng.uniform(75, 150))
        b = a + rng.normal(0, 15, a.shape)
        ga, gb = shapely.Polygon(a), shapely.Polygon(b)
        if not (ga.is_valid and gb.is_valid):
            continue
        ours = polygon_iou_matrix(np.array([ga]), np.array([gb]))[0, 0]
        ra, rb = (mask_utils.frPyObjects([p.ravel().tolist()], 600, 600) for p in (a, b))
        assert ours == pytest.approx(mask_utils.iou(ra, rb, [0])[0, 0], abs=0.005)
        checked += 1
    assert checked >= 40


def test_figures_and_iou_exactly_at_the_threshold() -> None:
    """r1 and r2: a square and the triangle that is its half (IoU 0.5, a match at 0.5),
    and an L each (IoU 1); r2's L is a "shed". F1: M = 1 (the roof), N = 4 -> 0.5."""
    far = [10 + x for x in L_SHAPE]
    data = _rows([("i", "r1", "roof", SQUARE), ("i", "r2", "roof", TRIANGLE),
                  ("i", "r1", "house", far), ("i", "r2", "shed", far)])
    res = _agree(data)
    assert res.f1.estimate == 0.5 and res.mean_iou.estimate == 0.5
    assert res.iou_threshold == 0.5 and _agree(data, iou_threshold=0.51).f1.estimate == 0.0
    assert res.per_label["roof"].f1.estimate == 1.0
    # groups {roof, roof} and {house, shed}: o(roof,roof) = 2, o(house,shed) = o(shed,house)
    # = 1 -> n = 4, n_c = 2, 1, 1: alpha = 1 - 3 * 2 / (16 - 6) = 0.4
    assert res.alpha.estimate == pytest.approx(0.4, abs=1e-15)
    d = res.to_dict()
    assert d["mean_iou"]["coefficient"] == "mean_iou" and d["f1"]["iou_threshold"] == 0.5
    assert d["alpha"]["coefficient"] == "polygon_alpha" and "observed_disagreement" in d["alpha"]
    # the sweep: estimates only, unless its intervals are asked for
    assert "confidence_interval" not in d["sweep"][0]["f1"] and "confidence_interval" in d["f1"]
    asked = _agree(data, sweep_intervals=True).to_dict()["sweep"]
    assert asked[0]["f1"]["confidence_interval"]["method"] == "bootstrap-percentile"
    assert [r["f1"]["estimate"] for r in asked] == [r["f1"]["estimate"] for r in d["sweep"]]


rings = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 1),
                           st.integers(0, 40), st.integers(0, 40)), min_size=2, max_size=10)


@settings(max_examples=20, deadline=None)
@given(rings, st.randoms(use_true_random=False))
def test_figures_do_not_depend_on_annotator_names_or_row_order(objs: Any, rnd: Any) -> None:
    rows = {(f"i{u}", f"r{r}", "roof" if lab else "shed", (x, y, x + 6, y, x + 6, y + 4, x, y + 4))
            for u, r, lab, x, y in objs}
    rows_l = sorted(rows)
    if len({r[1] for r in rows_l}) < 2:
        return
    base = _agree(_rows([(a, b, c, list(d)) for a, b, c, d in rows_l]), n_resamples=9)
    rnd.shuffle(rows_l)
    renamed = {"r0": "r2", "r1": "r1", "r2": "r0"}
    other = _agree(_rows([(a, renamed[b], c, list(d)) for a, b, c, d in rows_l]), n_resamples=9)
    for name in ("f1", "mean", "alpha"):
        x, y = getattr(base, name).estimate, getattr(other, name).estimate
        assert (np.isnan(x) and np.isnan(y)) or x == pytest.approx(y, abs=1e-12)


def test_bad_input_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    ok = _rows([("i", "r1", "roof", SQUARE), ("i", "r2", "roof", SQUARE)])

    def with_cell(value: Any) -> dict[str, list[Any]]:
        return {**ok, "polygon": [value, SQUARE]}

    refused(DataError, "not a simple polygon .Self-intersection", accord.polygon_agreement,
            with_cell([0, 0, 4, 4, 4, 0, 0, 4]))  # a bow tie
    refused(DataError, "ring of 4 values", accord.polygon_agreement, with_cell([0, 0, 4, 0]))
    refused(DataError, "finite number", accord.polygon_agreement,
            with_cell([0, 0, 4, float("nan"), 4, 4]))
    refused(DataError, "not a simple polygon", accord.polygon_agreement,
            with_cell([0, 0, 1, 1, 2, 2]))  # flat: all on one line
    refused(DataError, "outlined the same 'roof' twice", accord.polygon_agreement,
            _rows([("i", "r1", "roof", SQUARE), ("i", "r1", "roof", SQUARE),
                   ("i", "r2", "roof", SQUARE)]))
    refused(InsufficientDataError, "two annotators or more", accord.polygon_agreement,
            {k: v[:1] for k, v in ok.items()})
    refused(InvalidParameterError, "'iou_threshold' parameter of polygon_agreement",
            accord.polygon_agreement, ok, iou_threshold=1.5)
    refused(InvalidParameterError, "'sweep_intervals' parameter of polygon_agreement",
            accord.polygon_agreement, ok, sweep_intervals="yes")
    monkeypatch.setitem(sys.modules, "shapely", None)  # not installed
    refused(AccordError, "needs shapely 2; install it with pip install 'accord.images.'",
            accord.polygon_agreement, ok)


def test_closed_rings_multi_part_outlines_and_pairs() -> None:
    closed = [*SQUARE, 0, 0]  # the first point repeated, as some tools write it
    two_parts = [[0, 0, 1, 0, 1, 1, 0, 1], [3, 3, 4, 3, 4, 4, 3, 4]]  # COCO: one per part
    t = polygon_table(_rows([("i", "a", "x", closed), ("i", "a", "y", two_parts)]))
    assert t.area.tolist() == [16.0, 2.0] and len(t.rings[1]) == 2
