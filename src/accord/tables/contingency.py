"""The two-rater contingency table: the worksheet and the sufficient statistic.

Rows are the first rater's categories, columns the second's, both in the
``categories`` order. With ``k`` categories, the notation follows Fleiss,
Levin & Paik (2003, ch. 18): ``p_ij = n_ij / n``, marginals ``p_i+`` and
``p_+j``, observed agreement ``p_o = sum_i p_ii`` and Cohen's chance agreement
``p_e = sum_i p_i+ p_+i``.

Tables with very many categories (more than 2,000) are held sparse: unweighted
coefficients need only the diagonal and the marginals.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data._encoding import label_list
from accord.data._encoding import one_letter_labels as _letters
from accord.errors import DataError

DENSE_LIMIT = 2000

__all__ = ["ContingencyTable"]


class ContingencyTable:
    """Counts of (rater 1 category, rater 2 category) pairs.

    Parameters
    ----------
    counts : (k, k) array-like or scipy sparse matrix
        Non-negative counts (or sums of sample weights); rows are the first rater.
    categories : sequence, optional
        Labels of the k categories in order; default ``0 .. k-1``.

    Attributes
    ----------
    ordered : bool
        Whether the category order is a scale: true for a table given as counts
        (its rows are in the order given); for a table built from text labels
        whose order nobody declared, false, and weights then warn
        (:class:`~accord.UndeclaredOrderWarning`).

    Examples
    --------
    Cohen (1960, p. 45), as reproduced by Fleiss, Cohen & Everitt (1969):

    >>> t = ContingencyTable([[88, 14, 18], [10, 40, 10], [2, 6, 12]])
    >>> t.n, round(t.p_o, 4), round(t.p_e, 4)
    (200.0, 0.7, 0.41)
    """

    __slots__ = (
        "_dense", "_sparse", "categories", "_cells_fn", "unit_weights", "unit_ids", "ordered"
    )

    def __init__(self, counts: Any, categories: Sequence[Any] | None = None) -> None:
        if _is_sparse(counts):
            from scipy import sparse

            mat = sparse.csr_array(counts, dtype=np.float64)
            self._dense: NDArray[np.float64] | None = None
            self._sparse: Any = mat
            shape = mat.shape
            values = mat.data
        else:
            arr = _as_counts(counts)
            self._dense, self._sparse = arr, None
            shape, values = arr.shape, arr
        if len(shape) != 2 or shape[0] != shape[1]:
            raise DataError(
                f"a contingency table must be square (k x k); got shape {tuple(shape)}."
            )
        if not np.all(np.isfinite(values)) or (values.size and values.min() < 0):
            raise DataError("contingency table counts must be finite and non-negative.")
        with np.errstate(over="ignore"):
            total = float(np.sum(values))
        if total > 2.0**53:  # beyond this a float no longer holds every whole count
            raise DataError(f"contingency table counts sum to {total:.3g}, more than 2**53 "
                            "(about 9.0e15), beyond which counts are not exact; expected "
                            "counts of units (or weights on that scale).")
        k = shape[0]
        cats = tuple(range(k)) if categories is None else tuple(
            label_list(_letters(categories), param="categories"))
        if len(cats) != k:
            raise DataError(
                f"categories has {len(cats)} labels but the table is {k} x {k}; give one per row."
            )
        self.categories: tuple[Any, ...] = cats
        self._cells_fn: Callable[[], NDArray[np.int64]] | None = None
        self.unit_weights: NDArray[np.float64] | None = None
        self.unit_ids: tuple[Any, ...] | None = None
        # whether the category order is a scale (a table given as counts: its own order)
        self.ordered = True

    # ----------------------------------------------------------------- building
    @classmethod
    def from_codes(
        cls,
        a: NDArray[np.int64],
        b: NDArray[np.int64],
        categories: Sequence[Any],
        *,
        sample_weight: NDArray[np.float64] | None = None,
        unit_ids: Sequence[Any] | None = None,
    ) -> ContingencyTable:
        """Count paired category codes with one ``np.bincount`` (O(n))."""
        k = len(categories)
        if k <= DENSE_LIMIT:
            cells = a * k + b
            counts = np.bincount(cells, weights=sample_weight, minlength=k * k).reshape(k, k)
            table = cls(counts.astype(np.float64), categories)
            table._cells_fn = lambda: cells
        else:
            from scipy import sparse

            w = np.ones(a.shape[0]) if sample_weight is None else sample_weight
            table = cls(sparse.coo_array((w, (a, b)), shape=(k, k)).tocsr(), categories)
        table.unit_weights = sample_weight
        table.unit_ids = None if unit_ids is None else tuple(unit_ids)
        return table

    @classmethod
    def from_annotations(
        cls,
        annotations: Any,
        raters: Sequence[Any] | None = None,
        *,
        sample_weight: Any = None,
    ) -> ContingencyTable:
        """The table of two raters' labels on the units both rated.

        ``raters`` names the two raters (default: the first two). Units rated by
        only one of them are left out (the audit of the annotations says how many).
        """
        ann = annotations
        if raters is None:
            if ann.n_raters != 2:
                raise DataError(
                    f"a contingency table compares two raters; the data have {ann.n_raters} "
                    f"({list(ann.raters)!r}): name two with raters=[...]."
                )
            raters = ann.raters[:2]
        if len(raters) != 2:
            raise DataError(f"a contingency table needs exactly two raters; got {list(raters)!r}.")
        pair = ann.select(list(raters))
        wide = pair.wide()
        both = (wide[:, 0] >= 0) & (wide[:, 1] >= 0)
        if not both.any():
            raise DataError(f"no unit was rated by both {raters[0]!r} and {raters[1]!r}.")
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight, dtype=np.float64)
            if weights.shape != (wide.shape[0],):
                raise DataError(
                    f"sample_weight must have one weight per unit ({wide.shape[0]}); "
                    f"got shape {weights.shape}."
                )
            weights = weights[both]
        units = [u for u, keep in zip(pair.units, both) if keep]
        table = cls.from_codes(
            wide[both, 0], wide[both, 1], ann.categories, sample_weight=weights, unit_ids=units
        )
        table.ordered = ann.ordered
        return table

    def set_unit_cells(self, source: Callable[[], NDArray[np.int64]]) -> None:
        """Attach a (lazy) source of each unit's cell index ``i * k + j``."""
        self._cells_fn = source

    @property
    def unit_cells(self) -> NDArray[np.int64] | None:
        """Each unit's cell index ``i * k + j``, when the table was built from units."""
        return None if self._cells_fn is None else self._cells_fn()

    # ----------------------------------------------------------------- figures
    @property
    def k(self) -> int:
        """Number of categories."""
        return len(self.categories)

    @property
    def is_sparse(self) -> bool:
        """Whether the counts are held as a sparse matrix."""
        return self._sparse is not None

    @property
    def counts(self) -> NDArray[np.float64]:
        """The dense k x k counts (raises for a table too large to hold densely)."""
        if self._dense is not None:
            return self._dense
        if self.k > 20_000:
            raise DataError(
                f"the table has {self.k} categories; a dense {self.k} x {self.k} matrix would not "
                "fit in memory. Use an unweighted coefficient, which needs only the diagonal."
            )
        return np.asarray(self._sparse.toarray())

    @property
    def n(self) -> float:
        """Number of units (or total sample weight)."""
        return float(self._dense.sum() if self._dense is not None else self._sparse.sum())

    @property
    def row_totals(self) -> NDArray[np.float64]:
        """n_i+: the first rater's count per category."""
        m = self._dense if self._dense is not None else self._sparse
        return np.asarray(m.sum(axis=1), dtype=np.float64).reshape(-1)

    @property
    def col_totals(self) -> NDArray[np.float64]:
        """n_+j: the second rater's count per category."""
        m = self._dense if self._dense is not None else self._sparse
        return np.asarray(m.sum(axis=0), dtype=np.float64).reshape(-1)

    @property
    def diagonal(self) -> NDArray[np.float64]:
        """n_ii: agreements per category."""
        m = self._dense if self._dense is not None else self._sparse
        return np.asarray(m.diagonal(), dtype=np.float64)

    @property
    def p_o(self) -> float:
        """Observed (unweighted) agreement, sum_i p_ii; nan for an empty table."""
        n = self.n
        return float(self.diagonal.sum() / n) if n > 0 else float("nan")

    @property
    def p_e(self) -> float:
        """Cohen's chance agreement, sum_i p_i+ p_+i; nan for an empty table."""
        n = self.n
        return float(self.row_totals @ self.col_totals / n**2) if n > 0 else float("nan")

    @property
    def kappa(self) -> float:
        """Cohen's (unweighted) kappa of the worksheet, (p_o - p_e) / (1 - p_e); nan when
        p_e = 1 or the table is empty (no warning: :func:`accord.cohen_kappa` says why)."""
        po, pe = self.p_o, self.p_e
        return (po - pe) / (1.0 - pe) if 1.0 - pe > 1e-12 else float("nan")

    def __add__(self, other: ContingencyTable) -> ContingencyTable:
        """Tables from shards of the same units add up (same categories required)."""
        if not isinstance(other, ContingencyTable) or other.categories != self.categories:
            raise DataError("only contingency tables over the same categories can be added.")
        if self.is_sparse or other.is_sparse:
            from scipy import sparse

            a = self._sparse if self.is_sparse else sparse.csr_array(self.counts)
            b = other._sparse if other.is_sparse else sparse.csr_array(other.counts)
            out = ContingencyTable(a + b, self.categories)
        else:
            out = ContingencyTable(self.counts + other.counts, self.categories)
        out.ordered = self.ordered and other.ordered
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContingencyTable):
            return NotImplemented
        return self.categories == other.categories and bool(
            np.array_equal(self.counts, other.counts)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"ContingencyTable(k={self.k}, n={self.n:g}, categories={list(self.categories)[:6]!r})"
        )

    # ----------------------------------------------------------------- worksheet
    def worksheet(self, *, rater_names: tuple[str, str] = ("rater 1", "rater 2")) -> str:
        """The table with totals, p_o, p_e and Cohen's kappa, as plain text.

        Examples
        --------
        >>> print(ContingencyTable([[20, 5], [10, 15]], ["yes", "no"]).worksheet())
        rater 1 \\ rater 2   yes   no  total
        yes                  20    5     25
        no                   10   15     25
        total                30   20     50
        p_o = 0.7000   p_e = 0.5000   kappa = 0.4000
        """
        from accord.tables._worksheet import worksheet_text

        return worksheet_text(self, rater_names)

    def __rich__(self) -> Any:
        from accord.tables._worksheet import worksheet_rich

        return worksheet_rich(self, ("rater 1", "rater 2"))


def _as_counts(counts: Any) -> NDArray[np.float64]:
    try:
        arr = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError("contingency table counts must be numbers.") from None
    return arr


def _is_sparse(counts: Any) -> bool:
    """Whether ``counts`` is a scipy sparse matrix, without importing scipy.sparse: an
    object of that type cannot exist before the module is imported."""
    mod = sys.modules.get("scipy.sparse")
    return mod is not None and bool(mod.issparse(counts))
