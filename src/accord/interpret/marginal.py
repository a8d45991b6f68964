"""Symmetry and marginal homogeneity tests for two raters' contingency table.

They quantify rater *bias*: whether the two raters use the categories at the
same rates (marginal homogeneity) and whether their disagreements run both
ways equally often (symmetry). Notation of Agresti (2013, *Categorical Data
Analysis*, 3rd ed., sec. 11.1-11.3): counts ``n_ij`` (row = first rater),
marginals ``n_i+`` and ``n_+i``, ``d_i = n_i+ - n_+i``.

- McNemar (1947), 2 x 2: ``(n_12 - n_21)^2 / (n_12 + n_21)``, 1 df;
- Bowker (1948), k x k symmetry: ``sum_{i<j} (n_ij - n_ji)^2 / (n_ij + n_ji)``,
  ``k (k - 1) / 2`` df;
- Stuart (1955) - Maxwell (1970) marginal homogeneity: ``d' S^-1 d`` on k - 1 of
  the categories with ``S_ii = n_i+ + n_+i - 2 n_ii``, ``S_ij = -(n_ij + n_ji)``,
  k - 1 df;
- Bhapkar (1966): ``SM / (1 - SM / n)``, the same with the unrestricted
  covariance (Wald statistic), k - 1 df;
- the rater bias coefficient of R's ``irr::rater.bias``: the share of
  disagreements above the diagonal, ``b / (b + c)`` with ``b = sum_{i<j} n_ij``
  and ``c = sum_{i>j} n_ij``, tested by ``(b - c)^2 / (b + c)`` on 1 df.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from accord.coefficients._data import as_table
from accord.data import _validation as v
from accord.errors import DataError
from accord.inference._distributions import binom_cdf, chi2_sf
from accord.inference.display import Displayed
from accord.tables.contingency import DENSE_LIMIT, ContingencyTable

__all__ = [
    "MarginalTest",
    "bhapkar_test",
    "bowker_test",
    "marginal_tests",
    "mcnemar_test",
    "rater_bias",
    "stuart_maxwell_test",
]

Arr = NDArray[np.float64]
_NO_DISAGREEMENT = "the raters never disagree, so there is no disagreement to test (0/0)"


@dataclass(frozen=True)
class MarginalTest(Displayed):
    """The result of a symmetry or marginal homogeneity test.

    Attributes
    ----------
    test : str
        ``"mcnemar"``, ``"bowker"``, ``"stuart_maxwell"``, ``"bhapkar"`` or ``"rater_bias"``.
    title : str
        The test's name for people.
    statistic, df, pvalue : float
        The chi-square statistic, its degrees of freedom and the upper-tail p-value
        (for ``method="exact"`` McNemar: the two-sided binomial p-value).
    n_units : int
        Units rated by both raters.
    estimate : float
        ``rater_bias``: the share of disagreements above the diagonal; else ``nan``.
    undefined_reason : str or None
        Why the test is undefined, in one sentence.
    details : mapping
        Further figures (``method``, ``n_discordant``, ``categories_used``, ...).
    """

    test: str
    title: str
    statistic: float
    df: float
    pvalue: float
    n_units: int
    estimate: float = math.nan
    undefined_reason: str | None = None
    details: Any = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def defined(self) -> bool:
        """Whether the statistic is a number."""
        return self.undefined_reason is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping; undefined numbers are ``None``."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {"test": self.test, "title": self.title, "statistic": num(self.statistic),
                "df": num(self.df), "pvalue": num(self.pvalue), "n_units": self.n_units,
                "estimate": num(self.estimate), "undefined_reason": self.undefined_reason,
                "details": {k: (num(x) if isinstance(x, float) else x)
                            for k, x in self.details.items()}}

    def __str__(self) -> str:
        if not self.defined:
            return f"{self.test}: undefined [{self.undefined_reason}]"
        return (f"{self.test}: chi2({self.df:g}) = {self.statistic:.4f}, p = {self.pvalue:.4g}, "
                f"n_units={self.n_units}")


# --------------------------------------------------------------------------- public
def mcnemar_test(data: Any, y2: Any = None, /, *,
                 method: Literal["chi2", "corrected", "exact"] = "chi2",
                 categories: Sequence[Any] | None = None,
                 raters: Sequence[Any] | None = None) -> MarginalTest:
    """McNemar's (1947) test that two raters use the two categories at the same rates.

    ``chi2 = (n_12 - n_21)^2 / (n_12 + n_21)`` on 1 df (``method="chi2"``, the same as
    Bowker's and Stuart-Maxwell's tests on a 2 x 2 table); ``"corrected"`` uses Edwards'
    continuity correction ``(|n_12 - n_21| - 1)^2 / (n_12 + n_21)`` (R's
    ``mcnemar.test`` default); ``"exact"`` the two-sided binomial test of ``n_12`` out
    of ``n_12 + n_21`` with p = 1/2 (statsmodels' ``mcnemar`` default).

    Parameters
    ----------
    data, y2 : two label sequences, a two-rater table or a 2 x 2 ContingencyTable
    method : {"chi2", "corrected", "exact"}
    categories, raters : optional
        As for :func:`accord.cohen_kappa`.

    Returns
    -------
    MarginalTest
        Undefined (``nan`` with a reason and a warning) when the raters never disagree.

    Examples
    --------
    statsmodels' test table (R ``mcnemar.test(correct=FALSE)``: 0.4706, p 0.4927):

    >>> import accord
    >>> res = accord.mcnemar_test(accord.ContingencyTable([[23, 15], [19, 31]]))
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (0.4706, 0.4927)
    """
    func = "mcnemar_test"
    method = v.choice(method, ("chi2", "corrected", "exact"), param="method", func=func)
    n = _counts(data, y2, categories, raters, func)
    if n.shape[0] != 2:
        raise DataError(f"{func} needs two categories and the data have {n.shape[0]}; for more "
                        "use bowker_test (symmetry) or stuart_maxwell_test (marginal "
                        "homogeneity).")
    b, c = float(n[0, 1]), float(n[1, 0])
    details = {"method": method, "n_discordant": b + c}
    if b + c == 0:
        return _undefined("mcnemar", n, details)
    if method == "exact":
        p = min(1.0, 2.0 * float(binom_cdf(min(b, c), b + c, 0.5)))
        return _test("mcnemar", n, min(b, c), math.nan, details, pvalue=p)
    diff = abs(b - c) - (1.0 if method == "corrected" else 0.0)
    return _test("mcnemar", n, max(diff, 0.0) ** 2 / (b + c), 1.0, details)


def bowker_test(data: Any, y2: Any = None, /, *, categories: Sequence[Any] | None = None,
                raters: Sequence[Any] | None = None) -> MarginalTest:
    """Bowker's (1948) test of symmetry: ``n_ij = n_ji`` in expectation for every pair.

    ``chi2 = sum_{i<j} (n_ij - n_ji)^2 / (n_ij + n_ji)`` on ``k (k - 1) / 2`` df, as in
    R's ``mcnemar.test`` on a k x k table and statsmodels' ``SquareTable.symmetry``. A
    pair of categories the raters never confuse adds 0 (R returns ``NaN`` then);
    ``details["n_empty_pairs"]`` counts them.

    Examples
    --------
    statsmodels' test table (R ``mcnemar.test``: 13.7692, 3 df, p 0.003237):

    >>> import accord
    >>> t = accord.ContingencyTable([[20, 10, 5], [3, 30, 15], [0, 5, 40]])
    >>> res = accord.bowker_test(t)
    >>> round(res.statistic, 4), res.df, round(res.pvalue, 6)
    (13.7692, 3.0, 0.003237)
    """
    n = _counts(data, y2, categories, raters, "bowker_test")
    upper = np.triu_indices(n.shape[0], 1)
    a, b = n[upper], n.T[upper]
    total = a + b
    details = {"n_empty_pairs": int((total == 0).sum()), "n_discordant": float(total.sum())}
    if total.sum() == 0:
        return _undefined("bowker", n, details)
    used = total > 0
    stat = float(np.sum((a[used] - b[used]) ** 2 / total[used]))
    return _test("bowker", n, stat, float(a.size), details)


def stuart_maxwell_test(data: Any, y2: Any = None, /, *,
                        categories: Sequence[Any] | None = None,
                        raters: Sequence[Any] | None = None) -> MarginalTest:
    """Stuart-Maxwell test of marginal homogeneity (Stuart 1955; Maxwell 1970).

    ``chi2 = d' S^-1 d`` with ``d_i = n_i+ - n_+i`` and ``S_ii = n_i+ + n_+i - 2 n_ii``,
    ``S_ij = -(n_ij + n_ji)`` on k - 1 of the categories, k - 1 df (statsmodels'
    ``SquareTable.homogeneity()``). When the disagreements fall into separate groups of
    categories (categories no rater confused with the others, e.g. unused ones), ``S``
    on k - 1 categories is singular; the statistic is then summed over the groups, one
    category left out in each, and ``df = k - (number of groups)``
    (``details["n_groups"]``), the rank of ``S`` (DescTools' ``StuartMaxwellTest`` keeps
    k - 1 df there, a conservative choice; statsmodels returns ``nan``). R's
    ``irr::stuart.maxwell.mh`` instead deletes the rows and columns of categories whose
    two marginals are equal, which changes the other marginals; accord does not.

    Examples
    --------
    Stuart (1955) vision data (R ``irr``'s ``vision``; 7477 women, right eye x left eye):

    >>> import accord
    >>> vision = [[1520, 266, 124, 66], [234, 1512, 432, 78], [117, 362, 1772, 205],
    ...           [36, 82, 179, 492]]
    >>> res = accord.stuart_maxwell_test(accord.ContingencyTable(vision))
    >>> round(res.statistic, 3), res.df
    (11.957, 3.0)
    """
    n = _counts(data, y2, categories, raters, "stuart_maxwell_test")
    stat, df, groups = _stuart_maxwell(n)
    details = {"n_groups": groups}
    if df == 0:
        return _undefined("stuart_maxwell", n, details)
    return _test("stuart_maxwell", n, stat, df, details)


def bhapkar_test(data: Any, y2: Any = None, /, *, categories: Sequence[Any] | None = None,
                 raters: Sequence[Any] | None = None) -> MarginalTest:
    """Bhapkar's (1966) test of marginal homogeneity: the Wald form of Stuart-Maxwell.

    ``chi2 = SM / (1 - SM / n)`` with ``SM`` the Stuart-Maxwell statistic (k - 1 df),
    as R's ``irr::bhapkar`` and statsmodels' ``homogeneity(method="bhapkar")``. When
    ``SM = n`` (every unit a disagreement in the same direction) the statistic is
    infinite and the p-value 0.

    Examples
    --------
    Stuart (1955) vision data (R ``irr::bhapkar(vision)``: 11.976, 3 df):

    >>> import accord
    >>> vision = [[1520, 266, 124, 66], [234, 1512, 432, 78], [117, 362, 1772, 205],
    ...           [36, 82, 179, 492]]
    >>> round(accord.bhapkar_test(accord.ContingencyTable(vision)).statistic, 3)
    11.976
    """
    n = _counts(data, y2, categories, raters, "bhapkar_test")
    sm, df, groups = _stuart_maxwell(n)
    details = {"n_groups": groups, "stuart_maxwell": sm}
    if df == 0:
        return _undefined("bhapkar", n, details)
    total = float(n.sum())
    stat = math.inf if sm >= total else sm / (1.0 - sm / total)
    return _test("bhapkar", n, stat, df, details)


def rater_bias(data: Any, y2: Any = None, /, *, categories: Sequence[Any] | None = None,
               raters: Sequence[Any] | None = None) -> MarginalTest:
    """The rater bias coefficient of R's ``irr::rater.bias``, with its chi-square test.

    ``estimate = b / (b + c)``, the share of the disagreements that lie above the
    diagonal (the first rater chose an earlier category than the second), with
    ``b = sum_{i<j} n_ij`` and ``c = sum_{i>j} n_ij``; 0.5 means no systematic
    direction. ``chi2 = (b - c)^2 / (b + c)`` on 1 df (McNemar's test on the
    disagreements collapsed into "above" and "below"). It needs ordered categories
    to mean anything.

    Examples
    --------
    Stuart (1955) vision data; R ``irr::rater.bias(vision)`` prints Ratio = 0.537,
    Chisq(1) = 11.9, p-value = 0.000566:

    >>> import accord
    >>> vision = [[1520, 266, 124, 66], [234, 1512, 432, 78], [117, 362, 1772, 205],
    ...           [36, 82, 179, 492]]
    >>> res = accord.rater_bias(accord.ContingencyTable(vision))
    >>> round(res.estimate, 3), round(res.statistic, 1), round(res.pvalue, 6)
    (0.537, 11.9, 0.000566)
    """
    n = _counts(data, y2, categories, raters, "rater_bias")
    b, c = float(np.triu(n, 1).sum()), float(np.tril(n, -1).sum())
    details = {"above": b, "below": c}
    if b + c == 0:
        return _undefined("rater_bias", n, details)
    return _test("rater_bias", n, (b - c) ** 2 / (b + c), 1.0, details, estimate=b / (b + c))


def marginal_tests(data: Any, y2: Any = None, /, *, categories: Sequence[Any] | None = None,
                   raters: Sequence[Any] | None = None) -> tuple[MarginalTest, ...]:
    """The tests that apply to the table: McNemar for 2 x 2; Stuart-Maxwell, Bhapkar and
    Bowker for more categories. Undefined tests are returned undefined, with no warning."""
    import warnings

    from accord.errors import DegenerateDataWarning

    table = as_table(data, y2, categories=categories, raters=raters, func="marginal_tests")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        if table.k == 2:
            return (mcnemar_test(table),)
        return (stuart_maxwell_test(table), bhapkar_test(table), bowker_test(table))


# --------------------------------------------------------------------------- helpers
_TITLES = {"mcnemar": "McNemar's test", "bowker": "Bowker's test of symmetry",
           "stuart_maxwell": "Stuart-Maxwell test of marginal homogeneity",
           "bhapkar": "Bhapkar's test of marginal homogeneity",
           "rater_bias": "Rater bias coefficient (irr::rater.bias)"}


def _counts(data: Any, y2: Any, categories: Sequence[Any] | None,
            raters: Sequence[Any] | None, func: str) -> Arr:
    table = data if isinstance(data, ContingencyTable) and categories is None else as_table(
        data, y2, categories=categories, raters=raters, func=func)
    if table.k > DENSE_LIMIT:
        raise DataError(f"{func} needs a dense table; the data have {table.k} categories "
                        f"(at most {DENSE_LIMIT}).")
    if table.n <= 0:
        raise DataError(f"{func}: no unit was rated by both raters.")
    return np.asarray(table.counts, dtype=np.float64)


def _stuart_maxwell(n: Arr) -> tuple[float, float, int]:
    """``d' S^- d``, its df (the rank of S) and the number of groups of categories
    linked by disagreements (each group solved with one category left out)."""
    off = n + n.T
    np.fill_diagonal(off, 0.0)
    d = n.sum(axis=1) - n.sum(axis=0)
    groups, label = _components(off > 0)
    stat, df = 0.0, 0
    for g in range(groups):
        members = np.flatnonzero(label == g)
        if members.size < 2:
            continue
        keep = members[:-1]
        s = -off[np.ix_(keep, keep)]
        np.fill_diagonal(s, off[keep].sum(axis=1))
        stat += float(d[keep] @ np.linalg.solve(s, d[keep]))
        df += keep.size
    linked = int(sum(np.sum(label == g) > 1 for g in range(groups)))
    return stat, float(df), linked


def _components(linked: Any) -> tuple[int, Any]:
    """The connected components of the graph whose symmetric adjacency matrix is
    ``linked``: their number, and each node's component numbered in the order of the
    component's first node, as ``scipy.sparse.csgraph.connected_components`` numbers them
    (whose import, with scipy.sparse's, takes longer than a small report's tests)."""
    label = np.full(linked.shape[0], -1, dtype=np.int64)
    groups = 0
    for start in range(label.size):
        if label[start] >= 0:
            continue
        label[start] = groups
        frontier = [start]
        while frontier:
            new = np.flatnonzero(linked[frontier].any(axis=0) & (label < 0))
            label[new] = groups
            frontier = new.tolist()
        groups += 1
    return groups, label


def _test(name: str, n: Arr, stat: float, df: float, details: dict[str, Any], *,
          pvalue: float | None = None, estimate: float = math.nan) -> MarginalTest:
    if pvalue is None:
        pvalue = 0.0 if math.isinf(stat) else float(chi2_sf(stat, df))
    return MarginalTest(name, _TITLES[name], float(stat), df, pvalue, int(round(n.sum())),
                        estimate, None, details)


def _undefined(name: str, n: Arr, details: dict[str, Any]) -> MarginalTest:
    v.warn_undefined(name, _NO_DISAGREEMENT)
    return MarginalTest(name, _TITLES[name], math.nan, math.nan, math.nan,
                        int(round(n.sum())), math.nan, _NO_DISAGREEMENT, details)
