"""Leave-one-unit-out jackknife from the sufficient statistic.

Checked against a naive loop that deletes one unit at a time and recomputes the
coefficient from the raw labels with an established implementation:
scikit-learn 1.9.1 ``cohen_kappa_score`` and statsmodels 0.15.0
``fleiss_kappa``. The jackknife SE is ``sqrt((n-1)/n sum_i (t_i - t_.)^2)``
(Efron & Tibshirani 1993, eq. 11.5); the BCa acceleration is their eq. 14.15.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord.coefficients._pairwise_intervals import pairwise_resampling
from accord.errors import InvalidParameterError
from accord.inference.bootstrap import jackknife_acceleration
from accord.inference.jackknife import jackknife_se
from accord.inference.resampling import Resampling
from tests.spans._tables import table_spans


def _naive_se(values: np.ndarray) -> float:
    n = values.shape[0]
    return math.sqrt((n - 1) / n * np.sum((values - values.mean()) ** 2))


def _naive_accel(values: np.ndarray) -> float:
    d = values.mean() - values
    return float(np.sum(d**3) / (6 * np.sum(d**2) ** 1.5))


def _labels(n: int, seed: int, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    return a, np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))


def test_cohen_kappa_se_equals_the_leave_one_out_loop() -> None:
    a, b = _labels(70, 0)
    res = accord.cohen_kappa(a, b)
    loo = np.array([cohen_kappa_score(np.delete(a, i), np.delete(b, i)) for i in range(70)])
    se, excluded = jackknife_se(res.resampling())
    assert excluded == 0
    assert se == pytest.approx(_naive_se(loo), rel=1e-12)
    assert jackknife_acceleration(res.resampling()) == pytest.approx(_naive_accel(loo), rel=1e-9)
    ci = res.confidence_interval(0.95, method="jackknife")
    assert ci.high - ci.low == pytest.approx(2 * 1.959963984540054 * se, rel=1e-12)


def test_weighted_kappa_se_equals_the_leave_one_out_loop() -> None:
    a, b = _labels(50, 1, k=4)
    res = accord.cohen_kappa(a, b, weights="quadratic")
    loo = [cohen_kappa_score(np.delete(a, i), np.delete(b, i), weights="quadratic")
           for i in range(50)]
    assert jackknife_se(res.resampling())[0] == pytest.approx(_naive_se(np.array(loo)), rel=1e-12)


def test_fleiss_kappa_se_equals_the_leave_one_out_loop() -> None:
    fleiss = getattr(accord, "fleiss_kappa", None)
    if fleiss is None:
        pytest.skip("fleiss_kappa is not in this tree yet")
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    rng = np.random.default_rng(2)
    truth = rng.integers(0, 3, 40)
    data = np.where(rng.random((40, 4)) < 0.6, truth[:, None], rng.integers(0, 3, (40, 4)))
    counts = aggregate_raters(data, n_cat=3)[0]
    loo = np.array([fleiss_kappa(np.delete(counts, i, axis=0)) for i in range(40)])
    res = fleiss(data)
    assert res.resampling().full() == pytest.approx(fleiss_kappa(counts), abs=1e-12)
    assert jackknife_se(res.resampling())[0] == pytest.approx(_naive_se(loo), rel=1e-10)


def test_mean_pairwise_kappa_se_equals_the_leave_one_out_loop() -> None:
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 3, 45)
    codes = np.where(rng.random((45, 3)) < 0.6, truth[:, None], rng.integers(0, 3, (45, 3)))

    def light(x: np.ndarray) -> float:
        return float(np.mean([cohen_kappa_score(x[:, g], x[:, h])
                              for g, h in ((0, 1), (0, 2), (1, 2))]))

    rs = pairwise_resampling(codes, 3)
    assert rs.full() == pytest.approx(light(codes), abs=1e-12)
    loo = np.array([light(np.delete(codes, i, axis=0)) for i in range(45)])
    assert jackknife_se(rs)[0] == pytest.approx(_naive_se(loo), rel=1e-10)


def test_undefined_leave_one_out_values_are_excluded_and_counted() -> None:
    # Without the single (1, 1) unit both raters use one category: p_e = 1.
    res = accord.cohen_kappa([0, 0, 0, 0, 1, 1, 0], [0, 0, 0, 1, 1, 1, 0])
    loo = np.array([cohen_kappa_score(np.delete([0, 0, 0, 0, 1, 1, 0], i),
                                      np.delete([0, 0, 0, 1, 1, 1, 0], i)) for i in range(7)])
    se, excluded = jackknife_se(res.resampling())
    assert excluded == 0 and se == pytest.approx(_naive_se(loo), rel=1e-12)
    res2 = accord.cohen_kappa([0, 0, 0, 0, 1], [0, 0, 0, 0, 1])
    se2, excluded2 = jackknife_se(res2.resampling())
    assert excluded2 == 1  # leaving out unit 5 leaves one category: undefined
    assert se2 == 0.0  # the four defined leave-one-out values are all 1
    assert res2.confidence_interval(method="jackknife").n_excluded == 1


@given(st.lists(st.integers(0, 12), min_size=9, max_size=9).filter(lambda c: sum(c) >= 3))
def test_collapsed_patterns_equal_unit_level_jackknife(cells: list[int]) -> None:
    table = accord.ContingencyTable(np.array(cells).reshape(3, 3))
    rs = accord.percent_agreement(table).resampling()
    expanded = np.repeat(np.arange(rs.counts.shape[0]), rs.counts)
    unit = Resampling(rs.features[expanded], np.ones(expanded.shape[0], dtype=np.int64),
                      rs.statistic)
    se_collapsed, se_unit = jackknife_se(rs)[0], jackknife_se(unit)[0]
    assert se_collapsed == pytest.approx(se_unit, rel=1e-9, abs=1e-15)


# --------------------------------------------------------------------------- registry-wide
def _registry_data(name: str, family: str, two: bool) -> np.ndarray:
    rng = np.random.default_rng(sum(map(ord, name)))
    if family == "intraclass":
        return rng.normal(size=(25, 1)) + 0.7 * rng.normal(size=(25, 3))
    truth = rng.integers(0, 3, 25)
    raters = 2 if two else 3
    return np.where(rng.random((25, raters)) < 0.6, truth[:, None],
                    rng.integers(0, 3, (25, raters)))


def _call(function: object, data: np.ndarray, two: bool) -> object:
    if function is accord.finn:  # the scale size is the scale's, not the sample's
        return accord.finn(data, n_levels=7)
    if function is accord.span_f1:  # the table read as spans, a row a document
        return accord.span_f1(table_spans(data))
    return function(data[:, 0], data[:, 1]) if two else function(data)  # type: ignore[operator]


@pytest.mark.parametrize("name", sorted(accord.REGISTRY))
def test_every_coefficients_resampling_reproduces_leave_one_out(name: str) -> None:
    """For each registered coefficient: full() is the estimate and the jackknife SE
    equals deleting each unit from the raw data and calling the coefficient again."""
    info = accord.REGISTRY[name]
    two = info.raters == "two"
    data = _registry_data(name, info.family, two)
    res = _call(info.function, data, two)
    if res.resampling is None or not res.defined:  # type: ignore[attr-defined]
        pytest.skip(f"{name} has no resampling or is undefined on this data")
    rs = res.resampling()  # type: ignore[attr-defined]
    assert rs.full() == pytest.approx(res.estimate, abs=1e-12)  # type: ignore[attr-defined]
    loo = np.array([_call(info.function, np.delete(data, i, axis=0), two).estimate  # type: ignore[attr-defined]
                    for i in range(data.shape[0])])
    se, excluded = jackknife_se(rs)
    assert excluded == int(np.sum(~np.isfinite(loo)))
    assert se == pytest.approx(_naive_se(loo[np.isfinite(loo)]), rel=1e-9)


@pytest.mark.parametrize("name", sorted(accord.REGISTRY))
def test_every_coefficients_bootstrap_equals_recomputing_resampled_units(name: str) -> None:
    """One multinomial draw of unit multiplicities: the pattern statistic equals calling
    the coefficient on the raw units repeated that many times (30 draws)."""
    info = accord.REGISTRY[name]
    two = info.raters == "two"
    data = _registry_data(name, info.family, two)
    res = _call(info.function, data, two)
    if res.resampling is None or not res.defined:  # type: ignore[attr-defined]
        pytest.skip(f"{name} has no resampling or is undefined on this data")
    rs = res.resampling()  # type: ignore[attr-defined]
    if rs.unit_patterns is None or rs.unit_patterns.shape[0] != data.shape[0]:
        pytest.skip(f"{name}: units are not mapped one to one onto patterns")
    n, m = data.shape[0], rs.counts.shape[0]
    unit_w = np.random.default_rng(0).multinomial(n, np.full(n, 1 / n), size=30)
    pattern_w = np.stack([np.bincount(rs.unit_patterns, weights=w, minlength=m) for w in unit_w])
    fast = rs.evaluate(pattern_w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.DegenerateDataWarning)
        naive = [_call(info.function, np.repeat(data, w, axis=0), two).estimate  # type: ignore[attr-defined]
                 for w in unit_w]
    np.testing.assert_allclose(fast, naive, rtol=1e-9, atol=1e-12)


def test_whole_sample_weights_are_frequencies_in_every_interval() -> None:
    """A unit of weight w is w units: the estimate, SE, n and the jackknife and bootstrap
    intervals equal those of the data with each unit repeated w times."""
    a = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    b = [0, 1, 2, 0, 2, 2, 1, 1, 0, 0]
    w = [3, 1, 2, 5, 1, 1, 2, 4, 1, 2]
    weighted = accord.cohen_kappa(a, b, sample_weight=w)
    repeated = accord.cohen_kappa(np.repeat(a, w), np.repeat(b, w))
    assert (weighted.estimate, weighted.se, weighted.n_units) == pytest.approx(
        (repeated.estimate, repeated.se, repeated.n_units), abs=1e-15)
    for method in ("jackknife", accord.Bootstrap(499, rng=3)):
        got = weighted.confidence_interval(method=method)
        want = repeated.confidence_interval(method=method)
        assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-12)
    with pytest.raises(InvalidParameterError, match="not whole numbers"):
        accord.cohen_kappa(a, b, sample_weight=[0.5] * 10).confidence_interval(
            method="jackknife")
