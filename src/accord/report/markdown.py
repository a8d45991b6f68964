"""Markdown rendering of the report (GitHub-flavoured tables).

Every text from the data (labels, rater names, unit ids, study fields) goes
through :func:`escape`: HTML is neutralised (``<script>`` becomes
``&lt;script&gt;``) and Markdown syntax is escaped, so a label is shown as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from accord.report import _text as t
from accord.report import (
    annotators_section,
    groups_section,
    multilabel_section,
    render_judge_lab,
    render_reference,
    render_shapes,
    render_spans,
)
from accord.report._markdown import _table, escape

if TYPE_CHECKING:
    from accord.report.model import PairAnalysis, Report, StudySection

__all__ = ["escape", "render_markdown"]


def render_markdown(report: Report) -> str:
    """The whole report as Markdown text; long labels shortened, and listed in full once
    at the end (:func:`accord.report.labels.for_display`)."""
    from accord.report.labels import for_display, glossary_markdown

    shown, glossary = for_display(report)
    text = _render(shown)
    if not glossary:
        return text
    return text + "\n" + "\n".join(glossary_markdown(glossary)).rstrip() + "\n"


def _render(report: Report) -> str:
    lines = [f"# {escape(report.title)}", ""]
    lines += [f"> caveat: {escape(c)}" for c in report.data.caveats]
    lines += [f"> left out: {escape(x)}" for x in report.left_out]
    lines += ([""] if report.data.caveats or report.left_out else []) + _verdict(report)
    if report.shapes is not None:
        lines += render_shapes.markdown_data(report.shapes) + render_shapes.markdown_lines(
            report.shapes)
        return "\n".join(lines + _notes(report)).rstrip() + "\n"
    if report.spans is not None:
        lines += render_spans.markdown_data(report.spans)
        lines += render_spans.markdown_lines(report.spans, report.settings.confidence_level)
        return "\n".join(lines + _notes(report)).rstrip() + "\n"
    if report.judge_lab is not None and not report.coefficients:  # the judge lab alone
        lines += render_judge_lab.markdown_lines(
            report.judge_lab, report.job.verdict if report.job is not None else "")
        return "\n".join(lines + _notes(report)).rstrip() + "\n"
    level = report.settings.confidence_level
    first = report.job.kind if report.job is not None else "raters"
    reference = render_reference.markdown_lines(report.reference, level)
    multilabel = multilabel_section.markdown_lines(report.multilabel, level)
    judge = _judge(report)
    lead = {"reference": reference, "judge": judge, "label_sets": multilabel}.get(first, [])
    lines += groups_section.markdown_lines(report.groups) + lead
    if report.job is not None and report.job.verdict != report.headline:
        lines += [escape(report.headline), ""]
    crowd = annotators_section.markdown_lines(report.annotators)
    if crowd and report.annotators is not None and report.annotators.leads and not lead:
        lines += crowd  # a crowd: the consensus and who to check first
        crowd = []
    lines += ["## Data", ""] + [f"- {escape(x)}" for x in t.data_lines(report)] + [""]
    lines += _coefficients(report)
    lines += crowd
    for pair in report.pairs:
        lines += _pair(pair, report)
    lines += _raters(report)
    lines += _matrix(report)
    lines += _units(report)
    lines += _bootstrap(report)
    lines += reference if reference is not lead else []
    lines += multilabel if multilabel is not lead else []
    if report.study is not None:
        lines += _study(report.study)
    lines += judge if judge is not lead else []
    lines += render_judge_lab.markdown_lines(report.judge_lab)
    lines += _notes(report)
    return "\n".join(lines).rstrip() + "\n"


def _verdict(report: Report) -> list[str]:
    """The job's answer: the study's decision, or the verdict; then its figure."""
    job = report.job
    if report.study is not None:
        out = _decision(report.study)
    else:
        out = [escape(job.verdict if job is not None else report.headline), ""]
    if job is not None and job.figure:
        out += [f"**{escape(job.figure_name)}: {escape(job.figure)}**", ""]
    return out


def _decision(study: StudySection) -> list[str]:
    d = study.decision
    out = [f"**Decision:** {escape(d.line())}", ""]
    if study.deviations:
        out += [f"**Protocol deviations: {len(study.deviations)}** (see the evidence register).",
                ""]
    return out


def _coefficients(report: Report) -> list[str]:
    lvl = t.level(report.settings.confidence_level)
    head = ["coefficient", "units", "estimate", "SE", f"{lvl} CI", "method",
            escape(t.scale_header(report, "interpretation")), "benchmark"]
    rows = [[escape(r.label), t.units(r), t.estimate(r), t.num(r.se), t.interval(r),
             escape(r.method) if r.method else t.DASH,
             escape(t.interpretation(r)), escape(t.benchmark(r))]
            for r in report.coefficients]
    out = ["## Coefficients", ""] + _table(head, rows, "lrrrrlll")
    bench = t.benchmark_table(report)
    if bench is not None:
        out += [escape(bench[0]) + ".", ""]
        out += _table(["band", "range", "P(band)", "P(band or higher)"],
                      [[escape(c) for c in r] for r in bench[1]], "lrrr")
    notes = t.coefficient_notes(report)
    out += [f"- {escape(n)}" for n in notes] + ([""] if notes else [])
    return out


def _pair(pair: PairAnalysis, report: Report) -> list[str]:
    confidence_level = report.settings.confidence_level
    a, b = (escape(x) for x in pair.raters)
    ws = pair.worksheet
    out = [f"## Worksheet: {a} vs {b}", "", f"Shown because: {escape(pair.reason)}.", ""]
    if ws.shown:
        grid = t.worksheet_grid(ws)
        out += _table([escape(c) for c in grid[0]], [[escape(c) for c in r] for r in grid[1:]],
                      "l" + "r" * (len(grid[0]) - 1))
    else:
        out += ["(too many categories to show the table)", ""]
    out += [escape(t.worksheet_line(ws)), "", "### Why kappa can be low when agreement is high", ""]
    figures = t.context_rows(pair.context, report)
    out += _table(["figure", "value"], [[escape(n), x] for n, x in figures], "lr")
    out += [escape(" ".join(pair.context.explanation)), ""]
    if pair.categories:
        lvl = t.level(confidence_level)
        out += [f"### Per category ({a} vs {b})", ""]
        head = ["category", "kappa (one vs rest)", f"{lvl} CI (asymptotic)", "positive agreement",
                "negative agreement"]
        rows = [[escape(c.category), t.num(c.kappa), t.span(c.ci_low, c.ci_high),
                 t.num(c.positive_agreement), t.num(c.negative_agreement)]
                for c in pair.categories]
        out += _table(head, rows, "lrrrr")
    return out


def _raters(report: Report) -> list[str]:
    cats = report.data.categories
    shown = bool(report.raters) and bool(report.raters[0].distribution)
    head = ["rater", "kind", "ratings"] + ([escape(c) for c in cats] if shown else [])
    if report.loo_coefficient:
        head.append(f"{escape(report.loo_coefficient)} without this rater")
    rows = []
    listed, more = t.listed_raters(report.raters)
    for r in listed:
        row = [escape(r.rater), escape(r.kind), str(r.n_rated)]
        if shown:
            row += [f"{n} ({t.pct(n / r.n_rated if r.n_rated else float('nan'), 0)})"
                    for n in r.distribution]
        if report.loo_coefficient:
            row.append(t.num(r.leave_one_out))
        rows.append(row)
    note = [escape(more), ""] if more else []
    return ["## Raters", "", *note] + _table(head, rows, "llr" + "r" * (len(head) - 3))


def _matrix(report: Report) -> list[str]:
    m = report.matrix
    if m is None:
        return []
    head = ["", *(escape(r) for r in m.raters)]
    rows = [[escape(r), *(t.num(x) if i != j else t.DASH for j, x in enumerate(row))]
            for i, (r, row) in enumerate(zip(m.raters, m.values))]
    return [f"## Rater x rater ({escape(m.coefficient)})", ""] + _table(
        head, rows, "l" + "r" * len(m.raters))


def _units(report: Report) -> list[str]:
    u = report.units
    out = ["## Units with most disagreement", "",
           f"{u.n_disagreements} of the {u.n_compared} units rated by two or more raters have a "
           f"disagreement; the {len(u.rows)} with least agreement are listed "
           "(`accord disagreements` exports them all).", ""]
    if not u.rows:
        return out
    head = ["unit", *(escape(c) for c in u.context_columns), *(escape(r) for r in u.raters),
            "agreeing pairs"]
    rows = [[escape(r.unit), *(escape(x) for x in r.context),
             *(escape(x) if x is not None else t.NOT_RATED for x in r.labels),
             t.pct(r.agreement, 0)] for r in u.rows]
    return out + _table(head, rows, "l" * (len(head) - 1) + "r")


def _bootstrap(report: Report) -> list[str]:
    b = report.bootstrap
    if b is None:
        return []
    seed = b.seed if b.seed is not None else "none (not reproducible)"
    return ["## Bootstrap", "",
            f"{escape(b.coefficient)}: {b.n_resamples} resamples ({escape(b.kind)}), seed {seed}; "
            f"{t.level(b.confidence_level)} interval {t.num(b.ci_low)} to {t.num(b.ci_high)}; "
            f"{b.n_excluded} undefined resamples left out.", ""]


def _study(study: StudySection) -> list[str]:
    src = f" ({escape(study.source)})" if study.source else ""
    out = [f"## Study protocol: evidence register{src}", ""]
    if study.title:
        out += [f"Study: {escape(study.title)}", ""]
    rows = [[escape(r.section), escape(r.item), escape(r.declared) or t.DASH,
             escape(r.observed) or t.DASH, escape(r.status)] for r in study.register]
    out += _table(["section", "field", "declared", "observed", "status"], rows)
    d = study.decision
    out += ["### Decision", "", f"**Decision:** {escape(d.line())}", ""]
    if study.deviations:
        out += ["### Deviations from the protocol", ""]
        out += [f"- {escape(x)}" for x in study.deviations] + [""]
    out += [f"- note: {escape(x)}" for x in study.notes] + ([""] if study.notes else [])
    out += ["### Disposition (to be filled in by the reviewers)", ""]
    out += _table(["field", "value"], [[escape(k.replace("_", " ")), escape(x) or " "]
                                       for k, x in study.disposition])
    return out


def _judge(report: Report) -> list[str]:
    if report.judge is None:
        return []
    from accord.report.judge_section import cells

    c = cells(report.judge)
    out = [f"## LLM judge: {escape(report.judge.judge)}", ""]
    if report.job is None or report.job.kind != "judge":  # else the verdict opens the page
        out += [escape(report.judge.sentence), ""]
    out += _table([escape(h) for h in c["alt_head"]],
                  [[escape(x) for x in row] for row in c["alt_rows"]], "lrrrrl")
    out += [escape(c["agr_title"]), ""]
    out += _table([escape(h) for h in c["agr_head"]],
                  [[escape(x) for x in row] for row in c["agr_rows"]], "lrrrrr")
    out += [f"- {escape(x)}" for x in (*c["lines"], *c["notes"])]
    return out + [""]


def _notes(report: Report) -> list[str]:
    out = ["## Method and notes", "", f"- {escape(t.settings_line(report))}"]
    out += [f"- {escape(n)}" for n in report.notes if n not in report.left_out]
    out += [f"- {x}" for x in dict.fromkeys(f"{escape(r.title)}: {escape(r.citation)}"
                                            for r in report.coefficients)]
    return out + [""]
