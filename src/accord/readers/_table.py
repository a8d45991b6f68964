"""Long or wide tables (CSV, TSV, Parquet, JSON Lines) through Polars.

The three columns are filtered (missing markers), coded (dense ranks) and
counted in Polars, so a file of 10^7 rows never becomes 10^7 Python strings;
:func:`accord.data.annotations.build` then encodes the integer codes and the labels
are put back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from accord.data import _validation as v
from accord.data._columns import (
    RATER_NAMES,
    UNIT_NAMES,
    VALUE_NAMES,
    find_column,
    is_non_rater_name,
)
from accord.data.annotations import Annotations, Audit, build
from accord.errors import DataError, DuplicateRatingError, FormatError
from accord.readers._base import Collected
from accord.readers._box_table import (
    box_columns,
    read_box_table,
    read_shape_table,
    shape_columns,
)
from accord.readers._engine_errors import engine_problem
from accord.readers._ids import id_codes, mixed_ids
from accord.readers._layout import (
    RATERS_NAMED,
    duplicate_error,
    free_text_columns,
    long_caveat,
    refuse_id_columns,
    refuse_if_long,
    refuse_text_values,
    refuse_too_wide,
    scores_columns,
    units_without_ratings,
    user_columns,
    wide_caveat,
)
from accord.readers._selection import rated_only_elsewhere
from accord.readers._table_values import _missing_expr, _relabel, _values

#: What the engine raises on a file it cannot read (a panic is a BaseException in pyo3).
_ENGINE_ERRORS = (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError)


def read_table(
    frame: pl.LazyFrame, *, source: str, opts: dict[str, Any], parts: Sequence[str] = ()
) -> Annotations | Collected:
    """Annotations from a long or wide table (see :func:`accord.read` for the options)."""
    names = _columns(frame, source)
    long_cols = _long_columns(names, opts, source)
    notes: list[str] = []
    caveats: list[str] = []
    if long_cols is not None:
        unit, rater, value, caveat = long_cols
        caveats += [caveat] if caveat else []
        box = None if opts.get("start") is not None else box_columns(names)
        if box is not None and not {unit, rater, value} & set(box):  # one box a row
            return read_box_table(frame, (unit, rater, value), box, source, caveats)
        shape = None if opts.get("start") is not None else shape_columns(names)
        if shape is not None and not {unit, rater, value} & set(shape[1]):  # one object a row
            return read_shape_table(frame, (unit, rater, value), shape, source, opts, caveats)
        if opts.get("value") is None:
            refuse_text_values(frame, names, value, source)
        if opts.get("start") is not None or opts.get("end") is not None:
            from accord.readers._span_table import read_span_table

            return read_span_table(
                frame, names, (unit, rater, value), source, opts, parts, _collect
            )
        lf = frame.select(
            _id_column(frame, unit, "u"),
            _id_column(frame, rater, "r"),
            pl.col(value).alias("v"),
            *_extra(names, opts, source),
            *([pl.col("__part").alias("p")] if parts else []),
        )
        order, elsewhere = None, 0
    else:
        lf, order, note, caveat, elsewhere = _wide(frame, names, opts, source, bool(parts))
        notes.append(note)
        caveats += [caveat] if caveat else []
    others = [n for n in names if order is None or n not in order]  # not rater columns
    return _encode(lf, source=source, opts=opts, notes=notes, rater_order=order, parts=parts,
                   columns=others, caveats=caveats, elsewhere=elsewhere)


def _id_column(frame: pl.LazyFrame, name: str, alias: str) -> pl.Expr:
    """An id column: text, except integer ids, which stay integers until they are coded
    (:func:`~accord.readers._ids.id_codes`, far cheaper than coding their text) and come
    back as text."""
    if frame.collect_schema()[name].is_integer():
        return pl.col(name).alias(alias)
    return pl.col(name).cast(pl.String).alias(alias)


def _columns(frame: pl.LazyFrame, source: str) -> list[str]:
    try:
        return list(frame.collect_schema().names())
    except _ENGINE_ERRORS as exc:
        raise FormatError(f"{source}: {engine_problem(exc)}") from None


def _long_columns(
    names: list[str], opts: dict[str, Any], source: str
) -> tuple[str, str, str, str] | None:
    given = {k: opts.get(k) for k in ("unit", "rater", "value")}
    raters = opts.get("raters")
    named_wide = raters is not None and given["rater"] is None and given["value"] is None
    # named raters that are columns (or no rater column by name) are a wide table's; else
    # a long table (its rater column found by name) whose raters were named: read long
    if named_wide and (all(r in names for r in raters or ())
                       or find_column(names, RATER_NAMES) is None):
        return None
    found = {
        "unit": given["unit"] or find_column(names, UNIT_NAMES),
        "rater": given["rater"] or find_column(names, RATER_NAMES),
        "value": given["value"] or find_column(names, VALUE_NAMES),
    }
    explicit = given["rater"] is not None or given["value"] is not None
    if not explicit and (found["rater"] is None or found["value"] is None):
        return None
    rest = [n for n in user_columns(names) if n not in (found["rater"], found["value"])]
    alone = found["unit"] is None and found["rater"] is not None and len(rest) == 1
    if alone:  # (question, worker, answer): the one other column names the units
        found["unit"] = rest[0]
    for role, col in found.items():
        if col is None:
            raise DataError(
                f"{source}: no {role} column; name it with {role}=... (the columns are {names!r})."
            )
        if col not in names:
            raise DataError(
                f"{source}: {role} column {col!r} not found; the columns are {names!r}."
            )
    if len(set(found.values())) < 3:
        raise DataError(f"{source}: the unit, rater and value columns must differ; got {found!r}.")
    guessed = any(given[k] is None for k in found)
    caveat = long_caveat(found, given, by_elimination="unit" if alone else None) \
        if guessed else ""
    return str(found["unit"]), str(found["rater"]), str(found["value"]), caveat


def _extra(names: list[str], opts: dict[str, Any], source: str) -> list[pl.Expr]:
    ts = opts.get("timestamp")
    if ts is None:
        return []
    if ts not in names:
        raise DataError(f"{source}: timestamp column {ts!r} not found; the columns are {names!r}.")
    return [pl.col(ts).alias("t")]


def _wide(
    frame: pl.LazyFrame, names: list[str], opts: dict[str, Any], source: str, with_part: bool
) -> tuple[pl.LazyFrame, list[str], str, str, int]:
    unit = opts.get("unit")
    raters = opts.get("raters")
    if unit is not None and unit not in names:
        raise DataError(f"{source}: unit column {unit!r} not found; the columns are {names!r}.")
    if unit is None:
        candidate = find_column(names, UNIT_NAMES)
        unit = candidate if raters is None or candidate not in raters else None
    ignored: list[str] = []
    caveat = ""
    n_elsewhere = 0
    if raters is None:
        refuse_too_wide(names, source)
        refuse_if_long(frame, names, unit, source)
        rest = [n for n in names if n != unit]
        ignored = [n for n in rest if is_non_rater_name(n)]
        texts = free_text_columns(frame, [n for n in rest if n not in ignored], source)
        ignored += texts
        scores = scores_columns(frame, [n for n in rest if n not in ignored], source,
                                declared=list(opts.get("kinds") or ()), level=opts.get("level"))
        ignored += scores
        raters = [n for n in rest if n not in ignored]
        refuse_id_columns(frame, raters, source)
        caveat = wide_caveat(raters, unit, texts, scores) if raters else ""
    else:
        raters = [str(r) for r in raters]
        absent = [r for r in raters if r not in names]
        if absent:
            raise DataError(
                f"{source}: rater column(s) {absent!r} not found; the columns are {names!r}."
            )
        if len(set(raters)) != len(raters):
            raise DataError(f"{source}: rater columns must be distinct; got {raters!r}.")
        ignored = [n for n in names if n not in raters and n != unit and not n.startswith("__")]
        elsewhere = [n for n in ignored if not is_non_rater_name(n)]
        n_elsewhere = rated_only_elsewhere(frame, unit, raters, elsewhere, opts.get("missing", ()))
        if n_elsewhere:
            caveat = (f"{n_elsewhere} unit(s) were rated only in columns not selected as "
                      f"raters ({elsewhere!r}); left out")
    if not raters:
        left_out = f" (left out as not ratings: {ignored!r})" if ignored else ""
        raise DataError(f"{source}: no rater columns{left_out}; the columns are {names!r}; "
                        "name the rater columns with raters=[...].")
    named = (repr(raters) if len(raters) <= RATERS_NAMED else
             f"{raters[:RATERS_NAMED]!r} and {len(raters) - RATERS_NAMED:,} more")
    note = (
        f"wide layout; raters: {named}; unit ids: "
        + (f"column {unit!r}" if unit else "row number (0-based)")
        + (f"; ignored columns: {ignored!r}" if ignored else "")
    )
    return _unpivot(frame, unit, raters, with_part), raters, note, caveat, n_elsewhere


def _unpivot(
    frame: pl.LazyFrame, unit: str | None, raters: list[str], with_part: bool
) -> pl.LazyFrame:
    schema = frame.collect_schema()
    dtypes = [schema[r] for r in raters]
    if all(d.is_integer() for d in dtypes):
        common: Any = pl.Int64
    elif all(d.is_numeric() for d in dtypes):
        common = pl.Float64
    else:
        common = pl.String
    if unit is None:
        frame = frame.with_row_index("__row").with_columns(pl.col("__row").cast(pl.Int64))
        unit_expr = pl.col("__row").alias("u")
    else:
        unit_expr = pl.col(unit).cast(pl.String).alias("u")
    cols = [pl.col(r).cast(common).alias(f"__r{j}") for j, r in enumerate(raters)]
    index = ["u", "p"] if with_part else ["u"]
    part = [pl.col("__part").alias("p")] if with_part else []
    long = frame.select(unit_expr, *part, *cols).unpivot(
        index=index, variable_name="r", value_name="v"
    )
    return long.with_columns(pl.col("r").str.slice(3).cast(pl.Int64))


# --------------------------------------------------------------------- encoding
def _encode(
    lf: pl.LazyFrame,
    *,
    source: str,
    opts: dict[str, Any],
    notes: list[str],
    rater_order: list[str] | None,
    parts: Sequence[str],
    columns: Sequence[str] = (),
    caveats: Sequence[str] = (),
    elsewhere: int = 0,
) -> Annotations:
    df = _collect(lf, source)
    n_read = df.height
    vdtype = df.schema["v"]
    missing_v = _missing_expr(vdtype, opts.get("missing", ()), bool(opts.get("keep_blank")))
    missing_id = pl.col("u").is_null() | pl.col("r").is_null()
    if df.schema["u"] == pl.String:
        missing_id = missing_id | (pl.col("u") == "")
    if df.schema["r"] == pl.String:
        missing_id = missing_id | (pl.col("r") == "")
    flags = df.select(missing_v.alias("mv"), (missing_id & ~missing_v).alias("mi"))
    dropped = {
        "missing value": int(flags["mv"].sum()),
        "missing unit or rater id": int(flags["mi"].sum()),
    }
    part_audits = _part_audits(df, flags, parts) if parts else ()
    gone = dropped["missing value"] + dropped["missing unit or rater id"]
    kept = df.filter(~(flags["mv"] | flags["mi"])) if gone else df
    empty = (units_without_ratings(df, kept) - elsewhere) if gone else 0
    if empty:
        notes.append(f"{empty} unit(s) with no rating at all (every value missing)")
    del df, flags  # from here on each text column is dropped once it is coded
    if "t" in kept.columns:
        kept = kept.sort("t", maintain_order=True, nulls_last=False)
        notes.append(
            f"rows ordered by timestamp column {opts['timestamp']!r}; the latest answer wins"
        )
    values, value_labels, vnote = _values(kept["v"], opts.get("level"), source)
    notes += [vnote] if vnote else []
    kept = kept.drop("v")
    text_ids = {c: kept.schema[c] == pl.String for c in ("u", "r")}
    u_codes, u_labels, u_seen = id_codes(kept["u"], text=rater_order is None)  # wide: rows
    kept = kept.drop("u")
    caveats = [*caveats, *mixed_ids(u_labels if text_ids["u"] else [], "unit", source)]
    if rater_order is None:
        r_codes, r_labels, r_seen = id_codes(kept["r"])
        caveats += mixed_ids(r_labels if text_ids["r"] else [], "rater", source)
    else:
        r_codes, r_labels = kept["r"].to_numpy().astype(np.int64), list(range(len(rater_order)))
        r_seen = False
    del kept
    coded = (len(u_labels), len(r_labels)) if u_seen and r_seen else None
    try:
        ann = build(
            u_codes,
            r_codes,
            values,
            level=opts.get("level"),
            duplicates=opts.get("duplicates", "error"),
            source=source,
            rater_order=None if rater_order is None else r_labels,
            dropped=dropped,
            notes=notes,
            rows_read=n_read,
            caveats=caveats,
            values_are_labels=value_labels is None and opts.get("categories") is None,
            multilabel=bool(opts.get("multilabel")),
            copy=False,
            coded=coded,
        )
    except DuplicateRatingError:
        raise duplicate_error(
            u_codes, u_labels, r_codes, r_labels, rater_order, values, source,
            (columns, value_labels),
        ) from None
    raters = rater_order if rater_order is not None else r_labels
    out = _relabel(ann, u_labels, raters, value_labels, opts, part_audits)
    if empty:  # read, but not units of the Annotations: evaluate counts them as unreferenced
        out.meta["units_without_ratings"] = empty
    return out


def _collect(lf: pl.LazyFrame, source: str) -> pl.DataFrame:
    try:
        return lf.collect(engine="streaming")
    except _ENGINE_ERRORS as exc:
        raise FormatError(f"{source}: {engine_problem(exc)}") from None


def _part_audits(df: pl.DataFrame, flags: pl.DataFrame, parts: Sequence[str]) -> tuple[Audit, ...]:
    stats = (
        pl.DataFrame({"p": df["p"], "mv": flags["mv"], "mi": flags["mi"]})
        .group_by("p")
        .agg(pl.len().alias("n"), pl.col("mv").sum(), pl.col("mi").sum())
    )
    by = {int(row[0]): row for row in stats.iter_rows()}
    out = []
    for i, name in enumerate(parts):
        _, n, mv, mi = by.get(i, (i, 0, 0, 0))
        dropped = {
            k: int(x) for k, x in (("missing value", mv), ("missing unit or rater id", mi)) if x
        }
        out.append(Audit(name, int(n), int(n - mv - mi), dropped))
    return tuple(out)


def check_duplicates_option(value: Any, func: str) -> None:
    """Validate ``duplicates=`` before any file is opened."""
    v.choice(value, ("error", "last"), param="duplicates", func=func)
