"""Calibration of a judge's probabilities against human labels.

Oracles, run here: scikit-learn ``brier_score_loss`` for the Brier score;
the ECE of Guo et al. (2017, eq. 3) written out bin by bin; scikit-learn
``IsotonicRegression(out_of_bounds="clip")`` fitted on the same split for the
isotonic map; statsmodels ``Logit`` for the Platt map; the jackknife SE of the ECE
recomputed by leaving each item out.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import DataError


def _data(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    s = rng.random(n)
    y = (rng.random(n) < s**1.7).astype(int)
    return np.round(s, 2), y  # rounding makes ties, which isotonic must pool


def _ece_by_hand(s: np.ndarray, y: np.ndarray, n_bins: int) -> float:
    total = 0.0
    for b in range(n_bins):
        lo, hi = b / n_bins, (b + 1) / n_bins
        inside = (s >= lo) & ((s < hi) if b < n_bins - 1 else (s <= hi))
        if inside.any():
            total += inside.sum() / s.size * abs(y[inside].mean() - s[inside].mean())
    return total


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_bins", [5, 10, 15])
def test_brier_and_ece_match_their_oracles(seed: int, n_bins: int) -> None:
    from sklearn.metrics import brier_score_loss

    s, y = _data(seed)
    cal = accord.judge_calibration(s, y, n_bins=n_bins, recalibrate=None)
    assert cal.brier.estimate == pytest.approx(brier_score_loss(y, s), abs=1e-15)
    assert cal.brier.se == pytest.approx(np.std((s - y) ** 2) / math.sqrt(s.size), rel=1e-12)
    assert cal.ece.estimate == pytest.approx(_ece_by_hand(s, y, n_bins), abs=1e-14)
    assert sum(b.n for b in cal.bins) == s.size


def test_ece_jackknife_se_matches_leaving_each_item_out() -> None:
    s, y = _data(3, n=60)
    cal = accord.judge_calibration(s, y, recalibrate=None)
    loo = np.array([_ece_by_hand(np.delete(s, i), np.delete(y, i), 10) for i in range(s.size)])
    n = s.size
    se = math.sqrt((n - 1) / n * np.sum((loo - loo.mean()) ** 2))
    assert cal.ece.se == pytest.approx(se, rel=1e-10)


@pytest.mark.parametrize("seed", [4, 5])
def test_isotonic_map_matches_scikit_learn_on_the_fit_split(seed: int) -> None:
    from sklearn.isotonic import IsotonicRegression
    from sklearn.metrics import brier_score_loss

    s, y = _data(seed)
    cal = accord.judge_calibration(s, y, rng=seed)
    rec = cal.recalibration
    assert rec is not None and rec.n_fit + rec.n_check == s.size
    order = np.random.default_rng(seed).permutation(s.size)
    fit, check = np.sort(order[: rec.n_fit]), np.sort(order[rec.n_fit:])
    assert not set(fit) & set(check)  # never scored on the items it was fitted on
    iso = IsotonicRegression(out_of_bounds="clip").fit(s[fit], y[fit])
    np.testing.assert_allclose(rec.apply(s[check]), iso.predict(s[check]), rtol=0, atol=1e-12)
    assert rec.brier_after.estimate == pytest.approx(
        brier_score_loss(y[check], iso.predict(s[check])), abs=1e-14)
    assert rec.brier_before.estimate == pytest.approx(brier_score_loss(y[check], s[check]))


def test_platt_map_matches_statsmodels_logit() -> None:
    import statsmodels.api as sm

    s, y = _data(6)
    cal = accord.judge_calibration(s, y, recalibrate="platt", rng=6)
    rec = cal.recalibration
    assert rec is not None
    order = np.random.default_rng(6).permutation(s.size)
    fit = np.sort(order[: rec.n_fit])
    ref = sm.Logit(y[fit], sm.add_constant(s[fit])).fit(disp=0, tol=1e-14)
    (a, b), = rec.knots
    assert (a, b) == pytest.approx(tuple(ref.params), rel=1e-9)


@given(st.integers(0, 10_000))
@settings(max_examples=20, deadline=None)
def test_item_order_does_not_matter_and_bounds_hold(seed: int) -> None:
    s, y = _data(seed, n=50)
    perm = np.random.default_rng(seed).permutation(50)
    a = accord.judge_calibration(s, y, recalibrate=None)
    b = accord.judge_calibration(s[perm], y[perm], recalibrate=None)
    assert a.brier.estimate == pytest.approx(b.brier.estimate, abs=1e-15)
    assert a.ece.estimate == pytest.approx(b.ece.estimate, abs=1e-15)
    assert 0 <= a.ece.estimate <= 1 and 0 <= a.brier.estimate <= 1


def test_bad_input() -> None:
    with pytest.raises(DataError, match="outside \\[0, 1\\]"):
        accord.judge_calibration([0.2, 1.3], [0, 1])
    with pytest.raises(DataError, match="not 0 or 1"):
        accord.judge_calibration([0.2, 0.3], [0, 2])
    with pytest.raises(DataError, match="one class only"):
        accord.judge_calibration([0.2, 0.3, 0.4, 0.5], [0, 0, 0, 0])
    with pytest.raises(DataError, match="2 scores and 3 human labels"):
        accord.judge_calibration([0.2, 0.3], [0, 1, 1])


def test_a_score_just_below_an_edge_stays_in_the_lower_bin() -> None:
    below = np.nextafter(0.9, 0.0)  # below * 10 rounds to 9.0 in floating point
    cal = accord.judge_calibration([below, 0.95, 0.1], [1, 1, 0], recalibrate=None)
    assert [b.n for b in cal.bins][8:] == [1, 1]
