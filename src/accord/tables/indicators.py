"""Set-valued ratings as a units x raters x labels indicator, held as two small parts.

The ratings as long codes (unit, rater, set), sorted by unit, and the distinct
sets x labels membership bits: the indicator of label ``l`` in a rating is
``member[set, l]``. Per-unit label counts, intersections across a unit's raters
and the pairs of ratings of one unit are computed from the long codes with
``reduceat`` over the units (no units x raters matrix, so many raters who each
rate a few units cost what their ratings cost); the dense units x raters view is
built only for the coefficients that need to know which rater gave what.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _sets
from accord.data.annotations import Annotations
from accord.errors import DataError

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
ByteArray = NDArray[np.uint8]


class LabelIndicators:
    """Which labels each rater gave each unit.

    Attributes
    ----------
    unit, rater, value : ndarray of int64
        The ratings, sorted by unit: unit code, rater code, code of the set.
    member : ndarray of bool, sets x labels
        ``member[s, l]``: set ``s`` holds label ``l``.
    labels, raters, units : tuple
        The labels (columns of ``member``), raters and unit ids.
    n_rated : ndarray of int64
        Ratings per unit.
    """

    def __init__(self, unit: IntArray, rater: IntArray, value: IntArray, member: BoolArray,
                 labels: Sequence[Any], raters: Sequence[Any], units: Sequence[Any]) -> None:
        order = np.argsort(unit, kind="stable")
        self.unit, self.rater, self.value = unit[order], rater[order], value[order]
        self.member = member
        self.labels = tuple(labels)
        self.raters = tuple(raters)
        self.units = tuple(units)
        self.n_rated: IntArray = np.bincount(self.unit, minlength=len(self.units))
        first = np.ones(self.unit.shape[0], dtype=bool)
        first[1:] = self.unit[1:] != self.unit[:-1]
        self._starts = np.flatnonzero(first)
        self._rated_units = self.unit[self._starts]
        self._bits: ByteArray = np.packbits(member, axis=1)

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
        u, r, c = sets.codes
        return cls(np.asarray(u), np.asarray(r), np.asarray(c), member, names, sets.raters,
                   sets.units)

    @property
    def n_units(self) -> int:
        """Number of units."""
        return len(self.units)

    @property
    def n_raters(self) -> int:
        """Number of raters."""
        return len(self.raters)

    @property
    def n_sets(self) -> int:
        """Number of distinct sets."""
        return int(self.member.shape[0])

    # ----------------------------------------------------------------- per unit
    def _per_unit(self, rows: NDArray[Any], reduce: Any, fill: int,
                  dtype: Any = None) -> NDArray[Any]:
        """``reduce`` of the rows of each unit's ratings, ``fill`` for units without any."""
        part = (reduce.reduceat(rows, self._starts, axis=0, dtype=dtype) if rows.shape[0]
                else rows.astype(dtype or rows.dtype))
        out = np.full((self.n_units, *rows.shape[1:]), fill, dtype=part.dtype)
        out[self._rated_units] = part
        return out

    def present_all(self) -> NDArray[np.int32]:
        """labels x units: how many raters gave each unit each label.

        One byte of label bits at a time is unpacked for every rating and summed per
        unit, so memory stays at ratings x 8 whatever the number of labels.
        """
        n_labels = len(self.labels)
        out = np.zeros((n_labels, self.n_units), dtype=np.int32)
        for b in range(self._bits.shape[1]):
            bits = np.unpackbits(self._bits[self.value, b][:, None], axis=1)
            counts = self._per_unit(bits, np.add, 0, dtype=np.int32)
            hi = min(8 * b + 8, n_labels)
            out[8 * b:hi] = counts[:, : hi - 8 * b].T
        return out

    def shared(self) -> BoolArray:
        """Per unit: do all its ratings share at least one label?"""
        common = self._per_unit(self._bits[self.value], np.bitwise_and, 0)
        return np.asarray(common.any(axis=1), dtype=bool)

    def rating_pairs(self) -> Iterator[tuple[IntArray, IntArray, IntArray]]:
        """Unit and set codes of every two ratings of one unit, in blocks (each pair once)."""
        n = self.unit.shape[0]
        d = 1
        while d < n:
            same = np.flatnonzero(self.unit[d:] == self.unit[:-d])
            if same.size == 0:
                return
            yield self.unit[same], self.value[same], self.value[same + d]
            d += 1

    def set_sizes(self) -> IntArray:
        """Number of labels in each distinct set."""
        return np.asarray(self.member.sum(axis=1), dtype=np.int64)

    def intersections(self, a: IntArray, b: IntArray) -> IntArray:
        """``|A & B|`` for the sets coded ``a[i]`` and ``b[i]`` (popcounts of the bits)."""
        return np.asarray(np.bitwise_count(self._bits[a] & self._bits[b]).sum(axis=1,
                                                                             dtype=np.int64))

    # ----------------------------------------------------------------- dense view
    def label_matrix(self, j: int) -> tuple[BoolArray, BoolArray]:
        """units x raters: (gave label ``j``, rated); the dense view, for coefficients that
        need each rater's identity."""
        shape = (self.n_units, self.n_raters)
        rated = np.zeros(shape, dtype=bool)
        rated[self.unit, self.rater] = True
        given = np.zeros(shape, dtype=bool)
        given[self.unit, self.rater] = self.member[self.value, j]
        return given, rated
