"""Rater pairs from a sparse join on units: shared units and per-pair contingency tables.

The ratings, sorted by unit, are joined with themselves within each unit: a unit
rated by ``m`` raters gives the ``m (m - 1) / 2`` pairs of ratings ``(i, i + k)``,
``k = 1 .. m - 1``. They are enumerated ``k`` by ``k`` over the ratings that still
have a ``k``-th successor in their unit (so the work is the number of within-unit
pairs, however uneven the units), in chunks of at most :data:`CHUNK` pairs, and
keyed by the ordered pair of raters ``(rater_i, rater_j)`` as they come (then the
codes, for the tables); the two orders of a pair are added at the end. Keys are
counted by ``np.bincount`` over the key range when that range is small next to the
ratings (``raters^2 <= max(2^22, 2 x ratings)``), else by ``np.unique`` per chunk,
merged geometrically (when the parts hold twice the keys of the last merge). Memory
is O(ratings + chunk + key range or distinct keys), never units x raters.

Two passes: :func:`shared_units` counts the shared units of every pair; then
:func:`pair_tables` builds the ``q x q`` tables of the pairs asked for (those that
share enough units), joining only the ratings of their raters.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from accord.errors import BudgetError

if TYPE_CHECKING:
    from accord.data.annotations import Annotations

IntArray = NDArray[np.int64]

CHUNK = 1 << 21  # pairs of ratings per step
_DENSE_MIN = 1 << 22  # a key range this small is always counted densely
_MAX_CELLS = 1 << 27  # pairs x q^2 table cells held at once (1 GiB of int64)


def within_unit_pairs(units: IntArray, n_units: int) -> int:
    """How many pairs of ratings share a unit: ``sum_u m_u (m_u - 1) / 2``."""
    m = np.bincount(units, minlength=n_units).astype(np.int64)
    return int(np.sum(m * (m - 1) // 2))


def _position_pairs(units: IntArray,
                    n_units: int) -> Iterator[tuple[NDArray[np.integer], NDArray[np.integer]]]:
    """Positions ``(i, j)``, ``i < j``, of every two ratings of one unit (``units`` sorted)."""
    n = units.shape[0]
    if n == 0:
        return
    sizes = np.bincount(units, minlength=n_units)
    starts = np.cumsum(sizes) - sizes
    small = np.int32 if n < 2**31 else np.int64  # positions: half the memory on a crowd
    remaining: NDArray[np.integer] = (
        sizes[units] - (np.arange(n, dtype=np.int64) - starts[units]) - 1).astype(small)
    active: NDArray[np.integer] = np.flatnonzero(remaining >= 1).astype(small)
    k = 1
    while active.size:
        for s in range(0, active.size, CHUNK):
            i = active[s:s + CHUNK]
            yield i, i + k
        k += 1
        active = active[remaining[active] >= k]


class _KeyCounter:
    """Counts of non-negative integer keys below ``size``.

    Dense (``dense=True``): keys are buffered (in one preallocated array) until they
    number half the key range (at least :data:`CHUNK`, at most 2^24), then counted by
    one ``np.bincount`` into the running counts, so each key costs O(1) however large
    the range. Sparse: ``np.unique`` per chunk; the parts are merged once they hold
    twice the keys of the last merge (at least ``4 * CHUNK``), so each merge at least
    halves what it re-sorts next to what was added since, and the total work is
    O(pairs log pairs) however many distinct keys there are (merging at a fixed size
    re-sorted every distinct key on every chunk: quadratic).
    """

    def __init__(self, size: int, dense: bool) -> None:
        self.size, self.dense = size, dense
        self.counts: IntArray | None = None
        self.parts: list[tuple[IntArray, IntArray]] = []
        self.held = 0
        self.merge_at = 4 * CHUNK
        self.flush_at = max(CHUNK, min(size // 2, 1 << 24))
        self.buffer = np.empty(self.flush_at if dense else 0, dtype=np.int64)

    def add(self, keys: IntArray) -> None:
        if keys.size == 0:
            return
        if self.dense:
            if self.held + keys.size > self.flush_at:
                self._flush()
            if keys.size > self.flush_at:
                self._count(keys)
                return
            self.buffer[self.held:self.held + keys.size] = keys
            self.held += keys.size
            return
        k, c = np.unique(keys, return_counts=True)
        self.parts.append((k, c.astype(np.int64)))
        self.held += k.size
        if len(self.parts) > 1 and self.held > self.merge_at:
            self.parts = [self._merged()]
            self.held = self.parts[0][0].size
            self.merge_at = max(4 * CHUNK, 2 * self.held)

    def _flush(self) -> None:
        if self.held:
            self._count(self.buffer[:self.held])
            self.held = 0

    def _count(self, keys: IntArray) -> None:
        c = np.bincount(keys, minlength=self.size)
        if self.counts is None:
            self.counts = c
        else:
            self.counts += c

    def _merged(self) -> tuple[IntArray, IntArray]:
        keys = np.concatenate([k for k, _ in self.parts])
        counts = np.concatenate([c for _, c in self.parts])
        uniq, inverse = np.unique(keys, return_inverse=True)
        return uniq, np.bincount(inverse, weights=counts, minlength=uniq.size).astype(np.int64)

    def dense_counts(self) -> IntArray:
        """The counts of every key ``0 .. size - 1`` (dense counters only)."""
        self._flush()
        return np.zeros(self.size, dtype=np.int64) if self.counts is None else self.counts

    def result(self) -> tuple[IntArray, IntArray]:
        """The keys that occur (sorted) and their counts."""
        if self.dense:
            counts = self.dense_counts()
            keys = np.flatnonzero(counts)
            return keys, counts[keys]
        if not self.parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return self._merged() if len(self.parts) > 1 else self.parts[0]


def _dense_keys(size: int, n_ratings: int) -> bool:
    """Whether a key range is small enough next to the ratings to count densely."""
    return size <= max(_DENSE_MIN, 2 * n_ratings)


def shared_units(units: IntArray, raters: IntArray, n_units: int,
                 n_raters: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every pair of raters that shares a unit: ``(rater_a, rater_b, n)``, ``a < b``.

    ``units`` must be sorted; the pairs come in the order of ``(a, b)``. Ordered keys
    ``a * r + b`` are counted as they come and folded onto ``a < b`` at the end.
    """
    r = n_raters
    counter = _KeyCounter(r * r, _dense_keys(r * r, units.shape[0]))
    for i, j in _position_pairs(units, n_units):
        counter.add(raters[i] * r + raters[j])
    keys, n = counter.result()
    a, b = keys // r, keys % r
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    folded = lo * r + hi
    if keys.size and not bool(np.all(a < b)):
        uniq, inverse = np.unique(folded, return_inverse=True)
        n = np.bincount(inverse, weights=n, minlength=uniq.size).astype(np.int64)
        folded = uniq
    return folded // r, folded % r, n


def pair_tables(units: IntArray, raters: IntArray, values: IntArray, n_units: int,
                n_raters: int, q: int, pair_a: IntArray, pair_b: IntArray) -> IntArray:
    """The ``(P, q, q)`` contingency tables of the given pairs (``pair_a < pair_b``, in
    ``(a, b)`` order) on the units both raters rated; rows are rater ``a``.

    Only the ratings of raters in the pairs take part in the join. A pair of ratings
    in the order ``(b, a)`` is counted in a second, transposed table (no swap per
    pair); the two are added at the end.
    """
    n_pairs = pair_a.shape[0]
    cells = 2 * n_pairs * q * q
    if cells > _MAX_CELLS:
        raise BudgetError(
            f"the contingency tables of {n_pairs:,} rater pairs x {q} x {q} categories would "
            f"take {cells * 8 / 2**30:.1f} GiB; ask for fewer pairs (a larger min_shared)."
        )
    if n_pairs == 0:
        return np.zeros((0, q, q), dtype=np.int64)
    involved = np.zeros(n_raters, dtype=bool)
    involved[pair_a] = involved[pair_b] = True
    if not involved.all():
        keep = involved[raters]
        units, raters, values = units[keep], raters[keep], values[keep]
    r = n_raters
    wanted = pair_a * r + pair_b  # sorted
    # table index of an ordered pair of raters: 2 p for (a, b), 2 p + 1 for (b, a)
    ids = np.arange(n_pairs, dtype=np.int64) * 2
    lut = None
    if _dense_keys(r * r, units.shape[0]):
        lut = np.full(r * r, -1, dtype=np.int64)
        lut[wanted] = ids
        lut[pair_b * r + pair_a] = ids + 1
    else:
        both = np.concatenate([wanted, pair_b * r + pair_a])
        order = np.argsort(both)
        both, both_ids = both[order], np.concatenate([ids, ids + 1])[order]
    counter = _KeyCounter(cells, dense=True)
    for i, j in _position_pairs(units, n_units):
        key = raters[i] * r + raters[j]
        if lut is not None:
            idx = lut[key]
        else:
            pos = np.minimum(np.searchsorted(both, key), both.shape[0] - 1)
            idx = np.where(both[pos] == key, both_ids[pos], -1)
        cell = (idx * q + values[i]) * q + values[j]
        counter.add(cell if lut is not None and bool(idx.min() >= 0) else cell[idx >= 0])
    t = counter.dense_counts().reshape(n_pairs, 2, q, q)
    return np.asarray(t[:, 0] + t[:, 1].transpose(0, 2, 1), dtype=np.int64)


def codes_by_unit(ann: Annotations) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                         NDArray[np.int64]]:
    """The unit, rater and value codes of ``ann``, sorted by unit (stable)."""
    units, raters, values = ann.codes
    if units.size > 1 and not bool(np.all(units[1:] >= units[:-1])):
        order = np.argsort(units, kind="stable")
        return units[order], raters[order], values[order]
    return units, raters, values
