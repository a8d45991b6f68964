"""The difference of a coefficient between two independent samples of units.

Two batches that share no unit (a pilot and a production batch, two languages,
two annotator teams) give independent estimates, so the variance of their
difference is the sum of their variances and a bootstrap resamples each batch
on its own:

- **bootstrap**: ``Delta* = theta_a(S_a*) - theta_b(S_b*)`` with the two
  resamples drawn independently (Efron & Tibshirani 1993, *An Introduction to
  the Bootstrap*, sec. 8.3, two-sample problems); percentile or basic interval,
  and the p-value of "no difference" by inverting that interval (Davison &
  Hinkley 1997, sec. 4.4);
- **asymptotic** (the delta method): ``se(Delta) = sqrt(se_a^2 + se_b^2)``
  from each result's analytic SE, a normal interval and a z test (Fleiss,
  Levin & Paik 2003, *Statistical Methods for Rates and Proportions*, 3rd
  ed., sec. 18.1, for two independent kappas);
- **jackknife**: the same with each side's leave-one-unit-out SE.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from accord.errors import DataError
from accord.inference._normal import norm_ppf, norm_sf
from accord.inference.bootstrap import (
    Bootstrap,
    bootstrap_distribution,
    bootstrap_pvalue,
    interval_from_replicates,
)
from accord.inference.jackknife import jackknife_se
from accord.inference.resampling import FloatArray, Resampling
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = ["IndependentDifference", "independent_difference"]


@dataclass(frozen=True)
class IndependentDifference:
    """The interval and p-value of ``a - b``, and each side's own interval."""

    interval: ConfidenceInterval
    pvalue: float
    interval_a: ConfidenceInterval | None
    interval_b: ConfidenceInterval | None
    se: float
    n_excluded: int


def independent_difference(
    a: AgreementResult, b: AgreementResult, method: Bootstrap | str, level: float,
    bounds: tuple[float, float],
) -> IndependentDifference:
    """``a - b`` for two results on disjoint units (both defined)."""
    if isinstance(method, Bootstrap):
        return _bootstrap(a, b, method, level, bounds)
    if method == "jackknife":
        se_a, ex_a = jackknife_se(_resampling(a))
        se_b, ex_b = jackknife_se(_resampling(b))
        return _normal(a, b, se_a, se_b, level, "jackknife", bounds, ex_a + ex_b)
    return _normal(a, b, a.se, b.se, level, "asymptotic", bounds, 0)


def _resampling(result: AgreementResult) -> Resampling:
    if result.resampling is None:
        raise DataError(
            f"{result.coefficient} was computed from a summary without units (e.g. a "
            "contingency table), so it cannot be resampled; compute it from the ratings, or "
            "use method='asymptotic' (each result's analytic SE)."
        )
    return result.resampling()


def _normal(
    a: AgreementResult, b: AgreementResult, se_a: float, se_b: float, level: float,
    label: str, bounds: tuple[float, float], excluded: int,
) -> IndependentDifference:
    diff = a.estimate - b.estimate
    se = math.sqrt(se_a**2 + se_b**2)
    z = float(norm_ppf(0.5 + level / 2.0))
    low, high = _clip(diff - z * se, diff + z * se, bounds)
    ci = ConfidenceInterval(low, high, level, label, excluded)
    sides = [_side(r, s, z, level, label) for r, s in ((a, se_a), (b, se_b))]
    return IndependentDifference(ci, _z_pvalue(diff, se), sides[0], sides[1], se, excluded)


def _side(result: AgreementResult, se: float, z: float, level: float,
          label: str) -> ConfidenceInterval | None:
    if not math.isfinite(se):
        return None
    if label == "asymptotic":
        return result.confidence_interval(level)
    low, high = result.estimate - z * se, result.estimate + z * se
    return ConfidenceInterval(*_clip(low, high, result.bounds), level, label)


def _z_pvalue(diff: float, se: float) -> float:
    if not math.isfinite(se):
        return math.nan
    if se == 0.0:
        return 1.0 if diff == 0.0 else 0.0
    return float(2.0 * norm_sf(abs(diff) / se))


def _bootstrap(
    a: AgreementResult, b: AgreementResult, method: Bootstrap, level: float,
    bounds: tuple[float, float],
) -> IndependentDifference:
    rng = method.generator()  # one stream: the two batches' draws are independent
    ra, rb = _resampling(a), _resampling(b)
    reps_a = bootstrap_distribution(ra, method.n_resamples, rng, progress=method.progress)
    reps_b = bootstrap_distribution(rb, method.n_resamples, rng, progress=method.progress)
    both = np.isfinite(reps_a) & np.isfinite(reps_b)
    finite = reps_a[both] - reps_b[both]
    diff = a.estimate - b.estimate
    label = f"bootstrap-{method.kind}"
    # the interval and p-value of a percentile or basic bootstrap need no resampling of
    # the difference itself (only BCa does, and compare refuses BCa here)
    low, high = interval_from_replicates(ra, diff, finite, level, method.kind)
    pvalue = bootstrap_pvalue(ra, diff, finite, method.kind)
    excluded = int(reps_a.size - finite.size)
    ci = ConfidenceInterval(*_clip(low, high, bounds), level, label, excluded, finite)
    side_a = _side_bootstrap(a, ra, reps_a, level, method, label)
    side_b = _side_bootstrap(b, rb, reps_b, level, method, label)
    return IndependentDifference(ci, pvalue, side_a, side_b, float(np.std(finite, ddof=1))
                                 if finite.size > 1 else math.nan, excluded)


def _side_bootstrap(result: AgreementResult, res: Resampling, reps: FloatArray, level: float,
                    method: Bootstrap, label: str) -> ConfidenceInterval:
    finite = reps[np.isfinite(reps)]
    low, high = interval_from_replicates(res, result.estimate, finite, level, method.kind)
    return ConfidenceInterval(*_clip(low, high, result.bounds), level, label,
                              int(reps.size - finite.size), finite)


def _clip(low: float, high: float, bounds: tuple[float, float]) -> tuple[float, float]:
    return float(np.clip(low, *bounds)), float(np.clip(high, *bounds))
