r"""What a coefficient's value is called on a published scale, and how sure that is.

Benchmark scales name ranges of an agreement coefficient ("moderate",
"substantial", ...). They are conventions proposed by their authors, not
verdicts: a kappa depends on the prevalence of the categories and on the
raters' bias, an ICC on the spread of the targets, and a point estimate on a
small sample is uncertain. So accord reports the band of the estimate *and*
the bands its confidence interval spans (:func:`interpret`), and offers Gwet's
probabilistic benchmarking (:func:`benchmark`), which retains the highest band
the true value reaches with a stated probability.

Every band includes its lower bound: on Landis & Koch's scale 0.40 is
"Moderate" and 0.3999 "Fair". The lowest band extends down to the
coefficient's minimum and the highest up to its maximum.

=================  ==============================================================
name               bands (lower bounds)
=================  ==============================================================
``landis_koch``    Poor < 0 <= Slight < .20 <= Fair < .40 <= Moderate < .60 <=
                   Substantial < .80 <= Almost perfect (Landis & Koch 1977)
``fleiss``         Poor < .40 <= Fair to good < .75 <= Excellent (Fleiss 1981)
``altman``         Poor < .20 <= Fair < .40 <= Moderate < .60 <= Good < .80 <=
                   Very good (Altman 1991)
``krippendorff``   Unreliable < .667 <= Tentative conclusions only < .800 <=
                   Reliable (Krippendorff 2004, for alpha)
``cicchetti``      Poor < .40 <= Fair < .60 <= Good < .75 <= Excellent
                   (Cicchetti 1994)
``regier``         Unacceptable < .20 <= Questionable < .40 <= Good < .60 <=
                   Very good < .80 <= Excellent (Regier et al. 2013, DSM-5)
``koo_li``         Poor < .50 <= Moderate < .75 <= Good < .90 <= Excellent
                   (Koo & Li 2016, for ICCs)
=================  ==============================================================

References
----------
Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed., ch. 6
(benchmarking). Advanced Analytics, Gaithersburg.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.data import _validation as v
from accord.errors import InvalidParameterError
from accord.inference._normal import norm_ppf
from accord.inference.display import READINGS, Displayed, Tabular
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = [
    "SCALES",
    "Band",
    "BenchmarkResult",
    "Interpretation",
    "Scale",
    "benchmark",
    "default_scale",
    "graded",
    "interpret",
]

from accord.interpret._scales import (  # noqa: E402
    SCALES,
    UNDEFINED,
    Band,
    Scale,
    default_scale,
    membership,
)


# --------------------------------------------------------------------------- interpret
@dataclass(frozen=True)
class Interpretation(Displayed):
    """The band of a coefficient on a scale, with the bands its interval spans.

    Attributes
    ----------
    coefficient : str
        The coefficient's name (``""`` for a bare number).
    estimate : float
        The value interpreted (``nan`` when undefined).
    scale, scale_title : str
        The scale's key and display name.
    band : str
        The band of the estimate, or ``"undefined"``.
    caveat, citation : str
        What the scale does not say, and where it comes from.
    interval : tuple of float or None
        The confidence limits used, when the result has an interval.
    confidence_level, interval_method : float or None, str or None
        Their nominal coverage, and how they were computed (the interval's ``method``).
    interval_bands : tuple of str or None
        The bands from the lower to the upper confidence limit, lowest first.
    undefined_reason : str or None
        Why the estimate is undefined; then ``band`` is ``"undefined"``.
    note : str or None
        A warning when the scale was written for another coefficient.
    grades_interval : bool
        Whether the scale grades the interval (Koo & Li): then :attr:`grade`, the one
        grade every output shows, is the bands the interval spans.
    """

    coefficient: str
    estimate: float
    scale: str
    scale_title: str
    band: str
    caveat: str
    citation: str
    interval: tuple[float, float] | None = None
    confidence_level: float | None = None
    interval_method: str | None = None
    interval_bands: tuple[str, ...] | None = None
    undefined_reason: str | None = None
    note: str | None = None
    grades_interval: bool = False

    @property
    def defined(self) -> bool:
        """Whether a band was assigned."""
        return self.undefined_reason is None

    @property
    def grade(self) -> str:
        """The one grade of the figure, shown the same in every output: on a scale that
        grades the interval (Koo & Li), the bands the interval spans (``"Poor to Good"``,
        or one band); otherwise, or without an interval, the band of the estimate."""
        if not self.defined or not self.grades_interval or not self.interval_bands:
            return self.band
        bands = self.interval_bands
        return bands[0] if len(bands) == 1 else f"{bands[0]} to {bands[-1]}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; an undefined estimate is ``None``.

        The limits the bands were read at are ``confidence_interval`` (``{low, high,
        confidence_level, method}``), the key every interval has in accord's JSON.
        """
        return {
            "coefficient": self.coefficient,
            "estimate": self.estimate if math.isfinite(self.estimate) else None,
            "scale": self.scale,
            "scale_title": self.scale_title,
            "band": self.band,
            "grade": self.grade,
            "confidence_interval": None if self.interval is None else {
                "low": self.interval[0], "high": self.interval[1],
                "confidence_level": self.confidence_level, "method": self.interval_method},
            "confidence_level": self.confidence_level,
            "interval_bands": None if self.interval_bands is None else list(self.interval_bands),
            "undefined_reason": self.undefined_reason,
            "note": self.note,
            "caveat": self.caveat,
            "citation": self.citation,
        }

    def __str__(self) -> str:
        if not self.defined:
            return f"undefined on {self.scale_title}: {self.undefined_reason}"
        if self.grades_interval and self.interval_bands and self.confidence_level is not None:
            return (f"{self.grade} ({self.scale_title}, graded on the "
                    f"{self.confidence_level:.0%} interval)")
        text = f"{self.band} ({self.scale_title})"
        if self.interval_bands is not None and self.confidence_level is not None:
            span = self.interval_bands[0] if len(self.interval_bands) == 1 else (
                f"{self.interval_bands[0]} to {self.interval_bands[-1]}")
            text += f"; the {self.confidence_level:.0%} interval spans {span}"
        return text


def _resolve_scale(scale: Any, func: str) -> Scale:
    if isinstance(scale, Scale):
        return scale
    if not isinstance(scale, str):
        raise v.fail("scale", func, "a scale name or an accord.Scale", scale)
    return SCALES[v.choice(scale, list(SCALES), param="scale", func=func)]


# Results that a benchmark scale must not grade, and why.
NOT_GRADED = {
    "percent_agreement": "percent agreement is not corrected for chance, so the bands of "
    "chance-corrected coefficients do not apply to it",
    "mean_pairwise_percent_agreement": "percent agreement is not corrected for chance, so the "
    "bands of chance-corrected coefficients do not apply to it",
    "kappa_max": "kappa max is the largest kappa the marginals allow, a bound and not an "
    "agreement",
    **{name: f"{name} is a classifier metric against a reference, not a chance-corrected "
       "agreement, so the bands of kappa-like coefficients do not apply to it"
       for name in ("accuracy", "balanced_accuracy", "f1", "mcc", "precision", "recall")},
    **dict.fromkeys(
        ("bangdiwala_b", "kendall_w", "mean_pearson", "mean_spearman", "finn", "robinson_a"),
        "no published band scale was written for this coefficient; the kappa bands do not "
        "apply to it"),
}


def graded(coefficient: str) -> bool:
    """Whether a benchmark scale may grade this coefficient.

    Percent agreement (not chance-corrected) and kappa max (a bound set by the
    marginals) are not graded.

    >>> graded("cohen_kappa"), graded("percent_agreement"), graded("kappa_max")
    (True, False, False)
    """
    return coefficient not in NOT_GRADED


def _as_result(result: Any, func: str) -> AgreementResult:
    if isinstance(result, AgreementResult):
        if result.coefficient in NOT_GRADED:
            raise InvalidParameterError(
                f"{func}: {NOT_GRADED[result.coefficient]}; grade a chance-corrected "
                "coefficient or an ICC instead."
            )
        return result
    if isinstance(result, (int, float, np.integer, np.floating)) and not isinstance(result, bool):
        x = float(result)
        if x > 1.0:  # no agreement coefficient exceeds 1 (perfect agreement)
            raise v.fail("result", func, "an agreement coefficient, at most 1", result)
        why = None if math.isfinite(x) else "the value is not a finite number"
        return AgreementResult("", x, math.nan, math.nan, math.nan, 0, 0, undefined_reason=why)
    raise v.fail("result", func, "an AgreementResult or a number", type(result).__name__)


def _note(scale: Scale, coefficient: str) -> str | None:
    if scale.applies_to is None or not coefficient:
        return None
    if any(coefficient.startswith(p) for p in scale.applies_to):
        return None
    meant = ", ".join(scale.applies_to)
    return f"The {scale.title} scale was written for {meant} coefficients, not {coefficient}."


def _interval(res: AgreementResult, level: float,
              given: ConfidenceInterval | None) -> ConfidenceInterval | None:
    if given is not None:
        return given
    if not (math.isfinite(res.se) or res.analytic_interval is not None):
        return None
    ci = res.confidence_interval(level)
    return ci if math.isfinite(ci.low) and math.isfinite(ci.high) else None


def interpret(
    result: AgreementResult | float,
    scale: str | Scale = "landis_koch",
    *,
    confidence_level: float = 0.95,
    interval: ConfidenceInterval | None = None,
) -> Interpretation:
    """Name the band of a result on a benchmark scale, and the bands its interval spans.

    Parameters
    ----------
    result : AgreementResult or float
        A coefficient's result (or a bare value, which has no interval).
    scale : str or Scale
        A key of :data:`SCALES` (``"landis_koch"``, ``"fleiss"``, ``"altman"``,
        ``"krippendorff"``, ``"cicchetti"``, ``"regier"``, ``"koo_li"``) or your own
        :class:`Scale`.
    confidence_level : float
        Level of the asymptotic (or analytic, for ICCs) interval computed from the
        result when ``interval`` is not given.
    interval : ConfidenceInterval, optional
        An interval already computed (e.g. a bootstrap interval); its level is used.

    Returns
    -------
    Interpretation
        ``band`` is ``"undefined"`` (with the reason) when the estimate is; a band
        is never given to an undefined value. ``interval_bands`` is ``None`` when the
        result has no standard error or analytic interval.

    Examples
    --------
    Cohen (1960, p. 45): kappa = 0.49, 95% interval 0.39 to 0.59.

    >>> import accord
    >>> res = accord.cohen_kappa(accord.ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]]))
    >>> out = accord.interpret(res)
    >>> out.band, out.interval_bands
    ('Moderate', ('Fair', 'Moderate'))
    >>> print(out)
    Moderate (Landis & Koch (1977)); the 95% interval spans Fair to Moderate
    """
    func = "interpret"
    sc = _resolve_scale(scale, func)
    level = v.confidence_level(confidence_level, func=func)
    if interval is not None and not isinstance(interval, ConfidenceInterval):
        raise v.fail("interval", func, "an accord.ConfidenceInterval or None", interval)
    res = _as_result(result, func)
    common: dict[str, Any] = {
        "coefficient": res.coefficient, "scale": sc.name, "scale_title": sc.title,
        "caveat": sc.caveat, "citation": sc.citation, "note": _note(sc, res.coefficient),
    }
    if not res.defined:
        why = res.undefined_reason or "the estimate is not a finite number"
        return Interpretation(estimate=math.nan, band=UNDEFINED, undefined_reason=why, **common)
    ci = _interval(res, level, interval)
    if ci is None:
        return Interpretation(estimate=res.estimate, band=sc.band_of(res.estimate),
                              grades_interval=sc.grades_interval, **common)
    lo, hi = sc.band_index(ci.low), sc.band_index(ci.high)
    return Interpretation(
        estimate=res.estimate, band=sc.band_of(res.estimate), interval=(ci.low, ci.high),
        confidence_level=ci.confidence_level, interval_method=ci.method,
        interval_bands=sc.labels[lo:hi + 1], grades_interval=sc.grades_interval, **common,
    )


# --------------------------------------------------------------------------- benchmark
@dataclass(frozen=True)
class BenchmarkResult(Tabular):
    """Gwet's probabilistic benchmarking of a coefficient on a scale.

    The rows run from the highest band down, as in Gwet (2014, ch. 6).

    Attributes
    ----------
    coefficient, scale, scale_title : str
        What was benchmarked, on which scale.
    estimate, se : float
        The estimate and the standard error used.
    labels : tuple of str
        The band labels, highest band first.
    lower, upper : tuple of float
        The band limits, cut to the coefficient's range.
    membership : tuple of float
        Probability that the true value lies in each band.
    cumulative : tuple of float
        Probability that it lies in this band or a higher one.
    confidence_level : float
        The threshold the cumulative probability must reach (0.95 in Gwet).
    band : str
        The band retained: the highest whose cumulative probability reaches
        ``confidence_level``; ``"undefined"`` when the estimate is.
    caveat, citation : str
        The scale's caveat and citation.
    undefined_reason : str or None
        Why the estimate is undefined.
    """

    coefficient: str
    scale: str
    scale_title: str
    estimate: float
    se: float
    labels: tuple[str, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    membership: tuple[float, ...]
    cumulative: tuple[float, ...]
    confidence_level: float
    band: str
    caveat: str
    citation: str
    undefined_reason: str | None = None

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per band, highest first: label, lower, upper, membership, cumulative."""
        return [
            {"label": lab, "lower": lo, "upper": hi, "membership": m, "cumulative": c}
            for lab, lo, hi, m, c in zip(self.labels, self.lower, self.upper, self.membership,
                                         self.cumulative)
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined figures are ``None``. ``confidence_interval``: the
        normal model's central interval at ``confidence_level``, cut to the scale's range."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        half = float(norm_ppf(0.5 + self.confidence_level / 2.0)) * self.se
        ci = {"low": num(max(self.estimate - half, min(self.lower, default=-math.inf))),
              "high": num(min(self.estimate + half, max(self.upper, default=math.inf))),
              "confidence_level": self.confidence_level, "method": "asymptotic"}
        return {
            "coefficient": self.coefficient, "scale": self.scale, "scale_title": self.scale_title,
            "estimate": num(self.estimate), "se": num(self.se), "confidence_interval": ci,
            "confidence_level": self.confidence_level, "band": self.band,
            "rows": [{k: (num(x) if isinstance(x, float) else x) for k, x in row.items()}
                     for row in self.rows()],
            "undefined_reason": self.undefined_reason, "caveat": self.caveat,
            "citation": self.citation,
        }

    def __str__(self) -> str:
        if self.undefined_reason is not None:
            return f"undefined on {self.scale_title}: {self.undefined_reason}"
        width = max(len(lab) for lab in self.labels)
        lines = [f"{'band'.ljust(width)}  {'range':>15}  {'P(band)':>8}  {'cumul.':>8}"]
        for row in self.rows():
            rng = f"{row['lower']:.3g} to {row['upper']:.3g}"
            lines.append(f"{row['label'].ljust(width)}  {rng:>15}  {row['membership']:8.4f}  "
                         f"{row['cumulative']:8.4f}")
        lines.append(f"retained at {self.confidence_level:.0%}: {self.band} ({self.scale_title})")
        return "\n".join(lines)


def benchmark(
    result: AgreementResult,
    scale: str | Scale = "landis_koch",
    confidence_level: float = 0.95,
    *,
    se: float | None = None,
) -> BenchmarkResult:
    r"""Gwet's probabilistic benchmarking: the band the true value reaches with 95 % probability.

    Treating the estimate :math:`\hat\kappa` as normal with its standard error
    :math:`s`, truncated to the coefficient's range :math:`[l, u]` (``[-1, 1]`` for
    kappa-type coefficients), the probability that the true value lies in the band
    :math:`[a, b)` is

    .. math:: P(a \le \kappa < b) = \frac{\Phi((b - \hat\kappa)/s) - \Phi((a - \hat\kappa)/s)}
                                        {\Phi((u - \hat\kappa)/s) - \Phi((l - \hat\kappa)/s)}.

    Going down from the highest band, these add up to the cumulative probability;
    the band retained is the first whose cumulative probability reaches
    ``confidence_level`` (Gwet 2014, ch. 6; R ``irrCAC::landis.koch.bf``).

    Parameters
    ----------
    result : AgreementResult
        A defined coefficient with a standard error.
    scale : str or Scale
        As in :func:`interpret`.
    confidence_level : float
        The cumulative probability a band must reach (0.95 in Gwet).
    se : float, optional
        A standard error to use instead of ``result.se`` (e.g. a jackknife SE).

    Returns
    -------
    BenchmarkResult
        Highest band first. When the estimate is undefined, ``band`` is
        ``"undefined"`` and every probability is ``nan``.

    Raises
    ------
    InvalidParameterError
        When no finite standard error is available.

    Examples
    --------
    The example of Python irrCAC's documentation: an estimate of 0.67 with SE 0.15 is
    "Substantial" on its face, but only "Moderate" is reached with 95 % probability.

    >>> import accord
    >>> res = accord.AgreementResult("cohen_kappa", 0.67, 0.8, 0.4, 0.15, 100, 2, bounds=(-1, 1))
    >>> out = accord.benchmark(res)
    >>> out.band, [round(c, 5) for c in out.cumulative]
    ('Moderate', [0.18168, 0.67511, 0.96356, 0.99912, 1.0, 1.0])
    """
    func = "benchmark"
    sc = _resolve_scale(scale, func)
    level = v.confidence_level(confidence_level, func=func)
    if not isinstance(result, AgreementResult):
        raise v.fail("result", func, "an AgreementResult", type(result).__name__)
    _as_result(result, func)
    lo, hi = (float(b) for b in result.bounds)
    limits = sc.intervals(lo, hi)[::-1]
    common: dict[str, Any] = {
        "coefficient": result.coefficient, "scale": sc.name, "scale_title": sc.title,
        "labels": sc.labels[::-1], "lower": tuple(a for a, _ in limits),
        "upper": tuple(b for _, b in limits), "confidence_level": level,
        "caveat": sc.caveat, "citation": sc.citation,
    }
    if not result.defined:
        nan = tuple(math.nan for _ in limits)
        why = result.undefined_reason or "the estimate is not a finite number"
        return BenchmarkResult(estimate=math.nan, se=math.nan, membership=nan, cumulative=nan,
                               band=UNDEFINED, undefined_reason=why, **common)
    s = result.se if se is None else se
    if not isinstance(s, (int, float, np.floating)) or not math.isfinite(s) or s < 0:
        raise v.fail("se", func, "a finite non-negative standard error (the result has none; "
                     "pass se= from a jackknife or bootstrap)", s)
    member, cumul = membership(result.estimate, float(s), limits, lo, hi)
    retained = next(i for i, c in enumerate(cumul) if c >= level or i == len(cumul) - 1)
    return BenchmarkResult(estimate=result.estimate, se=float(s), membership=tuple(member),
                           cumulative=tuple(cumul), band=common["labels"][retained], **common)


def _reading(result: AgreementResult) -> tuple[str, str]:
    """A result card's reading: the band on the coefficient's default scale, its caveat."""
    if not graded(result.coefficient):
        return f"not graded: {NOT_GRADED[result.coefficient]}", ""
    if not result.defined:
        return "", ""
    out = interpret(result, default_scale(result.coefficient))
    return str(out), out.caveat


READINGS["AgreementResult"] = _reading
