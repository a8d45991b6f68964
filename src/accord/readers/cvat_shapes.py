"""CVAT for images 1.1 XML: polygons and keypoints of several annotators.

The annotators are :mod:`accord.readers.cvat`'s: one job export per annotator (the
job's assignee, else the file's name), or ``rater_key=`` naming a shape attribute.

* :func:`read_cvat_polygons`: each ``<polygon label points="x1,y1;x2,y2;...">``.
* :func:`read_cvat_keypoints`: each ``<skeleton label>`` (CVAT 2.x) is one object,
  its ``<points label="nose" points="x,y" outside occluded>`` children its keypoints
  (``v`` 0 when ``outside="1"`` or absent, 1 when ``occluded="1"``, else 2), the
  names in the order of ``names=`` (default: in the order first met); a ``<points>``
  shape outside a skeleton is one object whose points are its keypoints in order,
  ``names=`` naming them. CVAT writes no area: the OKS scale is the area of the box
  around the object's labelled points, and the audit notes it.

Every other shape is counted in the audit by name, never dropped silently.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from accord.errors import DataError
from accord.readers._clip import clip_keypoints, clip_polygons, size_of
from accord.readers.cvat import _annotator, _attribute, _float, _load
from accord.readers.keypoints import KeypointTable, keypoint_table
from accord.readers.polygons import PolygonTable, polygon_table

__all__ = ["read_cvat_keypoints", "read_cvat_polygons"]

BOX_AREA = "area taken as the box around the labelled points (the export has none)"


def _shapes(paths: Any, rater_key: str | None, func: str,
            sizes: dict[str, tuple[float, float]]) -> tuple[
        list[tuple[str, str, ET.Element]], dict[tuple[str, str], None], Counter[str]]:  # fmt: skip
    """Every (image, annotator, shape) of the exports, who saw which image, and the tags;
    each image's width and height are added to ``sizes``."""
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files or (rater_key is None and len(files) < 2):
        raise DataError(f"{func}: give one CVAT job export per annotator (two or more), or one "
                        "file with rater_key= naming the shape attribute of the annotator.")
    out: list[tuple[str, str, ET.Element]] = []
    seen: dict[tuple[str, str], None] = {}
    tags: Counter[str] = Counter()
    names: dict[str | None, Path] = {}
    for f in files:
        root = _load(f)
        who = None if rater_key else _annotator(root, f)
        if who is not None and who in names:
            raise DataError(f"{func}: {str(names[who])!r} and {str(f)!r} both hold the shapes "
                            f"of {who!r}; give each annotator's job export once.")  # fmt: skip
        names[who] = f
        for image in root.iter("image"):
            name = (image.get("name") or "").strip()
            if not name:
                raise DataError(f"{func}: {str(f)!r} has an image with no name; CVAT matches "
                                "images across files by name.")  # fmt: skip
            size = size_of(_float(image.get("width")), _float(image.get("height")))
            if size is not None:
                sizes.setdefault(name, size)
            if who is not None:
                seen[(name, who)] = None
            for shape in image:
                rater = who if rater_key is None else _attribute(shape, rater_key)
                if rater is None:
                    raise DataError(f"{func}: {str(f)!r}, image {name!r} has a <{shape.tag}> "
                                    f"with no attribute {rater_key!r}, so who drew it is "
                                    "unknown.")  # fmt: skip
                seen[(name, rater)] = None
                tags[shape.tag] += 1
                out.append((name, rater, shape))
    if rater_key is not None:  # one file holds everyone: each saw every image
        raters = {r for _, r in seen}
        seen = {(i, r): None for i, _ in list(seen) for r in sorted(raters)}
    return out, seen, tags


def _xy(raw: str | None, where: str, func: str) -> list[float]:
    try:
        values = [float(c) for p in (raw or "").split(";") for c in p.split(",")]
    except ValueError:
        values = [math.nan]
    if not values or not all(math.isfinite(x) for x in values) or len(values) % 2:
        raise DataError(f"{func}: {where} has points={raw!r}; expected 'x1,y1;x2,y2;...' "
                        "with finite numbers.")  # fmt: skip
    return values


def _columns(rows: list[dict[str, Any]], seen: dict[tuple[str, str], None],
             keys: tuple[str, ...]) -> dict[str, list[Any]]:  # fmt: skip
    done = {(r["image"], r["annotator"]) for r in rows}
    rows = rows + [{"image": i, "annotator": a} for i, a in seen if (i, a) not in done]
    return {k: [r.get(k) for r in rows] for k in keys}


def _audit(table: Any, files: int, skipped: Counter[str], notes: Counter[str]) -> dict[str, int]:
    return {**table.audit, "files": files, **{f"skipped: {k}": n for k, n in skipped.items()},
            **{f"note: {k}": n for k, n in notes.items()}}  # fmt: skip


def read_cvat_polygons(paths: str | Path | Sequence[str | Path], *, rater_key: str | None = None,
                       func: str = "read_cvat_polygons") -> PolygonTable:  # fmt: skip
    """The ``<polygon>`` shapes of CVAT XML exports, one per annotator's job.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for who in ("ann", "bob"):
    ...     _ = (d / f"{who}.xml").write_text(
    ...         "<annotations><meta><job><assignee><username>"
    ...         f"{who}</username></assignee></job></meta>"
    ...         '<image id="0" name="a.jpg" width="100" height="80">'
    ...         '<polygon label="roof" points="0,0;4,0;4,3" occluded="0" z_order="0"/>'
    ...         "</image></annotations>")
    >>> read_cvat_polygons([d / "ann.xml", d / "bob.xml"]).area.tolist()
    [6.0, 6.0]
    """
    sizes: dict[str, tuple[float, float]] = {}
    shapes, seen, tags = _shapes(paths, rater_key, func, sizes)
    rows = []
    for image, rater, s in shapes:
        if s.tag != "polygon":
            continue
        where = f"image {image!r}, annotator {rater!r}, polygon {s.get('label')!r}"
        rows.append({"image": image, "annotator": rater, "label": s.get("label") or None,
                     "polygon": _xy(s.get("points"), where, func)})  # fmt: skip
    skipped = Counter({f"{t} (not a polygon)": n for t, n in tags.items() if t != "polygon"})
    cols = _columns(rows, seen, ("image", "annotator", "label", "polygon"))
    table = polygon_table(cols, func=func)
    n = 1 if isinstance(paths, (str, Path)) else len(paths)
    return clip_polygons(PolygonTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.rings, table.geometry, table.area, _audit(table, n, skipped, Counter())),
        sizes)  # fmt: skip


def read_cvat_keypoints(
    paths: str | Path | Sequence[str | Path], *, names: Sequence[str] | None = None,
    rater_key: str | None = None, func: str = "read_cvat_keypoints",
) -> KeypointTable:  # fmt: skip
    """The skeletons (and ``<points>`` shapes) of CVAT XML exports as keypointed objects."""
    sizes: dict[str, tuple[float, float]] = {}
    shapes, seen, tags = _shapes(paths, rater_key, func, sizes)
    objects: list[tuple[str, str, str, dict[str, tuple[float, float, int]]]] = []
    order: dict[str, None] = dict.fromkeys(names or ())
    for image, rater, s in shapes:
        where = f"image {image!r}, annotator {rater!r}, <{s.tag}> {s.get('label')!r}"
        if s.tag == "skeleton":
            pts = {}
            for p in s.iter("points"):
                name = p.get("label") or ""
                xy = _xy(p.get("points"), where, func)[:2]
                v = 0 if p.get("outside") == "1" else 1 if p.get("occluded") == "1" else 2
                pts[name], order[name] = (xy[0], xy[1], v), None
            objects.append((image, rater, s.get("label") or "", pts))
        elif s.tag == "points":
            xy = _xy(s.get("points"), where, func)
            if names is None or len(xy) != 2 * len(names):
                raise DataError(f"{func}: {where} has {len(xy) // 2} points; name them in order "
                                "with names= (as many names as points).")  # fmt: skip
            objects.append((image, rater, s.get("label") or "",
                            {n: (xy[2 * k], xy[2 * k + 1], 2) for k, n in enumerate(names)}))
    keys = tuple(order)
    rows = [_keypoint_row(image, rater, label, pts, keys) for image, rater, label, pts in objects]
    skipped = Counter({f"{t} (not keypoints)": n for t, n in tags.items()
                       if t not in ("skeleton", "points")})  # fmt: skip
    cols = _columns(rows, seen, ("image", "annotator", "label", "keypoints", "area"))
    table = keypoint_table(cols, names=keys or None, func=func)
    n = 1 if isinstance(paths, (str, Path)) else len(paths)
    return clip_keypoints(KeypointTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.names, table.points, table.area,
        _audit(table, n, skipped, Counter({BOX_AREA: len(rows)}))), sizes)  # fmt: skip


def _keypoint_row(image: str, rater: str, label: str, pts: dict[str, tuple[float, float, int]],
                  keys: tuple[str, ...]) -> dict[str, Any]:  # fmt: skip
    flat: list[float] = []
    for k in keys:
        x, y, v = pts.get(k, (0.0, 0.0, 0))
        flat += [x, y, float(v)]
    return {"image": image, "annotator": rater, "label": label or None, "keypoints": flat,
            "area": box_area(flat)}


def box_area(flat: Sequence[float]) -> float | None:
    """The area of the box around the labelled points of ``[x, y, v, ...]`` (``None`` if 0,
    so that :func:`keypoint_table` names the row)."""
    xs = [flat[i] for i in range(0, len(flat), 3) if flat[i + 2] > 0]
    ys = [flat[i + 1] for i in range(0, len(flat), 3) if flat[i + 2] > 0]
    area = (max(xs) - min(xs)) * (max(ys) - min(ys)) if xs else 0.0
    return area if area > 0 else None
