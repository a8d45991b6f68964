"""Krippendorff's alpha: estimate, SE, t test and t interval all from irrCAC 1.4.

Reference figures: R irrCAC 1.4 (GitHub kgwet/irrCAC, ``R/agree.coeff3.raw.r``,
``krippen.alpha.raw``) on Krippendorff's (2011) example C (irrCAC's ``cac.raw4raters``):
alpha 0.7434211, SE 0.14548, one-sided p-value ``1 - pt(alpha / se, n0 - 1)`` =
0.000169312 with ``n0 = 12`` rows (unit 12 has a single value), and ``conf.int``
``alpha -/+ se * qt(0.975, n0 - 1)``: lower limit 0.423225, upper capped at 1.
irrCAC 1.2 (same SE and df) printed the two-sided p-value, 0.000338625; irrCAC 1.0
(SE centred on p_a, pairable units - 1 df) printed 0.000459426.
"""

from __future__ import annotations

import pytest
from scipy import stats

import accord
from accord import RaterCounts

DISTRIB_6RATERS = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
                   [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
                   [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
                   [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1]]


def _example_c() -> accord.AgreementResult:
    return accord.krippendorff_alpha(accord.datasets.load("krippendorff_2011").data)


def test_example_c_t_test_is_irrcac_1_4() -> None:
    res = _example_c()
    assert res.details["t_df"] == 11  # n0 - 1: twelve units with a value
    assert res.details["pvalue_one_sided"] == pytest.approx(0.000169312, abs=5e-10)
    assert res.details["pvalue"] == pytest.approx(0.000338625, abs=5e-10)
    # full precision: the same formula as irrCAC's, on accord's SE
    t = res.estimate / res.se
    assert res.details["pvalue_one_sided"] == pytest.approx(stats.t.sf(t, 11), rel=1e-13)
    assert res.details["pvalue"] == pytest.approx(2 * stats.t.sf(t, 11), rel=1e-13)


def test_example_c_t_interval_is_irrcac_1_4() -> None:
    res = _example_c()
    ci = res.confidence_interval(0.95, distribution="t")
    assert ci.low == pytest.approx(0.423225, abs=5e-7)
    assert ci.low == pytest.approx(res.estimate - stats.t.ppf(0.975, 11) * res.se, rel=1e-14)
    assert ci.high == 1.0  # irrCAC: min(1, ...)


def test_interval_level_also_counts_the_unpairable_unit() -> None:
    res = accord.krippendorff_alpha(accord.datasets.load("krippendorff_2011").data,
                                    level="interval")
    assert res.details["t_df"] == 11 and res.details["n_unpairable_units"] == 1
    ci = res.confidence_interval(0.9, distribution="t")
    assert ci.low == pytest.approx(res.estimate - stats.t.ppf(0.95, 11) * res.se, rel=1e-14)


def test_rater_counts_alpha_is_krippen_alpha_raw() -> None:
    # irrCAC 1.4 on distrib.6raters: krippen.alpha.raw on the ratings behind the counts
    # gives SE 0.0811929 (krippen.alpha.dist linearises with 1 - alpha: 0.0824323).
    res = accord.krippendorff_alpha(RaterCounts(DISTRIB_6RATERS))
    assert res.se == pytest.approx(0.0811929, abs=5e-8)
    assert res.details["t_df"] == 14
