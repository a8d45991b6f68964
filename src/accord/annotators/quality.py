"""``annotators``: one row per annotator: how good, how biased, and who to check.

Accuracy is measured against a reference when there is one, else against the
consensus labels (which the annotator helped make: said in ``against``). Model
figures (``competence``, the confusion matrix without a reference) are point
estimates of the fitted model; the intervals are bootstraps over the
annotator's units of the figures computed from labels (accuracy, agreement
with the consensus, agreement with the others).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import DataError, DegenerateDataWarning
from accord.inference import Bootstrap
from accord.inference.display import Backend, Displayed, Tabular, frame
from accord.inference.results import AgreementResult, ConfidenceInterval, _jsonable

from . import _figures as fig
from . import _model, _refit
from ._crowd import Crowd, FloatArray, IntArray, crowd_of
from ._sparse import refuse_confusions
from .consensus import METHODS, Method, check_options, consensus_of
from .result import Consensus

__all__ = ["AnnotatorQuality", "Annotators", "annotators", "display_order"]

#: Annotators with fewer units than this are never flagged: their interval is too wide.
MIN_UNITS_TO_FLAG = 10


@dataclass(frozen=True, eq=False)
class AnnotatorQuality(Displayed):
    """The figures of one annotator.

    Attributes
    ----------
    name : object
        The annotator's id.
    n_units : int
        Units the annotator rated.
    accuracy : AgreementResult
        Share of the annotator's units where their label equals the reference (or, with
        no reference, the consensus label); ``per_category`` holds the recall per true
        class. ``confidence_interval()`` is Wilson's score interval from the two counts;
        ``confidence_interval(method=accord.Bootstrap(...))`` resamples units.
    consensus_agreement : AgreementResult
        Share of the annotator's units where their label equals the consensus label.
    agreement : AgreementResult
        Cohen's kappa of the annotator against every other annotator, pairs pooled
        (``kappa_vs_others``); bootstrap intervals only.
    confusion : (k, k) array
        Rows = true class (reference or inferred), columns = the annotator's label;
        each row sums to 1 (``nan`` for a class the annotator never met).
    competence : float
        The model's figure: P(correct) for Dawid-Skene (``sum_c pi_c theta[c, c]``) and
        one-coin, ``alpha`` for GLAD, the knowing probability for MACE, the share of
        agreement with the majority (on units whose majority is not tied) for
        ``"majority"`` and ``"wawa"``. Its interval:
        :meth:`Annotators.competence_interval` (a bootstrap that refits the model).
    spammer_score : float
        Raykar & Yu (2012) from :attr:`confusion`: 0 = labels unrelated to the truth, 1 = perfect.
    label_share : (k,) array
        The annotator's share of each category (compare :attr:`Annotators.pool_share`).
    bias : float
        Total variation distance between :attr:`label_share` and the pool's share.
    flag : str or None
        One sentence when the annotator's accuracy interval lies below the pool's.
    competence_figure, spammer_figure : AgreementResult
        :attr:`competence` and :attr:`spammer_score` as results whose
        ``confidence_interval(method=accord.Bootstrap(...))`` (or ``"jackknife"``)
        resamples units and refits the model on each resample, warm-started from the
        converged parameters (one refit per resample, shared by every figure of every
        annotator). Resamples where the annotator rated nothing or EM did not converge
        are left out and counted in ``n_excluded``.
    confusion_figures : mapping
        ``(true label, given label) -> AgreementResult``: each cell of :attr:`confusion`,
        with the same refitting bootstrap.
    flag_interval : ConfidenceInterval or None
        The accuracy interval the flag was decided on (with ``n_resamples``: the
        bootstrap's); :meth:`to_dict` writes it as the accuracy's interval.
    """

    name: Any
    n_units: int
    accuracy: AgreementResult
    consensus_agreement: AgreementResult
    agreement: AgreementResult
    confusion: NDArray[np.float64] = field(repr=False)
    competence: float
    spammer_score: float
    label_share: NDArray[np.float64] = field(repr=False)
    bias: float
    flag: str | None = None
    competence_figure: AgreementResult | None = field(default=None, repr=False)
    spammer_figure: AgreementResult | None = field(default=None, repr=False)
    confusion_figures: Mapping[tuple[Any, Any], AgreementResult] = field(
        default_factory=dict, repr=False)
    flag_interval: ConfidenceInterval | None = field(default=None, repr=False)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """JSON-ready mapping at full precision; each figure with its interval at
        ``confidence_level`` (the accuracy's: Wilson's, or the flag's own)."""
        level = confidence_level
        return {
            "name": _jsonable(self.name), "n_units": self.n_units,
            "accuracy": self.accuracy.to_dict(level, interval=self.flag_interval),
            "consensus_agreement": self.consensus_agreement.to_dict(level),
            "agreement": self.agreement.to_dict(level),
            "confusion": _jsonable(self.confusion), "competence": _jsonable(self.competence),
            "spammer_score": _jsonable(self.spammer_score),
            "label_share": _jsonable(self.label_share), "bias": _jsonable(self.bias),
            "flag": self.flag,
        }


@dataclass(frozen=True, eq=False)
class Annotators(Tabular):
    """Per-annotator quality; ``a[name]`` is an :class:`AnnotatorQuality`.

    Attributes
    ----------
    rows : tuple of AnnotatorQuality
        One per annotator, in the order of the data.
    against : {"reference", "consensus"}
        What accuracy was measured against.
    consensus : Consensus
        The consensus the figures used.
    categories : tuple
        Rows and columns of each confusion matrix.
    pool_accuracy : float
        Accuracy of all ratings together.
    pool_share : (k,) array
        The share of each category over all ratings.
    confidence_level : float
        The level of the intervals behind the flags.
    interval : {"wilson", "bootstrap"}
        The accuracy interval behind the flags: Wilson's score interval (the default),
        or a bootstrap over units when ``n_resamples`` was given.
    """

    rows: tuple[AnnotatorQuality, ...]
    against: str
    consensus: Consensus = field(repr=False)
    categories: tuple[Any, ...]
    pool_accuracy: float
    pool_share: NDArray[np.float64] = field(repr=False)
    confidence_level: float = 0.95
    crowd: Crowd | None = field(default=None, repr=False)
    fit_options: Mapping[str, Any] = field(default_factory=dict, repr=False)
    interval: str = "wilson"

    def competence_interval(self, name: Any, confidence_level: float | None = None, *,
                            n_resamples: int = 200,
                            rng: int | np.random.Generator | None = 0) -> ConfidenceInterval:
        """A bootstrap interval of ``a[name].competence``, refitting the model on each
        resample of units (from its default start; one full fit per resample).

        Examples
        --------
        >>> import accord
        >>> ratings = [["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"], ["b", "b", "a"]]
        >>> q = accord.annotators(ratings, method="wawa")
        >>> ci = q.competence_interval("rater_3", n_resamples=50)
        >>> ci.method, 0 <= ci.low <= q["rater_3"].competence <= ci.high <= 1
        ('bootstrap-refit', True)
        """
        level = v.confidence_level(confidence_level or self.confidence_level,
                                   func="competence_interval")
        row = self[name]
        if self.crowd is None:
            raise DataError("competence_interval needs the ratings the figures came from.")
        return _refit.competence_interval(
            self.crowd, self.consensus.method, self.names.index(name), row.competence,
            level, Bootstrap(n_resamples=n_resamples, rng=rng), **self.fit_options)

    def __getitem__(self, name: Any) -> AnnotatorQuality:
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(f"no annotator {name!r}; the annotators are "
                       f"{[r.name for r in self.rows][:10]!r}")

    def __iter__(self) -> Iterator[AnnotatorQuality]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def names(self) -> tuple[Any, ...]:
        """The annotators, in the order of the data."""
        return tuple(r.name for r in self.rows)

    @property
    def flagged(self) -> tuple[AnnotatorQuality, ...]:
        """The annotators worth checking, lowest accuracy first."""
        rows = [r for r in self.rows if r.flag]
        return tuple(sorted(rows, key=lambda r: r.accuracy.estimate))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {
            "against": self.against, "method": self.consensus.method,
            "categories": _jsonable(list(self.categories)),
            "pool_accuracy": _jsonable(self.pool_accuracy),
            "pool_share": _jsonable(self.pool_share),
            "confidence_level": self.confidence_level, "interval_method": self.interval,
            "flagged": [_jsonable(r.name) for r in self.flagged],
            "annotators": [r.to_dict(self.confidence_level) for r in self.rows],
            **({} if self.consensus.model is None else {"model": self.consensus.model.to_dict(
                self.confidence_level)}),
        }

    def to_frame(self, *, backend: Backend | None = None) -> Any:
        """A frame, one row per annotator (in :func:`display_order`): pandas when
        installed, else polars (``backend`` chooses)."""
        return frame(self._frame_rows(), backend=backend, func="Annotators.to_frame")

    def _frame_rows(self) -> list[dict[str, Any]]:
        order = display_order(self)
        return [{
            "annotator": r.name, "n_units": r.n_units, "accuracy": r.accuracy.estimate,
            "consensus_agreement": r.consensus_agreement.estimate,
            "kappa_vs_others": r.agreement.estimate, "competence": r.competence,
            "spammer_score": r.spammer_score, "bias": r.bias, "flag": r.flag or "",
        } for r in order]


def annotators(
    annotations: Any,
    *,
    reference: Any = None,
    method: Method = "dawid_skene",
    categories: Sequence[Any] | None = None,
    confidence_level: float = 0.95,
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = 0,
    tol: float = 1e-7,
    max_iter: int = 1000,
    accelerate: bool = False,
    model: Any = None,
) -> Annotators:
    """One row of quality figures per annotator.

    Parameters
    ----------
    annotations : Annotations or units x raters table
        Categorical ratings by three or more annotators (two work, but then the
        consensus cannot tell them apart).
    reference : rater name or mapping of unit -> label, optional
        The true labels: a rater of ``annotations`` (taken out of the crowd) or a
        mapping. Without one, accuracy is measured against the consensus labels.
    method : {"majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"}
        The consensus model (see :func:`accord.consensus`).
    categories : sequence, optional
        The category order.
    confidence_level, n_resamples, rng
        The interval behind the flags: an annotator is flagged when the upper limit of
        their accuracy interval lies below the pool's accuracy (only with at least 10
        units). By default Wilson's (1927) score interval from their two counts (units
        given the label, units with a label), the interval of
        ``accuracy.confidence_interval()``; with ``n_resamples``, a bootstrap over their
        units of that many resamples, seeded by ``rng`` (0 by default, so a run is
        reproducible). The flag's sentence names the interval.
    tol, max_iter, accelerate
        Passed to :func:`accord.consensus` (and to the refits of the model figures'
        bootstrap).
    model : DataFrame or mapping, optional
        A model's class probabilities, one more annotator of the consensus (see
        :func:`accord.consensus`); its estimated accuracy with an interval is
        ``q.consensus.model`` (the annotators' rows are measured against that consensus).

    Returns
    -------
    Annotators

    Examples
    --------
    >>> import accord
    >>> ratings = [["a", "a", "b"], ["b", "b", "b"], ["a", "a", "a"], ["b", "b", "a"]]
    >>> q = accord.annotators(ratings, method="majority")
    >>> q.against, [round(r.accuracy.estimate, 2) for r in q]
    ('consensus', [1.0, 1.0, 0.5])
    >>> q["rater_3"].confusion.tolist()
    [[0.5, 0.5], [0.5, 0.5]]
    """
    func = "annotators"
    v.choice(method, METHODS, param="method", func=func)
    level = v.confidence_level(confidence_level, func=func)
    boot = None if n_resamples is None else Bootstrap(n_resamples=n_resamples, rng=rng)
    ann = as_annotations(annotations, categories=categories, func=func)
    ann, truth_labels = _split_reference(ann, reference, func)
    fit_options: dict[str, Any] = {"tol": tol, "max_iter": max_iter, "accelerate": accelerate}
    crowd = crowd_of(ann, func="consensus")  # what consensus() refuses, in its words
    refuse_confusions(crowd, func)
    check_options(method, tol, max_iter, 0.9, accelerate, "consensus")
    if model is not None:
        _model.refuse_method(method, "consensus")
    matrix = crowd.rating_matrix()  # one for the fit (Dawid-Skene) and the figures
    cons = consensus_of(crowd, method, tol=tol, max_iter=max_iter, accelerate=accelerate,
                        matrix=matrix, model=model)
    truth = _consensus_truth(cons) if truth_labels is None else _codes(truth_labels, crowd, func)
    rows, pool = _rows(crowd, cons, truth, matrix, against="consensus" if truth_labels is None
                       else "reference", fit_options=fit_options)
    del matrix
    flagged = _flag(rows, crowd, cons, truth, pool, level, boot, truth_labels is None)
    votes_total = np.bincount(crowd.value, minlength=crowd.k).astype(np.float64)
    return Annotators(flagged, "consensus" if truth_labels is None else "reference", cons,
                      crowd.categories, pool, votes_total / votes_total.sum(), level, crowd,
                      fit_options, "wilson" if boot is None else "bootstrap")


def display_order(q: Annotators) -> list[AnnotatorQuality]:
    """The annotators as every listing shows them: the flagged ones (lowest accuracy
    first), then the others by accuracy, highest first (undefined last; ties keep the
    data's order)."""
    rest = sorted((r for r in q.rows if not r.flag),
                  key=lambda r: -(r.accuracy.estimate if r.accuracy.defined else -math.inf))
    return [*q.flagged, *rest]


def _consensus_truth(cons: Consensus) -> IntArray:
    """The consensus label codes, ``-1`` for tied units (a tie is no label to compare with)."""
    codes = cons.label_codes.copy()
    codes[cons._tied_mask] = -1
    return codes


def _split_reference(ann: Annotations, reference: Any, func: str
                     ) -> tuple[Annotations, Mapping[Any, Any] | None]:
    if reference is None:
        return ann, None
    if isinstance(reference, Mapping):
        return ann, reference
    if reference not in ann.raters:
        raise DataError(f"{func}: reference {reference!r} is neither a rater of the data "
                        f"({list(ann.raters)[:10]!r}) nor a mapping of unit to label.")
    gold = ann.select([reference])
    labels = {u: lab for u, _, lab in gold.records()}
    return ann.select([r for r in ann.raters if r != reference]), labels


def _codes(labels: Mapping[Any, Any], crowd: Crowd, func: str) -> IntArray:
    """The reference as category codes per unit (``-1`` = no reference for the unit)."""
    index = {c: i for i, c in enumerate(crowd.categories)}
    unknown = sorted({str(x) for x in labels.values() if x not in index})
    if unknown:
        raise DataError(f"{func}: the reference uses label(s) {unknown[:5]!r} that no "
                        f"annotator used; the annotators' labels are "
                        f"{list(crowd.categories)[:10]!r}.")
    codes = np.array([index.get(labels.get(u), -1) if u in labels else -1
                      for u in crowd.unit_ids], dtype=np.int64)
    if not (codes >= 0).any():
        raise DataError(f"{func}: the reference labels none of the annotators' units.")
    return codes


def _rows(crowd: Crowd, cons: Consensus, truth: IntArray, matrix: Any, *, against: str,
          fit_options: Mapping[str, Any]) -> tuple[list[AnnotatorQuality], float]:
    votes = crowd.votes()
    tally = fig.tally(crowd, matrix, truth, cons.label_codes, votes)
    hits, counts = tally.hits_and_counts(tally.truth)
    c_hits, c_counts = tally.hits_and_counts(tally.label)
    rec_h, rec_n = tally.recall()
    params = dict(cons.parameters)
    # under majority vote, Wawa's weights are the shares of agreement with the untied
    # majority label: hits / counts against the consensus, counted already
    skill = (hits / np.maximum(counts, 1)
             if cons.method == "majority" and against == "consensus" else None)
    comp, spam, conf = _refit.model_figures(crowd, cons.method, params, cons.posterior, truth,
                                            against, hard=tally.confusion, skill=skill)
    figures = _ModelFigures(crowd, cons, truth if against == "reference" else None,
                            fit_options, comp, spam, conf)
    share = tally.given / np.maximum(tally.given.sum(axis=1, keepdims=True), 1)
    pool_share = np.bincount(crowd.value, minlength=crowd.k) / crowd.n_ratings
    totals = tally.kappa_totals()
    by = fig.ByRater(crowd)
    n_rated = by.counts
    rows = []
    for r, name in enumerate(crowd.rater_ids):
        per_cat = {crowd.categories[c]: {"recall": _ratio(rec_h[r, c], rec_n[r, c]),
                                         "n": float(rec_n[r, c])} for c in range(crowd.k)}
        acc = fig.proportion("accuracy", hits[r], counts[r], details={"against": against},
                             per_category=per_cat,
                             resampling=fig.share_resampling(hits[r], counts[r]))
        agree = fig.proportion("consensus_agreement", c_hits[r], c_counts[r],
                               details={"method": cons.method}, per_category=None,
                               resampling=fig.share_resampling(c_hits[r], c_counts[r]))
        kappa = fig.kappa_result(totals[r], int(n_rated[r]),
                                 partial(fig.kappa_features_of, crowd, votes, by, r))
        rows.append(AnnotatorQuality(
            name, int(n_rated[r]), acc, agree, kappa, conf[r], float(comp[r]),
            float(spam[r]), share[r], float(0.5 * np.abs(share[r] - pool_share).sum()),
            None, *figures.of(r)))
    _warn_undefined(rows)
    return rows, _ratio(hits.sum(), counts.sum())


class _ModelFigures:
    """The model figures of every annotator as results sharing one refit per resample."""

    def __init__(self, crowd: Crowd, cons: Consensus, reference: IntArray | None,
                 fit_options: Mapping[str, Any], comp: FloatArray, spam: FloatArray,
                 conf: FloatArray) -> None:
        start = _refit.warm_start(cons.method, dict(cons.parameters), cons.posterior)
        self.refit = _refit.model_refit(crowd, cons.method, start, reference, **fit_options)
        self.cache: dict[bytes, FloatArray] = {}
        self.crowd, self.method = crowd, cons.method
        self.comp, self.spam, self.conf = comp, spam, conf
        self.n_units = crowd.per_rater_units()
        cats, k = crowd.categories, crowd.k
        self.cell_index = MappingProxyType(
            {(cats[c], cats[d]): c * k + d for c in range(k) for d in range(k)})

    def of(self, r: int) -> tuple[AgreementResult, AgreementResult,
                                  Mapping[tuple[Any, Any], AgreementResult]]:
        crowd, k = self.crowd, self.crowd.k
        base = 2 * crowd.n_raters + r * k * k
        cells = fig.LazyResults(self.cell_index, lambda i: self._figure(
            "confusion", float(self.conf[r].flat[i]), base + i, r, (0.0, 1.0)))
        return (self._figure("competence", float(self.comp[r]), r, r, (-math.inf, math.inf)),
                self._figure("spammer_score", float(self.spam[r]), crowd.n_raters + r, r,
                             (0.0, 1.0)), cells)

    def _figure(self, name: str, est: float, column: int, r: int,
                bounds: tuple[float, float]) -> AgreementResult:
        why = None if math.isfinite(est) else (
            f"the annotator's {name.replace('_', ' ')} is undefined (e.g. a true class "
            "they never met)")
        return AgreementResult(
            coefficient=f"annotator_{name}", estimate=est, observed=math.nan,
            expected=math.nan, se=math.nan, n_units=int(self.n_units[r]), n_raters=1,
            undefined_reason=why, bounds=bounds,
            details={"annotator": self.crowd.rater_ids[r], "method": self.method,
                     "interval_note": "bootstrap or jackknife over units, refitting the "
                     "model from its converged parameters"},
            resampling=partial(_refit.refit_resampling, self.crowd.n_units, self.refit,
                               self.cache, column))


def _ratio(a: float, b: float) -> float:
    return float(a / b) if b else math.nan


def _warn_undefined(rows: list[AnnotatorQuality]) -> None:
    """One warning per figure that is undefined for some annotators, naming them."""
    for figure in ("accuracy", "agreement"):
        bad = [r.name for r in rows if getattr(r, figure).undefined_reason]
        if bad:
            shown = ", ".join(repr(b) for b in bad[:5]) + (", ..." if len(bad) > 5 else "")
            warnings.warn(f"{getattr(rows[0], figure).coefficient} is undefined for "
                          f"{len(bad)} annotator(s) ({shown}): see each one's "
                          f"{figure}.undefined_reason.", DegenerateDataWarning,
                          stacklevel=v.user_level())


def _flag(rows: list[AnnotatorQuality], crowd: Crowd, cons: Consensus, truth: IntArray,
          pool: float, level: float, boot: Bootstrap | None, inferred: bool
          ) -> tuple[AnnotatorQuality, ...]:
    """Flag annotators whose accuracy interval lies below the pool's accuracy."""
    what = "agrees with the consensus" if inferred else "matches the reference"
    out = []
    for row in rows:
        acc = row.accuracy
        if acc.n_units >= MIN_UNITS_TO_FLAG and acc.defined and acc.estimate < pool:
            ci = (acc.confidence_interval(level) if boot is None
                  else acc.confidence_interval(level, method=boot))
            kind = "Wilson" if boot is None else "bootstrap"
            if ci.high < pool:
                row = _with_flag(row, f"{row.name} {what} on {acc.estimate:.0%} of "
                                 f"{acc.n_units} units ({level:.0%} {kind} CI {ci.low:.0%}-"
                                 f"{ci.high:.0%}), the pool on {pool:.0%}: check their "
                                 "guideline reading.", ci)
        out.append(row)
    return tuple(out)


def _with_flag(row: AnnotatorQuality, flag: str, ci: ConfidenceInterval) -> AnnotatorQuality:
    from dataclasses import replace

    return replace(row, flag=flag, flag_interval=ci)

