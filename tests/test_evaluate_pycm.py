"""``accord.evaluate`` against pycm 4.6 (``ConfusionMatrix``), on pycm's own worked example
(its README: actual [2, 0, 2, 2, 0, 1, 1, 2, 2, 0, 1, 2], predicted [0, 0, 2, 1, 0, 2, 1,
0, 2, 0, 2, 2]) and on random data.

Conventions that match: per-class PPV (precision), TPR (recall), TNR (specificity), F1;
overall accuracy, Gorodkin's multiclass MCC (pycm's ``Overall_MCC``), Cohen's kappa,
macro TPR/F1/TNR and micro PPV/TNR. Where they differ: pycm reports the string
``"None"`` for a 0/0 precision and then ``None`` for the macro precision as a whole;
accord gives ``nan`` with a reason for the class and leaves it out of the macro average
(scikit-learn's ``zero_division=np.nan``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import accord

pycm = pytest.importorskip("pycm")

TOL = 1e-12
ACTUAL = [2, 0, 2, 2, 0, 1, 1, 2, 2, 0, 1, 2]
PREDICT = [0, 0, 2, 1, 0, 2, 1, 0, 2, 0, 2, 2]


def _check(actual: list[int], predict: list[int]) -> None:
    cm = pycm.ConfusionMatrix(actual_vector=actual, predict_vector=predict)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        ev = accord.evaluate(actual, predict)
    for label, row in ev.per_class.items():
        for ours, theirs in ((row.precision, cm.PPV[label]), (row.recall, cm.TPR[label]),
                             (row.specificity, cm.TNR[label]), (row.f1, cm.F1[label])):
            if theirs == "None":
                assert math.isnan(ours.estimate)
            else:
                assert ours.estimate == pytest.approx(theirs, abs=TOL)
    assert ev.accuracy.estimate == pytest.approx(cm.Overall_ACC, abs=TOL)
    assert ev.mcc.estimate == pytest.approx(cm.Overall_MCC, abs=TOL)
    assert ev.kappa.estimate == pytest.approx(cm.Kappa, abs=TOL)
    assert ev.macro.recall.estimate == pytest.approx(cm.TPR_Macro, abs=TOL)
    assert ev.macro.f1.estimate == pytest.approx(cm.F1_Macro, abs=TOL)
    assert ev.macro.specificity.estimate == pytest.approx(cm.TNR_Macro, abs=TOL)
    assert ev.micro.precision.estimate == pytest.approx(cm.PPV_Micro, abs=TOL)
    assert ev.micro.specificity.estimate == pytest.approx(cm.TNR_Micro, abs=TOL)
    if cm.PPV_Macro not in (None, "None"):
        assert ev.macro.precision.estimate == pytest.approx(cm.PPV_Macro, abs=TOL)


def test_pycm_worked_example() -> None:
    _check(ACTUAL, PREDICT)
    ev = accord.evaluate(ACTUAL, PREDICT)
    assert ev.per_class[1].precision.estimate == 0.5 and ev.per_class[0].recall.estimate == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_random_data_against_pycm(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k, n = 2 + seed % 4, 40 + 30 * seed
    actual = rng.integers(0, k, n)
    predict = np.where(rng.random(n) < 0.6, actual, rng.integers(0, k, n))
    _check(actual.tolist(), predict.tolist())


def test_where_pycm_differs_a_class_never_predicted() -> None:
    actual, predict = [0, 0, 1, 1, 2, 2], [0, 0, 1, 0, 1, 0]
    cm = pycm.ConfusionMatrix(actual_vector=actual, predict_vector=predict)
    assert cm.PPV[2] == "None" and cm.PPV_Macro in (None, "None")
    with pytest.warns(accord.DegenerateDataWarning, match="never predicted 2"):
        ev = accord.evaluate(actual, predict)
    assert math.isnan(ev.per_class[2].precision.estimate)
    assert ev.macro.precision.estimate == pytest.approx((0.5 + 0.5) / 2, abs=TOL)
    assert ev.macro.precision.details["left_out"] == [2]
    _check(actual, predict)
