"""The crowd as long integer codes: the only input the consensus models read.

Every E and M step is a ``np.bincount`` over these codes (one entry per rating):
``unit``, ``rater``, ``value`` and the combined codes ``unit * k + value`` and
``rater * k + value``. No units x raters matrix is ever built.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.data.annotations import Annotations
from accord.errors import ConvergenceWarning, DataError, InsufficientDataError

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: The floor on probabilities and counts that enter a logarithm (log 0 never occurs).
EPS = 1e-10


@dataclass(frozen=True)
class Crowd:
    """The ratings of a crowd as code arrays, with their labels and per-unit counts."""

    unit: IntArray
    rater: IntArray
    value: IntArray
    unit_ids: tuple[Any, ...]
    rater_ids: tuple[Any, ...]
    categories: tuple[Any, ...]
    #: Whether every (unit, rater) pair occurs once (single-label Annotations refuse or
    #: resolve repeats): then each rater's units are its ratings, with no sort.
    pairs_distinct: bool = False
    #: Where the units x categories counts are shared (the Annotations' table,
    #: :meth:`accord.Annotations.unit_counts`, counted when first asked for: a crowd of
    #: many labels never makes it dense); else :meth:`votes` counts them.
    unit_counts: Callable[[], IntArray] | None = None

    @property
    def n_units(self) -> int:
        return len(self.unit_ids)

    @property
    def n_raters(self) -> int:
        return len(self.rater_ids)

    @property
    def k(self) -> int:
        return len(self.categories)

    @property
    def n_ratings(self) -> int:
        return int(self.value.shape[0])

    @property
    def uv(self) -> IntArray:
        """``unit * k + value``: the cell of each rating in the units x categories counts."""
        return self.unit * self.k + self.value

    @property
    def rv(self) -> IntArray:
        """``rater * k + value``: the cell of each rating in the raters x categories counts."""
        return self.rater * self.k + self.value

    def votes(self) -> FloatArray:
        """Units x categories vote counts (one bincount, or the shared table's copy)."""
        n, k = self.n_units, self.k
        shared = None if self.unit_counts is None else self.unit_counts()
        if shared is not None and shared.shape == (n, k):
            return shared.astype(np.float64)
        return np.bincount(self.uv, minlength=n * k).reshape(n, k).astype(np.float64)

    def rating_matrix(self) -> Any:
        """Units x (rater * k + value) rating counts as a CSR matrix (:func:`rating_matrix`):
        the Dawid-Skene fit's products and the per-annotator tallies read it."""
        return rating_matrix(self.unit, self.rv, self.n_units, self.n_raters * self.k)

    def per_unit(self) -> IntArray:
        """The number of ratings of each unit."""
        return np.bincount(self.unit, minlength=self.n_units).astype(np.int64)

    def per_rater_units(self) -> IntArray:
        """The number of distinct units each rater rated."""
        if self.pairs_distinct:
            return self.per_rater()
        pairs = np.unique(self.rater * max(self.n_units, 1) + self.unit)
        return np.bincount(pairs // max(self.n_units, 1), minlength=self.n_raters).astype(
            np.int64)

    def per_rater(self) -> IntArray:
        """The number of ratings of each rater."""
        return np.bincount(self.rater, minlength=self.n_raters).astype(np.int64)


def wsum(codes: IntArray, weights: Any, size: int) -> FloatArray:
    """``np.bincount`` with weights, as float64: the sum of ``weights`` per code."""
    return np.asarray(np.bincount(codes, weights=weights, minlength=size), dtype=np.float64)


def row_max(a: Any) -> Any:
    """Each row's maximum of a units x categories array (``a.max(axis=1)``, the same
    values): numpy reduces a few long rows many times faster than many rows of a few
    cells, so the rows are reduced as the columns of a transposed copy."""
    return np.ascontiguousarray(a.T).max(axis=0)


def row_min(a: Any) -> Any:
    """Each row's minimum (``a.min(axis=1)``; see :func:`row_max`)."""
    return np.ascontiguousarray(a.T).min(axis=0)


def row_total(a: Any) -> Any:
    """Each row's sum of a units x categories array of counts or booleans (whole numbers,
    so exact in any order of addition; see :func:`row_max`). Not for fractions: their
    sum's last bit depends on the order."""
    return np.ascontiguousarray(a.T).sum(axis=0)


def crowd_of(data: Any, *, func: str, categories: Sequence[Any] | None = None) -> Crowd:
    """The codes of ``data`` (Annotations or a units x raters table), validated once.

    Raises one sentence for set-valued ratings, numeric scores (interval or
    ratio level), no ratings, or a single category.
    """
    ann = as_annotations(data, categories=categories, func=func, pairs=False)
    _check(ann, func)
    unit, rater, value = ann.codes
    return Crowd(unit, rater, value, ann.units, ann.raters, ann.categories,
                 pairs_distinct=not ann.set_valued, unit_counts=ann.unit_counts)


def rating_matrix(rows: IntArray, cols: IntArray, n_rows: int, n_cols: int) -> Any:
    """The count of ratings per (row code, column code), as a CSR matrix (duplicates summed).

    Ratings already in row order (as read from a file grouped by unit) give the CSR
    arrays directly, in one pass: the products treat a repeated (row, column) entry as
    the sum of its copies, so nothing is sorted or merged.
    """
    from scipy.sparse import csr_matrix

    ones = np.ones(rows.shape[0], dtype=np.float64)
    if n_cols < 2**31 and rows.shape[0] < 2**31 and bool((rows[1:] >= rows[:-1]).all()):
        indptr = np.zeros(n_rows + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=n_rows), out=indptr[1:])
        return csr_matrix((ones, cols.astype(np.int32), indptr), shape=(n_rows, n_cols))
    return csr_matrix((ones, (rows, cols)), shape=(n_rows, n_cols))


def _check(ann: Annotations, func: str) -> None:
    if ann.level in ("interval", "ratio"):
        raise DataError(
            f"{func} infers one category per unit, but these ratings are numeric scores "
            f"(level={ann.level!r}); read them as categories (level='nominal' or 'ordinal') "
            "or summarise the scores with their mean per unit."
        )
    if ann.n_ratings == 0:
        raise InsufficientDataError(f"{func}: the data hold no ratings, so there is no label "
                                    "to infer.")
    # the codes are category positions: a bincount, not a sort of every rating
    used = np.flatnonzero(np.bincount(ann.codes[2], minlength=len(ann.categories)))
    if used.shape[0] < 2:
        only = ann.categories[int(used[0])]
        raise InsufficientDataError(
            f"{func}: every rating is {only!r}, so every unit's label is {only!r} and there "
            "is nothing to infer; a consensus needs at least two categories in use."
        )


def confusion_of(mass: FloatArray, used: NDArray[np.bool_]) -> FloatArray:
    """Each rater's confusion matrix (rows = true class) from the posterior mass per
    (rater, true class, given label): Dawid-Skene's M step. A label the rater used gets
    at least ``EPS`` in every row (so no cell of it is exactly 0), one never used stays
    0; rows are normalised (a rater with no rating keeps rows of zeros)."""
    conf = np.where(used[:, None, :], np.maximum(mass, EPS), 0.0)
    total = conf.sum(axis=2, keepdims=True)
    np.divide(conf, total, out=conf, where=total > 0)
    return conf


def warn_not_converged(method: str, max_iter: int, change: float, tol: float,
                       stacklevel: int) -> None:
    """The one warning of an EM that reached ``max_iter`` before ``tol``."""
    warnings.warn(
        f"{method} did not converge in {max_iter} iterations: the log-likelihood still moved "
        f"by {change:.3g} per rating (tol={tol:g}); the result is the last iterate "
        "(raise max_iter= or tol=).", ConvergenceWarning, stacklevel=stacklevel + 1)


def normalise_log(logp: FloatArray, add: FloatArray | None = None
                  ) -> tuple[FloatArray, float]:
    """Rows of log-scores to probabilities, and the sum of the rows' log normalisers.

    The sum is the log-likelihood of the data when ``logp[u, c]`` is
    ``log P(class c, ratings of u)``; ``add`` (one term per class, e.g. the log
    class prior) is added to every row first.
    """
    n, k = logp.shape
    post, top, log_total = np.empty((n, k)), np.empty(n), np.empty(n)
    normalise_into(logp, add, post, top, log_total, np.empty((k, n)))
    return post, float(log_total.sum() + top.sum())


def normalise_into(logp: FloatArray, add: FloatArray | None, post: FloatArray,
                   top: FloatArray, log_total: FloatArray, work: FloatArray) -> None:
    """:func:`normalise_log` into given arrays: the probabilities into ``post``, each
    row's maximum into ``top`` and the log of its normaliser after the maximum is taken
    out into ``log_total`` (the log-likelihood is ``log_total.sum() + top.sum()``);
    ``work`` is k x n scratch. Row by row the same arithmetic whatever the rows given,
    so a caller may run it over blocks of rows that stay in cache."""
    # on a k x n copy: numpy combines a few long rows much faster than many rows of k
    # (the inner loops run over n, not k), and the reductions along axis 0 add the rows
    # in order, so the sums are the same as column by column
    t = work
    np.copyto(t, logp.T)
    if add is not None:
        t += add[:, None]
    np.max(t, axis=0, out=top)
    t -= top
    np.exp(t, out=t)
    np.sum(t, axis=0, out=log_total)
    t /= log_total
    np.copyto(post, t.T)
    np.log(log_total, out=log_total)


def symmetric_log_posterior(crowd: Crowd, log_prior: FloatArray, base: FloatArray,
                            delta: FloatArray) -> FloatArray:
    """``log P(class c, ratings of u)`` for models where a rating's log-likelihood is
    ``base_i`` for every class plus ``delta_i`` for the class it names.

    Two bincounts: ``base`` summed per unit, ``delta`` per (unit, value) cell.
    """
    n, k = crowd.n_units, crowd.k
    logp = wsum(crowd.uv, delta, n * k).reshape(n, k)
    logp += wsum(crowd.unit, base, n)[:, None]
    logp += log_prior[None, :]
    return logp
