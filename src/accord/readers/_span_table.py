"""Span tables: long rows of (unit, rater, start, end, label), with "no span" rows.

A row whose start and end are both empty says "this rater annotated this unit
and marked nothing" (FORMATS.md 2.10: span data in long form needs a way to
say so); a unit without any row for a rater was not annotated by them.
Offsets are taken as code points, end exclusive. A ``span_id`` column (or
``id``), when there is one, gives each span the id relations name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from accord.errors import DataError
from accord.readers._base import MISSING_FOLDED, Collected, format_error, text_id
from accord.readers.spans import Span

FIELD = "spans"


def read_span_table(
    frame: pl.LazyFrame,
    names: list[str],
    cols: tuple[str, str, str],
    source: str,
    opts: dict[str, Any],
    parts: Sequence[str],
    collect: Any,
) -> Collected:
    """Spans and coverage from a long table with ``start=`` and ``end=`` columns."""
    start, end = opts.get("start"), opts.get("end")
    for role, col in (("start", start), ("end", end)):
        if col is None or col not in names:
            raise DataError(
                f"{source}: span tables need both start= and end= columns; "
                f"{role} column {col!r} not found; the columns are {names!r}."
            )
    unit, rater, label = cols
    pairs = ((unit, "u"), (rater, "r"), (label, "l"), (str(start), "s"), (str(end), "e"))
    exprs = [pl.col(c).cast(pl.String).alias(a) for c, a in pairs]
    if parts:
        exprs.append(pl.col("__part").alias("p"))
    id_col = next((c for c in ("span_id", "id") if c in names and c not in cols), None)
    if id_col is not None:
        exprs.append(pl.col(id_col).cast(pl.String).alias("i"))
    df = collect(frame.select(exprs), source)
    col = Collected("table spans")
    for name in parts or [source]:
        col.part(name)
    col.fields_seen[FIELD] = None
    col.span_fields.add(FIELD)
    missing = {str(m) for m in opts.get("missing", ())}
    for i, row in enumerate(df.iter_rows(named=True)):
        _row(col, row, i, source, missing)
    col.notes.append(
        f"span table: unit={unit!r}, rater={rater!r}, label={label!r}, "
        f"start={start!r}, end={end!r}; offsets taken as code points"
    )
    return col


def _row(col: Collected, row: dict[str, Any], i: int, source: str, missing: set[str]) -> None:
    part = int(row.get("p") or 0)
    col.parts[part].rows_read += 1
    u, r = row["u"], row["r"]
    if u in (None, "") or r in (None, ""):
        col.drop(part, "missing unit or rater id")
        return
    s, e, lab = row["s"], row["e"], row["l"]
    if _blank(s, missing) and _blank(e, missing):
        col.cover(u, r, FIELD, "annotated")
        return
    if not (_offset(s) and _offset(e)) or int(s) > int(e):
        raise format_error(
            source,
            f"row {i + 1}",
            f"expected integer offsets 0 <= start <= end <= 2**53 in ASCII digits "
            f"(or both empty for 'no span'), got {s!r}, {e!r}",
        )
    if _blank(lab, missing):
        col.drop(part, "span without a label")
        return
    col.cover(u, r, FIELD, "annotated")
    col.add_spans(
        [Span(text_id(u), text_id(r), int(s), int(e), str(lab), field=FIELD, id=row.get("i"))],
        origin=part << 32,
    )  # all rows of a file: one annotation


def _offset(x: Any) -> bool:
    """ASCII digits (``int`` also reads Arabic-Indic and full-width ones) up to 2**53."""
    text = str(x).strip()
    return text.isascii() and text.isdigit() and int(text) <= 2**53


def _blank(x: Any, missing: set[str]) -> bool:
    text = str(x).strip() if x is not None else ""
    return x is None or text.lower() in MISSING_FOLDED or str(x) in missing or text in missing
