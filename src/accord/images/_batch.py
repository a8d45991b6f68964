"""The per image counts of every image whose matching needs no search, counted at once.

On most images each box overlaps at least one box of each other annotator at an IoU
of at least the lowest threshold, or none, and the boxes joined by these overlaps never
hold two boxes of one annotator. Such an image is *plain*: at every threshold, the
one-to-one matching of :func:`~accord.images.matching.match_pair` takes every pair that
can match (each row and each column of the IoU matrix has at most one such pair, so that
matching is the only optimum), and the groups of :func:`~accord.images.matching.groups`
are the connected components of the matched pairs (no join is ever refused). Plain
images are counted here with array operations over all of them; the others go through
the per image matching of :mod:`accord.images._counts`.

The counts are those of the per image path to the last bit: the same IoU operations
(:func:`~accord.images.matching.paired_iou`), the IoUs of one image and pair summed in
the same order as ``numpy.sum`` sums them there (:func:`_sums`), and coincidences as
sums of whole numbers divided once by ``m - 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from accord.images.matching import groups, iou_matrix, match_pair
from accord.readers.boxes import BoxTable

if TYPE_CHECKING:
    from accord.images._counts import Counts

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

#: Candidate pairs of boxes (a box of one annotator, a box of another on the same image)
#: whose IoU is computed at once.
_CHUNK = 2_000_000
#: ``numpy.sum`` adds fewer than 8 numbers one after the other, from 0.
_SEQUENTIAL = 8


@dataclass(frozen=True)
class Boxes:
    """The boxes in canonical order (image, annotator, x, y, w, h, label), as in
    :func:`accord.images.matching.canonical_order` within each image."""

    unit: IntArray
    rater: IntArray
    label: IntArray
    xywh: FloatArray
    start: IntArray  # first row of each (image, annotator) block, image * n_r + annotator


@dataclass(frozen=True)
class Edges:
    """Pairs of boxes of two annotators on one image with IoU at least the lowest
    threshold, ordered by image, annotator pair and the first box."""

    pair: IntArray
    i: IntArray
    j: IntArray
    iou: FloatArray


def sort_boxes(t: BoxTable) -> Boxes:
    """The boxes of ``t`` in canonical order, with the start of each image's annotator."""
    n_r = len(t.raters)
    order = _canonical(t.unit * n_r + t.rater, t.xywh, t.label)
    unit, rater = t.unit[order], t.rater[order]
    start = np.searchsorted(unit * n_r + rater, np.arange(len(t.units) * n_r + 1))
    return Boxes(unit, rater, t.label[order], t.xywh[order], start.astype(np.int64))


def _canonical(block: IntArray, x: FloatArray, label: IntArray) -> IntArray:
    """``lexsort((label, h, w, y, x, block))``, sorting by the last keys only the runs
    that tie on ``(block, x)`` (a sort by seven keys costs seven sorts)."""
    order = np.lexsort((x[:, 0], block))
    b, x0 = block[order], x[order, 0]
    tie = (b[1:] == b[:-1]) & (x0[1:] == x0[:-1])
    if not tie.any():
        return np.asarray(order, dtype=np.int64)
    tied = np.zeros(order.size, dtype=bool)
    tied[1:] |= tie
    tied[:-1] |= tie
    pos = np.flatnonzero(tied)
    run = np.cumsum(np.r_[True, ~tie][pos])  # a new run wherever the tie breaks
    sub = order[pos]
    order[pos] = sub[np.lexsort((label[sub], x[sub, 3], x[sub, 2], x[sub, 1], run))]
    return np.asarray(order, dtype=np.int64)


def candidates(b: Boxes, pairs: tuple[tuple[int, int], ...], low: float, n_r: int) -> Edges:
    """Every pair of boxes of an annotator pair on one image with IoU at least ``low``."""
    out = [_pair_candidates(b, p, (a, c), low, n_r) for p, (a, c) in enumerate(pairs)]
    pair, i, j, iou = (np.concatenate([e[k] for e in out]) for k in range(4))
    order = np.argsort(b.unit[i] * max(1, len(pairs)) + pair, kind="stable")
    return Edges(pair[order], i[order], j[order], iou[order])


def _pair_candidates(
    b: Boxes, p: int, pair: tuple[int, int], low: float, n_r: int
) -> tuple[IntArray, IntArray, IntArray, FloatArray]:
    a, c = pair
    n_u = (b.start.size - 1) // n_r
    img = np.arange(n_u) * n_r
    first_a, first_c = b.start[img + a], b.start[img + c]
    n_a, n_c = b.start[img + a + 1] - first_a, b.start[img + c + 1] - first_c
    cum = np.cumsum(n_a * n_c)
    cuts = np.searchsorted(cum, np.arange(_CHUNK, int(cum[-1]) if cum.size else 0, _CHUNK))
    parts = []
    for u0, u1 in zip(np.r_[0, cuts], np.r_[cuts, n_u], strict=True):
        if u1 <= u0:
            continue
        ua = np.repeat(np.arange(u0, u1), n_a[u0:u1])
        ia = first_a[ua] + _offsets(n_a[u0:u1])
        rep = n_c[ua]
        i, ui = np.repeat(ia, rep), np.repeat(ua, rep)
        parts.append(_overlapping(b, i, first_c[ui] + _offsets(rep), low))
    if not parts:
        none = np.zeros(0, dtype=np.int64)
        return none, none, none, np.zeros(0)
    i, j, iou = (np.concatenate([q[k] for q in parts]) for k in range(3))
    return np.full(i.size, p, dtype=np.int64), i, j, iou


def _overlapping(
    b: Boxes, i: IntArray, j: IntArray, low: float
) -> tuple[IntArray, IntArray, FloatArray]:
    """The pairs ``(i, j)`` with IoU at least ``low`` (> 0), and their IoU: the operations of
    :func:`~accord.images.matching.paired_iou`, on the pairs that overlap in x, then in y."""
    x0, y0, w, h = (b.xywh[:, k] for k in range(4))
    iw = np.minimum(x0[i] + w[i], x0[j] + w[j]) - np.maximum(x0[i], x0[j])
    keep = iw > 0
    i, j, iw = i[keep], j[keep], iw[keep]
    ih = np.minimum(y0[i] + h[i], y0[j] + h[j]) - np.maximum(y0[i], y0[j])
    keep = ih > 0
    i, j, inter = i[keep], j[keep], iw[keep] * ih[keep]
    iou = inter / ((w[i] * h[i]) + (w[j] * h[j]) - inter)
    keep = iou >= low
    return i[keep], j[keep], iou[keep]


def _offsets(sizes: IntArray) -> IntArray:
    """0, 1, ..., s - 1 for each size ``s``, concatenated."""
    total = int(sizes.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)


def components(n: int, i: IntArray, j: IntArray) -> IntArray:
    """The connected component of each of ``n`` nodes joined by the edges ``(i, j)``."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(i.size, dtype=np.int8), (i, j)), shape=(n, n)).tocsr()
    return np.asarray(connected_components(graph, directed=False)[1], dtype=np.int64)


def matched_sums(
    m: Edges, b: Boxes, n_units: int, n_pairs: int, n_k: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Matched pairs and their IoU sums per (image, pair) and per (image, pair, label)."""
    key = b.unit[m.i] * n_pairs + m.pair
    lab = b.label[m.i]
    size = n_units * n_pairs
    matched = np.bincount(key, minlength=size).astype(np.float64)
    by_label = np.bincount(key * n_k + lab, minlength=size * n_k).astype(np.float64)
    iou_by_label = np.asarray(np.bincount(key * n_k + lab, weights=m.iou,
                                          minlength=size * n_k), dtype=np.float64)
    return matched, _sums(key, m.iou, size), by_label, iou_by_label


def _sums(key: IntArray, x: FloatArray, size: int) -> FloatArray:
    """``x`` summed per ``key`` (sorted) as ``numpy.sum`` sums each key's run: one after
    the other below 8 numbers, by ``numpy``'s own row sums above."""
    count = np.bincount(key, minlength=size)
    short = count < _SEQUENTIAL
    out = np.asarray(np.bincount(key, weights=np.where(short[key], x, 0.0), minlength=size),
                     dtype=np.float64)
    first = np.cumsum(count) - count
    for n in np.unique(count[~short]).tolist():
        keys = np.flatnonzero(count == n)
        out[keys] = x[first[keys][:, None] + np.arange(n)].sum(axis=1)
    return out




def fill(c: Counts, t: BoxTable) -> None:
    """Every count of ``c`` (zeros on entry), image by image as :mod:`accord.images._counts`
    would, for all images at once."""
    n_u, n_r, n_k, n_p = len(t.units), len(t.raters), len(t.labels), len(c.pairs)
    b = sort_boxes(t)
    per = np.bincount((b.unit * n_r + b.rater) * n_k + b.label, minlength=n_u * n_r * n_k)
    per = per.reshape(n_u, n_r, n_k).astype(np.float64)
    for p, (a, r) in enumerate(c.pairs):
        c.boxes_by_label[:, :, p, :] = per[:, a] + per[:, r]
        c.boxes[:, :, p] = c.boxes_by_label[0, :, p, :].sum(axis=1)
    e = candidates(b, c.pairs, min(c.thresholds), n_r)
    same = b.label[e.i] == b.label[e.j]
    solver = _Knots(b, c.pairs, n_r)
    for k, threshold in enumerate(c.thresholds):
        hit = e.iou >= threshold
        m, s, m_l, s_l = matched_sums(solver.match(e, hit & same, threshold, labels=True),
                                      b, n_u, n_p, n_k)  # fmt: skip
        c.matched[k], c.iou_sum[k] = m.reshape(n_u, n_p), s.reshape(n_u, n_p)
        c.matched_by_label[k] = m_l.reshape(n_u, n_p, n_k)
        c.iou_by_label[k] = s_l.reshape(n_u, n_p, n_k)
        blind = solver.match(e, hit, threshold, labels=False)
        c.coincidences[k] = coincidences(b, group_of(b, blind, n_r), n_u, n_r, n_k)


class _Knots:
    """The matching of the (image, pair)s where a box has two candidates or more: by
    :func:`~accord.images.matching.match_pair` on the pair's whole IoU matrix, as the per
    image path does (the matrices kept from one threshold to the next)."""

    def __init__(self, b: Boxes, pairs: tuple[tuple[int, int], ...], n_r: int) -> None:
        self.b, self.pairs, self.n_r = b, pairs, n_r
        self.iou: dict[int, FloatArray] = {}
        #: (key, labels) -> (pairs that can match, the matching): with the same pairs the
        #: weights are the same, and so is the matching, from one threshold to the next
        self.last: dict[tuple[int, bool], tuple[int, tuple[Any, ...]]] = {}

    def match(self, e: Edges, sel: BoolArray, threshold: float, *, labels: bool) -> Edges:
        """The matched pairs among the candidates ``sel``, ordered by image, pair, box."""
        b, n_r, n_p = self.b, self.n_r, len(self.pairs)
        pair, i, j, iou = e.pair[sel], e.i[sel], e.j[sel], e.iou[sel]
        key = b.unit[i] * n_p + pair
        toward_j, toward_i = i * n_r + b.rater[j], j * n_r + b.rater[i]
        deg = np.bincount(np.concatenate([toward_j, toward_i]), minlength=b.unit.size * n_r)
        knots = np.unique(key[(deg[toward_j] > 1) | (deg[toward_i] > 1)])
        if knots.size == 0:
            return Edges(pair, i, j, iou)
        plain = ~np.isin(key, knots)
        feasible = np.bincount(np.searchsorted(knots, key[~plain]), minlength=knots.size)
        solved = [self._solve(q, int(f), threshold, labels)
                  for q, f in zip(knots.tolist(), feasible.tolist(), strict=True)]
        parts = [(pair[plain], i[plain], j[plain], iou[plain]), *solved]
        pair, i, j, iou = (np.concatenate([q[k] for q in parts]) for k in range(4))
        order = np.argsort(b.unit[i] * n_p + pair, kind="stable")
        return Edges(pair[order], i[order], j[order], iou[order])

    def _solve(self, key: int, feasible: int, threshold: float, labels: bool) -> tuple[Any, ...]:
        kept = self.last.get((key, labels))
        if kept is not None and kept[0] == feasible:
            return kept[1]
        b, n_p = self.b, len(self.pairs)
        u, p = divmod(key, n_p)
        a, r = self.pairs[p]
        a0, a1 = b.start[u * self.n_r + a], b.start[u * self.n_r + a + 1]
        r0, r1 = b.start[u * self.n_r + r], b.start[u * self.n_r + r + 1]
        if key not in self.iou:
            self.iou[key] = iou_matrix(b.xywh[a0:a1], b.xywh[r0:r1])
        iou = self.iou[key]
        la, lr = (b.label[a0:a1], b.label[r0:r1]) if labels else (None, None)
        ri, cj = match_pair(iou, threshold, la, lr)
        out = (np.full(ri.size, p, dtype=np.int64), a0 + ri, r0 + cj, iou[ri, cj])
        self.last[(key, labels)] = (feasible, out)
        return out


def group_of(b: Boxes, m: Edges, n_r: int) -> IntArray:
    """Each box's group: the connected components of the matched pairs, and where one
    holds two boxes of an annotator, :func:`~accord.images.matching.groups` on its pairs."""
    n = b.unit.size
    comp = components(n, m.i, m.j)
    twice = np.bincount(comp * n_r + b.rater, minlength=n * n_r) > 1
    if not twice.any():
        return comp
    bad = np.zeros(n, dtype=bool)
    bad[np.flatnonzero(twice) // n_r] = True
    nodes = np.flatnonzero(bad[comp])
    local = np.full(n, -1, dtype=np.int64)
    local[nodes] = np.arange(nodes.size)
    keep = bad[comp[m.i]]
    edges = list(zip(m.iou[keep].tolist(), local[m.i[keep]].tolist(),
                     local[m.j[keep]].tolist(), strict=True))  # fmt: skip
    out = comp.copy()
    out[nodes] = n + nodes[groups(nodes.size, edges, b.rater[nodes])]
    return out


def coincidences(b: Boxes, group: IntArray, n_units: int, n_r: int, n_k: int) -> FloatArray:
    """Each image's coincidences over its groups: ``sum_g n_g n_g' - diag(n_g)`` over the
    labels and "no box", divided by ``m - 1``.

    With ``f_g`` the annotators without a box in group ``g``, that is one count per
    ordered pair of distinct boxes of a group, ``f_g`` per box and "no box" each way,
    and ``f_g (f_g - 1)`` on "no box" twice: whole numbers, summed exactly.
    """
    n_cat = n_k + 1
    nodes = np.argsort(group, kind="stable")
    g = group[nodes]
    head = np.flatnonzero(np.r_[True, g[1:] != g[:-1]]) if g.size else g
    size = np.diff(np.r_[head, g.size])
    fill = np.repeat(n_r - size, size).astype(np.float64)
    unit, lab = b.unit[nodes], b.label[nodes]
    base = unit * n_cat * n_cat
    rep = np.repeat(size, size)
    first = np.repeat(np.arange(nodes.size), rep)
    second = np.repeat(np.repeat(head, size), rep) + _offsets(rep)
    first, second = first[first != second], second[first != second]
    f_head = (n_r - size).astype(np.float64)
    keys = [base[first] + lab[first] * n_cat + lab[second], base + lab * n_cat + n_k,
            base + n_k * n_cat + lab, base[head] + n_k * n_cat + n_k]  # fmt: skip
    weights = [np.ones(first.size), fill, fill, f_head * (f_head - 1.0)]
    o = np.bincount(np.concatenate(keys), weights=np.concatenate(weights),
                    minlength=n_units * n_cat * n_cat)  # fmt: skip
    return np.asarray(o.reshape(n_units, n_cat, n_cat) / (n_r - 1), dtype=np.float64)
