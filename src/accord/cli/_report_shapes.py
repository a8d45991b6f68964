"""``accord report`` on polygons and keypoints: the options that say a table holds them,
and the reading of such a table or export into the annotations the report takes.

Which shape the data hold is decided once: ``--polygon COL`` or ``--keypoints COL``
says it; else an export (COCO, CVAT, Label Studio) holding polygons or keypoints is read
as those (:func:`accord.readers.shape_formats.shapes_held`; keypoints first, then
polygons, since a COCO keypoint or polygon export also holds each object's box); else a
table with a column named ``polygon`` or ``keypoints`` is. What was guessed is a caveat,
stated on the first lines of every output. Anything else is read as before (boxes,
spans, labels).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from accord.cli.shapes import _sigmas

__all__ = ["KEYPOINT_OPTIONS", "read_shapes", "refuse_keypoint_options",
           "refuse_shape_options_by", "shape_options"]

_TABLES = {".csv", ".tsv", ".parquet", ".pq"}
_THRESHOLD = click.FloatRange(0.0, 1.0, min_open=True)


def shape_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--polygon``, ``--keypoints``, ``--area``, ``--names``, ``--sigmas`` and ``--oks``
    (as ``accord polygons`` and ``accord keypoints`` have them)."""
    options = [
        click.option("--polygon", "polygon_col", default=None, metavar="COL",
                     help="Polygon data: the table's outline column (JSON text, as accord "
                     "polygons reads it); the report is then on polygons. A column named "
                     "polygon, or a polygon export, is found without it."),
        click.option("--keypoints", "keypoints_col", default=None, metavar="COL",
                     help="Keypoint data: the table's keypoints column (COCO's flat [x, y, "
                     "v, ...] as JSON text); the report is then on keypoints. A column "
                     "named keypoints, or a keypoint export, is found without it."),
        click.option("--area", "area_col", default="area", show_default=True, metavar="COL",
                     help="Keypoint tables: the object's area column (the OKS scale)."),
        click.option("--names", "keypoint_names", multiple=True, metavar="NAME...",
                     help="Keypoint data: the keypoints' names, in the list's order "
                     "(default: COCO's 17 person keypoints)."),
        click.option("--sigmas", multiple=True, metavar="NAME=S...", callback=_sigmas,
                     help="Keypoint data: each keypoint's sigma in the OKS (e.g. --sigmas "
                     "wrist=0.062); default: COCO's for its 17 person keypoints."),
        click.option("--oks", "oks_threshold", default=None, type=_THRESHOLD,
                     help="Keypoint data: two objects match when their OKS is at least "
                     "this [default: 0.5]."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _files(data: Any) -> list[str]:
    return list(getattr(data, "paths", (data,)))


def _header(path: str) -> tuple[str, ...]:
    """The column names of a CSV/TSV (its first line) or a Parquet file; none if unread."""
    suffix = Path(path).suffix.lower()
    try:
        if suffix in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            return tuple(pq.read_schema(path).names)
        with open(path, newline="", encoding="utf-8-sig") as fh:
            row = next(csv.reader(fh, delimiter="\t" if suffix == ".tsv" else ","), [])
        return tuple(c.strip() for c in row)
    except (OSError, ImportError, UnicodeDecodeError, csv.Error, ValueError):
        return ()


def _kind(files: Sequence[str], polygon: str | None, keypoints: str | None
          ) -> tuple[str | None, str]:  # fmt: skip
    """The shape and how it was found (``"option"``, ``"export"``, ``"column"``)."""
    if polygon is not None and keypoints is not None:
        raise click.UsageError("--polygon and --keypoints name two shapes: give one.")
    if polygon is not None or keypoints is not None:
        return ("polygons" if polygon is not None else "keypoints"), "option"
    if any(Path(f).suffix.lower() in _TABLES for f in files):
        columns = _header(files[0]) if len(files) == 1 else ()
        found = [k for k, c in (("keypoints", "keypoints"), ("polygons", "polygon"))
                 if c in columns]
        return (found[0] if found else None), "column"
    from accord.readers.shape_formats import shapes_held

    held = shapes_held(files)
    return next((k for k in ("keypoints", "polygons") if k in held), None), "export"


#: The options that apply to keypoint data only, by parameter name.
KEYPOINT_OPTIONS = (("area_col", "--area"), ("keypoint_names", "--names"),
                    ("sigmas", "--sigmas"), ("oks_threshold", "--oks"))


def refuse_keypoint_options(why: str) -> None:
    """Refuse a keypoint option given where it would be ignored, saying ``why``."""
    from accord.cli._shapes_view import given

    flag = next((f for p, f in KEYPOINT_OPTIONS if given(p)), None)
    if flag is not None:
        raise click.UsageError(f"{flag} applies to keypoint data, and {why}: leave {flag} "
                               "out.")


def refuse_shape_options_by() -> None:
    """With ``--by`` the report is on labels: a shape option would be ignored."""
    from accord.cli._shapes_view import given

    refuse_keypoint_options("--by reports on labels, which are not keypoints")
    flag = next((f for p, f in (("polygon_col", "--polygon"), ("keypoints_col", "--keypoints"))
                 if given(p)), None)
    if flag is not None:
        raise click.UsageError(f"{flag} reads shapes, and --by reports on labels: leave "
                               f"{flag} or --by out.")


def read_shapes(data: Any, selection: dict[str, Any], options: dict[str, Any],
                by: str | None = None) -> Any:
    """The annotations holding the polygons or keypoints of ``data``, or ``None`` when it
    holds neither (read it as before). ``selection``: the data options (``unit``,
    ``rater``, ``span_label``, ``raters``); ``options``: those of :func:`shape_options`;
    with ``by`` (the report by group, on labels) a shape option is refused, and None
    returned."""
    if by is not None:  # the report is on labels by group: a shape option is refused
        refuse_shape_options_by()
        return None
    files = _files(data)
    kind, how = _kind(files, options["polygon_col"], options["keypoints_col"])
    if kind != "keypoints":
        refuse_keypoint_options(f"{' '.join(files)} holds no keypoints")
    if kind is None:
        return None
    from accord.report.shapes_report import shape_annotations

    cols = {"unit": selection.get("unit") or "image",
            "rater": selection.get("rater") or "annotator",
            "label": selection.get("span_label") or "label"}
    table_like = any(Path(f).suffix.lower() in _TABLES for f in files)
    table = (_table(files, kind, cols, options) if table_like
             else _export(files, kind, cols["rater"], options))
    source = files[0] if len(files) == 1 else f"{len(files)} files"
    ann = shape_annotations(table, (_said(kind, how, cols, options, files),), source)
    raters = selection.get("raters")
    return ann.select(list(raters)) if raters else ann


def _table(files: list[str], kind: str, cols: dict[str, str], options: dict[str, Any]) -> Any:
    data: Any = files[0] if len(files) == 1 else files
    if kind == "polygons":
        from accord.readers.polygons import polygon_table

        return polygon_table(data, polygon=options["polygon_col"] or "polygon",
                             func="accord report", **cols)
    from accord.readers.keypoints import keypoint_table

    return keypoint_table(data, keypoints=options["keypoints_col"] or "keypoints",
                          area=options["area_col"], names=list(options["keypoint_names"])
                          or None, func="accord report", **cols)  # fmt: skip


def _export(files: list[str], kind: str, rater: str, options: dict[str, Any]) -> Any:
    from accord.readers.shape_formats import read_keypoints, read_polygons

    if kind == "polygons":
        return read_polygons(files, rater_key=rater, func="accord report")
    return read_keypoints(files, rater_key=rater, names=list(options["keypoint_names"])
                          or None, func="accord report")  # fmt: skip


def _said(kind: str, how: str, cols: dict[str, str], options: dict[str, Any],
          files: list[str]) -> str:
    """The first line of every output: what the data were read as, and how to say so."""
    head = f"read as {kind} (agreement on {kind})"
    if how == "export":
        from accord.readers.shape_formats import shapes_held

        others = [k for k in shapes_held(files) if k != kind]
        also = (f"; it also holds {' and '.join(others)}: compare those with "
                + " or ".join(f"accord {k}" for k in others) if others else "")
        return f"{head}: the export holds {kind}{also}"
    col = (options["polygon_col"] or "polygon") if kind == "polygons" else (
        options["keypoints_col"] or "keypoints")  # fmt: skip
    flag = "--polygon" if kind == "polygons" else "--keypoints"
    named = "" if how == "option" else f"; name it with {flag} COL to make this explicit"
    return (f"{head}: the column {col} holds each object, one row per object; image "
            f"'{cols['unit']}', annotator '{cols['rater']}', label '{cols['label']}'{named}")
