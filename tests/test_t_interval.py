"""``confidence_interval(..., distribution="t")``: R irrCAC's interval convention.

irrCAC prints ``conf.int`` as estimate -/+ se * qt(1 - (1 - conflev)/2, n - 1), the upper
limit capped at 1: e.g. its README, ``fleiss.kappa.dist(distrib.6raters)``: 0.4139265,
se 0.08119291, CI (0.24, 0.588); ``krippen2.table(cont3x3abstractors)`` 0.7972585,
se 0.05905473, CI (0.68, 0.914); ``bangdiwala.table(cont3x3abstractors)``
(0.698, 0.914).
"""

from __future__ import annotations

import pytest
from scipy import stats

import accord
from accord import ContingencyTable, RaterCounts
from accord.errors import InvalidParameterError

DISTRIB_6RATERS = [[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6],
                   [0, 3, 0, 3, 0], [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0],
                   [2, 0, 0, 4, 0], [0, 0, 0, 0, 6], [1, 0, 0, 5, 0], [1, 1, 0, 4, 0],
                   [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1]]
ABSTRACTORS = ContingencyTable([[13, 0, 0], [0, 20, 7], [0, 4, 56]])


@pytest.mark.parametrize(("res", "printed"), [
    (accord.fleiss_kappa(RaterCounts(DISTRIB_6RATERS)), (0.24, 0.588)),
    (accord.krippendorff_alpha(ABSTRACTORS), (0.68, 0.914)),
    (accord.bangdiwala_b(ABSTRACTORS), (0.698, 0.914)),
])
def test_irrcac_printed_intervals(res: accord.AgreementResult,
                                  printed: tuple[float, float]) -> None:
    ci = res.confidence_interval(0.95, distribution="t")
    assert (round(ci.low, 3), round(ci.high, 3)) == printed
    assert ci.method == "asymptotic-t"
    q = stats.t.ppf(0.975, res.n_units - 1)
    assert ci.low == pytest.approx(res.estimate - q * res.se, rel=1e-14)


def test_t_is_wider_than_normal_and_jackknife_takes_it_too() -> None:
    res = accord.cohen_kappa(ABSTRACTORS)
    normal, t = res.confidence_interval(0.9), res.confidence_interval(0.9, distribution="t")
    assert t.low < normal.low and normal.method == "asymptotic"
    jack = res.confidence_interval(0.9, method="jackknife", distribution="t")
    assert jack.method == "jackknife-t"
    assert jack.low < res.confidence_interval(0.9, method="jackknife").low


def test_t_is_refused_where_it_has_no_meaning() -> None:
    res = accord.cohen_kappa(ABSTRACTORS)
    with pytest.raises(InvalidParameterError, match="not to the bootstrap"):
        res.confidence_interval(0.95, method=accord.Bootstrap(10), distribution="t")
    with pytest.raises(InvalidParameterError, match="'distribution' parameter"):
        res.confidence_interval(0.95, distribution="student")  # type: ignore[arg-type]
    icc = accord.icc(accord.datasets.load("shrout_fleiss_1979").data)
    with pytest.raises(InvalidParameterError, match="analytic interval"):
        icc.confidence_interval(0.95, distribution="t")
