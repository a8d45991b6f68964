"""Krippendorff's alpha at every level of measurement, from the coincidences.

Notation of Krippendorff (2011, "Computing Krippendorff's alpha-reliability"):
coincidences ``o_ck``, marginals ``n_c``, ``n`` pairable values, a difference
function ``delta^2_ck``;

    D_o = (1 / n) sum_ck o_ck delta_ck,
    D_e = 1 / (n (n - 1)) sum_ck n_c n_k delta_ck,
    alpha = 1 - D_o / D_e.

Standard error: Gwet (2014, *Handbook of Inter-Rater Reliability*, 4th ed.,
ch. 5), the design-based variance R's irrCAC ``krippen.alpha.raw`` reports,
written with Krippendorff's differences (agreement weights ``1 - delta / max delta``;
the scale cancels). Resampling units are the distinct per-unit value-count
vectors (:mod:`accord.inference.resampling`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from accord.coefficients import _differences as dif
from accord.coefficients import _set_levels as sets
from accord.coefficients._alpha_moments import UnitTerms, unit_terms
from accord.coefficients._data import as_annotations
from accord.coefficients._registry import register
from accord.data import _validation as v
from accord.data._frames import check_numeric_array
from accord.data._magnitude import power_of_two_scale
from accord.data.annotations import LEVELS, Annotations
from accord.data.weights import require_order
from accord.errors import DataError, InsufficientDataError
from accord.inference.resampling import Resampling
from accord.inference.results import AgreementResult
from accord.tables.coincidence import CoincidenceMatrix
from accord.tables.contingency import ContingencyTable

__all__ = ["krippendorff_alpha"]

FloatArray = NDArray[np.float64]
_FUNC = "krippendorff_alpha"


class _Difference(Protocol):
    name: str

    def observed(self, cm: CoincidenceMatrix) -> FloatArray: ...

    def expected(self, n_c: FloatArray) -> float: ...

    def spread(self, pi: FloatArray) -> FloatArray: ...

    def resampling(self, cm: CoincidenceMatrix) -> tuple[FloatArray, dif.Statistic] | None: ...


@register("krippendorff_alpha", title="Krippendorff's alpha", family="krippendorff",
          raters="many", bounds=(-math.inf, 1.0),
          levels=("nominal", "ordinal", "interval", "ratio", "masi", "jaccard"),
          citation="Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. "
          "Departmental Papers (ASC), University of Pennsylvania; Hayes, A. F. & Krippendorff, "
          "K. (2007). Communication Methods and Measures 1(1), 77-89. SE: Gwet, K. L. (2014), "
          "Handbook of Inter-Rater Reliability, 4th ed.")
def krippendorff_alpha(
    data: Any, /, *, level: Any = "nominal", categories: Sequence[Any] | None = None
) -> AgreementResult:
    """Krippendorff's alpha for any number of raters, with missing values.

    ``alpha = 1 - D_o / D_e`` with the observed and expected disagreements
    ``D_o = sum_ck o_ck delta_ck / n`` and ``D_e = sum_ck n_c n_k delta_ck / (n (n - 1))``
    (Krippendorff 2011). Units with fewer than two values cannot be paired and are
    left out (``details["n_unpairable_units"]``).

    Parameters
    ----------
    data : units x raters table, Annotations, ContingencyTable, RaterCounts or CoincidenceMatrix
        ``None``/``NaN`` = not rated. A :class:`~accord.ContingencyTable` is two
        raters' units; :class:`~accord.RaterCounts` is units x values counts.
    level : {"nominal", "ordinal", "interval", "ratio", "masi", "jaccard"}, callable or matrix
        The difference function ``delta_ck``: ``[c != k]``; Krippendorff's ordinal
        metric ``(sum_{g=c..k} n_g - (n_c + n_k)/2)^2`` (built on the marginal
        frequencies, not Gwet's ordinal weights); ``(c - k)^2``;
        ``((c - k)/(c + k))^2``. For set-valued ratings (cells that are sets,
        frozensets or tuples of labels, or :class:`~accord.Annotations` that are
        ``set_valued``), ``"masi"`` and ``"jaccard"`` are the distances of
        :mod:`accord.distances` (Passonneau 2006), computed from the coincidences of
        the distinct sets. A callable ``d(c, k)`` on two values (called on numpy
        arrays when it accepts them) or a V x V matrix (zero diagonal,
        non-negative, in ``categories`` order) gives any other difference. The
        named single-label levels refuse set-valued data.
    categories : sequence, optional
        The values in order (ordinal alpha uses the order; unused values are kept).
        Default: the sorted observed values.

    Returns
    -------
    AgreementResult
        ``observed`` and ``expected`` are D_o and D_e; ``se`` is Gwet's (2014)
        standard error; ``details`` has the level, ``n_pairable_values``,
        ``n_unpairable_units``, Gwet's ``alpha_prime`` and irrCAC 1.4's t test:
        ``t_df`` (units with a value - 1), the two-sided ``pvalue`` and
        ``pvalue_one_sided`` (the figure irrCAC 1.4 prints).

    Notes
    -----
    Which published figure each number reproduces: the estimate is Krippendorff's
    (2011) worked examples, Hayes' KALPHA, the Python ``krippendorff`` package and
    irrCAC's ``krippen.alpha.raw`` / ``krippen2.table``. R's ``irr::kripp.alpha`` (0.84.1)
    agrees when some rating is missing, but on complete data with more than two raters it
    does not divide each unit's pairs by ``m_u - 1`` and its alpha is slightly off;
    accord follows Krippendorff's definition. ``se`` is irrCAC's from version 1.2 on
    (unit terms centred on ``p_a'``; irrCAC 1.0 on CRAN centres on ``p_a``, which differs
    only when units have different numbers of values); from a
    :class:`~accord.ContingencyTable` it is ``krippen2.table``'s. The t test and the
    ``distribution="t"`` interval are irrCAC 1.4's, with the same SE: ``n_0 - 1``
    degrees of freedom, ``n_0`` every unit with a value (pairable or not; irrCAC also
    counts a row with no value, which accord never sees as a unit). ``pvalue`` is
    two-sided, as every accord p-value (irrCAC 1.2's figure, twice irrCAC 1.4's
    ``pvalue_one_sided`` when alpha > 0); both are 0 when the SE is 0 and alpha is not
    0 (perfect agreement).

    Continuous scores. Interval and ratio alpha of a numeric array, or of
    :class:`~accord.Annotations`, in which most values are distinct are computed unit
    by unit in O(n): interval from per-unit means and sums of squares, ratio with its
    sums over all pairs of values interpolated on geometric bins (relative error below
    1e-14). Ratio alpha of more than 3,000 such values has the analytic SE only (a
    resample's D_e is a sum over all pairs of values); asking for a bootstrap or
    jackknife interval says so.

    Undefined cases. When every pairable value is the same, ``D_e = 0`` and alpha
    is 0/0: accord returns ``nan`` with ``undefined_reason`` and a
    :class:`~accord.DegenerateDataWarning`. In the same case R's ``irr::kripp.alpha``
    (0.84.1) returns 1, irrCAC's ``krippen.alpha.raw`` returns 1 (it sets
    ``p_e = 1e-15`` for a single category), and the Python ``krippendorff`` package
    (0.9.0) raises ``ValueError`` ("There has to be more than one value in the
    domain"; with a larger declared domain it returns ``nan`` with a
    ``RuntimeWarning``). Data in which no unit has two values raise
    :class:`~accord.errors.InsufficientDataError` (``krippendorff`` raises
    ``ValueError`` too); an empty :class:`CoincidenceMatrix` gives ``nan``.

    Examples
    --------
    Krippendorff (2011), example C: nominal 0.743, interval 0.849.

    >>> import accord
    >>> data = accord.datasets.load("krippendorff_2011").data
    >>> round(accord.krippendorff_alpha(data).estimate, 4)
    0.7434
    >>> round(accord.krippendorff_alpha(data, level="interval").estimate, 4)
    0.8491

    Set-valued ratings with the MASI distance:

    >>> sets = [[("a",), ("a",)], [("a", "b"), ("a",)], [("b",), ("b", "c")], [("c",), ("a",)]]
    >>> round(accord.krippendorff_alpha(sets, level="masi").estimate, 4)
    0.1648
    """
    terms = unit_terms(data, level, categories)
    if terms is not None:
        return _unit_result(terms)
    cm = as_coincidences(data, categories=categories, level=level)
    difference = _difference(level, cm)
    return _result(cm, difference, table=isinstance(data, ContingencyTable))


# --------------------------------------------------------------------- input
def as_coincidences(data: Any, *, categories: Sequence[Any] | None = None,
                    level: Any = "nominal") -> CoincidenceMatrix:
    """The :class:`CoincidenceMatrix` of any accepted form of ``data``."""
    if isinstance(data, CoincidenceMatrix):
        _same_categories(categories, data.categories)
        return data
    cm = _build(data, categories, level)
    if cm.n_units == 0:
        raise InsufficientDataError(
            "no unit has two or more values, so there is nothing to pair "
            f"({cm.n_unpairable} unit(s) have a single value)."
        )
    return cm


def _build(data: Any, categories: Sequence[Any] | None, level: Any) -> CoincidenceMatrix:
    if isinstance(data, ContingencyTable):
        _same_categories(categories, data.categories)
        _ordinal_needs_order(level, data.categories, data.ordered)
        return CoincidenceMatrix.from_table(data)
    if type(data).__name__ == "RaterCounts" and hasattr(data, "counts"):
        _same_categories(categories, data.categories)
        _ordinal_needs_order(level, data.categories, data.ordered)
        return CoincidenceMatrix.from_counts(data.counts, data.categories)
    named = level if isinstance(level, str) and level in LEVELS else None
    if sets.set_level(level) is not None:
        if categories is not None:
            raise DataError(f"{_FUNC}: categories cannot be declared with level={level!r}; "
                            "the values are the distinct sets of labels.")
        return CoincidenceMatrix.from_annotations(
            sets.set_annotations(data, _FUNC).require_pairable())
    if isinstance(data, Annotations):
        _single_labels(data, level)
        ann = as_annotations(data, categories=categories, func=_FUNC, sets=True)
        _ordinal_needs_order(level, ann.categories, ann.ordered)
        return CoincidenceMatrix.from_annotations(ann.require_pairable())
    if isinstance(data, np.ndarray) and data.dtype.kind in "iuf" and categories is None:
        check_numeric_array(data, _FUNC)
        if data.ndim == 2 and data.shape[1] < 2:
            raise InsufficientDataError(
                f"agreement needs at least two raters; the data have {data.shape[1]} column."
            )
        return CoincidenceMatrix.from_array(data)
    numeric: Any = named if named in ("interval", "ratio") else None
    ann = Annotations.from_wide(data, categories=categories, level=numeric)
    _single_labels(ann, level)
    _ordinal_needs_order(level, ann.categories, ann.ordered)
    return CoincidenceMatrix.from_annotations(ann)


def _single_labels(ann: Annotations, level: Any) -> None:
    """A named single-label level refuses sets; a callable or matrix level takes them."""
    if ann.set_valued and isinstance(level, str):
        raise DataError(
            f"{_FUNC} with level={level!r} needs one label per rating, but these ratings are "
            "sets of labels; use level='masi' or level='jaccard', or "
            "accord.multilabel_agreement for per-label agreement."
        )


def _ordinal_needs_order(level: Any, categories: Sequence[Any], ordered: bool) -> None:
    if isinstance(level, str) and level == "ordinal":
        require_order(None, categories, ordered, _FUNC,
                      uses="level='ordinal' ranks the categories in their order")


def _same_categories(given: Sequence[Any] | None, have: tuple[Any, ...]) -> None:
    if given is not None and tuple(given) != tuple(have):
        raise DataError(f"{_FUNC}: categories {list(given)!r} differ from the data's "
                        f"{list(have)!r}.")


def _difference(level: Any, cm: CoincidenceMatrix) -> _Difference:
    kind = sets.set_level(level)
    if kind is not None:
        return sets.SetDifference(cm.categories, kind)
    if isinstance(level, str):
        v.choice(level, LEVELS + sets.SET_LEVELS, param="level", func=_FUNC)
        if level == "nominal":
            return dif.Nominal()
        if level == "ordinal":
            return dif.Ordinal(cm.marginals)
        x = _numeric(cm, level)
        if level == "interval":
            n_c = cm.marginals
            return dif.Interval(x, centre=float(n_c @ x) / max(float(n_c.sum()), 1.0))
        if x.size and x.min() < 0:
            raise DataError(f"level='ratio' needs non-negative values (a ratio scale has a true "
                            f"zero); the data include {float(x.min())!r}.")
        return dif.RatioMany(x)
    if level is None:
        raise v.fail("level", _FUNC, "one of 'nominal', 'ordinal', 'interval', 'ratio', a "
                     "callable or a V x V matrix", level)
    return dif.Matrix(dif.custom_matrix(level, cm.categories, _FUNC), "custom")


def _numeric(cm: CoincidenceMatrix, level: str) -> FloatArray:
    x = cm.numeric_values()
    if x is None:
        bad = next((c for c in cm.categories if _not_number(c)), cm.categories[0])
        raise DataError(f"level={level!r} needs numeric values, but the data include "
                        f"{bad!r}, which is not a number.")
    # interval and ratio differences are ratios of squares: an exact power-of-two
    # scale keeps values near 1e200 (or 1e-200) from overflowing (underflowing)
    return x * power_of_two_scale(x)


def _not_number(x: Any) -> bool:
    if isinstance(x, (bool, np.bool_)):
        return True
    try:
        float(x)
    except (TypeError, ValueError):
        return True
    return False


# --------------------------------------------------------------------- result
def _result(cm: CoincidenceMatrix, difference: _Difference, *,
            table: bool = False) -> AgreementResult:
    n = cm.n
    n_c = cm.marginals
    observed = difference.observed(cm) if cm.n_patterns else np.zeros(0)
    do_num = float(cm.pattern_counts @ observed)
    de_num = difference.expected(n_c) if n > 0 else 0.0
    why = _undefined_reason(cm, n_c, de_num)
    d_o = do_num / n if n > 0 else math.nan
    d_e = de_num / (n * (n - 1.0)) if n > 1 else math.nan
    details: dict[str, Any] = {
        "level": difference.name,
        "n_pairable_values": n,
        "n_unpairable_units": cm.n_unpairable,
        "se_method": "gwet_2014_table" if table else "gwet_2014",
    }
    est, se = math.nan, math.nan
    if why:
        v.warn_undefined(_FUNC, why)
    else:
        est = 1.0 - d_o / d_e
        se, prime = _gwet_se(cm, difference, observed, do_num, de_num, n_c, table)
        details["alpha_prime"] = prime
        details.update(_t_test(est, se, cm.n_units + cm.n_unpairable))
    return AgreementResult(
        coefficient=_FUNC, estimate=est, observed=d_o, expected=d_e, se=se,
        n_units=cm.n_units, n_raters=cm.n_raters, undefined_reason=why, details=details,
        bounds=(-math.inf, 1.0), resampling=_resampler(cm, difference),
    )


def _unit_result(t: UnitTerms) -> AgreementResult:
    """The result of continuous interval or ratio scores, unit by unit (see _result)."""
    n, units = t.n, t.n_units
    do_num = float(t.observed.sum())
    d_o, d_e = do_num / n, t.expected / (n * (n - 1.0))
    details: dict[str, Any] = {"level": t.level, "n_pairable_values": n,
                               "n_unpairable_units": t.n_unpairable, "se_method": "gwet_2014"}
    est, se, why = math.nan, math.nan, None
    if not t.expected > 0:
        why = (f"every pairable value is {t.first_value!r}, so the expected disagreement "
               "D_e is 0 and alpha is 0/0")
        v.warn_undefined(_FUNC, why)
    else:
        est = 1.0 - d_o / d_e
        se, prime = _gwet_terms(t.m, np.ones(units), t.observed, t.spread, do_num,
                                t.expected, False)
        details["alpha_prime"] = prime
        details.update(_t_test(est, se, units + t.n_unpairable))
    return AgreementResult(
        coefficient=_FUNC, estimate=est, observed=d_o, expected=d_e, se=se,
        n_units=units, n_raters=t.n_raters, undefined_reason=why, details=details,
        bounds=(-math.inf, 1.0), resampling=_unit_resampler(t),
    )


def _unit_resampler(t: UnitTerms) -> Callable[[], Resampling]:
    features = t.features

    def make() -> Resampling:
        if features is None:
            from accord.errors import InvalidParameterError

            raise InvalidParameterError(
                f"{_FUNC} at level {t.level!r} on {t.n:g} continuous values is too large to "
                "resample in memory (each resample's D_e sums over all pairs of values); use "
                "the analytic SE (method='asymptotic').")
        feats, statistic = features()
        units = t.n_units
        return Resampling(features=feats, counts=np.ones(units, dtype=np.int64),
                          statistic=statistic, unit_patterns=np.arange(units, dtype=np.int64),
                          unit_ids=t.unit_ids)

    return make


def _undefined_reason(cm: CoincidenceMatrix, n_c: FloatArray, de_num: float) -> str | None:
    if cm.n <= 0:
        return "no unit has two or more values, so there is nothing to pair"
    used = np.flatnonzero(n_c)
    if used.size == 1:
        return (f"every pairable value is {cm.categories[int(used[0])]!r}, so the expected "
                "disagreement D_e is 0 and alpha is 0/0")
    if not de_num > 0:
        return ("the difference function is 0 between all values used, so the expected "
                "disagreement D_e is 0 and alpha is 0/0")
    return None


def _gwet_se(cm: CoincidenceMatrix, difference: _Difference, observed: FloatArray,
             do_num: float, de_num: float, n_c: FloatArray,
             table: bool = False) -> tuple[float, float]:
    """Gwet (2014) SE of alpha and his alpha' (irrCAC ``krippen.alpha.raw``).

    Gwet's per-unit terms, rewritten with Krippendorff's differences (the weight
    scale cancels): for a unit with r_i values, ``d_i = sum_ck o^i_ck delta_ck`` and
    ``g_i = sum_c n_ic (Delta pi)_c``,

        kappa_i  = alpha' + (r_i a - d_i) / (rbar b),
        kappa*_i = kappa_i - 2 (1 - alpha') (r_i b - g_i) / (rbar b),
        var      = sum_i (kappa*_i - alpha')^2 / (n_units (n_units - 1)),

    with ``a = D_o``, ``b = sum n_c n_k delta / n^2``, ``alpha' = 1 - a / b`` and
    ``rbar = n / n_units``. The agreement of unit i is centred on Gwet's
    ``p_a' = 1 - a``: ``p_a'`` is the ratio estimator ``sum_i x_i / sum_i r_i`` whose
    linearisation has slope ``p_a'``. This is irrCAC's form from version 1.2 on (its
    GitHub repository since August 2021; README: SE 0.14548 on Krippendorff's
    example C). irrCAC 1.0 on CRAN centres on ``p_a`` instead (SE 0.14557 there); the
    two coincide when every unit has the same number of values.

    A :class:`~accord.ContingencyTable` has no per-unit record of missing values and
    is treated as irrCAC's ``krippen2.table`` treats it: the variance divides by
    ``n_units^2`` instead of ``n_units (n_units - 1)`` (``table=True``), like every
    other two-rater coefficient computed from a table.
    """
    pattern, code, mult = cm.entries
    spread = difference.spread(n_c / cm.n)
    g = np.bincount(pattern, weights=mult * spread[code],
                    minlength=cm.n_patterns).astype(np.float64)
    return _gwet_terms(cm.pattern_sizes, cm.pattern_counts.astype(np.float64), observed, g,
                       do_num, de_num, table)


def _gwet_terms(m: FloatArray, counts: FloatArray, observed: FloatArray, g: FloatArray,
                do_num: float, de_num: float, table: bool) -> tuple[float, float]:
    """Gwet's SE and alpha' from per-pattern ``m``, ``d_i`` and ``g_i`` (see _gwet_se)."""
    n = float(np.einsum("i,i->", counts, m))  # not BLAS: no threads woken for a dot
    units = float(counts.sum())
    a, b = do_num / n, de_num / (n * n)
    prime = 1.0 - a / b
    if units < 2:
        return math.nan, prime
    rbar = n / units
    dev = (m * a - observed) / (rbar * b) - 2.0 * (1.0 - prime) * (m * b - g) / (rbar * b)
    var = float(np.einsum("i,i,i->", counts, dev, dev)) / (
        units * (units if table else units - 1.0))
    return math.sqrt(var), prime


def _t_test(est: float, se: float, n_rows: int) -> dict[str, Any]:
    """irrCAC 1.4's t test of alpha = 0: ``t = alpha / se`` with ``n_0 - 1`` df.

    ``n_0`` is every unit with a value, pairable or not (irrCAC's ``n0``, the rows
    of the ratings). ``pvalue`` is two-sided, ``2 P(T > |t|)``, as every accord
    p-value and irrCAC 1.2 print it; ``pvalue_one_sided`` is ``P(T > t)``, the
    figure irrCAC prints from 1.3 on. ``t_df`` is also the degrees of freedom of
    ``confidence_interval(distribution="t")``. With ``se = 0`` the statistic is
    infinite when alpha is not 0 (perfect agreement) and the p-values are 0 (or 1
    one-sided below 0), as irrCAC reports; only 0/0 (alpha = 0, se = 0) is ``nan``.
    """
    from scipy.special import stdtr  # what stats.t.sf calls, without importing scipy.stats

    df = n_rows - 1
    out: dict[str, Any] = {"t_df": df, "pvalue": math.nan, "pvalue_one_sided": math.nan}
    if not (math.isfinite(se) and se >= 0 and df > 0) or (se == 0 and est == 0):
        return out
    t = math.copysign(math.inf, est) if se == 0 else est / se
    out["pvalue"] = float(2.0 * stdtr(df, -abs(t)))  # P(T > |t|) = stdtr(df, -|t|)
    out["pvalue_one_sided"] = float(stdtr(df, -t))
    return out


def _resampler(cm: CoincidenceMatrix, difference: _Difference) -> Callable[[], Resampling] | None:
    if cm.n_patterns == 0:
        return None

    def make() -> Resampling:
        parts = difference.resampling(cm)
        if parts is None:
            from accord.errors import InvalidParameterError

            raise InvalidParameterError(
                f"{_FUNC} at level {difference.name!r} with {cm.k} values and "
                f"{cm.n_patterns} distinct unit patterns is too large to resample in memory; "
                "use the analytic SE (method='asymptotic')."
            )
        features, statistic = parts
        return Resampling(features=features, counts=cm.pattern_counts, statistic=statistic,
                          unit_patterns=cm.unit_patterns, unit_ids=cm.unit_ids)

    return make
