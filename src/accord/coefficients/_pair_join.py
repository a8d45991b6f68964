"""Rater pairs from a sparse join on units: shared units and per-pair contingency tables.

The ratings, sorted by unit, are joined with themselves within each unit: a unit
rated by ``m`` raters gives the ``m (m - 1) / 2`` pairs of ratings ``(i, i + k)``,
``k = 1 .. m - 1``. They are enumerated ``k`` by ``k`` over the ratings that still
have a ``k``-th successor in their unit (so the work is the number of within-unit
pairs, however uneven the units), in chunks of at most :data:`CHUNK` pairs, and
keyed ``(rater_a, rater_b)`` with ``rater_a < rater_b`` (then ``(code_a, code_b)``
for the tables). Keys are counted by one ``np.bincount`` over the key range when
that range is small next to the ratings (``raters^2 <= max(2^22, 2 x ratings)``),
else by ``np.unique`` per chunk, merged as they accumulate. Memory is
O(ratings + chunk + distinct keys), never units x raters.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError

IntArray = NDArray[np.int64]

CHUNK = 1 << 22  # pairs of ratings per step
_DENSE_MIN = 1 << 22  # a key range this small is always counted densely
_MAX_CELLS = 1 << 27  # pairs x q^2 table cells held at once (1 GiB of int64)


def within_unit_pairs(units: IntArray, n_units: int) -> int:
    """How many pairs of ratings share a unit: ``sum_u m_u (m_u - 1) / 2``."""
    m = np.bincount(units, minlength=n_units).astype(np.int64)
    return int(np.sum(m * (m - 1) // 2))


def _position_pairs(units: IntArray, n_units: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Positions ``(i, j)``, ``i < j``, of every two ratings of one unit (``units`` sorted)."""
    n = units.shape[0]
    if n == 0:
        return
    sizes = np.bincount(units, minlength=n_units)
    starts = np.cumsum(sizes) - sizes
    remaining = sizes[units] - (np.arange(n, dtype=np.int64) - starts[units]) - 1
    active = np.flatnonzero(remaining >= 1)
    k = 1
    while active.size:
        for s in range(0, active.size, CHUNK):
            i = active[s:s + CHUNK]
            yield i, i + k
        k += 1
        active = active[remaining[active] >= k]


class _KeyCounter:
    """Counts of non-negative integer keys below ``size``, dense or by sorting."""

    def __init__(self, size: int, n_ratings: int) -> None:
        self.size = size
        self.dense = size <= max(_DENSE_MIN, 2 * n_ratings)
        self.counts: IntArray | None = None
        self.parts: list[tuple[IntArray, IntArray]] = []
        self.held = 0

    def add(self, keys: IntArray) -> None:
        if keys.size == 0:
            return
        if self.dense:
            c = np.bincount(keys, minlength=self.size)
            if self.counts is None:
                self.counts = c
            else:
                self.counts += c
            return
        k, c = np.unique(keys, return_counts=True)
        self.parts.append((k, c.astype(np.int64)))
        self.held += k.size
        if len(self.parts) > 1 and self.held > 4 * CHUNK:
            self.parts = [self._merged()]
            self.held = self.parts[0][0].size

    def _merged(self) -> tuple[IntArray, IntArray]:
        keys = np.concatenate([k for k, _ in self.parts])
        counts = np.concatenate([c for _, c in self.parts])
        uniq, inverse = np.unique(keys, return_inverse=True)
        return uniq, np.bincount(inverse, weights=counts, minlength=uniq.size).astype(np.int64)

    def result(self) -> tuple[IntArray, IntArray]:
        """The keys that occur (sorted) and their counts."""
        if self.dense:
            if self.counts is None:
                return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
            keys = np.flatnonzero(self.counts)
            return keys, self.counts[keys]
        if not self.parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return self._merged() if len(self.parts) > 1 else self.parts[0]


def shared_units(units: IntArray, raters: IntArray, n_units: int,
                 n_raters: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every pair of raters that shares a unit: ``(rater_a, rater_b, n)``, ``a < b``.

    ``units`` must be sorted; the pairs come in the order of ``(a, b)``.
    """
    counter = _KeyCounter(n_raters * n_raters, units.shape[0])
    for i, j in _position_pairs(units, n_units):
        a, b = raters[i], raters[j]
        counter.add(np.minimum(a, b) * n_raters + np.maximum(a, b))
    keys, n = counter.result()
    return keys // n_raters, keys % n_raters, n


def pair_tables(units: IntArray, raters: IntArray, values: IntArray, n_units: int,
                n_raters: int, q: int, pair_a: IntArray, pair_b: IntArray) -> IntArray:
    """The ``(P, q, q)`` contingency tables of the given pairs (``pair_a < pair_b``, in
    ``(a, b)`` order) on the units both raters rated; rows are rater ``a``.

    Only the ratings of raters in the pairs take part in the join.
    """
    n_pairs = pair_a.shape[0]
    cells = n_pairs * q * q
    if cells > _MAX_CELLS:
        raise DataError(
            f"the contingency tables of {n_pairs:,} rater pairs x {q} x {q} categories would "
            f"take {cells * 8 / 2**30:.1f} GiB; ask for fewer pairs (a larger min_shared)."
        )
    out = np.zeros(cells, dtype=np.int64)
    if n_pairs == 0:
        return out.reshape(0, q, q)
    involved = np.zeros(n_raters, dtype=bool)
    involved[pair_a] = involved[pair_b] = True
    if not involved.all():
        keep = involved[raters]
        units, raters, values = units[keep], raters[keep], values[keep]
    wanted = pair_a * n_raters + pair_b  # sorted
    dense = n_raters * n_raters <= max(_DENSE_MIN, 2 * units.shape[0])
    lut = None
    if dense:
        lut = np.full(n_raters * n_raters, -1, dtype=np.int64)
        lut[wanted] = np.arange(n_pairs)
    for i, j in _position_pairs(units, n_units):
        a, b, ca, cb = raters[i], raters[j], values[i], values[j]
        swap = a > b
        key = np.where(swap, b, a) * n_raters + np.where(swap, a, b)
        if lut is not None:
            idx = lut[key]
        else:
            pos = np.minimum(np.searchsorted(wanted, key), n_pairs - 1)
            idx = np.where(wanted[pos] == key, pos, -1)
        ok = idx >= 0
        first = np.where(swap, cb, ca)[ok]
        second = np.where(swap, ca, cb)[ok]
        _count_into(out, (idx[ok] * q + first) * q + second)
    return out.reshape(n_pairs, q, q)


def _count_into(out: IntArray, keys: IntArray) -> None:
    """``out[k] += number of times k occurs in keys``, without a full-size array per call
    when ``out`` is large next to ``keys``."""
    if out.shape[0] <= 4 * max(keys.shape[0], 1 << 16):
        out += np.bincount(keys, minlength=out.shape[0])
    else:
        k, c = np.unique(keys, return_counts=True)
        out[k] += c
