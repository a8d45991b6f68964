"""CSV and TSV tables, long (unit, rater, value rows) or wide (one column per rater).

Every column is read as text (so ids like ``007`` keep their zeros); a label
column whose every cell is an integer (or a decimal number) is then read as
numbers. Missing cells (empty, ``NA``, ``N/A``, ``NaN``, ``null``, ``.``,
``-``, whitespace, and anything in ``missing=``) are counted, never labels.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl

from accord.readers import _sniff
from accord.readers._base import Reader, format_error
from accord.readers._table import read_table


def _separator(path: Path, opts: dict[str, Any]) -> str:
    sep = opts.get("separator")
    if sep is not None:
        return str(sep)
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    with open(path, "rb") as fh:
        first = fh.readline(65536)
    counts = {s: first.count(s.encode()) for s in (",", "\t", ";")}
    best = max(counts, key=lambda s: counts[s])
    return best if counts[best] else ","


def _lone_cr(head: bytes) -> bool:
    """Whether the lines end in a lone carriage return (old Mac line endings): more
    ``\r`` not followed by ``\n`` than ``\n`` in the first bytes (a stray ``\r`` in a
    file of ``\n`` lines is not enough)."""
    lone = head.count(b"\r") - head.count(b"\r\n") - head.endswith(b"\r")
    return lone > 0 and lone > head.count(b"\n")


def _check_header(path: Path, separator: str) -> list[str]:
    """The header's names as RFC 4180 reads them; refuse one that names a column twice
    (Polars would rename the second copy), and lines that end in a lone carriage return
    (Polars does not split them: the whole file would be one header line)."""
    with open(path, "rb") as raw:
        if _lone_cr(raw.read(65536)):
            raise format_error(path, "line 1", "lines end in a lone carriage return (\\r, old "
                               "Mac line endings), which the CSV reader does not split; "
                               "expected \\n or \\r\\n line endings (convert the file, e.g. "
                               "with tr '\\r' '\\n')")
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
        try:
            header = next(csv.reader(fh, delimiter=separator), [])
        except csv.Error as exc:  # a header cell over the csv module's 128 KiB field limit
            from accord.readers._engine_errors import csv_problem

            raise format_error(path, "line 1", f"the header cannot be read: {csv_problem(exc)}; "
                               "expected column names") from None
    twice = [name for name, n in Counter(header).items() if n > 1]
    if twice:
        shown = ", ".join(repr(n) for n in twice)
        raise format_error(path, "line 1", f"the header names column(s) {shown} more than "
                           "once; expected one distinct name per column")
    return header


def scan(path: Path, opts: dict[str, Any]) -> pl.LazyFrame:
    """A lazy frame of ``path`` with every column as text."""
    separator = _separator(path, opts)
    header = _check_header(path, separator)
    frame = pl.scan_csv(
        path,
        separator=separator,
        infer_schema=False,
        has_header=True,
        quote_char='"',
        encoding="utf8",
        raise_if_empty=False,
        glob=False,  # a name holding [, * or ? is a file name, not a pattern
        **_blank_cells(bool(opts.get("keep_blank"))),
    )
    # Polars keeps a header cell's doubled quotes ("quote "" back"); RFC 4180 halves them
    names = frame.collect_schema().names()
    renamed = ({a: b for a, b in zip(names, header) if b and a != b}
               if len(names) == len(header) else {})
    return frame.rename(renamed) if renamed else frame


def _blank_cells(keep: bool) -> dict[str, Any]:
    """The scan option keeping empty cells as "" (``read(empty_label="")``), named as the
    installed Polars names it (``empty_string_is_null`` from 2.0 on)."""
    import inspect

    if not keep:
        return {}
    if "empty_string_is_null" in inspect.signature(pl.scan_csv).parameters:
        return {"empty_string_is_null": False}
    return {"missing_utf8_is_empty_string": True}


def read(paths: list[Path], opts: dict[str, Any]) -> Any:
    """Annotations from one or more CSV/TSV files (see :func:`accord.read`)."""
    return read_lazy(paths, opts, scan)


def read_lazy(paths: list[Path], opts: dict[str, Any], scanner: Any) -> Any:
    """Shared by the table formats: one frame, or several with a part column."""
    if len(paths) == 1:
        return read_table(scanner(paths[0], opts), source=str(paths[0]), opts=opts)
    frames = [scanner(p, opts).with_columns(pl.lit(i).alias("__part")) for i, p in enumerate(paths)]
    frame = pl.concat(frames, how="diagonal_relaxed")
    return read_table(frame, source=f"{len(paths)} files", opts=opts, parts=[str(p) for p in paths])


CSV = Reader(
    "csv",
    "CSV/TSV table, long (unit, rater, value columns) or wide (one column per rater)",
    _sniff.csv,
    read,
    ("separator", "timestamp", "start", "end", "names"),
)
