"""Pairwise agreement: a two-rater coefficient for every pair of raters.

With many raters, the matrix of pairwise coefficients shows who disagrees with
whom (the mean of the pairwise Cohen's kappas is Light's kappa). Each pair uses
the units both raters rated; pairs with no unit in common get ``nan`` and a
reason rather than an error.

The pairs and their shared units come from a sparse join on units
(:mod:`accord.coefficients._pair_join`), never from a units x raters matrix, so a
crowd of thousands of workers works: only the pairs that share at least
``min_shared`` units are computed, and coefficients that are a function of the
pair's contingency table get it straight from the join.
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_annotations
from accord.coefficients._registry import REGISTRY
from accord.data import _validation as v
from accord.data.annotations import Annotations
from accord.errors import (
    BudgetError,
    DataError,
    DegenerateDataWarning,
    InsufficientDataError,
    InvalidParameterError,
)
from accord.inference.display import Tabular
from accord.inference.results import AgreementResult, _jsonable
from accord.tables.contingency import ContingencyTable
from accord.tables.rater_counts import RaterCounts

__all__ = ["PairwiseResult", "pairwise"]

MATRIX_RATERS = 4096  # estimates and n as r x r arrays up to this many raters (128 MiB)
LISTED_PAIRS = 10_000  # pairs left out are listed in results up to this many possible pairs
# coefficients whose result from a pair's contingency table equals the result from the
# pair's ratings on its shared units (the others are called on those ratings)
FROM_TABLE = frozenset({"accuracy", "balanced_accuracy", "bangdiwala_b", "cohen_kappa", "f1",
                        "kappa_max", "mcc", "pabak", "precision", "recall", "scott_pi"})
LAZY = frozenset({"cohen_kappa", "scott_pi"})  # estimates straight from the tables


@dataclass(frozen=True)
class PairwiseResult(Tabular):
    """A coefficient for every pair of raters that shares units.

    Attributes
    ----------
    coefficient : str
        Registry name of the coefficient.
    raters : tuple
        The raters, in the order of the matrix rows and columns.
    pair_index : (P, 2) numpy.ndarray of int
        Every pair of raters (positions in ``raters``, first < second) that shares
        at least one unit, in that order.
    pair_n : (P,) numpy.ndarray of int
        Units both raters of each pair rated.
    pair_estimates : (P,) numpy.ndarray of float
        The coefficient of each pair; ``nan`` where undefined or where the pair shares
        fewer than ``min_shared`` units (not computed).
    rated : (r,) numpy.ndarray of int
        Units each rater rated.
    results : mapping
        ``(rater_i, rater_j) -> AgreementResult`` for every computed pair (i before j)
        and, with up to 10,000 possible pairs, for the pairs left out (undefined, with
        the reason).
    min_shared : int
        Pairs sharing fewer units were not computed.
    """

    coefficient: str
    raters: tuple[Any, ...]
    pair_index: NDArray[np.int64] = field(repr=False)
    pair_n: NDArray[np.int64] = field(repr=False)
    pair_estimates: NDArray[np.float64] = field(repr=False)
    rated: NDArray[np.int64] = field(repr=False)
    results: Mapping[tuple[Any, Any], AgreementResult] = field(repr=False)
    min_shared: int = 1

    @property
    def n_pairs(self) -> int:
        """Pairs computed (sharing at least ``min_shared`` units)."""
        return int(np.count_nonzero(self.pair_n >= self.min_shared))

    @property
    def n_left_out(self) -> int:
        """Pairs of raters not computed: sharing no unit or fewer than ``min_shared``."""
        r = len(self.raters)
        return r * (r - 1) // 2 - self.n_pairs

    @property
    def estimates(self) -> NDArray[np.float64]:
        """The symmetric ``(r, r)`` matrix of the coefficient, ``nan`` on the diagonal and
        where a pair was not computed or is undefined (refused beyond 4,096 raters)."""
        out = self._square(np.nan, np.float64)
        i, j = self.pair_index[:, 0], self.pair_index[:, 1]
        out[i, j] = out[j, i] = self.pair_estimates
        return out

    @property
    def n(self) -> NDArray[np.int64]:
        """The ``(r, r)`` matrix of units both raters rated; the diagonal holds the units
        each rater rated (refused beyond 4,096 raters)."""
        out = self._square(0, np.int64)
        i, j = self.pair_index[:, 0], self.pair_index[:, 1]
        out[i, j] = out[j, i] = self.pair_n
        out[np.diag_indices(len(self.raters))] = self.rated
        return out

    def _square(self, fill: float, dtype: Any) -> NDArray[Any]:
        r = len(self.raters)
        if r > MATRIX_RATERS:
            raise BudgetError(
                f"a rater x rater matrix of {r:,} raters would take {r * r * 8 / 2**30:.1f} "
                "GiB; read the pairs from pair_index, pair_n and pair_estimates instead."
            )
        return np.full((r, r), fill, dtype=dtype)

    def top(self, limit: int) -> list[tuple[Any, Any, int, float]]:
        """The ``limit`` computed pairs with most shared units: ``(rater_i, rater_j, n,
        estimate)``, ties in rater order."""
        computed = np.flatnonzero(self.pair_n >= self.min_shared)
        order = computed[np.argsort(-self.pair_n[computed], kind="stable")][:limit]
        return [(self.raters[int(self.pair_index[k, 0])], self.raters[int(self.pair_index[k, 1])],
                 int(self.pair_n[k]), float(self.pair_estimates[k])) for k in order]

    def mean(self) -> float:
        """The mean over the computed pairs that share a unit; ``nan`` if any of those is
        undefined.

        For ``cohen_kappa`` this is Light's kappa (:func:`accord.light_kappa`, with the
        same ``min_shared``).
        """
        values = [r.estimate for r in self.results.values() if r.n_units > 0]
        if not values or not all(math.isfinite(x) for x in values):
            return math.nan
        return float(np.mean(values))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined values are ``None``. The matrices are given up to
        4,096 raters; the pairs always."""
        small = len(self.raters) <= MATRIX_RATERS
        return {
            "coefficient": self.coefficient,
            "raters": [_jsonable(r) for r in self.raters],
            "min_shared": self.min_shared,
            "n_pairs_left_out": self.n_left_out,
            "estimates": _jsonable(self.estimates) if small else None,
            "n": _jsonable(self.n) if small else None,
            "mean": _jsonable(self.mean()),
            "pairs": [
                {"raters": [_jsonable(a), _jsonable(b)], **res.to_dict()}
                for (a, b), res in self.results.items()
            ],
        }


def pairwise(data: Any, coefficient: str = "cohen_kappa", *, min_shared: int = 1,
             **options: Any) -> PairwiseResult:
    """The rater x rater matrix of a two-rater coefficient, with each pair's n.

    Parameters
    ----------
    data : units x raters table or Annotations
        ``None``/``NaN`` = not rated. Rater identity is needed, so
        :class:`~accord.RaterCounts` is refused.
    coefficient : str
        A name from :data:`accord.REGISTRY`, e.g. ``"cohen_kappa"``, ``"gwet_ac1"``.
    min_shared : int
        Compute only the pairs that share at least this many units (default 1: every
        pair with a unit in common, as Light 1971 averages all pairs). On a sparse
        design (crowd workers who each rated a few units) most pairs share a unit or
        two, whose coefficient says little; raise it there (e.g. 20).
    **options
        Passed to the coefficient (``weights=``, ``categories=``, ...).

    Returns
    -------
    PairwiseResult
        Pairs whose coefficient is undefined keep their reason in ``results``; one
        ``DegenerateDataWarning`` summarises them.

    Notes
    -----
    The pairs and their shared units come from a sparse join on units: memory
    O(ratings + within-unit pairs of ratings), never units x raters. Coefficients that
    are functions of the pair's contingency table (Cohen's kappa, Scott's pi, ...)
    take it from the join; the others are called on the pair's ratings on its shared
    units (found from the ratings sorted by rater, O(ratings of the two raters)).

    Examples
    --------
    >>> import accord
    >>> res = accord.pairwise([[1, 1, 2], [2, 2, 2], [1, 2, 1], [2, 2, 2]])
    >>> res.estimates.round(4).tolist()[0]
    [nan, 0.5, 0.5]
    >>> round(res.mean(), 4)  # Light's kappa
    0.2222
    """
    from accord.coefficients._pair_join import codes_by_unit, pair_tables, shared_units

    func = "pairwise"
    name = v.choice(coefficient, sorted(REGISTRY), param="coefficient", func=func)
    function = REGISTRY[name].function
    min_shared = v.positive_int(min_shared, param="min_shared", func=func)
    check_options(name, options, func)
    ann = _annotations(data, options.get("categories"), func)
    units, raters, values = codes_by_unit(ann)
    r = ann.n_raters
    a, b, n = shared_units(units, raters, ann.n_units, r)
    computed = np.flatnonzero(n >= min_shared)
    estimates = np.full(a.shape[0], np.nan)
    left_out = _left_out(name, ann.raters, a, b, n, min_shared)
    keys = [(ann.raters[i], ann.raters[j]) for i, j in zip(a[computed].tolist(),
                                                            b[computed].tolist())]
    if name in FROM_TABLE:
        q = len(ann.categories)
        tables = pair_tables(units, raters, values, ann.n_units, r, q, a[computed], b[computed])
        pair_data: Callable[[int], Any] = _TableMaker(ann, tables)
        options = {k: x for k, x in options.items() if k != "categories"}
    else:
        ratings = _RatingsMaker(ann, units, raters, values)
        pair_data = lambda j: ratings(int(a[computed[j]]), int(b[computed[j]]))  # noqa: E731
    if name in LAZY and not options:  # estimates at once, each result when looked up
        from accord.coefficients._pairwise_intervals import PAIR_CHANCE, table_estimates

        estimates[computed] = table_estimates(tables.astype(np.float64), PAIR_CHANCE[name],
                                              None)
        undefined = [key for key, e in zip(keys, estimates[computed].tolist())
                     if not math.isfinite(e)]
        results: Mapping[tuple[Any, Any], AgreementResult] = _LazyResults(
            keys, lambda j: call_quietly(function, pair_data(j), options, name, 2), left_out,
            ann.raters)
    else:
        made = {}
        for j, k in enumerate(computed.tolist()):
            res = call_quietly(function, pair_data(j), options, name, 2)
            estimates[k] = res.estimate
            made[keys[j]] = res
        undefined = [key for key, res in made.items() if not res.defined]
        results = _LazyResults(list(made), list(made.values()).__getitem__, left_out,
                               ann.raters)
    if undefined or left_out:
        position = {x: i for i, x in enumerate(ann.raters)}
        pairs = sorted([*undefined, *left_out], key=lambda k: (position[k[0]], position[k[1]]))
        _summary_warning(name, "pair(s)", [f"{x!r}-{y!r}" for x, y in pairs])
    rated = np.bincount(raters, minlength=r).astype(np.int64)
    return PairwiseResult(name, ann.raters, np.column_stack([a, b]).astype(np.int64), n,
                          estimates, rated, results, min_shared)


class _LazyResults(Mapping[tuple[Any, Any], AgreementResult]):
    """Each computed pair's result, made when first looked up, and the results of the
    pairs left out; in rater order."""

    def __init__(self, keys: list[tuple[Any, Any]], make: Callable[[int], AgreementResult],
                 left_out: dict[tuple[Any, Any], AgreementResult],
                 raters: tuple[Any, ...]) -> None:
        position = {x: i for i, x in enumerate(raters)}
        self._index = {key: j for j, key in enumerate(keys)}
        self._order = sorted([*keys, *left_out], key=lambda k: (position[k[0]], position[k[1]]))
        self._make, self._fixed = make, dict(left_out)

    def __getitem__(self, key: tuple[Any, Any]) -> AgreementResult:
        if key not in self._fixed:
            self._fixed[key] = self._make(self._index[key])
        return self._fixed[key]

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)


class _TableMaker:
    """A computed pair's contingency table from the join, in the data's categories."""

    def __init__(self, ann: Annotations, tables: NDArray[np.int64]) -> None:
        self.ann, self.tables = ann, tables

    def __call__(self, j: int) -> ContingencyTable:
        table = ContingencyTable(self.tables[j], self.ann.categories)
        table.ordered = self.ann.ordered
        return table


class _RatingsMaker:
    """A pair's ratings on the units both rated, from the ratings sorted by rater."""

    def __init__(self, ann: Annotations, units: NDArray[np.int64], raters: NDArray[np.int64],
                 values: NDArray[np.int64]) -> None:
        self.ann, self.units, self.values = ann, units, values
        self.order = np.argsort(raters, kind="stable")
        self.starts = np.concatenate([[0], np.cumsum(np.bincount(raters,
                                                                 minlength=ann.n_raters))])

    def _of(self, g: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        idx = self.order[self.starts[g]:self.starts[g + 1]]
        return self.units[idx], self.values[idx]

    def __call__(self, a: int, b: int) -> Annotations:
        ann = self.ann
        (ua, va), (ub, vb) = self._of(a), self._of(b)
        common, ia, ib = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
        c = common.shape[0]
        pair = (ann.raters[a], ann.raters[b])
        return Annotations(
            np.tile(np.arange(c, dtype=np.int64), 2), np.repeat(np.arange(2, dtype=np.int64), c),
            np.concatenate([va[ia], vb[ib]]), units=[ann.units[u] for u in common.tolist()],
            raters=pair, categories=ann.categories, level=ann.level,
            kinds={x: ann.kinds[x] for x in pair}, field=ann.field, audit=ann.audit,
            spans=ann.spans, meta=ann.meta, declared_order=ann.ordered,
            set_valued=ann.set_valued,
        )


def _left_out(name: str, labels: tuple[Any, ...], a: NDArray[np.int64], b: NDArray[np.int64],
              n: NDArray[np.int64], min_shared: int) -> dict[tuple[Any, Any], AgreementResult]:
    """Undefined results, with the reason, for the pairs not computed (when few)."""
    r = len(labels)
    if r * (r - 1) // 2 > LISTED_PAIRS:
        return {}
    shared = np.zeros((r, r), dtype=np.int64)
    shared[a, b] = n
    out = {}
    for i, j in combinations(range(r), 2):
        x, y = labels[i], labels[j]
        if shared[i, j] == 0:
            reason = f"raters {x!r} and {y!r} rated no unit in common"
        elif shared[i, j] < min_shared:
            reason = (f"raters {x!r} and {y!r} share {shared[i, j]} unit(s), fewer than "
                      f"min_shared={min_shared}")
        else:
            continue
        out[(x, y)] = undefined_result(name, reason, 2)
    return out


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
