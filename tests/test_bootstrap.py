"""The bootstrap over units: agreement with naive resampling, intervals, exclusions, FPC.

External references: scikit-learn 1.9.1 ``cohen_kappa_score`` (recomputed on
each naively resampled data set), the Fleiss, Cohen & Everitt (1969) interval
of Cohen (1960, p. 45) as given in the reference cases (``cohen_1960_p45``:
kappa 0.4915254237, SE 0.05100181558, 95% CI low 0.3915637021).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import accord
from accord.errors import DegenerateDataWarning, InvalidParameterError
from accord.inference.bootstrap import (
    Bootstrap,
    bootstrap_distribution,
    bootstrap_pvalue,
    draw_weights,
    interval_from_replicates,
)
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult

COHEN_1960 = [[88, 14, 18], [10, 40, 10], [2, 6, 12]]


def _labels(n: int, seed: int, agree: float = 0.7, k: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < agree, a, rng.integers(0, k, n))
    return a, b


def _unit_level(res: Resampling, patterns: np.ndarray) -> Resampling:
    """The same coefficient with every unit its own pattern (no collapsing)."""
    feats = res.features[patterns]
    return Resampling(feats, np.ones(patterns.shape[0], dtype=np.int64), res.statistic)


def _raw_kappa(a: np.ndarray, b: np.ndarray, k: int = 3) -> float:
    """Cohen's kappa recounted from raw labels (checked against sklearn below)."""
    table = np.bincount(a * k + b, minlength=k * k).reshape(k, k) / a.shape[0]
    po, pe = np.trace(table), table.sum(axis=1) @ table.sum(axis=0)
    return float((po - pe) / (1 - pe))


def _quantile_tolerance(pooled: np.ndarray, q: float, b: int) -> float:
    """Distribution-free half-width for the difference of two q-quantiles of b replicates.

    The q-quantile of b draws lies within order statistics b(q -/+ 4 sd) with
    sd = sqrt(q (1 - q) / b) except with probability ~1e-4; two such estimates
    differ by at most the spread of the pooled distribution over that range.
    """
    sd = math.sqrt(q * (1 - q) / b) * math.sqrt(2.0)
    lo, hi = np.quantile(pooled, [max(q - 4 * sd, 0.0), min(q + 4 * sd, 1.0)])
    return float(hi - lo) + 1e-12


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    ("kwargs", "param"),
    [({"n_resamples": 0}, "n_resamples"), ({"n_resamples": 9.5}, "n_resamples"),
     ({"kind": "student"}, "kind"), ({"rng": 1.5}, "rng"), ({"rng": -1}, "rng"),
     ({"rng": True}, "rng"), ({"rng": "seed"}, "rng")],
)
def test_bad_arguments_name_the_parameter(kwargs: dict[str, object], param: str) -> None:
    with pytest.raises(InvalidParameterError, match=f"The '{param}' parameter of Bootstrap"):
        Bootstrap(**kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- reproducibility
def test_int_seed_reproduces_and_generator_advances() -> None:
    res = accord.cohen_kappa(*_labels(300, 1))
    same = [res.confidence_interval(method=Bootstrap(999, rng=5)) for _ in range(2)]
    assert same[0].low == same[1].low and same[0].high == same[1].high
    gen = np.random.default_rng(5)
    first = res.confidence_interval(method=Bootstrap(999, rng=gen))
    second = res.confidence_interval(method=Bootstrap(999, rng=gen))
    assert (first.low, first.high) == (same[0].low, same[0].high)  # default_rng(5) stream
    assert (second.low, second.high) != (first.low, first.high)


@pytest.mark.parametrize("chunk", [1, 7, 250, 10_000])
def test_chunking_does_not_change_the_replicates(chunk: int) -> None:
    rs = accord.cohen_kappa(*_labels(500, 2)).resampling()
    whole = bootstrap_distribution(rs, 1000, np.random.default_rng(3))
    chunked = bootstrap_distribution(rs, 1000, np.random.default_rng(3), chunk=chunk)
    np.testing.assert_array_equal(whole, chunked)


# --------------------------------------------------------------------------- vs naive
def test_same_weights_give_exactly_the_naive_recomputation() -> None:
    """Unit multiplicities from one multinomial draw: matrix product == sklearn on raw units."""
    a, b = _labels(80, 4)
    res = accord.cohen_kappa(a, b)
    rs = res.resampling()
    unit = _unit_level(rs, rs.unit_patterns)
    weights = draw_weights(unit.counts, 200, np.random.default_rng(9))
    fast = unit.evaluate(weights)
    idx = np.arange(a.shape[0])
    naive = [cohen_kappa_score(a[np.repeat(idx, w)], b[np.repeat(idx, w)]) for w in weights]
    np.testing.assert_allclose(fast, naive, rtol=0, atol=1e-12)
    raw = [_raw_kappa(a[np.repeat(idx, w)], b[np.repeat(idx, w)]) for w in weights]
    np.testing.assert_allclose(raw, naive, rtol=0, atol=1e-12)


def test_pattern_bootstrap_matches_naive_unit_resampling_in_distribution() -> None:
    """Multinomial over table cells vs kappa recounted on units drawn with rng.integers."""
    a, b = _labels(120, 6)
    res = accord.cohen_kappa(a, b)
    n_boot = 2000
    fast = bootstrap_distribution(res.resampling(), n_boot, np.random.default_rng(11))
    rng = np.random.default_rng(12)
    naive = np.empty(n_boot)
    for i in range(n_boot):
        idx = rng.integers(0, a.shape[0], a.shape[0])
        naive[i] = _raw_kappa(a[idx], b[idx])
    pooled = np.concatenate([fast, naive])
    for q in (0.025, 0.1, 0.25, 0.5, 0.75, 0.9, 0.975):
        diff = abs(np.quantile(fast, q) - np.quantile(naive, q))
        assert diff <= _quantile_tolerance(pooled, q, n_boot), q
    assert abs(fast.std() - naive.std()) <= 4 * naive.std() / math.sqrt(n_boot)


# --------------------------------------------------------------------------- intervals
@pytest.mark.parametrize("kind", ["percentile", "basic", "bca"])
def test_interval_contains_the_estimate(kind: str) -> None:
    res = accord.cohen_kappa(*_labels(200, 7))
    ci = res.confidence_interval(0.95, method=Bootstrap(1999, kind=kind, rng=1))  # type: ignore[arg-type]
    assert ci.low < res.estimate < ci.high
    assert ci.method == f"bootstrap-{kind}" and ci.n_excluded == 0
    assert ci.replicates is not None and ci.replicates.shape == (1999,)


def test_basic_is_the_percentile_interval_reflected() -> None:
    res = accord.cohen_kappa(*_labels(150, 8))
    pct = res.confidence_interval(0.9, method=Bootstrap(999, rng=2))
    basic = res.confidence_interval(0.9, method=Bootstrap(999, kind="basic", rng=2))
    assert basic.low == pytest.approx(2 * res.estimate - pct.high, abs=1e-15)
    assert basic.high == pytest.approx(2 * res.estimate - pct.low, abs=1e-15)


@pytest.mark.parametrize("scale", [1, 10])
def test_bca_is_close_to_the_analytic_interval_on_cohen_1960(scale: int) -> None:
    """Cohen (1960) p. 45 (n = 200) and the same table x10: BCa vs Fleiss-Cohen-Everitt."""
    res = accord.cohen_kappa(accord.ContingencyTable(np.array(COHEN_1960) * scale))
    analytic = res.confidence_interval(0.95)
    if scale == 1:
        assert analytic.low == pytest.approx(0.3915637021, abs=1e-9)
    bca = res.confidence_interval(0.95, method=Bootstrap(9999, kind="bca", rng=0))
    tol = 0.02 / math.sqrt(scale)  # half-width 0.1 / sqrt(scale); agreement to ~2%/sqrt(n)
    assert bca.low == pytest.approx(analytic.low, abs=tol)
    assert bca.high == pytest.approx(analytic.high, abs=tol)


def test_clipped_to_the_coefficients_range() -> None:
    res = accord.cohen_kappa([0, 0, 1, 1, 0, 1, 0, 1, 1, 0], [0, 0, 1, 1, 0, 1, 0, 1, 1, 1])
    ci = res.confidence_interval(0.99, method=Bootstrap(999, kind="basic", rng=0))
    assert -1.0 <= ci.low <= ci.high <= 1.0


# --------------------------------------------------------------------------- undefined
def test_undefined_resamples_are_excluded_and_counted() -> None:
    """5 units (0, 0) and one (1, 1): a resample missing the last unit has p_e = 1.

    That happens with probability (5/6)^6 = 0.3349; the count is binomial.
    """
    res = accord.cohen_kappa([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1])
    b = 4000
    ci = res.confidence_interval(0.9, method=Bootstrap(b, rng=3))
    p = (5 / 6) ** 6
    assert abs(ci.n_excluded - b * p) <= 5 * math.sqrt(b * p * (1 - p))
    assert ci.replicates is not None and ci.replicates.size == b - ci.n_excluded
    assert np.all(np.isfinite(ci.replicates))


def test_undefined_estimate_has_no_interval() -> None:
    with pytest.warns(DegenerateDataWarning, match="p_e = 1"):
        res = accord.cohen_kappa([1, 1, 1, 1], [1, 1, 1, 1])
    ci = res.confidence_interval(method=Bootstrap(99, rng=0))
    assert math.isnan(ci.low) and math.isnan(ci.high)


# --------------------------------------------------------------------------- p-value
def _mean_resampling(x: np.ndarray) -> Resampling:
    feats = np.column_stack([np.ones_like(x), x])
    return Resampling(feats, np.ones(x.shape[0], dtype=np.int64), lambda s: s[:, 1] / s[:, 0])


@pytest.mark.parametrize("kind", ["percentile", "basic", "bca"])
def test_pvalue_inverts_the_interval(kind: str) -> None:
    """At null = a limit of the (1 - alpha) interval, the p-value is alpha (to 1/B)."""
    rs = _mean_resampling(np.random.default_rng(0).exponential(size=60))
    est = rs.full()
    reps = bootstrap_distribution(rs, 20_000, np.random.default_rng(1))
    for level in (0.8, 0.9, 0.95):
        low, high = interval_from_replicates(rs, est, reps, level, kind)  # type: ignore[arg-type]
        for null in (low, high):
            p = bootstrap_pvalue(rs, est, reps, kind, null)  # type: ignore[arg-type]
            assert p == pytest.approx(1 - level, abs=0.004), (level, null)


def test_pvalue_bounds() -> None:
    rs = _mean_resampling(np.arange(1.0, 31.0))
    reps = bootstrap_distribution(rs, 999, np.random.default_rng(0))
    assert bootstrap_pvalue(rs, rs.full(), reps, "percentile", null=-5.0) == 1 / 1000
    assert bootstrap_pvalue(rs, 0.0, np.zeros(999), "percentile", null=0.0) == 1.0


# --------------------------------------------------------------------------- FPC
def test_finite_population_correction_scales_the_variance() -> None:
    """Gwet (2014, ch. 5): variance x (1 - n/N); the interval shrinks by sqrt(1 - n/N)."""
    res = accord.cohen_kappa(accord.ContingencyTable(COHEN_1960))  # n = 200
    f = math.sqrt(1 - 200 / 800)
    plain, fpc = res.confidence_interval(), res.confidence_interval(population_size=800)
    assert fpc.high - fpc.low == pytest.approx(f * (plain.high - plain.low), rel=1e-12)
    assert fpc.to_dict()["population_size"] == 800 and "population_size" not in plain.to_dict()
    for method in ("jackknife", Bootstrap(999, rng=4), Bootstrap(999, kind="bca", rng=4)):
        p, c = (res.confidence_interval(method=method, population_size=n)  # type: ignore[arg-type]
                for n in (None, 800))
        assert c.low - res.estimate == pytest.approx(f * (p.low - res.estimate), rel=1e-12)
        assert c.high - res.estimate == pytest.approx(f * (p.high - res.estimate), rel=1e-12)
    census = res.confidence_interval(population_size=200)
    assert census.low == census.high == res.estimate


@pytest.mark.parametrize("bad", [199, 0, 800.0, True, "800"])
def test_population_size_is_validated(bad: object) -> None:
    res = accord.cohen_kappa(accord.ContingencyTable(COHEN_1960))
    with pytest.raises(InvalidParameterError, match="'population_size' parameter"):
        res.confidence_interval(population_size=bad)  # type: ignore[arg-type]


def test_population_size_is_refused_for_an_analytic_interval() -> None:
    res = AgreementResult("icc2", 0.5, math.nan, math.nan, math.nan, 10, 3,
                          analytic_interval=lambda level: (0.1, 0.8))
    with pytest.raises(InvalidParameterError, match="population_size is not defined"):
        res.confidence_interval(population_size=100)


# --------------------------------------------------------------------------- properties
@given(st.lists(st.integers(0, 30), min_size=4, max_size=4).filter(lambda c: sum(c) >= 5))
def test_replicates_stay_in_range_and_count(cells: list[int]) -> None:
    table = accord.ContingencyTable(np.array(cells).reshape(2, 2))
    rs = accord.percent_agreement(table).resampling()
    reps = bootstrap_distribution(rs, 200, np.random.default_rng(0))
    assert reps.shape == (200,) and np.all((reps >= 0) & (reps <= 1))


# --------------------------------------------------------------------------- coverage (slow)
@pytest.mark.slow
def test_reduced_coverage_study() -> None:
    """benchmarks/coverage.py at n = 100 with 300 data sets per coefficient.

    Nominal 95 %: with 300 data sets the coverage estimate has SE 1.26 points, so
    every method must land within 4 SE (0.90 to 1.00).
    """
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "coverage.py"
    spec = importlib.util.spec_from_file_location("accord_coverage_study", path)
    assert spec is not None and spec.loader is not None
    study = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = study  # dataclasses look their module up while it loads
    spec.loader.exec_module(study)
    tol = 4 * math.sqrt(0.95 * 0.05 / 300)
    for i, coefficient in enumerate(study.specs()):
        cell = study.run_cell(coefficient, 100, 300, 499, seed=i)
        for method, row in cell.items():
            if method == "asymptotic" and math.isnan(row["coverage"]):
                continue  # no analytic SE for this coefficient
            if coefficient.name.startswith("ICC") and method != "asymptotic":
                # Resampling units treats the 4 raters as fixed, so with rater variance
                # it misses that part of ICC(2,1)'s uncertainty (the F interval does not).
                assert row["coverage"] < 0.95, (coefficient.name, method, row)
                continue
            assert abs(row["coverage"] - 0.95) <= tol, (coefficient.name, method, row)


# --------------------------------------------------------------------------- many patterns
def test_drawing_units_and_multinomial_draws_agree_in_distribution() -> None:
    """Continuous data (every unit its own pattern) take the unit-drawing path."""
    from accord.inference.bootstrap import unit_patterns

    x = np.random.default_rng(5).exponential(size=300)
    rs = _mean_resampling(x)
    assert unit_patterns(rs.counts) is not None
    b = 3000
    by_units = bootstrap_distribution(rs, b, np.random.default_rng(6))
    by_multinomial = rs.evaluate(draw_weights(rs.counts, b, np.random.default_rng(7)))
    pooled = np.concatenate([by_units, by_multinomial])
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        diff = abs(np.quantile(by_units, q) - np.quantile(by_multinomial, q))
        assert diff <= _quantile_tolerance(pooled, q, b), q
    chunked = bootstrap_distribution(rs, b, np.random.default_rng(6), chunk=17)
    np.testing.assert_allclose(by_units, chunked, rtol=1e-13)  # same draws; BLAS blocking


def test_unit_draws_are_counted_per_pattern() -> None:
    from accord.inference.bootstrap import unit_patterns

    counts = np.array([3, 1, 2, 1], dtype=np.int64)  # m = 4 > n / 3 = 7 / 3
    units = unit_patterns(counts)
    np.testing.assert_array_equal(units, [0, 0, 0, 1, 2, 2, 3])
    w = draw_weights(counts, 500, np.random.default_rng(0), units=units)
    assert w.shape == (500, 4) and np.all(w.sum(axis=1) == 7)
    # each unit is drawn with probability 1/7: pattern j's expected count is counts[j]
    sd = np.sqrt(counts * (1 - 1 / 7) / 500)  # binomial(7 * counts_j / 7) means over 500
    assert np.all(np.abs(w.mean(axis=0) - counts) <= 5 * sd)
    assert unit_patterns(np.array([50, 50], dtype=np.int64)) is None


def test_progress_is_reported_per_chunk_and_does_not_change_the_result() -> None:
    res = accord.cohen_kappa(*_labels(200, 9))
    calls: list[tuple[int, int]] = []
    method = Bootstrap(999, rng=1, progress=lambda done, total: calls.append((done, total)))
    seen = res.confidence_interval(method=method)
    plain = res.confidence_interval(method=Bootstrap(999, rng=1))
    assert (seen.low, seen.high) == (plain.low, plain.high)
    assert calls and calls[-1] == (999, 999)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_a_table_of_proportions_cannot_be_resampled() -> None:
    """No whole units to draw: refuse instead of rounding the table (two_raters fix)."""
    res = accord.cohen_kappa(accord.ContingencyTable([[0.3, 0.1], [0.1, 0.5]]))
    assert res.estimate == pytest.approx(0.5833333333333334, abs=1e-15)
    with pytest.raises(InvalidParameterError, match="needs unit-level data"):
        res.confidence_interval(method=Bootstrap(99, rng=0))
    whole = accord.cohen_kappa(accord.ContingencyTable([[30, 10], [10, 50]]))
    assert whole.resampling().full() == pytest.approx(whole.estimate, abs=1e-15)


def test_bca_does_not_depend_on_the_order_of_the_rows() -> None:
    """Many replicates equal the estimate exactly; rounding in the last bit (which
    depends on row order) must not move them across it and shift z0."""
    import random

    rnd = random.Random(3)
    cats = ["a", "b", "c"]
    rows = []
    for i in range(60):
        truth = rnd.choice(cats)
        for r in ("r1", "r2", "r3"):
            if rnd.random() < 0.1:
                continue
            rows.append((f"u{i}", r, truth if rnd.random() < 0.7 else rnd.choice(cats)))
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    method = accord.Bootstrap(999, kind="bca", rng=1)
    limits = []
    for data in (rows, shuffled):
        ann = accord.Annotations.from_long(
            {"unit": [u for u, _, _ in data], "rater": [r for _, r, _ in data],
             "value": [x for _, _, x in data]}, unit="unit", rater="rater", value="value")
        ci = accord.percent_agreement(ann).confidence_interval(method=method)
        limits.append((ci.low, ci.high))
    assert limits[0] == pytest.approx(limits[1], abs=1e-12)
