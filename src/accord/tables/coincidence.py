"""Krippendorff's coincidences: the sufficient statistic of alpha.

Notation of Krippendorff (2011, "Computing Krippendorff's alpha-reliability",
section C): unit ``u`` carries ``m_u`` values, ``n_uc`` of them equal to value
``c``. Units with ``m_u >= 2`` are *pairable*; their coincidences are

    o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1),

with marginals ``n_c = sum_k o_ck`` and ``n = sum_c n_c`` pairable values.

A unit enters only through its *value-count vector* ``(n_u1, ..., n_uV)``, so
the matrix is held as the distinct vectors ("patterns") with how many units
show each: a sparse list of ``(value, count)`` entries per pattern. Everything
alpha needs (``n_c``, the diagonal ``o_cc``, per-unit contributions, the dense
``o_ck`` when it is small) is a weighted sum over those entries, and the
patterns are the unit of resampling. Nothing of size V x V is built unless asked
for, so continuous data (every value distinct) stay O(n).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data._encoding import label_list
from accord.errors import DataError
from accord.tables._coincidence_build import (
    _code_patterns,
    _count_matrix,
    _entries_from_counts,
    _numeric_2d,
    _numeric_codes,
    _numeric_or_none,
    _rated_columns,
    _small_int_patterns,
    _sparse_patterns,
    _unique_rows,
)

__all__ = ["DENSE_LIMIT", "CoincidenceMatrix"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: Largest number of values for which the dense V x V coincidences are built.
DENSE_LIMIT = 4096

#: Cells of a units x values (or units x raters) temporary that are always affordable;
#: above this, one is built only when it is at most 8 cells per rating.
_SMALL_CELLS = 1 << 22


class CoincidenceMatrix:
    """Krippendorff's coincidences ``o_ck`` and marginals ``n_c``, held as unit patterns.

    Build one with :meth:`from_annotations`, :meth:`from_array` (units x raters,
    NaN = missing), :meth:`from_counts` (units x values counts, as in
    :class:`~accord.RaterCounts`) or :meth:`from_table` (two raters). Shards of
    the same units' data over the same values add up with ``+``.

    Attributes
    ----------
    categories : tuple
        The values, in order (the order ordinal alpha uses).
    n_unpairable : int
        Units with a single value, which cannot be paired and are left out.
    n_raters : int
        Raters in the data (the most values any unit received, for counts).

    Examples
    --------
    Krippendorff (2011), example C (4 observers, 12 units; unit 12 unpairable):

    >>> import accord
    >>> cm = CoincidenceMatrix.from_annotations(
    ...     accord.datasets.load("krippendorff_2011").as_annotations())
    >>> cm.n, cm.n_units, cm.n_unpairable
    (40.0, 11, 1)
    >>> cm.marginals.tolist()
    [9.0, 13.0, 10.0, 5.0, 3.0]
    >>> round(float(cm.coincidences[0, 1]), 4)
    1.3333
    """

    __slots__ = (
        "_codes",
        "_counts",
        "_m",
        "_mult",
        "_pattern_of",
        "_ptr",
        "_values",
        "categories",
        "n_raters",
        "n_unpairable",
        "unit_ids",
        "unit_patterns",
    )

    def __init__(
        self,
        categories: Sequence[Any],
        ptr: IntArray,
        codes: IntArray,
        mult: IntArray,
        counts: IntArray,
        *,
        unit_patterns: IntArray | None = None,
        unit_ids: Sequence[Any] | None = None,
        n_unpairable: int = 0,
        n_raters: int = 2,
        values: FloatArray | None = None,
    ) -> None:
        self.categories: tuple[Any, ...] = tuple(categories)
        self._ptr = np.asarray(ptr, dtype=np.int64)
        self._codes = np.asarray(codes, dtype=np.int64)
        self._mult = np.asarray(mult, dtype=np.int64)
        self._counts = np.asarray(counts, dtype=np.int64)
        self._pattern_of = np.repeat(np.arange(self._counts.shape[0]), np.diff(self._ptr))
        self._m: FloatArray = np.bincount(
            self._pattern_of, weights=self._mult, minlength=self._counts.shape[0]
        ).astype(np.float64)
        self.unit_patterns = unit_patterns
        self.unit_ids: tuple[Any, ...] | None = None if unit_ids is None else tuple(unit_ids)
        self.n_unpairable = int(n_unpairable)
        self.n_raters = int(n_raters)
        self._values = values

    # ----------------------------------------------------------------- building
    @classmethod
    def from_annotations(cls, annotations: Any) -> CoincidenceMatrix:
        """The coincidences of :class:`~accord.Annotations` (any number of raters)."""
        from accord.data.annotations import Annotations

        if not isinstance(annotations, Annotations):
            raise DataError(
                "CoincidenceMatrix.from_annotations needs an accord.Annotations; "
                f"got {type(annotations).__name__}."
            )
        ann = annotations
        values = _numeric_or_none(ann.categories)
        units, rater_codes, value_codes = ann.codes
        used = int(np.count_nonzero(np.bincount(rater_codes, minlength=ann.n_raters)))
        n, k = ann.n_units, len(ann.categories)
        budget = max(8 * ann.n_ratings, _SMALL_CELLS)
        if n * k <= budget:
            # per-unit value counts n_uc: O(units x values), never units x raters
            counts = np.bincount(units * k + value_codes, minlength=n * k).reshape(n, k)
            return cls._from_count_rows(counts, ann.categories, values, ann.units, used)
        if n * ann.n_raters <= budget:
            return cls._from_codes(
                ann.wide(), ann.categories, values=values, unit_ids=ann.units, n_raters=used
            )
        ptr, codes, mult, n_per, inverse, m = _sparse_patterns(units, value_codes, n, k)
        keep = m >= 2
        return cls(
            ann.categories,
            ptr,
            codes,
            mult,
            n_per,
            unit_patterns=inverse,
            unit_ids=[u for u, kept in zip(ann.units, keep.tolist()) if kept],
            n_unpairable=int(np.sum(m == 1)),
            n_raters=used,
            values=values,
        )

    @classmethod
    def from_array(cls, data: Any) -> CoincidenceMatrix:
        """The coincidences of a numeric units x raters array (NaN = not rated).

        The fast path for large numeric data, never through Python objects. Small
        whole numbers (a rating scale) are read column by column straight into each
        unit's value-count key, with no units x raters temporary; other values are
        coded with one sort.

        Examples
        --------
        >>> cm = CoincidenceMatrix.from_array([[1, 1], [1, 2], [2, 2], [float("nan"), 1]])
        >>> cm.n, cm.n_unpairable, cm.categories
        (6.0, 1, (1.0, 2.0))
        """
        arr = _numeric_2d(data)
        fast = _small_int_patterns(arr)
        if fast is not None:
            values, ptr, codes, mult, n_per, inverse, n_unpairable = fast
            return cls(
                values.tolist(),
                ptr,
                codes,
                mult,
                n_per,
                unit_patterns=inverse,
                n_unpairable=n_unpairable,
                n_raters=_rated_columns(arr),
                values=values,
            )
        if np.isinf(arr).any():
            raise DataError("the data hold an infinite value; use NaN for a missing rating.")
        codes, values = _numeric_codes(arr)
        return cls._from_codes(codes, values.tolist(), values=values, n_raters=_rated_columns(arr))

    @classmethod
    def from_counts(cls, counts: Any, categories: Sequence[Any] | None = None) -> CoincidenceMatrix:
        """The coincidences of a units x values table of counts ``n_uc``.

        ``counts[u, c]`` is how many raters gave unit ``u`` value ``c`` (the
        :class:`~accord.RaterCounts` layout; Krippendorff 2011 calls it the
        values-by-units matrix). ``categories`` labels the columns (default 0..V-1).

        Examples
        --------
        >>> CoincidenceMatrix.from_counts([[2, 0], [1, 1], [0, 1]]).marginals.tolist()
        [3.0, 1.0]
        """
        x = _count_matrix(counts)
        cats = (
            list(range(x.shape[1]))
            if categories is None
            else label_list(categories, param="categories")
        )
        if len(cats) != x.shape[1]:
            raise DataError(
                f"categories has {len(cats)} labels but the counts have "
                f"{x.shape[1]} columns; give one label per column."
            )
        m = x.sum(axis=1)
        return cls._from_count_rows(x, cats, _numeric_or_none(cats), None,
                                    int(m.max()) if m.size else 0)

    @classmethod
    def _from_count_rows(
        cls,
        x: IntArray,
        categories: Sequence[Any],
        values: FloatArray | None,
        unit_ids: Sequence[Any] | None,
        n_raters: int,
    ) -> CoincidenceMatrix:
        """Patterns of a units x values count matrix (the order of ``_code_patterns``:
        both sort the count vectors as numbers in a base above every count)."""
        m = x.sum(axis=1)
        keep = m >= 2
        rows, n_per, inverse = _unique_rows(x[keep] if not keep.all() else x)
        ptr, codes, mult = _entries_from_counts(rows)
        ids = None
        if unit_ids is not None:
            ids = [u for u, kept in zip(unit_ids, keep.tolist()) if kept]
        return cls(
            categories,
            ptr,
            codes,
            mult,
            n_per,
            unit_patterns=inverse,
            unit_ids=ids,
            n_unpairable=int(np.sum(m == 1)),
            n_raters=n_raters,
            values=values,
        )

    @classmethod
    def from_table(cls, table: Any) -> CoincidenceMatrix:
        """The coincidences of a two-rater :class:`~accord.ContingencyTable`.

        Each cell ``(i, j)`` is a pattern: the ``n_ij`` units rated ``i`` and ``j``.
        """
        from accord.tables.contingency import ContingencyTable

        if not isinstance(table, ContingencyTable):
            raise DataError(
                "CoincidenceMatrix.from_table needs an accord.ContingencyTable; "
                f"got {type(table).__name__}."
            )
        counts = np.asarray(table.counts, dtype=np.float64)
        whole = np.rint(counts)
        if np.any(np.abs(counts - whole) > 1e-9):
            raise DataError(
                "Krippendorff's alpha needs a table of whole-number counts "
                "(units), not weighted counts."
            )
        k = counts.shape[0]
        flat = np.flatnonzero(whole.reshape(-1) > 0)
        i, j = flat // k, flat % k
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        same = lo == hi
        n_entries = np.where(same, 1, 2)
        ptr = np.concatenate([[0], np.cumsum(n_entries)]).astype(np.int64)
        codes = np.empty(int(ptr[-1]), dtype=np.int64)
        mult = np.ones(int(ptr[-1]), dtype=np.int64)
        codes[ptr[:-1]] = lo
        mult[ptr[:-1][same]] = 2
        codes[ptr[:-1][~same] + 1] = hi[~same]
        return cls(
            table.categories,
            ptr,
            codes,
            mult,
            whole.reshape(-1)[flat].astype(np.int64),
            n_raters=2,
            values=_numeric_or_none(table.categories),
        )

    @classmethod
    def _from_codes(
        cls,
        codes: IntArray,
        categories: Sequence[Any],
        *,
        values: FloatArray | None = None,
        unit_ids: Sequence[Any] | None = None,
        n_raters: int = 2,
    ) -> CoincidenceMatrix:
        """Patterns of a units x raters code matrix (``-1`` = not rated)."""
        k = len(categories)
        m = (codes >= 0).sum(axis=1)
        keep = m >= 2
        sub = codes[keep] if not keep.all() else codes
        ptr, ecodes, mult, n_per, inverse = _code_patterns(sub, k)
        ids = None
        if unit_ids is not None:
            ids = [u for u, kept in zip(unit_ids, keep.tolist()) if kept]
        return cls(
            categories,
            ptr,
            ecodes,
            mult,
            n_per,
            unit_patterns=inverse,
            unit_ids=ids,
            n_unpairable=int(np.sum(m == 1)),
            n_raters=n_raters,
            values=values,
        )

    def __add__(self, other: CoincidenceMatrix) -> CoincidenceMatrix:
        """Coincidences of disjoint sets of units (shards) over the same values add up."""
        if not isinstance(other, CoincidenceMatrix) or other.categories != self.categories:
            raise DataError("only coincidence matrices over the same values can be added.")
        ptr = np.concatenate([self._ptr, other._ptr[1:] + self._ptr[-1]])
        return CoincidenceMatrix(
            self.categories,
            ptr,
            np.concatenate([self._codes, other._codes]),
            np.concatenate([self._mult, other._mult]),
            np.concatenate([self._counts, other._counts]),
            n_unpairable=self.n_unpairable + other.n_unpairable,
            n_raters=max(self.n_raters, other.n_raters),
            values=self._values,
        )

    # ----------------------------------------------------------------- figures
    @property
    def k(self) -> int:
        """Number of values (categories)."""
        return len(self.categories)

    @property
    def n_units(self) -> int:
        """Number of pairable units (``m_u >= 2``)."""
        return int(self._counts.sum())

    @property
    def n_patterns(self) -> int:
        """Number of distinct per-unit value-count vectors."""
        return int(self._counts.shape[0])

    @property
    def n(self) -> float:
        """Number of pairable values, ``n = sum_u m_u``."""
        return float(self._counts @ self._m)

    @property
    def marginals(self) -> FloatArray:
        """``n_c``: pairable values per category."""
        w = self._mult * self._counts[self._pattern_of]
        return np.bincount(self._codes, weights=w, minlength=self.k).astype(np.float64)

    @property
    def diagonal(self) -> FloatArray:
        """``o_cc``: coincidences of a value with itself (matching pairs)."""
        mult = self._mult.astype(np.float64)
        w = self._counts[self._pattern_of] * mult * (mult - 1.0) / (self._m[self._pattern_of] - 1.0)
        return np.bincount(self._codes, weights=w, minlength=self.k).astype(np.float64)

    @property
    def coincidences(self) -> FloatArray:
        """The dense V x V coincidence matrix ``o_ck`` (raises when V is very large)."""
        k = self.k
        if k > DENSE_LIMIT:
            raise DataError(
                f"the data have {k} distinct values; a dense {k} x {k} coincidence matrix is not "
                "built. Alpha itself does not need it."
            )
        e1, e2 = self.entry_pairs()
        w = self.pair_weights(e1, e2)
        cells = self._codes[e1] * k + self._codes[e2]
        upper = np.bincount(cells, weights=w, minlength=k * k).reshape(k, k)
        return upper + upper.T + np.diag(self.diagonal)

    @property
    def expected(self) -> FloatArray:
        """Expected coincidences ``e_ck = n_c (n_k - [c = k]) / (n - 1)`` (dense, V x V)."""
        n_c = self.marginals
        with np.errstate(divide="ignore", invalid="ignore"):
            return (np.outer(n_c, n_c) - np.diag(n_c)) / (n_c.sum() - 1.0)

    def numeric_values(self) -> FloatArray | None:
        """The numeric value of each category, or ``None`` when they are not all numbers."""
        return self._values

    # ----------------------------------------------------------------- patterns
    @property
    def pattern_counts(self) -> IntArray:
        """How many units show each pattern."""
        return self._counts

    @property
    def pattern_sizes(self) -> FloatArray:
        """``m_j``: values per unit of each pattern."""
        return self._m

    @property
    def entries(self) -> tuple[IntArray, IntArray, IntArray]:
        """``(pattern, value code, count)`` of every non-zero ``n_uc`` of every pattern."""
        return self._pattern_of, self._codes, self._mult

    def entry_pairs(self) -> tuple[IntArray, IntArray]:
        """Indices ``(e1, e2)``, ``e1 < e2``, of every pair of entries of one pattern."""
        end = self._ptr[1:][self._pattern_of]
        cand = np.arange(self._codes.shape[0], dtype=np.int64)
        first: list[IntArray] = []
        second: list[IntArray] = []
        r = 1
        while cand.size:
            cand = cand[cand + r < end[cand]]
            first.append(cand)
            second.append(cand + r)
            r += 1
        if not first:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(first), np.concatenate(second)

    def pair_weights(self, e1: IntArray, e2: IntArray) -> FloatArray:
        """``count * n_uc * n_uk / (m_u - 1)``: each pair's total coincidence (one direction)."""
        p = self._pattern_of[e1]
        return self._counts[p] * (self._mult[e1] * self._mult[e2]) / (self._m[p] - 1.0)

    def __repr__(self) -> str:
        cats = list(self.categories)
        shown = f"{cats[:6]!r}{'...' if len(cats) > 6 else ''}"
        return (
            f"CoincidenceMatrix(n={self.n:g}, n_units={self.n_units}, "
            f"n_unpairable={self.n_unpairable}, categories={shown})"
        )
