"""``accord.evaluate``: a system against reference labels.

Checked against scikit-learn 1.9.1 (``precision_recall_fscore_support``,
``classification_report``, ``confusion_matrix``, ``multilabel_confusion_matrix``,
``matthews_corrcoef``, ``balanced_accuracy_score``, ``cohen_kappa_score``) on
random data to 1e-12, wherever both define the figure: scikit-learn's
``zero_division=np.nan`` is accord's convention (0/0 is ``nan`` and is left out
of the averages); its default (``"warn"``) reports 0 instead. Wilson intervals
against statsmodels 0.15.0 ``proportion_confint(method="wilson")``.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm
from statsmodels.stats.proportion import proportion_confint

import accord
from accord.evaluation import Evaluation

TOL = 1e-12


def _quiet(*args: Any, **kwargs: Any) -> Evaluation:
    """evaluate() with its DegenerateDataWarning (if any) recorded, not raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        return accord.evaluate(*args, **kwargs)


def _random(seed: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    noise = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, gold, noise)
    return gold, pred


CASES = [(seed, k, n) for seed, (k, n) in enumerate([(2, 40), (3, 100), (5, 300), (8, 500),
                                                        (4, 7), (12, 200), (2, 1000)])]


# --------------------------------------------------------------------------- scikit-learn
@pytest.mark.parametrize(("seed", "k", "n"), CASES)
def test_per_class_and_averages_match_scikit_learn(seed: int, k: int, n: int) -> None:
    gold, pred = _random(seed, k, n)
    labels = list(range(k))
    ev = _quiet(gold, pred, categories=labels)
    np.testing.assert_array_equal(ev.table.counts, skm.confusion_matrix(gold, pred, labels=labels))
    p, r, f, s = skm.precision_recall_fscore_support(gold, pred, labels=labels,
                                                     zero_division=np.nan)
    mcm = skm.multilabel_confusion_matrix(gold, pred, labels=labels)
    for i, label in enumerate(labels):
        row = ev.per_class[label]
        for ours, theirs in ((row.precision, p[i]), (row.recall, r[i]), (row.f1, f[i])):
            assert ours.estimate == pytest.approx(theirs, abs=TOL, nan_ok=True)
        tn, fp, fn, tp = mcm[i].ravel()
        assert (row.tp, row.fp, row.fn, row.tn, row.support) == (tp, fp, fn, tn, s[i])
        spec = tn / (tn + fp) if tn + fp else math.nan
        assert row.specificity.estimate == pytest.approx(spec, abs=TOL, nan_ok=True)
    for average in ("macro", "micro", "weighted"):
        p, r, f, _ = skm.precision_recall_fscore_support(gold, pred, labels=labels,
                                                         average=average, zero_division=np.nan)
        avg = getattr(ev, average)
        assert avg.precision.estimate == pytest.approx(p, abs=TOL)
        assert avg.recall.estimate == pytest.approx(r, abs=TOL)
        assert avg.f1.estimate == pytest.approx(f, abs=TOL)


@pytest.mark.parametrize(("seed", "k", "n"), CASES)
def test_summary_figures_match_scikit_learn(seed: int, k: int, n: int) -> None:
    gold, pred = _random(seed, k, n)
    ev = _quiet(gold, pred)
    assert ev.accuracy.estimate == pytest.approx(skm.accuracy_score(gold, pred), abs=TOL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns when a predicted class is not in y_true
        bal = skm.balanced_accuracy_score(gold, pred)
    assert ev.balanced_accuracy.estimate == pytest.approx(bal, abs=TOL)
    assert ev.mcc.estimate == pytest.approx(skm.matthews_corrcoef(gold, pred), abs=TOL)
    assert ev.kappa.estimate == pytest.approx(skm.cohen_kappa_score(gold, pred), abs=TOL)
    assert ev.kappa.observed == pytest.approx(ev.accuracy.estimate, abs=TOL)
    assert ev.baselines.chance_accuracy == pytest.approx(ev.kappa.expected, abs=TOL)


def test_classification_report_text_labels() -> None:
    rng = np.random.default_rng(11)
    names = np.array(["negative", "neutral", "positive"])
    gold, pred = names[rng.integers(0, 3, 150)], names[rng.integers(0, 3, 150)]
    ev = _quiet(list(gold), list(pred))
    report = skm.classification_report(gold, pred, output_dict=True, zero_division=np.nan)
    for label in names:
        for ours, theirs in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score")):
            assert getattr(ev.per_class[label], ours).estimate == pytest.approx(
                report[label][theirs], abs=TOL)
        assert ev.per_class[label].support == report[label]["support"]
    assert ev.macro.f1.estimate == pytest.approx(report["macro avg"]["f1-score"], abs=TOL)
    assert ev.weighted.recall.estimate == pytest.approx(report["weighted avg"]["recall"], abs=TOL)
    assert ev.accuracy.estimate == pytest.approx(report["accuracy"], abs=TOL)


def test_sample_weights_match_scikit_learn() -> None:
    gold, pred = _random(5, 4, 200)
    w = np.random.default_rng(3).uniform(0.2, 3.0, 200)
    ev = _quiet(gold, pred, sample_weight=w)
    p, r, f, _ = skm.precision_recall_fscore_support(gold, pred, sample_weight=w,
                                                     average="macro", zero_division=np.nan)
    assert (ev.macro.precision.estimate, ev.macro.recall.estimate, ev.macro.f1.estimate) == (
        pytest.approx(p, abs=TOL), pytest.approx(r, abs=TOL), pytest.approx(f, abs=TOL))
    assert ev.mcc.estimate == pytest.approx(skm.matthews_corrcoef(gold, pred, sample_weight=w),
                                            abs=TOL)
    assert ev.accuracy.estimate == pytest.approx(skm.accuracy_score(gold, pred, sample_weight=w),
                                                 abs=TOL)
    assert ev.per_class[0].support == int(np.sum(gold == 0))  # units, not weights


def test_weighted_kappa_on_an_ordinal_scale_matches_scikit_learn() -> None:
    gold, pred = _random(8, 5, 300)
    ev = _quiet(gold, pred, level="ordinal")
    assert ev.kappa.estimate == pytest.approx(
        skm.cohen_kappa_score(gold, pred, weights="quadratic"), abs=TOL)
    linear = _quiet(gold, pred, weights="linear")
    assert linear.kappa.estimate == pytest.approx(
        skm.cohen_kappa_score(gold, pred, weights="linear"), abs=TOL)


def test_binary_positive_class_matches_scikit_learn_binary_average() -> None:
    gold, pred = _random(2, 2, 120)
    ev = _quiet(["yes" if g else "no" for g in gold], ["yes" if p else "no" for p in pred],
                positive="yes")
    assert ev.positive == "yes"
    row = ev.per_class["yes"]
    assert row.f1.estimate == pytest.approx(skm.f1_score(gold, pred), abs=TOL)
    assert row.precision.estimate == pytest.approx(skm.precision_score(gold, pred), abs=TOL)
    assert row.recall.estimate == pytest.approx(skm.recall_score(gold, pred), abs=TOL)


# --------------------------------------------------------------------------- undefined
def test_a_class_never_predicted_has_undefined_precision_where_sklearn_says_0() -> None:
    gold = ["a", "a", "b", "b", "c", "c"]
    pred = ["a", "a", "b", "a", "b", "a"]
    with pytest.warns(accord.DegenerateDataWarning, match="never predicted 'c'") as rec:
        ev = accord.evaluate(gold, pred)
    assert len(rec) == 1
    prec = ev.per_class["c"].precision
    assert math.isnan(prec.estimate) and "never predicted 'c'" in (prec.undefined_reason or "")
    assert ev.per_class["c"].f1.estimate == 0.0  # 2TP / (2TP + FP + FN) = 0 / 2: defined
    with pytest.warns(skm._classification.UndefinedMetricWarning):
        assert skm.precision_score(gold, pred, labels=["c"], average=None)[0] == 0.0
    # the macro precision leaves "c" out, as sklearn's zero_division=np.nan does
    assert ev.macro.precision.details["left_out"] == ["c"]
    assert ev.macro.precision.estimate == pytest.approx(skm.precision_score(
        gold, pred, average="macro", zero_division=np.nan), abs=TOL)
    assert ev.to_dict()["per_class"]["c"]["precision"]["estimate"] is None


def test_a_declared_class_absent_from_both_sides_is_left_out_of_the_macro_f1() -> None:
    with pytest.warns(accord.DegenerateDataWarning, match="occurs in neither"):
        ev = accord.evaluate(["a", "b", "a"], ["a", "b", "b"], categories=["a", "b", "c"])
    assert math.isnan(ev.per_class["c"].f1.estimate)
    assert ev.macro.f1.details["n_left_out"] == 1
    assert ev.macro.f1.estimate == pytest.approx((2 / 3 + 2 / 3) / 2, abs=TOL)


def test_mcc_is_undefined_when_one_side_uses_one_class() -> None:
    with pytest.warns(accord.DegenerateDataWarning, match="mcc"):
        ev = accord.evaluate([0, 1, 0, 1], [1, 1, 1, 1])
    assert math.isnan(ev.mcc.estimate)
    assert skm.matthews_corrcoef([0, 1, 0, 1], [1, 1, 1, 1]) == 0.0  # sklearn's convention


def test_a_defined_evaluation_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        accord.evaluate(["a", "b", "a", "b"], ["a", "b", "b", "b"])


# --------------------------------------------------------------------------- Wilson
@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_wilson_intervals_match_statsmodels(level: float) -> None:
    gold, pred = _random(4, 3, 90)
    ev = _quiet(gold, pred)
    n, correct = ev.table.n, ev.table.diagonal.sum()
    ci = ev.accuracy.confidence_interval(level)
    low, high = proportion_confint(correct, n, alpha=1 - level, method="wilson")
    assert (ci.low, ci.high, ci.method) == (pytest.approx(low, abs=TOL),
                                            pytest.approx(high, abs=TOL), "wilson")
    row = ev.per_class[1]
    for res, x, m in ((row.precision, row.tp, row.tp + row.fp), (row.recall, row.tp, row.support),
                      (row.specificity, row.tn, row.tn + row.fp)):
        ci = res.confidence_interval(level)
        low, high = proportion_confint(x, m, alpha=1 - level, method="wilson")
        assert (ci.low, ci.high) == (pytest.approx(low, abs=TOL), pytest.approx(high, abs=TOL))


# --------------------------------------------------------------------------- bootstrap
def test_default_intervals_share_one_bootstrap_equal_to_each_figures_own() -> None:
    gold, pred = _random(6, 3, 150)
    ev = _quiet(gold, pred)
    boot = accord.Bootstrap(n_resamples=999, rng=4)
    shared = ev.intervals(0.9, method=boot)
    for key in ("macro.f1", "mcc", "balanced_accuracy", "weighted.precision",
                "per_class.2.f1", "accuracy"):
        own = ev.results()[key].confidence_interval(0.9, method=boot)
        assert (shared[key].low, shared[key].high) == (pytest.approx(own.low, abs=TOL),
                                                      pytest.approx(own.high, abs=TOL))
    default = ev.intervals()
    assert default["accuracy"].method == "wilson"
    assert default["macro.f1"].method == "bootstrap-percentile"
    assert default["macro.f1"].low < ev.macro.f1.estimate < default["macro.f1"].high


def test_bootstrap_of_macro_f1_over_cells_equals_recounting_units() -> None:
    """The multinomial over the k x k cells gives the same replicate as recounting the units."""
    gold, pred = _random(9, 4, 60)
    ev = _quiet(gold, pred)
    resampling = ev.macro.f1.resampling()  # type: ignore[misc]
    rng = np.random.default_rng(1)
    idx = rng.integers(0, 60, 60)
    patterns = resampling.unit_patterns
    weights = np.bincount(patterns[idx], minlength=resampling.counts.shape[0])[None, :]
    ours = resampling.evaluate(weights)[0]
    theirs = skm.f1_score(gold[idx], pred[idx], labels=list(range(4)), average="macro",
                          zero_division=np.nan)
    assert ours == pytest.approx(theirs, abs=TOL)


def test_jackknife_se_gives_an_asymptotic_interval_for_f1() -> None:
    gold, pred = _random(1, 3, 200)
    ev = _quiet(gold, pred)
    res = ev.macro.f1
    assert res.details["se_method"] == "jackknife"
    se, _ = accord.inference.jackknife.jackknife_se(res.resampling())  # type: ignore[misc]
    assert res.se == pytest.approx(se, abs=TOL)
    ci = res.confidence_interval()
    assert ci.low < res.estimate < ci.high


# --------------------------------------------------------------------------- entry points
def test_table_and_labels_give_the_same_evaluation() -> None:
    gold, pred = _random(3, 4, 100)
    a = _quiet(gold, pred)
    b = _quiet(accord.ContingencyTable(a.table.counts, a.table.categories))
    for key, res in a.results().items():
        assert b.results()[key].estimate == pytest.approx(res.estimate, abs=TOL, nan_ok=True)


def test_missing_labels_are_counted_not_dropped_silently() -> None:
    gold = ["a", None, "b", "a", "b", float("nan")]
    pred = ["a", "b", None, "a", "b", "b"]
    ev = accord.evaluate(gold, pred)
    assert (ev.n_units, ev.n_unreferenced, ev.n_unpredicted) == (3, 2, 1)
    assert any("2 unit(s) without a reference label (from gold)" in n for n in ev.notes)
    assert ev.to_dict()["n_unreferenced"] == 2


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    ((["a", "b"], ["a"]), {}, "same length"),
    ((["a", "b"], ["a", "z"]), {"categories": ["a", "b"]}, "outside the declared categories"),
    (([None, None], ["a", "b"]), {}, "no unit has both"),
    ((["a", "b"], ["a", "b"]), {"positive": "c"}, "positive"),
    ((["a", "b"],), {}, "predicted"),
])
def test_bad_input_is_one_sentence(args: tuple[Any, ...], kwargs: dict[str, Any],
                                   match: str) -> None:
    with pytest.raises(accord.AccordError, match=match):
        accord.evaluate(*args, **kwargs)


# --------------------------------------------------------------------------- properties
@st.composite
def labelled(draw: Any) -> tuple[list[int], list[int]]:
    k = draw(st.integers(2, 5))
    rows = draw(st.lists(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1), st.booleans()),
                         min_size=2, max_size=60))
    return [g for g, _, _ in rows], [g if same else p for g, p, same in rows]


@given(labelled())
def test_micro_f1_equals_accuracy(data: tuple[list[int], list[int]]) -> None:
    ev = _quiet(*data)
    for fig in ("precision", "recall", "f1"):
        assert getattr(ev.micro, fig).estimate == pytest.approx(ev.accuracy.estimate, abs=TOL)


@given(labelled(), st.permutations(["x", "y", "z", "u", "v"]))
def test_every_figure_is_invariant_under_renaming_the_labels(
        data: tuple[list[int], list[int]], names: list[str]) -> None:
    gold, pred = data
    ev = _quiet(gold, pred)
    renamed = _quiet([names[g] for g in gold], [names[p] for p in pred])
    for key in ("accuracy", "balanced_accuracy", "mcc", "kappa", "macro.f1", "weighted.recall",
                "macro.precision", "micro.specificity", "weighted.specificity"):
        a, b = ev.results()[key], renamed.results()[key]
        assert a.estimate == pytest.approx(b.estimate, abs=TOL, nan_ok=True)
    for label, row in ev.per_class.items():
        other = renamed.per_class[names[label]]
        for fig in ("precision", "recall", "f1", "specificity"):
            assert getattr(row, fig).estimate == pytest.approx(
                getattr(other, fig).estimate, abs=TOL, nan_ok=True)


@given(labelled())
def test_swapping_reference_and_system_swaps_precision_and_recall(
        data: tuple[list[int], list[int]]) -> None:
    gold, pred = data
    ev, swapped = _quiet(gold, pred), _quiet(pred, gold)
    for label, row in ev.per_class.items():
        assert row.precision.estimate == pytest.approx(
            swapped.per_class[label].recall.estimate, abs=TOL, nan_ok=True)
        assert row.f1.estimate == pytest.approx(swapped.per_class[label].f1.estimate, abs=TOL,
                                                nan_ok=True)
    assert ev.macro.precision.estimate == pytest.approx(swapped.macro.recall.estimate, abs=TOL,
                                                        nan_ok=True)
    assert ev.mcc.estimate == pytest.approx(swapped.mcc.estimate, abs=TOL, nan_ok=True)


@given(st.lists(st.integers(0, 3), min_size=2, max_size=40))
def test_perfect_predictions_score_one(gold: list[int]) -> None:
    ev = _quiet(gold, gold)
    assert ev.accuracy.estimate == 1.0 and ev.macro.f1.estimate == pytest.approx(1.0)
    if len(set(gold)) > 1:
        assert ev.mcc.estimate == pytest.approx(1.0, abs=TOL)


# --------------------------------------------------------------------------- registry entries
@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
@pytest.mark.parametrize("name", ["precision", "recall", "f1"])
def test_registered_averages_match_scikit_learn(name: str, average: str) -> None:
    gold, pred = _random(12, 4, 250)
    ours = getattr(accord, name)(gold, pred, average=average)
    sk = {"precision": skm.precision_score, "recall": skm.recall_score, "f1": skm.f1_score}[name]
    assert ours.coefficient == name and ours.details["average"] == average
    assert ours.estimate == pytest.approx(sk(gold, pred, average=average, zero_division=np.nan),
                                          abs=TOL)


def test_registered_binary_figures_and_summaries_match_scikit_learn() -> None:
    gold, pred = _random(13, 2, 120)
    for name, sk in (("precision", skm.precision_score), ("recall", skm.recall_score),
                     ("f1", skm.f1_score)):
        res = getattr(accord, name)(gold, pred, positive=1)
        assert res.details["average"] == "binary" and res.details["positive"] == 1
        assert res.estimate == pytest.approx(sk(gold, pred, pos_label=1), abs=TOL)
    assert accord.accuracy(gold, pred).estimate == pytest.approx(skm.accuracy_score(gold, pred))
    assert accord.mcc(gold, pred).estimate == pytest.approx(skm.matthews_corrcoef(gold, pred),
                                                            abs=TOL)
    assert accord.balanced_accuracy(gold, pred).estimate == pytest.approx(
        skm.balanced_accuracy_score(gold, pred), abs=TOL)


def test_registered_figures_equal_the_evaluation() -> None:
    gold, pred = _random(14, 3, 90)
    ev = _quiet(gold, pred)
    assert accord.f1(gold, pred).estimate == ev.macro.f1.estimate
    assert accord.f1(gold, pred).se == ev.macro.f1.se
    assert accord.recall(gold, pred, average="weighted").estimate == ev.weighted.recall.estimate
    assert accord.precision(gold, pred, positive=2).estimate == ev.per_class[2].precision.estimate
    assert accord.mcc(gold, pred).estimate == ev.mcc.estimate


def test_the_gold_rater_of_two_annotations_is_the_reference() -> None:
    ann = accord.Annotations.from_wide({"model": ["a", "a", "b", "b"],
                                        "truth": ["a", "b", "b", "b"]})
    ann.kinds["truth"] = "gold"
    # rows = truth: precision of "a" is 1/2 (model said "a" twice, once right)
    assert accord.precision(ann, positive="a").estimate == 0.5
    assert accord.recall(ann, positive="a").estimate == 1.0
    assert accord.precision(ann, positive="a", raters=["model", "truth"]).estimate == 1.0


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"average": "mean"}, "'average' parameter of f1 must be one of"),
    ({"average": "binary"}, "'positive' parameter of f1"),
    ({"average": "macro", "positive": "a"}, "'average' parameter of f1"),
    ({"positive": "z"}, "one of the classes"),
])
def test_registered_options_are_validated(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(accord.AccordError, match=match):
        accord.f1(["a", "b"], ["a", "b"], **kwargs)


def test_kappa_in_the_shared_bootstrap_equals_its_own_bootstrap() -> None:
    gold, pred = _random(21, 4, 200)
    ev = _quiet(gold, pred)
    boot = accord.Bootstrap(n_resamples=999, rng=3)
    for kind in ("percentile", "bca"):
        b = accord.Bootstrap(n_resamples=999, rng=3, kind=kind)  # type: ignore[arg-type]
        shared = ev.intervals(0.95, method=b)["kappa"]
        own = ev.kappa.confidence_interval(0.95, method=b)
        assert (shared.low, shared.high) == (pytest.approx(own.low, abs=TOL),
                                            pytest.approx(own.high, abs=TOL))
    weighted = _quiet(gold, pred, level="ordinal")
    assert weighted.intervals(0.95, method=boot)["kappa"].low == pytest.approx(
        weighted.kappa.confidence_interval(0.95, method=boot).low, abs=TOL)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_integer_labels_take_the_counting_fast_path_with_the_same_answer(dtype: Any) -> None:
    gold, pred = _random(22, 5, 300)
    fast = _quiet(gold.astype(dtype), pred.astype(dtype))
    slow = _quiet([str(g) for g in gold], [str(p) for p in pred])
    assert fast.macro.f1.estimate == pytest.approx(slow.macro.f1.estimate, abs=TOL)
    assert fast.table.categories == tuple(range(5))
    negative = _quiet(gold - 2, pred - 2)  # negative labels go the general way
    assert negative.table.categories == tuple(range(-2, 3))
    assert negative.mcc.estimate == pytest.approx(skm.matthews_corrcoef(gold - 2, pred - 2),
                                                  abs=TOL)


def test_the_default_intervals_fall_back_when_the_bootstrap_would_be_huge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from accord.evaluation import _intervals

    gold, pred = _random(23, 3, 100)
    ev = _quiet(gold, pred)
    monkeypatch.setattr(_intervals, "DEFAULT_DRAW_BUDGET", 10)
    cis = ev.intervals()
    assert cis["macro.f1"].method == "asymptotic" and cis["accuracy"].method == "wilson"
    assert ev.intervals(method=accord.Bootstrap(n_resamples=50, rng=0))[
        "macro.f1"].method == "bootstrap-percentile"


@given(labelled())
def test_one_warning_exactly_when_some_figure_is_undefined(
        data: tuple[list[int], list[int]]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = accord.evaluate(*data)
    undefined = [k for k, r in ev.results().items() if not r.defined]
    assert all(issubclass(w.category, accord.DegenerateDataWarning) for w in caught)
    assert len(caught) == (1 if undefined else 0)
    for key in undefined:
        res = ev.results()[key]
        assert math.isnan(res.estimate) and res.undefined_reason
        assert key in str(caught[0].message) or "more" in str(caught[0].message)
    out = ev.to_dict(method="asymptotic")
    assert all(out[k]["estimate"] is None for k in ("accuracy", "mcc", "kappa")
               if k in undefined)
