"""Diagnostics behind a many-rater coefficient: where, and with whom, raters disagree.

* :func:`unit_agreement`: per unit, the share of agreeing rater pairs
  (``sum_k x_k (x_k - 1) / (r (r - 1))``, the unit's term of Fleiss' p_a) and the
  labels, with the units that disagree most first;
* :func:`leave_one_rater_out`: the coefficient without each rater in turn;
* :func:`label_distribution`: how often each rater used each category.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _count_based as cb
from accord.coefficients._many_data import rating_codes
from accord.coefficients._registry import REGISTRY
from accord.coefficients.pairwise import (
    _annotations,
    _summary_warning,
    call_quietly,
    check_options,
    undefined_result,
)
from accord.data import _validation as v
from accord.errors import InvalidParameterError
from accord.inference.results import AgreementResult, _jsonable
from accord.tables.rater_counts import RaterCounts

__all__ = [
    "LabelDistribution",
    "LeaveOneRaterOut",
    "UnitAgreement",
    "label_distribution",
    "leave_one_rater_out",
    "unit_agreement",
]


# --------------------------------------------------------------------------- per unit
@dataclass(frozen=True)
class UnitAgreement:
    """Agreement on each unit.

    Attributes
    ----------
    units : tuple
        Unit labels (row numbers for a table without unit ids).
    n_ratings : numpy.ndarray of int
        Ratings each unit received.
    agreement : numpy.ndarray of float
        Share of agreeing pairs of ratings on the unit; ``nan`` with fewer than two ratings.
    raters : tuple or None
        The raters (``None`` when computed from RaterCounts).
    categories : tuple
        The categories.
    """

    units: tuple[Any, ...]
    n_ratings: NDArray[np.int64] = field(repr=False)
    agreement: NDArray[np.float64] = field(repr=False)
    raters: tuple[Any, ...] | None
    categories: tuple[Any, ...]
    table: NDArray[np.int64] = field(repr=False)

    def labels(self, i: int) -> dict[Any, Any]:
        """Unit ``i``'s ratings: rater -> label, or category -> count for RaterCounts."""
        row = self.table[i]
        if self.raters is None:
            return {self.categories[k]: int(c) for k, c in enumerate(row) if c > 0}
        return {self.raters[g]: self.categories[c] for g, c in enumerate(row) if c >= 0}

    def disagreements(self, n: int | None = 10) -> list[dict[str, Any]]:
        """The ``n`` units (``None``: all) with the least agreement, rated at least twice.

        Sorted by agreement, then by more ratings first, then by unit order.
        """
        ok = np.flatnonzero(np.isfinite(self.agreement))
        order = ok[np.lexsort((ok, -self.n_ratings[ok], self.agreement[ok]))]
        if n is not None:
            order = order[: v.positive_int(n, param="n", func="UnitAgreement.disagreements")]
        return [self._row(int(i)) for i in order]

    def _row(self, i: int) -> dict[str, Any]:
        return {"unit": self.units[i], "n_ratings": int(self.n_ratings[i]),
                "agreement": float(self.agreement[i]), "labels": self.labels(i)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping: every unit in order, then the ten that disagree most."""
        rows = [self._row(i) for i in range(len(self.units))]
        return {"units": _jsonable(rows), "disagreements": _jsonable(self.disagreements(10))}


def unit_agreement(data: Any, *, categories: Sequence[Any] | None = None) -> UnitAgreement:
    """Per unit: number of ratings, share of agreeing rater pairs, and the labels.

    Parameters
    ----------
    data : units x raters table, Annotations or RaterCounts
    categories : sequence, optional
        Category order.

    Examples
    --------
    >>> import accord
    >>> ua = accord.unit_agreement([["a", "a", "a"], ["a", "b", "b"], ["a", "b", "c"]])
    >>> ua.agreement.round(4).tolist()
    [1.0, 0.3333, 0.0]
    >>> ua.disagreements(1)[0]["labels"]
    {'rater_1': 'a', 'rater_2': 'b', 'rater_3': 'c'}
    """
    func = "unit_agreement"
    if isinstance(data, RaterCounts):
        rc = data.rated()
        units = rc.unit_ids or tuple(range(rc.n_units))
        return UnitAgreement(units, rc.n_ratings, cb.unit_pair_agreement(rc.counts), None,
                             rc.categories, rc.counts)
    codes = rating_codes(data, categories=categories, func=func)
    counts = codes.counts().counts
    return UnitAgreement(codes.unit_ids, counts.sum(axis=1), cb.unit_pair_agreement(counts),
                         codes.raters, codes.categories, codes.codes)


# --------------------------------------------------------------------------- leave one out
@dataclass(frozen=True)
class LeaveOneRaterOut:
    """A coefficient on all raters and without each rater in turn.

    Attributes
    ----------
    coefficient : str
        Registry name.
    full : AgreementResult
        The coefficient with every rater.
    results : mapping
        ``rater -> AgreementResult`` without that rater.
    """

    coefficient: str
    full: AgreementResult
    results: Mapping[Any, AgreementResult] = field(repr=False)

    @property
    def estimates(self) -> dict[Any, float]:
        """``rater -> estimate`` without that rater."""
        return {r: res.estimate for r, res in self.results.items()}

    @property
    def change(self) -> dict[Any, float]:
        """``rater -> estimate without the rater - estimate with everyone``.

        A large positive change marks a rater who lowers agreement.
        """
        return {r: res.estimate - self.full.estimate for r, res in self.results.items()}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined values are ``None``."""
        change = self.change
        return {
            "coefficient": self.coefficient,
            "full": self.full.to_dict(),
            "without": [
                {"rater": _jsonable(r), "estimate": _jsonable(res.estimate),
                 "change": _jsonable(change[r]), "undefined_reason": res.undefined_reason,
                 "n_units": res.n_units}
                for r, res in self.results.items()
            ],
        }


def leave_one_rater_out(data: Any, coefficient: str = "fleiss_kappa",
                        **options: Any) -> LeaveOneRaterOut:
    """The coefficient without each rater, next to its value with everyone.

    Parameters
    ----------
    data : units x raters table or Annotations
        Rater identity is needed, so RaterCounts is refused.
    coefficient : str
        A name from :data:`accord.REGISTRY`.
    **options
        Passed to the coefficient.

    Returns
    -------
    LeaveOneRaterOut
        Where dropping a rater leaves too little data (e.g. one rater), that result
        is ``nan`` with the reason; undefined results are summarised in one
        ``DegenerateDataWarning``.

    Examples
    --------
    >>> import accord
    >>> data = [[1, 1, 2], [2, 2, 1], [1, 1, 1], [2, 2, 2], [1, 1, 2]]
    >>> loo = accord.leave_one_rater_out(data, "fleiss_kappa")
    >>> {r: round(x, 4) for r, x in loo.estimates.items()}
    {'rater_1': -0.2, 'rater_2': -0.2, 'rater_3': 1.0}
    """
    func = "leave_one_rater_out"
    name = v.choice(coefficient, sorted(REGISTRY), param="coefficient", func=func)
    function = REGISTRY[name].function
    check_options(name, options, func)
    ann = _annotations(data, options.get("categories"), func)
    if REGISTRY[name].raters == "two" and ann.n_raters > 2:
        raise InvalidParameterError(
            f"leave_one_rater_out cannot use {name} on {ann.n_raters} raters: it compares "
            "exactly two; choose a many-rater coefficient (e.g. 'fleiss_kappa') or see "
            "accord.pairwise."
        )
    full = function(ann, **options)
    results: dict[Any, AgreementResult] = {}
    undefined: list[str] = []
    for rater in ann.raters:
        rest = [r for r in ann.raters if r != rater]
        if len(rest) < 2:
            res = undefined_result(name, f"without {rater!r} only one rater is left", len(rest))
        else:
            res = call_quietly(function, ann.select(rest), options, name, len(rest))
        if not res.defined:
            undefined.append(f"without {rater!r}")
        results[rater] = res
    if undefined:
        _summary_warning(name, "leave-one-rater-out subset(s)", undefined)
    return LeaveOneRaterOut(name, full, results)


# --------------------------------------------------------------------------- labels
@dataclass(frozen=True)
class LabelDistribution:
    """How often each rater used each category.

    Attributes
    ----------
    raters, categories : tuple
        Rows and columns of ``counts``.
    counts : (r, q) numpy.ndarray of int
        ``counts[g, k]``: ratings of rater g in category k.
    """

    raters: tuple[Any, ...]
    categories: tuple[Any, ...]
    counts: NDArray[np.int64] = field(repr=False)

    @property
    def proportions(self) -> NDArray[np.float64]:
        """Each rater's counts divided by that rater's number of ratings (``nan`` if none)."""
        totals = self.counts.sum(axis=1, keepdims=True).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(self.counts / totals, dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping: per rater, counts and proportions by category."""
        props = self.proportions
        return {
            "categories": _jsonable(list(self.categories)),
            "raters": [
                {"rater": _jsonable(r), "n_ratings": int(self.counts[g].sum()),
                 "counts": {str(c): int(self.counts[g, k]) for k, c in enumerate(self.categories)},
                 "proportions": {str(c): _jsonable(props[g, k])
                                 for k, c in enumerate(self.categories)}}
                for g, r in enumerate(self.raters)
            ],
        }


def label_distribution(data: Any, *, categories: Sequence[Any] | None = None) -> LabelDistribution:
    """Each rater's number of ratings per category.

    A rater whose distribution differs from the others' (a bias) lowers Fleiss'
    kappa more than Conger's; compare them with this table.

    Examples
    --------
    >>> import accord
    >>> dist = accord.label_distribution([["a", "a"], ["b", "a"], ["b", None]])
    >>> dist.counts.tolist()
    [[1, 2], [2, 0]]
    """
    ann = _annotations(data, categories, "label_distribution")
    _, raters, values = ann.codes
    q = len(ann.categories)
    flat = np.bincount(raters * q + values, minlength=ann.n_raters * q)
    return LabelDistribution(ann.raters, ann.categories,
                             flat.reshape(ann.n_raters, q).astype(np.int64))
