"""The one place the matching rule for boxes lives.

* :func:`iou_matrix`: intersection over union of every box of one set with every
  box of another, on arrays (``x, y, w, h`` as in COCO).
* :func:`match_pair`: one-to-one matching of two annotators' boxes on one image by
  :func:`scipy.optimize.linear_sum_assignment`. A pair can match when its IoU is
  at least the threshold (a pair exactly at the threshold matches) and, when
  ``labels`` are compared, the labels are the same. Among the matchings the one
  with the most matched pairs is taken, and among those the largest total IoU
  (weights ``1 + IoU`` on the pairs that can match, 0 elsewhere).
* :func:`groups`: the matched objects of all annotators on one image, formed from
  the pairwise matchings so that they do not depend on the annotators' order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["groups", "iou_matrix", "match_pair", "paired_iou"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def iou_matrix(a: FloatArray, b: FloatArray) -> FloatArray:
    """IoU of each box of ``a`` (n x 4) with each box of ``b`` (m x 4), shape (n, m).

    >>> iou_matrix(np.array([[0.0, 0, 2, 1]]), np.array([[0.0, 0, 1, 1]]))
    array([[0.5]])
    """
    ax0, ay0 = a[:, 0:1], a[:, 1:2]
    ax1, ay1 = ax0 + a[:, 2:3], ay0 + a[:, 3:4]
    bx0, by0 = b[None, :, 0], b[None, :, 1]
    bx1, by1 = bx0 + b[None, :, 2], by0 + b[None, :, 3]
    iw = np.clip(np.minimum(ax1, bx1) - np.maximum(ax0, bx0), 0.0, None)
    ih = np.clip(np.minimum(ay1, by1) - np.maximum(ay0, by0), 0.0, None)
    inter = iw * ih
    union = (a[:, 2:3] * a[:, 3:4]) + (b[None, :, 2] * b[None, :, 3]) - inter
    return np.asarray(inter / union, dtype=np.float64)


def paired_iou(a: FloatArray, b: FloatArray) -> FloatArray:
    """IoU of each box of ``a`` (n x 4) with the box of ``b`` (n x 4) in the same row.

    The same operations as :func:`iou_matrix`, so the same pair gives the same bits.

    >>> paired_iou(np.array([[0.0, 0, 2, 1], [0, 0, 1, 1]]), np.array([[0.0, 0, 1, 1]] * 2))
    array([0.5, 1. ])
    """
    ax0, ay0 = a[:, 0], a[:, 1]
    bx0, by0 = b[:, 0], b[:, 1]
    iw = np.clip(np.minimum(ax0 + a[:, 2], bx0 + b[:, 2]) - np.maximum(ax0, bx0), 0.0, None)
    ih = np.clip(np.minimum(ay0 + a[:, 3], by0 + b[:, 3]) - np.maximum(ay0, by0), 0.0, None)
    inter = iw * ih
    union = (a[:, 2] * a[:, 3]) + (b[:, 2] * b[:, 3]) - inter
    return np.asarray(inter / union, dtype=np.float64)


def match_pair(
    iou: FloatArray,
    threshold: float,
    labels_a: IntArray | None = None,
    labels_b: IntArray | None = None,
) -> tuple[IntArray, IntArray]:
    """Row and column indices of the matched pairs (see the module docstring)."""
    ok = iou >= threshold
    if labels_a is not None and labels_b is not None:
        ok &= labels_a[:, None] == labels_b[None, :]
    if not ok.any():
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    from scipy.optimize import linear_sum_assignment

    weight = np.where(ok, 1.0 + iou, 0.0)
    rows, cols = linear_sum_assignment(weight, maximize=True)
    keep = ok[rows, cols]
    return rows[keep].astype(np.int64), cols[keep].astype(np.int64)


def groups(
    n_boxes: int,
    edges: list[tuple[float, int, int]],
    rater_of: IntArray,
) -> IntArray:
    """The group of each box of one image, from the matched pairs of every annotator pair.

    ``edges`` are ``(iou, i, j)`` for each matched pair, ``i`` and ``j`` indices of
    boxes in a canonical order (by annotator name, then coordinates and label, so
    not by input order). Edges are taken by decreasing IoU (ties by ``i``, then
    ``j``), and each joins the groups of its two boxes unless the two groups
    already hold a box of the same annotator: a group holds at most one box per
    annotator. A box matched with nobody is a group of its own.
    """
    parent = list(range(n_boxes))
    members: dict[int, set[int]] = {k: {int(rater_of[k])} for k in range(n_boxes)}

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for _, i, j in sorted(edges, key=lambda e: (-e[0], e[1], e[2])):
        ri, rj = root(i), root(j)
        if ri == rj or members[ri] & members[rj]:
            continue
        parent[rj] = ri
        members[ri] |= members.pop(rj)
    return np.array([root(k) for k in range(n_boxes)], dtype=np.int64)


def canonical_order(rater: IntArray, xywh: FloatArray, label: IntArray) -> Any:
    """The order of one image's boxes by annotator, then x, y, w, h and label."""
    return np.lexsort((label, xywh[:, 3], xywh[:, 2], xywh[:, 1], xywh[:, 0], rater))
