"""COCO object-detection JSON: boxes of several annotators as a :class:`BoxTable`.

A COCO file holds ``images`` (``id``, ``file_name``), ``categories`` (``id``,
``name``) and ``annotations`` (``image_id``, ``category_id``, ``bbox`` as
``[x, y, w, h]``, ``iscrowd``). Two layouts of several annotators:

* one file per annotator (as CVAT, Label Studio and most tools export one job or
  project): the annotator is the file's name without its extension, and images
  are the same image across files when their ``file_name`` is the same (image ids
  are local to a file);
* one file with the annotator in each annotation, ``rater_key="annotator"``: the
  value of that key in the annotation, in its ``attributes`` (where CVAT puts
  custom attributes), or in the record of its image (kalphacv's layout: one image
  record per annotator, the same ``file_name``).

An image listed in an annotator's file with no box from that annotator is that
annotator's "no box". What is not a box is counted in the audit, never dropped
silently: crowd regions (``iscrowd: 1``, which COCO's own evaluation leaves out
of matching too) and annotations with no ``bbox`` (segmentation only).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError, FormatError
from accord.readers import _sniff
from accord.readers._clip import clip_boxes, size_of
from accord.readers.boxes import BoxTable, box_table

sniff = _sniff.coco

__all__ = ["read_coco", "sniff"]


def read_coco(
    paths: str | Path | Sequence[str | Path],
    *,
    rater_key: str | None = None,
    func: str = "read_coco",
) -> BoxTable:
    """The boxes of COCO files, one file per annotator or one file with ``rater_key``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name, x in (("ann", 0), ("bob", 1)):
    ...     _ = (d / f"{name}.json").write_text(json.dumps({
    ...         "images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
    ...         "categories": [{"id": 1, "name": "cat"}],
    ...         "annotations": [{"id": 1, "image_id": 1, "category_id": 1,
    ...                          "bbox": [x, 0, 10, 10], "iscrowd": 0}]}))
    >>> t = read_coco([d / "ann.json", d / "bob.json"])
    >>> t.raters, t.units, dict(t.audit)["boxes"]
    (('ann', 'bob'), ('a.jpg', 'b.jpg'), 2)
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one COCO file.")
    if rater_key is None and len(files) < 2:
        raise DataError(
            f"{func}: one COCO file holds one annotator unless rater_key= names the annotation "
            f"key (or attribute) that says who drew each box; got only {str(files[0])!r}."
        )
    stems = [f.stem for f in files]
    if rater_key is None and len(set(stems)) < len(stems):
        raise DataError(
            f"{func}: two files have the same name {stems!r}; the annotator is the file's "
            "name, so give each annotator's file its own name."
        )
    rows: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    sizes: dict[str, tuple[float, float]] = {}
    for f in files:
        rows += _rows(f, rater_key, skipped, func, sizes)
    table = box_table(_columns(rows), unit="image", rater="annotator", label="label",
                      box=("x", "y", "w", "h"), func=func)  # fmt: skip
    audit = {**table.audit, "files": len(files), **{f"skipped: {k}": n for k, n in skipped.items()}}
    return clip_boxes(BoxTable(table.units, table.raters, table.labels, table.unit,
                               table.rater, table.label, table.xywh, audit), sizes)  # fmt: skip


def image_sizes(data: dict[str, Any], sizes: dict[str, tuple[float, float]]) -> None:
    """Add each image's ``(width, height)`` by file name, where the file gives both."""
    for k, im in enumerate(data["images"]):
        if isinstance(im, dict):
            size = size_of(im.get("width"), im.get("height"))
            if size is not None:
                sizes.setdefault(str(im.get("file_name", im.get("id", k))), size)


def _load(path: Path) -> dict[str, Any]:
    from accord.readers._base import load_json

    data = load_json(path)
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), list) for k in ("images", "annotations", "categories")
    ):
        raise FormatError(
            f"{str(path)!r} is not a COCO file: expected a JSON object with the lists "
            "'images', 'annotations' and 'categories'."
        )
    return data


def _rows(
    path: Path, rater_key: str | None, skipped: Counter[str], func: str,
    sizes: dict[str, tuple[float, float]],
) -> list[dict[str, Any]]:  # fmt: skip
    data = _load(path)
    image_sizes(data, sizes)
    rows = []
    seen: set[tuple[str, str]] = set()
    for a, where, image, rater, label in each_annotation(data, path, rater_key, seen, func):
        if a.get("iscrowd"):
            skipped["crowd region (iscrowd)"] += 1
            continue
        if a.get("bbox") is None:
            skipped["no bbox"] += 1
            continue
        x, y, w, h = _bbox(a["bbox"], where, func)
        rows.append({"image": image, "annotator": rater, "label": label,
                     "x": x, "y": y, "w": w, "h": h})  # fmt: skip
    for image, rater in unseen(data, path, rater_key, seen):
        rows.append({"image": image, "annotator": rater, "label": None,
                     "x": None, "y": None, "w": None, "h": None})  # fmt: skip
    return rows


def each_annotation(
    data: dict[str, Any], path: Path, rater_key: str | None, seen: set[tuple[str, str]],
    func: str,
) -> Iterator[tuple[dict[str, Any], str, str, str, str]]:  # fmt: skip
    """Each annotation of a COCO file with where it is (for messages), its image's file
    name, its annotator and its category's name; every (image, annotator) met is added
    to ``seen``. The box, keypoint and polygon readers share it."""
    names = {c.get("id"): str(c.get("name", c.get("id"))) for c in data["categories"]}
    records = {im.get("id"): im for im in data["images"] if isinstance(im, dict)}
    images = {k: str(im.get("file_name", k)) for k, im in records.items()}
    for k, a in enumerate(data["annotations"]):
        where = f"{str(path)!r}, annotation {a.get('id', k + 1)!r}"
        if a.get("image_id") not in images:
            raise DataError(f"{func}: {where} is on image id {a.get('image_id')!r}, which the "
                            "file's 'images' does not list.")  # fmt: skip
        if a.get("category_id") not in names:
            known = sorted(names, key=str)
            raise DataError(f"{func}: {where} has category id {a.get('category_id')!r}, which "
                            f"the file's 'categories' does not list (ids {known!r}).")  # fmt: skip
        image = images[a["image_id"]]
        rater = path.stem if rater_key is None else _rater(
            a, records[a["image_id"]], rater_key, where, func)  # fmt: skip
        seen.add((image, rater))
        yield a, where, image, rater, names[a["category_id"]]


def unseen(data: dict[str, Any], path: Path, rater_key: str | None,
           seen: set[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The (image, annotator) pairs of the file with no annotation: that annotator's "no
    object" on that image (one file per annotator: the file's stem)."""
    raters = {r for _, r in seen} or ({path.stem} if rater_key is None else set())
    records = {im.get("id"): im for im in data["images"] if isinstance(im, dict)}
    for image in {k: str(im.get("file_name", k)) for k, im in records.items()}.values():
        for rater in sorted(raters):
            if (image, rater) not in seen:
                yield image, rater


def _rater(a: dict[str, Any], image: dict[str, Any], key: str, where: str, func: str) -> str:
    """The annotator: in the annotation, its ``attributes``, or its image's record."""
    attributes = a.get("attributes") if isinstance(a.get("attributes"), dict) else {}
    for source in (a, attributes or {}, image):
        value = source.get(key)
        if value is not None and str(value).strip() != "":
            return str(value)
    raise DataError(f"{func}: {where} has no {key!r} (in the annotation, its 'attributes' "
                    "or its image), so who drew it is unknown.")  # fmt: skip


def _bbox(bbox: Any, where: str, func: str) -> tuple[float, float, float, float]:
    ok = isinstance(bbox, list) and len(bbox) == 4
    nums = [float(b) if isinstance(b, (int, float)) and not isinstance(b, bool) else math.nan
            for b in (bbox if ok else [])]  # fmt: skip
    if not ok or not all(math.isfinite(b) for b in nums) or nums[2] <= 0 or nums[3] <= 0:
        raise DataError(f"{func}: {where} has bbox {bbox!r}; expected [x, y, width, height] "
                        "with finite numbers and a positive width and height.")  # fmt: skip
    return nums[0], nums[1], nums[2], nums[3]


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    keys = ("image", "annotator", "label", "x", "y", "w", "h")
    return {k: [r[k] for r in rows] for k in keys}

