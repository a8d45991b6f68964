"""Consensus boxes: each object the annotators drew, as one box with its support.

* **Groups.** On each image the boxes are grouped as for ``box_agreement``'s alpha
  (:func:`accord.images.matching.groups`): every pair of annotators is matched
  one-to-one, label-blind, a pair at IoU at least ``iou_threshold`` can match (a pair
  exactly at the threshold does); groups join along the matched pairs by decreasing
  IoU and hold at most one box per annotator, so they do not depend on the order of
  the annotators or of the rows.
* **Quorum** (CVAT's consensus merging rule). A group becomes a consensus box when its
  ``support`` (the annotators with a box in it) is at least
  ``required = ceil(quorum * n_annotators)``, where ``n_annotators`` is every
  annotator of the table: accord takes each annotator to have seen every image (as
  ``box_agreement`` does, and as each of CVAT's replicas covers every frame of its
  job), so the denominator is the same on every image and an annotator who drew
  nothing there counts against the box. The product is rounded to 9 decimals before
  the ceiling, so a quorum of 0.7 of 10 annotators needs 7 boxes (in plain floating
  point ``0.7 * 10`` is 7.000000000000001). The groups below quorum are kept in
  :meth:`BoxConsensus.below_quorum` and counted in the audit.
* **Label.** The label most of the group's boxes carry; ``label_share`` is its boxes
  over the support. A tie goes to the label whose annotators have the larger summed
  weight (below; with ``fusion="mean"`` every weight is 1, so a tie stays), then to
  the first in sorted order; the tied labels are named in ``tied_labels``.
* **Coordinates.** ``fusion="mean"``: the mean of the members' ``x, y, w, h`` (the
  same as the mean of their corners). ``fusion="weighted"``: the mean weighted by each
  member's annotator weight, the mean over that annotator's pairs of the pairwise F1
  (``box_agreement(...).pairs[...].f1`` at the same threshold: same label, IoU at
  least the threshold, one-to-one). A group whose members' weights sum to 0 is fused
  by the plain mean, and counted (``audit["unweighted_groups"]``).
* **Spread.** The mean IoU of the members to the fused box (1 when they coincide).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.images._consensus import (
    Fusion,
    Grouping,
    Members,
    arrange,
    audit,
    check,
    grouped,
    members,
)
from accord.inference.display import Tabular
from accord.readers.boxes import BoxTable, audit_json

__all__ = ["BoxConsensus", "box_consensus"]

FUNC = "box_consensus"
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class BoxConsensus(Tabular):
    """Consensus boxes (see :func:`box_consensus`); one entry per group of every image, by
    image (in sorted order), then x, y, w, h and label of the fused box.

    Attributes
    ----------
    iou_threshold, quorum, fusion
        The settings.
    required : int
        The boxes a group needs: ``ceil(quorum * n_annotators)``.
    annotators : tuple of str
    weights : tuple of float
        Each annotator's agreement (mean pairwise F1), ``nan`` when no pair of theirs
        drew a box; the fusion weights under ``fusion="weighted"``.
    images, labels : tuple of str
        The names the codes index.
    image, label, support : (G,) int arrays
        Each group's image, label and support.
    xywh : (G, 4) float array
        Each group's fused box.
    spread, label_share : (G,) float arrays
    accepted : (G,) bool array
        Support at least ``required``.
    tied : mapping of group index to tuple of str
        The groups whose top label was tied, with the tied labels.
    audit : mapping
        What was read and the counts of groups, consensus boxes and groups below quorum.
    """

    iou_threshold: float
    quorum: float
    fusion: Fusion
    required: int
    annotators: tuple[str, ...]
    weights: tuple[float, ...]
    images: tuple[str, ...]
    labels: tuple[str, ...]
    image: IntArray
    label: IntArray
    support: IntArray
    xywh: FloatArray
    spread: FloatArray
    label_share: FloatArray
    accepted: NDArray[np.bool_]
    tied: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    audit: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.accepted.sum())

    def _rows(self, keep: NDArray[np.bool_]) -> list[dict[str, Any]]:
        n = len(self.annotators)
        return [{"image": self.images[self.image[g]], "label": self.labels[self.label[g]],
                 "x": float(self.xywh[g, 0]), "y": float(self.xywh[g, 1]),
                 "w": float(self.xywh[g, 2]), "h": float(self.xywh[g, 3]),
                 "support": int(self.support[g]), "n_annotators": n,
                 "spread": float(self.spread[g]), "label_share": float(self.label_share[g]),
                 "tied_labels": list(self.tied.get(g, ()))}
                for g in np.flatnonzero(keep).tolist()]  # fmt: skip

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per consensus box, by image: image, label, x, y, w, h, support,
        n_annotators, spread, label_share, tied_labels (empty unless the label was tied)."""
        return self._rows(self.accepted)

    def below_quorum(self) -> list[dict[str, Any]]:
        """The groups below quorum, as :meth:`rows` (their fused box and top label)."""
        return self._rows(~self.accepted)

    def _frame_rows(self) -> list[dict[str, Any]]:
        return self.rows()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, full precision: the settings, each annotator's weight, the consensus
        boxes under ``results``, the groups below quorum and the audit."""
        return {
            "iou_threshold": self.iou_threshold, "quorum": self.quorum,
            "required": self.required, "fusion": self.fusion,
            "n_annotators": len(self.annotators),
            "annotators": [{"annotator": a, "weight": None if math.isnan(w) else w}
                           for a, w in zip(self.annotators, self.weights)],
            "results": self.rows(), "below_quorum": self.below_quorum(),
            "audit": audit_json(self.audit),
        }  # fmt: skip

    def __str__(self) -> str:
        return (f"BoxConsensus({len(self)} boxes on {len(set(self.image[self.accepted]))} "
                f"images; {int((~self.accepted).sum())} groups below quorum "
                f"({self.required} of {len(self.annotators)} annotators); {self.fusion})")


def box_consensus(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    box: Sequence[str] = ("x", "y", "w", "h"),
    iou_threshold: float = 0.5,
    quorum: float = 0.5,
    fusion: Fusion = "weighted",
) -> BoxConsensus:
    """One box per object the annotators drew: the groups that reach the quorum, fused.

    Parameters
    ----------
    data, unit, rater, label, box
        As for :func:`accord.box_agreement`: a table with one row per box, or a tool's
        export.
    iou_threshold : float in (0, 1]
        Two annotators' boxes can be grouped when their IoU is at least this.
    quorum : float in (0, 1]
        The share of the annotators (all the table's annotators) who must have a box in
        a group: it needs ``ceil(quorum * n_annotators)`` boxes (CVAT's rule).
    fusion : {"weighted", "mean"}
        The fused coordinates: the mean of the members' boxes weighted by each
        annotator's mean pairwise F1, or the plain mean.

    Returns
    -------
    BoxConsensus
        ``rows()`` (the consensus boxes), ``below_quorum()``, ``to_dict()``,
        ``to_frame()``.

    Notes
    -----
    The rules (groups, quorum, label and its ties, weights, spread) are in
    :mod:`accord.images.consensus`. Groups are formed as for ``box_agreement``'s
    alpha, so a consensus box is one of the objects alpha is computed on.

    References
    ----------
    CVAT, "Consensus-based annotation" (merging settings: quorum, min overlap).

    Examples
    --------
    Three annotators; two drew the cat (so 2 of 3 reach a quorum of 0.5), one drew a
    dog alone.

    >>> import accord
    >>> res = accord.box_consensus({"image": ["i1"] * 4, "annotator": ["a", "b", "c", "c"],
    ...     "label": ["cat", "cat", "dog", "cat"], "x": [0, 0, 50, 90], "y": [0, 0, 50, 90],
    ...     "w": [10, 10, 5, 5], "h": [10, 12, 5, 5]}, fusion="mean")
    >>> [(r["label"], r["h"], r["support"]) for r in res.rows()]
    [('cat', 11.0, 2)]
    >>> res.audit["below_quorum"]
    2
    """
    thr, q = check(iou_threshold, quorum, fusion, func=FUNC)
    from accord.images.agreement import _table

    table = _table(data, unit=unit, rater=rater, label=label, box=box)
    g = grouped(table, thr, q, FUNC)
    return _fuse(table, members(table, g.gid, g.weights, fusion), g, (thr, q, fusion))


def _fuse(t: BoxTable, m: Members, g: Grouping, settings: tuple[Any, ...]) -> BoxConsensus:
    thr, q, fusion = settings
    # members summed in a fixed order (group, annotator), not in the order of the rows
    inv, w, xy = m.group, m.weight, t.xywh[m.rows]
    xywh = np.column_stack([np.bincount(inv, weights=w * xy[:, k], minlength=m.n)
                            for k in range(4)]).reshape(m.n, 4) / m.total[:, None]
    xywh[inv[m.alone]] = xy[m.alone]  # a box alone is itself, not w x / w
    spread = np.bincount(inv, weights=_iou_rows(xy, xywh[inv]), minlength=m.n) / m.support
    accepted = m.support >= g.required
    audit_ = audit(t, m, accepted, fusion, "boxes")
    o, tied = arrange(m, xywh)
    return BoxConsensus(
        thr, q, fusion, g.required, t.raters, tuple(g.weights.tolist()), t.units, t.labels,
        m.image[o], m.label[o], m.support[o], xywh[o], spread[o], m.share[o], accepted[o],
        tied, audit_,
    )  # fmt: skip


def _iou_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """IoU of each box of ``a`` with the box of ``b`` in the same row."""
    iw = np.clip(np.minimum(a[:, 0] + a[:, 2], b[:, 0] + b[:, 2])
                 - np.maximum(a[:, 0], b[:, 0]), 0.0, None)  # fmt: skip
    ih = np.clip(np.minimum(a[:, 1] + a[:, 3], b[:, 1] + b[:, 3])
                 - np.maximum(a[:, 1], b[:, 1]), 0.0, None)  # fmt: skip
    inter = iw * ih
    iou = inter / (a[:, 2] * a[:, 3] + b[:, 2] * b[:, 3] - inter)
    return np.asarray(np.minimum(iou, 1.0), dtype=np.float64)  # rounding can pass 1
