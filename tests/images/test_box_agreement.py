"""accord.box_agreement against kalphacv, hand derivations and invariances."""

from __future__ import annotations

import math
import warnings
from typing import Any

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import accord
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.images.matching import iou_matrix
from tests.images._examples import (
    FRUITS,
    LANDSCAPE,
    Box,
    columns,
    kalphacv_alpha,
    kalphacv_reliability,
)


def agree(data: Any, **kw: Any) -> accord.BoxAgreement:
    return accord.box_agreement(data, n_resamples=199, **kw)


# --------------------------------------------------------------------------- kalphacv
@pytest.mark.parametrize(("boxes", "printed"), [(FRUITS, 0.0222), (LANDSCAPE, 0.4889)])
def test_kalphacv_published_examples(boxes: list[Box], printed: float) -> None:
    ours = agree(columns({"img": boxes})).alpha.estimate
    assert kalphacv_alpha({"img": boxes}) == printed  # its own figure, computed here
    assert round(ours, 4) == printed
    # unrounded: krippendorff's alpha on kalphacv's own matched groups ("no box" a value)
    groups = kalphacv_reliability(boxes)
    codes = {lab: k for k, lab in enumerate(sorted({x for r in groups for x in r}, key=str))}
    exact = krippendorff.alpha(np.array([[codes[x] for x in r] for r in groups], dtype=float),
                               level_of_measurement="nominal")
    assert ours == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize("boxes", [FRUITS, LANDSCAPE])
def test_kalphacv_does_not_depend_on_annotator_order_here(boxes: list[Box]) -> None:
    """The cases above qualify: renaming the annotators (so kalphacv takes them in
    another order) leaves kalphacv's figure unchanged."""
    names = sorted({b[0] for b in boxes})
    for perm in (["c", "b", "a"], ["b", "c", "a"], ["a", "c", "b"]):
        rename = dict(zip(names, perm))
        moved = [(rename[b[0]], *b[1:]) for b in boxes]
        assert kalphacv_alpha({"img": moved}) == kalphacv_alpha({"img": boxes})  # type: ignore[dict-item]


def test_alpha_pools_the_groups_of_all_images() -> None:
    """Two images: accord's alpha is alpha over every matched group of both images
    (kalphacv averages the per-image alphas instead)."""
    rename = {"Ann1": "a", "Ann2": "b", "ann3": "c", "Ann3": "c"}
    images = {k: [(rename[b[0]], *b[1:]) for b in v] for k, v in
              {"fruits": FRUITS, "landscape": LANDSCAPE}.items()}
    ours = agree(columns(images)).alpha.estimate  # type: ignore[arg-type]
    rows: list[list[Any]] = [[], [], []]
    for boxes in images.values():
        for r, row in enumerate(kalphacv_reliability(boxes)):  # type: ignore[arg-type]
            rows[r] += row
    codes = {lab: k for k, lab in enumerate(sorted({x for r in rows for x in r}, key=str))}
    pooled = krippendorff.alpha(np.array([[codes[x] for x in r] for r in rows], dtype=float),
                                level_of_measurement="nominal")
    assert ours == pytest.approx(pooled, abs=1e-12)
    assert kalphacv_alpha(images) == pytest.approx((0.0222 + 0.4889) / 2, abs=1e-12)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- by hand
def _one(rows: list[tuple[str, str, str, float, float, float, float]]) -> dict[str, list[Any]]:
    names = ("image", "annotator", "label", "x", "y", "w", "h")
    return {n: [r[k] for r in rows] for k, n in enumerate(names)}


def test_iou_exactly_at_the_threshold_matches() -> None:
    # (0,0,2,1) and (0,0,1,1): intersection 1, union 2, IoU 0.5 exactly
    data = _one([("i", "a", "cat", 0, 0, 2, 1), ("i", "b", "cat", 0, 0, 1, 1)])
    assert iou_matrix(np.array([[0.0, 0, 2, 1]]), np.array([[0.0, 0, 1, 1]]))[0, 0] == 0.5
    with pytest.warns(DegenerateDataWarning, match="box_alpha"):  # one label, all matched
        res = agree(data, iou_threshold=0.5)
    assert res.f1.estimate == 1.0 and res.mean_iou.estimate == 0.5
    with pytest.warns(DegenerateDataWarning, match="no pair of boxes matched"):
        above = agree(data, iou_threshold=0.55)
    assert above.f1.estimate == 0.0 and math.isnan(above.mean_iou.estimate)
    # two groups (cat, no box), (no box, cat): o(cat, no) = o(no, cat) = 2, n = 4,
    # alpha = 1 - 3 * 4 / (16 - 8) = -0.5
    assert above.alpha.estimate == pytest.approx(-0.5, abs=1e-15)
    # sweep: matched only at 0.50
    assert [f.f1.estimate for f in res.sweep] == [1.0] + [0.0] * 9
    assert [f.iou_threshold for f in res.sweep] == [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8,
                                                    0.85, 0.9, 0.95]


def test_hand_example_f1_iou_alpha_per_label_and_pairs() -> None:
    """a: cat (0,0,10,10), dog (50,50,5,5); b: cat (0,0,10,9); c: dog (0,0,10,10).

    Pairs (a,b): the cats match, IoU 90/100 = 0.9, F1 = 2*1/3; (a,c): c's dog lies on
    a's cat (IoU 1, labels differ): F1 = 0; (b,c): IoU 0.9, labels differ: F1 = 0.
    f1 = (2/3 + 0 + 0) / 3 = 2/9; mean IoU = 0.9 (the one matched pair).
    Groups (label-blind, joined by decreasing IoU): {a cat, c dog} (IoU 1), then b's
    cat joins it (IoU 0.9, a new annotator): {cat, cat, dog}; a's dog alone:
    {dog, no box, no box}. Coincidences, each pair of values weighted 1/(m - 1) = 1/2:
    group 1 (cat 2, dog 1): o(cat,cat) = 2*1/2, o(cat,dog) = o(dog,cat) = 2*1/2;
    group 2 (dog 1, no box 2): o(dog,no) = o(no,dog) = 1*2/2, o(no,no) = 2*1/2.
    """
    data = _one([("i", "a", "cat", 0, 0, 10, 10), ("i", "a", "dog", 50, 50, 5, 5),
                 ("i", "b", "cat", 0, 0, 10, 9), ("i", "c", "dog", 0, 0, 10, 10)])
    res = agree(data)
    assert res.f1.estimate == pytest.approx(2 / 9, abs=1e-15)
    assert res.mean_iou.estimate == pytest.approx(0.9, abs=1e-15)
    # o = [[1, 1, 0], [1, 0, 1], [0, 1, 1]] over (cat, dog, no box): n_c = 2, 2, 2, n = 6;
    # alpha = 1 - (n - 1)(n - trace o) / (n^2 - sum n_c^2) = 1 - 5 * 4 / 24 = 1/6
    assert res.alpha.estimate == pytest.approx(1 / 6, abs=1e-15)
    assert res.pairs[("a", "b")].f1.estimate == pytest.approx(2 / 3, abs=1e-15)
    assert res.pairs[("a", "c")].f1.estimate == 0.0
    # per label: cat: (a,b) 2*1/2 = 1, (a,c) 0/1, (b,c) 0/1 -> mean 1/3; dog: (a,b) 0/1,
    # (a,c) 0/2, (b,c) 0/1 -> 0
    assert res.per_label["cat"].f1.estimate == pytest.approx(1 / 3, abs=1e-15)
    assert res.per_label["dog"].f1.estimate == 0.0


def test_an_image_with_no_box_from_one_annotator_counts() -> None:
    """b saw image 2 (an empty row) and drew nothing: a's box there is unmatched.
    F1 = 2 * 1 / (2 + 1) over both images."""
    data = _one([("1", "a", "cat", 0, 0, 5, 5), ("1", "b", "cat", 0, 0, 5, 5),
                 ("2", "a", "cat", 0, 0, 5, 5)])
    assert agree(data).f1.estimate == pytest.approx(2 / 3, abs=1e-15)
    empty = _one([("1", "a", "cat", 0, 0, 5, 5), ("1", "b", "cat", 0, 0, 5, 5),
                  ("3", "b", None, None, None, None, None)])  # type: ignore[list-item]
    with pytest.warns(DegenerateDataWarning, match="box_alpha"):  # cat, cat only
        res = agree(empty)
    assert res.f1.estimate == 1.0 and res.audit["images"] == 2 and res.audit["no-box rows"] == 1


def test_undefined_alpha_when_every_value_is_the_same() -> None:
    data = _one([("i", "a", "cat", 0, 0, 5, 5), ("i", "b", "cat", 0, 0, 5, 5)])
    with pytest.warns(DegenerateDataWarning, match="box_alpha"):
        res = agree(data)
    assert math.isnan(res.alpha.estimate) and res.alpha.undefined_reason is not None
    assert res.f1.estimate == 1.0


# --------------------------------------------------------------------------- bootstrap
def test_bootstrap_resamples_images_through_their_counts() -> None:
    """Weights (2, 1) on the two images = the figures on the data with image 1 twice."""
    rename = {"Ann1": "a", "Ann2": "b", "ann3": "c", "Ann3": "c"}
    images = {k: [(rename[b[0]], *b[1:]) for b in v] for k, v in
              {"1": FRUITS, "2": LANDSCAPE}.items()}
    twice = {**images, "1bis": images["1"]}
    res, big = agree(columns(images)), agree(columns(twice))  # type: ignore[arg-type]
    for name in ("f1", "mean_iou", "alpha"):
        r = getattr(res, name).resampling()
        w = np.zeros((1, r.features.shape[0]))
        for unit, pattern in zip(r.unit_ids, r.unit_patterns):
            w[0, pattern] += 2 if unit == "1" else 1
        assert r.evaluate(w)[0] == pytest.approx(getattr(big, name).estimate, abs=1e-12)


def test_to_dict_has_every_figure_with_its_interval() -> None:
    rename = {"Ann1": "a", "Ann2": "b", "ann3": "c", "Ann3": "c"}
    images = {k: [(rename[b[0]], *b[1:]) for b in v] for k, v in
              {"1": FRUITS, "2": LANDSCAPE, "3": FRUITS[:6]}.items()}
    res = agree(columns(images), rng=3)  # type: ignore[arg-type]
    out = res.to_dict()
    f1 = out["f1"]
    assert f1["coefficient"] == "box_f1" and f1["iou_threshold"] == 0.5
    ci = f1["confidence_interval"]
    assert set(ci) >= {"low", "high", "confidence_level", "method"}
    assert ci["low"] <= f1["estimate"] <= ci["high"] and ci["method"] == "bootstrap-percentile"
    assert out == agree(columns(images), rng=3).to_dict()  # type: ignore[arg-type]
    assert len(out["sweep"]) == 10 and {"f1", "mean_iou", "alpha"} <= set(out["sweep"][0])
    assert {row["f1"]["label"] for row in out["per_label"]} == set(res.per_label)


# --------------------------------------------------------------------------- properties
BOX = st.tuples(st.sampled_from(["cat", "dog"]), st.integers(0, 20), st.integers(0, 20),
                st.integers(1, 12), st.integers(1, 12))
DATA = st.lists(st.tuples(st.sampled_from(["u1", "u2", "u3"]), st.sampled_from(["a", "b", "c"]),
                          BOX), min_size=2, max_size=14, unique=True)


def _figures(rows: list[tuple[str, str, tuple[Any, ...]]], **kw: Any) -> list[float]:
    data = _one([(u, r, *b) for u, r, b in rows])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = agree(data, **kw)
    out = [res.f1.estimate, res.mean_iou.estimate, res.alpha.estimate]
    out += [f.alpha.estimate for f in res.sweep if f.alpha is not None]
    return out


def _same(x: list[float], y: list[float]) -> None:
    assert np.allclose(x, y, rtol=0, atol=1e-12, equal_nan=True)


@given(DATA, st.randoms(use_true_random=False))
def test_invariant_to_row_order_annotator_names_images_and_labels(rows: Any, rnd: Any) -> None:
    if len({r for _, r, _ in rows}) < 2:
        return
    base = _figures(rows)
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    _same(base, _figures(shuffled))
    rename = dict(zip("abc", rnd.sample(["zed", "amy", "max"], 3)))
    _same(base, _figures([(u, rename[r], b) for u, r, b in rows]))
    images = dict(zip(["u1", "u2", "u3"], rnd.sample(["x", "y", "z"], 3)))
    _same(base, _figures([(images[u], r, b) for u, r, b in rows]))
    swap = {"cat": "dog", "dog": "cat"}
    _same(base, _figures([(u, r, (swap[b[0]], *b[1:])) for u, r, b in rows]))


@given(st.lists(BOX, min_size=1, max_size=6, unique_by=lambda b: b[1:]))
def test_identical_annotators_agree_perfectly(boxes: Any) -> None:
    rows = [("u", r, b) for r in ("a", "b", "c") for b in boxes]
    f1, iou, *_ = _figures(rows)
    assert f1 == 1.0 and iou == pytest.approx(1.0, abs=1e-15)


# --------------------------------------------------------------------------- bad input
def test_bad_input_is_one_sentence() -> None:
    from tests.test_bad_input import refused

    def row(**kw: Any) -> dict[str, list[Any]]:
        r: dict[str, Any] = {"image": "i", "annotator": "a", "label": "cat", "x": 0, "y": 0,
                             "w": 5, "h": 5, **kw}
        other = {**r, "annotator": "b", "w": 5, "h": 5, "x": 0, "y": 0}
        return {k: [r[k], other[k]] for k in r}

    refused(DataError, "positive width and height", accord.box_agreement, row(w=0))
    refused(DataError, "positive width and height", accord.box_agreement, row(h=-2))
    refused(DataError, "not a finite number", accord.box_agreement, row(x=float("nan")))
    refused(DataError, "not a finite number", accord.box_agreement, row(y=float("inf")))
    refused(DataError, "but no label", accord.box_agreement, row(label=None))
    refused(DataError, "column 'xmin' not found", accord.box_agreement, row(),
            box=("xmin", "y", "w", "h"))
    refused(DataError, "four columns", accord.box_agreement, row(), box=("x", "y"))
    twice = _one([("i", "a", "cat", 0, 0, 5, 5), ("i", "a", "cat", 0, 0, 5, 5),
                  ("i", "b", "cat", 0, 0, 5, 5)])
    refused(DataError, "twice on image 'i' \\(rows 1 and 2\\)", accord.box_agreement, twice)
    one = _one([("i", "a", "cat", 0, 0, 5, 5)])
    refused(InsufficientDataError, "two annotators or more", accord.box_agreement, one)
    refused(InvalidParameterError, "'iou_threshold' parameter of box_agreement",
            accord.box_agreement, row(), iou_threshold=0)
    refused(InvalidParameterError, "'iou_threshold' parameter of box_agreement",
            accord.box_agreement, row(), iou_threshold=1.5)
