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
(:mod:`accord.coefficients._ratio_bins`, O(V), relative error below 1e-14 in the
tests); for kernel sums at other points than the values, and when the values span
more than ~128 octaves, it is computed from
``((y - x) / (y + x))^2 = int_0^inf t (y - x)^2 exp(-(x + y) t) dt`` by the
trapezoidal rule in ``s = log t`` (exponentially convergent for this analytic
integrand; relative error below 1e-14 against the exact double sum in the tests,
the worst when one value sits far from a tight cluster of the others; about 55
exponentials per value, some 8x the cost of the bins).
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
# trapezoid step in log t: the integrand e^{2s - a e^s} is analytic for |Im s| < pi/2, so the
# error is about e^{-pi^2 / h} / cos^2(d) ~ 1e-14 relative at h = 0.25 (1e-12 at h = 0.3)
_STEP = 0.25


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
    to :data:`RATIO_EXACT_LIMIT` values, quadrature beyond. No V x V matrix is built
    unless resampling asks for one (at most the limit squared)."""

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
# sum_k w_k (y - x_k)^2 / (y + x_k)^2 = int_0^inf t F_y(t) dt with
# F_y(t) = sum_k w_k (y - x_k)^2 e^{-(y + x_k) t}. In s = log t the integrand is analytic
# in a strip, so the trapezoidal rule converges exponentially. Subtracting
# g_y = M0 e^{-c t} (M0 = F_y(0), c = -F_y'(0) / F_y(0), integral M0 / c^2 known) makes the
# left tail decay like t^4, so the rule can start at t = e^-9 (the tail left out is
# below e^{-36} relative on values scaled to at most 1); values with
# (x - x_min) t > 50 weigh less than e^-50 and are skipped at large t.
_CUT = 50.0
_S_LOW = -9.0
# cells of one (values x nodes) temporary: at most 8 per value (memory proportional to the
# values at every size) and at most 2^18
_BLOCK_CELLS = 1 << 18


def _rows_per_block(width: int) -> int:
    return max(1, min(_BLOCK_CELLS, max(1 << 12, 8 * width)) // max(width, 1))


def _power_of_two(top: float) -> float:
    """A power of two at least ``top``: scaling by it is exact, so no difference is rounded."""
    return float(2.0 ** np.frexp(top)[1])


def _scaled(x: FloatArray, w: FloatArray, y: FloatArray) -> tuple[FloatArray, ...]:
    """Sorted ``x`` (with ``w``) and ``y``, scaled exactly to at most 1."""
    scale = _power_of_two(float(max(x.max(), y.max())))
    if not _ascending(x):
        order = np.argsort(x, kind="stable")
        x, w = x[order], w[order]
    xs = x / scale
    return xs, w, xs if y is x else y / scale


def _moments(d: FloatArray, powers: FloatArray, t: FloatArray) -> tuple[FloatArray, ...]:
    """``W = sum w e^{-d t}``, the weighted mean ``mu`` of ``d`` and its weighted variance
    (``powers`` holds the rows ``w``, ``w d``, ``w d^2``).

    ``d >= 0`` is measured from the smallest value, where the weight concentrates
    as ``t`` grows, so the raw-moment variance keeps its relative precision.
    """
    e = np.exp(-np.multiply.outer(d, t))
    big_w, s1, s2 = powers @ e
    mu = s1 / big_w
    return big_w, mu, np.maximum(s2 - s1 * mu, 0.0)


def _node_blocks(d: FloatArray, w: FloatArray, a_min: float) -> Any:
    """Per block of log-t nodes: s, t and the moments of the values that still weigh."""
    nodes = np.arange(_S_LOW, np.log(_CUT / a_min) + _STEP, _STEP)
    size = _rows_per_block(d.size)
    powers = np.stack([w, w * d, w * d * d])
    for i in range(0, nodes.shape[0], size):
        s = nodes[i:i + size]
        t = np.exp(s)
        stop = int(np.searchsorted(d, _CUT / t[0], side="right"))
        yield (s, t, *_moments(d[:stop], powers[:, :stop], t))


def _centred(d: FloatArray, w: FloatArray) -> tuple[float, float, float]:
    """Total weight, mean and centred second moment (two-pass)."""
    big_w = float(w.sum())
    mu = float(w @ d) / big_w
    return big_w, mu, float(w @ (d - mu) ** 2)


def ratio_pair_sum(x: FloatArray, w: FloatArray) -> float:
    """``sum_ck w_c w_k ((x_c - x_k) / (x_c + x_k))^2`` for non-negative ``x``.

    Exact double sum up to :data:`RATIO_EXACT_LIMIT` values; beyond, the integral
    ``int_0^inf t F(t) dt`` with ``F(t) = 2 W(t) V(t) e^{-2 x_min t}`` (``W`` the
    weight and ``V`` the centred second moment under weights ``w e^{-(x - x_min) t}``).
    """
    keep = w > 0
    x, w = x[keep], w[keep]
    if x.size < 2 or x.max() == x.min():
        return 0.0
    if x.size <= RATIO_EXACT_LIMIT:
        return float(w @ _exact_kernel(x, w, x))
    sums = self_kernel_sums(x, w)  # interpolation on bins
    if sums is not None:
        return float(w @ sums)
    x, w, _ = _scaled(x, w, x)
    x0 = float(x[0])
    d = x - x0
    big_w, mu, var = _centred(d, w)
    m0 = 2.0 * big_w * var
    m1 = 2.0 * x0 * m0 + 2.0 * (big_w * float(w @ d**3) - float(w @ d) * float(w @ d**2))
    a_lo = float(x[0] + x[np.argmax(x > x0)])
    c = min(max(m1 / m0, a_lo), 2.0)
    total = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for s, t, bw, _, v in _node_blocks(d, w, min(a_lo, c)):
            f = np.exp(2.0 * s - 2.0 * x0 * t) * 2.0 * bw * v - m0 * np.exp(2.0 * s - c * t)
            total += float(f.sum())
    return float(_finite(np.array([total * _STEP + m0 / c**2]), x)[0])


def ratio_kernel_sums(x: FloatArray, w: FloatArray, y: FloatArray) -> FloatArray:
    """``sum_k w_k ((y_i - x_k) / (y_i + x_k))^2`` for every ``y_i`` (non-negative)."""
    if y is x and x.size > RATIO_EXACT_LIMIT:
        sums = self_kernel_sums(x, w)  # targets = sources: interpolation on bins
        if sums is not None:
            return sums
    keep = w > 0
    if not keep.all():
        x, w = x[keep], w[keep]
    if x.size <= RATIO_EXACT_LIMIT or y.size <= RATIO_EXACT_LIMIT:
        return _exact_kernel(x, w, y)
    # targets in increasing order: the ones still weighing at a node are a prefix
    order = None if _ascending(y) else np.argsort(y, kind="stable")
    x, w, ys = _scaled(x, w, y if order is None else y[order])
    with np.errstate(over="ignore", invalid="ignore"):
        out = _finite(_sorted_kernel_sums(x, w, ys), x)
    if order is None:
        return out
    sums = np.empty(y.shape[0])
    sums[order] = out
    return sums


def _finite(sums: FloatArray, x: FloatArray) -> FloatArray:
    """The sums, or one sentence when the quadrature overflowed (values over ~150 decades)."""
    if np.all(np.isfinite(sums)):
        return sums
    from accord.errors import DataError

    span = float(np.log10(x.max()) - np.log10(x[x > 0].min()))
    raise DataError(
        f"level='ratio' cannot be computed for values spanning {span:.0f} orders of "
        "magnitude (at most about 150); the ratio difference depends only on x / y, so "
        "level='interval' on the logarithms of the positive values ranks the same pairs.")


def _ascending(a: FloatArray) -> bool:
    return bool(np.all(a[1:] >= a[:-1]))


def _sorted_kernel_sums(x: FloatArray, w: FloatArray, y: FloatArray) -> FloatArray:
    """The kernel sums of :func:`ratio_kernel_sums` for sorted, scaled ``x`` and ``y``."""
    x0 = float(x[0])
    d, yd = x - x0, y - x0
    big_w, mu, var = _centred(d, w)
    m0 = big_w * (yd - mu) ** 2 + var
    p = [float(w @ d**j) for j in range(4)]
    m1 = (yd + 2.0 * x0) * (yd**2 * p[0] - 2.0 * yd * p[1] + p[2])
    m1 += yd**2 * p[1] - 2.0 * yd * p[2] + p[3]
    a = y + x0
    a_lo = np.maximum(a, 2.0**-1074)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.clip(np.where(m0 > 0, m1 / m0, a_lo), a_lo, y + 1.0)
    del m1, a_lo
    a_min = float(min(a[a > 0].min(initial=1.0), x[x > 0].min(initial=1.0)))
    out = np.zeros(y.shape[0])
    for s, t, bw, mu_t, v in _node_blocks(d, w, a_min):
        stop = int(np.searchsorted(a, _CUT / t[0], side="right"))
        f = np.exp(2.0 * s[None, :] - np.multiply.outer(a[:stop], t))
        f *= bw * (yd[:stop, None] - mu_t) ** 2 + v
        f -= m0[:stop, None] * np.exp(2.0 * s[None, :] - np.multiply.outer(c[:stop], t))
        out[:stop] += f.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(out * _STEP + np.where(m0 > 0, m0 / c**2, 0.0), dtype=np.float64)


def _exact_kernel(x: FloatArray, w: FloatArray, y: FloatArray) -> FloatArray:
    out = np.empty(y.shape[0])
    step = _rows_per_block(x.shape[0])
    for start in range(0, y.shape[0], step):
        block = y[start:start + step, None]
        out[start:start + step] = ratio_delta(block, x[None, :]) @ w
    return out


def custom_matrix(level: Any, categories: tuple[Any, ...], func: str) -> FloatArray:
    """The validated V x V difference matrix of a callable or array ``level``."""
    from accord import _validation as v

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
    from accord import _validation as v

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
