"""The disagreements of a crowd: each unit's ratings listed, not one column per rater.

With thousands of raters a review table of one column per rater would hold
units x raters cells, nearly all empty (1.9 million units x 9,000 workers is
17 x 10^9 cells). Above :data:`WIDE_RATERS` raters each disagreement unit is
kept as the ratings it has, in long arrays sorted by unit and rater; its
:class:`UnitLabels` are built one at a time when asked for,
and the CSV is written column-wise: ``unit, n_ratings, agreement, labels``
(each label with its count), ``ratings`` (``rater=label`` pairs), then the empty
``adjudicated`` and ``comment`` columns.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from accord.data._sets import label_text

IntArray = NDArray[np.int64]

#: Above this many raters the review lists each unit's ratings in one cell.
WIDE_RATERS = 50

__all__ = ["WIDE_RATERS", "UnitLabels", "UnitsOfRatings"]


@dataclass(frozen=True)
class UnitLabels:
    """One unit's labels, one per rater (``None`` where the rater did not rate it).

    Attributes
    ----------
    unit : object
        The unit id as read.
    labels : tuple
        The label each rater gave, in the order of :attr:`Disagreements.raters`;
        with ``raters`` set, the labels of those raters only.
    n_ratings : int
        How many raters rated the unit.
    agreement : float
        The share of agreeing rater pairs, ``a_u`` above.
    raters : tuple or None
        ``None``: ``labels`` follow :attr:`Disagreements.raters`. A crowd (more than 50
        raters): the raters who rated this unit, in rater order, ``labels`` theirs.
    """

    unit: Any
    labels: tuple[Any, ...]
    n_ratings: int
    agreement: float
    raters: tuple[Any, ...] | None = None

    @property
    def n_distinct(self) -> int:
        """How many different labels the unit received."""
        return len({repr(x) for x in self.labels if x is not None})


class UnitsOfRatings(Sequence[Any]):
    """The disagreement units of many raters, each built from the long codes on access.

    ``idx`` are the units (codes) in output order; ``starts`` cut the sorted
    ``rater`` and ``value`` codes into the ratings of each of them.
    """

    def __init__(self, unit_ids: Sequence[Any], raters: Sequence[Any], categories: Sequence[Any],
                 idx: IntArray, m: IntArray, share: NDArray[np.float64], starts: IntArray,
                 rater: IntArray, value: IntArray) -> None:
        self._unit_ids, self._raters, self._cats = unit_ids, raters, categories
        self._idx, self._m, self._share = idx, m, share
        self._starts, self._rater, self._value = starts, rater, value

    def __len__(self) -> int:
        return int(self._idx.shape[0])

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        j = range(len(self))[i]  # negative indices, and IndexError past the end
        lo, hi = int(self._starts[j]), int(self._starts[j + 1])
        u = int(self._idx[j])
        return UnitLabels(self._unit_ids[u],
                          tuple(self._cats[c] for c in self._value[lo:hi].tolist()),
                          int(self._m[u]), float(self._share[u]),
                          raters=tuple(self._raters[r] for r in self._rater[lo:hi].tolist()))

    def __iter__(self) -> Iterator[Any]:
        return (self[j] for j in range(len(self)))

    def csv_chunks(self, neutralise: Any, size: int = 100_000, *,
                   header: Sequence[str] | None = None) -> Iterator[str]:
        """The CSV text of these units (RFC 4180, CRLF, header first), ``size`` units at a
        time, every text cell neutralised; ``header`` names the seven columns."""
        import polars as pl

        rater_names = pl.Series([str(r) for r in self._raters], dtype=pl.String)
        labels = pl.Series([label_text(c) for c in self._cats], dtype=pl.String)
        for first in range(0, max(len(self), 1), size):
            yield self._csv_block(first, min(first + size, len(self)), rater_names, labels,
                                  neutralise, header=first == 0, names=header)

    def _csv_block(self, first: int, last: int, rater_names: Any, labels: Any,
                   neutralise: Any, *, header: bool, names: Sequence[str] | None) -> str:
        import polars as pl

        n = last - first
        lo, hi = int(self._starts[first]), int(self._starts[last])
        row = np.repeat(np.arange(n, dtype=np.int64), np.diff(self._starts[first:last + 1]))
        long = pl.DataFrame({"row": row, "rater": rater_names.gather(self._rater[lo:hi]),
                             "label": labels.gather(self._value[lo:hi])})
        ratings = (long.group_by("row", maintain_order=True)
                   .agg(pl.concat_str("rater", pl.lit("="), "label").str.join("; ")
                        .alias("ratings")))
        counts = (long.group_by("row", "label").len()
                  .sort(["row", "len", "label"], descending=[False, True, False])
                  .group_by("row", maintain_order=True)
                  .agg(pl.concat_str("label", pl.lit(" x"), pl.col("len").cast(pl.String))
                       .str.join("; ").alias("labels")))
        idx = self._idx[first:last]
        table = pl.DataFrame({
            "unit": [neutralise(str(self._unit_ids[u])) for u in idx.tolist()],
            "n_ratings": self._m[idx],
            "agreement": [repr(x) for x in self._share[idx].tolist()],
            "labels": [neutralise(x) for x in counts["labels"].to_list()],
            "ratings": [neutralise(x) for x in ratings["ratings"].to_list()],
            "adjudicated": [None] * n, "comment": [None] * n,
        }, schema_overrides={"n_ratings": pl.Int64, "adjudicated": pl.String,
                             "comment": pl.String})
        if names is not None:
            table.columns = [neutralise(x) for x in names]
        buf = io.StringIO()
        table.write_csv(buf, include_header=header, line_terminator="\r\n",
                        quote_style="necessary")
        return buf.getvalue()


def units_of_ratings(unit_ids: Sequence[Any], raters: Sequence[Any], categories: Sequence[Any],
                     codes: tuple[IntArray, IntArray, IntArray], idx: IntArray, m: IntArray,
                     share: NDArray[np.float64]) -> UnitsOfRatings:
    """The ratings of the units ``idx`` (in that order), sorted by rater within a unit."""
    units, rater, value = codes
    pos = np.full(len(unit_ids), -1, dtype=np.int64)
    pos[idx] = np.arange(idx.shape[0])
    row = pos[units]
    hit = np.flatnonzero(row >= 0)
    order = np.lexsort((rater[hit], row[hit]))
    take = hit[order]
    starts = np.zeros(idx.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(row[take], minlength=idx.shape[0]), out=starts[1:])
    return UnitsOfRatings(unit_ids, raters, categories, idx, m, share, starts, rater[take],
                          value[take])
