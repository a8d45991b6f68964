"""Interval and ratio alpha of continuous scores, unit by unit, in O(n).

When a units x raters array holds many distinct values (continuous scores), the
distinct per-unit value patterns are nearly all the units, so building them (a sort
of every value, then of every unit) buys nothing. This path works on the units
directly (Krippendorff 2011, sections C and E; Gwet 2014, ch. 5 for the SE):

interval, from per-unit moments (``m_u`` values, mean ``xbar_u``, within-unit sum of
squares ``SS_u``; ``mu`` and ``N`` the mean and number of the pairable values):

    n D_o          = sum_u 2 m_u SS_u / (m_u - 1),
    n (n - 1) D_e  = 2 n sum_u (SS_u + m_u (xbar_u - mu)^2),
    g_u            = SS_u + m_u (xbar_u - mu)^2 + m_u sigma^2   (Gwet's unit term),

with ``sigma^2`` the variance of the pairable values (divisor ``n``), since the
interval ``(Delta pi)_c = (x_c - mu)^2 + sigma^2``.

ratio: the observed disagreement sums ``((x - y) / (x + y))^2`` over the pairs
within each unit (one pass per pair of columns); the expected disagreement and
Gwet's unit terms need ``F(x_c) = sum_k ((x_c - x_k) / (x_c + x_k))^2`` over all
pairable values, computed once by the quadrature of
:func:`accord.coefficients._differences.ratio_kernel_sums` (``n (n - 1) D_e =
sum_c F(x_c)``, ``(Delta pi)_c = F(x_c) / n``).

Both are exactly the coincidence-matrix alpha (every distinct value a category,
every unit its own pattern); the tests check the two paths against each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord._magnitude import power_of_two_scale
from accord.coefficients import _differences as dif
from accord.errors import DataError, InsufficientDataError
from accord.tables._coincidence_build import _rated_columns

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
    first_value: float  # one pairable value, named when every pairable value is equal
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
    if not (isinstance(data, np.ndarray) and data.dtype.kind in "iuf" and data.ndim == 2):
        return None
    if data.shape[1] < 2 or data.shape[0] == 0:
        return None
    arr = data.astype(np.float64, copy=False)
    if not _continuous(arr):
        return None
    if level == "ratio" and (arr.shape[1] > _RATIO_COLUMNS
                             or np.count_nonzero(~np.isnan(arr)) <= dif.RATIO_EXACT_LIMIT):
        return None  # the pattern path: exact V x V differences, and resampling
    with np.errstate(invalid="ignore"):
        lo, hi = float(np.nanmin(arr)), float(np.nanmax(arr))
    if np.isinf(lo) or np.isinf(hi):
        raise DataError("the data hold an infinite value; use NaN for a missing rating.")
    ok = ~np.isnan(arr)
    m_all = ok.sum(axis=1)
    keep = m_all >= 2
    n_unpairable = int(np.count_nonzero(m_all == 1))
    if not keep.any():
        raise InsufficientDataError(
            "no unit has two or more values, so there is nothing to pair "
            f"({n_unpairable} unit(s) have a single value).")
    scale = power_of_two_scale(np.array([lo, hi]))  # depends on the largest |value| only
    raters = _rated_columns(arr)
    if not keep.all():
        arr, ok = arr[keep], ok[keep]
    x = arr * scale if scale != 1.0 else arr
    m = m_all[keep].astype(np.float64)
    first = float(arr.reshape(-1)[np.argmax(ok.reshape(-1))])
    common = (n_unpairable, raters, first)
    if level == "interval":
        return _interval(x, ok, m, *common)
    low = lo * scale
    if low < 0:
        raise DataError(f"level='ratio' needs non-negative values (a ratio scale has a true "
                        f"zero); the data include {low!r}.")
    return _ratio(x, ok, m, *common)


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


def _interval(x: FloatArray, ok: NDArray[np.bool_], m: FloatArray, n_unpairable: int,
              n_raters: int, first: float) -> UnitTerms:
    s1 = np.where(ok, x, 0.0).sum(axis=1)
    mean_u = s1 / m
    n = float(m.sum())
    mu = float(s1.sum()) / n
    dev = np.where(ok, x - mean_u[:, None], 0.0)
    ss = np.einsum("ij,ij->i", dev, dev)
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

    return UnitTerms("interval", m, observed, s2c + m * (total / n), 2.0 * n * total,
                     n_unpairable, n_raters, first, features)


def _ratio(x: FloatArray, ok: NDArray[np.bool_], m: FloatArray, n_unpairable: int,
           n_raters: int, first: float) -> UnitTerms:
    pairs = np.zeros(x.shape[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        for i in range(x.shape[1] - 1):
            for j in range(i + 1, x.shape[1]):
                total = x[:, i] + x[:, j]  # NaN when either is missing, 0 for (0, 0)
                ratio = np.subtract(x[:, i], x[:, j])
                np.divide(ratio, total, out=ratio)
                np.multiply(ratio, ratio, out=ratio)
                np.add(pairs, ratio, out=pairs, where=total > 0)  # (0, 0) differ by 0
    observed = 2.0 * pairs / (m - 1.0)
    values = x[ok]
    order = np.argsort(values)  # the quadrature wants sorted values; sort once, here
    ordered = values[order]
    kernel = np.empty(values.shape[0])
    kernel[order] = dif.ratio_kernel_sums(ordered, np.ones(values.shape[0]), ordered)
    n = float(m.sum())
    spread = np.zeros(x.shape)
    spread[ok] = kernel / n
    return UnitTerms("ratio", m, observed, spread.sum(axis=1), float(kernel.sum()),
                     n_unpairable, n_raters, first)
