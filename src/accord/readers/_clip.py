"""Shapes outside their image: clipped to it, and counted in the audit.

An export's coordinates are measured from the image's top-left corner (COCO and CVAT in
pixels, Label Studio in percent of the image, YOLO in fractions of it), so the part of a
shape at a negative coordinate or beyond the image's width or height lies outside the
image, where there is nothing to annotate. Such a part is clipped away, as CVAT clamps a
shape dragged past the border and as detection code clips boxes to the image before
comparing them (detectron2's ``Boxes.clip``, torchvision's ``clip_boxes_to_image``):

* a box: its corners clamped to ``[0, width] x [0, height]``;
* a polygon: its intersection with the image's rectangle (shapely), so its area is the
  part of it inside the image;
* a keypoint: moved to the nearest point of the image (its coordinates clamped).

A clipped shape is counted in the audit (``note: clipped to the image (partly outside
it)``). A shape with nothing inside the image (a box or outline of no area once clipped,
an object whose every labelled point lies outside) is not read and counted as
``skipped: wholly outside the image``: clipping it would invent a shape on the border.
Where an export gives no size for an image, only negative coordinates are clipped.
Tables are read as they are: their coordinates' origin is not known.

Clipping is idempotent, never enlarges a shape and leaves a shape inside the image
untouched (tests/images/test_clip.py checks these on random shapes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["CLIPPED", "OUTSIDE", "clip_boxes", "clip_keypoints", "clip_polygons", "size_of"]

#: The audit's words for a clipped shape and for one not read.
CLIPPED = "clipped to the image (partly outside it)"
OUTSIDE = "wholly outside the image"

Sizes = Mapping[str, tuple[float, float]]


def size_of(width: Any, height: Any) -> tuple[float, float] | None:
    """``(width, height)`` when both are positive finite numbers (an export's image size),
    else None."""
    ok = all(isinstance(s, (int, float)) and not isinstance(s, bool) and 0 < s < np.inf
             for s in (width, height))  # fmt: skip
    return (float(width), float(height)) if ok else None


def _bounds(units: tuple[str, ...], unit: NDArray[np.int64],
            sizes: Sizes) -> tuple[NDArray[np.float64], NDArray[np.float64]]:  # fmt: skip
    """Each row's image width and height (``inf`` where the export gives none)."""
    wh = np.array([sizes.get(u, (np.inf, np.inf)) for u in units], dtype=np.float64)
    wh = wh.reshape(len(units), 2)
    return wh[unit, 0], wh[unit, 1]


def _audit(audit: Mapping[str, int], count: str, clipped: int, outside: int) -> dict[str, int]:
    out = dict(audit)
    if outside:
        out[count] = out.get(count, 0) - outside
        out[f"skipped: {OUTSIDE}"] = out.get(f"skipped: {OUTSIDE}", 0) + outside
    if clipped:
        out[f"note: {CLIPPED}"] = out.get(f"note: {CLIPPED}", 0) + clipped
    return out


def _kept(table: Any, keep: NDArray[np.bool_], **columns: Any) -> Any:
    """``table`` with the rows ``keep`` (and ``columns`` replaced), its labels those left."""
    labels = np.unique(table.label[keep])
    code = np.full(len(table.labels), -1, dtype=np.int64)
    code[labels] = np.arange(len(labels))
    return replace(table, unit=table.unit[keep], rater=table.rater[keep],
                   label=code[table.label[keep]],
                   labels=tuple(table.labels[k] for k in labels), **columns)  # fmt: skip


def clip_boxes(table: Any, sizes: Sizes) -> Any:
    """The :class:`~accord.readers.boxes.BoxTable` ``table`` clipped to the images
    ``sizes`` (image name to width and height).

    >>> from accord.readers.boxes import box_table
    >>> t = box_table({"image": ["a", "a"], "annotator": ["r", "s"], "label": ["c", "c"],
    ...                "x": [-5, 50], "y": [0, 0], "w": [20, 10], "h": [10, 10]})
    >>> c = clip_boxes(t, {"a": (100, 80)})
    >>> c.xywh.tolist(), c.audit["note: clipped to the image (partly outside it)"]
    ([[0.0, 0.0, 15.0, 10.0], [50.0, 0.0, 10.0, 10.0]], 1)
    """
    if len(table) == 0:
        return table
    w_img, h_img = _bounds(table.units, table.unit, sizes)
    x, y, w, h = (table.xywh[:, k] for k in range(4))
    x0, y0 = np.clip(x, 0, w_img), np.clip(y, 0, h_img)
    x1, y1 = np.clip(x + w, 0, w_img), np.clip(y + h, 0, h_img)
    moved = (x0 != x) | (y0 != y) | (x1 != x + w) | (y1 != y + h)
    outside = (x1 <= x0) | (y1 <= y0)
    clipped = moved & ~outside
    if not moved.any():
        return table
    xywh = table.xywh.copy()
    xywh[clipped] = np.column_stack([x0, y0, x1 - x0, y1 - y0])[clipped]
    keep = ~outside
    extra = {} if table.score is None else {"score": table.score[keep]}
    audit = _audit(table.audit, "boxes", int(clipped.sum()), int(outside.sum()))
    return _kept(table, keep, xywh=xywh[keep], audit=audit, **extra)


def clip_polygons(table: Any, sizes: Sizes) -> Any:
    """The :class:`~accord.readers.polygons.PolygonTable` ``table`` clipped to the images
    ``sizes``: each outline's intersection with its image's rectangle."""
    if len(table) == 0:
        return table
    import shapely

    w_img, h_img = _bounds(table.units, table.unit, sizes)
    lo = np.array([np.min(np.vstack(r), axis=0) for r in table.rings]).reshape(-1, 2)
    hi = np.array([np.max(np.vstack(r), axis=0) for r in table.rings]).reshape(-1, 2)
    moved = (lo < 0).any(axis=1) | (hi[:, 0] > w_img) | (hi[:, 1] > h_img)
    if not moved.any():
        return table
    rings, geometry = list(table.rings), table.geometry.copy()
    outside = np.zeros(len(table), dtype=bool)
    for i in np.flatnonzero(moved):
        frame = shapely.box(0.0, 0.0, min(w_img[i], hi[i, 0]), min(h_img[i], hi[i, 1]))
        parts = _polygons(shapely, shapely.intersection(table.geometry[i], frame))
        if not parts:
            outside[i] = True
            continue
        top = np.array([w_img[i], h_img[i]])  # GEOS may leave a vertex a hair outside
        rings[i] = tuple(np.clip(np.asarray(p.exterior.coords, dtype=np.float64)[:-1], 0, top)
                         for p in parts)  # fmt: skip
        parts = [shapely.Polygon(r) for r in rings[i]]
        geometry[i] = parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)
    keep = ~outside
    area = np.asarray(shapely.area(geometry), dtype=np.float64).reshape(len(table))
    audit = _audit(table.audit, "objects", int((moved & keep).sum()), int(outside.sum()))
    return _kept(table, keep, rings=tuple(r for r, k in zip(rings, keep) if k),
                 geometry=geometry[keep], area=area[keep], audit=audit)  # fmt: skip


def _polygons(shapely: Any, geom: Any) -> list[Any]:
    """The polygons of area of ``geom`` (an intersection may add lines and points)."""
    parts = shapely.get_parts(geom)
    return [p for p in parts if p.geom_type == "Polygon" and p.area > 0]


def clip_keypoints(table: Any, sizes: Sizes) -> Any:
    """The :class:`~accord.readers.keypoints.KeypointTable` ``table`` with each labelled
    point moved into its image; an object whose every labelled point lies outside is not
    read."""
    if len(table) == 0:
        return table
    w_img, h_img = _bounds(table.units, table.unit, sizes)
    points = table.points.copy()
    x, y, seen = points[:, :, 0], points[:, :, 1], points[:, :, 2] > 0
    out_x = (x < 0) | (x > w_img[:, None])
    out_y = (y < 0) | (y > h_img[:, None])
    off = seen & (out_x | out_y)
    if not off.any():
        return table
    outside = (off == seen).all(axis=1)
    moved = off.any(axis=1) & ~outside
    points[:, :, 0] = np.where(seen, np.clip(x, 0, w_img[:, None]), np.nan)
    points[:, :, 1] = np.where(seen, np.clip(y, 0, h_img[:, None]), np.nan)
    keep = ~outside
    audit = _audit(table.audit, "objects", int(moved.sum()), int(outside.sum()))
    return _kept(table, keep, points=points[keep], area=table.area[keep], audit=audit)
