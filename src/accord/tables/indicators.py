"""Set-valued ratings as a units x raters x labels indicator, held as two small parts.

The units x raters matrix of *set codes* (``-1`` = not rated) and the distinct
sets x labels membership bits: the indicator of label ``l`` is
``member[codes, l]``, formed one label at a time (or as packed bytes for all
labels at once), never as Python sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord import _sets
from accord.annotations import Annotations
from accord.errors import DataError

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


class LabelIndicators:
    """Which labels each rater gave each unit.

    Attributes
    ----------
    codes : ndarray of int64, units x raters
        Code of the set each rater gave each unit, ``-1`` where not rated.
    member : ndarray of bool, sets x labels
        ``member[s, l]``: set ``s`` holds label ``l``.
    labels, raters, units : tuple
        The labels (columns of ``member``), raters and unit ids.
    """

    def __init__(self, codes: IntArray, member: BoolArray, labels: Sequence[Any],
                 raters: Sequence[Any], units: Sequence[Any]) -> None:
        self.codes = codes
        self.member = member
        self.labels = tuple(labels)
        self.raters = tuple(raters)
        self.units = tuple(units)
        self.rated: BoolArray = codes >= 0
        self._safe = np.where(self.rated, codes, 0)
        self.n_rated: IntArray = np.zeros(codes.shape[0], dtype=np.int64)
        for r in range(codes.shape[1]):
            self.n_rated += self.rated[:, r]

    @classmethod
    def from_annotations(cls, ann: Annotations,
                         labels: Sequence[Any] | None = None) -> LabelIndicators:
        """The indicators of (set-valued or single-label) annotations.

        ``labels`` fixes the label order and may add labels nobody used; a rating
        holding a label outside ``labels`` raises.
        """
        sets = ann.as_sets()
        _, member = _sets.membership(list(sets.categories), labels)
        names = tuple(labels) if labels is not None else sets.labels
        if labels is not None and len(set(names)) != len(names):
            raise DataError(f"labels must be distinct; got {list(names)!r}.")
        return cls(sets.wide(), member, names, sets.raters, sets.units)

    @property
    def n_units(self) -> int:
        """Number of units."""
        return int(self.codes.shape[0])

    @property
    def n_raters(self) -> int:
        """Number of raters."""
        return int(self.codes.shape[1])

    def label(self, j: int) -> BoolArray:
        """units x raters: the rater gave the unit label ``j`` (False where not rated)."""
        out: BoolArray = self.member[:, j][self._safe] & self.rated
        return out

    def present_all(self) -> NDArray[np.uint8]:
        """labels x units: how many raters gave each unit each label.

        Formed from the packed label bits of each rater's sets (one unpack per
        rater), so all labels cost about as much as a few of them one by one.
        """
        n_labels = len(self.labels)
        bits = np.packbits(self.member, axis=1)
        total = np.zeros((self.codes.shape[0], bits.shape[1] * 8), dtype=np.uint8)
        for r in range(self.codes.shape[1]):
            rows = bits[self._safe[:, r]]
            rows[~self.rated[:, r]] = 0
            total += np.unpackbits(rows, axis=1)
        return np.ascontiguousarray(total[:, :n_labels].T)

    def present(self, j: int) -> IntArray:
        """Per unit, how many raters gave label ``j`` (column by column: no 2-D reduce)."""
        col = self.member[:, j]
        out = np.zeros(self.codes.shape[0], dtype=np.int64)
        for r in range(self.codes.shape[1]):
            out += col[self._safe[:, r]] & self.rated[:, r]
        return out

    def counts(self, j: int) -> IntArray:
        """units x 2 counts ``[n_absent, n_present]`` of label ``j``."""
        present = self.present(j)
        return np.column_stack([self.n_rated - present, present])

    def packed(self, unrated: int = 0xFF) -> NDArray[np.uint8]:
        """units x raters x bytes: the label bits of each rating (``unrated`` where not rated)."""
        bits = np.packbits(self.member, axis=1)
        out = bits[self._safe]
        out[~self.rated] = unrated
        return out
