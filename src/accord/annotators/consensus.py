"""``consensus``: one label per unit from a crowd's ratings (truth inference).

Majority vote, Wawa (majority weighted by each annotator's agreement with the
majority), and the latent-class models fitted by EM in :mod:`._em`: one-coin,
Dawid & Skene (1979), GLAD (Whitehill et al. 2009) and MACE (Hovy et al. 2013).

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
Whitehill, J. et al. (2009). Whose vote should count more. *NIPS* 22.
Hovy, D. et al. (2013). Learning whom to trust with MACE. *NAACL-HLT*, 1120-1130.
Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for
accelerating the convergence of any EM algorithm. *Scand. J. Statist.* 35, 335-353.
Zheng, Y. et al. (2017). Truth inference in crowdsourcing: is the problem solved?
*PVLDB* 10(5), 541-552.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from functools import partial
from typing import Any, Literal

import numpy as np

from accord.data import _validation as v
from accord.errors import DegenerateDataWarning

from . import _em, _sparse
from ._crowd import Crowd, FloatArray, crowd_of, wsum
from .result import Consensus

Method = Literal["majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"]
METHODS: tuple[str, ...] = ("majority", "wawa", "one_coin", "dawid_skene", "glad", "mace")

__all__ = ["METHODS", "consensus"]


def consensus(
    annotations: Any,
    *,
    method: Method = "dawid_skene",
    categories: Sequence[Any] | None = None,
    tol: float = 1e-7,
    max_iter: int = 1000,
    threshold: float = 0.9,
    accelerate: bool = False,
) -> Consensus:
    """Infer one label per unit from the ratings of a crowd.

    Parameters
    ----------
    annotations : Annotations or units x raters table
        Categorical ratings; units rated once are kept (and flagged).
    method : {"majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"}
        ``"majority"``: vote shares; a tie is kept as a tie (listed in
        :attr:`Consensus.tied`; its label is the first tied category).
        ``"wawa"``: votes weighted by each annotator's share of agreement with the
        majority label (on the units whose majority is not tied). ``"one_coin"``,
        ``"dawid_skene"``, ``"glad"``, ``"mace"``: EM
        on a latent true class (see :mod:`accord.annotators._em` for the models,
        their priors and the deterministic initialisation).
    categories : sequence, optional
        The category order (columns of the posterior); unused categories are kept.
    tol : float
        Stop when the log-likelihood changes by less than ``tol`` per rating
        (``0`` runs exactly ``max_iter`` iterations).
    max_iter : int
        The iteration cap; reaching it without meeting ``tol`` warns
        (:class:`~accord.errors.ConvergenceWarning`) and reports ``converged=False``.
    threshold : float
        Units whose top posterior is below it are listed first as uncertain.
    accelerate : bool
        For ``"one_coin"`` and ``"dawid_skene"``: extrapolate the EM iterates by
        SQUAREM (Varadhan & Roland 2008, the step length "S3" on log-probabilities,
        back-tracking toward plain EM whenever the log-likelihood would fall below
        one plain EM step's). Its fixed points and stopping rule are plain EM's
        (where the likelihood has several maxima it may settle on another one);
        ``n_iter`` then counts E steps (passes over the ratings), two per SQUAREM
        cycle plus one per extrapolated point tried. It pays where EM converges
        slowly and smoothly (2x fewer passes on simulated crowds); on crowds whose
        EM flips a few units per iteration it does not (see the benchmarks).
        ``False`` (the default) runs plain EM; GLAD and MACE always do.

    Returns
    -------
    Consensus

    Notes
    -----
    On a crowd with many categories (free-text answers, entity ids), majority and
    Wawa count the sparse (unit, label) votes, and their posterior is a
    ``scipy.sparse.csr_array``; the EM methods, whose posterior and (Dawid-Skene)
    confusion matrices are dense, are refused with one sentence past
    :data:`~accord.annotators._sparse.CELL_BUDGET` cells of state and 16 per rating
    (see :mod:`accord.annotators._sparse`).

    The E step is ``log P(T_u = c, ratings) = log pi_c + sum_i log theta[r_i, c, v_i]``
    summed per unit by ``np.bincount``; the M step counts, per annotator, the
    posterior mass of each (true class, given label) cell by ``np.bincount`` over
    ``rater * k + value``. Memory and time are linear in the number of ratings.

    Examples
    --------
    Three annotators; ``c`` always agrees with the majority, ``b`` never:

    >>> import accord
    >>> ratings = [["x", "y", "x"], ["y", "y", "y"], ["x", "x", "x"], ["y", "x", "y"]]
    >>> c = accord.consensus(ratings, method="dawid_skene")
    >>> [c.labels[u] for u in c.units]
    ['x', 'y', 'x', 'y']
    >>> c.converged, c.posterior.sum(axis=1).round(12).tolist()
    (True, [1.0, 1.0, 1.0, 1.0])
    >>> accord.consensus([["x", "y"], ["x", "x"]], method="majority").tied
    (0,)
    """
    func = "consensus"
    v.choice(method, METHODS, param="method", func=func)
    tol = non_negative(tol, "tol", func)
    v.positive_int(max_iter, param="max_iter", func=func)
    threshold = threshold_of(threshold, func)
    if not isinstance(accelerate, bool):
        raise v.fail("accelerate", func, "True or False", accelerate)
    crowd = crowd_of(annotations, func=func, categories=categories)
    _sparse.refuse_dense(method, crowd, func)
    notes = _notes(crowd)
    made = partial(Consensus, method=method, units=crowd.unit_ids, categories=crowd.categories,
                   raters=crowd.rater_ids, n_ratings=crowd.per_unit(), threshold=threshold,
                   notes=notes)
    wide = _sparse.over_budget(method, crowd)
    if method == "majority":
        return made(posterior=_sparse.majority(crowd) if wide else _em.majority_posterior(crowd))
    if method == "wawa":
        post, skill, unweighed = _sparse.wawa(crowd) if wide else _wawa(crowd)
        if unweighed:
            made = partial(made, notes=(*notes, unweighed_note(unweighed)))
        return made(posterior=post, parameters={"skill": skill})
    fit = _em.fit(method, crowd, tol=tol, max_iter=max_iter, accelerate=accelerate)
    return made(posterior=fit.posterior,
                parameters=public_parameters(method, fit.parameters),
                n_iter=fit.n_iter, log_likelihood=fit.log_likelihood, converged=fit.converged,
                last_change=fit.last_change)


def _wawa(crowd: Crowd) -> tuple[FloatArray, FloatArray, list[Any]]:
    """Votes weighted by each annotator's agreement with the majority label, and the
    annotators who rated only units with a tied majority (their weight is 0 for want of
    a majority label, not for disagreeing).

    Units whose majority is tied have no majority label and do not count in the
    weights (so the weights do not depend on the order of the categories). A unit
    whose annotators all have weight 0 keeps its plain vote shares.
    """
    shares = _em.majority_posterior(crowd)
    clear = (shares == shares.max(axis=1, keepdims=True)).sum(axis=1) == 1
    majority = np.where(clear, shares.argmax(axis=1), -1)[crowd.unit]
    hits = (crowd.value == majority).astype(np.float64)
    skill = wsum(crowd.rater, hits, crowd.n_raters)
    counted = wsum(crowd.rater, majority >= 0, crowd.n_raters)
    skill /= np.maximum(counted, 1)
    rated = np.bincount(crowd.rater, minlength=crowd.n_raters) > 0
    unweighed = [crowd.rater_ids[int(i)] for i in np.flatnonzero(rated & (counted == 0))]
    n, k = crowd.n_units, crowd.k
    weighted = wsum(crowd.uv, skill[crowd.rater], n * k).reshape(n, k)
    total = weighted.sum(axis=1, keepdims=True)
    votes = crowd.votes()
    zero = total[:, 0] == 0
    weighted[zero], total[zero] = votes[zero], votes[zero].sum(axis=1, keepdims=True)
    return weighted / total, skill, unweighed


def unweighed_note(raters: Sequence[Any]) -> str:
    """The note of a Wawa fit on the annotators whose weight is 0 for want of a majority
    label (shared with the engines' Wawa)."""
    return (f"{len(raters)} annotator(s) rated only units whose majority is tied "
            f"({_few(raters)}): Wawa gives them weight 0 (no majority label to agree with), "
            "so their votes count only where every annotator of a unit has weight 0.")


def public_parameters(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """The fitted parameters under the names users read (shared with the engines)."""
    if method == "glad":
        return {"alpha": params["alpha"], "beta": np.exp(params["b"])}
    if method == "mace":
        return {"competence": _em.competence(params["knowing"]),
                "strategy": params["strategy"] / params["strategy"].sum(axis=1, keepdims=True)}
    return params


def _notes(crowd: Crowd) -> tuple[str, ...]:
    """One sentence per thing worth knowing about the crowd (nothing is dropped)."""
    r, k = crowd.n_raters, crowd.k
    if r * k <= _sparse.CELL_BUDGET:
        per_key = np.bincount(crowd.rv, minlength=r * k).reshape(r, k)
    else:  # raters x categories as a sparse matrix on a crowd with many categories
        per_key = _sparse.rater_label_counts(crowd)
    return crowd_notes(crowd.per_unit(), per_key, crowd.rater_ids, crowd.categories)


def crowd_notes(per_unit: Any, per_rater_label: Any, raters: Sequence[Any],
                categories: Sequence[Any]) -> tuple[str, ...]:
    """The notes of a consensus, from the ratings per unit and per (rater, label).

    ``per_unit``: the number of ratings of each unit; ``per_rater_label``: raters x
    categories counts. Shared by :func:`consensus` and the engines' consensus, which
    count the same tables where the data live.
    """
    per_unit = np.asarray(per_unit)
    counts = per_rater_label if hasattr(per_rater_label, "tocsr") else np.asarray(
        per_rater_label)
    notes = []
    once = int((per_unit == 1).sum())
    if once:
        notes.append(f"{once} unit(s) were rated by one annotator only: their label is that "
                     "annotator's (listed in single_rated).")
    per_rater = np.asarray(counts.sum(axis=1)).ravel()
    idle = [raters[int(i)] for i in np.flatnonzero(per_rater == 0)]
    if idle:
        notes.append(f"{len(idle)} annotator(s) gave no rating ({_few(idle)}): they are kept "
                     "with their starting parameters.")
    lone = [raters[int(i)] for i in np.flatnonzero(per_rater == 1)]
    if lone:
        notes.append(f"{len(lone)} annotator(s) gave one rating only ({_few(lone)}): their "
                     "parameters rest on that rating.")
    used = counts > 0
    raters_of = np.asarray(used.sum(axis=0)).ravel()
    solo = [categories[int(c)] for c in np.flatnonzero(raters_of == 1)]
    if solo:
        notes.append(f"{len(solo)} label(s) were used by one annotator only ({_few(solo)}).")
    scores = [c for c in categories if isinstance(c, numbers.Real)
              and not isinstance(c, (bool, np.bool_)) and not float(c).is_integer()]
    if scores and len(scores) == len(categories):
        notes.append(f"The labels are non-integer numbers ({_few(scores)}): each distinct value "
                     "is a category; if they are scores, declare level='interval' and use "
                     "accord.score_consensus (mean, median or a bias and noise model).")
    if np.asarray(used.sum(axis=1)).max() == 1:
        why = ("every annotator gave the same label to all their units, so the ratings say "
               "nothing about any annotator's errors.")
        warnings.warn(f"consensus: {why}", DegenerateDataWarning, stacklevel=v.user_level())
        notes.append(why[0].upper() + why[1:])
    return tuple(notes)


def _few(items: Sequence[Any]) -> str:
    shown = ", ".join(repr(x) for x in items[:5])
    return shown + (", ..." if len(items) > 5 else "")


def non_negative(value: Any, param: str, func: str) -> float:
    """``value`` as a float, or one sentence: it must be a finite number >= 0."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not math.isfinite(float(value)) or value < 0):
        raise v.fail(param, func, "a non-negative number", value)
    return float(value)


def threshold_of(value: Any, func: str) -> float:
    """``value`` as a float, or one sentence: it must lie in (0, 1]."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not 0 < float(value) <= 1):
        raise v.fail("threshold", func, "a number in (0, 1]", value)
    return float(value)
