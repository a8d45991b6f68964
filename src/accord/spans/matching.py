"""One-to-one matching of two raters' spans, in the four modes of SemEval-2013 task 9.1.

The modes (Segura-Bedmar, Martinez & Herrero-Zazo 2013, as nervaluate implements
them) say when a matched pair counts as *correct*:

========  ====================================  =====================================
mode      correct                               any other overlapping pair
========  ====================================  =====================================
strict    same boundaries and same label        incorrect
exact     same boundaries, any label            incorrect
partial   same boundaries, any label            partial (counted half)
type      overlapping, same label               incorrect
========  ====================================  =====================================

A span of the reference left without a partner is *missed*, one of the other
rater *spurious*.

**Assignment rule.** Within a unit, every pair of overlapping spans (one from
each side) is a candidate. Candidates are taken greedily in this order, a pair
being kept when neither of its spans is taken yet: first the pairs that would
count as correct in the mode, then those with the same boundaries, then those
with the same label, then by the number of characters shared (largest first),
then by position (smaller start, then smaller end, then label code, each
taken as the smaller and then the larger of the two spans' values, so the order
does not depend on which side is the reference). Hence no span is counted twice
and the matching, and with it every F1, is symmetric in the two raters.
nervaluate instead lets each prediction, in list order, take the first free
reference span it overlaps; the two rules give the same counts whenever no span
overlaps two spans of the other side.

**Discontinuous spans** (brat fragments) match on their fragment set: two spans
have the same boundaries when their sets of fragments are equal, and they
overlap when some fragment of one shares a character with some fragment of the
other; the shared characters are summed over the fragment pairs.

**Cost.** Candidates come from two sorted sweeps (``searchsorted`` on the
(unit, start) keys: the pairs where one span starts inside the other), so the
work is ``O(n log n + k)`` for ``n`` spans and ``k`` overlapping pairs, never all
pairs of a document. Pairs whose two spans overlap nothing else are matched in
one vectorised step; only the contested ones go through the greedy loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError
from accord.spans._spanset import IntArray, SpanSet, fragment_overlap, shapes_equal

Mode = Literal["strict", "exact", "partial", "type"]
MODES: tuple[Mode, ...] = ("strict", "exact", "partial", "type")
KINDS = ("correct", "incorrect", "partial", "missed", "spurious")
CORRECT, INCORRECT, PARTIAL, MISSED, SPURIOUS = range(5)

__all__ = ["KINDS", "MODES", "Candidates", "Events", "Pairs", "candidates", "match", "pairs_of"]


@dataclass(frozen=True)
class Candidates:
    """Every overlapping pair ``(a[ia[k]], b[ib[k]])`` with what the modes need of it."""

    ia: IntArray
    ib: IntArray
    overlap: IntArray
    same_shape: NDArray[np.bool_]
    same_label: NDArray[np.bool_]
    order_keys: tuple[IntArray, ...]


@dataclass(frozen=True)
class Events:
    """One row per matched pair or unmatched span: its unit, label and kind (0..4).

    A matched pair and a missed span carry the reference span's label, a
    spurious span its own.
    """

    unit: IntArray
    label: IntArray
    kind: IntArray

    def totals(self) -> IntArray:
        """Counts of the five kinds."""
        return np.bincount(self.kind, minlength=5).astype(np.int64)

    def per_unit(self, n_units: int) -> IntArray:
        """``(n_units, 5)`` counts."""
        flat = np.bincount(self.unit * 5 + self.kind, minlength=n_units * 5)
        return flat.reshape(n_units, 5).astype(np.int64)

    def per_label(self, n_labels: int) -> IntArray:
        """``(n_labels, 5)`` counts."""
        flat = np.bincount(self.label * 5 + self.kind, minlength=n_labels * 5)
        return flat.reshape(n_labels, 5).astype(np.int64)

    def by_label(self) -> dict[int, Events]:
        """The events of each label present, split after one sort."""
        order = np.argsort(self.label, kind="stable")
        lab = self.label[order]
        cuts = np.flatnonzero(np.diff(lab)) + 1
        out = {}
        for part in np.split(order, cuts) if order.shape[0] else []:
            out[int(self.label[part[0]])] = Events(
                self.unit[part], self.label[part], self.kind[part]
            )
        return out

    def of_label(self, label: int) -> Events:
        """The events of one label."""
        keep = self.label == label
        return Events(self.unit[keep], self.label[keep], self.kind[keep])


def candidates(a: SpanSet, b: SpanSet) -> Candidates:
    """The overlapping pairs of ``a`` and ``b`` (both sorted by unit, start), by sorted sweeps."""
    empty = np.zeros(0, dtype=np.int64)
    if len(a) == 0 or len(b) == 0:
        return Candidates(empty, empty, empty, empty.astype(bool), empty.astype(bool), ())
    m = int(max(a.end.max(), b.end.max())) + 1
    top = int(max(a.unit.max(), b.unit.max())) + 1
    if top * m >= 2**62:
        raise DataError("span offsets too large to sweep: units x longest offset exceeds 2**62.")
    ka, kb = a.unit * m + a.start, b.unit * m + b.start
    # b starts inside a (b.start in [a.start, a.end)); a starts inside b (after b.start)
    ia1, ib1 = _expand(
        np.searchsorted(kb, ka, "left"), np.searchsorted(kb, a.unit * m + a.end, "left")
    )
    ib2, ia2 = _expand(
        np.searchsorted(ka, kb, "right"), np.searchsorted(ka, b.unit * m + b.end, "left")
    )
    ia, ib = np.concatenate([ia1, ia2]), np.concatenate([ib1, ib2])
    overlap = np.minimum(a.end[ia], b.end[ib]) - np.maximum(a.start[ia], b.start[ib])
    if a.fragments or b.fragments:
        overlap = _fragment_overlaps(a, b, ia, ib, overlap)
        keep = overlap > 0
        ia, ib, overlap = ia[keep], ib[keep], overlap[keep]
    sa, sb, ea, eb = a.start[ia], b.start[ib], a.end[ia], b.end[ib]
    la, lb = a.label[ia], b.label[ib]
    keys = (
        np.maximum(lb, la), np.minimum(la, lb), np.maximum(ea, eb), np.minimum(ea, eb),
        np.maximum(sa, sb), np.minimum(sa, sb), -overlap,
    )  # fmt: skip
    return Candidates(ia, ib, overlap, shapes_equal(a, ia, b, ib), la == lb, keys)


def _expand(lo: IntArray, hi: IntArray) -> tuple[IntArray, IntArray]:
    """All ``(i, j)`` with ``lo[i] <= j < hi[i]``."""
    n = np.maximum(hi - lo, 0)
    rows = np.repeat(np.arange(lo.shape[0], dtype=np.int64), n)
    first = np.cumsum(n) - n
    cols = lo[rows] + np.arange(rows.shape[0], dtype=np.int64) - first[rows]
    return rows, cols.astype(np.int64)


def _fragment_overlaps(
    a: SpanSet, b: SpanSet, ia: IntArray, ib: IntArray, overlap: IntArray
) -> IntArray:
    out = overlap.copy()
    for k in range(ia.shape[0]):
        i, j = int(ia[k]), int(ib[k])
        if i in a.fragments or j in b.fragments:
            fa = a.fragments.get(i, ((int(a.start[i]), int(a.end[i])),))
            fb = b.fragments.get(j, ((int(b.start[j]), int(b.end[j])),))
            out[k] = fragment_overlap(fa, fb)
    return out


@dataclass(frozen=True)
class Pairs:
    """The matching itself: span ``a[pa[k]]`` paired with ``b[pb[k]]`` as ``kind[k]``;
    ``free_a`` and ``free_b`` mark the spans left without a partner."""

    pa: IntArray
    pb: IntArray
    kind: IntArray
    free_a: NDArray[np.bool_]
    free_b: NDArray[np.bool_]


def pairs_of(
    a: SpanSet, b: SpanSet, cand: Candidates, mode: Mode, *, same_label_only: bool = False
) -> Pairs:
    """Match reference ``a`` against ``b`` in ``mode`` (see the assignment rule above).

    With ``same_label_only`` only pairs of one label are candidates: the
    matching of each label's spans on their own, as per-label figures need.
    """
    correct = _correct(cand, mode)
    keep = cand.same_label if same_label_only else np.ones(cand.ia.shape[0], dtype=bool)
    chosen = _greedy(cand, correct, keep, len(a), len(b))
    kind = np.where(correct[chosen], CORRECT, PARTIAL if mode == "partial" else INCORRECT)
    pa, pb = cand.ia[chosen], cand.ib[chosen]
    free_a = np.ones(len(a), dtype=bool)
    free_a[pa] = False
    free_b = np.ones(len(b), dtype=bool)
    free_b[pb] = False
    return Pairs(pa, pb, kind.astype(np.int64), free_a, free_b)


def match(
    a: SpanSet, b: SpanSet, cand: Candidates, mode: Mode, *, same_label_only: bool = False
) -> Events:
    """Match reference ``a`` against ``b`` in ``mode`` and classify every span."""
    return events_of(a, b, pairs_of(a, b, cand, mode, same_label_only=same_label_only))


def events_of(a: SpanSet, b: SpanSet, p: Pairs) -> Events:
    """One event per matched pair or unmatched span."""
    pa, kind, free_a, free_b = p.pa, p.kind, p.free_a, p.free_b
    return Events(
        np.concatenate([a.unit[pa], a.unit[free_a], b.unit[free_b]]),
        np.concatenate([a.label[pa], a.label[free_a], b.label[free_b]]),
        np.concatenate(
            [
                kind.astype(np.int64),
                np.full(int(free_a.sum()), MISSED, dtype=np.int64),
                np.full(int(free_b.sum()), SPURIOUS, dtype=np.int64),
            ]
        ),
    )


def _correct(cand: Candidates, mode: Mode) -> NDArray[np.bool_]:
    if mode == "strict":
        return cand.same_shape & cand.same_label
    if mode == "type":
        return cand.same_label
    return cand.same_shape


def _greedy(
    cand: Candidates, correct: NDArray[np.bool_], keep: NDArray[np.bool_], na: int, nb: int
) -> IntArray:
    """Indices of the chosen candidate pairs (see the module's assignment rule)."""
    idx = np.flatnonzero(keep)
    if idx.shape[0] == 0:
        return idx.astype(np.int64)
    ia, ib = cand.ia[idx], cand.ib[idx]
    deg_a = np.bincount(ia, minlength=na)
    deg_b = np.bincount(ib, minlength=nb)
    alone = (deg_a[ia] == 1) & (deg_b[ib] == 1)
    contested = idx[~alone]
    if contested.shape[0] == 0:
        return idx
    tiers = (~cand.same_label, ~cand.same_shape, ~correct)
    keys = tuple(k[contested] for k in (*cand.order_keys, *tiers))
    order = contested[np.lexsort(keys)]
    used_a: set[int] = set()
    used_b: set[int] = set()
    taken: list[int] = []
    for k, i, j in zip(order.tolist(), cand.ia[order].tolist(), cand.ib[order].tolist()):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            taken.append(k)
    return np.sort(np.concatenate([idx[alone], np.asarray(taken, dtype=np.int64)]))
