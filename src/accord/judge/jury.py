r"""Panels of judges (juries): combined verdicts, each judge and the panel through the
alternative annotator test, and how many independent judges the panel is worth.

The panel's verdict on a unit is the judges' majority label (a tie leaves the
unit without a panel verdict, counted) or their mean score. The **effective
number of independent judges** follows the design effect of a mean of
correlated measurements (Kish 1965, *Survey Sampling*, sec. 8.2): with
:math:`\rho_{jk}` the correlation over units of judges :math:`j` and :math:`k`'s
*errors* against the humans (judge minus the humans' mean when labels are
numbers; disagreement with the humans' majority otherwise),

.. math:: k_\text{eff} = \frac{k^2}{\sum_{j,k} \rho_{jk}}
          = \frac{k}{1 + (k - 1)\bar\rho},

the number of judges with independent errors whose average would be as precise as
the panel's (for errors of equal variance). It resamples by unit (bootstrap,
jackknife) through per-unit sums of errors and their products.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError
from accord.inference.display import Tabular
from accord.inference.jackknife import jackknife_se
from accord.inference.resampling import FloatArray, Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.judge import _figures as fig
from accord.judge._consensus import _majority
from accord.judge.alt_test import AltTestResult, alt_test

__all__ = ["JudgePanel", "judge_panel"]

PANEL = "panel"


@dataclass(frozen=True)
class JudgePanel(Tabular):
    """Several judges combined, each and together against the humans.

    Attributes
    ----------
    judges, humans : tuple
    combine : {"majority", "mean"}
    annotations : Annotations
        The input plus the panel's verdicts as one more rater, ``"panel"``.
    alt_tests : mapping
        ``judge -> AltTestResult``, and ``"panel" -> AltTestResult``.
    effective_judges : AgreementResult
        :math:`k_\\text{eff}` with a jackknife SE.
    error_correlation : numpy.ndarray
        The judges' error correlations (judges in the order given).
    n_panel_ties : int
        Units where the judges' majority was tied (no panel verdict).
    """

    judges: tuple[Any, ...]
    humans: tuple[Any, ...]
    combine: str
    annotations: Annotations
    alt_tests: Mapping[Any, AltTestResult]
    effective_judges: AgreementResult
    error_correlation: FloatArray
    n_panel_ties: int

    def sentence(self, confidence_level: float = 0.95) -> str:
        """One sentence: whether the panel passes the alt-test, and its effective size."""
        from .sentences import panel_sentence

        return panel_sentence(self, confidence_level)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping; the effective number of judges with its interval at
        ``confidence_level``."""
        return {
            "judges": [str(j) for j in self.judges], "humans": [str(h) for h in self.humans],
            "combine": self.combine,
            "alt_tests": {str(j): r.to_dict() for j, r in self.alt_tests.items()},
            "effective_judges": self.effective_judges.to_dict(confidence_level),
            "error_correlation": [[None if not math.isfinite(x) else float(x) for x in row]
                                  for row in self.error_correlation],
            "n_panel_ties": self.n_panel_ties,
        }


def judge_panel(
    data: Any,
    *,
    judges: Sequence[Any],
    humans: Sequence[Any] | None = None,
    combine: Literal["majority", "mean"] = "majority",
    epsilon: float = 0.2,
    fdr: float = 0.05,
    test: Literal["t", "wilcoxon"] = "t",
) -> JudgePanel:
    """Combine several judges and test each, and the panel, against the humans.

    Parameters
    ----------
    data : Annotations or any table accord reads
        Judges and humans as raters.
    judges : list
        The judges' rater names (at least two).
    humans : list, optional
        The humans (default: every other rater).
    combine : {"majority", "mean"}
        The panel's verdict: the judges' majority label, or their mean score (the
        alt-test then scores by negative RMSE).
    epsilon, fdr : float
        Passed to :func:`accord.alt_test`.
    test : {"t", "wilcoxon"}
        The alt-test's per-human test (``"wilcoxon"`` below 30 units).

    Returns
    -------
    JudgePanel

    Raises
    ------
    DataError
        Fewer than two judges; a judge or human that is not a rater; ``combine="mean"``
        on labels that are not numbers.

    Examples
    --------
    >>> import accord
    >>> rows = {"unit": list(range(8)),
    ...         "j1": [1, 0, 1, 1, 0, 0, 1, 0], "j2": [1, 0, 0, 1, 0, 1, 1, 0],
    ...         "j3": [1, 1, 1, 1, 0, 0, 1, 0], "h1": [1, 0, 1, 1, 0, 0, 1, 1],
    ...         "h2": [1, 0, 1, 0, 0, 0, 1, 0], "h3": [1, 0, 1, 1, 0, 0, 1, 0]}
    >>> ann = accord.Annotations.from_wide(rows, unit="unit",
    ...                                    raters=["j1", "j2", "j3", "h1", "h2", "h3"])
    >>> p = accord.judge_panel(ann, judges=["j1", "j2", "j3"], test="wilcoxon")
    >>> p.alt_tests["panel"].winning_rate, round(p.effective_judges.estimate, 4)
    (1.0, 1.8683)
    """
    func = "judge_panel"
    v.choice(combine, ("majority", "mean"), param="combine", func=func)
    ann = as_annotations(data, func=func)
    chosen, humans_t = _roles(ann, judges, humans, func)
    codes = ann.wide()
    jcols = [ann.raters.index(j) for j in chosen]
    hcols = [ann.raters.index(h) for h in humans_t]
    with_panel, ties = _with_panel(ann, codes, jcols, combine, func)
    scoring: Literal["neg_rmse", "accuracy"] = "neg_rmse" if combine == "mean" else "accuracy"
    tests = {j: alt_test(with_panel, judge=j, humans=list(humans_t), epsilon=epsilon,
                         scoring=scoring, fdr=fdr, test=test) for j in (*chosen, PANEL)}
    errors = _errors(ann, codes, jcols, hcols)
    k_eff, corr = effective_judges(errors)
    return JudgePanel(tuple(chosen), humans_t, combine, with_panel, MappingProxyType(tests),
                      k_eff, corr, ties)


def _roles(ann: Annotations, judges: Sequence[Any], humans: Sequence[Any] | None, func: str
           ) -> tuple[list[Any], tuple[Any, ...]]:
    if PANEL in ann.raters:
        raise DataError(f"{func} names the combined verdicts {PANEL!r}, and a rater of the data "
                        f"has that name already; rename that rater.")
    chosen = v.names(judges, param="judges", func=func)
    if len(chosen) < 2:
        raise DataError(f"{func} needs at least two judges; got {chosen!r}.")
    twice = sorted({str(j) for j in chosen if chosen.count(j) > 1})
    if twice:
        raise DataError(f"{func} names the judge(s) {', '.join(map(repr, twice))} more than "
                        "once (judges=[...]); expected distinct judges.")
    listed = chosen + ([] if humans is None else v.names(humans, param="humans", func=func))
    unknown = [r for r in listed if r not in ann.raters]
    if unknown:
        raise DataError(f"The raters {unknown!r} of {func} are not among the raters "
                        f"{list(ann.raters)!r}.")
    rest = tuple(r for r in ann.raters if r not in chosen) if humans is None else tuple(humans)
    if set(rest) & set(chosen):
        raise DataError(f"{func}: a rater cannot be both a judge and a human "
                        f"({sorted(map(str, set(rest) & set(chosen)))}).")
    return chosen, rest


def _with_panel(ann: Annotations, codes: NDArray[np.int64], jcols: list[int], combine: str,
                func: str) -> tuple[Annotations, int]:
    units, raters, values = _long(ann)
    if combine == "majority":
        top = _majority(codes[:, jcols], len(ann.categories))
        ok = top >= 0
        cats = np.empty(len(ann.categories), dtype=object)
        cats[:] = list(ann.categories)
        panel_values: NDArray[Any] = cats[top[ok]]
        ties = int(np.count_nonzero(top == -2))
    else:
        x = _numeric(ann, codes, jcols, func)
        ok = np.asarray(np.isfinite(x).any(axis=1), dtype=bool)
        panel_values = np.nanmean(x[ok], axis=1)
        ties = 0
    panel_units = np.asarray([ann.units[i] for i in np.flatnonzero(ok)], dtype=object)
    table = {
        "unit": np.concatenate([units, panel_units]),
        "rater": np.concatenate([raters, np.full(panel_units.size, PANEL, dtype=object)]),
        "value": np.concatenate([values, np.asarray(panel_values, dtype=object)]),
    }
    level = "interval" if combine == "mean" else ann.level
    return Annotations.from_long(table, level=level), ties


def _long(ann: Annotations) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    codes = ann.wide()
    rows, cols = np.nonzero(codes >= 0)
    obj = np.empty(len(ann.categories), dtype=object)
    obj[:] = list(ann.categories)
    units = np.empty(rows.size, dtype=object)
    units[:] = [ann.units[i] for i in rows]
    raters = np.empty(rows.size, dtype=object)
    raters[:] = [ann.raters[j] for j in cols]
    return units, raters, obj[codes[rows, cols]]


def _numeric(ann: Annotations, codes: NDArray[np.int64], cols: list[int], func: str
             ) -> FloatArray:
    try:
        values = np.asarray(ann.categories, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"{func} needs numeric labels to average or correlate scores; got "
                        f"{list(ann.categories)[:5]!r}.") from None
    sub = codes[:, cols]
    return np.where(sub >= 0, values[np.maximum(sub, 0)], np.nan)


def _errors(ann: Annotations, codes: NDArray[np.int64], jcols: list[int], hcols: list[int]
            ) -> FloatArray:
    """Units x judges errors against the humans, on units every judge and a human rated."""
    try:
        values = np.asarray(ann.categories, dtype=np.float64)
        x = np.where(codes >= 0, values[np.maximum(codes, 0)], np.nan)
        err = x[:, jcols] - _row_mean(x[:, hcols])[:, None]
    except (TypeError, ValueError):
        top = _majority(codes[:, hcols], len(ann.categories)).astype(np.float64)
        top[top < 0] = np.nan
        sub = codes[:, jcols].astype(np.float64)
        sub[sub < 0] = np.nan
        err = np.where(np.isfinite(sub) & np.isfinite(top[:, None]),
                       (sub != top[:, None]).astype(np.float64), np.nan)
    return err[np.isfinite(err).all(axis=1)]


def _row_mean(x: FloatArray) -> FloatArray:
    n = np.isfinite(x).sum(axis=1)
    return np.where(n > 0, np.nansum(x, axis=1) / np.maximum(n, 1), np.nan)


def effective_judges(errors: FloatArray) -> tuple[AgreementResult, FloatArray]:
    """:math:`k^2 / \\sum \\rho` from units x judges errors, resampled by unit."""
    k = errors.shape[1]
    pairs = list(combinations_with_replacement(range(k), 2))
    features = np.column_stack([np.ones(errors.shape[0]), errors,
                                *[errors[:, a] * errors[:, b] for a, b in pairs]])
    patterns, counts, inverse = pattern_index(features)

    def statistic(s: FloatArray) -> FloatArray:
        corr = _correlations(s, k, pairs)
        total = corr.sum(axis=(1, 2))
        return np.where(total > 0, k * k / np.where(total > 0, total, 1.0), np.nan)

    res = Resampling(np.asarray(patterns, dtype=np.float64), counts, statistic,
                     unit_patterns=inverse)
    name = "effective_judges"
    corr = _correlations(features.sum(axis=0)[None, :], k, pairs)[0]
    est = res.full() if errors.shape[0] >= 2 else math.nan
    if not math.isfinite(est):
        undefined = fig.undefined(name, "the judges' errors against the humans do not vary "
                                  "(or there are fewer than two units with every judge's "
                                  "verdict and a human reference)", k)
        return undefined, corr
    se, _ = jackknife_se(res)
    return AgreementResult(
        coefficient=name, estimate=est, observed=float(corr[np.triu_indices(k, 1)].mean()),
        expected=float(k), se=se, n_units=int(errors.shape[0]), n_raters=k,
        details={"se_method": "jackknife", "formula": "k^2 / sum of error correlations "
                 "(Kish 1965 design effect)"},
        bounds=(0.0, math.inf), resampling=lambda: res,
        terms=("mean_error_correlation", "n_judges")), corr


def _correlations(s: FloatArray, k: int, pairs: list[tuple[int, int]]) -> FloatArray:
    n = s[:, 0]
    mean = s[:, 1:1 + k] / n[:, None]
    cov = np.empty((s.shape[0], k, k))
    for idx, (a, b) in enumerate(pairs):
        c = s[:, 1 + k + idx] / n - mean[:, a] * mean[:, b]
        cov[:, a, b] = cov[:, b, a] = c
    sd = np.sqrt(np.maximum(np.diagonal(cov, axis1=1, axis2=2), 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = cov / (sd[:, :, None] * sd[:, None, :])
    return out
