"""The values of a table column: missing markers, numbers read as numbers, labels put back.

Used by :mod:`accord.readers._table`: which cells are missing (the default markers and
the user's), how a numeric column is read, and how integer codes get their labels
back in the declared or observed order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from accord.data._sets import sorted_tuple
from accord.data.annotations import Annotations, Audit
from accord.errors import DataError
from accord.readers._base import MISSING_FOLDED
from accord.readers._ids import INT as _INT
from accord.readers._ids import label_codes
from accord.readers._numbers import check_finite, float_labels, refuse_non_finite_words

_FLOAT = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"


def _missing_expr(dtype: Any, extra: Sequence[Any], keep_blank: bool = False) -> pl.Expr:
    """Whether a value is missing; with ``keep_blank`` a blank cell is not (it is the
    empty label set, ``read(empty_label="")``)."""
    col = pl.col("v")
    expr = col.is_null()
    numbers = [x for x in (_as_number(m) for m in extra) if x is not None and x == x]
    if dtype == pl.String:
        trimmed = col.str.strip_chars()
        folded = [m for m in MISSING_FOLDED if m or not keep_blank]
        # built-in markers after trimming, in any case (" NA", "NAN"); extra ones as written
        expr = (expr | trimmed.str.to_lowercase().is_in(folded)
                | col.is_in([str(m) for m in extra]) | trimmed.is_in([str(m) for m in extra]))
        if numbers:  # a numeric marker matches the number however it is written: -1, -1.0
            as_number = col.str.strip_chars().cast(pl.Float64, strict=False)
            expr = expr | as_number.is_in(numbers).fill_null(False)
        return expr
    if dtype.is_float():
        expr = expr | col.is_nan()
    if dtype.is_numeric() and numbers:
        expr = expr | col.cast(pl.Float64).is_in(numbers)
    return expr


def _as_number(marker: Any) -> float | None:
    if isinstance(marker, bool):
        return None
    try:
        return float(marker)
    except (TypeError, ValueError):
        return None


def _values(
    s: pl.Series, level: str | None, source: str
) -> tuple[np.ndarray[Any, Any], list[Any] | None, str]:
    if s.dtype == pl.Boolean:
        s = s.cast(pl.String).str.to_lowercase()
    if s.dtype.is_numeric():
        values = s.to_numpy()  # once: a column of several chunks is copied
        check_finite(values, source)
        return values, None, ""
    if s.dtype != pl.String:
        try:
            s = s.cast(pl.String)
        except pl.exceptions.PolarsError:
            raise DataError(
                f"{source}: the value column holds {s.dtype} values; expected "
                "labels (strings or numbers)."
            ) from None
    distinct = s.unique()
    if s.len() and bool(distinct.str.contains(_INT).all()):
        return s.cast(pl.Int64).to_numpy(), None, "labels read as integers"
    is_number = distinct.str.contains(_FLOAT)
    refuse_non_finite_words(distinct, is_number, source)
    if s.len() and bool(is_number.all()):
        floats, note = float_labels(distinct, s, level, source)
        if floats is not None:
            return floats, None, note
        codes, labels = label_codes(s)
        return codes, labels, note
    if level in ("interval", "ratio"):
        bad = distinct.filter(~distinct.str.contains(_FLOAT)).head(1).to_list()
        raise DataError(
            f"{source}: level={level!r} needs numeric values, but value {bad[0]!r} is not a number."
        )
    codes, labels = label_codes(s)
    return codes, labels, _same_number_note(distinct)


def _same_number_note(distinct: pl.Series) -> str:
    """An audit note when text labels spell one number differently ("1" and "1.0").

    Labels are numbers only when every label is one; otherwise they are kept as
    written, so "1" and "1.0" are two categories. Saying so shows why they disagree.
    """
    numeric = distinct.filter(distinct.str.contains(_FLOAT))
    if numeric.len() < 2:
        return ""
    groups: dict[float, list[str]] = {}
    for text in numeric.to_list():
        groups.setdefault(float(text), []).append(text)
    clashes = [sorted(g) for g in groups.values() if len(g) > 1]
    if not clashes:
        return ""
    shown = "; ".join(" and ".join(repr(t) for t in g) for g in sorted(clashes)[:3])
    return (f"labels {shown} are different text labels, not one number: not every label "
            "is a number, so labels are kept as written")


def _relabel(
    ann: Annotations,
    units: list[Any],
    raters: list[Any],
    categories: list[Any] | None,
    opts: dict[str, Any],
    parts: tuple[Audit, ...],
) -> Annotations:
    """Put the labels back on the codes ``build`` saw (in place: no copy of the codes)."""
    if units:
        ann.units = _labelled(ann.units, units)
    if categories is not None and ann.set_valued:
        ann.categories = tuple(sorted_tuple(categories[i] for i in c) for c in ann.categories)
    elif categories is not None:
        ann.categories = tuple(categories[i] for i in ann.categories)
    ann.raters = _labelled(ann.raters, raters)
    ann.kinds = {r: "human" for r in ann.raters}
    if parts:
        a = ann.audit
        ann.audit = replace(a, parts=parts)
    declared = opts.get("categories")
    if declared is not None:
        return ann.with_categories(_like_labels(list(declared), list(ann.categories)))
    return ann


def _labelled(codes: tuple[Any, ...], labels: list[Any]) -> tuple[Any, ...]:
    """The labels of ``codes`` (the ids ``build`` kept, by their reader codes)."""
    if len(codes) == len(labels) and codes == tuple(range(len(labels))):
        return tuple(labels)  # coded in the order Annotations keeps: nothing to look up
    return tuple(labels[i] for i in codes)


def _like_labels(declared: list[Any], labels: list[Any]) -> list[Any]:
    """Declared categories given as text ("1") matched to numeric labels (1)."""
    if not labels or not all(isinstance(x, (int, float)) for x in labels):
        return declared
    kind = int if all(isinstance(x, int) for x in labels) else float
    out = []
    for c in declared:
        try:
            out.append(kind(c) if isinstance(c, str) else c)
        except ValueError:
            out.append(c)
    return out
