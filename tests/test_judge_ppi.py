"""Prediction-powered inference for a mean.

Oracles, run here: ppi_python 0.2 (the authors' package) ``ppi_mean_pointestimate`` and
``ppi_mean_ci`` with ``lam=1`` (PPI, Angelopoulos et al. 2023, Science) and with its
own power tuning (``lam=None``, PPI++); the closed form of the paper's mean example
computed by hand. Coverage: at least 93% of nominal 95% intervals cover the true mean
over 1,000 simulated data sets (slow lane), and a small version in the default run.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import accord
from accord.errors import DataError, InsufficientDataError, InvalidParameterError


def _sets(seed: int, n: int = 200, big_n: int = 2000, p: float = 0.3, flip: float = 0.15
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Human pass labels with prevalence p; the judge flips a share of them, leaning to pass."""
    rng = np.random.default_rng(seed)
    y_all = (rng.random(n + big_n) < p).astype(float)
    judge = np.where(rng.random(n + big_n) < flip, 1.0, y_all)
    return judge[n:], judge[:n], y_all[:n]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_matches_ppi_python(seed: int, level: float) -> None:
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

    f_unl, f_lab, y = _sets(seed)
    for lam in (1.0, "tuned"):
        est = accord.ppi_mean(f_unl, f_lab, y, lam=lam)
        ref_lam = 1 if lam == 1.0 else None
        point = ppi_mean_pointestimate(y, f_lab, f_unl, lam=ref_lam)
        low, high = ppi_mean_ci(y, f_lab, f_unl, alpha=1 - level, lam=ref_lam)
        assert est.estimate == pytest.approx(float(np.ravel(point)[0]), abs=1e-14)
        ci = est.confidence_interval(level)
        assert (ci.low, ci.high) == pytest.approx(
            (float(np.ravel(low)[0]), float(np.ravel(high)[0])), abs=1e-14)


def test_closed_form_by_hand() -> None:
    f_unl = [1, 1, 0, 1, 1, 0, 1, 1]
    f_lab, y = [1, 0, 1, 1], [1, 0, 0, 1]
    est = accord.ppi_mean(f_unl, f_lab, y)
    # theta = 6/8 + mean(0, 0, -1, 0) = 0.5; se^2 = (6/8)(2/8)/8 + (1/4)(3/4)/4
    assert est.estimate == 0.5
    assert est.se == pytest.approx(math.sqrt(0.1875 / 8 + 0.1875 / 4), abs=1e-15)
    assert est.details["classical_se"] == pytest.approx(math.sqrt(0.25 / 4))


def test_lambda_zero_is_the_humans_alone() -> None:
    f_unl, f_lab, y = _sets(4)
    est = accord.ppi_mean(f_unl, f_lab, y, lam=0.0)
    assert est.estimate == pytest.approx(y.mean(), abs=1e-15)
    assert est.se == pytest.approx(est.details["classical_se"], abs=1e-15)


def _coverage(n_sets: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    truth = 0.3  # the humans' pass rate in _sets
    z = stats.norm.ppf(0.975)
    hits = 0
    for _ in range(n_sets):
        f_unl, f_lab, y = _sets(int(rng.integers(2**31)))
        est = accord.ppi_mean(f_unl, f_lab, y)
        hits += abs(est.estimate - truth) <= z * est.se
    return hits / n_sets


def test_coverage_small() -> None:
    assert _coverage(200, seed=11) >= 0.90


@pytest.mark.slow
def test_coverage_of_1000_simulated_sets() -> None:
    assert _coverage(1000, seed=12) >= 0.93


def test_bad_input() -> None:
    with pytest.raises(DataError, match="3 judge labels and 2 human labels"):
        accord.ppi_mean([1, 0], [1, 0, 1], [1, 0])
    with pytest.raises(InsufficientDataError, match="at least two labelled"):
        accord.ppi_mean([1, 0], [1], [1])
    with pytest.raises(DataError, match="missing or non-finite"):
        accord.ppi_mean([1, None], [1, 0], [1, 0])
    with pytest.raises(InvalidParameterError, match="'lam' parameter"):
        accord.ppi_mean([1, 0], [1, 0], [1, 0], lam="best")  # type: ignore[arg-type]


@given(st.integers(0, 10_000))
@settings(max_examples=30, deadline=None)
def test_item_order_does_not_matter(seed: int) -> None:
    f_unl, f_lab, y = _sets(seed, n=30, big_n=100)
    rng = np.random.default_rng(seed)
    p, q = rng.permutation(30), rng.permutation(100)
    for lam in (1.0, "tuned"):
        a = accord.ppi_mean(f_unl, f_lab, y, lam=lam)
        b = accord.ppi_mean(f_unl[q], f_lab[p], y[p], lam=lam)
        assert a.estimate == pytest.approx(b.estimate, abs=1e-12)
        assert a.se == pytest.approx(b.se, abs=1e-12)
