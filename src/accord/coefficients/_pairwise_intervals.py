"""The mean of a two-rater coefficient over all pairs of raters, resampled jointly.

With ``r`` raters, the mean of the ``r (r - 1) / 2`` pairwise coefficients
(Light's 1971 kappa when the coefficient is Cohen's kappa; the mean of a
pairwise matrix in general) is a function of per-pair contingency tables. The
pairs share units, so their estimates are correlated; resampling each pair on
its own would ignore that. Here a pattern is a unit's whole row of ratings and
its features are, for every pair ``(g, h)``, ``[both rated, w(x_g, x_h),
one-hot(x_g), one-hot(x_h)]``: one multinomial draw over rows then moves every
pair's table together (the resampling contract of
:mod:`accord.inference.resampling`).

Per pair the statistic is the two-rater coefficient of
:mod:`accord.coefficients.two_raters`: ``(p_o - p_e) / (1 - p_e)`` with the
chance term of Cohen, Scott, Gwet or Brennan-Prediger (Gwet 2014, ch. 2-3), or
``p_o`` for percent agreement.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from accord.coefficients._chance import Chance, chance_corrected, p_e
from accord.data import _validation as v
from accord.inference.resampling import FloatArray, IntArray, Resampling, row_patterns
from accord.inference.results import AgreementResult

PAIR_CHANCE: dict[str, Chance] = {
    "cohen_kappa": "cohen",
    "scott_pi": "scott",
    "gwet_ac1": "gwet",
    "brennan_prediger": "bp",
    "percent_agreement": "none",
}


def pairwise_resampling(
    codes: IntArray,
    n_categories: int,
    *,
    coefficient: str = "cohen_kappa",
    weights: FloatArray | None = None,
    unit_ids: tuple[Any, ...] | None = None,
    skip_undefined: bool = False,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> Resampling:
    """Resampling of the mean pairwise coefficient over the units (rows) of ``codes``.

    Parameters
    ----------
    codes : (n_units, n_raters) int array
        Category codes ``0 .. n_categories - 1``, ``-1`` where a rater did not rate a unit.
    n_categories : int
        Number of categories ``q``.
    coefficient : {"cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger", "percent_agreement"}
        The two-rater coefficient averaged over pairs.
    weights : (q, q) array, optional
        Agreement weights (``None`` = identity).
    unit_ids : tuple, optional
        Unit labels, for :func:`accord.compare`.
    skip_undefined : bool
        Average only the pairs where the coefficient is defined (``nan`` only when
        none is); by default one undefined pair makes the mean undefined.
    pairs : sequence of (int, int), optional
        The rater (column) pairs to average; default every pair. Leave out pairs
        that share no unit to average over the others, as
        :meth:`accord.pairwise` results do.

    Examples
    --------
    Three raters, five units; the pairwise Cohen's kappas are 0.6154, 0.5455
    and 0.2857 (scikit-learn 1.x ``cohen_kappa_score``), so Light's kappa is 0.4822:

    >>> import numpy as np
    >>> codes = np.array([[0, 0, 0], [1, 1, 1], [1, 0, 1], [0, 0, 1], [1, 1, 1]])
    >>> round(pairwise_resampling(codes, 2).full(), 4)
    0.4822
    """
    name = v.choice(coefficient, tuple(PAIR_CHANCE), param="coefficient",
                      func="pairwise_resampling")
    kind = PAIR_CHANCE[name]
    q = int(n_categories)
    rows, counts, inverse = row_patterns(np.asarray(codes, dtype=np.int64), q)
    pairs = list(combinations(range(rows.shape[1]), 2)) if pairs is None else list(pairs)
    if not pairs:
        raise v.fail("pairs", "pairwise_resampling", "at least one pair of raters", pairs)
    if rows.size and bool((rows >= 0).all()):
        feats, tables = _crossed_features(rows, pairs, q, weights)
    else:
        feats, tables = _pair_features(rows, pairs, q, weights)

    def statistic(s: FloatArray) -> FloatArray:
        n, agree, r, c = tables(s)
        po = agree / n[:, 0]
        est = po if kind == "none" else chance_corrected(po, p_e(kind, r / n, c / n, weights))
        est = est.reshape(s.shape[0], len(pairs))
        if skip_undefined:
            ok = np.isfinite(est)
            total = np.where(ok, est, 0.0).sum(axis=1)
            return np.where(ok.any(axis=1), total / np.maximum(ok.sum(axis=1), 1), np.nan)
        return np.asarray(est.mean(axis=1), dtype=np.float64)

    return Resampling(features=feats, counts=counts, statistic=statistic,
                      unit_patterns=inverse, unit_ids=unit_ids)


Tables = Callable[[FloatArray], tuple[FloatArray, FloatArray, FloatArray, FloatArray]]


def _pair_features(
    rows: IntArray, pairs: Sequence[tuple[int, int]], q: int, weights: FloatArray | None
) -> tuple[FloatArray, Tables]:
    """Per pattern and pair: ``[both rated, agreement weight, one-hot(g), one-hot(h)]``.

    The second value maps summed features ``(B, p)`` to every pair's
    ``n (B P, 1)``, agreement ``(B P,)`` and margins ``(B P, q)``.
    """
    m, width = rows.shape[0], 2 + 2 * q
    feats = np.zeros((m, len(pairs) * width))
    for j, (g, h) in enumerate(pairs):
        idx = np.flatnonzero((rows[:, g] >= 0) & (rows[:, h] >= 0))
        a, b = rows[idx, g], rows[idx, h]
        base = j * width
        feats[idx, base] = 1.0
        feats[idx, base + 1] = (a == b) if weights is None else weights[a, b]
        feats[idx, base + 2 + a] = 1.0
        feats[idx, base + 2 + q + b] = 1.0

    def tables(s: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        blocks = s.reshape(s.shape[0] * len(pairs), width)
        return blocks[:, 0:1], blocks[:, 1], blocks[:, 2:2 + q], blocks[:, 2 + q:]

    return feats, tables


def _crossed_features(
    rows: IntArray, pairs: Sequence[tuple[int, int]], q: int, weights: FloatArray | None
) -> tuple[FloatArray, Tables]:
    """Every rater rated every unit: ``[1, agreement weight of each pair, one-hot of each
    rater]``, so ``1 + P + r q`` columns instead of ``P (2 + 2 q)``; each pair's margins
    are its two raters' category counts."""
    m, n_raters = rows.shape
    g_idx = np.array([g for g, _ in pairs], dtype=np.int64)
    h_idx = np.array([h for _, h in pairs], dtype=np.int64)
    a, b = rows[:, g_idx], rows[:, h_idx]
    agree = (a == b).astype(np.float64) if weights is None else weights[a, b]
    onehot = np.zeros((m, n_raters, q))
    onehot[np.arange(m)[:, None], np.arange(n_raters)[None, :], rows] = 1.0
    feats = np.column_stack([np.ones(m), agree, onehot.reshape(m, n_raters * q)])
    n_pairs = len(pairs)

    def tables(s: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        b_ = s.shape[0]
        n = np.repeat(s[:, 0], n_pairs)[:, None]
        margins = s[:, 1 + n_pairs:].reshape(b_, n_raters, q)
        r = margins[:, g_idx, :].reshape(b_ * n_pairs, q)
        c = margins[:, h_idx, :].reshape(b_ * n_pairs, q)
        return n, s[:, 1:1 + n_pairs].reshape(-1), r, c

    return feats, tables


def mean_pairwise_result(
    data: Any,
    coefficient: str = "cohen_kappa",
    *,
    weights: Any = None,
    categories: Sequence[Any] | None = None,
    min_shared: int = 1,
) -> AgreementResult:
    """The mean pairwise coefficient as a result with a joint unit resampling.

    The estimate equals ``accord.pairwise(data, coefficient, min_shared=...).mean()``
    (pairs that share fewer than ``min_shared`` units, by default those that share
    none, are left out; one undefined pair makes the mean undefined), computed from
    per-pair tables of a sparse join on units (no units x raters matrix);
    ``confidence_interval(method="jackknife" | Bootstrap(...))`` and
    :func:`accord.compare` then resample units once for all pairs, through each
    unit's row of ratings by rater (refused on a crowd, where that matrix is too
    large). There is no analytic SE. ``coefficient`` in the result reads
    ``"mean_pairwise_<name>"``.

    Examples
    --------
    The five units of :func:`pairwise_resampling`'s example (Light's kappa 0.4822):

    >>> res = mean_pairwise_result([[0, 0, 0], [1, 1, 1], [1, 0, 1], [0, 0, 1], [1, 1, 1]])
    >>> round(res.estimate, 4), res.coefficient
    (0.4822, 'mean_pairwise_cohen_kappa')
    """
    from accord.coefficients._data import as_annotations
    from accord.coefficients._many_data import check_dense
    from accord.coefficients._pair_join import codes_by_unit, pair_tables, shared_units
    from accord.coefficients._registry import REGISTRY
    from accord.data.weights import agreement_weights

    func = "mean_pairwise_result"
    name = v.choice(coefficient, tuple(PAIR_CHANCE), param="coefficient", func=func)
    min_shared = v.positive_int(min_shared, param="min_shared", func=func)
    ann = as_annotations(data, categories=categories, func=func)
    q = len(ann.categories)
    w = None if weights is None else agreement_weights(weights, q, func=func)
    units, raters, values = codes_by_unit(ann)
    a, b, n = shared_units(units, raters, ann.n_units, ann.n_raters)
    keep = n >= min_shared
    a, b = a[keep], b[keep]
    if not a.size:
        raise v.fail("data", func, "ratings where two raters share a unit", "none")
    tables = pair_tables(units, raters, values, ann.n_units, ann.n_raters, q, a, b)
    est = float(_mean_from_tables(tables.astype(np.float64), PAIR_CHANCE[name], w))
    pairs = list(zip(a.tolist(), b.tolist()))
    reason = None if math.isfinite(est) else (
        f"{name} is undefined for at least one of the {len(pairs)} rater pairs")
    if reason:
        v.warn_undefined(f"mean_pairwise_{name}", reason)

    def make() -> Resampling:
        check_dense(ann.n_units, ann.n_raters, ann.n_ratings, func,
                    "resamples units through each unit's row of ratings by rater")
        return pairwise_resampling(ann.wide(), q, coefficient=name, weights=w,
                                   unit_ids=ann.units, pairs=pairs)

    sizes = np.bincount(units, minlength=ann.n_units)
    return AgreementResult(
        coefficient=f"mean_pairwise_{name}", estimate=est, observed=math.nan,
        expected=math.nan, se=math.nan, n_units=int(np.sum(sizes >= 2)),
        n_raters=ann.n_raters, undefined_reason=reason,
        details={"pairs": len(pairs), "weights": _weights_label(weights),
                 "min_shared": min_shared},
        bounds=REGISTRY[name].bounds, resampling=make,
    )


def _mean_from_tables(tables: FloatArray, kind: Chance, weights: FloatArray | None) -> float:
    """The mean over pairs of the coefficient of each ``(q, q)`` table."""
    return float(np.mean(table_estimates(tables, kind, weights)))


def table_estimates(tables: FloatArray, kind: Chance, weights: FloatArray | None) -> FloatArray:
    """The two-rater coefficient of each ``(q, q)`` table of ``tables`` (shape (P, q, q)),
    as the resampling statistic computes it on the full sample: ``p_o`` for ``"none"``,
    else ``(p_o - p_e) / (1 - p_e)`` with the named chance term (``nan`` where p_e = 1)."""
    n = tables.sum(axis=(1, 2))[:, None]
    if weights is None:
        agree = np.einsum("pkk->p", tables)
    else:
        agree = np.einsum("pkl,kl->p", tables, weights)
    po = agree / n[:, 0]
    r, c = tables.sum(axis=2), tables.sum(axis=1)
    est = po if kind == "none" else chance_corrected(po, p_e(kind, r / n, c / n, weights))
    return np.asarray(est, dtype=np.float64)


def _weights_label(weights: Any) -> str:
    if weights is None:
        return "identity"
    return weights if isinstance(weights, str) else "custom"
