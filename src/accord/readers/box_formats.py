"""Boxes from any export accord reads: COCO, CVAT, Label Studio, YOLO, or a table.

:func:`read_boxes` runs the cheap checks of :mod:`accord.readers._sniff` and then
imports only the reader that fits, as :func:`accord.read` does. Every reader gives
the same :class:`~accord.readers.boxes.BoxTable` (x, y, width, height in pixels, or
in the units the export leaves them when it lacks image sizes, as its audit says).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError, FormatError

__all__ = ["BOX_FORMATS", "read_boxes"]

#: Box formats, name to a one-line description.
BOX_FORMATS: dict[str, str] = {
    "coco": "COCO JSON: one file per annotator, or one with rater_key=",
    "cvat": "CVAT for images 1.1 XML (or its zip): one job export per annotator, or "
            "one with rater_key= naming a box attribute",
    "label_studio_boxes": "Label Studio JSON with rectanglelabels (completed_by)",
    "yolo": "YOLO label folders: one folder per annotator (sizes= for pixels)",
}


def read_boxes(
    paths: str | Path | Sequence[str | Path],
    *,
    format: str | None = None,
    rater_key: str | None = None,
    sizes: Mapping[str, Sequence[float]] | str | Path | None = None,
    func: str = "read_boxes",
) -> Any:
    """The :class:`~accord.readers.boxes.BoxTable` of box exports (format detected).

    Parameters
    ----------
    paths : path or paths
        COCO or Label Studio JSON, CVAT XML, a YOLO root folder (one folder per
        annotator), several files of one format (one per annotator), or a folder of
        them.
    format : str, optional
        One of :data:`BOX_FORMATS`; default: detected from the content.
    rater_key : str, optional
        One COCO or CVAT file holding every annotator: the key or attribute naming
        who drew each box.
    sizes : mapping or path, optional
        YOLO: each image's ``(width, height)`` by file name, for pixels.
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one file or folder.")
    missing = next((f for f in files if not f.exists()), None)
    if missing is not None:
        raise DataError(f"{func}: no file or folder at {str(missing)!r}.")
    from accord.readers.shape_formats import export_files

    files = export_files(files)  # a folder of export files: its files, as accord.read
    name = format if format is not None else _detect(files, func)
    if name == "coco":
        from accord.readers.coco import read_coco

        return read_coco(files, rater_key=rater_key if len(files) == 1 else None, func=func)
    if name == "cvat":
        from accord.readers.cvat import read_cvat

        return read_cvat(files, rater_key=rater_key if len(files) == 1 else None, func=func)
    if name == "label_studio_boxes":
        from accord.readers.label_studio_boxes import read_label_studio_boxes

        return read_label_studio_boxes(files, func=func)
    if name == "yolo":
        from accord.readers.yolo import read_yolo

        return read_yolo(files, sizes=sizes, func=func)
    raise FormatError(f"{func}: format={name!r} is not a box format; expected one of "
                      f"{sorted(BOX_FORMATS)!r}.")  # fmt: skip


def _detect(files: list[Path], func: str) -> str:
    from accord.readers._sniff import BOX_SNIFF

    found = {f: _best(f, BOX_SNIFF) for f in files}
    if len(files) > 1 and all(f.is_dir() for f in files):
        found = {f: "yolo" for f in files}  # the annotators' folders themselves
    names = set(found.values())
    if None in names:
        bad = next(f for f, n in found.items() if n is None)
        raise FormatError(f"{func}: {str(bad)!r} is not a box export accord knows; expected "
                          f"one of {sorted(BOX_FORMATS)!r} (choose one with format=...).")
    if len(names) > 1:
        listed = ", ".join(f"{f.name} ({n})" for f, n in found.items())
        raise FormatError(f"{func}: the files given together are of different formats: "
                          f"{listed}; give one tool's files together.")  # fmt: skip
    return str(names.pop())


def _best(path: Path, checks: Mapping[str, Any]) -> str | None:
    head = b""
    if path.is_file():
        with open(path, "rb") as fh:
            head = fh.read(65536)
    score, name = max((check(path, head), name) for name, check in checks.items())
    return name if score > 0 else None
