"""Consensus polygons: each object the annotators outlined, as one region with its support.

* **Groups, quorum, label, weights**: :func:`accord.box_consensus`'s rules
  (:mod:`accord.images.consensus`) with the outlines' exact IoU in place of the boxes':
  the groups of ``polygon_agreement``'s alpha (each annotator pair matched one-to-one,
  label-blind, at IoU at least ``iou_threshold``; groups joined by decreasing IoU, at
  most one outline per annotator, not depending on the order of the rows nor, but for
  exact ties, on the annotators' names: :mod:`accord.images._consensus`); a group
  becomes a consensus polygon when its support reaches ``ceil(quorum * n_annotators)``
  (CVAT's rule); its label is the majority label; an annotator's weight is the mean
  over their pairs of the pairwise polygon F1 at the same threshold.
* **Fusion: the weighted majority of area.** With ``w_i`` the members' weights (1 each
  under ``fusion="mean"``, and in a group whose weights sum to 0, counted in
  ``audit["unweighted_groups"]``) and ``W`` their sum, the fused region is the set of
  points covered by members holding at least half the weight:
  ``{p : sum_{i: p in P_i} w_i >= W / 2}`` (within a relative 1e-12 for rounding; an
  even split keeps the point, so two members give their union). It equals the union,
  over the subsets of members whose weight reaches ``W / 2``, of their intersections;
  accord computes it without enumerating subsets: the members' outlines are noded
  together and cut the plane into faces (``shapely.polygonize``), each face lies inside
  a fixed set of members, and the faces whose members reach ``W / 2`` are merged. With
  equal weights and three members it is the area at least two of them cover. The region
  may have holes or several parts, and is empty when no point reaches half the weight
  (members joined in a chain at a low threshold), counted in
  ``audit["empty_fusions"]``. A group of one is that outline.
* **Spread.** The mean IoU of the members to the fused region (0 for an empty one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from accord.images._consensus import Fusion, Members, ShapeConsensus, check, common, grouped
from accord.images._consensus import members as members_of
from accord.images.polygons import _table, iou_similarity
from accord.readers.polygons import shapely_module

__all__ = ["PolygonConsensus", "polygon_consensus"]

FUNC = "polygon_consensus"
FloatArray = NDArray[np.float64]
#: An even split of the weight keeps a point; this much rounding still counts as even.
_EVEN = 1e-12


@dataclass(frozen=True, eq=False, kw_only=True)
class PolygonConsensus(ShapeConsensus):
    """Consensus polygons (see :func:`polygon_consensus`): one entry per group of every
    image, by image (in sorted order), then the fused region's bounding box, area, centroid
    and label.

    Attributes
    ----------
    geometry : (G,) object array of shapely geometries
        Each group's fused region (a polygon, a multipolygon, or empty).
    area : (G,) float array
        Each fused region's area.

    The other attributes are :class:`~accord.images._consensus.ShapeConsensus`'s, with
    ``measure="iou"``.
    """

    noun: ClassVar[str] = "polygons"

    geometry: NDArray[Any]
    area: FloatArray

    @property
    def iou_threshold(self) -> float:
        """The IoU two annotators' outlines reach at least to be grouped."""
        return self.threshold

    def _shape(self, g: int) -> dict[str, Any]:
        """``polygon``: the outer ring of each part, each a flat ``[x1, y1, x2, y2, ...]``
        (the form :func:`accord.polygon_agreement` reads); ``wkt``: the region exactly,
        holes included; ``area``."""
        shapely = shapely_module(FUNC)
        parts = [p for p in shapely.get_parts(self.geometry[g]) if not shapely.is_empty(p)]
        rings = [np.asarray(shapely.get_coordinates(shapely.get_exterior_ring(p)))[:-1]
                 for p in parts]  # fmt: skip
        return {"polygon": [r.ravel().tolist() for r in rings],
                "wkt": shapely.to_wkt(self.geometry[g], rounding_precision=-1),
                "area": float(self.area[g])}  # fmt: skip


def polygon_consensus(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    polygon: str = "polygon",
    iou_threshold: float = 0.5,
    quorum: float = 0.5,
    fusion: Fusion = "weighted",
) -> PolygonConsensus:
    """One region per object the annotators outlined, where a quorum of them did.

    Parameters
    ----------
    data, unit, rater, label, polygon
        As for :func:`accord.polygon_agreement`: a table with one row per outline, or a
        tool's export.
    iou_threshold : float in (0, 1]
        Two annotators' outlines can be grouped when their IoU is at least this.
    quorum : float in (0, 1]
        The share of the annotators (all the table's annotators) who must have an outline
        in a group: it needs ``ceil(quorum * n_annotators)`` (CVAT's rule).
    fusion : {"weighted", "mean"}
        The members' weights in the majority of area: each annotator's mean pairwise
        polygon F1, or 1 each.

    Returns
    -------
    PolygonConsensus
        ``rows()`` (the consensus polygons), ``below_quorum()``, ``to_dict()``,
        ``to_frame()``; ``geometry`` holds the regions as shapely geometries.

    Notes
    -----
    The rules (groups, quorum, label, the majority of area, spread) are in
    :mod:`accord.images.polygon_consensus`. Needs shapely (the ``images`` extra).

    References
    ----------
    CVAT, "Consensus-based annotation" (merging settings: quorum, min overlap).

    Examples
    --------
    Three annotators outline a 4 x 4 square, two of them shifted by 1 (right, and up):
    the area at least two cover is 15.

    >>> import accord
    >>> res = accord.polygon_consensus({"image": ["i1"] * 3, "annotator": ["a", "b", "c"],
    ...     "label": ["roof"] * 3, "polygon": [[0, 0, 4, 0, 4, 4, 0, 4],
    ...     [1, 0, 5, 0, 5, 4, 1, 4], [0, 1, 4, 1, 4, 5, 0, 5]]}, fusion="mean")
    >>> [(r["area"], r["support"]) for r in res.rows()]
    [(15.0, 3)]
    """
    shapely = shapely_module(FUNC)
    thr, q = check(iou_threshold, quorum, fusion, func=FUNC)
    table = _table(data, unit=unit, rater=rater, label=label, polygon=polygon)
    boxes = table.as_boxes()
    g = grouped(boxes, thr, q, FUNC, iou_similarity(table))
    m = members_of(boxes, g.gid, g.weights, fusion)
    geoms = table.geometry[m.rows]
    fused = _fuse(shapely, geoms, m)
    inter = np.asarray(shapely.area(shapely.intersection(geoms, fused[m.group])), dtype=float)
    union = np.asarray(shapely.area(geoms), dtype=float) + np.asarray(
        shapely.area(fused), dtype=float)[m.group] - inter  # fmt: skip
    spread = np.bincount(m.group, weights=inter / union, minlength=m.n) / m.support
    bounds = np.asarray(shapely.bounds(fused), dtype=float).reshape(-1, 4)
    position = np.concatenate([bounds[:, :2], bounds[:, 2:] - bounds[:, :2],
                               np.asarray(shapely.area(fused), dtype=float).reshape(-1, 1),
                               _centres(shapely, fused)], axis=1)  # fmt: skip
    fields, o = common(boxes, m, g, position, ("iou", thr, q, fusion), spread, "polygons")
    area = np.asarray(shapely.area(fused), dtype=float).reshape(-1)
    empty = int((area[m.support >= g.required] == 0).sum())
    fields["audit"] = {**fields["audit"], "empty_fusions": empty}
    return PolygonConsensus(**fields, geometry=fused[o], area=area[o])


def _centres(shapely: Any, geoms: NDArray[Any]) -> FloatArray:
    """Each region's centroid, (G, 2) (``nan`` for an empty one)."""
    out = np.full((len(geoms), 2), np.nan)
    full = ~np.asarray(shapely.is_empty(geoms), dtype=bool).reshape(-1)
    if full.any():
        out[full] = shapely.get_coordinates(shapely.centroid(geoms[full]))
    return out


def _fuse(shapely: Any, geoms: NDArray[Any], m: Members) -> NDArray[Any]:
    """Each group's region covered by at least half its members' weight."""
    out = np.empty(m.n, dtype=object)
    starts = np.searchsorted(m.group, np.arange(m.n + 1))
    for g in range(m.n):
        lo, hi = starts[g], starts[g + 1]
        if hi - lo == 1:
            out[g] = geoms[lo]  # an outline alone is itself
        else:
            out[g] = _majority(shapely, geoms[lo:hi], m.weight[lo:hi], float(m.total[g]))
    return out


def _majority(shapely: Any, geoms: NDArray[Any], w: FloatArray, total: float) -> Any:
    """The union of the faces of the members' arrangement whose covering weight is at
    least ``total / 2`` (module docstring)."""
    lines = shapely.get_parts(shapely.union_all(shapely.boundary(geoms)))  # noded
    faces = shapely.get_parts(shapely.polygonize(lines))
    inside = shapely.contains(geoms[:, None], shapely.point_on_surface(faces)[None, :])
    keep = 2.0 * (w @ inside) >= total * (1.0 - _EVEN)
    if not keep.any():
        return shapely.Polygon()
    return shapely.normalize(shapely.simplify(shapely.union_all(faces[keep]), 0.0))
