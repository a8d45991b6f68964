"""Benchmark scales, interpret() and Gwet's probabilistic benchmark().

Band limits are checked against the scales as published (Landis & Koch 1977,
p. 165; Fleiss 1981, p. 218; Altman 1991, p. 404; Krippendorff 2004, p. 241;
Cicchetti 1994, p. 286; Koo & Li 2016, p. 158). benchmark() is checked against
the cumulative probabilities printed by Python irrCAC 0.4.4 (port of R irrCAC
1.0 ``landis.koch.bf``/``altman.bf``/``fleiss.bf``, Gwet 2014 ch. 6) for its
documented example (estimate 0.67, SE 0.15), and at full precision against an
independent computation with ``scipy.stats.truncnorm``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import accord
from accord.errors import InvalidParameterError
from accord.interpret.interpretation import SCALES, Band, Scale, default_scale

PUBLISHED = {
    "landis_koch": [(-1.0, "Poor"), (0.0, "Slight"), (0.2, "Fair"), (0.4, "Moderate"),
                    (0.6, "Substantial"), (0.8, "Almost perfect")],
    "fleiss": [(-1.0, "Poor"), (0.4, "Fair to good"), (0.75, "Excellent")],
    "altman": [(-1.0, "Poor"), (0.2, "Fair"), (0.4, "Moderate"), (0.6, "Good"),
               (0.8, "Very good")],
    "krippendorff": [(-1.0, "Unreliable"), (0.667, "Tentative conclusions only"),
                     (0.8, "Reliable")],
    "cicchetti": [(-1.0, "Poor"), (0.4, "Fair"), (0.6, "Good"), (0.75, "Excellent")],
    "koo_li": [(-1.0, "Poor"), (0.5, "Moderate"), (0.75, "Good"), (0.9, "Excellent")],
    # Regier et al. (2013), DSM-5 field trials, p. 60: >= .8 excellent, .6-.79 very good,
    # .4-.59 good, .2-.39 questionable, < .2 unacceptable
    "regier": [(-1.0, "Unacceptable"), (0.2, "Questionable"), (0.4, "Good"),
               (0.6, "Very good"), (0.8, "Excellent")],
}


def _result(estimate: float, se: float, name: str = "cohen_kappa",
            bounds: tuple[float, float] = (-1.0, 1.0)) -> accord.AgreementResult:
    return accord.AgreementResult(name, estimate, math.nan, math.nan, se, 100, 2, bounds=bounds)


def _cohen_1960() -> accord.AgreementResult:
    return accord.cohen_kappa(accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]]))


# --------------------------------------------------------------------------- scales
def test_scales_are_the_published_ones() -> None:
    assert set(SCALES) == set(PUBLISHED)
    for name, bands in PUBLISHED.items():
        assert [(b.lower, b.label) for b in SCALES[name].bands] == bands
        assert SCALES[name].citation and SCALES[name].caveat


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_lower_bounds_are_inclusive(name: str) -> None:
    sc = SCALES[name]
    for below, band in zip(sc.bands, sc.bands[1:]):
        assert sc.band_of(band.lower) == band.label
        assert sc.band_of(np.nextafter(band.lower, -np.inf)) == below.label
    assert sc.band_of(-5.0) == sc.bands[0].label
    assert sc.band_of(1.0) == sc.bands[-1].label


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_every_caveat_says_bands_are_conventions(name: str) -> None:
    assert "conventions, not verdicts" in SCALES[name].caveat


def test_kappa_scales_warn_about_prevalence_and_bias() -> None:
    for name in ("landis_koch", "fleiss", "altman"):
        assert "prevalence" in SCALES[name].caveat and "bias" in SCALES[name].caveat
        assert "confidence interval" in SCALES[name].caveat


def test_scale_rejects_bands_out_of_order() -> None:
    with pytest.raises(InvalidParameterError, match="strictly increasing"):
        Scale("mine", "Mine", (Band(0.5, "b"), Band(0.2, "a")), "me", "none")


def test_default_scale() -> None:
    assert default_scale("krippendorff_alpha") == "krippendorff"
    assert default_scale("icc3k") == "koo_li"
    assert default_scale("gwet_ac1") == "landis_koch"


# --------------------------------------------------------------------------- interpret
def test_interpret_cohen_1960() -> None:
    # kappa 0.4915, FCE 1969 SE 0.0510: 95 % interval 0.3916 to 0.5915 (psych, statsmodels)
    out = accord.interpret(_cohen_1960())
    assert out.band == "Moderate" and out.scale == "landis_koch"
    assert out.interval == pytest.approx((0.3915637021, 0.5914871454), abs=1e-9)
    assert out.interval_bands == ("Fair", "Moderate")
    assert out.confidence_level == 0.95
    assert out.citation.startswith("Landis, J. R. & Koch")
    assert out.defined and out.note is None
    assert "Moderate (Landis & Koch (1977))" in str(out)


def test_interpret_other_scales_and_levels() -> None:
    res = _cohen_1960()
    assert accord.interpret(res, "fleiss").band == "Fair to good"
    assert accord.interpret(res, "altman").band == "Moderate"
    wide = accord.interpret(res, "altman", confidence_level=0.999)
    z = stats.norm.ppf(0.9995)
    assert wide.interval == pytest.approx((res.estimate - z * res.se, res.estimate + z * res.se))
    assert wide.interval_bands == ("Fair", "Moderate", "Good")


def test_interpret_uses_a_given_interval() -> None:
    ci = accord.ConfidenceInterval(0.05, 0.85, 0.9, "bootstrap-bca")
    out = accord.interpret(_cohen_1960(), interval=ci)
    assert out.interval == (0.05, 0.85) and out.confidence_level == 0.9
    assert out.interval_bands == ("Slight", "Fair", "Moderate", "Substantial", "Almost perfect")


def test_interpret_uses_an_analytic_interval() -> None:
    res = accord.AgreementResult("icc2", 0.29, math.nan, math.nan, math.nan, 6, 4,
                                 analytic_interval=lambda level: (0.0188, 0.7611))
    out = accord.interpret(res, "koo_li")
    assert out.band == "Poor" and out.interval_bands == ("Poor", "Moderate", "Good")
    assert out.note is None


def test_interpret_without_se_has_no_interval() -> None:
    out = accord.interpret(_result(0.7, math.nan))
    assert out.band == "Substantial" and out.interval is None and out.interval_bands is None


def test_interpret_a_bare_number() -> None:
    out = accord.interpret(0.81, "krippendorff")
    assert out.band == "Reliable" and out.interval is None and out.coefficient == ""


def test_interpret_undefined_never_gets_a_band() -> None:
    with pytest.warns(accord.DegenerateDataWarning):
        res = accord.cohen_kappa(["a"] * 5, ["a"] * 5)
    out = accord.interpret(res)
    assert out.band == "undefined" and not out.defined
    assert out.undefined_reason == res.undefined_reason
    assert math.isnan(out.estimate) and out.interval is None
    assert out.to_dict()["estimate"] is None
    assert str(out).startswith("undefined on Landis & Koch")
    assert accord.interpret(float("nan")).band == "undefined"


def test_interpret_notes_a_scale_written_for_another_coefficient() -> None:
    out = accord.interpret(_cohen_1960(), "koo_li")
    assert out.note is not None and "icc" in out.note and "cohen_kappa" in out.note


def test_interpret_with_a_custom_scale() -> None:
    mine = Scale("mine", "Our protocol", (Band(-1, "redo"), Band(0.7, "accept")), "SOP 4", "ours")
    out = accord.interpret(_cohen_1960(), mine)
    assert out.band == "redo" and out.scale == "mine" and out.caveat == "ours"


def test_interpret_validates_arguments() -> None:
    with pytest.raises(InvalidParameterError,
                       match="The 'scale' parameter of interpret must be one of"):
        accord.interpret(_cohen_1960(), "landis-koch")
    with pytest.raises(InvalidParameterError, match="'confidence_level' parameter"):
        accord.interpret(_cohen_1960(), confidence_level=95)
    with pytest.raises(InvalidParameterError, match="'result' parameter"):
        accord.interpret("0.5")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'interval' parameter"):
        accord.interpret(_cohen_1960(), interval=(0.1, 0.2))  # type: ignore[arg-type]


def test_interpretation_is_frozen_and_serialisable() -> None:
    out = accord.interpret(_cohen_1960())
    with pytest.raises(AttributeError):
        out.band = "Perfect"  # type: ignore[misc]
    d = out.to_dict()
    assert d["band"] == "Moderate" and d["interval_bands"] == ["Fair", "Moderate"]


# --------------------------------------------------------------------------- benchmark
# Python irrCAC 0.4.4 documentation and test_benchmark.py: Benchmark(coeff=0.67, se=0.15)
IRRCAC_CUMPROB = {
    "altman": [0.18168, 0.67511, 0.96356, 0.99912, 1.0],
    "landis_koch": [0.18168, 0.67511, 0.96356, 0.99912, 1.0, 1.0],
    "fleiss": [0.28699, 0.96356, 1.0],
}


@pytest.mark.parametrize("scale", list(IRRCAC_CUMPROB))
def test_benchmark_matches_irrcac_documented_example(scale: str) -> None:
    out = accord.benchmark(_result(0.67, 0.15), scale)
    assert out.cumulative == pytest.approx(IRRCAC_CUMPROB[scale], abs=5e-6)
    retained = next(i for i, c in enumerate(IRRCAC_CUMPROB[scale]) if c >= 0.95)
    assert out.band == out.labels[retained]


def test_benchmark_retains_moderate_not_substantial() -> None:
    # irrCAC documentation: kappa 0.67 is "Substantial" at face value, "Moderate" at 95 %
    res = _result(0.67, 0.15)
    assert accord.interpret(res).band == "Substantial"
    assert accord.benchmark(res).band == "Moderate"
    assert accord.benchmark(res, "fleiss").band == "Fair to good"


def _truncnorm_rows(est: float, se: float, scale: str,
                    lo: float = -1.0, hi: float = 1.0) -> tuple[list[float], list[float]]:
    """Independent derivation: P(band) under N(est, se) truncated to [lo, hi]."""
    dist = stats.truncnorm((lo - est) / se, (hi - est) / se, loc=est, scale=se)
    lowers = [max(b.lower, lo) for b in SCALES[scale].bands][::-1]
    lowers[-1] = lo
    uppers = [hi] + lowers[:-1]
    member = [float(dist.cdf(u) - dist.cdf(low)) for low, u in zip(lowers, uppers)]
    return member, [float(x) for x in np.cumsum(member)]


@pytest.mark.parametrize("scale", list(PUBLISHED))
@pytest.mark.parametrize(("est", "se"), [(0.67, 0.15), (0.4915254237, 0.05100181558),
                                         (-0.0923, 0.0566), (0.95, 0.04), (0.2, 0.3)])
def test_benchmark_full_precision_against_truncnorm(scale: str, est: float, se: float) -> None:
    out = accord.benchmark(_result(est, se), scale)
    member, cumul = _truncnorm_rows(est, se, scale)
    assert out.membership == pytest.approx(member, abs=1e-12)
    assert out.cumulative == pytest.approx(cumul, abs=1e-12)
    assert sum(out.membership) == pytest.approx(1.0, abs=1e-12)
    assert out.labels == SCALES[scale].labels[::-1]


def test_benchmark_truncates_to_the_coefficient_range() -> None:
    # a coefficient that lies in [0, 1]: the distribution is cut there, not at -1
    res = _result(0.1, 0.2, name="bounded_coefficient", bounds=(0.0, 1.0))
    out = accord.benchmark(res)
    member, _ = _truncnorm_rows(0.1, 0.2, "landis_koch", lo=0.0, hi=1.0)
    assert out.membership == pytest.approx(member, abs=1e-12)
    assert out.membership[-1] == 0.0  # "Poor" (< 0) is impossible here
    assert out.lower[-1] == 0.0 and out.upper[0] == 1.0


def test_benchmark_on_a_real_result_and_its_confidence_level() -> None:
    res = _cohen_1960()
    out = accord.benchmark(res, "landis_koch", 0.80)
    _, cumul = _truncnorm_rows(res.estimate, res.se, "landis_koch")
    first = next(i for i, c in enumerate(cumul) if c >= 0.80)
    assert out.band == out.labels[first] and out.confidence_level == 0.80
    assert out.se == res.se and out.estimate == res.estimate


def test_benchmark_se_override_and_zero_se() -> None:
    res = _result(0.85, math.nan)
    with pytest.raises(InvalidParameterError, match="'se' parameter of benchmark"):
        accord.benchmark(res)
    out = accord.benchmark(res, se=0.0)
    assert out.band == "Almost perfect" and out.membership[0] == 1.0
    assert out.cumulative == (1.0,) * 6
    assert accord.benchmark(res, se=0.1).se == 0.1


def test_benchmark_undefined_result() -> None:
    with pytest.warns(accord.DegenerateDataWarning):
        res = accord.cohen_kappa(accord.ContingencyTable([[0, 0], [0, 0]]))
    out = accord.benchmark(res)
    assert out.band == "undefined" and out.undefined_reason == res.undefined_reason
    assert all(math.isnan(x) for x in out.membership + out.cumulative)
    assert out.to_dict()["rows"][0]["membership"] is None
    assert str(out).startswith("undefined")


def test_benchmark_validates_arguments() -> None:
    with pytest.raises(InvalidParameterError, match="'confidence_level' parameter of benchmark"):
        accord.benchmark(_result(0.5, 0.1), confidence_level=1.0)
    with pytest.raises(InvalidParameterError, match="'result' parameter of benchmark"):
        accord.benchmark(0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="'scale' parameter of benchmark"):
        accord.benchmark(_result(0.5, 0.1), "gwet")


def test_benchmark_renders_rows() -> None:
    out = accord.benchmark(_result(0.67, 0.15), "altman")
    text = str(out)
    assert "retained at 95%: Moderate (Altman (1991))" in text
    assert [r["label"] for r in out.rows()] == ["Very good", "Good", "Moderate", "Fair", "Poor"]
    assert out.to_dict()["band"] == "Moderate"


@given(est=st.floats(-0.99, 0.99), se=st.floats(0.005, 0.6),
       level=st.floats(0.6, 0.99), scale=st.sampled_from(list(PUBLISHED)))
def test_benchmark_properties(est: float, se: float, level: float, scale: str) -> None:
    out = accord.benchmark(_result(est, se), scale, level)
    assert all(0.0 <= m <= 1.0 for m in out.membership)
    assert all(b >= a - 1e-15 for a, b in zip(out.cumulative, out.cumulative[1:]))
    assert out.cumulative[-1] == 1.0
    idx = out.labels.index(out.band)
    assert out.cumulative[idx] >= level
    assert all(c < level for c in out.cumulative[:idx])
    # at 60 % or more, the band retained is never above the band of the estimate itself
    assert idx >= out.labels.index(SCALES[scale].band_of(est))


@pytest.mark.parametrize("func", [accord.interpret, accord.benchmark])
def test_percent_agreement_and_kappa_max_are_not_graded(func: Any) -> None:
    """Kappa bands on raw agreement or on the marginals' bound would mislead."""
    table = accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
    with pytest.raises(InvalidParameterError, match="not corrected for chance"):
        func(accord.percent_agreement(table))
    with pytest.raises(InvalidParameterError, match="a bound and not an agreement"):
        func(accord.kappa_max(table))
    from accord.interpret.interpretation import graded

    assert not graded("kappa_max")
    assert func(accord.cohen_kappa(table)).band == "Moderate"
