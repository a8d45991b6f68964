"""Kendall's W, mean correlations, Finn's coefficient and Robinson's A.

Sources:
- R irr 0.84.1 on its ``anxiety`` data: ``kendall(anxiety, TRUE)`` Wt = 0.5396569 (printed by
  DescTools' ``KendallW(anxiety, TRUE)``, irr's function ported "without logical changes");
  ``meancor(anxiety)`` R = 0.224, z = 0.922, p-value = 0.357 (irr manual example output);
- irr's formulas transcribed below (``kendall``, ``finn``, ``robinson``) on random data;
- scipy 1.17: ``friedmanchisquare`` (chi2 = m (n - 1) W, tie-corrected), ``spearmanr``,
  ``numpy.corrcoef``;
- Robinson (1957): A = (1 + (m - 1) ICC(C,1)) / m, with accord's ICC checked against
  Shrout & Fleiss (1979).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import accord
from accord.errors import DegenerateDataWarning, InsufficientDataError, InvalidParameterError

ANXIETY = np.array(accord.datasets.load("irr_anxiety").data, dtype=float)


def _random(seed: int, n: int = 25, m: int = 4, levels: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, levels + 1, n)
    noise = rng.integers(-1, 2, (n, m))
    return np.clip(truth[:, None] + noise, 1, levels).astype(float)


def _irr_kendall(x: np.ndarray, correct: bool) -> float:
    n, m = x.shape
    ranks = np.column_stack([stats.rankdata(x[:, j]) for j in range(m)])
    s = np.var(ranks.sum(axis=1), ddof=1) * (n - 1)
    tj = 0.0
    if correct:
        for j in range(m):
            _, t = np.unique(ranks[:, j], return_counts=True)
            tj += float(np.sum(t**3 - t))
    return 12 * s / (m * m * (n**3 - n) - m * tj)


def _irr_finn(x: np.ndarray, levels: int, model: str) -> float:
    n, m = x.shape
    ss_total = np.var(x.ravel(), ddof=1) * (n * m - 1)
    ms_r = np.var(x.mean(axis=1), ddof=1) * m
    ms_w = np.sum(np.var(x, axis=1, ddof=1) / n)
    ms_c = np.var(x.mean(axis=0), ddof=1) * n
    ms_e = (ss_total - ms_r * (n - 1) - ms_c * (m - 1)) / ((n - 1) * (m - 1))
    return 1 - (ms_w if model == "oneway" else ms_e) / ((levels**2 - 1) / 12)


def _irr_robinson(x: np.ndarray) -> float:
    n, m = x.shape
    ss_total = np.var(x.ravel(), ddof=1) * (n * m - 1)
    ss_b = np.var(x.mean(axis=1), ddof=1) * m * (n - 1)
    ss_w = np.var(x.mean(axis=0), ddof=1) * n * (m - 1)
    return ss_b / (ss_b + ss_total - ss_b - ss_w)


# --------------------------------------------------------------------------- published
def test_anxiety_published_values() -> None:
    ds = accord.datasets.load("irr_anxiety")
    w = accord.kendall_w(ANXIETY)
    assert w.estimate == pytest.approx(ds.published["kendall_w"], abs=5e-8)
    r = accord.mean_pearson(ANXIETY)
    assert round(r.estimate, 3) == ds.published["mean_pearson"]
    assert round(r.details["z"], 3) == ds.published["mean_pearson_z"]
    assert round(r.details["pvalue"], 3) == 0.357


# --------------------------------------------------------------------------- Kendall's W
@pytest.mark.parametrize("seed", range(4))
def test_kendall_w_matches_irr_and_friedman(seed: int) -> None:
    x = _random(seed)
    res = accord.kendall_w(x)
    assert res.estimate == pytest.approx(_irr_kendall(x, True), rel=1e-12)
    assert res.details["w_uncorrected"] == pytest.approx(_irr_kendall(x, False), rel=1e-12)
    n, m = x.shape
    friedman = stats.friedmanchisquare(*x)  # units are the treatments, raters the blocks
    assert res.details["chi2"] == pytest.approx(friedman.statistic, rel=1e-10)
    assert res.details["pvalue"] == pytest.approx(friedman.pvalue, rel=1e-8)
    assert res.details["df"] == n - 1


def test_kendall_w_is_one_for_identical_rankings_with_ties() -> None:
    x = np.repeat(np.array([1.0, 2, 2, 3, 5, 5, 5])[:, None], 3, axis=1)
    assert accord.kendall_w(x).estimate == pytest.approx(1.0, abs=1e-14)


# --------------------------------------------------------------------------- correlations
@pytest.mark.parametrize("seed", range(3))
def test_mean_correlations_match_numpy_and_scipy(seed: int) -> None:
    x = _random(seed, levels=7) + np.random.default_rng(seed).normal(0, 0.5, (25, 4))
    i, j = np.triu_indices(4, 1)
    pearson = np.corrcoef(x.T)[i, j]
    spearman = stats.spearmanr(x).statistic[i, j]
    res = accord.mean_pearson(x)
    assert res.estimate == pytest.approx(np.tanh(np.mean(np.arctanh(pearson))), rel=1e-12)
    assert accord.mean_pearson(x, average="mean").estimate == pytest.approx(
        np.mean(pearson), rel=1e-12)
    assert accord.mean_spearman(x).estimate == pytest.approx(
        np.tanh(np.mean(np.arctanh(spearman))), rel=1e-12)
    assert res.details["z"] == pytest.approx(res.estimate * math.sqrt(22), rel=1e-12)


def test_ties_take_mid_ranks_as_scipy() -> None:
    x = _random(9)  # integer scale, many ties
    i, j = np.triu_indices(4, 1)
    rho = stats.spearmanr(x).statistic[i, j]
    assert accord.mean_spearman(x, average="mean").estimate == pytest.approx(np.mean(rho),
                                                                            rel=1e-12)


def test_constant_rater_makes_correlations_undefined() -> None:
    x = _random(1)
    x[:, 0] = 3.0
    with pytest.warns(DegenerateDataWarning, match="same score"):
        res = accord.mean_pearson(x)
    assert not res.defined


# --------------------------------------------------------------------------- Finn, Robinson
@pytest.mark.parametrize("model", ["oneway", "twoway"])
@pytest.mark.parametrize("seed", range(3))
def test_finn_matches_irr(model: str, seed: int) -> None:
    x = _random(seed)
    res = accord.finn(x, n_levels=5, model=model)  # type: ignore[arg-type]
    assert res.estimate == pytest.approx(_irr_finn(x, 5, model), rel=1e-12)
    f = res.details["F"]
    # irr: pf(F, Inf, n (m - 1), lower.tail = FALSE), the limit of F(d1, d2) as d1 grows
    assert res.details["pvalue"] == pytest.approx(stats.f.sf(f, 1e12, 25 * 3), rel=1e-6)


def test_finn_levels_default_to_declared_categories() -> None:
    ann = accord.Annotations.from_wide(ANXIETY.astype(int).tolist(),
                                       categories=[1, 2, 3, 4, 5, 6], level="ordinal")
    res = accord.finn(ann)
    assert res.details["n_levels"] == 6 and res.details["n_levels_source"] == "declared categories"
    assert res.estimate == pytest.approx(accord.finn(ANXIETY, n_levels=6).estimate, rel=1e-14)


@pytest.mark.parametrize("seed", range(3))
def test_robinson_a_matches_irr_and_icc(seed: int) -> None:
    x = _random(seed)
    res = accord.robinson_a(x)
    assert res.estimate == pytest.approx(_irr_robinson(x), rel=1e-12)
    icc3 = accord.icc(x, form="ICC3").estimate
    assert res.estimate == pytest.approx((1 + 3 * icc3) / 4, rel=1e-12)


# --------------------------------------------------------------------------- common behaviour
@pytest.mark.parametrize("name", ["kendall_w", "mean_pearson", "mean_spearman", "finn",
                                  "robinson_a"])
def test_units_with_a_missing_score_are_dropped_and_counted(name: str) -> None:
    func = accord.REGISTRY[name].function
    x = _random(5)
    y = x.copy()
    y[[2, 7], [1, 3]] = np.nan
    res = func(y)
    assert res.details["n_units_dropped"] == 2 and res.n_units == 23
    assert res.estimate == pytest.approx(func(np.delete(x, [2, 7], axis=0)).estimate, rel=1e-13)


@pytest.mark.parametrize("name", ["kendall_w", "mean_pearson", "mean_spearman", "finn",
                                  "robinson_a"])
def test_intervals_by_resampling(name: str) -> None:
    res = accord.REGISTRY[name].function(ANXIETY)
    jack = res.confidence_interval(0.95, method="jackknife")
    boot = res.confidence_interval(0.95, method=accord.Bootstrap(200, rng=1))
    assert jack.low < res.estimate < jack.high
    assert boot.low < boot.high
    with pytest.raises(InvalidParameterError, match="no analytic standard error"):
        res.confidence_interval(0.95)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_bootstrap_weights_equal_repeated_units(seed: int) -> None:
    """The weighted statistics used for resampling equal the coefficient on the
    data with units repeated (what a bootstrap sample is)."""
    rng = np.random.default_rng(seed)
    x = _random(seed % 97, n=12, m=3)
    take = rng.integers(0, 12, 12)
    funcs = [accord.kendall_w, accord.mean_spearman, accord.robinson_a, accord.mean_pearson,
             lambda d: accord.finn(d, n_levels=5)]  # the scale, not the sample, sets s
    for func in funcs:
        res = func(x)
        patterns, inverse = np.unique(x, axis=0, return_inverse=True)
        weights = np.bincount(inverse.reshape(-1)[take], minlength=patterns.shape[0])
        resampling = res.resampling()
        order = np.unique(x, axis=0)
        assert np.array_equal(order, patterns)
        boot = resampling.evaluate(weights[None, :].astype(float))[0]
        with np.errstate(all="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)
                direct = func(x[take]).estimate
        assert (math.isnan(boot) and math.isnan(direct)) or boot == pytest.approx(direct,
                                                                                 rel=1e-9)


def test_bad_input() -> None:
    with pytest.raises(InsufficientDataError, match="two units scored by every rater"):
        accord.kendall_w([[1.0, 2.0], [np.nan, 1.0]])
    with pytest.raises(InvalidParameterError, match="'model' parameter of finn"):
        accord.finn(ANXIETY, model="threeway")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'average' parameter of mean_pearson"):
        accord.mean_pearson(ANXIETY, average="median")  # type: ignore[arg-type]
