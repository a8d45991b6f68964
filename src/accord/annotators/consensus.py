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
from accord.errors import DegenerateDataWarning, InvalidParameterError

from . import _em, _model, _sparse
from ._crowd import Crowd, crowd_of
from ._voting import broken, public_parameters, unweighed_note, wawa
from ._voting import few as _few
from ._with_model import with_model
from .result import Consensus

Method = Literal["majority", "wawa", "one_coin", "dawid_skene", "glad", "mace", "crowdlab"]
#: The methods of :func:`consensus` (and of :func:`accord.annotators`) that need no model.
METHODS: tuple[str, ...] = ("majority", "wawa", "one_coin", "dawid_skene", "glad", "mace")
#: Methods of :func:`consensus` that mix a model's probabilities with the votes.
MODEL_ONLY: tuple[str, ...] = _model.MODEL_ONLY

__all__ = ["METHODS", "consensus", "public_parameters", "unweighed_note"]


def consensus(
    annotations: Any,
    *,
    method: Method = "dawid_skene",
    categories: Sequence[Any] | None = None,
    tol: float = 1e-7,
    max_iter: int = 1000,
    threshold: float = 0.9,
    accelerate: bool = False,
    model: Any = None,
    tie_break: Literal["first", "quality"] = "first",
    class_prior: Literal["fitted", "uniform"] = "fitted",
) -> Consensus:
    """Infer one label per unit from the ratings of a crowd.

    Parameters
    ----------
    annotations : Annotations or units x raters table
        Categorical ratings; units rated once are kept (and flagged).
    method : {"majority", "wawa", "one_coin", "dawid_skene", "glad", "mace"}
        ``"majority"``: vote shares; a tie is kept as a tie (listed in
        :attr:`Consensus.tied`; its label is the first tied category, or with
        ``model=`` the tied label the model puts most probability on).
        ``"wawa"``: votes weighted by each annotator's share of agreement with the
        majority label (on the units whose majority is not tied). ``"one_coin"``,
        ``"dawid_skene"``, ``"glad"``, ``"mace"``: EM
        on a latent true class (see :mod:`accord.annotators._em` for the models,
        their priors and the deterministic initialisation). ``"crowdlab"`` (needs
        ``model=``): Goh et al.'s (2022) CROWDLAB, the model's probabilities and the
        votes mixed with weights estimated from their agreement, as cleanlab's
        ``get_label_quality_multiannotator`` computes them (see
        :mod:`accord.annotators._crowdlab`).
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
    model : DataFrame or mapping, optional
        A model's class probabilities as one more annotator whose reliability the fit
        learns: a mapping ``{unit: {label: probability}}``, or a pandas or polars frame
        with one row per unit (ids in a ``unit`` column, else the pandas index) and one
        column per label (a category without a column gets probability 0); each row
        must sum to 1 (within 1e-6). Or a top label and its confidence per unit: a frame
        whose columns besides ``unit`` are exactly ``label`` and ``confidence``, or a
        mapping ``{unit: (label, confidence)}``; confidence ``c`` on the label becomes
        the probabilities ``c`` on it and ``(1 - c) / (k - 1)`` on each other category,
        an assumption said in :attr:`Consensus.notes` (the row is then a soft rating
        like any other). For ``"dawid_skene"``, ``"one_coin"`` and ``"mace"`` the
        probabilities enter as a soft likelihood (fractional ratings); for ``"wawa"``
        the model votes its top label, weighed by its agreement with the majority; for
        ``"majority"``, which learns no reliability, the model breaks the crowd's ties
        only (a tied unit takes the tied label it puts most probability on and stays in
        :attr:`Consensus.tied`; it never outvotes the crowd); ``"crowdlab"`` mixes them
        with the votes at a weight set by its agreement with the consensus; GLAD takes
        no model (see :mod:`accord.annotators._model`). Units the model did not score
        are noted and left to the crowd. What the model got is :attr:`Consensus.model`.
    tie_break : {"first", "quality"}
        Majority and Wawa: the label of a tied unit (majority with ``model=``: of a
        tie the model leaves). ``"first"``: the first tied category;
        ``"quality"``: the tied label whose voters agree most with the majority on the
        units whose majority is not tied (CROWDLAB's third tie-break, see
        :mod:`accord.annotators._quality_fit`). Tied units stay in :attr:`Consensus.tied`.
    class_prior : {"fitted", "uniform"}
        MACE: the prior of the true class, updated from the posterior in each step
        (``"fitted"``) or held at ``1/k`` (``"uniform"``, as Hovy et al. 2013 and
        crowd-kit). Where most workers spam with favourite labels, the fitted prior can
        make those labels the answer (accuracy below chance on 11 of 60 such simulated
        crowds, 0 with ``"uniform"``); on a skewed crowd the uniform prior costs accuracy
        (D_Product 0.851 against 0.930). The choice is noted in :attr:`Consensus.notes`.

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

    How likely each label is right (:attr:`Consensus.quality`), and where one more
    label helps most (:meth:`Consensus.relabel`):

    >>> c.quality.consensus.round(3).tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> accord.consensus(ratings, method="majority").relabel(1).units
    (0,)

    A model's probabilities for the same units, as one more voice:

    >>> probs = {0: {"x": 0.9, "y": 0.1}, 1: {"x": 0.2, "y": 0.8}, 3: {"x": 0.3, "y": 0.7}}
    >>> m = accord.consensus(ratings, method="dawid_skene", model=probs)
    >>> [m.labels[u] for u in m.units], m.model.n_units
    (['x', 'y', 'x', 'y'], 3)

    The same model as a top label and its confidence per unit (the rest spread evenly
    over the other labels, so here the same probabilities and the same fit):

    >>> pairs = {0: ("x", 0.9), 1: ("y", 0.8), 3: ("y", 0.7)}
    >>> t = accord.consensus(ratings, method="dawid_skene", model=pairs)
    >>> bool((t.posterior == m.posterior).all())
    True

    Under majority vote the model breaks the crowd's ties only (the unit stays tied):

    >>> tie = accord.consensus([["x", "y"], ["x", "x"]], method="majority",
    ...                        model={0: {"x": 0.3, "y": 0.7}})
    >>> tie.labels[0], tie.tied, tie.tie_break
    ('y', (0,), 'model')
    """
    func = "consensus"
    tol, threshold = check_options(method, tol, max_iter, threshold, accelerate, func,
                                   choices=METHODS + MODEL_ONLY)
    check_tie_break(tie_break, method, func)
    v.choice(class_prior, ("fitted", "uniform"), param="class_prior", func=func)
    if class_prior != "fitted" and method != "mace":
        raise InvalidParameterError(
            f"{func}: class_prior={class_prior!r} (accord CLI: --class-prior {class_prior}) "
            f"applies to 'mace'; method={method!r} (accord CLI: --method {method}) fits its "
            "class prior.")
    if model is not None:
        _model.refuse_method(method, func)
    elif method in MODEL_ONLY:
        raise InvalidParameterError(
            f"{func}: method={method!r} (accord CLI: --method {method}) mixes a model's "
            "probabilities with the votes; pass them as model= (accord CLI: --model FILE), "
            "or choose a method that needs no model, such as 'dawid_skene'.")
    crowd = crowd_of(annotations, func=func, categories=categories)
    return consensus_of(crowd, method, tol=tol, max_iter=max_iter, threshold=threshold,
                        accelerate=accelerate, model=model, tie_break=tie_break,
                        class_prior=class_prior)


def check_options(method: Any, tol: Any, max_iter: Any, threshold: Any, accelerate: Any,
                  func: str, choices: tuple[str, ...] = METHODS) -> tuple[float, float]:
    """The options of :func:`consensus`, checked (one sentence each): ``tol`` and
    ``threshold`` as floats."""
    v.choice(method, choices, param="method", func=func)
    tol = non_negative(tol, "tol", func)
    v.positive_int(max_iter, param="max_iter", func=func)
    threshold = threshold_of(threshold, func)
    if not isinstance(accelerate, bool):
        raise v.fail("accelerate", func, "True or False", accelerate)
    return tol, threshold


def check_tie_break(tie_break: Any, method: str, func: str) -> None:
    """``tie_break`` checked: one of its choices, and only where votes can tie."""
    v.choice(tie_break, ("first", "quality"), param="tie_break", func=func)
    if tie_break != "first" and method not in ("majority", "wawa"):
        raise InvalidParameterError(
            f"{func}: tie_break={tie_break!r} (accord CLI: --tie-break {tie_break}) applies "
            f"to 'majority' and 'wawa'; method={method!r} (accord CLI: --method {method}) "
            "breaks no tie (its posterior rarely has one).")


def consensus_of(crowd: Crowd, method: str, *, tol: float = 1e-7, max_iter: int = 1000,
                 threshold: float = 0.9, accelerate: bool = False, model: Any = None,
                 matrix: Any = None, tie_break: str = "first",
                 class_prior: str = "fitted") -> Consensus:
    """:func:`consensus` of a crowd already coded, its options checked; ``matrix`` is
    ``crowd.rating_matrix()`` when the caller made it (Dawid-Skene then builds none)."""
    func = "consensus"
    _sparse.refuse_dense(method, crowd, func)
    n_ratings = crowd.per_unit()
    notes = _notes(crowd, method, n_ratings)
    if class_prior == "uniform":
        notes = (*notes, "MACE's class prior is held uniform (1/k), as in Hovy et al. (2013).")
    if model is not None:
        given = _model.model_of(model, crowd, func)
        said = _model.form_note(given, crowd.k)
        c = with_model(crowd, given, method, notes if said is None else (*notes, said),
                        threshold=threshold, tol=tol, max_iter=max_iter,
                        accelerate=accelerate, class_prior=class_prior, tie_break=tie_break,
                        n_ratings=n_ratings)
        if method != "wawa":  # majority's ties are broken by the model, then tie_break
            return c
        voted = tie_break != "first"
        return broken(c, tie_break, _model.voters(crowd, c.soft) if voted else None)
    made = partial(Consensus, method=method, units=crowd.unit_ids, categories=crowd.categories,
                   raters=crowd.rater_ids, n_ratings=n_ratings, threshold=threshold,
                   notes=notes, crowd=crowd)
    wide = _sparse.over_budget(method, crowd)
    if method == "majority":
        return broken(made(posterior=_sparse.majority(crowd) if wide
                            else _em.majority_posterior(crowd)), tie_break)
    if method == "wawa":
        post, skill, unweighed = _sparse.wawa(crowd) if wide else wawa(crowd)
        if unweighed:
            made = partial(made, notes=(*notes, unweighed_note(unweighed)))
        return broken(made(posterior=post, parameters={"skill": skill}), tie_break)
    fit = _em.fit(method, crowd, tol=tol, max_iter=max_iter, accelerate=accelerate,
                  matrix=matrix, class_prior=class_prior)
    return made(posterior=fit.posterior,
                parameters=public_parameters(method, fit.parameters),
                n_iter=fit.n_iter, log_likelihood=fit.log_likelihood, converged=fit.converged,
                last_change=fit.last_change)


def _notes(crowd: Crowd, method: str, per_unit: Any) -> tuple[str, ...]:
    """One sentence per thing worth knowing about the crowd (nothing is dropped);
    ``per_unit`` is ``crowd.per_unit()``."""
    r, k = crowd.n_raters, crowd.k
    if r * k <= _sparse.CELL_BUDGET:
        per_key = np.bincount(crowd.rv, minlength=r * k).reshape(r, k)
    else:  # raters x categories as a sparse matrix on a crowd with many categories
        per_key = _sparse.rater_label_counts(crowd)
    return crowd_notes(per_unit, per_key, crowd.rater_ids, crowd.categories,
                       method=method)


#: The methods whose consensus of a unit rated once is that one rating.
_VOTES = frozenset({"majority", "wawa"})


def crowd_notes(per_unit: Any, per_rater_label: Any, raters: Sequence[Any],
                categories: Sequence[Any], *, method: str = "majority") -> tuple[str, ...]:
    """The notes of a consensus, from the ratings per unit and per (rater, label).

    ``per_unit``: the number of ratings of each unit; ``per_rater_label``: raters x
    categories counts; ``method`` the consensus method (a vote gives a unit rated once
    its one label; a model reads that label through the annotator's fitted errors and
    may not). Shared by :func:`consensus` and the engines' consensus, which count the
    same tables where the data live.
    """
    per_unit = np.asarray(per_unit)
    counts = per_rater_label if hasattr(per_rater_label, "tocsr") else np.asarray(
        per_rater_label)
    notes = []
    once = int((per_unit == 1).sum())
    if once and method in _VOTES:
        notes.append(f"{once} unit(s) were rated by one annotator only: their label is that "
                     "annotator's (listed in single_rated).")
    elif once:
        notes.append(f"{once} unit(s) were rated by one annotator only (listed in "
                     "single_rated): their label rests on that one rating, read through the "
                     "annotator's fitted errors, and can differ from it.")
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
