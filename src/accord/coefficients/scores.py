"""Coefficients of numeric or ranked scores from R's irr: Kendall's W, mean correlations,
Finn's coefficient and Robinson's A.

Each is computed on the units scored by every rater (listwise deletion, as in irr;
raters with no score at all are left out first; ``details["n_units_dropped"]``).
Notation: ``n`` units, ``m`` raters, ``x_ij`` the score of unit i by rater j.

- Kendall & Babington Smith (1939): ``W = 12 S / (m^2 (n^3 - n) - m T)`` with
  ``S = sum_i (R_i - m (n + 1) / 2)^2`` over the unit rank sums ``R_i`` (each rater's
  scores ranked over units, ties at mid-ranks) and the tie correction
  ``T = sum_j sum_g (t_g^3 - t_g)``; ``chi2 = m (n - 1) W`` on n - 1 df (Siegel &
  Castellan 1988, sec. 9.4; irr ``kendall(x, correct=TRUE)``).
- Mean pairwise Pearson and Spearman correlations, averaged through Fisher's z
  (irr ``meancor``, ``meanrho``).
- Finn (1970): ``1 - MS_within / ((s^2 - 1) / 12)``, the observed within-unit variance
  against the variance of a uniform choice among the ``s`` scale points (irr ``finn``).
- Robinson (1957): ``A = SS_units / (SS_units + SS_residual)`` of the two-way layout
  (irr ``robinson``).

Resampling: units with the same scores form a pattern; the statistics are written for
pattern weights (a bootstrap sample repeats units), so the jackknife and bootstrap run
on the patterns without re-reading the data.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data._frames import check_numeric_array
from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError
from accord.inference._normal import norm_sf
from accord.inference.resampling import Resampling, pattern_index
from accord.inference.results import AgreementResult
from accord.tables.rating_matrix import RatingMatrix

__all__ = ["finn", "kendall_w", "mean_pearson", "mean_spearman", "robinson_a"]

Arr = NDArray[np.float64]
Statistic = Callable[[Arr, Arr], Arr]
RESAMPLE_LIMIT = 1500  # distinct score patterns held as an identity feature matrix


# --------------------------------------------------------------------------- public
@register("kendall_w", title="Kendall's W (coefficient of concordance)", family="intraclass",
          raters="many", chance_corrected=False, bounds=(0.0, 1.0),
          levels=("ordinal", "interval", "ratio"),
          citation="Kendall, M. G. & Babington Smith, B. (1939). The problem of m rankings. "
          "Annals of Mathematical Statistics 10(3), 275-287; ties: Siegel, S. & Castellan, "
          "N. J. (1988), Nonparametric Statistics for the Behavioral Sciences, 2nd ed.")
def kendall_w(data: Any, /) -> AgreementResult:
    """Kendall's coefficient of concordance W, corrected for ties, with its chi-square test.

    ``W = 12 S / (m^2 (n^3 - n) - m T)``: ``S`` is the sum of squared deviations of the
    units' rank sums from their mean ``m (n + 1) / 2``, ``T = sum (t^3 - t)`` over the
    groups of tied scores of every rater. ``details`` has ``chi2 = m (n - 1) W`` on
    ``df = n - 1``, its ``pvalue``, and ``w_uncorrected`` (irr's default
    ``kendall(x)``, the same without ties). Undefined when every rater gives every unit
    the same score (``m T = m^2 (n^3 - n)``). No analytic SE: use the jackknife or
    bootstrap.

    Examples
    --------
    R irr's ``anxiety`` data (20 subjects, 3 raters): ``kendall(anxiety, TRUE)`` gives
    Wt = 0.5396569 (as DescTools' ``KendallW(anxiety, TRUE)``, its port, prints).

    >>> import accord
    >>> anxiety = accord.datasets.load("irr_anxiety").data
    >>> res = accord.kendall_w(anxiety)
    >>> round(res.estimate, 7), round(res.details["chi2"], 2), res.details["df"]
    (0.5396569, 30.76, 19.0)
    """
    from scipy import stats

    x, dropped = _complete(data, "kendall_w")
    res = _result("kendall_w", x, dropped, _kendall, bounds=(0.0, 1.0))
    n, m = x.shape
    w0 = float(_kendall_untied(x))
    chi2 = m * (n - 1.0) * res.estimate
    extra = {"chi2": chi2, "df": n - 1.0, "w_uncorrected": w0,
             "pvalue": float(stats.chi2.sf(chi2, n - 1)) if res.defined else math.nan}
    return _with(res, extra)


@register("mean_pearson", title="Mean pairwise Pearson correlation", family="intraclass",
          raters="many", chance_corrected=False, bounds=(-1.0, 1.0),
          levels=("interval", "ratio"),
          citation="Fisher, R. A. (1921). On the probable error of a coefficient of correlation "
          "deduced from a small sample. Metron 1, 3-32; R irr meancor (Gamer et al. 2019).")
def mean_pearson(data: Any, /, *, average: Literal["fisher", "mean"] = "fisher"
                 ) -> AgreementResult:
    """The mean of the Pearson correlations of all pairs of raters (irr ``meancor``).

    ``average="fisher"`` (irr's default) averages ``z = atanh(r)`` and returns
    ``tanh(mean z)``; ``"mean"`` the plain mean. A pair that correlates perfectly has
    ``z = inf``: the average is then 1 (or -1), where irr drops such pairs before
    averaging. Undefined when some rater gives every unit the same score.
    ``details`` has irr's ``z = r / sqrt(1 / (n - 3))`` and its two-sided ``pvalue``
    (which treats the mean as one correlation); no analytic SE.

    Examples
    --------
    R irr's ``anxiety`` data: ``meancor(anxiety)`` prints R = 0.224, z = 0.922,
    p-value = 0.357.

    >>> import accord
    >>> res = accord.mean_pearson(accord.datasets.load("irr_anxiety").data)
    >>> round(res.estimate, 3), round(res.details["z"], 3), round(res.details["pvalue"], 3)
    (0.224, 0.922, 0.357)
    """
    v.choice(average, ("fisher", "mean"), param="average", func="mean_pearson")
    x, dropped = _complete(data, "mean_pearson")
    return _correlation("mean_pearson", x, dropped, average, ranks=False)


@register("mean_spearman", title="Mean pairwise Spearman rank correlation",
          family="intraclass", raters="many", chance_corrected=False, bounds=(-1.0, 1.0),
          levels=("ordinal", "interval", "ratio"),
          citation="Spearman, C. (1904). The proof and measurement of association between two "
          "things. American Journal of Psychology 15(1), 72-101; R irr meanrho.")
def mean_spearman(data: Any, /, *, average: Literal["fisher", "mean"] = "fisher"
                  ) -> AgreementResult:
    """The mean of the Spearman correlations of all pairs of raters (irr ``meanrho``).

    Ties take mid-ranks (Spearman's rho is then the Pearson correlation of the ranks, as
    R's ``cor(method="spearman")``). Averaging, undefined cases and ``details`` as in
    :func:`mean_pearson`.

    Examples
    --------
    R irr's ``anxiety`` data: the Fisher-z mean of the three Spearman correlations
    (0.3137; scipy's ``spearmanr`` gives the pairs).

    >>> import accord
    >>> res = accord.mean_spearman(accord.datasets.load("irr_anxiety").data)
    >>> round(res.estimate, 4), round(res.details["z"], 3)
    (0.3138, 1.294)
    """
    v.choice(average, ("fisher", "mean"), param="average", func="mean_spearman")
    x, dropped = _complete(data, "mean_spearman")
    return _correlation("mean_spearman", x, dropped, average, ranks=True)


@register("finn", title="Finn's coefficient", family="intraclass", raters="many",
          chance_corrected=False, bounds=(-math.inf, 1.0), levels=("ordinal", "interval"),
          citation="Finn, R. H. (1970). A note on estimating the reliability of categorical "
          "data. Educational and Psychological Measurement 30, 71-76.")
def finn(data: Any, /, *, n_levels: int | None = None,
         model: Literal["oneway", "twoway"] = "oneway") -> AgreementResult:
    """Finn's coefficient: observed within-unit variance against a uniform choice.

    ``finn = 1 - MS / ((s^2 - 1) / 12)`` with ``MS`` the within-unit mean square
    (``model="oneway"``) or the two-way residual mean square (``"twoway"``) and ``s`` the
    number of points of the scale (``n_levels``; default: the number of declared
    categories of :class:`~accord.Annotations`, else the number of distinct scores seen,
    ``details["n_levels_source"]``). ``details`` has irr's ``F = ((s^2 - 1) / 12) / MS``
    on ``(inf, n (m - 1))`` df and its ``pvalue`` (irr uses ``n (m - 1)`` for both models;
    accord records the two-way residual df ``(n - 1)(m - 1)`` as ``df_model``). The
    jackknife and bootstrap keep ``s`` fixed (it is the scale's, not the sample's).

    Examples
    --------
    R irr's ``anxiety`` data on its 6-point scale (``finn(anxiety, 6)``): the mean
    within-subject variance is 1.6167 against 35 / 12 for a uniform choice.

    >>> import accord
    >>> res = accord.finn(accord.datasets.load("irr_anxiety").data, n_levels=6)
    >>> round(res.estimate, 4), round(res.details["F"], 4), round(res.details["pvalue"], 4)
    (0.4457, 1.8041, 0.01)
    """
    v.choice(model, ("oneway", "twoway"), param="model", func="finn")
    x, dropped = _complete(data, "finn")
    s, source = _levels(data, x, n_levels)
    expected = (s * s - 1.0) / 12.0
    res = _result("finn", x, dropped, _finn(expected, model), bounds=(-math.inf, 1.0))
    n, m = x.shape
    ms = expected * (1.0 - res.estimate)
    f = math.nan if not res.defined else (expected / ms if ms > 0 else math.inf)
    extra = {"model": model, "n_levels": s, "n_levels_source": source, "ms_expected": expected,
             "F": f, "df1": math.inf, "df2": n * (m - 1.0),
             "df_model": n * (m - 1.0) if model == "oneway" else (n - 1.0) * (m - 1.0),
             "pvalue": _f_inf_pvalue(f, n * (m - 1.0)) if res.defined else math.nan}
    return _with(res, extra)


@register("robinson_a", title="Robinson's A", family="intraclass", raters="many",
          chance_corrected=False, bounds=(0.0, 1.0), levels=("interval", "ratio"),
          citation="Robinson, W. S. (1957). The statistical measurement of agreement. "
          "American Sociological Review 22(1), 17-25.")
def robinson_a(data: Any, /) -> AgreementResult:
    """Robinson's A: ``SS_units / (SS_units + SS_residual)`` of the two-way layout.

    ``SS_units = m sum_i (xbar_i. - xbar)^2`` and ``SS_residual`` is what remains of the
    total sum of squares after units and raters (irr ``robinson``). Undefined when both
    are 0 (every score the same). No analytic SE.

    Examples
    --------
    R irr's ``anxiety`` data. With m raters ``A = (1 + (m - 1) ICC(C,1)) / m``
    (Robinson 1957), here ``(1 + 2 x 0.2161) / 3``:

    >>> import accord
    >>> round(accord.robinson_a(accord.datasets.load("irr_anxiety").data).estimate, 4)
    0.4774
    """
    x, dropped = _complete(data, "robinson_a")
    return _result("robinson_a", x, dropped, _robinson, bounds=(0.0, 1.0))


# --------------------------------------------------------------------------- input
def _complete(data: Any, func: str) -> tuple[Arr, int]:
    """Units x raters scores of the units every rater scored, and how many were dropped."""
    x = _scores(data, func)
    if x.ndim != 2 or x.shape[1] < 2:
        raise InsufficientDataError(
            f"{func} needs at least two raters; the data have {x.shape[1] if x.ndim == 2 else 0}."
        )
    missing = np.isnan(x)
    x = x[:, ~missing.all(axis=0)]
    if x.shape[1] < 2 or x.size == 0:
        raise InsufficientDataError(
            "no unit was rated by two or more raters (or the data hold no ratings), so there "
            "is nothing to compare.")
    keep = ~np.isnan(x).any(axis=1)
    if keep.sum() < 2:
        raise InsufficientDataError(
            f"{func} needs at least two units scored by every rater; the data have "
            f"{int(keep.sum())} (units with a missing score are left out, as in R's irr).")
    return np.ascontiguousarray(x[keep]), int((~keep).sum())


def _scores(data: Any, func: str) -> Arr:
    if isinstance(data, RatingMatrix):
        return np.array(data.values, dtype=np.float64)
    if isinstance(data, Annotations):
        return np.array(RatingMatrix.from_annotations(data).values, dtype=np.float64)
    summary = type(data).__name__
    if summary in {"ContingencyTable", "RaterCounts", "CoincidenceMatrix"}:
        raise DataError(f"{func} needs each unit's scores by rater (a units x raters table, "
                        f"Annotations or RatingMatrix); a {summary} does not keep them.")
    if isinstance(data, np.ndarray) and data.dtype.kind in "iuf":
        check_numeric_array(data, func)
        return np.array(RatingMatrix(data).values, dtype=np.float64)
    ann = Annotations.from_wide(data, level="interval")
    return np.array(RatingMatrix.from_annotations(ann).values, dtype=np.float64)


def _levels(data: Any, x: Arr, n_levels: int | None) -> tuple[float, str]:
    if n_levels is not None:
        return float(v.positive_int(n_levels, param="n_levels", func="finn")), "given"
    if isinstance(data, Annotations) and data.level in ("ordinal", "interval"):
        return float(len(data.categories)), "declared categories"
    return float(np.unique(x).size), "distinct scores observed"


# --------------------------------------------------------------------------- result
def _result(name: str, x: Arr, dropped: int, statistic: Statistic, *,
            bounds: tuple[float, float]) -> AgreementResult:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        est = float(statistic(x, np.ones((1, x.shape[0])))[0])
    why = None if math.isfinite(est) else _reason(name)
    if why:
        v.warn_undefined(name, why)
        est = math.nan
    return AgreementResult(
        coefficient=name, estimate=est, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=x.shape[0], n_raters=x.shape[1], undefined_reason=why,
        details={"n_units_dropped": dropped}, bounds=bounds,
        resampling=_resampler(x, statistic))


def _with(res: AgreementResult, extra: dict[str, Any]) -> AgreementResult:
    from dataclasses import replace

    return replace(res, details={**res.details, **extra})


def _reason(name: str) -> str:
    if name in ("mean_pearson", "mean_spearman"):
        return ("some rater gives every unit the same score, so a correlation is 0/0 "
                "(or perfect correlations of opposite sign cancel)")
    return "every rater gives every unit the same score, so the coefficient is 0/0"


def _resampler(x: Arr, statistic: Statistic) -> Callable[[], Resampling]:
    """Units with equal scores form a pattern; the statistic takes pattern weights."""

    def make() -> Resampling:
        rows, counts, inverse = pattern_index(x)
        if rows.shape[0] > RESAMPLE_LIMIT:
            from accord.errors import InvalidParameterError

            raise InvalidParameterError(
                f"the scores have {rows.shape[0]} distinct unit patterns, more than the "
                f"{RESAMPLE_LIMIT} this coefficient resamples in memory; use a sample of the "
                "units or round the scores.")
        patterns = np.asarray(rows, dtype=np.float64)

        def stat(w: Arr) -> Arr:
            return statistic(patterns, w)

        return Resampling(features=np.eye(patterns.shape[0]), counts=counts, statistic=stat,
                          unit_patterns=inverse)

    return make


def _f_inf_pvalue(f: float, df2: float) -> float:
    """P(F(inf, df2) > f): ``F(inf, d) = 1 / (chi2_d / d)`` (R's ``pf(f, Inf, d)``)."""
    from scipy import stats

    if not math.isfinite(f):
        return 0.0
    return float(stats.chi2.cdf(df2 / f, df2))


# --------------------------------------------------------------------------- statistics
# Each takes the distinct score patterns (p, m) and pattern weights (B, p).
def _midranks(col: Arr, w: Arr) -> tuple[Arr, Arr]:
    """Mid-ranks of one rater's scores among the weighted units, and each pattern's tie
    weight: ``rank_i = sum_{x_k < x_i} w_k + (sum_{x_k = x_i} w_k + 1) / 2``.

    One sort of the scores, then cumulative sums of the weights of each group of
    equal scores: O(B p) after the sort, no p x p matrix.
    """
    values, inverse = np.unique(col, return_inverse=True)
    inverse = inverse.reshape(-1)
    from scipy import sparse

    member = sparse.csr_array((np.ones(inverse.shape[0]), (inverse, np.arange(inverse.shape[0]))),
                              shape=(values.shape[0], inverse.shape[0]))
    group = np.asarray((member @ w.T).T)  # (B, groups): weight of each group of equal scores
    below = np.cumsum(group, axis=1) - group
    tied = group[:, inverse]
    return below[:, inverse] + (tied + 1.0) / 2.0, tied


def _kendall(x: Arr, w: Arr) -> Arr:
    n = w.sum(axis=1)
    m = x.shape[1]
    rank_sum = np.zeros_like(w)
    ties = np.zeros(w.shape[0])
    for j in range(m):
        rank, tied = _midranks(x[:, j], w)
        rank_sum += rank
        ties += np.sum(w * (tied**2 - 1.0), axis=1)  # sum over groups of t^3 - t
    s = np.sum(w * (rank_sum - m * (n[:, None] + 1.0) / 2.0) ** 2, axis=1)
    den = m * m * (n**3 - n) - m * ties
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 1e-9 * m * m * n**3, 12.0 * s / den, np.nan)


def _kendall_untied(x: Arr) -> float:
    from scipy import stats

    n, m = x.shape
    ranks = np.column_stack([stats.rankdata(x[:, j]) for j in range(m)])
    r = ranks.sum(axis=1)
    return float(12.0 * np.sum((r - r.mean()) ** 2) / (m * m * (n**3 - n)))


def _pair_correlations(x: Arr, w: Arr) -> Arr:
    """Weighted Pearson correlations of every pair of columns, shape (B, pairs)."""
    n = w.sum(axis=1)[:, None]
    mean = (w @ x) / n
    m = x.shape[1]
    second = (w @ (x[:, :, None] * x[:, None, :]).reshape(x.shape[0], m * m)).reshape(-1, m, m)
    cov = second / n[:, :, None] - mean[:, :, None] * mean[:, None, :]
    var = np.diagonal(cov, axis1=1, axis2=2).copy()
    var[np.abs(var) <= 1e-12 * np.maximum(np.max(np.abs(x)) ** 2, 1e-300)] = 0.0
    i, j = np.triu_indices(m, 1)
    den = var[:, i] * var[:, j]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = cov[:, i, j] / np.sqrt(den)
    # a constant rater: the covariance is rounding noise over a zero variance, 0/0
    return np.where(den > 0, np.clip(r, -1.0, 1.0), np.nan)


def _rank_columns(x: Arr, w: Arr) -> list[Arr]:
    return [_midranks(x[:, j], w)[0] for j in range(x.shape[1])]


def _spearman_pairs(x: Arr, w: Arr) -> Arr:
    ranks = _rank_columns(x, w)  # each (B, p)
    n = w.sum(axis=1)
    means = [np.sum(w * r, axis=1) / n for r in ranks]
    cent = [r - mu[:, None] for r, mu in zip(ranks, means)]
    var = [np.sum(w * c * c, axis=1) for c in cent]
    out = []
    for a in range(len(ranks)):
        for b in range(a + 1, len(ranks)):
            with np.errstate(divide="ignore", invalid="ignore"):
                out.append(np.sum(w * cent[a] * cent[b], axis=1) / np.sqrt(var[a] * var[b]))
    return np.clip(np.column_stack(out), -1.0, 1.0)


def _average(r: Arr, average: str) -> Arr:
    if average == "mean":
        return np.mean(r, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.tanh(np.mean(np.arctanh(r), axis=1))


def _correlation(name: str, x: Arr, dropped: int, average: str, *,
                 ranks: bool) -> AgreementResult:
    pairs = _spearman_pairs if ranks else _pair_correlations

    def statistic(p: Arr, w: Arr) -> Arr:
        return _average(pairs(p, w), average)

    res = _result(name, x, dropped, statistic, bounds=(-1.0, 1.0))
    n = x.shape[0]
    se = math.sqrt(1.0 / (n - 3.0)) if n > 3 else math.nan
    z = res.estimate / se if math.isfinite(se) else math.nan
    p = float(2.0 * norm_sf(abs(z))) if math.isfinite(z) else math.nan
    return _with(res, {"average": average, "z": z, "pvalue": p})


def _finn(expected: float, model: str) -> Statistic:
    def statistic(x: Arr, w: Arr) -> Arr:
        n = w.sum(axis=1)
        m = x.shape[1]
        if model == "oneway":
            within = np.var(x, axis=1, ddof=1)
            ms = (w @ within) / n
        else:
            ms = _two_way(x, w)[1] / ((n - 1.0) * (m - 1.0))
        return 1.0 - ms / expected

    return statistic


def _two_way(x: Arr, w: Arr) -> tuple[Arr, Arr]:
    """Sums of squares of units and of the residual of the additive two-way layout."""
    n = w.sum(axis=1)
    m = x.shape[1]
    grand = (w @ x.sum(axis=1)) / (n * m)
    unit_means = x.mean(axis=1)
    col_means = (w @ x) / n[:, None]
    ss_units = m * np.sum(w * (unit_means[None, :] - grand[:, None]) ** 2, axis=1)
    ss_raters = n * np.sum((col_means - grand[:, None]) ** 2, axis=1)
    total = w @ np.sum(x * x, axis=1) - n * m * grand**2
    resid = np.maximum(total - ss_units - ss_raters, 0.0)
    scale = np.maximum(np.abs(total), 1e-300)
    resid = np.where(resid <= 1e-12 * scale, 0.0, resid)
    return ss_units, resid


def _robinson(x: Arr, w: Arr) -> Arr:
    ss_units, resid = _two_way(x, w)
    den = ss_units + resid
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, ss_units / den, np.nan)
