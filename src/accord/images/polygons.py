"""Agreement between annotators on polygons: objects matched by polygon IoU.

``IoU = area(A ∩ B) / (area(A) + area(B) - area(A ∩ B))`` on the exact outlines,
computed by shapely 2 (GEOS), vectorised over every pair of two annotators'
objects on an image. Why shapely and not a numpy clipping of our own: outlines are
often not convex (an L-shaped building, a person), and an exact intersection of two
simple non-convex polygons is a sweep with many degenerate cases (shared edges,
touching vertices) that GEOS has handled for decades; shapely also says why an
outline is not simple. It is an optional extra (``pip install 'accord[images]'``),
so boxes and keypoints need nothing more.

Matching, grouping, the figures and their bootstrap are the boxes' own
(:mod:`accord.images._counts`, :mod:`accord.images._shapes`) with polygon IoU in place
of box IoU.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import InsufficientDataError
from accord.images._counts import Similarity
from accord.images._figures import few_images
from accord.images._shapes import Kind, ShapeAgreement, agreement
from accord.inference.bootstrap import Bootstrap
from accord.inference.results import AgreementResult
from accord.readers.polygons import PolygonTable, polygon_table, shapely_module

__all__ = ["PolygonAgreement", "polygon_agreement", "polygon_area", "polygon_iou_matrix"]

FUNC = "polygon_agreement"
FloatArray = NDArray[np.float64]


class PolygonAgreement(ShapeAgreement):
    """Agreement between annotators on polygons (see :func:`polygon_agreement`);
    :class:`~accord.images._shapes.ShapeAgreement` with ``measure="iou"``."""

    @property
    def iou_threshold(self) -> float:
        """The IoU a matched pair reaches at least."""
        return self.threshold

    @property
    def mean_iou(self) -> AgreementResult:
        """The mean IoU of the matched pairs (same label, IoU at least the threshold)."""
        return self.mean


def polygon_area(ring: Any) -> float:
    """The area of a simple polygon (a ring of ``(x, y)`` points) by the shoelace formula.

    >>> polygon_area([(0, 0), (4, 0), (4, 1), (1, 1), (1, 3), (0, 3)])  # an L
    6.0
    """
    p = np.asarray(ring, dtype=np.float64)
    x, y = p[:, 0], p[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)


def polygon_iou_matrix(a: NDArray[Any], b: NDArray[Any]) -> FloatArray:
    """IoU of each shapely geometry of ``a`` (n,) with each of ``b`` (m,), shape (n, m).

    >>> import shapely
    >>> sq = np.array([shapely.box(0, 0, 2, 2)])
    >>> polygon_iou_matrix(sq, np.array([shapely.box(1, 0, 3, 2)])).round(4)
    array([[0.3333]])
    """
    shapely = shapely_module(FUNC)
    inter = np.asarray(shapely.area(shapely.intersection(a[:, None], b[None, :])), dtype=float)
    union = np.asarray(shapely.area(a), dtype=float)[:, None] + np.asarray(
        shapely.area(b), dtype=float)[None, :] - inter  # fmt: skip
    return np.asarray(inter / union, dtype=np.float64)


def polygon_agreement(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    polygon: str = "polygon",
    iou_threshold: float = 0.5,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    rng: int | np.random.Generator | None = 0,
    sweep_intervals: bool = False,
) -> PolygonAgreement:
    """Agreement between annotators on polygons: pairwise F1, mean IoU and alpha.

    Parameters
    ----------
    data : PolygonTable, dataframe, mapping of columns, records, a CSV/Parquet path,
        or exports: COCO JSON (segmentation polygons), CVAT XML (``<polygon>``), Label
        Studio JSON (polygonlabels), one file per annotator for COCO and CVAT
        (:mod:`accord.readers.shape_formats`)
        One row per object (see :func:`accord.readers.polygons.polygon_table`).
    unit, rater, label, polygon : str
        The columns of the image, the annotator, the label and the outline.
    iou_threshold : float in (0, 1]
        Two outlines can match when their IoU is at least this (equal counts).
    confidence_level, n_resamples, rng
        The bootstrap over images behind every interval of ``to_dict()``.
    sweep_intervals : bool
        Whether ``to_dict()`` gives the 30 figures of the sweep their intervals too
        (default: the sweep's estimates only, which cost no resampling).

    Returns
    -------
    PolygonAgreement
        ``f1``, ``mean_iou``, ``alpha``, ``per_label``, ``pairs`` and ``sweep`` (IoU
        0.50:0.05:0.95): :func:`accord.box_agreement`'s figures on the outlines.

    Notes
    -----
    Matching, groups and undefined figures are :func:`accord.box_agreement`'s; the
    IoU is exact (shapely, see :mod:`accord.images.polygons`), where COCO's mask IoU
    rasterises the outlines to pixels first.

    Examples
    --------
    Two annotators outline a roof: a 4 x 2 rectangle and the same with a 1 x 1 notch
    (IoU 7 / 8); ``a`` also outlines a tree that ``b`` missed.

    >>> import accord
    >>> res = accord.polygon_agreement({"image": ["i1", "i1", "i1"],
    ...     "annotator": ["a", "b", "a"], "label": ["roof", "roof", "tree"],
    ...     "polygon": [[0, 0, 4, 0, 4, 2, 0, 2], [0, 0, 4, 0, 4, 1, 3, 1, 3, 2, 0, 2],
    ...                 [10, 10, 12, 10, 11, 12]]}, n_resamples=99)
    >>> round(res.f1.estimate, 4), res.mean_iou.estimate
    (0.6667, 0.875)
    """
    level = v.confidence_level(confidence_level, func=FUNC)
    ok = isinstance(iou_threshold, (int, float)) and not isinstance(iou_threshold, bool)
    if not ok or not 0.0 < float(iou_threshold) <= 1.0:
        raise v.fail("iou_threshold", FUNC, "a number in (0, 1]", iou_threshold)
    if not isinstance(sweep_intervals, bool):
        raise v.fail("sweep_intervals", FUNC, "True or False", sweep_intervals)
    table = _table(data, unit=unit, rater=rater, label=label, polygon=polygon)
    if len(table.raters) < 2:
        raise InsufficientDataError(
            f"{FUNC}: agreement needs two annotators or more; found {list(table.raters)!r}."
        )
    similarity = iou_similarity(table)
    audit = few_images({**table.audit, "images": len(table.units),
                        "annotators": list(table.raters), "labels": list(table.labels)})
    boot = Bootstrap(n_resamples=n_resamples, rng=rng)
    fields = agreement(table.as_boxes(), similarity, Kind("polygon", "iou"),
                       float(iou_threshold), boot, level, audit)  # fmt: skip
    return PolygonAgreement("iou", float(iou_threshold), **fields,
                            sweep_intervals=sweep_intervals)


def iou_similarity(table: PolygonTable) -> Similarity:
    """The IoU of two sets of the table's outlines (rows ``i`` with rows ``j``)."""

    def similarity(i: NDArray[np.int64], j: NDArray[np.int64]) -> FloatArray:
        return polygon_iou_matrix(table.geometry[i], table.geometry[j])

    return similarity


def _table(data: Any, **columns: str) -> PolygonTable:
    meta = getattr(data, "meta", None)
    if isinstance(meta, dict) and isinstance(meta.get("polygons"), PolygonTable):
        return meta["polygons"]  # accord.read of a polygon export
    paths = [data] if isinstance(data, (str, Path)) else data
    is_paths = isinstance(paths, (list, tuple)) and bool(paths) and all(
        isinstance(p, (str, Path)) for p in paths)  # fmt: skip
    tables = {".csv", ".tsv", ".parquet", ".pq"}
    if is_paths and not any(Path(p).suffix.lower() in tables for p in paths):
        from accord.readers.shape_formats import read_polygons

        return read_polygons(paths, rater_key=columns["rater"], func=FUNC)
    return polygon_table(data, func=FUNC, **columns)
