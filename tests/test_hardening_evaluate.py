"""evaluate on hostile or unusual input: scikit-learn's averages, missing units, many classes.

Oracles: scikit-learn (``precision_recall_fscore_support`` with ``zero_division=np.nan``)
run in the test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import precision_recall_fscore_support

import accord
from accord.errors import DegenerateDataWarning


@pytest.mark.parametrize(("ref", "pred"), [
    (["a"], ["b"]),
    (["a", "a", "c"], ["b", "b", "b"]),
    (["a", "b", "a"], ["c", "c", "b"]),
])
def test_weighted_average_of_unpredicted_classes_is_scikit_learns(ref: list[str],
                                                                   pred: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ev = accord.evaluate(ref, pred)
        ml = accord.evaluate_multilabel([[x] for x in ref], [[x] for x in pred])
    want = precision_recall_fscore_support(ref, pred, average="weighted", zero_division=np.nan)
    for got, sk in zip((ev.weighted.precision, ev.weighted.recall, ev.weighted.f1), want):
        assert got.estimate == pytest.approx(sk, abs=1e-15, nan_ok=True)
    assert ev.weighted.precision.estimate == pytest.approx(
        ml.averages["weighted"]["precision"], abs=1e-15, nan_ok=True)

