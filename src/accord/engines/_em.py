"""The EM models of :func:`accord.engines.consensus`, each iteration one pass in the engine.

The models, their deterministic start (the majority-vote posterior) and the
stopping rule are those of :func:`accord.consensus` (:mod:`accord.annotators._em`,
whose notation this module keeps): Dawid-Skene (Dawid & Skene 1979), one-coin
and MACE (Hovy et al. 2013, variational Bayes with the class prior fitted, as
in memory). Every model's E step is the same pass (:func:`accord.engines._crowd.e_step`:
one query, or on Dask and Spark a map over blocks held on the workers):
a rating's log term depends only on its (rater, label) key, so the model
pushes one ``n_keys x k`` table of terms, the engine sums and normalises per
unit and sums the posteriors back per key, and only that small table is
collected; the M step is a few numpy operations on it. ``run_squarem`` runs
one-coin and Dawid-Skene under the in-memory SQUAREM (Varadhan & Roland 2008).

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
Hovy, D. et al. (2013). Learning whom to trust with MACE. *NAACL-HLT*, 1120-1130.
Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for
accelerating the convergence of any EM algorithm. *Scand. J. Statist.* 35, 335-353.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord.annotators._crowd import EPS, confusion_of, warn_not_converged
from accord.data import _validation as v
from accord.engines import _crowd as ec
from accord.engines._crowd import Counts, EngineCrowd, FloatArray

Params = dict[str, Any]


class DawidSkene:
    """One k x k confusion matrix per rater: the M step of ``_em.dawid_skene``."""

    def __init__(self, crowd: EngineCrowd) -> None:
        self.crowd = crowd
        self.used = crowd.per_key.reshape(crowd.n_raters, crowd.k) > 0

    def first(self, votes: Counts) -> Params:
        """The start: the M step on the vote shares."""
        return self.m_step(votes, {})

    def m_step(self, c: Counts, _: Params) -> Params:
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

    def first(self, votes: Counts) -> Params:
        """The start: the M step on the vote shares."""
        return self.m_step(votes, {})

    def m_step(self, c: Counts, _: Params) -> Params:
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


class Mace:
    """Knowing (with probability ``c_r``) or guessing from a strategy ``xi_r``: the
    variational M step of ``_em.mace``, from the per-key posterior mass.

    A rating's terms depend on its key only: ``log(guess)`` for every class plus
    ``log(guess + know) - log(guess)`` for the class it names, with
    ``guess = knowing[r, 0] * strategy[r, v]`` and ``know = knowing[r, 1]``. The
    expected count of "knew" over a key's ratings is the posterior mass of the
    class they name times ``know / (guess + know)``; the rest of the key's
    ratings count as guesses.
    """

    def __init__(self, crowd: EngineCrowd) -> None:
        self.crowd = crowd
        k = crowd.k
        self.keys = np.arange(crowd.n_raters * k)
        self.rater, self.label = self.keys // k, self.keys % k

    def first(self, votes: Counts) -> Params:
        """The start: every rating's vote share counts as knowing (as in memory)."""
        return self._params(votes.mass[self.keys, self.label], votes)

    def m_step(self, c: Counts, p: Params) -> Params:
        guess, know = self._guess_and_know(p)
        return self._params(c.mass[self.keys, self.label] * know / (guess + know), c)

    def terms(self, p: Params) -> tuple[FloatArray, FloatArray]:
        guess, know = self._guess_and_know(p)
        base = np.log(np.maximum(guess, EPS))
        out = np.repeat(base[:, None], self.crowd.k, axis=1)
        out[self.keys, self.label] += np.log(guess + know) - base
        return out[self.crowd.keys], _log_prior(p["prior"], self.crowd)

    def _guess_and_know(self, p: Params) -> tuple[FloatArray, FloatArray]:
        """Per key: ``knowing[r, 0] * strategy[r, v]`` and ``knowing[r, 1]``."""
        knowing = p["knowing"]
        return knowing[self.rater, 0] * p["strategy"].ravel(), knowing[self.rater, 1]

    def _params(self, knows: FloatArray, c: Counts) -> Params:
        from accord.annotators._em import _MACE_BETA, _MACE_DIRICHLET, _vb_normalise

        r, k = self.crowd.n_raters, self.crowd.k
        guesses = (self.crowd.per_key - knows).reshape(r, k)
        knowing = np.column_stack([guesses.sum(axis=1), knows.reshape(r, k).sum(axis=1)])
        return {"knowing": _vb_normalise(knowing, _MACE_BETA),
                "strategy": _vb_normalise(guesses, _MACE_DIRICHLET),
                "prior": _prior(c, self.crowd)}


Model = DawidSkene | OneCoin | Mace
MODELS: dict[str, type[Model]] = {"dawid_skene": DawidSkene, "one_coin": OneCoin, "mace": Mace}
#: The models SQUAREM accelerates (as in memory: MACE's M step is a variational update).
ACCELERATED = ("one_coin", "dawid_skene")


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
    c = ec.e_step(model.crowd, *model.terms(params))
    return model.m_step(c, params), c.log_likelihood


def start(model: Model) -> Params:
    """The parameters fitted to the vote shares: the deterministic start of every EM."""
    return model.first(ec.vote_counts(model.crowd))


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
        c = ec.e_step(model.crowd, *model.terms(params))
        return _EStep(c, params), c.log_likelihood

    def m_step(last: _EStep, _: Params) -> Params:
        return model.m_step(last.counts, last.params)

    first = start(model)
    last, params, n_iter, ll, converged, change = squarem(
        model.crowd.n_ratings, e_step, m_step, first, kinds_of(first), tol=tol,
        max_iter=max_iter, method=method)
    return Fit(last.params, params, n_iter, ll, converged, change)
