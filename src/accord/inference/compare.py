"""Is one agreement higher than another on the same units?

:func:`compare` takes two results computed on the same units (a model's kappa
with the gold labels against another model's; agreement before and after a
guideline change on the same items; Fleiss' kappa against Krippendorff's alpha)
and gives their difference with a *paired* interval and p-value: units are
resampled together, so the correlation of the two estimates is kept
(:mod:`accord.inference.paired`). Two separate intervals that overlap say
little; the paired interval of the difference answers the question.

Two results on batches that share no unit (a pilot and a later batch) are
independent samples: their difference gets an independent two-sample
bootstrap, or the delta method from each SE
(:mod:`accord.inference.independent`). :meth:`Comparison.sentence` says the
result as an annotation lead would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.errors import DataError
from accord.inference._normal import norm_ppf, norm_sf
from accord.inference.bootstrap import (
    Bootstrap,
    bootstrap_distribution,
    bootstrap_pvalue,
    interval_from_replicates,
)
from accord.inference.display import Displayed
from accord.inference.independent import independent_difference
from accord.inference.jackknife import jackknife_se
from accord.inference.paired import PairedResampling, paired_resampling
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = ["Comparison", "compare"]

CompareMethod = Bootstrap | Literal["jackknife", "asymptotic"]
Design = Literal["auto", "paired", "independent"]


@dataclass(frozen=True)
class Comparison(Displayed):
    """The difference ``estimate_a - estimate_b`` of two coefficients on the same units.

    Attributes
    ----------
    coefficient_a, coefficient_b : str
        The two coefficients' registry names.
    estimate_a, estimate_b : float
        The two estimates as reported by the results.
    difference : float
        ``estimate_a - estimate_b``; ``nan`` when either is undefined.
    interval : ConfidenceInterval
        Paired interval for the difference (bootstrap or jackknife over units).
    pvalue : float
        Two-sided p-value for "the difference is 0": the smallest ``1 - confidence_level``
        at which the interval of the same kind excludes 0.
    n_units : int
        Units resampled: those rated under either result.
    n_shared : int
        Units rated under both results.
    n_excluded : int
        Resamples (or leave-one-out values) in which either coefficient was undefined.
    undefined_reason : str or None
        Why the difference is undefined, or ``None``.
    design : {"paired", "independent"}
        Units resampled together, or the two batches resampled each on its own.
    interval_a, interval_b : ConfidenceInterval or None
        Each result's own interval: from the same resamples for independent
        batches, else the analytic interval where the result has one.
    """

    coefficient_a: str
    coefficient_b: str
    estimate_a: float
    estimate_b: float
    difference: float
    interval: ConfidenceInterval
    pvalue: float
    n_units: int
    n_shared: int
    n_excluded: int
    undefined_reason: str | None = None
    design: Literal["paired", "independent"] = "paired"
    interval_a: ConfidenceInterval | None = None
    interval_b: ConfidenceInterval | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; undefined numbers are ``None``.

        ``difference`` is a figure (``estimate``, ``confidence_interval``, ``pvalue``,
        ``undefined_reason``); ``first`` and ``second`` are the two results compared,
        each with its own interval where it has one.
        """
        return {
            "difference": {"figure": "difference", "estimate": _num(self.difference),
                           "confidence_interval": self.interval.to_dict(),
                           "pvalue": _num(self.pvalue),
                           "undefined_reason": self.undefined_reason},
            "first": _side(self.coefficient_a, self.estimate_a, self.interval_a),
            "second": _side(self.coefficient_b, self.estimate_b, self.interval_b),
            "n_units": self.n_units,
            "n_shared": self.n_shared,
            "n_excluded": self.n_excluded,
            "design": self.design,
        }

    def sentence(self, name_a: str = "the first", name_b: str = "the second", *,
                 digits: int = 2) -> str:
        """The comparison in one sentence, e.g. "batch 3 (kappa 0.71, 95% CI 0.66-0.76) is
        higher than the pilot (0.58, 0.50-0.66) by 0.13 (0.04-0.22)".

        When the interval of the difference covers 0 the sentence says so.
        """
        return _sentence(self, name_a, name_b, digits)

    def __str__(self) -> str:
        if not math.isfinite(self.difference):
            return (f"{self.coefficient_a} - {self.coefficient_b}: undefined "
                    f"[{self.undefined_reason}]")
        ci = self.interval
        return (
            f"{self.coefficient_a} - {self.coefficient_b} = {self.difference:.4f} "
            f"({ci.confidence_level:.0%} CI {ci.low:.4f} to {ci.high:.4f}, {ci.method}), "
            f"p = {self.pvalue:.4g}, n_units={self.n_units}"
            + (", independent samples" if self.design == "independent" else "")
        )


def compare(
    result_a: AgreementResult,
    result_b: AgreementResult,
    /,
    *,
    method: CompareMethod | None = None,
    confidence_level: float = 0.95,
    design: Design = "auto",
) -> Comparison:
    r"""The difference of two coefficients, with its interval: paired on shared units, or
    between independent batches.

    .. math:: \hat\Delta = \hat\theta_a - \hat\theta_b, \qquad
              \hat\Delta^{*b} = g_a(S_a^{*b}) - g_b(S_b^{*b})

    where both statistics are evaluated on the *same* bootstrap resample of
    units ``b`` (Efron & Tibshirani 1993, ch. 13; Davison & Hinkley 1997,
    sec. 3.2 on paired data). Units are matched by their labels (or by position
    when neither result has labels); units rated under only one result count
    on that side only.

    Results on labelled units that share none (two batches) are independent
    samples: each is resampled on its own, ``Delta* = theta_a(S_a*) -
    theta_b(S_b*)``, or, with ``method="asymptotic"`` (the default when a
    result has no units to resample), ``se(Delta) = sqrt(se_a^2 + se_b^2)``
    (the delta method for independent estimates; Fleiss, Levin & Paik 2003,
    sec. 18.1) with a z test.

    Parameters
    ----------
    result_a, result_b : AgreementResult
        Computed from unit-level data (not from a bare contingency table).
    method : Bootstrap, "jackknife" or "asymptotic", optional
        ``Bootstrap(n_resamples=..., kind="percentile" | "basic" | "bca", rng=...)``
        (default ``Bootstrap()``, 9999 percentile resamples; BCa for paired
        units only) or ``"jackknife"`` (normal interval with the leave-one-unit-out
        SE of the difference and a z test); for independent batches also
        ``"asymptotic"`` (each result's analytic SE; the default when either
        result was computed from a table).
    confidence_level : float
        Nominal coverage of the interval, in (0, 1).
    design : {"auto", "paired", "independent"}
        ``"auto"``: paired when the results share units, independent when both
        have unit labels and share none. Name ``"independent"`` for batches whose
        units are numbered by position (rows 0, 1, ... of two arrays) or for
        results computed from tables.

    Returns
    -------
    Comparison
        With ``nan`` difference, interval and p-value (and a reason) when either
        coefficient is undefined.

    Raises
    ------
    DataError
        When a result has no unit-level data, or the two share no unit.

    Examples
    --------
    Two models labelled the same 12 items as a gold standard did; model A
    disagrees with gold on 1 item, model B on 4:

    >>> import accord
    >>> gold = ["y", "y", "n", "n", "y", "n", "y", "n", "y", "y", "n", "n"]
    >>> a    = ["y", "y", "n", "n", "y", "n", "y", "n", "y", "n", "n", "n"]
    >>> b    = ["y", "n", "n", "y", "y", "n", "y", "y", "n", "y", "n", "n"]
    >>> cmp = accord.compare(accord.cohen_kappa(gold, a), accord.cohen_kappa(gold, b),
    ...                      method=accord.Bootstrap(n_resamples=2000, rng=7))
    >>> round(cmp.estimate_a, 4), round(cmp.estimate_b, 4), round(cmp.difference, 4)
    (0.8333, 0.3333, 0.5)
    >>> cmp.n_units, cmp.interval.low < cmp.difference < cmp.interval.high
    (12, True)

    Two batches with no item in common are independent samples:

    >>> pilot = accord.Annotations.from_long(
    ...     [(f"p{i}", r, v) for i, pair in enumerate(["yy", "yn", "nn", "ny", "yy", "nn"] * 5)
    ...      for r, v in zip("AB", pair)], unit=0, rater=1, value=2)
    >>> batch = accord.Annotations.from_long(
    ...     [(f"b{i}", r, v) for i, pair in enumerate(["yy", "nn", "nn", "ny", "yy", "yy",
    ...                                                "nn", "nn"] * 5)
    ...      for r, v in zip("AB", pair)], unit=0, rater=1, value=2)
    >>> d = accord.compare(accord.cohen_kappa(batch), accord.cohen_kappa(pilot),
    ...                    method="asymptotic")
    >>> d.design, round(d.difference, 4), round(d.interval.low, 4)
    ('independent', 0.4167, 0.0252)
    >>> d.sentence("the batch", "the pilot")
    'the batch (kappa 0.75, 95% CI 0.55-0.95) is higher than the pilot (0.33, 0.00-0.67) by 0.42 (0.03-0.81)'
    """  # noqa: E501
    func = "compare"
    for res, param in ((result_a, "result_a"), (result_b, "result_b")):
        if not isinstance(res, AgreementResult):
            raise v.fail(param, func, "an AgreementResult", res)
    level = v.confidence_level(confidence_level, func=func)
    v.choice(design, ("auto", "paired", "independent"), param="design", func=func)
    names = (f"result_a ({result_a.coefficient})", f"result_b ({result_b.coefficient})")
    if _independent(result_a, result_b, design, names):
        return _compare_independent(result_a, result_b, method, level)
    method = Bootstrap() if method is None else method
    label = _label(method, paired=True)
    paired = paired_resampling(_resampling(result_a, names[0]),
                               _resampling(result_b, names[1]), names)
    diff = result_a.estimate - result_b.estimate
    reason = _undefined(result_a, result_b)
    if reason is not None:
        ci = ConfidenceInterval(math.nan, math.nan, level, label)
        return _comparison(result_a, result_b, math.nan, ci, math.nan, paired, 0, reason)
    bounds = _bounds(result_a, result_b)
    if isinstance(method, Bootstrap):
        ci, pvalue = _bootstrap(paired, diff, level, method, label, bounds)
    else:
        ci, pvalue = _jackknife(paired, diff, level, label, bounds)
    return _comparison(result_a, result_b, diff, ci, pvalue, paired, ci.n_excluded, None)


def _label(method: object, *, paired: bool) -> str:
    if isinstance(method, Bootstrap):
        if not paired and method.kind == "bca":
            raise v.fail("method", "compare", "a percentile or basic bootstrap for "
                         "independent batches (BCa is for paired units)", method)
        return f"bootstrap-{method.kind}"
    choices = ("jackknife",) if paired else ("jackknife", "asymptotic")
    if isinstance(method, str) and method in choices:
        return method
    what = ("an accord.Bootstrap(...) or 'jackknife'" if paired else
            "an accord.Bootstrap(...), 'jackknife' or 'asymptotic'")
    raise v.fail("method", "compare", what, method)


def _resampling(result: AgreementResult, name: str) -> Any:
    if result.resampling is None or result.resampling().unit_patterns is None:
        raise DataError(
            f"{name} was computed from a summary without units (e.g. a contingency "
            "table), so it cannot be paired unit by unit; compute it from the ratings, or "
            "pass design='independent' if the two come from different units."
        )
    return result.resampling()


def _independent(a: AgreementResult, b: AgreementResult, design: str,
                 names: tuple[str, str]) -> bool:
    """Whether to compare as independent samples (``design="auto"``: labelled, disjoint)."""
    if design != "auto":
        return design == "independent"
    res = [None if r.resampling is None else r.resampling() for r in (a, b)]
    ids = [None if r is None else r.unit_ids for r in res]
    if res[0] is not None and res[1] is not None and ids[0] is None and ids[1] is None \
            and res[0].n_units != res[1].n_units:
        raise DataError(
            f"{names[0]} has {res[0].n_units} units and {names[1]} has {res[1].n_units}, and "
            "neither has unit labels to pair them; pass design='independent' if they are "
            "different batches, or data with a unit column."
        )
    if ids[0] is None or ids[1] is None:
        return False  # positional units or a table: paired, or the paired path's error
    shared = set(ids[0]).intersection(ids[1])
    return not shared


def _compare_independent(a: AgreementResult, b: AgreementResult, method: object,
                         level: float) -> Comparison:
    if method is None:
        has_units = a.resampling is not None and b.resampling is not None
        method = Bootstrap() if has_units else "asymptotic"
    label = _label(method, paired=False)
    n_units = a.n_units + b.n_units
    reason = _undefined(a, b)
    if reason is None and method == "asymptotic":
        reason = next((f"{side} ({r.coefficient}) has no analytic standard error; use "
                       "method='jackknife' or a Bootstrap" for r, side in
                       ((a, "result_a"), (b, "result_b")) if not math.isfinite(r.se)), None)
    if reason is not None:
        ci = ConfidenceInterval(math.nan, math.nan, level, label)
        return Comparison(a.coefficient, b.coefficient, a.estimate, b.estimate, math.nan, ci,
                          math.nan, n_units, 0, 0, reason, "independent")
    out = independent_difference(a, b, method, level, _bounds(a, b))  # type: ignore[arg-type]
    return Comparison(a.coefficient, b.coefficient, a.estimate, b.estimate,
                      a.estimate - b.estimate, out.interval, out.pvalue, n_units, 0,
                      out.n_excluded, None, "independent", out.interval_a, out.interval_b)


def _undefined(a: AgreementResult, b: AgreementResult) -> str | None:
    for res, side in ((a, "result_a"), (b, "result_b")):
        if not res.defined:
            why = res.undefined_reason or "its estimate is not a number"
            return f"{side} ({res.coefficient}) is undefined: {why}"
    return None


def _bounds(a: AgreementResult, b: AgreementResult) -> tuple[float, float]:
    return a.bounds[0] - b.bounds[1], a.bounds[1] - b.bounds[0]


def _clip(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    return float(np.clip(low, *bounds)), float(np.clip(high, *bounds))


def _bootstrap(
    paired: PairedResampling, diff: float, level: float, method: Bootstrap, label: str,
    bounds: tuple[float, float],
) -> tuple[ConfidenceInterval, float]:
    res = paired.difference
    reps = bootstrap_distribution(res, method.n_resamples, method.generator(),
                                  progress=method.progress)
    finite = reps[np.isfinite(reps)]
    low, high = interval_from_replicates(res, diff, finite, level, method.kind)
    pvalue = bootstrap_pvalue(res, diff, finite, method.kind)
    ci = ConfidenceInterval(*_clip(low, high, bounds), level, label,
                            int(reps.size - finite.size), finite)
    return ci, pvalue


def _jackknife(
    paired: PairedResampling, diff: float, level: float, label: str,
    bounds: tuple[float, float],
) -> tuple[ConfidenceInterval, float]:
    se, excluded = jackknife_se(paired.difference)
    z = float(norm_ppf(0.5 + level / 2.0))
    ci = ConfidenceInterval(*_clip(diff - z * se, diff + z * se, bounds), level, label, excluded)
    if not math.isfinite(se):
        return ci, math.nan
    if se == 0.0:
        return ci, 1.0 if diff == 0.0 else 0.0
    return ci, float(2.0 * norm_sf(abs(diff) / se))


def _comparison(
    a: AgreementResult, b: AgreementResult, diff: float, ci: ConfidenceInterval, pvalue: float,
    paired: PairedResampling, excluded: int, reason: str | None,
) -> Comparison:
    return Comparison(
        coefficient_a=a.coefficient, coefficient_b=b.coefficient, estimate_a=a.estimate,
        estimate_b=b.estimate, difference=diff, interval=ci, pvalue=pvalue,
        n_units=paired.n_units, n_shared=paired.n_shared, n_excluded=excluded,
        undefined_reason=reason, interval_a=_own(a, ci.confidence_level),
        interval_b=_own(b, ci.confidence_level),
    )


def _own(result: AgreementResult, level: float) -> ConfidenceInterval | None:
    """The analytic interval of one side, when it has one."""
    if not result.defined or not (math.isfinite(result.se) or result.analytic_interval):
        return None
    return result.confidence_interval(level)


_SHORT = ("kappa", "alpha", "pi", "ac1", "ac2", "icc")


def _short(coefficient: str) -> str:
    """``cohen_kappa`` -> ``kappa``: the word a sentence uses."""
    last = coefficient.rsplit("_", 1)[-1]
    return last if last in _SHORT else coefficient


def _sentence(c: Comparison, name_a: str, name_b: str, digits: int) -> str:
    def f(x: float) -> str:
        text = f"{x:.{digits}f}"
        return text.lstrip("-") if float(text) == 0 else text  # never "-0.00"

    def span(ci: ConfidenceInterval | None) -> str:
        if ci is None or not math.isfinite(ci.low):
            return ""
        low, high = f(ci.low), f(ci.high)
        return f"{low}{' to ' if low.startswith('-') or high.startswith('-') else '-'}{high}"

    what = _short(c.coefficient_a)
    if not math.isfinite(c.difference):
        return f"{name_a} and {name_b} cannot be compared: {c.undefined_reason}"
    level = f"{c.interval.confidence_level:.0%} CI "
    own_a, own_b = span(c.interval_a), span(c.interval_b)
    first = f"{name_a} ({what} {f(c.estimate_a)}" + (f", {level}{own_a})" if own_a else ")")
    second = f"{name_b} ({f(c.estimate_b)}" + (f", {own_b})" if own_b else ")")
    if c.difference == 0:
        return f"{first} equals {second}"
    way = "higher" if c.difference > 0 else "lower"
    out = (f"{first} is {way} than {second} by {f(abs(c.difference))} "
           f"({span(c.interval) or 'no interval'})")
    if c.interval.low <= 0 <= c.interval.high:
        out += "; the interval includes 0, so the data do not show a difference"
    return out


def _num(x: float) -> float | None:
    return None if not math.isfinite(x) else float(x)


def _side(coefficient: str, estimate: float, ci: ConfidenceInterval | None) -> dict[str, Any]:
    """One compared result as a figure: its name, estimate and interval (when known)."""
    out: dict[str, Any] = {"coefficient": coefficient, "estimate": _num(estimate)}
    if ci is not None:
        out["confidence_interval"] = ci.to_dict()
    return out
