"""The bootstrap interval of the macro mean of :func:`accord.multilabel_agreement`.

Every per-label coefficient is written as ``statistic(weights @ features)`` over
its own unit patterns (:class:`~accord.inference.resampling.Resampling`). The
labels are resampled together: each unit's pattern under every label forms one
joint pattern, a resample draws units (multinomially over the joint patterns),
and each label's coefficient is evaluated on the same drawn units. The macro mean
of a resample is the mean over the labels defined on the full data; a resample
in which one of them is undefined is left out (counted in ``n_excluded``), so
that every replicate averages the same labels as the estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError
from accord.inference.bootstrap import (
    Bootstrap,
    draw_weights,
    interval_from_replicates,
    unit_patterns,
)
from accord.inference.resampling import Resampling, pattern_index
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = ["macro_interval"]

FloatArray = NDArray[np.float64]
_CELLS_PER_CHUNK = 4_000_000


def macro_interval(results: Sequence[AgreementResult], estimate: float, level: float,
                   boot: Bootstrap) -> ConfidenceInterval:
    """The unit-bootstrap interval of the mean of the defined ``results``."""
    label = f"bootstrap-{boot.kind}"
    defined = [r for r in results if r.defined]
    if not defined or not math.isfinite(estimate):
        return ConfidenceInterval(math.nan, math.nan, level, label)
    parts = [_resampling(r) for r in defined]
    per_unit = [p.unit_patterns for p in parts if p.unit_patterns is not None]
    if len(per_unit) != len(parts) or len({u.shape[0] for u in per_unit}) != 1:
        raise DataError("multilabel_agreement: the per-label coefficients are not computed "
                        "on the same units, so the labels cannot be resampled together.")
    joint = np.column_stack(per_unit)
    rows, counts, _ = pattern_index(joint)
    blocks = [p.features[rows[:, j]] for j, p in enumerate(parts)]
    features = np.concatenate(blocks, axis=1)
    edges = np.cumsum([0, *(b.shape[1] for b in blocks)])
    stats = [p.statistic for p in parts]

    def statistic(s: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            each = np.column_stack([np.asarray(f(s[:, a:b]), dtype=np.float64)
                                    for f, a, b in zip(stats, edges[:-1], edges[1:])])
        return np.asarray(each.mean(axis=1), dtype=np.float64)  # nan if any label is

    joint_resampling = Resampling(features, counts, statistic)
    reps = _replicates(joint_resampling, boot)
    finite = reps[np.isfinite(reps)]
    low, high = interval_from_replicates(joint_resampling, estimate, finite, level, boot.kind)
    lo = max(r.bounds[0] for r in defined)
    hi = min(r.bounds[1] for r in defined)
    return ConfidenceInterval(float(np.clip(low, lo, hi)), float(np.clip(high, lo, hi)), level,
                              label, int(reps.size - finite.size), finite)


def _resampling(res: AgreementResult) -> Resampling:
    if res.resampling is None:
        raise DataError(f"multilabel_agreement: {res.coefficient} has no unit resampling, so "
                        "the macro mean has no bootstrap interval.")
    out: Resampling = res.resampling()
    return out


def _replicates(resampling: Resampling, boot: Bootstrap) -> FloatArray:
    rng = boot.generator()
    units: Any = unit_patterns(resampling.counts)
    n = resampling.n_units if units is not None else 0
    m, p = resampling.features.shape
    step = max(1, _CELLS_PER_CHUNK // max(1, m, p, n))
    out = np.empty(boot.n_resamples, dtype=np.float64)
    from scipy.sparse import csr_matrix

    sparse_t = csr_matrix(resampling.features.T)  # the labels' blocks are mostly zeros
    for start in range(0, boot.n_resamples, step):
        stop = min(boot.n_resamples, start + step)
        weights = draw_weights(resampling.counts, stop - start, rng, units=units)
        sums = np.asarray(sparse_t @ weights.T.astype(np.float64)).T
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out[start:stop] = resampling.statistic(sums)
        if boot.progress is not None:
            boot.progress(stop, boot.n_resamples)
    return out
