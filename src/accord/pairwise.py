"""Pairwise agreement: a two-rater coefficient for every pair of raters.

With many raters, the matrix of pairwise coefficients shows who disagrees with
whom (the mean of the pairwise Cohen's kappas is Light's kappa). Each pair uses
the units both raters rated; pairs with no unit in common get ``nan`` and a
reason rather than an error.
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord import _validation as v
from accord.annotations import Annotations
from accord.coefficients._data import as_annotations
from accord.coefficients._registry import REGISTRY
from accord.errors import (
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.results import AgreementResult, _jsonable
from accord.tables.rater_counts import RaterCounts

__all__ = ["PairwiseResult", "pairwise"]


@dataclass(frozen=True)
class PairwiseResult:
    """A coefficient for every pair of raters.

    Attributes
    ----------
    coefficient : str
        Registry name of the coefficient.
    raters : tuple
        The raters, in the order of the matrix rows and columns.
    estimates : (r, r) numpy.ndarray
        Symmetric; ``estimates[i, j]`` is the coefficient of raters i and j, ``nan``
        where undefined or where they share no unit, and on the diagonal.
    n : (r, r) numpy.ndarray of int
        Units both raters rated; the diagonal holds the units each rater rated.
    results : mapping
        ``(rater_i, rater_j) -> AgreementResult`` for every pair with i before j.
    """

    coefficient: str
    raters: tuple[Any, ...]
    estimates: NDArray[np.float64] = field(repr=False)
    n: NDArray[np.int64] = field(repr=False)
    results: Mapping[tuple[Any, Any], AgreementResult] = field(repr=False)

    def mean(self) -> float:
        """The mean over pairs that share a unit; ``nan`` if any of those is undefined.

        For ``cohen_kappa`` this is Light's kappa (:func:`accord.light_kappa`).
        """
        values = [r.estimate for r in self.results.values() if r.n_units > 0]
        if not values or not all(math.isfinite(x) for x in values):
            return math.nan
        return float(np.mean(values))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined values are ``None``."""
        return {
            "coefficient": self.coefficient,
            "raters": [_jsonable(r) for r in self.raters],
            "estimates": _jsonable(self.estimates),
            "n": _jsonable(self.n),
            "mean": _jsonable(self.mean()),
            "pairs": [
                {"raters": [_jsonable(a), _jsonable(b)], **res.to_dict()}
                for (a, b), res in self.results.items()
            ],
        }


def pairwise(data: Any, coefficient: str = "cohen_kappa", **options: Any) -> PairwiseResult:
    """The rater x rater matrix of a two-rater coefficient, with each pair's n.

    Parameters
    ----------
    data : units x raters table or Annotations
        ``None``/``NaN`` = not rated. Rater identity is needed, so
        :class:`~accord.RaterCounts` is refused.
    coefficient : str
        A name from :data:`accord.REGISTRY`, e.g. ``"cohen_kappa"``, ``"gwet_ac1"``.
    **options
        Passed to the coefficient (``weights=``, ``categories=``, ...).

    Returns
    -------
    PairwiseResult
        Pairs whose coefficient is undefined keep their reason in ``results``; one
        ``DegenerateDataWarning`` summarises them.

    Examples
    --------
    >>> import accord
    >>> res = accord.pairwise([[1, 1, 2], [2, 2, 2], [1, 2, 1], [2, 2, 2]])
    >>> res.estimates.round(4).tolist()[0]
    [nan, 0.5, 0.5]
    >>> round(res.mean(), 4)  # Light's kappa
    0.2222
    """
    func = "pairwise"
    name = v.choice(coefficient, sorted(REGISTRY), param="coefficient", func=func)
    function = REGISTRY[name].function
    check_options(name, options, func)
    ann = _annotations(data, options.get("categories"), func)
    rated = ann.wide() >= 0
    r = ann.n_raters
    estimates = np.full((r, r), np.nan)
    n = np.zeros((r, r), dtype=np.int64)
    n[np.diag_indices(r)] = rated.sum(axis=0)
    results: dict[tuple[Any, Any], AgreementResult] = {}
    undefined: list[str] = []
    for i, j in combinations(range(r), 2):
        a, b = ann.raters[i], ann.raters[j]
        n[i, j] = n[j, i] = int(np.count_nonzero(rated[:, i] & rated[:, j]))
        if n[i, j] == 0:
            res = undefined_result(name, f"raters {a!r} and {b!r} rated no unit in common", 2)
        else:
            res = call_quietly(function, _shared_units(ann.select([a, b])), options, name, 2)
        if not res.defined:
            undefined.append(f"{a!r}-{b!r}")
        estimates[i, j] = estimates[j, i] = res.estimate
        results[(a, b)] = res
    if undefined:
        _summary_warning(name, "pair(s)", undefined)
    return PairwiseResult(name, ann.raters, estimates, n, results)


def _shared_units(pair: Annotations) -> Annotations:
    """Two raters' annotations on the units both rated: a pair's n, as in the matrix."""
    units, raters, _ = pair.codes
    both = np.bincount(units, minlength=pair.n_units)[units] == 2
    return pair if bool(both.all()) else pair._subset(both, raters[both], pair.raters)


def check_options(name: str, options: Mapping[str, Any], func: str) -> None:
    """Refuse options the coefficient does not take, naming the ones it does."""
    params = inspect.signature(REGISTRY[name].function).parameters
    accepted = [p for p, x in params.items() if x.kind is inspect.Parameter.KEYWORD_ONLY]
    unknown = [k for k in options if k not in accepted or k == "raters"]
    if unknown:
        shown = ", ".join(repr(k) for k in unknown)
        takes = ", ".join(repr(k) for k in accepted if k != "raters") or "no options"
        raise InvalidParameterError(
            f"{func} passes its options to {name}, which does not take {shown}; "
            f"it takes {takes}."
        )


def _annotations(data: Any, categories: Any, func: str) -> Annotations:
    if isinstance(data, RaterCounts):
        raise DataError(
            f"{func} needs to know which rater gave each rating, which RaterCounts does not "
            "record; pass the units x raters ratings (a table or Annotations) instead."
        )
    ann = as_annotations(data, categories=categories, func=func)
    if ann.n_raters < 2:
        raise InsufficientDataError(
            f"{func} needs at least two raters; found {ann.n_raters} ({list(ann.raters)!r})."
        )
    return ann


def undefined_result(name: str, reason: str, n_raters: int) -> AgreementResult:
    """A result that could not be computed at all (no data for it), with the reason."""
    return AgreementResult(
        coefficient=name, estimate=math.nan, observed=math.nan, expected=math.nan, se=math.nan,
        n_units=0, n_raters=n_raters, undefined_reason=reason,
    )


def call_quietly(function: Callable[..., AgreementResult], data: Any, options: Mapping[str, Any],
                 name: str, n_raters: int) -> AgreementResult:
    """Call a coefficient, keeping its DegenerateDataWarning in the result (not re-emitted).

    A subset with too little data (InsufficientDataError) becomes an undefined result
    with the error's sentence as its reason. Other warnings are passed on.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        try:
            res = function(data, **options)
        except InsufficientDataError as exc:
            res = undefined_result(name, str(exc).rstrip("."), n_raters)
    for w in caught:
        if not issubclass(w.category, DegenerateDataWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return res


def _summary_warning(name: str, what: str, items: list[str]) -> None:
    shown = ", ".join(items[:5]) + (f" and {len(items) - 5} more" if len(items) > 5 else "")
    warnings.warn(
        f"{name} is undefined for {len(items)} {what}: {shown}; see each result's "
        "undefined_reason.",
        DegenerateDataWarning, stacklevel=3,
    )
