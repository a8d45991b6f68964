r"""Is agreement the same in k independent groups? The chi-square test of homogeneity.

For estimates :math:`\hat\kappa_1, \dots, \hat\kappa_k` from independent
groups (batches, languages, sites) with variances :math:`v_j`, Fleiss (1981,
*Statistical Methods for Rates and Proportions*, 2nd ed., sec. 13.2, on kappas
from several independent studies) pools them with inverse-variance weights and
tests their equality:

.. math:: \bar\kappa = \frac{\sum_j \hat\kappa_j / v_j}{\sum_j 1 / v_j}, \qquad
          \chi^2 = \sum_j \frac{(\hat\kappa_j - \bar\kappa)^2}{v_j}
          \sim \chi^2_{k-1} \text{ under equality.}

This is Cochran's Q of a fixed-effect meta-analysis. The variances are each
result's analytic SE squared (Fleiss, Cohen & Everitt 1969 for kappa), or, for
any coefficient, each group's bootstrap or jackknife variance over its own units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.errors import DataError
from accord.inference._distributions import chi2_sf
from accord.inference.bootstrap import Bootstrap, bootstrap_distribution
from accord.inference.display import Displayed
from accord.inference.jackknife import jackknife_se
from accord.inference.results import AgreementResult

__all__ = ["HomogeneityTest", "homogeneity"]

HomogeneityMethod = Bootstrap | Literal["asymptotic", "jackknife"]


@dataclass(frozen=True)
class HomogeneityTest(Displayed):
    """The chi-square test that k independent groups share one value of a coefficient.

    Attributes
    ----------
    coefficient : str
    estimates, ses : tuple of float
        Each group's estimate and the SE used for it.
    pooled : float
        The inverse-variance weighted mean of the estimates.
    statistic : float
        :math:`\\chi^2 = \\sum_j (\\hat\\theta_j - \\bar\\theta)^2 / se_j^2`.
    df : int
        ``k - 1``.
    pvalue : float
        Upper tail of the chi-square distribution with ``df`` degrees of freedom.
    method : str
        Where the SEs come from: ``"asymptotic"``, ``"jackknife"`` or ``"bootstrap"``.
    undefined_reason : str or None
        Why the test is undefined (a group's estimate or SE is not a number, or 0).
    """

    coefficient: str
    estimates: tuple[float, ...]
    ses: tuple[float, ...]
    pooled: float
    statistic: float
    df: int
    pvalue: float
    method: str
    undefined_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision; undefined numbers are ``None``."""
        return {
            "coefficient": self.coefficient,
            "estimates": [_num(x) for x in self.estimates],
            "ses": [_num(x) for x in self.ses],
            "pooled": _num(self.pooled), "statistic": _num(self.statistic), "df": self.df,
            "pvalue": _num(self.pvalue), "method": self.method,
            "undefined_reason": self.undefined_reason,
        }

    def __str__(self) -> str:
        if self.undefined_reason:
            return f"homogeneity of {self.coefficient}: undefined [{self.undefined_reason}]"
        return (f"homogeneity of {self.coefficient} over {self.df + 1} groups: chi2 = "
                f"{self.statistic:.4f}, df = {self.df}, p = {self.pvalue:.4g} ({self.method})")


def homogeneity(
    results: Sequence[AgreementResult], /, *, method: HomogeneityMethod = "asymptotic",
) -> HomogeneityTest:
    """Test that independent groups (no shared unit) have the same coefficient.

    Parameters
    ----------
    results : sequence of AgreementResult
        One result per group, all of the same coefficient, at least two.
    method : "asymptotic", "jackknife" or Bootstrap
        The SE of each group: its analytic SE (Fleiss 1981 for kappa), its
        leave-one-unit-out SE, or the standard deviation of its bootstrap
        replicates (any coefficient computed from ratings).

    Returns
    -------
    HomogeneityTest
        Undefined (``nan`` with a reason) when a group's estimate or SE is not a
        positive number.

    Examples
    --------
    Three batches whose kappas are 0.40, 0.60 and 0.80 with SEs 0.10, 0.10 and 0.05:
    the pooled kappa is (4 + 6 + 32) / (100 + 100 + 400) = 0.7 and the statistic
    ``(0.3/0.1)**2 + (0.1/0.1)**2 + (0.1/0.05)**2 = 14``:

    >>> import accord, math
    >>> from accord.inference.results import AgreementResult
    >>> groups = [AgreementResult("cohen_kappa", k, math.nan, math.nan, se, 50, 2)
    ...           for k, se in ((0.4, 0.1), (0.6, 0.1), (0.8, 0.05))]
    >>> test = accord.homogeneity(groups)
    >>> round(test.pooled, 10), round(test.statistic, 10), test.df
    (0.7, 14.0, 2)
    """
    func = "homogeneity"
    results = list(results)
    if len(results) < 2 or not all(isinstance(r, AgreementResult) for r in results):
        got = f"{len(results)} item(s) of type(s) {sorted({type(r).__name__ for r in results})}"
        raise v.fail("results", func, "a sequence of at least two AgreementResults", got)
    names = sorted({r.coefficient for r in results})
    if len(names) > 1:
        raise DataError(f"homogeneity compares one coefficient across groups; got {names}.")
    label = _label(method)
    ses = [_se(r, method) for r in results]
    estimates = tuple(float(r.estimate) for r in results)
    reason = _undefined(results, ses)
    if reason is not None:
        nan = math.nan
        return HomogeneityTest(names[0], estimates, tuple(ses), nan, nan, len(results) - 1,
                               nan, label, reason)
    est, w = np.array(estimates), 1.0 / np.square(ses)
    pooled = float(np.sum(w * est) / np.sum(w))
    chi2 = float(np.sum(w * (est - pooled) ** 2))
    df = len(results) - 1
    return HomogeneityTest(names[0], estimates, tuple(ses), pooled, chi2, df,
                           float(chi2_sf(chi2, df)), label)


def _label(method: object) -> str:
    if isinstance(method, Bootstrap):
        return "bootstrap"
    if isinstance(method, str) and method in ("asymptotic", "jackknife"):
        return method
    raise v.fail("method", "homogeneity", "'asymptotic', 'jackknife' or an accord.Bootstrap(...)",
                 method)


def _se(result: AgreementResult, method: object) -> float:
    if method == "asymptotic" or not result.defined:
        return float(result.se)
    if result.resampling is None:
        raise DataError(f"{result.coefficient} was computed from a summary without units, so "
                        "it cannot be resampled; use method='asymptotic'.")
    res = result.resampling()
    if isinstance(method, Bootstrap):
        reps = bootstrap_distribution(res, method.n_resamples, method.generator())
        finite = reps[np.isfinite(reps)]
        return float(np.std(finite, ddof=1)) if finite.size > 1 else math.nan
    return jackknife_se(res)[0]


def _undefined(results: list[AgreementResult], ses: list[float]) -> str | None:
    for j, (r, se) in enumerate(zip(results, ses)):
        if not r.defined:
            return f"group {j + 1} is undefined: {r.undefined_reason or 'not a number'}"
        if not (math.isfinite(se) and se > 0):
            return (f"group {j + 1} has no positive standard error ({se}); the test weighs "
                    "each group by 1/se^2")
    return None


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
