"""Label Studio JSON: polygons and keypoints of several annotators.

Tasks, images and annotators are :mod:`accord.readers.label_studio_boxes`'s (the
annotator ``completed_by``; cancelled and ground-truth annotations counted as not
read). Coordinates are in **percent** of the image and converted to pixels with
the result's ``original_width``/``original_height`` (a result without them is
refused: OKS and a polygon's area are not the same in percent of a non-square
image).

* :func:`read_label_studio_polygons`: each ``polygonlabels`` result, its
  ``value.points`` ``[[x, y], ...]``.
* :func:`read_label_studio_keypoints`: each ``keypointlabels`` result is one point,
  ``value.x``, ``value.y``, named by its label. Label Studio keeps no object of
  points: the points whose ``parentID`` is a rectangle of the same annotation form
  one object with that rectangle's label and area; the points without one form one
  object per annotation, labelled by the control's ``from_name``, with the area of
  the box around them (noted in the audit).

Every other region is counted in the audit by type, never dropped silently.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError
from accord.readers._clip import clip_keypoints, clip_polygons
from accord.readers.cvat_shapes import BOX_AREA, _audit, _columns, box_area
from accord.readers.keypoints import KeypointTable, keypoint_table
from accord.readers.label_studio_boxes import _image, _rater, _tasks
from accord.readers.polygons import PolygonTable, polygon_table

__all__ = ["read_label_studio_keypoints", "read_label_studio_polygons"]

Results = list[tuple[str, str, dict[str, Any], str]]


def _results(paths: Any, func: str) -> tuple[Results, dict[tuple[str, str], None], Counter[str]]:
    """(image, annotator, result, where) of every result, who saw which image, and skips."""
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one Label Studio JSON file.")
    out: Results = []
    seen: dict[tuple[str, str], None] = {}
    skipped: Counter[str] = Counter()
    for f in files:
        for k, task in enumerate(_tasks(f)):
            where = f"{str(f)!r}, task {task.get('id', k + 1)!r}"
            image = _image(task, where, func)
            for a in task["annotations"]:
                if a.get("was_cancelled") or a.get("ground_truth"):
                    skipped["cancelled or ground truth annotation"] += 1
                    continue
                rater = _rater(a.get("completed_by"), where, func)
                seen[(image, rater)] = None
                out += [(image, rater, r, f"{where}, annotator {rater!r}")
                        for r in a.get("result") or [] if isinstance(r, dict)]  # fmt: skip
    return out, seen, skipped


def _scale(r: dict[str, Any], where: str, func: str) -> tuple[float, float]:
    size: tuple[Any, Any] = (r.get("original_width"), r.get("original_height"))
    if not all(isinstance(s, (int, float)) and not isinstance(s, bool) and s > 0 for s in size):
        raise DataError(f"{func}: {where} has a {r.get('type')} region without "
                        "original_width/original_height; its percent coordinates cannot be "
                        "put in pixels.")  # fmt: skip
    return float(size[0]) / 100.0, float(size[1]) / 100.0


def _number(raw: Any, where: str, func: str) -> float:
    if not (isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw)):
        raise DataError(f"{func}: {where} has the coordinate {raw!r}; expected a finite number.")
    return float(raw)


def read_label_studio_polygons(
    paths: str | Path | Sequence[str | Path], *, func: str = "read_label_studio_polygons",
) -> PolygonTable:  # fmt: skip
    """The ``polygonlabels`` regions of Label Studio JSON exports, in pixels."""
    results, seen, skipped = _results(paths, func)
    rows = []
    sizes: dict[str, tuple[float, float]] = {}
    for image, rater, r, where in results:
        value = r.get("value") if isinstance(r.get("value"), dict) else {}
        if r.get("type") != "polygonlabels":
            skipped[f"{r.get('type') or 'untyped'} region (not a polygon)"] += 1
            continue
        sx, sy = _scale(r, where, func)
        sizes.setdefault(image, (sx * 100.0, sy * 100.0))
        labels = (value or {}).get("polygonlabels") or []
        pts = (value or {}).get("points")
        if len(labels) != 1 or not isinstance(pts, list):
            raise DataError(f"{func}: {where} has a polygon with labels {labels!r} and points "
                            f"{str(pts)[:40]}; expected one label and a list of [x, y].")
        ring = [[_number(p[0], where, func) * sx, _number(p[1], where, func) * sy]
                for p in pts if isinstance(p, list) and len(p) == 2]  # fmt: skip
        rows.append({"image": image, "annotator": rater, "label": str(labels[0]),
                     "polygon": ring if len(ring) == len(pts) else pts})  # fmt: skip
    table = polygon_table(_columns(rows, seen, ("image", "annotator", "label", "polygon")),
                          func=func)  # fmt: skip
    n = 1 if isinstance(paths, (str, Path)) else len(paths)
    return clip_polygons(PolygonTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.rings, table.geometry, table.area, _audit(table, n, skipped, Counter())),
        sizes)  # fmt: skip


def read_label_studio_keypoints(
    paths: str | Path | Sequence[str | Path], *, names: Sequence[str] | None = None,
    func: str = "read_label_studio_keypoints",
) -> KeypointTable:  # fmt: skip
    """The ``keypointlabels`` points of Label Studio JSON exports, as objects (see above)."""
    results, seen, skipped = _results(paths, func)
    rects = {(i, a, r.get("id")): r for i, a, r, _ in results if r.get("type") == "rectanglelabels"}
    parents = {(i, a, r.get("parentID")) for i, a, r, _ in results
               if r.get("type") == "keypointlabels"}  # fmt: skip
    objects: dict[tuple[str, str, Any], dict[str, tuple[float, float, float]]] = {}
    controls: dict[tuple[str, str, Any], str] = {}
    order: dict[str, None] = dict.fromkeys(names or ())
    sizes: dict[str, tuple[float, float]] = {}
    for image, rater, r, where in results:
        if r.get("type") != "keypointlabels":
            if (image, rater, r.get("id")) not in parents or r.get("type") != "rectanglelabels":
                skipped[f"{r.get('type') or 'untyped'} region (not keypoints)"] += 1
            continue
        value = r.get("value") if isinstance(r.get("value"), dict) else {}
        sx, sy = _scale(r, where, func)
        sizes.setdefault(image, (sx * 100.0, sy * 100.0))
        name = str(((value or {}).get("keypointlabels") or [""])[0])
        parent = r.get("parentID") if (image, rater, r.get("parentID")) in rects else None
        pts = objects.setdefault((image, rater, parent), {})
        controls.setdefault((image, rater, parent), str(r.get("from_name") or "keypoints"))
        if name in pts:
            raise DataError(f"{func}: {where} places keypoint {name!r} twice in one object; "
                            "expected each keypoint once.")  # fmt: skip
        pts[name] = (_number((value or {}).get("x"), where, func) * sx,
                     _number((value or {}).get("y"), where, func) * sy, 2.0)  # fmt: skip
        order[name] = None
    keys = tuple(order)
    rows, noted = [], 0
    for (image, rater, parent), pts in objects.items():
        flat = [c for k in keys for c in pts.get(k, (0.0, 0.0, 0.0))]
        rect = rects.get((image, rater, parent)) if parent is not None else None
        if rect is None:
            label, area, noted = controls[(image, rater, parent)], box_area(flat), noted + 1
        else:
            sx, sy = _scale(rect, "its rectangle", func)
            v = rect.get("value") or {}
            label = str((v.get("rectanglelabels") or ["object"])[0])
            area = float(v.get("width", 0)) * sx * float(v.get("height", 0)) * sy
        rows.append({"image": image, "annotator": rater, "label": label, "keypoints": flat,
                     "area": area})  # fmt: skip
    cols = _columns(rows, seen, ("image", "annotator", "label", "keypoints", "area"))
    table = keypoint_table(cols, names=keys or None, func=func)
    n = 1 if isinstance(paths, (str, Path)) else len(paths)
    notes = Counter({BOX_AREA: noted}) if noted else Counter[str]()
    return clip_keypoints(KeypointTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.names, table.points, table.area, _audit(table, n, skipped, notes)),
        sizes)  # fmt: skip
