"""Interval and ratio alpha of continuous scores, unit by unit (no value patterns).

The unit path (:mod:`accord.coefficients._alpha_moments`) must give what the
coincidence-matrix path gives (Krippendorff 2011, every distinct value a category;
ratio there is the exact V x V double sum below 3,000 values), the values of the
``krippendorff`` package (0.9.0), and Gwet's (2014) SE as the pattern path computes it
(itself checked against irrCAC's ``krippen.alpha.raw`` in ``test_krippendorff.py``).
"""

from __future__ import annotations

import math
from typing import Any

import krippendorff
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import accord
from accord import CoincidenceMatrix
from accord.coefficients import _differences as dif
from accord.coefficients import _ratio_bins as bins
from accord.coefficients import krippendorff as kr
from accord.coefficients._alpha_moments import unit_terms
from accord.coefficients._ratio_bins import self_kernel_sums
from accord.errors import DataError, DegenerateDataWarning, InvalidParameterError
from tests.conftest import traced_peak

FIELDS = ("estimate", "se", "observed", "expected", "n_units", "n_raters")


def _scores(seed: int, units: int = 80, raters: int = 3, missing: float = 0.15,
            loc: float = 50.0, spread: float = 10.0) -> np.ndarray:
    """Continuous scores: a unit effect plus rater noise, every value distinct."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(size=(units, 1)) + 0.7 * rng.normal(size=(units, raters))
    x = np.abs(loc + spread * noise)
    x[rng.random(x.shape) < missing] = np.nan
    return x


def _pattern_path(data: np.ndarray, level: str) -> accord.AgreementResult:
    """The coincidence-matrix alpha (exact V x V ratio differences below 3,000 values)."""
    cm = CoincidenceMatrix.from_array(data)
    return kr._result(cm, kr._difference(level, cm))


def _unit_path(data: Any, level: str) -> accord.AgreementResult:
    """The unit path; for ratio on small data the exact limit is lowered to take it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dif, "RATIO_EXACT_LIMIT", 2)
        assert unit_terms(data, level, None) is not None
        return accord.krippendorff_alpha(data, level=level)


def _same(a: accord.AgreementResult, b: accord.AgreementResult, rel: float = 1e-12) -> None:
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if name == "estimate":
            # alpha = 1 - D_o / D_e: the ratio carries the relative error, so an alpha
            # near 0 is compared through it (seed 3486: 8.3147151363e-4 in both paths,
            # 1e-13 apart, which is 1e-13 of the ratio)
            x, y = 1.0 - x, 1.0 - y
        assert x == pytest.approx(y, rel=rel, abs=1e-14), name
    for key in ("alpha_prime", "pvalue", "n_pairable_values", "n_unpairable_units"):
        assert a.details[key] == pytest.approx(b.details[key], rel=1e-9, abs=1e-300), key
    assert a.details["level"] == b.details["level"]


def test_continuous_scores_take_the_unit_path_and_rating_scales_do_not() -> None:
    x = _scores(1, units=2000)
    assert unit_terms(x, "interval", None) is not None
    assert unit_terms(x, "ratio", None) is not None  # 5,100 values: above the exact limit
    assert unit_terms(x[:100], "ratio", None) is None  # exact V x V path, resamplable
    assert unit_terms(np.round(x), "interval", None) is None  # a rating scale: patterns
    assert unit_terms(x, "ordinal", None) is None
    assert unit_terms(x, "interval", [1.0, 2.0]) is None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), units=st.integers(2, 60), raters=st.integers(2, 6),
       missing=st.sampled_from([0.0, 0.2, 0.5]), loc=st.sampled_from([1e-3, 1.0, 50.0, 1e4]),
       cv=st.sampled_from([1e-3, 0.1, 1.0]), level=st.sampled_from(["interval", "ratio"]))
@example(seed=3486, units=2, raters=2, missing=0.0, loc=1e-3, cv=1e-3, level="interval")
def test_unit_path_equals_the_coincidence_path(seed: int, units: int, raters: int,
                                               missing: float, loc: float, cv: float,
                                               level: str) -> None:
    """To 1e-12 relative; scores clustered within 0.1 % of their mean lose up to a
    factor (mean / spread)^2 in both paths (each rounds the centred values its own way,
    and the SE of a few units is a small difference of such terms)."""
    x = _scores(seed, units, raters, missing, loc, loc * cv)
    ok = ~np.isnan(x)
    if np.count_nonzero(ok.sum(axis=1) >= 2) < 2 or np.count_nonzero(ok) < 4:
        return  # nothing to pair: covered by the undefined and bad-input cases below
    _same(_unit_path(x, level), _pattern_path(x, level), rel=1e-12 * max(1.0, (0.01 / cv) ** 2))


@pytest.mark.parametrize("level", ["interval", "ratio"])
@pytest.mark.parametrize("seed", [3, 4])
def test_unit_path_matches_the_krippendorff_package(level: str, seed: int) -> None:
    x = _scores(seed, units=60, raters=4, missing=0.2)
    expected = krippendorff.alpha(x.T, level_of_measurement=level)  # krippendorff 0.9.0
    assert _unit_path(x, level).estimate == pytest.approx(expected, abs=1e-12)


def test_large_continuous_ratio_alpha_equals_the_exact_double_sum() -> None:
    """Above the exact limit the unit path integrates; the pattern path with the V x V
    double sum (limit raised) is the exact reference."""
    x = _scores(5, units=1200, raters=3, missing=0.1, loc=2.0, spread=1.5)
    assert np.count_nonzero(~np.isnan(x)) > dif.RATIO_EXACT_LIMIT
    fast = accord.krippendorff_alpha(x, level="ratio")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dif, "RATIO_EXACT_LIMIT", 10_000)
        exact = _pattern_path(x, "ratio")
    _same(fast, exact, rel=1e-12)


def test_ratio_zeros_pair_with_zero_difference() -> None:
    """(0, 0) has ratio difference 0, (0, y > 0) has 1 (Krippendorff 2011, section E)."""
    x = _scores(6, units=50, raters=3, missing=0.0, loc=1.0, spread=1.0)
    x[:4] = 0.0  # four units of zeros only
    x[4:8, 0] = 0.0  # a zero next to positive values
    res = _unit_path(x, "ratio")
    _same(res, _pattern_path(x, "ratio"))
    assert res.observed > 0


def test_resampling_of_the_interval_unit_path() -> None:
    x = _scores(7, units=40, raters=3, missing=0.2)
    fast, ref = _unit_path(x, "interval"), _pattern_path(x, "interval")
    assert fast.resampling is not None
    rs = fast.resampling()
    assert rs.full() == pytest.approx(fast.estimate, abs=1e-13)
    kept = np.flatnonzero((~np.isnan(x)).sum(axis=1) >= 2)
    for i in (0, 7, len(kept) - 1):  # leave-one-out: alpha without that unit, recomputed
        rest = np.delete(x, kept[i], axis=0)
        assert rs.leave_one_out()[i] == pytest.approx(
            _pattern_path(rest, "interval").estimate, abs=1e-12)
    jack, jack_ref = (r.confidence_interval(method="jackknife") for r in (fast, ref))
    assert (jack.low, jack.high) == pytest.approx((jack_ref.low, jack_ref.high), abs=1e-12)
    ci = fast.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=400, rng=1))
    assert ci.low < fast.estimate < ci.high


def test_continuous_ratio_alpha_says_it_cannot_be_resampled() -> None:
    res = _unit_path(_scores(8, units=40), "ratio")
    with pytest.raises(InvalidParameterError, match="too large to resample"):
        res.confidence_interval(method="jackknife")
    assert math.isfinite(res.confidence_interval().low)


def test_every_pairable_value_equal_is_undefined_as_on_the_pattern_path() -> None:
    x = np.full((40, 2), np.nan)
    x[:, 0] = np.linspace(1.0, 9.0, 40)  # distinct values, in unpairable units
    x[:3] = 2.5
    with pytest.warns(DegenerateDataWarning, match="every pairable value is 2.5"):
        fast = _unit_path(x, "interval")
    with pytest.warns(DegenerateDataWarning, match="every pairable value is 2.5"):
        ref = _pattern_path(x, "interval")
    assert math.isnan(fast.estimate) and fast.undefined_reason == ref.undefined_reason


def test_bad_continuous_input_gives_the_pattern_path_sentence() -> None:
    x = _scores(9, units=2000)
    x[5, 1] = np.inf
    with pytest.raises(DataError, match="infinite value"):
        accord.krippendorff_alpha(x, level="interval")
    y = _scores(9, units=2000) - 60.0
    with pytest.raises(DataError, match="non-negative values"):
        accord.krippendorff_alpha(y, level="ratio")


def test_a_rater_without_ratings_is_not_counted() -> None:
    x = np.column_stack([_scores(10, units=100, raters=3), np.full(100, np.nan)])
    assert _unit_path(x, "interval").n_raters == 3 == _pattern_path(x, "interval").n_raters


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_memory_grows_with_the_data_not_with_a_key_range(level: str) -> None:
    """No allocation by value range and no V x V matrix: the peak is a bounded multiple
    of the input at every size (100 units of continuous scores once allocated 300-730
    MiB; ratio alpha below 3,000 values built a V x V difference matrix, 200 MiB)."""
    accord.krippendorff_alpha(_scores(11, units=30), level=level)  # lazy imports
    for units in (100, 1_100, 1_200, 20_000):  # 1,100 x 3: just below the ratio exact limit
        x = _scores(11, units=units, missing=0.1)
        peak = traced_peak(lambda d=x: accord.krippendorff_alpha(d, level=level))
        assert peak < max(1 << 18, 80 * x.nbytes), (units, peak)


# ------------------------------------------------------------------ ratio sums on bins
def _tight_and_wide(rng: np.random.Generator) -> list[np.ndarray]:
    return [np.concatenate([[0.0], rng.lognormal(0, 3, 1500)]),
            1.0 + 1e-6 * rng.random(1500),  # a tight cluster
            np.concatenate([1.0 - 1e-9 * rng.random(700), 1.0 + 1e-9 * rng.random(700)]),
            np.concatenate([[5.0], 1.0 + 1e-7 * rng.random(1000)]),  # one far value
            10 ** rng.uniform(-8, 8, 1500),  # 16 decades
            np.concatenate([[0.0, 0.0, 0.0], rng.random(1500)]),
            np.abs(rng.normal(50, 10, 1500))]


@pytest.mark.parametrize("seed", [1, 2])
def test_ratio_sums_on_bins_equal_the_exact_double_sum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for x in _tight_and_wide(rng):
        rng.shuffle(x)  # any order
        w = rng.integers(0, 4, x.size).astype(float)  # zero weights too
        exact = dif._exact_kernel(x, w, x)
        got = self_kernel_sums(x, w)
        assert got is not None
        np.testing.assert_allclose(got, exact, rtol=1e-13, atol=0.0)


def test_ratio_sums_on_bins_over_any_range() -> None:
    """Values over 180 decades (more bins apart than the 60-octave window, values far
    below 1e-150 whose squares underflow) against the exact double sum."""
    rng = np.random.default_rng(3)
    x = np.concatenate([10 ** rng.uniform(-200, -20, 1500), [0.0], rng.random(300)])
    w = rng.integers(1, 4, x.size).astype(float)
    got = self_kernel_sums(x, w)
    assert got is not None
    np.testing.assert_allclose(got, dif._exact_kernel(x, w, x), rtol=1e-13, atol=0.0)
    assert self_kernel_sums(np.array([1.0, -2.0]), np.ones(2)) is None


def test_a_value_on_a_chebyshev_point_is_interpolated_exactly() -> None:
    t = np.concatenate([bins._NODES[[0, 4]], [0.3, -0.99]])
    lag = bins.lagrange(t)
    assert np.all(np.isfinite(lag)) and lag[0].tolist() == [1.0] + [0.0] * (bins._P - 1)
    np.testing.assert_allclose(lag.sum(axis=1), 1.0, rtol=1e-14)
    x = np.sort(np.concatenate([1.0 + np.arange(3000) / 3000.0, [1.0]]))
    x[100] = 1.0 + (2.0**0.125 - 1.0) / 2.0 * (1.0 + bins._NODES[3])  # on a node of bin 0
    x.sort()
    got = self_kernel_sums(x, np.ones(x.size))
    assert got is not None
    np.testing.assert_allclose(got, dif._exact_kernel(x, np.ones(x.size), x), rtol=1e-13)


# ------------------------------------------------------------------ long codes (a crowd)
def _crowd_scores(seed: int, units: int = 300, workers: int = 40) -> accord.Annotations:
    """Continuous scores in long form: 1-6 workers per unit out of a pool, some units
    with a single score (unpairable)."""
    import polars as pl

    rng = np.random.default_rng(seed)
    rows = []
    for unit in range(units):
        truth = rng.normal(20.0, 5.0)
        for worker in rng.choice(workers, int(rng.integers(1, 7)), replace=False):
            rows.append((f"u{unit}", int(worker), abs(truth + rng.normal(0.0, 3.0))))
    u, w, v = zip(*rows)
    return accord.Annotations.from_long(pl.DataFrame({"u": u, "w": w, "v": v}),
                                        unit="u", rater="w", value="v")


@pytest.mark.parametrize("level", ["interval", "ratio"])
@pytest.mark.parametrize("seed", [1, 2])
def test_annotations_of_continuous_scores_take_the_unit_path(level: str, seed: int) -> None:
    ann = _crowd_scores(seed)
    cm = CoincidenceMatrix.from_annotations(ann)
    ref = kr._result(cm, kr._difference(level, cm))
    fast = _unit_path(ann, level)
    _same(fast, ref)
    assert fast.n_raters == ref.n_raters and fast.details["n_unpairable_units"] > 0
    if level == "interval":
        rs, rs_ref = fast.resampling(), ref.resampling()
        assert rs.unit_ids == rs_ref.unit_ids  # units aligned for paired comparisons
        jack, jack_ref = (r.confidence_interval(method="jackknife") for r in (fast, ref))
        assert (jack.low, jack.high) == pytest.approx((jack_ref.low, jack_ref.high), abs=1e-12)


def test_annotations_of_a_rating_scale_keep_the_pattern_path() -> None:
    ann = accord.datasets.load("krippendorff_2011").as_annotations()
    assert unit_terms(ann, "interval", None) is None


def test_ratio_alpha_of_values_over_200_decades() -> None:
    rng = np.random.default_rng(4)
    x = 10 ** rng.uniform(-100, 100, (800, 3))
    _same(_unit_path(x, "ratio"), _pattern_path(x, "ratio"))


def test_paired_comparison_of_continuous_alphas_equals_the_pattern_path() -> None:
    """Two raters' sets on the same units: the unit path pairs units as the pattern path
    does (every continuous unit is its own pattern either way)."""
    x = _scores(12, units=60, raters=4, missing=0.0)
    a, b = x[:, :3], x[:, 1:]
    fast = accord.compare(_unit_path(a, "interval"), _unit_path(b, "interval"),
                          method="jackknife")
    ref = accord.compare(_pattern_path(a, "interval"), _pattern_path(b, "interval"),
                         method="jackknife")
    assert fast.difference == pytest.approx(ref.difference, abs=1e-12)
    assert (fast.interval.low, fast.interval.high) == pytest.approx(
        (ref.interval.low, ref.interval.high), abs=1e-12)
    assert fast.pvalue == pytest.approx(ref.pvalue, rel=1e-9) and fast.n_shared == 60
