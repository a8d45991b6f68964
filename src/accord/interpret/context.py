"""What a reviewer adjudicates with: the item's text and other columns, per unit.

:func:`read_context` reads named columns of a table (CSV/TSV, JSON Lines, Parquet) and
keys them by unit id, so the disagreement list (:func:`accord.disagreements`), its review
CSV and the report can show them beside the labels. A long table repeats a unit on
several rows: its distinct non-empty values are joined with ``" | "`` in row order,
so nothing is dropped. Values are kept as text exactly as read; each output escapes
them for its medium (HTML, Markdown, spreadsheet-safe CSV).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from accord.errors import DataError

__all__ = ["SEPARATOR", "check_context", "read_context"]

SEPARATOR = " | "
TABLES = ("csv", "jsonl", "parquet")
_UNIT_NAMES = ("unit", "item", "item_id", "id", "doc", "document", "task", "example")

Context = Mapping[str, Mapping[str, str]]


def read_context(path: str | Path | Sequence[str | Path], columns: Sequence[str], *,
                 units: Sequence[Any],
                 unit: str | None = None, format: str | None = None,
                 separator: str | None = None) -> dict[str, dict[str, str]]:
    """``{column: {unit id as text: value}}`` for the units ``units``.

    ``unit`` names the column of unit ids; without it, the first column whose values
    hold every unit id is used (a ``unit``/``item``/``id`` column is tried first).
    Raises :class:`~accord.errors.DataError` for a column that is not there, a file that
    is not a table, or no column holding the unit ids.
    """
    import polars as pl

    from accord.readers._read import resolve

    paths, name = resolve(path, format)
    if name not in TABLES:
        raise DataError(f"--text/--context read columns of a table (CSV, TSV, JSON Lines, "
                        f"Parquet); {paths[0]} is a {name} export.")
    opts = {} if separator is None else {"separator": separator}
    reader = import_module(f"accord.readers.{name}")
    frame = pl.concat([reader.scan(p, opts) for p in paths], how="diagonal_relaxed")
    names = frame.collect_schema().names()
    missing = [c for c in columns if c not in names]
    if missing:
        raise DataError(f"{paths[0]}: context column(s) {', '.join(map(repr, missing))} not "
                        f"found; the columns are {names!r}.")
    wanted = {str(u) for u in units}
    key = unit or _unit_column(frame, names, wanted, paths[0])
    if key not in names:
        raise DataError(f"{paths[0]}: unit column {key!r} not found; the columns are {names!r}.")
    df = (frame.select(pl.col(key).cast(pl.Utf8).alias("__unit"),
                       *(pl.col(c).cast(pl.Utf8) for c in columns))
          .filter(pl.col("__unit").is_in(list(wanted))).collect())
    out: dict[str, dict[str, str]] = {c: {} for c in columns}
    for c in columns:
        seen: dict[str, list[str]] = {}
        for u, x in zip(df["__unit"].to_list(), df[c].to_list()):
            if x is not None and x != "" and x not in seen.setdefault(u, []):
                seen[u].append(x)
        out[c] = {u: SEPARATOR.join(xs) for u, xs in seen.items() if xs}
    return out


def _unit_column(frame: Any, names: Sequence[str], wanted: set[str], source: Path) -> str:
    import polars as pl

    ordered = sorted(names, key=lambda n: (n.lower() not in _UNIT_NAMES, names.index(n)))
    for name in ordered:
        values = frame.select(pl.col(name).cast(pl.Utf8)).unique().collect().to_series()
        if wanted <= set(values.to_list()):
            return name
    raise DataError(f"{source}: no column holds every unit id; name the unit column with "
                    "--unit (or unit=).")


def check_context(context: Any, func: str) -> dict[str, dict[str, str]]:
    """``context`` as ``{column: {unit id as text: text}}``; one sentence when it is not."""
    if context is None:
        return {}
    ok = isinstance(context, Mapping) and all(
        isinstance(c, str) and isinstance(m, Mapping) for c, m in context.items())
    if not ok:
        raise DataError(f"{func}: context must map column names to {{unit: text}} mappings; "
                        f"got {type(context).__name__}.")
    return {c: {str(u): str(x) for u, x in m.items()} for c, m in context.items()}
