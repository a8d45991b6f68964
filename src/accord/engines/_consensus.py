"""Consensus labels (majority, Wawa, one-coin, Dawid-Skene, MACE) computed inside an engine.

The methods, their deterministic start (the majority-vote posterior) and the
stopping rule are those of :func:`accord.consensus`. Majority and Wawa
(:mod:`accord.engines._wawa`) are a query or two; each EM iteration of
one-coin, Dawid-Skene (Dawid & Skene 1979) and MACE (Hovy et al. 2013) is one
engine query (:mod:`accord.engines._em`, :mod:`accord.engines._crowd`), or on Dask
and Spark one pass over blocks of ratings held on the workers
(:mod:`accord.engines._held`): the E step's sums per unit and its normalisation run
in the engine, and only the per-(rater, label) posterior mass comes back; the M step is a few numpy
operations on that small table. ``accelerate=True`` runs one-coin and
Dawid-Skene under the in-memory SQUAREM (Varadhan & Roland 2008), each E step
still one query. GLAD runs in memory only: its M step is a conjugate-gradient
ascent over one ease per unit, which does not map to one aggregation.

References
----------
Dawid, A. P. & Skene, A. M. (1979). Maximum likelihood estimation of observer
error-rates using the EM algorithm. *Applied Statistics* 28(1), 20-28.
Hovy, D. et al. (2013). Learning whom to trust with MACE. *NAACL-HLT*, 1120-1130.
Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods for
accelerating the convergence of any EM algorithm. *Scand. J. Statist.* 35, 335-353.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from accord.annotators import METHODS as MEMORY_METHODS
from accord.annotators import Consensus
from accord.annotators.consensus import (
    crowd_notes,
    non_negative,
    public_parameters,
    threshold_of,
    unweighed_note,
)
from accord.data import _validation as v
from accord.engines import _crowd as ec
from accord.engines import _frame as fr
from accord.engines._crowd import EngineCrowd, FloatArray
from accord.engines._em import ACCELERATED, MODELS, run, run_squarem
from accord.engines._held import hold
from accord.engines._result import EngineResult
from accord.engines._wawa import wawa
from accord.errors import InvalidParameterError

__all__ = ["Fitted", "check", "consensus", "fit"]

_FUNC = "accord.engines.consensus"
EngineMethod = Literal["majority", "wawa", "one_coin", "dawid_skene", "mace"]
METHODS: tuple[str, ...] = ("majority", "wawa", "one_coin", "dawid_skene", "mace")


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
    method : {"majority", "wawa", "one_coin", "dawid_skene", "mace"}
        As in :func:`accord.consensus`: vote shares, votes weighted by each rater's
        agreement with the majority label (``"wawa"``), or EM on a latent true
        class with one accuracy per rater (``"one_coin"``), a full confusion
        matrix per rater (``"dawid_skene"``), or a competence and a guessing
        strategy per rater (``"mace"``: variational Bayes, the class prior fitted
        as in memory). ``"glad"`` runs in memory only (:func:`accord.consensus`):
        its M step, a conjugate-gradient ascent over one ease per unit, does not
        map to one aggregation, and it is refused with one sentence.
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
        equal the in-memory accelerated fit's. ``False`` runs plain EM; MACE
        always does (as in memory).

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
    Per iteration a table of ``n_keys x k`` log terms (``n_keys`` the distinct
    (rater, label) pairs) goes to the engine, which sums it per unit, normalises
    and sums the posteriors per (rater, label); only that ``n_keys x k`` table is
    collected. On DuckDB and polars that is one query (a join and two GROUP BYs);
    on Dask and Spark the ratings are partitioned by unit once, each partition is
    kept on its worker as arrays, and an iteration is one pass over those blocks
    and one sum (the workers run accord's code, so they need accord installed).
    The per-unit posteriors (``n_units x k``) are collected once, at the end.
    Figures equal the in-memory ones to rounding (the sums run in another order).

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
    threshold = check(unit, rater, value, method, tol=tol, max_iter=max_iter,
                      threshold=threshold, accelerate=accelerate, func=_FUNC)
    tol = float(tol)
    cats, extra = fr.names(categories, missing, func=_FUNC)
    crowd = ec.crowd(frame, (unit, rater, value), cats, extra, func=_FUNC)
    try:
        if method in MODELS:
            crowd = hold(crowd)
        fitted = fit(crowd, method, tol=tol, max_iter=max_iter, accelerate=accelerate)
        return EngineResult(fitted.consensus(fitted.table(), threshold), crowd.audit)
    finally:
        ec.release_crowd(crowd)


def check(unit: Any, rater: Any, value: Any, method: Any, *, tol: Any, max_iter: Any,
          threshold: Any, accelerate: Any, func: str) -> float:
    """The arguments every engine fit takes, checked in one place; the threshold."""
    _method(method, func)
    if not isinstance(accelerate, bool):
        raise v.fail("accelerate", func, "True or False", accelerate)
    non_negative(tol, "tol", func)
    v.positive_int(max_iter, param="max_iter", func=func)
    checked = threshold_of(threshold, func)
    for name, given in (("unit", unit), ("rater", rater), ("value", value)):
        if not isinstance(given, str):
            raise v.fail(name, func, "a column name", given)
    if len({unit, rater, value}) < 3:
        raise v.fail("value", func, "a column other than unit= and rater=", value)
    return checked


@dataclass(frozen=True)
class Fitted:
    """A fit in the engine: the lazy per-unit posteriors (``U``, ``N``, ``p0..``) and
    what the :class:`~accord.Consensus` made from them holds besides."""

    crowd: EngineCrowd
    method: str
    units: Any
    notes: tuple[str, ...] = ()
    fit: dict[str, Any] = field(default_factory=dict)

    #: the collected ``unit_table`` where the fit made it already (blocks held on the
    #: workers: :mod:`accord.engines._held`), else None
    collected: tuple[list[Any], Any, FloatArray] | None = None

    def table(self) -> tuple[list[Any], Any, FloatArray]:
        """The per-unit ids, rating counts and posteriors, collected."""
        if self.collected is not None:
            return self.collected
        return ec.unit_table(self.crowd, self.units)

    def consensus(self, table: tuple[list[Any], Any, FloatArray], threshold: float
                  ) -> Consensus:
        """The consensus from the collected ``unit_table`` of :attr:`units`."""
        ids, n, post = table
        notes = (*_notes(self.crowd, n, self.method), *self.notes)
        return Consensus(method=self.method, units=tuple(ids),
                         categories=self.crowd.categories, raters=self.crowd.raters,
                         posterior=post, n_ratings=n, threshold=threshold, notes=notes,
                         **self.fit)


def fit(crowd: EngineCrowd, method: str, *, tol: float, max_iter: int,
        accelerate: bool) -> Fitted:
    """Fit ``method`` in the engine; the per-unit posteriors stay lazy."""
    if method == "majority":
        return Fitted(crowd, method, ec.votes(crowd))
    if method == "wawa":
        units, skill, unweighed = wawa(crowd)
        return Fitted(crowd, method, units,
                      (unweighed_note(unweighed),) if unweighed else (),
                      {"parameters": {"skill": skill}})
    model = MODELS[method](crowd)
    fast = accelerate and method in ACCELERATED
    done = (run_squarem if fast else run)(model, tol=tol, max_iter=max_iter, method=method)
    figures = {"parameters": public_parameters(method, done.params), "n_iter": done.n_iter,
               "log_likelihood": done.log_likelihood, "converged": done.converged,
               "last_change": done.last_change}
    if crowd.held is not None:  # the blocks give the per-unit posteriors, collected
        return Fitted(crowd, method, None, (), figures,
                      ec.final_units(crowd, *model.terms(done.e_params)))
    return Fitted(crowd, method, ec.posterior(crowd, *model.terms(done.e_params)), (), figures)


# --------------------------------------------------------------------- checks and notes
def _method(method: Any, func: str) -> None:
    if method in METHODS:
        return
    if method in MEMORY_METHODS:
        raise InvalidParameterError(
            f"The 'method' parameter of {func} must be one of {list(METHODS)!r}. Got "
            f"{method!r} instead: it runs in memory only (accord.{func.split('.')[-1]})."
        )
    v.choice(method, METHODS, param="method", func=func)


def _notes(crowd: EngineCrowd, per_unit: Any, method: str) -> tuple[str, ...]:
    """The sentences :func:`accord.consensus` notes, from the engine's counts (every
    rater here gave a rating: raters are read from the ratings)."""
    return crowd_notes(per_unit, crowd.per_key.reshape(crowd.n_raters, crowd.k), crowd.raters,
                       crowd.categories, method=method)
