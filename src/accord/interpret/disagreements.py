"""Every unit on which the raters differ, with all labels, for adjudication.

For a unit rated by ``m >= 2`` raters with ``n_c`` of them choosing category
``c``, the share of agreeing rater pairs is

.. math:: a_u = \\frac{\\sum_c n_c (n_c - 1)}{m (m - 1)}

(Fleiss 1971, the per-subject agreement ``P_i``, as in
:func:`accord.unit_agreement`). A unit is a disagreement when ``a_u < 1``;
units rated by a single rater are not compared. The shares are computed from
the distinct (unit, category) pairs, never from a units x categories matrix,
so label sets with many categories cost O(n log n) time and O(n) memory.

With more than 50 raters (a crowd) the review lists each unit's ratings in one
cell (``rater=label; ...``) next to its labels with their counts, instead of one
column per rater, and the units are built from the long codes one at a time,
so memory follows the ratings of the disagreement units, never units x raters.

The CSV export is safe to open in a spreadsheet (OWASP "CSV Injection";
OWASP ASVS 5.0 requirement 1.2.10): it is written by Python's CSV writer with
CRLF line ends (RFC 4180), so every cell holding a comma, a quote, a carriage
return or a line feed is quoted and no cell can start a new row; and a cell
that would start a formula is prefixed with a single quote. A cell starts a
formula when its first character is a control character (NUL, tab, CR, ESC...)
or when, after any leading whitespace and control characters, it starts with
``=``, ``+``, ``-``, ``@`` or their full-width forms (``＝`` ...). Plain numbers
(``-1``, ``-2.5``, ``+3``, ``1e-3``) are written as they are, so they read back
as numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.data._files import write_atomic
from accord.data._sets import label_text
from accord.data._text import neutralise_cell
from accord.data.annotations import Annotations
from accord.errors import DataError
from accord.interpret._disagreements_long import (
    WIDE_RATERS,
    UnitLabels,
    UnitsOfRatings,
    units_of_ratings,
)
from accord.interpret.context import check_context

Order = Literal["data", "disagreement"]
FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

__all__ = ["Disagreements", "UnitLabels", "disagreements", "neutralise_cell"]


@dataclass(frozen=True)
class Disagreements:
    """The units on which raters differ.

    Attributes
    ----------
    raters : tuple
        The raters, in column order.
    units : sequence of UnitLabels
        The disagreement units, in data order or most disagreement first (for a crowd,
        a sequence that builds each unit when it is read).
    n_compared : int
        Units rated by at least two raters (the ones that could disagree).
    n_disagreements : int
        Units on which the raters differ (more than ``len(units)`` when a limit was given).
    """

    raters: tuple[Any, ...]
    units: Sequence[UnitLabels]
    n_compared: int
    n_disagreements: int
    context: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Columns a reviewer reads beside the labels (the item's text, a comment...):
    ``{column: {unit id as text: value}}``; shown after the unit id (empty when absent)."""
    unit_name: str = "unit"
    """The header of the unit id column (the data's own name for it, so the review joins
    back onto the data)."""

    def context_of(self, unit: Any) -> tuple[str, ...]:
        """The unit's context values, one per column (empty text where there is none)."""
        return tuple(m.get(str(unit), "") for m in self.context.values())

    @property
    def listed(self) -> bool:
        """Whether each unit's ratings are listed (a crowd) rather than one column per rater."""
        return isinstance(self.units, UnitsOfRatings)

    def __len__(self) -> int:
        return len(self.units)

    def __iter__(self) -> Iterator[UnitLabels]:
        return iter(self.units)

    def header(self) -> list[str]:
        """The CSV header: the unit column, the context columns, one per rater (or the
        crowd's labels and ratings), n_ratings, agreement, adjudicated and comment. No
        name is repeated: a column named as an earlier one (a context column called
        ``comment``) is kept, the later one takes ``_2`` (``comment_2``)."""
        if self.listed:
            return unique_names([self.unit_name, *CROWD_HEADER[1:]])
        return unique_names([self.unit_name, *self.context, *map(str, self.raters),
                             "n_ratings", "agreement", "adjudicated", "comment"])

    def rows(self) -> list[list[str]]:
        """The header and one row per unit, as text (not neutralised)."""
        if self.listed:
            return [self.header(), *([str(u.unit), str(u.n_ratings), repr(u.agreement),
                                           _label_counts(u.labels),
                                           "; ".join(f"{r}={label_text(x)}" for r, x in
                                                     zip(u.raters or (), u.labels)), "", ""]
                                          for u in self.units)]
        header = self.header()
        body = [[str(u.unit), *self.context_of(u.unit),
                 *("" if x is None else label_text(x) for x in u.labels),
                 str(u.n_ratings), repr(u.agreement), "", ""] for u in self.units]
        return [header, *body]

    def csv_chunks(self) -> Iterator[str]:
        """The CSV text in pieces (a crowd's 100,000 units at a time), header first.

        Every cell is passed through :func:`neutralise_cell`, so a label such as
        ``=HYPERLINK(...)`` is shown as text by a spreadsheet, not run.
        """
        if isinstance(self.units, UnitsOfRatings):
            yield from self.units.csv_chunks(neutralise_cell, header=self.header())
            return
        buf = io.StringIO()
        # CRLF line ends: the writer then quotes a cell holding CR or LF (RFC 4180)
        writer = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
        for row in self.rows():
            writer.writerow([neutralise_cell(c) for c in row])
        yield buf.getvalue()

    def write_csv(self, path: str | Path) -> None:
        """Write the CSV to ``path`` piece by piece (all or nothing), without holding its
        whole text: the way to write a crowd's review."""
        write_atomic(path, self.csv_chunks())

    def to_csv(self, path: str | Path | IO[str] | None = None) -> str:
        """Write the CSV (to ``path`` or a text stream when given) and return its text.

        Every cell is passed through :func:`neutralise_cell`, so a label such as
        ``=HYPERLINK(...)`` is shown as text by a spreadsheet, not run.
        """
        text = "".join(self.csv_chunks())
        if isinstance(path, (str, Path)):
            write_atomic(path, text)
        elif path is not None:
            path.write(text)
        return text


def unique_names(names: Sequence[str]) -> list[str]:
    """``names`` with each repeat renamed ``name_2``, ``name_3``... (the first kept).

    >>> unique_names(["item", "comment", "a", "comment", "comment_2"])
    ['item', 'comment', 'a', 'comment_3', 'comment_2']
    """
    taken = set(names)
    seen: set[str] = set()
    out = []
    for name in names:
        new, i = name, 2
        while new in seen or (new != name and new in taken):
            new, i = f"{name}_{i}", i + 1
        seen.add(new)
        out.append(new)
    return out


#: The columns of a crowd's review (more than 50 raters).
CROWD_HEADER = ("unit", "n_ratings", "agreement", "labels", "ratings", "adjudicated", "comment")


def _label_counts(labels: Sequence[Any]) -> str:
    """``label xN`` for each label, most given first (then by label), as the crowd CSV."""
    counts: dict[str, int] = {}
    for x in labels:
        counts[label_text(x)] = counts.get(label_text(x), 0) + 1
    return "; ".join(f"{x} x{n}" for x, n in sorted(counts.items(), key=lambda t: (-t[1], t[0])))


def disagreements(
    annotations: Annotations,
    *,
    raters: Sequence[Any] | None = None,
    order: Order = "data",
    limit: int | None = None,
    context: Mapping[str, Mapping[Any, str]] | None = None,
) -> Disagreements:
    """Every unit on which the raters differ, with all their labels.

    Parameters
    ----------
    annotations : Annotations
        The ratings.
    raters : sequence, optional
        Compare only these raters (default: all).
    order : {"data", "disagreement"}
        Units in data order, or most disagreement first (lowest share of agreeing
        pairs, then most distinct labels, then data order).
    limit : int, optional
        Keep only the first ``limit`` units (after ordering).
    context : mapping, optional
        ``{column: {unit: text}}``: what a reviewer reads beside the labels (the item's
        text, a comment; :func:`accord.interpret.context.read_context` reads them from
        a table), listed after the unit id. Not for a crowd (more than 50 raters).

    Returns
    -------
    Disagreements
        With ``to_csv()`` for a spreadsheet-safe review file.

    Examples
    --------
    >>> ann = Annotations.from_wide({"ann": ["pos", "neg", "pos"], "bob": ["pos", "pos", "neg"]})
    >>> d = disagreements(ann)
    >>> [(u.unit, u.labels) for u in d], d.n_compared
    ([(1, ('neg', 'pos')), (2, ('pos', 'neg'))], 3)
    """
    func = "disagreements"
    v.choice(order, ("data", "disagreement"), param="order", func=func)
    if limit is not None:
        v.positive_int(limit, param="limit", func=func)
    if not isinstance(annotations, Annotations):
        got = type(annotations).__name__
        raise v.fail("annotations", func, "an accord.Annotations object", got)
    if raters is not None:
        raters = v.names(raters, param="raters", func=func)
    ann = annotations.select(raters) if raters is not None else annotations
    extra = check_context(context, func)
    if extra and ann.n_raters > WIDE_RATERS:
        raise DataError(f"{func}: context columns are listed beside one column per rater; "
                        f"with {ann.n_raters} raters (a crowd) the review lists ratings in "
                        "one cell: leave the context out or select at most "
                        f"{WIDE_RATERS} raters.")
    m, share, distinct = _unit_agreement(ann)
    idx = np.flatnonzero((m >= 2) & (share < 1.0))
    total = int(idx.shape[0])
    if order == "disagreement":
        idx = idx[np.lexsort((idx, -distinct[idx], share[idx]))]
    if limit is not None:
        idx = idx[:limit]
    cats = ann.categories
    if ann.n_raters > WIDE_RATERS:
        listed = units_of_ratings(ann.units, ann.raters, cats, ann.codes, idx, m, share)
        return Disagreements(ann.raters, listed, int((m >= 2).sum()), total)
    labels = _labels_of(ann, idx)
    units = tuple(
        UnitLabels(ann.units[i], tuple(None if c < 0 else cats[c] for c in row),
                   int(m[i]), float(share[i]))
        for i, row in zip(idx.tolist(), labels)
    )
    return Disagreements(ann.raters, units, int((m >= 2).sum()), total, extra)


def _labels_of(ann: Annotations, idx: NDArray[np.int64]) -> NDArray[np.int64]:
    """The value codes (``-1`` = not rated) of the units ``idx`` x every rater, built for
    those units only (never all units x raters)."""
    units, raters, values = ann.codes
    pos = np.full(ann.n_units, -1, dtype=np.int64)
    pos[idx] = np.arange(idx.shape[0])
    row = pos[units]
    hit = row >= 0
    out = np.full((idx.shape[0], ann.n_raters), -1, dtype=np.int64)
    out[row[hit], raters[hit]] = values[hit]
    return out


def _unit_agreement(
    ann: Annotations,
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]:
    """Per unit: ratings ``m``, the share of agreeing pairs (``nan`` when ``m < 2``) and
    the number of distinct labels."""
    units, _, values = ann.codes
    k = max(len(ann.categories), 1)
    m = np.bincount(units, minlength=ann.n_units).astype(np.int64)
    flat = units * k + values
    if ann.n_units * k <= 4 * flat.shape[0] + 1024:  # a count per cell beats a sort
        cells = np.bincount(flat, minlength=ann.n_units * k)
        keys = np.flatnonzero(cells)
        n_c = cells[keys]
    else:
        keys, n_c = np.unique(flat, return_counts=True)
    same = np.bincount(keys // k, weights=n_c * (n_c - 1.0), minlength=ann.n_units)
    distinct = np.bincount(keys // k, minlength=ann.n_units).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(m >= 2, same / (m * (m - 1.0)), np.nan)
    return m, share, distinct
