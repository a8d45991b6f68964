"""Per-annotator quality (:func:`accord.annotators`) with the ratings kept in the engine.

The consensus is fitted in the engine (:mod:`accord.engines._consensus`); one more
query counts, per (rater, label) key, what every figure reads
(:mod:`accord.engines._tallies`, the counts of
:class:`accord.annotators._figures.Tally`); the figures are then the in-memory
formulas on that ``n_raters * k x (3k + 1)`` table:

* accuracy and agreement with the consensus: hits over ratings with a label
  (trace and total of ``C`` and ``L``), per-class recall from ``C``;
* Cohen's kappa against the other annotators, pairs pooled: ``p_o`` and ``p_e`` from
  ``V`` and ``O`` (:func:`accord.annotators._figures.kappa_totals`);
* the confusion matrix: Dawid-Skene's fitted one against the consensus; one-coin and
  MACE, the posterior mass of each (true, given) cell; the voting methods and a gold
  column, ``C`` with its rows normalised; the spammer score (Raykar & Yu 2012) from it;
* competence: the fitted model's (Dawid-Skene ``sum_c pi_c theta[c, c]``, one-coin's
  accuracy, MACE's competence), or the agreement with the untied majority (majority
  vote, Wawa), as in memory.

Intervals. Accuracy and agreement with the consensus keep both of theirs: Wilson's
(1927) score interval and the bootstrap, which resamples the annotator's units
through two patterns (hit, miss) built from the two counts, so the same seed gives
the same interval as in memory (and the same flags, with ``n_resamples``). The kappa
against the others has no analytic interval in memory, only a bootstrap over the
annotator's units whose per-unit patterns (the unit's votes with the annotator's
label) are not a small table: here it has no interval, and asking for one says why
(``details["se_note"]``). The model figures' bootstrap refits the model on each
resample of units (``competence_figure``, ``spammer_figure``,
``confusion_figures``, :meth:`~accord.annotators.Annotators.competence_interval`):
not run on an engine, said the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any, cast

import numpy as np

from accord.annotators import _figures as fig
from accord.annotators import _refit
from accord.annotators._sparse import refuse_confusions
from accord.annotators.quality import AnnotatorQuality, Annotators, _flag, _warn_undefined
from accord.data import _validation as v
from accord.engines import _crowd as ec
from accord.engines import _frame as fr
from accord.engines import _tallies as tl
from accord.engines._consensus import EngineMethod, Fitted, check, fit
from accord.engines._crowd import EngineCrowd, FloatArray
from accord.engines._result import EngineResult
from accord.errors import DataError
from accord.inference import Bootstrap
from accord.inference.results import AgreementResult

__all__ = ["annotators"]

_FUNC = "accord.engines.annotators"
#: Why the kappa against the others has no interval on an engine.
KAPPA_NOTE = ("counted on an engine, it has no interval: its bootstrap resamples the "
              "annotator's units through their vote patterns, which stay in the engine "
              "(accord.annotators in memory has it)")
#: Why the model figures have no interval on an engine.
REFIT_NOTE = ("counted on an engine, it has no interval: its bootstrap refits the model "
              "on resamples of the units, which stay in the engine (accord.annotators in "
              "memory has it)")


def annotators(
    frame: Any,
    *,
    unit: str,
    rater: str,
    value: str,
    gold: str | None = None,
    method: EngineMethod = "dawid_skene",
    categories: Sequence[Any] | None = None,
    missing: Sequence[Any] = (),
    confidence_level: float = 0.95,
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = 0,
    tol: float = 1e-7,
    max_iter: int = 1000,
    accelerate: bool = False,
) -> EngineResult[Annotators]:
    """One row of quality figures per annotator, the ratings kept in the engine.

    Parameters
    ----------
    frame : dataframe
        Long ratings in any frame :func:`accord.engines.consensus` reads (polars,
        pandas, pyarrow, DuckDB, Dask, PySpark).
    unit, rater, value : str
        The columns of the unit id, rater id and label.
    gold : str, optional
        A column of ``frame`` holding each unit's reference label (the same on every
        row of the unit; missing on some rows, or on every row of a unit without
        one). Without it, accuracy is measured against the consensus labels.
    method : {"majority", "wawa", "one_coin", "dawid_skene", "mace"}
        The consensus model, fitted in the engine as by
        :func:`accord.engines.consensus` (GLAD runs in memory only).
    categories, missing
        As in :func:`accord.engines.consensus`.
    confidence_level, n_resamples, rng
        The interval behind the flags, as in :func:`accord.annotators`: Wilson's, or
        with ``n_resamples`` a bootstrap of each annotator's accuracy (from the two
        counts, as in memory).
    tol, max_iter, accelerate
        As in :func:`accord.engines.consensus`.

    Returns
    -------
    EngineResult
        ``statistic``: the :class:`~accord.annotators.Annotators`
        :func:`accord.annotators` gives for the same ratings (with ``gold``: given
        ``reference=`` the mapping of unit to gold label), annotators and units in
        sorted order; every figure equal to the in-memory one to rounding (the
        counts exactly, the fitted figures to about 1e-12). ``audit``: as
        :func:`accord.engines.consensus`'s.

    Notes
    -----
    Not on an engine, each said on the figure when asked for: the kappa against the
    others has no interval (its bootstrap needs per-unit vote patterns), the model
    figures (competence, spammer score, confusion cells) have no interval (their
    bootstrap refits the model on resampled units), and
    :meth:`~accord.annotators.Annotators.competence_interval` needs the ratings. The
    estimates are all there.

    Examples
    --------
    >>> import polars as pl
    >>> from accord.engines import annotators
    >>> lf = pl.LazyFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
    ...                    "worker": list("abcabcabcabc"),
    ...                    "label": list("aabbbbaaabba")})
    >>> q, audit = annotators(lf, unit="item", rater="worker", value="label",
    ...                       method="majority")
    >>> q.against, [round(r.accuracy.estimate, 2) for r in q]
    ('consensus', [1.0, 1.0, 0.5])
    """
    check(unit, rater, value, method, tol=tol, max_iter=max_iter, threshold=0.9,
          accelerate=accelerate, func=_FUNC)
    if gold is not None and (not isinstance(gold, str) or gold in (unit, rater, value)):
        raise v.fail("gold", _FUNC, "a column other than unit=, rater= and value=", gold)
    level = v.confidence_level(confidence_level, func=_FUNC)
    boot = None if n_resamples is None else Bootstrap(n_resamples=n_resamples, rng=rng)
    cats, extra = fr.names(categories, missing, func=_FUNC)
    crowd = ec.crowd(frame, (unit, rater, value), cats, extra, func=_FUNC)
    try:
        refuse_confusions(cast(Any, crowd), _FUNC)
        golden = None if gold is None else tl.gold_table(
            frame, (unit, rater, gold), extra, crowd.categories, crowd.ratings, func=_FUNC)
        fitted = fit(crowd, method, tol=float(tol), max_iter=max_iter, accelerate=accelerate)
        q = _annotators(crowd, fitted, golden, level, boot,
                        {"tol": float(tol), "max_iter": max_iter, "accelerate": accelerate})
        return EngineResult(q, crowd.audit)
    finally:
        ec.release(crowd.ratings)


def _annotators(crowd: EngineCrowd, fitted: Fitted, gold: Any, level: float,
                boot: Bootstrap | None, fit_options: dict[str, Any]) -> Annotators:
    """Collect the consensus and the tally from one held copy of the posteriors."""
    method = fitted.method
    units = ec.keep(fitted.units)
    try:
        cons = fitted.consensus(ec.unit_table(crowd, units), 0.9)
        soft = gold is None and method in ("one_coin", "mace")
        out, mass = tl.tally(crowd, tl.labels(units, crowd.k, soft=soft), gold, soft=soft)
    finally:
        ec.release(units)
    tally = fig.Tally(out, crowd.n_raters, crowd.k)
    against = "consensus" if gold is None else "reference"
    if gold is not None and not tally.truth.any():
        raise DataError(f"{_FUNC}: the gold column labels none of the annotators' units.")
    rows, pool = _rows(crowd, cons.method, dict(cons.parameters), tally, mass, against)
    _warn_undefined(rows)
    flagged = _flag(rows, cast(Any, None), cons, cast(Any, None), pool, level, boot,
                    gold is None)
    per_class = crowd.per_key.reshape(crowd.n_raters, crowd.k).sum(axis=0)
    return Annotators(flagged, against, cons, crowd.categories, pool,
                      per_class / per_class.sum(), level, None, fit_options,
                      "wilson" if boot is None else "bootstrap")


def _rows(crowd: EngineCrowd, method: str, params: dict[str, Any], tally: fig.Tally,
          mass: FloatArray | None, against: str
          ) -> tuple[list[AnnotatorQuality], float]:
    """The rows :func:`accord.annotators` builds (its ``_rows``), from the tally."""
    hits, counts = tally.hits_and_counts(tally.truth)
    c_hits, c_counts = tally.hits_and_counts(tally.label)
    rec_h, rec_n = tally.recall()
    comp = _competence(crowd, method, params, hits, counts, against)
    conf = _confusion(crowd, method, params, tally, mass, against)
    spam = fig.spammer_score(conf)
    share = tally.given / np.maximum(tally.given.sum(axis=1, keepdims=True), 1)
    per_key = crowd.per_key.reshape(crowd.n_raters, crowd.k)
    pool_share = per_key.sum(axis=0) / crowd.n_ratings
    totals = tally.kappa_totals()
    n_rated = per_key.sum(axis=1)
    cats = crowd.categories
    cells = {(cats[c], cats[d]): c * crowd.k + d for c in range(crowd.k)
             for d in range(crowd.k)}
    rows = []
    for r, name in enumerate(crowd.raters):
        per_cat = {cats[c]: {"recall": _ratio(rec_h[r, c], rec_n[r, c]),
                             "n": float(rec_n[r, c])} for c in range(crowd.k)}
        acc = fig.proportion("accuracy", hits[r], counts[r], details={"against": against},
                             per_category=per_cat,
                             resampling=fig.share_resampling(hits[r], counts[r]))
        agree = fig.proportion("consensus_agreement", c_hits[r], c_counts[r],
                               details={"method": method}, per_category=None,
                               resampling=fig.share_resampling(c_hits[r], c_counts[r]))
        kappa = _kappa(totals[r], int(n_rated[r]))
        model = partial(_model_figure, name, method, int(n_rated[r]))
        rows.append(AnnotatorQuality(
            name, int(n_rated[r]), acc, agree, kappa, conf[r], float(comp[r]),
            float(spam[r]), share[r], float(0.5 * np.abs(share[r] - pool_share).sum()),
            None, model("competence", float(comp[r]), (-math.inf, math.inf)),
            model("spammer_score", float(spam[r]), (0.0, 1.0)),
            fig.LazyResults(cells, partial(_cell, model, conf[r]))))
    return rows, _ratio(hits.sum(), counts.sum())


def _competence(crowd: EngineCrowd, method: str, params: dict[str, Any], hits: FloatArray,
                counts: FloatArray, against: str) -> FloatArray:
    """As :func:`accord.annotators._refit.model_figures`: the fitted model's figure, or
    the share of agreement with the untied majority label (the majority's is the
    accuracy against the consensus; against a gold column, Wawa's skill)."""
    if method == "majority" and against == "consensus":
        return np.asarray(hits / np.maximum(counts, 1))
    if method == "majority":
        from accord.engines._wawa import wawa

        return wawa(crowd)[1]
    if method == "wawa":
        return np.asarray(params["skill"], dtype=np.float64)
    # the EM models read their parameters only
    return _refit.competence(cast(Any, None), method, params)


def _confusion(crowd: EngineCrowd, method: str, params: dict[str, Any], tally: fig.Tally,
               mass: FloatArray | None, against: str) -> FloatArray:
    """Raters x true x given, as :func:`accord.annotators._refit.model_figures` makes it."""
    if against == "consensus" and method == "dawid_skene":
        return np.asarray(params["confusion"], dtype=np.float64)
    if mass is None:
        return tally.confusion()
    r, k = crowd.n_raters, crowd.k
    conf = mass.reshape(r, k, k).transpose(0, 2, 1)  # rater, true class, given label
    total = conf.sum(axis=2, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(total > 0, conf / total, np.nan))


def _kappa(total: FloatArray, n_units: int) -> AgreementResult:
    """The pooled kappa against the others, without the bootstrap (see the module)."""
    made = fig.kappa_result(total, n_units, lambda: np.zeros((0, total.shape[0])))
    return replace(made, resampling=None, details={**made.details, "se_note": KAPPA_NOTE})


def _model_figure(name: Any, method: str, n_units: int, figure: str, est: float,
                  bounds: tuple[float, float]) -> AgreementResult:
    """A model figure as :func:`accord.annotators` gives it, without the refit bootstrap."""
    why = None if math.isfinite(est) else (
        f"the annotator's {figure.replace('_', ' ')} is undefined (e.g. a true class "
        "they never met)")
    return AgreementResult(
        coefficient=f"annotator_{figure}", estimate=est, observed=math.nan,
        expected=math.nan, se=math.nan, n_units=n_units, n_raters=1,
        undefined_reason=why, bounds=bounds,
        details={"annotator": name, "method": method, "interval_note": REFIT_NOTE,
                 "se_note": REFIT_NOTE})


def _cell(model: Any, conf: FloatArray, i: int) -> AgreementResult:
    return cast(AgreementResult, model("confusion", float(conf.flat[i]), (0.0, 1.0)))


def _ratio(a: float, b: float) -> float:
    return float(a / b) if b else math.nan
