"""accord.box_consensus: hand-derived cases, CVAT's quorum rule and invariances."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import InsufficientDataError, InvalidParameterError

EX = Path(__file__).resolve().parents[2] / "examples"
Row = tuple[str, str, str, float, float, float, float]


def table(rows: list[Row]) -> dict[str, list[Any]]:
    keys = ("image", "annotator", "label", "x", "y", "w", "h")
    return {k: [r[i] for r in rows] for i, k in enumerate(keys)}


def boxes(res: accord.BoxConsensus) -> list[tuple[Any, ...]]:
    return [(r["image"], r["label"], r["x"], r["y"], r["w"], r["h"], r["support"])
            for r in res.rows()]


# --------------------------------------------------------------------------- hand-derived
def test_a_box_at_iou_exactly_the_threshold_joins() -> None:
    data = table([("i", "a", "cat", 0, 0, 2, 1), ("i", "b", "cat", 0, 0, 1, 1)])  # IoU 0.5
    res = accord.box_consensus(data, iou_threshold=0.5, quorum=1.0, fusion="mean")
    assert boxes(res) == [("i", "cat", 0.0, 0.0, 1.5, 1.0, 2)]
    # the fused box (0, 0, 1.5, 1) has IoU 1.5/2 with a's box and 1/1.5 with b's
    assert res.rows()[0]["spread"] == pytest.approx((0.75 + 2 / 3) / 2, abs=1e-15)
    above = accord.box_consensus(data, iou_threshold=0.51, quorum=1.0, fusion="mean")
    assert boxes(above) == [] and above.audit["below_quorum"] == 2


def test_the_fused_box_of_identical_boxes_is_that_box() -> None:
    same = (12.25, 7.5, 30.125, 18.0)
    data = table([("i", r, "cat", *same) for r in ("a", "b", "c")])
    for fusion in ("mean", "weighted"):
        res = accord.box_consensus(data, fusion=fusion)  # type: ignore[arg-type]
        (row,) = res.rows()
        assert (row["x"], row["y"], row["w"], row["h"]) == same
        assert row["spread"] == 1.0 and row["support"] == 3 and row["label_share"] == 1.0


@pytest.mark.parametrize(("n", "quorum", "required"),
                         [(4, 0.5, 2), (5, 0.7, 4), (10, 0.7, 7), (3, 0.5, 2), (3, 1.0, 3),
                          (6, 0.01, 1)])
def test_quorum_exactly_met_is_enough(n: int, quorum: float, required: int) -> None:
    """CVAT's rule: ceil(quorum x annotators) boxes (its example: 5 replicas, 70 % -> 4)."""
    names = [f"r{k}" for k in range(n)]
    rows: list[Row] = [("i", r, "cat", 0, 0, 10, 10) for r in names[:required]]
    rows += [("i", r, "dog", 50, 50, 10, 10) for r in names[: required - 1]]
    rows += [("j", r, "cat", 0, 0, 10, 10) for r in names]  # every annotator is in the table
    res = accord.box_consensus(table(rows), quorum=quorum)
    assert res.required == required
    got = {(r["image"], r["label"]): r["support"] for r in res.rows()}
    assert got == {("i", "cat"): required, ("j", "cat"): n}
    if required > 1:
        assert [(r["label"], r["support"]) for r in res.below_quorum()] == [("dog", required - 1)]


def test_the_denominator_is_every_annotator_even_one_who_drew_nothing_on_the_image() -> None:
    """c drew nothing on image i: 2 of 3 annotators, below a quorum of 0.7 (needs 3)."""
    rows: list[Row] = [("i", "a", "cat", 0, 0, 10, 10), ("i", "b", "cat", 0, 0, 10, 10),
                       ("j", "c", "cat", 0, 0, 10, 10)]
    res = accord.box_consensus(table(rows), quorum=0.7)
    assert res.required == 3 and res.rows() == []
    assert res.audit["below_quorum_by_support"] == [{"support": 1, "count": 1},
                                                    {"support": 2, "count": 1}]


def cvat_documented_rule(groups: list[list[str]], n_replicas: int, quorum: float) -> list[bool]:
    """CVAT's merging settings page: an annotation is kept when at least ceil(n x quorum)
    replicas contain it (here with the product rounded, as accord documents)."""
    return [len(set(g)) >= math.ceil(round(n_replicas * quorum, 9)) for g in groups]


def test_the_quorum_follows_cvats_documented_rule_where_labels_agree() -> None:
    rng = random.Random(3)
    names = ["a", "b", "c", "d", "e"]
    rows: list[Row] = []
    groups: list[list[str]] = []
    for k in range(12):  # twelve well separated objects, each drawn by a random subset
        who = sorted(rng.sample(names, rng.randint(1, 5)))
        groups.append(who)
        rows += [("i", r, "cat", 100.0 * k + rng.random(), 0, 20, 20) for r in who]
    for quorum in (0.2, 0.5, 0.7, 1.0):
        res = accord.box_consensus(table(rows), quorum=quorum)
        kept = sorted(int(r["x"] // 100) for r in res.rows())
        want = [k for k, ok in enumerate(cvat_documented_rule(groups, 5, quorum)) if ok]
        assert kept == want, quorum


# --------------------------------------------------------------------------- labels, weights
def test_a_tied_label_is_named_and_goes_to_the_first_in_sorted_order_under_mean() -> None:
    data = table([("i", "a", "dog", 0, 0, 10, 10), ("i", "b", "cat", 0, 0, 10, 10)])
    (row,) = accord.box_consensus(data, fusion="mean").rows()
    assert row["label"] == "cat" and row["tied_labels"] == ["cat", "dog"]
    assert row["label_share"] == 0.5


def test_a_tied_label_goes_to_the_annotators_with_more_weight_under_weighted() -> None:
    """a and b agree on image j; c does not: the tie on image i goes to a's label."""
    rows: list[Row] = [("i", "a", "dog", 0, 0, 10, 10), ("i", "c", "cat", 0, 0, 10, 10),
                       ("j", "a", "cat", 0, 0, 10, 10), ("j", "b", "cat", 0, 0, 10, 10),
                       ("j", "c", "bird", 0, 0, 10, 10)]
    res = accord.box_consensus(table(rows), quorum=0.5)
    a, _, c = res.weights
    assert a > c
    row = next(r for r in res.rows() if r["image"] == "i")
    assert row["label"] == "dog" and row["tied_labels"] == ["cat", "dog"]


def test_weights_are_each_annotators_mean_pairwise_f1_of_box_agreement() -> None:
    res = accord.box_consensus(EX / "boxes.csv", iou_threshold=0.6)
    agree = accord.box_agreement(EX / "boxes.csv", iou_threshold=0.6, n_resamples=19)
    for name, weight in zip(res.annotators, res.weights):
        mine = [f.f1.estimate for pair, f in agree.pairs.items() if name in pair]
        assert weight == pytest.approx(float(np.mean(mine)), abs=1e-12)


def test_the_weighted_box_is_the_weighted_mean_of_its_members() -> None:
    rows: list[Row] = [("i", "a", "cat", 0, 0, 10, 10), ("i", "b", "cat", 1, 0, 10, 10),
                       ("i", "c", "cat", 2, 1, 10, 12),
                       ("j", "a", "cat", 0, 0, 10, 10), ("j", "b", "cat", 0, 0, 10, 10),
                       ("j", "c", "dog", 0, 0, 10, 10)]
    res = accord.box_consensus(table(rows))
    w = dict(zip(res.annotators, res.weights))
    # pair F1 = 2 M / (n_A + n_B) over both images: a-b 2*2/4 = 1; a-c 0 (IoU 72/148 on i,
    # labels differ on j); b-c 2*1/4 = 0.5 (IoU 81/139 on i). Each annotator: the mean.
    assert w == pytest.approx({"a": 0.5, "b": 0.75, "c": 0.25}, abs=1e-15)
    row = next(r for r in res.rows() if r["image"] == "i")
    total = w["a"] + w["b"] + w["c"]
    assert row["x"] == pytest.approx((0 * w["a"] + 1 * w["b"] + 2 * w["c"]) / total)
    assert row["h"] == pytest.approx((10 * w["a"] + 10 * w["b"] + 12 * w["c"]) / total)


# --------------------------------------------------------------------------- invariance
box_rows = st.lists(
    st.tuples(st.sampled_from(["i1", "i2"]), st.sampled_from(["ann", "bob", "cleo"]),
              st.sampled_from(["cat", "dog"]), st.integers(0, 30), st.integers(0, 30),
              st.integers(1, 12), st.integers(1, 12)),
    min_size=2, max_size=24, unique_by=lambda r: r)


@settings(max_examples=60, deadline=None)
@given(rows=box_rows, seed=st.integers(0, 10**6))
def test_the_consensus_does_not_depend_on_the_order_of_annotators_or_rows(
        rows: list[Row], seed: int) -> None:
    if len({r[1] for r in rows}) < 2:
        return
    shuffled = list(rows)
    random.Random(seed).shuffle(shuffled)
    one = accord.box_consensus(table(rows))
    two = accord.box_consensus(table(shuffled))
    assert one.to_dict() == two.to_dict()


def test_renaming_the_annotators_keeps_the_consensus() -> None:
    """kalphacv's groups change when annotators are renamed; accord's do not."""
    rng = np.random.default_rng(5)
    rows: list[Row] = []
    for img in range(20):
        truth = rng.uniform(0, 200, size=(4, 2))
        for r in ("ann", "bob", "cleo"):
            for x, y in truth:
                if rng.random() < 0.8:
                    jit = rng.normal(0, 2, 4)
                    rows.append((f"im{img}", r, rng.choice(["cat", "dog"]), x + jit[0],
                                 y + jit[1], 30 + jit[2], 20 + jit[3]))
    rename = {"ann": "zoe", "bob": "yan", "cleo": "xia"}
    one = accord.box_consensus(table(rows))
    two = accord.box_consensus(table([(r[0], rename[r[1]], *r[2:]) for r in rows]))
    for a, b in zip(one.rows(), two.rows(), strict=True):
        assert (a["image"], a["label"], a["support"]) == (b["image"], b["label"], b["support"])
        for k in ("x", "y", "w", "h", "spread"):
            assert a[k] == pytest.approx(b[k], abs=1e-9)


# --------------------------------------------------------------------------- results, input
def test_the_result_is_a_table_with_json_keys() -> None:
    res = accord.box_consensus(EX / "boxes.csv")
    doc = res.to_dict()
    assert doc["results"] == res.rows() and len(res) == len(doc["results"])
    assert doc["audit"]["groups"] == doc["audit"]["consensus_boxes"] + doc["audit"]["below_quorum"]
    assert all(k.islower() and " " not in k for k in doc["audit"])
    frame = res.to_frame(backend="polars")
    assert frame.columns[:6] == ["image", "label", "x", "y", "w", "h"]
    assert frame.height == len(res)
    assert "BoxConsensus(" in str(res)


@pytest.mark.parametrize(("kw", "message"), [
    ({"quorum": 0}, "'quorum' parameter of box_consensus"),
    ({"quorum": 1.5}, "'quorum' parameter of box_consensus"),
    ({"iou_threshold": "0.5"}, "'iou_threshold' parameter of box_consensus"),
    ({"fusion": "median"}, "'fusion' parameter of box_consensus"),
])
def test_bad_settings_are_refused_in_one_sentence(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        accord.box_consensus(EX / "boxes.csv", **kw)


def test_one_annotator_is_refused() -> None:
    with pytest.raises(InsufficientDataError, match="two annotators or more"):
        accord.box_consensus(table([("i", "a", "cat", 0, 0, 1, 1)]))
