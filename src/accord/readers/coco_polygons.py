"""COCO segmentation polygons: outlined objects of several annotators as a :class:`PolygonTable`.

A COCO annotation's ``segmentation`` is either a list of polygons (flat lists
``[x1, y1, x2, y2, ...]``, one per visible part of the object) or a run-length
encoded mask (``{"counts": ..., "size": [h, w]}``, mostly for crowd regions). The
layouts of several annotators are :mod:`accord.readers.coco`'s (one file per
annotator, or ``rater_key``).

What is not read is counted in the audit, never dropped silently: crowd regions
(``iscrowd: 1``), RLE masks (pixels, not outlines: accord compares outlines), and
annotations with no polygon (a box only).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError
from accord.readers._clip import clip_polygons
from accord.readers.coco import _load, each_annotation, image_sizes, unseen
from accord.readers.polygons import PolygonTable, polygon_table

__all__ = ["read_coco_polygons"]


def read_coco_polygons(
    paths: str | Path | Sequence[str | Path],
    *,
    rater_key: str | None = None,
    func: str = "read_coco_polygons",
) -> PolygonTable:
    """The outlined objects of COCO files, one file per annotator or one with ``rater_key``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name, x in (("ann", 10), ("bob", 11)):
    ...     _ = (d / f"{name}.json").write_text(json.dumps({
    ...         "images": [{"id": 1, "file_name": "a.jpg"}],
    ...         "categories": [{"id": 1, "name": "roof"}],
    ...         "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "iscrowd": 0,
    ...                          "segmentation": [[0, 0, x, 0, x, 10, 0, 10]]}]}))
    >>> t = read_coco_polygons([d / "ann.json", d / "bob.json"])
    >>> t.raters, t.area.tolist()
    (('ann', 'bob'), [100.0, 110.0])
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one COCO file.")
    if rater_key is None and len(files) < 2:
        raise DataError(
            f"{func}: one COCO file holds one annotator unless rater_key= names the annotation "
            f"key (or attribute) that says who outlined each object; got only "
            f"{str(files[0])!r}."
        )
    rows: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    sizes: dict[str, tuple[float, float]] = {}
    for f in files:
        _rows(f, rater_key, skipped, rows, func, sizes)
    columns = {k: [r[k] for r in rows] for k in ("image", "annotator", "label", "polygon")}
    table = polygon_table(columns, func=func)
    audit = {**table.audit, "files": len(files), **{f"skipped: {k}": n for k, n in skipped.items()}}
    return clip_polygons(PolygonTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.rings, table.geometry, table.area, audit), sizes)  # fmt: skip


def _rows(path: Path, rater_key: str | None, skipped: Counter[str], rows: list[dict[str, Any]],
          func: str, sizes: dict[str, tuple[float, float]]) -> None:  # fmt: skip
    data = _load(path)
    image_sizes(data, sizes)
    seen: set[tuple[str, str]] = set()
    for a, _, image, rater, label in each_annotation(data, path, rater_key, seen, func):
        reason = _skip(a)
        if reason:
            skipped[reason] += 1
            continue
        rows.append({"image": image, "annotator": rater, "label": label,
                     "polygon": a["segmentation"]})  # fmt: skip
    for image, rater in unseen(data, path, rater_key, seen):
        rows.append({"image": image, "annotator": rater, "label": None, "polygon": None})

def _skip(a: dict[str, Any]) -> str:
    """Why an annotation is not read (empty when it is)."""
    seg = a.get("segmentation")
    if a.get("iscrowd"):
        return "crowd region (iscrowd)"
    if isinstance(seg, dict):
        return "RLE segmentation (a mask, not polygons)"
    if not seg:
        return "no segmentation polygon"
    return ""
