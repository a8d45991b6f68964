"""Columns out of whatever table a user hands over.

Accepts mappings of columns, lists of records or rows, 2-D numpy arrays and any
dataframe narwhals understands (pandas, polars, pyarrow, ...). Nothing here
imports pandas; narwhals is imported only when a frame is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data._encoding import to_array
from accord.errors import DataError


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
