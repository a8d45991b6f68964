"""Bootstrap intervals of many figures of one result from one draw of the images.

Every figure of :func:`accord.box_agreement` is a statistic of per image features, each
image its own pattern in image order (:func:`accord.images._figures.figure` with
``by_image``). A bootstrap resample is a weight per image (how often it was drawn), and
every figure of that resample is its statistic of ``weights @ features``. So the images
are drawn once per chunk of resamples, the features of all figures stacked side by side
are summed in one matrix product, and each figure reads its own columns (Efron &
Tibshirani 1993, ch. 6, on the sufficient statistic).

The draws are those of :func:`accord.inference.bootstrap.draw_weights` over the images in
order, which is what each figure's own ``confidence_interval(method=Bootstrap(...))``
draws from an int seed: the intervals are the same as figure by figure (up to the
rounding of a sum of IoUs taken in a wider product), at the cost of one draw instead of
one per figure. With a ``numpy.random.Generator`` the one draw advances it once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from accord.inference.bootstrap import (
    Bootstrap,
    chunk_size,
    draw_weights,
    interval_from_replicates,
)
from accord.inference.finite_population import shrink
from accord.inference.resampling import FloatArray, Resampling
from accord.inference.results import AgreementResult, ConfidenceInterval


def intervals(
    results: Sequence[AgreementResult], confidence_level: float, method: Bootstrap
) -> list[ConfidenceInterval]:
    """The bootstrap interval of each result, all from the same resamples of the images.

    The results must resample the same images in the same order, each image once (as
    every figure of a :class:`~accord.images.BoxAgreement` does); otherwise each is
    computed on its own.
    """
    kind = f"bootstrap-{method.kind}"
    out = [ConfidenceInterval(math.nan, math.nan, confidence_level, kind) for _ in results]
    plans = {k: r.resampling() for k, r in enumerate(results)
             if r.defined and r.resampling is not None}  # fmt: skip
    live = list(plans)
    if not _shared(list(plans.values())):
        return [r.confidence_interval(confidence_level, method=method) for r in results]
    reps = _replicates([plans[k] for k in live], method)
    for row, k in enumerate(live):
        out[k] = _interval(results[k], plans[k], reps[row], confidence_level, method)
    return out


def _shared(plans: list[Resampling]) -> bool:
    """Whether every plan resamples the same units, each its own pattern, in unit order."""
    if not plans:
        return True
    n, ids = plans[0].features.shape[0], plans[0].unit_ids
    return all(
        p.features.shape[0] == n and p.unit_ids == ids and bool(np.all(p.counts == 1))
        and p.unit_patterns is not None and np.array_equal(p.unit_patterns, np.arange(n))
        for p in plans
    )  # fmt: skip


def _replicates(plans: list[Resampling], method: Bootstrap) -> FloatArray:
    """Each plan's statistic on each resample, shape ``(plans, n_resamples)``."""
    n = plans[0].features.shape[0]
    features = np.concatenate([p.features for p in plans], axis=1)
    edges = np.cumsum([0, *(p.features.shape[1] for p in plans)])
    b_total, rng = method.n_resamples, method.generator()
    ones, units = np.ones(n, dtype=np.int64), np.arange(n, dtype=np.int64)
    step = chunk_size(Resampling(features, ones, plans[0].statistic))
    out = np.empty((len(plans), b_total))
    for start in range(0, b_total, step):
        stop = min(b_total, start + step)
        weights = draw_weights(ones, stop - start, rng, units=units)
        sums = np.asarray(weights, dtype=np.float64) @ features
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            for row, p in enumerate(plans):
                out[row, start:stop] = p.statistic(sums[:, edges[row] : edges[row + 1]])
        if method.progress is not None:
            method.progress(stop, b_total)
    return out


def _interval(
    res: AgreementResult, plan: Resampling, replicates: FloatArray, level: float,
    method: Bootstrap,
) -> ConfidenceInterval:  # fmt: skip
    """As ``res.confidence_interval(level, method=method)`` from these replicates."""
    finite = replicates[np.isfinite(replicates)]
    low, high = interval_from_replicates(plan, res.estimate, finite, level, method.kind)
    low, high = shrink(res.estimate, low, high, 1.0)
    lo, hi = res.bounds
    return ConfidenceInterval(float(np.clip(low, lo, hi)), float(np.clip(high, lo, hi)), level,
                              f"bootstrap-{method.kind}", int(replicates.size - finite.size),
                              finite)  # fmt: skip
