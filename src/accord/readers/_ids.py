"""Coding the id and label columns of a table read through Polars.

Ids are numbered in order of first appearance (the order :class:`Annotations`
keeps) by hash look-ups or a table of the integer ids present, never by a sort of
10^7 strings; labels in sorted order. Text ids that mix integers with other ids are
checked on their distinct values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from accord.data import _encoding as enc
from accord.errors import DataError

#: Rows probed, distinct labels that count as "few", and the largest Enum built
#: (see :func:`label_codes`).
_PROBE, _FEW, _ENUM_MAX = 100_000, 1_000, 100_000
#: An integer written plainly (no sign but minus, no leading zeros), at most 18 digits.
INT = r"^-?(0|[1-9][0-9]{0,17})$"


def mixed_ids(labels: list[Any], role: str, source: str) -> list[str]:
    """Text ids of which some are integers and some not, judged on the distinct ids.

    One number written as an integer and as a decimal (``7`` and ``7.0``, as a
    spreadsheet or a float column writes it) would count as two units or raters:
    refused, with the counts. Integers mixed with other text (``abc``) are kept as
    text ids and stated, with the counts and an example, since a stray row (a
    repeated header) looks just like this.
    """
    if len(labels) < 2:
        return []
    ids = pl.Series(labels, dtype=pl.String)
    is_int = ids.str.contains(INT)
    n_int = int(is_int.sum())
    if n_int in (0, ids.len()):
        return []
    others = ids.filter(~is_int)
    decimals = others.filter(others.str.contains(r"^-?(0|[1-9][0-9]*)\.0+$"))
    written_twice = decimals.filter(
        decimals.str.replace(r"\.0+$", "").is_in(ids.filter(is_int).implode()))
    n_other = others.len()
    if written_twice.len():
        twice = written_twice[0]
        raise DataError(
            f"{source}: the {role} ids mix {n_int} integer and {n_other} other id(s), and "
            f"{written_twice.len()} id(s) are written both ways (e.g. "
            f"{twice.split('.')[0]!r} and {twice!r}), so one {role} would count as two; "
            f"write each {role} id one way (e.g. all as integers)."
        )
    example = others[0]
    return [f"the {role} ids mix {n_int} integer and {n_other} other id(s) (e.g. {example!r}), "
            f"all kept as text ids; check that {example!r} names a {role} and is not a stray "
            "row (a repeated header)"]


def id_codes(
    s: pl.Series, *, text: bool = True
) -> tuple[np.ndarray[Any, Any], list[Any], bool]:
    """Codes of an id column, its labels, and whether they are numbered in order of first
    appearance; integer ids (``text=False``: row numbers, which are their own codes) come
    back as text.

    That order is the one :class:`Annotations` keeps, so ``build`` takes such codes
    as they are (``coded=``): text ids sorted in the file by where each
    run of rows starts, other text ids by a hash look-up through an Enum of the
    distinct ids in that order, non-negative integer ids below
    ``max(2**22, rows)`` through a table of the ids present (all O(n), no sort); other
    integer ids go through :func:`label_codes` (sorted order, renumbered by ``build``).
    """
    if s.dtype == pl.String and s.len() and not s.null_count():
        if s.is_sorted():  # each id one run of rows: its code counts the runs before it
            starts = s.ne_missing(s.shift(1))
            codes = (starts.cum_sum() - 1).cast(pl.Int64).to_numpy()
            return codes, s.filter(starts).to_list(), True
        distinct = s.unique(maintain_order=True)
        codes = s.cast(pl.Enum(distinct)).to_physical().cast(pl.Int64).to_numpy()
        return codes, distinct.to_list(), True
    if s.dtype.is_integer() and text and s.len() and not s.null_count():
        fast = enc.small_int_codes(s.to_numpy(), appearance=True, copy=False, overwrite=True,
                                   bound=max(enc.SMALL_INT, s.len()))
        if fast is not None:
            codes, ids = fast
            return codes, pl.Series(ids).cast(pl.String).to_list(), True
    return (*label_codes(s, text=text), False)


def label_codes(s: pl.Series, *, text: bool = True) -> tuple[np.ndarray[Any, Any], list[Any]]:
    """Codes in sorted label order, and the sorted distinct labels.

    Few distinct labels (categories): a hash look-up through an Enum of the sorted
    labels. Many: one dense rank (a sort), and each label taken from any row holding
    its code. Integer ids are ranked as numbers and labelled with their text
    (``text=False``: the integers are the codes, as for row numbers).
    """
    if s.dtype.is_integer():
        if not text:
            return s.to_numpy().astype(np.int64, copy=False), []
        return _ranked_int_codes(s)
    if s.len() == 0:
        return np.zeros(0, dtype=np.int64), []
    if s.head(_PROBE).n_unique() <= _FEW:
        distinct = s.unique().sort()
        if distinct.len() <= _ENUM_MAX:
            codes = s.cast(pl.Enum(distinct)).to_physical().cast(pl.Int64).to_numpy()
            return codes, distinct.to_list()
    codes = (s.rank("dense") - 1).cast(pl.Int64).to_numpy()
    first = np.empty(int(codes.max()) + 1, dtype=np.int64)
    first[codes] = np.arange(codes.shape[0])  # any row of a code holds its label
    return codes, s.gather(first).to_list()


def _ranked_int_codes(s: pl.Series) -> tuple[np.ndarray[Any, Any], list[Any]]:
    """Integer ids ranked as numbers (a sort), labelled with their text."""
    distinct = s.unique().sort()
    codes = (s.rank("dense") - 1).cast(pl.Int64).to_numpy()
    return codes, distinct.cast(pl.String).to_list()
