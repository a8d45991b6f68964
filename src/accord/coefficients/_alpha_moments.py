"""Interval and ratio alpha of continuous scores, unit by unit, in O(n).

When a units x raters array, or :class:`~accord.Annotations` in long form, holds
many distinct values (continuous scores), the distinct per-unit value patterns are
nearly all the units, so building them (a sort of every value, then of every unit)
buys nothing. This path works on the units directly (Krippendorff 2011, sections C
and E; Gwet 2014, ch. 5 for the SE):

interval, from per-unit moments (``m_u`` values, mean ``xbar_u``, within-unit sum of
squares ``SS_u``; ``mu`` and ``n`` the mean and number of the pairable values):

    n D_o          = sum_u 2 m_u SS_u / (m_u - 1),
    n (n - 1) D_e  = 2 n sum_u (SS_u + m_u (xbar_u - mu)^2),
    g_u            = SS_u + m_u (xbar_u - mu)^2 + m_u sigma^2   (Gwet's unit term),

with ``sigma^2`` the variance of the pairable values (divisor ``n``), since the
interval ``(Delta pi)_c = (x_c - mu)^2 + sigma^2``.

ratio: the observed disagreement sums ``((x - y) / (x + y))^2`` over the pairs
within each unit (one pass per pair of columns of the transposed array); the
expected disagreement and Gwet's unit terms need
``F(x_c) = sum_k ((x_c - x_k) / (x_c + x_k))^2`` over all pairable values, computed
once by interpolation on bins (:func:`accord.coefficients._ratio_bins.self_kernel_sums`;
``n (n - 1) D_e = sum_c F(x_c)``, ``(Delta pi)_c = F(x_c) / n``). Long codes pair a
unit's values by their offsets in the unit-sorted ratings (O(sum_u m_u^2), as the
coincidences do).

The interval form can be resampled (per-unit features, every unit its own pattern);
the ratio form cannot (each resample's D_e is a sum over all pairs of values), and
says so.

Both are exactly the coincidence-matrix alpha (every distinct value a category,
every unit its own pattern); the tests check the two paths against each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _differences as dif
from accord.coefficients._ratio_bins import self_kernel_sums
from accord.data._frames import check_numeric_array
from accord.data._magnitude import power_of_two_scale
from accord.data.annotations import Annotations
from accord.errors import DataError, InsufficientDataError
from accord.tables._coincidence_build import _numeric_or_none, _rated_columns

FloatArray = NDArray[np.float64]
Statistic = Callable[[FloatArray], FloatArray]

#: Values sampled to decide whether the scores are continuous (many distinct values).
_SAMPLE = 4096
#: Most columns for which ratio pairs are formed column by column.
_RATIO_COLUMNS = 32


@dataclass(frozen=True)
class UnitTerms:
    """Per pairable unit: ``m_u``, Krippendorff's ``sum_ck o^u_ck delta_ck`` and
    Gwet's ``g_u = sum_c n_uc (Delta pi)_c``; the sums behind D_o and D_e."""

    level: str
    m: FloatArray
    observed: FloatArray
    spread: FloatArray
    expected: float
    n_unpairable: int
    n_raters: int
    first_value: Any  # one pairable value, named when every pairable value is equal
    unit_ids: tuple[Any, ...] | None = None
    features: Callable[[], tuple[FloatArray, Statistic]] | None = None

    @property
    def n(self) -> float:
        """Pairable values."""
        return float(self.m.sum())

    @property
    def n_units(self) -> int:
        """Pairable units."""
        return int(self.m.shape[0])


def unit_terms(data: Any, level: Any, categories: Any) -> UnitTerms | None:
    """The unit-by-unit terms of interval or ratio alpha of a continuous numeric
    units x raters array, or ``None`` when the pattern path applies (other levels
    and inputs, whole-number rating scales, few distinct values)."""
    if not (isinstance(level, str) and level in ("interval", "ratio")) or categories is not None:
        return None
    if isinstance(data, Annotations):
        return _long_terms(data, level)
    if not (isinstance(data, np.ndarray) and data.dtype.kind in "iuf" and data.ndim == 2):
        return None
    check_numeric_array(data, "krippendorff_alpha")
    if data.shape[1] < 2 or data.shape[0] == 0:
        return None
    arr = data.astype(np.float64, copy=False)
    if not _continuous(arr):
        return None
    if level == "ratio":
        return _ratio_array(arr)
    with np.errstate(invalid="ignore"):
        lo, hi = float(np.nanmin(arr)), float(np.nanmax(arr))
    _finite(lo, hi)
    ok = ~np.isnan(arr)
    m_all = ok.sum(axis=1)
    keep = m_all >= 2
    n_unpairable = _unpairable(m_all, keep)
    scale = power_of_two_scale(np.array([lo, hi]))  # depends on the largest |value| only
    raters = _rated_columns(arr)
    if not keep.all():
        arr, ok = arr[keep], ok[keep]
    x = arr * scale if scale != 1.0 else arr
    m = m_all[keep].astype(np.float64)
    first = float(arr.reshape(-1)[np.argmax(ok.reshape(-1))])
    return _interval(x, ok, m, (n_unpairable, raters, first, None))


def _finite(lo: float, hi: float) -> None:
    if np.isinf(lo) or np.isinf(hi):
        raise DataError("the data hold an infinite value; use NaN for a missing rating.")


def _unpairable(m_all: NDArray[Any], keep: NDArray[np.bool_]) -> int:
    """Units with a single value; an error when no unit has two."""
    n_unpairable = int(np.count_nonzero(m_all == 1))
    if not keep.any():
        raise InsufficientDataError(
            "no unit has two or more values, so there is nothing to pair "
            f"({n_unpairable} unit(s) have a single value).")
    return n_unpairable


def _ratio_array(arr: FloatArray) -> UnitTerms | None:
    """Ratio alpha's unit terms of a units x raters array, worked on rater by rater
    (the transposed array: contiguous rows); ``None`` for the pattern path."""
    if arr.shape[1] > _RATIO_COLUMNS:
        return None  # the pattern path: pairs of columns would be too many
    xt = np.ascontiguousarray(arr.T)
    ok = ~np.isnan(xt)
    m_all = ok.sum(axis=0)
    n_values = int(m_all.sum())
    if n_values <= dif.RATIO_EXACT_LIMIT:
        return None  # the pattern path: exact V x V differences, and resampling
    lo, hi = float(np.nanmin(xt)), float(np.nanmax(xt))
    _finite(lo, hi)
    keep = m_all >= 2
    n_unpairable = _unpairable(m_all, keep)
    scale = power_of_two_scale(np.array([lo, hi]))  # depends on the largest |value| only
    if lo < 0:
        raise DataError(f"level='ratio' needs non-negative values (a ratio scale has a true "
                        f"zero); the data include {lo * scale!r}.")
    if scale != 1.0:
        xt *= scale
    unit = int(np.argmax(keep))
    first = float(arr[unit][~np.isnan(arr[unit])][0])
    raters = int(np.count_nonzero(ok.any(axis=1)))
    if not keep.all():
        ok &= keep
    pairs = np.zeros(xt.shape[1])
    ratio = np.empty(xt.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        for i in range(xt.shape[0] - 1):
            for j in range(i + 1, xt.shape[0]):
                np.subtract(xt[i], xt[j], out=ratio)
                ratio /= xt[i] + xt[j]  # NaN when either is missing, and for (0, 0)
                ratio *= ratio
                pairs += np.fmax(ratio, 0.0, out=ratio)  # NaN adds 0: (0, 0) differ by 0
    values = xt[ok]
    m = m_all[keep].astype(np.float64)
    spread = _ratio_spread(values, float(values.shape[0]))
    cells = np.zeros(xt.shape)
    cells[ok] = spread
    g = cells.sum(axis=0)
    if not keep.all():
        pairs, g = pairs[keep], g[keep]
    return _ratio_terms(m, pairs, g, float(spread.sum()), (n_unpairable, raters, first, None))


def _continuous(arr: FloatArray) -> bool:
    """Whether the scores look continuous: mostly distinct in an evenly spaced sample
    of about 4,096 cells (a rating scale repeats its few values, and its patterns
    are worth grouping)."""
    flat = arr.reshape(-1)
    sample = flat[:: max(1, flat.shape[0] // _SAMPLE)]
    sample = sample[~np.isnan(sample)]
    if sample.shape[0] < 2:
        return False
    return bool(np.unique(sample).shape[0] > sample.shape[0] // 2)


def _interval(x: FloatArray, ok: NDArray[np.bool_], m: FloatArray,
              common: tuple[Any, ...]) -> UnitTerms:
    s1 = np.where(ok, x, 0.0).sum(axis=1)
    mean_u = s1 / m
    dev = np.where(ok, x - mean_u[:, None], 0.0)
    return _interval_terms(m, mean_u, np.einsum("ij,ij->i", dev, dev), common)


def _interval_terms(m: FloatArray, mean_u: FloatArray, ss: FloatArray,
                    common: tuple[Any, ...]) -> UnitTerms:
    """From per-unit sizes, means and within-unit sums of squares."""
    n = float(m.sum())
    mu = float(np.einsum("i,i->", m, mean_u)) / n  # not BLAS: no threads woken
    between = mean_u - mu
    # sums about mu (not about 0) keep n S2 - S1^2 accurate for scores far from 0
    s1c, s2c = m * between, ss + m * between * between
    total = float(s2c.sum())
    observed = 2.0 * m * ss / (m - 1.0)

    def features() -> tuple[FloatArray, Statistic]:
        def statistic(s: FloatArray) -> FloatArray:
            k = s[:, 0]
            return dif._alpha(k, s[:, 1], 2.0 * (k * s[:, 3] - s[:, 2] ** 2))

        return np.column_stack([m, observed, s1c, s2c]), statistic

    unpairable, raters, first, ids = common
    return UnitTerms("interval", m, observed, s2c + m * (total / n), 2.0 * n * total,
                     unpairable, raters, first, ids, features)


def _ratio_spread(values: FloatArray, n: float) -> FloatArray:
    """``F(x_c) / n``, ``F(y) = sum over all pairable values x of ((y - x) / (y + x))^2``."""
    sums = self_kernel_sums(values, None)
    if sums is None:  # pragma: no cover - the callers check for negative values first
        raise ValueError("the ratio difference needs non-negative values.")
    sums /= n
    return sums


def _ratio_terms(m: FloatArray, pairs: FloatArray, g: FloatArray, spread: float,
                 common: tuple[Any, ...]) -> UnitTerms:
    n = float(m.sum())
    return UnitTerms("ratio", m, 2.0 * pairs / (m - 1.0), g, spread * n, *common)


# --------------------------------------------------------------------- long codes
def _long_terms(ann: Any, level: str) -> UnitTerms | None:
    """The unit terms of :class:`~accord.Annotations` whose values are numbers, most of
    them distinct (continuous scores of a crowd), from the long codes in O(ratings)."""
    values = None if ann.set_valued else _numeric_or_none(ann.categories)
    if values is None or 2 * len(ann.categories) <= ann.n_ratings:
        return None
    if level == "ratio" and len(ann.categories) <= dif.RATIO_EXACT_LIMIT:
        return None
    ann.require_pairable()
    units, raters, codes = ann.codes
    m_all = np.bincount(units, minlength=ann.n_units)
    keep = m_all >= 2
    sel = keep[units]
    rank = np.cumsum(keep) - 1
    u, c = rank[units[sel]], codes[sel]
    scale = power_of_two_scale(values)
    x = (values * scale)[c]
    if level == "ratio" and float(values.min()) < 0:
        raise DataError(f"level='ratio' needs non-negative values (a ratio scale has a true "
                        f"zero); the data include {float(values.min() * scale)!r}.")
    m = m_all[keep].astype(np.float64)
    used = int(np.count_nonzero(np.bincount(raters, minlength=ann.n_raters)))
    ids = tuple(unit for unit, kept in zip(ann.units, keep.tolist()) if kept)
    common = (int(np.count_nonzero(m_all == 1)), used, ann.categories[int(c[0])], ids)
    size = m.shape[0]
    if level == "interval":
        mean_u = _unit_sums(u, x, size) / m
        dev = x - mean_u[u]
        return _interval_terms(m, mean_u, _unit_sums(u, dev * dev, size), common)
    spread = _ratio_spread(x, float(m.sum()))
    return _ratio_terms(m, _pairs_within(u, x, size), _unit_sums(u, spread, size),
                        float(spread.sum()), common)


def _unit_sums(u: NDArray[np.int64], w: FloatArray, size: int) -> FloatArray:
    return np.bincount(u, weights=w, minlength=size).astype(np.float64, copy=False)


def _pairs_within(u: NDArray[np.int64], x: FloatArray, size: int) -> FloatArray:
    """Per unit, the ratio differences summed over its pairs of values (O(sum m_u^2))."""
    order = np.argsort(u, kind="stable")
    us, xs = u[order], x[order]
    end = np.cumsum(np.bincount(us, minlength=size))[us]  # one past each value's unit
    out = np.zeros(size)
    cand = np.arange(us.shape[0])
    r = 1
    while cand.size:
        cand = cand[cand + r < end[cand]]
        out += np.bincount(us[cand], weights=dif.ratio_delta(xs[cand], xs[cand + r]),
                           minlength=size)
        r += 1
    return out
