"""A consensus with a model's probabilities as one more voice (``consensus(model=...)``).

How each method takes the model is in :mod:`._model`: majority vote lets it break the
crowd's ties only, Wawa weighs its top label as an annotator's vote, the EM methods fit
it as one more annotator of soft ratings, CROWDLAB mixes its probabilities with the
votes (:mod:`._crowdlab`). Each result says what the model was worth
(:class:`~.result.ModelVoice`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from accord.errors import DataError

from . import _em, _model, _sparse
from ._crowd import Crowd
from ._figures import proportion, share_resampling
from ._voting import broken, public_parameters, unweighed_note, wawa
from .result import Consensus, ModelVoice

__all__ = ["with_model"]


def with_model(crowd: Crowd, model: _model.ModelInput, method: str, notes: tuple[str, ...], *,
                threshold: float, tol: float, max_iter: int, accelerate: bool,
                class_prior: str = "fitted", tie_break: str = "first",
                n_ratings: Any = None) -> Consensus:
    """The consensus with the model as one more annotator (see :mod:`._model`);
    ``n_ratings`` is ``crowd.per_unit()`` where the caller has it."""
    note = _model.unscored_note(model)
    n_ratings = crowd.per_unit() if n_ratings is None else n_ratings
    made = partial(Consensus, method=method, units=crowd.unit_ids, categories=crowd.categories,
                   raters=crowd.rater_ids, n_ratings=n_ratings, threshold=threshold,
                   notes=notes if note is None else (*notes, note), crowd=crowd,
                   soft=model.probs)
    if method == "majority":
        return _tie_broken(crowd, model, made, tie_break)
    if method == "wawa":
        return _voted(crowd, model, method, made)
    if method in _model.MODEL_ONLY:
        return _mixed(crowd, model, made, n_ratings)
    fit = _em.fit(method, crowd, tol=tol, max_iter=max_iter, accelerate=accelerate,
                  soft=model.probs, class_prior=class_prior)
    params, conf = dict(public_parameters(method, fit.parameters)), None
    if method == "dawid_skene":
        conf, params["confusion"] = params["confusion"][-1], params["confusion"][:-1]
        accuracy = float(np.diagonal(conf) @ params["prior"])
    elif method == "mace":
        a, xi = float(params["competence"][-1]), params["strategy"][-1]
        accuracy = a + (1.0 - a) * float(xi @ fit.parameters["prior"])
        params = {name: x[:-1] for name, x in params.items()}
    else:
        accuracy, params["accuracy"] = float(params["accuracy"][-1]), params["accuracy"][:-1]
    n = model.n_scored
    weight, crowd_weight = _model.vote_weights(method, params, fit.parameters["prior"],
                                               accuracy, crowd.k)
    voice = ModelVoice("soft", n, proportion("model_accuracy", accuracy * n, n, details={},
                                             per_category=None, resampling=None), conf,
                       weight, crowd_weight)
    return made(posterior=fit.posterior, parameters=params, n_iter=fit.n_iter,
                log_likelihood=fit.log_likelihood, converged=fit.converged,
                last_change=fit.last_change, model=voice)


def _tie_broken(crowd: Crowd, model: _model.ModelInput, made: Callable[..., Consensus],
                tie_break: str) -> Consensus:
    """Majority vote with the model breaking the crowd's ties only: a tied unit takes the
    tied label the model puts most probability on; a tie it leaves, ``tie_break``'s."""
    wide = _sparse.over_budget("majority", crowd)
    c = made(posterior=_sparse.majority(crowd) if wide else _em.majority_posterior(crowd))
    tied = c._tied_mask
    codes = _model.tie_codes(model, c.posterior, tied)
    left = tied & (codes < 0)
    rule = "model"
    if tie_break != "first" and left.any():
        rest = broken(c, tie_break)
        codes = np.where(left, np.asarray(rest.tie_codes), codes)
        rule = f"model, then {tie_break}"
    n_tied, n_broken = int(tied.sum()), int((tied & ~left).sum())
    note = ("Majority vote takes the model as a tie-break only (it learns no reliability, so "
            "the model does not outvote the crowd): ")
    if not n_tied:
        note += "the crowd tied on no unit, so the model changed no label"
    else:
        note += (f"{n_broken} of {n_tied} tied unit(s) took the tied label the model puts "
                 "most probability on (still listed as tied)")
    if n_tied > n_broken:
        then = ("the first tied label" if tie_break == "first" else
                f"the label tie_break={tie_break!r} chose")
        note += (f"; the {n_tied - n_broken} it left (not scored, or equal probabilities on "
                 f"the tied labels) took {then}")
    c = replace(c, notes=(*c.notes, note + "."), tie_break=rule, tie_codes=codes)
    units, votes = _model.top_votes(model)
    clear = ~tied[units]
    hits = float((c.label_codes[units] == votes)[clear].sum())
    n = float(clear.sum())
    accuracy = proportion("model_accuracy", hits, n, details={}, per_category=None,
                          resampling=share_resampling(hits, n))
    return replace(c, model=ModelVoice("tie-break", model.n_scored, accuracy, None,
                                       math.nan, 1.0))


def _voted(crowd: Crowd, model: _model.ModelInput, method: str,
           made: Callable[..., Consensus]) -> Consensus:
    """Wawa with the model's top label as one more rater's vote, weighed as an
    annotator's by its agreement with the majority."""
    units, votes = _model.top_votes(model)
    r = crowd.n_raters
    voted = _model.voters(crowd, model.probs)
    wide = _sparse.over_budget(method, voted)
    post, skill, unweighed = _sparse.wawa(voted) if wide else wawa(voted)
    unweighed = [x for i, x in enumerate(crowd.rater_ids) if x in unweighed and i < r]
    extra = (unweighed_note(unweighed),) if unweighed else ()
    c = made(posterior=post, parameters={"skill": skill[:r]})
    c = replace(c, notes=(*c.notes, *extra))
    weights = (float(skill[r]), float(np.median(skill[:r])))
    clear = ~c._tied_mask[units]
    hits = float((c.label_codes[units] == votes)[clear].sum())
    n = float(clear.sum())
    accuracy = proportion("model_accuracy", hits, n, details={}, per_category=None,
                          resampling=share_resampling(hits, n))
    return replace(c, model=ModelVoice("top label", model.n_scored, accuracy, None, *weights))


def _mixed(crowd: Crowd, model: _model.ModelInput, made: Callable[..., Consensus],
           n_ratings: Any) -> Consensus:
    """CROWDLAB's mixture of the model's probabilities and the votes."""
    from ._crowdlab import crowdlab, median

    if not (n_ratings > 1).any():
        raise DataError("consensus: method='crowdlab' weighs the annotators and the model by "
                        "their agreement on the units rated more than once, and every unit "
                        "has one rating; use method='majority' or collect a second label for "
                        "some units.")
    mix = crowdlab(crowd, model.probs, np.asarray(model.scored, dtype=bool))
    accuracy = proportion("model_accuracy", mix.model_hits, mix.model_counted, details={},
                          per_category=None,
                          resampling=share_resampling(mix.model_hits, mix.model_counted))
    voice = ModelVoice("weighted", model.n_scored, accuracy, weight=mix.model_weight,
                       crowd_weight=median(mix.annotator_weight))
    params = {"weight": mix.annotator_weight, "agreement": mix.annotator_agreement,
              "consensus_likelihood": mix.consensus_likelihood}
    c = made(posterior=mix.posterior, parameters=params, tie_codes=mix.labels, model=voice)
    if not mix.model_counted:
        c = replace(c, notes=(*c.notes, "The model scored no unit rated more than once, where "
                              "CROWDLAB measures its accuracy against the consensus: it gets "
                              "the floor weight (1e-6 times the root of the mean ratings per "
                              "unit), so the votes decide."))
    return c
