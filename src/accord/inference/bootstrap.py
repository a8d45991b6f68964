"""Bootstrap intervals from the sufficient statistic.

Resampling ``n`` i.i.d. units with replacement is a multinomial draw of how
often each distinct rating pattern occurs; the coefficient of each resample is
then one matrix product away (:class:`~accord.inference.resampling.Resampling`).
Intervals: percentile, basic and BCa (Efron & Tibshirani 1993, ch. 13-14; the
acceleration from the jackknife, eq. 14.15).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from accord import _validation as v
from accord.inference.resampling import FloatArray, Resampling

BootstrapKind = Literal["percentile", "bca", "basic"]
_CELLS_PER_CHUNK = 4_000_000


@dataclass(frozen=True)
class Bootstrap:
    """A bootstrap over units, to pass as ``method=`` to ``confidence_interval``.

    Parameters
    ----------
    n_resamples : int
        Number of bootstrap resamples (default 9999).
    kind : {"percentile", "bca", "basic"}
        The interval: percentile, bias-corrected and accelerated, or basic (reverse percentile).
    rng : int or numpy.random.Generator, optional
        Seed or generator, for a reproducible interval.

    Examples
    --------
    >>> import accord
    >>> res = accord.cohen_kappa([1, 1, 0, 1, 0, 0, 1, 1], [1, 0, 0, 1, 0, 1, 1, 1])
    >>> ci = res.confidence_interval(0.9, method=accord.Bootstrap(n_resamples=999, rng=1))
    >>> ci.method
    'bootstrap-percentile'
    """

    n_resamples: int = 9999
    kind: BootstrapKind = "percentile"
    rng: int | np.random.Generator | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        v.positive_int(self.n_resamples, param="n_resamples", func="Bootstrap")
        v.choice(self.kind, ("percentile", "bca", "basic"), param="kind", func="Bootstrap")

    def generator(self) -> np.random.Generator:
        """A fresh generator for this bootstrap (seeded when ``rng`` is an int)."""
        if isinstance(self.rng, np.random.Generator):
            return self.rng
        return np.random.default_rng(self.rng)


def draw_weights(
    counts: NDArray[np.int64], n_resamples: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """Multinomial pattern multiplicities of ``n_resamples`` bootstrap samples."""
    n = int(counts.sum())
    p = counts / n
    return rng.multinomial(n, p, size=n_resamples).astype(np.int64)


def bootstrap_distribution(
    resampling: Resampling, n_resamples: int, rng: np.random.Generator
) -> FloatArray:
    """The coefficient on each of ``n_resamples`` bootstrap resamples (nan = undefined)."""
    m = max(1, resampling.counts.shape[0])
    chunk = max(1, _CELLS_PER_CHUNK // m)
    out = np.empty(n_resamples, dtype=np.float64)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        weights = draw_weights(resampling.counts, stop - start, rng)
        out[start:stop] = resampling.evaluate(weights)
    return out


def bootstrap_interval(
    resampling: Resampling,
    estimate: float,
    confidence_level: float,
    method: Bootstrap,
) -> tuple[float, float, FloatArray, int]:
    """Low, high, the finite replicates and how many resamples were undefined."""
    replicates = bootstrap_distribution(resampling, method.n_resamples, method.generator())
    finite = replicates[np.isfinite(replicates)]
    excluded = int(replicates.size - finite.size)
    if finite.size < 2:
        return float("nan"), float("nan"), finite, excluded
    tail = (1.0 - confidence_level) / 2.0
    if method.kind == "bca":
        lo_q, hi_q = _bca_levels(resampling, estimate, finite, tail)
    else:
        lo_q, hi_q = tail, 1.0 - tail
    low, high = np.quantile(finite, [lo_q, hi_q])
    if method.kind == "basic":
        low, high = 2.0 * estimate - high, 2.0 * estimate - low
    return float(low), float(high), finite, excluded


def _bca_levels(
    resampling: Resampling, estimate: float, finite: FloatArray, tail: float
) -> tuple[float, float]:
    """BCa quantile levels: bias correction z0 and jackknife acceleration a."""
    below = np.mean(finite < estimate) + 0.5 * np.mean(finite == estimate)
    below = min(max(below, 1.0 / (finite.size + 1)), finite.size / (finite.size + 1))
    z0 = stats.norm.ppf(below)
    accel = jackknife_acceleration(resampling)
    levels = []
    for q in (tail, 1.0 - tail):
        zq = z0 + stats.norm.ppf(q)
        levels.append(float(stats.norm.cdf(z0 + zq / (1.0 - accel * zq))))
    return levels[0], levels[1]


def jackknife_acceleration(resampling: Resampling) -> float:
    """The BCa acceleration from leave-one-unit-out values (Efron & Tibshirani eq. 14.15)."""
    values = resampling.leave_one_out()
    weights = resampling.counts.astype(np.float64)
    ok = np.isfinite(values)
    if ok.sum() < 2:
        return 0.0
    values, weights = values[ok], weights[ok]
    mean = np.average(values, weights=weights)
    d = mean - values
    denom = 6.0 * (np.sum(weights * d**2)) ** 1.5
    return float(np.sum(weights * d**3) / denom) if denom > 0 else 0.0
