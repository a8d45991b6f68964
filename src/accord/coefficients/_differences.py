"""Krippendorff's difference functions delta^2_ck, evaluated without a V x V matrix.

Each level provides, for a :class:`~accord.tables.coincidence.CoincidenceMatrix`:

- ``observed(cm)``: per pattern ``j``, one unit's ``sum_ck o^j_ck delta_ck``
  (so ``n D_o = sum_j count_j observed_j``);
- ``expected(n_c)``: ``sum_ck n_c n_k delta_ck`` (so ``n (n - 1) D_e`` is this);
- ``spread(pi)``: ``(Delta pi)_c = sum_k pi_k delta_ck``, for Gwet's (2014) variance;
- ``resampling(cm)``: per-pattern features and a vectorised statistic, or ``None``
  when the features would not fit in memory.

The difference functions are Krippendorff's (2011, section E):
nominal ``[c != k]``; ordinal ``(sum_{g=c..k} n_g - (n_c + n_k) / 2)^2``;
interval ``(c - k)^2``; ratio ``((c - k) / (c + k))^2``. Two identities keep
continuous data O(n log n): the ordinal difference is the interval difference
of the *midranks* ``t_c = sum_{g<c} n_g + n_c / 2``, and interval sums are
moments (``sum_ck n_c n_k (x_c - x_k)^2 = 2 n sum_c n_c (x_c - xbar)^2``). The ratio
sum has no moment form: up to 3,000 values it is the exact double sum (in blocks, no
V x V matrix); for more values it is interpolated on geometric bins
(:mod:`accord.coefficients._ratio_bins`, O(V), relative error below 1e-14 against the
exact double sum in the tests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._ratio_bins import self_kernel_sums
from accord.tables.coincidence import CoincidenceMatrix

FloatArray = NDArray[np.float64]
Statistic = Callable[[FloatArray], FloatArray]

#: Largest feature matrix (patterns x features) built for resampling.
FEATURE_BUDGET = 20_000_000
#: Up to this many values the ratio sums are exact double sums (chunked).
RATIO_EXACT_LIMIT = 3000


def _alpha(n: FloatArray, do: FloatArray, de: FloatArray) -> FloatArray:
    """alpha = 1 - (n - 1) sum o delta / sum n_c n_k delta; nan where D_e = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 1.0 - (n - 1.0) * do / de
    out[~(de > 0)] = np.nan
    return np.asarray(out, dtype=np.float64)


def _fits(cm: CoincidenceMatrix, width: int) -> bool:
    return cm.n_patterns * width <= FEATURE_BUDGET


def _counts_matrix(cm: CoincidenceMatrix) -> FloatArray:
    pattern, code, mult = cm.entries
    out = np.zeros((cm.n_patterns, cm.k))
    out[pattern, code] = mult
    return out


class Nominal:
    """``delta_ck = [c != k]``: only the diagonal and the marginals are needed."""

    name = "nominal"

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        pattern, _, mult = cm.entries
        m = cm.pattern_sizes
        same = np.bincount(pattern, weights=mult * (mult - 1.0), minlength=cm.n_patterns)
        return np.asarray(m - same / (m - 1.0), dtype=np.float64)

    def expected(self, n_c: FloatArray) -> float:
        n = float(n_c.sum())
        return n * n - float(n_c @ n_c)

    def spread(self, pi: FloatArray) -> FloatArray:
        return 1.0 - pi

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, Statistic] | None:
        if not _fits(cm, cm.k + 2):
            return None
        feats = np.column_stack([cm.pattern_sizes, self.observed(cm), _counts_matrix(cm)])

        def statistic(s: FloatArray) -> FloatArray:
            n, nc = s[:, 0], s[:, 2:]
            return _alpha(n, s[:, 1], n * n - np.einsum("bi,bi->b", nc, nc))

        return feats, statistic


class Interval:
    """``delta_ck = (x_c - x_k)^2`` on numeric values ``x`` (moments, no matrix)."""

    name = "interval"

    def __init__(self, x: FloatArray, centre: float = 0.0) -> None:
        # centring at the mean of the pairable values keeps n S2 - S1^2 accurate
        self.x = np.asarray(x, dtype=np.float64) - centre

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        pattern, code, mult = cm.entries
        m = cm.pattern_sizes
        xe = self.x[code]
        mean = np.bincount(pattern, weights=mult * xe, minlength=cm.n_patterns) / m
        ss = np.bincount(pattern, weights=mult * (xe - mean[pattern]) ** 2,
                         minlength=cm.n_patterns)
        return np.asarray(2.0 * m * ss / (m - 1.0), dtype=np.float64)

    def expected(self, n_c: FloatArray) -> float:
        n = float(n_c.sum())
        mean = float(n_c @ self.x) / n
        return 2.0 * n * float(n_c @ (self.x - mean) ** 2)

    def spread(self, pi: FloatArray) -> FloatArray:
        mu = float(pi @ self.x)
        return np.asarray((self.x - mu) ** 2 + float(pi @ (self.x - mu) ** 2), dtype=np.float64)

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, Statistic] | None:
        pattern, code, mult = cm.entries
        xe = self.x[code]
        s1 = np.bincount(pattern, weights=mult * xe, minlength=cm.n_patterns)
        s2 = np.bincount(pattern, weights=mult * xe * xe, minlength=cm.n_patterns)
        feats = np.column_stack([cm.pattern_sizes, self.observed(cm), s1, s2])

        def statistic(s: FloatArray) -> FloatArray:
            n = s[:, 0]
            return _alpha(n, s[:, 1], 2.0 * (n * s[:, 3] - s[:, 2] ** 2))

        return feats, statistic


def midranks(n_c: FloatArray) -> FloatArray:
    """``t_c = sum_{g<c} n_g + n_c / 2``: ordinal delta_ck is ``(t_c - t_k)^2``."""
    return np.asarray(np.cumsum(n_c, axis=-1) - n_c / 2.0, dtype=np.float64)


class Ordinal:
    """Krippendorff's ordinal difference: the interval difference of the midranks."""

    name = "ordinal"

    def __init__(self, n_c: FloatArray) -> None:
        n = float(n_c.sum())
        self.inner = Interval(midranks(n_c), centre=n / 2.0)

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        return self.inner.observed(cm)

    def expected(self, n_c: FloatArray) -> float:
        return self.inner.expected(n_c)

    def spread(self, pi: FloatArray) -> FloatArray:
        return self.inner.spread(pi)

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, Statistic] | None:
        k = cm.k
        if not _fits(cm, k * k + k + 1):
            return None
        pattern, code, mult = cm.entries
        pairs = np.zeros((cm.n_patterns, k * k))
        e1, e2 = cm.entry_pairs()
        w = cm.pair_weights(e1, e2) / cm.pattern_counts[pattern[e1]]
        pairs[pattern[e1], code[e1] * k + code[e2]] = w
        pairs[pattern[e1], code[e2] * k + code[e1]] = w
        m = cm.pattern_sizes
        pairs[pattern, code * (k + 1)] = mult * (mult - 1.0) / (m[pattern] - 1.0)
        feats = np.column_stack([m, _counts_matrix(cm), pairs])

        def statistic(s: FloatArray) -> FloatArray:
            n, nc = s[:, 0], s[:, 1:k + 1]
            o = s[:, k + 1:].reshape(-1, k, k)
            t = midranks(nc) - n[:, None] / 2.0
            nt2 = np.einsum("bi,bi->b", nc, t * t)
            do = 2.0 * (nt2 - np.einsum("bi,bij,bj->b", t, o, t))
            de = 2.0 * (n * nt2 - np.einsum("bi,bi->b", nc, t) ** 2)
            return _alpha(n, do, de)

        return feats, statistic


class Matrix:
    """Any difference given as a symmetric V x V matrix (ratio with few values, custom)."""

    def __init__(self, delta: FloatArray, name: str) -> None:
        self.delta = (delta + delta.T) / 2.0
        self.name = name

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        pattern, code, _ = cm.entries
        e1, e2 = cm.entry_pairs()
        w = cm.pair_weights(e1, e2) / cm.pattern_counts[pattern[e1]]
        d = 2.0 * w * self.delta[code[e1], code[e2]]
        return np.bincount(pattern[e1], weights=d, minlength=cm.n_patterns).astype(np.float64)

    def expected(self, n_c: FloatArray) -> float:
        return float(n_c @ self.delta @ n_c)

    def spread(self, pi: FloatArray) -> FloatArray:
        # coincidences are symmetric, so only the symmetric part of delta counts
        return np.asarray((self.delta @ pi + self.delta.T @ pi) / 2.0, dtype=np.float64)

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, Statistic] | None:
        if not _fits(cm, cm.k + 2) or cm.k > RATIO_EXACT_LIMIT:
            return None
        feats = np.column_stack([cm.pattern_sizes, self.observed(cm), _counts_matrix(cm)])
        delta = self.delta

        def statistic(s: FloatArray) -> FloatArray:
            nc = s[:, 2:]
            return _alpha(s[:, 0], s[:, 1], np.einsum("bi,ij,bj->b", nc, delta, nc))

        return feats, statistic


def ratio_delta(x: FloatArray, y: FloatArray) -> FloatArray:
    """``((x - y) / (x + y))^2``, 0 where both are 0."""
    total = x + y
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(total != 0, ((x - y) / total) ** 2, 0.0)
    return np.asarray(out, dtype=np.float64)


class RatioMany:
    """Ratio difference: pairs within units; across units exact double sums in blocks up
    to :data:`RATIO_EXACT_LIMIT` values, interpolation on bins beyond. No V x V matrix is
    built unless resampling asks for one (at most the limit squared)."""

    name = "ratio"

    def __init__(self, x: FloatArray) -> None:
        self.x = np.asarray(x, dtype=np.float64)

    def observed(self, cm: CoincidenceMatrix) -> FloatArray:
        pattern, code, _ = cm.entries
        e1, e2 = cm.entry_pairs()
        w = cm.pair_weights(e1, e2) / cm.pattern_counts[pattern[e1]]
        d = 2.0 * w * ratio_delta(self.x[code[e1]], self.x[code[e2]])
        return np.bincount(pattern[e1], weights=d, minlength=cm.n_patterns).astype(np.float64)

    def expected(self, n_c: FloatArray) -> float:
        return ratio_pair_sum(self.x, n_c)

    def spread(self, pi: FloatArray) -> FloatArray:
        return ratio_kernel_sums(self.x, pi, self.x)

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, Statistic] | None:
        if cm.k > RATIO_EXACT_LIMIT:
            return None
        return Matrix(ratio_delta(self.x[:, None], self.x[None, :]), self.name).resampling(cm)


# --------------------------------------------------------------------- ratio sums
# cells of one (values x values) temporary of the exact sums: at most 8 per value (memory
# proportional to the values at every size) and at most 2^18
_BLOCK_CELLS = 1 << 18


def _rows_per_block(width: int) -> int:
    return max(1, min(_BLOCK_CELLS, max(1 << 12, 8 * width)) // max(width, 1))


def ratio_pair_sum(x: FloatArray, w: FloatArray) -> float:
    """``sum_ck w_c w_k ((x_c - x_k) / (x_c + x_k))^2`` for non-negative ``x``.

    Exact double sum (in blocks) up to :data:`RATIO_EXACT_LIMIT` values; beyond,
    interpolated on geometric bins (:mod:`accord.coefficients._ratio_bins`).
    """
    keep = w > 0
    x, w = x[keep], w[keep]
    if x.size < 2 or x.max() == x.min():
        return 0.0
    if x.size <= RATIO_EXACT_LIMIT:
        return float(w @ _exact_kernel(x, w, x))
    return float(w @ _self_sums(x, w))


def ratio_kernel_sums(x: FloatArray, w: FloatArray, y: FloatArray) -> FloatArray:
    """``sum_k w_k ((y_i - x_k) / (y_i + x_k))^2`` for every ``y_i`` (non-negative).

    At the values themselves (``y is x``, as alpha needs) and for more than
    :data:`RATIO_EXACT_LIMIT` values: interpolated on bins, O(V); otherwise the exact
    sums in blocks, O(V Y).
    """
    if y is x and x.size > RATIO_EXACT_LIMIT:
        return _self_sums(x, w)
    keep = w > 0
    return _exact_kernel(x[keep], w[keep], y)


def _self_sums(x: FloatArray, w: FloatArray) -> FloatArray:
    sums = self_kernel_sums(x, w)
    if sums is None:  # pragma: no cover - alpha checks for negative values first
        raise ValueError("the ratio difference needs non-negative values.")
    return sums


def _exact_kernel(x: FloatArray, w: FloatArray, y: FloatArray) -> FloatArray:
    out = np.empty(y.shape[0])
    step = _rows_per_block(x.shape[0])
    for start in range(0, y.shape[0], step):
        block = y[start:start + step, None]
        out[start:start + step] = ratio_delta(block, x[None, :]) @ w
    return out


def custom_matrix(level: Any, categories: tuple[Any, ...], func: str) -> FloatArray:
    """The validated V x V difference matrix of a callable or array ``level``."""
    from accord.data import _validation as v

    k = len(categories)
    if callable(level):
        delta = _call_distance(level, categories, func)
    else:
        try:
            delta = np.asarray(level, dtype=np.float64)
        except (TypeError, ValueError):
            raise v.fail("level", func, "a level name, a callable d(c, k) or a V x V numeric "
                         "matrix", level) from None
    if delta.shape != (k, k):
        raise v.fail("level", func, f"a {k} x {k} difference matrix (one row and column per "
                     f"value: {list(categories)[:6]!r})", f"an array of shape {delta.shape}")
    if not np.all(np.isfinite(delta)) or delta.min() < 0:
        raise v.fail("level", func, "a matrix of finite, non-negative differences",
                     "negative or non-finite values")
    if np.any(np.diag(delta) != 0):
        raise v.fail("level", func, "a difference matrix with 0 on the diagonal (a value does "
                     "not differ from itself)", np.diag(delta).tolist()[:6])
    return delta


def _call_distance(func_d: Callable[..., Any], categories: tuple[Any, ...],
                   func: str) -> FloatArray:
    from accord.data import _validation as v

    k = len(categories)
    labels = np.empty(k, dtype=object)
    labels[:] = list(categories)
    try:
        grid = np.asarray(func_d(labels[:, None], labels[None, :]), dtype=np.float64)
        if grid.shape == (k, k):
            return grid
    except Exception:  # noqa: BLE001 - fall back to calling it on one pair at a time
        pass
    if k > 2000:
        raise v.fail("level", func, "a callable that accepts numpy arrays (there are "
                     f"{k} values)", func_d)
    out = np.empty((k, k))
    for i, c in enumerate(categories):
        for j, d in enumerate(categories):
            try:
                out[i, j] = float(func_d(c, d))
            except Exception as exc:  # noqa: BLE001 - the user's function: report, not crash
                raise v.fail(
                    "level", func, "a callable d(c, k) returning a number for every two values",
                    f"{type(exc).__name__} ({exc}) for d({c!r}, {d!r})",
                ) from None
    return out
