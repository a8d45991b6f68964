"""Per image counts: the sufficient statistic of agreement on boxes.

For each IoU threshold, each image and each annotator pair ``p`` (in the order of
``itertools.combinations`` over the sorted annotators), the label-aware matching
gives ``M`` (matched pairs: same label, IoU at least the threshold), ``N`` (the
two annotators' boxes, ``n_A + n_B``) and ``S`` (the IoU summed over the matched
pairs), overall and per label; the label-blind matching of every pair gives the
matched groups, and their labels give the image's coincidence matrix over the
labels plus "no box" (Krippendorff 2019, ch. 12: ``o_ck`` sums, over units,
``n_uc n_uk / (m_u - 1)`` for ``c != k`` and ``n_uc (n_uc - 1) / (m_u - 1)`` on
the diagonal). Sums of these over images give every figure, so the bootstrap
resamples images through them and never matches again.

:func:`count` counts all images at once (:mod:`accord.images._batch`, where the
matching of most images needs no search); :func:`_image` is the same count for one
image, the path taken when a ``visit`` asks for each image's groups, and the reference
the batch is tested against, to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from accord.images import _batch
from accord.images.matching import canonical_order, groups, iou_matrix, match_pair
from accord.readers.boxes import BoxTable

FloatArray = NDArray[np.float64]

#: Called with one image's rows (in the canonical order) and their groups at the first
#: threshold: how :mod:`accord.images.consensus` takes the same groups as alpha.
Visit = Callable[[NDArray[np.int64], NDArray[np.int64]], None]

#: Called with two annotators' row indices into the table: the (n, m) similarity of
#: their shapes, in [0, 1] (IoU for boxes; OKS or polygon IoU for the other shapes).
Similarity = Callable[[NDArray[np.int64], NDArray[np.int64]], FloatArray]


@dataclass(frozen=True)
class Counts:
    """The per image counts at each threshold (axes: threshold, image, pair, label)."""

    thresholds: tuple[float, ...]
    pairs: tuple[tuple[int, int], ...]
    matched: FloatArray  # (T, U, P)
    boxes: FloatArray  # (T, U, P), the same at every threshold
    iou_sum: FloatArray  # (T, U, P)
    matched_by_label: FloatArray  # (T, U, P, K)
    boxes_by_label: FloatArray  # (T, U, P, K)
    iou_by_label: FloatArray  # (T, U, P, K)
    coincidences: FloatArray  # (T, U, K + 1, K + 1); the last category is "no box"


def count(
    table: BoxTable, thresholds: tuple[float, ...], visit: Visit | None = None,
    similarity: Similarity | None = None,
) -> Counts:  # fmt: skip
    """Match every image at every threshold and count (see the module docstring); ``visit``
    sees each image's groups at ``thresholds[0]``; ``similarity`` replaces the boxes' IoU
    (``table.xywh`` then only orders each image's shapes)."""
    n_t, n_u, n_r, n_k = len(thresholds), len(table.units), len(table.raters), len(table.labels)
    pairs = tuple(combinations(range(n_r), 2))
    n_p = len(pairs)
    shape = (n_t, n_u, n_p)
    c = Counts(
        thresholds, pairs, np.zeros(shape), np.zeros(shape), np.zeros(shape),
        np.zeros((*shape, n_k)), np.zeros((*shape, n_k)), np.zeros((*shape, n_k)),
        np.zeros((n_t, n_u, n_k + 1, n_k + 1)),
    )  # fmt: skip
    if visit is None and similarity is None and n_r >= 2:  # the batch path knows boxes only
        _batch.fill(c, table)
        return c
    order = np.argsort(table.unit, kind="stable")
    starts = np.searchsorted(table.unit[order], np.arange(n_u + 1))
    for u in range(n_u):
        rows = order[starts[u] : starts[u + 1]]
        _image(c, u, table, rows, n_r, visit, similarity)
    return c


def _image(
    c: Counts, u: int, t: BoxTable, rows: NDArray[np.int64], n_r: int, visit: Visit | None,
    similarity: Similarity | None = None,
) -> None:  # fmt: skip
    rows = rows[canonical_order(t.rater[rows], t.xywh[rows], t.label[rows])]
    rater, label, xywh = t.rater[rows], t.label[rows], t.xywh[rows]
    n_k = len(t.labels)
    own = [np.flatnonzero(rater == r) for r in range(n_r)]
    per_rater = np.array([np.bincount(label[o], minlength=n_k) for o in own]).reshape(n_r, n_k)
    for p, (a, b) in enumerate(c.pairs):
        c.boxes[:, u, p] = own[a].size + own[b].size
        c.boxes_by_label[:, u, p, :] = per_rater[a] + per_rater[b]
    ious = {
        (a, b): iou_matrix(xywh[own[a]], xywh[own[b]]) if similarity is None
        else similarity(rows[own[a]], rows[own[b]])
        for a, b in c.pairs
        if own[a].size and own[b].size
    }
    for k, threshold in enumerate(c.thresholds):
        edges: list[tuple[float, int, int]] = []
        for p, (a, b) in enumerate(c.pairs):
            if (a, b) not in ious:
                continue
            iou = ious[(a, b)]
            i, j = match_pair(iou, threshold, label[own[a]], label[own[b]])
            hit = iou[i, j]
            c.matched[k, u, p] = i.size
            c.iou_sum[k, u, p] = hit.sum()
            lab = label[own[a]][i]
            c.matched_by_label[k, u, p] += np.bincount(lab, minlength=n_k)
            c.iou_by_label[k, u, p] += np.bincount(lab, weights=hit, minlength=n_k)
            gi, gj = match_pair(iou, threshold)
            edges += zip(iou[gi, gj].tolist(), own[a][gi].tolist(), own[b][gj].tolist())
        group = groups(rows.size, edges, rater)
        if visit is not None and k == 0:
            visit(rows, group)
        _coincide(c.coincidences[k, u], group, rater, label, n_r)


def _coincide(
    out: FloatArray, group: NDArray[np.int64], rater: NDArray[np.int64],
    label: NDArray[np.int64], n_r: int,
) -> None:  # fmt: skip
    """Add each group's pairable values: its boxes' labels, "no box" for the others.

    With ``n`` the groups x categories counts, the sum over groups of
    ``outer(n_g, n_g) - diag(n_g)`` is ``n.T @ n - diag(n.sum(0))``.
    """
    if group.size == 0 or n_r < 2:
        return
    n_cat = out.shape[0]
    _, g = np.unique(group, return_inverse=True)
    g = g.ravel()
    n_g = int(g.max()) + 1
    n = np.bincount(g * n_cat + label, minlength=n_g * n_cat).reshape(n_g, n_cat)
    n = n.astype(np.float64)
    n[:, n_cat - 1] += n_r - np.bincount(g, minlength=n_g)
    out += (n.T @ n - np.diag(n.sum(axis=0))) / (n_r - 1)
