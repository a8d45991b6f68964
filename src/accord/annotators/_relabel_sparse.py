"""Relabelling on a crowd of many categories: the vote's scores from the voted cells.

The vote's quality posterior is then held at the voted cells (:mod:`._coin_sparse`):
``p_u(c) = pi_c rest_u`` for every class ``c`` unit ``u`` did not receive. The next
label of a one-coin annotator of accuracy ``s`` is ``v`` with probability ``z_v = b +
(s - b) p_u(v)``, ``b = (1 - s) / (k - 1)``, so

* the vote's change probability and the chance to confirm need only sums of ``z_v``
  over the unvoted classes, which are linear: ``n_unvoted b + (s - b) rest_u
  sum_{c unvoted} pi_c``;
* the information gain is ``I(T; V) = H(V) - H(V | T)`` with ``H(V | T) = -s log s -
  (k - 1) b log b`` for every class, and ``H(V) = -sum_v z_v log z_v``. Over the unvoted
  classes, with ``y_c = (s - b) pi_c rest_u / b`` and ``q(y) = (1 + y) log(1 + y) - y``,
  ``z log z = b log b + b y (log b + 1) + b q(y)``: all linear in ``pi_c`` but
  ``Q_u = sum_c q(y_c)``, the sum over every class given, less the unit's voted ones.
  ``Q`` is one function of the unit's ``rest_u``; it is summed class by class for every
  unit when units x classes is small, else read from its Chebyshev interpolant in
  ``log rest_u`` (analytic in a strip of half-width pi, so it converges geometrically;
  the degree doubles from 32 until the coefficients' tail is below 1e-13 of the
  largest, near the noise of the sums; a higher degree only adds rounding), and
  from its Taylor series ``q(y) = y^2/2 - y^3/6 + y^4/12 - ...`` where every ``y_c`` is
  below 1e-5.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._coin_sparse import SparsePosterior
from ._crowd import FloatArray, wsum

#: Units x classes evaluations of ``q`` made directly (else the interpolant is used).
DIRECT = 2**24
_SMALL_Y, _MAX_DEGREE, _BLOCK = 1e-5, 1024, 2**20


def _q(y: FloatArray) -> FloatArray:
    """``(1 + y) log(1 + y) - y``; below 0.05 by its series (the closed form cancels)."""
    small = np.abs(y) < 0.05
    x = np.where(small, y, 0.0)
    series = np.zeros_like(x)
    for j in range(13, 1, -1):  # Horner: sum_j (-1)^j y^j / (j (j - 1)), j = 2..13
        series = (series + (-1) ** j / (j * (j - 1))) * x
    series *= x
    return np.where(small, series, (1 + y) * np.log1p(np.where(small, 0.0, y)) - y)


def _sum_q(scale: FloatArray, mass: FloatArray) -> FloatArray:
    """``sum_c q(scale_u mass_c)`` per unit, class by class (in blocks of units)."""
    out = np.empty(scale.shape[0])
    step = max(_BLOCK // max(mass.shape[0], 1), 1)
    for i in range(0, scale.shape[0], step):
        out[i:i + step] = _q(np.outer(scale[i:i + step], mass)).sum(axis=1)
    return out


def total_q(scale: FloatArray, mass: FloatArray) -> FloatArray:
    """``Q(scale_u) = sum_c q(scale_u mass_c)`` for every unit (``mass``: the classes
    given; ``scale >= 0``), see the module."""
    if scale.shape[0] * mass.shape[0] <= DIRECT:
        return _sum_q(scale, mass)
    out = np.zeros(scale.shape[0])
    big = float(mass.max()) if mass.shape[0] else 0.0
    m2, m3, m4 = ((mass ** j).sum() for j in (2, 3, 4))
    small = scale * big <= _SMALL_Y
    x = scale[small]
    out[small] = x * x * (m2 / 2 - x * m3 / 6 + x * x * m4 / 12)
    rest = np.flatnonzero(~small)
    if rest.shape[0]:
        out[rest] = _interpolated(scale[rest], mass, m2)
    return out


def _interpolated(scale: FloatArray, mass: FloatArray, m2: float) -> FloatArray:
    """``Q`` at ``scale`` from the Chebyshev interpolant of ``Q / (scale^2 m2 / 2)`` in
    ``log scale`` (the ratio is 1 at small scale and bounded)."""
    from numpy.polynomial import chebyshev as ch

    lo, hi = float(np.log(scale.min())), float(np.log(scale.max()))
    if hi - lo < 1e-9:
        return _sum_q(scale, mass)
    mid, half = (hi + lo) / 2, (hi - lo) / 2

    def ratio(x: Any) -> Any:
        sc = np.exp(mid + half * x)
        return _sum_q(sc, mass) / (sc * sc * m2 / 2)

    deg = 32
    while True:
        coef = ch.chebinterpolate(ratio, deg)
        tail = np.abs(coef[-4:]).max()
        if tail <= 1e-13 * np.abs(coef).max() or deg >= _MAX_DEGREE:
            break
        deg *= 2
    x = (np.log(scale) - mid) / half
    return np.asarray(ch.chebval(np.clip(x, -1, 1), coef) * scale * scale * m2 / 2)


def information_gain(q: SparsePosterior, s: float) -> FloatArray:
    """Per unit, :func:`.relabel.information_gain`'s gain from the voted cells."""
    n, k = q.shape
    s = float(np.clip(s, 1.0 / k, 1.0 - 1e-12))
    b = (1.0 - s) / (k - 1)
    a = s - b
    unit, label = q.cell_unit, q.cell_label
    seen = q.mass > 0
    n_seen = int(seen.sum())
    n_voted = np.bincount(unit, minlength=n)
    n_unvoted = np.where(n_voted < n_seen, n_seen - n_voted, 0)
    z = b + a * q.voted
    plogp = wsum(unit, z * np.log(z), n)  # the voted classes
    plogp += (k - n_seen) * b * np.log(b)  # the classes no rating gives: z = b
    mass = q.mass[seen]
    scale = a * q.rest / b
    extra = total_q(scale, mass) - wsum(unit, _q(scale[unit] * q.mass[label]), n)
    extra = np.where(n_unvoted > 0, np.maximum(extra, 0.0), 0.0)
    plogp += n_unvoted * b * np.log(b) + a * q.rest * q.unvoted_mass() * (np.log(b) + 1)
    plogp += b * extra
    h_given = -(s * np.log(s) + (k - 1) * b * np.log(b))
    return np.maximum(-plogp - h_given, 0.0)


def next_label(q: SparsePosterior, s: float, rows: Any, cols: Any) -> FloatArray:
    """``P(V = v)`` at the cells ``(rows, cols)`` (:func:`.relabel.next_label`)."""
    k = q.shape[1]
    s = float(np.clip(s, 1.0 / k, 1.0 - 1e-12))
    b = (1.0 - s) / (k - 1)
    return b + (s - b) * q.at(rows, cols)


def vote_change(votes: Any, w: float, labels: Any, q: SparsePosterior, s: float
                ) -> FloatArray:
    """:func:`.relabel.vote_change` on sparse (weighted) votes, the next vote drawn from
    the one-coin posterior ``q`` (a class with no vote needs ``w`` alone to move)."""
    n, k = q.shape
    labels = np.asarray(labels)
    rows = np.repeat(np.arange(n), np.diff(votes.indptr))
    cols, data = votes.indices.astype(np.int64), votes.data
    mine = cols == labels[rows]
    own = wsum(rows[mine], data[mine], n)
    others = np.where(mine, -np.inf, data)
    n_voted = np.diff(votes.indptr)
    # a class without a vote counts 0, where the unit has one
    runner = np.where(n_voted < k, 0.0, -np.inf)
    filled = n_voted > 0
    if data.shape[0]:
        runner[filled] = np.maximum(runner[filled],
                                    np.maximum.reduceat(others, votes.indptr[:-1][filled]))
    slack = 1e-9 * np.maximum(np.abs(own), 1.0)
    p_voted = next_label(q, s, rows, cols)
    moves = (np.maximum(runner[rows], data + w) >= (own - slack)[rows]) & ~mine
    change = wsum(rows, p_voted * moves, n)
    # the next vote goes to a class without one with probability 1 - sum of the voted z_v
    empty = (np.maximum(runner, w) >= own - slack) & (n_voted < k)
    return np.asarray(change + np.where(empty, np.maximum(1.0 - wsum(rows, p_voted, n), 0.0),
                                        0.0))


def votes_of(c: Any) -> tuple[Any, float]:
    """:func:`.relabel._votes` as a CSR matrix: the units' (weighted) votes, the model's
    included, and the next vote's weight."""
    from ._model import voting_crowd
    from ._sparse import row_sums, vote_counts

    crowd = voting_crowd(c)
    counts = vote_counts(crowd)
    if c.method == "majority":
        return counts, 1.0
    skill = np.asarray(c.parameters["skill"], dtype=np.float64)
    if c.model is not None:
        skill = np.append(skill, c.model.weight)
    w = float(np.mean(c.parameters["skill"])) if len(c.parameters["skill"]) else 1.0
    w = w if w > 0 else 1.0
    weighted = vote_counts(crowd, skill[crowd.rater])
    plain = row_sums(weighted) <= 0
    if plain.any():  # there the label is the plain vote's: one more vote weighs w
        rows = np.repeat(np.arange(crowd.n_units), np.diff(weighted.indptr))
        weighted.data = np.where(plain[rows], counts.data * w, weighted.data)
    return weighted, w
