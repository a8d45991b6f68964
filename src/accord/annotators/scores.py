"""``score_consensus``: one score per unit from a crowd's numeric ratings, and each
annotator's bias and noise.

``"mean"`` and ``"median"`` summarise each unit's ratings; ``"gaussian"`` fits
the additive bias and noise model of :mod:`accord.annotators._gaussian` (Piech
et al. 2013; Raykar et al. 2010) by EM and gives each unit the posterior mean of
its true score, which weights precise annotators more and removes each one's
bias.

References
----------
Raykar, V. C. et al. (2010). Learning from crowds. *JMLR* 11, 1297-1322.
Piech, C. et al. (2013). Tuned models of peer assessment in MOOCs. *EDM 2013*, 153-160.
Dempster, A. P., Laird, N. M. & Rubin, D. B. (1977). Maximum likelihood from
incomplete data via the EM algorithm. *JRSS B* 39(1), 1-38.
"""

from __future__ import annotations

import math
import warnings
from functools import partial
from typing import Any, Literal

import numpy as np

from accord.coefficients._data import as_annotations
from accord.data import _validation as v
from accord.errors import DataError, DegenerateDataWarning, InsufficientDataError
from accord.inference.results import AgreementResult

from . import _gaussian as g
from ._crowd import FloatArray, wsum
from ._refit import refit_resampling
from ._voting import few as _few
from .consensus import non_negative
from .score_result import ScoreConsensus

ScoreMethod = Literal["mean", "median", "gaussian"]
SCORE_METHODS: tuple[str, ...] = ("mean", "median", "gaussian")

__all__ = ["SCORE_METHODS", "score_consensus"]


def score_consensus(
    annotations: Any,
    *,
    method: ScoreMethod = "gaussian",
    noise: Literal["per_annotator", "shared"] = "per_annotator",
    tol: float = 1e-10,
    max_iter: int = 1000,
) -> ScoreConsensus:
    r"""One score per unit from numeric ratings, and each annotator's bias and noise.

    Parameters
    ----------
    annotations : Annotations or units x raters table
        Numeric ratings (any level; the labels must be numbers). Units rated once
        are kept (and flagged).
    method : {"mean", "median", "gaussian"}
        ``"mean"``/``"median"``: each unit's ratings summarised; the unit's standard
        error is ``sd / sqrt(n)`` for the mean (``nan`` with one rating) and ``nan``
        for the median. ``"gaussian"``: :math:`y_{ij} = t_i + b_j + e_{ij}`,
        :math:`e_{ij} \sim N(0, \sigma_j^2)`, :math:`t_i \sim N(\mu, \tau^2)`, fitted by
        EM from the unit means; the estimate is :math:`E[t_i \mid y]` and its
        standard error the posterior standard deviation (given the fitted parameters).
    noise : {"per_annotator", "shared"}
        For ``"gaussian"``: one :math:`\sigma_j` per annotator, or one for all.
    tol, max_iter
        EM stops when the log-likelihood changes by less than ``tol`` per rating;
        reaching ``max_iter`` warns (:class:`~accord.errors.ConvergenceWarning`).

    Returns
    -------
    ScoreConsensus
        ``bias[name]`` and ``noise[name]`` are AgreementResults: for ``"gaussian"`` the
        model's :math:`b_j` (biases sum to zero) and :math:`\sigma_j`; for the
        summaries, the annotator's mean residual from the unit summary and the root
        mean square of the residuals around it (the annotator is part of the summary,
        which pulls both toward zero). Intervals: ``confidence_interval(method=
        accord.Bootstrap(...))`` resamples units and refits (EM warm-started from the
        fit); ``"jackknife"`` refits leaving out each unit.

    Examples
    --------
    Annotator ``c`` scores one point higher than the others:

    >>> import accord
    >>> ratings = [[1, 1, 2], [3, 3.5, 4], [2, 2.5, 3], [4, 4, 5], [5, 4.5, 6]]
    >>> sc = accord.score_consensus(ratings, method="mean")
    >>> round(sc.bias["rater_3"].estimate, 4), sc.labels[0]
    (0.6, 1.3333333333333333)
    >>> sc = accord.score_consensus(ratings, method="gaussian")
    >>> sc.converged, round(sc.bias["rater_3"].estimate - sc.bias["rater_1"].estimate, 2)
    (True, 1.0)
    """
    func = "score_consensus"
    v.choice(method, SCORE_METHODS, param="method", func=func)
    v.choice(noise, ("per_annotator", "shared"), param="noise", func=func)
    tol = non_negative(tol, "tol", func)
    v.positive_int(max_iter, param="max_iter", func=func)
    ann, s = _scores(annotations, func)
    n_ratings = np.bincount(s.unit, minlength=s.n_units).astype(np.int64)
    notes = _notes(ann, s, n_ratings)
    if method == "gaussian":
        fit = g.fit(s, shared=noise == "shared", tol=tol, max_iter=max_iter)
        est, se = fit.mean, np.sqrt(fit.var)
        bias, sd = fit.bias, fit.noise
        refit = partial(_refit_gaussian, s, fit, noise == "shared", tol, max_iter)
        extra: dict[str, Any] = dict(n_iter=fit.n_iter, log_likelihood=fit.log_likelihood,
                     converged=fit.converged, last_change=fit.last_change,
                     mu=fit.mu, tau=fit.tau)
    else:
        est, se = _summary(s, method)
        bias, sd = _residuals(s, est, np.ones(s.n_units))
        refit = partial(_refit_summary, s, est)
        extra = {}
    cache: dict[bytes, FloatArray] = {}
    figures = [_figures(s, ann.raters, j, bias, sd, method, refit, cache)
               for j in range(s.n_raters)]
    _warn_undefined(ann.raters, sd)
    return ScoreConsensus(
        method=method, units=ann.units, raters=ann.raters, estimates=est, se=se,
        n_ratings=n_ratings, bias={r: f[0] for r, f in zip(ann.raters, figures)},
        noise={r: f[1] for r, f in zip(ann.raters, figures)}, notes=notes, **extra)


def _scores(annotations: Any, func: str) -> tuple[Any, g.Scores]:
    ann = as_annotations(annotations, func=func)
    if ann.n_ratings == 0:
        raise InsufficientDataError(f"{func}: the data hold no ratings, so there is no score "
                                    "to infer.")
    try:
        values = np.asarray(ann.categories, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"{func} needs numeric scores, but the labels are not all numbers "
                        f"({_few(list(ann.categories))}); for categories use "
                        "accord.consensus.") from None
    unit, rater, value = ann.codes
    y = values[value]
    if not np.all(np.isfinite(y)):
        raise DataError(f"{func}: the scores must be finite numbers; found "
                        f"{_few(sorted({float(x) for x in y[~np.isfinite(y)]}))}.")
    if np.ptp(y) == 0:
        raise InsufficientDataError(f"{func}: every rating is {y[0]:g}, so every unit's "
                                    "score is that and no annotator's bias or noise can be "
                                    "estimated.")
    return ann, g.Scores(unit, rater, y, len(ann.units), len(ann.raters))


def _summary(s: g.Scores, method: str) -> tuple[FloatArray, FloatArray]:
    w = np.ones(s.n_units)
    mean = g.unit_means(s, w)
    n = np.bincount(s.unit, minlength=s.n_units).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        ss = wsum(s.unit, (s.y - mean[s.unit]) ** 2, s.n_units)
        se = np.where(n > 1, np.sqrt(ss / np.maximum(n - 1, 1) / n), np.nan)
    if method == "mean":
        return mean, se
    order = np.lexsort((s.y, s.unit))
    start = np.concatenate([[0], np.cumsum(n.astype(np.int64))])
    lo, hi = start[:-1] + (n.astype(np.int64) - 1) // 2, start[:-1] + n.astype(np.int64) // 2
    sorted_y = s.y[order]
    return 0.5 * (sorted_y[lo] + sorted_y[hi]), np.full(s.n_units, np.nan)


def _residuals(s: g.Scores, est: FloatArray, w: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each annotator's weighted mean residual and the RMS of the residuals around it."""
    wr = w[s.unit]
    n_j = wsum(s.rater, wr, s.n_raters)
    r = s.y - est[s.unit]
    with np.errstate(invalid="ignore", divide="ignore"):
        bias = np.where(n_j > 0, wsum(s.rater, wr * r, s.n_raters) / n_j, np.nan)
        sd = np.sqrt(wsum(s.rater, wr * (r - np.nan_to_num(bias)[s.rater]) ** 2, s.n_raters)
                     / n_j)
    return bias, np.where(n_j > 0, sd, np.nan)


def _refit_summary(s: g.Scores, est: FloatArray, weights: FloatArray) -> FloatArray:
    """A unit summary does not depend on the other units: only the residual means move."""
    return np.concatenate(_residuals(s, est, weights))


def _refit_gaussian(s: g.Scores, start: g.GaussianFit, shared: bool, tol: float,
                    max_iter: int, weights: FloatArray) -> FloatArray:
    n_j = wsum(s.rater, weights[s.unit], s.n_raters)
    out = g.fit(s, shared=shared, tol=tol, max_iter=max_iter, weights=weights, start=start,
                warn=False)
    rated = n_j > 0
    if not out.converged:
        rated[:] = False
    return np.concatenate([np.where(rated, out.bias, np.nan), np.where(rated, out.noise,
                                                                          np.nan)])


def _figures(s: g.Scores, raters: tuple[Any, ...], j: int, bias: FloatArray, sd: FloatArray,
             method: str, refit: Any, cache: dict[bytes, FloatArray]
             ) -> tuple[AgreementResult, AgreementResult]:
    n_j = int((s.rater == j).sum())
    units = int(np.unique(s.unit[s.rater == j]).shape[0])
    why = None if n_j else "the annotator gave no rating"
    out = []
    for name, values, col, bounds in (("annotator_bias", bias, j, (-math.inf, math.inf)),
                                      ("annotator_noise", sd, s.n_raters + j, (0.0, math.inf))):
        out.append(AgreementResult(
            coefficient=name, estimate=float(values[j]) if why is None else math.nan,
            observed=math.nan, expected=math.nan, se=math.nan, n_units=units, n_raters=1,
            undefined_reason=why, bounds=bounds,
            details={"annotator": raters[j], "method": method, "n_ratings": n_j,
                     "interval_note": "bootstrap or jackknife over units, refitting"},
            resampling=partial(refit_resampling, s.n_units, refit, cache, col)))
    return out[0], out[1]


def _notes(ann: Any, s: g.Scores, n_ratings: Any) -> tuple[str, ...]:
    notes = []
    once = int((n_ratings == 1).sum())
    if once:
        notes.append(f"{once} unit(s) were rated by one annotator only: their score rests on "
                     "that rating (listed in single_rated).")
    per_rater = np.bincount(s.rater, minlength=s.n_raters)
    lone = [ann.raters[i] for i in np.flatnonzero(per_rater == 1)]
    if lone:
        notes.append(f"{len(lone)} annotator(s) gave one rating only ({_few(lone)}): their "
                     "bias and noise rest on that rating.")
    return tuple(notes)


def _warn_undefined(raters: tuple[Any, ...], sd: FloatArray) -> None:
    idle = [raters[j] for j in np.flatnonzero(~np.isfinite(sd))]
    if idle:
        warnings.warn(f"score_consensus: {len(idle)} annotator(s) gave no rating "
                      f"({_few(idle)}): their bias and noise are undefined.",
                      DegenerateDataWarning, stacklevel=v.user_level())
