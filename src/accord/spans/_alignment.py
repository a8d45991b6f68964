"""The best alignment of a continuum, for :mod:`accord.spans.gamma`.

Notation after Mathet, Widlöcher & Métivier (2015), definitions as pygamma-agreement
0.5 computes them: a unitary alignment takes one unit or the empty unit from every
rater; its disorder is the mean over its ``C(n, 2)`` rater pairs of the combined
dissimilarity ``alpha * d_pos + beta * d_cat`` (1 against the empty unit); the best
alignment puts every unit in one unitary alignment at the least summed disorder.

Two steps, both exact:

* *candidates*: only unitary alignments whose disorder is at most that of leaving their
  ``k`` units alone (``k``; section 5.1.1 of the paper) can be in the best alignment,
  so a pair of units farther apart than that bound allows is never joined; the pairs
  are found in windows of the sorted starts (all pairs when ``alpha = 0``);
* *choice*: an exact cover of the units by candidates at least summed disorder, ties
  to the fewest unitary alignments (as pygamma-agreement's best alignments are). The
  units, sorted by start, are covered in order by dynamic programming over the set of
  units already covered past the first uncovered one; where the candidates are local
  (every continuum in the tests) that set is small and a continuum splits by itself
  into independent stretches. When the states pass :data:`MAX_STATES`, the same
  choice is made by an integer programme (``scipy.optimize.milp``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: the upper bound on candidate unitary alignments one document may produce
MAX_CANDIDATES = 5_000_000
#: the dynamic programme's states (per continuum) before the integer programme takes over
MAX_STATES = 2_000_000
#: two alignments whose summed disorders differ by less are tied
TIE = 1e-7


@dataclass(frozen=True)
class Continuum:
    """One document: per rater, the units' start, end and label code (sorted by start)."""

    starts: tuple[FloatArray, ...]
    ends: tuple[FloatArray, ...]
    labels: tuple[IntArray, ...]

    @property
    def n_units(self) -> int:
        return int(sum(s.shape[0] for s in self.starts))


@dataclass(frozen=True)
class Alignment:
    """The best alignment of a continuum: per chosen unitary alignment, each rater's
    unit index (``-1``: the empty unit), and its disorder."""

    members: IntArray  # (k, n_raters)
    disorders: FloatArray  # (k,)


@dataclass(frozen=True)
class _Pairs:
    """The unit pairs of raters ``a`` and ``b`` close enough to be joined, keyed
    ``i * (n_b + 1) + j`` (sorted), with their dissimilarities; ``indptr`` indexes
    them by ``i``."""

    keys: IntArray
    d: FloatArray
    j: IntArray
    indptr: IntArray
    n_b: int

    def lookup(self, i: IntArray, j: IntArray, n_a: int) -> FloatArray:
        """``d`` of each ``(i, j)``: 1 against the empty unit (``n_a`` / ``n_b``), inf
        when the pair is too far apart to be joined."""
        out = np.ones(i.shape[0])
        both = (i < n_a) & (j < self.n_b)
        key = i[both] * (self.n_b + 1) + j[both]
        pos = np.minimum(np.searchsorted(self.keys, key), max(self.keys.shape[0] - 1, 0))
        found = self.keys[pos] == key if self.keys.shape[0] else np.zeros(key.shape, bool)
        out[both] = np.where(found, self.d[pos] if self.keys.shape[0] else 0.0, np.inf)
        return out


def _pairs(c: Continuum, a: int, b: int, alpha: float, beta: float, bound: float) -> _Pairs:
    sa, ea, la = c.starts[a], c.ends[a], c.labels[a]
    sb, eb, lb = c.starts[b], c.ends[b], c.labels[b]
    na, nb = sa.shape[0], sb.shape[0]
    if alpha > 0 and na and nb:
        # alpha * ((|ds| + |de|) / (len_u + len_v))^2 <= bound bounds |ds| by a window
        reach = math.sqrt(bound / alpha) * ((ea - sa) + float((eb - sb).max())) + 1e-9
        lo = np.searchsorted(sb, sa - reach, "left")
        hi = np.searchsorted(sb, sa + reach, "right")
    else:
        lo, hi = np.zeros(na, np.int64), np.full(na, nb, np.int64)
    counts = (hi - lo).astype(np.int64)
    i = np.repeat(np.arange(na, dtype=np.int64), counts)
    j = _ranges(lo.astype(np.int64), counts)
    pos = ((np.abs(sa[i] - sb[j]) + np.abs(ea[i] - eb[j]))
           / ((ea[i] - sa[i]) + (eb[j] - sb[j]))) ** 2  # fmt: skip
    d = alpha * pos + beta * (la[i] != lb[j])
    keep = d <= bound + 1e-9
    i, j, d = i[keep], j[keep], d[keep]
    indptr = np.searchsorted(i, np.arange(na + 1))
    return _Pairs(i * (nb + 1) + j, d, j, indptr.astype(np.int64), nb)


def _ranges(lo: IntArray, counts: IntArray) -> IntArray:
    """``lo[0] .. lo[0] + counts[0] - 1``, then the next range, and so on, concatenated."""
    return (np.arange(int(counts.sum()), dtype=np.int64)
            - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(lo, counts))  # fmt: skip


def candidates(c: Continuum, alpha: float, beta: float) -> tuple[IntArray, FloatArray]:
    """The unitary alignments that can be in the best alignment, and their disorders.

    Built rater by rater from the pairs close enough to be joined; a partial tuple whose
    summed pair dissimilarities already exceed ``n * C(n, 2)`` (the most any useful one
    may reach) is dropped, and a full one is kept when its sum is at most ``k * C(n, 2)``
    for its ``k`` units (else its units alone cost less).
    """
    n = len(c.starts)
    c2n = n * (n - 1) // 2
    sizes = [s.shape[0] for s in c.starts]  # index sizes[r]: rater r's empty unit
    bound = n * c2n + 1e-9
    pairs = {(a, b): _pairs(c, a, b, alpha, beta, bound) for a, b in combinations(range(n), 2)}
    tuples = np.arange(sizes[0] + 1, dtype=np.int64)[:, None]
    sums = np.zeros(sizes[0] + 1)
    for j in range(1, n):
        rows, col = _extend(tuples, sizes, pairs, j)
        total = sums[rows] + sum(pairs[(a, j)].lookup(tuples[rows, a], col, sizes[a])
                                 for a in range(j))  # fmt: skip
        keep = total <= bound
        if int(keep.sum()) > MAX_CANDIDATES:
            from accord.errors import DataError

            raise DataError(
                f"gamma: one document has more than {MAX_CANDIDATES:,} possible unitary "
                "alignments; the exact best alignment is out of reach for it."
            )
        tuples = np.concatenate([tuples[rows[keep]], col[keep, None]], axis=1)
        sums = total[keep]
    empty = tuples == np.asarray(sizes)[None, :]
    k = n - empty.sum(axis=1)
    useful = (k > 0) & (sums <= k * c2n + 1e-9)
    members = np.where(empty, -1, tuples)[useful]
    return members, sums[useful] / c2n


def _extend(tuples: IntArray, sizes: list[int], pairs: dict[tuple[int, int], _Pairs],
            j: int) -> tuple[IntArray, IntArray]:  # fmt: skip
    """Rater ``j``'s options for each partial tuple: the empty unit, and the units close
    to the tuple's first unit (every unit of ``j`` when the tuple is all empty)."""
    empty = tuples == np.asarray(sizes[:j])[None, :]
    first = np.where(empty.all(axis=1), -1, np.argmin(empty, axis=1))
    rows = [np.arange(tuples.shape[0], dtype=np.int64)]
    cols = [np.full(tuples.shape[0], sizes[j], dtype=np.int64)]
    lone = np.flatnonzero(first < 0)
    for r in lone:
        rows.append(np.full(sizes[j], r, dtype=np.int64))
        cols.append(np.arange(sizes[j], dtype=np.int64))
    for a in range(j):
        sel = np.flatnonzero(first == a)
        if not sel.size:
            continue
        p = pairs[(a, j)]
        u = tuples[sel, a]
        lo, hi = p.indptr[u], p.indptr[u + 1]
        counts = hi - lo
        rows.append(np.repeat(sel, counts))
        cols.append(p.j[_ranges(lo, counts)])
    return np.concatenate(rows), np.concatenate(cols)


def best_alignment(c: Continuum, alpha: float, beta: float) -> Alignment:
    """The alignment of least total disorder (ties: the fewest unitary alignments)."""
    members, disorders = candidates(c, alpha, beta)
    low, masks = _masks(c, members)
    chosen = _exact_cover(c.n_units, low, masks, disorders)
    if chosen is None:
        chosen = _milp(c, members, disorders)
    return Alignment(members[chosen], disorders[chosen])


def _masks(c: Continuum, members: IntArray) -> tuple[list[int], list[int]]:
    """Each candidate's first unit (in start order) and its units as bits from there."""
    offsets = np.cumsum([0, *(s.shape[0] for s in c.starts)])
    order = np.lexsort((np.concatenate(c.ends), np.concatenate(c.starts)))
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    present = members >= 0
    r = np.where(present, rank[np.where(present, offsets[:-1][None, :] + members, 0)],
                 np.iinfo(np.int64).max)  # fmt: skip
    low = r.min(axis=1)
    off = np.where(present, r - low[:, None], 0)
    masks = [0] * members.shape[0]
    small = off.max(axis=1) < 63
    bits = np.where(present, np.left_shift(np.uint64(1), off.astype(np.uint64)), np.uint64(0))
    for idx, m in zip(np.flatnonzero(small).tolist(),
                      np.bitwise_or.reduce(bits[small], axis=1).tolist()):  # fmt: skip
        masks[idx] = int(m)
    for idx in np.flatnonzero(~small).tolist():
        masks[idx] = sum(1 << int(x) for x, p in zip(off[idx], present[idx]) if p)
    return low.tolist(), masks


def _exact_cover(n_units: int, low: list[int], masks: list[int],
                 disorders: FloatArray) -> list[int] | None:  # fmt: skip
    """The cover of least disorder (then fewest candidates), or None past MAX_STATES.

    A state is the first uncovered unit ``i`` and the units covered after it (bit 0:
    ``i``); only candidates whose first unit is ``i`` can cover ``i``.
    """
    by_low: list[list[tuple[int, float, int]]] = [[] for _ in range(n_units)]
    for ci, (lo, m, dc) in enumerate(zip(low, masks, disorders.tolist())):
        by_low[lo].append((m, dc, ci))
    best: list[dict[int, tuple[float, int, int, int, int]] | None] = [None] * (n_units + 1)
    best[0] = {0: (0.0, 0, -1, 0, -1)}
    seen = 0
    for i in range(n_units):
        bucket = best[i]
        if not bucket:
            continue
        seen += len(bucket)
        if seen > MAX_STATES:
            return None
        for rel, (d0, k0, *_) in bucket.items():
            for m, dc, ci in by_low[i]:
                if m & rel:
                    continue
                new = rel | m
                t = ((new + 1) & ~new).bit_length() - 1  # the covered units now first
                d, key, nxt = d0 + dc, new >> t, best[i + t]
                if nxt is None:
                    best[i + t] = {key: (d, k0 + 1, i, rel, ci)}
                    continue
                old = nxt.get(key)
                if old is None or d < old[0] - TIE or (d <= old[0] + TIE and k0 + 1 < old[1]):
                    nxt[key] = (d, k0 + 1, i, rel, ci)
    chosen, i, rel = [], n_units, 0
    while i > 0:
        _, _, i, rel, ci = best[i][rel]  # type: ignore[index]
        chosen.append(ci)
    return chosen[::-1]


def _milp(c: Continuum, members: IntArray, disorders: FloatArray) -> list[int]:
    """The same choice by two integer programmes: least disorder, then fewest candidates
    among those within :data:`TIE` of it."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    offsets = np.cumsum([0, *(s.shape[0] for s in c.starts)])
    cols, rows = np.nonzero(members >= 0)
    unit_rows = offsets[rows] + members[cols, rows]
    a = csr_matrix((np.ones(cols.shape[0]), (unit_rows, cols)),
                   shape=(int(offsets[-1]), members.shape[0]))  # fmt: skip
    whole = np.ones(members.shape[0])
    opts = {"mip_rel_gap": 0.0}
    res = milp(disorders, constraints=LinearConstraint(a, 1, 1), integrality=whole,
               bounds=Bounds(0, 1), options=opts)  # fmt: skip
    if res.x is None:  # pragma: no cover - the singletons always make a solution
        raise RuntimeError(f"gamma: the alignment programme failed: {res.message}")
    least = LinearConstraint(disorders[None, :], -np.inf, float(disorders @ res.x) + TIE)
    again = milp(whole, constraints=[LinearConstraint(a, 1, 1), least], integrality=whole,
                 bounds=Bounds(0, 1), options=opts)  # fmt: skip
    if again.x is not None:
        res = again
    return np.flatnonzero(res.x > 0.5).tolist()
