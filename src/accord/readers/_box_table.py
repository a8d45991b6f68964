"""Long tables of boxes: a long table with ``x, y, w, h`` columns holds boxes.

A row is one box (image, annotator, label and COCO's ``bbox``: the top-left
corner, then width and height), as :func:`accord.box_agreement` reads it. Such a
table is found by its column names (``x, y, w, h`` or ``x, y, width, height``,
any case) among the columns of a long table; it is read by
:func:`~accord.readers.boxes.box_table` (its rules: finite coordinates, positive
sizes, no box twice) into what :func:`accord.read` gives for every box export: no
label per image, the boxes in ``Annotations.meta["boxes"]``. A caveat says that the
table was read as boxes and through which columns, so that every output states it
on its first lines.

Likewise a long table with a ``polygon`` column holds outlines (read by
:func:`~accord.readers.polygons.polygon_table` into ``meta["polygons"]``) and one with
``keypoints`` and ``area`` columns holds keypoints (read by
:func:`~accord.readers.keypoints.keypoint_table` into ``meta["keypoints"]``, the
keypoints named by the reader option ``names=``, COCO's 17 person keypoints by
default), as :func:`accord.polygon_agreement` and :func:`accord.keypoint_agreement`
read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

__all__ = ["BOX_NAMES", "box_columns", "read_box_table", "read_shape_table", "shape_columns"]

#: The column names of a box, COCO's first.
BOX_NAMES: tuple[tuple[str, str, str, str], ...] = (("x", "y", "w", "h"),
                                                    ("x", "y", "width", "height"))


def box_columns(names: Sequence[str]) -> tuple[str, str, str, str] | None:
    """The columns of x, y, width and height, when the table has them, else None."""
    lower = {n.lower(): n for n in names}
    for wanted in BOX_NAMES:
        if all(w in lower for w in wanted):
            x, y, w, h = (lower[c] for c in wanted)
            return x, y, w, h
    return None


def read_box_table(frame: pl.LazyFrame, cols: tuple[str, str, str],
                   box: tuple[str, str, str, str], source: str,
                   caveats: Sequence[str] = ()) -> Any:
    """The boxes of the long table ``frame`` (unit, rater and label columns ``cols``);
    ``caveats`` (the columns guessed from their names) are said after the box one."""
    from accord.readers._box_rows import as_annotations
    from accord.readers.boxes import box_table

    unit, rater, label = cols
    df = frame.select([pl.col(c) for c in dict.fromkeys((*cols, *box))]).collect()
    data = {c: df[c].to_list() for c in df.columns}
    for c in cols:  # ids and labels as text, as every reader keeps them
        data[c] = [None if x is None else str(x) for x in data[c]]
    table = box_table(data, unit=unit, rater=rater, label=label, box=box, func=source)
    ann = as_annotations(table, "boxes table", [Path(source)])
    said = (f"read as boxes (agreement on boxes): the columns {', '.join(box)} are a box "
            f"(x, y, width, height), one row per box; image {unit!r}, annotator {rater!r}, "
            f"label {label!r}")
    ann.audit = ann.audit.with_caveats(said, *caveats)
    return ann


def shape_columns(names: Sequence[str]) -> tuple[str, tuple[str, ...]] | None:
    """``("polygons", (polygon,))`` or ``("keypoints", (keypoints, area))``: the columns of
    an outline or of keypoints and their area (any case), when the table has them."""
    lower = {n.lower(): n for n in names}
    if "polygon" in lower:
        return "polygons", (lower["polygon"],)
    if "keypoints" in lower and "area" in lower:
        return "keypoints", (lower["keypoints"], lower["area"])
    return None


def read_shape_table(frame: pl.LazyFrame, cols: tuple[str, str, str],
                     shape: tuple[str, tuple[str, ...]], source: str,
                     opts: dict[str, Any], caveats: Sequence[str] = ()) -> Any:
    """The polygons or keypoints of the long table ``frame`` (as :func:`read_box_table`)."""
    from accord.readers._box_rows import as_annotations

    kind, extra = shape
    unit, rater, label = cols
    df = frame.select([pl.col(c) for c in dict.fromkeys((*cols, *extra))]).collect()
    data = {c: df[c].to_list() for c in df.columns}
    for c in cols:
        data[c] = [None if x is None else str(x) for x in data[c]]
    table: Any
    if kind == "polygons":
        from accord.readers.polygons import polygon_table

        table = polygon_table(data, unit=unit, rater=rater, label=label, polygon=extra[0],
                              func=source)  # fmt: skip
    else:
        from accord.readers.keypoints import keypoint_table

        data[extra[1]] = [_number(x) for x in data[extra[1]]]  # a CSV's cells are text
        table = keypoint_table(data, unit=unit, rater=rater, label=label, keypoints=extra[0],
                               area=extra[1], names=opts.get("names"), func=source)  # fmt: skip
    ann = as_annotations(table, f"{kind} table", [Path(source)], kind)
    said = (f"read as {kind} (agreement on {kind}): the column"
            f"{'s' if len(extra) > 1 else ''} {' and '.join(extra)} "
            f"{'hold' if len(extra) > 1 else 'holds'} each object, one row per object; "
            f"image {unit!r}, annotator {rater!r}, label {label!r}")
    ann.audit = ann.audit.with_caveats(said, *caveats)
    return ann


def _number(x: Any) -> Any:
    """``x`` as a float when it is the text of a number, else as it is (refused later)."""
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return x
    return x
