"""Consensus keypoints: each object the annotators keypointed, as one set with its support.

* **Groups, quorum, label, weights**: :func:`accord.box_consensus`'s rules
  (:mod:`accord.images.consensus`) with COCO's OKS in place of IoU: the groups of
  ``keypoint_agreement``'s alpha (each annotator pair matched one-to-one, label-blind, at
  OKS at least ``oks_threshold``; groups joined by decreasing OKS, at most one object
  per annotator, not depending on the order of the rows nor, but for exact ties, on the
  annotators' names: :mod:`accord.images._consensus`); a group becomes a consensus
  object when its support reaches ``ceil(quorum * n_annotators)`` (CVAT's rule); its
  label is the majority label; an annotator's weight is the mean over their pairs of
  the pairwise keypoint F1 at the same threshold.
* **Fusion, per named keypoint.** With ``w_i`` the members' weights (1 each under
  ``fusion="mean"``, and in a group whose weights sum to 0, counted in
  ``audit["unweighted_groups"]``) and ``W`` their sum, keypoint ``k`` is labelled in the
  fused set when the members who labelled it (``v > 0``) hold at least half the weight
  (``sum_{i: v_ik > 0} w_i >= W / 2``, within a relative 1e-12 for rounding; an even
  split labels it). Its coordinates are the weighted mean of those members' coordinates;
  its visibility is 2 (visible) when the members who marked it visible hold at least half
  of that weight, else 1 (labelled, not visible). A point labelled by too little weight
  is 0 (``x = y = 0`` in :meth:`KeypointConsensus.rows`, as COCO writes it). The area
  (the OKS scale) is the weighted mean of the members' areas. A group of one is that
  object.
* **Spread.** The mean OKS of the members to the fused set (same sigmas and ``visible``
  convention as the grouping).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.images._consensus import (
    Fusion,
    Members,
    ShapeConsensus,
    check,
    common,
    grouped,
    members,
)
from accord.images.keypoints import _table, oks_matrix, oks_similarity
from accord.readers.keypoints import sigmas_of

__all__ = ["KeypointConsensus", "keypoint_consensus"]

FUNC = "keypoint_consensus"
FloatArray = NDArray[np.float64]
#: An even split of the weight labels a point; this much rounding still counts as even.
_EVEN = 1e-12


@dataclass(frozen=True, eq=False, kw_only=True)
class KeypointConsensus(ShapeConsensus):
    """Consensus keypoints (see :func:`keypoint_consensus`): one entry per group of every
    image, by image (in sorted order), then the box of the fused points, the points and label.

    Attributes
    ----------
    names : tuple of str
        The keypoints' names, in the order of ``points``' second axis.
    points : (G, K, 3) float array
        Each group's fused ``x, y, v`` per keypoint (``x, y`` are ``nan`` where ``v == 0``).
    area : (G,) float array
        Each group's fused area (the OKS scale).

    The other attributes are :class:`~accord.images._consensus.ShapeConsensus`'s, with
    ``measure="oks"``.
    """

    noun: ClassVar[str] = "objects"

    names: tuple[str, ...]
    points: FloatArray
    area: FloatArray

    @property
    def oks_threshold(self) -> float:
        """The OKS two annotators' objects reach at least to be grouped."""
        return self.threshold

    def _shape(self, g: int) -> dict[str, Any]:
        flat: list[float] = []
        for x, y, vis in self.points[g].tolist():
            flat += [x, y, int(vis)] if vis > 0 else [0.0, 0.0, 0]
        return {"keypoints": flat, "area": float(self.area[g])}

    def _settings(self) -> dict[str, Any]:
        return {"keypoint_names": list(self.names)}


def keypoint_consensus(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    keypoints: str = "keypoints",
    area: str = "area",
    names: Sequence[str] | None = None,
    sigmas: Mapping[str, float] | None = None,
    visible: Literal["either", "both"] = "either",
    oks_threshold: float = 0.5,
    quorum: float = 0.5,
    fusion: Fusion = "weighted",
) -> KeypointConsensus:
    """One set of keypoints per object the annotators keypointed, where a quorum did.

    Parameters
    ----------
    data, unit, rater, label, keypoints, area, names, sigmas, visible
        As for :func:`accord.keypoint_agreement`: a table with one row per object, or a
        tool's export; the keypoints' names, sigmas and which points an OKS counts.
    oks_threshold : float in (0, 1]
        Two annotators' objects can be grouped when their OKS is at least this.
    quorum : float in (0, 1]
        The share of the annotators (all the table's annotators) who must have an object
        in a group: it needs ``ceil(quorum * n_annotators)`` (CVAT's rule).
    fusion : {"weighted", "mean"}
        The members' weights: each annotator's mean pairwise keypoint F1, or 1 each.

    Returns
    -------
    KeypointConsensus
        ``rows()`` (the consensus objects, keypoints as COCO's flat ``[x, y, v, ...]``),
        ``below_quorum()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    The rules (groups, quorum, label, per-point fusion, visibility, spread) are in
    :mod:`accord.images.keypoint_consensus`.

    References
    ----------
    CVAT, "Consensus-based annotation" (merging settings: quorum, min overlap).
    Lin et al. (2014), COCO, keypoint evaluation (``computeOks``).

    Examples
    --------
    Three annotators place a three-point "hand"; ``c`` did not label the tip. The wrist
    and the thumb are the means of three placements, the tip of two (2 of 3 labelled it).

    >>> import accord
    >>> res = accord.keypoint_consensus({"image": ["i1"] * 3, "annotator": ["a", "b", "c"],
    ...     "label": ["hand"] * 3, "area": [400] * 3, "keypoints": [
    ...         [0, 0, 2, 5, 5, 2, 10, 0, 2], [1, 0, 2, 5, 6, 2, 11, 0, 2],
    ...         [2, 0, 2, 5, 7, 2, 0, 0, 0]]}, names=["wrist", "thumb", "tip"],
    ...     sigmas={"wrist": 0.1, "thumb": 0.1, "tip": 0.1}, fusion="mean")
    >>> [(r["keypoints"], r["support"]) for r in res.rows()]
    [([1.0, 0.0, 2, 5.0, 6.0, 2, 10.5, 0.0, 2], 3)]
    """
    thr, q = check(oks_threshold, quorum, fusion, func=FUNC, name="oks_threshold")
    if visible not in ("either", "both"):
        raise v.fail("visible", FUNC, "one of {'either', 'both'}", visible)
    table = _table(data, unit=unit, rater=rater, label=label, keypoints=keypoints, area=area,
                   names=names)  # fmt: skip
    sig = sigmas_of(table.names, sigmas, FUNC)
    boxes = table.as_boxes()
    g = grouped(boxes, thr, q, FUNC, oks_similarity(table, sig, visible))
    m = members(boxes, g.gid, g.weights, fusion)
    pts, size = _fuse(table.points[m.rows], table.area[m.rows], m)
    spread = _spread(table.points[m.rows], table.area[m.rows], pts, size, m, sig, visible)
    fields, o = common(boxes, m, g, _position(pts), ("oks", thr, q, fusion), spread,
                       "objects")  # fmt: skip
    return KeypointConsensus(**fields, names=table.names, points=pts[o], area=size[o])


def _by_group(m: Members, values: FloatArray) -> FloatArray:
    """Per group and keypoint, the sum of the members' ``values`` (n, K) -> (G, K)."""
    k = values.shape[1]
    key = (m.group[:, None] * k + np.arange(k)[None, :]).ravel()
    sums = np.bincount(key, weights=values.ravel(), minlength=m.n * k)
    return np.asarray(sums, dtype=np.float64).reshape(m.n, k)


def _fuse(p: FloatArray, size: FloatArray, m: Members) -> tuple[FloatArray, FloatArray]:
    """The fused ``x, y, v`` per group and keypoint, and the fused areas (module docstring)."""
    w = m.weight[:, None]
    labelled = p[:, :, 2] > 0
    mass = _by_group(m, w * labelled)
    shown = (2.0 * mass >= m.total[:, None] * (1.0 - _EVEN)) & (mass > 0)
    xy = np.where(labelled[:, :, None], p[:, :, :2], 0.0)
    out = np.full((m.n, p.shape[1], 3), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        for c in range(2):
            out[:, :, c] = np.where(shown, _by_group(m, w * labelled * xy[:, :, c]) / mass, np.nan)
    seen = _by_group(m, w * (p[:, :, 2] == 2))
    out[:, :, 2] = np.where(shown, np.where(2.0 * seen >= mass * (1.0 - _EVEN), 2.0, 1.0), 0.0)
    area = np.bincount(m.group, weights=m.weight * size, minlength=m.n) / m.total
    alone = m.alone
    out[m.group[alone]] = p[alone]  # an object alone is itself, not w x / w
    area[m.group[alone]] = size[alone]
    return out, area


def _spread(
    p: FloatArray, size: FloatArray, fused: FloatArray, fused_area: FloatArray, m: Members,
    sigmas: FloatArray, visible: Literal["either", "both"],
) -> FloatArray:  # fmt: skip
    """Each group's mean OKS of its members to its fused set."""
    out = np.zeros(m.n)
    starts = np.searchsorted(m.group, np.arange(m.n + 1))
    for g in range(m.n):
        lo, hi = starts[g], starts[g + 1]
        oks = oks_matrix(p[lo:hi], size[lo:hi], fused[g : g + 1], fused_area[g : g + 1],
                         sigmas, visible=visible)  # fmt: skip
        out[g] = oks[:, 0].mean()
    return out


def _position(pts: FloatArray) -> FloatArray:
    """Each fused set's order key: the box of its labelled points (x, y, w, h; ``nan``
    when none is), then every point's x, y, v (two sets in one box are told apart)."""
    lo = np.fmin.reduce(pts[:, :, :2], axis=1)
    hi = np.fmax.reduce(pts[:, :, :2], axis=1)
    every = np.nan_to_num(pts, nan=-1.0).reshape(len(pts), -1)
    return np.asarray(np.concatenate([lo, hi - lo, every], axis=1), dtype=np.float64)
