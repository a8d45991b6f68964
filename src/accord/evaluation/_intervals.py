"""Intervals for every figure of an :class:`~accord.evaluation.Evaluation` at once.

Proportions get Wilson's interval; the other figures share one multinomial
bootstrap draw over the k x k cells: each resample's summed features
``[n, n_cc, n_c+, n_+c]`` are computed once and every figure is evaluated on them,
so the cost is one draw plus O(k) per figure and resample.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from accord.coefficients import _classification_core as cl
from accord.data import _validation as v
from accord.errors import InvalidParameterError
from accord.inference.bootstrap import (
    Bootstrap,
    draw_weights,
    interval_from_replicates,
    unit_patterns,
)
from accord.inference.results import AgreementResult, ConfidenceInterval

if TYPE_CHECKING:
    from accord.evaluation._result import Evaluation

_CELLS_PER_CHUNK = 4_000_000
#: The bootstrap of an evaluation's intervals unless another is given.
DEFAULT_BOOTSTRAP = Bootstrap(n_resamples=9999, rng=0)


def intervals(
    ev: Evaluation, level: float, method: Bootstrap | str | None,
    bootstrap: Bootstrap | None = None,
) -> dict[str, ConfidenceInterval]:
    """See :meth:`Evaluation.intervals`."""
    level = v.confidence_level(level, func="Evaluation.intervals")
    figures = ev.results()
    if isinstance(method, str):
        v.choice(method, ("asymptotic", "jackknife"), param="method", func="Evaluation.intervals")
        return {k: _own(r, level, method) for k, r in figures.items()}
    if method is not None and not isinstance(method, Bootstrap):
        raise v.fail("method", "Evaluation.intervals",
                     "None, 'asymptotic', 'jackknife' or an accord.Bootstrap(...)", method)
    boot = (bootstrap or DEFAULT_BOOTSTRAP) if method is None else method
    if method is None and _too_costly(ev, boot):
        # thousands of classes: the default falls back to each figure's own interval
        # (Wilson, or normal with the jackknife SE); ask for a Bootstrap explicitly
        return {k: _own(r, level, "asymptotic") for k, r in figures.items()}
    out: dict[str, ConfidenceInterval] = {}
    shared: dict[str, tuple[AgreementResult, Any]] = {}
    k = ev.table.k
    for key, res in figures.items():
        wilson = method is None and res.details.get("ci_method") == "wilson"
        # unweighted kappa is a function of the same sums; its own resampling has the
        # same cells in the same order, so the replicates are the same as its own bootstrap
        plain_kappa = key == "kappa" and res.details.get("weights") == "identity"
        if wilson or not res.defined or res.resampling is None or (
                key == "kappa" and not plain_kappa):
            out[key] = _own(res, level, "asymptotic" if wilson else boot)
        elif plain_kappa:
            shared[key] = (res, lambda s: cl.kappa_stat(s, k))
        else:
            shared[key] = (res, None)
    if shared:
        out.update(_shared_bootstrap(ev, shared, level, boot))
    return {k: out[k] for k in figures}


DEFAULT_DRAW_BUDGET = 400_000_000
#: ... or hold more than 10^7 resampled sums (``n_resamples x (1 + 3k)``, 80 MB, and each
#: averaged figure a few arrays of ``n_resamples x k``): one class per unit at 1,000
#: classes held 630 MB and took 20 s.
DEFAULT_SUMS_BUDGET = 10_000_000


def _too_costly(ev: Evaluation, boot: Bootstrap) -> bool:
    """Whether the default bootstrap would draw more than ~4 * 10^8 numbers or hold more
    than 10^7 resampled sums."""
    cells = int(np.count_nonzero(ev.table.counts)) if not ev.table.is_sparse else ev.table.k
    per_resample = min(cells, int(ev.table.n)) if ev.table.n > 0 else 0
    return (boot.n_resamples * per_resample > DEFAULT_DRAW_BUDGET
            or boot.n_resamples * (1 + 3 * ev.table.k) > DEFAULT_SUMS_BUDGET)


def _own(res: AgreementResult, level: float, method: Any) -> ConfidenceInterval:
    """The result's own interval; no interval (nan limits) where the method has none for
    it (no SE: every leave-one-out value undefined, or proportions without units)."""
    label = method if isinstance(method, str) else f"bootstrap-{method.kind}"
    try:
        return res.confidence_interval(level, method=method)
    except InvalidParameterError:
        return ConfidenceInterval(math.nan, math.nan, level, label)


def _shared_bootstrap(
    ev: Evaluation, figures: dict[str, tuple[AgreementResult, Any]], level: float,
    boot: Bootstrap,
) -> dict[str, ConfidenceInterval]:
    cells = cl.Cells.of(ev.table)
    assert cells.features is not None and cells.counts is not None  # noqa: S101
    sums = _resampled_sums(cells.features, cells.counts, boot)
    out = {}
    for key, (res, stat) in figures.items():
        resampling = res.resampling() if res.resampling is not None else None
        assert resampling is not None  # noqa: S101 (filtered by the caller)
        statistic = resampling.statistic if stat is None else stat
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            reps = np.asarray(statistic(sums), dtype=np.float64)
        finite = reps[np.isfinite(reps)]
        low, high = interval_from_replicates(resampling, res.estimate, finite, level, boot.kind)
        lo, hi = res.bounds
        out[key] = ConfidenceInterval(float(np.clip(low, lo, hi)), float(np.clip(high, lo, hi)),
                                      level, f"bootstrap-{boot.kind}",
                                      int(reps.size - finite.size), finite)
    return out


def _resampled_sums(features: Any, counts: Any, boot: Bootstrap) -> Any:
    """Summed features of every resample, shape ``(n_resamples, 1 + 3k)``, drawn in chunks."""
    rng = boot.generator()
    units = unit_patterns(counts)
    n = int(counts.sum()) if units is not None else 0
    step = max(1, _CELLS_PER_CHUNK // max(1, features.shape[0], n))
    out = np.empty((boot.n_resamples, features.shape[1]))
    for start in range(0, boot.n_resamples, step):
        stop = min(boot.n_resamples, start + step)
        weights = draw_weights(counts, stop - start, rng, units=units)
        out[start:stop] = weights.astype(np.float64) @ features
        if boot.progress is not None:
            boot.progress(stop, boot.n_resamples)
    return out
