"""Per-unit alignment of the judge and of each left-out human with the remaining humans.

Notation after Calderon, Reichart & Dror (2025, sec. 3): for the left-out human
``h`` and unit ``i``, ``S(x, i) = mean over k in H_i \\ {h} of sim(x_i, y_ik)``
with ``sim`` equality (accuracy), the squared difference (negative RMSE: the
score is ``-sqrt(mean)``), the absolute difference (``-mean``), or a function the
user passes. Computed for all units at once, one left-out human at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.judge._panel import Panel, labels, numeric

Similarity = Callable[[Any, Any], Any]
Scoring = Literal["accuracy", "neg_rmse", "abs_error"] | Similarity
SCORINGS: tuple[str, ...] = ("accuracy", "neg_rmse", "abs_error")


def scoring_name(scoring: Any, func: str) -> str:
    """The scoring's name: one of :data:`SCORINGS` or the callable's ``__name__``."""
    if callable(scoring):
        return str(getattr(scoring, "__name__", "custom"))
    return str(v.choice(scoring, SCORINGS, param="scoring", func=func))


def alignment(p: Panel, scoring: Scoring, func: str) -> tuple[NDArray[np.float64], ...]:
    """Judge scores, human scores and eligibility, each units x humans.

    Column ``h`` holds the scores with human ``h`` left out; ``eligible[:, h]`` marks
    the units rated by the judge, by ``h`` and by at least two humans in all.
    """
    values, pair = _pair_function(p, scoring, func)
    rated = p.rated
    humans = rated[:, 1:]
    eligible = rated[:, :1] & humans & (humans.sum(axis=1) >= 2)[:, None]
    judge_pairs = _masked(pair, values[:, :1], values[:, 1:], humans & rated[:, :1], func)
    m = len(p.humans)
    judge_scores = np.full(humans.shape, np.nan)
    human_scores = np.full(humans.shape, np.nan)
    for h in range(m):
        others = humans.copy()
        others[:, h] = False
        count = others.sum(axis=1)
        rows = eligible[:, h]
        both = others & humans[:, h : h + 1]
        human_pairs = _masked(pair, values[:, 1 + h : 2 + h], values[:, 1:], both, func)
        judge_sum = np.where(others, judge_pairs, 0.0).sum(axis=1)
        judge_scores[rows, h] = _finish(judge_sum[rows] / count[rows], scoring)
        human_scores[rows, h] = _finish(human_pairs.sum(axis=1)[rows] / count[rows], scoring)
    return judge_scores, human_scores, eligible.astype(np.float64)


def _pair_function(p: Panel, scoring: Scoring, func: str) -> tuple[NDArray[Any], Similarity]:
    if callable(scoring):
        return labels(p), scoring
    if scoring == "accuracy":
        return p.codes, _equal
    values = numeric(p, func)
    return values, _squared if scoring == "neg_rmse" else _absolute


def _masked(pair: Similarity, a: NDArray[Any], b: NDArray[Any], mask: NDArray[np.bool_],
            func: str) -> NDArray[np.float64]:
    """Similarities of the pairs where both rated (the function never sees a gap), 0 elsewhere."""
    if pair in _BUILTIN:  # safe on gaps: compute everywhere, keep the rated pairs
        with np.errstate(invalid="ignore"):
            return np.where(mask, pair(a, b), 0.0)
    out = np.zeros(mask.shape)
    if not mask.any():
        return out
    left = np.broadcast_to(a, mask.shape)[mask]
    got = pair(left, b[mask])
    try:
        values = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        raise v.fail("scoring", func, "a function of two arrays returning a number per element",
                     type(got).__name__) from None
    if values.shape != left.shape:
        raise v.fail("scoring", func, "an elementwise function (one number per pair of labels)",
                     f"an output of shape {values.shape} for inputs of shape {left.shape}")
    out[mask] = values
    return out


def _finish(mean: NDArray[np.float64], scoring: Scoring) -> NDArray[np.float64]:
    if scoring == "neg_rmse":
        return -np.sqrt(mean)
    if scoring == "abs_error":
        return -mean
    return mean


def _equal(a: NDArray[Any], b: NDArray[Any]) -> NDArray[np.float64]:
    return (a == b).astype(np.float64)


def _squared(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray((a - b) ** 2, dtype=np.float64)


def _absolute(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(np.abs(a - b), dtype=np.float64)


_BUILTIN = (_equal, _squared, _absolute)
