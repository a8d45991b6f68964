"""evaluate_multilabel against scikit-learn's multilabel metrics on random indicator data
(``precision_recall_fscore_support`` with ``zero_division=np.nan``, ``hamming_loss``,
``accuracy_score``), scikit-learn being the definition the function follows."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import accord
from accord.errors import DegenerateDataWarning

sk = pytest.importorskip("sklearn.metrics")


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_equals_sklearn_on_random_indicator_data(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(5, 60)), int(rng.integers(2, 7))  # sklearn reads one column as binary
    t = (rng.random((n, k)) < rng.uniform(0.05, 0.6)).astype(int)
    p = (rng.random((n, k)) < rng.uniform(0.05, 0.6)).astype(int)
    if seed % 3 == 0:
        t[:, 0] = 0  # a label absent from the reference
        p[:, -1] = 0  # a label never predicted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ev = accord.evaluate_multilabel(t, p, labels=[f"l{j}" for j in range(k)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pr, rc, f1, sup = sk.precision_recall_fscore_support(t, p, zero_division=np.nan)
        for j in range(k):
            got = ev.per_label[f"l{j}"]
            assert same(got["precision"], pr[j]) and same(got["recall"], rc[j])
            assert same(got["f1"], f1[j]) and got["support"] == sup[j]
        for avg in ("micro", "macro", "weighted", "samples"):
            a = sk.precision_recall_fscore_support(t, p, average=avg, zero_division=np.nan)
            for key, want in zip(("precision", "recall", "f1"), a[:3]):
                assert same(ev.averages[avg][key], float(want)), (avg, key)
    assert ev.hamming_loss == pytest.approx(sk.hamming_loss(t, p), abs=1e-15)
    assert ev.subset_accuracy == pytest.approx(sk.accuracy_score(t, p), abs=1e-15)


def test_sets_and_indicator_arrays_agree() -> None:
    ref = [("a",), ("a", "b"), ("b",), (), ("c",)]
    pred = [("a",), ("a",), ("a", "b"), (), ("c", "b")]
    labels = ["a", "b", "c"]
    by_sets = accord.evaluate_multilabel(ref, pred)
    t = np.array([[x in s for x in labels] for s in ref], dtype=int)
    p = np.array([[x in s for x in labels] for s in pred], dtype=int)
    by_arrays = accord.evaluate_multilabel(t, p, labels=labels)
    assert by_sets.to_dict() == by_arrays.to_dict()


def test_missing_entries_are_left_out_and_counted() -> None:
    ev = accord.evaluate_multilabel(["a;b", None, "b", ""], ["a", "a", "b;a", "a"],
                                    separator=";")
    assert ev.n_units == 2 and ev.n_left_out == 2


def test_undefined_scores_warn_and_are_nan() -> None:
    with pytest.warns(DegenerateDataWarning, match="precision is undefined for label.*'z'"):
        ev = accord.evaluate_multilabel([("a",), ("z",)], [("a",), ("a",)])
    assert math.isnan(ev.per_label["z"]["precision"])
    assert ev.per_label["z"]["recall"] == 0.0
    assert ev.to_dict()["per_label"]["z"]["precision"] is None
