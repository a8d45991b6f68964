"""One type per column across the parts of a Parquet folder, checked before an engine reads it.

Each engine takes a folder's schema from one part and reads every other part as if it
had that schema, so a column written with different types in different parts fails in
the engine's own words, or not at all: DuckDB stops at the first part it cannot cast,
Spark at the first it cannot convert (even ``int32`` beside ``int64``), and Dask reads
each part with its own type under the first part's schema, so the rater ``1`` of one part
and the rater ``"1"`` of another count as two raters and a sort of labels meets both a
text and a number. :func:`check_parts` reads every part's footer (its schema only, no
data) and names the column, its types and the parts that hold each.

A part whose column holds only nulls has no type of its own (Parquet's ``null``):
DuckDB and Dask read it as the other parts' type, so there it does not decide, while
Spark refuses to read it as any other type, so there it is named. A categorical
(dictionary-encoded) text column is text. Parts are the
``*.parquet`` files under the folder, less those under a name starting with ``_`` or
``.`` (Spark's ``_temporary``, hidden files), which the engines skip too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.errors import DataError, FormatError

#: Parts named per type in the sentence; the rest are counted.
_SHOWN = 3


def check_parts(folder: Path, *, engine: str, func: str) -> None:
    """One sentence unless every column has one type in every Parquet part of ``folder``
    (a column of nulls only takes any type, except on Spark)."""
    types: dict[str, dict[str, list[str]]] = {}  # column -> type -> parts, in part order
    for part in parts(folder):
        where = part.relative_to(folder).as_posix()
        for name, dtype in _schema(part, where, func=func).items():
            kind = _type_name(dtype, nulls=engine == "spark")
            if kind is not None:
                types.setdefault(name, {}).setdefault(kind, []).append(where)
    mixed = [name for name, kinds in types.items() if len(kinds) > 1]
    if mixed:
        raise DataError(_sentence(folder, mixed, types[mixed[0]], func=func))


def parts(folder: Path) -> list[Path]:
    """The Parquet parts under ``folder`` that an engine reads, in name order."""
    return sorted(
        p for p in folder.rglob("*.parquet")
        if p.is_file() and not any(s[:1] in "_." for s in p.relative_to(folder).parts)
    )


def _schema(part: Path, where: str, *, func: str) -> dict[str, Any]:
    import polars as pl

    try:
        return dict(pl.read_parquet_schema(part))
    except (OSError, pl.exceptions.PolarsError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise FormatError(f"{func}: the part {where} of the Parquet folder {part.parent} "
                          f"cannot be read as Parquet ({first}).") from None


def _type_name(dtype: Any, *, nulls: bool) -> str | None:
    """The type a part gives a column, as the engines compare it; for a column of nulls
    only, None unless ``nulls`` (the engine reads it as no other type)."""
    import polars as pl

    if dtype == pl.Null:
        return "Null (every value missing)" if nulls else None
    if dtype in (pl.Categorical, pl.Enum):
        return "String"
    return str(dtype)


def _sentence(folder: Path, mixed: list[str], kinds: dict[str, list[str]], *,
              func: str) -> str:
    held = [f"{kind} in {_parts_named(where)}" for kind, where in kinds.items()]
    held_text = ", ".join(held[:-1]) + " and " + held[-1]
    others = mixed[1:]
    also = (f" (the column(s) {', '.join(repr(c) for c in others)} too)" if others else "")
    return (f"{func}: the column {mixed[0]!r} has different types in the Parquet parts of "
            f"{folder}: {held_text}{also}; an engine reads every part with one type, so write "
            "the column with the same type in every part (cast it before writing).")


def _parts_named(where: list[str]) -> str:
    if len(where) == 1:
        return where[0]
    shown = ", ".join(where[:_SHOWN]) + (", ..." if len(where) > _SHOWN else "")
    return f"{len(where)} parts ({shown})"
