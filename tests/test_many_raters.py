"""Many-rater coefficients against published values and established implementations.

Sources of the numbers (copied here so the tests stand on their own):

* Fleiss (1971), Psychological Bulletin 76:378-382, Table 1 (30 patients x 6
  psychiatrists x 5 diagnoses); exact values from R irr 0.84.1
  ``kappam.fleiss(diagnoses, detail=TRUE)`` == statsmodels 0.15 ``fleiss_kappa``
  (reference cases ``fleiss_1971_diagnoses_counts`` and
  ``conger_kappa_fleiss_1971_diagnoses`` in ../shared/reference/cases.json).
* R irrCAC 1.0 vignettes "overview" and "weighting" (K. Gwet, 2021), printed output
  for ``distrib.6raters`` (first 15 patients of Fleiss 1971) and ``cac.raw4raters``
  (Gwet 2014, p. 120: 12 units x 4 raters with missing ratings). irrCAC prints
  ``coeff.val`` and ``coeff.se`` of the ``*.raw`` functions rounded to 5 decimals,
  ``pa``/``pe`` to 7 significant digits; the tolerances below say so.
* Wikipedia "Fleiss' kappa" worked example (also statsmodels test_inter_rater.py).
* R irr 0.84.1 documentation examples: ``agree(video)`` = 35 %, ``agree(video, 1)``
  = 90 %, ``kappam.light(diagnoses)`` = 0.459.
"""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import accord
from accord import RaterCounts
from accord.coefficients import many_raters
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)

# Fleiss (1971) Table 1: patients x (Depression, Personality disorder, Schizophrenia,
# Neurosis, Other), six psychiatrists per patient.
FLEISS_1971 = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1], [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0], [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0], [1, 0, 5, 0, 0], [0, 0, 0, 0, 6],
]
DISTRIB_6RATERS = FLEISS_1971[:15]
# R irr's ``diagnoses``: the same patients as 6 rating slots.
DIAGNOSES = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]
N = None
# irrCAC ``cac.raw4raters`` (Gwet 2014, p. 120; Krippendorff 2011 example C).
RAW4 = [
    [1, 1, N, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [N, 5, 5, 5], [N, N, 1, 1], [N, N, 3, N],
]
# R irr's ``video`` (20 subjects, 4 raters).
VIDEO = [
    [4, 4, 3, 4], [4, 4, 4, 5], [4, 4, 5, 5], [4, 4, 4, 4], [4, 3, 2, 4], [4, 4, 3, 4],
    [4, 3, 2, 5], [4, 4, 3, 4], [4, 3, 3, 4], [4, 3, 3, 4], [4, 4, 3, 4], [4, 3, 3, 4],
    [4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 3, 4], [4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4],
    [4, 4, 4, 4], [4, 5, 5, 4],
]
ROUNDED_5 = 5.01e-6  # irrCAC prints coeff.val / coeff.se of *.raw to 5 decimals
SEVEN_DIGITS = 5.01e-8  # irrCAC prints pa / pe to 7 significant digits


def irrcac_t_interval(res: accord.AgreementResult, level: float = 0.95) -> tuple[float, float]:
    """irrCAC's interval: estimate +/- t(n - 1) * se, upper limit capped at 1."""
    t = stats.t.ppf(0.5 + level / 2, res.n_units - 1)
    return res.estimate - t * res.se, min(1.0, res.estimate + t * res.se)


# --------------------------------------------------------------------------- Fleiss
class TestFleissReference:
    def test_fleiss_1971_counts(self) -> None:
        # case fleiss_1971_diagnoses_counts
        res = accord.fleiss_kappa(RaterCounts(FLEISS_1971, categories=[1, 2, 3, 4, 5]))
        assert res.estimate == pytest.approx(0.4302445201, abs=1e-9)
        assert res.observed == pytest.approx(0.5555555556, abs=1e-9)
        assert res.expected == pytest.approx(0.2199382716, abs=1e-9)
        assert res.details["se0"] == pytest.approx(0.0243739321, abs=1e-9)
        assert "se0_note" not in res.details
        assert res.details["z"] == pytest.approx(17.65183058, abs=1e-6)
        assert res.details["pvalue"] == pytest.approx(2 * stats.norm.sf(17.65183058), rel=1e-5)
        # irrCAC 1.0 fleiss.kappa.dist: se .0542 (the "also" field of the case)
        assert res.se == pytest.approx(0.0542, abs=5e-5)
        assert (res.n_units, res.n_raters) == (30, 6)

    @pytest.mark.parametrize(("cat", "kappa", "z"), [
        (1, 0.2447552448, 5.192042799), (2, 0.2447552448, 5.192042799),
        (3, 0.52, 11.03086579), (4, 0.4711272727, 9.99411868), (5, 0.5661178068, 12.0091722),
    ])
    def test_fleiss_1971_per_category(self, cat: int, kappa: float, z: float) -> None:
        res = accord.fleiss_kappa(RaterCounts(FLEISS_1971, categories=[1, 2, 3, 4, 5]))
        row = res.per_category[cat]
        assert row["kappa"] == pytest.approx(kappa, abs=1e-9)
        assert row["z"] == pytest.approx(z, abs=1e-6)
        assert row["se0"] == pytest.approx(math.sqrt(2 / (30 * 6 * 5)), abs=1e-15)

    def test_raw_diagnoses_equal_counts(self) -> None:
        raw = accord.fleiss_kappa(DIAGNOSES)
        counts = accord.fleiss_kappa(RaterCounts(FLEISS_1971, categories=[1, 2, 3, 4, 5]))
        for key in ("estimate", "observed", "expected", "se"):
            assert getattr(raw, key) == pytest.approx(getattr(counts, key), abs=1e-14)
        assert raw.details["z"] == pytest.approx(counts.details["z"], abs=1e-12)

    def test_wikipedia_example(self) -> None:
        counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                  [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                  [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
        res = accord.fleiss_kappa(RaterCounts(counts))
        assert res.estimate == pytest.approx(0.2099307044, abs=1e-9)
        assert res.observed == pytest.approx(0.378021978, abs=1e-9)
        assert res.expected == pytest.approx(0.212755102, abs=1e-9)

    def test_irrcac_distrib6raters(self) -> None:
        # case fleiss_irrCAC_distrib6raters: 0.4139265, se 0.08119291, CI (0.24, 0.588)
        res = accord.fleiss_kappa(RaterCounts(DISTRIB_6RATERS))
        assert res.estimate == pytest.approx(0.413926499, abs=1e-9)
        assert res.se == pytest.approx(0.0811929092, abs=1e-10)
        assert res.observed == pytest.approx(0.5511111111, abs=1e-9)
        assert res.expected == pytest.approx(0.2340740741, abs=1e-9)
        low, high = irrcac_t_interval(res)
        assert (low, high) == pytest.approx((0.24, 0.588), abs=6e-4)

    def test_irrcac_distrib6raters_quadratic(self) -> None:
        # weighting vignette: fleiss.kappa.dist(distrib.6raters, quadratic.weights(1:5))
        res = accord.fleiss_kappa(RaterCounts(DISTRIB_6RATERS), weights="quadratic")
        assert res.estimate == pytest.approx(0.2511909, abs=SEVEN_DIGITS)
        assert res.se == pytest.approx(0.1457381, abs=SEVEN_DIGITS)
        assert res.observed == pytest.approx(0.8544444, abs=SEVEN_DIGITS)
        assert res.expected == pytest.approx(0.8056173, abs=SEVEN_DIGITS)
        assert "se0" not in res.details and res.per_category is None

    def test_edge_minus_one(self) -> None:
        # case fleiss_edge_minus1: two ratings per unit, always split
        res = accord.fleiss_kappa(RaterCounts([[1, 1]] * 10))
        assert res.estimate == pytest.approx(-1.0, abs=1e-12)
        assert (res.observed, res.expected) == pytest.approx((0.0, 0.5), abs=1e-12)

    @pytest.mark.parametrize(("weights", "est", "pa", "pe", "se"), [
        (None, 0.76117, 0.8181818, 0.2387153, 0.15302),
        ("quadratic", 0.86494, 0.9753788, 0.8177083, 0.14603),
    ])
    def test_irrcac_raw4raters(self, weights: str | None, est: float, pa: float, pe: float,
                               se: float) -> None:
        res = accord.fleiss_kappa(RAW4, weights=weights)
        assert res.estimate == pytest.approx(est, abs=ROUNDED_5)
        assert res.se == pytest.approx(se, abs=ROUNDED_5)
        assert res.observed == pytest.approx(pa, abs=SEVEN_DIGITS)
        assert res.expected == pytest.approx(pe, abs=SEVEN_DIGITS)
        assert res.n_units == 12 and res.details["n_units_p_a"] == 11
        # units rate by different numbers of raters: no Fleiss-Nee-Landis null SE
        if weights is None:
            assert math.isnan(res.details["se0"])
            assert "same number of ratings on every unit" in res.details["se0_note"]


# --------------------------------------------------------------------------- other coefficients
class TestIrrCACRaw4Raters:
    """R irrCAC vignettes on cac.raw4raters (missing ratings), unweighted and quadratic."""

    @pytest.mark.parametrize(("func", "weights", "est", "pe", "se"), [
        (accord.gwet_ac1, None, 0.77544, 0.1903212, 0.14295),
        (accord.gwet_ac1, "quadratic", 0.914, 0.7137044, 0.10396),
        (accord.brennan_prediger, None, 0.77273, 0.2, 0.14472),
        (accord.brennan_prediger, "quadratic", 0.90152, 0.75, 0.11089),
        (accord.conger_kappa, None, 0.76282, 0.2334252, 0.14917),
        (accord.conger_kappa, "quadratic", 0.85771, 0.8269638, 0.14367),
    ])
    def test_coefficient(self, func: object, weights: str | None, est: float, pe: float,
                         se: float) -> None:
        res = func(RAW4, weights=weights)  # type: ignore[operator]
        assert res.estimate == pytest.approx(est, abs=ROUNDED_5)
        assert res.expected == pytest.approx(pe, abs=SEVEN_DIGITS)
        assert res.se == pytest.approx(se, abs=ROUNDED_5)
        assert res.observed == pytest.approx(0.8181818 if weights is None else 0.9753788,
                                             abs=SEVEN_DIGITS)

    @pytest.mark.parametrize(("weights", "pa", "se"), [
        (None, 9 / 11, 0.12561), ("quadratic", 0.9753788, 0.09062),
    ])
    def test_percent_agreement(self, weights: str | None, pa: float, se: float) -> None:
        res = accord.percent_agreement(RAW4, weights=weights)
        assert res.estimate == pytest.approx(pa, abs=SEVEN_DIGITS)
        assert res.se == pytest.approx(se, abs=ROUNDED_5)
        assert math.isnan(res.expected)


class TestIrrCACDistrib6Raters:
    def test_ac1(self) -> None:
        # case gwet_ac1_irrCAC_distrib6raters: 0.4448007, se 0.08418757, CI (0.264, 0.625)
        res = accord.gwet_ac1(RaterCounts(DISTRIB_6RATERS))
        assert res.estimate == pytest.approx(0.4448007329, abs=1e-9)
        assert res.se == pytest.approx(0.08418756677, abs=1e-10)
        assert res.observed == pytest.approx(0.5511111111, abs=1e-9)
        assert res.expected == pytest.approx(0.1914814815, abs=1e-9)
        assert irrcac_t_interval(res) == pytest.approx((0.264, 0.625), abs=6e-4)

    @pytest.mark.parametrize(("func", "weights", "est", "se", "pe"), [
        (accord.brennan_prediger, None, 0.4388889, 0.08312142, 0.2),
        (accord.gwet_ac1, "quadratic", 0.4837438, 0.1058227, 0.7180556),
        (accord.brennan_prediger, "quadratic", 0.4177778, 0.1067493, 0.75),
    ])
    def test_vignette(self, func: object, weights: str | None, est: float, se: float,
                      pe: float) -> None:
        res = func(RaterCounts(DISTRIB_6RATERS), weights=weights)  # type: ignore[operator]
        assert res.estimate == pytest.approx(est, abs=SEVEN_DIGITS)
        assert res.se == pytest.approx(se, abs=5.01e-9 if se < 0.1 else SEVEN_DIGITS)
        assert res.expected == pytest.approx(pe, abs=SEVEN_DIGITS)


class TestConger:
    def test_fleiss_1971_wide(self) -> None:
        # case conger_kappa_fleiss_1971_diagnoses: irr kappam.fleiss(exact=TRUE) 0.4418
        res = accord.conger_kappa(DIAGNOSES)
        assert res.estimate == pytest.approx(0.4418085403, abs=1e-9)
        assert res.observed == pytest.approx(0.5555555556, abs=1e-9)
        assert res.expected == pytest.approx(0.2037777778, abs=1e-9)
        assert res.n_raters == 6

    def test_rater_counts_refused(self) -> None:
        with pytest.raises(DataError, match="which rater gave each rating"):
            accord.conger_kappa(RaterCounts(FLEISS_1971))


class TestLight:
    def test_diagnoses_irr_example(self) -> None:
        # irr::kappam.light(diagnoses): Kappa = 0.459
        res = accord.light_kappa(DIAGNOSES)
        assert res.estimate == pytest.approx(0.459, abs=5e-4)
        assert res.details["n_pairs"] == 15 and math.isnan(res.se)

    def test_mean_of_sklearn_cohen(self) -> None:
        from sklearn.metrics import cohen_kappa_score  # scikit-learn 1.9

        rng = np.random.default_rng(7)
        data = rng.integers(0, 4, size=(60, 5))
        data[:, 1] = np.where(rng.random(60) < 0.6, data[:, 0], data[:, 1])
        expected = np.mean([cohen_kappa_score(data[:, i], data[:, j])
                            for i in range(5) for j in range(i + 1, 5)])
        assert accord.light_kappa(data).estimate == pytest.approx(expected, abs=1e-12)

    def test_pairwise_units_with_missing(self) -> None:
        from sklearn.metrics import cohen_kappa_score

        data = np.array(DIAGNOSES, dtype=float)
        data[[0, 3, 7], 0] = np.nan
        data[[1, 2], 4] = np.nan
        kappas = []
        for i in range(6):
            for j in range(i + 1, 6):
                both = ~np.isnan(data[:, i]) & ~np.isnan(data[:, j])
                kappas.append(cohen_kappa_score(data[both, i], data[both, j]))
        assert accord.light_kappa(data).estimate == pytest.approx(np.mean(kappas), abs=1e-12)

    def test_pair_without_common_unit_left_out(self) -> None:
        data = [[1, None, 1], [2, None, 2], [None, 1, 1], [None, 2, 2], [1, None, 2]]
        res = accord.light_kappa(data)
        assert res.details["pairs_without_common_units"] == [("rater_1", "rater_2")]
        assert res.details["n_pairs"] == 2


class TestPercentAgreement:
    def test_irr_video_unanimous(self) -> None:
        res = accord.percent_agreement(VIDEO, definition="unanimous")
        assert res.estimate == pytest.approx(0.35, abs=1e-12)
        assert res.se == pytest.approx(math.sqrt(0.35 * 0.65 / 19), abs=1e-12)

    def test_irr_video_tolerance_one(self) -> None:
        res = accord.percent_agreement(VIDEO, definition="unanimous", tolerance=1)
        assert res.estimate == pytest.approx(0.90, abs=1e-12)

    def test_pairwise_tolerance_is_band_weights(self) -> None:
        band = np.array([[1.0 if abs(i - j) <= 1 else 0.0 for j in range(4)] for i in range(4)])
        a = accord.percent_agreement(VIDEO, tolerance=1)
        b = accord.percent_agreement(VIDEO, weights=band)
        assert a.estimate == pytest.approx(b.estimate, abs=1e-15)
        assert a.se == pytest.approx(b.se, abs=1e-15)

    def test_two_raters_forwarded(self) -> None:
        # two_raters.percent_agreement forwards non-default definition/tolerance
        y1, y2 = [1, 2, 3, 4, 5], [1, 3, 3, 2, 5]
        assert accord.percent_agreement(y1, y2, tolerance=1).estimate == pytest.approx(0.8)
        assert accord.percent_agreement(y1, y2, definition="unanimous").estimate == 0.6

    def test_bad_parameters(self) -> None:
        with pytest.raises(InvalidParameterError, match="'definition' parameter"):
            accord.percent_agreement(VIDEO, definition="all")
        with pytest.raises(InvalidParameterError, match="'tolerance' parameter"):
            accord.percent_agreement(VIDEO, definition="unanimous", tolerance=-1)
        with pytest.raises(InvalidParameterError, match="'weights' parameter"):
            accord.percent_agreement(VIDEO, definition="unanimous", weights="linear")
        with pytest.raises(InvalidParameterError, match="'tolerance' parameter"):
            many_raters.percent_agreement(VIDEO, weights="linear", tolerance=1)


# --------------------------------------------------------------------------- cross-checks
class TestPeers:
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_statsmodels_fleiss(self, seed: int) -> None:
        from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa  # 0.15

        rng = np.random.default_rng(seed)
        truth = rng.integers(0, 4, size=200)
        noisy = rng.integers(0, 4, size=(200, 7))
        data = np.where(rng.random((200, 7)) < 0.5, truth[:, None], noisy)
        table, _ = aggregate_raters(data)
        assert accord.fleiss_kappa(data).estimate == pytest.approx(fleiss_kappa(table), abs=1e-12)
        assert accord.brennan_prediger(data).estimate == pytest.approx(
            fleiss_kappa(table, method="randolph"), abs=1e-12)

    def test_two_raters_reduce_to_two_rater_coefficients(self) -> None:
        rng = np.random.default_rng(3)
        data = rng.integers(0, 3, size=(80, 2))
        data[:40, 1] = data[:40, 0]
        y1, y2 = data[:, 0].tolist(), data[:, 1].tolist()
        pairs = [(many_raters.fleiss_kappa, accord.scott_pi),
                 (many_raters.conger_kappa, accord.cohen_kappa),
                 (many_raters.light_kappa, accord.cohen_kappa),
                 (many_raters.gwet_ac1, accord.gwet_ac1),
                 (many_raters.brennan_prediger, accord.brennan_prediger),
                 (many_raters.percent_agreement, accord.percent_agreement)]
        for many, two in pairs:
            assert many(data).estimate == pytest.approx(two(y1, y2).estimate, abs=1e-12)


# --------------------------------------------------------------------------- undefined, bad input
class TestUndefined:
    one_category = [["a", "a", "a"], ["a", "a", None], ["a", "a", "a"]]

    @pytest.mark.parametrize("func", [accord.fleiss_kappa, accord.conger_kappa])
    def test_single_category(self, func: object) -> None:
        with pytest.warns(DegenerateDataWarning, match="single category"):
            res = func(self.one_category)  # type: ignore[operator]
        assert math.isnan(res.estimate) and math.isnan(res.se)
        assert "p_e = 1" in res.undefined_reason
        assert res.to_dict()["estimate"] is None

    def test_light_single_category(self) -> None:
        with pytest.warns(DegenerateDataWarning, match="pair"):
            res = accord.light_kappa(self.one_category)
        assert math.isnan(res.estimate)

    def test_gwet_and_bp_one_declared_category(self) -> None:
        with pytest.warns(DegenerateDataWarning, match="at least two categories"):
            assert math.isnan(accord.gwet_ac1(self.one_category).estimate)
        with pytest.warns(DegenerateDataWarning, match="only one category"):
            assert math.isnan(accord.brennan_prediger(self.one_category).estimate)

    def test_ac1_defined_with_two_declared_categories(self) -> None:
        # p_e = 0 when one of two declared categories is used: AC1 = p_a = 1
        res = accord.gwet_ac1(self.one_category, categories=["a", "b"])
        assert res.estimate == 1.0 and res.expected == 0.0

    def test_percent_agreement_always_defined(self) -> None:
        assert accord.percent_agreement(self.one_category).estimate == 1.0


class TestBadInput:
    def test_single_rater(self) -> None:
        with pytest.raises(InsufficientDataError, match="at least two raters"):
            accord.fleiss_kappa(np.array([[1.0], [2.0]]))
        with pytest.raises(InsufficientDataError, match="at least two raters"):
            accord.conger_kappa([[1], [2]])

    def test_no_unit_rated_twice(self) -> None:
        with pytest.raises(InsufficientDataError, match="no unit was rated by two"):
            accord.fleiss_kappa(np.array([[1.0, np.nan], [np.nan, 2.0]]))
        with pytest.raises(InsufficientDataError, match="no unit was rated by two"):
            accord.fleiss_kappa(RaterCounts([[1, 0], [0, 1]]))

    def test_categories_must_match_rater_counts(self) -> None:
        with pytest.raises(DataError, match="differ from the RaterCounts"):
            accord.fleiss_kappa(RaterCounts([[2, 0], [1, 1]]), categories=["x", "y"])

    def test_weights_matrix_size(self) -> None:
        with pytest.raises(InvalidParameterError, match="'weights' parameter of fleiss_kappa"):
            accord.fleiss_kappa(RAW4, weights=np.eye(3))

    def test_registry(self) -> None:
        for name in ("fleiss_kappa", "conger_kappa", "light_kappa"):
            info = accord.REGISTRY[name]
            assert info.family == "many_raters" and info.raters == "many"
            assert info.function is getattr(accord, name)


# --------------------------------------------------------------------------- inference
class TestResampling:
    @pytest.mark.parametrize("name", ["fleiss_kappa", "gwet_ac1", "brennan_prediger",
                                      "percent_agreement", "conger_kappa"])
    @pytest.mark.parametrize("weights", [None, "linear"])
    def test_full_equals_estimate(self, name: str, weights: str | None) -> None:
        res = getattr(many_raters, name)(RAW4, weights=weights)
        assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-13)

    @pytest.mark.parametrize("func", [many_raters.light_kappa, accord.fleiss_kappa])
    def test_full_equals_estimate_light_and_counts(self, func: object) -> None:
        res = func(DIAGNOSES)  # type: ignore[operator]
        assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-13)
        rc = accord.fleiss_kappa(RaterCounts(FLEISS_1971))
        assert rc.resampling().full() == pytest.approx(rc.estimate, abs=1e-13)

    def test_unanimous_full(self) -> None:
        res = accord.percent_agreement(VIDEO, definition="unanimous", tolerance=1)
        assert res.resampling().full() == pytest.approx(res.estimate, abs=1e-15)

    def test_intervals(self) -> None:
        res = accord.fleiss_kappa(DIAGNOSES)
        jack = res.confidence_interval(method="jackknife")
        boot = res.confidence_interval(method=accord.Bootstrap(n_resamples=500, rng=1))
        asym = res.confidence_interval()
        for ci in (jack, boot, asym):
            assert ci.low < res.estimate < ci.high
        # the jackknife SE of Fleiss' kappa is close to Gwet's linearised SE
        half = (jack.high - jack.low) / 2 / stats.norm.ppf(0.975)
        assert half == pytest.approx(res.se, rel=0.15)

    def test_light_has_jackknife_interval(self) -> None:
        ci = accord.light_kappa(DIAGNOSES).confidence_interval(method="jackknife")
        assert -1 <= ci.low < ci.high <= 1


def test_input_forms_agree() -> None:
    """numpy fast path, lists, Annotations and RaterCounts give one answer."""
    arr = np.array([[np.nan if x is None else x for x in row] for row in RAW4])
    ann = accord.Annotations.from_wide(RAW4)
    rc = RaterCounts.from_annotations(ann)
    values = [accord.fleiss_kappa(x).estimate for x in (arr, RAW4, ann, rc)]
    assert values == pytest.approx([values[0]] * 4, abs=1e-15)
    conger = [accord.conger_kappa(x).estimate for x in (arr, RAW4, ann)]
    assert conger == pytest.approx([conger[0]] * 3, abs=1e-15)


# --------------------------------------------------------------------------- properties
COEFFICIENTS = ["fleiss_kappa", "conger_kappa", "light_kappa", "gwet_ac1", "brennan_prediger",
                "percent_agreement"]
COUNT_BASED = ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement"]
# Hypothesis examples are capped below for the tests that compute every coefficient
# several times per example, to keep the default suite fast.


def checked(name: str, data: object, **options: object) -> accord.AgreementResult:
    """Compute, asserting a DegenerateDataWarning exactly when the estimate is undefined."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        res = getattr(many_raters, name)(data, **options)
    warned = any(issubclass(w.category, DegenerateDataWarning) for w in caught)
    assert warned == (res.undefined_reason is not None)
    return res


@st.composite
def ratings(draw: st.DrawFn, max_categories: int = 4) -> list[list[int | None]]:
    """Units x raters with missing ratings; the first unit is rated by everyone."""
    r = draw(st.integers(2, 5))
    q = draw(st.integers(2, max_categories))
    value = st.integers(0, q - 1)
    first = draw(st.lists(value, min_size=r, max_size=r))
    rest = draw(st.lists(st.lists(st.one_of(st.none(), value), min_size=r, max_size=r),
                         min_size=1, max_size=20))
    rows = [first, *rest]
    return [row for row in rows if any(x is not None for x in row)]


def same(a: accord.AgreementResult, b: accord.AgreementResult) -> None:
    assert (a.undefined_reason is None) == (b.undefined_reason is None)
    for key in ("estimate", "se", "observed"):
        x, y = getattr(a, key), getattr(b, key)
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, abs=1e-10)


@settings(max_examples=15)  # 18 coefficient calls per example
@given(ratings(), st.randoms(use_true_random=False))
def test_rater_and_unit_order_invariance(data: list[list[int | None]],
                                         rnd: random.Random) -> None:
    cols = list(range(len(data[0])))
    rnd.shuffle(cols)
    rows = list(data)
    rnd.shuffle(rows)
    by_rater = [[row[c] for c in cols] for row in data]
    for name in COEFFICIENTS:
        base = checked(name, data)
        same(base, checked(name, by_rater))
        same(base, checked(name, rows))


@settings(max_examples=15)  # 18 coefficient calls per example
@given(ratings(), st.permutations(["w", "x", "y", "z"]))
def test_relabelling_invariance(data: list[list[int | None]], labels: list[str]) -> None:
    relabelled = [[None if x is None else labels[x] for x in row] for row in data]
    for name in COEFFICIENTS:
        same(checked(name, data), checked(name, relabelled))


@settings(max_examples=15)  # 18 coefficient calls per example
@given(ratings(), st.sampled_from([None, "linear", "quadratic"]))
def test_raw_equals_rater_counts(data: list[list[int | None]], weights: str | None) -> None:
    ann = accord.Annotations.from_wide(data)
    rc = RaterCounts.from_annotations(ann)
    for name in COUNT_BASED:
        a = checked(name, data, weights=weights)
        b = checked(name, rc, weights=weights)
        same(a, b)
        assert a.expected == pytest.approx(b.expected, abs=1e-12, nan_ok=True)


@given(st.lists(st.tuples(st.integers(0, 3), st.lists(st.booleans(), min_size=4, max_size=4)),
                min_size=2, max_size=20))
def test_perfect_agreement(units: list[tuple[int, list[bool]]]) -> None:
    data = [[label if rated or j < 2 else None for j, rated in enumerate(mask)]
            for label, mask in units]
    data[0] = [0, 0, 0, 0]
    data[1] = [1, 1, 1, 1]
    for name in COEFFICIENTS:
        assert checked(name, data).estimate == pytest.approx(1.0, abs=1e-12)


@given(ratings())
def test_bounds(data: list[list[int | None]]) -> None:
    for name in COEFFICIENTS:
        res = checked(name, data)
        if res.defined:
            lo, hi = res.bounds
            assert lo - 1e-12 <= res.estimate <= hi + 1e-12


@given(st.integers(2, 6), st.lists(st.lists(st.integers(0, 2), min_size=6, max_size=6),
                                   min_size=2, max_size=15))
def test_fleiss_lower_bound(m: int, rows: list[list[int]]) -> None:
    """With m ratings on every unit, Fleiss' kappa >= -1/(m - 1) (p_a >= 0)."""
    data = [row[:m] for row in rows]
    res = checked("fleiss_kappa", data)
    if res.defined:
        assert res.estimate >= -1.0 / (m - 1) - 1e-12


def test_below_minus_one_with_a_single_rating() -> None:
    """Gwet's missing-data handling: the lone rating enters pi but not p_a.

    p_a = 0 (one split pair), pi = (3/4, 1/4), p_e = 5/8, kappa = -5/3 (hand computed,
    the formula of irrCAC fleiss.kappa.raw); ``bounds`` extends to -p_e / (1 - p_e).
    """
    res = accord.fleiss_kappa([[0, 1], [None, 0]])
    assert res.estimate == pytest.approx(-5 / 3, abs=1e-15)
    assert res.bounds == pytest.approx((-5 / 3, 1.0), abs=1e-15)


def test_per_category_se_is_the_collapsed_table_se() -> None:
    """per_category[c]["se"] is Gwet's SE of Fleiss' kappa on the (c, not c) counts."""
    ann = accord.Annotations.from_wide(RAW4)
    rc = RaterCounts.from_annotations(ann)
    res = accord.fleiss_kappa(rc)
    for j, cat in enumerate(rc.categories):
        col = rc.counts[:, j]
        binary = accord.fleiss_kappa(RaterCounts(np.column_stack([col, rc.n_ratings - col])))
        assert res.per_category[cat]["kappa"] == pytest.approx(binary.estimate, abs=1e-14)
        assert res.per_category[cat]["se"] == pytest.approx(binary.se, abs=1e-14)
