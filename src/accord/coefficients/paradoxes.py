"""Figures that explain a two-rater kappa: PABAK, the largest kappa the marginals allow,
and the agreement specific to each category.

Byrt, Bishop & Carlin (1993) for PABAK and the prevalence and bias indices; Cohen
(1960) and Sim & Wright (2005) for kappa max; Fleiss, Levin & Paik (2003, ch. 18)
and Cicchetti & Feinstein (1990) for specific (per-category) agreement. The same
notation as :mod:`accord.coefficients.two_raters`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord.coefficients._chance import chance_corrected
from accord.coefficients._data import as_table
from accord.coefficients._registry import register
from accord.coefficients._two_rater_core import _coefficient, _empty_reason, _result, _se_gwet
from accord.inference.results import AgreementResult

__all__ = ["category_agreement", "kappa_max", "pabak"]


@register(
    "pabak",
    title="Prevalence- and bias-adjusted kappa (PABAK)",
    family="two_raters",
    citation="Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa. "
    "Journal of Clinical Epidemiology 46(5), 423-429.",
)
def pabak(
    data: Any,
    y2: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    """PABAK = (k p_o - 1) / (k - 1) (``2 p_o - 1`` for two categories).

    ``details`` carries, for a 2 x 2 table with categories (a, b) rows and columns,
    the signed ``prevalence_index = (n_11 - n_22) / n`` and ``bias_index = (n_12 - n_21) / n``
    (Byrt et al. report absolute values) and Cohen's ``kappa`` for comparison.

    Examples
    --------
    >>> import accord
    >>> res = accord.pabak(accord.ContingencyTable([[41, 9], [9, 41]]))
    >>> round(res.estimate, 4), res.details["prevalence_index"]
    (0.64, 0.0)
    """
    func = "pabak"
    table = as_table(data, y2, categories=categories, raters=raters, func=func)
    est, po, pe, cells, why = _coefficient(func, table, None, "bp")
    details: dict[str, Any] = {}
    if not _empty_reason(table):
        with np.errstate(divide="ignore", invalid="ignore"):
            kap = _coefficient(func, table, None, "cohen")[0]
        details["kappa"] = kap
        if table.k == 2:
            n = table.n
            m = table.counts
            details["prevalence_index"] = float((m[0, 0] - m[1, 1]) / n)
            details["bias_index"] = float((m[0, 1] - m[1, 0]) / n)
    se = math.nan if (cells is None or why) else _se_gwet("bp", cells, None, est, po, pe)
    return _result(func, table, None, "bp", se, details)


@register(
    "kappa_max",
    title="Maximum attainable kappa",
    family="two_raters",
    citation="Cohen, J. (1960), p. 42; Sim, J. & Wright, C. C. (2005). The kappa statistic "
    "in reliability studies. Physical Therapy 85(3), 257-268.",
)
def kappa_max(
    data: Any,
    y2: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> AgreementResult:
    """The largest Cohen's kappa the two raters' marginals allow.

    ``kappa_max = (p_o,max - p_e) / (1 - p_e)`` with ``p_o,max = sum_k min(p_k+, p_+k)``.
    A kappa far below kappa_max reflects disagreement; a low kappa_max reflects
    different marginal distributions (bias). ``observed`` is ``p_o,max``.

    Examples
    --------
    >>> import accord
    >>> round(accord.kappa_max(accord.ContingencyTable([[20, 5], [10, 15]])).estimate, 4)
    0.8
    """
    func = "kappa_max"
    table = as_table(data, y2, categories=categories, raters=raters, func=func)
    reason = _empty_reason(table)
    if reason:
        return _result(func, table, None, "cohen", math.nan, {}, reason=reason)
    r, c = table.row_totals / table.n, table.col_totals / table.n
    po_max = float(np.minimum(r, c).sum())
    pe = float(r @ c)
    est = float(chance_corrected(np.array([po_max]), np.array([pe]))[0])
    res = _result(func, table, None, "cohen", math.nan, {"p_o_max": po_max}, estimate=est)
    from dataclasses import replace

    return replace(res, observed=po_max) if res.defined else res


def category_agreement(
    data: Any,
    y2: Any = None,
    /,
    *,
    categories: Sequence[Any] | None = None,
    raters: Sequence[Any] | None = None,
) -> dict[Any, dict[str, float]]:
    """Per category: one-vs-rest kappa and specific positive and negative agreement.

    For category c, collapse the table to c vs not-c (cells a, b, c', d):
    ``kappa`` is Cohen's kappa of that 2 x 2 table, ``positive_agreement =
    2a / (2a + b + c')`` and ``negative_agreement = 2d / (2d + b + c')``
    (Spitzer & Fleiss 1974; Cicchetti & Feinstein 1990). ``nan`` where undefined.

    Examples
    --------
    >>> import accord
    >>> out = accord.category_agreement(accord.ContingencyTable([[20, 5], [10, 15]], ["y", "n"]))
    >>> round(out["y"]["positive_agreement"], 4), round(out["y"]["kappa"], 4)
    (0.7273, 0.4)
    """
    table = as_table(data, y2, categories=categories, raters=raters, func="category_agreement")
    n = table.n
    a = table.diagonal
    rows, cols = table.row_totals, table.col_totals
    b, c = rows - a, cols - a
    d = n - a - b - c
    out: dict[Any, dict[str, float]] = {}
    with np.errstate(divide="ignore", invalid="ignore"):
        po = (a + d) / n
        pe = (rows * cols + (n - rows) * (n - cols)) / n**2
        kap = np.where(1.0 - pe > 1e-12, (po - pe) / (1.0 - pe), np.nan)
        pos = np.where(2 * a + b + c > 0, 2 * a / (2 * a + b + c), np.nan)
        neg = np.where(2 * d + b + c > 0, 2 * d / (2 * d + b + c), np.nan)
    for idx, cat in enumerate(table.categories):
        out[cat] = {
            "kappa": float(kap[idx]),
            "positive_agreement": float(pos[idx]),
            "negative_agreement": float(neg[idx]),
            "n_rater1": float(rows[idx]),
            "n_rater2": float(cols[idx]),
            "n_both": float(a[idx]),
        }
    return out
