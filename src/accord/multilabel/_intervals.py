"""Intervals for :class:`~accord.MultilabelEvaluation`, from per-unit label-indicator counts.

A unit's contribution to every figure is a function of its pair of label-indicator
rows ``(T_u, P_u)``: per label ``tp``, ``fp``, ``fn`` (0 or 1), whether the sets are
equal, how many labels differ and the unit's samples-average ratios. Units with
the same pair share one feature row (``np.unique`` on the packed bits), so one
bootstrap over units is a multinomial draw over the distinct pairs followed by
one matrix product; every figure is then evaluated on the same resampled sums.

Wilson's (1927) interval is used for the figures that are proportions of
independent units: subset accuracy (equal sets among the units) and, per label,
precision and recall (``tp`` among the units predicted, or truly holding, the
label). Micro precision and recall, Hamming loss and everything else count
(unit, label) cells, which are not independent within a unit: they get the unit
bootstrap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.inference.bootstrap import (
    Bootstrap,
    draw_weights,
    interval_from_replicates,
    unit_patterns,
)
from accord.inference.resampling import Resampling
from accord.inference.results import ConfidenceInterval

__all__ = ["UnitFeatures", "intervals", "unit_features"]

FloatArray = NDArray[np.float64]
_KEYS = ("precision", "recall", "f1")
_CELLS_PER_CHUNK = 4_000_000
DEFAULT_BOOTSTRAP = Bootstrap(n_resamples=9999, rng=0)


@dataclass(frozen=True)
class UnitFeatures:
    """Distinct per-unit feature rows and how many units show each.

    Columns: ``tp`` (L), ``fp`` (L), ``fn`` (L), then units, equal sets, differing
    labels, and value/defined pairs of the per-unit precision, recall and F1.
    """

    features: FloatArray
    counts: NDArray[np.int64]
    n_labels: int


def unit_features(t: NDArray[np.bool_], p: NDArray[np.bool_]) -> UnitFeatures:
    """The feature rows of the distinct ``(T_u, P_u)`` pairs (no per-unit Python loop)."""
    n, n_labels = t.shape
    if n == 0:
        return UnitFeatures(np.zeros((0, 3 * n_labels + 9)), np.zeros(0, dtype=np.int64),
                            n_labels)
    packed = np.ascontiguousarray(np.concatenate([np.packbits(t, axis=1),
                                                  np.packbits(p, axis=1)], axis=1))
    rows = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()  # one key per unit
    _, first, counts = np.unique(rows, return_index=True, return_counts=True)
    ts, ps = t[first], p[first]
    inter = (ts & ps).sum(axis=1).astype(np.float64)
    n_t = ts.sum(axis=1).astype(np.float64)
    n_p = ps.sum(axis=1).astype(np.float64)
    cols = [(ts & ps), (~ts & ps), (ts & ~ps)]
    extra = [np.ones(len(first)), (ts == ps).all(axis=1), (ts != ps).sum(axis=1)]
    for num, den in ((inter, n_p), (inter, n_t), (2.0 * inter, n_t + n_p)):
        with np.errstate(divide="ignore", invalid="ignore"):
            extra += [np.where(den > 0, num / den, 0.0), den > 0]
    features = np.column_stack([*(c.astype(np.float64) for c in cols),
                                *(np.asarray(x, dtype=np.float64) for x in extra)])
    return UnitFeatures(features, counts.astype(np.int64), n_labels)


# --------------------------------------------------------------------- statistics
def _div(a: FloatArray, b: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan), dtype=np.float64)


def _per_label(s: FloatArray, n_labels: int) -> tuple[FloatArray, ...]:
    tp, fp, fn = (s[:, i * n_labels:(i + 1) * n_labels] for i in range(3))
    return _div(tp, tp + fp), _div(tp, tp + fn), _div(2.0 * tp, 2.0 * tp + fp + fn), tp + fn


def _nanmean(x: FloatArray, w: FloatArray | None = None) -> FloatArray:
    ok = ~np.isnan(x)
    count = ok.sum(axis=1)
    plain = _div(np.where(ok, x, 0.0).sum(axis=1), count.astype(np.float64))
    if w is None:
        return plain
    ww = np.where(ok, w, 0.0)
    total = ww.sum(axis=1)
    weighted = _div((np.where(ok, x, 0.0) * ww).sum(axis=1), total)
    # scikit-learn's _nanaverage: defined values that all weigh 0 give their plain mean
    return np.asarray(np.where(total > 0, weighted, plain), dtype=np.float64)


def _label_stat(s: FloatArray, n_labels: int, i: int, j: int) -> FloatArray:
    return _per_label(s, n_labels)[i][:, j]


def _micro_stat(s: FloatArray, n_labels: int, i: int) -> FloatArray:
    summed = np.column_stack([s[:, k * n_labels:(k + 1) * n_labels].sum(axis=1)
                              for k in range(3)])
    return _per_label(summed, 1)[i][:, 0]


def _macro_stat(s: FloatArray, n_labels: int, i: int) -> FloatArray:
    return _nanmean(_per_label(s, n_labels)[i])


def _weighted_stat(s: FloatArray, n_labels: int, i: int) -> FloatArray:
    parts = _per_label(s, n_labels)
    return _nanmean(parts[i], parts[3])


def _ratio_stat(s: FloatArray, num: int, den: int, scale: float) -> FloatArray:
    return _div(s[:, num], s[:, den] * scale)


def statistics(n_labels: int, labels: tuple[Any, ...]) -> dict[str, Callable[[FloatArray],
                                                                          FloatArray]]:
    """Every figure of the evaluation as a function of summed feature rows ``(B, p)``."""
    base = 3 * n_labels
    out: dict[str, Callable[[FloatArray], FloatArray]] = {}
    for j, label in enumerate(labels):
        for i, key in enumerate(_KEYS):
            out[f"per_label.{label}.{key}"] = partial(_label_stat, n_labels=n_labels, i=i, j=j)
    for i, key in enumerate(_KEYS):
        out[f"micro.{key}"] = partial(_micro_stat, n_labels=n_labels, i=i)
        out[f"macro.{key}"] = partial(_macro_stat, n_labels=n_labels, i=i)
        out[f"weighted.{key}"] = partial(_weighted_stat, n_labels=n_labels, i=i)
        out[f"samples.{key}"] = partial(_ratio_stat, num=base + 3 + 2 * i,
                                        den=base + 4 + 2 * i, scale=1.0)
    out["hamming_loss"] = partial(_ratio_stat, num=base + 2, den=base, scale=float(n_labels))
    out["subset_accuracy"] = partial(_ratio_stat, num=base + 1, den=base, scale=1.0)
    return out


def wilson_counts(uf: UnitFeatures) -> dict[str, tuple[float, float]]:
    """``(successes, trials)`` of the figures that are proportions of independent units."""
    total = uf.counts.astype(np.float64) @ uf.features
    n_labels = uf.n_labels
    tp, fp, fn = (total[i * n_labels:(i + 1) * n_labels] for i in range(3))
    base = 3 * n_labels
    out = {"subset_accuracy": (float(total[base + 1]), float(total[base]))}
    for j in range(n_labels):
        out[f"{j}.precision"] = (float(tp[j]), float(tp[j] + fp[j]))
        out[f"{j}.recall"] = (float(tp[j]), float(tp[j] + fn[j]))
    return out


# --------------------------------------------------------------------- intervals
def intervals(uf: UnitFeatures, labels: tuple[Any, ...], estimates: dict[str, float],
              level: float, method: Bootstrap | None) -> dict[str, ConfidenceInterval]:
    """Wilson for unit proportions (when ``method`` is None), a shared unit bootstrap else."""
    from accord.coefficients._classification_core import wilson

    stats = statistics(uf.n_labels, labels)
    out: dict[str, ConfidenceInterval] = {}
    if method is None:
        counts = wilson_counts(uf)
        index = {str(label): j for j, label in enumerate(labels)}
        for key in stats:
            ref = key if key == "subset_accuracy" else _wilson_key(key, index)
            if ref is not None and counts[ref][1] > 0:
                low, high = wilson(*counts[ref], level)
                out[key] = ConfidenceInterval(low, high, level, "wilson")
    boot = method or DEFAULT_BOOTSTRAP
    rest = [k for k in stats if k not in out]
    sums = _resampled_sums(uf, boot) if rest and uf.counts.size else None
    reps = all_figures(sums, uf.n_labels, labels) if sums is not None else {}
    for key in rest:
        out[key] = _from_replicates(uf, stats[key], reps.get(key), estimates[key], level, boot)
    return {k: out[k] for k in stats}


def all_figures(s: FloatArray, n_labels: int, labels: tuple[Any, ...]) -> dict[str, FloatArray]:
    """Every figure on summed feature rows at once (the per-label ratios computed once);
    the same values as :func:`statistics`, figure by figure."""
    base = 3 * n_labels
    parts = _per_label(s, n_labels)
    out: dict[str, FloatArray] = {}
    for j, label in enumerate(labels):
        for i, key in enumerate(_KEYS):
            out[f"per_label.{label}.{key}"] = parts[i][:, j]
    for i, key in enumerate(_KEYS):
        out[f"micro.{key}"] = _micro_stat(s, n_labels, i)
        out[f"macro.{key}"] = _nanmean(parts[i])
        out[f"weighted.{key}"] = _nanmean(parts[i], parts[3])
        out[f"samples.{key}"] = _ratio_stat(s, base + 3 + 2 * i, base + 4 + 2 * i, 1.0)
    out["hamming_loss"] = _ratio_stat(s, base + 2, base, float(n_labels))
    out["subset_accuracy"] = _ratio_stat(s, base + 1, base, 1.0)
    return out


def _wilson_key(key: str, index: dict[str, int]) -> str | None:
    head, _, figure = key.rpartition(".")
    if not head.startswith("per_label.") or figure not in ("precision", "recall"):
        return None
    return f"{index[head[len('per_label.'):]]}.{figure}"


def _resampled_sums(uf: UnitFeatures, boot: Bootstrap) -> FloatArray:
    rng = boot.generator()
    units = unit_patterns(uf.counts)
    n = int(uf.counts.sum()) if units is not None else 0
    step = max(1, _CELLS_PER_CHUNK // max(1, uf.features.shape[0], uf.features.shape[1], n))
    out = np.empty((boot.n_resamples, uf.features.shape[1]))
    # most (pattern, column) features are 0 (a label is rarely in T or P): a sparse
    # product costs the nonzeros, several times less than the dense one
    from scipy.sparse import csr_matrix  # at the first interval: evaluate does not need it

    sparse_t = csr_matrix(uf.features.T)
    for start in range(0, boot.n_resamples, step):
        stop = min(boot.n_resamples, start + step)
        weights = draw_weights(uf.counts, stop - start, rng, units=units)
        out[start:stop] = np.asarray(sparse_t @ weights.T.astype(np.float64)).T
        if boot.progress is not None:
            boot.progress(stop, boot.n_resamples)
    return out


def _from_replicates(uf: UnitFeatures, stat: Callable[[FloatArray], FloatArray],
                     reps: FloatArray | None, estimate: float, level: float,
                     boot: Bootstrap) -> ConfidenceInterval:
    label = f"bootstrap-{boot.kind}"
    if reps is None or not math.isfinite(estimate):
        return ConfidenceInterval(math.nan, math.nan, level, label)
    finite = reps[np.isfinite(reps)]
    resampling = Resampling(uf.features, uf.counts, stat)  # BCa's jackknife uses it
    low, high = interval_from_replicates(resampling, estimate, finite, level, boot.kind)
    return ConfidenceInterval(float(np.clip(low, 0.0, 1.0)), float(np.clip(high, 0.0, 1.0)),
                              level, label, int(reps.size - finite.size), finite)
