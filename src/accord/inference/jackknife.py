"""Leave-one-unit-out jackknife from the sufficient statistic.

Units sharing a rating pattern have the same leave-one-out value, so the
jackknife needs one evaluation per distinct pattern (Efron & Tibshirani 1993,
ch. 11): ``se = sqrt((n-1)/n * sum_i (theta_(i) - theta_(.))^2)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from accord.inference.resampling import Resampling


def jackknife_se(resampling: Resampling) -> tuple[float, int]:
    """The jackknife standard error and how many leave-one-out values were undefined."""
    return jackknife_se_of(resampling.leave_one_out(), resampling.counts)


def jackknife_se_of(values: NDArray[np.float64],
                    counts: NDArray[np.integer]) -> tuple[float, int]:
    """:func:`jackknife_se` from the leave-one-out ``values`` of each pattern and how many
    units show it (for figures whose leave-one-out values have a cheaper closed form)."""
    counts = counts.astype(np.float64)
    ok = np.isfinite(values)
    excluded = int(counts[~ok].sum())
    n = counts[ok].sum()
    if n < 2:
        return float("nan"), excluded
    mean = np.sum(counts[ok] * values[ok]) / n
    var = (n - 1.0) / n * np.sum(counts[ok] * (values[ok] - mean) ** 2)
    return float(np.sqrt(var)), excluded
