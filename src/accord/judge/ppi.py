r"""Prediction-powered inference for a mean: a judge's rate corrected by human labels.

A judge labels :math:`N` items cheaply (:math:`f(\tilde X_j)`); humans label a
smaller random sample of :math:`n` items on which the judge's label is also
known (:math:`Y_i`, :math:`f(X_i)`). The prediction-powered estimate of the mean
(Angelopoulos, Bates, Fannjiang, Jordan & Zrnic 2023, *Science* 382, 669-674,
the mean example of sec. 2) and its power-tuned form (Angelopoulos, Duchi &
Zrnic 2023, PPI++, arXiv:2311.01453) are

.. math::

    \hat\theta_\lambda = \lambda \bar f_N + \frac1n \sum_i (Y_i - \lambda f(X_i)),
    \qquad
    \widehat{\mathrm{se}}^2 = \frac{\lambda^2 \hat\sigma^2_{f,N}}{N}
        + \frac{\hat\sigma^2_{Y - \lambda f, n}}{n},

with :math:`\lambda = 1` for PPI and, for PPI++, :math:`\hat\lambda =
\widehat{\mathrm{Cov}}(Y, f) / ((1 + n/N)\, \widehat{\mathrm{Var}}(f))` clipped to
[0, 1] (the covariance over the labelled items, the variance over all judge
labels). Variances divide by the sample size as in the reference implementation
(ppi_python); the interval is the normal one, which covers a little less than its
nominal level when few items are human-labelled (in a simulation of binary labels at
prevalence 0.3 with 2,000 judge labels: 92% of 95% intervals at n = 80, 95% at
n = 200). The humans' sample must be a random sample of the same population as the
judge's.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.errors import DataError, InsufficientDataError
from accord.inference.resampling import FloatArray
from accord.inference.results import AgreementResult

__all__ = ["ppi_mean"]


def ppi_mean(
    judge_unlabelled: Any,
    judge_labelled: Any,
    human_labelled: Any,
    *,
    lam: float | Literal["tuned"] = 1.0,
) -> AgreementResult:
    """The judge's rate on many items, corrected with a human-labelled sample (PPI).

    Parameters
    ----------
    judge_unlabelled : sequence of numbers
        The judge's label (1/0 pass, a score) on the items without a human label.
    judge_labelled, human_labelled : sequences of numbers, same length
        The judge's and the humans' labels on the human-labelled items.
    lam : float or "tuned"
        1 for PPI (the default), 0 for the humans' sample alone, ``"tuned"`` for the
        power-tuned PPI++ estimate.

    Returns
    -------
    AgreementResult
        ``estimate`` the corrected mean with its ``se``; ``observed`` the humans'
        mean alone, ``expected`` the judge's uncorrected mean on the unlabelled items;
        ``details`` holds ``lam``, the classical (humans-only) SE and
        ``effective_n``: how many human labels alone would give the same SE.

    Raises
    ------
    DataError
        Labels that are not finite numbers; labelled lists of different lengths.
    InsufficientDataError
        Fewer than two labelled or two unlabelled items.

    Examples
    --------
    >>> import accord
    >>> est = accord.ppi_mean([1, 1, 0, 1, 1, 0, 1, 1], [1, 0, 1, 1], [1, 0, 0, 1])
    >>> round(est.estimate, 4), round(est.se, 4)
    (0.5, 0.2652)
    """
    func = "ppi_mean"
    f_unl = _numbers(judge_unlabelled, "judge_unlabelled", func)
    f_lab = _numbers(judge_labelled, "judge_labelled", func)
    y = _numbers(human_labelled, "human_labelled", func)
    if f_lab.size != y.size:
        raise DataError(f"{func} got {f_lab.size} judge labels and {y.size} human labels on "
                        "the labelled items; give both for every labelled item.")
    n, big_n = y.size, f_unl.size
    if n < 2 or big_n < 2:
        raise InsufficientDataError(f"{func} needs at least two labelled and two unlabelled "
                                    f"items; got {n} and {big_n}.")
    weight = _lambda(lam, f_unl, f_lab, y, func)
    est = weight * float(f_unl.mean()) + float(np.mean(y - weight * f_lab))
    var = weight**2 * float(np.var(f_unl)) / big_n + float(np.var(y - weight * f_lab)) / n
    classical = float(np.var(y)) / n
    return AgreementResult(
        coefficient="ppi_mean", estimate=est, observed=float(y.mean()),
        expected=float(f_unl.mean()), se=math.sqrt(var), n_units=n + big_n, n_raters=2,
        terms=("labelled_human_mean", "unlabelled_judge_mean"),
        details={"lam": weight, "n_labelled": n, "n_unlabelled": big_n,
                 "rectifier": float(np.mean(y - weight * f_lab)),
                 "classical_se": math.sqrt(classical),
                 "effective_n": n * classical / var if var > 0 else math.inf},
    )


def _lambda(lam: Any, f_unl: FloatArray, f_lab: FloatArray, y: FloatArray, func: str) -> float:
    if lam == "tuned":
        n, big_n = y.size, f_unl.size
        cov = float(np.mean((y - y.mean()) * (f_lab - f_lab.mean())))
        var = float(np.var(np.concatenate([f_lab, f_unl]), ddof=1))
        if var == 0:
            return 0.0  # a constant judge carries no information
        return float(np.clip(cov / ((1.0 + n / big_n) * var), 0.0, 1.0))
    if isinstance(lam, bool) or not isinstance(lam, (int, float)) or not math.isfinite(lam):
        raise v.fail("lam", func, 'a number (1 for PPI) or "tuned"', lam)
    return float(lam)


def _numbers(values: Any, param: str, func: str) -> FloatArray:
    try:
        arr = np.asarray(values, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise DataError(f"{func}: {param} must hold numbers (1/0 labels or scores).") from None
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise DataError(f"{func}: {param} has {bad.size} missing or non-finite value(s) (the "
                        f"first at position {int(bad[0])}); drop those items from both lists.")
    return arr
