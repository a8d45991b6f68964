"""Consensus on crowds with many categories: sparse (unit, label) counts, and a budget.

A crowd of 10^5 distinct labels (free-text answers, entity ids) has a units x
categories table that is almost all zeros: 10^5 units x 10^5 labels is 80 GB
dense and a few hundred thousand non-zero cells. Majority vote and Wawa only
ever give a unit the labels it received, so they are computed exactly on the
sparse (unit, label) counts (a CSR matrix) and their posterior is that matrix.

The latent-class models cannot be: their posterior gives every unit some mass on
every class (a confusion matrix spreads each class over the labels a rater
used), and Dawid-Skene holds a categories x categories confusion matrix per
annotator. Restricting each unit's classes to the labels it received would be
another model (it drops the mass the exact E step gives the others), so accord
does not do it silently: above :data:`CELL_BUDGET` cells of dense state, and more
than :data:`CELLS_PER_RATING` cells per rating, the EM methods are refused with
one sentence that names the methods that work (crowd-kit, which is dense, runs
out of memory instead).

The one-coin model is the exception that a vote's quality uses: errors spread evenly
give every label a unit did not receive the same likelihood, so its posterior is the
voted cells plus one factor per unit times the class prior, and the fit behind
``Consensus.quality`` and ``Consensus.relabel`` of a majority or Wawa consensus runs on
the voted cells alone (:mod:`._coin_sparse`, :mod:`._relabel_sparse`), with the dense
fit's figures. ``method="one_coin"`` itself is still refused past the budget here: its
result's ``posterior`` is a units x categories array or a CSR matrix of the labels
received, and the one-coin posterior is neither.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord.errors import BudgetError

from ._crowd import Crowd, FloatArray

#: Cells of dense state (a units x categories posterior, or the raters x categories x
#: categories confusion matrices) that every method may hold: 2^25 (256 MiB of float64).
CELL_BUDGET = 2**25
#: ... and beyond it, the state may still grow with the data (a crowd of millions of
#: units and a handful of classes), up to this many cells per rating.
CELLS_PER_RATING = 16


def dense_cells(method: str, crowd: Crowd) -> int:
    """The cells of dense state ``method`` holds on ``crowd`` (the largest array)."""
    post = crowd.n_units * crowd.k
    if method == "dawid_skene":
        return max(post, crowd.n_raters * crowd.k * crowd.k)
    return post


def over_budget(method: str, crowd: Crowd) -> bool:
    """Whether ``method``'s dense state on ``crowd`` is past the budget (see the module)."""
    cells = dense_cells(method, crowd)
    return cells > max(CELL_BUDGET, CELLS_PER_RATING * crowd.n_ratings)


def refuse_dense(method: str, crowd: Crowd, func: str) -> None:
    """One sentence when an EM ``method`` would need a dense state past the budget."""
    if method in ("majority", "wawa") or not over_budget(method, crowd):
        return
    what = ("confusion matrices of categories x categories per annotator"
            if method == "dawid_skene" else "a units x categories posterior")
    cells, budget = dense_cells(method, crowd), max(CELL_BUDGET, CELLS_PER_RATING * crowd.n_ratings)
    raise BudgetError(
        f"{func}: the {NAMES[method]} model on {crowd.n_units:,} units, {crowd.n_raters:,} "
        f"annotators and {crowd.k:,} categories needs {what} ({cells:,} cells, "
        f"{cells * 8 / 2**30:.1f} GiB), past the budget of {budget:,} cells for "
        f"{crowd.n_ratings:,} ratings; majority vote and Wawa ('majority', 'wawa') count "
        "only the labels each unit received and work at any number of categories, or "
        "merge rare labels into fewer categories.")


def refuse_confusions(crowd: Crowd, func: str) -> None:
    """One sentence when the per-annotator confusion matrices are past the budget."""
    cells = crowd.n_raters * crowd.k * crowd.k
    budget = max(CELL_BUDGET, CELLS_PER_RATING * crowd.n_ratings)
    if cells > budget:
        raise BudgetError(
            f"{func}: a confusion matrix of {crowd.k:,} x {crowd.k:,} categories for each of "
            f"{crowd.n_raters:,} annotators is {cells:,} cells ({cells * 8 / 2**30:.1f} GiB), "
            f"past the budget of {budget:,} cells for {crowd.n_ratings:,} ratings, whatever "
            "the consensus method; the consensus alone (accord consensus) by majority vote or "
            "Wawa ('majority', 'wawa') labels the units at any number of categories, or merge "
            "rare labels into fewer categories.")


NAMES = {"one_coin": "one-coin", "dawid_skene": "Dawid-Skene", "glad": "GLAD",
         "mace": "MACE"}


def vote_counts(crowd: Crowd, weights: FloatArray | None = None) -> Any:
    """Units x categories votes (weighted by ``weights`` per rating) as a CSR matrix with
    sorted column indices (duplicates summed)."""
    from scipy.sparse import csr_array

    data = np.ones(crowd.n_ratings) if weights is None else np.asarray(weights, np.float64)
    out = csr_array((data, (crowd.unit, crowd.value)), shape=(crowd.n_units, crowd.k))
    out.sum_duplicates()
    return out


def rater_label_counts(crowd: Crowd) -> Any:
    """Raters x categories rating counts as a CSR matrix (duplicates summed)."""
    from scipy.sparse import csr_array

    out = csr_array((np.ones(crowd.n_ratings), (crowd.rater, crowd.value)),
                    shape=(crowd.n_raters, crowd.k))
    out.sum_duplicates()
    return out


def row_sums(m: Any) -> FloatArray:
    """The sum of each row of a CSR matrix, as a 1-D array."""
    return np.asarray(m.sum(axis=1), dtype=np.float64).ravel()


def shares(m: Any) -> Any:
    """Each row of ``m`` divided by its sum (a row summing to 0 stays 0)."""
    total = row_sums(m)
    out = m.copy()
    rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
    out.data = out.data / np.where(total > 0, total, 1.0)[rows]
    return out


def row_top(m: Any) -> tuple[FloatArray, Any, Any]:
    """Per row of a CSR matrix with sorted indices and no explicit zeros: the top value,
    its first column (the dense ``argmax``'s tie rule) and how many cells share it.

    A row with no stored cell has top 0 at column 0, shared by every column (as a dense
    row of zeros)."""
    n, k = m.shape
    starts, ends = m.indptr[:-1], m.indptr[1:]
    filled = ends > starts
    top = np.zeros(n)
    if m.data.shape[0]:
        top[filled] = np.maximum.reduceat(m.data, starts[filled])
    rows = np.repeat(np.arange(n), np.diff(m.indptr))
    where = np.flatnonzero(m.data == top[rows])
    at = rows[where]
    count = np.bincount(at, minlength=n)
    first = np.ones(at.shape[0], dtype=bool)
    first[1:] = at[1:] != at[:-1]  # rows ascend, so each row's first top cell
    arg = np.zeros(n, dtype=np.int64)
    arg[at[first]] = m.indices[where[first]]
    return top, arg, np.where(filled, count, k)


def majority(crowd: Crowd) -> Any:
    """Vote shares per unit, sparse: the majority-vote posterior."""
    return shares(vote_counts(crowd))


def wawa(crowd: Crowd) -> tuple[Any, FloatArray, list[Any]]:
    """Wawa on sparse counts: the same figures as the dense ``consensus._wawa``."""
    from ._crowd import wsum

    votes = vote_counts(crowd)
    _, arg, count = row_top(votes)
    majority_label = np.where(count == 1, arg, -1)[crowd.unit]
    hits = (crowd.value == majority_label).astype(np.float64)
    skill = wsum(crowd.rater, hits, crowd.n_raters)
    counted = wsum(crowd.rater, majority_label >= 0, crowd.n_raters)
    skill /= np.maximum(counted, 1)
    rated = np.bincount(crowd.rater, minlength=crowd.n_raters) > 0
    unweighed = [crowd.rater_ids[int(i)] for i in np.flatnonzero(rated & (counted == 0))]
    weighted = vote_counts(crowd, skill[crowd.rater])
    zero = row_sums(weighted) == 0
    if zero.any():  # units whose annotators all weigh 0 keep their plain vote shares
        rows = np.repeat(np.arange(crowd.n_units), np.diff(weighted.indptr))
        weighted.data = np.where(zero[rows], votes.data, weighted.data)
    weighted.eliminate_zeros()
    return shares(weighted), skill, unweighed
