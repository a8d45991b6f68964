"""YOLO label folders: the boxes of several annotators as a :class:`BoxTable`.

A YOLO export is one ``<image>.txt`` per image, one line per box: ``class cx cy w
h``, the class an integer index and the box's centre, width and height as
fractions of the image's width and height. Several annotators are one folder each
under one root (``root/ann/``, ``root/bob/``, searched with their subfolders, such
as Ultralytics' ``labels/``); the annotator is the folder's name. An image's file
in an annotator's folder with no line is that annotator's "no box".

Class names come from ``classes.txt`` (one name a line, the line index the class)
or ``data.yaml``'s ``names`` (a list, or ``index: name`` lines), in an annotator's
folder or in the root; a class index they do not list is refused. Without either,
each label is its class index, and the audit says so.

Pixels need each image's size: ``sizes=`` maps an image's file name to ``(width,
height)`` (or is the path of a CSV with columns ``image, width, height``); the
image is then named by that file name (``a.jpg`` for ``a.txt``), so it matches the
same image in other tools' exports. Without a size, an image's boxes stay in
fractions of the image and the audit counts them: agreement is the same in either
unit only when every annotator's boxes of that image are in one unit, which they
are here. Not read, and counted by name: segmentation lines (a class and a polygon
of more than four numbers).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from accord.errors import DataError, FormatError
from accord.readers import _sniff
from accord.readers._base import Reader
from accord.readers._box_rows import Rows, finish
from accord.readers.boxes import BoxTable

__all__ = ["YOLO", "read_yolo"]

_NAMES = ("classes.txt", "obj.names")
_FRACTIONS = "boxes kept in fractions of the image (no image size)"
_INDICES = "labels are class indices (no classes.txt or data.yaml)"


def read_yolo(
    root: str | Path | Sequence[str | Path],
    *,
    sizes: Mapping[str, Sequence[float]] | str | Path | None = None,
    func: str = "read_yolo",
) -> BoxTable:
    """The boxes of YOLO label folders, one folder per annotator.

    ``root`` is the folder holding one folder per annotator, or the annotators'
    folders themselves.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "classes.txt").write_text("car\\nperson\\n")
    >>> for who, cx in (("ann", 0.5), ("bob", 0.55)):
    ...     (root / who).mkdir()
    ...     _ = (root / who / "a.txt").write_text(f"1 {cx} 0.5 0.2 0.4\\n")
    >>> t = read_yolo(root, sizes={"a.jpg": (200, 100)})
    >>> t.units, t.labels, t.xywh.tolist()[0]
    (('a.jpg',), ('person',), [80.0, 30.0, 40.0, 40.0])
    """
    folders = _folders(root, func)
    if len(folders) < 2:
        raise DataError(f"{func}: YOLO labels of several annotators are one folder each; "
                        f"found {[str(f) for f in folders]!r}.")  # fmt: skip
    size = _sizes(sizes, func)
    by_stem = {Path(name).stem: name for name in size}
    rows = Rows()
    for folder in folders:
        names = _class_names(folder, rows)
        for txt in sorted(p for p in folder.rglob("*.txt") if p.name not in _NAMES):
            image = by_stem.get(txt.stem, txt.stem)
            rows.saw(image, folder.name)
            _file(txt, image, folder.name, names, size.get(image), rows, func)
    return finish(rows, len(folders), func)


def _folders(root: Any, func: str) -> list[Path]:
    given = [Path(root)] if isinstance(root, (str, Path)) else [Path(p) for p in root]
    if len(given) == 1:
        if not given[0].is_dir():
            raise DataError(f"{func}: {str(given[0])!r} is not a folder of YOLO label folders.")
        subs = sorted(p for p in given[0].iterdir() if p.is_dir() and not p.name.startswith("."))
        return [p for p in subs if next(p.rglob("*.txt"), None) is not None]
    bad = next((p for p in given if not p.is_dir()), None)
    if bad is not None:
        raise DataError(f"{func}: {str(bad)!r} is not a folder; YOLO labels are read as one "
                        "folder per annotator.")  # fmt: skip
    return given


def _sizes(sizes: Any, func: str) -> dict[str, tuple[float, float]]:
    if sizes is None:
        return {}
    if isinstance(sizes, (str, Path)):
        import polars as pl

        frame = pl.read_csv(sizes, infer_schema_length=None)
        missing = {"image", "width", "height"} - set(frame.columns)
        if missing:
            raise DataError(f"{func}: the sizes file {str(sizes)!r} lacks the column(s) "
                            f"{sorted(missing)!r}; expected image, width, height.")  # fmt: skip
        sizes = {str(r["image"]): (r["width"], r["height"]) for r in frame.iter_rows(named=True)}
    out = {}
    for name, wh in dict(sizes).items():
        ok = isinstance(wh, (list, tuple)) and len(wh) == 2 and all(
            isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s) and s > 0
            for s in wh)  # fmt: skip
        if not ok:
            raise DataError(f"{func}: the size of image {name!r} is {wh!r}; expected (width, "
                            "height), two positive numbers.")  # fmt: skip
        out[str(name)] = (float(wh[0]), float(wh[1]))
    return out


def _class_names(folder: Path, rows: Rows) -> dict[int, str] | None:
    for place in (folder, folder.parent):
        for name in _NAMES:
            if (place / name).is_file():
                lines = (place / name).read_text(encoding="utf-8").splitlines()
                return {k: s.strip() for k, s in enumerate(lines) if s.strip()}
        if (place / "data.yaml").is_file():
            return _yaml_names(place / "data.yaml")
    rows.notes[_INDICES] += 1
    return None


def _yaml_names(path: Path) -> dict[int, str]:
    """``names: [a, b]`` or ``names:`` then ``  0: a`` lines (the two forms YOLO writes)."""
    text = path.read_text(encoding="utf-8")
    inline = re.search(r"^names:\s*\[(.*)\]\s*$", text, flags=re.M)
    if inline:
        items = [s.strip().strip("'\"") for s in inline.group(1).split(",") if s.strip()]
        return dict(enumerate(items))
    block = re.search(r"^names:\s*\n((?:[ \t]+\S.*\n?)+)", text, flags=re.M)
    lines = block.group(1).splitlines() if block else []
    pairs = (re.match(r"\s*(\d+)\s*:\s*(.+?)\s*$", ln) for ln in lines)
    return {int(m.group(1)): m.group(2).strip("'\"") for m in pairs if m}


def _file(txt: Path, image: str, rater: str, names: dict[int, str] | None,
          size: tuple[float, float] | None, rows: Rows, func: str) -> None:  # fmt: skip
    try:
        text = txt.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FormatError(f"{str(txt)!r} is not a YOLO label file: it is not UTF-8 text.") from None
    for n, line in enumerate(text.splitlines(), start=1):
        cells = line.split()
        if not cells:
            continue
        where = f"{str(txt)!r}, line {n}"
        if len(cells) > 6:
            rows.skipped["segmentation polygon (only boxes are compared)"] += 1
            continue
        if len(cells) < 5:
            raise DataError(f"{func}: {where} is {line.strip()!r}; expected 'class cx cy w h'.")
        if len(cells) == 6:
            rows.notes["a sixth number (a detection's confidence) not read"] += 1
        label = _label(cells[0], names, where, func)
        cx, cy, w, h = (_fraction(c, where, func) for c in cells[1:5])
        if w <= 0 or h <= 0:
            raise DataError(f"{func}: {where} has a box of width {w:g} and height {h:g}; a "
                            "box needs a positive width and height.")  # fmt: skip
        sx, sy = size if size is not None else (1.0, 1.0)
        if size is None:
            rows.notes[_FRACTIONS] += 1
        rows.sizes.setdefault(image, (sx, sy))
        rows.box(image, rater, label, ((cx - w / 2) * sx, (cy - h / 2) * sy, w * sx, h * sy))


def _label(cell: str, names: dict[int, str] | None, where: str, func: str) -> str:
    if not cell.isdigit():
        raise DataError(f"{func}: {where} has class {cell!r}; expected a class index (0, 1, ...).")
    if names is None:
        return cell
    if int(cell) not in names:
        raise DataError(f"{func}: {where} has class {cell}, which the class names do not list "
                        f"(indices {sorted(names)!r}).")  # fmt: skip
    return names[int(cell)]


def _fraction(cell: str, where: str, func: str) -> float:
    try:
        value = float(cell)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise DataError(f"{func}: {where} has {cell!r} where a number is expected.")
    return value


def _read(paths: list[Path], options: dict[str, Any]) -> Any:
    from accord.readers._box_rows import as_annotations

    table = read_yolo(paths, sizes=options.get("sizes"), func="accord.read")
    return as_annotations(table, "yolo", paths)


YOLO = Reader("yolo", "YOLO label folders (boxes; one folder per annotator)", _sniff.yolo,
              _read, ("sizes",))
