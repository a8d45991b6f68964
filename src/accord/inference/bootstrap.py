"""Bootstrap intervals from the sufficient statistic.

Resampling ``n`` i.i.d. units with replacement is a multinomial draw of how
often each distinct rating pattern occurs; the coefficient of each resample is
then one matrix product away (:class:`~accord.inference.resampling.Resampling`).
Intervals: percentile, basic and BCa (Efron & Tibshirani 1993, *An Introduction
to the Bootstrap*, ch. 13-14; the acceleration from the jackknife, eq. 14.15;
the basic interval as in Davison & Hinkley 1997, *Bootstrap Methods and their
Application*, eq. 5.6).

Resamples are drawn in chunks so that memory stays bounded (about
``_CELLS_PER_CHUNK`` numbers per chunk) whatever ``n_resamples`` is; the chunks
consume the generator exactly as one large draw would, so the replicates do not
depend on the chunk size.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.data._names import DEFAULT_SEED
from accord.inference._normal import norm_cdf, norm_ppf
from accord.inference.resampling import FloatArray, Resampling

BootstrapKind = Literal["percentile", "bca", "basic"]
_CELLS_PER_CHUNK = 4_000_000
#: The most resamples a Bootstrap draws: the interval needs every replicate (8 bytes
#: each, 80 MB here), and the Monte-Carlo error of a quantile at 10^7 resamples is far
#: below any interval's width.
MAX_RESAMPLES = 10_000_000


@dataclass(frozen=True)
class Bootstrap:
    """A bootstrap over units, to pass as ``method=`` to ``confidence_interval``.

    Units (items) are the resampling unit: each resample draws ``n`` units with
    replacement and every rater's ratings stay with their unit.

    Parameters
    ----------
    n_resamples : int
        Number of bootstrap resamples (default 9999, at most ``MAX_RESAMPLES`` = 10^7).
        Resamples are drawn in chunks, so the memory of the draws does not grow
        with ``n_resamples``; the replicates take 8 bytes each.
    kind : {"percentile", "bca", "basic"}
        The interval: percentile, bias-corrected and accelerated (BCa), or basic
        (reverse percentile, ``2 * estimate - quantiles``).
    rng : int, numpy.random.Generator or None
        An int seeds a fresh generator on every use, so the same ``Bootstrap``
        gives the same interval each time (default :data:`DEFAULT_SEED`, 0: the same
        data give the same interval on every run); a ``Generator`` is advanced (pass
        one to draw independent intervals from one stream); ``None`` draws fresh
        entropy.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of resamples, e.g. to
        drive a progress bar; it does not change the result.

    Notes
    -----
    Resamples in which the coefficient is undefined (``nan``, e.g. every
    resampled unit in one category) are left out and counted in
    ``ConfidenceInterval.n_excluded``; the interval is then conditional on the
    coefficient being defined. A coefficient undefined on the full data has no
    interval.

    Examples
    --------
    >>> import accord
    >>> res = accord.cohen_kappa([1, 1, 0, 1, 0, 0, 1, 1], [1, 0, 0, 1, 0, 1, 1, 1])
    >>> ci = res.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=999, rng=1))
    >>> ci.method
    'bootstrap-percentile'
    >>> ci == res.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=999, rng=1))
    True
    """

    n_resamples: int = 9999
    kind: BootstrapKind = "percentile"
    rng: int | np.random.Generator | None = field(default=DEFAULT_SEED, compare=False)
    progress: Callable[[int, int], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        v.positive_int(self.n_resamples, param="n_resamples", func="Bootstrap")
        if self.n_resamples > MAX_RESAMPLES:
            raise v.fail("n_resamples", "Bootstrap", f"at most {MAX_RESAMPLES:,} (every "
                         "replicate is kept, 8 bytes each; 9,999 is the default and 10^5 is "
                         "plenty for a 95% interval)", self.n_resamples)
        v.choice(self.kind, ("percentile", "bca", "basic"), param="kind", func="Bootstrap")
        rng = self.rng
        ok_int = isinstance(rng, numbers.Integral) and not isinstance(rng, bool) and rng >= 0
        if not (rng is None or ok_int or isinstance(rng, np.random.Generator)):
            raise v.fail(
                "rng", "Bootstrap", "None, a non-negative int seed or a numpy.random.Generator", rng
            )

    def generator(self) -> np.random.Generator:
        """The generator for one use: fresh and seeded when ``rng`` is an int."""
        if isinstance(self.rng, np.random.Generator):
            return self.rng
        return np.random.default_rng(self.rng)


def draw_weights(
    counts: NDArray[np.int64],
    n_resamples: int,
    rng: np.random.Generator,
    *,
    units: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """Pattern multiplicities of ``n_resamples`` bootstrap samples, shape ``(B, m)``.

    By default one multinomial draw over the ``m`` patterns per resample (cost
    ``O(m)``). With ``units`` (each unit's pattern index, see
    :func:`unit_patterns`) the ``n`` units are drawn directly and counted per
    pattern (cost ``O(n)``), which is faster when most units have a pattern of
    their own (continuous scores); both give the same distribution.
    """
    n, m = int(counts.sum()), counts.shape[0]
    if units is None:
        return rng.multinomial(n, counts / n, size=n_resamples).astype(np.int64, copy=False)
    # floor(u n) from doubles: one 64-bit draw per unit, so chunks consume the stream
    # exactly as one large draw would (bias ~ n / 2**53); min() guards u n rounding to n
    drawn = np.minimum((rng.random((n_resamples, n)) * n).astype(np.int64), n - 1)
    if m < n:  # else every unit is its own pattern and units is the identity
        drawn = units[drawn]
    drawn += (np.arange(n_resamples, dtype=np.int64) * m)[:, None]
    return np.bincount(drawn.ravel(), minlength=n_resamples * m).reshape(n_resamples, m)


def unit_patterns(counts: NDArray[np.int64]) -> NDArray[np.int64] | None:
    """Each unit's pattern index when drawing units beats a multinomial draw, else None.

    A multinomial draw costs ``O(m)`` per resample and drawing units ``O(n)``
    with a larger constant; measured here, units win once ``m > n / 3``.
    """
    m, n = counts.shape[0], int(counts.sum())
    if 3 * m <= n:
        return None
    return np.repeat(np.arange(m, dtype=np.int64), counts)


def chunk_size(resampling: Resampling, cells: int = _CELLS_PER_CHUNK) -> int:
    """Resamples per chunk so that weights, draws and feature sums hold about ``cells`` numbers."""
    m, p = resampling.features.shape
    n = resampling.n_units if unit_patterns(resampling.counts) is not None else 0
    return max(1, cells // max(1, m, p, n))


def bootstrap_distribution(
    resampling: Resampling,
    n_resamples: int,
    rng: np.random.Generator,
    *,
    chunk: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FloatArray:
    """The coefficient on each of ``n_resamples`` bootstrap resamples (nan = undefined)."""
    step = chunk_size(resampling) if chunk is None else chunk
    units = unit_patterns(resampling.counts)
    out = np.empty(n_resamples, dtype=np.float64)
    for start in range(0, n_resamples, step):
        stop = min(n_resamples, start + step)
        weights = draw_weights(resampling.counts, stop - start, rng, units=units)
        out[start:stop] = resampling.evaluate(weights)
        if progress is not None:
            progress(stop, n_resamples)
    return out


def bootstrap_interval(
    resampling: Resampling,
    estimate: float,
    confidence_level: float,
    method: Bootstrap,
) -> tuple[float, float, FloatArray, int]:
    """Low, high, the finite replicates and how many resamples were undefined."""
    replicates = bootstrap_distribution(resampling, method.n_resamples, method.generator(),
                                        progress=method.progress)
    finite = replicates[np.isfinite(replicates)]
    excluded = int(replicates.size - finite.size)
    low, high = interval_from_replicates(
        resampling, estimate, finite, confidence_level, method.kind
    )
    return low, high, finite, excluded


def interval_from_replicates(
    resampling: Resampling,
    estimate: float,
    finite: FloatArray,
    confidence_level: float,
    kind: BootstrapKind,
) -> tuple[float, float]:
    """The interval of the given kind from finite bootstrap replicates (unclipped)."""
    if finite.size < 2:
        return math.nan, math.nan
    tail = (1.0 - confidence_level) / 2.0
    if kind == "bca":
        z0, accel = bca_parameters(resampling, estimate, finite)
        lo_q, hi_q = (_bca_level(q, z0, accel) for q in (tail, 1.0 - tail))
    else:
        lo_q, hi_q = tail, 1.0 - tail
    low, high = np.quantile(finite, [lo_q, hi_q])
    if kind == "basic":
        low, high = 2.0 * estimate - high, 2.0 * estimate - low
    return float(low), float(high)


def bca_parameters(
    resampling: Resampling, estimate: float, finite: FloatArray
) -> tuple[float, float]:
    """BCa bias correction ``z0`` (Efron & Tibshirani eq. 14.14) and acceleration ``a``.

    Replicates within rounding (1e-12) of the estimate count as ties, half below:
    with discrete ratings many replicates equal the estimate exactly, and the last
    bit of a sum must not decide which side they fall on (it depends on the order
    of the rows).
    """
    tie = np.abs(finite - estimate) <= 1e-12 * max(1.0, abs(estimate))
    below = np.mean((finite < estimate) & ~tie) + 0.5 * np.mean(tie)
    below = min(max(below, 1.0 / (finite.size + 1)), finite.size / (finite.size + 1))
    return float(norm_ppf(below)), jackknife_acceleration(resampling)


def _bca_level(q: float, z0: float, accel: float) -> float:
    """The percentile level the BCa interval uses for nominal level ``q`` (eq. 14.10)."""
    zq = z0 + float(norm_ppf(q))
    denom = 1.0 - accel * zq
    if denom <= 0:  # beyond the range where the BCa mapping is monotone
        return 1.0 if zq > 0 else 0.0
    return float(norm_cdf(z0 + zq / denom))


def _bca_levels(
    resampling: Resampling, estimate: float, finite: FloatArray, tail: float
) -> tuple[float, float]:
    """BCa quantile levels for the two tails (kept for callers of the first version)."""
    z0, accel = bca_parameters(resampling, estimate, finite)
    return _bca_level(tail, z0, accel), _bca_level(1.0 - tail, z0, accel)


def jackknife_acceleration(resampling: Resampling) -> float:
    """The BCa acceleration from leave-one-unit-out values (Efron & Tibshirani eq. 14.15).

    ``a = sum_i (m - t_i)^3 / (6 (sum_i (m - t_i)^2)^{3/2})`` with ``t_i`` the
    leave-unit-``i``-out value and ``m`` their mean; units sharing a pattern share
    ``t_i``, so the sums are weighted by the pattern counts.
    """
    values = resampling.leave_one_out()
    weights = resampling.counts.astype(np.float64)
    ok = np.isfinite(values)
    if weights[ok].sum() < 2:
        return 0.0
    values, weights = values[ok], weights[ok]
    mean = np.average(values, weights=weights)
    d = mean - values
    denom = 6.0 * (np.sum(weights * d**2)) ** 1.5
    return float(np.sum(weights * d**3) / denom) if denom > 0 else 0.0


def bootstrap_pvalue(
    resampling: Resampling,
    estimate: float,
    finite: FloatArray,
    kind: BootstrapKind,
    null: float = 0.0,
) -> float:
    """Two-sided p-value for ``statistic = null`` by inverting the bootstrap interval.

    The p-value is the smallest ``1 - confidence_level`` at which the interval of
    the given ``kind`` excludes ``null`` (Davison & Hinkley 1997, sec. 4.4 and
    5.2). ``null``'s position among the ``B`` replicates is counted with a half
    count for ties and half a pseudo-replicate, ``u = (#{t* < null} +
    #{t* = null} / 2 + 1/2) / (B + 1)``, so the p-value is never 0 (at least
    ``1 / (B + 1)``) and is 1 when every replicate equals ``null``. For BCa the
    level ``u`` is mapped back through the BCa transformation.
    """
    b = finite.size
    if b < 2:
        return math.nan
    reps = 2.0 * estimate - finite if kind == "basic" else finite
    u = (np.sum(reps < null) + 0.5 * np.sum(reps == null) + 0.5) / (b + 1.0)
    if kind == "bca":
        z0, accel = bca_parameters(resampling, estimate, finite)
        w = float(norm_ppf(u)) - z0
        denom = 1.0 + accel * w
        floor = 0.5 / (b + 1.0)  # null beyond every level the BCa mapping reaches
        u = float(norm_cdf(w / denom - z0)) if denom > 0 else floor if w < 0 else 1 - floor
    return float(min(1.0, 2.0 * min(u, 1.0 - u)))
