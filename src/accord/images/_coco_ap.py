"""COCO's average precision for boxes, as pycocotools' ``COCOeval`` computes it.

Matching (``evaluateImg``): per image and label, the system's boxes by decreasing
score (stable: ties keep the rows' order), at most ``max_det`` of them; each takes,
among the reference boxes not matched yet, the last one of highest IoU at least
``min(threshold, 1 - 1e-10)``. Accumulation (``accumulate``): per label, the
detections of all images (images in sorted order) by decreasing score (stable);
precision ``tp / (tp + fp + eps)`` and recall ``tp / n_ref`` along them, precision
made non-increasing from the end, read at the first detection whose recall
reaches each recall point (0 past the last). A label with no reference box is left
out of the mean; a label with reference boxes and no detection counts 0.

For the bootstrap, each detection and each reference box is weighted by how many
times its image is drawn: the cumulative sums weigh them, no image is matched again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.images._figures import figure
from accord.images.matching import iou_matrix
from accord.inference.results import AgreementResult
from accord.readers.boxes import BoxTable

FloatArray = NDArray[np.float64]
_EPS = float(np.spacing(1))


def ap_table(
    t: BoxTable, score: FloatArray, ref: int, sys_: int, thresholds: FloatArray,
    recalls: FloatArray, max_det: int,
) -> tuple[AgreementResult, AgreementResult, AgreementResult]:  # fmt: skip
    """AP (mean over ``thresholds``), AP at 0.50 and AP at 0.75, with a bootstrap."""
    n_u, n_k = len(t.units), len(t.labels)
    image_of: list[NDArray[np.int64]] = []
    hits: list[NDArray[np.bool_]] = []  # per label: (T, n detections of that label)
    n_ref = np.zeros((n_u, n_k))
    for k in range(n_k):
        img_k, hit_k = _label(t, score, ref, sys_, k, thresholds, max_det, n_ref)
        image_of.append(img_k)
        hits.append(hit_k)
    columns = np.concatenate(image_of) if image_of else np.zeros(0, dtype=np.int64)
    x = np.zeros((n_u, columns.shape[0] + n_k))
    x[columns, np.arange(columns.shape[0])] = 1.0
    x[:, columns.shape[0]:] = n_ref
    sizes = [h.shape[1] for h in hits]
    picks = {"coco_ap": slice(None), "coco_ap50": [_at(thresholds, 0.5)],
             "coco_ap75": [_at(thresholds, 0.75)]}  # fmt: skip
    out = []
    for name, which in picks.items():
        stat = _stat(hits, sizes, recalls, which)
        out.append(figure(name, x, stat, images=t.units, n_raters=2, what=name,
                          why_undefined="the reference drew no box",
                          details={"max_detections": max_det}, warn=name == "coco_ap"))
    return out[0], out[1], out[2]


def _at(thresholds: FloatArray, value: float) -> int:
    return int(np.flatnonzero(np.isclose(thresholds, value))[0])


def _label(
    t: BoxTable, score: FloatArray, ref: int, sys_: int, k: int, thresholds: FloatArray,
    max_det: int, n_ref: FloatArray,
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:  # fmt: skip
    """This label's detections in accumulation order: their image, and matched or not."""
    images, scores, hit = [], [], []
    for u in range(len(t.units)):
        here = (t.unit == u) & (t.label == k)
        g = np.flatnonzero(here & (t.rater == ref))
        d = np.flatnonzero(here & (t.rater == sys_))
        n_ref[u, k] = g.size
        d = d[np.argsort(-score[d], kind="mergesort")][:max_det]
        if d.size == 0:
            continue
        ious = iou_matrix(t.xywh[d], t.xywh[g]) if g.size else np.zeros((d.size, 0))
        hit.append(np.stack([_greedy(ious, thr) for thr in thresholds]))
        images.append(np.full(d.size, u, dtype=np.int64))
        scores.append(score[d])
    if not images:
        return np.zeros(0, dtype=np.int64), np.zeros((len(thresholds), 0), dtype=bool)
    order = np.argsort(-np.concatenate(scores), kind="mergesort")
    return np.concatenate(images)[order], np.concatenate(hit, axis=1)[:, order]


def _greedy(ious: FloatArray, threshold: float) -> NDArray[np.bool_]:
    """pycocotools' matching of detections (rows, by score) to reference boxes."""
    taken = np.zeros(ious.shape[1], dtype=bool)
    out = np.zeros(ious.shape[0], dtype=bool)
    for d in range(ious.shape[0]):
        best, m = min(float(threshold), 1 - 1e-10), -1
        for g in range(ious.shape[1]):
            if taken[g] or ious[d, g] < best:
                continue
            best, m = float(ious[d, g]), g
        if m >= 0:
            taken[m] = out[d] = True
    return out


def _stat(
    hits: list[NDArray[np.bool_]], sizes: list[int], recalls: FloatArray, which: Any
) -> Callable[[FloatArray], FloatArray]:
    edges = np.cumsum([0, *sizes])
    n_det = int(edges[-1])

    def stat(s: FloatArray) -> FloatArray:
        out = np.empty(s.shape[0])
        for b in range(s.shape[0]):
            weights, n_ref = s[b, :n_det], s[b, n_det:]
            per: list[FloatArray] = []
            for k, hit in enumerate(hits):
                if n_ref[k] <= 0:
                    continue
                per.append(_precision(hit[which], weights[edges[k] : edges[k + 1]],
                                      float(n_ref[k]), recalls))  # fmt: skip
            out[b] = float(np.mean(np.concatenate([p.ravel() for p in per]))) if per else math.nan
        return out

    return stat


def _precision(
    hit: NDArray[np.bool_], w: FloatArray, n_ref: float, recalls: FloatArray
) -> FloatArray:
    """Precision at each recall point for each threshold (rows of ``hit``)."""
    q = np.zeros((hit.shape[0], recalls.shape[0]))
    if hit.shape[1] == 0:
        return q
    tp = np.cumsum(hit * w, axis=1)
    fp = np.cumsum(~hit * w, axis=1)
    rc = tp / n_ref
    pr = tp / (fp + tp + _EPS)
    pr = np.maximum.accumulate(pr[:, ::-1], axis=1)[:, ::-1]
    for i in range(hit.shape[0]):
        idx = np.searchsorted(rc[i], recalls, side="left")
        ok = idx < rc.shape[1]
        q[i, ok] = pr[i, idx[ok]]
    return q
