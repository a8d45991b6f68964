"""CVAT for images 1.1 XML: the boxes of several annotators as a :class:`BoxTable`.

CVAT writes no author on a shape (see FORMATS.md, 2.6). Several annotators come as
one export per **job** (consensus replicas of CVAT 2.x, or one job per annotator):
the annotator is the job's ``<meta><job><assignee><username>``, else the file's
name without its extension. With ``rater_key=`` the annotator is instead the box's
``<attribute name="...">`` of that name (one file holding everyone's boxes).

Each ``<image id name width height>`` is one image, by its ``name``; an image of an
annotator's file without a box of theirs is that annotator's "no box". A ``<box
label xtl ytl xbr ybr>`` (corners in pixels) becomes ``x = xtl``, ``y = ytl``,
``w = xbr - xtl``, ``h = ybr - ytl``. Not read, and counted in the audit by name:
rotated boxes (``rotation`` other than 0), polygons, polylines, points, masks,
ellipses, cuboids, skeletons, image tags, and video tracks. A zip export
(``annotations.xml`` inside) is read as its XML.
"""

from __future__ import annotations

import math
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from accord.errors import DataError, FormatError
from accord.readers._box_rows import Rows, finish
from accord.readers._clip import size_of
from accord.readers.boxes import BoxTable

__all__ = ["read_cvat"]

_SHAPES = ("polygon", "polyline", "points", "mask", "ellipse", "cuboid", "skeleton", "tag")


def read_cvat(
    paths: str | Path | Sequence[str | Path],
    *,
    rater_key: str | None = None,
    func: str = "read_cvat",
) -> BoxTable:
    """The boxes of CVAT XML exports: one per annotator's job, or one with ``rater_key``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for who, x in (("ann", 10), ("bob", 12)):
    ...     _ = (d / f"{who}.xml").write_text(
    ...         "<annotations><version>1.1</version><meta><job><assignee><username>"
    ...         f"{who}</username></assignee></job></meta>"
    ...         '<image id="0" name="a.jpg" width="100" height="80">'
    ...         f'<box label="car" xtl="{x}" ytl="5" xbr="50" ybr="40" occluded="0"/>'
    ...         "</image></annotations>")
    >>> t = read_cvat([d / "ann.xml", d / "bob.xml"])
    >>> t.raters, t.xywh.tolist()
    (('ann', 'bob'), [[10.0, 5.0, 40.0, 35.0], [12.0, 5.0, 38.0, 35.0]])
    """
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not files:
        raise DataError(f"{func} needs at least one CVAT file.")
    rows = Rows()
    names: dict[str, Path] = {}
    for f in files:
        root = _load(f)
        who = None if rater_key else _annotator(root, f)
        if who is not None and who in names:
            raise DataError(
                f"{func}: {str(names[who])!r} and {str(f)!r} both hold the boxes of "
                f"{who!r}; give each annotator's job export once (or name the annotator "
                "of each box with rater_key=...)."
            )
        if who is not None:
            names[who] = f
        _read_root(root, f, who, rater_key, rows, func)
    if rater_key is None and len(names) < 2:
        raise DataError(
            f"{func}: one CVAT file holds one annotator unless rater_key= names the box "
            f"attribute that says who drew each box; got only {[str(f) for f in files]!r}."
        )
    if rater_key is not None:
        rows.everyone_saw_every_image()
    return finish(rows, len(files), func)


def _load(path: Path) -> ET.Element:
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                root = ET.fromstring(zf.read("annotations.xml"))
        else:
            root = ET.parse(path).getroot()
    except (ET.ParseError, KeyError, OSError, zipfile.BadZipFile) as exc:
        raise FormatError(f"{str(path)!r} is not a CVAT XML export ({exc}).") from None
    if root.tag != "annotations":
        raise FormatError(f"{str(path)!r} is not a CVAT XML export: its root is <{root.tag}>, "
                          "expected <annotations>.")  # fmt: skip
    return root


def _annotator(root: ET.Element, path: Path) -> str:
    """The job's assignee, else the file's name (a task's assignee is not the annotator)."""
    name = root.findtext("meta/job/assignee/username")
    if name and name.strip():
        return name.strip()
    return path.stem if path.stem != "annotations" else path.parent.name


def _read_root(root: ET.Element, path: Path, who: str | None, key: str | None, rows: Rows,
               func: str) -> None:  # fmt: skip
    for track in root.iter("track"):
        rows.skipped["video track"] += len(list(track))
    for k, image in enumerate(root.iter("image")):
        name = (image.get("name") or "").strip()
        if not name:
            raise DataError(f"{func}: {str(path)!r}, image {k + 1} (id {image.get('id')!r}) has "
                            "no name; CVAT matches images across files by name.")  # fmt: skip
        rows.images[name] = None
        size = size_of(_float(image.get("width")), _float(image.get("height")))
        if size is not None:
            rows.sizes.setdefault(name, size)
        if who is not None:
            rows.saw(name, who)
        for shape in image:
            if shape.tag == "box":
                _box(shape, name, path, who, key, rows, func)
            elif shape.tag in _SHAPES:
                rows.skipped[f"{shape.tag} (only boxes are compared)"] += 1
            else:
                rows.skipped[f"<{shape.tag}>"] += 1


def _float(raw: str | None) -> float | None:
    """A number of the XML, or None (an image's size is optional)."""
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


def _box(box: ET.Element, image: str, path: Path, who: str | None, key: str | None,
         rows: Rows, func: str) -> None:  # fmt: skip
    where = f"{str(path)!r}, image {image!r}"
    label = (box.get("label") or "").strip()
    if not label:
        raise DataError(f"{func}: {where} has a box with no label.")
    rater = who if key is None else _attribute(box, key)
    if rater is None:
        raise DataError(f"{func}: {where} has a {label!r} box with no attribute {key!r}, so who "
                        "drew it is unknown.")  # fmt: skip
    if box.get("rotation") and _coordinate(box, "rotation", where, func) % 360 != 0:
        rows.skipped["rotated box"] += 1
        return
    xtl, ytl, xbr, ybr = (_coordinate(box, c, where, func) for c in ("xtl", "ytl", "xbr", "ybr"))
    if xbr <= xtl or ybr <= ytl:
        raise DataError(f"{func}: {where} has a {label!r} box with xtl={xtl:g}, ytl={ytl:g}, "
                        f"xbr={xbr:g}, ybr={ybr:g}; a box needs xbr > xtl and ybr > ytl.")
    rows.box(image, rater, label, (xtl, ytl, xbr - xtl, ybr - ytl))


def _attribute(box: ET.Element, key: str) -> str | None:
    for attribute in box.iter("attribute"):
        if attribute.get("name") == key and (attribute.text or "").strip():
            return (attribute.text or "").strip()
    return None


def _coordinate(box: ET.Element, name: str, where: str, func: str) -> float:
    raw: Any = box.get(name)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value):
        raise DataError(f"{func}: {where} has a box with {name}={raw!r}; expected a number.")
    return value

