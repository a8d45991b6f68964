"""EM for the latent-class consensus models, each step a bincount over long codes.

Notation after Dawid & Skene (1979): ``T_u`` the true class of unit ``u``;
``pi_c = P(T = c)`` the class prior; ``theta[r, c, v] = P(rater r says v | T = c)``
the confusion matrix of rater ``r`` (rows = true class). The E step computes the
posterior ``P(T_u = c | ratings)``; the M step refits the parameters from it.

* ``dawid_skene``: a full confusion matrix per rater (Dawid & Skene 1979).
* ``one_coin``: one accuracy ``s_r`` per rater, errors spread evenly over the
  other ``k - 1`` classes (the homogeneous model).
* ``glad``: ``P(correct) = sigmoid(alpha_r * beta_u)`` with rater expertise
  ``alpha_r`` and unit ease ``beta_u = exp(b_u)`` (Whitehill et al. 2009), normal
  priors ``N(1, 1)`` on ``alpha`` and ``b``, uniform class prior; the M step is a
  conjugate-gradient ascent (at most 25 steps, gradient tolerance 0.01).
* ``mace``: a rater knows the answer with probability ``c_r`` and otherwise
  draws from a personal strategy ``xi_r`` (Hovy et al. 2013), variational Bayes
  with ``Beta(0.5, 0.5)`` and ``Dirichlet(10)`` priors. The class prior is
  fitted (the mean posterior, as in Dawid-Skene) where Hovy et al. fix it
  uniform: on skewed data the uniform prior lets EM drift toward labelling rare
  classes more often as it converges (on the D_Product data of Zheng et al.
  2017, accuracy against gold falls from 0.93 to 0.85; fitted, 0.93).

Each loop iteration is one E step followed by one M step; the reported
posterior comes from the last E step and the parameters from the M step fitted
to it. Initialisation is deterministic: the majority-vote posterior (vote
shares) for Dawid-Skene, one-coin and MACE; ``alpha = b = 1`` for GLAD. The fit
stops when the log-likelihood changes by less than ``tol`` per rating. A declared
class that no rating gives has posterior 0 in Dawid-Skene, one-coin and MACE
(:func:`log_prior`).
``start=`` replaces the initial parameters (the bootstrap of model figures
warm-starts each resample from the converged fit). ``accelerate=True`` runs
one-coin and Dawid-Skene under SQUAREM (:mod:`._squarem`): same fixed point and
stopping rule, ``n_iter`` counting E steps. ``soft=`` (Dawid-Skene, one-coin, MACE)
adds a model's class probabilities as the fractional ratings of one more rater, the
last row of every per-rater parameter (:mod:`._model`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.data import _validation as v

from ._blocks import RowBlocks
from ._crowd import (
    EPS,
    Crowd,
    FloatArray,
    confusion_of,
    normalise_log,
    symmetric_log_posterior,
    warn_not_converged,
    wsum,
)

Params = dict[str, Any]
EStep = Callable[[Params], tuple[FloatArray, float]]
MStep = Callable[[FloatArray, Params], Params]

_GLAD_STEPS, _GLAD_GTOL = 25, 1e-2
_MACE_BETA, _MACE_DIRICHLET = 0.5, 10.0


@dataclass(frozen=True)
class Fit:
    """The converged (or capped) state of one EM run."""

    posterior: FloatArray
    parameters: Params
    n_iter: int
    log_likelihood: float
    converged: bool
    last_change: float


def run_em(crowd: Crowd, e_step: EStep, m_step: MStep, params: Params, *, tol: float,
           max_iter: int, method: str) -> Fit:
    """Alternate E and M steps until the log-likelihood per rating moves less than ``tol``."""
    previous, change = -math.inf, math.inf
    post, ll = e_step(params)
    for it in range(1, max_iter + 1):
        params = m_step(post, params)
        change = abs(ll - previous) / crowd.n_ratings
        if change < tol:
            return Fit(post, params, it, ll, True, change)
        previous = ll
        if it < max_iter:
            post, ll = e_step(params)
    warn_not_converged(method, max_iter, change, tol, stacklevel=v.user_level())
    return Fit(post, params, max_iter, ll, False, change)


def run_squarem(crowd: Crowd, e_step: EStep, m_step: MStep, params: Params, *, tol: float,
                max_iter: int, method: str) -> Fit:
    """EM accelerated by SQUAREM (:mod:`._squarem`), with the same stopping rule."""
    from ._squarem import kinds_of
    from ._squarem import run_squarem as squarem

    return Fit(*squarem(crowd.n_ratings, e_step, m_step, params, kinds_of(params), tol=tol,
                        max_iter=max_iter, method=method))


def fit(method: str, crowd: Crowd, *, tol: float, max_iter: int, start: Params | None = None,
        accelerate: bool = False, soft: FloatArray | None = None, matrix: Any = None,
        class_prior: str = "fitted") -> Fit:
    """Fit ``method`` (one of the EM models); ``accelerate`` applies to one-coin and
    Dawid-Skene only (GLAD's M step is an optimisation, MACE's a variational update);
    ``soft`` to them and MACE: a model's units x classes probabilities as one more rater
    (the last), a row of zeros where it did not score the unit (see :mod:`._model`);
    ``matrix`` to Dawid-Skene: ``crowd.rating_matrix()`` when the caller has made it;
    ``class_prior`` to MACE (see :func:`mace`)."""
    model: Callable[..., Fit] = globals()[method]
    if method == "dawid_skene":
        return dawid_skene(crowd, tol=tol, max_iter=max_iter, start=start,
                           accelerate=accelerate, soft=soft, matrix=matrix)
    if method == "one_coin":
        return model(crowd, tol=tol, max_iter=max_iter, start=start, accelerate=accelerate,
                     soft=soft)
    if method == "mace":
        return mace(crowd, tol=tol, max_iter=max_iter, start=start, soft=soft,
                    class_prior=class_prior)
    return model(crowd, tol=tol, max_iter=max_iter, start=start)


def classes_given(crowd: Crowd) -> NDArray[np.bool_]:
    """Whether any rating gives each class (counted once per fit, not per E step)."""
    return np.bincount(crowd.value, minlength=crowd.k) > 0


def log_prior(seen: NDArray[np.bool_], prior: FloatArray) -> FloatArray:
    """``log pi_c``, and ``-inf`` for a declared class no rating gives (``seen`` false):
    its posterior is held at 0 (with a fitted confusion row spread over the labels in
    use, an empty class would explain any unit no better than chance, yet can out-score
    classes whose confusion rows are nearly 0/1 on a small crowd)."""
    return np.where(seen, np.log(np.maximum(prior, EPS)), -np.inf)


def majority_posterior(crowd: Crowd) -> FloatArray:
    """Vote shares per unit: the majority-vote posterior every EM starts from."""
    votes = crowd.votes()
    return votes / votes.sum(axis=1, keepdims=True)


# ------------------------------------------------------------------ Dawid-Skene
def dawid_skene(crowd: Crowd, *, tol: float, max_iter: int, start: Params | None = None,
                accelerate: bool = False, soft: FloatArray | None = None,
                matrix: Any = None) -> Fit:
    """Dawid & Skene (1979): one k x k confusion matrix per rater (and one for the model
    whose probabilities are ``soft``, as fractional ratings of one more rater); ``matrix``
    is ``crowd.rating_matrix()`` when made already (shared with the annotators' figures)."""
    n, r, k = crowd.n_units, crowd.n_raters, crowd.k
    # unit x (rater, given) rating counts, built once (one CSR matrix): each M step is
    # one sparse-dense product of its transpose with the posteriors, each E step one of
    # it with the log confusion matrices; one pass over the ratings for all k classes
    # (in row blocks on threads from a million ratings on: see _blocks)
    counts = crowd.rating_matrix() if matrix is None else matrix
    if soft is not None:
        from scipy.sparse import csr_matrix, hstack

        counts = hstack([counts, csr_matrix(soft)], format="csr")
        r += 1
    by_unit = RowBlocks(counts)
    used = by_unit.column_sums().reshape(r, k) > 0
    seen = classes_given(crowd)
    # the E step's per-unit scratch, made once: a fresh array per iteration costs page
    # faults (system time) once it passes malloc's mmap threshold
    top, log_total = np.empty(n), np.empty(n)
    # plain EM holds one posterior at a time (run_em drops each when the next E step
    # returns), so its E steps take turns with two arrays; SQUAREM keeps several
    spare = None if accelerate else [np.empty((n, k)), np.empty((n, k))]

    def m_step(post: FloatArray, _: Params) -> Params:
        counts = by_unit.tdot(post).reshape(r, k, k).transpose(0, 2, 1)
        return {"prior": np.maximum(post.mean(axis=0), EPS),
                "confusion": confusion_of(counts, used)}

    def e_step(p: Params) -> tuple[FloatArray, float]:
        conf = p["confusion"]
        log_conf = np.log(np.where(conf > 0, conf, 1.0))
        post = np.empty((n, k)) if spare is None else spare[0]
        if spare is not None:
            spare.reverse()
        by_unit.posterior(np.ascontiguousarray(log_conf.transpose(0, 2, 1).reshape(r * k, k)),
                          log_prior(seen, p["prior"]), post, top, log_total)
        return post, float(log_total.sum() + top.sum())

    try:
        first = m_step(majority_posterior(crowd), {}) if start is None else start
        run = run_squarem if accelerate else run_em
        return run(crowd, e_step, m_step, first, tol=tol, max_iter=max_iter,
                   method="dawid_skene")
    finally:
        by_unit.close()


# ------------------------------------------------------------------ one-coin
def one_coin(crowd: Crowd, *, tol: float, max_iter: int, start: Params | None = None,
             accelerate: bool = False, soft: FloatArray | None = None) -> Fit:
    """The homogeneous Dawid-Skene model: one accuracy per rater (the model's, fitted
    from its probabilities ``soft``, last)."""
    uv, rater, k = crowd.uv, crowd.rater, crowd.k
    n_r = np.maximum(crowd.per_rater(), 1)
    seen = classes_given(crowd)
    scored = None if soft is None else soft.sum(axis=1)
    n_soft = 1.0 if scored is None else max(float(scored.sum()), 1.0)

    def m_step(post: FloatArray, _: Params) -> Params:
        skill = wsum(rater, post.ravel()[uv], crowd.n_raters) / n_r
        if soft is not None:  # the model's expected share of mass on the inferred class
            skill = np.append(skill, float(np.einsum("uc,uc->", post, soft)) / n_soft)
        return {"prior": np.maximum(post.mean(axis=0), EPS), "accuracy": skill}

    def e_step(p: Params) -> tuple[FloatArray, float]:
        s = p["accuracy"]
        right = np.log(np.clip(s, EPS, 1 - EPS))
        wrong = np.log(np.clip((1 - s) / (k - 1), EPS, 1 - EPS))
        base = wrong[rater]
        logp = symmetric_log_posterior(crowd, log_prior(seen, p["prior"]), base,
                                       right[rater] - base)
        if soft is not None and scored is not None:
            # sum_v P_u(v) log theta[c, v] = wrong + P_u(c) (right - wrong) on scored units
            logp += scored[:, None] * wrong[-1] + soft * (right[-1] - wrong[-1])
        return normalise_log(logp)

    first = m_step(majority_posterior(crowd), {}) if start is None else start
    run = run_squarem if accelerate else run_em
    return run(crowd, e_step, m_step, first, tol=tol, max_iter=max_iter, method="one_coin")


# ------------------------------------------------------------------ GLAD
def _softplus(x: FloatArray) -> FloatArray:
    """``log(1 + e^x)`` without overflow: ``max(x, 0) + log1p(exp(-|x|))``."""
    out = np.abs(x)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(x, 0.0)
    return out


def glad(crowd: Crowd, *, tol: float, max_iter: int, start: Params | None = None
         ) -> Fit:
    """Whitehill et al. (2009): expertise ``alpha_r`` times unit ease ``exp(b_u)``."""
    unit, rater, uv, k = crowd.unit, crowd.rater, crowd.uv, crowd.k
    n_r, n_u = crowd.n_raters, crowd.n_units
    log_prior = np.full(k, -math.log(k))
    log_wrong_share = math.log(k - 1)

    def logits(alpha: FloatArray, b: FloatArray) -> FloatArray:
        """``x = alpha_r * exp(b_u)`` per rating: two gathers, one product."""
        x = alpha[rater]
        x *= np.exp(b)[unit]
        return x

    def e_step(p: Params) -> tuple[FloatArray, float]:
        # log P(correct) = -softplus(-x), log P(wrong) = -softplus(x) - log(k - 1), and
        # softplus(x) - softplus(-x) = x: the per-class delta needs no transcendental
        x = logits(p["alpha"], p["b"])
        log_f = -_softplus(x)
        log_f -= log_wrong_share
        x += log_wrong_share
        return normalise_log(symmetric_log_posterior(crowd, log_prior, log_f, x))

    def m_step(post: FloatArray, p: Params) -> Params:
        from scipy.optimize import minimize  # GLAD only: the other methods do without it

        right = post.ravel()[uv]
        wrong = 1.0 - right
        # the terms of Q that do not move with (alpha, b), summed once per M step
        fixed = log_wrong_share * float(wrong.sum()) + 0.5 * math.log(2 * math.pi) * (n_r + n_u)

        def minus_q(z: FloatArray) -> tuple[float, FloatArray]:
            alpha, b = z[:n_r], z[n_r:]
            x = logits(alpha, b)
            # Q = sum right * log s + wrong * log f, with log s = -softplus(-x) and
            # log f = -softplus(-x) - x - log(k - 1): one exp and one log1p per rating
            t = np.abs(x)
            np.negative(t, out=t)
            np.exp(t, out=t)  # exp(-|x|)
            neg = np.minimum(x, 0.0)
            q = float(neg.sum() - np.log1p(t).sum() - wrong @ x) - fixed
            q -= 0.5 * float((alpha - 1) @ (alpha - 1) + (b - 1) @ (b - 1))
            # sigmoid(x) = exp(min(x, 0)) / (1 + exp(-|x|)), overflow-free
            g = np.exp(neg, out=neg)
            t += 1.0
            g /= t
            np.subtract(right, g, out=g)
            d_alpha = wsum(rater, g * np.exp(b)[unit], n_r) - (alpha - 1)
            g *= x  # d x / d b_u = x
            d_b = wsum(unit, g, n_u) - (b - 1)
            return -q, -np.concatenate([d_alpha, d_b])

        z0 = np.concatenate([p["alpha"], p["b"]])
        res = minimize(minus_q, z0, method="CG", jac=True, tol=_GLAD_GTOL,
                       options={"maxiter": _GLAD_STEPS})
        return {"alpha": res.x[:n_r], "b": res.x[n_r:]}

    first = {"alpha": np.ones(n_r), "b": np.ones(n_u)} if start is None else start
    # One BLAS thread for the whole fit: the objective's dots and scipy's CG line search
    # call BLAS on ~n_ratings floats, and a threaded dot sums in another order, which
    # moved the line search, the iteration count and the posteriors (5.8e-5 at 10^5
    # ratings) with the machine's thread count; its idle threads also spun on a busy core
    with _blas_pools().limit(limits=1, user_api="blas"):
        return run_em(crowd, e_step, m_step, first, tol=tol, max_iter=max_iter, method="glad")


@functools.cache
def _blas_pools() -> Any:
    """numpy's and scipy's BLAS thread pools, found once: the bootstrap refits GLAD once
    per replicate, and a lookup takes about 1.4 ms against 15 us to set a limit."""
    import scipy.optimize  # noqa: F401  (loads scipy's own BLAS before the lookup)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


# ------------------------------------------------------------------ MACE
def _vb_normalise(counts: FloatArray, prior: float) -> FloatArray:
    """Variational-Bayes weights ``exp(psi(n + a)) / exp(psi(sum(n + a)))`` per row."""
    from scipy.special import digamma  # MACE only

    total = (counts + prior).sum(axis=1, keepdims=True)
    return np.asarray(np.exp(digamma(counts + prior) - digamma(total)))


def mace(crowd: Crowd, *, tol: float, max_iter: int, start: Params | None = None,
         soft: FloatArray | None = None, class_prior: str = "fitted") -> Fit:
    """Hovy et al. (2013): competence (knowing vs guessing) and a guessing strategy (the
    model's, from its probabilities ``soft`` as fractional ratings, last).

    ``class_prior="fitted"`` (the default) updates the prior of the true class in each M
    step; ``"uniform"`` holds it at ``1/k`` as Hovy et al. and crowd-kit do, which keeps a
    crowd of spammers with favourite labels from making those labels the answer (at some
    cost on a skewed crowd: benchmarks/RESULTS.md, "MACE from the vote-share start")."""
    rater, rv, uv, k = crowd.rater, crowd.rv, crowd.uv, crowd.k
    n_r = crowd.n_raters
    seen = classes_given(crowd)
    m = n_r  # the model's row of the parameters, when there is one

    def guess_and_know(p: Params) -> tuple[FloatArray, FloatArray]:
        return p["knowing"][rater, 0] * p["strategy"].ravel()[rv], p["knowing"][rater, 1]

    def counts_to_params(knows: FloatArray, model_knows: FloatArray | None) -> Params:
        guesses = 1.0 - knows
        knowing = np.column_stack([wsum(rater, guesses, n_r),
                                   wsum(rater, knows, n_r)])
        strategy = wsum(rv, guesses, n_r * k).reshape(n_r, k)
        if soft is not None and model_knows is not None:  # expected counts per label
            known = model_knows.sum(axis=0)
            guessed = soft.sum(axis=0) - known
            knowing = np.vstack([knowing, [guessed.sum(), known.sum()]])
            strategy = np.vstack([strategy, guessed])
        return {"knowing": _vb_normalise(knowing, _MACE_BETA),
                "strategy": _vb_normalise(strategy, _MACE_DIRICHLET)}

    def model_guess_and_know(p: Params) -> tuple[FloatArray, float]:
        return p["knowing"][m, 0] * p["strategy"][m], float(p["knowing"][m, 1])

    def e_step(p: Params) -> tuple[FloatArray, float]:
        guess, know = guess_and_know(p)
        base = np.log(np.maximum(guess, EPS))
        logp = symmetric_log_posterior(crowd, log_prior(seen, p["prior"]), base,
                                       np.log(guess + know) - base)
        if soft is not None:  # sum_v P_u(v) log P(model says v | T = c)
            g, kn = model_guess_and_know(p)
            log_g = np.log(np.maximum(g, EPS))
            logp += (soft @ log_g)[:, None] + soft * (np.log(g + kn) - log_g)[None, :]
        return normalise_log(logp)

    def m_step(post: FloatArray, p: Params) -> Params:
        guess, know = guess_and_know(p)
        model_knows = None
        if soft is not None:
            g, kn = model_guess_and_know(p)
            model_knows = soft * post * (kn / (g + kn))[None, :]
        return {**counts_to_params(post.ravel()[uv] * know / (guess + know), model_knows),
                "prior": prior_of(post)}

    def prior_of(post: FloatArray) -> FloatArray:
        if class_prior == "uniform":
            return np.full(k, 1.0 / k)
        return np.maximum(post.mean(axis=0), EPS)

    if start is None:
        mv = majority_posterior(crowd)
        start = {**counts_to_params(mv.ravel()[uv], None if soft is None else soft * mv),
                 "prior": prior_of(mv)}
    return run_em(crowd, e_step, m_step, start, tol=tol, max_iter=max_iter, method="mace")


def competence(knowing: FloatArray) -> FloatArray:
    """MACE's competence: the normalised weight of knowing over guessing, per rater."""
    return np.asarray(knowing[:, 1] / knowing.sum(axis=1))
