"""Per-annotator figures for every annotator at once, from one tally over the ratings.

:func:`tally` reads the ratings once (a sparse product of the units x (rater, label)
counts with a few columns per unit) and gives every count below; the bincount per
figure it replaced (``hits_and_counts``, ``recall_per_class``, ``soft_confusion``,
``kappa_totals``) stays for the resampled crowds and as the reference of its test.

Per rating ``i`` (rater ``r_i``, unit ``u_i``, label ``v_i``), with ``x[u, c]``
the votes of unit ``u`` for ``c`` and ``n_u`` its ratings:

* accuracy: ``sum_i [v_i = t_u] / sum_i 1`` over the rater's units that have a
  label ``t_u`` (reference or consensus);
* agreement with the others (Cohen's kappa of the rater against every other
  rater, pairs pooled): ``p_o = sum_i (x[u_i, v_i] - 1) / W`` with
  ``W = sum_i (n_u - 1)``; ``p_e = sum_c q_r(c) q_o(c)`` where ``q_r(c)`` is the
  rater's share of label ``c`` weighted by ``n_u - 1`` and ``q_o(c)`` the other
  raters' share of ``c`` on the same units; ``kappa = (p_o - p_e) / (1 - p_e)``;
* spammer score (Raykar & Yu 2012, JMLR 13, eq. 8): with ``A`` the rater's
  confusion matrix (rows = true class),
  ``S = sum_{c < c'} ||A[c] - A[c']||^2 / (k (k - 1))``: 0 when every row is the
  same (the label says nothing about the truth), 1 for a perfect annotator.

The bootstrap resamples a rater's units through per-unit features
(:class:`accord.inference.resampling.Resampling`), never re-counting raw data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

import numpy as np

from accord.coefficients._classification_core import wilson
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult

from ._crowd import Crowd, FloatArray, IntArray, wsum


class ByRater:
    """The ratings grouped by rater, for per-rater slices: one stable argsort, made the
    first time a slice is asked for (a bootstrap of one annotator's kappa), not for the
    figures, which are bincounts."""

    def __init__(self, crowd: Crowd) -> None:
        self.crowd = crowd
        self.counts = crowd.per_rater()
        self._order: IntArray | None = None

    def of(self, r: int) -> IntArray:
        """The positions of rater ``r``'s ratings."""
        if self._order is None:
            self._order = np.argsort(self.crowd.rater, kind="stable")
            self.start = np.concatenate([[0], np.cumsum(self.counts)]).astype(np.int64)
        return np.asarray(self._order[self.start[r]:self.start[r + 1]], dtype=np.int64)


class LazyResults(Mapping[Any, AgreementResult]):
    """A read-only mapping whose results are built when first looked up (a crowd's
    k x k confusion cells for thousands of annotators are rarely all read)."""

    def __init__(self, index: Mapping[Any, int], make: Callable[[int], AgreementResult]
                 ) -> None:
        self._index = index  # key -> position, shared by every annotator's mapping
        self._make = make
        self._made: dict[Any, AgreementResult] = {}

    def __getitem__(self, key: Any) -> AgreementResult:
        if key not in self._made:
            self._made[key] = self._make(self._index[key])
        return self._made[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def hits_and_counts(crowd: Crowd, truth: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per rating whether it matches ``truth`` (``-1`` = no truth), and per rater the hits
    and the number of ratings with a truth."""
    t = truth[crowd.unit]
    judged = t >= 0
    hit = (crowd.value == t) & judged
    n_r = crowd.n_raters
    hits = wsum(crowd.rater, hit, n_r)
    counts = wsum(crowd.rater, judged, n_r)
    return hit.astype(np.float64), hits, counts


def proportion(name: str, hits: float, n: float, *, details: dict[str, Any],
               per_category: dict[Any, dict[str, float]] | None,
               resampling: Callable[[], Resampling] | None) -> AgreementResult:
    """A share of units as an AgreementResult: the binomial (Wald) SE, and Wilson's (1927)
    score interval from the two counts as its ``confidence_interval()`` (within 0-1, not
    collapsing to a point at 0% or 100% as the Wald interval does)."""
    if n == 0:
        return AgreementResult(name, math.nan, math.nan, math.nan, math.nan, 0, 1,
                               undefined_reason="the annotator rated no unit that has a label "
                               "to compare with.", details=details, bounds=(0.0, 1.0))
    p, n = float(hits / n), float(n)
    return AgreementResult(name, p, p, math.nan, math.sqrt(p * (1 - p) / n), int(n), 1,
                           details={**details, "ci_method": "wilson"},
                           per_category=per_category, bounds=(0.0, 1.0),
                           resampling=resampling,
                           analytic_interval=partial(wilson, float(hits), n))


def share_resampling(hits: float, n: float) -> Callable[[], Resampling]:
    """The bootstrap of a share over the rater's ``n`` units with a label, ``hits`` of them
    given it: two patterns, hit and miss, from the two counts."""

    def build() -> Resampling:
        h, m = int(hits), int(n) - int(hits)
        feats = np.array([[1.0, 1.0], [0.0, 1.0]])[[h > 0, m > 0]]
        counts = np.array([h, m], dtype=np.int64)[[h > 0, m > 0]]
        return Resampling(feats, counts, lambda s: s[:, 0] / s[:, 1])

    return build


#: Cells of :func:`tally`'s units x features table per chunk of units (8 MB: 65,536
#: units of 5 categories; fewer units the more categories).
TALLY_CELLS = 1 << 20


class Tally:
    """Per annotator, the counts behind every figure of :func:`accord.annotators`, from
    one pass over the ratings (:func:`tally`). With ``C[r, t, v]`` the ratings of rater
    ``r`` that give ``v`` on a unit whose truth is ``t``, ``L`` the same against the
    consensus labels, ``V[r, v, c]`` the sum of the votes for ``c`` on the units where
    ``r`` gave ``v`` (their own vote included) and ``O[r, v]`` the sum of ``n_u - 1``
    over those units. Every entry is a whole number (exact in float64 below 2^53), so the
    figures are the same numbers, to the bit, as the bincount per figure that they
    replace."""

    def __init__(self, out: FloatArray, r: int, k: int) -> None:
        t = out.reshape(r, k, 3 * k + 1)
        self.truth = np.ascontiguousarray(t[:, :, :k].transpose(0, 2, 1))  # C[r, t, v]
        self.label = np.ascontiguousarray(t[:, :, k:2 * k].transpose(0, 2, 1))  # L
        self.votes = np.ascontiguousarray(t[:, :, 2 * k:3 * k])  # V[r, v, c]
        self.others = np.ascontiguousarray(t[:, :, 3 * k])  # O[r, v]
        self.given = self.label.sum(axis=1)  # ratings per (rater, label): every unit has one

    @staticmethod
    def hits_and_counts(c: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per rater the ratings matching the truth (the trace of ``c``) and those with one."""
        return np.trace(c, axis1=1, axis2=2), c.sum(axis=(1, 2))

    def recall(self) -> tuple[FloatArray, FloatArray]:
        """Raters x classes: hits and ratings per true class (:func:`recall_per_class`)."""
        return np.diagonal(self.truth, axis1=1, axis2=2).copy(), self.truth.sum(axis=2)

    def confusion(self) -> FloatArray:
        """:func:`soft_confusion` against the truth's labels: ``C`` with rows normalised."""
        total = self.truth.sum(axis=2, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(np.where(total > 0, self.truth / total, np.nan))

    def kappa_totals(self) -> FloatArray:
        """:func:`kappa_totals` from the tally: ``[agree, others, q_r (k), q_o (k)]``."""
        n_r = self.given.sum(axis=1)
        agree = np.trace(self.votes, axis1=1, axis2=2) - n_r
        theirs = self.votes.sum(axis=1) - self.given
        return np.column_stack([agree, self.others.sum(axis=1), self.others, theirs])


def tally(crowd: Crowd, matrix: Any, truth: IntArray, labels: IntArray,
          votes: FloatArray) -> Tally:
    """:class:`Tally` of ``crowd`` against ``truth`` (``-1`` = none) and the consensus
    ``labels``: ``matrix.T @ [onehot(truth), onehot(labels), votes, n_u - 1]`` with
    ``matrix`` the units x (rater, label) counts (``crowd.rating_matrix()``), a chunk of
    units at a time (one sparse product, not a gather of every rating per figure)."""
    from ._blocks import _rows, _transposed

    n, r, k = crowd.n_units, crowd.n_raters, crowd.k
    onehot = np.eye(k + 1)[:, :k]  # row -1 (no truth) is zeros
    out = np.zeros((r * k, 3 * k + 1))
    chunk = max(1, TALLY_CELLS // (3 * k + 1))
    feats = np.empty((min(chunk, n), 3 * k + 1))
    for a in range(0, n, chunk):
        b = min(a + chunk, n)
        f = feats[:b - a]
        f[:, :k] = onehot[truth[a:b]]
        f[:, k:2 * k] = onehot[labels[a:b]]
        f[:, 2 * k:3 * k] = votes[a:b]
        np.subtract(votes[a:b].sum(axis=1), 1.0, out=f[:, 3 * k])
        out += _transposed(_rows(matrix, a, b)) @ f
    return Tally(out, r, k)


def kappa_features_of(crowd: Crowd, votes: FloatArray, by: ByRater, r: int) -> FloatArray:
    """:func:`kappa_features` of rater ``r``'s ratings."""
    return kappa_features(crowd, votes, by.of(r))


def recall_per_class(crowd: Crowd, truth: IntArray, hit: FloatArray) -> tuple[FloatArray,
                                                                             FloatArray]:
    """Raters x classes: hits and units per true class."""
    t = truth[crowd.unit]
    judged = t >= 0
    cell = crowd.rater[judged] * crowd.k + t[judged]
    size = crowd.n_raters * crowd.k
    n = np.bincount(cell, minlength=size).reshape(crowd.n_raters, crowd.k)
    h = wsum(cell, hit[judged], size).reshape(crowd.n_raters, crowd.k)
    return h, n.astype(np.float64)


def soft_confusion(crowd: Crowd, truth_post: FloatArray) -> FloatArray:
    """Raters x true x given: posterior mass of each (true, given) cell, rows normalised
    (``nan`` rows for a true class the rater never met)."""
    r, k = crowd.n_raters, crowd.k
    conf = np.empty((r, k, k))
    for c in range(k):
        conf[:, c, :] = wsum(crowd.rv, truth_post[crowd.unit, c], r * k).reshape(r, k)
    total = conf.sum(axis=2, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(total > 0, conf / total, np.nan))


def spammer_score(conf: FloatArray) -> FloatArray:
    """Raykar & Yu (2012): mean squared distance between the rows of each confusion matrix.

    Rows of ``nan`` (a true class the rater never met) are left out. Over the ``m``
    rows left, ``sum_{a<b} |x_a - x_b|^2 = m sum_a |x_a|^2 - |sum_a x_a|^2``: O(k^2)
    per rater, where the pairwise differences were k^3 (435 GiB for three raters at
    2,690 labels)."""
    k = conf.shape[1]
    missing = np.isnan(conf)
    whole_rows = np.asarray(missing.all(axis=2), dtype=bool)
    if not np.array_equal(missing, np.broadcast_to(whole_rows[:, :, None], missing.shape)):
        diff = conf[:, :, None, :] - conf[:, None, :, :]  # a row partly nan: element-wise
        return np.asarray(np.nansum(diff * diff, axis=(1, 2, 3)) / 2.0 / (k * (k - 1)))
    x = np.where(missing, 0.0, conf)
    m = (~whole_rows).sum(axis=1).astype(np.float64)
    total = m * np.einsum("rcv,rcv->r", x, x) - np.einsum("rv,rv->r", x.sum(axis=1),
                                                          x.sum(axis=1))
    return np.asarray(np.maximum(total, 0.0) / (k * (k - 1)))


def kappa_features(crowd: Crowd, votes: FloatArray, positions: IntArray) -> FloatArray:
    """Per rating at ``positions`` the features of the pooled kappa against the others:
    ``[agreeing others, others, q_r (k), q_o (k)]`` (unnormalised)."""
    unit, value = crowd.unit[positions], crowd.value[positions]
    m, k = positions.shape[0], crowd.k
    others = votes[unit].sum(axis=1) - 1.0
    own = np.zeros((m, k))
    own[np.arange(m), value] = others
    theirs = votes[unit]
    theirs[np.arange(m), value] -= 1.0
    return np.column_stack([votes[unit, value] - 1.0, others, own, theirs])


def kappa_totals(crowd: Crowd, votes: FloatArray) -> FloatArray:
    """Raters x features: the kappa features summed per rater, by bincounts (no n x k array)."""
    r, k, rater = crowd.n_raters, crowd.k, crowd.rater
    others = (votes.sum(axis=1) - 1.0)[crowd.unit]
    agree = votes.ravel()[crowd.uv] - 1.0
    own = wsum(crowd.rv, others, r * k).reshape(r, k)
    theirs = np.column_stack([wsum(rater, votes[crowd.unit, c], r)
                              for c in range(k)])
    theirs -= np.bincount(crowd.rv, minlength=r * k).reshape(r, k)
    return np.column_stack([wsum(rater, agree, r),
                            wsum(rater, others, r), own, theirs])


def kappa_statistic(sums: FloatArray) -> FloatArray:
    """Pooled kappa from summed features ``[agree, others, q_r (k), q_o (k)]``."""
    k = (sums.shape[1] - 2) // 2
    w = sums[:, 1]
    p_o = sums[:, 0] / w
    p_e = (sums[:, 2:2 + k] * sums[:, 2 + k:]).sum(axis=1) / (w * w)
    return np.asarray((p_o - p_e) / (1.0 - p_e))


def kappa_result(total: FloatArray, n_units: int,
                 features: Callable[[], FloatArray]) -> AgreementResult:
    """The pooled kappa of one rater against the others (``total``: its summed features),
    with a bootstrap over its units through ``features()`` (one row per rated unit)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        est = float(kappa_statistic(total[None, :])[0])
    reason = None
    if total[1] == 0:
        reason = "no unit of this annotator was rated by another annotator."
    elif not math.isfinite(est):
        reason = "the annotator and the others used one and the same category only (p_e = 1)."
    if reason is not None:
        return AgreementResult("kappa_vs_others", math.nan, math.nan, math.nan, math.nan,
                               n_units, 2, undefined_reason=reason, bounds=(-1.0, 1.0))
    w, k = total[1], (total.shape[0] - 2) // 2
    p_e = float((total[2:2 + k] * total[2 + k:]).sum() / (w * w))

    def build() -> Resampling:
        rows, inverse, counts = np.unique(features(), axis=0, return_inverse=True,
                                          return_counts=True)
        return Resampling(rows, counts.astype(np.int64), kappa_statistic,
                          unit_patterns=inverse.reshape(-1).astype(np.int64))

    return AgreementResult("kappa_vs_others", est, float(total[0] / w), p_e, math.nan,
                           n_units, 2, bounds=(-1.0, 1.0), resampling=build,
                           details={"pairs": int(w)})
