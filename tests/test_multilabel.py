"""multilabel_agreement: per-label agreement, pooled and set-based summaries.

Oracles: scikit-learn's ``cohen_kappa_score`` on each label's presence columns and
on the stacked columns (pooled), ``jaccard_score``/``f1_score`` with
``average="samples"`` for the mean pairwise Jaccard and Dice of two raters, NLTK's
``AnnotationTask.alpha()`` on each label's yes/no ratings (per-label and
per-category alpha), and DKPro Agreement's SetAnnotationsTest (maximum-percentage
agreement 0.667).
"""

from __future__ import annotations

import math
import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError, DegenerateDataWarning

sk = pytest.importorskip("sklearn.metrics")
nltk_agreement = pytest.importorskip("nltk.metrics.agreement")

LABELS = ("a", "b", "c", "d")
DKPRO = [
    [(), ()], [("A",), ()], [("A",), ("A",)], [("A",), ("B",)], [("A", "B"), ("A",)],
    [("A", "B"), ("A", "C")], [("A", "B", "C"), ("A", "B", "C")], [("C",), ("A", "C")],
    [("C",), ("A", "C")],
]


def random_rows(seed: int, n: int, raters: int, *, missing: float = 0.0) -> list[list[Any]]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        truth = set(rng.sample(LABELS, rng.randint(1, 2)))
        row: list[Any] = []
        for _ in range(raters):
            if rng.random() < missing:
                row.append(None)
                continue
            s = set(truth)
            if rng.random() < 0.4:
                s ^= {rng.choice(LABELS)}
            row.append(tuple(sorted(s)))
        rows.append(row)
    return rows


def indicator(rows: list[list[Any]], rater: int) -> np.ndarray:
    return np.array([[x in row[rater] for x in LABELS] for row in rows], dtype=int)


@pytest.mark.parametrize("seed", range(5))
def test_per_label_and_pooled_cohen_kappa_equal_sklearn(seed: int) -> None:
    rows = random_rows(seed, 60, 2)
    res = accord.multilabel_agreement(rows, coefficient="cohen_kappa")
    y1, y2 = indicator(rows, 0), indicator(rows, 1)
    assert res.labels == LABELS
    for j, label in enumerate(LABELS):
        assert res.per_label[label].estimate == pytest.approx(
            sk.cohen_kappa_score(y1[:, j], y2[:, j]), abs=1e-12)
    assert res.pooled.estimate == pytest.approx(
        sk.cohen_kappa_score(y1.ravel(), y2.ravel()), abs=1e-12)
    assert res.macro == pytest.approx(np.mean([r.estimate for r in res.per_label.values()]))


@pytest.mark.parametrize("seed", range(4))
def test_mean_jaccard_and_dice_equal_sklearn_samples_averages(seed: int) -> None:
    rows = random_rows(seed, 50, 2)
    res = accord.multilabel_agreement(rows, coefficient="cohen_kappa")
    y1, y2 = indicator(rows, 0), indicator(rows, 1)
    assert res.mean_jaccard.estimate == pytest.approx(
        sk.jaccard_score(y1, y2, average="samples", zero_division=1.0), abs=1e-12)
    assert res.mean_dice.estimate == pytest.approx(
        sk.f1_score(y1, y2, average="samples", zero_division=1.0), abs=1e-12)


def nltk_binary_alpha(rows: list[list[Any]], label: str) -> float:
    data = [(f"r{j}", f"u{i}", int(label in cell)) for i, row in enumerate(rows)
            for j, cell in enumerate(row) if cell is not None]
    return float(nltk_agreement.AnnotationTask(data=data).alpha())


@pytest.mark.parametrize("seed", range(4))
def test_per_label_alpha_with_missing_ratings_equals_nltk(seed: int) -> None:
    rows = random_rows(seed, 40, 3, missing=0.25)
    res = accord.multilabel_agreement(rows)
    for label in LABELS:
        assert res.per_label[label].estimate == pytest.approx(nltk_binary_alpha(rows, label),
                                                              abs=1e-12)
    # the raw-data path gives the same alpha and SE as the bit-count path
    x = np.array([[np.nan if c is None else float("a" in c) for c in row] for row in rows])
    direct = accord.krippendorff_alpha(x)
    assert res.per_label["a"].estimate == pytest.approx(direct.estimate, abs=1e-12)
    assert res.per_label["a"].se == pytest.approx(direct.se, abs=1e-12)


@pytest.mark.parametrize("name", ["fleiss_kappa", "gwet_ac1", "conger_kappa", "light_kappa",
                                  "percent_agreement", "brennan_prediger"])
def test_any_many_rater_coefficient_equals_it_on_the_label_columns(name: str) -> None:
    rows = random_rows(7, 40, 3)
    res = accord.multilabel_agreement(rows, coefficient=name)
    func = accord.REGISTRY[name].function
    for label in LABELS:
        x = np.array([[int(label in c) for c in row] for row in rows])
        assert res.per_label[label].estimate == pytest.approx(func(x).estimate, abs=1e-12)
    stacked = np.concatenate([np.array([[int(label in c) for c in row] for row in rows])
                              for label in LABELS])
    assert res.pooled.estimate == pytest.approx(func(stacked).estimate, abs=1e-12)


def test_dkpro_max_percentage_and_intervals() -> None:
    res = accord.multilabel_agreement(DKPRO, coefficient="cohen_kappa")
    assert res.max_percentage.estimate == pytest.approx(6 / 9, abs=1e-12)  # DKPro: 0.667
    ci = res.per_label["C"].confidence_interval()
    assert ci.low < res.per_label["C"].estimate < ci.high
    assert res.masi_alpha is not None
    assert res.masi_alpha.estimate == pytest.approx(
        accord.krippendorff_alpha(DKPRO, level="masi").estimate, abs=1e-15)
    out = res.to_dict()
    assert out["per_label"]["A"]["estimate"] == res.per_label["A"].estimate


def test_single_label_data_give_each_category_against_the_rest() -> None:
    data = accord.datasets.load("krippendorff_2011").data
    res = accord.multilabel_agreement(data)
    rows = [[None if c is None or (isinstance(c, float) and math.isnan(c)) else (c,)
             for c in row] for row in data]
    for label in res.labels:
        assert res.per_label[label].estimate == pytest.approx(nltk_binary_alpha(rows, label),
                                                              abs=1e-12)
    # one-label sets: MASI and Jaccard distances are the nominal difference
    assert res.masi_alpha is not None
    assert res.masi_alpha.estimate == pytest.approx(
        accord.krippendorff_alpha(data).estimate, abs=1e-12)


def test_a_label_nobody_used_is_undefined_and_left_out_of_macro() -> None:
    rows = random_rows(1, 30, 2)
    with pytest.warns(DegenerateDataWarning, match="'z'"):
        res = accord.multilabel_agreement(rows, coefficient="cohen_kappa",
                                          labels=[*LABELS, "z"])
    assert math.isnan(res.per_label["z"].estimate)
    assert res.per_label["z"].undefined_reason
    assert res.macro_left_out == ("z",)
    assert res.macro == pytest.approx(np.mean([res.per_label[x].estimate for x in LABELS]))


def test_bad_arguments() -> None:
    rows = random_rows(1, 10, 3)
    with pytest.raises(DataError, match="two raters"):
        accord.multilabel_agreement(rows, coefficient="cohen_kappa")
    with pytest.raises(accord.errors.InvalidParameterError, match="coefficient"):
        accord.multilabel_agreement(rows, coefficient="kappa")
    with pytest.raises(DataError, match="not one of the declared labels"):
        accord.multilabel_agreement(rows, labels=["a"])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_rater_order_and_label_names_do_not_matter(seed: int) -> None:
    rows = random_rows(seed, 15, 3, missing=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        try:
            res = accord.multilabel_agreement(rows)
        except accord.errors.InsufficientDataError:
            return
        swapped = accord.multilabel_agreement([row[::-1] for row in rows])
        renamed = accord.multilabel_agreement(
            [[None if c is None else tuple(x.upper() for x in c) for c in row] for row in rows])
    for label in res.labels:
        a = res.per_label[label].estimate
        for b in (swapped.per_label[label].estimate, renamed.per_label[label.upper()].estimate):
            assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)
    assert 0.0 <= res.mean_jaccard.estimate <= res.mean_dice.estimate <= 1.0


def test_one_set_everywhere_leaves_every_figure_undefined_with_warnings() -> None:
    rows = [[("a",), ("a",)], [("a",), ("a",)], [("a",), ("a",)]]
    with pytest.warns(DegenerateDataWarning) as caught:
        res = accord.multilabel_agreement(rows)
    messages = " ".join(str(w.message) for w in caught)
    assert "pooled" in messages and "masi_alpha" in messages
    assert math.isnan(res.macro) and math.isnan(res.pooled.estimate)
    assert res.masi_alpha is not None and math.isnan(res.masi_alpha.estimate)
    assert res.mean_jaccard.estimate == 1.0 and res.max_percentage.estimate == 1.0


def test_numpy_labels_become_plain_labels() -> None:
    res = accord.multilabel_agreement(np.array([[1, 2], [2, 2], [1, 1], [2, 1]]))
    assert res.labels == (1, 2) and all(type(x) is int for x in res.labels)


def test_many_raters_each_rating_a_few_units() -> None:
    """Crowd layout: 200 raters, 3 ratings per unit; the long-code counts equal alpha on the
    dense per-label matrix."""
    rng = np.random.default_rng(5)
    rows = []
    for u in range(120):
        for r in rng.choice(200, size=3, replace=False):
            k = int(rng.integers(1, 3))
            for x in rng.choice(list(LABELS), size=k, replace=False):
                rows.append((u, int(r), str(x)))
    ann = accord.Annotations.from_long(rows, unit=0, rater=1, value=2, multilabel=True)
    res = accord.multilabel_agreement(ann)
    dense = np.full((ann.n_units, ann.n_raters), np.nan)
    for u, r, cell in ann.records():
        dense[ann.units.index(u), ann.raters.index(r)] = float("b" in cell)
    assert res.per_label["b"].estimate == pytest.approx(
        accord.krippendorff_alpha(dense).estimate, abs=1e-12)
    assert 0.0 < res.max_percentage.estimate < 1.0


def test_ratio_figures_have_the_ratio_estimator_se_and_resample_by_unit() -> None:
    """The linearised SE of a ratio estimator equals the jackknife SE to first order; here
    checked against a direct computation over units and the jackknife interval's width."""
    rows = random_rows(3, 80, 3, missing=0.2)
    res = accord.multilabel_agreement(rows)
    x, y = [], []
    for row in rows:
        sets = [set(c) for c in row if c is not None]
        pairs = [(a, b) for i, a in enumerate(sets) for b in sets[i + 1:]]
        if pairs:
            x.append(sum(len(a & b) / len(a | b) if a | b else 1.0 for a, b in pairs))
            y.append(len(pairs))
    xs, ys = np.array(x), np.array(y)
    est = xs.sum() / ys.sum()
    n = len(xs)
    se = math.sqrt(n / (n - 1) * ((xs - est * ys) ** 2).sum()) / ys.sum()
    assert res.mean_jaccard.estimate == pytest.approx(est, abs=1e-12)
    assert res.mean_jaccard.se == pytest.approx(se, abs=1e-12)
    jk = res.mean_jaccard.confidence_interval(method="jackknife")
    asy = res.mean_jaccard.confidence_interval()
    assert (jk.high - jk.low) == pytest.approx(asy.high - asy.low, rel=0.1)
    boot = res.max_percentage.confidence_interval(method=accord.Bootstrap(n_resamples=300,
                                                                          rng=1))
    assert boot.low <= res.max_percentage.estimate <= boot.high
