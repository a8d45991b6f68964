"""JSON Lines tables: one flat object per line, long (unit, rater, value keys) or wide.

Tool exports that are also JSON Lines (Prodigy, doccano, SageMaker, Argilla)
are recognised by their keys first; this reader takes what is left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from accord.readers import _sniff
from accord.readers._base import Reader, format_error, iter_jsonl, json_kind
from accord.readers.csv import read_lazy


def scan(path: Path, opts: dict[str, Any]) -> pl.LazyFrame:
    """A frame of the JSON Lines file ``path`` (checked line by line first)."""
    rows = []
    for lineno, obj in iter_jsonl(path):
        if not isinstance(obj, dict):
            raise format_error(
                path, f"line {lineno}", f"expected a JSON object, got {json_kind(obj)}"
            )
        rows.append({k: _cell(x) for k, x in obj.items()})
    if not rows:
        return pl.LazyFrame()
    names = list(dict.fromkeys(k for row in rows for k in row))
    columns = {k: [row.get(k) for row in rows] for k in names}
    schema = {k: _dtype(col) for k, col in columns.items()}
    for k, col in columns.items():
        if schema[k] == pl.String:
            columns[k] = [None if x is None else _text(x) for x in col]
    return pl.LazyFrame(columns, schema=schema)


def _text(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else str(x)


def _cell(x: Any) -> Any:
    if isinstance(x, (dict, list)):
        import json

        return json.dumps(x, sort_keys=True)
    return x


def _dtype(values: list[Any]) -> Any:
    present = [x for x in values if x is not None]
    if present and all(isinstance(x, int) and not isinstance(x, bool) for x in present):
        return pl.Int64
    if present and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in present):
        return pl.Float64
    return pl.String


def read(paths: list[Path], opts: dict[str, Any]) -> Any:
    """Annotations from one or more JSON Lines files (see :func:`accord.read`)."""
    return read_lazy(paths, opts, _scan_cast)


def _scan_cast(path: Path, opts: dict[str, Any]) -> pl.LazyFrame:
    frame = scan(path, opts)
    return frame.with_columns(pl.col(pl.Boolean).cast(pl.String))


JSONL = Reader(
    "jsonl",
    "JSON Lines table: one flat object per line, long or wide",
    _sniff.jsonl,
    read,
    ("timestamp", "start", "end", "names"),
)
