"""What every consensus of shapes shares: groups, quorum, weights, label, order, audit.

:func:`accord.box_consensus`, :func:`accord.polygon_consensus` and
:func:`accord.keypoint_consensus` differ only in the similarity the shapes are grouped
by (box IoU, polygon IoU, OKS) and in how a group's shapes are fused; the rules in
between live here once:

* :func:`grouped`: the groups of ``box_agreement``'s alpha (the counting code's own
  ``visit``), the quorum ``ceil(quorum * n_annotators)`` and each annotator's weight
  (the mean over their pairs of the pairwise F1 at the same threshold). Groups do not
  depend on the order of the rows; they depend on the annotators' names only where two
  matched pairs have exactly the same similarity (the tie is taken in the annotators'
  sorted order), or where one annotator drew two shapes of one label with the same
  bounding box (taken in the input's order), as for the agreement;
* :func:`members`: each group's members in a fixed order (group, annotator), its
  image, support, fusion weights (the plain mean where they sum to 0) and label vote;
* :func:`arrange` and :func:`audit`: the order of the groups (by image, then
  position) and the counts every consensus reports;
* :class:`ShapeConsensus`: the result of the polygons' and the keypoints' consensus,
  shaped as :class:`~accord.images.consensus.BoxConsensus`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.images._counts import Counts, Similarity, count
from accord.inference.display import Tabular
from accord.readers.boxes import BoxTable, audit_json

Fusion = Literal["mean", "weighted"]
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


def check(
    threshold: Any, quorum: Any, fusion: Any, *, func: str, name: str = "iou_threshold",
) -> tuple[float, float]:  # fmt: skip
    """The threshold and the quorum as floats, each in (0, 1], and a known fusion."""
    for param, x in ((name, threshold), ("quorum", quorum)):
        ok = isinstance(x, (int, float)) and not isinstance(x, bool)
        if not ok or not 0.0 < float(x) <= 1.0:
            raise v.fail(param, func, "a number in (0, 1]", x)
    v.choice(fusion, ("weighted", "mean"), param="fusion", func=func)
    return float(threshold), float(quorum)


@dataclass(frozen=True)
class Grouping:
    """Each row's group (-1 for none), each annotator's weight, the support required."""

    gid: IntArray
    weights: FloatArray
    required: int


def grouped(
    table: BoxTable, threshold: float, quorum: float, func: str,
    similarity: Similarity | None = None,
) -> Grouping:  # fmt: skip
    """The groups of alpha at ``threshold``, the annotators' weights and the quorum."""
    n_r = len(table.raters)
    if n_r < 2:
        raise InsufficientDataError(
            f"{func}: a consensus needs two annotators or more; found {list(table.raters)!r}."
        )
    # 0.7 * 10 is 7.000000000000001 in floating point: round before the ceiling
    required = max(1, math.ceil(round(quorum * n_r, 9)))
    gid = np.full(len(table), -1, dtype=np.int64)
    seen = [0]

    def visit(rows: IntArray, group: IntArray) -> None:
        gid[rows] = seen[0] + group
        seen[0] += rows.size

    c = count(table, (threshold,), visit, similarity=similarity)
    return Grouping(gid, weights(c, n_r), required)


def weights(c: Counts, n_r: int) -> FloatArray:
    """Each annotator's mean pairwise F1 (``2 M / (n_A + n_B)`` over all images)."""
    m, n = c.matched[0].sum(axis=0), c.boxes[0].sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(n > 0, 2.0 * m / n, np.nan)
    out = np.full(n_r, np.nan)
    for r in range(n_r):
        mine = f1[[p for p, pair in enumerate(c.pairs) if r in pair]]
        mine = mine[np.isfinite(mine)]
        out[r] = mine.mean() if mine.size else np.nan
    return out


@dataclass(frozen=True)
class Members:
    """The groups' members, sorted by group then annotator (not by the input's order).

    ``rows`` index the table; ``group`` is each member's group (0..n-1); ``weight`` each
    member's fusion weight and ``total`` each group's sum of them (the plain mean's 1s in
    the groups whose weights sum to 0, marked ``plain``).
    """

    rows: IntArray
    group: IntArray
    n: int
    support: IntArray
    image: IntArray
    weight: FloatArray
    total: FloatArray
    plain: NDArray[np.bool_]
    label: IntArray
    share: FloatArray
    tied: dict[int, tuple[str, ...]]

    @property
    def alone(self) -> NDArray[np.bool_]:
        """The members that are their group's only member."""
        return np.asarray(self.support[self.group] == 1)


def members(t: BoxTable, gid: IntArray, weights: FloatArray, fusion: str) -> Members:
    """Each group's members, image, support, fusion weights and label vote."""
    rows = np.lexsort((t.rater, gid)).astype(np.int64)
    _, inv = np.unique(gid[rows], return_inverse=True)
    inv = inv.astype(np.int64).ravel()
    n_g = int(inv.max()) + 1 if inv.size else 0
    support = np.bincount(inv, minlength=n_g).astype(np.int64)
    image = np.zeros(n_g, dtype=np.int64)
    image[inv] = t.unit[rows]
    w = np.ones(rows.size) if fusion == "mean" else np.nan_to_num(weights, nan=0.0)[t.rater[rows]]
    summed = np.bincount(inv, weights=w, minlength=n_g)
    plain = summed <= 0
    w = np.where(plain[inv], 1.0, w)
    total = np.asarray(np.where(plain, support, summed), dtype=np.float64)
    label, share, tied = vote(inv, t.label[rows], t.labels, w, support)
    return Members(rows, inv, n_g, support, image, w, total, plain, label, share, tied)


def vote(
    inv: IntArray, labels: IntArray, names: tuple[str, ...], w: FloatArray, support: IntArray,
) -> tuple[IntArray, FloatArray, dict[int, tuple[str, ...]]]:  # fmt: skip
    """Each group's top label (most members, then most weight, then sorted order), its
    share of the support, and the groups whose top was tied with the tied labels."""
    if inv.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0), {}
    n_k = max(len(names), 1)
    key, where = np.unique(inv * n_k + labels, return_inverse=True)
    where = where.ravel()
    votes = np.bincount(where, minlength=key.size)
    mass = np.bincount(where, weights=w, minlength=key.size)
    group, lab = key // n_k, key % n_k
    order = np.lexsort((lab, -mass, -votes, group))  # the winner first within each group
    first = order[np.r_[True, group[order][1:] != group[order][:-1]]]
    label = lab[first].astype(np.int64)
    share = votes[first] / support
    top = np.zeros(support.size, dtype=np.int64)
    top[group[first]] = votes[first]
    at_top = votes == top[group]
    multi = at_top & (np.bincount(group[at_top], minlength=support.size)[group] > 1)
    tied: dict[int, list[str]] = {}
    for g, k in zip(group[multi].tolist(), lab[multi].tolist()):  # sorted by group, label
        tied.setdefault(g, []).append(names[k])
    return label, share, {g: tuple(names) for g, names in tied.items()}


def arrange(m: Members, position: FloatArray) -> tuple[IntArray, dict[int, tuple[str, ...]]]:
    """The groups' order (by image, then the ``position`` columns, then label: nothing
    that depends on the annotators' names) and the tied groups under their new index."""
    o = np.lexsort((m.label, *position.T[::-1], m.image))
    new_index = np.empty_like(o)
    new_index[o] = np.arange(o.size)
    return o, {int(new_index[g]): names for g, names in m.tied.items()}


def audit(
    t: BoxTable, m: Members, accepted: NDArray[np.bool_], fusion: str, noun: str,
) -> dict[str, Any]:  # fmt: skip
    """What was read, and the counts of groups, consensus shapes, groups below quorum (by
    support), tied labels and groups fused by the plain mean for want of weight;
    ``accepted`` is in the order of ``m``'s groups (the counts are in no order)."""
    below = m.support[~accepted]
    return {**t.audit, "images": len(t.units), "annotators": list(t.raters),
            "groups": m.n, f"consensus_{noun}": int(accepted.sum()),
            "below_quorum": int(below.size),
            "below_quorum_by_support": [{"support": int(s), "count": int((below == s).sum())}
                                        for s in np.unique(below).tolist()],
            "groups_tied": len(m.tied),
            "unweighted_groups": int(m.plain.sum()) if fusion == "weighted" else 0}  # fmt: skip


@dataclass(frozen=True, eq=False, kw_only=True)
class ShapeConsensus(Tabular):
    """Consensus shapes, one entry per group of every image, by image then position.

    Attributes
    ----------
    measure : {"iou", "oks"}
        The similarity the shapes were grouped by.
    threshold, quorum, fusion
        The settings.
    required : int
        The shapes a group needs: ``ceil(quorum * n_annotators)``.
    annotators : tuple of str
    weights : tuple of float
        Each annotator's agreement (mean pairwise F1), ``nan`` when no pair of theirs
        drew a shape; the fusion weights under ``fusion="weighted"``.
    images, labels : tuple of str
        The names the codes index.
    image, label, support : (G,) int arrays
        Each group's image, label and support (its annotators).
    spread, label_share : (G,) float arrays
        The members' mean similarity to the fused shape; the top label's share.
    accepted : (G,) bool array
        Support at least ``required``.
    tied : mapping of group index to tuple of str
        The groups whose top label was tied, with the tied labels.
    audit : mapping
        What was read and the counts of groups, consensus shapes and groups below quorum.
    """

    noun: ClassVar[str] = "shapes"

    measure: str
    threshold: float
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
    spread: FloatArray
    label_share: FloatArray
    accepted: NDArray[np.bool_]
    tied: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    audit: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.accepted.sum())

    def _shape(self, g: int) -> dict[str, Any]:
        """The fused shape of group ``g`` as row fields."""
        raise NotImplementedError

    def _settings(self) -> dict[str, Any]:
        return {}

    def _rows(self, keep: NDArray[np.bool_]) -> list[dict[str, Any]]:
        n = len(self.annotators)
        return [{"image": self.images[self.image[g]], "label": self.labels[self.label[g]],
                 **self._shape(g), "support": int(self.support[g]), "n_annotators": n,
                 "spread": float(self.spread[g]), "label_share": float(self.label_share[g]),
                 "tied_labels": list(self.tied.get(g, ()))}
                for g in np.flatnonzero(keep).tolist()]  # fmt: skip

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per consensus shape, by image: image, label, the shape's fields,
        support, n_annotators, spread, label_share, tied_labels (empty unless tied)."""
        return self._rows(self.accepted)

    def below_quorum(self) -> list[dict[str, Any]]:
        """The groups below quorum, as :meth:`rows` (their fused shape and top label)."""
        return self._rows(~self.accepted)

    def _frame_rows(self) -> list[dict[str, Any]]:
        return self.rows()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, full precision: the settings, each annotator's weight, the consensus
        shapes under ``results``, the groups below quorum and the audit."""
        return {
            f"{self.measure}_threshold": self.threshold, "quorum": self.quorum,
            "required": self.required, "fusion": self.fusion, **self._settings(),
            "n_annotators": len(self.annotators),
            "annotators": [{"annotator": a, "weight": None if math.isnan(w) else w}
                           for a, w in zip(self.annotators, self.weights)],
            "results": self.rows(), "below_quorum": self.below_quorum(),
            "audit": audit_json(self.audit),
        }  # fmt: skip

    def __str__(self) -> str:
        return (f"{type(self).__name__}({len(self)} {self.noun} on "
                f"{len(set(self.image[self.accepted].tolist()))} images; "
                f"{int((~self.accepted).sum())} groups below quorum ({self.required} of "
                f"{len(self.annotators)} annotators); {self.fusion})")  # fmt: skip


def common(
    t: BoxTable, m: Members, g: Grouping, position: FloatArray, settings: tuple[Any, ...],
    spread: FloatArray, noun: str,
) -> tuple[dict[str, Any], IntArray]:  # fmt: skip
    """The fields of a :class:`ShapeConsensus` but its shapes, and the order of the groups
    (:func:`arrange`) the shapes are to be taken in."""
    measure, threshold, quorum, fusion = settings
    accepted = m.support >= g.required
    o, tied = arrange(m, position)
    return {"measure": measure, "threshold": threshold, "quorum": quorum, "fusion": fusion,
            "required": g.required, "annotators": t.raters,
            "weights": tuple(g.weights.tolist()), "images": t.units, "labels": t.labels,
            "image": m.image[o], "label": m.label[o], "support": m.support[o],
            "spread": spread[o], "label_share": m.share[o], "accepted": accepted[o],
            "tied": tied, "audit": audit(t, m, accepted, fusion, noun)}, o  # fmt: skip
