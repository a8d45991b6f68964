"""Consensus labels (majority, Wawa, one-coin, Dawid-Skene EM) computed inside a dataframe engine.

The models, their deterministic start (the majority-vote posterior) and the
stopping rule are those of :func:`accord.consensus` (see
:mod:`accord.annotators._em`; Dawid & Skene 1979). Each EM iteration is one
engine query (:mod:`accord.engines._crowd`): the E step's sums per unit and its
normalisation run in the engine, and only the per-(rater, label) posterior
mass comes back; the M step is a few numpy operations on that small table.
``accelerate=True`` runs the same map under the in-memory SQUAREM
(:mod:`accord.annotators._squarem`; Varadhan & Roland 2008), each E step
still one query.

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for
accelerating the convergence of any EM algorithm. *Scand. J. Statist.* 35, 335-353.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord.annotators import METHODS as MEMORY_METHODS
from accord.annotators import Consensus
from accord.annotators._crowd import EPS, confusion_of, warn_not_converged
from accord.annotators.consensus import crowd_notes, non_negative, threshold_of, unweighed_note
from accord.data import _validation as v
from accord.engines import _crowd as ec
from accord.engines import _frame as fr
from accord.engines._crowd import Counts, EngineCrowd, FloatArray
from accord.engines._result import EngineResult
from accord.engines._wawa import wawa
from accord.errors import InvalidParameterError

__all__ = ["consensus"]

_FUNC = "accord.engines.consensus"
Params = dict[str, Any]
EngineMethod = Literal["majority", "wawa", "one_coin", "dawid_skene"]
METHODS: tuple[str, ...] = ("majority", "wawa", "one_coin", "dawid_skene")


def consensus(
    frame: Any,
    *,
    unit: str,
    rater: str,
    value: str,
    method: EngineMethod = "dawid_skene",
    categories: Sequence[Any] | None = None,
    missing: Sequence[Any] = (),
    tol: float = 1e-7,
    max_iter: int = 1000,
    threshold: float = 0.9,
    accelerate: bool = False,
) -> EngineResult[Consensus]:
    """Infer one label per unit from a crowd's ratings, inside the engine.

    Parameters
    ----------
    frame : dataframe
        Long ratings in any frame narwhals reads (see :func:`rater_counts`):
        polars ``LazyFrame`` (run on the streaming engine), pandas, pyarrow,
        DuckDB, Dask, PySpark.
    unit, rater, value : str
        The columns of the unit id, rater id and label.
    method : {"majority", "wawa", "one_coin", "dawid_skene"}
        As in :func:`accord.consensus`: vote shares, votes weighted by each rater's
        agreement with the majority label (``"wawa"``, :mod:`accord.engines._wawa`),
        or EM on a latent true class with one accuracy per rater (``"one_coin"``)
        or a full confusion matrix per rater (``"dawid_skene"``). GLAD and MACE
        run in memory only.
    categories : sequence, optional
        The category order (columns of the posterior); unused categories kept.
    missing : sequence, optional
        Extra missing-value markers, added to those of :func:`accord.read`.
    tol, max_iter, threshold
        As in :func:`accord.consensus`: stop when the log-likelihood moves less
        than ``tol`` per rating; warn (:class:`~accord.errors.ConvergenceWarning`)
        after ``max_iter`` iterations; list units below ``threshold`` as uncertain.
    accelerate : bool
        As in :func:`accord.consensus`: for ``"one_coin"`` and ``"dawid_skene"``,
        extrapolate the EM iterates by SQUAREM (the in-memory code, on the
        parameters the engine's E steps give), with plain EM's fixed point and
        stopping rule; ``n_iter`` counts E steps, each one query. The figures
        equal the in-memory accelerated fit's. ``False`` runs plain EM.

    Returns
    -------
    EngineResult
        ``statistic``: the :class:`~accord.Consensus` :func:`accord.consensus`
        gives for the same ratings, except that units and raters are in sorted
        order (an engine's rows have no order). ``audit``: rows read, ratings
        used (one per unit and rater) and dropped: ``"missing value"``,
        ``"missing unit or rater id"``, ``"identical repeated rating"``.

    Raises
    ------
    DuplicateRatingError
        A rater gave one unit two different values.
    InsufficientDataError
        No ratings, or a single category in use.

    Notes
    -----
    Per iteration one query runs in the engine: a table of ``n_keys x k`` log
    terms (``n_keys`` the distinct (rater, label) pairs) is joined with the
    ratings, summed per unit and normalised there, joined back and summed per
    (rater, label); only that ``n_keys x k`` table is collected. The per-unit
    posteriors (``n_units x k``) are collected once, at the end. Figures equal
    the in-memory ones to rounding (the sums run in another order).

    Examples
    --------
    >>> import polars as pl
    >>> from accord.engines import consensus
    >>> lf = pl.LazyFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
    ...                    "worker": list("abcabcabcabc"),
    ...                    "label": list("xyxyyyxxxyxy")})
    >>> result, audit = consensus(lf, unit="item", rater="worker", value="label")
    >>> [result.labels[u] for u in result.units], result.converged
    (['x', 'y', 'x', 'y'], True)
    >>> audit.ratings_used
    12
    """
    _method(method)
    if not isinstance(accelerate, bool):
        raise v.fail("accelerate", _FUNC, "True or False", accelerate)
    tol = non_negative(tol, "tol", _FUNC)
    v.positive_int(max_iter, param="max_iter", func=_FUNC)
    threshold = threshold_of(threshold, _FUNC)
    for name, given in (("unit", unit), ("rater", rater), ("value", value)):
        if not isinstance(given, str):
            raise v.fail(name, _FUNC, "a column name", given)
    if len({unit, rater, value}) < 3:
        raise v.fail("value", _FUNC, "a column other than unit= and rater=", value)
    cats, extra = fr.names(categories, missing, func=_FUNC)
    crowd = ec.crowd(frame, (unit, rater, value), cats, extra, func=_FUNC)
    try:
        return _fit(crowd, method, tol=tol, max_iter=max_iter, threshold=threshold,
                    accelerate=accelerate)
    finally:
        ec.release(crowd.ratings)


def _fit(crowd: EngineCrowd, method: str, *, tol: float, max_iter: int, threshold: float,
         accelerate: bool) -> EngineResult[Consensus]:
    if method == "majority":
        ids, n, post = ec.unit_table(crowd, ec.votes(crowd))
        notes = _notes(crowd, n)
        return EngineResult(_result(crowd, method, ids, n, post, threshold, notes), crowd.audit)
    if method == "wawa":
        units, skill, unweighed = wawa(crowd)
        ids, n, post = ec.unit_table(crowd, units)
        notes = (*_notes(crowd, n), *([unweighed_note(unweighed)] if unweighed else []))
        made = _result(crowd, method, ids, n, post, threshold, notes,
                       parameters={"skill": skill})
        return EngineResult(made, crowd.audit)
    model = MODELS[method](crowd)
    fit = (run_squarem if accelerate else run)(model, tol=tol, max_iter=max_iter,
                                               method=method)
    ids, n, post = ec.unit_table(crowd, ec.posterior(crowd, *model.terms(fit.e_params)))
    notes = _notes(crowd, n)
    made = _result(crowd, method, ids, n, post, threshold, notes, parameters=fit.params,
                   n_iter=fit.n_iter, log_likelihood=fit.log_likelihood,
                   converged=fit.converged, last_change=fit.last_change)
    return EngineResult(made, crowd.audit)


def _result(crowd: EngineCrowd, method: str, ids: list[Any], n: Any, post: FloatArray,
            threshold: float, notes: tuple[str, ...], **fit: Any) -> Consensus:
    return Consensus(method=method, units=tuple(ids), categories=crowd.categories,
                     raters=crowd.raters, posterior=post, n_ratings=n, threshold=threshold,
                     notes=notes, **fit)


# --------------------------------------------------------------------- checks and notes
def _method(method: Any) -> None:
    if method in METHODS:
        return
    if method in MEMORY_METHODS:
        raise InvalidParameterError(
            f"The 'method' parameter of {_FUNC} must be one of {list(METHODS)!r}. Got "
            f"{method!r} instead: it runs in memory only (accord.consensus)."
        )
    v.choice(method, METHODS, param="method", func=_FUNC)


def _notes(crowd: EngineCrowd, per_unit: Any) -> tuple[str, ...]:
    """The sentences :func:`accord.consensus` notes, from the engine's counts (every
    rater here gave a rating: raters are read from the ratings)."""
    return crowd_notes(per_unit, crowd.per_key.reshape(crowd.n_raters, crowd.k), crowd.raters,
                       crowd.categories)


# --------------------------------------------------------------------- models
class DawidSkene:
    """One k x k confusion matrix per rater: the M step of ``_em.dawid_skene``."""

    def __init__(self, crowd: EngineCrowd) -> None:
        self.crowd = crowd
        self.used = crowd.per_key.reshape(crowd.n_raters, crowd.k) > 0

    def m_step(self, c: Counts) -> Params:
        r, k = self.crowd.n_raters, self.crowd.k
        mass = c.mass.reshape(r, k, k).transpose(0, 2, 1)  # rater, true class, given label
        return {"prior": _prior(c, self.crowd), "confusion": confusion_of(mass, self.used)}

    def terms(self, p: Params) -> tuple[FloatArray, FloatArray]:
        conf = p["confusion"]
        log_conf = np.log(np.where(conf > 0, conf, 1.0)).transpose(0, 2, 1)
        flat = log_conf.reshape(self.crowd.n_raters * self.crowd.k, self.crowd.k)
        return flat[self.crowd.keys], _log_prior(p["prior"], self.crowd)


class OneCoin:
    """One accuracy per rater, errors spread evenly: the M step of ``_em.one_coin``."""

    def __init__(self, crowd: EngineCrowd) -> None:
        self.crowd = crowd
        self.per_rater = crowd.per_key.reshape(crowd.n_raters, crowd.k).sum(axis=1)

    def m_step(self, c: Counts) -> Params:
        r, k = self.crowd.n_raters, self.crowd.k
        # the mass each rater's ratings give to the class they name
        right = np.einsum("rvv->r", c.mass.reshape(r, k, k))
        return {"prior": _prior(c, self.crowd),
                "accuracy": right / np.maximum(self.per_rater, 1)}

    def terms(self, p: Params) -> tuple[FloatArray, FloatArray]:
        s, k = p["accuracy"], self.crowd.k
        right = np.log(np.clip(s, EPS, 1 - EPS))
        wrong = np.log(np.clip((1 - s) / (k - 1), EPS, 1 - EPS))
        keys = self.crowd.keys
        rater, label = keys // k, keys % k
        out = np.repeat(wrong[rater][:, None], k, axis=1)
        out[np.arange(keys.shape[0]), label] += right[rater] - wrong[rater]
        return out, _log_prior(p["prior"], self.crowd)


Model = DawidSkene | OneCoin
MODELS: dict[str, type[DawidSkene] | type[OneCoin]] = {
    "dawid_skene": DawidSkene, "one_coin": OneCoin}


def _log_prior(prior: FloatArray, crowd: EngineCrowd) -> FloatArray:
    """``log pi_c``, ``-inf`` for a declared class no rating gives (as ``_em.log_prior``)."""
    seen = crowd.per_key.reshape(crowd.n_raters, crowd.k).sum(axis=0) > 0
    return np.where(seen, np.log(np.maximum(prior, EPS)), -np.inf)


def _prior(c: Counts, crowd: EngineCrowd) -> FloatArray:
    return np.asarray(np.maximum(c.prior_sum / crowd.n_units, EPS), dtype=np.float64)


# --------------------------------------------------------------------- the loop
@dataclass(frozen=True)
class Fit:
    """The state :func:`run` ends in: the parameters of the last E step and those after it."""

    e_params: Params
    params: Params
    n_iter: int
    log_likelihood: float
    converged: bool
    last_change: float


def step(model: Model, params: Params) -> tuple[Params, float]:
    """One EM iteration as a map: the E step on ``params`` (in the engine), then the M step.

    Returns the new parameters and the log-likelihood of ``params``; an
    accelerator (SQUAREM) can wrap this map as it wraps the in-memory one.
    """
    c = ec.counts(model.crowd, ec.posterior(model.crowd, *model.terms(params)))
    return model.m_step(c), c.log_likelihood


def start(model: Model) -> Params:
    """The M step on the vote shares: the deterministic start of every EM."""
    return model.m_step(ec.counts(model.crowd, ec.votes(model.crowd), with_ll=False))


def run(model: Model, *, tol: float, max_iter: int, method: str) -> Fit:
    """Plain EM from the vote shares, stopping as :func:`accord.annotators._em.run_em` does."""
    crowd = model.crowd
    params = start(model)
    previous, change, ll = -math.inf, math.inf, math.nan
    e_params = params
    for it in range(1, max_iter + 1):
        e_params = params
        params, ll = step(model, e_params)
        change = abs(ll - previous) / crowd.n_ratings
        if change < tol:
            return Fit(e_params, params, it, ll, True, change)
        previous = ll
    warn_not_converged(method, max_iter, change, tol, stacklevel=v.user_level())
    return Fit(e_params, params, max_iter, ll, False, change)


@dataclass(frozen=True)
class _EStep:
    """What one E step (one query) leaves: the collected sums and the parameters behind them."""

    counts: Counts
    params: Params


def run_squarem(model: Model, *, tol: float, max_iter: int, method: str) -> Fit:
    """EM under the in-memory SQUAREM (:func:`accord.annotators._squarem.run_squarem`):
    its E step is one engine query, its M step reads the collected sums."""
    from accord.annotators._squarem import kinds_of
    from accord.annotators._squarem import run_squarem as squarem

    def e_step(params: Params) -> tuple[_EStep, float]:
        c = ec.counts(model.crowd, ec.posterior(model.crowd, *model.terms(params)))
        return _EStep(c, params), c.log_likelihood

    def m_step(last: _EStep, _: Params) -> Params:
        return model.m_step(last.counts)

    first = start(model)
    last, params, n_iter, ll, converged, change = squarem(
        model.crowd.n_ratings, e_step, m_step, first, kinds_of(first), tol=tol,
        max_iter=max_iter, method=method)
    return Fit(last.params, params, n_iter, ll, converged, change)
