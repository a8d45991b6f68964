"""The human ceiling of a model's boxes: by hand, against box_agreement's own counts, a
paired bootstrap redone by hand, and invariants (renaming, reordering, a system that is a
human)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, InvalidParameterError
from accord.images.detection import evaluate_boxes
from accord.inference.ceiling import HumanCeiling
from accord.readers.boxes import box_table
from tests.test_bad_input import refused

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples" / "boxes_model.csv"
COLS = ("image", "annotator", "label", "x", "y", "w", "h", "score")


def _rows() -> list[dict[str, Any]]:
    with MODEL.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {c: [r[c] for r in rows] for c in COLS}


def _paper() -> dict[str, list[Any]]:
    """Two images, one label. Image i: gold 1 cat; model 2 boxes (1 match, 1 spurious);
    ann 1 match; bob nothing. Image j: gold 2 cats; model 1 match; ann 1 match plus 1 box
    that matches nothing; bob both matches."""
    rows = [
        ("i", "gold", 0, 0, 10, 10), ("i", "model", 1, 0, 10, 10), ("i", "model", 60, 60, 5, 5),
        ("i", "ann", 0, 1, 10, 10),
        ("j", "gold", 0, 0, 20, 20), ("j", "gold", 50, 50, 20, 20),
        ("j", "model", 1, 1, 20, 20), ("j", "ann", 0, 0, 20, 20), ("j", "ann", 90, 0, 5, 5),
        ("j", "bob", 0, 1, 20, 20), ("j", "bob", 50, 51, 20, 20),
    ]
    out: dict[str, list[Any]] = {c: [] for c in COLS[:-1]}
    for image, who, x, y, w, h in rows:
        for c, val in zip(COLS[:-1], (image, who, "cat", x, y, w, h)):
            out[c].append(val)
    return out


def test_the_ceiling_by_hand() -> None:
    """On paper: model tp 2, 3 gold, 3 boxes -> F1 2*2/6; ann tp 2 of 3 boxes -> F1 4/6,
    P 2/3, R 2/3; bob tp 2 of 2 -> F1 4/5, P 1, R 2/3; ann and bob match 1 pair on j
    (and nothing on i) with 5 boxes between them -> pairwise F1 2/5."""
    res = evaluate_boxes(_paper(), reference="gold", system="model", n_resamples=199)
    c = res.ceiling
    assert isinstance(c, HumanCeiling)
    assert c.figure == "f1" and c.system == "model" and c.n_units == 2
    assert res.f1.estimate == pytest.approx(4 / 6)
    assert c.system_result is res.f1
    assert {h: r.estimate for h, r in c.humans.items()} == pytest.approx(
        {"ann": 4 / 6, "bob": 4 / 5})
    assert c.human_agreement is not None and c.human_agreement.estimate == pytest.approx(2 / 5)
    assert c.human_range == pytest.approx((4 / 6, 4 / 5))
    assert c.comparisons["ann"].difference == pytest.approx(0.0, abs=1e-12)
    assert c.comparisons["bob"].difference == pytest.approx(4 / 6 - 4 / 5)
    for figure, ann, bob in (("precision", 2 / 3, 1.0), ("recall", 2 / 3, 2 / 3)):
        r = evaluate_boxes(_paper(), reference="gold", system="model", n_resamples=99,
                           ceiling_figure=figure)
        assert r.ceiling is not None and r.ceiling.figure == figure
        assert r.ceiling.system_result is getattr(r, figure)
        assert r.ceiling.humans["ann"].estimate == pytest.approx(ann)
        assert r.ceiling.humans["bob"].estimate == pytest.approx(bob)


def test_each_human_is_scored_as_a_system_and_the_humans_as_box_agreement() -> None:
    """Each human's figure is evaluate_boxes with that human as the system; the humans'
    agreement is box_agreement's F1 on the humans alone (its own batch counting)."""
    rows = _rows()
    res = evaluate_boxes(_columns(rows), reference="gold", system="detector", score="score",
                         n_resamples=99)
    c = res.ceiling
    assert c is not None and list(c.humans) == ["ann", "bob"]
    for human in ("ann", "bob"):
        alone = evaluate_boxes(_columns(rows), reference="gold", system=human, n_resamples=9,
                               humans=[])
        assert c.humans[human].estimate == alone.f1.estimate
        assert alone.ceiling is None
    humans_only = _columns([r for r in rows if r["annotator"] in ("ann", "bob")])
    agree = accord.box_agreement({k: v for k, v in humans_only.items() if k != "score"},
                                 n_resamples=9)
    assert c.human_agreement is not None
    assert c.human_agreement.estimate == pytest.approx(agree.f1.estimate, abs=1e-12)


def test_the_paired_bootstrap_redone_by_hand() -> None:
    """The interval of detector - ann: images drawn together for both, from box_agreement's
    per image counts of (gold, detector) and (gold, ann), percentiles of the difference."""
    rows = _rows()
    n = 4000
    res = evaluate_boxes(_columns(rows), reference="gold", system="detector", humans=["ann"],
                         n_resamples=n, rng=1)
    assert res.ceiling is not None
    got = res.ceiling.comparisons["ann"]

    def per_image(who: str) -> tuple[np.ndarray, np.ndarray]:
        sub = _columns([r for r in rows if r["annotator"] in ("gold", who)])
        counts = accord.box_agreement({k: v for k, v in sub.items() if k != "score"},
                                      n_resamples=9).image_counts()
        assert counts["images"] == box_table(_columns(rows)).units
        return counts["matched"], counts["boxes"]

    (m_s, n_s), (m_h, n_h) = per_image("detector"), per_image("ann")
    assert got.difference == pytest.approx(2 * m_s.sum() / n_s.sum() - 2 * m_h.sum() / n_h.sum())
    draw = np.random.default_rng(7).multinomial(len(m_s), [1 / len(m_s)] * len(m_s), size=n)
    diff = 2 * (draw @ m_s) / (draw @ n_s) - 2 * (draw @ m_h) / (draw @ n_h)
    low, high = np.percentile(diff, [2.5, 97.5])
    assert got.interval.low == pytest.approx(low, abs=0.02)
    assert got.interval.high == pytest.approx(high, abs=0.02)
    assert got.interval.high < 0 and res.ceiling.outcome == "below"


def test_who_counts_as_a_human() -> None:
    rows = _rows()
    # a second model (its boxes scored) is left out of the default humans, and said
    second = [{**r, "annotator": "detector2"} for r in rows if r["annotator"] == "detector"]
    res = evaluate_boxes(_columns(rows + second), reference="gold", system="detector",
                         score="score", n_resamples=9)
    assert res.ceiling is not None and list(res.ceiling.humans) == ["ann", "bob"]
    assert res.audit["humans"] == ["ann", "bob"]
    assert res.audit["scored annotators left out of the human ceiling"] == ["detector2"]
    assert res.to_dict()["audit"]["scored_annotators_left_out_of_the_human_ceiling"] == [
        "detector2"]
    # named humans, one human, none
    one = evaluate_boxes(_columns(rows), reference="gold", system="detector", humans="bob",
                         n_resamples=9)
    assert one.ceiling is not None and list(one.ceiling.humans) == ["bob"]
    assert one.ceiling.human_agreement is None
    none = evaluate_boxes(_columns(rows), reference="gold", system="detector", humans=[],
                          n_resamples=9)
    assert none.ceiling is None and none.to_dict()["ceiling"] is None
    alone = [r for r in rows if r["annotator"] in ("gold", "detector")]
    assert evaluate_boxes(_columns(alone), reference="gold", system="detector",
                          n_resamples=9).ceiling is None


def test_to_dict_is_the_ceiling_of_labels_and_spans() -> None:
    res = evaluate_boxes(_paper(), reference="gold", system="model", n_resamples=99)
    out = res.to_dict()
    assert (out["reference"], out["system"]) == ("gold", "model")
    assert res.ceiling is not None and out["ceiling"] == res.ceiling.to_dict()
    labels = accord.evaluate(accord.read(ROOT / "examples" / "preds.csv"), reference="gold",
                             systems="model", method=accord.Bootstrap(n_resamples=99))
    assert labels.ceiling is not None
    assert set(out["ceiling"]) == set(labels.ceiling.to_dict())
    assert set(out["ceiling"]["comparisons"]["bob"]) == set(
        next(iter(labels.ceiling.to_dict()["comparisons"].values())))


def test_bad_ceiling_input() -> None:
    data = _paper()
    refused(DataError, "humans=", evaluate_boxes, data, reference="gold", system="model",
            humans=["carl"])
    refused(DataError, "is the reference", evaluate_boxes, data, reference="gold",
            system="model", humans=["gold", "ann"])
    refused(DataError, "is the system", evaluate_boxes, data, reference="gold",
            system="model", humans=["model"])
    refused(DataError, "twice", evaluate_boxes, data, reference="gold", system="model",
            humans=["ann", "ann"])
    refused(InvalidParameterError, "ceiling_figure", evaluate_boxes, data, reference="gold",
            system="model", ceiling_figure="ap")
    refused(DataError, "no human annotator", evaluate_boxes, data, reference="gold",
            system="model", humans=[], ceiling_figure="f1")


def test_evaluate_routes_a_box_table() -> None:
    t = box_table(_columns(_rows()), score="score")
    boot = accord.Bootstrap(n_resamples=99, rng=3)
    one = accord.evaluate(t, reference="gold", systems="detector", method=boot)
    direct = evaluate_boxes(t, reference="gold", system="detector", n_resamples=99, rng=3)
    assert one.to_dict() == direct.to_dict()
    both = accord.evaluate(t, reference="gold", systems=["detector", "bob"], method=boot)
    assert set(both) == {"detector", "bob"}
    assert both["bob"].ap is None  # an annotator's boxes carry no score to rank
    assert both["bob"].ceiling is not None and list(both["bob"].ceiling.humans) == ["ann"]
    refused(DataError, "name the reference", accord.evaluate, t, systems="detector")
    refused(DataError, "not found", accord.evaluate, t, reference="gold", systems="carl")
    refused(DataError, "apply to labels", accord.evaluate, t, reference="gold",
            systems="detector", categories=["car"])
    refused(InvalidParameterError, "percentile", accord.evaluate, t, reference="gold",
            systems="detector", method=accord.Bootstrap(kind="bca"))


# --------------------------------------------------------------------------- invariants
BOX = st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 40), st.integers(0, 40),
                st.integers(4, 20), st.integers(4, 20))
WHO = ("gold", "model", "h1", "h2")


def _table(boxes: list[tuple[int, int, int, int, int, int, int]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {c: [] for c in COLS[:-1]}
    for who, image, lab, x, y, w, h in dict.fromkeys(boxes):  # the same box twice is refused
        for c, val in zip(COLS[:-1], (f"im{image}", WHO[who], "ab"[lab], x, y, w, h)):
            out[c].append(val)
    for who in WHO:  # every annotator saw every image, even with no box
        for image in range(3):
            for c, val in zip(COLS[:-1], (f"im{image}", who, "", "", "", "", "")):
                out[c].append(val)
    return out


def _summary(res: Any, names: dict[str, str]) -> dict[str, Any]:
    def f(x: float) -> float | None:
        return None if np.isnan(x) else x

    c = res.ceiling
    return {"system": f(c.system_result.estimate),
            "humans": {names[h]: f(r.estimate) for h, r in c.humans.items()},
            "diff": {names[h]: (f(d.difference), f(d.interval.low), f(d.interval.high))
                     for h, d in c.comparisons.items()},
            "agreement": None if c.human_agreement is None else f(c.human_agreement.estimate),
            "outcome": c.outcome}


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)).flatmap(
    lambda wi: BOX.map(lambda b: (wi[0], wi[1], *b[1:]))), min_size=1, max_size=14),
    st.randoms(use_true_random=False))
def test_renaming_and_reordering_change_nothing(boxes: list[Any], rnd: Any) -> None:
    import warnings

    from accord.errors import DegenerateDataWarning

    kw: dict[str, Any] = {"reference": "gold", "system": "model", "n_resamples": 49, "rng": 5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        base = evaluate_boxes(_table(boxes), **kw)
        shuffled = list(boxes)
        rnd.shuffle(shuffled)
        again = evaluate_boxes(_table(shuffled), **kw)
        renamed_table = _table(boxes)
        rename = {"h1": "zz_last", "h2": "aa_first"}
        renamed_table["annotator"] = [rename.get(a, a) for a in renamed_table["annotator"]]
        renamed = evaluate_boxes(renamed_table, **kw)
    same = {h: h for h in ("h1", "h2")}
    back = {new: old for old, new in rename.items()}
    assert _summary(again, same) == _summary(base, same)
    assert _summary(renamed, back) == _summary(base, same)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)).flatmap(
    lambda wi: BOX.map(lambda b: (wi[0], wi[1], *b[1:]))), min_size=1, max_size=14),
    st.integers(2, 3))
def test_a_system_that_is_a_human_gets_that_humans_figure(boxes: list[Any], twin: int) -> None:
    import warnings

    from accord.errors import DegenerateDataWarning

    # the model's boxes are replaced by a copy of h1's (or h2's)
    copied = [b for b in boxes if b[0] != 1] + [(1, *b[1:]) for b in boxes if b[0] == twin]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = evaluate_boxes(_table(copied), reference="gold", system="model", n_resamples=49)
    c = res.ceiling
    assert c is not None
    human = c.humans[WHO[twin]]
    if human.defined:
        assert c.system_result.estimate == human.estimate
        d = c.comparisons[WHO[twin]]
        assert d.difference == 0.0 and d.interval.low == 0.0 and d.interval.high == 0.0
        assert c.outcome == "near"
    else:
        assert not c.system_result.defined
