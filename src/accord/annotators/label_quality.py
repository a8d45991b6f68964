"""How likely each consensus label, and each annotator's label, is right.

:attr:`Consensus.quality <accord.annotators.Consensus.quality>` is a :class:`Quality`:

* **consensus quality** of unit ``u``: ``P(T_u = l_u | ratings)``, the estimated
  probability that its consensus label ``l_u`` is the true class. For the EM methods
  (one-coin, Dawid-Skene, GLAD, MACE) it is the fitted posterior of the chosen label.
  For majority vote and Wawa, whose vote shares are not probabilities of being right
  (3 votes of 5 from annotators right 80% of the time make the label right far more
  often than 60% of the time), it is the posterior of the chosen label under the
  one-coin model (Dawid & Skene's homogeneous model: one accuracy per annotator, errors
  spread evenly) fitted to the same ratings (and the model's top labels as one more
  rater whose accuracy the fit learns, when given; under majority vote, where the model
  only breaks ties, this is how a label it chose gets its score), as an estimate of
  how often that vote is right. On a crowd of many categories (free-text answers,
  entity ids), where the vote's posterior is held sparse, the same fit runs on the
  voted cells alone: every label a unit did not receive has the same one-coin
  likelihood, so those labels share one factor per unit
  (:mod:`accord.annotators._coin_sparse`); the scores are the dense fit's, in memory
  proportional to the ratings.
* **annotator label quality** of rating ``i`` (annotator ``r_i`` gave unit ``u_i`` the
  label ``v_i``): ``Q[u_i, v_i]``, the same posterior read at the label given. This is
  CROWDLAB's label-quality score (Goh et al. 2022, sec. 3: the "self-confidence" of the
  annotator's label under the consensus posterior), here under accord's posterior; with
  CROWDLAB's own posterior see ``cleanlab.multiannotator.get_label_quality_multiannotator``.

Units rated once and units whose top posterior is shared (a tie) keep their score and
are flagged (:attr:`Quality.tied`, :attr:`Quality.single_rated`), never left out.

:meth:`Quality.calibration_error` compares the scores with known truth: the expected
calibration error over equal-width bins (Naeini et al. 2015; Guo et al. 2017):
``ECE = sum_b (n_b / n) |acc_b - conf_b|``.

References
----------
Goh, H. W., Tkachenko, U. & Mueller, J. (2022). CROWDLAB: Supervised learning to infer
consensus labels and quality scores for data with multiple annotators. arXiv:2210.06812.
Naeini, M. P., Cooper, G. & Hauskrecht, M. (2015). Obtaining well calibrated
probabilities using Bayesian binning. *AAAI* 29.
Guo, C. et al. (2017). On calibration of modern neural networks. *ICML*, 1321-1330.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v
from accord.errors import DataError
from accord.inference.display import Backend, Tabular, frame
from accord.inference.results import _jsonable

from ._crowd import FloatArray

__all__ = ["Quality", "expected_calibration_error"]

#: The estimate behind the consensus quality, per method.
ESTIMATES = {"majority": "one-coin posterior of the majority label",
             "wawa": "one-coin posterior of the Wawa label",
             "crowdlab": "CROWDLAB posterior of the consensus label (model and votes mixed)"}
POSTERIOR = "fitted posterior of the consensus label"


@dataclass(frozen=True, eq=False)
class Quality(Tabular):
    """Per unit, how likely its consensus label is right; per rating, the same for the
    label the annotator gave (see :mod:`accord.annotators.label_quality`).

    Attributes
    ----------
    estimate : str
        What the scores are: the fitted posterior of the consensus label (EM methods),
        or the one-coin posterior of the voted label (majority, Wawa).
    units, labels : tuple
        The units (as in the consensus) and their consensus labels.
    consensus : (n_units,) array
        ``P(true label = consensus label | ratings)``.
    n_ratings : (n_units,) array
    tied, single_rated : (n_units,) bool arrays
        Flags: the top posterior of the consensus is shared; the unit has one rating.
    rating_unit, rating_rater, rating_label : tuple
        One entry per rating (unit id, annotator id, label given).
    annotator_labels : (n_ratings,) array
        Each rating's label quality (CROWDLAB's definition): the posterior of the label
        given.
    """

    estimate: str
    units: tuple[Any, ...]
    labels: tuple[Any, ...]
    consensus: FloatArray = field(repr=False)
    n_ratings: NDArray[np.int64] = field(repr=False)
    tied: NDArray[np.bool_] = field(repr=False)
    single_rated: NDArray[np.bool_] = field(repr=False)
    annotator_labels: FloatArray = field(repr=False, default_factory=lambda: np.empty(0))
    #: The crowd the ratings come from (their ids are read from it when asked for).
    _crowd: Any = field(repr=False, default=None)

    def __post_init__(self) -> None:
        for a in (self.consensus, self.annotator_labels, self.tied, self.single_rated):
            a.flags.writeable = False

    @cached_property
    def rating_unit(self) -> tuple[Any, ...]:
        """Each rating's unit id (in the order of :attr:`annotator_labels`)."""
        return self._ids("unit_ids", "unit")

    @cached_property
    def rating_rater(self) -> tuple[Any, ...]:
        """Each rating's annotator id."""
        return self._ids("rater_ids", "rater")

    @cached_property
    def rating_label(self) -> tuple[Any, ...]:
        """Each rating's label (the label the annotator gave)."""
        return self._ids("categories", "value")

    def _ids(self, names: str, codes: str) -> tuple[Any, ...]:
        if self._crowd is None:
            return ()
        ids = getattr(self._crowd, names)
        return tuple(ids[i] for i in getattr(self._crowd, codes).tolist())

    def rows(self) -> list[dict[str, Any]]:
        """One mapping per unit (lowest quality first): unit, label, quality, n_ratings,
        tied, single_rated."""
        order = np.argsort(self.consensus, kind="stable")
        return [{"unit": self.units[i], "label": self.labels[i],
                 "quality": float(self.consensus[i]), "n_ratings": int(self.n_ratings[i]),
                 "tied": bool(self.tied[i]), "single_rated": bool(self.single_rated[i])}
                for i in order.tolist()]

    def annotator_rows(self) -> list[dict[str, Any]]:
        """One mapping per rating (lowest label quality first): unit, annotator, label,
        quality."""
        order = np.argsort(self.annotator_labels, kind="stable")
        return [{"unit": self.rating_unit[i], "annotator": self.rating_rater[i],
                 "label": self.rating_label[i], "quality": float(self.annotator_labels[i])}
                for i in order.tolist()]

    def to_frame(self, *, backend: Backend | None = None) -> Any:
        """A frame of :meth:`rows`: pandas when installed, else polars."""
        return frame(self.rows(), backend=backend, func="Quality.to_frame")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision: the estimate, the counts of flagged
        units, the mean label quality, and :meth:`rows` under ``results``."""
        return {"estimate": self.estimate, "n_units": len(self.units),
                "n_tied": int(self.tied.sum()), "n_single_rated": int(self.single_rated.sum()),
                "mean_quality": _jsonable(float(self.consensus.mean())),
                "results": [{k: _jsonable(x) for k, x in r.items()} for r in self.rows()]}

    def __str__(self) -> str:
        return (f"Quality({self.estimate}: {len(self.units)} units, mean "
                f"{float(self.consensus.mean()):.3f}, {int(self.tied.sum())} tied, "
                f"{int(self.single_rated.sum())} rated once)")

    def _frame_rows(self) -> list[dict[str, Any]]:
        return self.rows()

    def calibration_error(self, truth: Mapping[Any, Any], *, n_bins: int = 10) -> float:
        """The expected calibration error of :attr:`consensus` against ``truth`` (unit ->
        true label) on the units it names, over ``n_bins`` equal-width bins of [0, 1]."""
        func = "Quality.calibration_error"
        v.positive_int(n_bins, param="n_bins", func=func)
        at = [i for i, u in enumerate(self.units) if u in truth]
        if not at:
            raise DataError(f"{func}: truth names none of the {len(self.units)} units.")
        right = np.array([self.labels[i] == truth[self.units[i]] for i in at], dtype=float)
        return expected_calibration_error(self.consensus[at], right, n_bins=n_bins)


def expected_calibration_error(confidence: Any, correct: Any, *, n_bins: int = 10) -> float:
    """``sum_b (n_b / n) |mean(correct in b) - mean(confidence in b)|`` over ``n_bins``
    equal-width bins of [0, 1] (a score of exactly 1 falls in the last bin).

    >>> expected_calibration_error([0.9, 0.9, 0.6, 0.6], [1, 1, 1, 0])
    0.1
    """
    conf = np.asarray(confidence, dtype=np.float64)
    hit = np.asarray(correct, dtype=np.float64)
    b = np.minimum((conf * n_bins).astype(np.int64), n_bins - 1)
    n_b = np.bincount(b, minlength=n_bins)
    gap = np.abs(np.bincount(b, hit, n_bins) - np.bincount(b, conf, n_bins))
    return round(float(gap.sum() / max(int(n_b.sum()), 1)), 15)


def posterior_at(q_post: Any, rows: Any, cols: Any) -> FloatArray:
    """``q_post[rows, cols]`` of a dense posterior or of one held at the voted cells
    (:class:`accord.annotators._coin_sparse.SparsePosterior`)."""
    if hasattr(q_post, "at"):
        return np.asarray(q_post.at(rows, cols))
    q = np.asarray(q_post)
    return np.asarray(q.take(rows * q.shape[1] + cols))  # the cells in row-major order


def quality_of(c: Any, q_post: Any, crowd: Any) -> Quality:
    """The :class:`Quality` of consensus ``c`` from the units x categories posterior
    ``q_post`` it is read from (dense, or held at the voted cells) and the crowd's codes
    (``None``: no per-rating scores)."""
    codes = c.label_codes
    cons = posterior_at(q_post, np.arange(codes.shape[0]), codes)
    cats = c.categories
    estimate = ESTIMATES.get(c.method, POSTERIOR)
    at = codes.tolist()
    labels = operator.itemgetter(*at)(cats) if len(at) > 1 else tuple(cats[i] for i in at)
    made = dict(estimate=estimate, units=c.units, labels=labels,
                consensus=np.ascontiguousarray(cons), n_ratings=c.n_ratings,
                tied=np.array(c._tied_mask), single_rated=np.asarray(c.n_ratings == 1))
    if crowd is None:
        return Quality(**made)
    scores = posterior_at(q_post, crowd.unit, crowd.value)
    return Quality(**made, annotator_labels=np.ascontiguousarray(scores), _crowd=crowd)
