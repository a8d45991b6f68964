"""Bootstrap of a model figure (competence) over units, refitting the model each time.

Each resample draws ``n_units`` units with replacement (a unit drawn twice
counts as two units, with all its ratings) and refits the consensus model from
its default start (the vote shares; ``alpha = b = 1`` for GLAD), not from the
converged parameters: a documented approximation that costs one full fit per
resample. Resamples in which the annotator rated no unit are left out and
counted in ``n_excluded``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.errors import ConvergenceWarning
from accord.inference import Bootstrap
from accord.inference.resampling import Resampling
from accord.inference.results import ConfidenceInterval

from . import _em
from ._crowd import Crowd, FloatArray, IntArray


def competence(crowd: Crowd, method: str, parameters: dict[str, Any] | None = None, *,
               tol: float = 1e-7, max_iter: int = 1000, accelerate: bool = False
               ) -> FloatArray:
    """Each rater's competence under ``method`` (fitting the model unless ``parameters``)."""
    from ._voting import public_parameters
    from ._voting import wawa as _wawa

    if method in ("majority", "wawa"):
        return _wawa(crowd)[1]
    if parameters is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = _em.fit(method, crowd, tol=tol, max_iter=max_iter, accelerate=accelerate)
        parameters = public_parameters(method, fit.parameters)
    if method == "dawid_skene":
        diag = np.diagonal(parameters["confusion"], axis1=1, axis2=2)
        return np.asarray(diag @ parameters["prior"])
    key = {"one_coin": "accuracy", "glad": "alpha", "mace": "competence"}[method]
    return np.asarray(parameters[key], dtype=np.float64)


def resample(crowd: Crowd, order: IntArray, start: IntArray, drawn: IntArray) -> Crowd:
    """The crowd of the units ``drawn`` (positions; repeats become new units)."""
    sizes = start[drawn + 1] - start[drawn]
    first = np.repeat(start[drawn] - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    pos = order[first + np.arange(int(sizes.sum()))]
    unit = np.repeat(np.arange(drawn.shape[0], dtype=np.int64), sizes)
    return Crowd(unit, crowd.rater[pos], crowd.value[pos], tuple(range(drawn.shape[0])),
                 crowd.rater_ids, crowd.categories)


def competence_interval(crowd: Crowd, method: str, rater: int, estimate: float,
                        level: float, boot: Bootstrap, *, tol: float, max_iter: int,
                        accelerate: bool = False) -> ConfidenceInterval:
    """Percentile interval of one rater's competence over ``boot.n_resamples`` refits."""
    order = np.argsort(crowd.unit, kind="stable")
    start = np.concatenate([[0], np.cumsum(crowd.per_unit())]).astype(np.int64)
    rng = boot.generator()
    reps = np.full(boot.n_resamples, math.nan)
    for b in range(boot.n_resamples):
        sub = resample(crowd, order, start, rng.integers(0, crowd.n_units, crowd.n_units))
        if (sub.rater == rater).any() and np.unique(sub.value).shape[0] > 1:
            reps[b] = competence(sub, method, tol=tol, max_iter=max_iter,
                                 accelerate=accelerate)[rater]
    finite = reps[np.isfinite(reps)]
    excluded = int(reps.size - finite.size)
    if not math.isfinite(estimate) or finite.size < 2:
        return ConfidenceInterval(math.nan, math.nan, level, "bootstrap-refit", excluded)
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(finite, [tail, 1.0 - tail])
    return ConfidenceInterval(float(low), float(high), level, "bootstrap-refit", excluded,
                              finite)


@dataclass(frozen=True, eq=False)
class RefitResampling(Resampling):
    """A model figure resampled by refitting the model on each bootstrap sample of units.

    ``refit(weights)`` maps unit multiplicities (``n_units`` non-negative integers) to the
    vector of every figure of the model (``nan`` where a figure is undefined in the
    resample); ``column`` picks this figure. The fits are cached by weights, so all the
    figures of one model share one refit per resample (the same ``Bootstrap`` seed draws
    the same resamples for each). ``features`` is empty: the statistic is not a function
    of summed features, so :meth:`evaluate` refits instead of multiplying.
    """

    refit: Callable[[FloatArray], FloatArray] = field(default=lambda w: _unused_statistic(w))
    column: int = 0
    cache: dict[bytes, FloatArray] = field(default_factory=dict)

    def _params(self, weights: FloatArray) -> FloatArray:
        key = np.asarray(weights, dtype=np.float64).tobytes()
        if key not in self.cache:
            self.cache[key] = self.refit(np.asarray(weights, dtype=np.float64))
        return self.cache[key]

    def evaluate(self, weights: NDArray[np.floating] | NDArray[np.integer]) -> FloatArray:
        return np.array([self._params(w)[self.column] for w in np.atleast_2d(weights)])

    def leave_one_out(self) -> FloatArray:
        n = self.counts.shape[0]
        rows = np.ones((n, n)) - np.eye(n)
        return self.evaluate(rows)


def refit_resampling(n_units: int, refit: Callable[[FloatArray], FloatArray],
                     cache: dict[bytes, FloatArray], column: int) -> RefitResampling:
    """One figure's resampling over ``n_units`` units (each its own pattern)."""
    return RefitResampling(np.zeros((n_units, 0)), np.ones(n_units, dtype=np.int64),
                           _unused_statistic, refit=refit, column=column, cache=cache)


def _unused_statistic(sums: FloatArray) -> FloatArray:
    raise NotImplementedError("a refit resampling evaluates by refitting, with refit= set")


def model_figures(crowd: Crowd, method: str, parameters: dict[str, Any], posterior: FloatArray,
                  truth: IntArray, against: str,
                  hard: Callable[[], FloatArray] | None = None,
                  skill: FloatArray | None = None) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each rater's competence, spammer score and confusion matrix (raters x true x given).

    The confusion matrix is the model's for Dawid-Skene against the consensus; else the
    posterior mass (EM methods against the consensus) or the labels ``truth`` (a
    reference, or the voting methods) of each (true, given) cell, the latter from
    ``hard()`` when given (the same counts, tallied already). Units with
    ``truth < 0`` (tied, or without a reference) do not count. ``skill``: the
    competence when counted already (the majority's: Wawa's weights, each annotator's
    share of agreement with the untied majority label).
    """
    from . import _figures as fig

    comp = competence(crowd, method, parameters) if skill is None else skill
    if against == "consensus" and method == "dawid_skene":
        conf = np.asarray(parameters["confusion"], dtype=np.float64)
    else:
        soft = against == "consensus" and method not in ("majority", "wawa")
        if not soft and hard is not None:
            conf = hard()
            return comp, fig.spammer_score(conf), conf
        safe = np.where(truth >= 0, truth, 0)
        post = posterior if soft else np.eye(crowd.k)[safe]
        conf = fig.soft_confusion(crowd, np.where((truth >= 0)[:, None], post, 0.0))
    return comp, fig.spammer_score(conf), conf


def warm_start(method: str, parameters: dict[str, Any], posterior: FloatArray
               ) -> dict[str, Any] | None:
    """Initial EM parameters from a converged fit's public parameters (per-unit GLAD
    ease is re-indexed per resample by :func:`model_refit`)."""
    if method == "glad":
        return {"alpha": parameters["alpha"], "b": np.log(parameters["beta"])}
    if method == "mace":
        c = np.asarray(parameters["competence"])
        return {"knowing": np.column_stack([1.0 - c, c]), "strategy": parameters["strategy"],
                "prior": np.maximum(posterior.mean(axis=0), 1e-10)}
    if method in ("dawid_skene", "one_coin"):
        return dict(parameters)
    return None


def model_refit(crowd: Crowd, method: str, start: dict[str, Any] | None,
                reference: IntArray | None, *, tol: float, max_iter: int,
                accelerate: bool = False) -> Callable[[FloatArray], FloatArray]:
    """Unit multiplicities -> [competence (R), spammer score (R), confusion (R k k)],
    the model refitted on the resampled units from ``start``; ``nan`` for raters
    absent from the resample, and everywhere when the refit does not converge."""
    r, k = crowd.n_raters, crowd.k
    by_unit: list[IntArray] = []  # the ratings sorted by unit: sorted at the first refit

    def refit(weights: FloatArray) -> FloatArray:
        out = np.full(r * (2 + k * k), math.nan)
        drawn = np.repeat(np.arange(crowd.n_units), np.rint(weights).astype(np.int64))
        if not by_unit:
            by_unit.extend([np.argsort(crowd.unit, kind="stable"),
                            np.concatenate([[0], np.cumsum(crowd.per_unit())]).astype(np.int64)])
        sub = resample(crowd, by_unit[0], by_unit[1], drawn)
        if np.unique(sub.value).shape[0] < 2:
            return out
        got = _sub_fit(sub, method, start, drawn, tol, max_iter, accelerate)
        if got is None:
            return out
        post, params = got
        truth = reference[drawn] if reference is not None else _labels(post)
        comp, spam, conf = model_figures(sub, method, params, post, truth,
                                         "consensus" if reference is None else "reference")
        out[:] = np.concatenate([comp, spam, conf.ravel()])
        absent = np.flatnonzero(sub.per_rater() == 0)
        for col in (absent, r + absent):
            out[col] = math.nan
        for a in absent:
            out[2 * r + a * k * k: 2 * r + (a + 1) * k * k] = math.nan
        return out

    return refit


def _labels(post: FloatArray) -> IntArray:
    """The top class of each unit, ``-1`` where the top is tied (as the point estimate)."""
    top = post.max(axis=1, keepdims=True)
    tied = (post == top).sum(axis=1) > 1
    return np.where(tied, -1, post.argmax(axis=1)).astype(np.int64)


def _sub_fit(sub: Crowd, method: str, start: dict[str, Any] | None, drawn: IntArray,
             tol: float, max_iter: int, accelerate: bool
             ) -> tuple[FloatArray, dict[str, Any]] | None:
    from ._voting import public_parameters
    from ._voting import wawa as _wawa

    if method == "majority":
        return _em.majority_posterior(sub), {}
    if method == "wawa":
        post, skill, _ = _wawa(sub)
        return post, {"skill": skill}
    init = None if start is None else dict(start)
    if init is not None and method == "glad":
        init["b"] = np.asarray(init["b"])[drawn]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = _em.fit(method, sub, tol=tol, max_iter=max_iter, start=init,
                      accelerate=accelerate)
    if not fit.converged:
        return None
    return fit.posterior, public_parameters(method, fit.parameters)
