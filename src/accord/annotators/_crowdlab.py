"""CROWDLAB (Goh et al. 2022): the model's probabilities and the annotators' votes mixed
with weights estimated from their agreement (``method="crowdlab"``, ``model=`` required).

The steps, as ``cleanlab.multiannotator.get_label_quality_multiannotator`` takes them
with its defaults (``consensus_method="best_quality"``, ``quality_method="crowdlab"``),
with ``u`` a unit, ``n_u`` its ratings and ``M`` the units rated more than once:

1. **Majority vote**, its ties broken in turn by the model's probability of the tied
   labels, the label used least over the whole crowd, and the mean agreement of the tied
   labels' voters with the majority of the units that are not tied (an annotator with
   no such unit gets the mean of the others). A tie that survives all three takes the
   first tied category; cleanlab draws one at random (``np.random.choice``).
2. **Weights**, given consensus labels ``y``: ``a_u`` the share of ``u``'s ratings that
   are ``y_u``; ``L = mean_M a_u`` (the likelihood of agreeing with the consensus) and
   ``(1 - L) / (k - 1)`` of each other label; ``e_mc``, the error of always answering the
   most common consensus label on ``M`` (at least ``1e-6``); each annotator's agreement
   with the others ``s_j = sum_u (v_uj - 1) / sum_u (n_u - 1)`` over the units it rated,
   ``v_uj`` the ratings of ``u`` equal to its label (``nan`` without a unit rated twice:
   the mean of the others), weighted ``w_j = max(1 - (1 - s_j) / e_mc, 1e-6)``; the
   model's weight ``w_m = max(1 - e_m / e_mc, 1e-6) sqrt(mean_u n_u)`` with ``e_m`` the
   share of ``M`` where its top label is not ``y_u``.
3. **Posterior** ``P(c | u) = (w_m p_uc + sum_j w_j [L if label_uj = c else
   (1 - L) / (k - 1)]) / (w_m + sum_j w_j)``, the sums over the annotators of ``u``.
4. **Best quality**: the labels become the posterior's argmax (the majority vote where
   its top is shared), and steps 2 and 3 run again with them; the consensus quality is
   the final posterior of these labels, each rating's quality the posterior of the label
   given.

On a unit the model did not score, its term and weight are left out of step 3 and out of
``e_m`` (cleanlab needs every unit scored); where it scored no unit rated more than once,
``e_m = 1`` (the floor weight, said in the consensus's notes).

Reference
---------
Goh, H. W., Tkachenko, U. & Mueller, J. (2022). CROWDLAB: Supervised learning to infer
consensus labels and quality scores for data with multiple annotators.
*NeurIPS 2022 Human in the Loop Learning Workshop*; arXiv:2210.06812.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._crowd import Crowd, FloatArray, IntArray, row_max, row_min, row_total, wsum

#: cleanlab's lower clip of the weights and of the most-common-class error.
FLOOR = 1e-6


@dataclass(frozen=True)
class Mixture:
    """CROWDLAB's posterior and what made it (see the module)."""

    posterior: FloatArray
    labels: IntArray  # the best-quality consensus labels (codes)
    annotator_weight: FloatArray
    annotator_agreement: FloatArray
    model_weight: float
    consensus_likelihood: float
    model_hits: float  # scored units rated more than once whose top label is the consensus
    model_counted: float


def majority_labels(crowd: Crowd, votes: FloatArray, probs: FloatArray,
                    uv: IntArray | None = None) -> IntArray:
    """Step 1: majority vote with CROWDLAB's three tie-breaks (then the first label);
    ``uv`` is ``crowd.uv`` where the caller has it."""
    tied_top = votes == row_max(votes)[:, None]
    labels = tied_top.argmax(axis=1)
    tied = row_total(tied_top) > 1
    if not tied.any():
        return labels
    rows = np.flatnonzero(tied)  # the tie-breaks read the tied units' rows only
    left = tied_top[rows]
    # (a) the model's probability of the tied labels
    p = np.where(left, probs[rows], -np.inf)
    left &= p == row_max(p)[:, None]
    # (b) the label used least over the crowd
    freq = np.where(left, votes.sum(axis=0)[None, :], np.inf)
    left &= freq == row_min(freq)[:, None]
    # (c) the mean agreement of the tied labels' voters with the clear majorities
    still = row_total(left) > 1
    if still.any():
        uv = crowd.uv if uv is None else uv
        left[still] &= _skill_ties(crowd, uv, votes, np.where(tied, -1, labels),
                                   rows[still], left[still])
    labels[rows] = left.argmax(axis=1)
    return labels


def _skill_ties(crowd: Crowd, uv: IntArray, votes: FloatArray, clear: IntArray,
                units: IntArray, left: np.ndarray) -> np.ndarray:
    """Tie-break (c) on the ``units`` still tied: which of their ``left`` labels have
    voters of the highest mean agreement with the majorities of the units whose majority
    is clear (``clear``: their label, -1 on a tied unit)."""
    majority = clear[crowd.unit]
    hits = wsum(crowd.rater, crowd.value == majority, crowd.n_raters)
    counted = wsum(crowd.rater, majority >= 0, crowd.n_raters)
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = np.where(counted > 0, hits / counted, np.nan)
    known = ~np.isnan(skill)
    skill = np.where(known, skill, skill[known].mean() if known.any() else np.nan)
    n, k = votes.shape
    mine = np.zeros(n, dtype=bool)
    mine[units] = True
    mine = mine[crowd.unit]
    total = wsum(uv[mine], skill[crowd.rater[mine]], n * k).reshape(n, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(left, total[units] / np.maximum(votes[units], 1), -np.inf)
    best = mean == row_max(mean)[:, None]
    # no annotator agreement to compare (no unit has a clear majority): keep the tie
    best |= ~best.any(axis=1, keepdims=True)
    return best


def annotator_agreement(crowd: Crowd, uv: IntArray, votes: FloatArray, n_u: FloatArray
                        ) -> FloatArray:
    """Each annotator's agreement with the others on the units it rated (step 2's
    ``s_j``; the mean of the others' where it rated no unit rated twice); ``uv`` is
    ``crowd.uv``."""
    same = votes.ravel()[uv] - 1.0
    num = wsum(crowd.rater, same, crowd.n_raters)
    den = wsum(crowd.rater, n_u[crowd.unit] - 1.0, crowd.n_raters)
    agreement = np.divide(num, den, out=np.full_like(num, np.nan), where=den > 0)
    known = ~np.isnan(agreement)
    return np.where(known, agreement, _mean(agreement[known]) if known.any() else np.nan)


@dataclass(frozen=True)
class _Given:
    """What steps 2 and 3 read that does not depend on the consensus labels."""

    crowd: Crowd
    uv: IntArray  # crowd.uv
    votes: FloatArray
    n_u: FloatArray
    many: np.ndarray  # units rated more than once
    agreement: FloatArray
    probs: FloatArray
    scored: np.ndarray
    model_top: IntArray  # the model's top label (first of a shared top)
    counted: np.ndarray  # scored units rated more than once
    n_counted: float  # how many
    root_n: float  # sqrt(mean_u n_u)


def _annotator_votes(g: _Given, mc_error: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The annotators' weights, their weight per (unit, label) and per unit."""
    n, k = g.votes.shape
    weight = np.maximum(1.0 - (1.0 - g.agreement) / mc_error, FLOOR)
    by_label = wsum(g.uv, weight[g.crowd.rater], n * k).reshape(n, k)
    return weight, by_label, by_label.sum(axis=1)


def _weights(g: _Given, labels: IntArray, cached: dict[float, tuple[FloatArray, ...]]
             ) -> Mixture:
    """Steps 2 and 3 given consensus ``labels`` (``cached``: the annotators' votes by the
    most-common-class error they were weighed with)."""
    n, k = g.votes.shape
    agree_u = g.votes[np.arange(n), labels] / g.n_u
    many = g.many
    likelihood = _mean(agree_u[many])
    other = (1.0 - likelihood) / (k - 1)
    common = np.bincount(labels[many], minlength=k).argmax()
    mc_error = max(_mean(labels[many] != common), FLOOR)
    if mc_error not in cached:
        cached[mc_error] = _annotator_votes(g, mc_error)
    weight, by_label, annotation = cached[mc_error]
    hits = float((g.model_top == labels)[g.counted].sum())
    counted = g.n_counted
    model_error = 1.0 - hits / counted if counted else 1.0
    model_weight = max(1.0 - model_error / mc_error, FLOOR) * g.root_n
    mw = np.where(g.scored, model_weight, 0.0)
    post = g.probs * mw[:, None] + other * annotation[:, None] + (likelihood - other) * by_label
    post /= (annotation + mw)[:, None]
    return Mixture(post, labels, weight, g.agreement, model_weight, likelihood, hits, counted)


def _mean(x: np.ndarray) -> float:
    """``x.mean()`` of a 1-d array (float or bool) without ``np.mean``'s overhead: the
    same sum divided by the same count, so the same float."""
    return float(np.add.reduce(x, dtype=np.float64)) / x.shape[0]


def median(x: np.ndarray) -> float:
    """``np.median`` of a 1-d float array without its overhead: the middle of the sorted
    values, or the mean of the middle two (``nan`` if one is ``nan``), so the same float."""
    s = np.sort(x)  # nan sorts last
    n = s.shape[0]
    if not n or np.isnan(s[-1]):
        return math.nan
    m = n // 2
    return float(s[m]) if n % 2 else float((s[m - 1] + s[m]) / 2.0)


def crowdlab(crowd: Crowd, probs: FloatArray, scored: np.ndarray) -> Mixture:
    """CROWDLAB's best-quality consensus of ``crowd`` with the model's ``probs`` (units x
    categories, a row of zeros where ``scored`` is false)."""
    votes, uv = crowd.votes(), crowd.uv
    n_u = row_total(votes)
    many = n_u != 1
    counted = many & scored
    g = _Given(crowd, uv, votes, n_u, many, annotator_agreement(crowd, uv, votes, n_u),
               probs, scored, probs.argmax(axis=1), counted, float(np.count_nonzero(counted)),
               float(np.sqrt(n_u.mean())))
    majority = majority_labels(crowd, votes, np.where(scored[:, None], probs, 0.0), uv)
    cached: dict[float, tuple[FloatArray, ...]] = {}
    post = _weights(g, majority, cached).posterior
    top = post == row_max(post)[:, None]
    best = np.where(row_total(top) == 1, post.argmax(axis=1), majority)
    return _weights(g, best, cached)
