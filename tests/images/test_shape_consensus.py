"""accord.polygon_consensus and accord.keypoint_consensus: hand-derived cases, CVAT's
quorum rule, the fallback to the plain mean, and invariance to the order of the input."""

from __future__ import annotations

import math
from typing import Any

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import accord

NAMES = ["wrist", "thumb", "tip"]
SIGMAS = {"wrist": 0.1, "thumb": 0.1, "tip": 0.1}


def polygons(rows: list[tuple[str, str, str, list[float]]]) -> dict[str, list[Any]]:
    keys = ("image", "annotator", "label", "polygon")
    return {k: [r[i] for r in rows] for i, k in enumerate(keys)}


def square(x: float, y: float, side: float = 4) -> list[float]:
    return [x, y, x + side, y, x + side, y + side, x, y + side]


def hands(rows: list[tuple[str, str, str, list[float]]], area: float = 400) -> dict[str, Any]:
    keys = ("image", "annotator", "label", "keypoints")
    return {**{k: [r[i] for r in rows] for i, k in enumerate(keys)}, "area": [area] * len(rows)}


def kp_consensus(data: dict[str, Any], **kw: Any) -> accord.KeypointConsensus:
    return accord.keypoint_consensus(data, names=NAMES, sigmas=SIGMAS, **kw)


# --------------------------------------------------------------------------- polygons
SHIFTED = [("i", "a", "roof", square(0, 0)), ("i", "b", "roof", square(1, 0)),
           ("i", "c", "roof", square(0, 1))]  # fmt: skip


def test_three_outlines_fuse_to_the_area_two_of_them_cover() -> None:
    """a = [0, 4]^2, b shifted right by 1, c up by 1 (IoU 0.6 with a, 9/23 b with c):
    one group by a; the area at least two cover is [1, 4] x [0, 4] u [0, 4] x [1, 4]."""
    res = accord.polygon_consensus(polygons(SHIFTED), fusion="mean")
    (row,) = res.rows()
    expected = shapely.union(shapely.box(1, 0, 4, 4), shapely.box(0, 1, 4, 4))
    assert row["area"] == 15.0 and row["support"] == 3
    assert shapely.equals(res.geometry[0], expected)
    assert shapely.equals(shapely.from_wkt(row["wkt"]), expected)
    # the fused region lies in a (IoU 15/16) and meets b and c in 12 (IoU 12/19 each)
    assert row["spread"] == pytest.approx((15 / 16 + 2 * 12 / 19) / 3, abs=1e-15)
    assert len(row["polygon"]) == 1 and len(row["polygon"][0]) == 12  # one ring, 6 corners
    assert res.audit["consensus_polygons"] == 1 and res.audit["empty_fusions"] == 0


def test_two_overlapping_squares_and_one_off() -> None:
    """Two of three reach a quorum of 0.5; an even split keeps a point, so two members
    give their union (area 20); the square off on its own is below quorum."""
    data = polygons([("i", "a", "roof", square(0, 0)), ("i", "b", "roof", square(1, 0)),
                     ("i", "c", "roof", square(20, 20))])  # fmt: skip
    res = accord.polygon_consensus(data, fusion="mean")
    (row,) = res.rows()
    assert shapely.equals(res.geometry[0], shapely.box(0, 0, 5, 4))
    assert (row["area"], row["support"], row["n_annotators"]) == (20.0, 2, 3)
    assert row["spread"] == 16 / 20
    (off,) = res.below_quorum()
    assert off["polygon"] == [[20.0, 20.0, 24.0, 20.0, 24.0, 24.0, 20.0, 24.0]]
    assert (off["support"], off["spread"]) == (1, 1.0)
    assert res.audit["below_quorum_by_support"] == [{"support": 1, "count": 1}]


def test_weighted_majority_of_area() -> None:
    """Weights: a matched both (F1 1 with each, mean 1), b and c only a (mean 1/2 each);
    a alone holds half of 2: the region is a's square (an even split, kept)."""
    res = accord.polygon_consensus(polygons(SHIFTED))
    assert res.weights == (1.0, 0.5, 0.5)
    assert shapely.equals(res.geometry[0], shapely.box(0, 0, 4, 4))
    assert res.rows()[0]["area"] == 16.0


def test_a_group_with_no_weight_is_fused_by_the_plain_majority_and_counted() -> None:
    """a's cat and b's dog are one group (grouping is label-blind) but no pair agrees on
    a label: both weights are 0, so the group is fused with weights 1 and counted."""
    data = polygons([("i", "a", "cat", square(0, 0)), ("i", "b", "dog", square(1, 0))])
    res = accord.polygon_consensus(data)
    assert res.weights == (0.0, 0.0)
    assert res.audit["unweighted_groups"] == 1
    (row,) = res.rows()
    assert row["area"] == 20.0 and row["tied_labels"] == ["cat", "dog"]
    assert row["label"] == "cat" and row["label_share"] == 0.5
    assert accord.polygon_consensus(data, fusion="mean").audit["unweighted_groups"] == 0


@pytest.mark.parametrize(("quorum", "kept"), [(0.5, 1), (0.51, 0)])
def test_polygon_quorum_exactly_met_is_enough(quorum: float, kept: int) -> None:
    """Four annotators, two outline the roof: 2 = ceil(0.5 x 4) is enough, 0.51 needs 3."""
    data = polygons([("i", "a", "roof", square(0, 0)), ("i", "b", "roof", square(0, 0)),
                     ("i", "c", "tree", square(50, 50)), ("i", "d", "tree", square(80, 80))])
    res = accord.polygon_consensus(data, quorum=quorum)
    assert len(res) == kept and res.required == (2 if quorum == 0.5 else 3)
    assert res.audit["below_quorum"] == 3 - kept


def test_an_empty_majority_is_an_empty_region_and_counted() -> None:
    """Five squares in a chain, each meeting its neighbours only (IoU 4/28, grouped at a
    threshold of 0.1): no point is inside three of them, so the majority is empty."""
    data = polygons([("i", r, "road", square(3 * k, 0)) for k, r in enumerate("abcde")])
    res = accord.polygon_consensus(data, fusion="mean", iou_threshold=0.1, quorum=0.2)
    (row,) = res.rows()
    assert (row["support"], row["area"], row["spread"]) == (5, 0.0, 0.0)
    assert row["polygon"] == [] and row["wkt"] == "POLYGON EMPTY"
    assert res.audit["empty_fusions"] == 1


# --------------------------------------------------------------------------- keypoints
def test_keypoints_are_the_mean_of_the_members_where_labelled() -> None:
    res = kp_consensus(hands([
        ("i", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("i", "b", "hand", [1, 0, 2, 5, 6, 1, 11, 0, 2]),
        ("i", "c", "hand", [2, 0, 2, 5, 7, 1, 0, 0, 0])]), fusion="mean")  # fmt: skip
    (row,) = res.rows()
    # the thumb is visible for a only: labelled by all, visible by 1 of 3 -> v = 1
    assert row["keypoints"] == [1.0, 0.0, 2, 5.0, 6.0, 1, 10.5, 0.0, 2]
    assert row["support"] == 3 and row["area"] == 400.0
    assert res.points.shape == (1, 3, 3)


def test_a_point_labelled_by_less_than_half_is_dropped() -> None:
    """The tip is labelled by a only (1 of 3): it is 0 in the fused set, written 0, 0, 0."""
    res = kp_consensus(hands([
        ("i", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("i", "b", "hand", [0, 0, 2, 5, 5, 2, 0, 0, 0]),
        ("i", "c", "hand", [0, 0, 2, 5, 5, 2, 0, 0, 0])]), fusion="mean")  # fmt: skip
    (row,) = res.rows()
    assert row["keypoints"] == [0.0, 0.0, 2, 5.0, 5.0, 2, 0.0, 0.0, 0]
    assert math.isnan(res.points[0, 2, 0])
    # a's OKS to the fused set counts its tip as a disagreement: 2/3; b and c's are 1
    assert row["spread"] == pytest.approx((2 / 3 + 1 + 1) / 3, abs=1e-15)


def test_keypoints_weighted_mean_by_hand() -> None:
    """On image j, c misses a hand a and b agree on: F1(a, b) = 1, F1(a, c) = F1(b, c) =
    2 / 3, so the weights are 5/6, 5/6, 2/3 and the wrist's x is
    (5/6 * 0 + 5/6 * 1 + 2/3 * 2) / (7/3) = 13/14."""
    res = kp_consensus(hands([
        ("i", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("i", "b", "hand", [1, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("i", "c", "hand", [2, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("j", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
        ("j", "b", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2])]))  # fmt: skip
    assert res.weights == pytest.approx((5 / 6, 5 / 6, 2 / 3), abs=1e-15)
    first = res.rows()[0]
    assert first["image"] == "i"
    assert first["keypoints"][0] == pytest.approx(13 / 14, abs=1e-15)
    assert first["keypoints"][3:] == [5.0, 5.0, 2, 10.0, 0.0, 2]


def test_visibility_by_weighted_majority() -> None:
    """Weights 5/6, 5/6, 2/3 (as above): the tip labelled by a alone (5/6 of 7/3) is
    dropped; labelled by a and c (3/2 >= 7/6) it is kept, at their weighted mean."""
    rows = [("j", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
            ("j", "b", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2])]  # fmt: skip
    base = [("i", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
            ("i", "b", "hand", [0, 0, 2, 5, 5, 2, 0, 0, 0])]  # fmt: skip
    alone = kp_consensus(hands([*base, ("i", "c", "hand", [0, 0, 2, 5, 5, 2, 0, 0, 0]),
                                *rows]))  # fmt: skip
    assert alone.rows()[0]["keypoints"][6:] == [0.0, 0.0, 0]
    two = kp_consensus(hands([*base, ("i", "c", "hand", [0, 0, 2, 5, 5, 2, 12, 0, 2]),
                              *rows]))  # fmt: skip
    assert two.weights == pytest.approx((5 / 6, 5 / 6, 2 / 3), abs=1e-15)
    x = (5 / 6 * 10 + 2 / 3 * 12) / (5 / 6 + 2 / 3)
    assert two.rows()[0]["keypoints"][6:] == [pytest.approx(x, abs=1e-14), 0.0, 2]


def test_keypoints_with_no_weight_fall_back_to_the_plain_mean_and_are_counted() -> None:
    res = kp_consensus(hands([("i", "a", "hand", [0, 0, 2, 5, 5, 2, 10, 0, 2]),
                              ("i", "b", "paw", [2, 0, 2, 5, 5, 2, 10, 0, 2])]))
    assert res.weights == (0.0, 0.0) and res.audit["unweighted_groups"] == 1
    assert res.rows()[0]["keypoints"][:3] == [1.0, 0.0, 2]


@pytest.mark.parametrize(("quorum", "kept"), [(0.75, 1), (0.76, 0)])
def test_keypoint_quorum_exactly_met_is_enough(quorum: float, kept: int) -> None:
    """Four annotators, three keypoint the hand: 3 = ceil(0.75 x 4); 0.76 needs 4."""
    same = [0, 0, 2, 5, 5, 2, 10, 0, 2]
    res = kp_consensus(hands([("i", r, "hand", same) for r in "abc"]
                             + [("i", "d", "hand", [90, 90, 2, 95, 95, 2, 99, 90, 2])]),
                       quorum=quorum)  # fmt: skip
    assert len(res) == kept
    if kept:
        assert res.rows()[0]["keypoints"] == [0.0, 0.0, 2, 5.0, 5.0, 2, 10.0, 0.0, 2]
        assert res.rows()[0]["spread"] == 1.0
    d = res.to_dict()
    assert d["oks_threshold"] == 0.5 and d["keypoint_names"] == NAMES
    assert len(d["results"]) == kept and len(d["below_quorum"]) == 2 - kept


# --------------------------------------------------------------------------- invariance
# Rows permuted: the same consensus to the last bit. Annotators renamed: the same, up to
# rounding (the members are summed in the annotators' order), on coordinates with a
# jitter, since groups are joined by decreasing similarity and an exact tie between two
# annotators' pairs is broken by the annotators' order. An annotator's two objects with
# one bounding box and label keep the input's order (as in the agreement), so the
# strategies draw none.
RENAME = {"a": "zed", "b": "amy", "c": "max", "d": "bo"}


def _permuted(data: dict[str, list[Any]], order: list[int], rename: bool) -> dict[str, Any]:
    out = {k: [v[i] for i in order] for k, v in data.items()}
    if rename:
        out["annotator"] = [RENAME[a] for a in out["annotator"]]
    return out


def _box(coords: list[float], step: int) -> tuple[float, ...]:
    xs = [coords[k] for k in range(0, len(coords), step) if step == 2 or coords[k + 2] > 0]
    ys = [coords[k + 1] for k in range(0, len(coords), step) if step == 2 or coords[k + 2] > 0]
    return min(xs), min(ys), max(xs), max(ys)


def _unique(rows: list[tuple[str, str, str, list[float]]], step: int) -> list[Any]:
    """No annotator's two objects with one label and one bounding box; two annotators."""
    keep = list({(*r[:3], _box(r[3], step)): r for r in rows}.values())
    if len({r[1] for r in keep}) < 2:
        other = "a" if keep[0][1] != "a" else "b"
        keep.append(("i", other, "x", [90, 90, 99, 90, 99, 99] if step == 2
                     else [90, 90, 2, 95, 95, 2, 99, 90, 2]))  # fmt: skip
    return keep


@st.composite
def _rects(draw: st.DrawFn, jitter: bool = False) -> dict[str, list[Any]]:
    rows = []
    for _ in range(draw(st.integers(3, 9))):
        x, y = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        w, h = draw(st.integers(3, 6)), draw(st.integers(3, 6))
        if jitter:
            x, y = x + draw(st.floats(0, 0.5)), y + draw(st.floats(0, 0.5))
        rows.append((draw(st.sampled_from(["i", "j"])), draw(st.sampled_from("abcd")),
                     draw(st.sampled_from(["roof", "tree"])),
                     [x, y, x + w, y, x + w, y + h, x, y + h]))  # fmt: skip
    return polygons(_unique(rows, 2))


@st.composite
def _hands(draw: st.DrawFn, jitter: bool = False) -> dict[str, Any]:
    rows = []
    for _ in range(draw(st.integers(3, 9))):
        ox, oy = draw(st.sampled_from([0, 50])), draw(st.integers(0, 2))
        pts: list[float] = []
        for k in range(3):
            v = draw(st.sampled_from([0, 1, 2, 2]))
            x = ox + 5 * k + draw(st.integers(0, 2)) + (draw(st.floats(0, 0.5)) if jitter else 0)
            pts += [x, oy, v] if v else [0, 0, 0]
        if not any(pts[2::3]):
            pts[:3] = [ox, oy, 2]
        rows.append((draw(st.sampled_from(["i", "j"])), draw(st.sampled_from("abcd")),
                     draw(st.sampled_from(["hand", "paw"])), pts))  # fmt: skip
    return hands(_unique(rows, 3))


def _close(x: dict[str, Any], y: dict[str, Any], shape: str) -> None:
    for part in ("results", "below_quorum"):
        assert len(x[part]) == len(y[part])
        for r, s in zip(x[part], y[part]):
            loose = {shape, "wkt", "area", "spread"}
            assert {k: v for k, v in r.items() if k not in loose} == {
                k: v for k, v in s.items() if k not in loose}
            assert r["area"] == pytest.approx(s["area"], rel=1e-9)
            assert r["spread"] == pytest.approx(s["spread"], rel=1e-9, abs=1e-12)
            if shape == "keypoints":
                assert r[shape] == pytest.approx(s[shape], rel=1e-9, abs=1e-9)
            else:
                a, b = shapely.from_wkt(r["wkt"]), shapely.from_wkt(s["wkt"])
                assert shapely.area(shapely.symmetric_difference(a, b)) < 1e-9


@settings(max_examples=40, deadline=None)
@given(data=_rects(), seed=st.randoms(use_true_random=False),
       fusion=st.sampled_from(["mean", "weighted"]))
def test_polygon_consensus_does_not_depend_on_the_order_of_the_rows(
    data: dict[str, list[Any]], seed: Any, fusion: Any,
) -> None:  # fmt: skip
    order = list(range(len(data["image"])))
    seed.shuffle(order)
    one = accord.polygon_consensus(data, fusion=fusion)
    assert one.to_dict() == accord.polygon_consensus(_permuted(data, order, False),
                                                     fusion=fusion).to_dict()


@settings(max_examples=40, deadline=None)
@given(data=_rects(jitter=True), seed=st.randoms(use_true_random=False),
       fusion=st.sampled_from(["mean", "weighted"]))
def test_polygon_consensus_does_not_depend_on_the_annotators_names(
    data: dict[str, list[Any]], seed: Any, fusion: Any,
) -> None:  # fmt: skip
    order = list(range(len(data["image"])))
    seed.shuffle(order)
    one = accord.polygon_consensus(data, fusion=fusion).to_dict()
    two = accord.polygon_consensus(_permuted(data, order, True), fusion=fusion).to_dict()
    _close(one, two, "polygon")


@settings(max_examples=40, deadline=None)
@given(data=_hands(), seed=st.randoms(use_true_random=False),
       fusion=st.sampled_from(["mean", "weighted"]))
def test_keypoint_consensus_does_not_depend_on_the_order_of_the_rows(
    data: dict[str, Any], seed: Any, fusion: Any,
) -> None:  # fmt: skip
    order = list(range(len(data["image"])))
    seed.shuffle(order)
    one = kp_consensus(data, fusion=fusion).to_dict()
    assert one == kp_consensus(_permuted(data, order, False), fusion=fusion).to_dict()


@settings(max_examples=40, deadline=None)
@given(data=_hands(jitter=True), seed=st.randoms(use_true_random=False),
       fusion=st.sampled_from(["mean", "weighted"]))
def test_keypoint_consensus_does_not_depend_on_the_annotators_names(
    data: dict[str, Any], seed: Any, fusion: Any,
) -> None:  # fmt: skip
    order = list(range(len(data["image"])))
    seed.shuffle(order)
    one = kp_consensus(data, fusion=fusion).to_dict()
    two = kp_consensus(_permuted(data, order, True), fusion=fusion).to_dict()
    _close(one, two, "keypoints")
