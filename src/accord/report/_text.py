"""Number and phrase formatting shared by the renderers (rounding happens only here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from accord.interpret.marginal import MarginalTest
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


def units(row: CoefficientRow) -> str:
    """The units behind a coefficient: ``115``, or ``115 / 120`` when the observed
    agreement is over the units rated twice and the rest over all units (Gwet 2014)."""
    pa = row.details.get("n_units_p_a")
    if isinstance(pa, int) and pa != row.n_units:
        return f"{pa} / {row.n_units}"
    return str(row.n_units)


def units_note(report: Report) -> str | None:
    """What ``a / b`` in the units column means, when it appears."""
    split = [units(r) for r in report.coefficients if "/" in units(r)]
    if not split:
        return None
    a, b = split[0].split(" / ")
    return (f"units {a} / {b}: the observed agreement is over the {a} units rated by two or "
            f"more raters; chance agreement and the SE use all {b} units (Gwet 2014; R "
            "irrCAC's *.raw functions).")


def interval(row: CoefficientRow) -> str:
    """The row's confidence interval, ``0.6012 to 0.8231`` or ``-``."""
    return span(row.ci_low, row.ci_high)


def interpretation(row: CoefficientRow) -> str:
    """The band of the estimate and the bands the interval spans."""
    it = row.interpretation
    if it is None or not it.defined:
        return ""
    if it.grades_interval and it.interval_bands:  # Koo & Li: the interval is the grade
        return f"{it.grade} (the interval)"
    text = it.band
    bands = it.interval_bands
    if bands and (len(bands) > 1 or bands[0] != it.band):
        span = bands[0] if len(bands) == 1 else f"{bands[0]} to {bands[-1]}"
        text += f" (interval: {span})"
    return text


def scale_header(report: Report, word: str) -> str:
    """The interpretation column's header naming its one scale, e.g.
    ``interpretation (Landis & Koch (1977))``; ``word`` alone when no row is graded."""
    titles = list(dict.fromkeys(r.interpretation.scale_title for r in report.coefficients
                                if r.interpretation is not None))
    if not titles:
        return word
    return f"{word} ({' / '.join(titles)})"


def benchmark(row: CoefficientRow) -> str:
    """Gwet's retained band with its one-sided probability, e.g. ``Moderate (97.5%, one-sided)``."""
    b = row.benchmark
    if b is None or b.undefined_reason is not None:
        return ""
    return f"{b.band} ({level(b.confidence_level)}, one-sided)"


def benchmark_note(report: Report) -> str | None:
    """What the benchmark column means next to the interval (None without a benchmark)."""
    b = next((r.benchmark for r in report.coefficients if r.benchmark is not None), None)
    if b is None:
        return None
    cl = report.settings.confidence_level
    return (f"Benchmark (Gwet 2014): the highest band the true value reaches with probability "
            f"{level(b.confidence_level)} (one-sided), the confidence of the lower limit of the "
            f"two-sided {level(cl)} interval; so the band agrees with that lower limit and with "
            "a decision taken on it.")


def benchmark_table(report: Report) -> tuple[str, list[list[str]]] | None:
    """Gwet's benchmark of the primary coefficient: a title and rows (band, range, P, cumul.)."""
    row = next((r for r in report.coefficients if r.coefficient == report.primary), None)
    b = None if row is None else row.benchmark
    if row is None or b is None or b.undefined_reason is not None:
        return None
    title = (f"Gwet's (2014) benchmark of {row.label} on the {b.scale_title} scale: the "
             f"probability that the true value lies in each band; the band retained at a "
             f"cumulative probability of {level(b.confidence_level)} (one-sided) is {b.band}")
    rows = [[r["label"], f"{num(r['lower'], 2)} to {num(r['upper'], 2)}",
             num(r["membership"]), num(r["cumulative"])] for r in b.rows()]
    return title, rows


def coefficient_notes(report: Report) -> list[str]:
    """Undefined reasons, missing intervals and each scale's caveat, once each."""
    out: list[str] = []
    for row in report.coefficients:
        if row.undefined_reason:
            out.append(f"{row.label}: undefined: {row.undefined_reason}")
        elif row.ci_note:
            out.append(f"{row.label}: no interval: {row.ci_note}")
        if row.n_excluded:
            out.append(f"{row.label}: {row.n_excluded} resamples were undefined and left out")
        if isinstance(row.details.get("note"), str):
            out.append(f"{row.label}: {row.details['note']}")
    seen: dict[str, str] = {}
    for row in report.coefficients:
        it = row.interpretation
        if it is not None and it.scale_title not in seen:
            seen[it.scale_title] = it.caveat
        if it is not None and it.note:
            out.append(it.note)
    out += [f"{title}: {caveat}" for title, caveat in seen.items()]
    for extra in (units_note(report), benchmark_note(report)):
        if extra is not None:
            out.append(extra)
    return list(dict.fromkeys(out))


def context_rows(ctx: KappaContext, report: Report | None = None) -> list[tuple[str, str]]:
    """The figures next to kappa, as (name, value) pairs.

    They are unweighted and on the units both raters rated; a name says so where the
    coefficient table shows the same coefficient weighted or on other units.
    """
    weighted = report is not None and report.data.weights is not None
    tag = " (unweighted)" if weighted else ""
    ac1 = "Gwet's AC1" + tag
    row = None if report is None else next(
        (r for r in report.coefficients if r.coefficient == "gwet_ac1"), None)
    if row is not None and report is not None and report.data.n_raters > 2:
        ac1 += " (this pair)"
    elif row is not None and math.isfinite(ctx.n) and row.n_units != ctx.n:
        ac1 += (f" on the {count(ctx.n)} units both rated (the coefficient table's "
                f"{num(row.estimate)} counts all {row.n_units})")
    rows = [("observed agreement p_o" + tag, num(ctx.p_o)),
            ("chance agreement p_e" + tag, num(ctx.p_e)),
            ("Cohen's kappa" + tag, num(ctx.kappa)), ("PABAK", num(ctx.pabak)),
            (ac1, num(ctx.ac1)), ("kappa max", num(ctx.kappa_max))]
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
    """``n = ...   p_o = ...   p_e = ...   kappa = ...``; with weights, the weighted
    figures first (those of the weighted coefficients), then the unweighted ones."""
    kappa = (f"undefined ({ws.kappa_undefined_reason})" if ws.kappa_undefined_reason
             else num(ws.kappa))
    plain = f"p_o = {num(ws.p_o)}   p_e = {num(ws.p_e)}   kappa = {kappa}"
    if ws.weights is None:
        return f"n = {count(ws.n)}   {plain}"
    wk = num(ws.weighted_kappa) if math.isfinite(ws.weighted_kappa) else "undefined"
    return (f"n = {count(ws.n)}   {ws.weights} weights: p_o = {num(ws.weighted_p_o)}   "
            f"p_e = {num(ws.weighted_p_e)}   kappa = {wk};   unweighted: {plain}")


def data_lines(report: Report) -> list[str]:
    """The data summary as short lines."""
    d = report.data
    cats = ", ".join(f"{c} ({n})" for c, n in zip(d.categories[:12], d.category_counts[:12]))
    more = f" and {len(d.categories) - 12} more" if len(d.categories) > 12 else ""
    lines = [
        f"units: {d.n_units} ({d.units_complete} rated by every rater, {d.units_rated_once} "
        f"by only one)",
        f"raters: {d.n_raters} ({_raters(d.raters, d.kinds)})",
        (f"labels: {len(d.categories)} in {d.label_sets} distinct label sets (ratings giving "
         f"each): {cats}{more}" if d.label_sets else
         f"values: {len(d.categories)} distinct, {level_text(report)}, from "
         f"{value_range(report)}" if is_scores(report) else
         f"categories: {len(d.categories)}, {level_text(report)}: {cats}{more}"),
        f"ratings: {ratings_text(report)}; missing {d.n_missing}, "
        f"skipped or dropped otherwise {d.n_skipped}",
    ]
    lines += [f"dropped {n}: {why}" for why, n in d.dropped if why != "missing value" and n]
    lines += [f"note: {note}" for note in d.notes]
    return lines


def value_range(report: Report) -> str:
    """``lowest to highest`` of the values, as written."""
    cats = report.data.categories
    try:
        order = sorted(cats, key=float)
    except ValueError:  # not numbers after all: the order they came in
        order = list(cats)
    return f"{order[0]} to {order[-1]}"


def is_scores(report: Report) -> bool:
    """Scores with many distinct values (interval or ratio): a range, not a list."""
    d = report.data
    return d.level in ("interval", "ratio") and len(d.categories) > 12


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


def level_text(report: Report) -> str:
    """``level nominal``, or ``level ordinal, quadratic weights`` when weights apply."""
    d = report.data
    return f"level {d.level}" + (f", {d.weights} weights" if d.weights else "")


def ratings_text(report: Report) -> str:
    """``235 used of 240 read``; when raters or units were left out after reading,
    ``4 analysed of the 5 used (6 read)``, matching the reader's audit."""
    d = report.data
    if d.ratings_reader_used <= d.n_ratings:
        return f"{d.n_ratings} used of {d.rows_read} read"
    left = d.ratings_reader_used - d.n_ratings
    return (f"{d.n_ratings} analysed of the {d.ratings_reader_used} used ({d.rows_read} read; "
            f"{left} left out with the raters or units not analysed)")


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
