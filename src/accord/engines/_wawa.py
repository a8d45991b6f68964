"""Wawa inside the engine: votes weighted by each rater's agreement with the majority.

The method of :func:`accord.consensus` (``method="wawa"``; ``_wawa`` in
:mod:`accord.annotators.consensus`): a unit's majority label is its vote
shares' single top category (a unit whose top is tied has none and does not
count); a rater's skill is the share of their ratings, on units with a
majority label, that name it; the posterior is each class's skill-weighted
votes over all the unit's weights, or the plain vote shares where every weight
is 0. Two queries: the majority label per unit joined back to the ratings and
summed per (rater, label) key (collected: one row per key), then the weighted
votes per unit (lazy, collected once with the other methods' posteriors).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.annotators._crowd import wsum
from accord.engines import _frame as fr
from accord.engines._crowd import EngineCrowd, FloatArray, K, N, col, floats, push, votes

#: Engine-internal columns: a unit's top share, its majority label, a key's weight.
_TOP, _MAJORITY, _W = "__accord_top", "__accord_majority", "__accord_w"


def wawa(crowd: EngineCrowd) -> tuple[Any, FloatArray, list[Any]]:
    """The lazy per-unit posterior (``U``, ``N``, ``p0..``), each rater's skill, and the
    raters who rated only units whose majority is tied (weight 0 for want of a label)."""
    hits, counted = _agreement(crowd)
    skill = hits / np.maximum(counted, 1)
    # every rater of an engine crowd gave a rating (raters are read from the ratings)
    unweighed = [crowd.raters[int(i)] for i in np.flatnonzero(counted == 0)]
    return _weighted(crowd, skill), skill, unweighed


def _majority(crowd: EngineCrowd) -> Any:
    """Lazy ``(U, majority)``: the code of the unit's single top vote share, else -1."""
    import narwhals as nw

    k = crowd.k
    p, t = [col("p", c) for c in range(k)], [col("t", c) for c in range(k)]
    top = votes(crowd).with_columns(nw.max_horizontal(*p).alias(_TOP))
    flags = top.with_columns(*((nw.col(p[c]) == nw.col(_TOP)).cast(nw.Int64()).alias(t[c])
                               for c in range(k)))
    code = nw.sum_horizontal(*(nw.col(t[c]) * c for c in range(k)))
    single = (nw.sum_horizontal(*t) == 1).cast(nw.Int64())
    # arithmetic, not when/then: Dask's when cannot take a condition built from the columns
    return flags.select(fr.U, (single * (code + 1) - 1).alias(_MAJORITY))


def _agreement(crowd: EngineCrowd) -> tuple[FloatArray, FloatArray]:
    """Per rater: ratings naming their unit's majority label, and ratings on units with one."""
    import narwhals as nw

    k, r = crowd.k, crowd.n_raters
    marked = crowd.ratings.join(_majority(crowd), on=fr.U, how="inner").select(
        K, (nw.col(K) % k == nw.col(_MAJORITY)).cast(nw.Float64()).alias("hits"),
        (nw.col(_MAJORITY) >= 0).cast(nw.Float64()).alias("counted"))
    df = fr.collect(marked.group_by(K).agg(nw.col("hits").sum(), nw.col("counted").sum()))
    rater = fr.column(df, K) // k
    return wsum(rater, floats(df, "hits"), r), wsum(rater, floats(df, "counted"), r)


def _weighted(crowd: EngineCrowd, skill: FloatArray) -> Any:
    """Lazy per-unit posterior: the skill-weighted votes over the unit's total weight, or
    the vote shares where that total is 0 (every weight is >= 0, so every class's too)."""
    import narwhals as nw

    k, keys = crowd.k, crowd.keys
    v, w = [col("v", c) for c in range(k)], [col("w", c) for c in range(k)]
    label = nw.col(K) % k
    table = push(crowd.ratings, {K: keys, _W: skill[keys // k]})
    per_unit = crowd.ratings.join(table, on=K, how="inner").with_columns(
        *((label == c).cast(nw.Float64()).alias(v[c]) for c in range(k)),
        *(((label == c).cast(nw.Float64()) * nw.col(_W)).alias(w[c]) for c in range(k)),
    ).group_by(fr.U).agg(nw.len().alias(N), *(nw.col(x).sum() for x in (*v, *w)))
    total = per_unit.with_columns(nw.sum_horizontal(*w).alias(_W))
    # where the total weight is 0, add the votes and their count: no division by 0 in
    # any engine (Spark's ANSI mode raises on one), exact arithmetic elsewhere
    zero = (nw.col(_W) == 0).cast(nw.Float64())
    return total.select(fr.U, N, *(((nw.col(w[c]) + zero * nw.col(v[c]))
                                    / (nw.col(_W) + zero * nw.col(N))).alias(col("p", c))
                                   for c in range(k)))
