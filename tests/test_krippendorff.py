"""Krippendorff's alpha: published cases, the krippendorff package, irrCAC's SE, properties.

Sources of the expected numbers (each test names its own):

- Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability, examples A and C
  (full-precision values as in ../shared/reference/cases.json: R irr 0.84.1 kripp.alpha and
  the Python krippendorff 0.9.0 agree on them);
- Wikipedia "Krippendorff's alpha" computational example (fast-krippendorff doctest 0.691358);
- Hayes, A. F. & Krippendorff, K. (2007), Table 1 data, ordinal alpha .7598;
- R irrCAC README: krippen.alpha.raw(cac.raw4raters) SE 0.14557, p-value 0.0004594257
  (1.0, CRAN, unit terms centred on p_a) and SE 0.14548 (1.2 on, GitHub kgwet/irrCAC,
  centred on p_a'); krippen.alpha.dist(distrib.6raters) alpha 0.4204384;
  krippen2.table(cont3x3abstractors) alpha 0.7972585, SE 0.05905473;
- the Python ``krippendorff`` package 0.9.0, run here on random data.
"""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import accord
from accord import CoincidenceMatrix, ContingencyTable, RaterCounts
from accord.coefficients import _differences as dif
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)

LEVELS = ("nominal", "ordinal", "interval", "ratio")
N = None

# Krippendorff (2011) example C: 12 units (rows) x 4 observers; unit 12 is unpairable.
EXAMPLE_C = [[1, 1, N, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
             [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [N, 5, 5, 5], [N, N, 1, 1], [N, N, 3, N]]
EXAMPLE_C_ALPHA = {"nominal": 0.7434210526, "ordinal": 0.8153875038,
                   "interval": 0.8491071429, "ratio": 0.7974027747}

# Hayes & Krippendorff (2007), Table 1: 40 news articles x 5 observers, ordinal 0-3.
HAYES_2007 = [
    [1, 1, 2, N, 2], [1, 1, 0, 1, N], [2, 3, 3, 3, N], [N, 0, 0, N, 0], [0, 0, 0, N, 0],
    [0, 0, 0, N, 0], [1, 0, 2, N, 1], [1, N, 2, 0, N], [2, 2, 2, N, 2], [2, 1, 1, 1, N],
    [N, 1, 0, 0, N], [0, 0, 0, 0, N], [1, 2, 2, 2, N], [3, 3, 2, 2, 3], [1, 1, 1, N, 1],
    [1, 1, 1, N, 1], [2, 1, 2, N, 2], [1, 2, 3, 3, N], [1, 1, 0, 1, N], [0, 0, 0, N, 0],
    [0, 0, 1, 1, N], [0, 0, N, 0, 0], [2, 3, 3, 3, N], [0, 0, 0, 0, N], [1, 2, N, 2, 2],
    [0, 1, 1, 1, N], [0, 0, 0, 1, 0], [1, 2, 1, 2, N], [1, 1, 2, 2, N], [1, 1, 2, N, 2],
    [1, 1, 0, N, 0], [2, 1, 2, 1, N], [2, 2, N, 2, 2], [3, 2, 2, 2, N], [2, 2, 2, N, 2],
    [2, 2, 3, N, 2], [2, 2, 2, N, 2], [2, 2, N, 1, 2], [2, 2, 2, 2, N], [1, 1, 1, N, 1],
]

# irrCAC's distrib.6raters: 15 patients x 5 diagnoses, counts of 6 psychiatrists.
DISTRIB_6RATERS = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
                   [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
                   [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
                   [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1]]


def _array(rows: list[list[int | None]]) -> np.ndarray:
    return np.array([[np.nan if x is None else x for x in row] for row in rows], dtype=float)


def _random_ratings(seed: int, units: int = 60, raters: int = 4, k: int = 6,
                    missing: float = 0.25) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, units)
    x = (truth[:, None] + rng.integers(-1, 2, (units, raters))).clip(0, k - 1) + 1.0
    x[rng.random(x.shape) < missing] = np.nan
    return x


# ------------------------------------------------------------------ published cases
@pytest.mark.parametrize("level", LEVELS)
def test_krippendorff_2011_example_c(level: str) -> None:
    res = accord.krippendorff_alpha(EXAMPLE_C, level=level, categories=[1, 2, 3, 4, 5])
    assert res.estimate == pytest.approx(EXAMPLE_C_ALPHA[level], abs=1e-9)
    assert res.n_units == 11 and res.details["n_unpairable_units"] == 1
    assert res.details["n_pairable_values"] == 40
    assert res.estimate == pytest.approx(1 - res.observed / res.expected, abs=1e-15)


def test_krippendorff_2011_example_a_binary() -> None:
    data = [[0, 1], [1, 1], [0, 1], [0, 0], [0, 0], [0, 1], [0, 0], [0, 0], [1, 0], [0, 0]]
    res = accord.krippendorff_alpha(data)
    # Krippendorff (2011) example A: D_o = .400, D_e = .442, alpha = .095 (exactly 2/21).
    assert res.estimate == pytest.approx(2 / 21, abs=1e-14)
    assert res.observed == pytest.approx(0.4, abs=1e-15)
    assert res.expected == pytest.approx(168 / 380, abs=1e-15)


def test_wikipedia_nominal_example() -> None:
    data = [[N, 1, N], [N, N, N], [N, 2, 2], [N, 1, 1], [N, 3, 3], [3, 3, 4], [4, 4, 4],
            [1, 3, N], [2, N, 2], [1, N, 1], [1, N, 1], [3, N, 3], [3, N, 3], [N, N, N],
            [3, N, 4]]
    assert accord.krippendorff_alpha(data).estimate == pytest.approx(0.6913580247, abs=1e-9)


def test_hayes_krippendorff_2007_ordinal() -> None:
    data = _array(HAYES_2007)
    res = accord.krippendorff_alpha(data, level="ordinal")
    assert round(res.estimate, 4) == 0.7598  # Hayes & Krippendorff (2007), KALPHA output
    peer = krippendorff.alpha(data.T, level_of_measurement="ordinal")  # 0.9.0: 0.75982918915...
    assert res.estimate == pytest.approx(peer, abs=1e-13)


def test_coincidences_of_example_c() -> None:
    # o_ck of example C, derived by hand from the data as in Krippendorff (2011), sec. C
    # (e.g. o_12 = 1 from unit 8 plus 1/3 from unit 6); rows sum to n_c = 9, 13, 10, 5, 3.
    t = 1 / 3
    expected = np.array([[7, 4 * t, t, t, 0], [4 * t, 10, 4 * t, t, 0],
                         [t, 4 * t, 8, t, 0], [t, t, t, 4, 0], [0, 0, 0, 0, 3]])
    cm = CoincidenceMatrix.from_array(_array(EXAMPLE_C))
    np.testing.assert_allclose(cm.coincidences, expected, atol=1e-14)
    np.testing.assert_allclose(cm.marginals, [9, 13, 10, 5, 3], atol=0)
    np.testing.assert_allclose(cm.diagonal, np.diag(expected), atol=1e-14)
    np.testing.assert_allclose(cm.expected.sum(axis=1), cm.marginals, atol=1e-12)


# ------------------------------------------------------------------ Gwet's SE (irrCAC)
def test_gwet_se_matches_irrcac_readme() -> None:
    res = accord.krippendorff_alpha(EXAMPLE_C)
    # irrCAC 1.2+ README (GitHub kgwet/irrCAC): krippen.alpha.raw(cac.raw4raters): se 0.14548
    # (unit terms centred on p_a'; irrCAC 1.0 on CRAN, centred on p_a, prints 0.14557).
    assert res.se == pytest.approx(0.14548, abs=5e-6)
    se_cran = _irrcac_alpha_se(_array(EXAMPLE_C), 1.0 - np.eye(5), np.arange(1.0, 6.0),
                               centre="pa")
    assert se_cran == pytest.approx(0.14557, abs=5e-6)
    # p-value: irrCAC 1.4's t test on every unit with a value - 1 = 11 df, two-sided
    # (test_hardening_alpha has the printed figures); irrCAC 1.0's test (its SE, pairable
    # units - 1 = 10 df) gave 0.0004594257.
    t = res.estimate / res.se
    assert res.details["pvalue"] == pytest.approx(2 * stats.t.sf(t, 11), rel=1e-12)
    assert 2 * stats.t.sf(res.estimate / se_cran, 10) == pytest.approx(0.0004594257, abs=1e-10)
    assert res.details["se_method"] == "gwet_2014"


def test_contingency_table_se_matches_krippen2_table() -> None:
    table = ContingencyTable([[13, 0, 0], [0, 20, 7], [0, 4, 56]])  # cont3x3abstractors
    res = accord.krippendorff_alpha(table)
    # irrCAC README: krippen2.table(cont3x3abstractors): 0.7972585, se 0.05905473.
    assert res.estimate == pytest.approx(0.7972585, abs=5e-8)
    assert res.se == pytest.approx(0.05905473, abs=5e-9)
    assert res.details["se_method"] == "gwet_2014_table"
    # The raw ratings divide by n (n - 1) instead of n^2: same estimate, SE larger by
    # sqrt(n / (n - 1)).
    raw = accord.krippendorff_alpha(_pairs([[13, 0, 0], [0, 20, 7], [0, 4, 56]]))
    assert raw.estimate == pytest.approx(res.estimate, abs=1e-14)
    assert raw.se == pytest.approx(res.se * math.sqrt(100 / 99), rel=1e-12)


def test_asymmetric_difference_matrix_counts_its_symmetric_part() -> None:
    # Coincidences are symmetric, so alpha and its SE see only (delta + delta^T) / 2.
    data = _random_ratings(7, k=4)
    rng = np.random.default_rng(7)
    delta = rng.random((4, 4))
    np.fill_diagonal(delta, 0.0)
    asym = accord.krippendorff_alpha(data, level=delta, categories=[1.0, 2.0, 3.0, 4.0])
    sym = accord.krippendorff_alpha(data, level=(delta + delta.T) / 2,
                                    categories=[1.0, 2.0, 3.0, 4.0])
    assert asym.estimate == pytest.approx(sym.estimate, abs=1e-14)
    assert asym.se == pytest.approx(sym.se, rel=1e-12)


def _pairs(counts: list[list[int]]) -> np.ndarray:
    return np.array([[i, j] for i, row in enumerate(counts) for j, c in enumerate(row)
                     for _ in range(c)], dtype=float)


def test_pvalue_is_zero_for_perfect_agreement() -> None:
    res = accord.krippendorff_alpha([[1, 1], [2, 2], [3, 3], [1, 1]])
    # alpha = 1 with SE 0: the t statistic is infinite, so p = 0 (irrCAC prints 0).
    assert res.estimate == 1.0 and res.se == 0.0
    assert res.details["pvalue"] == 0.0


def _irrcac_alpha_se(data: np.ndarray, delta: np.ndarray, values: np.ndarray,
                     centre: str = "pa_prime") -> float:
    """irrCAC krippen.alpha.raw, transcribed unit by unit (weights w = 1 - delta / max).

    ``centre="pa_prime"``: irrCAC 1.2+ (GitHub); ``"pa"``: irrCAC 1.0 (CRAN).
    """
    w = 1.0 - delta / delta.max()
    agree = np.stack([(data == v).sum(axis=1) for v in values], axis=1).astype(float)
    r = agree.sum(axis=1)
    agree = agree[r >= 2]
    r = r[r >= 2]
    n, rbar, eps = len(r), r.mean(), 1.0 / r.sum()
    sum_q = (agree * (agree @ w.T - 1.0)).sum(axis=1)
    pa_prime = np.sum(sum_q / (rbar * (r - 1.0))) / n
    pa = (1.0 - eps) * pa_prime + eps
    pi = (agree / rbar).mean(axis=0)
    pe = pi @ w @ pi
    prime = (pa_prime - pe) / (1.0 - pe)
    pa_i = sum_q / (rbar * (r - 1.0)) - (pa if centre == "pa" else pa_prime) * (r - rbar) / rbar
    k_i = (pa_i - pe) / (1.0 - pe)
    pe_i = agree @ ((w @ pi + w.T @ pi) / 2.0) / rbar - pe * (r - rbar) / rbar
    k_x = k_i - 2.0 * (1.0 - prime) * (pe_i - pe) / (1.0 - pe)
    return float(np.sqrt(np.sum((k_x - prime) ** 2) / (n * (n - 1.0))))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2])
def test_gwet_se_against_unit_level_transcription(level: str, seed: int) -> None:
    data = _random_ratings(seed)
    values = np.unique(data[~np.isnan(data)])
    cm = CoincidenceMatrix.from_array(data)
    if level == "ordinal":
        t = dif.midranks(cm.marginals)
        delta = (t[:, None] - t[None, :]) ** 2
    elif level == "interval":
        delta = (values[:, None] - values[None, :]) ** 2
    elif level == "ratio":
        delta = dif.ratio_delta(values[:, None], values[None, :])
    else:
        delta = 1.0 - np.eye(values.size)
    res = accord.krippendorff_alpha(data, level=level)
    assert res.se == pytest.approx(_irrcac_alpha_se(data, delta, values), rel=1e-12)


def test_counts_input_reproduces_irrcac_dist_alpha() -> None:
    res = accord.krippendorff_alpha(RaterCounts(DISTRIB_6RATERS))
    assert res.estimate == pytest.approx(0.4204384, abs=5e-8)  # irrCAC README
    # irrCAC's krippen.alpha.dist reports SE 0.08243228 from a different linearisation
    # (factor (1 - alpha) instead of 2 (1 - alpha')); accord uses krippen.alpha.raw's.
    wide = np.full((15, 6), np.nan)
    for u, row in enumerate(DISTRIB_6RATERS):
        wide[u] = np.repeat(np.arange(5), row)
    raw = accord.krippendorff_alpha(wide)
    assert res.se == pytest.approx(raw.se, rel=1e-13)
    assert res.se == pytest.approx(
        _irrcac_alpha_se(wide, 1.0 - np.eye(5), np.arange(5.0)), rel=1e-12)


# ------------------------------------------------------------------ krippendorff package
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_matches_krippendorff_package_with_missing_values(level: str, seed: int) -> None:
    data = _random_ratings(seed, units=80, raters=5, k=7, missing=0.3)
    expected = krippendorff.alpha(data.T, level_of_measurement=level)  # krippendorff 0.9.0
    assert accord.krippendorff_alpha(data, level=level).estimate == pytest.approx(
        expected, abs=1e-12)


@pytest.mark.parametrize("level", LEVELS)
def test_continuous_values_match_krippendorff_package(level: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    data = np.abs(rng.normal(size=(60, 1)) + rng.normal(scale=0.6, size=(60, 3))) + 0.05
    data[rng.random(data.shape) < 0.1] = np.nan
    expected = krippendorff.alpha(data.T, level_of_measurement=level)
    # below the exact limit ratio uses exact double sums; force the interpolation on bins too
    assert accord.krippendorff_alpha(data, level=level).estimate == pytest.approx(
        expected, abs=1e-12)
    monkeypatch.setattr(dif, "RATIO_EXACT_LIMIT", 10)
    assert accord.krippendorff_alpha(data, level=level).estimate == pytest.approx(
        expected, abs=1e-12)


def test_ratio_sums_on_bins_against_exact_double_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(8)
    for x in (np.concatenate([[0.0], rng.lognormal(0, 3, 1500)]),
              1.0 + 1e-6 * rng.random(1500), 10 ** rng.uniform(-8, 8, 1500)):
        w = rng.integers(1, 4, x.size).astype(float)
        exact_pairs = float(w @ dif._exact_kernel(x, w, x))
        exact_kernel = dif._exact_kernel(x, w, x)
        monkeypatch.setattr(dif, "RATIO_EXACT_LIMIT", 10)
        assert dif.ratio_pair_sum(x, w) == pytest.approx(exact_pairs, rel=1e-13)
        np.testing.assert_allclose(dif.ratio_kernel_sums(x, w, x), exact_kernel, rtol=1e-13)
        monkeypatch.undo()


def test_continuous_interval_does_not_build_a_value_matrix() -> None:
    rng = np.random.default_rng(9)
    data = rng.normal(size=(20_000, 1)) + rng.normal(size=(20_000, 3))
    res = accord.krippendorff_alpha(data, level="interval")
    cm = CoincidenceMatrix.from_array(data)
    assert cm.k == 60_000
    with pytest.raises(DataError, match="not built"):
        _ = cm.coincidences
    # interval alpha from the moments: D_e is twice the variance of all values (n / (n - 1)).
    flat = data.reshape(-1)
    d_e = 2.0 * flat.var() * flat.size / (flat.size - 1.0)
    d_o = np.mean([2.0 * 3 * row.var() * 3 / 2 for row in data]) / 3
    assert res.expected == pytest.approx(d_e, rel=1e-12)
    assert res.observed == pytest.approx(d_o, rel=1e-12)


# ------------------------------------------------------------------ inputs and distances
def test_every_input_form_gives_the_same_alpha() -> None:
    data = _random_ratings(10, units=50, raters=2, missing=0.0)
    ann = accord.Annotations.from_wide(data.tolist())
    expected = accord.krippendorff_alpha(data).estimate
    table = ContingencyTable.from_annotations(ann)
    for form in (ann, data.tolist(), table, RaterCounts.from_annotations(ann),
                 CoincidenceMatrix.from_annotations(ann), CoincidenceMatrix.from_table(table)):
        assert accord.krippendorff_alpha(form).estimate == pytest.approx(expected, abs=1e-14)


def test_array_fast_path_equals_the_annotations_path() -> None:
    rng = np.random.default_rng(14)
    data = rng.integers(-3, 4, (200, 5)).astype(float)
    data[rng.random(data.shape) < 0.4] = np.nan
    fast = CoincidenceMatrix.from_array(data)
    slow = CoincidenceMatrix.from_annotations(accord.Annotations.from_wide(data.tolist()))
    assert fast.categories == slow.categories
    assert fast.n_unpairable == slow.n_unpairable and fast.n_units == slow.n_units
    np.testing.assert_allclose(fast.coincidences, slow.coincidences, atol=1e-13)
    for level in ("nominal", "ordinal", "interval"):
        assert accord.krippendorff_alpha(fast, level=level).estimate == pytest.approx(
            accord.krippendorff_alpha(slow, level=level).estimate, abs=1e-13)
    assert fast.unit_patterns is not None and fast.unit_patterns.shape == (fast.n_units,)


def test_custom_distances_reproduce_the_named_levels() -> None:
    data = _random_ratings(11)
    values = np.unique(data[~np.isnan(data)])
    interval = accord.krippendorff_alpha(data, level="interval").estimate
    matrix = (values[:, None] - values[None, :]) ** 2
    assert accord.krippendorff_alpha(data, level=matrix).estimate == pytest.approx(
        interval, abs=1e-13)
    assert accord.krippendorff_alpha(data, level=lambda c, k: (c - k) ** 2).estimate == \
        pytest.approx(interval, abs=1e-13)
    nominal = accord.krippendorff_alpha(data).estimate
    scalar_only = accord.krippendorff_alpha(data, level=lambda c, k: 0.0 if c == k else 1.0)
    assert scalar_only.estimate == pytest.approx(nominal, abs=1e-13)
    assert scalar_only.details["level"] == "custom"


def test_ordinal_uses_declared_order_and_labels() -> None:
    words = {1: "low", 2: "mid", 3: "high", 4: "top", 5: "max"}
    labelled = [[None if x is None else words[x] for x in row] for row in EXAMPLE_C]
    res = accord.krippendorff_alpha(labelled, level="ordinal",
                                    categories=["low", "mid", "high", "top", "max"])
    assert res.estimate == pytest.approx(EXAMPLE_C_ALPHA["ordinal"], abs=1e-9)


def test_shards_add_up() -> None:
    data = _random_ratings(12)
    whole = accord.krippendorff_alpha(data, level="ordinal").estimate
    a = CoincidenceMatrix.from_array(data[:30])
    b = CoincidenceMatrix.from_array(data[30:])
    assert a.categories == b.categories
    assert accord.krippendorff_alpha(a + b, level="ordinal").estimate == pytest.approx(
        whole, abs=1e-13)


# ------------------------------------------------------------------ bad input, undefined
def test_bad_input_gives_one_clear_sentence() -> None:
    with pytest.raises(InvalidParameterError, match=r"5 x 5 difference matrix"):
        accord.krippendorff_alpha(EXAMPLE_C, level=np.ones((3, 3)))
    with pytest.raises(InvalidParameterError, match="0 on the diagonal"):
        accord.krippendorff_alpha(EXAMPLE_C, level=np.ones((5, 5)))
    with pytest.raises(InvalidParameterError, match="non-negative"):
        accord.krippendorff_alpha(EXAMPLE_C, level=-(1 - np.eye(5)))
    with pytest.raises(InvalidParameterError, match="'level' parameter"):
        accord.krippendorff_alpha(EXAMPLE_C, level="quadratic")
    with pytest.raises(DataError, match="needs numeric values"):
        accord.krippendorff_alpha([["a", "b"], ["b", "b"]], level="interval")
    with pytest.raises(DataError, match="non-negative values"):
        accord.krippendorff_alpha([[-1, 2], [2, 2]], level="ratio")
    with pytest.raises(InsufficientDataError, match="at least two raters"):
        accord.krippendorff_alpha(np.array([[1.0], [2.0]]))
    with pytest.raises(InsufficientDataError, match="at least two raters"):
        accord.krippendorff_alpha([[1], [2]])
    with pytest.raises(InsufficientDataError, match="nothing to pair"):
        accord.krippendorff_alpha(np.array([[1.0, np.nan], [np.nan, 2.0]]))


@pytest.mark.parametrize("level", LEVELS)
def test_one_value_throughout_is_undefined(level: str) -> None:
    with pytest.warns(DegenerateDataWarning, match="D_e is 0"):
        res = accord.krippendorff_alpha([[3, 3], [3, 3], [3, None]], level=level)
    assert math.isnan(res.estimate) and math.isnan(res.se)
    assert "every pairable value is 3" in res.undefined_reason
    assert res.observed == 0.0


def test_zero_custom_distance_and_empty_matrix_are_undefined() -> None:
    with pytest.warns(DegenerateDataWarning, match="difference function is 0"):
        res = accord.krippendorff_alpha([[1, 2], [2, 1]], level=np.zeros((2, 2)))
    assert math.isnan(res.estimate)
    empty = CoincidenceMatrix.from_array(np.array([[1.0, np.nan], [np.nan, 2.0]]))
    with pytest.warns(DegenerateDataWarning, match="nothing to pair"):
        res = accord.krippendorff_alpha(empty)
    assert math.isnan(res.estimate) and res.resampling is None


# ------------------------------------------------------------------ resampling
@pytest.mark.parametrize("level", LEVELS)
def test_resampling_full_equals_estimate(level: str) -> None:
    res = accord.krippendorff_alpha(EXAMPLE_C, level=level)
    assert res.resampling is not None
    assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-13)
    ci = res.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=400, rng=1))
    assert ci.low <= res.estimate <= ci.high
    assert res.confidence_interval(method="jackknife").low < res.estimate


def test_large_ratio_data_report_that_they_cannot_be_resampled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dif, "RATIO_EXACT_LIMIT", 10)
    res = accord.krippendorff_alpha(_random_ratings(13, k=30) * 1.5, level="ratio")
    with pytest.raises(InvalidParameterError, match="too large to resample"):
        res.confidence_interval(method="jackknife")
    assert math.isfinite(res.confidence_interval().low)


def test_asymptotic_interval_uses_gwet_se() -> None:
    res = accord.krippendorff_alpha(EXAMPLE_C)
    ci = res.confidence_interval(0.95)
    z = stats.norm.ppf(0.975)
    assert ci.low == pytest.approx(res.estimate - z * res.se, abs=1e-14)
    assert ci.high == 1.0  # clipped to alpha's range


# ------------------------------------------------------------------ properties
ratings = st.integers(min_value=5, max_value=25).flatmap(
    lambda n: st.lists(st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=3,
                                max_size=3), min_size=n, max_size=n))


def _defined(data: list[list[int | None]], level: str) -> float | None:
    arr = _array(data)
    per_unit = (~np.isnan(arr)).sum(axis=1)
    pairable = arr[per_unit >= 2]
    if pairable.size == 0 or np.unique(pairable[~np.isnan(pairable)]).size < 2:
        return None
    return accord.krippendorff_alpha(arr, level=level).estimate


@given(ratings, st.sampled_from(LEVELS), st.randoms(use_true_random=False))
def test_rater_and_unit_order_do_not_matter(data: list[list[int | None]], level: str,
                                            rnd: object) -> None:
    value = _defined(data, level)
    if value is None:
        return
    arr = _array(data)
    rows = list(range(arr.shape[0]))
    rnd.shuffle(rows)  # type: ignore[attr-defined]
    shuffled = arr[rows][:, [2, 0, 1]]
    assert accord.krippendorff_alpha(shuffled, level=level).estimate == pytest.approx(
        value, abs=1e-12)


@given(st.lists(st.integers(1, 6), min_size=2, max_size=30), st.integers(2, 5),
       st.sampled_from(LEVELS))
def test_perfect_agreement_is_one(truth: list[int], raters: int, level: str) -> None:
    if len(set(truth)) < 2:
        return
    data = np.repeat(np.array(truth, dtype=float)[:, None], raters, axis=1)
    assert accord.krippendorff_alpha(data, level=level).estimate == pytest.approx(1.0, abs=1e-14)


@given(st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4)), min_size=3, max_size=40),
       st.sampled_from(LEVELS))
def test_two_raters_equal_contingency_table_form(pairs: list[tuple[int, int]],
                                                 level: str) -> None:
    if len({v for p in pairs for v in p}) < 2:
        return
    a, b = zip(*pairs)
    table = accord.ContingencyTable.from_annotations(accord.Annotations.from_pairs(a, b))
    raw = accord.krippendorff_alpha([list(p) for p in pairs], level=level).estimate
    assert accord.krippendorff_alpha(table, level=level).estimate == pytest.approx(
        raw, abs=1e-13)


@given(ratings, st.sampled_from(LEVELS))
def test_raw_data_equal_rater_counts(data: list[list[int | None]], level: str) -> None:
    value = _defined(data, level)
    if value is None:
        return
    ann = accord.Annotations.from_wide(data)
    counts = RaterCounts.from_annotations(ann)
    assert accord.krippendorff_alpha(counts, level=level).estimate == pytest.approx(
        value, abs=1e-12)
    res = accord.krippendorff_alpha(counts, level=level)
    assert res.resampling().full() == pytest.approx(value, abs=1e-12)
