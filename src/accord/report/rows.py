"""The report's coefficient rows: each result with its interval, band and benchmark.

A row grades a coefficient on the scale of the coefficient the report is about
(:func:`scale_of`), and Gwet's benchmark at the one-sided level of the interval's lower
limit (:func:`benchmark_probability`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from accord.errors import AccordError
from accord.inference.results import AgreementResult, ConfidenceInterval
from accord.report.model import CoefficientRow, Settings
from accord.study.protocol import Study

__all__ = ["benchmark_probability", "primary", "row", "scale_of"]


def primary(rows: Sequence[CoefficientRow], st: Study | None) -> str | None:
    """The study's coefficient, else the first chance-corrected one that treats the scale
    as declared (on ordered data an unweighted kappa is not the headline)."""
    if st is not None:
        return st.metric.coefficient
    corrected = [r for r in rows if r.chance_corrected]
    for r in corrected:
        if r.variant != "unweighted":
            return r.coefficient
    if corrected:
        return corrected[0].coefficient
    return rows[0].coefficient if rows else None


def scale_of(primary: str, coefficient: str) -> str:
    """The scale of a row: the scale of the coefficient the report is about, so that one
    table never grades kappa and alpha on two scales (alpha "Unreliable" beside kappa
    "Substantial"); but an ICC is always graded on Koo & Li's scale, on its interval, and
    an ICC report reads the other rows on their own scales (the header names each)."""
    from accord.interpret.interpretation import default_scale

    own = default_scale(coefficient)
    if own == "koo_li":
        return own
    table = default_scale(primary)
    return own if table == "koo_li" else table


def interval_of(result: AgreementResult, level: float,
              method: Any) -> tuple[ConfidenceInterval | None, str | None]:
    if not result.defined:
        return None, None
    try:
        return result.confidence_interval(level, method=method), None
    except AccordError as exc:
        return None, str(exc)


def benchmark_probability(confidence_level: float) -> float:
    """The cumulative probability Gwet's benchmark must reach in the report: the one-sided
    level of the lower limit of the two-sided interval, ``1 - (1 - level) / 2``.

    The band retained then lies at or below the lower confidence limit (for an
    asymptotic interval), so the benchmark never grades higher than a decision taken on
    that limit.

    >>> benchmark_probability(0.95)
    0.975
    """
    return 1.0 - (1.0 - confidence_level) / 2.0


def row(result: AgreementResult, settings: Settings, method: Any,
         data_level: str | None = None) -> tuple[CoefficientRow, ConfidenceInterval | None]:
    from accord.interpret.interpretation import benchmark, default_scale, graded, interpret
    from accord.study import REGISTRY

    info = REGISTRY[result.coefficient]
    ci, note = interval_of(result, settings.confidence_level, method)
    interp = bench = None
    if graded(result.coefficient):
        scale = settings.scale or default_scale(result.coefficient)
        interp = interpret(result, scale, confidence_level=settings.confidence_level,
                           interval=ci)
        if result.defined and math.isfinite(result.se):
            bench = benchmark(result, scale, benchmark_probability(settings.confidence_level))
    nan = math.nan
    row = CoefficientRow(
        coefficient=result.coefficient, title=info.title, citation=info.citation,
        chance_corrected=info.chance_corrected, estimate=result.estimate, se=result.se,
        observed=result.observed, expected=result.expected, n_units=result.n_units,
        n_raters=result.n_raters, ci_low=ci.low if ci else nan, ci_high=ci.high if ci else nan,
        confidence_level=settings.confidence_level, method=ci.method if ci else "",
        n_excluded=ci.n_excluded if ci else 0, ci_note=note,
        undefined_reason=result.undefined_reason, interpretation=interp, benchmark=bench,
        details=dict(result.details),
        variant=result.variant(data_level, settings.weights),
    )
    return row, ci
