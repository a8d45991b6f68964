"""Units a rater selection leaves out: rated only in columns not named as raters.

A wide table read with ``raters=[...]`` drops the rows whose named rater columns
are all missing; when another column that could hold ratings (not an id, text or
metadata column by its name) has a value on such a row, the unit was rated, but
only by raters not selected. Those units are counted and said, never silently
absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from accord.readers._table_values import _missing_expr

__all__ = ["rated_only_elsewhere"]


def rated_only_elsewhere(frame: pl.LazyFrame, unit: str | None, raters: Sequence[str],
                         others: Sequence[str], missing: Sequence[Any]) -> int:
    """How many units (rows) have every column of ``raters`` missing and a value in one of
    ``others`` (missing as the reader reads it: empty, NA markers, ``missing``)."""
    if not others:
        return 0
    cols = [*raters, *others]
    df = frame.select([*([pl.col(unit)] if unit else []), *map(pl.col, cols)]).collect()
    present = {c: ~df.select(pl.col(c).alias("v")).select(_missing_expr(df.schema[c], missing)
                                                         ).to_series() for c in cols}
    none = pl.Series([True] * df.height)
    for c in raters:
        none = none & ~present[c]
    elsewhere = pl.Series([False] * df.height)
    for c in others:
        elsewhere = elsewhere | present[c]
    rows = none & elsewhere
    if unit is None:
        return int(rows.sum())
    return int(df[unit].filter(rows).n_unique())
