"""Is one agreement higher than another on the same units?

:func:`compare` takes two results computed on the same units (a model's kappa
with the gold labels against another model's; agreement before and after a
guideline change on the same items; Fleiss' kappa against Krippendorff's alpha)
and gives their difference with a *paired* interval and p-value: units are
resampled together, so the correlation of the two estimates is kept
(:mod:`accord.inference.paired`). Two separate intervals that overlap say
little; the paired interval of the difference answers the question.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats

from accord.data import _validation as v
from accord.errors import DataError
from accord.inference.bootstrap import (
    Bootstrap,
    bootstrap_distribution,
    bootstrap_pvalue,
    interval_from_replicates,
)
from accord.inference.jackknife import jackknife_se
from accord.inference.paired import PairedResampling, paired_resampling
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = ["Comparison", "compare"]

CompareMethod = Bootstrap | Literal["jackknife"]


@dataclass(frozen=True)
class Comparison:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; undefined numbers are ``None``."""
        return {
            "coefficient_a": self.coefficient_a,
            "coefficient_b": self.coefficient_b,
            "estimate_a": _num(self.estimate_a),
            "estimate_b": _num(self.estimate_b),
            "difference": _num(self.difference),
            "interval": self.interval.to_dict(),
            "pvalue": _num(self.pvalue),
            "n_units": self.n_units,
            "n_shared": self.n_shared,
            "n_excluded": self.n_excluded,
            "undefined_reason": self.undefined_reason,
        }

    def __str__(self) -> str:
        if not math.isfinite(self.difference):
            return (f"{self.coefficient_a} - {self.coefficient_b}: undefined "
                    f"[{self.undefined_reason}]")
        ci = self.interval
        return (
            f"{self.coefficient_a} - {self.coefficient_b} = {self.difference:.4f} "
            f"({ci.confidence_level:.0%} CI {ci.low:.4f} to {ci.high:.4f}, {ci.method}), "
            f"p = {self.pvalue:.4g}, n_units={self.n_units}"
        )


def compare(
    result_a: AgreementResult,
    result_b: AgreementResult,
    /,
    *,
    method: CompareMethod | None = None,
    confidence_level: float = 0.95,
) -> Comparison:
    r"""The difference of two coefficients on the same units, with a paired interval.

    .. math:: \hat\Delta = \hat\theta_a - \hat\theta_b, \qquad
              \hat\Delta^{*b} = g_a(S_a^{*b}) - g_b(S_b^{*b})

    where both statistics are evaluated on the *same* bootstrap resample of
    units ``b`` (Efron & Tibshirani 1993, ch. 13; Davison & Hinkley 1997,
    sec. 3.2 on paired data). Units are matched by their labels (or by position
    when neither result has labels); units rated under only one result count
    on that side only.

    Parameters
    ----------
    result_a, result_b : AgreementResult
        Computed from unit-level data (not from a bare contingency table).
    method : Bootstrap or "jackknife", optional
        ``Bootstrap(n_resamples=..., kind="percentile" | "basic" | "bca", rng=...)``
        (default ``Bootstrap()``, 9999 percentile resamples) or ``"jackknife"``
        (normal interval with the leave-one-unit-out SE of the difference and a
        z test).
    confidence_level : float
        Nominal coverage of the interval, in (0, 1).

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
    """
    func = "compare"
    for res, param in ((result_a, "result_a"), (result_b, "result_b")):
        if not isinstance(res, AgreementResult):
            raise v.fail(param, func, "an AgreementResult", res)
    level = v.confidence_level(confidence_level, func=func)
    method = Bootstrap() if method is None else method
    label = _label(method)
    names = (f"result_a ({result_a.coefficient})", f"result_b ({result_b.coefficient})")
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


def _label(method: object) -> str:
    if isinstance(method, Bootstrap):
        return f"bootstrap-{method.kind}"
    if isinstance(method, str) and method == "jackknife":
        return method
    raise v.fail("method", "compare", "an accord.Bootstrap(...) or 'jackknife'", method)


def _resampling(result: AgreementResult, name: str) -> Any:
    if result.resampling is None:
        raise DataError(
            f"{name} was computed from a summary without units (e.g. a contingency "
            "table), so it cannot be paired unit by unit; compute it from the ratings."
        )
    return result.resampling()


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
    z = float(stats.norm.ppf(0.5 + level / 2.0))
    ci = ConfidenceInterval(*_clip(diff - z * se, diff + z * se, bounds), level, label, excluded)
    if not math.isfinite(se):
        return ci, math.nan
    if se == 0.0:
        return ci, 1.0 if diff == 0.0 else 0.0
    return ci, float(2.0 * stats.norm.sf(abs(diff) / se))


def _comparison(
    a: AgreementResult, b: AgreementResult, diff: float, ci: ConfidenceInterval, pvalue: float,
    paired: PairedResampling, excluded: int, reason: str | None,
) -> Comparison:
    return Comparison(
        coefficient_a=a.coefficient, coefficient_b=b.coefficient, estimate_a=a.estimate,
        estimate_b=b.estimate, difference=diff, interval=ci, pvalue=pvalue,
        n_units=paired.n_units, n_shared=paired.n_shared, n_excluded=excluded,
        undefined_reason=reason,
    )


def _num(x: float) -> float | None:
    return None if not math.isfinite(x) else float(x)
