r"""Repeat-run consistency: the same judge run N times on the same items.

* **flip rate**: the share of items whose runs do not all give the same verdict,
  and, with ``threshold=``, the share whose runs fall on both sides of it (pass in
  one run, fail in another);
* **within-item variance**: the mean over items of the runs' sample variance;
* **ICC(1,1)**: the one-way intraclass correlation of the runs as raters
  (Shrout & Fleiss 1979), the reliability of one run, with its F-based interval;
  its Spearman-Brown step-up ICC(1,k) is the reliability of the mean of the k runs;
* **runs needed** for a target reliability :math:`R` from the single-run
  reliability :math:`\rho` (Spearman-Brown prophecy, Spearman 1910; Brown 1910):

  .. math:: m = \frac{R (1 - \rho)}{\rho (1 - R)},

  whose interval maps the ICC's interval limits through the same (decreasing) formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients.intraclass import icc
from accord.coefficients.pairwise import call_quietly
from accord.data import _validation as v
from accord.errors import DataError, InsufficientDataError
from accord.inference.display import Displayed
from accord.inference.results import AgreementResult
from accord.judge import _figures as fig
from accord.judge.biases import wilson

__all__ = ["JudgeConsistency", "judge_consistency"]


@dataclass(frozen=True)
class JudgeConsistency(Displayed):
    """Consistency of a judge over repeated runs on the same items.

    Attributes
    ----------
    flip_rate : AgreementResult
        Share of items whose runs disagree (Wilson interval).
    threshold_flip_rate : AgreementResult or None
        Share of items with runs on both sides of ``threshold`` (pass and fail).
    within_item_variance : AgreementResult
        Mean over items of the runs' sample variance (ddof 1).
    icc : AgreementResult
        ICC(1,1): the reliability of a single run (F-based interval).
    icc_k : AgreementResult
        ICC(1,k): the reliability of the mean of the k runs (Spearman-Brown step-up).
    n_runs : int
        Runs (columns).
    n_items_dropped : int
        Items with fewer than two runs, not counted.
    target : float
        The reliability the runs are asked to reach (``judge_consistency(target=)``):
        what :meth:`sentence` and :meth:`runs_needed` use when not given another, and
        what the report shows.
    """

    flip_rate: AgreementResult
    threshold_flip_rate: AgreementResult | None
    within_item_variance: AgreementResult
    icc: AgreementResult
    icc_k: AgreementResult
    n_runs: int
    n_items_dropped: int
    target: float = 0.9

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        optional = self.threshold_flip_rate
        return {
            "flip_rate": self.flip_rate.to_dict(),
            "threshold_flip_rate": None if optional is None else optional.to_dict(),
            "within_item_variance": self.within_item_variance.to_dict(),
            "icc": self.icc.to_dict(), "icc_k": self.icc_k.to_dict(),
            "n_runs": self.n_runs, "n_items_dropped": self.n_items_dropped,
            "target": self.target,
        }

    def sentence(self, confidence_level: float = 0.95, *, target: float | None = None) -> str:
        """One sentence: one run's reliability, runs needed for ``target`` (default: the
        result's :attr:`target`), the flip rate."""
        from .sentences import consistency_sentence

        return consistency_sentence(self, confidence_level,
                                    target=self.target if target is None else target)

    def runs_needed(self, target: float | None = None, *,
                    confidence_level: float = 0.95) -> AgreementResult:
        """Runs whose mean reaches reliability ``target`` (Spearman-Brown), with an interval.

        ``target`` defaults to the result's :attr:`target`. ``estimate`` is the
        real-valued number of runs; ``details["runs"]`` rounds it up. Its
        ``"asymptotic"`` interval maps the ICC(1,1) interval at the requested level;
        undefined when the ICC is undefined or not positive.

        Examples
        --------
        >>> import accord
        >>> runs = [[4, 4, 5], [2, 3, 2], [5, 5, 5], [1, 2, 1], [3, 3, 4], [2, 2, 2]]
        >>> c = accord.judge_consistency(runs)
        >>> need = c.runs_needed(0.95)
        >>> need.details["runs"], round(c.icc.estimate, 4)
        (3, 0.8974)
        """
        if target is None:
            target = self.target
        _check_target(target, "runs_needed")
        rho = self.icc.estimate
        name = "runs_needed"
        if not self.icc.defined or rho <= 0:
            return fig.undefined(name, "the single-run ICC is undefined or not positive, so "
                                 "no number of runs reaches the target", self.n_runs)
        est = prophecy(rho, target)
        icc_res = self.icc

        def interval(level: float) -> tuple[float, float]:
            ci = icc_res.confidence_interval(level)
            return prophecy(ci.high, target), prophecy(ci.low, target)

        return AgreementResult(
            coefficient=name, estimate=est, observed=rho, expected=target, se=math.nan,
            n_units=self.icc.n_units, n_raters=self.n_runs,
            details={"runs": math.ceil(est - 1e-12), "target": target, "icc1": rho,
                     "ci_method": "ICC(1,1) F interval through Spearman-Brown"},
            bounds=(0.0, math.inf), analytic_interval=interval, terms=("", ""))


def prophecy(rho: float, target: float) -> float:
    """Spearman-Brown: the number of runs whose mean has reliability ``target``."""
    if not math.isfinite(rho) or rho <= 0:
        return math.inf
    if rho >= 1:
        return 1.0
    return target * (1.0 - rho) / (rho * (1.0 - target))


def _check_target(target: Any, func: str) -> None:
    if isinstance(target, bool) or not (isinstance(target, (int, float))
                                        and 0.0 < target < 1.0):
        raise v.fail("target", func, "a reliability in (0, 1)", target)


def judge_consistency(runs: Any, *, threshold: float | None = None,
                      target: float = 0.9) -> JudgeConsistency:
    """Flip rates, within-item variance, ICC(1,1) and its step-up over repeated judge runs.

    Parameters
    ----------
    runs : items x runs array-like of numbers
        The verdict of each run on each item (a score, or 1/0 for pass/fail);
        ``nan``/``None`` for a run that gave no verdict.
    threshold : float, optional
        A pass threshold (score >= threshold passes): adds the share of items that
        pass in some runs and fail in others.
    target : float
        The reliability, in (0, 1), the runs are asked to reach: the result's
        :attr:`~JudgeConsistency.target`, used by its sentence, by ``runs_needed()``
        and by the report (which adds it to the runs needed for 0.8, 0.9 and 0.95).

    Returns
    -------
    JudgeConsistency

    Raises
    ------
    InsufficientDataError
        Fewer than two runs, or no item with two verdicts.
    DataError
        Verdicts that are not numbers.
    InvalidParameterError
        A ``target`` outside (0, 1).

    References
    ----------
    P. E. Shrout & J. L. Fleiss (1979). Intraclass correlations: uses in assessing
    rater reliability. Psychological Bulletin 86, 420-428.

    Examples
    --------
    >>> import accord
    >>> runs = [[4, 4, 5], [2, 3, 2], [5, 5, 5], [1, 2, 1], [3, 3, 4], [2, 2, 2]]
    >>> c = accord.judge_consistency(runs, threshold=3)
    >>> c.flip_rate.estimate, c.threshold_flip_rate.estimate
    (0.6666666666666666, 0.16666666666666666)
    """
    func = "judge_consistency"
    _check_target(target, func)
    x = _matrix(runs, func)
    counts = np.isfinite(x).sum(axis=1)
    keep = counts >= 2
    if not keep.any():
        raise InsufficientDataError(f"{func} needs at least one item with verdicts from two "
                                    "runs; every item has at most one.")
    x, counts = x[keep], counts[keep]
    lo, hi = np.nanmin(x, axis=1), np.nanmax(x, axis=1)
    flips = fig.ratio("flip_rate", (lo != hi).astype(np.float64), np.ones(x.shape[0]),
                      reason_if_empty="no item", n_raters=x.shape[1], interval=wilson)
    cross = None
    if threshold is not None:
        both = (lo < threshold) & (hi >= threshold)
        cross = fig.ratio("threshold_flip_rate", both.astype(np.float64), np.ones(x.shape[0]),
                          reason_if_empty="no item", n_raters=x.shape[1], interval=wilson,
                          details={"threshold": threshold})
    var = np.nanvar(x, axis=1, ddof=1)
    within = fig.ratio("within_item_variance", var, np.ones(x.shape[0]), n_raters=x.shape[1],
                       reason_if_empty="no item", bounds=(0.0, math.inf))
    one = _icc(x, "ICC1")
    k = _icc(x, "ICC1k")
    return JudgeConsistency(flips, cross, within, one, k, x.shape[1], int((~keep).sum()),
                            float(target))


def _icc(x: NDArray[np.float64], form: str) -> AgreementResult:
    compute: Callable[..., AgreementResult] = icc
    res = call_quietly(compute, x, {"form": form}, "icc", x.shape[1])
    if res.undefined_reason:
        v.warn_undefined(f"icc ({form})", res.undefined_reason)
    return res


def _matrix(runs: Any, func: str) -> NDArray[np.float64]:
    try:
        arr = np.asarray(runs, dtype=object)
    except ValueError:
        raise DataError(f"{func} needs an items x runs table; the rows have different "
                        "lengths (use nan for a run without a verdict).") from None
    if arr.ndim != 2:
        raise DataError(f"{func} needs an items x runs table (one row per item, one column "
                        f"per run); got an array of {arr.ndim} dimension(s).")
    if arr.shape[1] < 2:
        raise InsufficientDataError(f"{func} needs at least two runs (columns) to measure "
                                    f"consistency; got {arr.shape[1]}.")
    try:
        return np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        for val in arr.ravel():
            _number(val, func)
        raise  # pragma: no cover - _number names the value first


def _number(val: Any, func: str) -> float:
    if val is None:
        return math.nan
    if isinstance(val, (bool, np.bool_, int, float, np.integer, np.floating)):
        return float(val)
    raise DataError(f"{func} needs numeric verdicts (a score, or 1/0 for pass/fail); got "
                    f"{val!r}.")
