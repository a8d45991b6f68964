"""Label Studio rectangles: the boxes of several annotators as a :class:`BoxTable`.

A Label Studio JSON export is a list of tasks; each task's ``annotations[]`` are
its annotators' work, the annotator ``completed_by`` (an int id, or an object whose
``email`` is used). A ``rectanglelabels`` result gives ``x, y, width, height`` in
**percent** of the image and the image's ``original_width``/``original_height``;
the box is converted to pixels (``x * original_width / 100``, ...). When a result
lacks the original size, its box stays in percent and the audit says how many
(IoU is the same in both units only when both annotators' boxes are in one unit).

The image is the file name at the end of the task's image URL (``data.image``, or
the first text value of ``data``), so that the same image matches across tools.
Not read, and counted by name in the audit: cancelled annotations (Skip), ground
truth annotations (a reference, not an annotator), rotated rectangles, and other
regions (polygons, keypoints, brushes, choices...). An annotation (not cancelled)
with no rectangle is its annotator's "no box" on that image.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from accord.errors import DataError, FormatError
from accord.readers._box_rows import Rows, finish
from accord.readers.boxes import BoxTable

__all__ = ["read_label_studio_boxes"]

_PERCENT = "boxes kept in percent of the image (no original_width/original_height)"


def read_label_studio_boxes(
    paths: str | Path | Sequence[str | Path], *, func: str = "read_label_studio_boxes"
) -> BoxTable:
    """The rectangles of Label Studio JSON exports, one annotation per annotator.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rect = {"type": "rectanglelabels", "from_name": "label", "to_name": "image",
    ...         "original_width": 200, "original_height": 100,
    ...         "value": {"x": 10, "y": 20, "width": 50, "height": 30,
    ...                   "rectanglelabels": ["car"]}}
    >>> task = {"id": 1, "data": {"image": "/data/upload/1/a.jpg"},
    ...         "annotations": [{"completed_by": 7, "result": [rect]},
    ...                         {"completed_by": 8, "result": []}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "export.json"
    >>> _ = path.write_text(json.dumps([task]))
    >>> t = read_label_studio_boxes(path)
    >>> t.units, t.raters, t.xywh.tolist()
    (('a.jpg',), ('7', '8'), [[20.0, 20.0, 100.0, 30.0]])
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one Label Studio JSON file.")
    rows = Rows()
    for f in files:
        for k, task in enumerate(_tasks(f)):
            _task(task, f"{str(f)!r}, task {task.get('id', k + 1)!r}", rows, func)
    return finish(rows, len(files), func)


def _tasks(path: Path) -> list[dict[str, Any]]:
    from accord.readers._base import load_json

    data = load_json(path)
    tasks = data if isinstance(data, list) else [data]
    if not all(isinstance(t, dict) and isinstance(t.get("annotations"), list) for t in tasks):
        raise FormatError(f"{str(path)!r} is not a Label Studio JSON export: expected a list "
                          "of tasks, each with an 'annotations' list.")  # fmt: skip
    return tasks


def _image(task: dict[str, Any], where: str, func: str) -> str:
    data = task.get("data") if isinstance(task.get("data"), dict) else {}
    value = (data or {}).get("image")
    if not isinstance(value, str):
        value = next((v for v in (data or {}).values() if isinstance(v, str) and v.strip()), None)
    if not value or not value.strip():
        raise DataError(f"{func}: {where} names no image (no 'image' text in its 'data').")
    return unquote(Path(urlparse(value).path).name) or value


def _task(task: dict[str, Any], where: str, rows: Rows, func: str) -> None:
    image = _image(task, where, func)
    for a in task["annotations"]:
        if not isinstance(a, dict):
            raise FormatError(f"{func}: {where} has an annotation that is not an object.")
        if a.get("was_cancelled"):
            rows.skipped["cancelled annotation (Skip)"] += 1
            continue
        if a.get("ground_truth"):
            rows.skipped["ground truth annotation (a reference, not an annotator)"] += 1
            continue
        rater = _rater(a.get("completed_by"), where, func)
        rows.saw(image, rater)
        for r in a.get("result") or []:
            _result(r, image, rater, f"{where}, annotator {rater!r}", rows, func)


def _rater(who: Any, where: str, func: str) -> str:
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    if who is None or isinstance(who, bool) or str(who).strip() == "":
        raise DataError(f"{func}: {where} has an annotation with no 'completed_by', so who "
                        "drew its boxes is unknown.")  # fmt: skip
    return str(who)


def _result(r: Any, image: str, rater: str, where: str, rows: Rows, func: str) -> None:
    value = r.get("value") if isinstance(r, dict) else None
    kind = r.get("type") if isinstance(r, dict) else None
    if kind != "rectanglelabels" or not isinstance(value, dict):
        rows.skipped[f"{kind or 'untyped'} region (only rectanglelabels are compared)"] += 1
        return
    labels = value.get("rectanglelabels") or []
    if len(labels) != 1:
        raise DataError(f"{func}: {where} has a rectangle with labels {labels!r}; expected "
                        "exactly one label per rectangle.")  # fmt: skip
    if _number(value.get("rotation", 0), "rotation", where, func) % 360 != 0:
        rows.skipped["rotated rectangle"] += 1
        return
    x, y, w, h = (_number(value.get(k), k, where, func) for k in ("x", "y", "width", "height"))
    if w <= 0 or h <= 0:
        raise DataError(f"{func}: {where} has a {labels[0]!r} rectangle of width {w:g} and "
                        f"height {h:g}; a box needs a positive width and height.")  # fmt: skip
    size = (r.get("original_width"), r.get("original_height"))
    if all(isinstance(s, (int, float)) and not isinstance(s, bool) and s > 0 for s in size):
        sx, sy = float(size[0]), float(size[1])  # multiply first: 15.625 * 640 / 100 is 100
        x, y, w, h = x * sx / 100, y * sy / 100, w * sx / 100, h * sy / 100
        rows.sizes.setdefault(image, (sx, sy))
    else:
        rows.notes[_PERCENT] += 1
        rows.sizes.setdefault(image, (100.0, 100.0))
    rows.box(image, rater, str(labels[0]), (x, y, w, h))


def _number(raw: Any, name: str, where: str, func: str) -> float:
    ok = isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw)
    if not ok:
        raise DataError(f"{func}: {where} has a rectangle with {name}={raw!r}; expected a "
                        "finite number.")  # fmt: skip
    return float(raw)

