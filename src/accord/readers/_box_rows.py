"""Rows of boxes gathered by a tool's reader, turned into one :class:`BoxTable`.

Each box reader (COCO, CVAT, Label Studio, YOLO) collects plain rows ``image,
annotator, label, x, y, w, h`` (COCO's ``bbox``: top-left corner, width, height),
a row with no label and no box for an image an annotator saw and left empty, and
a count of what it did not read, by reason. :func:`finish` checks them once (with
:func:`~accord.readers.boxes.box_table`) and puts the counts in the table's audit:
``skipped: <reason>`` for what was not read, ``note: <sentence>`` for what a reader
had to decide (units kept in percent, labels named by their ids).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from accord.readers.boxes import BoxTable, box_table

__all__ = ["Rows", "as_annotations", "finish"]

_KEYS = ("image", "annotator", "label", "x", "y", "w", "h")


class Rows:
    """The rows a box reader gathers, what it skipped and what it noted."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.skipped: Counter[str] = Counter()
        self.notes: Counter[str] = Counter()
        self.seen: dict[tuple[str, str], None] = {}
        self.images: dict[str, None] = {}
        #: Each image's width and height in the boxes' units, where the export gives them.
        self.sizes: dict[str, tuple[float, float]] = {}

    def box(self, image: str, rater: str, label: str, xywh: tuple[float, ...]) -> None:
        self.seen[(image, rater)] = None
        x, y, w, h = xywh
        self.rows.append(dict(zip(_KEYS, (image, rater, label, x, y, w, h))))

    def saw(self, image: str, rater: str) -> None:
        """``rater`` saw ``image``: an empty row unless a box of theirs is there."""
        self.seen[(image, rater)] = None

    def everyone_saw_every_image(self) -> None:
        """One file holds everyone: each image listed was seen by each annotator found."""
        raters = sorted({a for _, a in self.seen})
        for image in self.images:
            for rater in raters:
                self.saw(image, rater)

    def columns(self) -> dict[str, list[Any]]:
        boxed = {(r["image"], r["annotator"]) for r in self.rows}
        empty = [dict(zip(_KEYS, (i, a, None, None, None, None, None)))
                 for (i, a) in self.seen if (i, a) not in boxed]  # fmt: skip
        rows = self.rows + empty
        return {k: [r[k] for r in rows] for k in _KEYS}


def finish(rows: Rows, files: int, func: str) -> BoxTable:
    """The checked table, its audit counting files, skipped shapes and notes, its boxes
    clipped to their images (:mod:`accord.readers._clip`)."""
    table = box_table(rows.columns(), unit="image", rater="annotator", label="label",
                      box=("x", "y", "w", "h"), func=func)  # fmt: skip
    audit = {**table.audit, "files": files,
             **{f"skipped: {k}": n for k, n in sorted(rows.skipped.items())},
             **{f"note: {k}": n for k, n in sorted(rows.notes.items())}}  # fmt: skip
    from accord.readers._clip import clip_boxes

    return clip_boxes(BoxTable(table.units, table.raters, table.labels, table.unit,
                               table.rater, table.label, table.xywh, audit),
                      rows.sizes)  # fmt: skip


def as_annotations(table: Any, name: str, paths: list[Path], shape: str = "boxes") -> Any:
    """What :func:`accord.read` gives for an image export: no labels per image, the table
    of its shapes in ``meta[shape]`` (``meta["boxes"]``: compare them with
    ``accord.box_agreement``; ``"polygons"``, ``"keypoints"``: with
    ``accord.polygon_agreement``, ``accord.keypoint_agreement``)."""
    import numpy as np

    from accord.data.annotations import Annotations
    from accord.data.audit import Audit

    source = str(paths[0]) if len(paths) == 1 else f"{len(paths)} files"
    dropped = {k.removeprefix("skipped: "): n for k, n in table.audit.items()
               if k.startswith("skipped: ")}  # fmt: skip
    notes = tuple(f"{k.removeprefix('note: ')}: {n}" for k, n in table.audit.items()
                  if k.startswith("note: "))  # fmt: skip
    audit = Audit(source, int(table.audit.get("rows", len(table))), 0, dropped, notes)
    empty = np.empty(0, dtype=np.int64)
    return Annotations(empty, empty, empty, units=table.units, raters=table.raters,
                       categories=(), audit=audit,
                       meta={"format": name, shape: table})  # fmt: skip
