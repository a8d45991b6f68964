"""The ANOVA sums of the intraclass correlations, straight from long (unit, rater, score) arrays.

Everything here is ``O(ratings)`` in time and memory, never ``O(units x raters)``:

- per-unit counts ``n_i``, sums ``S_i`` and within-unit sums of squares, per-rater
  counts ``n_.j`` and sums ``Z_j`` (one ``np.bincount`` each);
- for an incomplete two-way design, Henderson's Method III reduction for raters after
  targets (Searle, Casella & McCulloch 1992, sec. 5.5), ``R(raters | targets) = b' q``
  with ``C b = q``, where ``N`` is the sparse units x raters incidence,
  ``C = D_r - N' D_u^{-1} N`` (raters x raters) and ``q = Z - N' D_u^{-1} S``.

``C`` is the Laplacian-like matrix of the bipartite unit-rater graph: symmetric,
positive semi-definite, and singular with the indicator of each connected component
in its null space. For a connected design ``q`` is orthogonal to the constant
vector, so ``b' q`` is the same for every solution. With at most
:data:`DIRECT_RATERS` raters ``C`` is formed (``N' D_u^{-1} N`` through the dense
0/1 incidence or as a sparse product, cost ``sum n_i^2``) and solved with the last
rater effect fixed at 0. With more, ``C b = q`` is solved by conjugate gradients
preconditioned by ``diag(C)``, each product ``C x = D_r x - N' D_u^{-1} (N x)``
costing ``O(ratings)``; raters mixed at random converge in a few dozen iterations.
Raters lined up in a chain or ring (each unit scored by neighbours) converge
slowly; after :data:`_SWITCH` iterations ``C`` is formed once and solved directly
(at most :data:`DENSE_RATERS` raters) or used for cheaper products. The iterate
``x`` of conjugate gradients satisfies ``x' q = x' C x``, so ``x' q`` falls short of
``b' q`` by ``(b - x)' C (b - x)``, second order in the error.

A design whose raters fall into groups that share no unit (more than one connected
component) leaves the rater effects not estimable; the reduction is then ``nan``
with that reason.

The long-array helpers of :class:`~accord.tables.rating_matrix.RatingMatrix` are
here too: which units (two or more scores) and raters an ICC keeps, and the
per-unit features that resampling sums.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

DIRECT_RATERS = 200  # raters up to which C is formed and solved directly at once
DENSE_RATERS = 2000  # ... or after conjugate gradients have not converged quickly
_CG_RTOL = 1e-10  # residual norm relative to |q|; the reduction's error is second order
_SWITCH = 40  # conjugate-gradient iterations through the incidence before C is formed
_GRAM_PAIRS = 4e9  # C is formed only if that costs at most this many products (sum n_i^2)
DISCONNECTED = ("the raters fall into groups that share no unit, so rater and target "
                "effects cannot be separated (a disconnected design)")


@dataclass(frozen=True)
class LongSums:
    """The sums every ICC form needs, from long arrays.

    ``head`` holds ``n, N, sum n_i^2, sum S_i, sum S_i^2 / n_i, SSW`` (units, ratings,
    squared unit sizes, total, the between-units sum and the within-units sum of
    squares of centred scores); ``z_col`` and ``n_col`` are each rater's sum of
    centred scores and count; ``ssc`` is ``R(raters | targets)`` (``nan`` for a
    complete design, whose textbook SSC follows from ``z_col``, or when not
    estimable, with ``why``); ``solver`` says how ``C b = q`` was solved.
    """

    head: FloatArray
    z_col: FloatArray
    n_col: FloatArray
    ssc: float
    solver: str
    why: str | None = None


def long_sums(unit: IntArray, rater: IntArray, z: FloatArray, n: int, k: int,
              complete: bool, *, grid: bool = False, direct_raters: int = DIRECT_RATERS,
              dense_raters: int = DENSE_RATERS) -> LongSums:
    """The ANOVA sums of centred scores ``z`` of ``n`` units (each rated at least once)
    by ``k`` raters, given as parallel arrays of unit and rater indices.

    ``grid``: the ratings are every (unit, rater) in unit-major order, so ``z`` is the
    units x raters matrix read row by row (a complete array's cells), and the sums are
    taken along its axes.
    """
    if grid:
        return _grid_sums(z.reshape(n, k))
    n_i = _sum_by(unit, None, n)
    s = _sum_by(unit, z, n)
    with np.errstate(divide="ignore", invalid="ignore"):  # a unit of no rating: not used
        mean = s / n_i
    dev = z - mean[unit]
    head = np.array([float(n), float(z.size), n_i @ n_i, s.sum(), s @ mean, dev @ dev])
    del dev  # one float per rating, not kept through the solve
    z_col, n_col = _sum_by(rater, z, k), _sum_by(rater, None, k)
    if complete or k < 2:
        return LongSums(head, z_col, n_col, math.nan, "complete design")
    q = z_col - _sum_by(rater, mean[unit], k)
    ssc, solver, why = _reduction(unit, rater, n_i, n_col, q, direct_raters, dense_raters)
    return LongSums(head, z_col, n_col, ssc, solver, why)


def _sum_by(index: IntArray, weights: FloatArray | None, length: int) -> FloatArray:
    """Sums of ``weights`` (or counts) by ``index``, as floats."""
    return np.bincount(index, weights=weights, minlength=length).astype(np.float64, copy=False)


def _grid_sums(z: FloatArray) -> LongSums:
    """:func:`long_sums` of a complete units x raters matrix of centred scores."""
    n, k = z.shape
    s = z.sum(axis=1)
    mean = s / k
    dev = z - mean[:, None]
    head = np.array([float(n), float(z.size), float(n * k * k), s.sum(), s @ mean,
                     np.einsum("ij,ij->", dev, dev)])
    return LongSums(head, z.sum(axis=0), np.full(k, float(n)), math.nan, "complete design")


@dataclass(frozen=True)
class _Keep:
    unit_mask: NDArray[np.bool_]
    rater_mask: NDArray[np.bool_]

    def apply(self, unit: IntArray, rater: IntArray, score: FloatArray
              ) -> tuple[IntArray, IntArray, FloatArray, IntArray, IntArray]:
        """The kept ratings recoded, and the original indices of the kept units and raters."""
        um, rm = self.unit_mask, self.rater_mask
        if not um.all():
            rows = um[unit]
            unit, rater, score = (np.cumsum(um) - 1)[unit[rows]], rater[rows], score[rows]
        if not rm.all():
            rater = (np.cumsum(rm) - 1)[rater]
        return unit, rater, score, np.flatnonzero(um), np.flatnonzero(rm)


def is_grid(unit: IntArray, rater: IntArray, n: int, k: int) -> bool:
    """Whether the ratings are every (unit, rater) in unit-major order (a complete matrix
    read row by row), checked in O(ratings)."""
    if unit.size != n * k or n * k == 0:
        return False
    return bool((unit.reshape(n, k) == np.arange(n)[:, None]).all()
                and (rater.reshape(n, k) == np.arange(k)).all())


def kept(unit: IntArray, rater: IntArray, shape: tuple[int, int], minimum: int) -> _Keep | None:
    """Which units have at least ``minimum`` scores and which raters scored one of them;
    None when that is every unit and rater (or, for a complete design of fewer than
    ``minimum`` raters, no unit and every rater)."""
    n, k = shape
    if unit.size == n * k:  # complete
        if k >= minimum:
            return None
        return _Keep(np.zeros(n, dtype=bool), np.ones(k, dtype=bool))
    unit_mask = np.bincount(unit, minlength=n) >= minimum
    scored = rater if unit_mask.all() else rater[unit_mask[unit]]
    rater_mask = np.bincount(scored, minlength=k) > 0
    if unit_mask.all() and rater_mask.all():
        return None
    return _Keep(unit_mask, rater_mask)


def unit_features(unit: IntArray, rater: IntArray, z: FloatArray, n: int, k: int,
                  complete: bool, *, one_way: bool = False) -> FloatArray:
    """Per-unit features of centred scores (see :meth:`RatingMatrix.features`)."""
    n_i = np.bincount(unit, minlength=n).astype(np.float64)
    s = np.bincount(unit, weights=z, minlength=n)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = s / n_i
    dev = z - mean[unit]
    within = np.bincount(unit, weights=dev * dev, minlength=n)
    head = np.column_stack([np.ones(n), n_i, n_i**2, s, s * mean, within])
    if one_way:
        return head
    scores = np.zeros((n, k))
    scores[unit, rater] = z
    if complete:
        return np.column_stack([head, scores])
    r = np.zeros((n, k))
    r[unit, rater] = 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        outer = (r[:, :, None] * r[:, None, :]).reshape(-1, k * k) / n_i[:, None]
    return np.column_stack([head, scores, r, mean[:, None] * r, outer])


def _incidence(unit: IntArray, rater: IntArray, n_i: FloatArray, k: int) -> Any:
    """``D_u^{-1/2} N`` as a CSR matrix (so that ``A' A = N' D_u^{-1} N``)."""
    from scipy import sparse

    small = np.int32 if max(unit.size, n_i.size, k) < 2**31 else np.int64
    with np.errstate(divide="ignore"):
        data = (1.0 / np.sqrt(n_i))[unit]
    return sparse.csr_matrix((data, (unit.astype(small), rater.astype(small))),
                             shape=(n_i.size, k))


def gram(unit: IntArray, rater: IntArray, n_i: FloatArray, k: int) -> FloatArray:
    """``N' D_u^{-1} N`` (raters x raters, dense): through the dense 0/1 incidence when it
    is at most four times the ratings (few raters), else a sparse product (``sum n_i^2``)."""
    n = n_i.size
    if n * k <= 4 * unit.size:
        r = np.zeros((n, k))
        r[unit, rater] = 1.0
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray((r / n_i[:, None]).T @ r, dtype=np.float64)
    a = _incidence(unit, rater, n_i, k)
    return np.asarray((a.T @ a).toarray(), dtype=np.float64)


def components(a: Any, n: int, k: int) -> int:
    """Connected components of the bipartite graph of ``n`` units and ``k`` raters whose
    edges are the nonzeros of the CSR incidence ``a``."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    indptr = np.concatenate([a.indptr, np.full(k, a.indptr[-1], dtype=a.indptr.dtype)])
    graph = sparse.csr_matrix((a.data, a.indices + n, indptr), shape=(n + k, n + k))
    return int(connected_components(graph, directed=True, connection="weak",
                                    return_labels=False))


def _reduction(unit: IntArray, rater: IntArray, n_i: FloatArray, n_col: FloatArray,
               q: FloatArray, direct_raters: int,
               dense_raters: int) -> tuple[float, str, str | None]:
    """``R(raters | targets) = b' q`` with ``C b = q``; ``nan`` and why if not estimable."""
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    k = n_col.size
    pairs = float(n_i @ n_i)
    if k <= direct_raters and pairs <= _GRAM_PAIRS:
        g = gram(unit, rater, n_i, k)
        if connected_components(sparse.csr_matrix(g != 0), return_labels=False) > 1:
            return math.nan, "not solved", DISCONNECTED
        return _direct(np.diag(n_col) - g, q), "dense", None
    a = _incidence(unit, rater, n_i, k)
    if components(a, n_i.size, k) > 1:
        return math.nan, "not solved", DISCONNECTED
    return _conjugate_gradients(a, n_col, q, pairs, dense_raters)


def _direct(c: FloatArray, q: FloatArray) -> float:
    """``b' q`` with ``C b = q`` solved with the last rater effect fixed at 0."""
    b = np.linalg.solve(c[:-1, :-1], q[:-1])
    return float(b @ q[:-1])


def _conjugate_gradients(a: Any, n_col: FloatArray, q: FloatArray, pairs: float,
                         dense_raters: int) -> tuple[float, str, str | None]:
    """``b' q`` for ``C b = q`` by preconditioned conjugate gradients (Jacobi).

    The products go through the incidence (``O(ratings)`` each). A design that needs
    more than :data:`_SWITCH` iterations (raters in long chains rather than mixed at
    random) forms ``C`` once (``sum n_i^2`` products, at most :data:`_GRAM_PAIRS`):
    with at most ``dense_raters`` raters it is then solved directly, else the same
    iteration goes on with the cheaper products of the formed ``C``.
    """
    diag = n_col - np.asarray(a.multiply(a).sum(axis=0)).ravel()

    def through_incidence(x: FloatArray) -> FloatArray:
        return np.asarray(n_col * x - a.T @ (a @ x), dtype=np.float64)

    product: Callable[[FloatArray], FloatArray] = through_incidence
    x = np.zeros_like(q)
    r = q.copy()
    zr = r / diag
    p = zr.copy()
    rz = float(r @ zr)
    goal = _CG_RTOL * float(np.linalg.norm(q))
    limit, formed = 10 * q.size + 100, ""
    for it in range(limit):
        if float(np.linalg.norm(r)) <= goal:
            x -= x.mean()  # the constant direction is C's null space; q is orthogonal to it
            return float(x @ q), f"conjugate gradients ({it} iterations{formed})", None
        if it == _SWITCH and pairs <= _GRAM_PAIRS:
            g = (a.T @ a).tocsr()
            if q.size <= dense_raters:
                c = np.diag(n_col) - g.toarray()
                return _direct(c, q), f"dense (after {it} conjugate-gradient iterations)", None
            product, formed = _formed_product(g, n_col), "; C formed"
        cp = product(p)
        step = rz / float(p @ cp)
        x += step * p
        r -= step * cp
        zr = r / diag
        rz, previous = float(r @ zr), rz
        p = zr + (rz / previous) * p
    return math.nan, "conjugate gradients", (
        f"the rater effects did not converge in {limit} conjugate-gradient iterations")


def _formed_product(g: Any, n_col: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """``x -> C x`` with ``g = N' D_u^{-1} N`` formed (kept dense when a quarter full)."""
    k = n_col.size
    m = g.toarray() if g.nnz > k * k // 4 else g

    def product(x: FloatArray) -> FloatArray:
        return np.asarray(n_col * x - m @ x, dtype=np.float64)

    return product
