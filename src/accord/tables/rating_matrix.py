"""Units x raters numeric scores: the sufficient statistic of the intraclass correlations.

The two-way ANOVA of Shrout & Fleiss (1979) and McGraw & Wong (1996) needs only
sums over units of per-unit quantities (the unit's sum, within-unit sum of
squares, its centred scores, which raters scored it), so every mean square is a
function of *summed per-unit features*, which is also what resampling needs
(:mod:`accord.inference.resampling`).

Complete designs (every rater scores every unit) give the textbook mean squares
for targets (``MSR``), raters (``MSC``), error (``MSE``) and within targets
(``MSW``). Incomplete designs use the same quantities generalised to unbalanced
data: the one-way ANOVA with unequal group sizes (``MSW`` and the mean group
size ``n0 = (N - sum n_i^2 / N) / (n - 1)``; Searle, Casella & McCulloch 1992,
sec. 3.6) and, for the two-way model, Henderson's Method III reductions (Searle
et al. 1992, sec. 5.5): ``R(targets | raters)``, ``R(raters | targets)`` and the
residual of the additive model, which are also the type II sums of squares of
an OLS ANOVA. With 0/1 cells their expectations are
``E R(t | r) = (n - 1) s2_e + (N - k) s2_t`` and ``E R(r | t) = (k - 1) s2_e + (N - n) s2_r``;
on complete data all of this reduces to the textbook values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord._encoding import label_list
from accord.errors import DataError, InsufficientDataError

__all__ = ["MeanSquares", "RatingMatrix"]

FloatArray = NDArray[np.float64]


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

    Examples
    --------
    Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges.

    >>> import accord
    >>> rm = RatingMatrix(accord.datasets.load("shrout_fleiss_1979").data)
    >>> rm.n_units, rm.n_raters, rm.complete
    (6, 4, True)
    """

    __slots__ = ("_sums", "_values", "raters", "units")

    def __init__(self, values: Any, *, raters: Sequence[Any] | None = None,
                 units: Sequence[Any] | None = None) -> None:
        arr = _float_matrix(values)
        arr.flags.writeable = False
        self._values = arr
        self._sums: FloatArray | None = None
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
    def from_annotations(cls, annotations: Any) -> RatingMatrix:
        """Scores from :class:`~accord.Annotations` whose values are numbers."""
        ann = annotations
        try:
            numbers = np.asarray(ann.categories, dtype=np.float64)
        except (TypeError, ValueError):
            bad = next(c for c in ann.categories if not _is_number(c))
            raise DataError(f"intraclass correlations need numeric ratings, but the data "
                            f"include {bad!r}, which is not a number.") from None
        codes = ann.wide()
        lookup = np.append(numbers, np.nan)
        return cls(lookup[codes], raters=ann.raters, units=ann.units)

    # ----------------------------------------------------------------- views
    @property
    def values(self) -> FloatArray:
        """The (n_units, n_raters) scores, ``NaN`` = not rated (read-only)."""
        return self._values

    @property
    def n_units(self) -> int:
        """Number of rows (units, targets)."""
        return int(self._values.shape[0])

    @property
    def n_raters(self) -> int:
        """Number of columns (raters)."""
        return int(self._values.shape[1])

    @property
    def complete(self) -> bool:
        """Whether every rater scored every unit."""
        return not bool(np.isnan(self._values).any())

    def rated(self, minimum: int = 2) -> RatingMatrix:
        """Units with at least ``minimum`` scores and raters with at least one of them."""
        x = self._values
        missing = np.isnan(x)
        if not missing.any():
            return self if x.shape[1] >= minimum else RatingMatrix(x[:0], raters=self.raters)
        keep_rows = (~missing).sum(axis=1) >= minimum
        x = x[keep_rows]
        keep_cols = (~np.isnan(x)).any(axis=0)
        units = None if self.units is None else [u for u, k in zip(self.units, keep_rows) if k]
        return RatingMatrix(x[:, keep_cols], units=units,
                            raters=[r for r, k in zip(self.raters, keep_cols) if k])

    # ----------------------------------------------------------------- features
    def features(self) -> tuple[FloatArray, int]:
        """Per-unit features whose sums give every mean square, and the centre used.

        Columns: ``1, n_i, n_i^2, S_i, S_i^2 / n_i, W_i`` (count, ratings, their
        square, sum, squared sum over count, within-unit sum of squares) and the
        unit's centred scores (0 where missing); incomplete designs add which raters
        scored the unit, ``S_i / n_i`` times that indicator and its outer product
        over ``n_i``. Scores are centred at the grand mean first.
        """
        k = self.n_raters
        z, rated, n_i, s, mean, within = self._parts()
        cols = [np.ones_like(n_i), n_i, n_i**2, s, s * mean, within]
        feats = np.column_stack([*cols, z])
        if rated is None:
            return feats, k
        r = rated.astype(np.float64)
        outer = (r[:, :, None] * r[:, None, :]).reshape(-1, k * k) / n_i[:, None]
        return np.column_stack([feats, r, mean[:, None] * r, outer]), k

    def feature_sums(self) -> FloatArray:
        """The column sums of :meth:`features`, without building the per-unit matrix.

        Computed once per matrix (the scores are read-only), so several ICC forms of one
        :class:`RatingMatrix` share the ANOVA.
        """
        if self._sums is None:
            self._sums = self._feature_sums()
        return self._sums.copy()

    def _feature_sums(self) -> FloatArray:
        z, rated, n_i, s, mean, within = self._parts()
        head = [float(n_i.size), n_i.sum(), n_i @ n_i, s.sum(), s @ mean, within.sum()]
        out = np.concatenate([head, z.sum(axis=0)])
        if rated is None:
            return out
        r = rated.astype(np.float64)
        return np.concatenate([out, r.sum(axis=0), mean @ r, ((r / n_i[:, None]).T @ r).ravel()])

    def _parts(self) -> tuple[FloatArray, NDArray[np.bool_] | None, FloatArray, FloatArray,
                              FloatArray, FloatArray]:
        """Centred scores (0 = missing), the rated mask (None if complete), n_i, S_i,
        the unit means and the within-unit sums of squares."""
        x = self._values
        missing = np.isnan(x)
        if not missing.any():
            z = x - x.mean()
            n_i = np.full(x.shape[0], float(x.shape[1]))
            s = z.sum(axis=1)
            mean = s / n_i
            dev = z - mean[:, None]
            return z, None, n_i, s, mean, np.einsum("ij,ij->i", dev, dev)
        rated = ~missing
        z = np.where(rated, x - np.nanmean(x), 0.0)
        n_i = rated.sum(axis=1).astype(np.float64)
        s = z.sum(axis=1)
        mean = s / n_i
        dev = np.where(rated, z - mean[:, None], 0.0)
        return z, rated, n_i, s, mean, np.einsum("ij,ij->i", dev, dev)


def mean_squares(s: FloatArray, k: int, complete: bool) -> MeanSquares:
    """The ANOVA of summed features ``s`` (shape ``(B, p)``), vectorised over rows."""
    n, big_n, sum_n2, total, sum_s2n, ssw = (s[:, j] for j in range(6))
    z_col = s[:, 6:6 + k]
    ssb = _exact_zero(sum_s2n - total**2 / big_n, sum_s2n)
    if complete:
        col_sq = np.einsum("bj,bj->b", z_col, z_col) / n
        ssc = _exact_zero(col_sq - total**2 / big_n, col_sq)
        k_rows = np.full_like(n, float(k))
        k_cols = n.copy()
    else:
        n_col = s[:, 6 + k:6 + 2 * k]
        q = z_col - s[:, 6 + 2 * k:6 + 3 * k]
        c = -s[:, 6 + 3 * k:].reshape(-1, k, k)
        c[:, np.arange(k), np.arange(k)] += n_col
        ssc = _reduction(c, q)
        marg = np.einsum("bj,bj->b", z_col, z_col / np.where(n_col > 0, n_col, 1.0))
        ssr_adj = ssb + ssc - (marg - total**2 / big_n)
        k_rows = (big_n - k) / (n - 1.0)
        k_cols = (big_n - n) / (k - 1.0)
    sse = np.maximum(_exact_zero(ssw - ssc, ssw), 0.0)
    df_rows, df_cols = n - 1.0, np.full_like(n, k - 1.0)
    df_error = big_n - n - k + 1.0
    df_within = big_n - n
    with np.errstate(divide="ignore", invalid="ignore"):
        ms_rows = (ssb if complete else ssr_adj) / df_rows
        return MeanSquares(
            ms_rows=ms_rows, ms_cols=ssc / df_cols, ms_error=sse / df_error,
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
    """``R(raters | targets) = b' q`` with ``C b = q`` (last rater effect fixed at 0)."""
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


def require_design(rm: RatingMatrix) -> None:
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
