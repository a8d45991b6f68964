"""Rater counts: how many raters put each unit in each category.

The units x categories matrix ``x_ik`` of Fleiss (1971) ("n_ij" there) and
Gwet (2014, ch. 2, "r_ik"): row ``i`` holds, for unit ``i``, the number of
raters who chose each category, and ``r_i = sum_k x_ik`` is the number of
ratings the unit received. It is the sufficient statistic of every
coefficient that ignores which rater gave which rating: Fleiss' kappa, Gwet's
AC1/AC2, Brennan-Prediger (Randolph's free-marginal kappa) and percent
agreement. Published multi-rater tables (Fleiss 1971, Table 1) are in this form.

A crowd with thousands of distinct labels (free-text answers, entity ids) has a
units x categories table that is almost all zeros: 10^4 units x 11,200 labels is
0.9 GB dense for 30,000 ratings. Counted from annotations past
:data:`SPARSE_FROM` cells (and more than eight per rating), the counts are held as
a CSR matrix (:attr:`RaterCounts.matrix`), in memory linear in the ratings; the
unweighted count-based coefficients read it as it is, and :attr:`RaterCounts.counts`
gives the dense array only up to :data:`DENSE_BUDGET` cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data._encoding import label_list
from accord.data._encoding import one_letter_labels as _letters
from accord.errors import BudgetError, DataError
from accord.inference.resampling import pattern_index

__all__ = ["RaterCounts"]

IntArray = NDArray[np.int64]
#: Counted from annotations, a table of more cells than this (and than eight per rating)
#: is held sparse.
SPARSE_FROM = 1 << 22
#: A sparse table gives its dense ``counts`` up to this many cells (256 MiB of int64).
DENSE_BUDGET = 1 << 25


class RaterCounts:
    """Units x categories counts of ratings.

    Parameters
    ----------
    counts : (n_units, n_categories) array-like
        Non-negative whole numbers: ``counts[i, k]`` raters put unit ``i`` in
        category ``k``. Rows may sum to different numbers (units rated by
        different numbers of raters). A pandas/polars frame's column names are
        used as the categories when ``categories`` is not given.
    categories : sequence, optional
        Labels of the columns, in order (weights use these positions);
        default ``0 .. n_categories - 1``.

    Attributes
    ----------
    ordered : bool
        Whether the category order is a scale: true for counts given by column;
        false when counted from text labels whose order nobody declared (weights
        and ordinal alpha then warn with :class:`~accord.UndeclaredOrderWarning`).

    Examples
    --------
    The first three patients of Fleiss (1971, Table 1), six psychiatrists each:

    >>> rc = RaterCounts([[0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1]])
    >>> rc.n_units, rc.n_ratings.tolist(), rc.category_totals.tolist()
    (3, [6, 6, 6], [0, 4, 4, 6, 4])
    """

    __slots__ = ("_counts", "_sparse", "categories", "unit_ids", "ordered")

    def __init__(self, counts: Any, categories: Sequence[Any] | None = None) -> None:
        if categories is None and hasattr(counts, "columns") and hasattr(counts, "to_numpy"):
            categories = list(counts.columns)
        arr = _validated(counts)
        cats = tuple(range(arr.shape[1])) if categories is None else tuple(
            label_list(_letters(categories), param="categories"))
        if len(cats) != arr.shape[1]:
            raise DataError(
                f"categories has {len(cats)} labels but the counts have {arr.shape[1]} "
                "columns; give one label per column."
            )
        if len(set(cats)) != len(cats):
            raise DataError(f"categories must be distinct; got {list(cats)!r}.")
        arr.flags.writeable = False
        self._counts: IntArray | None = arr
        self._sparse: Any = None
        self.categories: tuple[Any, ...] = cats
        self.unit_ids: tuple[Any, ...] | None = None
        # whether the category order is a scale (counts given by column: their order)
        self.ordered = True

    # ----------------------------------------------------------------- building
    @classmethod
    def from_annotations(cls, annotations: Any) -> RaterCounts:
        """Count :class:`~accord.Annotations` per unit and category.

        One ``np.bincount`` over the combined codes ``unit * k + value``, made once per
        Annotations (:meth:`~accord.Annotations.unit_counts`); every rater's rating
        counts once, whoever gave it.

        Examples
        --------
        >>> from accord import Annotations
        >>> ann = Annotations.from_wide([["a", "a", "b"], ["b", "b", None]])
        >>> RaterCounts.from_annotations(ann).counts.tolist()
        [[2, 1], [0, 2]]
        """
        units, _, values = annotations.codes
        k = len(annotations.categories)
        n = annotations.n_units
        if n * k > max(SPARSE_FROM, 8 * units.shape[0]):
            from scipy.sparse import csr_array

            m = csr_array((np.ones(units.shape[0], dtype=np.int64), (units, values)),
                          shape=(n, k))
            m.sum_duplicates()
            return cls._trusted(m, annotations.categories, annotations.units,
                                ordered=annotations.ordered)
        return cls._trusted(annotations.unit_counts(), annotations.categories,
                            annotations.units, ordered=annotations.ordered)

    @classmethod
    def from_codes(cls, codes: IntArray, categories: Sequence[Any],
                   unit_ids: Sequence[Any] | None = None, *,
                   complete: bool | None = None, ordered: bool = True) -> RaterCounts:
        """Count a units x raters matrix of category codes (``-1`` = not rated).

        ``complete=True`` promises there is no ``-1`` (skips one pass over the codes).
        """
        k = len(categories)
        n = codes.shape[0]
        rated = None if complete else codes >= 0
        if rated is None or rated.all():
            flat_codes = (np.arange(n, dtype=np.int64)[:, None] * k + codes).ravel()
        else:
            rows = np.nonzero(rated)[0]
            flat_codes = rows * k + codes[rated]
        flat = np.bincount(flat_codes, minlength=n * k)
        return cls._trusted(flat.reshape(n, k), categories, unit_ids, ordered=ordered)

    @classmethod
    def _trusted(cls, counts: Any, categories: Sequence[Any],
                 unit_ids: Sequence[Any] | None, *, ordered: bool = True) -> RaterCounts:
        """Wrap counts already known to be valid (no re-validation of large arrays); a
        scipy sparse matrix is kept sparse (CSR, duplicates summed)."""
        obj = cls.__new__(cls)
        obj._counts = obj._sparse = None
        if hasattr(counts, "tocsr"):
            obj._sparse = counts.tocsr()
        else:
            arr = np.asarray(counts, dtype=np.int64)
            arr.flags.writeable = False
            obj._counts = arr
        obj.categories = tuple(categories)
        obj.unit_ids = None if unit_ids is None else tuple(unit_ids)
        obj.ordered = ordered
        return obj

    # ----------------------------------------------------------------- views
    @property
    def counts(self) -> IntArray:
        """The (n_units, n_categories) counts (read-only), dense.

        Raises :class:`~accord.errors.BudgetError` for a sparse table past
        :data:`DENSE_BUDGET` cells (read :attr:`matrix` instead)."""
        if self._counts is not None:
            return self._counts
        n, k = self._sparse.shape
        if n * k > DENSE_BUDGET:
            raise BudgetError(
                f"the units x categories counts of {n:,} units and {k:,} categories are "
                f"{n * k:,} cells ({n * k * 8 / 2**30:.1f} GiB) dense, past the budget of "
                f"{DENSE_BUDGET:,} cells; the unweighted coefficients (Fleiss' kappa, Gwet's "
                "AC1, Krippendorff's alpha) work on the sparse counts, or merge rare labels "
                "into fewer categories.")
        arr = np.asarray(self._sparse.toarray(), dtype=np.int64)
        arr.flags.writeable = False
        return arr

    @property
    def is_sparse(self) -> bool:
        """Whether the counts are held as a sparse (CSR) matrix."""
        return self._sparse is not None

    @property
    def matrix(self) -> Any:
        """The counts as held: the dense array, or a scipy CSR matrix (:attr:`is_sparse`)."""
        return self._counts if self._sparse is None else self._sparse

    @property
    def n_units(self) -> int:
        """Number of rows (units), including any with no rating."""
        return int(self.matrix.shape[0])

    @property
    def n_categories(self) -> int:
        """Number of categories (columns)."""
        return int(self.matrix.shape[1])

    @property
    def n_ratings(self) -> IntArray:
        """Ratings per unit, ``r_i = sum_k x_ik``."""
        return np.asarray(self.matrix.sum(axis=1), dtype=np.int64).ravel()

    @property
    def category_totals(self) -> IntArray:
        """Ratings per category over all units."""
        return np.asarray(self.matrix.sum(axis=0), dtype=np.int64).ravel()

    @property
    def n_raters(self) -> int:
        """The largest number of ratings any unit received (raters are not identified)."""
        return int(self.n_ratings.max()) if self.n_units else 0

    def rated(self) -> RaterCounts:
        """The same counts without the units that no rater rated."""
        keep = self.n_ratings > 0
        if keep.all():
            return self
        ids = None if self.unit_ids is None else [u for u, k in zip(self.unit_ids, keep) if k]
        rows = self.matrix[np.flatnonzero(keep)] if self.is_sparse else self.matrix[keep]
        return RaterCounts._trusted(rows, self.categories, ids,
                                    ordered=self.ordered)

    def patterns(self) -> tuple[IntArray, IntArray, IntArray]:
        """The distinct count rows, how many units show each, and each unit's pattern index.

        Rows are encoded as one integer (mixed radix) when that fits in 63 bits,
        so finding the patterns is a 1-D sort rather than a row-wise one.
        """
        x = self.counts
        if x.shape[0] == 0:
            return x, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        base = int(x.max()) + 1
        if x.shape[1] * np.log2(max(base, 2)) < 62:
            radix = base ** np.arange(x.shape[1], dtype=np.int64)
            keys = x @ radix
            _, first, inverse, counts = np.unique(
                keys, return_index=True, return_inverse=True, return_counts=True
            )
            return x[first], counts.astype(np.int64), inverse.reshape(-1).astype(np.int64)
        rows, counts, inverse = pattern_index(x)
        return np.asarray(rows, dtype=np.int64), counts, inverse

    def __repr__(self) -> str:
        cats = list(self.categories)
        shown = f"{cats[:8]!r}{'...' if len(cats) > 8 else ''}"
        return f"RaterCounts(n_units={self.n_units}, categories={shown})"


def _validated(counts: Any) -> IntArray:
    """Counts as int64 after checking shape, sign and wholeness (one sentence each)."""
    if hasattr(counts, "to_numpy") and not isinstance(counts, np.ndarray):
        counts = counts.to_numpy()
    try:
        arr = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(
            "RaterCounts needs a units x categories table of numbers; got values that are "
            "not numbers."
        ) from None
    if arr.ndim != 2:
        raise DataError(
            f"RaterCounts needs a 2-D units x categories table; got an array of shape {arr.shape}."
        )
    if arr.shape[1] == 0:
        raise DataError("RaterCounts needs at least one category column.")
    if not np.all(np.isfinite(arr)) or (arr.size and arr.min() < 0):
        raise DataError("rater counts must be finite and non-negative.")
    if not np.array_equal(arr, np.round(arr)):
        row = int(np.flatnonzero((arr != np.round(arr)).any(axis=1))[0])
        raise DataError(
            f"rater counts must be whole numbers (each row sums to a whole number of raters); "
            f"row {row + 1} is {arr[row].tolist()!r}."
        )
    return arr.astype(np.int64)
