"""Which columns of a table hold ratings, when nobody said so.

A wide table read without ``raters=`` takes its rater columns by elimination,
so three rules keep that guess from turning into a confident wrong number:

- a column of free text (long strings, nearly all distinct: a question, a
  model's response, a rationale) is never a rater;
- a table that looks long (a column named like rater ids, or unit ids that
  repeat across rows) is refused with the options to name, never unpivoted as
  if each row were a unit;
- whatever is still guessed (the layout, the columns) is stated as a caveat
  of the audit, which every output shows on its first lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from accord.data import _encoding as enc
from accord.data._columns import (
    LABEL_SEPARATORS,
    holds_labels,
    id_like_error,
    long_error,
    looks_like_ids,
    rater_id_column,
    repeating_units,
    score_caveat,
    score_columns,
)
from accord.data._duplicates import repeated_rows
from accord.data._names import GUESSED_LAYOUT
from accord.data._shapes import PROBE_ROWS, duplicate_advice, looks_like_text
from accord.errors import DataError, DuplicateRatingError, FormatError
from accord.readers._base import MISSING_MARKERS


def _probe(frame: pl.LazyFrame, exprs: list[pl.Expr], source: str) -> dict[str, Any]:
    """One row of statistics over the first rows; an unreadable file is one sentence."""
    try:
        # the first rows collected, then the statistics on them: planned on the lazy scan,
        # thousands of expressions over thousands of columns take seconds to optimise
        # (3.3 s for 1,000 columns, 0.05 s this way)
        return frame.head(PROBE_ROWS).collect().select(exprs).row(0, named=True)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as exc:
        from accord.readers._engine_errors import engine_problem

        raise FormatError(f"{source}: {engine_problem(exc)}") from None


def free_text_columns(
    frame: pl.LazyFrame, candidates: Sequence[str], source: str
) -> list[str]:
    """The candidate columns whose values read as free text rather than labels."""
    schema = frame.collect_schema()
    texts = [c for c in candidates if schema[c] == pl.String]
    if not texts:
        return []
    stats = []
    for j, c in enumerate(texts):
        col = pl.col(c).str.strip_chars()
        col = pl.when(col.is_in(MISSING_MARKERS)).then(None).otherwise(col)  # "" too
        stats += [
            col.count().alias(f"n{j}"),
            col.n_unique().alias(f"u{j}"),  # counts null as one value: subtracted below
            col.null_count().alias(f"z{j}"),
            col.str.len_chars().mean().alias(f"c{j}"),
            (col.str.count_matches(r"\s+").mean() + 1).alias(f"w{j}"),
        ]
    row = _probe(frame, stats, source)
    return [c for j, c in enumerate(texts) if _is_text(row, j)]


def scores_columns(
    frame: pl.LazyFrame, candidates: Sequence[str], source: str, *,
    declared: Sequence[str] = (), level: str | None = None,
) -> list[str]:
    """The candidate columns left out as scores or probabilities
    (:func:`accord.data._columns.score_columns`), counted on the first rows."""
    schema = frame.collect_schema()
    numeric = [c for c in candidates if c not in declared
               and (schema[c].is_float() or schema[c] == pl.String)]
    if not numeric or level in ("interval", "ratio"):
        return []
    stats = []
    for j, c in enumerate(numeric):
        col = pl.col(c)
        if schema[c] == pl.String:  # CSV cells are text: numbers when every one parses
            col = col.str.strip_chars()
            col = pl.when(col.is_in(MISSING_MARKERS)).then(None).otherwise(col)
        x = col.cast(pl.Float64, strict=False).fill_nan(None)
        stats += [col.count().alias(f"n{j}"), x.count().alias(f"x{j}"),
                  x.drop_nulls().n_unique().alias(f"u{j}"),
                  (x.drop_nulls() != x.drop_nulls().round(0)).sum().alias(f"f{j}")]
    row = _probe(frame, stats, source)
    counts = {c: (int(row[f"n{j}"]), int(row[f"u{j}"]), int(row[f"f{j}"] or 0))
              for j, c in enumerate(numeric) if row[f"x{j}"] == row[f"n{j}"]}
    return score_columns(counts, candidates, declared, level)


def _is_text(row: dict[str, Any], j: int) -> bool:
    distinct = int(row[f"u{j}"]) - (1 if row[f"z{j}"] else 0)  # n_unique counts null
    return looks_like_text(int(row[f"n{j}"]), distinct, float(row[f"c{j}"] or 0),
                           float(row[f"w{j}"] or 0))


def refuse_if_long(
    frame: pl.LazyFrame, names: list[str], unit: str | None, source: str
) -> None:
    """Raise when a table read as wide by elimination looks long.

    Long tables repeat a unit over rows and name their raters in a column; read
    as wide, every row would become a unit and every column a rater.
    """
    why = ""
    schema = frame.collect_schema()
    rater_col = rater_id_column([n for n in names if schema[n] == pl.String])
    if rater_col is not None and holds_labels(
            _distinct(frame, [rater_col], source),
            _distinct(frame, [n for n in names if n not in (rater_col, unit)], source)):
        rater_col = None  # a rater named "judge" in a wide table, whose labels it shares
    if rater_col is not None:
        why = f"column {rater_col!r} holds rater ids"
    elif unit is not None:
        ids = pl.col(unit)
        counts = _probe(frame, [ids.count().alias("n"), ids.drop_nulls().n_unique().alias("u")],
                        source)
        if repeating_units(counts["n"], counts["u"]):
            why = (f"unit ids in column {unit!r} repeat across rows ({counts['n']} rows, "
                   f"{counts['u']} distinct ids), while a wide table has one row per unit")
    if why:
        raise DataError(long_error(f"{source}: ", why, user_columns(names), library=False))


def _distinct(frame: pl.LazyFrame, columns: list[str], source: str) -> set[str]:
    """The distinct values (as text) of some columns over the first rows, at most 1000
    per column (enough to tell rater ids from labels)."""
    if not columns:
        return set()
    exprs = [pl.col(c).cast(pl.String).drop_nulls().unique().head(1000).implode().alias(c)
             for c in columns]
    row = _probe(frame, exprs, source)
    return {x for c in columns for x in row[c]}


def refuse_id_columns(frame: pl.LazyFrame, candidates: Sequence[str], source: str) -> None:
    """Raise when a column taken as a rater by elimination holds ids (every value distinct
    over many rows: text, or integers counting up by one, as a row number), judged on its
    first rows by :func:`accord.data._columns.looks_like_ids`."""
    schema = frame.collect_schema()
    cols = [c for c in candidates if schema[c] == pl.String or schema[c].is_integer()]
    if not cols:
        return
    stats = []
    for j, c in enumerate(cols):
        col = pl.col(c)
        if schema[c] == pl.String:
            col = col.str.strip_chars()
            col = pl.when(col.is_in(MISSING_MARKERS)).then(None).otherwise(col)
        x = col.cast(pl.Float64, strict=False)  # decimals in text cells: scores, not ids
        if schema[c] == pl.String:  # label sets ("toxic;spam"): few labels once split
            stats += [col.str.split(sep).explode().str.strip_chars().drop_nulls().n_unique()
                      .alias(f"p{j}_{k}") for k, sep in enumerate(LABEL_SEPARATORS)]
        stats += [col.count().alias(f"n{j}"), col.drop_nulls().n_unique().alias(f"u{j}"),
                  (col.diff().drop_nulls() == 1).all().alias(f"s{j}") if schema[c].is_integer()
                  else pl.lit(None).alias(f"s{j}"),
                  ((x.count() == col.count()) & (x != x.round(0)).any()).alias(f"d{j}")]
    row = _probe(frame, stats, source)
    for j, c in enumerate(cols):
        n, distinct, steps = int(row[f"n{j}"]), int(row[f"u{j}"]), row[f"s{j}"]
        if row[f"d{j}"]:
            continue
        pieces = (min(int(row[f"p{j}_{k}"]) for k in range(len(LABEL_SEPARATORS)))
                  if f"p{j}_0" in row else None)
        if looks_like_ids(n, distinct, text=steps is None, consecutive=bool(steps),
                          pieces=pieces):
            raise DataError(id_like_error(f"{source}: ", c, n))


def units_without_ratings(df: pl.DataFrame, kept: pl.DataFrame) -> int:
    """Units (with an id in column ``u``) read whose every value is missing."""
    ids = df["u"].drop_nulls()
    if ids.dtype == pl.String:
        ids = ids.filter(ids != "")
    return int(ids.n_unique() - kept["u"].n_unique())


def user_columns(names: list[str]) -> list[str]:
    """The columns of the user's files, without the one accord adds to tell files apart."""
    return [n for n in names if n != "__part"]


def refuse_text_values(frame: pl.LazyFrame, names: list[str], value: str, source: str) -> None:
    """Raise when the label column of a long table, found by its name, holds free text
    (a ``response`` column of model outputs is not a column of labels)."""
    if free_text_columns(frame, [value], source):
        raise DataError(
            f"{source}: column {value!r} was taken as the labels by its name, but it holds "
            "free text (long, nearly all distinct values), not labels; name the label "
            f"column with value=... (the columns are {user_columns(names)!r})."
        )


#: The most columns of a wide table whose rater columns are found by elimination.
WIDE_MAX_COLUMNS = 10_000


def refuse_too_wide(names: Sequence[str], source: str) -> None:
    """One sentence for a table of more than :data:`WIDE_MAX_COLUMNS` columns, each of
    which would be probed as a candidate rater (about 3 ms a column)."""
    if len(names) > WIDE_MAX_COLUMNS:
        raise DataError(
            f"{source}: the table has {len(names):,} columns, each of which would be read as "
            f"a rater, more than {WIDE_MAX_COLUMNS:,}; a crowd this wide is read as a long "
            "table (one row per unit, rater and label, named with unit=..., rater=... and "
            "value=...), or name the rater columns with raters=[...].")


#: Rater columns named in a caveat or note (a table of 10^4 columns would make one line of
#: 100 KB); the rest are counted.
RATERS_NAMED = 20


def wide_caveat(raters: Sequence[str], unit: str | None, text_columns: Sequence[str],
                scores: Sequence[str] = ()) -> str:
    """The caveat of a wide layout whose rater columns were taken by elimination."""
    shown = ", ".join(repr(r) for r in raters[:RATERS_NAMED]) + (
        f" and {len(raters) - RATERS_NAMED:,} more" if len(raters) > RATERS_NAMED else "")
    ids = f"column {unit!r}" if unit else "the row number"
    text = (f"; free-text columns left out: {', '.join(repr(c) for c in text_columns)}"
            if text_columns else "")
    text += f"; {score_caveat(scores)}" if scores else ""
    return (f"{GUESSED_LAYOUT}: a wide table, one column per rater: {shown} (every column "
            f"left after the unit ids, from {ids}){text}; name the rater columns with "
            "raters=[...] to make this explicit")


def long_caveat(found: dict[str, str | None], given: dict[str, Any],
                by_elimination: str | None = None) -> str:
    """The caveat of a long layout whose columns were found by their names (and the role
    ``by_elimination``, if any, as the one column left)."""
    guessed = ", ".join(f"{role}={col!r}" + (" (the one other column)"
                                             if role == by_elimination else "")
                        for role, col in found.items() if given[role] is None)
    how = "their names and the one column left" if by_elimination else "their names"
    return (f"{GUESSED_LAYOUT}: a long table, columns taken from {how}: {guessed}; "
            "name them with unit=..., rater=... and value=... to make this explicit")


def duplicate_error(
    u: np.ndarray[Any, Any],
    units: list[Any],
    r: np.ndarray[Any, Any],
    raters: list[Any],
    rater_order: list[str] | None,
    values: np.ndarray[Any, Any],
    source: str,
    shape: tuple[Sequence[str], list[Any] | None],
) -> DuplicateRatingError:
    """The duplicate-rating error of a table: the first clashing pairs and the route that fits.

    Only the rows of repeated (unit, rater) pairs are grouped (found in O(n) or by one
    sort), so a single repeat among 10^7 rows is named at once."""
    rows = repeated_rows(u, r, int(r.max()) + 1 if r.shape[0] else 1)
    rows = np.zeros(0, dtype=np.intp) if rows is None else rows
    per_pair = (
        pl.DataFrame({"u": u[rows], "r": r[rows], "v": values[rows]})
        .group_by("u", "r", maintain_order=True)
        .agg(pl.col("v").n_unique().alias("k"))
    )
    clash = per_pair.filter(pl.col("k") > 1)
    n_pairs = u.shape[0] - rows.shape[0] + per_pair.height  # every other row is its own pair
    columns, labels = shape
    advice = duplicate_advice(
        columns=columns,
        labels=labels if labels is not None else enc.factorize(values, copy=False)[1],
        n_clashes=clash.height, n_pairs=n_pairs,
        max_labels=int(clash["k"].max() or 0),  # type: ignore[arg-type]
        wide=rater_order is not None,
    )
    names = rater_order if rater_order is not None else raters
    shown = ", ".join(
        f"unit {units[a] if units else a!r} by rater {names[b]!r}"
        for a, b, _ in clash.head(3).iter_rows()
    )
    more = f" and {clash.height - 3} more" if clash.height > 3 else ""
    return DuplicateRatingError(
        f"{source}: {clash.height} unit(s) were rated twice by the same rater with different "
        f"values ({shown}{more}); {advice}"
    )
