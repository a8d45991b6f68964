"""Numeric scores of units by raters: the sufficient statistic of the intraclass correlations.

The two-way ANOVA of Shrout & Fleiss (1979) and McGraw & Wong (1996) needs only
sums over units of per-unit quantities (the unit's count, sum and within-unit sum
of squares) and over raters (each rater's count and sum), plus, for incomplete
designs, one reduction for raters after targets. A :class:`RatingMatrix` keeps the
scores as long arrays (unit, rater, score) and computes all of it in
``O(ratings)`` (:mod:`accord.tables._henderson`), never a units x raters matrix
unless :attr:`RatingMatrix.values` is asked for. The sums are computed once per
matrix (:meth:`RatingMatrix.design`), so the six ICC forms share them.

Complete designs (every rater scores every unit) give the textbook mean squares
for targets (``MSR``), raters (``MSC``), error (``MSE``) and within targets
(``MSW``). Incomplete designs use the same quantities generalised to unbalanced
data: the one-way ANOVA with unequal group sizes (``MSW`` and the mean group
size ``n0 = (N - sum n_i^2 / N) / (n - 1)``; Searle, Casella & McCulloch 1992,
sec. 3.6) and, for the two-way model, Henderson's Method III reductions (Searle
et al. 1992, sec. 5.5): ``R(targets | raters)``, ``R(raters | targets)`` and the
residual of the additive model, which are also the type II sums of squares of
an OLS ANOVA. ``R(targets | raters) = R(targets) + R(raters | targets) - R(raters)``.
With 0/1 cells their expectations are
``E R(t | r) = (n - 1) s2_e + (N - k) s2_t`` and ``E R(r | t) = (k - 1) s2_e + (N - n) s2_r``
(``tr(Z_t' M_r Z_t) = N - sum_j sum_i n_ij^2 / n_.j = N - k``); on complete data all
of this reduces to the textbook values.

Resampling (:mod:`accord.inference.resampling`) needs the same mean squares as
functions of *summed per-unit features* (:func:`mean_squares`): the unit's sums,
its centred scores and, on incomplete designs, which raters scored it and their
outer product over ``n_i``, ``6 + 3 k + k^2`` numbers per unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data._encoding import label_list
from accord.data._magnitude import power_of_two_scale
from accord.errors import DataError, InsufficientDataError
from accord.tables._henderson import LongSums, is_grid, kept, long_sums, unit_features

__all__ = ["MeanSquares", "RatingMatrix"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class MeanSquares:
    """Mean squares and design constants, each of shape ``(B,)`` (one row per sample).

    ``ms_rows`` (targets, adjusted for raters), ``ms_cols`` (raters, adjusted for
    targets), ``ms_error`` (additive two-way residual), ``ms_within`` (one-way,
    within targets); ``k_rows`` and ``k_cols`` are the coefficients of the target and
    rater variances in ``E ms_rows`` and ``E ms_cols``; ``n0`` is the mean group size
    of the one-way ANOVA; ``df_*`` are the degrees of freedom.
    """

    ms_rows: FloatArray
    ms_cols: FloatArray
    ms_error: FloatArray
    ms_within: FloatArray
    ms_between: FloatArray
    k_rows: FloatArray
    k_cols: FloatArray
    n0: FloatArray
    df_rows: FloatArray
    df_cols: FloatArray
    df_error: FloatArray
    df_within: FloatArray


class RatingMatrix:
    """Numeric scores of units (targets) by raters, ``NaN`` = not rated.

    Parameters
    ----------
    values : (n_units, n_raters) array-like of numbers
        Scores; ``None``/``NaN`` is a missing rating.
    raters, units : sequence, optional
        Labels of the columns and rows.

    Notes
    -----
    :meth:`from_annotations` keeps the ratings as long arrays, so a crowd of
    thousands of raters costs memory in proportion to its ratings; only
    :attr:`values` builds the units x raters matrix.

    Examples
    --------
    Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges.

    >>> import accord
    >>> rm = RatingMatrix(accord.datasets.load("shrout_fleiss_1979").data)
    >>> rm.n_units, rm.n_raters, rm.n_ratings, rm.complete
    (6, 4, 24, True)
    """

    __slots__ = ("_cells", "_design", "_shape", "_values", "raters", "units")

    def __init__(self, values: Any, *, raters: Sequence[Any] | None = None,
                 units: Sequence[Any] | None = None) -> None:
        arr = _float_matrix(values)
        arr.flags.writeable = False
        self._values: FloatArray | None = arr
        self._cells: tuple[IntArray, IntArray, FloatArray] | None = None
        self._shape = (int(arr.shape[0]), int(arr.shape[1]))
        self._design: Design | None = None
        self.raters: tuple[Any, ...] = tuple(
            label_list(raters, param="raters") if raters is not None
            else (f"rater_{j + 1}" for j in range(arr.shape[1])))
        self.units: tuple[Any, ...] | None = None if units is None else tuple(
            label_list(units, param="units"))
        if len(self.raters) != arr.shape[1]:
            raise DataError(f"raters has {len(self.raters)} labels for {arr.shape[1]} columns.")
        if self.units is not None and len(self.units) != arr.shape[0]:
            raise DataError(f"units has {len(self.units)} labels for {arr.shape[0]} rows.")

    @classmethod
    def _from_cells(cls, unit: IntArray, rater: IntArray, score: FloatArray,
                    shape: tuple[int, int], raters: tuple[Any, ...],
                    units: tuple[Any, ...] | None) -> RatingMatrix:
        """From long arrays with at most one score per (unit, rater); labels trusted."""
        rm = cls.__new__(cls)
        for a in (unit, rater, score):
            a.flags.writeable = False
        rm._values, rm._cells, rm._shape, rm._design = None, (unit, rater, score), shape, None
        rm.raters, rm.units = raters, units
        return rm

    @classmethod
    def from_annotations(cls, annotations: Any) -> RatingMatrix:
        """Scores from :class:`~accord.Annotations` whose values are numbers (long arrays,
        no units x raters matrix)."""
        ann = annotations
        try:
            numbers = np.asarray(ann.categories, dtype=np.float64)
        except (TypeError, ValueError):
            bad = next(c for c in ann.categories if not _is_number(c))
            raise DataError(f"intraclass correlations need numeric ratings, but the data "
                            f"include {bad!r}, which is not a number.") from None
        if np.isinf(numbers).any():
            raise DataError("ratings hold an infinite value; use NaN for a missing rating.")
        unit, rater, value = ann.codes
        score = numbers[value]
        if np.isnan(numbers).any():  # a NaN label is a missing rating
            rated = ~np.isnan(score)
            unit, rater, score = unit[rated], rater[rated], score[rated]
        return cls._from_cells(unit, rater, score, (ann.n_units, ann.n_raters),
                               tuple(ann.raters), tuple(ann.units))

    # ----------------------------------------------------------------- views
    @property
    def values(self) -> FloatArray:
        """The (n_units, n_raters) scores, ``NaN`` = not rated (read-only; built on first
        use from long data, at ``n_units x n_raters x 8`` bytes)."""
        if self._values is None:
            unit, rater, score = self.cells
            dense = np.full(self._shape, np.nan)
            dense[unit, rater] = score
            dense.flags.writeable = False
            self._values = dense
        return self._values

    @property
    def cells(self) -> tuple[IntArray, IntArray, FloatArray]:
        """The ratings as long arrays: unit index, rater index, score (read-only)."""
        if self._cells is None:
            x = self.values
            n, k = self._shape
            if self.complete:  # every cell, unit-major: the matrix read row by row
                unit = np.repeat(np.arange(n, dtype=np.int64), k)
                rater = np.tile(np.arange(k, dtype=np.int64), n)
                score = x.reshape(-1)
            else:
                rows, cols = np.nonzero(~np.isnan(x))
                unit, rater = rows.astype(np.int64), cols.astype(np.int64)
                score = x[rows, cols]
            for a in (unit, rater, score):
                a.flags.writeable = False
            self._cells = (unit, rater, score)
        return self._cells

    @property
    def n_units(self) -> int:
        """Number of rows (units, targets)."""
        return self._shape[0]

    @property
    def n_raters(self) -> int:
        """Number of columns (raters)."""
        return self._shape[1]

    @property
    def n_ratings(self) -> int:
        """Number of scores (cells that are not ``NaN``)."""
        return int(self.cells[2].size)

    @property
    def complete(self) -> bool:
        """Whether every rater scored every unit."""
        if self._cells is None and self._values is not None:
            return not bool(np.isnan(self._values).any())
        return self.n_ratings == self.n_units * self.n_raters

    def rated(self, minimum: int = 2) -> RatingMatrix:
        """Units with at least ``minimum`` scores and raters with at least one of them."""
        unit, rater, score = self.cells
        keep = kept(unit, rater, self._shape, minimum)
        if keep is None:
            return self
        unit, rater, score, kept_units, kept_raters = keep.apply(unit, rater, score)
        units = None if self.units is None else tuple(self.units[i] for i in kept_units)
        return RatingMatrix._from_cells(unit, rater, score, (kept_units.size, kept_raters.size),
                                        tuple(self.raters[j] for j in kept_raters), units)

    # ----------------------------------------------------------------- statistics
    def design(self) -> Design:
        """The units with two or more scores and the raters who scored them, with every
        ANOVA sum; computed once per matrix, so several ICC forms share it."""
        if self._design is None:
            self._design = Design.of(*self.cells, self._shape)
        return self._design

    def features(self) -> tuple[FloatArray, int]:
        """Per-unit features whose sums give every mean square, and the number of raters.

        Columns: ``1, n_i, n_i^2, S_i, S_i^2 / n_i, W_i`` (count, ratings, their
        square, sum, squared sum over count, within-unit sum of squares) and the
        unit's centred scores (0 where missing); incomplete designs add which raters
        scored the unit, ``S_i / n_i`` times that indicator and its outer product
        over ``n_i``. Scores are centred at the grand mean first. This is a units x
        raters (or units x raters^2) array: resampling uses it, the estimate does not.
        """
        unit, rater, score = self.cells
        z = score - score.mean() if score.size else score
        return unit_features(unit, rater, z, *self._shape, self.complete), self.n_raters

    def feature_sums(self) -> FloatArray:
        """The column sums of :meth:`features` (the incomplete layout has a raters x raters
        block, formed here from sparse products)."""
        from accord.tables._henderson import gram

        unit, rater, score = self.cells
        n, k = self._shape
        z = score - score.mean() if score.size else score
        sums = long_sums(unit, rater, z, n, k, complete=True)
        out = np.concatenate([sums.head, sums.z_col])
        if self.complete:
            return out
        n_i = np.bincount(unit, minlength=n).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.bincount(unit, weights=z, minlength=n) / n_i
        ncol_mean = np.bincount(rater, weights=mean[unit], minlength=k)
        return np.concatenate([out, sums.n_col, ncol_mean, gram(unit, rater, n_i, k).ravel()])


class Design:
    """The data an ICC is computed from: units with two or more scores, the raters who
    scored them, centred (and scaled by a power of two when extreme), as long arrays."""

    def __init__(self, unit: IntArray, rater: IntArray, z: FloatArray, n: int, k: int,
                 kept_units: IntArray | None, dropped: int, scale: float) -> None:
        self.unit, self.rater, self.z = unit, rater, z
        self.n_units, self.n_raters = n, k
        self.kept_units, self.dropped, self.scale = kept_units, dropped, scale
        self.grid = is_grid(unit, rater, n, k)

    @classmethod
    def of(cls, unit: IntArray, rater: IntArray, score: FloatArray,
           shape: tuple[int, int]) -> Design:
        """The design of long arrays of a ``shape`` (units, raters) matrix."""
        # the largest |score| is at the minimum or the maximum: no copy of the scores
        scale = power_of_two_scale(np.array([score.min(), score.max()]) if score.size else score)
        if scale != 1.0:  # ICC is unchanged by scaling; sums of squares must not overflow
            score = score * scale
        keep = kept(unit, rater, shape, 2)
        kept_units = None
        n, k = shape
        if keep is not None:
            unit, rater, score, kept_units, kept_raters = keep.apply(unit, rater, score)
            n, k = kept_units.size, kept_raters.size
        z = score - score.mean() if score.size else score
        return cls(unit, rater, z, n, k, kept_units, shape[0] - n, scale)

    @property
    def complete(self) -> bool:
        """Whether every remaining rater scored every remaining unit."""
        return int(self.z.size) == self.n_units * self.n_raters

    @cached_property
    def sums(self) -> LongSums:
        """Every sum the six forms need (one pass over the ratings)."""
        return long_sums(self.unit, self.rater, self.z, self.n_units, self.n_raters,
                         self.complete, grid=self.grid)

    @cached_property
    def mean_squares(self) -> MeanSquares:
        """The ANOVA of the whole sample."""
        s = self.sums
        return anova(s.head[None, :], s.z_col[None, :], s.n_col[None, :],
                     np.array([s.ssc]), self.n_raters, self.complete)

    def feature_width(self, one_way: bool) -> int:
        """The number of per-unit features :meth:`features` gives."""
        k = self.n_raters
        return 6 if one_way else 6 + k if self.complete else 6 + 3 * k + k * k

    def features(self, one_way: bool) -> FloatArray:
        """Per-unit features (the layout of :meth:`RatingMatrix.features`; the first six
        columns only with ``one_way``)."""
        if self.grid and not one_way:
            z = self.z.reshape(self.n_units, self.n_raters)
            mean = z.mean(axis=1)
            dev = z - mean[:, None]
            n_i = np.full(self.n_units, float(self.n_raters))
            head = np.column_stack([np.ones_like(n_i), n_i, n_i**2, z.sum(axis=1),
                                    z.sum(axis=1) * mean, np.einsum("ij,ij->i", dev, dev)])
            return np.column_stack([head, z])
        return unit_features(self.unit, self.rater, self.z, self.n_units, self.n_raters,
                             self.complete, one_way=one_way)


def mean_squares(s: FloatArray, k: int, complete: bool) -> MeanSquares:
    """The ANOVA of summed features ``s`` (shape ``(B, p)``), vectorised over rows."""
    head, z_col = s[:, :6], s[:, 6:6 + k]
    if complete:
        return anova(head, z_col, None, None, k, True)
    n_col = s[:, 6 + k:6 + 2 * k]
    q = z_col - s[:, 6 + 2 * k:6 + 3 * k]
    c = -s[:, 6 + 3 * k:].reshape(-1, k, k)
    c[:, np.arange(k), np.arange(k)] += n_col
    return anova(head, z_col, n_col, _reduction(c, q), k, False)


def one_way_mean_squares(head: FloatArray) -> MeanSquares:
    """The one-way ANOVA of the first six summed features (the two-way fields are nan)."""
    n, big_n, sum_n2, total, sum_s2n, ssw = (head[:, j] for j in range(6))
    ssb = _exact_zero(sum_s2n - total**2 / big_n, sum_s2n)
    nan = np.full_like(n, np.nan)
    df_rows, df_within = n - 1.0, big_n - n
    with np.errstate(divide="ignore", invalid="ignore"):
        return MeanSquares(
            ms_rows=nan, ms_cols=nan, ms_error=nan, ms_within=ssw / df_within,
            ms_between=ssb / df_rows, k_rows=nan, k_cols=nan,
            n0=(big_n - sum_n2 / big_n) / df_rows, df_rows=df_rows, df_cols=nan,
            df_error=nan, df_within=df_within)


def anova(head: FloatArray, z_col: FloatArray, n_col: FloatArray | None,
          ssc: FloatArray | None, k: int, complete: bool) -> MeanSquares:
    """Mean squares from the summed unit sums ``head`` (``(B, 6)``), rater sums ``z_col``
    and counts ``n_col`` (``(B, k)``) and, for incomplete designs, ``R(raters | targets)``."""
    n, big_n, sum_n2, total, sum_s2n, ssw = (head[:, j] for j in range(6))
    ssb = _exact_zero(sum_s2n - total**2 / big_n, sum_s2n)
    if complete or n_col is None or ssc is None:
        col_sq = np.einsum("bj,bj->b", z_col, z_col) / n
        ssc = _exact_zero(col_sq - total**2 / big_n, col_sq)
        ss_rows, k_rows, k_cols = ssb, np.full_like(n, float(k)), n.copy()
    else:
        marg = np.einsum("bj,bj->b", z_col, z_col / np.where(n_col > 0, n_col, 1.0))
        # R(t | r) = R(t) + R(r | t) - R(r), its rounding noise set to 0 as for ssb
        ss_rows = _exact_zero(ssb + ssc - (marg - total**2 / big_n),
                              np.maximum(np.maximum(np.abs(ssb), np.abs(ssc)), np.abs(marg)))
        k_rows = (big_n - k) / (n - 1.0)
        k_cols = (big_n - n) / (k - 1.0)
    sse = np.maximum(_exact_zero(ssw - ssc, ssw), 0.0)
    df_rows, df_cols = n - 1.0, np.full_like(n, k - 1.0)
    df_error = big_n - n - k + 1.0
    df_within = big_n - n
    with np.errstate(divide="ignore", invalid="ignore"):
        return MeanSquares(
            ms_rows=ss_rows / df_rows, ms_cols=ssc / df_cols, ms_error=sse / df_error,
            ms_within=ssw / df_within, ms_between=ssb / df_rows, k_rows=k_rows,
            k_cols=k_cols, n0=(big_n - sum_n2 / big_n) / df_rows, df_rows=df_rows,
            df_cols=df_cols, df_error=df_error, df_within=df_within,
        )


def _exact_zero(difference: FloatArray, scale: FloatArray) -> FloatArray:
    """A sum of squares got by subtraction, with rounding noise (relative 1e-12 of the
    larger term) set to the 0 it is: otherwise 1e-16 / 2e-16 turns an ICC that is 0/0
    into -0.5, or not, depending on a shift of the scores."""
    return np.where(np.abs(difference) <= 1e-12 * np.abs(scale), 0.0, difference)


def _reduction(c: FloatArray, q: FloatArray) -> FloatArray:
    """``R(raters | targets) = b' q`` with ``C b = q`` (last rater effect fixed at 0), for
    each of a batch of resampled ``C`` (a disconnected resample gives ``nan``)."""
    k = q.shape[1]
    out = np.full(q.shape[0], np.nan)
    cc, qq = c[:, : k - 1, : k - 1], q[:, : k - 1]
    if k == 1:
        return np.zeros(q.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = np.linalg.cond(cc) < 1e12  # a disconnected design leaves C singular
    if ok.any():
        b = np.linalg.solve(cc[ok], qq[ok][:, :, None])[:, :, 0]
        out[ok] = np.einsum("bj,bj->b", b, qq[ok])
    return out


def _float_matrix(values: Any) -> FloatArray:
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        values = values.to_numpy()
    if not isinstance(values, np.ndarray):
        values = [[np.nan if v is None else v for v in row] for row in values]
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError("ratings must be numbers (units x raters, NaN = not rated).") from None
    if arr.ndim != 2:
        raise DataError(f"ratings must be a 2-D units x raters table; got shape {arr.shape}.")
    if np.isinf(arr).any():
        raise DataError("ratings hold an infinite value; use NaN for a missing rating.")
    return arr


def _is_number(x: Any) -> bool:
    try:
        float(x)
    except (TypeError, ValueError):
        return False
    return not isinstance(x, bool)


def require_design(rm: RatingMatrix | Design) -> None:
    """Raise unless two raters and two units with two scores each remain."""
    if rm.n_raters == 0 or (rm.n_units == 0 and rm.n_raters >= 2):
        raise InsufficientDataError(
            "no unit was rated by two or more raters (or the data hold no ratings), so there "
            "is nothing to compare."
        )
    if rm.n_raters < 2:
        raise InsufficientDataError(
            f"intraclass correlations need at least two raters; the data have {rm.n_raters}."
        )
    if rm.n_units < 2:
        raise InsufficientDataError(
            "intraclass correlations need at least two units rated by two or more raters; "
            f"the data have {rm.n_units}."
        )
