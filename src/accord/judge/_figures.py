r"""Ratios of per-unit sums as :class:`~accord.inference.results.AgreementResult`s.

Most judge-lab figures are a ratio :math:`r = \sum_i y_i / \sum_i x_i` over
units (pairs, items): a share of verdicts per pair, a win rate, a mean loss.
The resampling unit is the unit, so verdicts of one pair stay together. The
standard error is the linearised (sandwich) one of a ratio estimator
(Cochran 1977, *Sampling Techniques*, sec. 6.4, without the finite-population
factor):

.. math:: \widehat{\mathrm{Var}}(r) = \frac{\sum_i (y_i - r x_i)^2}{(\sum_i x_i)^2},

the cluster-robust variance of an intercept-only regression clustered by unit.
With one verdict per unit it is the Wald variance :math:`r(1 - r)/n`. A
difference of two ratios on the same units uses the difference of the
linearised terms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.inference.resampling import FloatArray, Resampling, pattern_index
from accord.inference.results import AgreementResult

Interval = Callable[[float], tuple[float, float]]


def ratio(name: str, y: NDArray[Any], x: NDArray[Any], *, reason_if_empty: str,
          bounds: tuple[float, float] = (0.0, 1.0), n_raters: int = 1,
          details: Mapping[str, Any] | None = None,
          interval: Callable[[float, float, float], tuple[float, float]] | None = None,
          ) -> AgreementResult:
    """``sum(y) / sum(x)`` over units with its linearised SE and a unit resampling.

    ``interval(successes, trials, level)`` replaces the Wald interval (e.g. Wilson's).
    """
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    keep = x > 0
    y, x = y[keep], x[keep]
    total = float(x.sum())
    if total == 0:
        return undefined(name, reason_if_empty, n_raters, details)
    est = float(y.sum() / total)
    se = math.sqrt(float(np.sum((y - est * x) ** 2))) / total
    features = np.stack([y, x], axis=1)
    analytic: Interval | None = None
    details = dict(details or {})
    if interval is not None:
        details["ci_method"] = getattr(interval, "__name__", "analytic")
        succ, trials = float(y.sum()), total
        analytic = lambda level: interval(succ, trials, level)  # noqa: E731
    return AgreementResult(
        coefficient=name, estimate=est, observed=float(y.sum()), expected=total, se=se,
        n_units=int(y.shape[0]), n_raters=n_raters, details=details,
        bounds=bounds, terms=("numerator", "denominator"),
        resampling=_lazy(features, _ratio_stat), analytic_interval=analytic,
    )


def ratio_difference(name: str, first: tuple[NDArray[Any], NDArray[Any]],
                     second: tuple[NDArray[Any], NDArray[Any]], *, reason_if_empty: str,
                     n_raters: int = 2, details: Mapping[str, Any] | None = None,
                     ) -> AgreementResult:
    """``sum(y1)/sum(x1) - sum(y2)/sum(x2)`` over the same units, paired."""
    y1, x1 = (np.asarray(a, dtype=np.float64) for a in first)
    y2, x2 = (np.asarray(a, dtype=np.float64) for a in second)
    keep = (x1 > 0) & (x2 > 0)
    y1, x1, y2, x2 = y1[keep], x1[keep], y2[keep], x2[keep]
    t1, t2 = float(x1.sum()), float(x2.sum())
    if t1 == 0 or t2 == 0:
        return undefined(name, reason_if_empty, n_raters, details)
    r1, r2 = float(y1.sum()) / t1, float(y2.sum()) / t2
    z = (y1 - r1 * x1) / t1 - (y2 - r2 * x2) / t2
    features = np.stack([y1, x1, y2, x2], axis=1)
    return AgreementResult(
        coefficient=name, estimate=r1 - r2, observed=r1, expected=r2,
        se=math.sqrt(float(np.sum(z * z))), n_units=int(y1.shape[0]), n_raters=n_raters,
        details={"first": r1, "second": r2, **(details or {})}, bounds=(-1.0, 1.0),
        terms=("", ""),
        resampling=_lazy(features, _difference_stat),
    )


def undefined(name: str, reason: str, n_raters: int,
              details: Mapping[str, Any] | None = None) -> AgreementResult:
    """An undefined figure: ``nan``, the reason, and a DegenerateDataWarning."""
    v.warn_undefined(name, reason)
    return AgreementResult(
        coefficient=name, estimate=math.nan, observed=math.nan, expected=math.nan,
        se=math.nan, n_units=0, n_raters=n_raters, undefined_reason=reason,
        details=dict(details or {}), terms=("", ""),
    )


def _ratio_stat(s: FloatArray) -> FloatArray:
    return np.where(s[:, 1] > 0, s[:, 0] / np.where(s[:, 1] > 0, s[:, 1], 1.0), np.nan)


def _difference_stat(s: FloatArray) -> FloatArray:
    ok = (s[:, 1] > 0) & (s[:, 3] > 0)
    a = s[:, 0] / np.where(ok, s[:, 1], 1.0)
    b = s[:, 2] / np.where(ok, s[:, 3], 1.0)
    return np.where(ok, a - b, np.nan)


def _lazy(features: FloatArray,
          statistic: Callable[[FloatArray], FloatArray]) -> Callable[[], Resampling]:
    def make() -> Resampling:
        patterns, counts, inverse = pattern_index(features)
        return Resampling(np.asarray(patterns, dtype=np.float64), counts, statistic,
                          unit_patterns=inverse)
    return make
