"""Box records: which annotator drew which box, with which label, on which image.

A :class:`BoxTable` holds one row per box as numpy arrays: the image, the
annotator and the label as integer codes into ``units``, ``raters`` and
``labels`` (each sorted), and the box as ``x, y, w, h`` (COCO's ``bbox``: the
top-left corner, then width and height, in pixels).

Rules, checked once by :func:`box_table`:

* a box's four coordinates are finite numbers, its width and height positive;
* the same box (image, annotator, label and all four coordinates) twice is refused:
  a second copy would count as a second object;
* a row whose four coordinates and label are all empty says "this annotator saw
  this image and drew no box": the image counts, with no box from that annotator;
* every annotator of the table is taken to have seen every image of the table:
  an image where an annotator drew nothing is their "no box", not missing data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError

__all__ = ["BoxTable", "audit_json", "box_table"]


@dataclass(frozen=True)
class BoxTable:
    """Boxes of several annotators on a set of images (see :func:`box_table`).

    Attributes
    ----------
    units, raters, labels : tuple of str
        The images, annotators and labels, sorted; the codes index them.
    unit, rater, label : (n,) int arrays
        Each box's image, annotator and label codes.
    xywh : (n, 4) float array
        Each box as x, y, width, height.
    audit : mapping of str to int
        What was read: ``rows``, ``boxes`` and ``no-box rows`` (rows that only
        say an image was seen).
    score : (n,) float array or None
        Each box's confidence score (a model's detections), when ``score=`` named a
        column; ``nan`` where the cell is empty.
    """

    units: tuple[str, ...]
    raters: tuple[str, ...]
    labels: tuple[str, ...]
    unit: NDArray[np.int64]
    rater: NDArray[np.int64]
    label: NDArray[np.int64]
    xywh: NDArray[np.float64]
    audit: Mapping[str, int] = field(default_factory=dict)
    score: NDArray[np.float64] | None = None

    def __len__(self) -> int:
        return int(self.unit.shape[0])


def audit_json(audit: Mapping[str, Any]) -> dict[str, Any]:
    """A box audit as JSON, under names like every other audit's: counts under snake_case
    keys (``no_box_rows``), the skipped shapes as ``dropped`` ``[{"reason", "count"}]``
    and the notes as ``notes`` (``"text: n"``, or the text alone where ``n`` is None), as
    in :meth:`accord.Audit.to_dict`."""
    from accord.data.audit import reason_counts

    out = {k.replace("-", "_").replace(" ", "_"): n for k, n in audit.items()
           if not k.startswith(("skipped: ", "note: "))}
    skipped = {k.removeprefix("skipped: "): n for k, n in audit.items()
               if k.startswith("skipped: ")}  # fmt: skip
    notes = [k.removeprefix("note: ") + ("" if n is None else f": {n}")
             for k, n in audit.items() if k.startswith("note: ")]  # fmt: skip
    return {**out, "dropped": reason_counts(skipped), "notes": notes}


def box_table(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    box: Sequence[str] = ("x", "y", "w", "h"),
    score: str | None = None,
    func: str = "box_table",
) -> BoxTable:
    """A :class:`BoxTable` from a long table with one row per box.

    Parameters
    ----------
    data : BoxTable, dataframe, mapping of columns, list of records, or path
        A pandas/polars/pyarrow frame, ``{column: values}``, a list of dicts, or
        the path of a CSV or Parquet file.
    unit, rater, label : str
        The columns naming the image, the annotator and the box's label.
    box : four column names
        The columns of x, y, width and height (COCO's ``bbox`` order).
    score : str, optional
        The column of each box's confidence score (a model's detections).

    Examples
    --------
    >>> t = box_table({"image": ["a", "a"], "annotator": ["r1", "r2"],
    ...                "label": ["cat", "cat"], "x": [0, 1], "y": [0, 0],
    ...                "w": [10, 10], "h": [5, 5]})
    >>> t.raters, len(t)
    (('r1', 'r2'), 2)
    """
    if isinstance(data, BoxTable):
        return data
    names = tuple(box)
    if len(names) != 4 or not all(isinstance(n, str) for n in names):
        raise DataError(
            f"{func}: box= names the four columns x, y, width and height; got {box!r}."
        )
    if isinstance(data, (str, Path)):
        data = _read_file(Path(data), func)
    from accord.data._frames import columns_of

    keys = [unit, rater, label, *names]
    cols = columns_of(data, [*keys, *([score] if score else [])], func=func)
    table = _build(cols[:7], keys, func)
    if score is None:
        return table
    values = np.array([_number(x) for x in cols[7].tolist()], dtype=np.float64)
    blank = np.array([all(_empty(c[i]) for c in cols[2:7]) for i in range(values.shape[0])])
    return replace(table, score=values[~blank])


def _read_file(path: Path, func: str) -> Any:
    import polars as pl

    if not path.is_file():
        raise DataError(f"{func}: no file at {str(path)!r}.")
    if path.suffix.lower() in {".parquet", ".pq"}:
        return pl.read_parquet(path)
    return pl.read_csv(path, infer_schema_length=None)


def _empty(x: Any) -> bool:
    if x is None:
        return True
    if isinstance(x, float):
        return math.isnan(x)
    return isinstance(x, str) and x.strip() == ""


def _number(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _build(cols: list[NDArray[Any]], keys: list[str], func: str) -> BoxTable:
    units, raters, labels = (c.tolist() for c in cols[:3])
    coords = [c.tolist() for c in cols[3:]]
    n = len(units)
    for name, column, values in (("image", keys[0], units), ("annotator", keys[1], raters)):
        bad = next((i for i, x in enumerate(values) if _empty(x)), None)
        if bad is not None:
            raise DataError(f"{func}: row {bad + 1} has no {name} (column {column!r}).")
    xywh = np.array([[_number(c[i]) for c in coords] for i in range(n)], dtype=np.float64)
    xywh = xywh.reshape(n, 4)
    blank = np.array(
        [all(_empty(c[i]) for c in coords) and _empty(labels[i]) for i in range(n)], dtype=bool
    )
    _check(xywh, blank, labels, keys, func)
    keep = np.flatnonzero(~blank)
    u_names = tuple(sorted({str(x) for x in units}))
    r_names = tuple(sorted({str(x) for x in raters}))
    l_names = tuple(sorted({str(labels[i]) for i in keep.tolist()}))
    u_code = _codes([str(units[i]) for i in keep.tolist()], u_names)
    r_code = _codes([str(raters[i]) for i in keep.tolist()], r_names)
    l_code = _codes([str(labels[i]) for i in keep.tolist()], l_names)
    table = BoxTable(
        u_names, r_names, l_names, u_code, r_code, l_code, xywh[keep],
        {"rows": n, "boxes": int(keep.shape[0]), "no-box rows": int(blank.sum())},
    )  # fmt: skip
    _refuse_twins(table, keep, func)
    return table


def _codes(values: list[str], names: tuple[str, ...]) -> NDArray[np.int64]:
    index = {name: k for k, name in enumerate(names)}
    return np.array([index[x] for x in values], dtype=np.int64)


def _check(
    xywh: NDArray[np.float64], blank: NDArray[np.bool_], labels: list[Any], keys: list[str],
    func: str,
) -> None:
    rows = ~blank
    bad = np.flatnonzero(rows & ~np.isfinite(xywh).all(axis=1))
    if bad.size:
        i = int(bad[0])
        raise DataError(
            f"{func}: row {i + 1} has a box coordinate that is not a finite number "
            f"({dict(zip(keys[3:], xywh[i].tolist()))}); every box needs finite "
            f"{', '.join(keys[3:])}."
        )
    bad = np.flatnonzero(rows & ((xywh[:, 2] <= 0) | (xywh[:, 3] <= 0)))
    if bad.size:
        i = int(bad[0])
        raise DataError(
            f"{func}: row {i + 1} has a box of width {xywh[i, 2]:g} and height "
            f"{xywh[i, 3]:g}; a box needs a positive width and height."
        )
    bad = np.flatnonzero(rows & np.array([_empty(x) for x in labels], dtype=bool))
    if bad.size:
        raise DataError(
            f"{func}: row {int(bad[0]) + 1} has a box but no label (column {keys[2]!r}); "
            "a row with neither box nor label marks an image seen with no box."
        )


def _refuse_twins(t: BoxTable, rows: NDArray[np.int64], func: str) -> None:
    key = np.column_stack([t.unit, t.rater, t.label]).astype(np.float64)
    full = np.concatenate([key, t.xywh], axis=1)
    if full.shape[0] < 2:
        return
    _, first, counts = np.unique(full, axis=0, return_index=True, return_counts=True)
    if (counts > 1).any():
        i = int(first[np.flatnonzero(counts > 1)[0]])
        same = np.flatnonzero((full == full[i]).all(axis=1))
        where = " and ".join(str(int(rows[j]) + 1) for j in same[:2])
        raise DataError(
            f"{func}: annotator {t.raters[t.rater[i]]!r} drew the same {t.labels[t.label[i]]!r} "
            f"box {tuple(t.xywh[i].tolist())} twice on image {t.units[t.unit[i]]!r} (rows "
            f"{where}); remove the copy, or it would count as a second object."
        )
