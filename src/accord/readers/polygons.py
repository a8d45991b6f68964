"""Polygon records: which annotator outlined which object, with which label, on which image.

A :class:`PolygonTable` holds one row per object: its image, annotator and label as
codes (as :class:`~accord.readers.boxes.BoxTable`) and its outline as one or more
rings of ``(x, y)`` points in pixels (COCO's ``segmentation`` polygons: an object
hidden in two parts is two rings).

Rules, checked once by :func:`polygon_table`:

* an outline is a flat list ``[x1, y1, x2, y2, ...]``, a list of ``[x, y]`` pairs, a
  list of flat lists (one per part, as COCO writes them), or the JSON text of one;
* each ring has at least three points with finite coordinates;
* a ring that crosses itself (a flat ring, all its points on one line, does), or
  parts that overlap, are refused with GEOS' reason
  (``shapely.is_valid_reason``): the area of such an outline is not well defined,
  and repairing it (``make_valid``) would change what the annotator drew;
* the same outline (image, annotator, label, points) twice is refused;
* a row whose outline and label are both empty says "this annotator saw this image
  and outlined nothing".

Geometry needs shapely 2 (``pip install 'accord[images]'``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import AccordError, DataError
from accord.readers.boxes import BoxTable

__all__ = ["PolygonTable", "polygon_table", "shapely_module"]

Ring = NDArray[np.float64]


def shapely_module(func: str) -> Any:
    """shapely, or one sentence saying how to install it."""
    try:
        import shapely
    except ImportError:
        raise AccordError(f"{func}: polygon geometry needs shapely 2; install it with "
                          "pip install 'accord[images]'.") from None  # fmt: skip
    return shapely


@dataclass(frozen=True)
class PolygonTable:
    """Outlined objects of several annotators on a set of images.

    Attributes
    ----------
    units, raters, labels : tuple of str
        The images, annotators and labels, sorted; the codes index them.
    unit, rater, label : (n,) int arrays
        Each object's image, annotator and label codes.
    rings : tuple of tuples of (m, 2) float arrays
        Each object's outline: its parts, each a ring of points (not repeated at the end).
    geometry : (n,) object array of shapely polygons or multipolygons
        The outlines as shapely geometries (what IoU is computed on).
    area : (n,) float array
        Each object's area.
    audit : mapping of str to int
        ``rows``, ``objects``, ``no-object rows`` and the reader's counts.
    """

    units: tuple[str, ...]
    raters: tuple[str, ...]
    labels: tuple[str, ...]
    unit: NDArray[np.int64]
    rater: NDArray[np.int64]
    label: NDArray[np.int64]
    rings: tuple[tuple[Ring, ...], ...]
    geometry: NDArray[Any]
    area: NDArray[np.float64]
    audit: Mapping[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.unit.shape[0])

    def as_boxes(self) -> BoxTable:
        """The objects as a :class:`BoxTable` of their bounding boxes: the codes the
        matching counts by, and an order of each image's objects independent of the input
        (two objects of one annotator and label with the same box keep the input's order)."""
        lo = np.array([np.min(np.vstack(r), axis=0) for r in self.rings]).reshape(-1, 2)
        hi = np.array([np.max(np.vstack(r), axis=0) for r in self.rings]).reshape(-1, 2)
        return BoxTable(self.units, self.raters, self.labels, self.unit, self.rater,
                        self.label, np.concatenate([lo, hi - lo], axis=1), self.audit)  # fmt: skip


def polygon_table(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    polygon: str = "polygon",
    func: str = "polygon_table",
) -> PolygonTable:
    """A :class:`PolygonTable` from a long table with one row per object.

    Examples
    --------
    >>> t = polygon_table({"image": ["a", "a"], "annotator": ["r1", "r2"],
    ...     "label": ["roof", "roof"], "polygon": [[0, 0, 4, 0, 4, 3], [[0, 0], [4, 0], [0, 3]]]})
    >>> t.raters, t.area.tolist()
    (('r1', 'r2'), [6.0, 6.0])
    """
    if isinstance(data, PolygonTable):
        return data
    if isinstance(data, (str, Path)):
        from accord.readers.boxes import _read_file

        data = _read_file(Path(data), func)
    from accord.data._frames import columns_of

    cols = [c.tolist() for c in columns_of(data, [unit, rater, label, polygon], func=func)]
    return _build(cols, (unit, rater, label, polygon), func)


def _empty(x: Any) -> bool:
    from accord.readers.boxes import _empty as empty

    return empty(x) or (isinstance(x, (list, tuple)) and not x)


def _build(cols: list[list[Any]], keys: tuple[str, ...], func: str) -> PolygonTable:
    shapely = shapely_module(func)
    units, raters, labels, outlines = cols
    for what, column, values in (("image", keys[0], units), ("annotator", keys[1], raters)):
        bad = next((i for i, x in enumerate(values) if _empty(x)), None)
        if bad is not None:
            raise DataError(f"{func}: row {bad + 1} has no {what} (column {column!r}).")
    keep = [i for i in range(len(units)) if not (_empty(outlines[i]) and _empty(labels[i]))]
    for i in keep:
        if _empty(labels[i]):
            raise DataError(f"{func}: row {i + 1} has an outline but no label (column "
                            f"{keys[2]!r}); a row with neither marks an image seen with no "
                            "object.")  # fmt: skip
    rings = tuple(_rings(outlines[i], i, keys[3], func) for i in keep)
    geometry = np.array([_geometry(shapely, r, i, keys[3], func) for r, i in zip(rings, keep)],
                        dtype=object).reshape(len(keep))  # fmt: skip
    names = [tuple(sorted({str(values[i]) for i in (keep if k == 2 else range(len(units)))}))
             for k, values in enumerate((units, raters, labels))]  # fmt: skip
    codes = [np.array([{n: j for j, n in enumerate(names[k])}[str(values[i])] for i in keep],
                      dtype=np.int64) for k, values in enumerate((units, raters, labels))]
    table = PolygonTable(
        names[0], names[1], names[2], codes[0], codes[1], codes[2], rings, geometry,
        np.asarray(shapely.area(geometry), dtype=np.float64).reshape(len(keep)),
        {"rows": len(units), "objects": len(keep), "no-object rows": len(units) - len(keep)},
    )  # fmt: skip
    _refuse_twins(table, keep, func)
    return table


def _rings(cell: Any, i: int, column: str, func: str) -> tuple[Ring, ...]:
    where = f"{func}: row {i + 1}'s outline (column {column!r})"
    if isinstance(cell, str):
        try:
            cell = json.loads(cell)
        except ValueError:
            cell = None
    if isinstance(cell, np.ndarray):
        cell = cell.tolist()
    expected = ("expected [x1, y1, x2, y2, ...], a list of [x, y] pairs or a list of such "
                "flat lists, with three points or more")
    if not isinstance(cell, (list, tuple)) or not cell:
        raise DataError(f"{where} is {repr(cell)[:60]}; {expected}.")
    if all(isinstance(p, (list, tuple)) and len(p) == 2 for p in cell):
        parts = [[c for p in cell for c in p]]
    elif all(isinstance(p, (list, tuple)) for p in cell):
        parts = [list(p) for p in cell]
    else:
        parts = [list(cell)]
    out = []
    for part in parts:
        ok = len(part) >= 6 and len(part) % 2 == 0 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in part)  # fmt: skip
        if not ok:
            raise DataError(f"{where} has a ring of {len(part)} values {repr(part)[:60]}; "
                            f"{expected}, every coordinate a finite number.")  # fmt: skip
        ring = np.array(part, dtype=np.float64).reshape(-1, 2)
        if len(ring) > 3 and (ring[0] == ring[-1]).all():
            ring = ring[:-1]  # a closed ring: the first point repeated
        out.append(ring)
    return tuple(out)


def _geometry(shapely: Any, rings: tuple[Ring, ...], i: int, column: str, func: str) -> Any:
    parts = [shapely.Polygon(r) for r in rings]
    geom = parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)
    where = f"{func}: row {i + 1}'s outline (column {column!r})"
    if not shapely.is_valid(geom):
        raise DataError(f"{where} is not a simple polygon ({shapely.is_valid_reason(geom)}); "
                        "a ring must not cross itself nor parts overlap, or its area is not "
                        "defined.")  # fmt: skip
    return geom


def _refuse_twins(t: PolygonTable, keep: list[int], func: str) -> None:
    seen: dict[tuple[Any, ...], int] = {}
    for k in range(len(t)):
        key = (int(t.unit[k]), int(t.rater[k]), int(t.label[k]),
               tuple(tuple(r.ravel().tolist()) for r in t.rings[k]))  # fmt: skip
        if key in seen:
            raise DataError(f"{func}: annotator {t.raters[t.rater[k]]!r} outlined the same "
                            f"{t.labels[t.label[k]]!r} twice on image {t.units[t.unit[k]]!r} "
                            f"(rows {keep[seen[key]] + 1} and {keep[k] + 1}); remove the copy, "
                            "or it would count as a second object.")  # fmt: skip
        seen[key] = k
