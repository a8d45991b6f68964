"""The one-coin fit held at the voted cells: a vote's quality on a crowd of many labels.

Under the one-coin model (:func:`._em.one_coin`: rater ``r`` right with probability
``s_r``, otherwise each of the other ``k - 1`` labels with ``(1 - s_r) / (k - 1)``)
a rating adds ``base_i = log((1 - s_r) / (k - 1))`` to every class and ``delta_i =
log s_r - base_i`` to the class it names. So every class ``c`` that unit ``u`` did not
receive has the same likelihood term, ``B_u = sum_i base_i``, and its posterior is
``pi_c exp(B_u) / Z_u``: the unit's posterior is its voted cells plus one factor
``rest_u = exp(B_u) / Z_u`` times the prior of each class it did not receive, with

``Z_u = sum_{c voted} pi_c exp(B_u + D_uc) + (S - sum_{c voted} pi_c) exp(B_u)``,

``D_uc`` the sum of the ``delta_i`` of its ratings of ``c`` and ``S`` the sum of the
prior over the classes some rating gives (a class no rating gives has posterior 0, as
in the dense fit). The M step needs the posterior at the voted cells (each rater's
accuracy is the mean posterior of the labels it gave) and, per class, its mean over
the units: the voted part plus ``pi_c (sum_u rest_u - sum_{u voting c} rest_u)``.
Every step is O(ratings); no units x categories array is made, and the figures are
the dense fit's (posteriors, accuracies, prior, log-likelihood and iteration count,
``tests/test_annotators_coin_sparse.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._crowd import EPS, Crowd, FloatArray, IntArray, wsum
from ._em import Fit, Params, classes_given, log_prior, run_em


@dataclass(frozen=True, eq=False)
class SparsePosterior:
    """A one-coin posterior, units x categories, held at the voted cells.

    ``post[u, c]`` is ``voted[j]`` at the cell ``j`` of ``(u, c)`` when unit ``u``
    received label ``c``, else ``mass[c] * rest[u]`` (``mass`` is the prior, 0 for a
    class no rating gives).
    """

    shape: tuple[int, int]
    #: The voted cells, ``unit * k + label``, ascending (each once).
    cells: IntArray
    voted: FloatArray
    rest: FloatArray
    mass: FloatArray

    @property
    def cell_unit(self) -> IntArray:
        return self.cells // self.shape[1]

    @property
    def cell_label(self) -> IntArray:
        return self.cells % self.shape[1]

    def at(self, rows: Any, cols: Any) -> FloatArray:
        """``post[rows, cols]``, element by element."""
        rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
        key = rows * self.shape[1] + cols
        j = np.minimum(np.searchsorted(self.cells, key), max(self.cells.shape[0] - 1, 0))
        hit = self.cells[j] == key if self.cells.shape[0] else np.zeros(key.shape, bool)
        return np.where(hit, self.voted[j] if self.cells.shape[0] else 0.0,
                        self.mass[cols] * self.rest[rows])

    def unvoted_mass(self) -> FloatArray:
        """Per unit, the prior of the classes it did not receive (``S - sum voted``)."""
        n = self.shape[0]
        voted = wsum(self.cell_unit, self.mass[self.cell_label], n)
        n_seen = int((self.mass > 0).sum())
        n_voted = np.bincount(self.cell_unit, minlength=n)
        return np.where(n_voted < n_seen, np.maximum(self.mass.sum() - voted, 0.0), 0.0)

    def toarray(self) -> FloatArray:
        """The dense units x categories posterior (for small crowds and tests)."""
        out = np.outer(self.rest, self.mass)
        out.ravel()[self.cells] = self.voted
        return out


def one_coin(crowd: Crowd, *, tol: float, max_iter: int) -> Fit:
    """:func:`._em.one_coin` (no model, no acceleration) with the posterior a
    :class:`SparsePosterior`; the same figures, in O(ratings) memory."""
    n, k = crowd.n_units, crowd.k
    cells, cell_of = np.unique(crowd.uv, return_inverse=True)
    cell_of = cell_of.ravel()
    cell_unit, cell_label = cells // k, cells % k
    n_cells = cells.shape[0]
    n_r = np.maximum(crowd.per_rater(), 1)
    seen = classes_given(crowd)
    n_seen = int(seen.sum())
    per_unit = np.bincount(cell_unit, minlength=n)
    has_free = per_unit < n_seen
    filled = per_unit > 0
    starts = (np.cumsum(per_unit) - per_unit)[filled]

    def made(voted: FloatArray, rest: FloatArray, mass: FloatArray) -> SparsePosterior:
        return SparsePosterior((n, k), cells, voted, rest, mass)

    def m_step(post: Any, _: Params) -> Params:  # a SparsePosterior
        skill = wsum(crowd.rater, post.voted[cell_of], crowd.n_raters) / n_r
        total = wsum(cell_label, post.voted, k)
        # the classes each unit did not receive: rest_u * pi_c, summed over those units
        total += post.mass * (post.rest.sum() - wsum(cell_label, post.rest[cell_unit], k))
        return {"prior": np.maximum(total / n, EPS), "accuracy": skill}

    def e_step(p: Params) -> tuple[Any, float]:
        s = p["accuracy"]
        right = np.log(np.clip(s, EPS, 1 - EPS))
        wrong = np.log(np.clip((1 - s) / (k - 1), EPS, 1 - EPS))
        base = wrong[crowd.rater]
        lp = log_prior(seen, p["prior"])
        mass = np.where(seen, np.maximum(p["prior"], EPS), 0.0)
        b = wsum(crowd.unit, base, n)
        score = wsum(cell_of, right[crowd.rater] - base, n_cells)
        score += b[cell_unit]
        score += lp[cell_label]
        free = np.where(has_free, np.maximum(mass.sum() - wsum(cell_unit, mass[cell_label], n),
                                             0.0), 0.0)
        with np.errstate(divide="ignore"):
            log_free = b + np.log(free)
        top = log_free
        if n_cells:  # cells ascend by unit: each unit's cells are one run
            top[filled] = np.maximum(top[filled], np.maximum.reduceat(score, starts))
        e = np.exp(score - top[cell_unit])
        rest = np.exp(b - top)
        z = wsum(cell_unit, e, n) + free * rest
        post = made(e / z[cell_unit], rest / z, mass)
        return post, float(np.log(z).sum() + top.sum())

    votes = np.bincount(cell_of, minlength=n_cells).astype(np.float64)
    start = m_step(made(votes / crowd.per_unit()[cell_unit], np.zeros(n), np.zeros(k)), {})
    return run_em(crowd, e_step, m_step, start, tol=tol, max_iter=max_iter, method="one_coin")
