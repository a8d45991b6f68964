"""Two coefficients on the same units, resampled together.

A paired bootstrap draws units, and each drawn unit brings its rating pattern
under *both* coefficients. Each unit therefore has a joint pattern ``(j_a,
j_b)``; the distinct joint patterns, their counts and the concatenated features
``[f_a(j_a), f_b(j_b)]`` form one :class:`~accord.inference.resampling.Resampling`
whose statistic is ``g_a(S_a) - g_b(S_b)``. The correlation between the two
estimates (the reason a paired comparison is sharper than two separate
intervals) is then kept by construction.

A unit rated under one coefficient only contributes a zero feature vector on
the other side (it is simply absent there), so two results computed on
overlapping but unequal unit sets are compared as reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from accord.errors import DataError
from accord.inference.resampling import FloatArray, IntArray, Resampling


@dataclass(frozen=True)
class PairedResampling:
    """The joint resampling of two coefficients and how their units matched."""

    difference: Resampling
    first: Resampling
    second: Resampling
    n_units: int
    n_shared: int


def align_units(a: Resampling, b: Resampling, names: tuple[str, str]) -> tuple[IntArray, IntArray]:
    """Each unit's pattern under ``a`` and under ``b`` (``-1`` where a unit is absent).

    Units are matched on ``unit_ids``; a result without them (label sequences
    with no missing pair) has units ``0 .. n-1`` by position, as wide arrays do.
    """
    pa, pb = _patterns(a, names[0]), _patterns(b, names[1])
    ida, idb = a.unit_ids, b.unit_ids
    if ida is None and idb is None:
        if pa.shape[0] != pb.shape[0]:
            raise DataError(
                f"{names[0]} has {pa.shape[0]} units and {names[1]} has {pb.shape[0]}, and "
                "neither has unit labels to match them; pass data with a unit column."
            )
        return pa, pb
    ida = tuple(range(pa.shape[0])) if ida is None else ida
    idb = tuple(range(pb.shape[0])) if idb is None else idb
    if ida == idb:
        return pa, pb
    return _match_ids(ida, idb, pa, pb, names)


def _patterns(r: Resampling, name: str) -> IntArray:
    if r.unit_patterns is None:
        raise DataError(
            f"{name} was computed from a summary without units (e.g. a contingency "
            "table), so it cannot be paired unit by unit; compute it from the ratings."
        )
    return r.unit_patterns


def _match_ids(
    ida: Sequence[object], idb: Sequence[object], pa: IntArray, pb: IntArray,
    names: tuple[str, str],
) -> tuple[IntArray, IntArray]:
    """Patterns over the union of two labelled unit sets (first's order, then the rest)."""
    index = {u: i for i, u in enumerate(ida)}
    pos_b = np.fromiter((index.get(u, -1) for u in idb), dtype=np.int64, count=len(idb))
    shared = pos_b >= 0
    if not shared.any():
        raise DataError(
            f"{names[0]} and {names[1]} share no unit, so there is nothing to pair; a paired "
            "comparison needs the same units rated under both."
        )
    n_only_b = int((~shared).sum())
    joint_a = np.concatenate([pa, np.full(n_only_b, -1, dtype=np.int64)])
    joint_b = np.full(pa.shape[0] + n_only_b, -1, dtype=np.int64)
    joint_b[pos_b[shared]] = pb[shared]
    joint_b[pa.shape[0]:] = pb[~shared]
    return joint_a, joint_b


def paired_resampling(
    a: Resampling, b: Resampling, names: tuple[str, str] = ("the first result", "the second")
) -> PairedResampling:
    """The joint resampling whose statistic is ``a - b`` (and each side's on its own)."""
    pa, pb = align_units(a, b, names)
    mb = b.features.shape[0] + 1
    key = (pa + 1) * mb + (pb + 1)
    uniq, first_unit, counts = np.unique(key, return_index=True, return_counts=True)
    order = np.argsort(first_unit)  # patterns in unit order: the same whichever side is first
    uniq, counts = uniq[order], counts[order]
    ja, jb = uniq // mb - 1, uniq % mb - 1
    fa = _with_absent(a.features)[ja + 1]
    fb = _with_absent(b.features)[jb + 1]
    split = fa.shape[1]
    stat_a, stat_b = a.statistic, b.statistic

    def difference(s: FloatArray) -> FloatArray:
        return stat_a(s[:, :split]) - stat_b(s[:, split:])

    def first(s: FloatArray) -> FloatArray:
        return stat_a(s[:, :split])

    def second(s: FloatArray) -> FloatArray:
        return stat_b(s[:, split:])

    feats = np.hstack([fa, fb])
    cnt = counts.astype(np.int64)
    make = [Resampling(feats, cnt, f) for f in (difference, first, second)]
    n_shared = int(np.sum((pa >= 0) & (pb >= 0)))
    return PairedResampling(make[0], make[1], make[2], int(pa.shape[0]), n_shared)


def _with_absent(features: FloatArray) -> FloatArray:
    """The features with a zero row in front, for units absent on this side."""
    return np.vstack([np.zeros((1, features.shape[1])), features])
