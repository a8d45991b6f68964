"""A table's groups cut out of its pooled reading: one read, however many groups.

``--by COLUMN`` used to read each group as a file of its own (10^4 groups: 10^4
reads, about 5-10 ms each). Here the table is read once, each unit's group is
found from the rows, and each group's annotations are the pooled ones restricted
to its units, with the raters who rated them and, unless they were declared, the
categories they used (what reading the group alone gives: the reader sorts the
observed categories). Each group keeps the pooled reading's audit, under its own
source. Where a unit's group cannot be told from the rows (a unit in two groups,
no column of unit ids, span data), :func:`cut` returns ``None`` and the caller
reads the groups one by one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data.annotations import Annotations


def cut(pooled: Annotations, rows: Any, keys: Any, order: list[str], where: str,
        column: str) -> list[tuple[str, Annotations]] | None:
    """The groups of ``pooled`` (``keys``: the group of each of the frame ``rows``, named
    in ``order``), or ``None`` when a unit's group cannot be told."""
    if pooled.spans is not None or pooled.n_units == 0:
        return None
    found = _unit_groups(pooled, rows, keys, order)
    if found is None:
        return None
    unit_group, row_in_group = found
    unit_codes = pooled.codes[0]
    of_rating = unit_group[unit_codes]
    sizes = np.bincount(of_rating, minlength=len(order))
    if not sizes.all():  # a group without a rating: its own read says why
        return None
    by_group = np.argsort(of_rating, kind="stable")
    ends = np.cumsum(sizes)
    return [(name, _part(pooled, by_group[end - size:end], f"{where} ({column} = {name})",
                         row_in_group))
            for name, size, end in zip(order, sizes.tolist(), ends.tolist())]


def _unit_groups(pooled: Annotations, rows: Any, keys: Any, order: list[str]
                 ) -> tuple[NDArray[np.int64], NDArray[np.int64] | None] | None:
    """The group index of each unit, from the column of unit ids or the row number; for
    row numbers, also each row's number within its group (a group read alone numbers its
    own rows from 0)."""
    import polars as pl

    index = {name: j for j, name in enumerate(order)}
    codes = pl.Series([index[k] for k in keys.to_list()], dtype=pl.Int64)
    units = pl.Series([str(u) for u in pooled.units], dtype=pl.String)
    found = None
    for name in rows.columns:
        pairs = pl.DataFrame({"u": rows[name].cast(pl.String), "g": codes}).unique()
        if pairs["u"].n_unique() != pairs.height:
            continue  # a value in two groups: not the units, or units across groups
        group = dict(zip(pairs["u"].to_list(), pairs["g"].to_list()))
        if all(u in group for u in units.to_list()):
            mapped = np.array([group[u] for u in units.to_list()], dtype=np.int64)
            if found is not None and not np.array_equal(found, mapped):
                return None  # two columns could be the units, and they disagree
            found = mapped
    if found is not None:
        return found, None
    ints = all(isinstance(u, int) and not isinstance(u, bool) for u in pooled.units)
    if ints and all(0 <= u < rows.height for u in pooled.units):  # the row number
        of_row = np.asarray(codes.to_numpy(), dtype=np.int64)
        by_group = np.argsort(of_row, kind="stable")
        sizes = np.bincount(of_row, minlength=len(order))
        within = np.empty_like(of_row)
        within[by_group] = np.arange(of_row.shape[0]) - np.repeat(np.cumsum(sizes) - sizes,
                                                                  sizes)
        return of_row[np.asarray(pooled.units, dtype=np.int64)], within
    return None


def _first_seen(codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct codes in order of first appearance (the order a reader gives ids), and
    each code's position among them."""
    distinct, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return distinct[order], rank[inverse]


def _part(pooled: Annotations, ratings: NDArray[np.int64], source: str,
          row_in_group: NDArray[np.int64] | None) -> Annotations:
    u, r, v = (c[ratings] for c in pooled.codes)
    units, u = np.unique(u, return_inverse=True)
    raters, r = _first_seen(r)
    if pooled._declared_order:
        categories = np.arange(len(pooled.categories))
    else:
        categories, v = np.unique(v, return_inverse=True)
    rater_ids = [pooled.raters[i] for i in raters.tolist()]
    return Annotations(
        u.astype(np.int64), r.astype(np.int64), v.astype(np.int64),
        units=[pooled.units[i] if row_in_group is None else int(row_in_group[pooled.units[i]])
               for i in units.tolist()], raters=rater_ids,
        categories=[pooled.categories[i] for i in categories.tolist()], level=pooled.level,
        kinds={x: pooled.kinds[x] for x in rater_ids}, field=pooled.field,
        audit=replace(pooled.audit, source=source), meta=pooled.meta,
        declared_order=pooled._declared_order, set_valued=pooled.set_valued)
