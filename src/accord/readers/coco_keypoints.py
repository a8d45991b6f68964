"""COCO keypoint JSON: keypointed objects of several annotators as a :class:`KeypointTable`.

A COCO keypoint file is a COCO detection file whose categories list their
``keypoints`` (names, e.g. the 17 of ``person``) and whose annotations carry
``keypoints`` ``[x1, y1, v1, x2, y2, v2, ...]`` in that order, with ``area`` (the
OKS scale). The layouts of several annotators are :mod:`accord.readers.coco`'s (one
file per annotator, or ``rater_key``).

What is not read is counted in the audit, never dropped silently: crowd regions
(``iscrowd: 1``), annotations with no ``keypoints`` (boxes or segmentations only),
and annotations labelling no point (``num_keypoints`` 0: every ``v`` is 0, as COCO
stores small or occluded people), which COCO's own evaluation cannot score either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError
from accord.readers._clip import clip_keypoints
from accord.readers.coco import _load, each_annotation, image_sizes, unseen
from accord.readers.keypoints import KeypointTable, keypoint_table

__all__ = ["read_coco_keypoints"]


def read_coco_keypoints(
    paths: str | Path | Sequence[str | Path],
    *,
    rater_key: str | None = None,
    func: str = "read_coco_keypoints",
) -> KeypointTable:
    """The keypointed objects of COCO files, one file per annotator or one with ``rater_key``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name, x in (("ann", 10), ("bob", 11)):
    ...     _ = (d / f"{name}.json").write_text(json.dumps({
    ...         "images": [{"id": 1, "file_name": "a.jpg"}],
    ...         "categories": [{"id": 1, "name": "hand", "keypoints": ["wrist", "tip"]}],
    ...         "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "area": 400,
    ...                          "keypoints": [0, 0, 2, x, 0, 2], "num_keypoints": 2}]}))
    >>> t = read_coco_keypoints([d / "ann.json", d / "bob.json"])
    >>> t.raters, t.names, t.audit["objects"]
    (('ann', 'bob'), ('wrist', 'tip'), 2)
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one COCO file.")
    if rater_key is None and len(files) < 2:
        raise DataError(
            f"{func}: one COCO file holds one annotator unless rater_key= names the annotation "
            f"key (or attribute) that says who placed each object; got only {str(files[0])!r}."
        )
    rows: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    names: tuple[str, ...] | None = None
    sizes: dict[str, tuple[float, float]] = {}
    for f in files:
        names = _rows(f, rater_key, skipped, rows, (names, sizes), func)
    columns = {k: [r[k] for r in rows] for k in ("image", "annotator", "label", "keypoints",
                                                 "area")}  # fmt: skip
    table = keypoint_table(columns, names=names, func=func)
    audit = {**table.audit, "files": len(files), **{f"skipped: {k}": n for k, n in skipped.items()}}
    return clip_keypoints(KeypointTable(
        table.units, table.raters, table.labels, table.unit, table.rater, table.label,
        table.names, table.points, table.area, audit), sizes)  # fmt: skip


def _names(data: dict[str, Any], path: Path, known: tuple[str, ...] | None,
           func: str) -> tuple[str, ...]:  # fmt: skip
    lists = {tuple(str(n) for n in c["keypoints"]) for c in data["categories"]
             if isinstance(c, dict) and isinstance(c.get("keypoints"), list)}  # fmt: skip
    if known is not None:
        lists.add(known)
    if len(lists) != 1:
        raise DataError(f"{func}: {str(path)!r}'s categories (with the files before it) list "
                        f"{len(lists)} different keypoint lists {sorted(lists)!r}; expected "
                        "one list of keypoint names shared by every category.")  # fmt: skip
    return lists.pop()


def _rows(
    path: Path, rater_key: str | None, skipped: Counter[str], rows: list[dict[str, Any]],
    known_sizes: tuple[tuple[str, ...] | None, dict[str, tuple[float, float]]], func: str,
) -> tuple[str, ...]:  # fmt: skip
    known, sizes = known_sizes
    data = _load(path)
    image_sizes(data, sizes)
    names = _names(data, path, known, func)
    seen: set[tuple[str, str]] = set()
    for a, _, image, rater, label in each_annotation(data, path, rater_key, seen, func):
        reason = _skip(a)
        if reason:
            skipped[reason] += 1
            continue
        rows.append({"image": image, "annotator": rater, "label": label,
                     "keypoints": a["keypoints"], "area": a.get("area")})  # fmt: skip
    for image, rater in unseen(data, path, rater_key, seen):
        rows.append({"image": image, "annotator": rater, "label": None, "keypoints": None,
                     "area": None})  # fmt: skip
    return names


def _skip(a: dict[str, Any]) -> str:
    """Why an annotation is not read (empty when it is)."""
    if a.get("iscrowd"):
        return "crowd region (iscrowd)"
    kp = a.get("keypoints")
    if kp is None:
        return "no keypoints"
    if isinstance(kp, list) and len(kp) % 3 == 0 and kp and all(
        isinstance(x, (int, float)) and x == 0 for x in kp[2::3]
    ):  # fmt: skip
        return "no labelled keypoint (num_keypoints 0)"
    return ""
