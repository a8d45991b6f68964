"""The resampling contract shared by every coefficient.

Every coefficient in accord is a function ``g`` of *summed per-pattern features*:
units with the same rating pattern (a contingency-table cell, a per-unit count
vector, ...) contribute the same feature vector ``f_j``, so the statistic of a
sample in which pattern ``j`` occurs ``w_j`` times is ``g(sum_j w_j f_j)``.

This turns the bootstrap into a multinomial draw of pattern weights followed by
one matrix product, and the jackknife into ``g(S - f_j)`` for each pattern, with
no re-counting of raw data (Efron & Tibshirani 1993, ch. 6 and 11, applied to
the sufficient statistic).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class Resampling:
    """A coefficient written as ``statistic(weights @ features)``.

    Parameters
    ----------
    features : (m, p) array
        The feature vector of each distinct pattern.
    counts : (m,) array
        How many units show each pattern (positive integers).
    statistic : callable
        Maps summed features, shape ``(B, p)``, to ``B`` estimates; ``nan`` where
        the coefficient is undefined. Must not warn.
    unit_patterns : (n_units,) array, optional
        The pattern index of each unit in unit order, for paired comparisons.
    unit_ids : sequence, optional
        The unit labels in the same order, to align two results on their units.
    """

    features: FloatArray
    counts: IntArray
    statistic: Callable[[FloatArray], FloatArray]
    unit_patterns: IntArray | None = None
    unit_ids: tuple[object, ...] | None = None

    @property
    def n_units(self) -> int:
        """The number of resampling units (items)."""
        return int(self.counts.sum())

    def evaluate(self, weights: NDArray[np.floating] | NDArray[np.integer]) -> FloatArray:
        """The coefficient for each row of pattern ``weights`` (shape ``(B, m)``)."""
        sums = np.asarray(weights, dtype=np.float64) @ self.features
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.asarray(self.statistic(sums), dtype=np.float64)

    def full(self) -> float:
        """The coefficient on the whole sample."""
        return float(self.evaluate(self.counts[None, :].astype(np.float64))[0])

    def leave_one_out(self) -> FloatArray:
        """The coefficient with one unit of each pattern removed, shape ``(m,)``."""
        total = self.counts.astype(np.float64) @ self.features
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.asarray(self.statistic(total[None, :] - self.features), dtype=np.float64)


def pattern_index(rows: NDArray[np.generic]) -> tuple[NDArray[np.generic], IntArray, IntArray]:
    """Distinct rows of a 2-D array, their counts, and each row's pattern index."""
    if rows.shape[0] == 0:
        return rows, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    patterns, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    return patterns, counts.astype(np.int64), inverse.reshape(-1).astype(np.int64)


def row_patterns(codes: IntArray, q: int) -> tuple[IntArray, IntArray, IntArray]:
    """Distinct rows of a code matrix (``-1`` = not rated), their counts and each row's index.

    Rows of ``r`` codes in ``-1 .. q - 1`` become one integer key when they fit in
    62 bits, so a 1-D unique replaces the slower row-wise one.
    """
    if codes.shape[0] == 0:
        return codes, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if codes.shape[1] * math.log2(q + 1) < 62:
        radix = (q + 1) ** np.arange(codes.shape[1], dtype=np.int64)
        keys = (codes + 1) @ radix
        _, first, inverse, counts = np.unique(
            keys, return_index=True, return_inverse=True, return_counts=True
        )
        return codes[first], counts.astype(np.int64), inverse.reshape(-1).astype(np.int64)
    rows, counts, inverse = pattern_index(codes)
    return np.asarray(rows, dtype=np.int64), counts, inverse
