"""Number and phrase formatting shared by the renderers (rounding happens only here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from accord.marginal import MarginalTest
from accord.report.model import CoefficientRow, KappaContext, Report, Worksheet

NOT_RATED = "-"
DASH = "-"


def num(x: float | None, digits: int = 4) -> str:
    """A number at ``digits`` decimals; ``-`` when undefined."""
    if x is None or not math.isfinite(x):
        return DASH
    return f"{x:.{digits}f}"


def count(x: float) -> str:
    """A count without a spurious ``.0`` (weighted counts keep three decimals)."""
    return f"{x:g}" if float(x).is_integer() else f"{x:.3f}"


def pct(x: float | None, digits: int = 1) -> str:
    """A proportion as a percentage."""
    if x is None or not math.isfinite(x):
        return DASH
    return f"{100.0 * x:.{digits}f}%"


def level(x: float) -> str:
    """A confidence level, e.g. ``95%``."""
    return f"{x * 100:g}%"


def estimate(row: CoefficientRow) -> str:
    """The estimate, or ``undefined``."""
    return num(row.estimate) if row.defined else "undefined"


def span(low: float, high: float) -> str:
    """``0.6012 to 0.8231`` or ``-`` when a limit is undefined."""
    if not math.isfinite(low) or not math.isfinite(high):
        return DASH
    return f"{low:.4f} to {high:.4f}"


def interval(row: CoefficientRow) -> str:
    """The row's confidence interval, ``0.6012 to 0.8231`` or ``-``."""
    return span(row.ci_low, row.ci_high)


def interpretation(row: CoefficientRow) -> str:
    """The band of the estimate and the bands the interval spans."""
    it = row.interpretation
    if it is None or not it.defined:
        return ""
    text = it.band
    bands = it.interval_bands
    if bands and (len(bands) > 1 or bands[0] != it.band):
        span = bands[0] if len(bands) == 1 else f"{bands[0]} to {bands[-1]}"
        text += f" (interval: {span})"
    return text


def benchmark(row: CoefficientRow) -> str:
    """Gwet's retained band, e.g. ``Moderate (95%)``."""
    b = row.benchmark
    if b is None or b.undefined_reason is not None:
        return ""
    return f"{b.band} ({level(b.confidence_level)})"


def benchmark_table(report: Report) -> tuple[str, list[list[str]]] | None:
    """Gwet's benchmark of the primary coefficient: a title and rows (band, range, P, cumul.)."""
    row = next((r for r in report.coefficients if r.coefficient == report.primary), None)
    b = None if row is None else row.benchmark
    if row is None or b is None or b.undefined_reason is not None:
        return None
    title = (f"Gwet's (2014) benchmark of {row.title} on the {b.scale_title} scale: the "
             f"probability that the true value lies in each band; the band retained at "
             f"{level(b.confidence_level)} is {b.band}")
    rows = [[r["label"], f"{num(r['lower'], 2)} to {num(r['upper'], 2)}",
             num(r["membership"]), num(r["cumulative"])] for r in b.rows()]
    return title, rows


def coefficient_notes(report: Report) -> list[str]:
    """Undefined reasons, missing intervals and each scale's caveat, once each."""
    out: list[str] = []
    for row in report.coefficients:
        if row.undefined_reason:
            out.append(f"{row.title}: undefined: {row.undefined_reason}")
        elif row.ci_note:
            out.append(f"{row.title}: no interval: {row.ci_note}")
        if row.n_excluded:
            out.append(f"{row.title}: {row.n_excluded} resamples were undefined and left out")
    seen: dict[str, str] = {}
    for row in report.coefficients:
        it = row.interpretation
        if it is not None and it.scale_title not in seen:
            seen[it.scale_title] = it.caveat
        if it is not None and it.note:
            out.append(it.note)
    out += [f"{title}: {caveat}" for title, caveat in seen.items()]
    return list(dict.fromkeys(out))


def context_rows(ctx: KappaContext) -> list[tuple[str, str]]:
    """The figures next to kappa, as (name, value) pairs."""
    rows = [("observed agreement p_o", num(ctx.p_o)), ("chance agreement p_e", num(ctx.p_e)),
            ("Cohen's kappa", num(ctx.kappa)), ("PABAK", num(ctx.pabak)),
            ("Gwet's AC1", num(ctx.ac1)), ("kappa max", num(ctx.kappa_max))]
    if math.isfinite(ctx.prevalence_index):
        rows += [("prevalence index", num(ctx.prevalence_index)),
                 ("bias index", num(ctx.bias_index))]
    else:
        rows += [("marginal difference", num(ctx.marginal_difference))]
    return rows + [(test.title, bias_test(test)) for test in ctx.bias_tests]


def bias_test(test: MarginalTest) -> str:
    """``chi2(3) = 11.96, p = 0.0075`` (or why the test is undefined)."""
    if not test.defined:
        return "undefined: the raters never disagree"
    return f"chi2({test.df:g}) = {test.statistic:.2f}, p = {test.pvalue:.4f}"


def worksheet_grid(ws: Worksheet) -> list[list[str]]:
    """Header and body rows of a worksheet, totals included (text, not escaped)."""
    head = [f"{ws.raters[0]} \\ {ws.raters[1]}", *ws.categories, "total"]
    body = [[cat, *(count(x) for x in row), count(ws.row_totals[i])]
            for i, (cat, row) in enumerate(zip(ws.categories, ws.counts))]
    body.append(["total", *(count(x) for x in ws.col_totals), count(ws.n)])
    return [head, *body]


def worksheet_line(ws: Worksheet) -> str:
    """``p_o = ... p_e = ... kappa = ...``."""
    kappa = (f"undefined ({ws.kappa_undefined_reason})" if ws.kappa_undefined_reason
             else num(ws.kappa))
    return f"n = {count(ws.n)}   p_o = {num(ws.p_o)}   p_e = {num(ws.p_e)}   kappa = {kappa}"


def data_lines(report: Report) -> list[str]:
    """The data summary as short lines."""
    d = report.data
    cats = ", ".join(f"{c} ({n})" for c, n in zip(d.categories[:12], d.category_counts[:12]))
    more = f" and {len(d.categories) - 12} more" if len(d.categories) > 12 else ""
    lines = [
        f"units: {d.n_units} ({d.units_complete} rated by every rater, {d.units_rated_once} "
        f"by only one)",
        f"raters: {d.n_raters} ({_raters(d.raters, d.kinds)})",
        f"categories: {len(d.categories)}, level {d.level}: {cats}{more}",
        f"ratings: {d.n_ratings} used of {d.rows_read} read; missing {d.n_missing}, "
        f"skipped or dropped otherwise {d.n_skipped}",
    ]
    lines += [f"dropped {n}: {why}" for why, n in d.dropped if why != "missing value" and n]
    lines += [f"note: {note}" for note in d.notes]
    return lines


#: Rater names listed in a summary line; a crowd's workers are counted past this.
RATERS_SHOWN = 30


#: Rows of the per-rater table in HTML and Markdown; a crowd's most active raters are
#: listed and the rest counted (the JSON report lists every rater).
RATER_ROWS = 100


def listed_raters(rows: Sequence[Any]) -> tuple[list[Any], str]:
    """The rater rows a document lists (the most ratings first when there are too many)
    and a note on the rest ("" when every rater is listed)."""
    if len(rows) <= RATER_ROWS:
        return list(rows), ""
    top = sorted(range(len(rows)), key=lambda i: -rows[i].n_rated)[:RATER_ROWS]
    note = (f"{len(rows)} raters: the {RATER_ROWS} with most ratings are listed; "
            f"{len(rows) - RATER_ROWS} more are in the JSON report.")
    return [rows[i] for i in sorted(top)], note


def _raters(raters: Sequence[str], kinds: Sequence[str]) -> str:
    return rater_list(raters, kinds)


def rater_list(raters: Sequence[str], kinds: Sequence[str]) -> str:
    """The raters with their kinds, the first :data:`RATERS_SHOWN` named and the rest counted."""
    shown = [r if k == "human" else f"{r} [{k}]"
             for r, k in zip(raters[:RATERS_SHOWN], kinds[:RATERS_SHOWN])]
    more = len(raters) - RATERS_SHOWN
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def settings_line(report: Report) -> str:
    """How the intervals were computed, and the accord version."""
    s = report.settings
    how = s.method
    if s.n_resamples is not None:
        how += f", {s.n_resamples} resamples, seed {s.seed if s.seed is not None else 'none'}"
    return f"{level(s.confidence_level)} intervals: {how}; accord {report.accord_version}"
