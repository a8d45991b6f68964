"""The posterior behind a consensus's quality scores, and ties broken by quality.

* :func:`quality_posterior`: the EM methods' fitted posterior; for majority vote and
  Wawa, the one-coin model's posterior fitted to the same ratings (and the model's top
  labels as one more rater whose accuracy the fit learns, when given: under majority
  vote too, where the model only breaks the crowd's ties, so that the score of a label
  the model chose reflects it), see :mod:`.label_quality`. On a crowd of many
  categories (a vote's posterior held sparse, :mod:`._sparse`, or units x categories
  past 16 cells per rating) the same fit runs on the voted cells alone
  (:mod:`._coin_sparse`): the same figures, in O(ratings) time and memory a step.
* :func:`tie_codes`: ``tie_break="quality"``. Each annotator's quality is its share of
  agreement with the majority label on the units whose majority is not tied (Wawa's
  weight; an annotator with no such unit gets the mean of the others, as in CROWDLAB's
  third tie-break, Goh et al. 2022, ``cleanlab.multiannotator.get_majority_vote_label``);
  a tied unit takes the tied label whose voters have the highest mean quality. A tie
  that remains keeps the first of the labels still tied. On a crowd of two ratings a
  unit every clear majority is unanimous, so every annotator's quality is 1 and the
  ties stay as ``"first"`` leaves them.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from accord.errors import ConvergenceWarning, DataError

from ._crowd import Crowd, FloatArray, IntArray, wsum

#: The voting methods, whose quality is read from a one-coin fit.
VOTING = ("majority", "wawa")


def quality_posterior(c: Any) -> Any:
    """Units x categories: the posterior the quality scores of ``c`` are read from; for a
    vote on a crowd of many categories (a sparse posterior), the one-coin posterior held
    at the voted cells (:class:`._coin_sparse.SparsePosterior`)."""
    if c.method not in VOTING:
        return np.asarray(c.posterior)
    crowd = c.crowd
    if crowd is None:
        raise DataError(f"Consensus.quality: a {c.method} consensus scores its labels with a "
                        "one-coin fit to its ratings, which this result does not hold (run "
                        "accord.consensus on the ratings).")
    from . import _coin_sparse, _em, _model, _sparse

    if c.soft is not None:  # the model's top label as one more rater, its accuracy fitted
        crowd = _model.voters(crowd, c.soft)
    # at the voted cells: the same figures, O(ratings) a step rather than units x categories
    held = (hasattr(c.posterior, "tocsr")
            or crowd.n_units * crowd.k > _sparse.CELLS_PER_RATING * crowd.n_ratings)
    with warnings.catch_warnings():  # a capped fit still scores; its posterior is used
        warnings.simplefilter("ignore", ConvergenceWarning)
        if held:
            return _coin_sparse.one_coin(crowd, tol=1e-7, max_iter=1000).posterior
        fit = _em.fit("one_coin", crowd, tol=1e-7, max_iter=1000)
    return np.asarray(fit.posterior)


def majority_skill(crowd: Crowd, shares: FloatArray) -> FloatArray:
    """Each annotator's share of agreement with the majority label on the units whose
    majority is not tied (``nan`` for an annotator with no such unit)."""
    clear = (shares == shares.max(axis=1, keepdims=True)).sum(axis=1) == 1
    majority = np.where(clear, shares.argmax(axis=1), -1)[crowd.unit]
    hits = wsum(crowd.rater, crowd.value == majority, crowd.n_raters)
    counted = wsum(crowd.rater, majority >= 0, crowd.n_raters)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(counted > 0, hits / counted, np.nan))


def tie_codes(crowd: Crowd, post: FloatArray, shares: FloatArray) -> IntArray:
    """Per unit the label chosen among the tied top labels of ``post`` by the mean
    quality of their voters (``-1`` where the unit is not tied)."""
    n, k = post.shape
    top = post.max(axis=1, keepdims=True)
    is_top = post == top
    tied = is_top.sum(axis=1) > 1
    out = np.full(n, -1, dtype=np.int64)
    if not tied.any():
        return out
    skill = majority_skill(crowd, shares)
    known = ~np.isnan(skill)
    skill = np.where(known, skill, float(skill[known].mean()) if known.any() else 0.0)
    mine = tied[crowd.unit]
    cell = crowd.uv[mine]
    total = wsum(cell, skill[crowd.rater[mine]], n * k).reshape(n, k)
    count = np.bincount(cell, minlength=n * k).reshape(n, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(is_top & (count > 0), total / np.maximum(count, 1), -np.inf)
    rows = np.flatnonzero(tied)
    out[rows] = mean[rows].argmax(axis=1)
    return out
