"""Keypoint records: which annotator placed which object's keypoints on which image.

A :class:`KeypointTable` holds one row per object (a person, an animal): its image,
annotator and label as codes (as :class:`~accord.readers.boxes.BoxTable`), its
keypoints as ``(x, y, v)`` triples in the order of ``names`` (COCO's ``keypoints``
list: ``v`` 0 not labelled, 1 labelled but hidden, 2 labelled and visible) and its
``area`` (COCO's: the area of the object's segmentation, in pixels; the scale ``s^2``
of the Object Keypoint Similarity).

Rules, checked once by :func:`keypoint_table`:

* ``keypoints`` is a list (or its JSON text) of ``3 K`` numbers, ``K = len(names)``;
  ``v`` is 0, 1 or 2; a labelled point (``v > 0``) has finite ``x`` and ``y``;
* an object has at least one labelled point, and a finite positive ``area``;
* the same object (image, annotator, label, keypoints) twice is refused;
* a row whose keypoints and label are both empty says "this annotator saw this image
  and placed no object" (as a no-box row does for boxes).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import DataError
from accord.readers.boxes import BoxTable

__all__ = ["COCO_KEYPOINTS", "COCO_SIGMAS", "KeypointTable", "keypoint_table", "sigmas_of"]

#: COCO's 17 person keypoints, in the order of its ``person`` category.
COCO_KEYPOINTS: tuple[str, ...] = (
    "nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder",
    "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_hip",
    "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle",
)  # fmt: skip


@dataclass(frozen=True)
class KeypointTable:
    """Keypointed objects of several annotators on a set of images.

    Attributes
    ----------
    units, raters, labels : tuple of str
        The images, annotators and labels, sorted; the codes index them.
    unit, rater, label : (n,) int arrays
        Each object's image, annotator and label codes.
    names : tuple of str
        The keypoints' names, in the order of ``points``' second axis.
    points : (n, K, 3) float array
        Each object's ``x, y, v`` per keypoint (``x, y`` are ``nan`` where ``v == 0``).
    area : (n,) float array
        Each object's area (COCO's ``area``), the OKS scale ``s^2``.
    audit : mapping of str to int
        ``rows``, ``objects``, ``no-object rows`` and the reader's counts.
    """

    units: tuple[str, ...]
    raters: tuple[str, ...]
    labels: tuple[str, ...]
    unit: NDArray[np.int64]
    rater: NDArray[np.int64]
    label: NDArray[np.int64]
    names: tuple[str, ...]
    points: NDArray[np.float64]
    area: NDArray[np.float64]
    audit: Mapping[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.unit.shape[0])

    def as_boxes(self) -> BoxTable:
        """The objects as a :class:`BoxTable` of the box around their labelled points: the
        codes the matching counts by, and an order of each image's objects that does not
        depend on the input's order (two objects of one annotator and label with the same
        box keep the input's order)."""
        xy = np.where(self.points[:, :, 2:3] > 0, self.points[:, :, :2], np.nan)
        lo, hi = np.nanmin(xy, axis=1), np.nanmax(xy, axis=1)
        xywh = np.concatenate([lo, hi - lo], axis=1)
        return BoxTable(self.units, self.raters, self.labels, self.unit, self.rater,
                        self.label, xywh, self.audit)  # fmt: skip


def keypoint_table(
    data: Any,
    *,
    unit: str = "image",
    rater: str = "annotator",
    label: str = "label",
    keypoints: str = "keypoints",
    area: str = "area",
    names: Sequence[str] | None = None,
    func: str = "keypoint_table",
) -> KeypointTable:
    """A :class:`KeypointTable` from a long table with one row per object.

    Parameters
    ----------
    data : KeypointTable, dataframe, mapping of columns, list of records, or path
        A frame, ``{column: values}``, a list of dicts, or a CSV/Parquet path (where the
        keypoints cell is the JSON text of the list).
    unit, rater, label, keypoints, area : str
        The columns of the image, the annotator, the label, the flat ``[x, y, v, ...]``
        list and the object's area.
    names : sequence of str, optional
        The keypoints' names in the list's order; by default COCO's 17 person keypoints.

    Examples
    --------
    >>> t = keypoint_table({"image": ["a", "a"], "annotator": ["r1", "r2"],
    ...     "label": ["hand", "hand"], "keypoints": [[1, 2, 2, 5, 5, 2], [1, 3, 2, 0, 0, 0]],
    ...     "area": [100, 120]}, names=["thumb", "index"])
    >>> t.raters, t.points.shape, t.audit["objects"]
    (('r1', 'r2'), (2, 2, 3), 2)
    """
    if isinstance(data, KeypointTable):
        return data
    names = tuple(COCO_KEYPOINTS if names is None else names)
    if not names or not all(isinstance(n, str) for n in names) or len(set(names)) < len(names):
        raise DataError(f"{func}: names= lists the keypoints' distinct names; got {names!r}.")
    if isinstance(data, (str, Path)):
        from accord.readers.boxes import _read_file

        data = _read_file(Path(data), func)
    from accord.data._frames import columns_of

    cols = [c.tolist() for c in columns_of(data, [unit, rater, label, keypoints, area],
                                           func=func)]  # fmt: skip
    return _build(cols, (unit, rater, label, keypoints, area), names, func)


def _empty(x: Any) -> bool:
    from accord.readers.boxes import _empty as empty

    return empty(x) or (isinstance(x, (list, tuple)) and not x)


def _build(cols: list[list[Any]], keys: tuple[str, ...], names: tuple[str, ...],
           func: str) -> KeypointTable:  # fmt: skip
    units, raters, labels, kps, areas = cols
    for what, column, values in (("image", keys[0], units), ("annotator", keys[1], raters)):
        bad = next((i for i, x in enumerate(values) if _empty(x)), None)
        if bad is not None:
            raise DataError(f"{func}: row {bad + 1} has no {what} (column {column!r}).")
    blank = [_empty(kps[i]) and _empty(labels[i]) for i in range(len(units))]
    keep = [i for i, b in enumerate(blank) if not b]
    points = np.array([_points(kps[i], names, i, keys, func) for i in keep], dtype=np.float64)
    for i in keep:
        if _empty(labels[i]):
            raise DataError(f"{func}: row {i + 1} has keypoints but no label (column "
                            f"{keys[2]!r}); a row with neither marks an image seen with no "
                            "object.")  # fmt: skip
    area = np.array([_area(areas[i], i, keys[4], func) for i in keep], dtype=np.float64)
    u_names = tuple(sorted({str(x) for x in units}))
    r_names = tuple(sorted({str(x) for x in raters}))
    l_names = tuple(sorted({str(labels[i]) for i in keep}))
    code = {n: k for k, n in enumerate(u_names)}, {n: k for k, n in enumerate(r_names)}
    l_code = {n: k for k, n in enumerate(l_names)}
    table = KeypointTable(
        u_names, r_names, l_names,
        np.array([code[0][str(units[i])] for i in keep], dtype=np.int64),
        np.array([code[1][str(raters[i])] for i in keep], dtype=np.int64),
        np.array([l_code[str(labels[i])] for i in keep], dtype=np.int64),
        names, points.reshape(len(keep), len(names), 3), area,
        {"rows": len(units), "objects": len(keep), "no-object rows": len(units) - len(keep)},
    )  # fmt: skip
    _refuse_twins(table, keep, func)
    return table


def _points(cell: Any, names: tuple[str, ...], i: int, keys: tuple[str, ...],
            func: str) -> NDArray[np.float64]:  # fmt: skip
    where = f"{func}: row {i + 1}'s keypoints (column {keys[3]!r})"
    if isinstance(cell, str):
        try:
            cell = json.loads(cell)
        except ValueError:
            cell = None
    if isinstance(cell, np.ndarray):
        cell = cell.tolist()
    k = len(names)
    if not isinstance(cell, (list, tuple)) or len(cell) != 3 * k or not all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in cell
    ):  # fmt: skip
        got = f"{len(cell)} values" if isinstance(cell, (list, tuple)) else repr(cell)[:60]
        raise DataError(f"{where} are {got}; expected a list of {3 * k} numbers, x, y and "
                        f"visibility for each of the {k} keypoints {list(names)!r} (other "
                        "keypoints: name them with names=...).")  # fmt: skip
    p = np.array(cell, dtype=np.float64).reshape(k, 3)
    if not np.isin(p[:, 2], (0.0, 1.0, 2.0)).all():
        raise DataError(f"{where} have visibility {p[:, 2].tolist()!r}; expected 0 (not "
                        "labelled), 1 (labelled, hidden) or 2 (labelled, visible).")
    seen = p[:, 2] > 0
    if not seen.any():
        raise DataError(f"{where} label no point (every visibility is 0); an object needs "
                        "at least one labelled keypoint.")  # fmt: skip
    if not np.isfinite(p[seen, :2]).all():
        raise DataError(f"{where} give a labelled point a coordinate that is not a finite "
                        "number; every labelled point needs finite x and y.")  # fmt: skip
    p[~seen, :2] = np.nan
    return p


def _area(x: Any, i: int, column: str, func: str) -> float:
    ok = isinstance(x, (int, float, np.floating, np.integer)) and not isinstance(x, bool)
    value = float(x) if ok else math.nan
    if not math.isfinite(value) or value <= 0:
        raise DataError(f"{func}: row {i + 1} has area {x!r} (column {column!r}); the "
                        "object's keypoint similarity is scaled by a finite positive area.")
    return value


def _refuse_twins(t: KeypointTable, keep: list[int], func: str) -> None:
    if len(t) < 2:  # no object twice (and no row to reshape)
        return
    flat = np.nan_to_num(t.points.reshape(len(t), -1), nan=-1.0)
    key = np.column_stack([t.unit, t.rater, t.label, flat])
    if key.shape[0] < 2:
        return
    _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
    if (counts > 1).any():
        i = int(first[np.flatnonzero(counts > 1)[0]])
        same = np.flatnonzero((key == key[i]).all(axis=1))
        rows = " and ".join(str(keep[j] + 1) for j in same[:2])
        raise DataError(f"{func}: annotator {t.raters[t.rater[i]]!r} placed the same "
                        f"{t.labels[t.label[i]]!r} keypoints twice on image "
                        f"{t.units[t.unit[i]]!r} (rows {rows}); remove the copy, or it would "
                        "count as a second object.")  # fmt: skip


def sigmas_of(names: Sequence[str], sigmas: Mapping[str, float] | None, func: str) -> NDArray[
        np.float64]:  # fmt: skip
    """Each keypoint's sigma: ``sigmas[name]``, else COCO's for its 17 person keypoints."""
    given = dict(sigmas or {})
    out = []
    for name in names:
        s = given.get(name, COCO_SIGMAS.get(name))
        if s is None:
            raise DataError(f"{func}: keypoint {name!r} has no sigma; give sigmas={{{name!r}: "
                            "...} (COCO's defaults cover only its 17 person keypoints).")
        ok = isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s) and s > 0
        if not ok:
            raise DataError(f"{func}: the sigma of keypoint {name!r} is {s!r}; expected a "
                            "finite positive number.")  # fmt: skip
        out.append(float(s))
    return np.array(out, dtype=np.float64)


#: COCO's per-keypoint sigmas (``COCOeval``'s ``kpt_oks_sigmas``, Ronchi & Perona 2017).
COCO_SIGMAS: dict[str, float] = {name: s / 10.0 for name, s in zip(COCO_KEYPOINTS, (
    0.26, 0.25, 0.25, 0.35, 0.35, 0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87,
    0.89, 0.89))}  # fmt: skip
