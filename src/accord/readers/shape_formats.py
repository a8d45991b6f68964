"""Polygons and keypoints from any export accord reads: COCO, CVAT or Label Studio.

The format is told by the files: ``.xml`` (or a CVAT zip) is CVAT for images 1.1; a
JSON file that is a list of tasks (or one task with ``annotations``) is Label Studio;
a JSON object with ``images``, ``annotations`` and ``categories`` is COCO.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord.errors import FormatError

__all__ = ["export_files", "read_keypoints", "read_polygons", "shape_format", "shapes_held"]


def shape_format(files: Sequence[Path], func: str) -> str:
    """``"coco"``, ``"cvat"`` or ``"label_studio"``: the one format of ``files``."""
    kinds = {f: _kind(f) for f in files}
    if len(set(kinds.values())) > 1:
        listed = ", ".join(f"{f.name} ({k})" for f, k in kinds.items())
        raise FormatError(f"{func}: the files given together are of different formats: "
                          f"{listed}; give one tool's files together.")  # fmt: skip
    return next(iter(kinds.values()))


def _kind(path: Path) -> str:
    if path.suffix.lower() == ".xml" or (path.is_file() and zipfile.is_zipfile(path)):
        return "cvat"
    with open(path, "rb") as fh:
        head = fh.read(65536).lstrip()
    if head.startswith(b"[") or (b'"annotations"' in head and b'"images"' not in head):
        return "label_studio"
    return "coco"


def export_files(paths: Any) -> list[Path]:
    """The files of ``paths``; a folder of export files (no subfolder: not YOLO's) is its
    ``.json``, ``.xml`` and ``.zip`` files, as :func:`accord.read` reads a folder."""
    given = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    out: list[Path] = []
    for p in given:
        inner = sorted(p.iterdir()) if p.is_dir() else []
        exports = [f for f in inner if f.is_file() and not f.name.startswith(".")
                   and f.suffix.lower() in {".json", ".xml", ".zip"}]  # fmt: skip
        out += exports if exports and not any(f.is_dir() for f in inner) else [p]
    return out


def read_keypoints(paths: Any, *, rater_key: str | None, names: Sequence[str] | None,
                   func: str) -> Any:  # fmt: skip
    """The :class:`~accord.readers.keypoints.KeypointTable` of keypoint exports."""
    files = export_files(paths)
    kind = shape_format(files, func)
    key = rater_key if len(files) == 1 else None
    if kind == "cvat":
        from accord.readers.cvat_shapes import read_cvat_keypoints

        return read_cvat_keypoints(files, names=names, rater_key=key, func=func)
    if kind == "label_studio":
        from accord.readers.label_studio_shapes import read_label_studio_keypoints

        return read_label_studio_keypoints(files, names=names, func=func)
    from accord.readers.coco_keypoints import read_coco_keypoints

    return read_coco_keypoints(files, rater_key=key, func=func)


def read_polygons(paths: Any, *, rater_key: str | None, func: str) -> Any:
    """The :class:`~accord.readers.polygons.PolygonTable` of polygon exports."""
    files = export_files(paths)
    kind = shape_format(files, func)
    key = rater_key if len(files) == 1 else None
    if kind == "cvat":
        from accord.readers.cvat_shapes import read_cvat_polygons

        return read_cvat_polygons(files, rater_key=key, func=func)
    if kind == "label_studio":
        from accord.readers.label_studio_shapes import read_label_studio_polygons

        return read_label_studio_polygons(files, func=func)
    from accord.readers.coco_polygons import read_coco_polygons

    return read_coco_polygons(files, rater_key=key, func=func)


#: What marks each shape in an export's text: COCO's bbox, segmentation outlines and
#: labelled keypoints, CVAT's tags, Label Studio's region types.
_HELD = {
    "boxes": rb'"bbox"\s*:\s*\[\s*-?[\d.]|<box\b|"rectanglelabels"',
    "polygons": rb'"segmentation"\s*:\s*\[\s*\[\s*-?[\d.]|<polygon\b|"polygonlabels"',
    "keypoints": rb'"num_keypoints"\s*:\s*[1-9]|<skeleton\b|<points\b|"keypointlabels"',
}

#: How much of each file :func:`shapes_held` looks at.
_HELD_BYTES = 64 * 2**20


def shapes_held(paths: Any) -> tuple[str, ...]:
    """Which of ``"boxes"``, ``"polygons"`` and ``"keypoints"`` the exports ``paths`` hold
    (COCO, CVAT, Label Studio; a folder is YOLO's boxes), from their text: a hint for a
    command given another shape, found without parsing (tables hold none).

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "job.xml"
    >>> _ = f.write_text('<annotations><image name="a.jpg"><polygon label="roof" '
    ...                  'points="0,0;4,0;4,2"/></image></annotations>')
    >>> shapes_held([f])
    ('polygons',)
    """
    import re

    found: set[str] = set()
    for f in export_files(paths):
        if f.is_dir():
            found.add("boxes")
        elif f.is_file() and f.suffix.lower() not in {".csv", ".tsv", ".parquet", ".pq"}:
            text = _text(f)
            found.update(k for k, pattern in _HELD.items() if re.search(pattern, text))
    return tuple(k for k in _HELD if k in found)


def _text(path: Path) -> bytes:
    """The first bytes of a file, or of the XML in a (CVAT) zip; empty when unreadable."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                xml = [n for n in zf.namelist() if n.lower().endswith(".xml")]
                return zf.open(xml[0]).read(_HELD_BYTES) if xml else b""
        with open(path, "rb") as fh:
            return fh.read(_HELD_BYTES)
    except (OSError, zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError,
            EOFError):
        return b""
