"""Leave-one-unit-out jackknife from the sufficient statistic.

Units sharing a rating pattern have the same leave-one-out value, so the
jackknife needs one evaluation per distinct pattern (Efron & Tibshirani 1993,
ch. 11): ``se = sqrt((n-1)/n * sum_i (theta_(i) - theta_(.))^2)``.
"""

from __future__ import annotations

import numpy as np

from accord.inference.resampling import Resampling


def jackknife_se(resampling: Resampling) -> tuple[float, int]:
    """The jackknife standard error and how many leave-one-out values were undefined."""
    values = resampling.leave_one_out()
    counts = resampling.counts.astype(np.float64)
    ok = np.isfinite(values)
    excluded = int(counts[~ok].sum())
    n = counts[ok].sum()
    if n < 2:
        return float("nan"), excluded
    mean = np.sum(counts[ok] * values[ok]) / n
    var = (n - 1.0) / n * np.sum(counts[ok] * (values[ok] - mean) ** 2)
    return float(np.sqrt(var)), excluded
