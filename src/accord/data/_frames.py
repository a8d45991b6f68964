"""Columns out of whatever table a user hands over.

Accepts mappings of columns, lists of records or rows, 2-D numpy arrays and any
dataframe narwhals understands (pandas, polars, pyarrow, ...). Nothing here
imports pandas; narwhals is imported only when a frame is given.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _columns as cols
from accord.data._encoding import missing_mask, to_array
from accord.data._shapes import PROBE_ROWS
from accord.errors import DataError, LayoutWarning


def wide_table(data: Any, *, func: str) -> tuple[list[Any], list[NDArray[Any]]]:
    """Column names and 1-D arrays of a table; unnamed columns become ``rater_1``, ..."""
    if isinstance(data, Mapping):
        names = list(data.keys())
        columns = [to_array(data[k], name=f"column {k!r}") for k in names]
        lengths = {k: c.shape[0] for k, c in zip(names, columns)}
        if len(set(lengths.values())) > 1:
            raise DataError(
                f"{func} needs columns of one length; got lengths {lengths}."
            )
        return names, columns
    if _is_frame(data):
        return _frame_columns(data)
    if isinstance(data, np.ndarray):
        if data.ndim != 2:
            raise DataError(f"{func} needs a 2-D table; got an array of shape {data.shape}.")
        return _default_names(data.shape[1]), [data[:, j] for j in range(data.shape[1])]
    rows = _rows(data, func)
    if rows and isinstance(rows[0], Mapping):
        odd = next((i for i, row in enumerate(rows) if not isinstance(row, Mapping)), None)
        if odd is not None:
            raise DataError(
                f"{func} got a list of records (mappings), but row {odd + 1} is {rows[odd]!r:.60}."
            )
        names = list(dict.fromkeys(k for row in rows for k in row))
        return names, [to_array([row.get(k) for row in rows], name=f"column {k!r}") for k in names]
    width = _width(rows, func)
    return _default_names(width), [
        to_array([row[j] for row in rows], name=f"column {j + 1}") for j in range(width)
    ]


def columns_of(data: Any, keys: Sequence[Any], *, func: str) -> list[NDArray[Any]]:
    """The named (or positional) columns of a long table, in the order of ``keys``."""
    names, columns = wide_table(data, func=func)
    positional = names == _default_names(len(names))
    out = []
    for i, key in enumerate(keys):
        if key in names:
            out.append(columns[names.index(key)])
        elif isinstance(key, int) and 0 <= key < len(names):
            out.append(columns[key])
        elif positional and len(names) == len(keys) and isinstance(key, str):
            out.append(columns[i])
        else:
            raise DataError(f"column {key!r} not found; the columns are {names!r}.")
    lengths = {c.shape[0] for c in out}
    if len(lengths) > 1:
        raise DataError(f"columns {list(keys)!r} have different lengths {sorted(lengths)}.")
    return out


def _default_names(width: int) -> list[Any]:
    return [f"rater_{j + 1}" for j in range(width)]


def _rows(data: Any, func: str) -> list[Any]:
    if isinstance(data, (str, bytes)) or not hasattr(data, "__iter__"):
        raise DataError(
            f"{func} needs a table (list of rows, mapping of columns, array or dataframe); "
            f"got {type(data).__name__}."
        )
    return list(data)


def _width(rows: list[Any], func: str) -> int:
    if not rows:
        raise DataError(f"{func} got an empty table.")
    widths = set()
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            hint = "" if hasattr(row, "__len__") else (
                " (give two label sequences as two arguments, y1 and y2)")
            raise DataError(
                f"{func} needs a units x raters table (a list of rows); row {i + 1} is "
                f"{row!r:.60}, not a row{hint}."
            )
        widths.add(len(row))
    if len(widths) != 1:
        raise DataError(
            f"every row must have the same number of columns; got lengths {sorted(widths)}."
        )
    return widths.pop()


def _is_frame(data: Any) -> bool:
    module = type(data).__module__.split(".")[0]
    return module in {
        "pandas",
        "polars",
        "pyarrow",
        "modin",
        "cudf",
        "dask",
        "pyspark",
        "duckdb",
        "ibis",
    } and hasattr(data, "columns" if module != "pyarrow" else "column_names")


def _frame_columns(data: Any) -> tuple[list[Any], list[NDArray[Any]]]:
    import narwhals as nw

    frame = nw.from_native(data, eager_only=True)
    names = list(frame.columns)
    return names, [to_array(frame[name].to_numpy(), name=f"column {name!r}") for name in names]


def wide_raters(
    names: list[Any], columns: list[NDArray[Any]], unit: Any, func: str
) -> tuple[Any, list[Any], list[Any]]:
    """The unit column, rater columns and left-out columns of a wide table whose raters
    nobody named, by the rules the file readers apply (:mod:`accord.data._columns`).

    A column named like unit ids holds the unit ids; columns named as non-ratings or
    holding free text are left out (a :class:`~accord.LayoutWarning` names them); a
    column of ids, or a table that looks long, is refused."""
    if unit is None:
        unit = cols.find_column([str(n) for n in names], cols.UNIT_NAMES)
        unit = next((n for n in names if str(n) == unit), None)
    where = f"{func}: "
    why = ""
    texts = [str(n) for n, c in zip(names, columns) if c.dtype.kind in "OU" and _all_text(c)]
    rater_col = cols.rater_id_column(texts)
    if rater_col is not None:
        others = set().union(*(_distinct_text(c) for n, c in zip(names, columns)
                                if n not in (rater_col, unit)))
        if cols.holds_labels(_distinct_text(columns[names.index(rater_col)]), others):
            rater_col = None
    if rater_col is not None:
        why = f"column {rater_col!r} holds rater ids"
    elif unit is not None:
        ids = columns[names.index(unit)][:PROBE_ROWS]  # judged on the first rows, as files
        ids = ids[~missing_mask(ids)]
        distinct = len(set(ids.tolist()))
        if ids.shape[0] and cols.repeating_units(ids.shape[0], distinct):
            why = (f"unit ids in column {unit!r} repeat across rows ({ids.shape[0]} rows, "
                   f"{distinct} distinct ids), while a wide table has one row per unit")
    if why:
        raise DataError(cols.long_error(where, why, names, library=True))
    rest = [n for n in names if n != unit]
    left_out = [n for n in rest if cols.is_non_rater_name(n)]
    left_out += [n for n in rest if n not in left_out and is_free_text(columns[names.index(n)])]
    candidates = [n for n in rest if n not in left_out]
    scores = cols.score_columns(
        {n: c for n in candidates if (c := _score_counts(columns[names.index(n)])) is not None},
        candidates)
    left_out += scores
    raters = [n for n in rest if n not in left_out]
    for name in raters:
        _refuse_ids(name, columns[names.index(name)], where)
    if not raters:
        raise DataError(f"{where}no rater columns (left out as not ratings: {left_out!r}); "
                        f"the columns are {names!r}; name the rater columns with raters=[...].")
    if left_out:
        said = (f"names or values say they hold no ratings; {cols.score_caveat(scores)}"
                if scores else "names or free-text values say they hold no ratings")
        warnings.warn(f"{where}columns {left_out!r} were left out of the raters (their "
                      f"{said}); name the rater "
                      "columns with raters=[...] to make this explicit.", LayoutWarning,
                      stacklevel=4)
    return unit, raters, left_out


def _score_counts(column: NDArray[Any]) -> tuple[int, int, int] | None:
    """``(n, distinct, non_integer)`` of a numeric column's first rows
    (:func:`cols.looks_like_scores`); None for a column of other values."""
    head = column[:PROBE_ROWS]
    if head.dtype.kind == "O":
        kept = head[~missing_mask(head)]
        if not all(isinstance(x, float) for x in kept.tolist()):
            return None
        head = kept.astype(np.float64)
    if head.dtype.kind != "f":
        return None
    x = head[~np.isnan(head)]
    return x.shape[0], int(np.unique(x).shape[0]), int(np.count_nonzero(x != np.round(x)))


def _refuse_ids(name: Any, column: NDArray[Any], where: str) -> None:
    """Raise when a column taken as a rater holds ids (:func:`cols.looks_like_ids`)."""
    if column.dtype.kind in "iu" and (column.shape[0] < 2
                                      or int(column[1]) - int(column[0]) != 1):
        return  # integers not counting up by one from the first row: no row number
    head = column[:PROBE_ROWS]  # judged on the first rows, as a file's columns are
    kept = head[~missing_mask(head)]
    n = kept.shape[0]
    if n < cols.ID_MIN_ROWS:
        return
    if kept.dtype.kind in "iu":
        steps = np.diff(kept.astype(np.int64))
        if cols.looks_like_ids(n, n, text=False, consecutive=bool(np.all(steps == 1))):
            raise DataError(cols.id_like_error(where, name, n))
        return
    values = kept.tolist()
    if kept.dtype.kind in "OU" and all(isinstance(x, str) for x in values):
        texts = [x.strip() for x in values]
        if cols.looks_like_ids(n, len(set(texts)), text=True) and cols.looks_like_ids(
                n, n, text=True, pieces=cols.distinct_pieces(texts)):
            raise DataError(cols.id_like_error(where, name, n))


def warn_if_transposed(names: list[Any], n_rows: int, func: str) -> None:
    """Warn when an unnamed table (an array, a list of rows) has far more columns than
    rows: it may be raters x units, as the krippendorff package takes it."""
    width = len(names)
    if names != _default_names(width) or not cols.looks_transposed(n_rows, width):
        return
    warnings.warn(
        f"{func}: the table has {n_rows} rows and {width} columns, read as {n_rows} units "
        f"(rows) rated by {width} raters (columns): accord expects units x raters; if the "
        "rows are raters (as the krippendorff package takes them), pass the transpose "
        "(data.T).", LayoutWarning, stacklevel=4)


def check_numeric_array(data: NDArray[Any], func: str) -> None:
    """The layout rules for a 2-D numeric array taken on a fast path (no Annotations are
    built): warn when it looks raters x units, refuse a column counting up by one (a row
    number taken as a rater)."""
    if data.ndim != 2:
        return
    n_rows, width = data.shape
    warn_if_transposed(_default_names(width), n_rows, func)
    if data.dtype.kind in "iu" and n_rows >= cols.ID_MIN_ROWS:
        for j in range(width):
            _refuse_ids(f"rater_{j + 1}", data[:, j], f"{func}: ")


def is_free_text(column: NDArray[Any]) -> bool:
    """Whether a column holds free text (long, nearly all distinct strings), not labels,
    judged on its first rows by :func:`accord.data._shapes.looks_like_text`."""
    from accord.data._shapes import PROBE_ROWS, looks_like_text

    if column.dtype.kind not in "OU":
        return False
    texts = [x.strip() for x in column[:PROBE_ROWS].tolist() if isinstance(x, str)]
    texts = [t for t in texts if t]
    if not texts:
        return False
    chars = sum(map(len, texts)) / len(texts)
    words = sum(len(t.split()) for t in texts) / len(texts)
    return looks_like_text(len(texts), len(set(texts)), chars, words)


def _all_text(column: NDArray[Any]) -> bool:
    """Whether the non-missing values of an object column are all strings."""
    head = column[:PROBE_ROWS]
    return all(isinstance(x, str) for x in head[~missing_mask(head)])


def _distinct_text(column: NDArray[Any]) -> set[str]:
    head = column[:PROBE_ROWS]
    return {str(x) for x in head[~missing_mask(head)].tolist()}
